"""The symbolic verifier's readers of session 11: right steps of model-written solutions it blamed before the
labelled first error on the ten tuning sets (early false alarms, issue #12). Each test edits the givens of a
generated problem's ground-truth solution into a layout the small model wrote, and checks that the right variant
is no error there while a wrong one still is. The verifiers run the checks alone (`answer_overrules=False`).

Values (seed 0): wavelength_in_medium lam0 = 632 nm (wavelength in vacuum), n = 1.95, target lam (wavelength in
the medium); doppler_wall_beats f = 474 Hz, vs = 0.50 m/s (speed of the source), v = 340 m/s (speed of sound).
"""

from __future__ import annotations

import pytest

from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import blamed_with_givens

MEDIUM = ["lam0 = 632 nm (wavelength in vacuum)", "n = 1.95 (refractive index of the plastic)"]
DOPPLER = ["f = 474 Hz (frequency of the source)", "vs = 0.50 m/s (speed of the source)",
           "v = 340 m/s (speed of sound)"]


@pytest.fixture(scope="module")
def strict() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


# -- a value-less naming whose words fit more than one quantity of the problem ("wavelength" beside the
#    wavelength in vacuum and the one in the medium): it names a quantity of the problem all the same

@pytest.mark.parametrize(("family", "givens", "named"), [
    ("wavelength_in_medium", MEDIUM, "wavelength (λ)"),
    ("wavelength_in_medium", MEDIUM, "λ: the wavelength (in nm)"),
    ("doppler_wall_beats", DOPPLER, "Vc: the source's velocity"),
    # a speed's letter for a wavelength: letters are the author's notation (RUBRIC.md, session 13), the words name
    # the wavelength (blamed until session 14)
    ("wavelength_in_medium", MEDIUM, "wavelength (v)"),
])
def test_a_naming_whose_words_fit_several_quantities_is_no_error(strict: SymbolicVerifier, family: str,
                                                                 givens: list[str], named: str) -> None:
    step, _type, check = blamed_with_givens(strict, family, givens + [named])
    assert step != len(givens) + 1, (step, check)


@pytest.mark.parametrize(("family", "givens", "named"), [
    ("wavelength_in_medium", MEDIUM, "pulse wavelength (λ)"),  # "pulse": a word of no quantity of the problem
    ("doppler_wall_beats", DOPPLER, "Vc: the source's mass"),  # no quantity of the problem is a mass
])
def test_a_naming_with_a_foreign_word_letter_or_unit_is_still_blamed(strict: SymbolicVerifier, family: str,
                                                                     givens: list[str], named: str) -> None:
    step, kind, _check = blamed_with_givens(strict, family, givens + [named])
    assert (step, kind) == (len(givens) + 1, "MC")


# -- a given's value under a name of the solution's own that reads as no symbol (`Fid`, `<acoustic_power>`): the
#    line is judged as a given under that name (its value and its words), not left unread

@pytest.mark.parametrize("stated", ["<vacuum_wavelength> = 632 nm", "Lvac = 632 nm (wavelength in vacuum)",
                                    "wavelength (wavelength) = 632 nm (vacuum wavelength)"])
def test_a_given_under_a_name_of_its_own_is_read_as_a_given(strict: SymbolicVerifier, stated: str) -> None:
    step, _type, check = blamed_with_givens(strict, "wavelength_in_medium", [stated, MEDIUM[1]])
    assert step != 1, (step, check)


@pytest.mark.parametrize("stated", ["<vacuum_wavelength> = 641 nm",  # no value of the problem
                                    "Lvac = 1.95 (wavelength in vacuum)"])  # the index called the wavelength
def test_a_wrong_given_under_a_name_of_its_own_is_still_blamed(strict: SymbolicVerifier, stated: str) -> None:
    step, kind, _check = blamed_with_givens(strict, "wavelength_in_medium", [MEDIUM[0], stated])
    assert (step, kind) == (2, "MC")


# -- a remark that says where a right value comes from, after an article ("(in the given)", "the given
#    direction"), is a remark on the value, not another meaning for it

@pytest.mark.parametrize("stated", ["lam0 = 632 nm (in the given)", "lam0 = 632 nm (the given wavelength)"])
def test_a_remark_on_where_the_value_comes_from_is_no_meaning(strict: SymbolicVerifier, stated: str) -> None:
    step, _type, check = blamed_with_givens(strict, "wavelength_in_medium", [stated, MEDIUM[1]])
    assert step != 1, (step, check)


def test_words_of_another_meaning_after_an_article_are_still_blamed(strict: SymbolicVerifier) -> None:
    step, kind, check = blamed_with_givens(strict, "wavelength_in_medium", ["lam0 = 632 nm (the wavevector)",
                                                                            MEDIUM[1]])
    # since session 14 "wave vector" is a quantity noun (1/m), so the remark-kind check may name the error first
    assert (step, kind) == (1, "MC") and check in ("given_meaning", "given_words"), (step, kind, check)
