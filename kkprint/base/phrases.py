"""Where Japanese may break between lines: between its phrases, as BudouX reads them. The paper
(kkprint.engine.text) and the terminal (the help's wrapping, kkprint.cli.usage) break lines the
same way, with one parser: its model is read on first use, once a process (reading it again for
every line of help made Japanese ``--help`` take half again as long as English)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=1)
def _parser():
    import budoux

    return budoux.load_default_japanese_parser()


def japanese_phrases(text: str) -> list[str]:
    """``text`` cut into its phrases (their concatenation is ``text``)."""
    return _parser().parse(text)
