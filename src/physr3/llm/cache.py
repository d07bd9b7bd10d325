"""On-disk cache of chat replies (SQLite), so a re-run over the same inputs costs no API calls.

The key is a SHA-256 over (base_url, model, messages, sampling params) in canonical JSON: the same
prompt to another endpoint or model, or with another temperature, is a different entry. Only successful
replies are stored (an API error is retried next run, a reply that fails to parse is not: the judge
answered, and asking again at temperature 0 would give the same text).

Concurrency: one connection per process guarded by a lock (threads and the asyncio loop share it), WAL
journal mode and a busy timeout, so several processes (parallel `physr3 verify` runs, training workers)
can read and write one file at once; `INSERT OR REPLACE` makes a race between two writers of the same
key harmless (both wrote the same reply, or equally valid ones).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replies (
    key TEXT PRIMARY KEY,
    base_url TEXT NOT NULL,
    model TEXT NOT NULL,
    reply TEXT NOT NULL,
    meta TEXT NOT NULL,
    created REAL NOT NULL
)
"""


def default_cache_path() -> Path:
    """`<user cache dir>/physr3/llm_cache.sqlite` (PHYSR3_CACHE_DIR overrides the folder)."""
    base = os.environ.get("PHYSR3_CACHE_DIR")
    if base:
        return Path(base) / "llm_cache.sqlite"
    import platformdirs

    return Path(platformdirs.user_cache_dir("physr3")) / "llm_cache.sqlite"


def cache_key(base_url: str, model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """Stable key: SHA-256 of canonical JSON; `None`-valued params are dropped (same as not sending them)."""
    payload = {
        "base_url": (base_url or "").rstrip("/"),
        "model": model,
        "messages": messages,
        "params": {k: v for k, v in sorted(params.items()) if v is not None},
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ReplyCache:
    """A process-safe key -> reply store; `get`/`put` are cheap enough to call from the event loop."""

    def __init__(self, path: str | os.PathLike):
        from physr3.errors import UserError

        self.path = Path(path)
        if self.path.is_dir():
            raise UserError(f"{self.path}: is a directory, expected a reply cache file (SQLite)")
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False,
                                         isolation_level=None)
            with self._lock:
                self._conn.execute("PRAGMA busy_timeout = 30000")
                try:
                    self._conn.execute("PRAGMA journal_mode = WAL")
                except sqlite3.OperationalError as exc:  # e.g. no shared memory: the default journal
                    if "not a database" in str(exc):
                        raise
                self._conn.execute("PRAGMA synchronous = NORMAL")
                self._conn.execute(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as exc:  # another file given as the cache: left untouched
            raise UserError(f"{self.path}: cannot use as the reply cache (SQLite): {exc}") from None

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def put(self, key: str, reply: str, *, base_url: str = "", model: str = "",
            meta: dict[str, Any] | None = None) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO replies (key, base_url, model, reply, meta, created) VALUES (?, ?, ?, ?, ?, ?)",
                (key, base_url, model, reply, json.dumps(meta or {}), time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM replies").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> ReplyCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
