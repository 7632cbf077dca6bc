"""Web of Power: the board game (RULES §2) and the standard-deck trump map (RULES §3)."""
