from enum import StrEnum


class EventsEnum(StrEnum):
    FINAL_STANDINGS = "final_standings"
    GAME_OVER = "game_over"
    GAME_STARTED = "game_started"
    ROUND_STARTED = "round_started"
    SHEET_ASKED = "sheet_asked"
    TABLE_READY = "table_ready"
    TAKEBACK = "takeback"
    TAKEBACK_ASKED = "takeback_asked"
    YOUR_TURN = "your_turn"

    def __str__(self) -> str:
        return str(self.value)
