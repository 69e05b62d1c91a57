from enum import StrEnum


class ColourEnum(StrEnum):
    BLACK = "black"
    BLUE = "blue"
    GREEN = "green"
    PURPLE = "purple"
    RED = "red"
    YELLOW = "yellow"

    def __str__(self) -> str:
        return str(self.value)
