from enum import StrEnum


class PhaseEnum(StrEnum):
    AUCTION = "auction"
    BUILD = "build"
    BUREAUCRACY = "bureaucracy"
    FINISHED = "finished"
    RESOURCES = "resources"

    def __str__(self) -> str:
        return str(self.value)
