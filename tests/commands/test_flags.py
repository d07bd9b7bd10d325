"""The one table of command-line flags that set config keys (physr3.commands._common.FLAG_KEYS)."""

from __future__ import annotations

import argparse
import importlib
import json
import re

import pytest

from physr3.cli import COMMANDS, main
from physr3.commands._common import FLAG_KEYS, config_from_args
from physr3.config import help_keys


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    importlib.import_module(f"physr3.commands.{COMMANDS[command][0]}").add_arguments(parser)
    return parser


@pytest.mark.parametrize("command", sorted(FLAG_KEYS))
def test_every_flag_exists_and_names_a_config_key(command):
    keys = {k for k, *_ in help_keys()}
    options = {o for a in _parser(command.split()[0])._actions for o in a.option_strings}
    for flag, key in FLAG_KEYS[command].items():
        assert flag in options, f"physr3 {command} has no {flag}"
        assert key in keys, f"{flag} of {command} names {key}, not a config key"
    for action in _parser(command.split()[0])._actions:  # a help text that names a key names the table's
        named = {k for k in re.findall(r"[a-z_]+\.[a-z_]+", action.help or "") if k in keys}
        for flag in action.option_strings:
            assert not named or FLAG_KEYS[command].get(flag) in named, (command, flag, named)


def test_given_flags_set_their_keys_and_absent_ones_leave_them(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("eval:\n  limit: 2\n  benchmarks: [scieval]\n")
    args = _parser("eval").parse_args(["--config", str(path), "--condition", "cot", "--condition", "rag",
                                       "--attribute-errors", "eval.limit=3"])
    cfg = config_from_args(args, "eval")
    assert cfg.eval.conditions == ["cot", "rag"] and cfg.eval.attribute_errors is True
    assert cfg.eval.limit == 3 and cfg.eval.benchmarks == ["scieval"]  # no --limit, no --benchmark
    args = _parser("sft").parse_args(["--baseline", "--data", "d.jsonl"])
    cfg = config_from_args(args, "sft --baseline")
    assert cfg.sft_baseline.data == "d.jsonl" and cfg.sft.data is None


def test_a_bad_flag_value_is_one_line_naming_the_flag_and_key(tmp_path, capsys):
    assert main(["synth", "--n", "-1", "--out", str(tmp_path / "o.jsonl")]) == 2
    assert capsys.readouterr().err.strip() == "physr3 synth: error: --n: synth.n must be >= 0, got -1"
    assert not (tmp_path / "o.jsonl").exists()


def test_resume_reads_the_run_config_and_flags_still_win(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.yaml").write_text("train:\n  data: old.jsonl\n  batch_size: 3\n")
    args = _parser("train").parse_args(["--resume", str(run), "--data", "new.jsonl"])
    cfg = config_from_args(args, "train")
    assert cfg.train.data == "new.jsonl" and cfg.train.batch_size == 3


def test_comma_lists_are_split(tmp_path):
    out = tmp_path / "o.jsonl"
    assert main(["synth", "--n", "6", "--split", "all", "--families", "projectile_range,atwood_tension",
                 "--out", str(out)]) == 0
    assert {json.loads(line)["family"] for line in out.read_text().splitlines()} == {"projectile_range",
                                                                                     "atwood_tension"}
