"""Email notifications: the outbox (outbox.py), sending (sending.py), building emails (emails.py),
signed links (links.py), the daily digest (digest.py), the pages behind the links (views.py) and
the development mailbox (mailbox.py)."""
