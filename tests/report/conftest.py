"""Eval run folders made by the real eval runner (`physr3.eval.runner.run_eval`) on the formatted tiny model.

Two runs of the same model on the same three generated test problems, with error attribution by the symbolic
verifier: the first runs cot and self-refine (at most 40 new tokens), the second, started at least a second
later, runs cot again with at most 48 new tokens. So the report must merge one model, take cot from the
second run, and flag the differing generation setting.
"""

from __future__ import annotations

import time

import pytest


def _eval(model_dir, out, name, conditions, max_new_tokens, data):
    from physr3.config import load_config
    from physr3.eval.runner import run_eval

    cfg = load_config(None, [f"model.name_or_path={model_dir}", "model.dtype=float32", f"run.output_dir={out}",
                             f"run.name={name}", f"generation.max_new_tokens={max_new_tokens}",
                             f"eval.conditions={conditions}", "eval.attribute_errors=true",
                             "eval.self_refine_rounds=1"])
    cfg.eval.benchmarks = [f"synth-test={data}"]
    return run_eval(cfg, progress=False)


@pytest.fixture(scope="session")
def two_eval_runs(formatted_tiny_dir, tmp_path_factory):
    """(older run folder, newer run folder) of the same model."""
    from physr3.problems import write_jsonl
    from physr3.synth.generate import generate_problems

    out = tmp_path_factory.mktemp("eval-runs")
    data = out / "test.jsonl"
    write_jsonl(data, list(generate_problems(3, seed=5, split="test")))
    first = _eval(formatted_tiny_dir, out, "first", "cot,self-refine", 40, data)
    time.sleep(1.05 - time.time() % 1)  # run.json's start time has one-second resolution
    second = _eval(formatted_tiny_dir, out, "second", "cot", 48, data)
    return first, second
