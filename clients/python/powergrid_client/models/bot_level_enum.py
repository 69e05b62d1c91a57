from enum import StrEnum


class BotLevelEnum(StrEnum):
    ADVANCED = "advanced"
    BEGINNER = "beginner"
    EXPERT = "expert"
    HEURISTIC = "heuristic"

    def __str__(self) -> str:
        return str(self.value)
