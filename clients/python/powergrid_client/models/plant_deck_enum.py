from enum import StrEnum


class PlantDeckEnum(StrEnum):
    BASE = "base"
    MIXED = "mixed"
    NEW = "new"

    def __str__(self) -> str:
        return str(self.value)
