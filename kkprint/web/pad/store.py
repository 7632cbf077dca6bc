"""Saved games in an embedded SQLite database: every change is written before it is answered, so
a phone that drops, a page reloaded or a server restarted loses nothing.

A game is a tally in the CLI's own format plus a version that grows with every change; phones
send only what they changed (a part of the tally), which is merged into what others sent.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_TALLY_BYTES = 64 * 1024
MAX_DEPTH = 8


class TallyTooLarge(ValueError):
    pass


@dataclass(frozen=True)
class SavedGame:
    id: str
    game: str
    tally: dict
    version: int
    created: float
    updated: float


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
    """One SQLite file; writes are serialised by a lock and SQLite's own transaction."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        _private(path)
        self._lock = threading.Lock()
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("""CREATE TABLE IF NOT EXISTS games (
                id TEXT PRIMARY KEY, game TEXT NOT NULL, tally TEXT NOT NULL,
                version INTEGER NOT NULL, created REAL NOT NULL, updated REAL NOT NULL)""")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=10, isolation_level=None)

    def create(self, game: str, tally: dict) -> SavedGame:
        now = time.time()
        saved = SavedGame(secrets.token_urlsafe(16), game, tally, 1, now, now)  # the id is the unguessable token
        with self._lock, self._connect() as db:
            db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", (saved.id, game, _dump(tally), 1, now, now))
        return saved

    def get(self, game_id: str) -> SavedGame | None:
        with self._connect() as db:
            row = db.execute(
                "SELECT id, game, tally, version, created, updated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return _saved(row) if row else None

    def change(self, game_id: str, patch: dict, replace: bool = False) -> SavedGame | None:
        """Merge ``patch`` into the saved tally (or put it in its place) and bump the version."""
        with self._lock, self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT id, game, tally, version, created, updated FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                db.execute("ROLLBACK")
                return None
            old = _saved(row)
            tally = patch if replace else merge(old.tally, patch)
            now = time.time()
            db.execute(
                "UPDATE games SET tally = ?, version = version + 1, updated = ? WHERE id = ?",
                (_dump(tally), now, game_id),
            )
            db.execute("COMMIT")
        return SavedGame(old.id, old.game, tally, old.version + 1, old.created, now)

    def recent(self, limit: int = 50) -> list[SavedGame]:
        with self._connect() as db:
            rows = db.execute(
                "SELECT id, game, tally, version, created, updated FROM games ORDER BY updated DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_saved(row) for row in rows]


def _private(path: Path) -> None:
    """The database (and SQLite's journal files beside it) readable by this user only: saved
    games hold players' names, and with ``--lan`` every game's token."""
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if part.exists():
            os.chmod(part, 0o600)


def _dump(tally: dict) -> str:
    text = json.dumps(tally, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode("utf-8")) > MAX_TALLY_BYTES:
        raise TallyTooLarge(f"larger than {MAX_TALLY_BYTES} bytes")
    return text


def _saved(row) -> SavedGame:
    return SavedGame(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5])
