from enum import StrEnum


class DiscardPlantActionTypeEnum(StrEnum):
    DISCARD_PLANT = "discard_plant"

    def __str__(self) -> str:
        return str(self.value)
