"""Argument helpers shared by recipe commands: `--config FILE` and trailing `section.key=value` overrides."""

from __future__ import annotations

import argparse

from physr3.config import Config, load_config


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="YAML config file (see configs/).")
    parser.add_argument("overrides", nargs="*", metavar="section.key=value",
                        help="Config overrides, e.g. run.name=try1 train.beta=0.2")


def config_from_args(args: argparse.Namespace) -> Config:
    return load_config(args.config, args.overrides)
