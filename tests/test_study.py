"""`physr3 study` in miniature on a tiny model: every condition trained and evaluated, intervals, resume."""

import json

import pytest

from physr3.cli import main

pytestmark = pytest.mark.slow


def test_miniature_study_runs_every_condition_and_resumes(formatted_tiny_dir, tmp_path, capsys):
    args = ["study", "--no-progress", f"run.output_dir={tmp_path}", "run.name=s",
            f"model.name_or_path={formatted_tiny_dir}", "model.dtype=float32",
            "study.n_train=4", "study.n_test=3", "study.refine_steps=2", "study.curve_every=1", "study.curve_n=2",
            "study.bootstrap=50", "study.revision_fraction=0.34",
            "sft.batch_size=2", "sft.epochs=1", "sft.max_length=1024", "train.batch_size=2",
            "train.max_attempt_tokens=24", "generation.max_new_tokens=24", "dpo.batch_size=1", "dpo.grad_accum=1"]
    assert main(args) == 0
    root = tmp_path / "s"
    results = json.loads((root / "results.json").read_text())
    expected = {"cot", "sft", "sft-continued", "dpo", "ours-paper", "ours-improvement", "ours-paper+first",
                "ours-paper-warmup"}
    assert set(results["conditions"]) == expected
    for name, entry in results["conditions"].items():
        assert entry["n"] == 3, name
        lo, hi = entry["r1_ci"]
        assert lo <= entry["r1_mean"] <= hi
        lo, hi = entry["accuracy_ci"]
        assert lo <= entry["accuracy"] <= hi
    for name in ("ours-paper", "ours-improvement", "ours-paper+first", "ours-paper-warmup"):
        curve = results["conditions"][name]["learning_curve"]
        assert [p["step"] for p in curve] == [0, 1, 2] and all(p["n"] == 2 for p in curve)
        assert sum(results["conditions"][name]["revisions"]["total"].values()) >= 0
    assert results["budget_minutes"] >= 0 and "refine" in results["stage_minutes"]
    # the equal-compute control took as many optimizer steps as a refine run
    state = json.loads(next((root / "sft-continued" / "trainer").glob("checkpoint-*/trainer_state.json")).read_text())
    assert state["global_step"] == 2
    report = (root / "report.md").read_text()
    assert "<table>" in (root / "report.html").read_text()
    assert "| ours-paper |" in report and "held-out r1" in report
    assert set(results["paired"]) == {f"{c} vs {b}" for c in expected if c.startswith("ours-")
                                      for b in ("sft-continued", "sft")}
    assert all(d["n"] == 3 for d in results["paired"].values()) and "ours-paper vs sft-continued |" in report
    capsys.readouterr()

    assert main(args) == 0  # resumes: trained stages are reused
    out = capsys.readouterr().out
    assert "sft: reusing" in out and "refine: reusing" in out and "dpo: reusing" in out


def test_unknown_variant_is_refused_before_any_work(tmp_path, capsys):
    assert main(["study", f"run.output_dir={tmp_path}", "study.variants=[paper,bogus]"]) == 2
    assert "study.variants: unknown advantage(s) bogus; valid: paper, improvement, paper+first" in capsys.readouterr().err
    assert not (tmp_path / "cpu-study").exists() and not any(tmp_path.iterdir())


def test_paired_difference_is_per_item_on_the_shared_items():
    from physr3.study import paired_difference

    cond = {"a": {"r1": 1.0, "correct": True}, "b": {"r1": 0.5, "correct": False}, "c": {"r1": 0.0, "correct": False},
            "only-here": {"r1": 1.0, "correct": True}}
    base = {"a": {"r1": 0.5, "correct": False}, "b": {"r1": 0.5, "correct": False}, "c": {"r1": 0.5, "correct": True},
            "d": {"r1": None, "correct": False}}
    d = paired_difference(cond, base, n_boot=200, seed=0)
    assert d["n"] == 3  # "only-here" and "d" are not shared
    assert (d["r1_wins"], d["r1_ties"], d["r1_losses"]) == (1, 1, 1)
    assert d["r1_diff"] == 0.0 and d["r1_diff_ci"][0] < 0 < d["r1_diff_ci"][1]
    assert d["accuracy_diff"] == 0.0  # one gained (a), one lost (c)
    # a uniform shift is detected with an interval that excludes zero
    shifted = {k: {"r1": v["r1"] + 0.25, "correct": v["correct"]} for k, v in base.items() if v["r1"] is not None}
    d = paired_difference(shifted, base, n_boot=200, seed=0)
    assert d["r1_diff"] == 0.25 and tuple(d["r1_diff_ci"]) == (0.25, 0.25)
