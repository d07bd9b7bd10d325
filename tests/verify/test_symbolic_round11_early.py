"""The symbolic verifier's readers of session 14: right steps of model-written solutions it blamed before the
labelled first error (early verdicts, issue #12; round 11's classes A2, A10, A24, A25). Each test edits the
givens of a generated problem's ground-truth solution into a layout a small model writes, and checks that the right
variant is read (no error there) while a wrong one is an error there. The verifiers run the checks alone
(`answer_overrules=False`) and count an unread step as an error (`unchecked="error"`), so "no error there" means
the step was read and passed.

Values (seed 0): capacitor_charge C = 353 uF, V = 41.5 V (voltage across the capacitor), target Q;
thin_film_reflected_wavelength t = 107 nm, n = 1.44, target lam (longest strongly reflected wavelength), the
question says "white light at normal incidence"; vertical_circle_top_tension m = 1.0 kg, L = 1.2 m, u = 8.31 m/s,
g = 9.8 m/s^2, target T (tension at the highest point), no angle anywhere.
"""

from __future__ import annotations

import pytest

from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_namings import drop_stray_word, letter_equals_words
from support.step_edits import blamed_with_givens

CAPACITOR = ["C = 353 uF (capacitance)"]
FILM = ["t = 107 nm (thickness of the film)", "n = 1.44 (refractive index of the film)"]
CIRCLE = ["m = 1.0 kg (mass of the ball)", "L = 1.2 m (length of the string)", "u = 8.31 m/s (speed at the lowest point)"]
CIRCLE_AFTER = ["g = 9.8 m/s^2 (gravitational acceleration)"]


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- "A quantity named without a value" (RUBRIC.md): right when its words name a quantity of the problem, read

@pytest.mark.parametrize(("family", "before", "naming", "after"), [
    # `LETTER = words`: the record's letter with the words of its description (and one more of the prose)
    ("capacitor_charge", CAPACITOR, "V = Voltage applied across the capacitor", ["V = 41.5 V"]),
    # words of the unknown's description plus words of the problem's text that describe no quantity in particular
    ("thin_film_reflected_wavelength", FILM, "w: the wavelength of the light at normal incidence", []),
])
def test_a_naming_of_a_quantity_of_the_problem_is_read_as_right(strict: SymbolicVerifier, family: str,
                                                                 before: list[str], naming: str,
                                                                 after: list[str]) -> None:
    step, _type, check = blamed_with_givens(strict, family, before + [naming] + after)
    assert step != len(before) + 1, (step, check)


# -- ... and an error (MC) when it names a quantity the problem does not have or carries a unit of another kind

@pytest.mark.parametrize(("family", "before", "naming", "after"), [
    # a time in a problem that has none and never speaks of one
    ("capacitor_charge", CAPACITOR, "T = Time taken for the charge to change its position", ["V = 41.5 V"]),
    # an angle unit where the problem has no angle
    ("vertical_circle_top_tension", CIRCLE, "T = the highest point of the circle (in degrees)", CIRCLE_AFTER),
    # the words name the film's thickness (a length); the unit is an area's (a kind the problem reaches: t*t)
    ("thin_film_reflected_wavelength", FILM, "d: the thickness of the film (in nm^2)", []),
])
def test_a_naming_of_no_quantity_of_the_problem_or_with_a_false_unit_is_mc(strict: SymbolicVerifier, family: str,
                                                                          before: list[str], naming: str,
                                                                          after: list[str]) -> None:
    step, kind, check = blamed_with_givens(strict, family, before + [naming] + after)
    assert (step, kind, check) == (len(before) + 1, "MC", "given_words")


def test_a_bodys_mass_is_a_quantity_of_the_problem_even_unstated(strict: SymbolicVerifier) -> None:
    # the ball's mass is given here, so take a problem without a mass: the film has none, yet a body has one
    step, _type, check = blamed_with_givens(strict, "thin_film_reflected_wavelength",
                                            FILM + ["M: the mass of the film"])
    assert not (step == len(FILM) + 1 and check == "given_words"), (step, check)


def test_words_of_another_quantity_of_another_kind_stay_unread(strict: SymbolicVerifier) -> None:
    # "string" belongs to the string's length, not to a speed: a reader's call, left to --unchecked (not passed)
    step, _type, check = blamed_with_givens(strict, "vertical_circle_top_tension",
                                            CIRCLE + ["w: the speed of the string"] + CIRCLE_AFTER)
    assert (step, check) == (len(CIRCLE) + 1, "unchecked")


@pytest.mark.parametrize(("text", "naming"), [
    ("V = Voltage applied across the capacitor", "V: Voltage applied across the capacitor"),
    ("n = the number of photons emitted per second", "n: the number of photons emitted per second"),
    ("T = T_v + L (the tension)", None),  # an equation, not a naming
    ("F = ma * g", None),
    ("v0 = c/n (v of light in the glass)", None),
    ("m = 2.0 kg (mass)", None),
])
def test_letter_equals_words_reads_only_prose_on_the_right(text: str, naming: str | None) -> None:
    assert letter_equals_words(text) == naming


# -- round 11's class A2 (i): right givens with a value in a layout that was left unread
#    (string_standing_wave_frequency seed 0: L = 1.04 m, m = 16 g, T = 37 N, nl = 2 loops; trolleys_stick_energy_loss:
#    m1 = 6.70 kg, u1 = 11.4 m/s; vertical_circle_top_tension: g = 9.8 m/s^2)

STRING = ["L = 1.04 m (length of the string)", "m = 16 g (mass of the string)", "T = 37 N (tension in the string)"]
TROLLEYS = ["m1 = 6.70 kg (mass of the faster trolley)"]
TROLLEYS_AFTER = ["m2 = 5.38 kg (mass of the slower trolley)", "u2 = 4.6 m/s (initial speed of the slower trolley)"]


@pytest.mark.parametrize(("family", "before", "stated", "after"), [
    # a count after the words of the unitless given it is ("number of loops", nl = 2)
    ("string_standing_wave_frequency", STRING, "The number of loops is 2", []),
    # the value's own unit named again in a remark, in the "words: value" layout
    ("trolleys_stick_energy_loss", TROLLEYS, "the initial speed of the faster trolley: 11.4 m/s (m/s)", TROLLEYS_AFTER),
    # a stray word between '=' and the value
    ("vertical_circle_top_tension", CIRCLE, "g = gaining 9.8 m/s^2 (given)", []),
])
def test_a_right_given_in_these_layouts_is_read(strict: SymbolicVerifier, family: str, before: list[str], stated: str,
                                                 after: list[str]) -> None:
    step, _type, check = blamed_with_givens(strict, family, before + [stated] + after)
    assert step != len(before) + 1, (step, check)


@pytest.mark.parametrize(("family", "before", "stated", "after"), [
    # the same layouts with a wrong value stay errors at that step (a wrong count is not read as the given)
    ("string_standing_wave_frequency", STRING, "The number of loops is 5", []),
    ("trolleys_stick_energy_loss", TROLLEYS, "the initial speed of the faster trolley: 11.4 m/s (kg)", TROLLEYS_AFTER),
    ("vertical_circle_top_tension", CIRCLE, "g = gaining 9.1 m/s^2 (given)", []),
])
def test_the_same_layouts_with_a_wrong_value_are_errors(strict: SymbolicVerifier, family: str, before: list[str],
                                                        stated: str, after: list[str]) -> None:
    step, kind, _check = blamed_with_givens(strict, family, before + [stated] + after)
    assert (step, kind) == (len(before) + 1, "MC")


@pytest.mark.parametrize(("text", "read"), [
    ("g = gaining 9.8 m/s^2 (given)", "g = 9.8 m/s^2 (given)"),
    ("m = mass 2.0 kg", None),  # a quantity noun: its words are judged, not dropped
    ("v = minus 3 m/s", None),  # a word that changes the value
    ("x = sin 30", None),  # a function
])
def test_drop_stray_word_drops_only_a_word_that_says_nothing(text: str, read: str | None) -> None:
    assert drop_stray_word(text, {}) == read


# -- round 11's A24: a quantity noun after a negation says what the object lacks, not what the value is
#    (ohm_law_current seed 0: R = 725 ohm, V = 22.4 V (battery voltage))

def test_a_negated_quantity_noun_is_no_name_of_the_value(strict: SymbolicVerifier) -> None:
    step, _type, check = blamed_with_givens(strict, "ohm_law_current",
                                            ["R = 725 ohm (resistance of the resistor)",
                                             "Battery (ideal, no internal resistance): E = 22.4 V"])
    assert not (step == 2 and check == "given_kind"), (step, check)


def test_a_quantity_noun_without_negation_still_names_the_value(strict: SymbolicVerifier) -> None:
    step, kind, check = blamed_with_givens(strict, "ohm_law_current",
                                           ["R = 725 ohm (resistance of the resistor)",
                                            "Battery (internal resistance): E = 22.4 V"])
    assert (step, kind, check) == (2, "MC", "given_kind")


# -- round 11's A25: an untagged first sentence in the problem's own words (any verb form) is a true setup step
#    that is read, not blamed as unread nor as the place of missing givens

def test_an_untagged_setup_sentence_in_the_problems_words_is_read(strict: SymbolicVerifier) -> None:
    problem = get_family("ohm_law_current").generate(0)
    # the question says "is connected across an ideal battery"; the step says "connecting" (another verb form)
    solution = ("Step 1: The resistor is connecting across the ideal battery.\n"
                "Step 2: The battery gives 22.4 V and the resistor has 725 ohm.\n"
                "Step 3: i_R = 22.4 V / 725 ohm = 3.2 A\n<final_answer>3.2 A</final_answer>")
    verdict = strict.verify(problem, solution)  # a later step (prose or the slip at step 3) is blamed
    assert verdict.error_step > 1, verdict.explanation


def test_an_untagged_first_sentence_with_words_from_outside_the_problem_is_still_blamed(
        strict: SymbolicVerifier) -> None:
    problem = get_family("ohm_law_current").generate(0)
    solution = ("Step 1: The capacitor discharges through the inductor.\n"
                "Step 2: The battery gives 22.4 V and the resistor has 725 ohm.\n"
                "Step 3: i_R = 22.4 V / 725 ohm = 3.2 A\n<final_answer>3.2 A</final_answer>")
    assert strict.verify(problem, solution).error_step == 1


# -- round 11's A10: a remark that is only the noun of the value's own kind ("(voltage)" on an emf) names its kind,
#    not another quantity, where no other quantity of the problem is described by that noun
#    (lr_circuit_energy seed 0: Lind = 840 mH, R = 13 ohm, emf = 12 V (battery emf), t = 61 ms)

LR = ["Lind = 840 mH (inductance)", "R = 13 ohm (resistance)"]
LR_AFTER = ["t = 61 ms (time after the switch is closed)"]


def test_a_remark_naming_the_values_own_kind_is_no_other_meaning(strict: SymbolicVerifier) -> None:
    step, _type, check = blamed_with_givens(strict, "lr_circuit_energy", LR + ["emf = 12 V (voltage)"] + LR_AFTER)
    assert step != len(LR) + 1, (step, check)


def test_a_remark_naming_another_quantity_is_still_another_meaning(strict: SymbolicVerifier) -> None:
    step, kind, _check = blamed_with_givens(strict, "lr_circuit_energy",
                                            LR + ["emf = 12 V (voltage across the resistor)"] + LR_AFTER)
    assert (step, kind) == (len(LR) + 1, "MC")
