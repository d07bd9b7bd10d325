"""The step reward r = e/(n+1): the paper's numbers, failure policies, and each hack with its guard.

Every hack test has the same shape: a baseline wrong solution, the same mistake dressed up so that the
paper's reward rises, and the guard that brings the reward back to the baseline (or below).
"""

import pytest

from physr3.config import RewardConfig
from physr3.reward import compute_reward, reward_fn, step_reward
from physr3.solution import render_solution
from physr3.verify.base import Verdict

SECTIONS = {
    "given": ["m = 2.0 kg (mass of the block)", "F = 10 N (horizontal force, no friction)"],
    "find": ["a, the acceleration of the block"],
    "concept": ["Newton's second law; F is the net force"],
    "governing_equation": ["a = F * m"],  # the error: step 5
    "substitution": ["a = (10 N) * (2.0 kg)"],
    "calculation": ["a = 20 kg N"],
}
WRONG = render_solution(SECTIONS, "20")  # 7 steps, first error at step 5
ERR = Verdict(5, "CM", "multiplied instead of divided")
PAPER = RewardConfig()  # every guard off: the paper's reward
BASE = 5 / 8


def render(sections):
    return render_solution(sections, "20")


def test_paper_reward_values():
    assert step_reward(Verdict(0, "none"), WRONG, PAPER) == 1.0
    assert step_reward(ERR, WRONG, PAPER) == pytest.approx(BASE)
    assert step_reward(Verdict(1, "MC"), "no steps at all", PAPER) == pytest.approx(1 / 2)  # paper: n = 1


def test_paper_step_pattern_counts_quoted_steps():
    quoted = WRONG.replace("a = 20 kg N", "a = 20 kg N (as in Step 5: above)")
    assert step_reward(ERR, quoted, PAPER) == pytest.approx(5 / 8)
    assert step_reward(ERR, quoted, RewardConfig(step_pattern="paper")) == pytest.approx(5 / 9)


def test_step_past_the_end_is_clamped_below_one():
    r = compute_reward(Verdict(12, "CE"), WRONG, PAPER)
    assert r.reward == pytest.approx(7 / 8) and r.reward < 1.0 and "clamped" in r.notes[0]


def test_failure_policies():
    bad = Verdict(0, "none", status="parse_error")
    assert step_reward(bad, WRONG, PAPER, on_failure="min_reward") == 0.0
    assert step_reward(bad, WRONG, PAPER, on_failure="skip") is None
    assert step_reward(Verdict(0, "none", status="api_error"), WRONG, PAPER) is None
    with pytest.raises(ValueError):
        step_reward(bad, WRONG, PAPER, on_failure="ignore")


def test_hack_padding_trivial_steps_before_the_error_and_the_min_content_guard():
    padded = dict(SECTIONS, given=SECTIONS["given"] + ["OK."] * 6, find=["Next.", *SECTIONS["find"]])
    text = render(padded)  # the same mistake, now at step 12 of 14
    hacked = step_reward(Verdict(12, "CM"), text, PAPER)
    assert hacked == pytest.approx(12 / 15) and hacked > BASE + 0.15
    guard = RewardConfig(min_step_chars=8)
    assert step_reward(Verdict(12, "CM"), text, guard) == pytest.approx(BASE)
    assert step_reward(ERR, WRONG, guard) == pytest.approx(BASE)  # honest solutions are not touched


def test_hack_duplicating_steps_and_the_duplicate_guard():
    dup = dict(SECTIONS, given=SECTIONS["given"] * 4, find=SECTIONS["find"] * 3)
    text = render(dup)  # 8 givens + 3 finds + 1 concept: the mistake is at step 13 of 15
    hacked = step_reward(Verdict(13, "CM"), text, PAPER)
    assert hacked == pytest.approx(13 / 16) and hacked > BASE + 0.15
    guard = RewardConfig(duplicate_step_penalty=True)
    assert step_reward(Verdict(13, "CM"), text, guard) == pytest.approx(BASE)
    assert step_reward(ERR, WRONG, guard) == pytest.approx(BASE)


def test_hack_stopping_right_after_the_error_and_the_reference_denominator():
    # The policy learns to end the solution at the risky step: the error becomes the last step.
    short = "\n".join(WRONG.splitlines()[:14]).replace("<substitution>", "") + "\n"
    assert short.count("Step ") == 5
    hacked = step_reward(ERR, short, PAPER)
    assert hacked == pytest.approx(5 / 6) and hacked > BASE + 0.15
    guard = RewardConfig(reference_denominator=True)
    assert step_reward(ERR, short, guard, reference_n=7) == pytest.approx(BASE)
    assert "reference_denominator" in compute_reward(ERR, short, guard, reference_n=7).guards
    # without a reference count the guard says so instead of acting silently
    assert compute_reward(ERR, short, guard).notes


def test_hack_endless_steps_and_the_max_steps_guard():
    long = render(dict(SECTIONS, calculation=[f"check {i}: a = 20 kg N" for i in range(40)]))
    hacked = step_reward(Verdict(5, "CM"), long, PAPER)
    guard = RewardConfig(max_steps=20)
    assert step_reward(Verdict(5, "CM"), long, guard) == 0.0 < hacked
    assert step_reward(ERR, WRONG, guard) == pytest.approx(BASE)


def test_outcome_term_makes_a_correct_solution_outrank_any_late_error():
    cfg = RewardConfig(outcome_weight=0.5)
    correct = step_reward(Verdict(0, "none"), WRONG, cfg, final_correct=True)
    # a judge that misses the error but the final answer is wrong: below the correct one
    missed = step_reward(Verdict(0, "none"), WRONG, cfg, final_correct=False)
    late = [step_reward(Verdict(e, "CE"), WRONG, cfg, final_correct=False) for e in range(1, 8)]
    assert correct == 1.0 and missed == 0.5
    assert all(r < correct for r in late) and max(late) < 0.5
    # the paper's reward: a late error (7/8) and a missed error (1.0) crowd the correct solution
    assert step_reward(Verdict(0, "none"), WRONG, PAPER) == 1.0
    assert compute_reward(Verdict(0, "none"), WRONG, cfg).notes  # final_correct unknown: said, not silent


def test_guards_compose_and_batch_form():
    cfg = RewardConfig(min_step_chars=8, duplicate_step_penalty=True, reference_denominator=True, max_steps=30)
    padded = render(dict(SECTIONS, given=SECTIONS["given"] * 2 + ["OK."] * 3))
    e = 5 + 2 + 3  # the mistake moved back by the two repeats and three fillers
    assert step_reward(Verdict(e, "CM"), padded, cfg, reference_n=7) == pytest.approx(BASE)
    out = reward_fn([ERR, Verdict(0, "none"), Verdict(0, "none", status="parse_error")], [WRONG] * 3, PAPER,
                    on_failure="skip")
    assert out == [pytest.approx(BASE), 1.0, None]
