"""Difficulty levels: derived from each family's chain, filterable in generation and the CLI, recorded."""

from __future__ import annotations

import json

import pytest

from physr3.cli import main
from physr3.errors import UserError
from physr3.problems import DOMAINS
from physr3.synth.generate import generate_problems
from physr3.synth.registry import all_families, select_families


def test_level_follows_the_number_of_governing_equations():
    for fam in all_families():
        n = len(fam.steps)
        assert fam.level == (1 if n == 1 else 2 if n <= 3 else 3), fam.name


def test_every_level_has_families_in_every_domain():
    for level in (1, 2, 3):
        domains = {f.domain for f in select_families(levels=[level])}
        assert domains == set(DOMAINS), (level, sorted(set(DOMAINS) - domains))


def test_generation_keeps_to_the_requested_levels_and_records_them():
    problems = list(generate_problems(40, 5, split="all", levels=[1]))
    assert len(problems) == 40
    for p in problems:
        assert p.extra["level"] == 1 and p.ground_truth["level"] == 1
        assert p.to_json()["level"] == 1
    level_of = {p.id: p.extra["level"] for p in generate_problems(60, 5, split="all", levels=[2, 3])}
    assert set(level_of.values()) == {2, 3}


def test_unknown_level_is_refused_with_the_valid_ones():
    with pytest.raises(UserError, match="valid: 1, 2, 3"):
        select_families(levels=[4])


def test_cli_level_and_check_counts(tmp_path, capsys):
    out = tmp_path / "l1.jsonl"
    assert main(["synth", "--n", "30", "--seed", "1", "--split", "all", "--level", "1", "--check",
                 "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "problems per level and domain" in err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 30 and {r["level"] for r in rows} == {1}
    # the table's level-1 row sums to what was written
    row = next(line for line in err.splitlines() if line.strip().startswith("1 "))
    assert row.split()[-1] == "30"
