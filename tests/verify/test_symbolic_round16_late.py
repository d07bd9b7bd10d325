"""The symbolic verifier's given-step checks of session 15 (second half, missed errors), from the late verdicts on
rounds 12 to 16: a value with a unit that earlier given lines already stated (in any layout: a bare value, a letter
with words, a heading and a letter, a line of several values) stated again by a new given line is the first repeat
(RUBRIC.md, "Repeated step"), MC, unless the problem has that many quantities of that value. Each test writes the
<given> section of a generated problem's ground-truth solution (seed 0) the way the small model wrote it; each has a
near miss that must pass. The verifiers run the checks alone (`answer_overrules=False`).

Values (seed 0): coulomb_force_two_charges q1 = 5.16 uC, q2 = 1.66 uC, r = 33.9 cm, k = 9e9 N*m^2/C^2;
incline_friction_speed m = 6.7 kg, d = 9.6 m, theta = 35 deg, mu = 0.11, g = 9.8 m/s^2; projectile_range v0 = 43.1
m/s, theta = 55 deg, g = 9.8 m/s^2; spring_mass_max_speed m = 1.4 kg, d = 15.3 cm, A = 7.9 cm, g = 9.8 m/s^2.
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens

COULOMB = ["q1 = 5.16 uC (first charge)", "q2 = 1.66 uC (second charge)"]
INCLINE = ["d = 9.6 m (distance slid along the incline)", "theta = 35 deg (angle of the incline)",
           "mu = 0.11 (coefficient of kinetic friction)", "g = 9.8 m/s^2 (gravitational acceleration)"]
SPRING = ["m = 1.4 kg (mass of the block)", "A = 7.9 cm (amplitude of oscillation)", "g = 9.8 m/s^2"]


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


@pytest.mark.parametrize(("family", "givens", "step"), [
    # a bare value, then a letter for it
    ("coulomb_force_two_charges", ["k = 9e9 N*m^2/C^2", "33.9 cm", "r = 33.9 cm"] + COULOMB, 3),
    ("coulomb_force_two_charges", ["(33.9 cm)", "k = 9e9 N*m^2/C^2", "L = 33.9 cm (separation)"] + COULOMB, 3),
    # "letter = words (value)", then another letter with other words
    ("incline_friction_speed", ["F = mass (6.7 kg)", "m = initial block mass (6.7 kg)"] + INCLINE, 2),
    # "heading: letter = value", then the same under the next index
    ("spring_mass_max_speed", ["T1: T1 = 15.3 cm", "T2: T2 = 15.3 cm"] + SPRING, 2),
    # a line of several values, then one of them again
    ("projectile_range", ["initial velocity: v0 = 43.1 m/s, angle of projection: θ = 55 deg above the horizontal",
                          "g = 9.8 m/s^2", "projection angle: θ = 55 deg above the horizontal"], 3),
])
def test_a_value_stated_again_in_another_layout_is_the_first_repeat(
        strict: SymbolicVerifier, family: str, givens: list[str], step: int) -> None:
    assert blamed_with_givens(strict, family, givens) == (step, "MC", "given_repeat")


@pytest.mark.parametrize(("family", "givens"), [
    # each value once, in mixed layouts
    ("coulomb_force_two_charges", ["k = 9e9 N*m^2/C^2", "33.9 cm (separation)"] + COULOMB),
    ("incline_friction_speed", ["m = mass of the block (6.7 kg)"] + INCLINE),
    ("projectile_range", ["initial velocity: v0 = 43.1 m/s, angle of projection: θ = 55 deg above the horizontal",
                          "g = 9.8 m/s^2"]),
    # the same number in another unit kind is another quantity ("15.3 cm" then "15.3 kg" is judged elsewhere)
    ("spring_mass_max_speed", ["m = 1.4 kg", "d = 15.3 cm", "A = 7.9 cm", "g = 9.8 m/s^2"]),
])
def test_each_value_stated_once_is_no_repeat(strict: SymbolicVerifier, family: str, givens: list[str]) -> None:
    step, _kind, check = blamed_with_givens(strict, family, givens)
    assert check != "given_repeat", (step, check)



# the gravitational acceleration's value given another owner: "the acceleration of <a body>", "due to <a cause>"

LIFT = ["L = 1.76 m (length of the pendulum)", "a = 3.9 m/s^2 (upward acceleration of the lift)"]
BLOCK = ["m = 2.0 kg (mass of the block)", "v = 5.33 m/s (speed of the block on reaching the spring)",
         "mu = 0.16 (coefficient of kinetic friction)", "k = 1600 N/m (force constant of the spring)"]


@pytest.mark.parametrize(("family", "givens", "step"), [
    ("pendulum_in_lift_period", LIFT + ["g = 9.8 m/s^2 (the acceleration of the pendulum)"], 3),
    ("pendulum_in_lift_period", [LIFT[0], "The acceleration of the bob (G) is g, which is 9.8 m/s^2", LIFT[1]], 2),
    ("spring_friction_compression", BLOCK[:2] + ["g = 9.8 m/s^2 (constant acceleration due to the push)"] + BLOCK[2:],
     3),
])
def test_the_gravitational_acceleration_given_another_owner_is_mc(
        strict: SymbolicVerifier, family: str, givens: list[str], step: int) -> None:
    assert blamed_with_givens(strict, family, givens) == (step, "MC", "given_words")


@pytest.mark.parametrize(("family", "givens"), [
    ("pendulum_in_lift_period", LIFT + ["g = 9.8 m/s^2 (acceleration due to gravity)"]),
    ("pendulum_in_lift_period", LIFT + ["The acceleration of free fall is g = 9.8 m/s^2"]),
    ("spring_friction_compression", BLOCK + ["g = 9.8 m/s^2 (acceleration)"]),  # vague, not false
    # a projectile's acceleration is g: a body's acceleration is wrong only where the problem gives another one
    ("projectile_range", ["v0 = 43.1 m/s", "theta = 55 deg", "g = 9.8 m/s^2 (the acceleration of the ball)"]),
])
def test_the_gravitational_acceleration_by_its_own_name_passes(
        strict: SymbolicVerifier, family: str, givens: list[str]) -> None:
    step, _kind, check = blamed_with_givens(strict, family, givens)
    assert check != "given_words", (step, check)
