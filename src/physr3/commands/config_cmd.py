"""`physr3 config`: print the resolved config as YAML, or every key with its type, default and help."""

from __future__ import annotations

import argparse

from physr3.commands._common import add_config_arguments, config_from_args
from physr3.config import help_keys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--help-keys", action="store_true", help="List every key with type, default and help.")
    add_config_arguments(parser)


def main(args: argparse.Namespace) -> int:
    if args.help_keys:
        for key, tp, default, text in help_keys():
            print(f"{key} ({tp}, default {default!r}): {text}")
        return 0
    print(config_from_args(args).to_yaml(), end="")
    return 0
