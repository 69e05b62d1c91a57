"""Turn deadlines: the clock (pure arithmetic), the sweeper and bot turns, vacations."""
