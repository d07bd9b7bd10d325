"""The symbolic verifier's readers of session 12: right steps of model-written solutions it blamed before the
labelled first error on the eleven tuning sets (early false alarms, issue #12; round 9's class A1 and its kin on
the other sets). Each test edits the givens of a generated problem's ground-truth solution into a layout the small
model wrote, and checks that the right variant is no error there while a wrong one still is. The verifiers run
the checks alone (`answer_overrules=False`).

Values (seed 0): elastic_collision_head_on m1 = 2.53 kg, u1 = 9.55 m/s, m2 = 2.20 kg (mass of the second ball),
u2 = 9.7 m/s (initial speed of the second ball); parallel_plate_dielectric_energy A = 380 cm^2, d = 1.0 mm, K =
7.1, V = 380 V (battery voltage), eps0, target U with C (capacitance) computed; xray_cutoff_bragg_angle V =
13.9 kV, d = 348 pm and four constants, target th (first-order glancing angle); rolling_incline_time k = 1 (I = 1 M
R^2 in the question), d = 6.04 m.
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens

COLLISION = ["m1 = 2.53 kg (mass of the first ball)", "u1 = 9.55 m/s (initial speed of the first ball)",
             "m2 = 2.20 kg (mass of the second ball)"]
PLATES = ["A = 380 cm^2 (plate area)", "d = 1.0 mm (plate separation)", "K = 7.1 (dielectric constant)"]
PLATES_AFTER = ["eps0 = 8.85e-12 F/m (permittivity of free space)"]
XRAY = ["V = 13.9 kV (tube voltage)", "d = 348 pm (spacing of the crystal planes)", "h = 6.63e-34 J*s",
        "c = 3e8 m/s", "e = 1.6e-19 C", "me = 9.11e-31 kg"]
ROLLING_AFTER = ["d = 6.04 m (distance rolled along the incline)", "theta = 50 deg (angle of the incline)",
                 "g = 9.8 m/s^2 (gravitational acceleration)"]


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- words that cover another quantity's description best, while the value is of another kind than that quantity
#    and the words name the value's own kind: they describe the quantity the value fits

@pytest.mark.parametrize(("family", "before", "stated", "after"), [
    # "second ball" covers m2 (mass of the second ball) best; 9.7 m/s is a velocity, u2's value
    ("elastic_collision_head_on", COLLISION, "The second ball's initial velocity (v2) is 9.7 m/s", []),
    # "capacitor" covers the capacitance (to be found); 380 V is a voltage, the battery's
    ("parallel_plate_dielectric_energy", PLATES, "T = 380 V (voltage applied across the capacitor)", PLATES_AFTER),
])
def test_words_of_the_value_kind_bind_to_the_given_the_value_fits(strict: SymbolicVerifier, family: str,
                                                                  before: list[str], stated: str,
                                                                  after: list[str]) -> None:
    step, _type, check = blamed_with_givens(strict, family, before + [stated] + after)
    assert step != len(before) + 1, (step, check)


@pytest.mark.parametrize(("family", "before", "stated", "after"), [
    # a noun of another kind than the value is a claim about it: the mass called a velocity's value
    ("elastic_collision_head_on", COLLISION, "The second ball's mass (M2) is 9.7 m/s", []),
    # the capacitance, named with its own kind noun, given a voltage
    ("parallel_plate_dielectric_energy", PLATES, "T = 380 V (capacitance of the capacitor)", PLATES_AFTER),
])
def test_words_of_another_kind_than_the_value_are_still_blamed(strict: SymbolicVerifier, family: str,
                                                               before: list[str], stated: str,
                                                               after: list[str]) -> None:
    step, kind, _check = blamed_with_givens(strict, family, before + [stated] + after)
    assert (step, kind) == (len(before) + 1, "MC")


# -- a bare whole number the problem implies (the diffraction order) is no value of the quantity to be found whose
#    description shares its words ("first-order glancing angle")

def test_an_implied_order_is_no_value_of_the_target(strict: SymbolicVerifier) -> None:
    step, _type, check = blamed_with_givens(strict, "xray_cutoff_bragg_angle", XRAY + ["n = 1 [first order]"])
    assert step != len(XRAY) + 1, (step, check)


def test_a_number_of_no_quantity_under_the_targets_words_is_still_blamed(strict: SymbolicVerifier) -> None:
    step, kind, _check = blamed_with_givens(strict, "xray_cutoff_bragg_angle",
                                            XRAY + ["n = 7 [first order glancing angle]"])
    assert (step, kind) == (len(XRAY) + 1, "MC")


# -- the problem's own formula restated under a letter of the solution's own, and a value-less naming of a letter
#    the problem itself defines, in the problem's words

@pytest.mark.parametrize("stated", ["m = 1 M R^2 (inertia)", "Im = 1 M R^2",
                                    "I, the moment of inertia about the central axis"])
def test_the_problems_formula_or_letter_restated_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    step, _type, check = blamed_with_givens(strict, "rolling_incline_time", [stated] + ROLLING_AFTER)
    assert step != 1, (step, check)


@pytest.mark.parametrize("stated", ["m = 2 M R^2 (inertia)", "J, the moment of inertia about the central axis",
                                    "The mass of the body is I = 1 M R^2 (the moment of inertia)"])  # words before it
def test_another_formula_or_a_new_letter_is_still_judged(strict: SymbolicVerifier, stated: str) -> None:
    step, _type, _check = blamed_with_givens(strict, "rolling_incline_time", [stated] + ROLLING_AFTER)
    assert step == 1


# -- a given rounded to one significant digit fewer is the same given (the rubric: rounding within 1% is fine)

ROLLING = ["k = 1 (ratio I/(M*R^2) of the body)"]


@pytest.mark.parametrize(("stated", "blamed"), [
    ("d = 6.0 m (distance rolled along the incline)", False),  # 6.04 m rounded
    ("d = 6.1 m (distance rolled along the incline)", True),  # no rounding of 6.04 m
    ("d = 6 m (distance rolled along the incline)", True),  # a whole number for a decimal: one digit only
])
def test_a_given_rounded_one_digit_fewer_is_the_same_given(strict: SymbolicVerifier, stated: str,
                                                           blamed: bool) -> None:
    step, _type, check = blamed_with_givens(strict, "rolling_incline_time", ROLLING + [stated] + ROLLING_AFTER[1:])
    assert (step == 2) == blamed, (step, check)
