"""The symbolic verifier's fifth round, from the level-1 real solutions (benchmarks/data/real_solutions/level1_test.jsonl,
tuning data since its one held-out measurement): each test edits a step or two of a generated problem's
ground-truth solution (seed 0) into the way the CPU study's SFT'd SmolLM2 wrote them, and checks the error is
found at that step with the type the careful labels give, while a correct variant passes.

Values (seed 0): photon_rate_from_laser_power P = 6.76 mW, lam = 570 nm; ideal_gas_pressure n = 4.73 mol,
V = 0.198 m^3, T = 575 K; concave_mirror_image_from_focal_length f = 17.4 cm, u = 139 cm;
coulomb_force_two_charges q1 = 5.16 uC, q2 = 1.66 uC, r = 33.9 cm (options 3.64 N, 0.671 N, 6.71e-5 N,
0.168 N); sensible heat and the others as printed by `get_family(name).generate(0).solution`.
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_checks import drop_value_remark
from support.step_edits import edited_verdict


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


@pytest.mark.parametrize("family,step,text", [
    ("photon_rate_from_laser_power", 1, "n = 6.76 mW (the total energy emitted by the laser)"),
    ("ideal_gas_pressure", 1, "n = 4.73 mol (molar mass of the gas)"),
    ("ideal_gas_pressure", 1, "Mass (m), the gas mass (4.73 mol)"),
    ("concave_mirror_image_from_focal_length", 2, "m = 139 cm (mass of the object)"),
    ("coulomb_force_two_charges", 1, "m1 = 5.16 uC (rest mass of the first charge)"),
])
def test_a_givens_value_called_a_quantity_of_another_kind_is_mc(verifier: SymbolicVerifier, family: str, step: int,
                                                                 text: str) -> None:
    v = edited_verdict(verifier, family, {step: text})
    assert (v.error_step, v.error_type) == (step, "MC"), v.explanation
    assert "of another kind" in v.explanation


@pytest.mark.parametrize("family,step,text", [
    ("photon_rate_from_laser_power", 1, "n = 6.76 mW (the total power emitted by the laser)"),
    ("ideal_gas_pressure", 1, "n = 4.73 mol (number of moles of the gas)"),
    ("coulomb_force_two_charges", 1, "m1 = 5.16 uC (charge of the first point)"),  # a letter is only a label
    ("photon_rate_from_laser_power", 1, "P = 6.76 mW (energy per second emitted by the laser)"),  # "energy per": a rate
])
def test_a_givens_value_with_words_of_its_own_kind_passes(verifier: SymbolicVerifier, family: str, step: int,
                                                          text: str) -> None:
    v = edited_verdict(verifier, family, {step: text})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("clause,kept", [
    ("h = 6.63e-34 J*s (h)", "h = 6.63e-34 J*s"),
    ("h = 6.63e-34 J*s (h/c)", "h = 6.63e-34 J*s"),
    ("T1 = 284 K (284 K)", "T1 = 284 K"),
    ("H = 1.6e-27 kg (J/s)", "H = 1.6e-27 kg (J/s)"),  # a second unit is part of what is stated
    ("F = 2 (9.8 N)", "F = 2 (9.8 N)"),  # a factor
])
def test_a_remark_after_a_given_value_is_no_factor(clause: str, kept: str) -> None:
    assert drop_value_remark(clause, {"h": "h", "c": "c", "T1": "T1"}) == kept


def test_given_restated_with_its_symbol_or_value_in_parentheses_passes(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "photon_rate_from_laser_power", {3: "h = 6.63e-34 J*s (h)"})
    assert v.error_step == 0, v.explanation
    v = edited_verdict(verifier, "ideal_gas_pressure", {3: "T = 575 K (575 K)"})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("concept", ["Kinetic energy: the rest energy is the kinetic energy of the particle (in J)",
                                     "Kinetic energy: the rest energy equivalent to a mass m is E = m*c^2"])
def test_concept_headed_by_another_problems_principle_is_cm(verifier: SymbolicVerifier, concept: str) -> None:
    v = edited_verdict(verifier, "mass_energy_equivalence", {4: concept})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation
    assert "Kinetic energy" in v.explanation


@pytest.mark.parametrize("family,step,concept", [
    ("mass_energy_equivalence", 4, "Einstein's relation: a mass m has rest energy E = m*c^2"),  # not a library name
    ("mass_energy_equivalence", 4, "Mass-energy equivalence: the rest energy is E = m*c^2"),
    # another principle's name next to this problem's own formula: the same relation under another name
    ("capacitor_charge", 4, "Capacitor relation: the charge is Q = C*V"),
])
def test_concept_naming_its_own_principle_or_formula_passes(verifier: SymbolicVerifier, family: str, step: int,
                                                             concept: str) -> None:
    v = edited_verdict(verifier, family, {step: concept})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("family,concept", [
    ("capacitor_charge", "Capacitance: the charge on a capacitor is the voltage across it, Q = C*V"),
    ("capacitor_charge", "Capacitance: the charge on a capacitor is the voltage across its plates divided by the "
                         "capacitance (C)"),
    ("ohm_law_current", "Ohm's Law: current through a resistor in current unit mA (mah) is equal to the resistance "
                        "of the resistor divided by the voltage source (V)"),
    ("concave_mirror_image_from_focal_length", "Mirror: the image distance is the object distance divided by the "
                                               "focal length."),
])
def test_false_relation_in_words_between_named_quantities_is_cm(verifier: SymbolicVerifier, family: str,
                                                               concept: str) -> None:
    v = edited_verdict(verifier, family, {4: concept})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation


@pytest.mark.parametrize("family,concept", [
    ("ohm_law_current", "Ohm's law: the current through a resistor is the voltage across it divided by its resistance"),
    ("capacitor_charge", "Capacitance: the charge on a capacitor is the capacitance times the voltage across it"),
    ("capacitor_charge", "Capacitance: the charge on a capacitor is proportional to the voltage across it"),
    ("capacitor_charge", "Capacitance: the charge is the charge transferred per second times the time"),  # not read
])
def test_true_or_unread_relation_in_words_passes(verifier: SymbolicVerifier, family: str, concept: str) -> None:
    v = edited_verdict(verifier, family, {4: concept})
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("concept,step", [
    ("Gravitational potential energy: the energy of a mass m in G, the gravitational constant (G = 1/6, the speed "
     "of light)", 5),
])
def test_a_universal_constant_set_to_a_wrong_value_is_cm(verifier: SymbolicVerifier, concept: str, step: int) -> None:
    v = edited_verdict(verifier, "gravitational_potential_energy_lift", {step: concept})
    assert (v.error_step, v.error_type) == (step, "CM"), v.explanation


@pytest.mark.parametrize("concept", [
    "Gravitational potential energy: U = m*g*h near the surface (G = 6.67e-11 N*m^2/kg^2 does not enter)",
    "Gravitational potential energy: U = m*g*h, with c = 3.0*10^8 m/s irrelevant here",
])
def test_a_universal_constant_with_its_value_passes(verifier: SymbolicVerifier, concept: str) -> None:
    v = edited_verdict(verifier, "gravitational_potential_energy_lift", {5: concept})
    assert v.error_step == 0, v.explanation


def test_target_named_by_its_letter_in_find_is_read_in_concept_equations(verifier: SymbolicVerifier) -> None:
    edits = {3: "I, the current in the resistor", 4: "Ohm's Law: I = R * (1/R)"}
    v = edited_verdict(verifier, "ohm_law_current", edits)
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation
    edits[4] = "Ohm's Law: I = V/R"
    v = edited_verdict(verifier, "ohm_law_current", edits)
    assert v.error_step == 0, v.explanation


@pytest.mark.parametrize("family,find", [
    ("wavelength_in_medium", "wavelength: 716 nm"),
    ("ideal_gas_pressure", "p, the pressure of the gas when it is warmed by 4.73 K (in Pa)"),  # 4.73 is n in mol
])
def test_find_step_with_a_value_the_problem_does_not_give_is_mc(verifier: SymbolicVerifier, family: str,
                                                                find: str) -> None:
    step = 3 if family == "wavelength_in_medium" else 5
    v = edited_verdict(verifier, family, {step: find})
    assert (v.error_step, v.error_type) == (step, "MC"), v.explanation


@pytest.mark.parametrize("find", ["p, the pressure of the gas at 575 K (in Pa)", "p, the pressure (in Pa)"])
def test_find_step_with_a_given_value_or_a_unit_passes(verifier: SymbolicVerifier, find: str) -> None:
    v = edited_verdict(verifier, "ideal_gas_pressure", {5: find})
    assert v.error_step == 0, v.explanation


def test_substituting_into_another_formula_than_the_one_written_is_cm(verifier: SymbolicVerifier) -> None:
    # F = k*q1*q2/(r^2) written at step 7; the substitution drops the /r^2: a different formula, not a slip
    v = edited_verdict(verifier, "coulomb_force_two_charges", {8: "F = (9e9 N*m^2/C^2)*(5.16 uC)*(1.66 uC)"})
    assert (v.error_step, v.error_type) == (8, "CM"), v.explanation
    # the right substitution with a wrong result is an arithmetic error
    v = edited_verdict(verifier, "coulomb_force_two_charges", {9: "F = 0.871 N"})
    assert (v.error_step, v.error_type) == (9, "CE"), v.explanation


def test_substituting_a_number_of_the_answer_options_is_mc(verifier: SymbolicVerifier) -> None:
    # 6.71e-5 N is an option; put in place of k/r^2 it is data read from the options, not the problem
    v = edited_verdict(verifier, "coulomb_force_two_charges", {8: "F = (5.16 uC)*(1.66 uC)*(6.71e-5 N)"})
    assert (v.error_step, v.error_type) == (8, "MC"), v.explanation
    assert "answer options" in v.explanation
    # a bare result equal to an option's digits is a computed value (a power-of-ten slip is CE)
    v = edited_verdict(verifier, "coulomb_force_two_charges", {9: "F = 6.71e-4 N"})
    assert (v.error_step, v.error_type) == (9, "CE"), v.explanation


def test_a_given_restated_by_a_relation_that_does_not_hold_is_mc(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "ideal_gas_pressure", {2: "V = V/V, the volume of the vessel"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    # a wrong relation for the unknown written among the givens stays CM (the physics is wrong)
    v = edited_verdict(verifier, "ideal_gas_pressure", {4: "p = n*R/V"})
    assert (v.error_step, v.error_type) == (4, "CM"), v.explanation


def test_a_given_written_as_a_function_of_a_value_is_garbled_mc(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "ideal_gas_pressure", {3: "T(575 K) = 954 K (temperature of the gas)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    v = edited_verdict(verifier, "ideal_gas_pressure", {3: "T = 575 K (temperature of the gas)"})
    assert v.error_step == 0, v.explanation
