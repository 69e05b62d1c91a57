from enum import StrEnum


class StreamResyncEventReason(StrEnum):
    EXPIRED = "expired"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
