"""Where the project's shipped data and per-user caches live.

`data_dir()` finds the `data/` folder the project ships (benchmarks, the formula corpus, each with a
SOURCE.md). Lookup order:

1. `$PHYSR3_DATA_DIR`, when set (tests, relocated installs);
2. `<repo>/data` next to `src/` — the editable (development) install, where this file is
   `<repo>/src/physr3/paths.py`;
3. `physr3/data` inside the installed package — a wheel that bundles the data as package data.

`cache_dir()` is the per-user cache (vector stores, converted models); `$PHYSR3_CACHE_DIR` overrides it.
"""

from __future__ import annotations

import os
from pathlib import Path

from physr3.errors import UserError

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir() -> Path:
    """The folder that holds the shipped data sets; raises UserError naming the places looked at."""
    env = os.environ.get("PHYSR3_DATA_DIR")
    candidates = [Path(env)] if env else []
    candidates += [_PACKAGE_DIR.parent.parent / "data", _PACKAGE_DIR / "data"]
    for path in candidates:
        if path.is_dir():
            return path
    raise UserError("data folder not found; looked in " + ", ".join(str(p) for p in candidates)
                    + " (set PHYSR3_DATA_DIR to the project's data/ folder)")


def cache_dir() -> Path:
    """Per-user cache folder for rebuildable artefacts (created on demand by the callers)."""
    env = os.environ.get("PHYSR3_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("physr3"))
