"""Walking the table land by land at the prompt, for players who did not write a tally file.

Input and output are passed in as functions, so the same walk works at a terminal, from a
pipe, and in tests. Every answer is checked at once with the same rules as a tally file; a bad
answer is explained and asked again. The walk can start from a tally saved half-way: whatever
is in it already is not asked again.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Callable

from kkprint.base.errors import InputError, close_to, suggest
from kkprint.base.i18n import N_, Listed, Msg, text, tr
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.tally import MAX_PLAYERS, MIN_PLAYERS, parse_tally

Ask = Callable[[str], "str | None"]  # returns None at end of input
Say = Callable[[str], None]
Changed = Callable[[dict], None]  # told of every accepted answer, e.g. to save the tally
# Raises InputError for a tally the rules refuse: the scorer's own, so that the prompt checks
# each answer as the final score will (``--check sources``, a corrected deck); None: our cards.
Check = Callable[[dict], object] | None
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


class InputEnded(InputError):
    """The input ended (Ctrl-D, the end of a pipe) before every question was answered."""


# Answers that take back the last answer (or, among corrections, the last correction).
BACK_WORDS = {"<", "back", "undo", "戻る", "もどる", "取り消し", "取消", "zurück", "zuruck"}


def _is_back(answer: str) -> bool:
    return unicodedata.normalize("NFKC", answer).strip().lower() in BACK_WORDS


def _ask(ask: Ask, question: str) -> str:
    answer = ask(question)
    if answer is None:
        raise InputEnded(Msg("input ended before the tally was complete"), source=SOURCE)
    return answer.strip()


def _number(text: str) -> int | str:
    """A count as typed ("５" too) as a number; anything else as it was, for the check to refuse."""
    plain = unicodedata.normalize("NFKC", str(text)).strip()
    return int(plain) if plain.isascii() and plain.isdigit() and len(plain) <= 12 else text


def _numbers(answer: str, most: int) -> list[int | str]:
    parts = answer.replace(",", " ").replace("、", " ").replace("　", " ").split()
    if len(parts) > most:
        raise InputError(
            Msg("expected at most {most} numbers, got {count}", most=most, count=len(parts)), source=SOURCE
        )
    return [_number(part) for part in parts]


def named(data: dict, game: KardinalGame, lang: str) -> dict:
    """The tally as a person reads it (and as it is saved): each land by its name in ``lang``,
    counts as numbers. The walk itself keys lands by id."""
    lands = {land.id: land for land in game.lands}
    players = []
    for player in data.get("players", []):
        shown = {key: value for key, value in player.items() if key != "lands"}
        shown["lands"] = {
            lands[land_id].names(lang) if land_id in lands else land_id: {
                key: _number(value) for key, value in entry.items()
            }
            if isinstance(entry, dict)
            else _number(entry)
            for land_id, entry in (player.get("lands") or {}).items()
        }
        for key in COUNTERS:
            if key in shown:
                shown[key] = _number(shown[key])
        players.append(shown)
    return {**data, "players": players}


def by_id(data: dict, game: KardinalGame) -> dict:
    """A saved tally (lands named in any language) with its lands keyed by id, as the walk keeps them."""
    players = []
    for player in copy.deepcopy(data.get("players") or []):
        if isinstance(player, dict) and isinstance(player.get("lands"), dict):
            player["lands"] = {
                (found.id if (found := game.find_land(str(key))) else key): value
                for key, value in player["lands"].items()
            }
        players.append(player)
    return {**data, "players": players}


def _problem(data: dict, game: KardinalGame, lang: str, check: Check) -> InputError | None:
    try:
        (check or (lambda tally: parse_tally(tally, SOURCE, game)))(named(data, game, lang))
        return None
    except InputError as err:
        return err


def _accepted(data: dict, game: KardinalGame, say: Say, lang: str, place: Msg, check: Check) -> bool:
    """Whether ``data`` is a possible tally; if not, why — said of the answer just given
    (``place``: its player and land), never of another player the check happened to reach first."""
    problem = _problem(data, game, lang, check)
    if problem is not None:
        say("  ! " + InputError(problem.message, place=place).render(lang, with_source=False))
    return problem is None


def _land_place(name: str, land, lang: str) -> Msg:
    return Msg("player '{name}', land '{land}'", name=name, land=land.names(lang))


def _counter_place(name: str, key: str, lang: str) -> Msg:
    return Msg("player '{name}', {what}", name=name, what=counter_name(key, lang))


def collect(
    game: KardinalGame,
    ask: Ask,
    say: Say,
    lang: str = "ja",
    data: dict | None = None,
    changed: Changed = lambda data: None,
    check: Check = None,
) -> dict:
    """Ask for names, then each land's cards and arms per player, then roads and chips — all
    that ``data`` (a tally saved half-way) does not hold yet. ``back`` takes back the last
    answer and asks it again. ``changed`` hears every accepted answer (as :func:`named` shows it)."""
    return _collect(game, ask, say, lang, by_id(data, game) if data else {}, changed, check)


def _collect(game: KardinalGame, ask: Ask, say: Say, lang: str, data: dict, changed: Changed, check: Check) -> dict:
    if not data.get("players"):
        names = _names(ask, say, lang)
        data = {"players": [{"name": n, "lands": {}} for n in names]}
        changed(named(data, game, lang))
    players = data["players"]
    for player in players:
        player.setdefault("lands", {})
    names = [p["name"] for p in players]
    questions = [(land, index) for land in game.lands for index in range(len(names))] + [
        (key, index) for key in COUNTERS for index in range(len(names))
    ]

    def answered(question) -> bool:
        what, index = question
        player = data["players"][index]
        return what.id in player["lands"] if not isinstance(what, str) else what in player

    if not all(answered(q) for q in questions):
        say(tr(LAND_INSTRUCTIONS, lang))
    done: list[int] = []  # the questions answered in this walk, for ``back``
    at = 0
    while at < len(questions):
        what, index = questions[at]
        if answered((what, index)):
            at += 1
            continue
        land = None if isinstance(what, str) else what
        prompt = (
            f"{land.names(lang)} ({land.value}) — {names[index]}: "
            if land is not None
            else f"{counter_name(str(what), lang)} — {names[index]}: "
        )
        answer = _ask(ask, prompt)
        if _is_back(answer):
            if not done:
                say("  ! " + tr("nothing to take back yet", lang))
                continue
            at = done.pop()
            back_what, back_index = questions[at]
            player = data["players"][back_index]
            if isinstance(back_what, str):
                player.pop(back_what, None)
            else:
                player["lands"].pop(back_what.id, None)
            changed(named(data, game, lang))
            continue
        if _is_correction(answer, names):  # an earlier answer put right; then this question again
            data, accepted = apply_correction(game, data, answer, say, lang, check)
            if accepted:
                changed(named(data, game, lang))
            continue
        trial = copy.deepcopy(data)
        if land is not None:
            try:
                parts = _numbers(answer, 2)
            except InputError as err:
                say(f"  ! {text(err.message, lang)}")
                continue
            entry = {"cards": parts[0] if parts else 0, "arms": parts[1] if len(parts) > 1 else 0}
            trial["players"][index]["lands"][land.id] = entry
            place = _land_place(names[index], land, lang)
        else:
            trial["players"][index][str(what)] = _number(answer or "0")
            place = _counter_place(names[index], str(what), lang)
        if _accepted(trial, game, say, lang, place, check):
            data = trial
            changed(named(data, game, lang))
            done.append(at)
            at += 1
    return data


def _is_correction(answer: str, names: list[str]) -> bool:
    """'Ben France 3 2' at any question: a player's name, then what to put right (an answer is
    one or two numbers)."""
    parts = answer.split()
    return len(parts) >= 3 and parts[0] in names


LAND_INSTRUCTIONS = N_(
    "For each land, first how many of its cards the player has, then their largest number of identical arms "
    "among them: '3 2' is 3 cards with 2 identical arms; one number is cards only; empty is none. "
    "Then ships, carriages and −2 chips, one number each. 'back' takes back the last answer; "
    "a line that starts with a player's name puts an earlier answer right ('Ben France 3 2')."
)


def _names(ask: Ask, say: Say, lang: str) -> list[str]:
    say(
        tr(
            "Player names, one per line or several with commas ({low}–{high}); an empty line ends the list; 'back' takes back the last name.",
            lang,
            low=MIN_PLAYERS,
            high=MAX_PLAYERS,
        )
    )
    names: list[str] = []
    while len(names) < MAX_PLAYERS:
        parts = _split_names(_ask(ask, tr("player {n}: ", lang, n=len(names) + 1)))
        if not parts:  # (an empty line, or commas alone)
            if len(names) >= MIN_PLAYERS:
                break
            say("  ! " + tr("at least {low} players", lang, low=MIN_PLAYERS))
            continue
        for one in parts:  # "Aki, Ben, Chie" on one line: three players, each as if typed alone
            if _is_back(one):
                if names:
                    names.pop()
                else:
                    say("  ! " + tr("nothing to take back yet", lang))
            elif one in names:
                say("  ! " + tr("'{name}' is already playing", lang, name=one))
            elif len(names) == MAX_PLAYERS:
                say("  ! " + tr("at most {high} players: '{name}' is left out", lang, high=MAX_PLAYERS, name=one))
            else:
                names.append(one)
    return names


def _split_names(line: str) -> list[str]:
    """The names on one line: a comma (, 、 ，) separates them; a name never holds one."""
    return [part.strip() for part in re.split("[,、，]", line) if part.strip()]


CORRECTION_QUESTION = N_(
    "correction (e.g. 'Aki France 3 2' or 'Aki ships 5'; 'back' undoes the last one), or empty to finish: "
)


def correct(
    game: KardinalGame, data: dict, ask: Ask, say: Say, lang: str = "en", check: Check = None
) -> tuple[dict, bool, bool]:
    """One correction asked and made (:func:`apply_correction`). Returns the data, whether the
    user is done, and whether the data changed (so that the table is shown again only after a
    correction that was accepted; a refused one shows only why)."""
    answer = ask(tr(CORRECTION_QUESTION, lang))
    if answer is None or not answer.strip():
        return data, True, False
    data, accepted = apply_correction(game, data, answer, say, lang, check)
    return data, False, accepted


def apply_correction(
    game: KardinalGame, data: dict, answer: str, say: Say, lang: str, check: Check = None
) -> tuple[dict, bool]:
    """'NAME LAND CARDS [ARMS]' or 'NAME ships|carriages|−2 N', land and counter in any language
    we speak (France, フランス, Frankreich; 船, 馬車, −2); a misspelt name, land or counter is
    answered with the closest one. The data (changed or not) and whether it was accepted."""
    parts = answer.split()
    names = [p["name"] for p in data["players"]]
    if len(parts) < 3 or parts[0] not in names:
        hint = suggest(parts[0], names) if parts and close_to(parts[0], names) else ""
        say(
            "  ! "
            + tr(
                "start with a player's name ({names}), then a land or ships/carriages/−2, then numbers{hint}",
                lang,
                names=Listed(names),
                hint=hint,
            )
        )
        return data, False
    trial = copy.deepcopy(data)
    name = parts[0]
    player = trial["players"][names.index(name)]
    counter = find_counter(parts[1])
    if counter is not None:
        player[counter] = _number(parts[2])
        place = _counter_place(name, counter, lang)
    else:
        land = game.find_land(parts[1])
        if land is None:
            spelled = [n for known in game.lands for n in (known.names.en, known.names.ja, known.names.de) if n]
            spelled += [word for words in COUNTER_WORDS.values() for word in words]
            hint = suggest(parts[1], spelled) if close_to(parts[1], spelled) else ""
            known = Listed(known.names for known in game.lands)
            say("  ! " + tr("unknown land '{name}'; known: {known}{hint}", lang, name=parts[1], known=known, hint=hint))
            return data, False
        player["lands"][land.id] = {"cards": _number(parts[2]), "arms": _number(parts[3]) if len(parts) > 3 else 0}
        place = _land_place(name, land, lang)
    if _accepted(trial, game, say, lang, place, check):
        return trial, True
    return data, False


def walk(
    game: KardinalGame,
    ask: Ask,
    say: Say,
    show: Callable[[dict], None],
    lang: str,
    data: dict | None = None,
    changed: Changed = lambda data: None,
    check: Check = None,
) -> dict:
    """The whole session: the questions not answered yet, the table, then corrections until an
    empty answer ('back' undoes the last correction). The table is shown again only after a
    change. Returns the tally as :func:`named` shows it."""
    data = collect(game, ask, say, lang, data, changed, check)
    show(named(data, game, lang))
    before: list[dict] = []  # the tally before each correction, for 'back'
    while True:
        answer = ask(tr(CORRECTION_QUESTION, lang))
        if answer is None or not answer.strip():
            return named(data, game, lang)
        if _is_back(answer):
            if not before:
                say("  ! " + tr("nothing to take back yet", lang))
                continue
            data = before.pop()
        else:
            corrected, accepted = apply_correction(game, data, answer, say, lang, check)
            if not accepted:
                continue
            before.append(data)
            data = corrected
        changed(named(data, game, lang))
        show(named(data, game, lang))
