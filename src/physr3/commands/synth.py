"""`physr3 synth`: procedural problems with step-level ground truth, error injection and the self-check.

    physr3 synth --n 1000 --seed 0 --out data/synth/train.jsonl
    physr3 synth --n 300 --seed 0 --split test --holdout-families atwood_tension --out test.jsonl
    physr3 synth --n 2000 --seed 0 --inject --out injected.jsonl       # erroneous solutions + labels
    physr3 synth --check --n 50                                        # self-check every family, 50 seeds
    physr3 synth --list                                                # families, domains, kinds

Generation (`physr3.synth.generate`): n distinct problems, the same bytes for the same arguments, split by
content so that no test problem is ever in train. `--inject` (`physr3.synth.inject`) replaces each line's
`solution` by an erroneous one and adds `reference_solution` (the ground truth), `label_error_step`,
`label_error_type`, `label_operator`, `label_detail`; about `synth.control_fraction` of the lines are
untouched controls (label 0, type "none"). The output is the input of `physr3 verify`.

`--check` without `--out` checks every selected family over `--n` seeds (default 20, seeds S..S+N-1):
format, exact recomputation of every step, dimensions, final answer, determinism; with `--inject` also
one injection of each error type per instance (`check_injection`). With `--out`, every written line is
checked instead. A failure prints family and seed and exits 1; the output file is then not written.
Options override the `synth` config section (`--config FILE`, `synth.key=value`); the seed defaults to
`run.seed`. Progress goes to stderr every 1,000 lines.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from typing import Any

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.errors import UserError
from physr3.problems import write_jsonl
from physr3.quantity.units import DimensionError
from physr3.synth.check import SelfCheckError, check_problem
from physr3.synth.family import GenerationError
from physr3.synth.generate import SPLITS, generate_problems
from physr3.synth.inject import (
    ERROR_TYPES,
    InjectionCheckError,
    InjectionError,
    check_injection,
    inject_error,
    inject_row,
    operator_types,
    problem_row,
)
from physr3.synth.registry import select_families

DEFAULT_CHECK_SEEDS = 20
PROGRESS_EVERY = 1000


def _names(values: list[str] | None) -> list[str] | None:
    """nargs='+' values, also split on commas ("Mechanics,Waves & Optics")."""
    if values is None:
        return None
    return [v.strip() for item in values for v in item.split(",") if v.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--n", type=int, help="Problems to write (synth.n); with --check and no --out: seeds "
                        f"per family (default {DEFAULT_CHECK_SEEDS}).")
    parser.add_argument("--seed", type=int, help="Run seed (default: run.seed).")
    parser.add_argument("--out", help="Output JSONL, written atomically.")
    parser.add_argument("--domains", nargs="+", metavar="DOMAIN", help="Only these domains (synth.domains).")
    parser.add_argument("--families", nargs="+", metavar="FAMILY", help="Only these families (synth.families).")
    parser.add_argument("--split", choices=SPLITS, help="Which side of the train/test split (synth.split).")
    parser.add_argument("--test-fraction", type=float, help="Share of instances in test (synth.test_fraction).")
    parser.add_argument("--holdout-families", nargs="+", metavar="FAMILY",
                        help="Families only in the test split (synth.holdout_families).")
    parser.add_argument("--level", nargs="+", type=int, metavar="LEVEL",
                        help="Only families of these difficulty levels, 1-3 (synth.levels).")
    parser.add_argument("--inject", action="store_true", help="Write erroneous solutions with error labels.")
    parser.add_argument("--control-fraction", type=float,
                        help="With --inject: share of untouched controls (synth.control_fraction).")
    parser.add_argument("--error-types", nargs="+", choices=ERROR_TYPES, metavar="TYPE",
                        help="With --inject: error types to draw from (default: MC CM CE).")
    parser.add_argument("--check", action="store_true", help="Self-check (see above); exit 1 on a failure.")
    parser.add_argument("--list", action="store_true", help="List the selected families and exit.")


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    cfg = config_from_args(args)
    sc = cfg.synth
    pick = lambda value, default: default if value is None else value  # noqa: E731
    out = {
        "n": pick(args.n, sc.n),
        "seed": pick(args.seed, cfg.run.seed),
        "domains": pick(_names(args.domains), list(sc.domains)),
        "families": pick(_names(args.families), list(sc.families)),
        "split": pick(args.split, sc.split),
        "test_fraction": pick(args.test_fraction, sc.test_fraction),
        "holdout_families": pick(_names(args.holdout_families), list(sc.holdout_families)),
        "levels": pick(args.level, list(sc.levels)),
        "control_fraction": pick(args.control_fraction, sc.control_fraction),
        "error_types": tuple(args.error_types or ERROR_TYPES),
    }
    if out["n"] < 0:
        raise UserError(f"--n must be >= 0, got {out['n']}")
    if not 0.0 <= out["control_fraction"] <= 1.0:
        raise UserError(f"control_fraction must be in [0, 1], got {out['control_fraction']}")
    return out


def _list(s: dict[str, Any]) -> int:
    fams = select_families(s["families"], s["domains"], s["levels"])
    for f in fams:
        print(f"{f.name:<40} {f.domain:<16} {f.kind:<8} level {f.level}  {len(f.steps)} steps  inject: "
              f"{' '.join(operator_types(f))}")
    print(f"synth: {len(fams)} families", file=sys.stderr)
    return 0


def _level_table(counts: Counter[tuple[int, str]], what: str) -> str:
    """Counts per difficulty level (rows) and domain (columns), for --check."""
    domains = sorted({d for _, d in counts})
    lines = [f"synth: {what} per level and domain", "  level  " + "  ".join(f"{d:>16}" for d in domains)
             + f"  {'all':>6}"]
    for level in sorted({lv for lv, _ in counts}):
        row = [counts[(level, d)] for d in domains]
        lines.append(f"  {level:>5}  " + "  ".join(f"{c:>16}" for c in row) + f"  {sum(row):>6}")
    return "\n".join(lines)


def _check_families(s: dict[str, Any], seeds: int, inject: bool) -> int:
    """Self-check every selected family over `seeds` seeds; report every failing family."""
    fams = select_families(s["families"], s["domains"], s["levels"])
    start, failures, checked = time.time(), [], 0
    for fam in fams:
        seed = None
        try:
            for seed in range(s["seed"], s["seed"] + seeds):
                p = fam.generate(seed)
                check_problem(p)
                if inject:
                    for etype in operator_types(fam):
                        inj = inject_error(p, random.Random(f"check:{seed}:{etype}"), types=(etype,))
                        if inj is not None:
                            check_injection(p, inj)
                        elif etype != "CM":
                            raise InjectionCheckError(f"family {fam.name!r} seed {seed}: no {etype} injection")
                checked += 1
        except (SelfCheckError, InjectionCheckError) as exc:
            failures.append(str(exc))
        except Exception as exc:  # a broken declaration: name it rather than crash the whole check
            failures.append(f"family {fam.name!r} seed {seed}: {type(exc).__name__}: {exc}")
    for msg in failures:
        print(f"physr3 synth: check FAILED: {msg}", file=sys.stderr)
    print(_level_table(Counter((f.level, f.domain) for f in fams), "families"), file=sys.stderr)
    print(f"synth: checked {checked} problems of {len(fams)} families ({seeds} seeds each"
          f"{', with injection' if inject else ''}) in {time.time() - start:.1f} s: "
          f"{len(failures)} failing famil{'y' if len(failures) == 1 else 'ies'}", file=sys.stderr)
    return 1 if failures else 0


def main(args: argparse.Namespace) -> int:
    s = _settings(args)
    if args.list:
        return _list(s)
    if args.check and not args.out:
        return _check_families(s, args.n if args.n is not None else DEFAULT_CHECK_SEEDS, args.inject)
    if not args.out:
        raise UserError("--out FILE is required (or use --check / --list)")
    n, start = s["n"], time.time()
    counts: Counter[str] = Counter()
    per_level: Counter[tuple[int, str]] = Counter()

    def rows():
        problems = generate_problems(n, s["seed"], families=s["families"], domains=s["domains"],
                                     split=s["split"], test_fraction=s["test_fraction"],
                                     holdout_families=s["holdout_families"], levels=s["levels"])
        for k, p in enumerate(problems, 1):
            if args.check:
                check_problem(p)
            per_level[(p.extra["level"], p.domain)] += 1
            if args.inject:
                box: list = []
                row = inject_row(p, s["seed"], s["control_fraction"], types=s["error_types"], injection=box)
                if args.check and box[0] is not None:
                    check_injection(p, box[0])
                counts[row["label_error_type"]] += 1
            else:
                row = problem_row(p)
            yield row
            if n >= PROGRESS_EVERY and k % PROGRESS_EVERY == 0 and k < n:
                print(f"synth: {k}/{n} lines ({time.time() - start:.1f} s)", file=sys.stderr, flush=True)

    try:
        written = write_jsonl(args.out, rows())
    except (SelfCheckError, InjectionCheckError, InjectionError, GenerationError, DimensionError) as exc:
        print(f"physr3 synth: {'check ' if args.check else ''}FAILED: {exc}", file=sys.stderr)
        return 1
    if args.check:
        print(_level_table(per_level, "problems"), file=sys.stderr)
    what = "injected lines" if args.inject else "problems"
    labels = " (" + ", ".join(f"{t}: {counts[t]}" for t in (*ERROR_TYPES, "none")) + ")" if args.inject else ""
    print(f"synth: wrote {written} {what}{labels} to {args.out} in {time.time() - start:.1f} s"
          f"{' (all checked)' if args.check else ''}", file=sys.stderr)
    return 0
