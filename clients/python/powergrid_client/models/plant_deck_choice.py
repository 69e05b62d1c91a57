from enum import StrEnum


class PlantDeckChoice(StrEnum):
    BASE = "base"
    MIXED = "mixed"
    NEW = "new"

    def __str__(self) -> str:
        return str(self.value)
