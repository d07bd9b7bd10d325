"""The symbolic verifier's given-step checks of session 14, from the late verdicts on model-written solutions of the
thirteen tuning sets (round-11 classes B1 and B33 of analysis/round11_misses_session12_verifier.md, and the same causes
in the older rounds): a value given to another object than the one the problem's "<object> whose <quantity> is
<value>" names; a value called by a quantity noun of another kind (where a thing is, a wave vector); a clause of a
line of several values that calls its one value a quantity of another kind. Each test writes the <given> section of a
generated problem's ground-truth solution (seed 0) the way the small model wrote it; each has a near miss that must
pass. The verifiers run the checks alone (`answer_overrules=False`).

Values (seed 0): diffraction_grating_angle lam = 575 nm, N = 154 mm^-1, m = 3; proton_helix_pitch B = 0.11 T,
v = 7.24e6 m/s, theta = 35 deg, mp = 1.67e-27 kg, e = 1.6e-19 C; compton_recoil_energy lam = 19.2 pm, theta =
125 deg; ice_to_water_heat m = 213 g, T1 = 250 K, T2 = 290 K.
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens, edited_verdict

GRATING = ["lam = 575 nm (wavelength)", "m = 3 (order of the maximum)"]
HELIX = ["B = 0.11 T (magnetic field)", "v = 7.24e6 m/s (speed of the proton)",
         "theta = 35 deg (angle between velocity and field)", "mp = 1.67e-27 kg (proton mass)"]
COMPTON = ["theta = 125 deg (scattering angle)", "h = 6.63e-34 J*s (Planck constant)",
           "me = 9.11e-31 kg (electron mass)", "c = 3e8 m/s (speed of light)"]
ICE = ["T2 = 290 K (final temperature of the water)", "T0 = 273 K (melting point of ice)",
       "ci = 2100 J/(kg*K) (specific heat of ice)", "Lf = 334000 J/kg (latent heat of fusion of ice)",
       "cw = 4186 J/(kg*K) (specific heat of water)"]


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# B1: the problem says whose quantity a value is by "<object> whose <quantity> is <value>"

@pytest.mark.parametrize("stated", [
    "The line density of the light is 154 mm^-1.",  # the grating's, given to the light
    "The line density of the monochromatic light (N) is 154 mm^-1.",  # a letter in brackets before "is"
])
def test_a_quantity_the_problem_gives_its_owner_by_whose_given_to_another_object_is_mc(
        strict: SymbolicVerifier, stated: str) -> None:
    assert blamed_with_givens(strict, "diffraction_grating_angle", [GRATING[0], stated, GRATING[1]]) == \
        (2, "MC", "given_object")


@pytest.mark.parametrize("stated", [
    "The line density of the grating is 154 mm^-1.",  # the problem's own object
    "The line density of the diffraction grating (N) is 154 mm^-1.",
])
def test_a_quantity_given_to_the_object_whose_it_is_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    # (another reader takes "line density" for the grating spacing to be found: not this check's concern)
    step, _kind, check = blamed_with_givens(strict, "diffraction_grating_angle", [GRATING[0], stated, GRATING[1]])
    assert check != "given_object", (step, check)


# B33: a given's value called by a quantity noun of another kind, in a heading

@pytest.mark.parametrize(("family", "stated", "rest"), [
    ("proton_helix_pitch", "The initial position of the proton (1.6e-19 C)", HELIX),  # a charge called a position
    ("proton_helix_pitch", "Displacement of the proton: 1.6e-19 C", HELIX),
    ("compton_recoil_energy", "wavevector k = 19.2 pm", COMPTON),  # a wavelength called a wave vector (1/m)
])
def test_a_value_called_a_quantity_of_another_kind_is_mc(strict: SymbolicVerifier, family: str, stated: str,
                                                         rest: list[str]) -> None:
    assert blamed_with_givens(strict, family, rest + [stated]) == (len(rest) + 1, "MC", "given_kind")


@pytest.mark.parametrize(("family", "stated", "rest"), [
    ("proton_helix_pitch", "The charge of the proton (1.6e-19 C)", HELIX),  # its own kind
    ("proton_helix_pitch", "The angular position of the velocity to the field: 35 deg",
     HELIX[:2] + HELIX[3:] + ["e = 1.6e-19 C (elementary charge)"]),  # an angle is no length
    ("compton_recoil_energy", "wavelength k = 19.2 pm", COMPTON),  # the letter is notation
])
def test_a_value_called_a_quantity_of_its_own_kind_is_no_error(strict: SymbolicVerifier, family: str, stated: str,
                                                               rest: list[str]) -> None:
    step, _kind, check = blamed_with_givens(strict, family, rest + [stated])
    assert check != "given_kind", (step, check)


# B33: in a line of several values, the clause "<words> is <value>" names that value

def test_a_clause_calling_its_value_a_quantity_of_another_kind_is_mc(strict: SymbolicVerifier) -> None:
    stated = "At 250 K, the volume of ice is 213 g."  # the mass of ice called a volume
    assert blamed_with_givens(strict, "ice_to_water_heat", [stated] + ICE) == (1, "MC", "given_kind")


@pytest.mark.parametrize("stated", [
    "At 250 K, the mass of ice is 213 g.",  # the right quantity
    "The ice has a mass of 213 g at a temperature of 250 K.",  # no "is <value>" clause to judge alone
])
def test_a_clause_calling_its_value_its_own_quantity_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    step, _kind, check = blamed_with_givens(strict, "ice_to_water_heat", [stated] + ICE)
    assert check != "given_kind", (step, check)


# B31: a unit of another kind at the end of a longer remark

CURVE = ["R = 44.5 m (radius of the curve)", "theta = 8.0 deg (banking angle)", "mu = 0.14 (coefficient of static friction)"]


def test_a_remark_ending_in_units_of_another_kind_is_mc(strict: SymbolicVerifier) -> None:
    stated = "g = 9.8 m/s^2 (given, also in units of m/s)"  # an acceleration said to be in units of a speed
    assert blamed_with_givens(strict, "banked_curve_max_speed", CURVE + [stated]) == (4, "MC", "given_unit_remark")


@pytest.mark.parametrize("stated", [
    "g = 9.8 m/s^2 (given, in units of m/s^2)",  # its own unit
    "g = 9.8 m/s^2 (given, in a uniform field)",  # words, no unit
    "g = 9.8 m/s^2 (gravitational acceleration in cm/s^2)",  # its kind's unit, named loosely
])
def test_a_remark_ending_in_its_own_units_or_in_words_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    step, _kind, check = blamed_with_givens(strict, "banked_curve_max_speed", CURVE + [stated])
    assert check != "given_unit_remark", (step, check)


# C4: a given sentence that says a quantity is one of another kind, the second side followed by its value

PARTICLE = ["m = 5.02 ug (mass of the particle)", "v = 7.02 mm/s (speed of the particle)",
            "h = 6.63e-34 J*s (Planck constant)"]


def test_a_quantity_said_to_be_one_of_another_kind_before_a_colon_is_mc(strict: SymbolicVerifier) -> None:
    stated = "The de Broglie wavelength λ is the speed of light (c): c = 3e8 m/s."  # a length said to be a speed
    assert blamed_with_givens(strict, "de_broglie_wavelength_particle", PARTICLE + [stated]) == \
        (4, "MC", "given_equated")


def test_a_quantity_said_to_be_one_of_its_own_kind_before_a_colon_is_no_error(strict: SymbolicVerifier) -> None:
    stated = "The particle's velocity v is the given velocity: 7.02 mm/s."
    step, _kind, check = blamed_with_givens(strict, "de_broglie_wavelength_particle",
                                            [PARTICLE[0], stated, PARTICLE[2]])
    assert check != "given_equated", (step, check)


# U5: an unread relation of symbols in <given> for a letter of a kind the problem computes states physics (CM)

NETWORK = ["emf = 7.8 V (battery emf)", "r = 1.3 ohm (internal resistance)", "R1 = 15 ohm", "R2 = 35 ohm",
           "R3 = 8.0 ohm"]
LIFT = ["m = 14.9 kg", "h = 4.68 m", "g = 9.8 m/s^2"]


@pytest.mark.parametrize("stated", [
    "R4 = R1 + R2 + R3",  # a series sum for the parallel pair: a resistance, which the problem works out
    "The current (I1) is given by I1 = emf/R1",  # a current, which the problem works out
])
def test_an_unread_relation_for_a_computed_kind_among_the_givens_is_cm(strict: SymbolicVerifier, stated: str) -> None:
    assert blamed_with_givens(strict, "resistor_network_power", NETWORK + [stated]) == (6, "CM", "unchecked")


@pytest.mark.parametrize(("family", "givens", "at"), [
    ("resistor_network_power", NETWORK + ["R4 = the resistors R1, R2 and R3"], 6),  # words, no relation
    ("gravitational_potential_energy_lift", ["F = ma * g"] + LIFT, 1),  # a force: the problem computes none
])
def test_an_unread_given_that_writes_no_relation_for_a_computed_kind_stays_mc(
        strict: SymbolicVerifier, family: str, givens: list[str], at: int) -> None:
    assert blamed_with_givens(strict, family, givens) == (at, "MC", "unchecked")


# B1: a quantity between two objects, given a value the problem states of something else

SLITS = ["lam = 423 nm (vacuum wavelength)", "n = 1.37 (refractive index of the liquid)"]


def test_a_quantity_between_objects_given_another_object_s_value_is_mc(strict: SymbolicVerifier) -> None:
    stated = "The distance between the slits is 1.50 m."  # the screen's distance, given to the slits
    assert blamed_with_givens(strict, "young_double_slit_in_liquid", [stated] + SLITS) == (1, "MC", "given_object")


def test_a_quantity_between_objects_given_their_own_value_is_no_error(strict: SymbolicVerifier) -> None:
    stated = "The distance between the slits is 0.97 mm."
    step, _kind, check = blamed_with_givens(strict, "young_double_slit_in_liquid", [stated] + SLITS)
    assert check != "given_object", (step, check)


# B1: two values of one kind offered for one given

CALORIMETER = ["m1 = 388 g (mass of the metal block)", "c1 = 887 J/(kg*K) (specific heat of the metal)"]


def test_two_values_of_one_kind_joined_by_or_are_mc(strict: SymbolicVerifier) -> None:
    stated = "Specific heat of water (4186 J/(kg*K) or 887 J/(kg*K))"  # the metal's value offered for water's
    assert blamed_with_givens(strict, "calorimetry_mixing", CALORIMETER + [stated]) == (3, "MC", "given_garbled")


@pytest.mark.parametrize("stated", [
    "Specific heat of water (4186 J/(kg*K) or 4.186 J/(g*K))",  # one value in two units
    "Specific heat of water: 4186 J/(kg*K)",
])
def test_one_value_in_two_units_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    step, _kind, check = blamed_with_givens(strict, "calorimetry_mixing", CALORIMETER + [stated])
    assert check != "given_garbled", (step, check)


# B36: a first <find> step that only lists a name and a value, where the unknown belongs

@pytest.mark.parametrize("stated", [
    "<top_point_thickness> = 1.2 m",  # a given's value under a made-up name
    "T = 8.31 m/s",  # the target's letter, with a given's value
])
def test_a_find_step_that_lists_a_value_is_mc(strict: SymbolicVerifier, stated: str) -> None:
    v = edited_verdict(strict, "vertical_circle_top_tension", {5: stated})
    assert (v.error_step, v.error_type, v.details.get("check")) == (5, "MC", "target")


@pytest.mark.parametrize("stated", [
    "T, the tension in the string at the top (in N)",  # the unknown named
    "<tension> = ?",  # named, no value
])
def test_a_find_step_that_names_the_unknown_is_no_error(strict: SymbolicVerifier, stated: str) -> None:
    v = edited_verdict(strict, "vertical_circle_top_tension", {5: stated})
    assert v.error_step != 5, (v.error_step, v.details.get("check"))


# U9: values combined into a quantity of another kind than the one they are written for: a wrong relation (CM)

@pytest.mark.parametrize("stated", [
    "Q = (353 uF)/(41.5 V)",  # F/V is no charge
    "Q = (353 uF)*(41.5 V)*(2 s)",  # C*s is no charge
])
def test_values_combined_into_another_kind_are_cm(strict: SymbolicVerifier, stated: str) -> None:
    v = edited_verdict(strict, "capacitor_charge", {6: stated})
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation


@pytest.mark.parametrize(("at", "stated"), [
    (7, "Q = 0.0246 C"),  # a wrong result of the right relation: arithmetic
    (6, "Q = 353e-6*41.5*2"),  # bare numbers: units dropped, not judged by kind
])
def test_a_wrong_value_of_the_right_kind_or_of_bare_numbers_stays_ce(strict: SymbolicVerifier, at: int,
                                                                     stated: str) -> None:
    v = edited_verdict(strict, "capacitor_charge", {at: stated})
    assert (v.error_step, v.error_type) == (at, "CE"), v.explanation
