"""Saved games in an embedded SQLite database: every change is written before it is answered, so
a phone that drops, a page reloaded or a server restarted loses nothing.

A game is a tally in the CLI's own format, a version that grows with every change, and its
history: each change is a *step* kept with its time, the phone's player, the fields it changed
and the whole tally after it. Undo goes back to the tally of the step before (exactly, whatever
the change was); redo forward again; a new change after an undo drops the steps undone.
Players are known by name across games (``seats``), for their pages and the leaderboards.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from kkprint.base.records import record
from kkprint.web.pad import fields
from kkprint.web.pad.fields import Path as FieldPath

MAX_TALLY_BYTES = 64 * 1024
MAX_DEPTH = 8
MAX_NAME = 60
# The longest text a tally holds: a player's name, as the pages' fields take it (a region's name,
# a row of the trump map and a square's cards are shorter). A script could send more, and a name
# of 10,000 characters makes every page that shows it 89,000 px wide.
MAX_TEXT = 40
KEEP_DELETED = 7 * 86400  # a deleted game can be brought back for a week
HISTORY_LIMIT = 300
MAX_STEPS = 2000  # undo reaches this many changes back; older ones are let go
CHECKPOINT_EVERY = 200  # changes between two copies of the write-ahead log into the database
LOG = logging.getLogger("kkprint.pad")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, tally TEXT NOT NULL,
    version INTEGER NOT NULL, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS steps (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, at REAL NOT NULL, by TEXT NOT NULL,
    fields TEXT NOT NULL, tally TEXT NOT NULL, state TEXT NOT NULL, undone_by TEXT,
    PRIMARY KEY (game_id, seq));
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE INDEX IF NOT EXISTS seats_by_player ON seats (player);
"""
# Columns added after the first release: a saved-games file from then gains them on opening.
ADDED_COLUMNS = {
    "name": "TEXT NOT NULL DEFAULT ''",
    "finished": "REAL",
    "deleted": "REAL",
    "step": "INTEGER NOT NULL DEFAULT 0",
}
GAME_COLUMNS = "id, game, tally, version, created, updated, name, finished, deleted, step"


class TallyTooLarge(ValueError):
    pass


class TextTooLong(ValueError):
    """A name (or a key) in a tally longer than :data:`MAX_TEXT` characters, at ``path``."""

    def __init__(self, path: FieldPath):
        super().__init__(fields.shown(path))
        self.path = path


class NothingToTake(LookupError):
    """Undo with nothing done, or redo with nothing undone."""


@record
class SavedGame:
    id: str
    game: str
    tally: dict
    version: int
    created: float
    updated: float
    name: str = ""
    finished: float | None = None
    deleted: float | None = None
    step: int = 0


@record
class FieldChange:
    """One field set by a phone. ``base`` is the value the phone saw there before its player
    typed (``has_base`` False: no condition, as a script would send)."""

    path: FieldPath
    value: Any
    base: Any = None
    has_base: bool = False


@record
class Step:
    seq: int
    at: float
    by: str
    fields: list
    state: str  # done, undone, dropped (undone, then replaced by a new change)
    undone_by: str | None


@record
class Seat:
    game_id: str
    game: str
    seat: int
    name: str
    finished: float | None
    updated: float


def player_key(name: str) -> str:
    """One player whatever the spelling of the moment: width, case and spaces ignored."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def player_names(tally: Any) -> list[str]:
    """The names in a tally's players (mappings with ``name``, or plain names), in seat order."""
    players = tally.get("players") if isinstance(tally, dict) else None
    if not isinstance(players, list):
        return []
    names = [p.get("name") if isinstance(p, dict) else p for p in players]
    return [n.strip() if isinstance(n, str) else "" for n in names]


def merge(base: Any, patch: Any, depth: int = 0) -> Any:
    """``patch`` laid over ``base``: mappings key by key (``null`` removes a key); lists that hold
    a ``null`` (keep this place) or mappings and lists, place by place; anything else — a number,
    a name, a list of dice — replaced. Two phones that change different fields of one game
    therefore never undo each other."""
    if depth > MAX_DEPTH:
        raise TallyTooLarge("nested too deeply")
    if isinstance(patch, dict):
        result = dict(base) if isinstance(base, dict) else {}
        for key, value in patch.items():
            if value is None:
                result.pop(key, None)
            else:
                result[key] = merge(result.get(key), value, depth + 1)
        return result
    if isinstance(patch, list) and any(v is None or isinstance(v, (dict, list)) for v in patch):
        items = list(base) if isinstance(base, list) else []
        for index, value in enumerate(patch):
            if value is None:
                if index >= len(items):
                    items.append(None)
                continue
            if index < len(items):
                items[index] = merge(items[index], value, depth + 1)
            else:
                items.append(merge(None, value, depth + 1))
        return items
    return patch


class Store:
    """One SQLite file, one connection; writes are serialised by a lock and SQLite's own
    transaction, and each is on disk before the change is answered."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        _private(path)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # A change is in the write-ahead log (the operating system's, then the disk's) before it
        # is answered: a killed server loses nothing. Only a power cut could lose the last
        # moments, and in exchange no phone waits for the disk to sync on every tap.
        self._db.execute("PRAGMA synchronous=NORMAL")
        # The log is copied into the database by a thread of its own, now and then (see
        # _checkpoint), not by whichever change happens to fill it while a phone waits.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._db.execute("PRAGMA journal_size_limit=8388608")  # the log file shrinks back after a burst
        self._writes = 0
        self._checkpointing = threading.Lock()
        self._db.executescript(SCHEMA)
        present = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        for column, kind in ADDED_COLUMNS.items():
            if column not in present:
                self._db.execute(f"ALTER TABLE games ADD COLUMN {column} {kind}")
        _private(path)
        self.purge_deleted()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                if self._db.in_transaction:  # SQLite ends some failed transactions itself (a full disk)
                    self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._writes += 1
        if self._writes >= CHECKPOINT_EVERY and not self._checkpointing.locked():
            self._writes = 0
            threading.Thread(target=self._checkpoint, name="kkprint-checkpoint", daemon=True).start()

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database file, on another connection, without
        waiting for (or holding up) the changes being written meanwhile."""
        with self._checkpointing:
            try:
                with closing(sqlite3.connect(self.path, timeout=5)) as db:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as err:  # the next one tries again; nothing is lost meanwhile
                LOG.warning("kkprint: the saved-games log could not be copied: %s", " ".join(str(err).split()))

    def close(self) -> None:
        self._db.close()

    # -- games -------------------------------------------------------------------------------

    def create(self, game: str, tally: dict, by: str = "") -> SavedGame:
        now = time.time()
        saved = SavedGame(secrets.token_urlsafe(16), game, tally, 1, now, now)  # the id is the unguessable token
        with self._writing() as db:
            db.execute(
                "INSERT INTO games (id, game, tally, version, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (saved.id, game, _dump(tally), 1, now, now),
            )
            db.execute(
                "INSERT INTO steps VALUES (?, 0, ?, ?, '[]', ?, 'done', NULL)", (saved.id, now, by, _dump(tally))
            )
            _seat(db, saved.id, tally)
        return saved

    def get(self, game_id: str) -> SavedGame | None:
        with self._lock:
            row = self._db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return _saved(row) if row else None

    def recent(self, limit: int = 50) -> list[SavedGame]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE deleted IS NULL ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_saved(row) for row in rows]

    def deleted(self) -> list[SavedGame]:
        """Games deleted lately, the latest first: they can still be brought back."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE deleted IS NOT NULL ORDER BY deleted DESC"
            ).fetchall()
        return [_saved(row) for row in rows]

    def finished_games(self, game: str | None = None) -> list[SavedGame]:
        """Finished games (of one kind, or all), oldest first: what statistics count."""
        query = f"SELECT {GAME_COLUMNS} FROM games WHERE deleted IS NULL AND finished IS NOT NULL"
        with self._lock:
            if game is None:
                rows = self._db.execute(query + " ORDER BY finished").fetchall()
            else:
                rows = self._db.execute(query + " AND game = ? ORDER BY finished", (game,)).fetchall()
        return [_saved(row) for row in rows]

    def seats(self, key: str) -> list[Seat]:
        """Where a player (by :func:`player_key`) sat, in every game not deleted, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.game_id, g.game, s.seat, s.name, g.finished, g.updated FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.player = ? AND g.deleted IS NULL "
                "ORDER BY COALESCE(g.finished, g.updated)",
                (key,),
            ).fetchall()
        return [Seat(*row) for row in rows]

    def players(self) -> list[tuple[str, str, int]]:
        """Every player known: (key, the name as last written, games played)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT s.player, s.name, COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE g.deleted IS NULL GROUP BY s.player ORDER BY MAX(g.updated) DESC"
            ).fetchall()
        return [(key, name, count) for key, name, count in rows]

    def describe(self, game_id: str, *, name: str | None = None, finished: bool | None = None) -> SavedGame | None:
        """Rename a game or mark it finished (or not); not steps of the tally, so not undone."""
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            new_name = old.name if name is None else " ".join(name.split())[:MAX_NAME]
            new_finished = old.finished if finished is None else (old.finished or time.time()) if finished else None
            now = time.time()
            db.execute(
                "UPDATE games SET name = ?, finished = ?, version = version + 1, updated = ? WHERE id = ?",
                (new_name, new_finished, now, game_id),
            )
        return _replace(old, name=new_name, finished=new_finished, version=old.version + 1, updated=now)

    def delete(self, game_id: str) -> SavedGame | None:
        return self._set_deleted(game_id, time.time())

    def restore(self, game_id: str) -> SavedGame | None:
        return self._set_deleted(game_id, None)

    def _set_deleted(self, game_id: str, when: float | None) -> SavedGame | None:
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            db.execute("UPDATE games SET deleted = ?, version = version + 1 WHERE id = ?", (when, game_id))
        return _replace(old, deleted=when, version=old.version + 1)

    def purge_deleted(self, now: float | None = None) -> None:
        """Games deleted longer ago than :data:`KEEP_DELETED` are gone for good."""
        cutoff = (now or time.time()) - KEEP_DELETED
        with self._writing() as db:
            gone = [row[0] for row in db.execute("SELECT id FROM games WHERE deleted < ?", (cutoff,))]
            for table, column in (("steps", "game_id"), ("seats", "game_id"), ("games", "id")):
                db.executemany(f"DELETE FROM {table} WHERE {column} = ?", [(g,) for g in gone])

    # -- changes -----------------------------------------------------------------------------

    def set_fields(
        self, game_id: str, changes: Sequence[FieldChange], by: str = ""
    ) -> tuple[SavedGame, list[tuple[FieldPath, Any]]] | None:
        """Set each field whose value is still the one its phone saw (``base``); the others are
        left as they are and returned with their current value (a phone typed over a value it had
        not seen). Each field set is a step of its own, so undo takes back one field."""
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            tally, conflicts, steps = old.tally, [], []
            for change in changes:
                current = fields.get(tally, change.path)
                if current == change.value:
                    continue
                if change.has_base and current != change.base:
                    conflicts.append((change.path, current))
                    continue
                tally = fields.put(tally, change.path, change.value)
                steps.append(([[list(change.path), current, change.value]], tally))
            saved = self._record(db, old, steps, by) if steps else old
        return saved, conflicts

    def change(self, game_id: str, patch: dict, replace: bool = False, by: str = "") -> SavedGame | None:
        """Merge ``patch`` into the saved tally (or put it in its place): one step."""
        return self.transform(game_id, (lambda _: patch) if replace else (lambda tally: merge(tally, patch)), by)

    def transform(self, game_id: str, change: Callable[[dict], dict], by: str = "") -> SavedGame | None:
        """The tally made by ``change`` from the saved one, read and written in one transaction
        (a change another phone made meanwhile is never lost): one step."""
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            tally = change(old.tally)
            changed = [[list(path), before, after] for path, before, after in fields.diff(old.tally, tally)]
            return self._record(db, old, [(changed, tally)], by) if changed or tally != old.tally else old

    def _record(self, db: sqlite3.Connection, old: SavedGame, steps: list[tuple[list, dict]], by: str) -> SavedGame:
        now = time.time()
        db.execute("UPDATE steps SET state = 'dropped' WHERE game_id = ? AND state = 'undone'", (old.id,))
        (seq,) = db.execute("SELECT COALESCE(MAX(seq), -1) FROM steps WHERE game_id = ?", (old.id,)).fetchone()
        if seq < 0:  # a game saved before there was history: its tally then is where undo stops
            db.execute(
                "INSERT INTO steps VALUES (?, 0, ?, '', '[]', ?, 'done', NULL)",
                (old.id, now, _dump(old.tally, new=False)),
            )
            seq = 0
        text = ""
        for changed, tally in steps:
            seq += 1
            text = _dump(tally)
            db.execute(
                "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, 'done', NULL)",
                (old.id, seq, now, by, json.dumps(changed, ensure_ascii=False), text),
            )
        if seq > MAX_STEPS and seq % 100 < len(steps):  # now and then, the oldest steps go
            db.execute("DELETE FROM steps WHERE game_id = ? AND seq <= ?", (old.id, seq - MAX_STEPS))
        tally = steps[-1][1]
        version = old.version + len(steps)
        db.execute(
            "UPDATE games SET tally = ?, version = ?, updated = ?, step = ? WHERE id = ?",
            (text, version, now, seq, old.id),
        )
        if player_names(tally) != player_names(old.tally):
            _seat(db, old.id, tally)
        return _replace(old, tally=tally, version=version, updated=now, step=seq)

    def undo(self, game_id: str, by: str = "") -> SavedGame | None:
        """Back to the tally before the last step done (:class:`NothingToTake` at the start)."""
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            done = db.execute(
                "SELECT seq, tally FROM steps WHERE game_id = ? AND state = 'done' ORDER BY seq DESC LIMIT 2",
                (game_id,),
            ).fetchall()
            if len(done) < 2:  # the game's start (or the oldest step kept) has nothing before it
                raise NothingToTake("undo")
            (current, _), (seq, text) = done
            db.execute(
                "UPDATE steps SET state = 'undone', undone_by = ? WHERE game_id = ? AND seq = ?",
                (by, game_id, current),
            )
            return self._move(db, old, seq, text)

    def redo(self, game_id: str, by: str = "") -> SavedGame | None:
        """Forward to the tally after the first step undone (:class:`NothingToTake` if none)."""
        with self._writing() as db:
            old = _row(db, game_id)
            if old is None:
                return None
            found = db.execute(
                "SELECT seq, tally FROM steps WHERE game_id = ? AND state = 'undone' ORDER BY seq", (game_id,)
            ).fetchone()
            if found is None:
                raise NothingToTake("redo")
            seq, text = found
            db.execute(
                "UPDATE steps SET state = 'done', undone_by = NULL WHERE game_id = ? AND seq = ?", (game_id, seq)
            )
            return self._move(db, old, seq, text)

    def _move(self, db: sqlite3.Connection, old: SavedGame, seq: int, text: str) -> SavedGame:
        now = time.time()
        tally = json.loads(text)
        db.execute(
            "UPDATE games SET tally = ?, version = version + 1, updated = ?, step = ? WHERE id = ?",
            (text, now, seq, old.id),
        )
        if player_names(tally) != player_names(old.tally):
            _seat(db, old.id, tally)
        return _replace(old, tally=tally, version=old.version + 1, updated=now, step=seq)

    def history(self, game_id: str, limit: int = HISTORY_LIMIT) -> list[Step]:
        """The game's changes, the latest first (its creation left out)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, by, fields, state, undone_by FROM steps WHERE game_id = ? AND seq > 0 "
                "ORDER BY seq DESC LIMIT ?",
                (game_id, limit),
            ).fetchall()
        return [
            Step(seq, at, by, json.loads(changed), state, undone_by) for seq, at, by, changed, state, undone_by in rows
        ]

    def can(self, game_id: str) -> tuple[bool, bool]:
        """Whether there is a step to undo and one to redo."""
        with self._lock:
            done, undone = self._db.execute(
                "SELECT COUNT(*) FILTER (WHERE state = 'done'), COUNT(*) FILTER (WHERE state = 'undone') "
                "FROM steps WHERE game_id = ?",
                (game_id,),
            ).fetchone()
        return done >= 2, undone > 0


def _seat(db: sqlite3.Connection, game_id: str, tally: Any) -> None:
    """The game's seats as its tally names them now."""
    db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    db.executemany(
        "INSERT INTO seats VALUES (?, ?, ?, ?)",
        [(game_id, seat, player_key(name), name) for seat, name in enumerate(player_names(tally)) if player_key(name)],
    )


def _private(path: Path) -> None:
    """The database (and SQLite's journal files beside it) readable by this user only: saved
    games hold players' names, and with ``--lan`` every game's token."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if part.exists():
            os.chmod(part, 0o600)


def _dump(tally: dict, new: bool = True) -> str:
    """The tally as saved; a ``new`` one (not yet saved) must keep to the limits."""
    if new:
        _check_texts(tally, ())
    text = json.dumps(tally, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_TALLY_BYTES:
        raise TallyTooLarge(f"larger than {MAX_TALLY_BYTES} bytes")
    return text


def _check_texts(node: Any, path: FieldPath) -> None:
    """:class:`TextTooLong` for the first text (value or key) over :data:`MAX_TEXT` characters."""
    if isinstance(node, str):
        if len(node) > MAX_TEXT:
            raise TextTooLong(path)
    elif isinstance(node, dict):
        for key, value in node.items():
            if len(key) > MAX_TEXT:
                raise TextTooLong((*path, key[:MAX_TEXT] + "…"))
            _check_texts(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            _check_texts(value, (*path, index))


def _row(db: sqlite3.Connection, game_id: str) -> SavedGame | None:
    row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
    return _saved(row) if row else None


def _saved(row) -> SavedGame:
    return SavedGame(row[0], row[1], json.loads(row[2]), *row[3:])


def _replace(saved: SavedGame, **changes: Any) -> SavedGame:
    from dataclasses import replace

    return replace(saved, **changes)
