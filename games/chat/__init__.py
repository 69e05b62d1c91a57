"""In-game chat: the players' messages (``services`` writes, ``selectors`` reads)."""
