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


def resume_config(run_dir: str, overrides: list[str]) -> Config:
    """The config a run folder recorded, with overrides (e.g. a larger train.max_steps) applied on top."""
    from pathlib import Path

    from physr3.errors import UserError

    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        raise UserError(f"{run_dir}: not a run folder (no config.yaml)")
    return load_config(path, overrides)


def split_overrides(items: list[str]) -> tuple[list[str], list[str]]:
    """(inputs, overrides) of a positional list that mixes inputs and trailing `section.key=value` items.

    An override is `word.word=value`; `NAME=FILE` benchmark specs (no dot before "=") and file paths stay
    inputs.
    """
    import re

    pattern = re.compile(r"^[a-z_]+\.[a-z_]+=")
    return [x for x in items if not pattern.match(x)], [x for x in items if pattern.match(x)]
