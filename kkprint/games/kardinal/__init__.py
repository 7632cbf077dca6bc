"""Kardinal & König Kartenspiel (RULES §1)."""
