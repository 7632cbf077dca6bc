"""Pure scoring rules shared by several games. No I/O, no CLI, no PDF."""
