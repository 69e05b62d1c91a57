from enum import StrEnum


class OfferedEnum(StrEnum):
    LEFT = "left"
    SEEKING = "seeking"
    TIMED_OUT = "timed_out"

    def __str__(self) -> str:
        return str(self.value)
