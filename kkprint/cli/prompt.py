"""Asking at a terminal without losing anything: line editing and history (readline), control
characters refused where they are typed, and every accepted answer saved in a tally file so that
Ctrl-C, a closed window or a typo found at the end costs nothing.
"""

from __future__ import annotations

import json
import os
import sys
import time
import unicodedata
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

import yaml

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg, tr
from kkprint.base.pathnames import shown

SAVED_HEADER = "# kkprint tally, saved at the prompt"
MAGIC = SAVED_HEADER.encode("utf-8")[:16]
UNFINISHED, FINISHED = "unfinished", "finished"  # the state a save's second line records


def _readline() -> bool:
    """Line editing and history where the terminal has them (not on a pipe)."""
    if not sys.stdin.isatty():
        return False
    try:
        import readline  # noqa: F401 - importing it is what switches input() to line editing
    except ImportError:  # Windows without pyreadline: plain input still works
        return False
    return True


@contextmanager
def _prompt_on_terminal():
    """input() edits a line only when stdout is the terminal; with ``--json > file`` stdout is
    the file, so the terminal (stderr) stands in for it while a question is asked."""
    if sys.stdout.isatty() or not sys.stderr.isatty():
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def control_characters(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cf") and c not in "\t"]


def asker(lang: str) -> Callable[[str], str | None]:
    """``ask(question)``: one line, or None at the end of input. A line with control characters
    (an arrow key on a terminal that sent it raw) is refused and asked again."""
    editing = _readline()

    def ask(question: str) -> str | None:
        while True:
            if editing:
                with _prompt_on_terminal():
                    try:
                        line = input(question)
                    except EOFError:
                        return None
            else:
                sys.stderr.write(question)
                sys.stderr.flush()
                line = sys.stdin.readline()
                if line == "":
                    return None
                line = line.rstrip("\n")
            bad = control_characters(line)
            if not bad:
                return line
            shown = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(bad))
            sys.stderr.write(
                "  ! "
                + tr("control characters ({chars}) cannot be typed here; please type it again", lang, chars=shown)
                + "\n"
            )

    return ask


def unfinished_path(game: str) -> Path:
    """Where a prompt saves when no ``--save`` file was named: the user's data folder."""
    from kkprint.base.paths import data_folder

    return data_folder() / "unfinished" / f"{game}-{time.strftime('%Y%m%d-%H%M%S')}.yaml"


class TallySaver:
    """Writes the tally after every accepted answer, atomically, to one file; its second line
    says which game it is and whether the prompt got to the end, so that ``--save`` can tell a
    game to go on with from one it must not replace."""

    def __init__(self, path: Path, game: str):
        from kkprint.base.outputs import check_destination

        check_destination(path, MAGIC)  # a bad destination is refused before anything is asked
        self.path = path
        self.game = game
        self.saved = False

    def __call__(self, data: dict, *, finished: bool = False) -> None:
        from kkprint.base.outputs import atomic_file

        self.path.parent.mkdir(parents=True, exist_ok=True)
        plain = json.loads(json.dumps(data, ensure_ascii=False))  # a resumed tally's dicts know their YAML lines
        text = yaml.safe_dump(plain, allow_unicode=True, sort_keys=False)
        state = f"# game: {self.game}, {FINISHED if finished else UNFINISHED}"  # (read back: stays as it is)
        told = tr(  # (for the person who opens the file, in their language)
            N_("every answer given; its scores: kkprint scorer {game} {path}")
            if finished
            else N_("not every answer given yet; go on with: kkprint scorer {game} --resume {path}"),
            game=self.game,
            path=shown(self.path),
        )
        with atomic_file(self.path, magic=MAGIC) as temp:
            Path(temp).write_text(f"{SAVED_HEADER}\n{state}\n# {told}\n{text}", encoding="utf-8")
        self.saved = True


def saved_state(path: Path) -> tuple[str, str] | None:
    """(game, unfinished or finished) of a tally the prompt saved; None for any other file (or a
    save from before saves said so)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            first, second = handle.readline(), handle.readline()
    except OSError:
        return None
    game, _, state = second.removeprefix("# game: ").strip().partition(", ")
    if first.rstrip("\n") != SAVED_HEADER or not second.startswith("# game: ") or state not in (UNFINISHED, FINISHED):
        return None
    return game, state


def claim_save(path: Path, game: str, resume: Path | None) -> bool:
    """May ``--save PATH`` be written? A new file, yes. An existing one only when it is an
    unfinished save of the same game — and then the prompt goes on from it (True), so nothing
    typed before is lost. Anything else is refused with how to go on or what to do instead."""
    if not os.path.lexists(path) or (resume is not None and os.path.abspath(path) == os.path.abspath(resume)):
        return False
    state = saved_state(path)
    if state == (game, UNFINISHED) and resume is None:
        return True
    if state is None and saved_by_us(path):  # saved before saves said whether they were finished
        reason = Msg(
            "already holds a tally saved at the prompt; go on with it with --resume {path}, or choose another name "
            "for --save",
            path=shown(path),
        )
    elif state is None:
        reason = Msg("already exists and is not a tally saved at this prompt; choose another name for --save")
    elif state[0] != game:
        reason = Msg("holds a saved {other} tally; choose another name for --save", other=state[0])
    elif state[1] == FINISHED:
        reason = Msg(
            "already holds a finished {game} tally; to change it use --resume {path}, or choose another name for --save",
            game=game,
            path=shown(path),
        )
    else:
        reason = Msg(
            "already holds an unfinished {game} tally; go on with it with --resume {path}, or choose another name "
            "for --save",
            game=game,
            path=shown(path),
        )
    raise InputError(reason, source=str(path))


def resume_from(path: Path, source_reader) -> dict:
    data, _ = source_reader(path)
    if not isinstance(data, dict):
        raise InputError(Msg("a saved tally is a mapping with 'players:'"), source=str(path))
    return data


def saved_by_us(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def prompt_kardinal(game, rules, lang: str, *, save: Path | None, resume: Path | None, read) -> dict:
    """K&K at the prompt, saved after every answer (to ``save``, to the ``resume`` file when we
    wrote it, or to the data folder) and resumable; Ctrl-C saves, says where, and exits 130."""
    from kkprint.games.kardinal import prompt

    def say(text: str) -> None:
        sys.stderr.write(text + "\n")

    if save is not None and claim_save(save, "kardinal", resume):
        say(tr("going on from the unfinished tally in {path}", lang, path=shown(save)))
        resume = save
    data = resume_from(resume, read) if resume is not None else None
    if data is not None:  # a saved tally that the rules refuse is refused now, not at the end
        rules.score(data, str(resume))
        data = json.loads(json.dumps(data, ensure_ascii=False))  # from here on no line of the file is named
    named = save or (resume if resume is not None and saved_by_us(resume) else None)
    saver = TallySaver(named or unfinished_path("kardinal"), "kardinal")

    def show(tally: dict) -> None:
        rules.as_text(rules.score(tally, "<prompt>"), lang).print(sys.stderr)

    kept_before = named is not None and named.exists()  # (a resumed save keeps what was typed before)
    try:

        def check(tally: dict) -> object:  # (each answer checked as the final score will be)
            return rules.score(tally, prompt.SOURCE)

        data = prompt.walk(game, asker(lang), say, show, lang, data, saver, check)
    except KeyboardInterrupt:
        if saver.saved or kept_before:
            say(
                "\n"
                + tr(
                    "interrupted; what was typed is saved in {path} — go on with: kkprint scorer kardinal "
                    "--resume {path}",
                    lang,
                    path=shown(saver.path),
                )
            )
        else:
            say("\n" + tr("interrupted; nothing was saved", lang))  # (names typed are kept once the list ends)
        raise SystemExit(130) from None
    except prompt.InputEnded as ended:  # Ctrl-D, or the end of a pipe: what was typed is kept all the same
        if not (saver.saved or kept_before):
            raise
        raise InputError(
            Msg(
                "input ended before the tally was complete; what was typed is saved in {path} — go on with: "
                "kkprint scorer kardinal --resume {path}",
                path=shown(saver.path),
            ),
            source=ended.source,
        ) from None
    if named:
        saver(data, finished=True)
    elif saver.saved:  # finished: the safety copy in the data folder has done its job
        saver.path.unlink(missing_ok=True)
    return data
