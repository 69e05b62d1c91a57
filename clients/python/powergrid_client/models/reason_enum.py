from enum import StrEnum


class ReasonEnum(StrEnum):
    COMPLAINT = "complaint"
    HARD_BOUNCE = "hard_bounce"
    REJECTED = "rejected"
    SOFT_BOUNCES = "soft_bounces"

    def __str__(self) -> str:
        return str(self.value)
