"""The symbolic verifier's final-answer check and the answer scorer give one verdict on a final answer.

Both call `physr3.quantity.answer.judge`; here the same (answer, gold) pairs go through both: the scorer
(`physr3.eval.answers.score`) on the answer text, the verifier on the problem's own ground-truth solution
with only its <final_answer> replaced (every step is right, so the verdict is error-free exactly when
the final answer is judged right). The verifier reads a bare number in the gold's unit, which is the
scorer's `allow_missing_unit=True`; with units both use their defaults.
"""

from __future__ import annotations

import re

import pytest

from physr3.eval.answers import score
from physr3.quantity.answer import judge
from physr3.synth.registry import get_family
from physr3.verify.symbolic import SymbolicVerifier

# (family, answer written by a "model"); the gold is the generated problem's answer
PAIRS = [
    ("newton_second_law_acceleration", "{gold}"),
    ("newton_second_law_acceleration", "a = {gold}"),
    ("newton_second_law_acceleration", "{value} \\mathrm{{m\\,s^{{-2}}}}"),
    ("newton_second_law_acceleration", "{value} m s⁻²"),
    ("newton_second_law_acceleration", "{value_100} cm/s^2"),  # another unit of the same dimension
    ("newton_second_law_acceleration", "{value_half_pct} m/s^2"),  # 0.5% off: within 1%
    ("newton_second_law_acceleration", "{value_2pct} m/s^2"),  # 2% off: wrong
    ("newton_second_law_acceleration", "{value} m/s"),  # wrong dimension
    ("newton_second_law_acceleration", "{value} N"),
    ("newton_second_law_acceleration", "{value}"),  # bare number, read in the gold's unit
    ("newton_second_law_acceleration", "{value_2pct}"),
    ("newton_second_law_acceleration", "the acceleration of the block"),  # no value
    ("decay_chain_max_daughter", "{gold}"),
    ("decay_chain_max_daughter", "{value_60} min"),
    ("decay_chain_max_daughter", "{value_3600} s"),
    ("decay_chain_max_daughter", "{value} m"),
    ("decay_chain_max_daughter", "{value_2pct} h"),
    ("sound_intensity_level", "{gold}"),  # a dimensionless answer: JEEBench's absolute 0.01
    ("sound_intensity_level", "beta = {gold}"),
    ("sound_intensity_level", "{value_plus_005}"),
    ("sound_intensity_level", "{value_plus_02}"),
]


def _answer(template: str, gold: str) -> str:
    value = float(re.match(r"[-\d.e]+", gold).group(0))
    return template.format(gold=gold, value=f"{value:g}", value_100=f"{value * 100:g}", value_60=f"{value * 60:g}",
                           value_3600=f"{value * 3600:g}", value_half_pct=f"{value * 1.005:.6g}",
                           value_2pct=f"{value * 1.02:.6g}", value_plus_005=f"{value + 0.005:.6g}",
                           value_plus_02=f"{value + 0.02:.6g}")


def _with_final(solution: str, answer: str) -> str:
    return re.sub(r"<final_answer>.*?</final_answer>", lambda _m: f"<final_answer>\n{answer}\n</final_answer>",
                  solution, flags=re.S)


@pytest.mark.parametrize("family,template", PAIRS)
def test_verifier_and_scorer_give_one_verdict(family: str, template: str) -> None:
    problem = get_family(family).generate(3)
    assert problem.answer_type in ("numeric", "numeric_unit")
    answer = _answer(template, problem.answer)
    scored = score(problem.answer, answer, problem.answer_type, allow_missing_unit=True)
    verdict = SymbolicVerifier().verify(problem, _with_final(problem.solution, answer))
    assert verdict.ok
    assert (verdict.error_step == 0) == scored.correct, (answer, scored, verdict.explanation)
    assert judge(answer, problem.answer, problem.answer_type, allow_missing_unit=True).correct == scored.correct
    if not scored.correct:  # a wrong or unreadable final answer in an otherwise right solution: CE, at the end
        assert verdict.error_type == "CE"


def test_the_pairs_cover_right_and_wrong_answers() -> None:
    verdicts = set()
    for family, template in PAIRS:
        problem = get_family(family).generate(3)
        answer = _answer(template, problem.answer)
        verdicts.add(score(problem.answer, answer, problem.answer_type, allow_missing_unit=True).reason)
    assert verdicts == {"match", "mismatch", "dimension_mismatch", "no_answer"}


def test_with_units_the_scorers_default_agrees_too() -> None:
    problem = get_family("newton_second_law_acceleration").generate(3)
    for template in ("{gold}", "{value_100} cm/s^2", "{value_2pct} m/s^2", "{value} N"):
        answer = _answer(template, problem.answer)
        verdict = SymbolicVerifier().verify(problem, _with_final(problem.solution, answer))
        assert (verdict.error_step == 0) == score(problem.answer, answer, problem.answer_type).correct, answer
    # the one policy switch: a bare number is `missing_unit` for the scorer's default, read in the gold's unit
    # by the verifier (and by the scorer with allow_missing_unit=True)
    assert score(problem.answer, problem.answer.split()[0], problem.answer_type).reason == "missing_unit"
