"""The symbolic verifier's given-statement checks of session 8, from the misses of the fifth round of real
solutions (benchmarks/data/real_solutions/round5_test.jsonl, tuning data since session 8; classes of
analysis/round5_misses_session7_verifier.md): a given stated again under a new letter or index (R1), a letter
of another kind that the same solution writes elsewhere for its own kind (B10). Each test writes the <given>
section of a generated problem's ground-truth solution (seed 0) the way the small model wrote its givens.

Values (seed 0): projectile_range v0 = 43.1 m/s, theta = 55 deg, g = 9.8 m/s^2; rectangular_cycle_efficiency
p1 = 206 kPa, p2 = 450 kPa, V1 = 4.9 L, V2 = 12 L (the problem writes 206 kPa twice);
time_dilation_particle_survival tau0 = 1.78 us, beta = 0.935, L = 0.86 km, c = 3e8 m/s.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_givens import GivenStatements
from support.step_edits import with_givens


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)




# R1: a value stated again under a new letter or index


@pytest.mark.parametrize("family,givens,step", [
    ("projectile_range", ["v = 43.1 m/s (speed of the ball)", "theta = 55 deg", "g = 9.8 m/s^2", "v0 = 43.1 m/s"], 4),
    # the problem writes 206 kPa twice, for one quantity; in other units, under a new index
    ("rectangular_cycle_efficiency", ["p1 = 206 kPa", "V1 = 4.9 L", "p2 = 450 kPa", "V2 = 12 L", "p3 = 206000 Pa"], 5),
])
def test_a_value_stated_again_under_a_new_letter_is_mc_at_the_repeat(verifier: SymbolicVerifier, family: str,
                                                                     givens: list[str], step: int) -> None:
    v = verifier.verify(*with_givens(family, givens))
    assert (v.error_step, v.error_type, v.details["check"]) == (step, "MC", "given_relabelled"), v.explanation


def test_a_value_restated_under_its_own_letter_in_other_units_is_no_new_letter(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("projectile_range", ["v0 = 43.1 m/s", "theta = 55 deg", "g = 9.8 m/s^2",
                                                           "v_0 = 0.0431 km/s"]))
    assert v.details.get("check") != "given_relabelled", v.explanation


def _record(**givens: tuple[float, tuple]):
    """A stand-in ground-truth record holding only givens: symbol -> (SI value, dimension)."""
    return SimpleNamespace(givens=dict.fromkeys(givens), instances=[{k: v for k, (v, _) in givens.items()}],
                           dims={k: d for k, (_, d) in givens.items()}, units={}, names={}, fixed=set(),
                           descriptions={})


def test_as_many_letters_as_the_record_has_givens_of_that_value_pass() -> None:
    charge = (0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0)  # A*s, in the order of physr3.quantity's dimensions
    stated = GivenStatements(_record(q1=(5.87e-6, charge), q2=(5.87e-6, charge), r=(0.0729, (1.0,) + (0.0,) * 6)))
    found = [stated.check(t, i) for i, t in enumerate(["q1 = 5.87 uC", "q2 = 5.87 uC", "r = 7.29 cm", "Q = 5.87 uC"])]
    assert [f is None for f in found] == [True, True, True, False]
    assert found[3].info["check"] == "given_relabelled"


# B10: a letter of another kind that the same solution writes elsewhere for its own kind; since session 13
# (RUBRIC.md, "Stating a given") the letter alone is no error: the value and unit decide (until session 12, MC)


def test_a_letter_of_another_kind_the_solution_uses_for_its_own_kind_is_a_label(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("time_dilation_particle_survival",
                                      ["v = 1.78 us, c = 3e8 m/s", "beta = 0.935", "L = 0.86 km", "v0 = 2.8e8 m/s"]))
    # the invented speed v0 is the first error, not the proper lifetime under v
    assert (v.error_step, v.error_type, v.details["check"]) == (4, "MC", "given_unmatched"), v.explanation


def test_a_lone_letter_of_another_kind_is_left_alone(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("time_dilation_particle_survival",
                                      ["v = 1.78 us", "beta = 0.935", "L = 0.86 km", "c = 3e8 m/s"]))
    assert v.details.get("check") != "given_letter_kind", v.explanation


# B14: the target listed among the givens by its own symbol, without a value


def test_the_target_listed_among_the_givens_by_its_symbol_is_mc(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("thermal_stress_clamped_rod", [
        "A = 3.8 cm^2", "T1 = 300 K", "T2 = 360 K", "Y = 121 GPa", "alpha = 2.3e-5 1/K", "F: force"]))
    assert (v.error_step, v.error_type, v.details["check"]) == (6, "MC", "given_unknown"), v.explanation


def test_a_given_named_without_a_value_is_not_the_target(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("thermal_stress_clamped_rod", [
        "A: cross-sectional area", "A = 3.8 cm^2", "T1 = 300 K", "T2 = 360 K", "Y = 121 GPa", "alpha = 2.3e-5 1/K"]))
    assert v.details.get("check") != "given_unknown", v.explanation


# B1: a change called by the name of the quantity it is a change of


@pytest.mark.parametrize("text,wrong", [
    ("r = 14.8 K (temperature)", True),
    ("The temperature of the rail is 14.8 K", True),
    ("dT = 14.8 K (temperature)", False),  # the letter says it is a change
    ("r = 14.8 K (rise in temperature)", False),
])
def test_a_change_called_by_its_quantitys_name_is_mc(verifier: SymbolicVerifier, text: str, wrong: bool) -> None:
    v = verifier.verify(*with_givens("linear_thermal_expansion", ["L = 25.3 m", text, "alpha = 1.2e-5 1/K"]))
    found = (v.error_step, v.details.get("check")) == (2, "given_words")
    assert found == wrong, v.explanation


# B11: a letter of the problem's own formula written with a value of another kind; since session 13 the given is
# judged by its value (the angle), not blamed for its letter (until session 12, MC)


def test_a_letter_of_the_problems_formula_with_another_kinds_value_is_a_label(verifier: SymbolicVerifier) -> None:
    # the problem writes "I = 1 M R^2": R is the body's radius; 50 deg is the incline's angle
    v = verifier.verify(*with_givens("rolling_incline_time", ["k = 1", "d = 6.04 m", "R = 50 deg", "g = 9.8 m/s^2"]))
    assert v.error_step != 3 and v.details.get("check") != "given_letter_kind", v.explanation


def test_an_odd_letter_the_problem_does_not_use_is_left_alone(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("rolling_incline_time", ["k = 1", "T = 6.04 m", "theta = 50 deg",
                                                               "g = 9.8 m/s^2"]))
    assert v.details.get("check") != "given_letter_kind", v.explanation


# B13: an answer option's value stated as a given


def test_an_options_value_stated_as_a_given_is_mc(verifier: SymbolicVerifier) -> None:
    # options 414 K, 682 K, 737 K, 577 K; T2 = 600 K after the compression, T3 = 737 K
    v = verifier.verify(*with_givens("adiabatic_then_isochoric_monatomic", ["V = 577 K", "n = 2.5 mol", "T1 = 276 K"]))
    assert (v.error_step, v.error_type, v.details["check"]) == (1, "MC", "given_option_value"), v.explanation


def test_an_option_that_is_a_value_of_the_problem_is_judged_as_that_value(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("adiabatic_then_isochoric_monatomic", ["n = 2.5 mol", "T1 = 276 K", "T3 = 737 K"]))
    assert v.details.get("check") != "given_option_value", v.explanation


# B5: a remark that gives the value a second unit, of another kind


@pytest.mark.parametrize("text,wrong", [
    ("L = 25.3 m (kg)", True),
    ("L = 25.3 m (L in s)", True),
    ("L = 25.3 m (K)", False),  # a lone letter: as often a name or a list label
    ("L = 25.3 m (m)", False),  # the same unit again
    ("L = 25.3 m (L)", False),  # the problem's symbol: a name
    ("L = 25.3 m (length of the rail)", False),
])
def test_a_remark_with_a_unit_of_another_kind_is_mc(verifier: SymbolicVerifier, text: str, wrong: bool) -> None:
    v = verifier.verify(*with_givens("linear_thermal_expansion", [text, "dT = 14.8 K", "alpha = 1.2e-5 1/K"]))
    found = (v.error_step, v.details.get("check")) == (1, "given_unit_remark")
    assert found == wrong, v.explanation


def test_a_greek_letter_of_another_kind_is_a_label(verifier: SymbolicVerifier) -> None:
    # session 13: `ω = 14.8 K` is the temperature rise under the author's letter (until session 12, MC)
    v = verifier.verify(*with_givens("linear_thermal_expansion", ["L = 25.3 m", "ω = 14.8 K", "alpha = 1.2e-5 1/K"]))
    assert v.error_step != 2, v.explanation


@pytest.mark.parametrize("text,wrong", [
    ("T1 = 868 K (the initial temperature)", True),  # a reservoir's temperature is no state of a process
    ("T1 = 868 K (temperature of the hot reservoir)", False),
])
def test_a_reservoirs_temperature_called_initial_is_mc(verifier: SymbolicVerifier, text: str, wrong: bool) -> None:
    v = verifier.verify(*with_givens("carnot_engine_heat_rejected", [text, "TC = 373 K", "QH = 1500 J"]))
    found = (v.error_step, v.details.get("check")) == (1, "given_words")
    assert found == wrong, v.explanation


def test_a_letter_written_again_in_the_other_case_is_no_new_letter(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(*with_givens("projectile_range", ["v0 = 43.1 m/s", "theta = 55 deg", "g = 9.8 m/s^2",
                                                           "V0 = 43.1 m/s (launch speed)"]))
    assert v.details.get("check") != "given_relabelled", v.explanation
