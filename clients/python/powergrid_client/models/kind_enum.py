from enum import StrEnum


class KindEnum(StrEnum):
    AUTO_PASS = "auto_pass"
    BUILD = "build"
    BUY = "buy"
    PASS_WHEN_NOTHING = "pass_when_nothing"
    POWER = "power"
    PROXY_BID = "proxy_bid"

    def __str__(self) -> str:
        return str(self.value)
