from enum import StrEnum


class EventsEnum(StrEnum):
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"
    TAKEBACK = "takeback"
    TAKEBACK_ASKED = "takeback_asked"
    YOUR_TURN = "your_turn"

    def __str__(self) -> str:
        return str(self.value)
