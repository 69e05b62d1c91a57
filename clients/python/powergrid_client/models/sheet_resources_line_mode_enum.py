from enum import StrEnum


class SheetResourcesLineModeEnum(StrEnum):
    BUY = "buy"
    FUEL = "fuel"

    def __str__(self) -> str:
        return str(self.value)
