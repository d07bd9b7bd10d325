"""`physr3 demo`: synthesise → SFT → refine training → evaluate → report, on the embedded model."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true", help="No progress bars.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    from physr3.demo import run_demo

    run_demo(config_from_args(args), progress=not args.no_progress)
    return 0
