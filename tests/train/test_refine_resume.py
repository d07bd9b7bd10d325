"""Kill `physr3 train` with SIGKILL mid-run, resume it, and compare with an uninterrupted run."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems

pytestmark = pytest.mark.slow


def _train(model_dir, out, name, data, extra=()):
    return [sys.executable, "-m", "physr3.cli", "train", "--no-progress", f"model.name_or_path={model_dir}",
            "model.dtype=float32", f"run.output_dir={out}", f"run.name={name}", f"train.data={data}",
            "train.batch_size=2", "train.max_steps=4", "train.max_attempt_tokens=24", "train.checkpoint_every=1",
            "train.learning_rate=5e-3", "train.temperature=1.0", "train.from_base=true", "generation.batch_size=4", *extra]


def _rows(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_sigkill_then_resume_matches_uninterrupted_run(formatted_tiny_dir, tmp_path):
    data = tmp_path / "train.jsonl"
    write_jsonl(data, list(generate_problems(5, seed=4, split="train")))
    env = dict(os.environ, HF_HUB_OFFLINE="1")

    subprocess.run(_train(formatted_tiny_dir, tmp_path, "full", data), check=True, env=env, capture_output=True)
    full = _rows(tmp_path / "full" / "metrics.jsonl")
    assert [m["step"] for m in full] == [1, 2, 3, 4]
    assert any(m["used"] for m in full) and any(r > 0 for m in full for r in m["r2"]), "no learning signal"

    proc = subprocess.Popen(_train(formatted_tiny_dir, tmp_path, "cut", data), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    latest = tmp_path / "cut" / "checkpoints" / "latest"
    deadline = time.time() + 600
    while time.time() < deadline and not (latest.exists() and latest.read_text().strip() == "step-000002"):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)  # mid-step 3: after checkpoint 2, before checkpoint 3
    proc.wait()
    assert latest.read_text().strip() == "step-000002"

    subprocess.run(_train(formatted_tiny_dir, tmp_path, "cut", data)[:5] + ["--resume", str(tmp_path / "cut")],
                   check=True, env=env, capture_output=True)
    resumed = _rows(tmp_path / "cut" / "metrics.jsonl")
    assert [m["step"] for m in resumed] == [1, 2, 3, 4]
    for a, b in zip(full, resumed):
        for key in ("loss", "kl", "logp_y1", "logp_y2", "r1_mean", "r2_mean", "acc_y1", "skip_rate"):
            if a[key] is None or b[key] is None:
                assert a[key] is b[key] is None, (a["step"], key)
            else:
                assert a[key] == pytest.approx(b[key], rel=1e-4, abs=1e-6), (a["step"], key)
    ids = lambda rows: [(r["step"], r["id"], r["y1"]) for r in rows]  # noqa: E731
    assert ids(_rows(tmp_path / "cut" / "samples.jsonl")) == ids(_rows(tmp_path / "full" / "samples.jsonl"))
