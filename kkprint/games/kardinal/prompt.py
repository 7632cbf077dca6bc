"""Walking the table land by land at the prompt, for players who did not write a tally file.

Input and output are passed in as functions, so the same walk works at a terminal, from a
pipe, and in tests. Every answer is checked at once with the same rules as a tally file; a bad
answer is explained and asked again.
"""

from __future__ import annotations

import copy
from typing import Callable

from kkprint.errors import InputError
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.tally import MAX_PLAYERS, MIN_PLAYERS, parse_tally

MESSAGES = {
    "names": {"ja": "プレイヤー名を1行に1人ずつ（{low}〜{high}人）。空行で終わり。",
              "en": "Player names, one per line ({low}–{high}); an empty line ends the list."},
    "player": {"ja": "プレイヤー{n}: ", "en": "player {n}: "},
    "too_few": {"ja": "  ! {low}人以上必要です", "en": "  ! at least {low} players"},
    "twice": {"ja": "  ! {name} はもういます", "en": "  ! {name!r} is already playing"},
    "lands": {"ja": "国ごとに、そのプレイヤーの枚数と同じ紋章の最多数（例: 3 2、空欄は0）。",
              "en": "For each land: the player's cards and largest number of identical arms, e.g. '3 2' (empty = 0)."},
    "ships": {"ja": "船", "en": "ships"},
    "carriages": {"ja": "馬車", "en": "carriages"},
    "minus_two": {"ja": "−2チップ", "en": "−2 chips"},
    "correct": {"ja": "訂正（例: Aki フランス 3 2 / Aki ships 5）、なければ空欄: ",
                "en": "correction (e.g. 'Aki France 3 2' or 'Aki ships 5'), or empty to finish: "},
}


def message(key: str, lang: str, **values) -> str:
    texts = MESSAGES[key]
    return texts.get(lang, texts["en"]).format(**values)


Ask = Callable[[str], "str | None"]  # returns None at end of input
Say = Callable[[str], None]
SOURCE = "<prompt>"


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
        raise InputError(f"expected at most {most} numbers, got {len(parts)}", source=SOURCE)
    return parts


def _try(data: dict, game: KardinalGame, say: Say) -> bool:
    try:
        parse_tally(data, SOURCE, game)
        return True
    except InputError as err:
        say(f"  ! {err.message}")
        return False


def collect(game: KardinalGame, ask: Ask, say: Say, lang: str = "ja") -> dict:
    """Ask for names, then each land's cards and arms per player, then roads and chips."""
    try:
        return _collect(game, ask, say, lang)
    except _Ended:
        raise InputError("input ended before the tally was complete", source=SOURCE) from None


def _collect(game: KardinalGame, ask: Ask, say: Say, lang: str) -> dict:
    say(message("names", lang, low=MIN_PLAYERS, high=MAX_PLAYERS))
    names: list[str] = []
    while len(names) < MAX_PLAYERS:
        name = _ask(ask, message("player", lang, n=len(names) + 1))
        if not name:
            if len(names) >= MIN_PLAYERS:
                break
            say(message("too_few", lang, low=MIN_PLAYERS))
            continue
        if name in names:
            say(message("twice", lang, name=name))
            continue
        names.append(name)
    data: dict = {"players": [{"name": n, "lands": {}} for n in names]}
    say(message("lands", lang))
    for land in game.lands:
        for player in data["players"]:
            while True:
                answer = _ask(ask, f"{land.names(lang)} ({land.value}) — {player['name']}: ")
                try:
                    parts = _numbers(answer, 2)
                except InputError as err:
                    say(f"  ! {err.message}")
                    continue
                trial = copy.deepcopy(data)
                entry = {"cards": parts[0] if parts else 0, "arms": parts[1] if len(parts) > 1 else 0}
                trial["players"][names.index(player["name"])]["lands"][land.id] = entry
                if _try(trial, game, say):
                    data = trial
                    player = data["players"][names.index(player["name"])]
                    break
    for key in ("ships", "carriages", "minus_two"):
        for index, name in enumerate(names):
            while True:
                answer = _ask(ask, f"{message(key, lang)} — {name}: ") or "0"
                trial = copy.deepcopy(data)
                trial["players"][index][key] = answer
                if _try(trial, game, say):
                    data = trial
                    break
    return data


def correct(game: KardinalGame, data: dict, ask: Ask, say: Say, lang: str = "en") -> tuple[dict, bool]:
    """One round of corrections: 'NAME LAND CARDS [ARMS]' or 'NAME ships|carriages|minus_two N'.

    Returns the (possibly changed) data and whether the user is done.
    """
    answer = ask(message("correct", lang))
    if answer is None or not answer.strip():
        return data, True
    parts = answer.split()
    names = [p["name"] for p in data["players"]]
    if len(parts) < 3 or parts[0] not in names:
        say(f"  ! start with a player's name ({', '.join(names)}), then a land or ships/carriages/minus_two, then numbers")
        return data, False
    trial = copy.deepcopy(data)
    player = trial["players"][names.index(parts[0])]
    if parts[1] in ("ships", "carriages", "minus_two"):
        player[parts[1]] = parts[2]
    else:
        land = game.find_land(parts[1])
        if land is None:
            say(f"  ! unknown land {parts[1]!r}")
            return data, False
        player["lands"][land.id] = {"cards": parts[2], "arms": parts[3] if len(parts) > 3 else 0}
    return (trial, False) if _try(trial, game, say) else (data, False)
