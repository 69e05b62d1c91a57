from enum import StrEnum


class PassBidActionTypeEnum(StrEnum):
    PASS_BID = "pass_bid"

    def __str__(self) -> str:
        return str(self.value)
