"""RULES §0: rank points for one area from each player's count there."""

from __future__ import annotations

from collections.abc import Sequence


def rank_points(counts: Sequence[int], top_value: int) -> list[int]:
    """Points per player, in the order of ``counts``.

    Zero scores zero; every holder of the highest count scores ``top_value``; everyone else
    scores the next-higher distinct count held by anyone (the player "directly above" them).
    """
    distinct = sorted({c for c in counts if c > 0}, reverse=True)
    points = []
    for count in counts:
        if count <= 0:
            points.append(0)
        elif count == distinct[0]:
            points.append(top_value)
        else:
            points.append(distinct[distinct.index(count) - 1])
    return points


def leaders(values: Sequence[int]) -> set[int]:
    """Indices holding the highest value, if that value is at least 1."""
    best = max(values, default=0)
    return {i for i, value in enumerate(values) if value == best} if best > 0 else set()
