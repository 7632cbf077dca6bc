"""Which characters a dice result may take, and who takes the King in the final round.

Pure functions on lists of die values; every condition is exactly as RULES §4 words it
("n of a kind" means at least n dice show one value).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kkprint.base.i18n import Joined, Msg
from kkprint.base.records import record

MAX_DICE = 12  # the box holds twelve dice


def counts(dice: Sequence[int]) -> Counter:
    return Counter(dice)


def of_a_kind(dice: Sequence[int], n: int) -> bool:
    return any(c >= n for c in counts(dice).values())


def pairs(dice: Sequence[int], n: int) -> bool:
    """Σ⌊count/2⌋ ≥ n: four of a kind is two pairs, 4+2 and six of a kind are three."""
    return sum(c // 2 for c in counts(dice).values()) >= n


def full_house(dice: Sequence[int]) -> bool:
    values = sorted(counts(dice).values(), reverse=True)
    return (len(values) >= 2 and values[0] >= 3 and values[1] >= 2) or (bool(values) and values[0] >= 5)


def two_triplets(dice: Sequence[int]) -> bool:
    values = sorted(counts(dice).values(), reverse=True)
    return (len(values) >= 2 and values[1] >= 3) or (bool(values) and values[0] >= 6)


def straight(dice: Sequence[int], runs: Sequence[Sequence[int]]) -> bool:
    present = set(dice)
    return any(set(run) <= present for run in runs)


def condition_met(condition: dict, dice: Sequence[int]) -> bool:
    kind = condition["kind"]
    if kind == "any":
        return True
    if kind == "with_king":
        return of_a_kind(dice, 7)
    if kind == "of_a_kind":
        return of_a_kind(dice, condition["n"])
    if kind == "pairs":
        return pairs(dice, condition["n"])
    if kind == "full_house":
        return full_house(dice)
    if kind == "two_triplets":
        return two_triplets(dice)
    if kind == "straight":
        return straight(dice, condition["values"])
    if kind == "total":
        return sum(dice) >= condition["at_least"]
    if kind == "all_odd":
        return bool(dice) and all(d % 2 for d in dice)
    if kind == "all_even":
        return bool(dice) and all(d % 2 == 0 for d in dice)
    raise ValueError(f"unknown condition kind {kind!r}")


CONDITION_KINDS = (
    "any",
    "with_king",
    "of_a_kind",
    "pairs",
    "full_house",
    "two_triplets",
    "straight",
    "total",
    "all_odd",
    "all_even",
)


@record(order=True)
class Strength:
    """A final-round result's strength: more dice of one value beat fewer, then the higher value."""

    count: int
    value: int

    def __str__(self) -> str:
        return f"{self.count}×{self.value}" if self.count else "–"


def strength(dice: Sequence[int]) -> Strength:
    if not dice:
        return Strength(0, 0)
    return max(Strength(c, v) for v, c in counts(dice).items())


@record
class FinalRoll:
    name: str
    dice: tuple[int, ...]
    strength: Strength


@record
class FinalResult:
    rolls: list[FinalRoll]  # as given (the input order)
    rolling_order: list[str]  # who rolled when: the Queen's holder last
    winner: str
    reason: Msg | Joined


def final_round(rolls: Sequence[tuple[str, Sequence[int]]], queen: str | None) -> FinalResult:
    """Who takes the King: the best strength, the earlier roller keeping ties; then the Queen's
    holder, rolling last, takes it back on a strength equal to or better than that best."""
    results = [FinalRoll(name, tuple(dice), strength(dice)) for name, dice in rolls]
    challengers = [r for r in results if r.name != queen]
    order = [r.name for r in challengers] + ([queen] if queen is not None else [])
    best = None
    for roll in challengers:
        if best is None or roll.strength > best.strength:
            best = roll
    queen_roll = next((r for r in results if r.name == queen), None)
    if queen_roll is not None and (best is None or queen_roll.strength >= best.strength):
        reason = (
            Msg("the Queen's holder matches or beats the best result ({strength})", strength=str(queen_roll.strength))
            if best
            else Msg("the Queen's holder is alone ({strength})", strength=str(queen_roll.strength))
        )
        return FinalResult(results, order, queen_roll.name, reason)
    assert best is not None
    tied_earlier = [r.name for r in challengers if r.strength == best.strength and r is not best]
    parts = [Msg("strongest result ({strength})", strength=str(best.strength))]
    if tied_earlier:
        parts.append(Msg("rolled before {names} with equal strength", names=", ".join(tied_earlier)))
    if queen_roll is not None:
        parts.append(Msg("the Queen's holder had only {strength}", strength=str(queen_roll.strength)))
    return FinalResult(results, order, best.name, Joined(parts))


def why_not(condition: dict, dice: Sequence[int]) -> Msg:
    """Why ``dice`` do not meet ``condition``, in a few words a player understands."""
    tally = counts(dice)
    most = max(tally.values(), default=0)
    kind = condition["kind"]
    if kind == "with_king":
        return Msg("comes only with the King (seven of a kind)")
    if kind == "of_a_kind":
        return Msg("needs {n} of a kind; at most {most} alike", n=condition["n"], most=most)
    if kind == "pairs":
        return Msg("needs {n} pairs; has {pairs}", n=condition["n"], pairs=sum(c // 2 for c in tally.values()))
    if kind == "full_house":
        return Msg("needs three of a kind and a pair (or five of a kind)")
    if kind == "two_triplets":
        return Msg("needs two triplets (or six of a kind)")
    if kind == "straight":
        missing = min((sorted(set(run) - set(dice)) for run in condition["values"]), key=len)
        return Msg("straight is missing {values}", values=", ".join(map(str, missing)))
    if kind == "total":
        return Msg("needs a total of {least}; has {total}", least=condition["at_least"], total=sum(dice))
    if kind == "all_odd":
        return Msg(
            "every die must be odd; {values} are even",
            values=", ".join(map(str, sorted({d for d in dice if d % 2 == 0}))),
        )
    if kind == "all_even":
        return Msg(
            "every die must be even; {values} are odd", values=", ".join(map(str, sorted({d for d in dice if d % 2})))
        )
    return Msg("condition not met")
