"""The refine loop on a tiny random model with the real symbolic verifier, feedback router and sandbox."""

import json
import math

import pytest

from physr3.config import load_config
from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems
from physr3.train.refine_trainer import run_refine


def _cfg(tiny_model_dir, tmp_path, data, name, *extra):
    return load_config(None, [
        f"model.name_or_path={tiny_model_dir}", "model.dtype=float32", f"run.output_dir={tmp_path}",
        f"run.name={name}", f"train.data={data}", "train.batch_size=2", "train.max_steps=3",
        "train.max_attempt_tokens=12", "train.checkpoint_every=1", "train.learning_rate=1e-2", "train.tau=0.9",
        "generation.batch_size=4", "verifier.kind=symbolic", "train.from_base=true", *extra])


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    path = tmp_path_factory.mktemp("refine") / "train.jsonl"
    write_jsonl(path, list(generate_problems(5, seed=2, split="train")))
    return path


def _rows(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_refine_runs_logs_metrics_and_updates_the_policy(tiny_model_dir, tmp_path, data):
    run_dir = run_refine(_cfg(tiny_model_dir, tmp_path, data, "r1"), progress=False)
    metrics = _rows(run_dir / "metrics.jsonl")
    assert [m["step"] for m in metrics] == [1, 2, 3]
    for m in metrics:
        assert set(m) >= {"loss", "kl", "r1", "r2", "skip_rate", "acc_y1", "acc_y2", "transitions", "error_types_y1",
                          "verifier_failures", "n_steps_y1", "tokens_per_s", "time", "logp_gap", "importance_ratio",
                          "skipped_overlong", "truncated"}
        assert set(m["time"]) >= {"generation", "verification", "feedback", "update", "step"}
        assert m["problems"] == 2 and math.isfinite(m["loss"])
    samples = _rows(run_dir / "samples.jsonl")
    assert len(samples) == 6 and all("feedback" in s and "v1" in s for s in samples)
    assert (run_dir / "adapter" / "adapter_config.json").exists() and (run_dir / "checkpoints" / "latest").exists()
    # The policy moved away from the reference whenever a sample carried a non-zero weight.
    used = sum(m["used"] for m in metrics)
    if used and any(r for m in metrics for r in m["r2"]):
        assert any(m["kl"] > 0 for m in metrics[1:])


def test_summary_counts_revisions_better_same_worse():
    from physr3.train.attempt import Attempt
    from physr3.train.refine import Rollout, summarize
    from physr3.verify.base import Verdict

    p = next(iter(generate_problems(1, seed=4)))

    def attempt(reward, verdict):
        return Attempt([5], [1, 2], "text", "stop", 1.0, 1.0, verdict=verdict, reward=reward)

    def ro(r1, r2):
        return Rollout(p, attempt(r1, Verdict(1, "MC")),
                       y2=attempt(r2, Verdict(2, "CE")) if r2 is not None else None)

    s = summarize([ro(0.2, 0.5), ro(0.5, 0.1), ro(0.3, 0.3), ro(0.4, 0.0), ro(0.95, None)])
    assert s["revisions"] == {"better": 1, "same": 1, "worse": 2}
    assert s["r2"] == [0.5, 0.1, 0.3, 0.0] and s["transitions"]["WW"] == 4
    assert s["truncated"] == 0 and s["skipped_overlong"] == 0


def test_refine_with_the_hybrid_verifier_asks_the_judge_over_http(tiny_model_dir, tmp_path, data):
    # The judge is `physr3 serve` with a model-free stand-in (tests/support/responders.py): a tiny random model's
    # garbage has no hard symbolic finding, so each verdict goes to the judge, and the step's metrics count them.
    from physr3.llm.serve import OpenAIServer
    from support.responders import DiffJudgeResponder

    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        cfg = _cfg(tiny_model_dir, tmp_path, data, "hybrid", "verifier.kind=hybrid", "train.max_steps=1",
                   f"verifier.judge_base_url={srv.url}", f"verifier.cache_path={tmp_path / 'judge.sqlite'}")
        run_dir = run_refine(cfg, progress=False)
        calls = srv.requests
    metrics = _rows(run_dir / "metrics.jsonl")
    samples = _rows(run_dir / "samples.jsonl")
    judged = sum(s[v]["details"].get("hybrid") == "judge" for s in samples for v in ("v1", "v2") if s[v])
    assert metrics[0]["hybrid_judge_calls"] == judged == calls > 0
