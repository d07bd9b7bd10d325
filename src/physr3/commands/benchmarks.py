"""`physr3 benchmarks`: list every registered benchmark with its item count and answer types.

User-supplied sets (PhysicsQA, generated test sets) show where their file comes from when none is
configured; give one with `--path NAME=FILE` or the environment variable shown.
"""

from __future__ import annotations

import argparse
import json

from physr3.errors import UserError
from physr3.eval.benchmarks import BENCHMARKS, data_dir, parse_spec, type_counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--path", action="append", default=[], metavar="NAME=FILE",
                        help="A file for a benchmark (e.g. physicsqa=pqa.jsonl); repeatable.")
    parser.add_argument("--json", action="store_true", help="One JSON object per benchmark instead of a table.")


def main(args: argparse.Namespace) -> int:
    paths = {}
    for spec in args.path:
        name, path = parse_spec(spec)
        if name not in BENCHMARKS or path is None:
            raise UserError(f"--path {spec!r}: expected NAME=FILE with NAME one of {', '.join(BENCHMARKS)}")
        paths[name] = path
    rows = []
    for name, bench in BENCHMARKS.items():
        try:
            problems = bench.load(paths.get(name))
        except UserError as exc:
            if bench.env is None or name in paths:
                raise
            rows.append({"name": name, "items": None, "types": {}, "description": bench.description,
                         "note": str(exc)})
            continue
        dups = sum("duplicate_of" in p.extra for p in problems)
        rows.append({"name": name, "items": len(problems), "types": type_counts(problems),
                     "duplicates_flagged": dups, "description": bench.description})
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    print(f"{'benchmark':<14}{'items':>6}  types")
    for row in rows:
        if row["items"] is None:
            print(f"{row['name']:<14}{'-':>6}  not configured: pass --path {row['name']}=FILE.jsonl "
                  f"or set {BENCHMARKS[row['name']].env}")
        else:
            types = ", ".join(f"{t} {n}" for t, n in row["types"].items())
            dups = f"  ({row['duplicates_flagged']} duplicate rows flagged)" if row["duplicates_flagged"] else ""
            print(f"{row['name']:<14}{row['items']:>6}  {types}{dups}")
    print(f"(data: {data_dir()})")
    return 0
