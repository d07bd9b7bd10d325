"""`physr3 synth` end to end through `physr3.cli.main`: outputs, splits, overrides, --inject, --check, errors."""

from __future__ import annotations

import json
import random

import pytest

from physr3.cli import main
from physr3.problems import read_problems
from physr3.synth import Family, compute, const, family_names, given, principle
from physr3.synth.registry import register_family, unregister_family


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_generate_is_deterministic_and_readable(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["synth", "--n", "25", "--seed", "3", "--split", "all", "--out", str(a)]) == 0
    assert main(["synth", "--n", "25", "--seed", "3", "--split", "all", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    problems = read_problems(a)
    assert len(problems) == 25 and len({p.id for p in problems}) == 25
    assert all(p.solution and p.ground_truth and p.source == "synth" for p in problems)
    assert "wrote 25 problems" in capsys.readouterr().err


def test_filters_split_holdout_and_config_overrides(tmp_path):
    out = tmp_path / "o.jsonl"
    assert main(["synth", "--n", "12", "--families", "projectile_range,atwood_tension", "--split", "all",
                 "--out", str(out)]) == 0
    assert {r["family"] for r in _lines(out)} == {"projectile_range", "atwood_tension"}
    assert main(["synth", "--n", "10", "--domains", "Mechanics", "--split", "all", "--out", str(out)]) == 0
    assert {r["domain"] for r in _lines(out)} == {"Mechanics"}
    assert main(["synth", "--n", "30", "--domains", "Mechanics", "--split", "train", "--holdout-families",
                 "projectile_range", "--out", str(out)]) == 0
    assert "projectile_range" not in {r["family"] for r in _lines(out)}
    assert main(["synth", "--out", str(out), "synth.n=7", "synth.split=test", "run.seed=4"]) == 0
    assert len(_lines(out)) == 7


def test_inject_writes_labels(tmp_path, capsys):
    out = tmp_path / "inj.jsonl"
    assert main(["synth", "--n", "60", "--seed", "2", "--inject", "--control-fraction", "0.2", "--out",
                 str(out)]) == 0
    rows = _lines(out)
    assert len(rows) == 60
    for r in rows:
        assert {"solution", "reference_solution", "label_error_step", "label_error_type", "label_operator",
                "ground_truth", "question", "answer"} <= set(r)
        if r["label_error_type"] == "none":
            assert r["label_error_step"] == 0 and r["solution"] == r["reference_solution"]
        else:
            assert r["label_error_step"] >= 1 and r["solution"] != r["reference_solution"]
    assert 3 <= sum(r["label_error_type"] == "none" for r in rows) <= 22
    err = capsys.readouterr().err
    assert "60 injected lines" in err and "none:" in err
    assert main(["synth", "--n", "20", "--seed", "2", "--inject", "--error-types", "CE", "--control-fraction",
                 "0", "--out", str(out)]) == 0
    assert {r["label_error_type"] for r in _lines(out)} == {"CE"}


def test_check_all_families_passes(capsys):
    assert main(["synth", "--check", "--n", "2", "--inject"]) == 0
    err = capsys.readouterr().err
    assert f"of {len(family_names())} families" in err and "0 failing" in err


def test_check_with_out_checks_every_line(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    assert main(["synth", "--n", "20", "--inject", "--check", "--out", str(out)]) == 0
    assert "all checked" in capsys.readouterr().err


def test_check_fails_loudly_naming_family_and_seed(tmp_path, capsys):
    flaky = Family(  # draws from the global random module: regenerating gives another problem
        name="zz_cli_nondeterministic", domain="Mechanics", question="A force {F} acts on a mass {m}. Find a.",
        givens=[given("F", lambda rng: random.uniform(1, 10), "N", "force", sig=3), const("m", 2, "kg", "mass")],
        find=("a", "the acceleration"), principles=[principle("Newton", "a = F/m", "newton")],
        steps=[compute("a", "F/m", "m/s^2", "acceleration")])
    register_family(flaky)
    try:
        assert main(["synth", "--check", "--n", "3", "--families", flaky.name]) == 1
        err = capsys.readouterr().err
        assert "check FAILED" in err and "zz_cli_nondeterministic" in err and "seed 0" in err
        out = tmp_path / "never.jsonl"
        assert main(["synth", "--check", "--n", "3", "--families", flaky.name, "--out", str(out)]) == 1
        assert not out.exists()  # atomic: nothing half-written
    finally:
        unregister_family(flaky.name)


@pytest.mark.parametrize("argv, match", [
    (["--families", "no_such_family"], "unknown family 'no_such_family'; valid: "),
    (["--domains", "Astrology"], "unknown or empty domain"),
    (["--holdout-families", "nope"], "unknown family 'nope'"),
    ([], "--out FILE is required"),
])
def test_user_errors_exit_2(argv, match, tmp_path, capsys):
    extra = ["--out", str(tmp_path / "x.jsonl")] if argv else []
    assert main(["synth", "--n", "3", *argv, *extra]) == 2
    err = capsys.readouterr().err
    assert match in err
    if "valid: " in match:
        assert all(name in err for name in family_names())


def test_list(capsys):
    assert main(["synth", "--list", "--domains", "Mechanics"]) == 0
    out = capsys.readouterr().out
    assert "projectile_range" in out and "Mechanics" in out and "MC" in out
