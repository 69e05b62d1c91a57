from enum import StrEnum


class BuyResourcesActionTypeEnum(StrEnum):
    BUY_RESOURCES = "buy_resources"

    def __str__(self) -> str:
        return str(self.value)
