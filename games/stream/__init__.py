"""The event stream: ``GET /api/v1/stream/`` (server-sent events), see ``views``."""
