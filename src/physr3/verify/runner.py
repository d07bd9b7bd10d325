"""Verify a JSONL file of solutions: one verdict line per input line, resumable (`physr3 verify`'s work).

`run_verify(cfg, input_path, out_path)` reads every input line first (`read_items`: the solution to check,
the ground-truth text in the first present of GROUND_TRUTH_FIELDS, unique ids), builds the verifier named
by `verifier.kind`, and appends `{"id", "error_step", "error_type", "explanation", "reward", "status"}` (plus
`unchecked_steps` and the input's labels when present) to `out_path` in chunks, skipping ids already there.
The reward is `physr3.reward.problem_reward` with the `reward` section. Counters, and the agreement with the
labels when the input has them, go to stderr at the end, also after an interruption.
"""

from __future__ import annotations

import collections
import sys
from typing import Any

from physr3.config import Config
from physr3.errors import InputFormatError, UserError
from physr3.problems import JsonlAppender, Problem, iter_jsonl
from physr3.reward import problem_reward
from physr3.verify.registry import build_verifier, get_verifier_factory

GROUND_TRUTH_FIELDS = ("ground_truth_solution", "reference_solution", "ground_truth.solution_text")


def ground_truth_text(row: dict[str, Any]) -> str | None:
    """The ground-truth solution text of an input line (see GROUND_TRUTH_FIELDS for the order)."""
    for name in ("ground_truth_solution", "reference_solution"):
        if isinstance(row.get(name), str) and row[name].strip():
            return row[name]
    gt = row.get("ground_truth")
    if isinstance(gt, dict) and isinstance(gt.get("solution_text"), str) and gt["solution_text"].strip():
        return gt["solution_text"]
    return None


def read_items(path: str, need_ground_truth: bool, limit: int | None) -> list[tuple[Problem, str, dict]]:
    """(problem with the ground truth as `solution`, solution to check, input row) per line."""
    items: list[tuple[Problem, str, dict]] = []
    seen: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        if limit is not None and len(items) >= limit:
            break
        if not isinstance(row.get("solution"), str):
            raise InputFormatError(path, lineno, "solution", "required string field (the solution to check)")
        gt = ground_truth_text(row)
        if gt is None and need_ground_truth:
            raise InputFormatError(path, lineno, None, "no ground-truth solution: expected one of "
                                   + ", ".join(GROUND_TRUTH_FIELDS))
        record = dict(row)
        record["solution"] = gt
        record.setdefault("answer", "")
        problem = Problem.from_json(record, path, lineno)
        if problem.id in seen:
            raise InputFormatError(path, lineno, "id", f"duplicate id {problem.id!r} (first on line {seen[problem.id]})")
        seen[problem.id] = lineno
        items.append((problem, row["solution"], row))
    return items


def run_verify(cfg: Config, input_path: str, out_path: str, *, limit: int | None = None,
               use_cache: bool = True) -> int:
    """Verify every line of `input_path` not yet in `out_path` (see the module docstring); the exit status."""
    v = cfg.verifier
    if limit is not None and limit < 0:
        raise UserError("--limit must be >= 0")
    # a judge's prompt carries the ground-truth text (llm, hybrid): every line must have it before any call
    judged = getattr(get_verifier_factory(v.kind), "needs_reference_text", False)
    items = read_items(input_path, need_ground_truth=judged, limit=limit)
    kwargs = {"use_cache": False} if not use_cache and judged else {}
    verifier = build_verifier(v.kind, cfg, **kwargs)
    statuses: collections.Counter[str] = collections.Counter()
    rewards: list[float] = []
    labelled = step_hits = type_hits = 0
    with JsonlAppender(out_path) as out:
        todo = [it for it in items if it[0].id not in out.done]
        skipped = len(items) - len(todo)
        chunk = max(64, 8 * v.concurrency)
        try:
            for start in range(0, len(todo), chunk):
                part = todo[start : start + chunk]
                verdicts = verifier.verify_batch([(p, s) for p, s, _ in part])
                for (problem, solution, row), verdict in zip(part, verdicts):
                    final = row.get("final_correct") if isinstance(row.get("final_correct"), bool) else None
                    reward = problem_reward(verdict, solution, problem, cfg, final_correct=final)
                    line: dict[str, Any] = {"id": problem.id, "error_step": verdict.error_step,
                                            "error_type": verdict.error_type, "explanation": verdict.explanation,
                                            "reward": reward, "status": verdict.status}
                    if verdict.unchecked_steps:  # steps no check could judge (the symbolic verifier)
                        line["unchecked_steps"] = verdict.unchecked_steps
                    if "label_error_step" in row:
                        line["label_error_step"] = row["label_error_step"]
                        line["label_error_type"] = row.get("label_error_type")
                        if verdict.ok:
                            labelled += 1
                            step_hits += verdict.error_step == row["label_error_step"]
                            type_hits += verdict.error_type == row.get("label_error_type")
                    out.append(line)
                    statuses[verdict.status] += 1
                    if reward is not None:
                        rewards.append(reward)
        finally:
            done = sum(statuses.values())
            mean = f"{sum(rewards) / len(rewards):.3f}" if rewards else "n/a"
            print(f"verify: {done} verified, {skipped} already in {out_path}; status "
                  + (", ".join(f"{k} {n}" for k, n in sorted(statuses.items())) or "-")
                  + f"; mean reward {mean}", file=sys.stderr)
            if labelled:
                print(f"verify: against labels ({labelled} ok verdicts): first-error step exact "
                      f"{step_hits / labelled:.1%}, error type {type_hits / labelled:.1%}", file=sys.stderr)
            if hasattr(verifier, "report"):
                print(f"verify: {verifier.report()}", file=sys.stderr)
            if hasattr(verifier, "close"):
                verifier.close()
    return 0
