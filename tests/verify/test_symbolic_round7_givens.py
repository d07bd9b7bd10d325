"""The symbolic verifier's given- and find-step checks of session 10, from the late misses at given and find steps
on all eight tuning sets (round-7 classes B1, B11, B20, B21, B22, B23 and P2 of
analysis/round7_misses_session9_verifier.md, and the same causes in rounds 4 to 6 and test): words that contradict
the problem's sentence with the same value, a sentence whose subject the problem gives another value of that kind,
a quantity of a pair given to one object, a sentence equating two quantities, a record letter with a counting word
naming another given, a unit symbol called by a unit's name as a given's letter, a spring's extension called its
length, a half-life given to a stable nucleus, and a <find> step asking for the target "in UNIT". Each test writes the <given> section (or the <find> step)
of a generated problem's ground-truth solution (seed 0) the way the small model wrote it; each has a near miss that
must pass.

Values (seed 0): concave_mirror_image_distance u = 67.3 cm ("in front of a concave mirror"), Rc = 77 cm;
young_double_slit_in_liquid d = 0.97 mm ("the slits are 0.97 mm apart"), Dsc = 1.50 m ("the screen is 1.50 m
away"), lam = 423 nm, n = 1.37; neutron_separation_energy Z = 34 protons, N = 36 neutrons, b1 = b2 = 8.65 MeV;
doppler_wall_beats f = 474 Hz, vs = 0.50 m/s ("towards a large wall, away from a stationary listener"), v = 340 m/s;
stefan_boltzmann_net_power T0 = 303 K (the surroundings); trolleys_stick_energy_loss m1 = 6.70 kg, u1 = 11.4 m/s,
m2 = 5.38 kg, u2 = 4.6 m/s; beam_cable_tension theta = 25 deg ("the cable makes an angle of 25 deg with the beam");
spring_mass_max_speed d = 15.3 cm ("stretches it by 15.3 cm", the static extension); decay_chain_max_daughter T1 = 8.6 h
(half-life of X), T2 = 6.6 h (half-life of Y, which "decays to a stable nucleus Z").
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens, edited_verdict


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


# B21: words that contradict the problem's sentence with the same value


def test_the_opposite_position_word_for_the_problems_value_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "concave_mirror_image_distance", ["The object is 67.3 cm behind the mirror.",
                                                                 "Rc = 77 cm (radius of curvature)"])
    assert blamed == (1, "MC", "given_object")


def test_the_problems_own_position_word_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "concave_mirror_image_distance", ["The object is 67.3 cm in front of the mirror.",
                                                                 "Rc = 77 cm (radius of curvature)"])
    assert blamed[0] != 1


def test_moving_towards_what_the_problem_moves_away_from_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "doppler_wall_beats", ["f = 474 Hz (frequency of the source)",
                                                      "The source moves towards the listener at 0.50 m/s.",
                                                      "v = 340 m/s (speed of sound)"])
    assert blamed == (2, "MC", "given_object")


def test_moving_towards_what_the_problem_moves_towards_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "doppler_wall_beats", ["f = 474 Hz (frequency of the source)",
                                                      "The source moves towards the wall at 0.50 m/s.",
                                                      "v = 340 m/s (speed of sound)"])
    assert blamed[0] != 2


# P2: a sentence's subject that the problem gives another value of the kind


def test_a_subject_the_problem_gives_another_value_of_the_kind_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "young_double_slit_in_liquid", ["The screen is 1.50 m away from the slits.",
                                                               "The screen is 0.97 mm apart.",
                                                               "lam = 423 nm (vacuum wavelength)",
                                                               "n = 1.37 (refractive index of the liquid)"])
    assert blamed == (2, "MC", "given_object")


def test_the_subject_the_problem_states_the_value_of_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "young_double_slit_in_liquid", ["The screen is 1.50 m away from the slits.",
                                                               "The slits are 0.97 mm apart.",
                                                               "lam = 423 nm (vacuum wavelength)",
                                                               "n = 1.37 (refractive index of the liquid)"])
    assert blamed[0] == 0 or blamed[0] > 4


# B11: a record letter with a counting word that names another given


def test_a_letter_counting_another_givens_objects_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "neutron_separation_energy", ["N = 34 protons", "b1 = 8.65 MeV", "b2 = 8.65 MeV"])
    assert blamed == (1, "MC", "given_letter_kind")


def test_a_letter_counting_its_own_objects_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "neutron_separation_energy", ["Z = 34 protons", "N = 36 neutrons",
                                                             "b1 = 8.65 MeV (binding energy per nucleon of X)"])
    assert blamed[0] == 0 or blamed[0] > 3


# B23: a unit symbol, called by its unit's name, as a given's letter: since session 13 (RUBRIC.md, "Stating a
# given") the author's notation, judged by its value (until session 12, MC)


def _stefan_givens() -> list[str]:
    problem = get_family("stefan_boltzmann_net_power").generate(0)
    lines = problem.solution.split("<given>")[1].split("</given>")[0].strip().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines]


def test_a_unit_called_by_its_name_as_a_letter_is_a_label(verifier: SymbolicVerifier) -> None:
    givens = _stefan_givens()
    temperature = next(g for g in givens if g.startswith("T0"))  # the surroundings, "T0 = 293 K (...)"
    givens[givens.index(temperature)] = "K (kelvin) = " + temperature.split("=", 1)[1].split("(")[0].strip()
    blamed = blamed_with_givens(verifier, "stefan_boltzmann_net_power", givens)
    assert blamed[0] != givens.index(next(g for g in givens if g.startswith("K ("))) + 1, blamed


def test_a_letter_in_its_unit_passes(verifier: SymbolicVerifier) -> None:
    givens = _stefan_givens()
    temperature = next(g for g in givens if g.startswith("T0"))
    givens[givens.index(temperature)] = "T0 (kelvin) = " + temperature.split("=", 1)[1].split("(")[0].strip()
    blamed = blamed_with_givens(verifier, "stefan_boltzmann_net_power", givens)
    assert blamed[0] == 0 or blamed[0] > len(givens)


# B22: a given sentence that says one quantity is another


def test_a_mass_said_to_be_a_velocity_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "trolleys_stick_energy_loss", [
        "The mass of the faster trolley (6.70 kg) is the initial velocity (u1).", "u1 = 11.4 m/s",
        "m2 = 5.38 kg", "u2 = 4.6 m/s"])
    assert blamed == (1, "MC", "given_equated")


def test_one_value_said_to_be_another_of_its_kind_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "trolleys_stick_energy_loss", [
        "m1 = 6.70 kg", "m2 = 5.38 kg",
        "The initial speed of the faster trolley (11.4 m/s) is the initial speed of the slower trolley (4.6 m/s)."])
    assert blamed == (3, "MC", "given_equated")


def test_a_speed_said_to_be_its_own_velocity_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "trolleys_stick_energy_loss", [
        "m1 = 6.70 kg", "The speed of the faster trolley is the initial velocity (11.4 m/s).",
        "m2 = 5.38 kg", "u2 = 4.6 m/s"])
    assert blamed[2] != "given_equated"


# B20: the find step asks for the target in a unit of another kind, without parentheses


def test_the_target_asked_in_a_unit_of_another_kind_is_mc(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "concave_mirror_image_distance", {3: "v = Image distance in ohm"})
    assert (v.error_step, v.error_type, v.details.get("check")) == (3, "MC", "target_unit")


def test_the_target_asked_in_its_own_unit_passes(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "concave_mirror_image_distance", {3: "v = Image distance in cm"})
    assert v.error_step != 3


# P2: a quantity the problem gives between two objects, called the quantity of one of them

_BEAM = ["L = 3.72 m (length of the beam)", "M = 34 kg (mass of the beam)", "m = 54 kg (mass of the load)",
         "x = 1.4 m (distance of the load from the hinge)"]


def test_the_angle_of_one_object_of_a_pair_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "beam_cable_tension", _BEAM + ["The angle of the beam is 25 deg."])
    assert blamed == (5, "MC", "given_object")


def test_the_angle_the_cable_makes_with_the_beam_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "beam_cable_tension", _BEAM + ["The angle of the cable with the beam is 25 deg."])
    assert blamed[2] != "given_object"


# B1: a spring's extension called its length (a deformation is a change of length)

_SPRING = ["m = 1.4 kg (mass of the block)", "A = 7.9 cm (amplitude of oscillation)", "g = 9.8 m/s^2"]


def test_an_extension_called_the_springs_length_is_mc(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "spring_mass_max_speed", _SPRING[:1] + ["The spring is a light spring with a length "
                                                                       "of 15.3 cm,"] + _SPRING[1:])
    assert blamed == (2, "MC", "given_words")


def test_the_spring_stretched_by_its_extension_passes(verifier: SymbolicVerifier) -> None:
    blamed = blamed_with_givens(verifier, "spring_mass_max_speed", _SPRING[:1] + ["The light spring is stretched by 15.3 cm."]
                     + _SPRING[1:])
    assert blamed[0] != 2


# B1: a half-life given to a stable nucleus (decay_chain_max_daughter: "Y decays to a stable nucleus Z with a
# half-life of ..." is Y's half-life)


def _decay_givens() -> list[str]:
    problem = get_family("decay_chain_max_daughter").generate(0)
    lines = problem.solution.split("<given>")[1].split("</given>")[0].strip().splitlines()
    return [line.split(":", 1)[1].strip() for line in lines]


def test_a_half_life_of_the_stable_nucleus_is_mc(verifier: SymbolicVerifier) -> None:
    givens = _decay_givens()
    value = givens[1].split("=", 1)[1].split("(")[0].strip()  # Y's half-life, "6.6 h"
    givens[1] = f"T2 = {value} (half-life of the stable nucleus Z)"
    assert blamed_with_givens(verifier, "decay_chain_max_daughter", givens) == (2, "MC", "given_object")


def test_the_problems_own_wording_of_the_half_life_passes(verifier: SymbolicVerifier) -> None:
    givens = _decay_givens()
    value = givens[1].split("=", 1)[1].split("(")[0].strip()
    givens[1] = f"T2 = {value} (Y decays to a stable nucleus Z with this half-life)"
    assert blamed_with_givens(verifier, "decay_chain_max_daughter", givens)[0] != 2
