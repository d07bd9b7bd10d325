"""`physr3 study`: CoT, SFT, SFT-continued, DPO and the refine variants from the same base and data, on
held-out problems, with 95% intervals (see physr3.study); resumable stage by stage and item by item."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true", help="No progress bars.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.study import run_study

    root = run_study(config_from_args(args), progress=not args.no_progress)
    print((root / "report.md").read_text() if (root / "report.md").exists() else f"study: {root}")
    return 0
