from enum import StrEnum


class SheetBuildLineModeEnum(StrEnum):
    AUTO = "auto"
    CITIES = "cities"

    def __str__(self) -> str:
        return str(self.value)
