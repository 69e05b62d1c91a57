from enum import StrEnum


class InvitationsEnum(StrEnum):
    ANYONE = "anyone"
    NOBODY = "nobody"
    PLAYED_WITH = "played_with"

    def __str__(self) -> str:
        return str(self.value)
