"""The symbolic verifier's readers of session 9, from the sixth round of real solutions (benchmarks/data/
real_solutions/round6_test.jsonl, tuning data since session 8; classes of analysis/round6_misses_session8_verifier.md):
right steps that were blamed (A1 a letter read as a unit, A2 equations left unchecked, A5 an indexed name read
as a product, A6 a special case of the governing relation) and wrong steps given the type of another cause (U3 a
wrong relation among the givens, U4 a bare principle that does not apply). Each test edits steps of a generated
problem's ground-truth solution into a layout the small model wrote, and checks that the right variant is no
error there while a wrong one still is.

Values: stefan_boltzmann_net_power (seed 0) T0 = 303 K; wavelength_in_medium (seed 0) lam0 = 632 nm, n = 1.95;
radioactive_activity_after_time (seed 24) T = 17 d, t = 34 d (two half-lives); vertical_circle_top_tension (seed 0)
m = 1.0 kg, L = 1.2 m, u = 8.31 m/s; diffraction_grating_angle (seed 0) m = 3; photoelectric_stopping_potential
(seed 0); isothermal_expansion_heat (seed 0) n = 0.54 mol, V1 = 4.34 L, T = 484 K; concave_mirror_image_from_
focal_length (seed 0).
"""

from __future__ import annotations

import re

import pytest

from physr3 import quantity as mp
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_layouts import indexed_names, unit_read_letter
from support.step_edits import edited_verdict, replace_step


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


def _seeded_verdict(verifier: SymbolicVerifier, family: str, seed: int, edits: dict[int, str]):
    """The verdict on `family`'s problem of `seed` with the steps in `edits` replaced."""
    problem = get_family(family).generate(seed)
    text = problem.solution
    for number, step in edits.items():
        text = replace_step(text, number, step)
    return verifier.verify(problem, text)


# -- A1: a given's letter that pint also reads as a unit (Ts a terasecond, Tm a terametre)

def test_a_lone_unit_name_equated_to_a_value_of_another_kind_is_a_letter() -> None:
    ts = mp.parse_suffix("Ts", mp.Names({}), True)
    kelvin = mp.parse_prefix("301 K", mp.Names({}), True)[0]
    assert ts[0] == "qty"  # the reading this reader corrects
    assert unit_read_letter("Ts", ts, [kelvin]) == "Ts"
    assert unit_read_letter("Ts", ts, [mp.parse_prefix("3 s", mp.Names({}), True)[0]]) is None  # same kind


def test_a_renamed_given_letter_read_as_a_unit_is_checked_as_that_given(strict: SymbolicVerifier) -> None:
    right = {4: "Ts = 303 K (temperature of the surroundings)", 9: "P = emis*sigma*A*(T^4 - Ts^4)"}
    v = edited_verdict(strict, "stefan_boltzmann_net_power", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "stefan_boltzmann_net_power", {**right, 9: "P = emis*sigma*A*(T^4 + Ts^4)"})
    assert (v.error_step, v.error_type) == (9, "CM"), v.explanation


def test_a_concept_step_naming_the_principle_counts_when_it_also_reads_like_a_given(strict: SymbolicVerifier) -> None:
    problem = get_family("stefan_boltzmann_net_power").generate(0)
    text = replace_step(problem.solution, 7, "Stefan-Boltzmann law: a body of emissivity emis and surface area A "
                        "radiates emis*sigma*A*T^4 and absorbs emis*sigma*A*T0^4, so the net loss is the difference")
    lines = text.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("Step 7:"))
    lines.insert(at + 1, "Step 0: The surface area of a sphere of radius r is 4*pi*r^2")
    number = 0
    for k, line in enumerate(lines):  # number the steps again, in order
        if re.match(r"Step \d+:", line):
            number += 1
            lines[k] = re.sub(r"^Step \d+:", f"Step {number}:", line)
    text = "\n".join(lines)
    v = strict.verify(problem, text)
    assert v.error_step == 0, v.explanation


# -- A5: an indexed name is one symbol

def test_an_indexed_name_is_one_symbol_not_a_product() -> None:
    assert indexed_names("lambda_n = lambda0/n", {"n": "n", "lam": "lam"}) == {"lambdan": "lambdan"}
    assert indexed_names("v_0 = 3 m/s", {"v0": "v0"}) == {}  # already a known name


def test_an_indexed_name_with_a_derivation_remark_is_checked(strict: SymbolicVerifier) -> None:
    right = {3: "lam_n, the wavelength inside the plastic (in nm)", 5: "lam_n = lam0/n (from n = lam0/lam_n)",
             6: "lam_n = (632 nm)/1.95", 7: "lam_n = 324 nm"}
    v = edited_verdict(strict, "wavelength_in_medium", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "wavelength_in_medium", {**right, 5: "lam_n = lam0*n (from n = lam_n/lam0)"})
    assert (v.error_step, v.error_type) == (5, "CM"), v.explanation


# -- A6: a special case of the governing relation for the given numbers

def test_a_special_case_that_gives_the_right_value_is_no_error(strict: SymbolicVerifier) -> None:
    v = _seeded_verdict(strict, "radioactive_activity_after_time", 24, {20: "N = N0/4"})
    assert v.error_step == 0, v.explanation
    v = _seeded_verdict(strict, "radioactive_activity_after_time", 24, {20: "N = N0/2"})
    assert v.error_step == 20 and v.error_type in ("CM", "CE"), v.explanation


# -- A2: equations a right solution writes with its own letters

def test_a_new_letter_defined_by_its_square_is_checked(strict: SymbolicVerifier) -> None:
    right = {8: "(1/2)*m*u^2 = (1/2)*m*v2^2 + m*g*(2*L), which gives v2^2 = u^2 - 4*g*L",
             9: "T = m*v2^2/L - m*g", 10: "v2^2 = (8.31 m/s)^2 - 4*(9.8 m/s^2)*(1.2 m)",
             11: "T = (1.0 kg)*v2^2/(1.2 m) - (1.0 kg)*(9.8 m/s^2)", 12: "v2^2 = 22.0 m^2/s^2"}
    v = edited_verdict(strict, "vertical_circle_top_tension", right)
    assert v.error_step == 0, v.explanation
    wrong = {**right, 8: "(1/2)*m*u^2 = (1/2)*m*v2^2 + m*g*L, which gives v2^2 = u^2 - 2*g*L"}
    v = edited_verdict(strict, "vertical_circle_top_tension", wrong)
    assert (v.error_step, v.error_type) == (8, "CM"), v.explanation


def test_a_function_of_a_symbol_on_the_left_is_that_function(strict: SymbolicVerifier) -> None:
    right = {8: "sin(theta) = m*lam/d", 10: "sin(theta) = 3*(575 nm)/d"}
    v = edited_verdict(strict, "diffraction_grating_angle", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "diffraction_grating_angle", {**right, 8: "sin(theta) = lam/(m*d)"})
    assert (v.error_step, v.error_type) == (8, "CM"), v.explanation


def test_a_case_variant_of_a_given_for_a_quantity_of_another_kind_is_its_own_letter(strict: SymbolicVerifier) -> None:
    right = {9: "E = h*c/lam", 10: "Kmax = E - phi", 12: "E = (6.63e-34 J*s)*(3e8 m/s)/(485 nm)",
             13: "Kmax = E - (2.11 eV)", 15: "E = 2.56 eV"}
    v = edited_verdict(strict, "photoelectric_stopping_potential", right)
    assert v.error_step == 0, v.explanation
    v = edited_verdict(strict, "photoelectric_stopping_potential", {**right, 9: "E = h*lam/c"})
    assert v.error_step == 9, v.explanation


# -- U3, U4: the type by cause

def test_a_wrong_relation_written_among_the_givens_is_cm(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "isothermal_expansion_heat", {6: "Q = 0.54 mol * (4.34 L) / (484 K)"})
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation
    v = edited_verdict(strict, "isothermal_expansion_heat", {3: "V1 = 4.43 L (initial volume)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation  # a misread given stays MC


def test_a_bare_principle_that_does_not_apply_is_cm(strict: SymbolicVerifier) -> None:
    problem = get_family("concave_mirror_image_from_focal_length").generate(0)
    for first, etype in (("Refraction", "CM"), ("Object distance", "MC")):
        text = f"Step 1: {first}\nStep 2: Image distance\nStep 3: v = 19.9 cm\n"
        v = strict.verify(problem, text)
        assert (v.error_step, v.error_type) == (1, etype), v.explanation


# -- A1: a remark with a value of its own (fission_q_value, seed 0: A1 = 86, b1 = 8.61 MeV, b = 7.68 MeV)

def test_a_remark_pairing_the_value_with_its_objects_other_given_is_no_meaning_of_it(strict: SymbolicVerifier) -> None:
    v = edited_verdict(strict, "fission_q_value", {2: "m2 = 86 (binding energy per nucleon 8.61 MeV)"})
    assert v.error_step != 2, v.explanation  # A1 and b1, both of the first fragment
    v = edited_verdict(strict, "fission_q_value", {2: "m2 = 86 (binding energy per nucleon 7.68 MeV)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation  # the parent's value beside the fragment's
