"""`physr3.synth.runner.run_synth`: the synth recipe as a library call, driven by the config alone."""

from __future__ import annotations

import json

import pytest

from physr3.config import load_config
from physr3.errors import UserError
from physr3.synth.runner import run_synth


def test_writes_the_configured_problems_and_injections(tmp_path, capsys):
    cfg = load_config(None, ["synth.n=4", "synth.split=all", "synth.families=atwood_tension", "run.seed=2"])
    out = tmp_path / "p.jsonl"
    assert run_synth(cfg, str(out)) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 4 and {r["family"] for r in rows} == {"atwood_tension"}
    assert run_synth(cfg, str(tmp_path / "i.jsonl"), inject=True, error_types=["CE"], check=True) == 0
    injected = [json.loads(line) for line in (tmp_path / "i.jsonl").read_text().splitlines()]
    assert {r["label_error_type"] for r in injected} <= {"CE", "none"} and "all checked" in capsys.readouterr().err


def test_lists_and_checks_without_output(capsys):
    cfg = load_config(None, ["synth.families=atwood_tension"])
    assert run_synth(cfg, list_families=True) == 0
    assert capsys.readouterr().out.startswith("atwood_tension")
    assert run_synth(cfg, check=True, check_seeds=2) == 0
    assert "checked 2 problems of 1 families (2 seeds each)" in capsys.readouterr().err
    with pytest.raises(UserError, match="--out FILE is required"):
        run_synth(cfg)
