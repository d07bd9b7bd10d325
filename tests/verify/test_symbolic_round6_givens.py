"""The symbolic verifier's given-statement checks of session 9, from the misses of the sixth round of real
solutions (benchmarks/data/real_solutions/round6_test.jsonl, tuning data since session 9; classes of
analysis/round6_misses_session8_verifier.md): first repeats the session-8 checks missed (R1), a lone-letter unit
remark the solution itself uses as a unit (B5), a letter of the problem's formula holding another given's value
(B11) and a given's letter with the value the problem gives it at another instant (B17). Each test writes the
<given> section of a generated problem's ground-truth solution (seed 0) the way the small model wrote its givens,
and most have a near miss that must pass.

Values (seed 0): ice_to_water_heat m = 213 g, T1 = 250 K, T2 = 290 K; thin_lens_image_height ho = 2.1 cm,
u = 96.1 cm, f = 34 cm; trolleys_stick_energy_loss m1 = 6.70 kg, u1 = 11.4 m/s, m2 = 5.38 kg, u2 = 4.6 m/s;
point_charges_field_superposition q1 = 19 nC, q2 = 31 nC, a = 6.2 cm, b = 16 cm, k = 9e9 N*m^2/C^2;
lr_circuit_energy Lind = 840 mH, R = 13 ohm, emf = 12 V, t = 61 ms ("at t = 0" in the problem);
rolling_incline_time k = 1 ("I = 1 M R^2" in the problem), d = 6.04 m, theta = 50 deg, g = 9.8 m/s^2.
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_given_forms import remark_head
from support.step_edits import blamed_with_givens


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


# R1: first repeats


def test_the_same_letter_with_words_added_is_a_repeat(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "thin_lens_image_height", ["focal length (f): 34 cm", "object height (ho): 2.1 cm",
                                                          "lens focal length (f): 34 cm", "object distance (u): 96.1 cm"])
    assert blamed == (3, "MC", "given_repeat")


def test_the_same_letter_with_other_words_is_a_repeat_since_session_15(verifier: SymbolicVerifier) -> None:
    # "no repeat here" until session 15; the settled rubric counts the same given again with other words as a
    # repeat, and session 15's `restated` reads it so (no labelled item on the tuning sets got worse)
    blamed = blamed_with_givens(verifier, "thin_lens_image_height", ["focal length (f): 34 cm", "object height (ho): 2.1 cm",
                                                          "object distance (u): 96.1 cm", "converging lens (f): 34 cm"])
    assert blamed == (4, "MC", "given_repeat")


def test_a_tuple_that_restates_a_tuples_values_under_new_letters_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "trolleys_stick_energy_loss", ["m1 = 6.70 kg, m2 = 5.38 kg, va = 11.4 m/s, u2 = 4.6 m/s",
                                                              "V = 11.4 m/s, u2 = 4.6 m/s"])
    assert blamed == (2, "MC", "given_relabelled")


def test_a_tuple_of_new_values_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "trolleys_stick_energy_loss", ["m1 = 6.70 kg, m2 = 5.38 kg",
                                                              "u1 = 11.4 m/s, u2 = 4.6 m/s"])
    assert blamed[2] != "given_relabelled"


@pytest.mark.parametrize("second,repeat", [
    ("Point A is at a distance of 6.2 cm from the point P.", True),
    ("The charge at A is 19 nC.", False),  # a value the first line did not state
])
def test_a_prose_line_repeating_a_value_of_an_earlier_prose_line_is_mc(verifier: SymbolicVerifier, second: str,
                                                                       repeat: bool) -> None:
    blamed = blamed_with_givens(verifier, "point_charges_field_superposition", [
        "Point P is at a distance of 6.2 cm from A and 16 cm from B.", second, "k = 9e9 N*m^2/C^2"])
    assert (blamed == (2, "MC", "given_repeat")) == repeat


# B5: a lone-letter remark the solution writes as a unit elsewhere


@pytest.mark.parametrize("temperatures,blamed_first", [
    (["250 K (K)", "290 K (K)"], True),  # "(K)" is the solution's unit for temperatures
    (["250 K", "290 K"], False),  # "(K)" alone may be a letter or a list label
])
def test_a_lone_letter_remark_used_as_a_unit_is_mc_on_another_kind(verifier: SymbolicVerifier,
                                                                   temperatures: list[str], blamed_first: bool) -> None:
    blamed = blamed_with_givens(verifier, "ice_to_water_heat", ["213 g of ice (K)"] + temperatures + ["273 K", "2100 J/(kg*K)",
                                                                                          "334000 J/kg", "4186 J/(kg*K)"])
    assert (blamed == (1, "MC", "given_unit_remark")) == blamed_first


# B11: a letter of the problem's formula holding another given's value: since session 13 (RUBRIC.md, "Stating a
# given") a label, judged by its value and unit (until session 12, MC)


@pytest.mark.parametrize("line,blamed", [
    ("R = 6.04 m", False),  # R is the body's radius in "I = 1 M R^2"; 6.04 m is the distance d
    ("d = 6.04 m", False),
    ("R = 6.04 m (distance rolled)", False),  # words make the letter a label
])
def test_a_formula_letter_holding_another_givens_value_is_a_label(verifier: SymbolicVerifier, line: str,
                                                             blamed: bool) -> None:
    found = blamed_with_givens(verifier, "rolling_incline_time", ["I = 1 M R^2", line, "theta = 50 deg", "g = 9.8 m/s^2"])
    assert (found == (2, "MC", "given_letter_kind")) == blamed


# B17: a given's letter with the value the problem gives it at another instant


@pytest.mark.parametrize("givens,blamed", [
    (["L = 840 mH (inductor)", "R = 13 ohm", "emf = 12 V", "t = 0 (time)"], True),
    # the asked time is stated beside it: t = 0 is the switch-on condition
    (["L = 840 mH (inductor)", "R = 13 ohm", "emf = 12 V", "t = 0 (time)", "T = 61 ms (time)"], False),
])
def test_a_given_at_another_instant_is_mc(verifier: SymbolicVerifier, givens: list[str], blamed: bool) -> None:
    found = blamed_with_givens(verifier, "lr_circuit_energy", givens)
    assert (found == (4, "MC", "given_other_instant")) == blamed


# B11: a given's own letter holding another given's value (satellite_escape_energy, seed 0: m = 648 kg,
# h = 1360 km, G = 6.67e-11 N*m^2/kg^2, M = 5.97e24 kg, R = 6370 km, the Earth's radius)


@pytest.mark.parametrize("line,blamed", [
    ("R = 1360 km", True),  # the height under the Earth's radius's letter
    ("R = 6370 km", False),
    ("R = 1360 km (height of the orbit)", False),  # words make the letter a label (judged elsewhere)
])
def test_a_givens_letter_holding_another_givens_value_is_mc(verifier: SymbolicVerifier, line: str,
                                                            blamed: bool) -> None:
    found = blamed_with_givens(verifier, "satellite_escape_energy", ["m = 648 kg", "G = 6.67e-11 N*m^2/kg^2", line,
                                                          "M = 5.97e24 kg"])
    assert (found[:2] == (3, "MC") and found[2] == "given_letter_kind") == blamed


# B10: products of the problem's symbols as letters (photoelectric_stopping_potential, seed 0: lam = 485 nm,
# phi = 2.11 eV, h = 6.63e-34 J*s, c = 3e8 m/s, e = 1.6e-19 C): since session 13 a letter alone is no error,
# the value and unit say it is c (until session 12, MC)


@pytest.mark.parametrize("line,blamed", [
    ("h, hc, e = 6.63e-34 J*s, 3e8 m/s, 1.6e-19 C", False),  # paired in order: hc = 3e8 m/s
    ("hc = 3e8 m/s", False),
    ("h, c, e = 6.63e-34 J*s, 3e8 m/s, 1.6e-19 C", False),
    ("Work function (hc): 2.11 eV", False),  # words make the letter a label (older labels accept it)
])
def test_a_product_of_the_problems_symbols_as_a_letter_of_another_kind_is_a_label(verifier: SymbolicVerifier, line: str,
                                                                             blamed: bool) -> None:
    found = blamed_with_givens(verifier, "photoelectric_stopping_potential", ["lam = 485 nm", "phi = 2.11 eV", line])
    assert (found == (3, "MC", "given_letter_kind")) == blamed


# B2: a remark whose head noun names a quantity of another kind (proton_helix_pitch, seed 0: B = 0.11 T,
# v = 7.24e6 m/s, theta = 35 deg, mp = 1.67e-27 kg, e = 1.6e-19 C)


@pytest.mark.parametrize("line,blamed", [
    ("e = 1.6e-19 C (the charge carrier speed)", True),  # the head noun is "speed"
    ("e = 1.6e-19 C (charge of the proton)", False),
    ("e = 1.6e-19 C (charge per proton)", False),  # "per" makes another kind of the head; judged elsewhere
])
def test_a_remark_whose_head_noun_is_another_kind_is_mc(verifier: SymbolicVerifier, line: str, blamed: bool) -> None:
    found = blamed_with_givens(verifier, "proton_helix_pitch", ["v = 7.24e6 m/s (the speed of the proton)", line, "B = 0.11 T"])
    assert (found == (2, "MC", "given_words")) == blamed


# B11 in a <find> section: a letter the problem defines with another value (resistor_network_power, seed 0: the
# problem writes "R1 = 15 ohm"; the internal resistance is 1.3 ohm)


@pytest.mark.parametrize("line,blamed", [
    ("Internal resistance (R1) = 1.3 ohm", True),
    ("Internal resistance (r) = 1.3 ohm", False),
])
def test_a_given_in_the_find_section_under_a_letter_the_problem_defines_otherwise_is_mc(
        verifier: SymbolicVerifier, line: str, blamed: bool) -> None:
    problem = get_family("resistor_network_power").generate(0)
    text = f"<given>\nStep 1: emf (E) = 7.8 V\n\n<find>\nStep 2: {line}\nStep 3: P3, the power dissipated in R3\n"
    text += problem.solution.split("</find>", 1)[1]
    v = verifier.verify(problem, text)
    assert ((v.error_step, v.error_type, v.details.get("check")) == (2, "MC", "given_defined_letter")) == blamed


@pytest.mark.parametrize("remark,head", [
    ("the charge carrier speed", "speed"),
    ("mass of the block", "mass"),
    ("energy per unit time", None),  # a power
    ("specific heat capacity", None),  # not a heat capacity
    ("molar heat capacity", None),
    ("distance travelled", None),  # the phrase does not end in a quantity noun
])
def test_the_head_noun_of_a_remark(remark: str, head: str | None) -> None:
    found = remark_head(remark)
    assert (found[0] if found else None) == head
