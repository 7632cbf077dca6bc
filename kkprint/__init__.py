"""kkprint: print-and-play PDFs for board games, and scorers for the games that were played."""

__version__ = "0.1.0"
