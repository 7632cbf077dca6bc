"""One package per game: its definition model, its rules, and the components it prints."""
