from enum import StrEnum


class PowerActionTypeEnum(StrEnum):
    POWER = "power"

    def __str__(self) -> str:
        return str(self.value)
