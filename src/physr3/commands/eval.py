"""`physr3 eval`: conditions × benchmarks, batched and resumable; results under runs/<name>/results/."""

from __future__ import annotations

import argparse
import json

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--condition", action="append", help="Condition (repeatable): cot, rag, sft, dpo, ours, self-refine.")
    parser.add_argument("--benchmark", action="append",
                        help="Benchmark name, NAME=FILE.jsonl or a .jsonl path (repeatable); see physr3 benchmarks.")
    parser.add_argument("--limit", type=int, help="At most this many items per benchmark.")
    parser.add_argument("--attribute-errors", action="store_true", help="Verify incorrect answers (error types).")
    parser.add_argument("--no-progress", action="store_true", help="No progress bars.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.eval.runner import run_eval

    cfg = config_from_args(args, "eval")
    run_dir = run_eval(cfg, progress=not args.no_progress)
    summary = json.loads((run_dir / "summary.json").read_text())
    for condition, per_bench in summary.items():
        for bench, s in per_bench.items():
            print(f"{condition:>6} {bench:<24} accuracy {s['accuracy']:.3f}  compliance {s['compliance']:.3f}"
                  f"  n={s['n']}  no_answer={s['no_answer']}")
    print(f"eval: results in {run_dir}")
    return 0
