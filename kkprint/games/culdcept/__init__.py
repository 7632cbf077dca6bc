"""A Culdcept-style game for one standard deck (RULES §5)."""
