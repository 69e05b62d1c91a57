from enum import StrEnum


class TakebackStatusEnum(StrEnum):
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    PENDING = "pending"
    VOID = "void"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
