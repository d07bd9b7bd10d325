"""The CE channel: safe parsing of step arithmetic, code from text / ground truth / a model, run in the sandbox."""

from __future__ import annotations

import math

import pytest

from physr3.feedback import code as cc
from physr3.feedback.sandbox import run_code
from physr3.quantity import arith as ex
from physr3.solution import parse_solution, render_solution


def runner(code, timeout_s):
    return run_code(code, timeout_s=timeout_s)


def solution(calc: str = "a = 6.0 m/s^2") -> str:
    return render_solution({"given": ["m = 2.0 kg (mass of the block)", "F = 10 N (horizontal force)"],
                            "find": ["a, the acceleration of the block"], "concept": ["Newton's second law"],
                            "governing_equation": ["a = F / m"], "substitution": ["a = (10 N) / (2.0 kg)"],
                            "calculation": [calc]}, calc.split("=")[-1].strip())


def test_text_route_recomputes_a_bare_result_from_the_substitution_and_names_the_slip():
    parsed = parse_solution(solution())
    plan = cc.plan_from_text(parsed, 7)
    assert plan.source == "text" and plan.unit == "m/s^2" and plan.symbol == "a"
    assert math.isclose(plan.expected, 5.0) and plan.written == 6.0
    result = cc.run_plan(plan, runner, 5.0)
    assert result.ok and result.output == "a = 5 m/s^2" and result.value == 5.0
    assert "arithmetic error" in cc.describe_slip(plan.written, result.value)


def test_text_route_uses_earlier_steps_as_variables():
    text = render_solution({"given": ["m = 2.0 kg", "g = 9.8 m/s^2"], "find": ["W"], "concept": ["weight"],
                            "governing_equation": ["W = m*g"], "substitution": ["W = m * g"],
                            "calculation": ["W = 20 N"]}, "20 N")
    plan = cc.plan_from_text(parse_solution(text), 7)
    assert math.isclose(plan.expected, 19.6) and plan.unit == "N" and "m = 2.0" in plan.code
    assert cc.run_plan(plan, runner, 5.0).value == 19.6


def test_text_route_refuses_a_step_without_arithmetic():
    with pytest.raises(ex.ExprError):
        cc.plan_from_text(parse_solution(solution()), 4)  # "Newton's second law"


def test_ground_truth_route_recomputes_through_the_equations():
    from physr3.synth import get_family

    problem = get_family("atwood_tension").generate(1)
    calc = next(s for s in problem.ground_truth["steps"] if s["kind"] == "calculation" and s["symbol"] == "T")
    slipped = problem.solution.replace(f"Step {calc['number']}: {calc['text']}", f"Step {calc['number']}: T = 99.9 N")
    plan = cc.plan_from_ground_truth(problem, parse_solution(slipped), calc["number"])
    assert plan.source == "ground_truth" and plan.unit == "N" and plan.written == 99.9
    result = cc.run_plan(plan, runner, 5.0)
    assert result.ok and math.isclose(result.value, calc["value"], rel_tol=1e-5)
    assert "host_value_disagrees" not in result.details


def test_ground_truth_expressions_must_be_plain_srepr():
    assert cc._safe_srepr("Mul(Symbol('g'), Pow(Symbol('m'), Integer(-1)))")
    assert not cc._safe_srepr("__import__('os').system('x')")
    assert not cc._safe_srepr("Symbol('a').__class__")
    assert not cc._safe_srepr("Symbol('a; import os')")


def test_model_route_extracts_and_runs_the_code_block():
    seen = []

    def chat(messages):
        seen.append(messages[0]["content"])
        return "Here:\n```python\nprint('a =', 10 / 2.0, 'm/s^2')\n```"

    plan = cc.plan_from_model(chat, "A 2 kg block ...", solution(), 7, "10/2 is 5, not 6")
    assert plan.source == "model" and "Step 7" in seen[0] and "10/2 is 5" in seen[0]
    result = cc.run_plan(plan, runner, 5.0)
    assert result.ok and result.value == 5.0


def test_a_failing_program_is_reported_not_raised():
    plan = cc.CodePlan(1, "model", "raise SystemExit(3)\n")
    result = cc.run_plan(plan, runner, 5.0)
    assert not result.ok and result.details["exit_code"] == 3


@pytest.mark.parametrize("written,correct,word", [(5.01, 5.0, "rounding"), (-5.0, 5.0, "sign"), (50.0, 5.0, "power-of-ten"),
                                                   (10.0, 5.0, "factor of 2"), (25.0, 5.0, "square"),
                                                   (6.0, 5.0, "+20%")])
def test_describe_slip(written, correct, word):
    assert word in cc.describe_slip(written, correct)


def test_describe_slip_is_relative_for_tiny_values():
    assert "rounding" not in cc.describe_slip(1.21e-23, 1.706e-23)
    assert "rounding" in cc.describe_slip(1.705e-23, 1.706e-23)
