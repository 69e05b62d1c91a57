from enum import StrEnum


class ChoosePlantActionTypeEnum(StrEnum):
    CHOOSE_PLANT = "choose_plant"

    def __str__(self) -> str:
        return str(self.value)
