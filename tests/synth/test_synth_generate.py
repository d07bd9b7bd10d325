"""Determinism, the train/test split and number formatting of the generator."""

from __future__ import annotations

import pytest

from physr3.problems import write_jsonl
from physr3.synth.generate import generate_problems, problem_split


def test_same_seed_gives_byte_identical_jsonl(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, generate_problems(60, seed=3))
    write_jsonl(b, generate_problems(60, seed=3))
    assert a.read_bytes() == b.read_bytes()
    write_jsonl(b, generate_problems(60, seed=4))
    assert a.read_bytes() != b.read_bytes()


def test_problems_are_distinct_and_balanced():
    ps = list(generate_problems(90, seed=0))
    assert len({p.id for p in ps}) == 90
    counts = {f: sum(p.family == f for p in ps) for f in {p.family for p in ps}}
    assert max(counts.values()) - min(counts.values()) <= 2


def test_train_and_test_are_disjoint_across_seeds():
    train = {p.id for s in (0, 1) for p in generate_problems(150, seed=s, split="train")}
    test = {p.id for s in (0, 1) for p in generate_problems(60, seed=s, split="test")}
    assert train and test and not train & test
    for p in generate_problems(20, seed=9, split="test"):
        assert problem_split(p, 0.2) == "test"


def test_test_sets_are_nested_in_the_fraction():
    ps = list(generate_problems(200, seed=1))
    small = {p.id for p in ps if problem_split(p, 0.1) == "test"}
    large = {p.id for p in ps if problem_split(p, 0.3) == "test"}
    assert small <= large and 0 < len(small) < len(large) < len(ps)


def test_holdout_family_only_in_test():
    hold = ["atwood_tension"]
    fams = ["atwood_tension", "projectile_range", "incline_friction_speed"]  # a small pool, independent of the registry
    train = list(generate_problems(60, seed=0, split="train", families=fams, holdout_families=hold))
    test = list(generate_problems(60, seed=0, split="test", families=fams, holdout_families=hold))
    assert all(p.family != "atwood_tension" for p in train)
    assert sum(p.family == "atwood_tension" for p in test) >= 20
    with pytest.raises(Exception, match="held out"):
        list(generate_problems(5, split="train", families=hold, holdout_families=hold))


def test_unknown_split_and_family_are_refused():
    with pytest.raises(Exception, match="unknown split"):
        list(generate_problems(1, split="dev"))
    with pytest.raises(Exception, match="unknown family"):
        list(generate_problems(1, families=["nope"]))
