"""The symbolic verifier's readers of round eight, from the fifth round of real solutions (benchmarks/data/
real_solutions/round5_test.jsonl, tuning data since session 7): layouts of right steps that
`verifier.symbolic_unchecked=error` blamed as "cannot be checked" (`physr3.verify.symbolic_layouts`). Each test
edits a step of a generated problem's ground-truth solution (seed 0) into a layout the small model wrote, and
checks that the right variant is no error there while a wrong one still is.

Values (seed 0): resistor_network_power emf = 7.8 V, r = 1.3 ohm, R1 = 15 ohm; ideal_gas_pressure T = 575 K,
n = 4.73 mol; doppler_wall_beats (the listener "hears the direct sound and the echo from the wall");
wave_speed_from_frequency lam = 0.338 m; capacitor_network_charge C1 = 3.1 uF, C2 = 4.0 uF.
"""

from __future__ import annotations

import pytest

from physr3.solution import parse_solution
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier, section_tags
from physr3.verify.symbolic_layouts import (
    drop_unit_echo,
    restates_problem,
    self_plus_term,
    symbol_value_remark,
    unit_echo,
)
from support.step_edits import edited_verdict


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


@pytest.mark.parametrize("value,remark,echo", [
    ("7.2 V", "volt", True), ("521 K", "K", True), ("1.0 ohm", "ohm", True), ("3 m", "meters", True),
    ("395 g", "K", False), ("10 kg", "g", False), ("4.5", "volt", False), ("7.2 V", "emf", False),
])
def test_a_remark_naming_the_values_own_unit_is_an_echo(value: str, remark: str, echo: bool) -> None:
    assert unit_echo(value, remark) is echo


def test_an_echoed_unit_is_dropped_before_the_remark_after_it() -> None:
    assert drop_unit_echo("E = 7.2 V (volt) (emf)") == "E = 7.2 V (emf)"
    assert drop_unit_echo("m = 395 g (K)") == "m = 395 g (K)"


@pytest.mark.parametrize("text", ["emf (E) = 7.8 V (volt)", "emf = 7.8 V (V)"])
def test_a_given_with_its_unit_named_again_is_checked_not_blamed(strict: SymbolicVerifier, text: str) -> None:
    v = edited_verdict(strict, "resistor_network_power", {1: text})
    assert v.error_step == 0, v.explanation


def test_a_wrong_value_with_its_unit_named_again_is_still_mc(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "ideal_gas_pressure", {3: "T = 557 K (K)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


def test_a_symbol_with_its_value_in_parentheses_reads_as_its_statement(strict: SymbolicVerifier) -> None:
    assert symbol_value_remark("series resistance = R1 (6.9 ohm)") == "R1 = 6.9 ohm (series resistance)"
    assert symbol_value_remark("energy = E (m)") is None  # no value: a unit or a factor, left as written
    assert edited_verdict(strict, "resistor_network_power", {3: "series resistance = R1 (15 ohm)"}).error_step == 0
    v = edited_verdict(strict, "resistor_network_power", {3: "series resistance = R1 (35 ohm)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


@pytest.mark.parametrize("text,read", [
    ("f = the frequency (368 Hz)", "f = 368 Hz (the frequency)"),
    ("F1 = mass of first ball: 0.940 kg", "F1 = 0.940 kg (mass of first ball)"),
    ("emissivity: emissivity = 0.53", "emissivity = 0.53"),
    ("v = speed (in m/s)", None), ("The = the frequency (368 Hz)", None),
])
def test_a_symbol_words_and_value_read_as_its_statement(text: str, read: str | None) -> None:
    assert symbol_value_remark(text) == read


def test_a_symbol_then_words_then_its_value_is_checked(strict: SymbolicVerifier) -> None:
    assert edited_verdict(strict, "wave_speed_from_frequency", {1: "f = the frequency (272 Hz)"}).error_step == 0
    v = edited_verdict(strict, "wave_speed_from_frequency", {1: "f = the frequency (227 Hz)"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


def test_a_sentence_of_the_problems_words_without_a_value_restates_it(strict: SymbolicVerifier) -> None:
    question = "A block of mass 9.5 kg lies on a rough table. The system is released from rest."
    assert restates_problem("The block is initially at rest.", question)
    assert not restates_problem("The block is initially moving.", question)  # a word the problem lacks
    assert not restates_problem("The block is at rest 2 m away.", question)  # a value: judged as such
    v = edited_verdict(strict, "doppler_wall_beats", {3: "The listener hears the direct sound and the echo from "
                                                         "the wall.", 2: "vs = 0.50 m/s, v = 340 m/s"})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("text,wrong", [
    ("L' = L' + L", True), ("The given formula is: x = x - y", True), ("a = a - b (oops)", True),
    ("v = v0 + a*t", False), ("T = T + 0", False), ("x = x", False), ("F = F*2 + 1", False),
])
def test_x_equals_x_plus_y_is_a_wrong_relation(text: str, wrong: bool) -> None:
    assert self_plus_term(text) is wrong


def test_an_unchecked_x_equals_x_plus_y_in_given_is_cm(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "ideal_gas_pressure", {4: "Q' = Q' + Q"})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation


def test_a_section_opened_inside_given_and_never_closed_is_stray() -> None:
    text = ("<given>\nStep 1: C1 = 3.1 uF\n<find>\nStep 2: C2 = 4.0 uF\n</given>\n<find>\nStep 3: Q2 (in uC)\n"
            "</find>")
    steps = section_tags(text, parse_solution(text).steps)
    assert [s.tag for s in steps] == ["given", "given", "find"]


def test_a_section_closed_inside_another_is_kept() -> None:
    text = "<given>\nStep 1: C1 = 3.1 uF\n<find>\nStep 2: Q2 (in uC)\n</find>\n</given>"
    steps = section_tags(text, parse_solution(text).steps)
    assert [s.tag for s in steps] == ["given", "find"]


def test_a_right_given_under_a_stray_find_is_not_blamed_as_the_find(strict: SymbolicVerifier) -> None:
    problem = get_family("capacitor_network_charge").generate(0)
    text = problem.solution.replace("Step 2: C2", "<find>\nStep 2: C2", 1)
    assert strict.verify(problem, text).error_step == 0


def test_the_problems_formula_restated_after_words_is_checked(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "rolling_incline_time", {1: "The moment of inertia about the central axis of the body "
                                                           "is I = 1 M R^2,"})
    assert v.error_step != 1, v.explanation
    v = edited_verdict(strict, "rolling_incline_time", {1: "The moment of inertia about the central axis of the body "
                                                           "is I = 2 M R^2,"})
    assert v.error_step == 1, v.explanation


def test_a_letter_the_problem_writes_with_its_value_holds_no_other_given(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "resistor_network_power", {2: "internal resistance (R1) = 1.3 ohm"})
    assert (v.error_step, v.error_type, v.details["check"]) == (2, "MC", "given_defined_letter"), v.explanation
    # "at t = 0" sets the start, not the time asked about: t = 720 ms is no other quantity
    assert edited_verdict(strict, "rc_charging_charge", {4: "t = 720 ms (time)"}).error_step == 0



def test_a_remark_with_the_descriptions_formula_is_the_givens_own_meaning(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "adiabatic_then_isochoric_monatomic",
                       {3: "r = 3.2 (factor by which the volume shrinks, r = V1/V2)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "adiabatic_then_isochoric_monatomic", {3: "r = 3.2 (wavevector of the photon)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


def test_a_heading_before_a_givens_statement_is_part_of_its_words(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "rc_charging_charge", {2: "Resistor (R): R = 72 kohm (impedance)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "rc_charging_charge", {2: "Capacitor (C): R = 72 kohm (wavevector)"})
    assert v.error_step == 2, v.explanation


def test_a_constant_under_its_own_letter_is_not_the_asked_acceleration(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "newton_second_law_acceleration", {2: "g = 9.81 m/s^2 (acceleration due to gravity)"})
    assert v.details.get("check") != "given_unknown", v.explanation
    v = edited_verdict(strict, "newton_second_law_acceleration", {2: "b = 9.81 m/s^2 (acceleration of the crate)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
