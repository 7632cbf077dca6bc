"""Kardinal & König final scoring (RULES §1). Pure: tallies in, explained scores out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field

from kkprint.base.i18n import Counted, Msg
from kkprint.base.records import record
from kkprint.scoring.majority import leaders, rank_points

ROAD_MINIMUM = 5
CHIP_PENALTY = 2


@record
class LandTally:
    cards: int = 0
    arms: int = 0  # the largest number of identical arms among the player's cards of the land


@record
class PlayerTally:
    name: str
    lands: dict[str, LandTally] = field(default_factory=dict)
    ships: int = 0
    carriages: int = 0
    minus_two: int = 0

    def land(self, land_id: str) -> LandTally:
        return self.lands.get(land_id, LandTally())

    @property
    def land_cards(self) -> int:
        return sum(t.cards for t in self.lands.values())


@record
class LandRef:
    """What scoring needs to know of a land: its id and value (its number of cards)."""

    id: str
    value: int


@record
class LandScore:
    land: int
    arms: int
    land_reason: Msg
    arms_reason: Msg
    cards: int = 0  # what was counted, shown beside the points so a table can be checked
    counted_arms: int = 0


@record
class PlayerScore:
    name: str
    lands: dict[str, LandScore]
    subtotal: int
    ship_points: int
    carriage_points: int
    minus_two: int
    total: int
    land_cards: int
    ships: int = 0
    carriages: int = 0

    @property
    def roads(self) -> int:
        return self.ship_points + self.carriage_points

    @property
    def penalty(self) -> int:
        return CHIP_PENALTY * self.minus_two


@record
class KardinalResult:
    players: list[PlayerScore]
    winners: list[str]
    reason: Msg


def road_points(count: int) -> int:
    """Ships (or carriages) score their number from five on; fewer score nothing."""
    return count if count >= ROAD_MINIMUM else 0


def _land_reasons(value: int, counts: list[int], points: list[int]) -> list[Msg]:
    best = max(counts, default=0)
    reasons = []
    for count, point in zip(counts, points):
        if count == 0:
            reasons.append(Msg("no cards"))
        elif count == best:
            reasons.append(Msg("most cards ({count}): the land's value {value}", count=count, value=value))
        else:
            reasons.append(
                Counted(
                    "{count} card: the next higher count is {points}",
                    "{count} cards: the next higher count is {points}",
                    count,
                    count=count,
                    points=point,
                )
            )
    return reasons


def score_land(land: LandRef, tallies: Sequence[LandTally]) -> list[LandScore]:
    counts = [t.cards for t in tallies]
    land_points = rank_points(counts, land.value)
    land_reasons = _land_reasons(land.value, counts, land_points)
    arms = [t.arms if t.cards > 0 else 0 for t in tallies]
    top = leaders(arms)
    scores = []
    for i, tally in enumerate(tallies):
        if i in top:
            arms_points, arms_reason = arms[i], Msg("most identical arms ({arms})", arms=arms[i])
        elif arms[i]:
            arms_points, arms_reason = 0, Msg("{arms} identical arms, fewer than {most}", arms=arms[i], most=max(arms))
        else:
            arms_points, arms_reason = 0, Msg("no arms")
        scores.append(LandScore(land_points[i], arms_points, land_reasons[i], arms_reason, tally.cards, tally.arms))
    return scores


def score_game(lands: Sequence[LandRef], players: Sequence[PlayerTally]) -> KardinalResult:
    """Score a finished game: lands in chart order, players in seating order."""
    per_land = {land.id: score_land(land, [p.land(land.id) for p in players]) for land in lands}
    scores = []
    for index, player in enumerate(players):
        land_scores = {land.id: per_land[land.id][index] for land in lands}
        subtotal = sum(s.land + s.arms for s in land_scores.values())
        ships, carriages = road_points(player.ships), road_points(player.carriages)
        total = subtotal + ships + carriages - CHIP_PENALTY * player.minus_two
        scores.append(
            PlayerScore(
                player.name,
                land_scores,
                subtotal,
                ships,
                carriages,
                player.minus_two,
                total,
                player.land_cards,
                player.ships,
                player.carriages,
            )
        )
    winners, reason = decide_winners(scores)
    return KardinalResult(scores, winners, reason)


def decide_winners(scores: Sequence[PlayerScore]) -> tuple[list[str], Msg]:
    """Highest total; tied → more land cards; still tied → everyone tied shares the win."""
    if not scores:
        return [], Msg("no players")
    best = max(s.total for s in scores)
    top = [s for s in scores if s.total == best]
    if len(top) == 1:
        return [top[0].name], Msg("highest total ({total})", total=best)
    most_cards = max(s.land_cards for s in top)
    still = [s for s in top if s.land_cards == most_cards]
    if len(still) == 1:
        return [still[0].name], Msg("tied on {total} points; more land cards ({cards})", total=best, cards=most_cards)
    return [s.name for s in still], Msg(
        "draw: tied on {total} points and {cards} land cards", total=best, cards=most_cards
    )
