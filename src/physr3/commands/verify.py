"""`physr3 verify`: find the first error of each solution in a JSONL file; one verdict line per input line.

    physr3 verify --input injected.jsonl --verifier llm --judge-base-url http://127.0.0.1:8000/v1 \\
        --judge-model gpt-4o --out verdicts.jsonl

Input lines (the generator's `physr3 synth --inject` output is valid input):
- `id` (string or integer, unique per line: it is the resume key),
- `question`, and the other problem fields (`answer`, `options`, ... as in `physr3.problems.Problem`),
- `solution`: the solution TO CHECK,
- the ground-truth solution text, in the first present of: `ground_truth_solution` (preferred),
  `reference_solution`, `ground_truth.solution_text`. The LLM judge requires one; the symbolic verifier
  reads the step-level `ground_truth` record instead,
- optional `label_error_step` / `label_error_type` (known answers: copied to the output and scored in the
  summary), and optional `final_correct` (bool, for the reward's outcome term).

Output lines: `{"id", "error_step", "error_type", "explanation", "reward", "status"}` plus the labels when
the input has them, and `unchecked_steps` when the verifier could judge some steps before the reported one
by no check (see `verifier.symbolic_unchecked`). The reward is `physr3.reward.step_reward` with the `reward` config section; a
verdict that is not `ok` gets `verifier.on_parse_failure`'s reward (0.0, or null for `skip`).
The output is appended line by line: rerunning the same command skips ids already written (resume), and
with the judge's cache a full rerun costs no judge calls. Counters go to stderr at the end. Every input
line is checked before the first verdict; an empty input is refused (exit 2), and so is an existing
`--out` that is not a verdict JSONL (it is left untouched) or a `--cache` that is not SQLite (an empty
`--cache` file is a new, empty cache).
"""

from __future__ import annotations

import argparse
import collections
import sys
from typing import Any

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import InputFormatError, UserError
from physr3.problems import JsonlAppender, Problem, iter_jsonl
from physr3.reward import FAILURE_POLICIES, problem_reward
from physr3.verify.registry import available_verifiers, build_verifier

GROUND_TRUTH_FIELDS = ("ground_truth_solution", "reference_solution", "ground_truth.solution_text")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--input", required=True, help="JSONL of problems with the `solution` to check.")
    parser.add_argument("--out", required=True, help="Output JSONL (appended; rerun to resume).")
    parser.add_argument("--verifier", help=f"{' | '.join(available_verifiers())} (default: verifier.kind).")
    parser.add_argument("--judge-base-url", help="OpenAI-compatible base URL (sets verifier.judge_base_url).")
    parser.add_argument("--judge-model", help="Judge model name (sets verifier.judge_model).")
    parser.add_argument("--concurrency", type=int, help="Judge calls in flight (sets verifier.concurrency).")
    parser.add_argument("--cache", help="SQLite reply cache (sets verifier.cache_path).")
    parser.add_argument("--no-cache", action="store_true", help="Neither read nor write the judge cache.")
    parser.add_argument("--limit", type=int, help="Verify at most this many input lines.")


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


def main(args: argparse.Namespace) -> int:
    cfg = config_from_args(args)
    v = cfg.verifier
    if args.verifier:
        v.kind = args.verifier
    if args.judge_base_url:
        v.judge_base_url = args.judge_base_url
    if args.judge_model:
        v.judge_model = args.judge_model
    if args.concurrency is not None:
        v.concurrency = args.concurrency
    if args.cache:
        v.cache_path = args.cache
    if args.limit is not None and args.limit < 0:
        raise UserError("--limit must be >= 0")
    if v.on_parse_failure not in FAILURE_POLICIES:
        raise UserError(f"verifier.on_parse_failure={v.on_parse_failure!r}: expected one of {', '.join(FAILURE_POLICIES)}")

    items = read_items(args.input, need_ground_truth=(v.kind == "llm"), limit=args.limit)
    kwargs = {"use_cache": False} if args.no_cache and v.kind == "llm" else {}
    verifier = build_verifier(v.kind, cfg, **kwargs)
    statuses: collections.Counter[str] = collections.Counter()
    rewards: list[float] = []
    labelled = step_hits = type_hits = 0
    with JsonlAppender(args.out) as out:
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
            print(f"verify: {done} verified, {skipped} already in {args.out}; status "
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
