"""Um Krone und Kragen / To Court the King (RULES §4)."""
