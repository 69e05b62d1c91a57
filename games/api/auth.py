"""Token authentication: knox's hashed tokens, sent as ``Authorization: Token <token>``."""

from knox.auth import TokenAuthentication as KnoxTokenAuthentication


class TokenAuthentication(KnoxTokenAuthentication):
    """knox, unchanged but for a stable import path (settings and the schema refer to it)."""
