"""Argument helpers shared by recipe commands: `--config FILE`, trailing `section.key=value` overrides, and
the one table of command-line flags that set config keys (`FLAG_KEYS`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from physr3.config import Config, load_config

# The flags that set a config key, per command ("sft --baseline": `physr3 sft` with --baseline). A flag
# given on the command line wins over the file and the overrides, goes through the same type and range
# checks, and is named in their errors ("--limit: scaling.limit must be >= 1, got 0"). A flag that is
# absent (None) or an unset switch (False) leaves the key alone.
FLAG_KEYS: dict[str, dict[str, str]] = {
    "contamination": {"--threshold": "contamination.threshold"},
    "convert": {"--teacher-model": "convert.teacher_model", "--teacher-base-url": "convert.teacher_base_url",
                "--max-retries": "convert.max_retries", "--cache": "convert.cache_path"},
    "dpo": {"--data": "dpo.data", "--sft-adapter": "dpo.sft_adapter"},
    "eval": {"--condition": "eval.conditions", "--benchmark": "eval.benchmarks", "--limit": "eval.limit",
             "--attribute-errors": "eval.attribute_errors"},
    "scaling": {"--model": "scaling.models", "--benchmark": "scaling.benchmarks", "--limit": "scaling.limit",
                "--out": "scaling.out"},
    "serve": {"--model": "model.name_or_path"},
    "sft": {"--data": "sft.data", "--eval-data": "sft.eval_data"},
    "sft --baseline": {"--data": "sft_baseline.data", "--eval-data": "sft_baseline.eval_data"},
    "synth": {"--n": "synth.n", "--seed": "run.seed", "--domains": "synth.domains", "--families": "synth.families",
              "--split": "synth.split", "--test-fraction": "synth.test_fraction",
              "--holdout-families": "synth.holdout_families", "--level": "synth.levels",
              "--control-fraction": "synth.control_fraction"},
    "train": {"--data": "train.data", "--sft-adapter": "train.sft_adapter", "--from-base": "train.from_base"},
    "verify": {"--verifier": "verifier.kind", "--judge-base-url": "verifier.judge_base_url",
               "--judge-model": "verifier.judge_model", "--concurrency": "verifier.concurrency",
               "--cache": "verifier.cache_path"},
}


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="YAML config file (see configs/).")
    parser.add_argument("overrides", nargs="*", metavar="section.key=value",
                        help="Config overrides, e.g. run.name=try1 train.beta=0.2")


def flag_values(args: argparse.Namespace, command: str) -> list[tuple[str, str, Any]]:
    """(flag, config key, value) for each of `command`'s flags in FLAG_KEYS that was given."""
    out = []
    for flag, key in FLAG_KEYS[command].items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"))
        if value is not None and value is not False:
            out.append((flag, key, value))
    return out


def config_from_args(args: argparse.Namespace, command: str | None = None) -> Config:
    """The file, the overrides, then `command`'s flags (FLAG_KEYS); with `--resume RUN_DIR`, the run's config."""
    flags = flag_values(args, command) if command else []
    if getattr(args, "resume", None):
        return resume_config(args.resume, args.overrides, flags)
    return load_config(args.config, args.overrides, flags)


def resume_config(run_dir: str, overrides: list[str], flags: Sequence[tuple[str, str, Any]] = ()) -> Config:
    """The config a run folder recorded, with overrides (e.g. a larger train.max_steps) applied on top."""
    from pathlib import Path

    from physr3.errors import UserError

    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        raise UserError(f"{run_dir}: not a run folder (no config.yaml)")
    return load_config(path, overrides, flags)


class CommaList(argparse.Action):
    """nargs='+' values, also split on commas (`--domains Mechanics,"Waves & Optics"`)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        setattr(namespace, self.dest, [v.strip() for item in values for v in str(item).split(",") if v.strip()])


def split_overrides(items: list[str]) -> tuple[list[str], list[str]]:
    """(inputs, overrides) of a positional list that mixes inputs and trailing `section.key=value` items.

    An override is `word.word=value`; `NAME=FILE` benchmark specs (no dot before "=") and file paths stay
    inputs.
    """
    import re

    pattern = re.compile(r"^[a-z_]+\.[a-z_]+=")
    return [x for x in items if not pattern.match(x)], [x for x in items if pattern.match(x)]
