"""The symbolic verifier on the kinds of mistakes a small fine-tuned model really makes (from labelled real solutions).

Each test is a whole seven-tag solution in the style the SFT'd SmolLM2 writes (the ground truth's layout,
one mistake in it), for a generated problem (seed 0): the four gaps the issue names (givens checked by
value only, unknown symbols and a wrong <find> passing, <concept> never checked, the type following the
section) and the `unchecked_steps` report with its config switch. Values: atwood_tension m1 = 7.31 kg,
m2 = 3.69 kg, g = 9.8 m/s^2, a = 3.23 m/s^2, T = 48.1 N; isochoric_heating_helium m = 23.3 g, M = 4.0 g/mol;
sound_intensity_level P = 3.6 W, r = 162 m, I0 = 1e-12 W/m^2; closed_pipe L = 92.0 cm.
"""

from __future__ import annotations

import pytest

from physr3.config import Config
from physr3.problems import Problem
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from support.step_edits import edited_verdict


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


def _problem(family: str) -> Problem:
    return get_family(family).generate(0)


ATWOOD_NO_EQUATIONS = """<given>
Step 1: m1 = 7.31 kg (mass of the heavier block)
Step 2: m2 = 3.69 kg (mass of the lighter block)
Step 3: g = 9.8 m/s^2 (gravitational acceleration)
</given>
<find>
Step 4: T, the tension in the string (in N)
</find>
<concept>
Step 5: Newton's second law: applied to each block, the tension pulls the lighter block up
</concept>
<governing_equation>
Step 6: The blocks accelerate together
</governing_equation>
<substitution>
Step 7: T = (3.69 kg)*(9.8 m/s^2)
</substitution>
<calculation>
Step 8: T = 36.2 N
</calculation>
<final_answer>
36.2 N
</final_answer>"""


# ------------------------------------------------------------------------- gap 1: givens by quantity
@pytest.mark.parametrize("text", ["m = 23.3 g/mol (mass of helium)", "m = 23.3 g/s (mass of helium)"])
def test_right_number_with_a_wrong_unit_kind_is_mc(verifier: SymbolicVerifier, text: str) -> None:
    v = edited_verdict(verifier, "isochoric_heating_helium", {1: text})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    assert "another kind" in v.explanation


def test_right_given_in_another_unit_of_its_kind_passes(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "isochoric_heating_helium", {1: "m = 0.0233 kg (mass of helium)"})
    assert v.error_step == 0, v.explanation


def test_value_of_another_quantity_under_a_description_is_mc(verifier: SymbolicVerifier) -> None:
    # the reference intensity's value given as the acoustic power (a real model mistake)
    v = edited_verdict(verifier, "sound_intensity_level", {1: "Acoustic power: 1e-12 W/m^2"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    # named as I0's value (since round six the exponent of W/m^2 is no second number, so the kind check,
    # which runs first, says it: "calls 1e-12 W/m^2 a power, but it is the reference intensity (I0)")
    assert "I0" in v.explanation and ("P = 3.6 W" in v.explanation or "a power" in v.explanation)


def test_invented_name_with_a_value_of_another_kind_is_mc(verifier: SymbolicVerifier) -> None:
    # 3.6 is the power in W; as a distance it is no quantity of the problem
    v = edited_verdict(verifier, "sound_intensity_level", {2: "d = 3.6 m (distance from the source)"})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation


def test_given_under_its_own_name_and_description_passes(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "sound_intensity_level", {1: "Power of the source: Pw = 3.6 W",
                                                     3: "Reference intensity, I_ref = 1e-12 W/m^2"})
    assert v.error_step == 0, v.explanation


# ------------------------------------------------------------------------- gap 2: target, unknowns
@pytest.mark.parametrize("text", ["m1, the mass of the heavier block", "m1 = 7.31 kg",
                                  "x, the distance the blocks move (in m)"])
def test_find_that_does_not_name_the_target_is_mc(verifier: SymbolicVerifier, text: str) -> None:
    v = edited_verdict(verifier, "atwood_tension", {4: text})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation
    assert "tension" in v.explanation


@pytest.mark.parametrize("text", ["the tension in the string", "Tension, in newtons", "F_T (in N)"])
def test_find_naming_the_target_by_description_or_unit_passes(verifier: SymbolicVerifier, text: str) -> None:
    assert edited_verdict(verifier, "atwood_tension", {4: text}).error_step == 0


def test_dimensionally_inconsistent_new_symbol_is_cm(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {6: "a = (m1 - m2)*g/(m1 + m2), where F = m1 + g"})
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation
    assert "dimensionally inconsistent" in v.explanation


def test_equation_with_an_unknown_symbol_is_checked_once_it_is_defined(verifier: SymbolicVerifier) -> None:
    wrong = edited_verdict(verifier, "atwood_tension", {7: "T = m2*x", 9: "x = g - a"})
    assert (wrong.error_step, wrong.error_type) == (7, "CM"), wrong.explanation
    right = edited_verdict(verifier, "atwood_tension", {7: "T = m2*x", 9: "x = g + a"})
    assert right.error_step == 0, right.explanation
    assert 7 not in right.unchecked_steps


# ------------------------------------------------------------------------- gap 3: <concept> and prose
def test_wrong_equation_in_a_concept_step_is_cm(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {5: "Newton's second law: for the lighter block T = m2*g"})
    assert (v.error_step, v.error_type) == (5, "CM"), v.explanation


def test_textbook_letters_in_a_concept_step_pass(verifier: SymbolicVerifier) -> None:
    # E is the photon energy here, not the charge e; q(t) is a function of time, not q*t
    assert edited_verdict(verifier, "photoelectric_stopping_potential",
                    {7: "Photon energy: each photon carries E = h*c/lambda"}).error_step == 0
    assert edited_verdict(verifier, "rc_charging_charge", {}).error_step == 0


def test_prose_relation_between_known_quantities_is_checked(verifier: SymbolicVerifier) -> None:
    # a real model mistake: "the length of the pipe is L/2"
    v = edited_verdict(verifier, "closed_pipe_overtone_temperature",
                 {7: "Closed organ pipe: for the first overtone the length of the pipe is L/2"})
    assert (v.error_step, v.error_type) == (7, "CM"), v.explanation
    v = edited_verdict(verifier, "atwood_tension", {5: "Newton's second law: the tension is m2 g"})
    assert (v.error_step, v.error_type) == (5, "CM"), v.explanation


def test_prose_that_goes_on_in_words_is_not_read_as_maths(verifier: SymbolicVerifier) -> None:
    assert edited_verdict(verifier, "thermal_stress_clamped_rod", {}).error_step == 0  # "the force is stress times area"
    assert edited_verdict(verifier, "atwood_tension", {5: "Newton's second law: the tension is the same on both "
                                                    "sides of the pulley"}).error_step == 0


# ------------------------------------------------------------------------- type by cause
def test_wrong_relation_written_with_numbers_is_cm(verifier: SymbolicVerifier) -> None:
    v = verifier.verify(_problem("atwood_tension"), ATWOOD_NO_EQUATIONS)
    assert (v.error_step, v.error_type) == (7, "CM"), v.explanation


def test_wrong_arithmetic_under_a_right_relation_is_ce_in_any_section(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {7: "T = m2*(g + a) = 3.69*(9.8 + 3.23) = 49.9 N"})
    assert (v.error_step, v.error_type) == (7, "CE"), v.explanation


def test_computed_value_stated_among_the_givens_is_mc(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {3: "T = 36.2 N (tension in the string)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


# ------------------------------------------------------------------------- unchecked steps
def test_unchecked_steps_are_listed_and_pass_by_default(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {6: "The two blocks move together with one acceleration"})
    assert v.error_step == 0, v.explanation
    assert v.unchecked_steps == [6]


def test_unchecked_step_counts_as_first_error_when_configured() -> None:
    cfg = Config()
    cfg.verifier.symbolic_unchecked = "error"
    cfg.verifier.symbolic_answer_overrules = False  # the step alone: a right final answer would overrule it
    strict = SymbolicVerifier.from_config(cfg)
    v = edited_verdict(strict, "atwood_tension", {6: "The two blocks move together with one acceleration"})
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation
    p = _problem("atwood_tension")
    assert strict.verify(p, p.solution).error_step == 0  # every ground-truth step is checked
    with pytest.raises(ValueError):
        SymbolicVerifier(unchecked="maybe")


# ------------------------------------------------------------------------- what the SFT'd model writes
def test_the_answer_listed_as_a_given_is_mc(verifier: SymbolicVerifier) -> None:
    # the target's value copied from an option into <given>; a right intermediate stated early passes
    v = edited_verdict(verifier, "atwood_tension", {3: "T = 48.1 N"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    v = edited_verdict(verifier, "carnot_engine_heat_rejected", {3: "QH = 1500 J, Q2 = 1000 J"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation  # 1000 J is no constant (1000 kg/m^3 is)


def test_computed_symbol_holding_a_given_value_is_the_solutions_name_for_it(verifier: SymbolicVerifier) -> None:
    # v2 names the initial speed u2 here, so a <find> that asks for "v2" asks for a given
    v = edited_verdict(verifier, "elastic_collision_head_on", {4: "v2 = 9.7 m/s", 5: "v2"})
    assert (v.error_step, v.error_type) == (5, "MC"), v.explanation
    # the incline's angle under the record's letter of the height: since session 13 (RUBRIC.md, "Stating a given") a
    # label, judged by its value and unit (until session 12 blamed for the letter)
    v = edited_verdict(verifier, "rolling_incline_time", {3: "h = 50 deg"})
    assert v.error_step != 3, v.explanation


def test_value_repeated_as_an_invented_quantity_is_mc(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {3: "Mass of the pulley wheel: mp = 7.31 kg"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    # a new name, no new words: a repeat under another letter, an error at the first repeat (RUBRIC.md, session 7)
    relabelled = edited_verdict(verifier, "atwood_tension", {3: "m_A = 7.31 kg"})
    assert (relabelled.error_step, relabelled.details["check"]) == (3, "given_relabelled"), relabelled.explanation


def test_conventional_letter_with_a_value_of_another_kind_is_mc(verifier: SymbolicVerifier) -> None:
    # a number the problem does not give, blamed for its value (until session 12 for the letter, "t ... time")
    v = edited_verdict(verifier, "time_dilation_particle_survival", {3: "t = 0.5 km"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    assert "no quantity of the problem" in v.explanation
    # a given's own value under such a letter is the solution's label for that given (real labels)
    labelled = edited_verdict(verifier, "time_dilation_particle_survival", {3: "t = 0.86 km"})
    assert labelled.error_step != 3, labelled.explanation


def test_each_number_of_a_prose_given_is_judged_by_its_own_words(verifier: SymbolicVerifier) -> None:
    ok = edited_verdict(verifier, "vertical_circle_top_tension", {
        1: "The mass of the ball is 1.0 kg, the length of the string is 1.2 m, and the speed at the lowest point "
           "is 8.31 m/s."})
    assert ok.error_step == 0, ok.explanation
    v = edited_verdict(verifier, "vertical_circle_top_tension", {3: "The tension at the highest point is 8.31 m/s."})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation


def test_empty_or_tag_only_step_is_an_error_of_its_section(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "atwood_tension", {1: "<given>"})
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    v = edited_verdict(verifier, "atwood_tension", {10: ""})
    assert (v.error_step, v.error_type) == (10, "CE"), v.explanation


def test_find_written_as_an_equation_is_checked_as_one(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "isochoric_heating_helium", {6: "Q = (23.3 g) * (4 g/mol) * (334 K) / R"})
    assert (v.error_step, v.error_type) == (6, "CM"), v.explanation
    assert edited_verdict(verifier, "isochoric_heating_helium", {6: "Q = n*Cv*(T2 - T1)"}).error_step == 0


def test_principle_named_by_its_formula_passes(verifier: SymbolicVerifier) -> None:
    v = edited_verdict(verifier, "capacitor_network_charge", {8: "Definition of capacitance: every capacitor obeys Q = C*V"})
    assert v.error_step == 0, v.explanation


def test_find_that_gives_the_unknown_a_value_is_mc(verifier: SymbolicVerifier) -> None:
    # "Q: 25 C" in <find>: the unknown listed as if it were given; its equation or its name alone passes
    v = edited_verdict(verifier, "atwood_tension", {4: "T: 25 N"})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation
    assert edited_verdict(verifier, "atwood_tension", {4: "T = m2*(g + a)"}).error_step == 0
    assert edited_verdict(verifier, "atwood_tension", {4: "T (tension in the string): in N"}).error_step == 0


def test_symbol_glued_to_its_value_is_read_as_a_given(verifier: SymbolicVerifier) -> None:
    # "v1.89 m/s: Speed of the ball at the lowest point" is v = 1.89 m/s (the problem gives 8.31 m/s)
    v = edited_verdict(verifier, "vertical_circle_top_tension", {3: "u1.89 m/s: Speed of the ball at the lowest point"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    ok = edited_verdict(verifier, "vertical_circle_top_tension", {1: "m1.0 kg: Mass of the ball"})
    assert ok.error_step == 0, ok.explanation


def test_right_value_with_a_foreign_meaning_is_mc(verifier: SymbolicVerifier) -> None:
    # the right number with words that share nothing with what it is; loose but related words pass
    v = edited_verdict(verifier, "compton_recoil_energy", {3: "h = 6.63e-34 J*s (wavevector of the photon)"})
    assert (v.error_step, v.error_type) == (3, "MC"), v.explanation
    for text in ("h = 6.63e-34 J*s (Planck's constant)", "h = 6.63e-34 J*s", "me = 9.11e-31 kg (rest mass)",
                 "h = 6.63e-34 J*s (we use the usual value)"):  # a remark on the value is no meaning
        number = 3 if text.startswith("h") else 4
        ok = edited_verdict(verifier, "compton_recoil_energy", {number: text})
        assert ok.error_step == 0, (text, ok.explanation)
    ok = edited_verdict(verifier, "vertical_circle_top_tension", {3: "u = 8.31 m/s (initial velocity of the ball)"})
    assert ok.error_step == 0, ok.explanation


def test_given_letter_with_another_givens_value_and_its_words_is_a_relabelling(verifier: SymbolicVerifier) -> None:
    # the problem's letter m holding the molar mass, said in words: the solution's own name for M (the gas
    # mass stated under another letter); the same value called the mass of the gas is the wrong quantity
    v = edited_verdict(verifier, "isochoric_heating_helium", {1: "mg = 23.3 g (mass of helium)",
                                                              4: "m = 4 g/mol (molar mass)"})
    assert v.error_step != 4, v.explanation
    # with m already stated as the gas mass, m for the molar mass mixes two quantities up (round 3, r3-054:
    # `C = 9.7 uF`, then `C = 87 kohm (resistor)`, adjudicated an error)
    v = edited_verdict(verifier, "isochoric_heating_helium", {4: "m = 4 g/mol (molar mass)"})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation
    v = edited_verdict(verifier, "isochoric_heating_helium", {4: "m = 4 g/mol (mass of the gas)"})
    assert (v.error_step, v.error_type) == (4, "MC"), v.explanation


def test_value_of_a_given_described_loosely_is_that_given(verifier: SymbolicVerifier) -> None:
    # "thick wall" shares a word with the thickness whose value it has; "wall" alone does not make it the area
    v = edited_verdict(verifier, "composite_wall_interface_temperature", {2: "L1 = 16 cm (thick wall of thermal conductivity)"})
    assert v.error_step != 2, v.explanation


def test_step_written_on_the_lines_below_its_marker_is_read(verifier: SymbolicVerifier) -> None:
    # "Step 1:" alone on its line, its givens below: judged by that content, not as an empty step
    p = _problem("atwood_tension")
    text = p.solution.replace("Step 1: m1 = 7.31 kg (mass of the heavier block)",
                              "Step 1:\nm1 = 7.31 kg (mass of the heavier block)")
    v = verifier.verify(p, text)
    assert v.error_step == 0, v.explanation
    v = verifier.verify(p, text.replace("\nm1 = 7.31 kg", "\nm1 = 7.13 kg"))
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation
    v = verifier.verify(p, text.replace("\nm1 = 7.31 kg (mass of the heavier block)", ""))  # cut off
    assert (v.error_step, v.error_type) == (1, "MC"), v.explanation


def test_further_find_step_asking_for_an_invented_quantity_is_mc(verifier: SymbolicVerifier) -> None:
    # after naming T, "L (length of the light string)": the problem has no such quantity
    p = _problem("atwood_tension")
    text = p.solution.replace("Step 4: T, the tension in the string (in N)",
                              "Step 4: T (tension in the string)\nStep 5: L (length of the light string)")
    text = "\n".join(_renumber(text.splitlines()))
    v = verifier.verify(p, text)
    assert (v.error_step, v.error_type) == (5, "MC"), v.explanation
    ok = verifier.verify(p, text.replace("L (length of the light string)", "a (acceleration of the blocks)"))
    assert ok.error_step == 0, ok.explanation


def _renumber(lines: list[str]) -> list[str]:
    out, k = [], 0
    for line in lines:
        if line.startswith("Step "):
            k += 1
            line = f"Step {k}:" + line.split(":", 1)[1]
        out.append(line)
    return out


def test_given_number_said_to_be_another_quantity_is_mc(verifier: SymbolicVerifier) -> None:
    # "..., which is the X": the right number given a meaning that is not its own
    v = edited_verdict(verifier, "vertical_circle_top_tension",
                 {2: "The length of the string is 1.2 m, which is the refractive index of the ball."})
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    ok = edited_verdict(verifier, "vertical_circle_top_tension",
                  {2: "The string is 1.2 m long, which is the length of the string."})
    assert ok.error_step == 0, ok.explanation
