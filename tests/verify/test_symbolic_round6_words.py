"""The symbolic verifier's checks of session 9 on what a given's words attach its value to
(`physr3.verify.symbolic_objects`), from the misses of the sixth round of real solutions
(benchmarks/data/real_solutions/round6_test.jsonl, tuning data since session 8; classes B1, B15, B16, B18 and C1
of analysis/round6_misses_session8_verifier.md). Each test writes the <given> (or <concept>) section of a
generated problem's ground-truth solution (seed 0) the way the small model wrote it, with words of its own.

Values (seed 0): projectile_range v0 = 43.1 m/s, theta = 55 deg, g = 9.8 m/s^2 ("Neglect air resistance");
isothermal_expansion_heat n = 0.54 mol, T = 484 K, V1 = 4.34 L, V2 = 58.2 L; thin_film_reflected_wavelength t =
107 nm, n = 1.44; half_life_from_activity_ratio A1 = 4.7 kBq, A2 = 0.36 kBq, t = 2.1 h; trolleys_stick_energy_loss
m1 = 6.70 kg, u1 = 11.4 m/s, m2 = 5.38 kg, u2 = 4.6 m/s; solenoid_stored_energy l = 73 cm, a = 2.8 cm, N = 350,
cur = 3.6 A; decay_chain_max_daughter T1 = 8.6 h (X), T2 = 6.6 h (Y), Z stable; young_double_slit_in_liquid d =
0.97 mm, Dsc = 1.50 m, lam = 423 nm, n = 1.37, target the fringe width; ohm_law_current R = 725 ohm, V = 22.4 V.
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


def _with_section(family: str, tag: str, lines: list[str]):
    """The family's seed-0 problem and its ground-truth solution with the <tag> section's steps replaced by
    `lines`, all steps renumbered in order."""
    problem = get_family(family).generate(0)
    rows = problem.solution.splitlines()
    start, end = rows.index(f"<{tag}>"), rows.index(f"</{tag}>")
    rows = rows[:start + 1] + [f"Step 0: {t}" for t in lines] + rows[end:]
    out, k = [], 0
    for row in rows:
        if row.startswith("Step "):
            k += 1
            row = f"Step {k}: {row.split(':', 1)[1].strip()}"
        out.append(row)
    return problem, "\n".join(out)


def _verdict(verifier: SymbolicVerifier, family: str, lines: list[str], tag: str = "given"):
    return verifier.verify(*_with_section(family, tag, lines))


@pytest.mark.parametrize("family,givens,step,check", [
    # B1: a cause the problem tells to neglect
    ("projectile_range", ["v0 = 43.1 m/s (speed of the ball)", "theta = 55 deg",
                          "g = 9.8 m/s^2 (acceleration due to air)"], 3, "given_object"),
    # B1: a process the record's two volumes contradict
    ("isothermal_expansion_heat", ["n = 0.54 mol", "T = 484 K (temperature of the gas at constant volume)",
                                   "V1 = 4.34 L", "V2 = 58.2 L"], 2, "given_process"),
    # B1: the film's index given to the air
    ("thin_film_reflected_wavelength", ["The thickness of the film is 107 nm",
                                        "The refractive index of the air is 1.44"], 2, "given_object"),
    # B15: a remark with a percentage the problem does not state
    ("half_life_from_activity_ratio", ["The first activity is 4.7 kBq (falls by 5% per minute)",
                                       "A2 = 0.36 kBq", "t = 2.1 h"], 1, "given_remark_number"),
    # B1: one value for both objects, whose values differ
    ("trolleys_stick_energy_loss", ["The masses are 6.70 kg and 5.38 kg", "The speed of each trolley: 11.4 m/s",
                                    "u2 = 4.6 m/s"], 2, "given_object"),
    # B1: the current called a capacity (a limit)
    ("solenoid_stored_energy", ["The length is 73 cm (l)", "The radius is 2.8 cm (a)", "N = 350",
                                "The current carrying capacity is 3.6 A (I)"], 4, "given_words"),
    # B16: an object letter the problem does not have (its nuclei are X, Y, Z)
    ("decay_chain_max_daughter", ["X: a radioactive nucleus with half-life 8.6 h",
                                  "V: a stable nucleus with half-life 6.6 h"], 2, "given_object"),
    # B18: the quantity asked for as the subject of a given value
    ("young_double_slit_in_liquid", ["The fringe width is the separation between the slits, which is 0.97 mm (here)",
                                     "Dsc = 1.50 m", "lam = 423 nm", "n = 1.37"], 1, "given_unknown"),
])
def test_a_given_whose_words_attach_its_value_to_the_wrong_thing_is_mc(verifier: SymbolicVerifier, family: str,
                                                                       givens: list[str], step: int,
                                                                       check: str) -> None:
    v = _verdict(verifier, family, givens)
    assert (v.error_step, v.error_type, v.details["check"]) == (step, "MC", check), v.explanation


@pytest.mark.parametrize("family,givens", [
    # the same words where they are right
    ("projectile_range", ["v0 = 43.1 m/s (launch speed)", "theta = 55 deg",
                          "g = 9.8 m/s^2 (acceleration due to gravity)"]),
    ("isothermal_expansion_heat", ["n = 0.54 mol", "T = 484 K (temperature of the gas at constant temperature)",
                                   "V1 = 4.34 L", "V2 = 58.2 L"]),
    ("thin_film_reflected_wavelength", ["The thickness of the film is 107 nm",
                                        "The refractive index of the film is 1.44 (the air's is 1.00)"]),
    # a cycle with a stage at constant volume, which the problem names: its two volumes are no contradiction
    ("rectangular_cycle_efficiency", ["p1 = 206 kPa", "p2 = 450 kPa (pressure at constant volume)", "V1 = 4.9 L",
                                      "V2 = 12 L"]),
    ("decay_chain_max_daughter", ["X: a radioactive nucleus with half-life 8.6 h",
                                  "Y: a radioactive nucleus with half-life 6.6 h"]),
    ("young_double_slit_in_liquid", ["The slit separation is 0.97 mm", "Dsc = 1.50 m",
                                     "lam = 423 nm", "n = 1.37 (refractive index of the liquid)"]),
])
def test_the_same_words_where_they_are_right_pass(verifier: SymbolicVerifier, family: str, givens: list[str]) -> None:
    v = _verdict(verifier, family, givens)
    assert v.error_step == 0, v.explanation


def test_a_concept_headed_by_a_law_that_does_not_apply_before_the_right_one_is_cm(verifier: SymbolicVerifier) -> None:
    v = _verdict(verifier, "ohm_law_current", ["Ampère-Maxwell: Ohm's law, the current is the voltage over the "
                                               "resistance, I = V/R"], tag="concept")
    assert (v.error_step, v.error_type, v.details["check"]) == (4, "CM", "principle"), v.explanation


def test_a_concept_headed_by_the_problems_own_law_passes(verifier: SymbolicVerifier) -> None:
    v = _verdict(verifier, "ohm_law_current", ["Ohm's law: the current is the voltage over the resistance, I = V/R"],
                 tag="concept")
    assert v.error_step == 0, v.explanation


def test_a_concept_headed_by_words_no_problem_uses_is_cm(verifier: SymbolicVerifier) -> None:
    v = _verdict(verifier, "ohm_law_current", ["Vortexium-plasmodine (V-P): by Ohm's law the current is I = V/R"], tag="concept")
    assert (v.error_step, v.error_type, v.details["check"]) == (4, "CM", "principle"), v.explanation
