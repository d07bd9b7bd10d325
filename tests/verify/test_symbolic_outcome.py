"""A reached answer overrules a doubtful reading (issue #12, session 11; `physr3.verify.symbolic_outcome`).

Each test edits a generated problem's ground-truth solution (values, seed 0: capacitor_charge C = 353 uF, V = 41.5 V,
Q = 0.0146 C; ac_rl_average_power, multiple choice, R = 90 ohm, L = 460 mH, V0 = 130 V, f = 50 Hz, P = 26.2 W, option
B). A step only a reading check doubts (an unreadable step under `symbolic_unchecked=error`, a relation in the
solution's own letters) gives way to a right answer; a stated number that contradicts the problem does not; a wrong
answer or a bare right letter never overrules anything; and the switch turns it off.
"""

from __future__ import annotations

import pytest

from physr3.config import load_config
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier
from physr3.verify.symbolic_outcome import READING_CHECKS
from support.step_edits import replace_step

PROSE = "Now we think carefully about what happens to the plates here"  # no check reads it


@pytest.fixture(scope="module")
def gated() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=True)


@pytest.fixture(scope="module")
def ungated() -> SymbolicVerifier:
    return SymbolicVerifier(unchecked="error", answer_overrules=False)


def capacitor(edits: dict[int, str]) -> tuple:
    problem = get_family("capacitor_charge").generate(0)
    solution = problem.solution
    for number, text in edits.items():
        solution = replace_step(solution, number, text)
    return problem, solution


def test_a_doubted_step_gives_way_to_a_right_numeric_answer(gated, ungated) -> None:
    problem, solution = capacitor({4: PROSE})
    before = ungated.verify(problem, solution)
    assert before.error_step == 4 and before.details["check"] in READING_CHECKS, before.explanation
    after = gated.verify(problem, solution)
    assert after.error_step == 0 and after.error_type == "none", after.explanation
    assert after.details["overruled"] == {"step": 4, "type": before.error_type, "check": before.details["check"]}
    assert "overrules" in after.explanation and "step 4" in after.explanation


def test_the_same_doubt_stands_when_the_answer_is_wrong(gated) -> None:
    problem, solution = capacitor({4: PROSE, 7: "Q = 0.0164 C"})
    solution = solution.replace("<final_answer>\n0.0146 C", "<final_answer>\n0.0164 C")
    v = gated.verify(problem, solution)
    assert v.error_step == 4 and "overruled" not in v.details, v.explanation


def test_a_given_that_contradicts_the_problem_stands_whatever_the_answer(gated) -> None:
    problem, solution = capacitor({2: "V = 14.5 V (voltage across the capacitor)"})
    v = gated.verify(problem, solution)
    assert (v.error_step, v.error_type) == (2, "MC"), v.explanation
    assert v.details["check"] not in READING_CHECKS and "overruled" not in v.details


def test_a_right_letter_alone_is_too_weak_but_the_right_options_value_is_enough(gated, ungated) -> None:
    problem = get_family("ac_rl_average_power").generate(0)
    assert problem.ground_truth["answer"]["letter"] == "B"
    doubted = replace_step(problem.solution, 7, PROSE)
    assert ungated.verify(problem, doubted).error_step == 7
    v = gated.verify(problem, doubted)  # P = 26.2 W computed, and B: the outcome is reached
    assert v.error_step == 0 and v.details["overruled"]["step"] == 7, v.explanation
    # the letter without the option's value computed (the last calculation says something else)
    lucky = replace_step(doubted, 23, "P = about a quarter of the peak power")
    v = gated.verify(problem, lucky)
    assert v.error_step == 7 and "overruled" not in v.details, v.explanation


def test_the_config_switch_reaches_the_verifier() -> None:
    on = SymbolicVerifier.from_config(load_config(None, ["verifier.symbolic_unchecked=error"]))
    off = SymbolicVerifier.from_config(load_config(None, ["verifier.symbolic_unchecked=error",
                                                          "verifier.symbolic_answer_overrules=false"]))
    assert on.answer_overrules and not off.answer_overrules
    problem, solution = capacitor({4: PROSE})
    assert (on.verify(problem, solution).error_step, off.verify(problem, solution).error_step) == (0, 4)
