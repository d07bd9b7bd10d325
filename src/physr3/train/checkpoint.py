"""Atomic, resumable checkpoints: policy adapter, optimizer, scheduler, RNG states and the data cursor.

A checkpoint is written into `checkpoints/.tmp-step-N/` and renamed to `checkpoints/step-N/` only when
complete, then `checkpoints/latest` is rewritten (also atomically). A run killed at any moment therefore
resumes from the last complete checkpoint; `truncate_jsonl` drops log lines from steps after it, because
the resumed run redoes those steps.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import torch

from physr3.problems import write_text_atomic
from physr3.train.adapters import POLICY


def rng_state() -> dict[str, Any]:
    return {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()}


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])


def save_checkpoint(run_dir: Path, step: int, model, optimizer, scheduler, state: dict[str, Any],
                    keep_last: int = 2) -> Path:
    root = Path(run_dir) / "checkpoints"
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"step-{step:06d}"
    tmp = root / f".tmp-step-{step:06d}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    model.save_pretrained(tmp / "adapter", selected_adapters=[POLICY])
    torch.save({"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(), "rng": rng_state()},
               tmp / "trainer.pt")
    (tmp / "state.json").write_text(json.dumps(state, indent=2))
    with open(tmp / "state.json") as fh:  # make the directory's contents durable before the rename
        os.fsync(fh.fileno())
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    write_text_atomic(root / "latest", final.name + "\n")
    older = sorted(p for p in root.glob("step-*") if p != final)
    for old in older[: max(0, len(older) - (keep_last - 1))]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def latest_checkpoint(run_dir: Path) -> Path | None:
    pointer = Path(run_dir) / "checkpoints" / "latest"
    if not pointer.exists():
        return None
    path = pointer.parent / pointer.read_text().strip()
    return path if (path / "state.json").exists() else None


def adapter_dir(checkpoint: Path) -> Path:
    """PEFT saves a non-default adapter name into a sub-folder of that name."""
    nested = checkpoint / "adapter" / POLICY
    return nested if nested.exists() else checkpoint / "adapter"


def load_trainer_state(checkpoint: Path, optimizer, scheduler) -> dict[str, Any]:
    blob = torch.load(checkpoint / "trainer.pt", weights_only=False)
    optimizer.load_state_dict(blob["optimizer"])
    scheduler.load_state_dict(blob["scheduler"])
    set_rng_state(blob["rng"])
    return json.loads((checkpoint / "state.json").read_text())


def load_policy_weights(model, checkpoint: Path) -> None:
    """Copy the saved policy adapter's weights into the live model's policy adapter."""
    from peft import set_peft_model_state_dict
    from safetensors.torch import load_file

    weights = load_file(str(adapter_dir(checkpoint) / "adapter_model.safetensors"))
    result = set_peft_model_state_dict(model, weights, adapter_name=POLICY)
    if getattr(result, "unexpected_keys", None):
        raise RuntimeError(f"checkpoint {checkpoint} has unexpected keys: {result.unexpected_keys[:3]}")


def truncate_jsonl(path: Path, max_step: int, key: str = "step") -> None:
    """Keep only lines whose `key` is <= max_step (lines from redone steps go)."""
    if not path.exists():
        return
    kept = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(raw)
        except json.JSONDecodeError:
            break  # a torn last line
        if row.get(key, 0) <= max_step:
            kept.append(raw)
    write_text_atomic(path, "".join(line + "\n" for line in kept))
