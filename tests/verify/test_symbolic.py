"""The offline symbolic verifier: reading maths safely, each check and its error type, tolerance of style.

One property per test. Problems come from the generator (atwood_tension seed 0: m1 = 7.31 kg, m2 = 3.69 kg,
g = 9.8 m/s^2, a = 3.23 m/s^2, T = 48.1 N, answer B; projectile_range seed 0: v0 = 43.1 m/s, theta = 55 deg,
R = 178 m), so the expected values below are the ground truth's.
"""

from __future__ import annotations

import random
import re
import time

import pytest

from physr3.problems import Problem
from physr3.solution import parse_solution
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier, Tolerances, split_clauses, srepr_to_sympy
from support.step_edits import replace_step

ATWOOD_MODEL = """<given>
Step 1: Mass of the heavier block, m₁ = 7.31 kg
Step 2: Mass of the lighter block, m₂ = 3.69 kg
Step 3: g = 9.8 m/s²
</given>
<find>
Step 4: We need the tension T in the string.
</find>
<concept>
Step 5: Apply Newton's second law to each block; both share the same acceleration.
</concept>
<governing_equation>
Step 6: For the heavier block: m₁g − T = m₁a
Step 7: For the lighter block: T − m₂g = m₂a
Step 8: Adding them, a = \\frac{(m_1 - m_2) g}{m_1 + m_2} and T = m₂(g + a)
</governing_equation>
<substitution>
Step 9: a = (7.31 − 3.69)(9.8)/(7.31 + 3.69)
Step 10: T = 3.69 × (9.8 + 3.23)
</substitution>
<calculation>
Step 11: a = 35.476/11.0 = 3.23 m s^-2
Step 12: T = 3.69 × 13.03 ≈ 48.1 N
</calculation>
<final_answer>
B
</final_answer>"""


@pytest.fixture(scope="module")
def atwood() -> Problem:
    return get_family("atwood_tension").generate(0)


@pytest.fixture(scope="module")
def projectile() -> Problem:
    return get_family("projectile_range").generate(0)


@pytest.fixture(scope="module")
def verifier() -> SymbolicVerifier:
    return SymbolicVerifier(answer_overrules=False)


# ------------------------------------------------------------------------------------------ reading maths
def test_remarks_are_dropped_and_clauses_split() -> None:
    assert split_clauses("T = 2*vy/g (from 0 = vy*T - g*T^2/2)") == ["T = 2*vy/g"]
    assert split_clauses("E1 = k*q1/(a^2)") == ["E1 = k*q1/(a^2)"]
    assert split_clauses("m1 g - T = m1 a and T - m2 g = m2 a") == ["m1 g - T = m1 a", "T - m2 g = m2 a"]


def test_srepr_reader_refuses_calls_outside_the_whitelist() -> None:
    assert str(srepr_to_sympy("Mul(Symbol('m'), Symbol('a'))")) == "a*m"
    with pytest.raises(ValueError):
        srepr_to_sympy("__import__('os').system('true')")


# ------------------------------------------------------------------------------------------ verdicts
def test_ground_truth_solution_has_no_error(verifier: SymbolicVerifier, atwood: Problem, projectile: Problem) -> None:
    for p in (atwood, projectile):
        v = verifier.verify(p, p.solution)
        assert (v.error_step, v.error_type, v.status) == (0, "none", "ok"), v.explanation


def test_small_model_style_solution_has_no_error(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, ATWOOD_MODEL)
    assert v.error_step == 0, v.explanation


def test_reordered_givens_pass(verifier: SymbolicVerifier, atwood: Problem) -> None:
    text = ATWOOD_MODEL.replace("Step 1: Mass of the heavier block, m₁ = 7.31 kg", "Step 1: g = 9.8 m/s²")
    text = text.replace("Step 3: g = 9.8 m/s²", "Step 3: Mass of the heavier block, m₁ = 7.31 kg")
    assert verifier.verify(atwood, text).error_step == 0


def test_misread_given_is_mc_at_that_step(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 2, "m₂ = 3.96 kg"))
    assert (v.error_step, v.error_type) == (2, "MC")
    assert "3.69" in v.explanation


def test_swapped_givens_are_mc_and_named(verifier: SymbolicVerifier, atwood: Problem) -> None:
    text = replace_step(replace_step(ATWOOD_MODEL, 1, "m₁ = 3.69 kg"), 2, "m₂ = 7.31 kg")
    v = verifier.verify(atwood, text)
    assert (v.error_step, v.error_type) == (1, "MC")
    assert "value of m2" in v.explanation


def test_given_in_another_unit_passes(verifier: SymbolicVerifier, atwood: Problem) -> None:
    assert verifier.verify(atwood, replace_step(ATWOOD_MODEL, 1, "m1 = 7310 g")).error_step == 0


def test_wrong_target_is_mc(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 4, "a, the acceleration of the blocks (in m/s^2)"))
    assert (v.error_step, v.error_type) == (4, "MC")


def test_wrong_equation_is_cm_with_expected_relation(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 8, "a = (m1 - m2) g / m1 and T = m2(g + a)"))
    assert (v.error_step, v.error_type) == (8, "CM")
    assert "(m1 - m2)*g/(m1 + m2)" in v.explanation


def test_wrong_relation_between_expressions_is_cm(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 7, "T + m₂g = m₂a"))
    assert (v.error_step, v.error_type) == (7, "CM")


@pytest.mark.parametrize("form", ["T = m2*g + m2*a", "T - m2 g = m2 a", "m2 (g + a) = T", "T/m2 = g + a",
                                  r"T = m_2 \cdot (g + a)"])
def test_equation_forms_are_equivalent(verifier: SymbolicVerifier, atwood: Problem, form: str) -> None:
    assert verifier.verify(atwood, replace_step(atwood.solution, 7, form)).error_step == 0


def test_wrong_principle_is_cm(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 5, "Conservation of angular momentum about the axle."))
    assert (v.error_step, v.error_type) == (5, "CM")


def test_wrong_substituted_number_is_ce(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 9, "a = (7.31 − 3.69)(9.8)/(7.31 − 3.69)"))
    assert (v.error_step, v.error_type) == (9, "CE")


def test_arithmetic_slip_is_ce_and_says_what_was_expected(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 11, "a = 35.476/11.0 = 3.32 m/s^2"))
    assert (v.error_step, v.error_type) == (11, "CE")
    assert "3.23" in v.explanation


def test_small_slip_is_blamed_when_it_shows_later(verifier: SymbolicVerifier, atwood: Problem) -> None:
    """3.28 for 3.23 is within 2% but beyond rounding; the final answer is then wrong: blame step 10."""
    text = replace_step(atwood.solution, 10, "a = 3.28 m/s^2")
    text = replace_step(text, 11, "T = 48.3 N").replace("\nB\n", "\nD\n")
    v = verifier.verify(atwood, text)
    assert (v.error_step, v.error_type) == (10, "CE")


def test_rounding_within_tolerance_passes(verifier: SymbolicVerifier, projectile: Problem) -> None:
    text = replace_step(projectile.solution, 14, "vx = 24.72 m/s")
    text = replace_step(text, 17, "R = 24.7 × 7.21 = 178.1 m")
    assert verifier.verify(projectile, text).error_step == 0


def test_missing_units_on_intermediate_values_pass(verifier: SymbolicVerifier, projectile: Problem) -> None:
    text = replace_step(projectile.solution, 15, "vy = 35.3")
    text = replace_step(text, 11, "vy = 43.1 sin 55°")
    assert verifier.verify(projectile, text).error_step == 0


def test_unit_prefix_slip_is_ce(verifier: SymbolicVerifier, projectile: Problem) -> None:
    v = verifier.verify(projectile, replace_step(projectile.solution, 17, "R = 178 cm"))
    assert (v.error_step, v.error_type) == (17, "CE")


def test_degree_radian_slip_is_ce(verifier: SymbolicVerifier, projectile: Problem) -> None:
    import math

    wrong = 43.1 * math.cos(55)
    v = verifier.verify(projectile, replace_step(projectile.solution, 14, f"vx = {wrong:.3g} m/s"))
    assert (v.error_step, v.error_type) == (14, "CE")


def test_wrong_final_answer_with_correct_steps_is_blamed_on_last_step(verifier: SymbolicVerifier,
                                                                      projectile: Problem) -> None:
    text = projectile.solution.replace("<final_answer>\n178 m", "<final_answer>\n187 m")
    v = verifier.verify(projectile, text)
    assert (v.error_step, v.error_type) == (17, "CE")


def test_mcq_wrong_letter_is_an_error(verifier: SymbolicVerifier, atwood: Problem) -> None:
    assert verifier.verify(atwood, ATWOOD_MODEL.replace("\nB\n", "\nC\n")).error_step == 12


def test_solution_without_steps_is_a_parse_error(verifier: SymbolicVerifier, atwood: Problem) -> None:
    for text in ("", "The tension is 48.1 N.", "<given>m1 = 7.31 kg</given>"):
        v = verifier.verify(atwood, text)
        assert (v.status, v.error_step, v.error_type) == ("parse_error", 0, "none")


def test_untagged_steps_are_checked_by_content(verifier: SymbolicVerifier, atwood: Problem) -> None:
    steps = "\n".join(f"Step {s.number}: {s.text}" for s in parse_solution(atwood.solution).steps)
    text = steps + "\nFinal answer: B"  # no tags at all; the answer after a plain "Final answer:"
    assert verifier.verify(atwood, text).error_step == 0
    v = verifier.verify(atwood, text.replace("a = 3.23 m/s^2", "a = 4.23 m/s^2"))
    assert (v.error_step, v.error_type) == (10, "CE")
    # without any final answer the solution is incomplete: CE at the last step (the completeness rule)
    assert (verifier.verify(atwood, steps).error_step, verifier.verify(atwood, steps).error_type) == (11, "CE")


def test_problem_without_ground_truth_is_a_parse_error(verifier: SymbolicVerifier) -> None:
    p = Problem(id="x", question="q", answer="1")
    assert verifier.verify(p, "Step 1: x = 1").status == "parse_error"


def test_garbage_solution_is_fast_and_never_crashes(verifier: SymbolicVerifier, atwood: Problem) -> None:
    rng = random.Random(0)
    alphabet = "Step 1:= ()+-*/^\\frac{}sqrt 0123456789.e m kg a T g θ×²\n<given></given>"
    start = time.perf_counter()
    for _ in range(200):
        text = "Step 1: " + "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400)))
        v = verifier.verify(atwood, text)
        assert v.status in ("ok", "parse_error")
    assert verifier.verify(atwood, "Step 1: " + "(" * 3000 + "a = 1").status in ("ok", "parse_error")
    assert time.perf_counter() - start < 10


def test_step_numbers_are_positions_when_numbering_is_broken(verifier: SymbolicVerifier, atwood: Problem) -> None:
    text = atwood.solution.replace("Step 11:", "Step 12:").replace("Step 10: a = 3.23", "Step 10: a = 9.23")
    v = verifier.verify(atwood, text)
    assert v.error_step == 10


def test_tolerances_are_configurable(atwood: Problem) -> None:
    strict = SymbolicVerifier(Tolerances(value_rel=1e-4), answer_overrules=False)
    text = replace_step(atwood.solution, 8, "a = (7.31 - 3.69)*9.8/(7.31 + 3.69) = 3.20")
    assert SymbolicVerifier(answer_overrules=False).verify(atwood, text).error_step == 0
    assert strict.verify(atwood, text).error_step == 8


def test_registered_as_symbolic() -> None:
    from physr3.verify.registry import build_verifier

    assert isinstance(build_verifier("symbolic", None), SymbolicVerifier)


# ------------------------------------------------------------------------------------------ data sets
def test_injected_errors_found_and_paraphrases_pass(verifier: SymbolicVerifier) -> None:
    """A small run of the benchmark: every injected error found at its step and type, also when the
    erroneous solution is restyled; controls and paraphrases of the ground truth judged error-free."""
    from physr3.synth.generate import generate_problems
    from physr3.synth.inject import inject_row
    from support.paraphrase import paraphrase, paraphrase_injection

    misses = []
    for p in generate_problems(60, seed=123):
        box: list = []
        row = inject_row(p, 123, injection=box)
        v = verifier.verify(p, row["solution"])
        if (v.error_step, v.error_type) != (row["label_error_step"], row["label_error_type"]):
            misses.append((row["family"], row["label_operator"], v.explanation))
        if box[0] is not None:
            text, step = paraphrase_injection(p.ground_truth, box[0], random.Random(p.id))
            v = verifier.verify(p, text)
            if (v.error_step, v.error_type) != (step, box[0].error_type):
                misses.append((row["family"], "restyled " + row["label_operator"], v.explanation))
        v2 = verifier.verify(p, paraphrase(p, random.Random(p.id)))
        if v2.error_step:
            misses.append((row["family"], "paraphrase", v2.explanation))
    assert len(misses) <= 1, misses


def test_principle_named_in_other_words_passes(verifier: SymbolicVerifier, atwood: Problem) -> None:
    text = replace_step(ATWOOD_MODEL, 5, "By the laws of Newton (second), applied to both masses.")
    assert verifier.verify(atwood, text).error_step == 0


@pytest.mark.parametrize("step,text", [
    (9, "a = (7.31 - 3.69) x 9.8 / (7.31 + 3.69)"),
    (11, "a = **3.23 m/s2**"),
    (8, r"a = \frac{\left(m_{1} - m_{2}\right) g}{m_{1} + m_{2}} \Rightarrow T = m_{2} \left(g + a\right)"),
    (12, r"T = 3.69\,\mathrm{kg} \times 13.03\,\mathrm{m\,s^{-2}} = 48.1\ \text{N}"),
    (3, "g = 9.81 m/s^2 (we use the usual value)"),
])
def test_other_writing_styles_pass(verifier: SymbolicVerifier, atwood: Problem, step: int, text: str) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, step, text))
    assert v.error_step == 0, v.explanation


def test_every_family_ground_truth_and_a_paraphrase_pass(verifier: SymbolicVerifier) -> None:
    from physr3.synth.registry import all_families
    from support.paraphrase import paraphrase

    bad = []
    for fam in all_families():
        p = fam.generate(1)
        for text in (p.solution, paraphrase(p, random.Random(fam.name))):
            v = verifier.verify(p, text)
            if v.error_step or not v.ok:
                bad.append((fam.name, v.explanation))
    assert not bad, bad


def test_symbols_the_solution_defines_are_used_later() -> None:
    """N and f are not in the ground truth; N is defined by a rounded number, f symbolically from it."""
    p = get_family("incline_friction_speed").generate(0)
    g = {s["symbol"]: s["value"] for s in p.ground_truth["steps"] if s["kind"] == "given"}
    import math

    n_force = g["m"] * g["g"] * math.cos(math.radians(g["theta"]))
    text = replace_step(p.solution, 11, f"N = m g cos(theta) = {n_force:.3g} N, so f = mu N and Wf = f d")
    assert SymbolicVerifier(answer_overrules=False).verify(p, text).error_step == 0
    wrong = replace_step(p.solution, 11, "N = m g sin(theta), so f = mu N and Wf = f d")
    v = SymbolicVerifier(answer_overrules=False).verify(p, wrong)
    assert (v.error_step, v.error_type) == (11, "CM")


# ------------------------------------------------------------------------------------------ completeness
# What small models really write while training: truncated, garbled or off-topic solutions. None of them
# may be judged error-free (that would give the full reward 1.0 for writing almost nothing).
def _upto(solution: str, tag: str) -> str:
    """The solution cut just before `<tag>` (a correct but unfinished solution)."""
    return solution.split(f"<{tag}>")[0]


@pytest.mark.parametrize("family", ["atwood_tension", "projectile_range", "ac_rl_average_power",
                                    "accelerated_ion_radius", "banked_curve_max_speed"])
def test_truncated_and_garbled_outputs_are_never_error_free(verifier: SymbolicVerifier, family: str) -> None:
    p = get_family(family).generate(4)
    for text in ["<given>\nStep 1: m = 2.0 kg (mass)\n</given>\n<",
                 "<given>\nStep 1: m\n<final_answer<final_answer m\n</final_answer",
                 "3\nStep 1: m\n3 m\nStep 2 2 2.0\n</final_",
                 _upto(p.solution, "substitution"), _upto(p.solution, "calculation"),
                 _upto(p.solution, "final_answer"), _upto(p.solution, "concept"), _upto(p.solution, "find")]:
        v = verifier.verify(p, text)
        assert v.status == "ok" and v.error_step >= 1, (text, v.explanation)
        assert v.error_step <= len(parse_solution(text).steps)


def test_unfinished_solution_is_ce_at_its_last_step(verifier: SymbolicVerifier, atwood: Problem) -> None:
    """Cut after the equations: every step is right, but no value is computed and no answer given; the
    calculation belongs after the last written step n, so step n is blamed (reward n/(n+1), never 1.0)."""
    text = _upto(atwood.solution, "substitution")
    v = verifier.verify(atwood, text)
    assert (v.error_step, v.error_type, v.details["missing"]) == (7, "CE", "calculation")
    assert "48.1 N" in v.explanation
    from physr3.reward import step_reward

    assert step_reward(v, text) == pytest.approx(7 / 8)


def test_missing_final_answer_is_ce_at_the_last_step(verifier: SymbolicVerifier, atwood: Problem) -> None:
    v = verifier.verify(atwood, _upto(atwood.solution, "final_answer"))
    assert (v.error_step, v.error_type, v.details["missing"]) == (11, "CE", "final_answer")
    unreadable = atwood.solution.replace("<final_answer>\nB\n", "<final_answer>\nthe tension\n")
    assert (verifier.verify(atwood, unreadable).error_step, verifier.verify(atwood, unreadable).error_type) == (11, "CE")


def test_missing_target_is_mc_after_the_givens(verifier: SymbolicVerifier, atwood: Problem) -> None:
    no_find = re.sub(r"<find>.*?</find>\n", "", ATWOOD_MODEL, flags=re.S)
    v = verifier.verify(atwood, no_find)
    # the target belongs after the givens (steps 1-3); the numbering now skips 4, so positions are reported
    assert (v.error_step, v.error_type, v.details["missing"]) == (4, "MC", "target")
    vague = replace_step(ATWOOD_MODEL, 4, "We now solve the problem.")
    assert (verifier.verify(atwood, vague).error_step, verifier.verify(atwood, vague).error_type) == (4, "MC")
    # only the givens written: the target belongs after the last written step, so the last one is blamed
    v = verifier.verify(atwood, _upto(atwood.solution, "find"))
    assert (v.error_step, v.error_type) == (3, "MC")


def test_target_stated_in_other_words_passes(verifier: SymbolicVerifier, atwood: Problem) -> None:
    for find in ["Find the tension.", "What is the tension in the string?", "The unknown (in N)"]:
        v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 4, find))
        assert v.error_step == 0, (find, v.explanation)


def test_missing_equation_is_cm(verifier: SymbolicVerifier, atwood: Problem) -> None:
    """Givens, target and principle, then only an answer: the governing equation is the first missing
    element; it belongs after the last checked step (the principle), here step 6."""
    text = _upto(ATWOOD_MODEL, "governing_equation") + "Step 6: So the answer follows.\n<final_answer>\nB\n</final_answer>"
    v = verifier.verify(atwood, text)
    assert (v.error_step, v.error_type, v.details["missing"]) == (6, "CM", "equation")


def test_right_final_answer_without_reasoning_is_an_error(verifier: SymbolicVerifier, atwood: Problem) -> None:
    """A guessed right letter after the givens: the target, equation and value are missing."""
    text = _upto(ATWOOD_MODEL, "find") + "<final_answer>\nB\n</final_answer>"
    v = verifier.verify(atwood, text)
    assert (v.error_step, v.error_type) == (3, "MC")
    answer_only = "Step 1: T = 48.1 N\n<final_answer>\nB\n</final_answer>"  # no givens stated
    v = verifier.verify(atwood, answer_only)  # the unknown stated as if it were given (a real model mistake)
    assert (v.error_step, v.error_type, v.details["check"]) == (1, "MC", "given_unknown")
    v = verifier.verify(atwood, "Step 1: The blocks hang from a pulley.\n<final_answer>\nB\n</final_answer>")
    assert (v.error_step, v.error_type, v.details["missing"]) == (1, "MC", "given")


def test_stated_given_that_is_no_quantity_of_the_problem_is_mc(verifier: SymbolicVerifier, atwood: Problem) -> None:
    for text, symbol in [("m = 2.0 kg (mass)", "m"), ("M = 5.5 kg", "M"), ("The mass of the pulley is 2.0 kg", None),
                         ("m", "m"), ("x, y", "x")]:
        v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 3, text))
        assert (v.error_step, v.error_type) == (3, "MC"), (text, v.explanation)
        assert v.details["symbol"] == symbol


@pytest.mark.parametrize("text", [
    "g = 9.81 m/s^2", "R = 8.314 J/(mol K)", "c = 3.00e8 m/s", "h = 6.63e-34 J s", "e = 1.6e-19 C",
    "u = 0 m/s (released from rest)", "a = 3.23 m/s^2 (from Newton's law, derived)", "M = 11.0 kg (total mass)",
    "m1", "m_2", "Masses: 7.31 kg and 3.69 kg", "The string is light and the pulley frictionless.",
])
def test_constants_implied_values_and_named_givens_pass(verifier: SymbolicVerifier, atwood: Problem, text: str) -> None:
    v = verifier.verify(atwood, replace_step(ATWOOD_MODEL, 3, text))
    assert v.error_step == 0, v.explanation


def test_constants_pass_in_a_problem_that_does_not_use_them(verifier: SymbolicVerifier) -> None:
    p = get_family("ac_rl_average_power").generate(0)
    for extra in ["g = 9.8 m/s^2", "c = 3e8 m/s", "h = 6.63e-34 J s", "e = 1.6e-19 C", "k = 8.99e9 N m^2/C^2"]:
        text = p.solution.replace("</given>", f"Step 99: {extra}\n</given>", 1)
        assert verifier.verify(p, text).error_step == 0, extra
    v = verifier.verify(p, p.solution.replace("</given>", "Step 99: m = 2.0 kg\n</given>", 1))
    assert (v.error_step, v.error_type) == (5, "MC")  # numbering broken: its position


def test_broken_tags_are_still_checked_and_completeness_applies(verifier: SymbolicVerifier, atwood: Problem) -> None:
    unclosed = atwood.solution.replace("</given>", "").replace("</find>", "").replace("</final_answer>", "")
    assert verifier.verify(atwood, unclosed).error_step == 0
    garbled = unclosed.replace("<final_answer>", "<final_answer")  # the answer still read after the marker
    assert verifier.verify(atwood, garbled).error_step == 0
    v = verifier.verify(atwood, unclosed.replace("a = 3.23 m/s^2", "a = 4.23 m/s^2"))
    assert (v.error_step, v.error_type) == (10, "CE")
    v = verifier.verify(atwood, _upto(unclosed, "calculation"))
    assert (v.error_step, v.error_type) == (9, "CE")
    swapped = atwood.solution.replace("<find>", "<concept>", 1)  # out of order / wrong tag names
    assert verifier.verify(atwood, swapped).error_step >= 0  # checked, never a crash
    v = verifier.verify(atwood, "<given>\nStep 1: m1 = 7.31 kg\n<find\nStep 2: T, the tension\n</given>")
    assert (v.error_step, v.error_type, v.details["missing"]) == (2, "CM", "principle")
