"""`physr3 eval`: conditions × benchmarks on one base model, batched, resumable, with per-item results.

For every (condition, benchmark) pair the runner appends one JSON line per item to
`runs/<name>/results/<condition>__<benchmark>.jsonl` as soon as its batch is done, so an interrupted run
resumes where it stopped (items already there are skipped). Each line holds the completion, the extracted
answer and its score, the structural compliance report and, with `eval.attribute_errors`, the verifier's
verdict on incorrect answers. `summary.json` aggregates accuracy, compliance, "no answer" and error types;
`conditions.json` holds each evaluated condition's exact prompts and hyperparameters (`Condition.details`).

The base model is loaded once; a condition with an adapter generates from a copy of the base with that
adapter merged in (plain-model decoding speed; the base conditions use the base itself). A condition with a
`run` hook (Self-Refine: several model calls per problem) generates through it instead of one `generate`
over its prompts; its per-item trace (critiques, verdicts, earlier attempts, retrieved chunks) is stored in
the row under "trace".
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from physr3.config import Config
from physr3.errors import UserError
from physr3.eval.answers import score_problem
from physr3.eval.benchmarks import load_benchmark, parse_spec
from physr3.eval.conditions import condition_details, get_condition
from physr3.models.types import SamplingParams
from physr3.problems import JsonlAppender, Problem, write_text_atomic
from physr3.runs import prepare_run
from physr3.solution import validate


class AdapterSwitch:
    """One base model and named adapters; `use(name)` gives the base merged with that adapter (None = the bare
    base). Each adapter is merged into a copy of the base (plain-model decoding speed, physr3.models.merged);
    one merged copy is kept at a time, so memory stays at two copies of the weights."""

    def __init__(self, base):
        self.base = base
        self.loaded: dict[str, str] = {}
        self._merged: tuple[str, Any] | None = None

    def load(self, name: str, path: str) -> None:
        if not (Path(path) / "adapter_config.json").is_file():
            raise UserError(f"adapter for {name!r}: {path} is not a PEFT adapter folder (no adapter_config.json)")
        self.loaded[name] = path

    @contextlib.contextmanager
    def use(self, name: str | None):
        if name is None:
            yield self.base
            return
        if self._merged is None or self._merged[0] != name:
            from physr3.models.merged import merged_copy

            self._merged = None  # free the previous copy before building the next
            self._merged = (name, merged_copy(self.base, self.loaded[name]))
        yield self._merged[1]


def score_row(problem: Problem, completion: str, rel_tol: float) -> dict[str, Any]:
    s = score_problem(problem, completion, rel_tol=rel_tol)
    report = validate(completion)
    return {"correct": s.correct, "score": s.score, "extracted": s.extracted, "reason": s.reason,
            "compliant": report.compliant, "n_steps": report.n_steps, "violations": report.violations}


def evaluate_condition(cfg: Config, switch: AdapterSwitch, tokenizer, condition_name: str, benchmark: str,
                       problems: list[Problem], out_path: Path, verifier=None, progress: bool = True) -> list[dict]:
    """Generate, score and (optionally) attribute errors for one condition on one benchmark; resumable."""
    from tqdm import tqdm

    from physr3.models.engine import engine_for_model

    condition = get_condition(condition_name)
    adapter_name = None
    if condition.adapter_key:
        path = getattr(cfg.eval, condition.adapter_key)
        if not path:
            raise UserError(f"condition {condition_name!r} needs eval.{condition.adapter_key} (an adapter folder)")
        if condition_name not in switch.loaded:
            switch.load(condition_name, path)
        adapter_name = condition_name
    gen = cfg.generation
    params = SamplingParams(max_new_tokens=gen.max_new_tokens, temperature=gen.temperature, top_p=gen.top_p,
                            seed=cfg.run.seed)
    with JsonlAppender(out_path) as out, switch.use(adapter_name) as model:
        todo = [p for p in problems if p.id not in out.done]
        engine = engine_for_model(cfg, model, tokenizer, switch.loaded.get(adapter_name) if adapter_name else None,
                                  work_tokens=len(todo) * gen.max_new_tokens)
        bar = tqdm(total=len(problems), initial=len(problems) - len(todo), desc=f"{condition_name}/{benchmark}",
                   unit="item", disable=not progress, dynamic_ncols=True)
        chunk = max(1, gen.batch_size) * 2
        for start in range(0, len(todo), chunk):
            part = todo[start : start + chunk]
            if condition.run is not None:
                outputs = condition.run(engine, part, cfg, params)
            else:
                outputs = [(c, {}) for c in engine.generate([condition.build(p, cfg) for p in part], params)]
            completions = [c for c, _ in outputs]
            verdicts: list[Any] = [None] * len(part)
            rows = [score_row(p, c.text, cfg.eval.relative_tolerance) for p, c in zip(part, completions)]
            if verifier is not None:
                wrong = [i for i, r in enumerate(rows) if not r["correct"]]
                for i, v in zip(wrong, verifier.verify_batch([(part[i], completions[i].text) for i in wrong])):
                    verdicts[i] = v
            for p, (c, trace), row, v in zip(part, outputs, rows, verdicts):
                out.append({"id": p.id, "condition": condition_name, "benchmark": benchmark,
                            "family": p.family, "domain": p.domain, "answer_type": p.answer_type, "gold": p.answer,
                            "completion": c.text, "n_tokens": len(c.token_ids), "finish_reason": c.finish_reason,
                            **row, "verdict": v.to_json() | {"raw": None} if v is not None else None,
                            **({"trace": trace} if trace else {})})
            bar.update(len(part))
        bar.close()
        return list(out.rows)


def summarize_rows(rows: list[dict]) -> dict[str, Any]:
    n = len(rows)
    wrong = [r for r in rows if not r["correct"]]
    types = Counter(r["verdict"]["error_type"] for r in wrong if r.get("verdict") and r["verdict"]["status"] == "ok"
                    and r["verdict"]["error_type"] != "none")
    attributed = sum(types.values())
    return {
        "n": n,
        "accuracy": sum(r["correct"] for r in rows) / n if n else None,
        "mean_score": sum(r["score"] for r in rows) / n if n else None,
        "compliance": sum(r["compliant"] for r in rows) / n if n else None,
        "no_answer": sum(r["reason"] == "no_answer" for r in rows),
        "mean_steps": sum(r["n_steps"] for r in rows) / n if n else None,
        "error_types": dict(types),
        "error_type_share": {k: v / attributed for k, v in types.items()} if attributed else {},
    }


def reported_benchmark(specs: list[str], spec: str) -> str:
    """The name a benchmark spec is reported under: "synth-test=FILE.jsonl" as "synth-test", unless two specs
    of the run share that name (then the whole spec keeps them apart)."""
    bench = parse_spec(spec)[0]
    return spec if sum(parse_spec(s)[0] == bench for s in specs) > 1 else bench


def results_path(run_dir: Path, condition: str, benchmark: str) -> Path:
    """Where a run keeps the per-item rows of one (condition, benchmark) cell: the one naming rule that the
    report, `physr3 scaling` and `physr3 study` read back."""
    return Path(run_dir) / "results" / f"{condition}__{benchmark.replace('/', '_').replace('=', '_')}.jsonl"


def run_eval(cfg: Config, argv: list[str] | None = None, progress: bool = True,
             benchmark_paths: dict[str, str] | None = None) -> Path:
    from physr3.models.loading import load_model

    for name in cfg.eval.conditions:
        get_condition(name)  # fail fast on a typo, before loading anything
    benchmarks = {b: load_benchmark(b, (benchmark_paths or {}).get(b)) for b in cfg.eval.benchmarks}
    run_dir = prepare_run(cfg, "eval", argv)  # after the inputs are read: a bad file leaves no run folder
    if cfg.eval.limit is not None:
        benchmarks = {b: ps[: cfg.eval.limit] for b, ps in benchmarks.items()}
    verifier = None
    if cfg.eval.attribute_errors:
        from physr3.verify.registry import build_verifier

        verifier = build_verifier(cfg.verifier.kind, cfg)
    base, tokenizer = load_model(cfg.model)
    switch = AdapterSwitch(base)
    summary: dict[str, dict[str, Any]] = {}
    for condition in cfg.eval.conditions:
        for spec, problems in benchmarks.items():
            bench = reported_benchmark(list(benchmarks), spec)
            rows = evaluate_condition(cfg, switch, tokenizer, condition, bench, problems,
                                      results_path(run_dir, condition, bench), verifier, progress)
            summary.setdefault(condition, {})[bench] = summarize_rows(rows)
    write_text_atomic(run_dir / "summary.json", json.dumps(summary, indent=2) + "\n")
    write_text_atomic(run_dir / "conditions.json", json.dumps(  # what the report quotes per condition
        {name: {"description": get_condition(name).description, "details": condition_details(name, cfg)}
         for name in cfg.eval.conditions}, indent=2) + "\n")
    if verifier is not None and hasattr(verifier, "report"):  # judge calls, cache hits, parse failures, ...
        print(f"eval: verifier {verifier.report()}")
    return run_dir
