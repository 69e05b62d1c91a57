from enum import StrEnum


class SealBidActionTypeEnum(StrEnum):
    SEAL_BID = "seal_bid"

    def __str__(self) -> str:
        return str(self.value)
