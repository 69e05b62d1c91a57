"""Outgoing webhooks: "your turn", "game started", "game over" to Discord, Slack or any HTTPS
endpoint (signed JSON), delivered through an outbox of their own like the emails.

``events`` turns what the turn hook notices into ``WebhookDelivery`` rows in the move's
transaction; ``sending`` posts them after commit and retries with backoff; ``safety`` refuses
addresses inside private networks; ``services`` creates, lists and deletes webhooks.
"""
