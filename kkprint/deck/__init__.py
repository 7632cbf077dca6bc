"""Custom decks: one YAML file (plus optional CSV and art) becomes a print-ready PDF."""
