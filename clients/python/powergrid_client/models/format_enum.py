from enum import StrEnum


class FormatEnum(StrEnum):
    DISCORD = "discord"
    GENERIC = "generic"
    SLACK = "slack"

    def __str__(self) -> str:
        return str(self.value)
