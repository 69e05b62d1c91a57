from enum import StrEnum


class BuildActionTypeEnum(StrEnum):
    BUILD = "build"

    def __str__(self) -> str:
        return str(self.value)
