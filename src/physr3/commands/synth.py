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
Options set keys of the `synth` config section (`--config FILE`, `synth.key=value`; the table is
`physr3.commands._common.FLAG_KEYS`); `--seed` sets `run.seed`. The work is `physr3.synth.runner.run_synth`.
Progress goes to stderr every 1,000 lines.
"""

from __future__ import annotations

import argparse

from physr3.commands._common import CommaList, add_config_arguments, config_from_args
from physr3.synth.generate import SPLITS
from physr3.synth.inject import ERROR_TYPES
from physr3.synth.runner import DEFAULT_CHECK_SEEDS, run_synth


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_arguments(parser)
    parser.add_argument("--n", type=int, help="Problems to write (synth.n); with --check and no --out: seeds "
                        f"per family (default {DEFAULT_CHECK_SEEDS}).")
    parser.add_argument("--seed", type=int, help="Run seed (default: run.seed).")
    parser.add_argument("--out", help="Output JSONL, written atomically.")
    parser.add_argument("--domains", nargs="+", action=CommaList, metavar="DOMAIN",
                        help="Only these domains (synth.domains).")
    parser.add_argument("--families", nargs="+", action=CommaList, metavar="FAMILY",
                        help="Only these families (synth.families).")
    parser.add_argument("--split", choices=SPLITS, help="Which side of the train/test split (synth.split).")
    parser.add_argument("--test-fraction", type=float, help="Share of instances in test (synth.test_fraction).")
    parser.add_argument("--holdout-families", nargs="+", action=CommaList, metavar="FAMILY",
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


def main(args: argparse.Namespace) -> int:
    return run_synth(config_from_args(args, "synth"), args.out, inject=args.inject, check=args.check,
                     list_families=args.list, error_types=args.error_types, check_seeds=args.n)
