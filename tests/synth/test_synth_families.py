"""Every registered family, over many seeds, passes the self-check; a corrupted record does not.

Parametrised over the registry, so families added later are covered without editing this file.
"""

from __future__ import annotations

import copy

import pytest

from physr3.problems import DOMAINS
from physr3.synth import family_names, get_family
from physr3.synth.check import SelfCheckError, check_family, check_problem

SEEDS = range(30)


@pytest.mark.parametrize("name", family_names())
def test_family_self_check(name):
    assert check_family(name, SEEDS) == len(SEEDS)


@pytest.mark.parametrize("name", family_names())
def test_family_record_shape(name):
    fam = get_family(name)
    p = fam.generate(0)
    assert p.domain in DOMAINS and p.family == name and p.id.startswith(name)
    assert fam.kind == p.ground_truth["kind"]
    if fam.kind == "mcq":
        assert p.answer_type == "mcq" and len(p.options) == 4 and p.answer in "ABCD"
    else:
        assert p.options is None and p.answer == p.ground_truth["answer"]["text"]
    for g in fam.givens:  # every stated value is in the question
        assert any(s["symbol"] == g.symbol for s in p.ground_truth["steps"] if s["kind"] == "given")


@pytest.mark.parametrize("name", family_names())
def test_family_is_diverse(name):
    """Duplicates are dropped at generation, so a family needs many distinct instances: give continuous
    givens 3 significant figures or widen the ranges if this fails."""
    fam = get_family(name)
    ids = {fam.problem_id(fam.draw(seed)[1]) for seed in range(300)}
    assert len(ids) >= 270, f"{name}: only {len(ids)} distinct problems in 300 draws"


def _corrupt(p, fn):
    q = copy.deepcopy(p)
    fn(q)
    return q


@pytest.mark.parametrize("how, match", [
    (lambda q: q.ground_truth["steps"][-1].__setitem__("value", q.ground_truth["steps"][-1]["value"] * 1.01),
     "equation gives"),
    (lambda q: q.ground_truth["steps"][0].__setitem__("value", 123.0), "differs from the given"),
    (lambda q: q.__setattr__("solution", q.solution.replace("Step 2:", "Step 3:")), "not compliant"),
    (lambda q: q.__setattr__("answer", "999 m"), "final answer"),
    (lambda q: q.__setattr__("question", q.question + " "), "regenerating"),
])
def test_corruption_is_caught_and_named(how, match):
    p = get_family("projectile_range").generate(5)
    with pytest.raises(SelfCheckError, match=f"projectile_range.*seed 5.*{match}"):
        check_problem(_corrupt(p, how))


def test_wrong_equation_dimension_is_caught():
    p = get_family("atwood_tension").generate(2)

    def swap(q):
        eq = next(s for s in q.ground_truth["steps"] if s["kind"] == "equation" and s["symbol"] == "T")
        eq["rhs_srepr"] = "Mul(Symbol('m2'), Symbol('a'), Symbol('a'))"
        eq["depends"] = ["a", "m2"]
    with pytest.raises(SelfCheckError, match="dimensions"):
        check_problem(_corrupt(p, swap), regenerate=False)


def test_mcq_distractors_come_from_declared_errors():
    p = get_family("atwood_tension").generate(3)
    opts = p.ground_truth["answer"]["options"]
    labels = [o["error"] for o in opts if not o["correct"]]
    assert len(labels) == 3 and all(labels)
    assert not any(lbl.startswith("generic") for lbl in labels)
