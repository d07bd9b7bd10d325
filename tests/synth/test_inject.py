"""Error injection: labels, propagation, controls, determinism; every operator on several families.

Registry-wide tests are parametrised over `family_names()`, so families added later are covered: every
family must take MC and CE errors, and CM where it has an equation to mutate (or declares typical errors).
The assertions are made here from the texts (parse both solutions, compare steps), independently of the
injector's own `check_injection`, which is exercised as well.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from physr3.solution import TAG_ERROR_TYPE, parse_solution, validate
from physr3.synth import Family, compute, const, distractor, family_names, get_family, given, principle
from physr3.synth.family import GenerationError
from physr3.synth.generate import generate_problems
from physr3.synth.inject import (
    ERROR_TYPES,
    OPERATORS,
    InjectionCheckError,
    check_injection,
    equation_mutations,
    inconsistent_calculations,
    inject_error,
    inject_problems,
    operator_types,
)
from physr3.synth.registry import register_family, unregister_family
from physr3.synth.spec import between

SEEDS = range(3)

GAS = Family(  # covers wrong_constant (gamma), invert_ratio, unit prefixes (L in, kJ out), typical_errors
    name="zz_inject_test_adiabatic",
    domain="Thermodynamics",
    question=("{n} mol of a monatomic ideal gas (gamma = {gamma}) at {T1} is compressed adiabatically from {V1} "
              "to {V2}. With R = {R}, find the work done on the gas."),
    givens=[
        given("n", between(0.5, 4.0), "mol", "amount of gas", sig=2),
        given("T1", between(250, 400), "K", "initial temperature", sig=3),
        given("V1", between(10.0, 30.0), "L", "initial volume", sig=3),
        given("V2", between(2.0, 8.0), "L", "final volume", sig=2),
        const("gamma", "5/3", "", "ratio of specific heats of a monatomic gas"),
        const("R", 8.314, "J/(mol*K)", "gas constant"),
    ],
    find=("W", "the work done on the gas"),
    principles=[principle("Adiabatic process", "T*V^(gamma-1) is constant; the work done on the gas equals "
                          "the rise of its internal energy n*Cv*dT", "adiabatic", "internal energy")],
    steps=[
        compute("T2", "T1*(V1/V2)^(gamma - 1)", "K", "final temperature"),
        compute("W", "n*R*(T2 - T1)/(gamma - 1)", "kJ", "work done on the gas"),
    ],
    typical_errors=[distractor("used Cp instead of Cv", W="n*R*(T2 - T1)*gamma/(gamma - 1)")],
)


@pytest.fixture(scope="module", autouse=True)
def _test_family():
    get_family("projectile_range")  # load the real families first
    register_family(GAS)
    yield
    unregister_family(GAS.name)


def _steps(text: str) -> list[tuple[int, str | None, str]]:
    return [(s.number, s.tag, s.text) for s in parse_solution(text).steps]


def _first_difference(ref: str, got: str) -> int:
    a, b = _steps(ref), _steps(got)
    return next((k for k, (x, y) in enumerate(zip(a, b), 1) if x != y), min(len(a), len(b)) + 1)


def assert_valid(problem, inj) -> None:
    """The properties the brief asks for, checked from the texts."""
    assert validate(inj.solution).compliant, validate(inj.solution).violations
    k = _first_difference(problem.solution, inj.solution)
    assert k == inj.error_step, (inj.operator, inj.detail)
    tag = _steps(inj.solution)[k - 1][1]
    assert TAG_ERROR_TYPE[tag] == inj.error_type
    assert inj.operator in OPERATORS[inj.error_type]
    final = parse_solution(inj.solution).final_answer
    assert final == inj.final_answer and final != problem.answer
    # propagation: every calculation follows from the shown givens, equations and earlier values, except
    # the slipped calculation itself (CE)
    assert inconsistent_calculations(inj.steps) == ([inj.error_step] if inj.error_type == "CE" else [])


# ----------------------------------------------------------------------------- registry-wide
@pytest.mark.parametrize("name", family_names())
def test_every_family_takes_mc_and_ce_and_cm_where_it_can(name):
    fam = get_family(name)
    assert {"MC", "CE"} <= set(operator_types(fam))
    has_cm = "CM" in operator_types(fam) and bool(fam.declared_errors or equation_mutations(fam))
    done = {t: 0 for t in ERROR_TYPES}
    for seed in SEEDS:
        p = fam.generate(seed)
        for etype in ERROR_TYPES:
            inj = inject_error(p, random.Random(seed), types=(etype,))
            if inj is not None:
                assert inj.error_type == etype
                assert_valid(p, inj)
                done[etype] += 1
    assert done["CE"] == len(SEEDS), f"{name}: CE injected on {done['CE']}/{len(SEEDS)} seeds"
    assert done["MC"] >= len(SEEDS) - 1, f"{name}: MC injected on {done['MC']}/{len(SEEDS)} seeds"
    if has_cm:
        assert done["CM"] >= 1, f"{name}: has CM candidates but no CM injection on {len(SEEDS)} seeds"


# ----------------------------------------------------------------------------- each operator
OPERATOR_CASES = [
    ("misread_given", "projectile_range"), ("misread_given", "atwood_tension"), ("misread_given", GAS.name),
    ("swap_givens", GAS.name),
    ("wrong_target", "projectile_range"), ("wrong_target", "incline_friction_speed"), ("wrong_target", GAS.name),
    ("declared", "atwood_tension"), ("declared", GAS.name),
    ("flip_sign", "atwood_tension"), ("flip_sign", "incline_friction_speed"), ("flip_sign", GAS.name),
    ("missing_factor", "projectile_range"), ("missing_factor", "incline_friction_speed"),
    ("swap_trig", "projectile_range"), ("swap_trig", "incline_friction_speed"),
    ("invert_ratio", GAS.name), ("wrong_constant", GAS.name),
    ("arithmetic_slip", "projectile_range"), ("arithmetic_slip", "atwood_tension"), ("arithmetic_slip", GAS.name),
    ("dropped_factor", "projectile_range"), ("dropped_factor", "incline_friction_speed"),
    ("unit_prefix_slip", GAS.name), ("degree_radian_slip", "projectile_range"),
    ("degree_radian_slip", "incline_friction_speed"),
    ("power_of_ten", "projectile_range"), ("power_of_ten", "atwood_tension"), ("power_of_ten", GAS.name),
]


def test_operator_cases_cover_every_operator():
    assert {op for op, _ in OPERATOR_CASES} == {op for ops in OPERATORS.values() for op in ops}


@pytest.mark.parametrize("op, name", OPERATOR_CASES)
def test_operator(op, name):
    fam = get_family(name)
    made = 0
    for seed in range(6):
        p = fam.generate(seed)
        inj = inject_error(p, random.Random(seed), operators=[op])
        if inj is None:
            continue
        made += 1
        assert inj.operator == op
        assert_valid(p, inj)
        check_injection(p, inj)
        ref, got = _steps(p.solution), _steps(inj.solution)
        wrong = got[inj.error_step - 1]
        want_tag = {"MC": ("given", "find"), "CM": ("governing_equation",), "CE": ("calculation",)}
        assert wrong[1] in want_tag[inj.error_type]
        if inj.error_type == "CE":  # the equation and substitution are right; only values move
            assert [s for s in got if s[1] != "calculation"] == [s for s in ref if s[1] != "calculation"]
        if op == "wrong_target":
            assert len(got) < len(ref) and not wrong[2].startswith(fam.find[0] + ",")
        if op in ("misread_given", "swap_givens"):
            assert wrong[1] == "given"
    assert made >= 3, f"{op} on {name}: only {made} of 6 seeds"


def test_declared_error_lands_on_its_mcq_option():
    fam = get_family("atwood_tension")
    for seed in range(8):
        p = fam.generate(seed)
        inj = inject_error(p, random.Random(seed), operators=["declared"])
        label = inj.detail.removeprefix("typical error: ")
        option = next((o for o in p.ground_truth["answer"]["options"] if o["error"] == label), None)
        if option is not None:
            assert inj.final_answer == option["letter"]


def test_cm_mutations_are_dimensionally_consistent_and_named():
    muts = equation_mutations(GAS)
    ops = {op for op, *_ in muts}
    assert {"wrong_constant", "invert_ratio", "flip_sign", "missing_factor"} <= ops
    gamma = [m for m in muts if m[0] == "wrong_constant"]
    assert gamma and all("7/5" in m[3] for m in gamma) and all("gamma" not in str(m[2]) for m in gamma)
    planck = Family(
        name="zz_inject_test_photon", domain="Modern Physics", question="Light of {lam}; h = {h}, c = {c}.",
        givens=[given("lam", between(400, 700), "nm", "wavelength", sig=3),
                const("h", 6.63e-34, "J*s", "Planck constant"), const("c", 3e8, "m/s", "speed of light")],
        find=("Eph", "the photon energy"), principles=[principle("Photon energy", "E = h*c/lam", "photon")],
        steps=[compute("Eph", "h*c/lam", "eV", "photon energy")])
    assert any(op == "wrong_constant" and "hbar" in d for op, _, _, d in equation_mutations(planck))


def test_degenerate_mutations_are_not_offered():
    texts = {(sym, str(w)) for _, sym, w, _ in equation_mutations(get_family("atwood_tension"))}
    assert ("a", "g*(m1 + m2)/(m1 + m2)") not in texts and ("a", "g*(m1 - m2)/(m1 - m2)") not in texts


def test_family_declarations_for_injection():
    with pytest.raises(GenerationError, match="MC and CE"):
        Family(**{**_gas_spec(), "name": "zz_bad_skip", "inject_skip": ("MC",)})
    no_cm = Family(**{**_gas_spec(), "name": "zz_no_cm", "inject_skip": ("CM",)})
    assert operator_types(no_cm) == ["MC", "CE"]
    with pytest.raises(GenerationError, match="not a computed step"):
        Family(**{**_gas_spec(), "name": "zz_bad_typical", "typical_errors": [distractor("x", Q="T1")]})


def _gas_spec() -> dict:
    return dict(name=GAS.name, domain=GAS.domain, question=GAS.question, givens=GAS.givens, find=GAS.find,
                principles=GAS.principles, steps=GAS.steps)


def test_inject_skip_is_respected(monkeypatch):
    fam = get_family("projectile_range")
    monkeypatch.setattr(fam, "inject_skip", ("CM", "misread_given"))
    for seed in range(5):
        inj = inject_error(fam.generate(seed), random.Random(seed), types=("MC", "CM"))
        assert inj.error_type == "MC" and inj.operator != "misread_given"


# ----------------------------------------------------------------------------- the stream
@pytest.fixture(scope="module")
def problems():
    return list(generate_problems(240, seed=5))


def test_controls_and_type_mix(problems):
    rows = list(inject_problems(problems, seed=1, control_fraction=0.1))
    assert len(rows) == len(problems)
    controls = [r for r in rows if r["label_error_type"] == "none"]
    assert 0.05 * len(rows) <= len(controls) <= 0.16 * len(rows)
    for r in controls:
        assert r["label_error_step"] == 0 and r["solution"] == r["reference_solution"] and r["final_correct"]
    for t in ERROR_TYPES:
        assert sum(r["label_error_type"] == t for r in rows) >= 0.2 * len(rows), t
    for r, p in zip(rows, problems):
        assert r["id"] == p.id and r["reference_solution"] == p.solution and r["ground_truth"] == p.ground_truth
        assert r["answer"] == p.answer and r["options"] == p.options and r["question"] == p.question
        if r["label_error_type"] != "none":
            assert r["solution"] != p.solution and not r["final_correct"]
            assert _first_difference(p.solution, r["solution"]) == r["label_error_step"]
            assert r["label_operator"] in OPERATORS[r["label_error_type"]] and r["label_detail"]
    assert all(r["label_error_type"] == "none" for r in inject_problems(problems[:20], 1, control_fraction=1.0))
    assert all(r["label_error_type"] != "none" for r in inject_problems(problems[:20], 1, control_fraction=0.0))


def test_determinism(problems):
    a = [json.dumps(r) for r in inject_problems(problems[:60], seed=2)]
    b = [json.dumps(r) for r in inject_problems(problems[:60], seed=2)]
    c = [json.dumps(r) for r in inject_problems(problems[:60], seed=3)]
    assert a == b and a != c
    rev = [json.dumps(r) for r in inject_problems(problems[:60][::-1], seed=2)]
    assert rev[::-1] == a  # a problem's injection does not depend on its position


def test_check_injection_catches_a_wrong_label():
    p = get_family("projectile_range").generate(1)
    inj = inject_error(p, random.Random(0), types=("CE",))
    bad = copy.deepcopy(inj)
    bad.error_step -= 1
    with pytest.raises(InjectionCheckError, match="projectile_range.*seed 1.*first differing step"):
        check_injection(p, bad)
    bad = copy.deepcopy(inj)
    bad.error_type = "MC"
    with pytest.raises(InjectionCheckError, match="does not fit type MC"):
        check_injection(p, bad)
