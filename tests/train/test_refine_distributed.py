"""Data parallel through `accelerate launch`: 2 CPU processes on gloo give the single-process update."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems

pytestmark = pytest.mark.slow


def _args(model_dir, out, name, data):
    # Greedy decoding, so both runs draw the same attempts whatever the batch layout.
    return ["train", "--no-progress", f"model.name_or_path={model_dir}", "model.dtype=float32",
            f"run.output_dir={out}", f"run.name={name}", f"train.data={data}", "train.batch_size=2",
            "train.max_steps=2", "train.max_attempt_tokens=24", "train.temperature=0.0", "train.learning_rate=5e-3",
            "train.checkpoint_every=1", "train.from_base=true", "generation.batch_size=4"]


def test_two_process_data_parallel_matches_single_process(formatted_tiny_dir, tmp_path):
    data = tmp_path / "train.jsonl"
    write_jsonl(data, list(generate_problems(4, seed=6, split="train")))
    env = dict(os.environ, HF_HUB_OFFLINE="1", OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, "-m", "physr3.cli", *_args(formatted_tiny_dir, tmp_path, "single", data)],
                   check=True, env=env, capture_output=True)
    launcher = Path(sys.executable).with_name("accelerate")
    proc = subprocess.run([str(launcher), "launch", "--cpu", "--num_processes", "2", "--num_machines", "1",
                           "--mixed_precision", "no", "--dynamo_backend", "no", "-m", "physr3.cli",
                           *_args(formatted_tiny_dir, tmp_path, "dp", data)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    single = [json.loads(x) for x in (tmp_path / "single" / "metrics.jsonl").read_text().splitlines()]
    dp = [json.loads(x) for x in (tmp_path / "dp" / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in dp] == [1, 2]  # rank 0 alone writes the logs
    for a, b in zip(single, dp):
        assert a["problems"] == b["problems"] == 2
        for key in ("loss", "kl", "r1_mean", "r2_mean", "used"):
            if a[key] is None or b[key] is None:
                assert a[key] is b[key] is None, (a["step"], key)
            else:
                assert a[key] == pytest.approx(b[key], rel=1e-3, abs=1e-5), (a["step"], key)
    assert any(m["used"] for m in single), "no revised sample: the test would not exercise the gradient all-reduce"
