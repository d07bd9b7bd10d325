"""`physr3 scaling --model M --model M2 ... --benchmark B...`: CoT accuracy against model size (Figure 4).

    physr3 scaling --model embedded --model /models/qwen2.5-1.5b --benchmark scieval --benchmark jeebench --limit 50

Writes `scaling.md` (the table, also printed), `scaling.png` (accuracy vs parameters, easy vs hard) and
`scaling.json` into `--out` (default `scaling.out`), and one `physr3 eval` run folder per model under
`<out>/models/`; a model whose results are all there is not loaded again. See physr3.eval.scaling.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import UserError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", action="append", help="Model (repeatable): 'embedded', a local folder or a hub id.")
    parser.add_argument("--benchmark", action="append",
                        help="Benchmark name, NAME=FILE.jsonl or a .jsonl path (repeatable; default scaling.benchmarks).")
    parser.add_argument("--limit", type=int, help="At most this many items per benchmark (sets scaling.limit).")
    parser.add_argument("--out", help="Output folder (sets scaling.out).")
    parser.add_argument("--no-progress", action="store_true", help="No progress bars.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.eval.scaling import evaluate_models, format_table, plot, to_json
    from physr3.problems import write_text_atomic

    cfg = config_from_args(args, "scaling")
    s = cfg.scaling
    if not s.models:
        raise UserError("no model: give --model (repeatable) or scaling.models")
    if not s.benchmarks:
        raise UserError("no benchmark: give --benchmark (repeatable) or scaling.benchmarks")
    out = Path(s.out)
    results = evaluate_models(cfg, s.models, s.benchmarks, out, s.limit, progress=not args.no_progress,
                              log=lambda msg: print(msg, file=sys.stderr))
    table = format_table(results, s.hard_benchmarks)
    write_text_atomic(out / "scaling.md", table + "\n")
    write_text_atomic(out / "scaling.json", json.dumps(to_json(results, s.hard_benchmarks), indent=2) + "\n")
    plot(results, s.hard_benchmarks, out / "scaling.png")
    print(table)
    unsized = [r.label for r in results if r.params is None]
    if unsized:
        print(f"scaling: parameter count unknown (left out of the plot): {', '.join(unsized)}", file=sys.stderr)
    print(f"scaling: wrote {out / 'scaling.png'}, scaling.md, scaling.json", file=sys.stderr)
    return 0
