from enum import StrEnum


class VariantEnum(StrEnum):
    FIRST_GAME = "first_game"
    SEALED_BID = "sealed_bid"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
