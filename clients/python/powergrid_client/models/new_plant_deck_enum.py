from enum import StrEnum


class NewPlantDeckEnum(StrEnum):
    MIXED = "mixed"
    NEW = "new"

    def __str__(self) -> str:
        return str(self.value)
