"""One meaning per function name across the verifier's math reader and the CE code channel (log is ln in both).

`log` is the natural logarithm everywhere (as sympy, which writes the ground truth's equations, reads it);
base 10 is written `log10`. The same written step must come out the same through both readers.
"""

from __future__ import annotations

import math

import pytest

from physr3 import quantity as mp
from physr3.feedback import code as cc
from physr3.feedback.sandbox import run_code
from physr3.quantity import arith as ex
from physr3.solution import parse_solution, render_solution


def _verifier_value(text: str) -> float:
    return mp.evaluate(mp.parse_full(text, mp.Names({})), {})


def _code_channel_value(text: str) -> float:
    return float(ex.evaluate(ex.parse(text), {}).to("").magnitude)


@pytest.mark.parametrize("text", ["log(100)", "ln(100)", "log10(100)", "2*log(8)", "exp(log(3))"])
def test_the_same_expression_reads_the_same_through_both_readers(text):
    assert _code_channel_value(text) == pytest.approx(_verifier_value(text), rel=1e-12)


def test_every_shared_function_name_has_one_meaning():
    shared = (set(mp.FUNCTIONS) & set(ex.FUNCTIONS)) - {"sqrt", "abs"}
    assert {"log", "ln", "log10", "exp", "sin"} <= shared
    for name in sorted(shared):
        text = f"{name}(0.5)"
        assert _code_channel_value(text) == pytest.approx(_verifier_value(text), rel=1e-12), name


def test_a_step_with_log_recomputes_in_the_sandbox_as_the_verifier_reads_it():
    """The same step, read by the verifier and recomputed by the code channel's generated, executed code."""
    text = render_solution({"given": ["N0 = 100 (initial count)"], "find": ["x"], "concept": ["logarithm"],
                            "governing_equation": ["x = log(N0)"], "substitution": ["x = log(100)"],
                            "calculation": ["x = 2"]}, "2")
    plan = cc.plan_from_text(parse_solution(text), 6)
    result = cc.run_plan(plan, lambda code, t: run_code(code, timeout_s=t), 5.0)
    assert result.ok
    assert result.value == pytest.approx(_verifier_value("log(100)"), rel=1e-4)
    assert result.value == pytest.approx(math.log(100), rel=1e-4)
