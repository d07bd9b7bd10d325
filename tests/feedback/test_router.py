"""The feedback router: one channel per error type, JSON-serialisable parts, and the `physr3 feedback` command."""

from __future__ import annotations

import json

import pytest

from physr3.cli import main as cli_main
from physr3.feedback.router import NO_ERROR_TEXT, Feedback, FeedbackRouter
from physr3.feedback.sandbox import run_code
from physr3.problems import Problem
from physr3.solution import render_solution
from physr3.verify.base import Verdict

QUESTION = "A block of mass 2.0 kg on a frictionless floor is pushed by a horizontal force of 10 N. Find its acceleration."
SOLUTION = render_solution({"given": ["m = 2.0 kg (mass of the block)", "F = 10 N (horizontal force)"],
                            "find": ["a, the acceleration of the block"], "concept": ["Conservation of energy"],
                            "governing_equation": ["a = F / m"], "substitution": ["a = (10 N) / (2.0 kg)"],
                            "calculation": ["a = 6.0 m/s^2"]}, "6.0 m/s^2")


class FakeRetriever:
    def __init__(self):
        self.calls = []

    def search_error(self, question, step_text, explanation, k=None, context=""):
        self.calls.append((question, step_text, explanation))
        return [{"id": "eq0075", "name": "Newton’s second law, scalar form", "latex": "F_{net}=ma",
                 "source": "UP1 ch5 Newton's Laws of Motion", "text": "...", "score": 0.7, "rank": 0}]


@pytest.fixture
def router():
    return FeedbackRouter(retriever=FakeRetriever(), runner=lambda code, t: run_code(code, timeout_s=t))


def test_no_error(router):
    fb = router(QUESTION, SOLUTION, Verdict(0, "none"))
    assert fb.text == NO_ERROR_TEXT and fb.channel == "none"


def test_unusable_verdict_is_never_no_error(router):
    fb = router(QUESTION, SOLUTION, Verdict(0, "none", status="parse_error"))
    assert fb.channel == "unchecked" and fb.text != NO_ERROR_TEXT


def test_mc_gets_statement_feedback_naming_step_and_condition(router):
    fb = router(QUESTION, SOLUTION, Verdict(2, "MC", "The force is 10 N horizontal, not at an angle."))
    assert fb.channel == "statement" and fb.step == 2
    assert "Step 2" in fb.text and "not at an angle" in fb.text and "horizontal force of 10 N" in fb.text


def test_cm_gets_retrieved_formulas(router):
    fb = router(QUESTION, SOLUTION, Verdict(4, "CM", "Energy conservation does not give a; use Newton's second law."))
    assert fb.channel == "retrieval" and fb.retrieved[0]["name"].startswith("Newton")
    assert router.retriever.calls == [(QUESTION, "Conservation of energy",
                                       "Energy conservation does not give a; use Newton's second law.")]
    assert "F_{net}=ma" in fb.text and "Step 4" in fb.text


def test_ce_gets_executed_code_with_the_correct_value(router):
    fb = router(QUESTION, SOLUTION, Verdict(7, "CE", "10/2 is not 6."))
    assert fb.channel == "code" and fb.code and fb.code_output == "a = 5 m/s^2"
    assert fb.details["correct_value"] == 5.0 and fb.details["written_value"] == 6.0
    assert "The correct value is a = 5.000 m/s^2; you wrote 6 m/s^2" in fb.text


def test_ce_without_recomputable_arithmetic_still_gives_feedback(router):
    fb = router(QUESTION, SOLUTION, Verdict(3, "CE", "wrong"))  # a <find> step: nothing to compute
    assert fb.channel == "code" and fb.code is None and "Redo the computation of Step 3" in fb.text
    assert fb.details["code_routes_failed"]


def test_a_step_without_type_is_routed_by_its_section(router):
    assert router(QUESTION, SOLUTION, Verdict(1, "none")).channel == "statement"
    assert router(QUESTION, SOLUTION, Verdict(5, "none")).channel == "retrieval"


def test_feedback_is_json_serialisable_and_accepts_problems(router):
    problem = Problem(id="p", question=QUESTION, answer="5.0 m/s^2")
    fb = router(problem, SOLUTION, Verdict(7, "CE", "slip"))
    assert isinstance(fb, Feedback)
    assert json.loads(json.dumps(fb.to_json()))["channel"] == "code"


def test_feedback_command_adds_the_feedback_fields(tmp_path, capsys):
    rows = [{"id": 1, "question": QUESTION, "solution": SOLUTION, "error_step": 7, "error_type": "Calculation Error",
             "explanation": "10/2 is 5"},
            {"id": 2, "question": QUESTION, "solution": SOLUTION, "verdict": {"error_step": 2, "error_type": "MC",
                                                                             "explanation": "misread F"}},
            {"id": 3, "question": QUESTION, "solution": SOLUTION, "error_step": 0, "error_type": "none"}]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cli_main(["feedback", "--input", str(src), "--out", str(out)]) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["feedback_channel"] for g in got] == ["code", "statement", "none"]
    assert got[0]["code_output"] == "a = 5 m/s^2" and got[2]["feedback"] == NO_ERROR_TEXT
    assert {"feedback", "feedback_step", "retrieved", "code", "feedback_details"} <= set(got[1])
    assert "3 records" in capsys.readouterr().err


def test_feedback_command_names_a_bad_record(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"question": "q", "solution": "s", "error_type": "CE"}) + "\n")
    assert cli_main(["feedback", "--input", str(src), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "in.jsonl:1: field 'error_step'" in capsys.readouterr().err
