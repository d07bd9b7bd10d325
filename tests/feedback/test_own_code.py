"""physr3's own CE programs run in-process; only model-written code goes to the sandbox.

The before/after comparison runs the old path for real: a router whose own programs also go through the
sandbox (`own_runner=run_code`), against the default router, on generated problems with injected CE errors.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from physr3.config import Config
from physr3.feedback import code as cc
from physr3.feedback.own_code import check_arithmetic, run_own_code
from physr3.feedback.router import FeedbackRouter
from physr3.feedback.sandbox import run_code
from physr3.problems import Problem
from physr3.solution import parse_solution, render_solution
from physr3.synth.generate import generate_problems
from physr3.synth.inject import inject_problems
from physr3.verify.base import Verdict


class CountingSandbox:
    """The real sandbox, counting its runs."""

    def __init__(self):
        self.codes: list[str] = []

    def __call__(self, code, timeout_s):
        self.codes.append(code)
        return run_code(code, timeout_s=timeout_s)


def _ce_cases(n: int = 5):
    from physr3.verify.registry import build_verifier

    rows = [r for r in inject_problems(generate_problems(60, 3, split="train"), 3, 0.0, types=("CE",))][:n]
    verifier = build_verifier("symbolic", Config())
    return [(Problem.from_json(r), r["solution"], verifier.verify(Problem.from_json(r), r["solution"])) for r in rows]


def test_feedback_text_is_the_same_as_through_the_sandbox():
    cases = _ce_cases()
    assert len(cases) == 5 and all(v.error_type == "CE" and v.error_step > 0 for _, _, v in cases)
    sandbox = CountingSandbox()
    new = FeedbackRouter(retriever=object(), runner=sandbox)
    old = FeedbackRouter(retriever=object(), runner=run_code_runner, own_runner=run_code_runner)
    executed = []
    for problem, solution, verdict in cases:
        for given in (problem, problem.question):  # ground-truth route, then the text route
            before, after = old(given, solution, verdict), new(given, solution, verdict)
            assert after.text == before.text and after.code_output == before.code_output
            assert after.details.get("correct_value") == before.details.get("correct_value")
            executed += [after.details["source"]] if after.code_output else []
    assert executed.count("ground_truth") == 5 and executed.count("text") >= 2, executed
    assert sandbox.codes == []  # no model: no process started


def run_code_runner(code, timeout_s):
    return run_code(code, timeout_s=timeout_s)


def test_model_written_code_still_runs_in_the_sandbox():
    sandbox = CountingSandbox()
    reply = "```python\nimport os\nprint('a =', 10 / 2.0, 'm/s^2', os.getpid() > 0)\n```"
    router = FeedbackRouter(retriever=object(), runner=sandbox, chat=lambda messages: reply)
    solution = render_solution({"given": ["m = 2.0 kg", "F = 10 N"], "find": ["a"], "concept": ["Newton"],
                                "governing_equation": ["a = F / m"], "substitution": ["a = (10 N) / (2.0 kg)"],
                                "calculation": ["a = 6.0 m/s^2"]}, "6.0 m/s^2")
    fb = router("A 2 kg block is pushed by 10 N.", solution, Verdict(7, "CE", "10/2 is 5"))
    assert len(sandbox.codes) == 1 and "import os" in sandbox.codes[0]
    assert fb.details["source"] == "model" and fb.code_output == "a = 5.0 m/s^2 True"


def test_own_programs_pass_the_arithmetic_check():
    plans = []
    for problem, solution, verdict in _ce_cases():
        plans.append(cc.plan_from_ground_truth(problem, parse_solution(solution), verdict.error_step))
        try:
            plans.append(cc.plan_from_text(parse_solution(solution), verdict.error_step))
        except cc.ex.ExprError:  # not every step's text is readable arithmetic
            pass
    assert len(plans) >= 7
    for plan in plans:
        check_arithmetic(plan.code)
        result = cc.run_plan(plan, run_own_code, 5.0)
        assert result.ok and "host_value_disagrees" not in result.details


@pytest.mark.parametrize("code", [
    "import os\nprint(os.getcwd())",
    "__import__('os').system('true')",
    "x = (1).__class__\nprint(x)",
    "x = math.__dict__\nprint(x)",
    "x = math.sqrt.__self__\nprint(x)",
    "print(open('f', 'w'))",
    "x = [1][0]\nprint(x)",
    "x = 1 if True else 2\nprint(x)",
    "for i in (1, 2):\n    print(i)",
    "print(f'{1!r}')",
    "x = 1.5\nprint(f'{x:999999999}')",
    "x = math.factorial(10)\nprint(x)",
    "print = 3",
    "x = 2\n# a comment\ndef f():\n    return 1\nprint(f())",
    "x = lambda: 1\nprint(x())",
    "x = 1\nprint(x, file=None)",
    "x = " + "(" * 5000 + "1" + ")" * 5000 + "\nprint(x)",
    "x = " + " + ".join(["1"] * 5000) + "\nprint(x)",
])
def test_anything_but_arithmetic_is_refused_and_not_run(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_own_code(code)
    assert result.stopped_by == "refused" and result.exit_code is None and result.stdout == ""
    assert not Path("f").exists()


def test_text_in_a_comment_cannot_add_a_statement(tmp_path, monkeypatch):
    """A ground-truth description with a newline ends the comment that quotes it; the new line is refused."""
    monkeypatch.chdir(tmp_path)
    from physr3.synth import get_family

    problem = get_family("atwood_tension").generate(1)
    steps = problem.ground_truth["steps"]
    for given in (s for s in steps if s["kind"] == "given"):
        given["description"] = "mass\nopen('f', 'w').write('x')"
    calc = next(s for s in steps if s["kind"] == "calculation")
    plan = cc.plan_from_ground_truth(problem, parse_solution(problem.solution), calc["number"])
    assert "\nopen('f', 'w')" in plan.code
    result = cc.run_plan(plan, run_own_code, 5.0)
    assert not result.ok and result.details["stopped_by"] == "refused" and not Path("f").exists()


def test_errors_are_reported_like_the_sandbox_and_big_powers_overflow_at_once():
    assert run_own_code("x = 1 / 0\nprint(x)").exit_code == 1
    start = time.perf_counter()
    result = run_own_code("x = 2 ** 10 ** 10\nprint(x)")  # OverflowError, not a 10^10-bit integer
    assert result.exit_code == 1 and "OverflowError" in result.stderr and time.perf_counter() - start < 1.0
    squaring = "x = 2 ** 4000\n" + "x = x * x\n" * 40 + "print(x)"  # would be 4000 * 2^40 bits
    result = run_own_code(squaring)
    assert result.exit_code == 1 and "OverflowError" in result.stderr and time.perf_counter() - start < 1.0
    assert run_own_code("x = 3 ** 5 * 7\nprint(x)").stdout == "1701\n"  # small integers stay exact
    plan = cc.CodePlan(1, "text", "import math\nx = math.sqrt(-1)\nprint(f'x = {x:.6g}')\n")
    assert not cc.run_plan(plan, run_own_code, 5.0).ok


def test_output_matches_the_sandbox_for_each_allowed_form():
    code = ("import math\nu_kg = 1.0  # kg\nv = -(2 ** 3) / 4 + abs(-1.5) * math.pi - math.log(2.0)\n"
            "w = math.sqrt(v ** 2)\nprint(f\"w = {w / 1.0:.6g} m\")\nprint('raw', v, 7)\n")
    mine, theirs = run_own_code(code), run_code(code, timeout_s=5.0)
    assert theirs.exit_code == 0 and mine.exit_code == 0 and mine.stdout == theirs.stdout
