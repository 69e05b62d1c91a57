from enum import StrEnum


class NotificationModeEnum(StrEnum):
    DIGEST = "digest"
    EVERY_TURN = "every_turn"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
