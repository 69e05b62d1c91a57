from enum import StrEnum


class TournamentsListStatus(StrEnum):
    FINISHED = "finished"
    OPEN = "open"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
