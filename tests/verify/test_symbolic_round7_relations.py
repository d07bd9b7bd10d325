"""The symbolic verifier's relation checks of session 10 (issue #12: misses whose labelled first error is a wrong
relation, law or arithmetic, CM or CE, on the eight tuning sets; round 7's classes C2, U3, U5 of
analysis/round7_misses_session9_verifier.md and the late concept-step misses of level 1): a wrong relation is found
where it is written, whatever the section, and typed CM by its cause. Each test edits steps of a generated problem's
ground-truth solution into a layout the small model wrote (hand-written, not copies of labelled items), and checks
that the right variant is no error while the wrong one is.

Values (seed 0): elastic_collision_head_on m1 = 2.53 kg, u1 = 9.55 m/s, m2 = 2.20 kg, u2 = 9.7 m/s; capacitor_charge
C = 353 uF, V = 41.5 V; photon_radiation_force P = 4.9 W, lam = 406 nm; de_broglie_wavelength_particle m = 5.02 ug,
v = 7.02 mm/s; carnot_engine_heat_rejected TH = 868 K, TC = 373 K, QH = 1500 J.
"""

from __future__ import annotations

import pytest

from physr3.quantity.text import normalize
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import edited_verdict, replace_step


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- C2: a wrong relation in the <find> step, `v2 = v1 - m1*v1/m2`

def test_an_indexed_symbol_after_a_slash_is_a_symbol_not_a_square_unit() -> None:
    assert normalize("v1 - m1*v1/m2") == "v1 - m1*v1/m2"  # the mass m2, not m^2
    assert normalize("9.8 m/s2") == "9.8 m/s^2" and normalize("3 kg/m2") == "3 kg/m^2"


def test_a_wrong_relation_written_in_the_find_step_is_found_there(strict: SymbolicVerifier) -> None:
    givens = {2: "v1 = 9.55 m/s (initial speed of the first ball)"}
    right = edited_verdict(strict, "elastic_collision_head_on", {**givens, 5: "v2 = 2*vcm + u2"})
    assert right.error_step != 5, right.explanation
    v = edited_verdict(strict, "elastic_collision_head_on", {**givens, 5: "v2 = v1 - m1*v1/m2"})
    assert (v.error_step, v.error_type) == (5, "CM"), v.explanation


# -- U3: the target's own letter, used before as the label of a given, equated to a formula of the givens

def test_the_targets_letter_in_the_find_step_is_the_target_even_after_labelling_a_given(
        strict: SymbolicVerifier) -> None:
    edits = {1: "F = 4.9 W (the power of the light)", 6: "F = (4.9 W)(406 nm)/c"}
    v = edited_verdict(strict, "photon_radiation_force", edits)
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation
    v = edited_verdict(strict, "photon_radiation_force", {1: "F = 4.9 W (the power of the light)",
                                                          6: "F = (4.9 W)*(406 nm)"})
    assert v.error_step == 6 and v.error_type in ("MC", "CM"), v.explanation  # still no find step
    # without the relation the step is a misnamed target, as before
    v = edited_verdict(strict, "photon_radiation_force", {1: "F = 4.9 W (the power of the light)",
                                                          6: "P, the power (in W)"})
    assert (v.error_step, v.error_type) == (6, "MC"), v.explanation


# -- an equation on the lines below a step's own line belongs to that step

def test_an_equation_below_a_concept_steps_line_is_checked_with_it(strict: SymbolicVerifier) -> None:
    problem = get_family("de_broglie_wavelength_particle").generate(0)
    intro = "de Broglie relation: a particle's wavelength is given by:"
    wrong = replace_step(problem.solution, 5, intro + "\nlam = (1/h)*m*v")
    v = strict.verify(problem, wrong)
    assert (v.error_step, v.error_type) == (5, "CM"), v.explanation
    right = replace_step(problem.solution, 5, intro + "\nlam = h/(m*v)")
    assert strict.verify(problem, right).error_step == 0


# -- a <concept> equation whose one new letter can be no quantity its letter usually names

def test_a_concept_relation_no_reading_of_its_new_letter_makes_consistent_is_cm(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "capacitor_charge", {4: "Capacitance: the voltage across the plates is V = C/L"})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation
    # a new letter whose usual kind fits passes (Q = C*V with d the plate gap named in passing: no judgement)
    v = edited_verdict(strict, "capacitor_charge", {4: "Capacitance: Q = C*V, and E = V/d between the plates"})
    assert v.error_step == 0, v.explanation


def test_a_letter_inside_a_sine_leaves_the_rest_to_be_judged(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "capacitor_charge", {4: "Capacitance: B = Q*V*sin(w*t)"})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation  # an energy: no magnetic field
    v = edited_verdict(strict, "capacitor_charge", {4: "Capacitance: E = Q*V*sin(w*t)"})
    assert v.error_step == 0, v.explanation  # E may be an energy: no judgement
    v = edited_verdict(strict, "capacitor_charge", {4: "Capacitance: I = C*sin(w*t)"})
    assert v.error_step == 0, v.explanation  # the problem has a quantity of that kind (C): the table may miss it


# -- U5: an unchecked relation outside <given>/<find> is CM, not CE by its section

def test_an_unchecked_relation_in_a_calculation_is_typed_cm(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "carnot_engine_heat_rejected", {13: "QC = Cx / (TH - TC)"})
    assert (v.error_step, v.error_type) == (13, "CM"), v.explanation
    v = edited_verdict(strict, "carnot_engine_heat_rejected", {13: "eta = 0.570 (about 57 percent) Cx"})
    assert v.error_step != 13 or v.error_type == "CE", v.explanation


# -- U6: letter(value) on both sides of a given is data equated, not a relation

def test_a_given_equating_two_letter_value_pairs_is_garbled_data(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "string_standing_wave_frequency", {1: "F(1.04 m) = T(37 N)"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    v = edited_verdict(strict, "string_standing_wave_frequency", {1: "L(1.04 m) = 1.04 m"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation  # as before: one value of one quantity twice


# -- the givens missing at a first step that decides nothing come before a later failure (as when nothing fails)

def test_missing_givens_at_an_undecided_first_step_are_blamed_before_a_later_slip() -> None:
    problem = get_family("concave_mirror_image_from_focal_length").generate(0)
    tail = "Step 3: v = 1/(1/f - 1/u)\nStep 4: v = 5.0 cm\n<final_answer>5.0 cm</final_answer>"
    v = SymbolicVerifier(answer_overrules=False).verify(problem, "Step 1: Refraction\nStep 2: Image distance\n" + tail)
    assert (v.error_step, v.error_type) == (1, "CM"), v.explanation  # a principle that does not apply there
    v = SymbolicVerifier(answer_overrules=False).verify(problem, "Step 1: Mirror\nStep 2: Image distance\n" + tail)
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    # a first step that names the target decided something: the slip is the first error
    v = SymbolicVerifier(answer_overrules=False).verify(problem, "Step 1: The image distance v\n" + tail.replace("Step 3", "Step 2")
                                  .replace("Step 4", "Step 3"))
    assert (v.error_step, v.error_type) == (3, "CE"), v.explanation
