from enum import StrEnum


class FuelEnum(StrEnum):
    COAL = "coal"
    ECOLOGICAL = "ecological"
    FUSION = "fusion"
    GARBAGE = "garbage"
    HYBRID = "hybrid"
    OIL = "oil"
    URANIUM = "uranium"

    def __str__(self) -> str:
        return str(self.value)
