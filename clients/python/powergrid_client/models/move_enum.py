from enum import StrEnum


class MoveEnum(StrEnum):
    DOWN = "down"
    STAY = "stay"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
