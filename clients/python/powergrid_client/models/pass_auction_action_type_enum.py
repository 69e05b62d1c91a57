from enum import StrEnum


class PassAuctionActionTypeEnum(StrEnum):
    PASS_AUCTION = "pass_auction"

    def __str__(self) -> str:
        return str(self.value)
