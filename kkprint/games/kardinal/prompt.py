"""Walking the table land by land at the prompt, for players who did not write a tally file.

Input and output are passed in as functions, so the same walk works at a terminal, from a
pipe, and in tests. Every answer is checked at once with the same rules as a tally file; a bad
answer is explained and asked again. The walk can start from a tally saved half-way: whatever
is in it already is not asked again.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Callable

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, text, tr
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.tally import MAX_PLAYERS, MIN_PLAYERS, parse_tally

Ask = Callable[[str], "str | None"]  # returns None at end of input
Say = Callable[[str], None]
Changed = Callable[[dict], None]  # told of every accepted answer, e.g. to save the tally
SOURCE = "<prompt>"
COUNTERS = ("ships", "carriages", "minus_two")
# The words a player may use for the counters in a correction, in every language we speak.
COUNTER_WORDS = {
    "ships": {"ships", "ship", "船", "schiffe", "schiff"},
    "carriages": {"carriages", "carriage", "馬車", "kutschen", "kutsche"},
    "minus_two": {"minus_two", "-2", "−2", "-2チップ", "−2チップ", "chips", "チップ"},
}


def counter_name(key: str, lang: str) -> str:
    return {"ships": tr("ships", lang), "carriages": tr("carriages", lang), "minus_two": tr("−2 chips", lang)}[key]


def find_counter(word: str) -> str | None:
    folded = unicodedata.normalize("NFKC", word).strip().lower()
    return next(
        (key for key, words in COUNTER_WORDS.items() if folded in {unicodedata.normalize("NFKC", w) for w in words}),
        None,
    )


class _Ended(Exception):
    pass


def _ask(ask: Ask, question: str) -> str:
    answer = ask(question)
    if answer is None:
        raise _Ended
    return answer.strip()


def _numbers(answer: str, most: int) -> list[str]:
    parts = answer.replace(",", " ").replace("、", " ").replace("　", " ").split()
    if len(parts) > most:
        raise InputError(
            Msg("expected at most {most} numbers, got {count}", most=most, count=len(parts)), source=SOURCE
        )
    return parts


def _problem(data: dict, game: KardinalGame) -> InputError | None:
    try:
        parse_tally(data, SOURCE, game)
        return None
    except InputError as err:
        return err


def _accepted(data: dict, game: KardinalGame, say: Say, lang: str) -> bool:
    problem = _problem(data, game)
    if problem is not None:
        say(f"  ! {problem.render(lang, with_source=False)}")
    return problem is None


def collect(
    game: KardinalGame,
    ask: Ask,
    say: Say,
    lang: str = "ja",
    data: dict | None = None,
    changed: Changed = lambda data: None,
) -> dict:
    """Ask for names, then each land's cards and arms per player, then roads and chips — all
    that ``data`` (a tally saved half-way) does not hold yet."""
    try:
        return _collect(game, ask, say, lang, copy.deepcopy(data) if data else {}, changed)
    except _Ended:
        raise InputError(Msg("input ended before the tally was complete"), source=SOURCE) from None


def _collect(game: KardinalGame, ask: Ask, say: Say, lang: str, data: dict, changed: Changed) -> dict:
    if not data.get("players"):
        names = _names(ask, say, lang)
        data = {"players": [{"name": n, "lands": {}} for n in names]}
        changed(data)
    players = data["players"]
    for player in players:
        player.setdefault("lands", {})
    names = [p["name"] for p in players]
    if any(land.id not in p["lands"] for land in game.lands for p in players):
        say(tr("For each land: the player's cards and largest number of identical arms, e.g. '3 2' (empty = 0).", lang))
    for land in game.lands:
        for index, name in enumerate(names):
            if land.id in data["players"][index]["lands"]:
                continue
            while True:
                answer = _ask(ask, f"{land.names(lang)} ({land.value}) — {name}: ")
                try:
                    parts = _numbers(answer, 2)
                except InputError as err:
                    say(f"  ! {text(err.message, lang)}")
                    continue
                trial = copy.deepcopy(data)
                entry = {"cards": parts[0] if parts else 0, "arms": parts[1] if len(parts) > 1 else 0}
                trial["players"][index]["lands"][land.id] = entry
                if _accepted(trial, game, say, lang):
                    data = trial
                    changed(data)
                    break
    for key in COUNTERS:
        for index, name in enumerate(names):
            if key in data["players"][index]:
                continue
            while True:
                answer = _ask(ask, f"{counter_name(key, lang)} — {name}: ") or "0"
                trial = copy.deepcopy(data)
                trial["players"][index][key] = answer
                if _accepted(trial, game, say, lang):
                    data = trial
                    changed(data)
                    break
    return data


def _names(ask: Ask, say: Say, lang: str) -> list[str]:
    say(
        tr(
            "Player names, one per line ({low}–{high}); an empty line ends the list.",
            lang,
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    )
    names: list[str] = []
    while len(names) < MAX_PLAYERS:
        name = _ask(ask, tr("player {n}: ", lang, n=len(names) + 1))
        if not name:
            if len(names) >= MIN_PLAYERS:
                break
            say("  ! " + tr("at least {low} players", lang, low=MIN_PLAYERS))
            continue
        if name in names:
            say("  ! " + tr("'{name}' is already playing", lang, name=name))
            continue
        names.append(name)
    return names


def correct(game: KardinalGame, data: dict, ask: Ask, say: Say, lang: str = "en") -> tuple[dict, bool, bool]:
    """One correction: 'NAME LAND CARDS [ARMS]' or 'NAME ships|carriages|−2 N', land and counter
    in any language we speak (France, フランス, Frankreich; 船, 馬車, −2).

    Returns the data, whether the user is done, and whether the data changed (so that the table
    is shown again only after a correction that was accepted; a refused one shows only why)."""
    answer = ask(tr("correction (e.g. 'Aki France 3 2' or 'Aki ships 5'), or empty to finish: ", lang))
    if answer is None or not answer.strip():
        return data, True, False
    parts = answer.split()
    names = [p["name"] for p in data["players"]]
    if len(parts) < 3 or parts[0] not in names:
        say(
            "  ! "
            + tr(
                "start with a player's name ({names}), then a land or ships/carriages/−2, then numbers",
                lang,
                names=", ".join(names),
            )
        )
        return data, False, False
    trial = copy.deepcopy(data)
    player = trial["players"][names.index(parts[0])]
    counter = find_counter(parts[1])
    if counter is not None:
        player[counter] = parts[2]
    else:
        land = game.find_land(parts[1])
        if land is None:
            known = ", ".join(land.names(lang) for land in game.lands)
            say("  ! " + tr("unknown land '{name}'; known: {known}", lang, name=parts[1], known=known))
            return data, False, False
        player["lands"][land.id] = {"cards": parts[2], "arms": parts[3] if len(parts) > 3 else 0}
    if _accepted(trial, game, say, lang):
        return trial, False, True
    return data, False, False


def walk(
    game: KardinalGame,
    ask: Ask,
    say: Say,
    show: Callable[[dict], None],
    lang: str,
    data: dict | None = None,
    changed: Changed = lambda data: None,
) -> dict:
    """The whole session: the questions not answered yet, the table, then corrections until an
    empty answer. The table is shown again only after an accepted correction."""
    data = collect(game, ask, say, lang, data, changed)
    show(data)
    while True:
        data, done, accepted = correct(game, data, ask, say, lang)
        if done:
            return data
        if accepted:
            changed(data)
            show(data)
