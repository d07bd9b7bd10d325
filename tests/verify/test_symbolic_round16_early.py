"""The symbolic verifier's readers of session 15 (early verdicts, issue #12): right steps that it blamed before the
labelled first error, or on a correct solution, on rounds 12 to 16, each cause seen in two rounds at least. Each
test edits the givens of a generated problem's ground-truth solution into a layout a small model writes, and checks
that the right variant is read (no error there) while a wrong one is still an error there. The verifiers run the
checks alone (`answer_overrules=False`) and count an unread step as an error (`unchecked="error"`), so "no error"
means every step was read and passed.

Values (seed 0): rc_charging_charge C = 3.7 uF, R = 72 kohm, emf = 10 V, t = 720 ms, the problem connects the
circuit "at t = 0"; lr_circuit_energy Lind = 840 mH, R = 13 ohm, emf = 12 V, t = 61 ms, also "at t = 0";
projectile_range v0 = 43.1 m/s (launch speed), theta = 55 deg, g = 9.8 m/s^2, the record computes the "initial
vertical velocity component"; solenoid_stored_energy l = 73 cm, a = 2.8 cm, N = 350, cur = 3.6 A, and the problem
says "Taking mu0/(4*pi) = 1e-7 T*m/A".
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_layouts import drop_instant, states_problem_expression
from support.step_edits import blamed_with_givens

RC = ["C = 3.7 uF (capacitance)", "R = 72 kohm (resistance)"]
RC_T = "t = 720 ms (time after the switch is closed)"
LR = ["Lind = 840 mH (inductance)", "R = 13 ohm (resistance)"]
LR_T = "t = 61 ms = 0.061 s"


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- an instant after "at" inside a given's words says when the rest holds; it states no value of its letter

@pytest.mark.parametrize(("family", "givens"), [
    # a second clause after the emf's statement
    ("rc_charging_charge", RC + ["emf = 10 V (ideal battery), capacitor uncharged at t = 0", RC_T]),
    # after the time's own statement, past a semicolon
    ("rc_charging_charge", RC + ["emf = 10 V (battery emf)", "t = 720 ms = 0.72 s; capacitor uncharged at t = 0"]),
    # "switched in at t = 0 with no initial current"
    ("lr_circuit_energy", LR + ["emf = 12 V (ideal battery), switched in at t = 0 with no initial current", LR_T]),
])
def test_a_starting_instant_in_a_givens_words_is_read_as_right(strict: SymbolicVerifier, family: str,
                                                                givens: list[str]) -> None:
    step, _type, check = blamed_with_givens(strict, family, givens)
    assert step == 0, (step, check)


def test_a_wrong_value_beside_an_instant_is_still_an_error(strict: SymbolicVerifier) -> None:
    # the instant is read as a condition; the emf stated beside it is still checked (14 V where the problem has 12 V)
    step, kind, _check = blamed_with_givens(strict, "lr_circuit_energy",
                                            LR + ["emf = 14 V (ideal battery), switched in at t = 0", LR_T])
    assert (step, kind) == (3, "MC")


def test_an_instant_the_problem_never_writes_is_still_a_stated_value(strict: SymbolicVerifier) -> None:
    # "at t = 5 ms": not zero and not the problem's instant, so it stays a value stated for t (and a wrong one)
    step, kind, _check = blamed_with_givens(strict, "rc_charging_charge",
                                            RC + ["emf = 10 V (ideal battery), capacitor uncharged at t = 5 ms", RC_T])
    assert (step, kind) == (3, "MC")


@pytest.mark.parametrize(("text", "question", "read"), [
    ("capacitor uncharged at t = 0", "... at t = 0. Find q.", "capacitor uncharged at that instant"),
    ("E = 11 V (battery), switched in at t = 0 with no current", "... at t = 0.", "E = 11 V (battery)"),
    ("(only X present at t = 0)", "Initially the sample contains only X.", "(only X present at that instant)"),
    # a non-zero instant counts only where the problem writes it with the same letter
    ("Q at t = 730 ms", "Find the charge at t = 730 ms.", "Q at that instant"),
    ("Q at t = 730 ms", "Find the charge at t = 0.73 s.", None),
    ("v = 3 m/s when x = 2 m", "A block at rest ...", None),
    ("t = 0 (time)", "... at t = 0.", None),  # no "at": a statement of t (judged by the other-instant check)
])
def test_drop_instant(text: str, question: str, read: str | None) -> None:
    assert drop_instant(text, question) == read


# -- words without the direction of a component name the whole vector: a given's value under them is that given

PROJECTILE_AFTER = ["theta = 55 deg (launch angle above the horizontal)", "g = 9.8 m/s^2 (gravitational acceleration)"]


@pytest.mark.parametrize("given", ["Initial velocity: 43.1 m/s", "Initial velocity (v1) = 43.1 m/s"])
def test_a_vectors_words_without_a_direction_are_the_givens(strict: SymbolicVerifier, given: str) -> None:
    # the record computes the "initial vertical velocity component"; 43.1 m/s is the launch speed, loosely worded
    step, _type, check = blamed_with_givens(strict, "projectile_range", [given] + PROJECTILE_AFTER)
    assert step == 0, (step, check)


@pytest.mark.parametrize("given", ["Initial vertical velocity: 43.1 m/s", "Initial velocity component (vy) = 43.1 m/s",
                                   "Initial velocity (initial acceleration) = 43.1 m/s"])
def test_a_components_words_on_the_whole_speed_stay_an_error(strict: SymbolicVerifier, given: str) -> None:
    # the words name the vertical component, a quantity to be found, and give it the launch speed, or call the
    # speed an acceleration in a remark: MC there
    step, kind, _check = blamed_with_givens(strict, "projectile_range", [given] + PROJECTILE_AFTER)
    assert (step, kind) == (1, "MC")


# -- the problem's constant written as the problem writes it, "expression = value", is read as right

SOLENOID = ["l = 73 cm (length of the solenoid)", "a = 2.8 cm (radius of the solenoid)", "N = 350 (number of turns)",
            "cur = 3.6 A (current)"]


@pytest.mark.parametrize("given", ["mu0/(4*pi) = 1e-7 T*m/A", "mu0/4*pi = 1e-7 T*m/A"])
def test_the_problems_expression_with_its_value_is_read_as_right(strict: SymbolicVerifier, given: str) -> None:
    step, _type, check = blamed_with_givens(strict, "solenoid_stored_energy", SOLENOID + [given])
    assert step == 0, (step, check)


@pytest.mark.parametrize("given", ["mu0/(2*pi) = 1e-7 T*m/A", "mu0/(4*pi) = 1e-6 T*m/A"])
def test_another_factor_or_value_is_not_the_problems_expression(strict: SymbolicVerifier, given: str) -> None:
    step, _type, _check = blamed_with_givens(strict, "solenoid_stored_energy", SOLENOID + [given])
    assert step == len(SOLENOID) + 1


@pytest.mark.parametrize(("text", "said"), [
    ("mu0/4*pi = 1e-7 T*m/A", True),
    ("mu0/(4*pi) = 1e-7 T*m/A.", True),
    ("mu0 = 1e-7 T*m/A", False),  # no expression on the left: a letter's value, judged by the given checks
    ("mu0/(4*pi) = 1e-7 T*m/A = k", False),  # a chain: more than the problem writes
])
def test_states_problem_expression(text: str, said: bool) -> None:
    question = "A solenoid carries a current of 3.6 A. Taking mu0/(4*pi) = 1e-7 T*m/A, find the energy stored."
    assert states_problem_expression(text, question) is said
