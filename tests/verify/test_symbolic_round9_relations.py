"""The symbolic verifier's relation checks of session 12 (issue #12: late and type-only misses on model-written
solutions whose labelled first error is a wrong relation; round 9's classes C3 and U7 of
analysis/round9_misses_session11_verifier.md, grouped by cause with the same misses of the other sets): a relation
is judged by the dimensions of what it writes, wherever it is written, and typed CM by its cause. Each test edits
steps of a generated problem's ground-truth solution into a layout the small model writes (hand-written, not
copies of labelled items) and checks that the right variant is not blamed there while the wrong one is.

Values (seed 0): de_broglie_accelerated_electron K0 = 37 eV, V = 278 V, h = 6.63e-34 J*s, me = 9.11e-31 kg,
e = 1.6e-19 C, c = 3e8 m/s; gravitational_potential_energy_lift m = 14.9 kg, h = 4.68 m, g = 9.8 m/s^2;
sensible_heat_water m = 0.680 kg, T1 = 284 K, T2 = 333 K, c = 4186 J/(kg*K).
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import edited_verdict, with_givens


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- C3: a new letter defined by a relation no reading makes a quantity, wherever it is written

GIVENS = ["K0 = 37 eV (initial kinetic energy)", "V = 278 V (accelerating potential difference)",
          "h = 6.63e-34 J*s (Planck constant)", "me = 9.11e-31 kg (electron mass)",
          "e = 1.6e-19 C (elementary charge)", "c = 3e8 m/s (speed of light)"]


def test_a_new_letter_defined_among_the_givens_with_no_fitting_dimension_is_a_wrong_relation(
        strict: SymbolicVerifier) -> None:
    # v2 names a speed; V*(h/c) is volt times J*s^2/m, no speed and no quantity of the problem
    v = strict.verify(*with_givens("de_broglie_accelerated_electron", GIVENS + ["v2 = V*(h/c)"]))
    assert (v.error_step, v.error_type, v.details.get("check")) == (7, "CM", "dimension"), v.explanation
    # a speed written from the givens fits its letter's kind: no dimension failure (unchecked, as before)
    v = strict.verify(*with_givens("de_broglie_accelerated_electron", GIVENS + ["v2 = sqrt(2*e*V/me)"]))
    assert v.details.get("check") != "dimension", v.explanation


def test_a_definition_that_adds_values_of_two_kinds_is_a_wrong_relation(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "gravitational_potential_energy_lift", {7: "E = (14.9 kg * 9.8 m/s^2) - (4.68 m) * g"})
    assert (v.error_step, v.error_type, v.details.get("check")) == (7, "CM", "dimension"), v.explanation
    # a sum of two energies is no dimension failure (unchecked: E is the solution's own letter)
    v = edited_verdict(strict, "gravitational_potential_energy_lift",
                       {7: "E = (14.9 kg * 9.8 m/s^2) * (4.68 m) - (0.5 J)"})
    assert v.details.get("check") != "dimension", v.explanation


# -- U7: values of two kinds equated are a wrong relation (CM), not a slip (CE) nor a misread given (MC)

WATER = ["m = 0.680 kg (mass of water)", "T1 = 284 K (initial temperature)", "T2 = 333 K (final temperature)",
         "c = 4186 J/(kg*K) (specific heat of water)"]


@pytest.mark.parametrize("line", [
    "The heat needed is: 0.680 kg * (333 K) = 5.2 kJ",  # mass times temperature called an energy
    "(0.680 kg)*(4186 J/(kg*K)) = 5.2 kJ",  # a heat capacity called an energy
])
@pytest.mark.parametrize("first", [True, False])
def test_an_equation_of_values_of_two_kinds_among_the_givens_is_typed_cm(strict: SymbolicVerifier, line: str,
                                                                        first: bool) -> None:
    # a result that is no quantity of the problem: nothing to read the numbers back as; the kinds decide
    givens = [line] + WATER if first else WATER + [line]
    v = strict.verify(*with_givens("sensible_heat_water", givens))
    assert (v.error_step, v.error_type) == (1 if first else 5, "CM"), v.explanation


def test_a_wrong_result_of_values_of_one_kind_stays_a_calculation_error(strict: SymbolicVerifier) -> None:
    # both sides are energies: the relation holds dimensionally and the number is a slip
    v = edited_verdict(strict, "sensible_heat_water", {9: "(0.680 kg)*(4186 J/(kg*K))*(49 K) = 2.5e5 J"})
    assert (v.error_step, v.error_type) == (9, "CE"), v.explanation


def test_an_unchecked_calculation_that_subtracts_a_mass_from_a_temperature_is_cm(strict: SymbolicVerifier) -> None:
    # nothing reads the unknown "K" factor, so the step is unchecked; its section would make it CE
    v = edited_verdict(strict, "sensible_heat_water",
                       {9: "((333 K) - (0.680 kg)) / (4186 J/(kg*K)) = (333 K - 0.680 kg) K"})
    assert (v.error_step, v.error_type, v.details.get("check")) == (9, "CM", "unchecked"), v.explanation


# -- a value stated in <concept> is data: an unchecked one is MC by its cause, not CM by its section

@pytest.mark.parametrize("step", ["The first ball's initial velocity is F1 = 9.55 m/s", "F1 = 9.55 m/s"])
def test_an_unchecked_value_in_a_concept_step_is_typed_mc(strict: SymbolicVerifier, step: str) -> None:
    v = edited_verdict(strict, "elastic_collision_head_on", {6: step})
    assert (v.error_step, v.error_type, v.details.get("check")) == (6, "MC", "unchecked"), v.explanation


def test_an_unchecked_relation_in_a_concept_step_stays_cm(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "elastic_collision_head_on", {6: "The first ball's initial velocity is F1 = F2*9.55 m/s"})
    assert (v.error_step, v.error_type, v.details.get("check")) == (6, "CM", "unchecked"), v.explanation


# -- U4: a first step where the givens belong that writes a relation between symbols is CM, as a wrong principle is

# (the MC case is a sentence with words from outside the problem: since session 14 an untagged first sentence in the
# problem's own words, "The balls collide head-on.", is read as a true setup step, round 11's A25)
@pytest.mark.parametrize(("first", "etype"), [("Energy equation: vb = v^2 - vb", "CM"),
                                              ("The balls stick together.", "MC")])
def test_missing_givens_at_a_first_step_that_writes_a_relation_is_cm(strict: SymbolicVerifier, first: str,
                                                                     etype: str) -> None:
    problem = get_family("elastic_collision_head_on").generate(0)
    text = (f"Step 1: {first}\n"
            "Step 2: vcm = ((2.53 kg)*(9.55 m/s) - (2.20 kg)*(9.7 m/s))/((2.53 kg) + (2.20 kg))\n"
            "Step 3: v2 = 2*(0.597 m/s) + (9.7 m/s) = 3.4 m/s\n<final_answer>\n3.4 m/s\n</final_answer>")
    v = strict.verify(problem, text)
    assert (v.error_step, v.error_type, v.details.get("check")) == (1, etype, "complete"), v.explanation


def test_a_letter_that_may_stand_for_a_given_not_yet_stated_is_left_to_the_given_checks(
        strict: SymbolicVerifier) -> None:
    # before c is stated, v2 (a speed) may be the speed of light misstated: a given's error, not judged here
    v = strict.verify(*with_givens("de_broglie_accelerated_electron", ["v2 = V*(h/c)"] + GIVENS))
    assert v.details.get("check") != "dimension", v.explanation
