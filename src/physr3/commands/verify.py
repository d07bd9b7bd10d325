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

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.verify.registry import available_verifiers
from physr3.verify.runner import run_verify


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


def main(args: argparse.Namespace) -> int:
    return run_verify(config_from_args(args, "verify"), args.input, args.out, limit=args.limit,
                      use_cache=not args.no_cache)
