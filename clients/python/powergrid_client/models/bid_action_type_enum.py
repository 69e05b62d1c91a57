from enum import StrEnum


class BidActionTypeEnum(StrEnum):
    BID = "bid"

    def __str__(self) -> str:
        return str(self.value)
