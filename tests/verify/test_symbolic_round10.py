"""The symbolic verifier's checks of session 13 (issue #12): a given is judged by its value, unit and words, never
by its letter alone (RUBRIC.md, "Stating a given", settled in session 13), and the closable misses of round 10.
Each test edits the givens of a generated problem's ground-truth solution into a hand-written layout and checks
that the right variant is no error there while a wrong one still is. The verifiers run the checks alone
(`answer_overrules=False`).

Values (seed 0): elastic_collision_head_on m1 = 2.53 kg, u1 = 9.55 m/s, m2 = 2.20 kg, u2 = 9.7 m/s, target v2;
vertical_circle_top_tension m = 1.0 kg, L = 1.2 m, u = 8.31 m/s (speed at the lowest point), g = 9.8 m/s^2,
target T (tension at the highest point).
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens, edited_verdict, replace_step


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- Part 1: a letter that conventionally (or in the problem) names another kind is the author's notation

@pytest.mark.parametrize(("line", "blamed"), [
    ("m2 = 9.7 m/s", False),  # the second ball's speed under the letter of its mass: right, by value and unit
    ("m2 = 9.7 m/s (mass of the second ball)", True),  # words name the mass: a value of the wrong kind
    ("m2 = 9.1 m/s", True),  # a number the problem does not give
])
def test_a_givens_letter_holding_another_kinds_value_is_judged_by_value_and_words(
        strict: SymbolicVerifier, line: str, blamed: bool) -> None:
    found = blamed_with_givens(strict, "elastic_collision_head_on",
                               ["m1 = 2.53 kg", "u1 = 9.55 m/s", "M = 2.20 kg", line])
    assert (found[:2] == (4, "MC")) == blamed, found


@pytest.mark.parametrize(("line", "blamed"), [
    ("T = 8.31 m/s", False),  # the speed at the lowest point under the letter of the tension asked for
    ("T = 8.31 m/s (tension at the highest point)", True),  # words name the tension: the wrong kind
])
def test_the_targets_letter_holding_a_givens_value_is_a_label(strict: SymbolicVerifier, line: str,
                                                              blamed: bool) -> None:
    found = blamed_with_givens(strict, "vertical_circle_top_tension",
                               ["m = 1.0 kg", "L = 1.2 m", line, "g = 9.8 m/s^2"])
    assert (found[:2] == (3, "MC")) == blamed, found


@pytest.mark.parametrize(("givens", "blamed"), [
    (["m1 = 2.53 kg", "u1 = 9.55 m/s", "u2 = 2.20 kg"], False),  # the second mass under a speed's letter
    (["m1 = 2.53 kg", "u1 = 9.55 m/s", "u2 (in kJ) = 2.20 kg"], True),  # a unit of another kind said for it
    (["m1 = 2.53 kg", "w = 9.55 m/s", "w = 2.20 kg"], True),  # one letter of the solution's for two quantities
])
def test_a_label_is_judged_by_its_unit_remark_and_by_the_solutions_own_use_of_the_letter(
        strict: SymbolicVerifier, givens: list[str], blamed: bool) -> None:
    found = blamed_with_givens(strict, "elastic_collision_head_on", givens)
    assert (found[:2] == (3, "MC")) == blamed, found


def test_a_value_under_a_letter_of_another_kind_then_under_its_own_is_a_repeat_at_the_second(
        strict: SymbolicVerifier) -> None:
    found = blamed_with_givens(strict, "elastic_collision_head_on",
                               ["m1 = 2.53 kg", "t = 9.55 m/s", "u1 = 9.55 m/s", "m2 = 2.20 kg"])
    assert found == (3, "MC", "given_relabelled")


@pytest.mark.parametrize("line", ["ω = 9.7 m/s", "hm = 9.7 m/s", "K (kelvin) = 9.7 m/s"])
def test_a_lone_letter_of_another_kind_is_no_error_by_itself(strict: SymbolicVerifier, line: str) -> None:
    # letters of a strong convention, products of symbols and unit symbols: notation, judged by value and unit
    found = blamed_with_givens(strict, "elastic_collision_head_on",
                               ["m1 = 2.53 kg", "u1 = 9.55 m/s", "m2 = 2.20 kg", line])
    assert found[0] != 4, found


# -- Part 2: round 10's false alarms on correct solutions, by cause

@pytest.mark.parametrize(("line", "blamed"), [
    ("vt = 4.69 m/s (469 cm/s)", False),  # the same speed restated in another unit: a remark
    ("vt = 4.69 m/s", False),
    ("vt = 5.20 m/s (520 cm/s)", True),  # a wrong value stays wrong, restated or not
])
def test_a_value_restated_in_another_unit_in_brackets_is_no_factor(strict: SymbolicVerifier, line: str,
                                                                   blamed: bool) -> None:
    v = edited_verdict(strict, "vertical_circle_top_tension", {12: line})
    assert (v.error_step == 12) == blamed, v.explanation


@pytest.mark.parametrize(("line", "blamed"), [
    ("Ball 1: m1 = 2.53 kg moving at u1 = 9.55 m/s", False),  # two statements joined by words
    ("Ball 1: m1 = 2.53 kg moving at u1 = 9.15 m/s", True),  # the speed is not the problem's
])
def test_two_letter_value_pairs_joined_by_words_are_two_statements(strict: SymbolicVerifier, line: str,
                                                                   blamed: bool) -> None:
    found = blamed_with_givens(strict, "elastic_collision_head_on",
                               [line, "m2 = 2.20 kg", "u2 = 9.7 m/s"])
    assert (found[0] == 1) == blamed, found


@pytest.mark.parametrize(("line", "blamed"), [
    ("m = 2.53 kg (in m)", False),  # the statement's own letter in the "in X" form (m, also a unit): a name
    ("m1 = 2.53 kg (in m)", True),  # a unit of another kind: the value's unit is misread
])
def test_an_in_remark_naming_the_statements_own_letter_is_no_unit(strict: SymbolicVerifier, line: str,
                                                                  blamed: bool) -> None:
    found = blamed_with_givens(strict, "elastic_collision_head_on", [line, "u1 = 9.55 m/s", "m2 = 2.20 kg"])
    assert (found[0] == 1) == blamed, found



@pytest.mark.parametrize(("count", "blamed"), [
    ("100", False),  # 43 + 57: the lighter isotope's mass number, the remark's own counts added up
    ("104", True),  # no sum of the remark's counts, no quantity of the problem: invented
])
def test_a_count_that_the_remarks_own_counts_add_up_to_is_implied(strict: SymbolicVerifier, count: str,
                                                                  blamed: bool) -> None:
    # neutron_separation_energy, seed 27: Z = 43, N = 58, b1 = 8.48 MeV, b2 = 8.52 MeV (mass numbers of 3 digits)
    problem = get_family("neutron_separation_energy").generate(27)
    line = f"Residual nucleus (Z = 43, N = 57, mass number {count}): binding energy per nucleon 8.52 MeV"
    v = strict.verify(problem, replace_step(problem.solution, 4, line))
    assert (v.error_step == 4) == blamed, v.explanation
