"""The symbolic verifier's readers of session 10: right steps it blamed before the labelled first error, on all
eight tuning sets of real solutions (early false alarms; round-7 classes A1, A2, A9 of analysis/
round7_misses_session9_verifier.md). Each test edits steps of a generated problem's ground-truth solution into a
layout the small model wrote, and checks that the right variant is no error there while a wrong one still is.

Values (seed 0): critical_angle_glass_liquid vg = 1.63e8 m/s, n2 = 1.39; time_dilation_particle_survival L = 0.86
km, beta = 0.935; accelerated_ion_radius n = 2, e = 1.6e-19 C; pendulum_in_lift_period L = 1.76 m, a = 3.9 m/s^2;
satellite_escape_energy m = 648 kg.
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import edited_verdict


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- A1: a letter that reads as a unit, equated to symbols of another kind (`ng`, a nanogram)

def test_a_unit_name_equated_to_symbols_of_another_kind_is_a_letter(strict: SymbolicVerifier) -> None:
    right = {7: "ng = c/vg", 8: "thc = asin(n2/ng)", 9: "ng = (3e8 m/s)/(1.63e8 m/s)", 10: "thc = asin(1.39/ng)",
             11: "ng = 1.84"}
    v = edited_verdict(strict, "critical_angle_glass_liquid", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "critical_angle_glass_liquid", {**right, 7: "ng = vg/c"})
    assert (v.error_step, v.error_type) == (7, "CM"), v.explanation


# -- A2: a word-like name of the solution's own on the left of an equation in symbols (`tlab`)

def test_a_word_like_name_equated_to_symbols_is_defined_and_compared(strict: SymbolicVerifier) -> None:
    right = {10: "tlab = L/(beta*c)", 11: "f = exp(-tlab/tau)", 14: "tlab = (0.86 km)/(0.935*(3e8 m/s))",
             15: "f = exp(-tlab/tau)", 18: "tlab = 3.07 us"}
    v = edited_verdict(strict, "time_dilation_particle_survival", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "time_dilation_particle_survival", {**right, 10: "tlab = L*beta/c"})
    assert v.error_step == 10, v.explanation


# -- A9: a given written as a dimensionless given's value times a symbol (`q = 2e`) is that given times it

def test_a_count_times_a_given_symbol_is_that_given_at_every_instance(strict: SymbolicVerifier) -> None:
    # no K: the only governing equations are written with q, so the solution is complete only if they hold
    right = {2: "q = 2e = 3.2e-19 C (charge of the ion)", 9: "v = sqrt(2*q*V/m)", 10: "rc = m*v/(q*B)",
             11: "rc = m*v/(q*B)", 12: "v = sqrt(2*(3.2e-19 C)*(17 kV)/(21.8 u))",
             13: "rc = (21.8 u)*v/((3.2e-19 C)*(0.11 T))", 14: "rc = (21.8 u)*v/((3.2e-19 C)*(0.11 T))",
             15: "v = 5.48e5 m/s"}
    v = edited_verdict(strict, "accelerated_ion_radius", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "accelerated_ion_radius", {**right, 10: "rc = m*v*q/B"})
    assert (v.error_step, v.error_type) == (10, "CM"), v.explanation


# -- A2: a given line that names a letter with words and no value (`L: the length of the pendulum (in m)`)

@pytest.mark.parametrize("named", ["L: the length of the pendulum (in m)", "the length of the pendulum (L)",
                                   "λ (length of the pendulum)"])
def test_a_letter_named_by_a_given_s_words_without_a_value_is_no_error(strict: SymbolicVerifier, named: str) -> None:
    v = edited_verdict(strict, "pendulum_in_lift_period", {1: named, 9: "geff = (9.8 m/s^2) + (3.9 m/s^2)"})
    assert v.error_step != 1, v.explanation


@pytest.mark.parametrize("named", ["L: the length of the pendulum (in m/s)", "v1 (length of the pendulum)",
                                   "f0 (f initial steady state)"])
def test_a_letter_named_by_words_of_another_kind_or_of_nothing_is_still_blamed(strict: SymbolicVerifier,
                                                                               named: str) -> None:
    v = edited_verdict(strict, "pendulum_in_lift_period", {1: named})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


# -- A2: a name of the solution's own for a part of the formula it substituted (`Numerator = ...`)

def test_a_named_part_of_the_substituted_formula_is_checked_by_its_value(strict: SymbolicVerifier) -> None:
    right = {12: "fb = 2*(474 Hz)*(340 m/s)*(0.50 m/s)/((340 m/s)^2 - (0.50 m/s)^2)",
             13: "Numerator = 1.612e5 Hz*m^2/s^2"}
    v = edited_verdict(strict, "doppler_wall_beats", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "doppler_wall_beats", {**right, 13: "Numerator = 2.5e5 Hz*m^2/s^2"})
    assert v.error_step == 13, v.explanation


# -- A8: a given line that writes its value twice states it once

def test_a_value_written_twice_in_one_given_line_is_no_repeat(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "stefan_boltzmann_net_power", {2: "Emissivity (emissivity of the surface) is 0.39 "
                                                                 "(approx. 0.39)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "stefan_boltzmann_net_power", {2: "Emissivity (emissivity of the surface) is 0.39 "
                                                                 "(approx. 0.39)", 4: "T0 = 0.39 (temperature)"})
    assert v.error_step == 4, v.explanation


# -- A2: a remark spelling the letter's name (`λ = 570 nm (Lambda)`), and "name letter = value" (`emf E = 12 V`)

def test_a_remark_that_spells_the_letter_is_no_description(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "photon_rate_from_laser_power", {2: "λ = 570 nm (Lambda)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "photon_rate_from_laser_power", {2: "λ = 507 nm (Lambda)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation


def test_a_name_then_a_letter_on_a_given_s_left_side_is_that_letter(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "lr_circuit_energy", {3: "emf E = 12 V,", 9: "i0 = E/R"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "lr_circuit_energy", {3: "emf E = 21 V,", 9: "i0 = E/R"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


@pytest.mark.parametrize("named", ["eV (length of the pendulum)", "x (length of the pendulum of the lift)"])
def test_a_unit_as_letter_or_another_quantity_s_words_stay_unchecked(strict: SymbolicVerifier, named: str) -> None:
    v = edited_verdict(strict, "pendulum_in_lift_period", {1: named})
    assert v.error_step == 1, v.explanation


# -- A2: a letter glued to a whole-number value (`m648 kg: mass of the satellite`) is the letter and its value

def test_a_letter_glued_to_a_whole_number_is_read_with_its_value(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "satellite_escape_energy", {1: "m648 kg: mass of the satellite"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "satellite_escape_energy", {1: "m846 kg: mass of the satellite"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


def test_a_unit_written_without_its_denominator_s_parentheses_is_read_both_ways(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "ideal_gas_pressure", {4: "R: the gas constant (J/mol*K)"})
    assert v.error_step != 4, v.explanation
    v = edited_verdict(strict, "ideal_gas_pressure", {4: "R: the gas constant (in J/mol)"})
    assert v.error_step == 4, v.explanation
