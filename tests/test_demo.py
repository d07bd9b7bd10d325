"""`physr3 demo` end to end on a tiny model: every stage runs, writes its outputs, and a rerun resumes."""

import json

import pytest

from physr3.cli import main

pytestmark = pytest.mark.slow


def test_demo_runs_every_stage_and_resumes(formatted_tiny_dir, tmp_path, capsys):
    args = ["demo", "--no-progress", f"run.output_dir={tmp_path}", "run.name=d", f"model.name_or_path={formatted_tiny_dir}",
            "model.dtype=float32", "demo.n_train=4", "demo.n_test=2", "sft.batch_size=2", "sft.epochs=1",
            "sft.max_length=1024", "train.max_steps=1", "train.batch_size=2", "train.max_attempt_tokens=24",
            "generation.max_new_tokens=24"]
    assert main(args) == 0
    root = tmp_path / "d"
    for path in ("data/train.jsonl", "data/test.jsonl", "sft/adapter/adapter_config.json",
                 "train/adapter/adapter_config.json", "train/metrics.jsonl", "eval/summary.json", "report.md",
                 "reward_curves.png", "config.yaml", "run.json"):
        assert (root / path).exists(), path
    metrics = [json.loads(x) for x in (root / "train" / "metrics.jsonl").read_text().splitlines()]
    assert metrics and all({"logp_gap", "importance_ratio", "skipped_overlong", "truncated"} <= set(m) for m in metrics)
    summary = json.loads((root / "eval" / "summary.json").read_text())
    assert set(summary) == {"cot", "sft", "ours"} and summary["ours"]["synth-test"]["n"] == 2
    report = (root / "report.md").read_text()
    assert "| synth-test |" in report and "Refine training" in report
    capsys.readouterr()

    assert main(args) == 0  # everything is there: stages are reused, the report is rewritten
    out = capsys.readouterr().out
    assert "sft: reusing" in out and "train: reusing" in out
