from enum import StrEnum


class SourceEnum(StrEnum):
    API = "api"
    BOT = "bot"
    EMAIL = "email"
    PLAN = "plan"
    SEALED = "sealed"
    SHEET = "sheet"
    TIMEOUT = "timeout"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
