"""Strength, support and taking a square (RULES §5). Pure functions on card ranks."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from kkprint.base.i18n import Msg
from kkprint.base.records import record

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
SUPPORT_LIMIT = 11


class RuleError(ValueError):
    """A card or combination the rules do not allow; the message says which rule."""


def rank(card: str) -> str:
    """Normalise a rank as typed: 'a', '1', '１０', 'k' → 'A', 'A', '10', 'K'."""
    text = unicodedata.normalize("NFKC", str(card)).strip().upper()
    text = {"1": "A", "T": "10"}.get(text, text)
    if text not in RANKS:
        raise RuleError(Msg("'{card}' is not a card rank (A, 2–10, J, Q, K)", card=card))
    return text


@record
class Play:
    """One card, or a support of two, as it lies on a square or is offered."""

    cards: tuple[str, ...]

    @property
    def strength(self) -> int:
        return sum(RANKS[c] for c in self.cards)

    @property
    def single_ace(self) -> bool:
        return self.cards == ("A",)

    @property
    def single_king(self) -> bool:
        return self.cards == ("K",)

    def __str__(self) -> str:
        return "+".join(self.cards)


def play(cards: Sequence[str] | str, support_limit: int = SUPPORT_LIMIT) -> Play:
    """A legal single card or support: two cards from A–10 whose sum is at most the limit (11)."""
    items = [cards] if isinstance(cards, str) else list(cards)
    if len(items) == 1 and isinstance(items[0], str) and "+" in items[0]:
        items = items[0].split("+")
    ranks = tuple(rank(c) for c in items)
    if not ranks:
        raise RuleError(Msg("no card given"))
    if len(ranks) > 2:
        raise RuleError(Msg("a support is two cards, not {n}", n=len(ranks)))
    if len(ranks) == 2:
        if any(RANKS[r] > 10 for r in ranks):
            raise RuleError(Msg("support {cards}: only A–10 may support", cards="+".join(ranks)))
        if sum(RANKS[r] for r in ranks) > support_limit:
            raise RuleError(
                Msg(
                    "support {cards} sums to {total}, over {limit}",
                    cards="+".join(ranks),
                    total=sum(RANKS[r] for r in ranks),
                    limit=support_limit,
                )
            )
    return Play(ranks)


@record
class Battle:
    taken: bool
    reason: Msg


def battle(on_square: Play, offered: Play, own_square: bool = False) -> Battle:
    """Does ``offered`` take the square holding ``on_square``?"""
    if own_square:
        return Battle(
            True,
            Msg(
                "your own square: you may swap {held} for {offered}, even a weaker card",
                held=str(on_square),
                offered=str(offered),
            ),
        )
    if offered.single_ace and on_square.single_king:
        return Battle(True, Msg("a single A beats K"))
    if on_square.single_ace and offered.single_king:
        return Battle(False, Msg("a single A holds against K (A beats K on either side)"))
    if "A" in offered.cards and len(offered.cards) == 2 and on_square.single_king:
        return Battle(
            False,
            Msg(
                "an A inside a support never beats K ({offered} = {strength} < 13)",
                offered=str(offered),
                strength=offered.strength,
            ),
        )
    if offered.strength > on_square.strength:
        return Battle(
            True,
            Msg(
                "{offered} ({strength}) is stronger than {held} ({held_strength})",
                offered=str(offered),
                strength=offered.strength,
                held=str(on_square),
                held_strength=on_square.strength,
            ),
        )
    if offered.strength == on_square.strength:
        return Battle(False, Msg("equal strength ({strength}) does not take a square", strength=offered.strength))
    if offered.single_ace:
        return Battle(False, Msg("a single A beats only K, not {held}", held=str(on_square)))
    return Battle(
        False,
        Msg(
            "{offered} ({strength}) is weaker than {held} ({held_strength})",
            offered=str(offered),
            strength=offered.strength,
            held=str(on_square),
            held_strength=on_square.strength,
        ),
    )
