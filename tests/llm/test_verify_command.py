"""`physr3 verify --verifier llm` end to end: a judge served on loopback (the DiffJudgeResponder test double),
output keys, rewards, counters, resume, a rerun with zero judge calls, and clear input errors."""

import json

import pytest

from physr3.cli import main
from physr3.llm.serve import OpenAIServer
from physr3.solution import render_solution
from physr3.verify.registry import available_verifiers, register_verifier
from support.responders import DiffJudgeResponder

SECTIONS = {
    "given": ["m = 2.0 kg", "F = 10 N"], "find": ["a"], "concept": ["Newton's second law"],
    "governing_equation": ["a = F / m"], "substitution": ["a = 10 / 2.0"], "calculation": ["a = 5.0 m/s^2"],
}
GT = render_solution(SECTIONS, "5.0 m/s^2")
CE = render_solution({**SECTIONS, "calculation": ["a = 50 m/s^2"]}, "50 m/s^2")
CM = render_solution({**SECTIONS, "governing_equation": ["a = F * m"]}, "20")


def rows():
    base = {"question": "Find a.", "answer": "5.0 m/s^2", "domain": "Mechanics", "family": "newton"}
    return [
        {**base, "id": "a", "solution": CE, "ground_truth_solution": GT, "label_error_step": 7, "label_error_type": "CE"},
        {**base, "id": "b", "solution": CM, "reference_solution": GT, "label_error_step": 5, "label_error_type": "CM"},
        {**base, "id": "c", "solution": GT, "ground_truth": {"solution_text": GT}, "label_error_step": 0,
         "label_error_type": "none"},
    ]


def write(path, items):
    path.write_text("".join(json.dumps(r) + "\n" for r in items))
    return str(path)


@pytest.fixture
def judge_url():
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        yield srv


def run_verify(inp, out, srv, tmp_path, *extra):
    return main(["verify", "--input", inp, "--out", str(out), "--verifier", "llm", "--judge-base-url", srv.url,
                 "--judge-model", "stand-in", "--cache", str(tmp_path / "judge.sqlite"), *extra])


def test_verify_llm_writes_verdicts_rewards_and_counters(tmp_path, judge_url, capsys):
    inp, out = write(tmp_path / "in.jsonl", rows()), tmp_path / "out.jsonl"
    assert run_verify(inp, out, judge_url, tmp_path) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [set(x) for x in lines] == [{"id", "error_step", "error_type", "explanation", "reward", "status",
                                        "label_error_step", "label_error_type"}] * 3
    assert [(x["id"], x["error_step"], x["error_type"], x["status"]) for x in lines] == [
        ("a", 7, "CE", "ok"), ("b", 5, "CM", "ok"), ("c", 0, "none", "ok")]
    assert [x["reward"] for x in lines] == [7 / 8, 5 / 8, 1.0]
    err = capsys.readouterr().err
    assert "3 verified" in err and "step exact 100.0%" in err and "3 calls, 0 cache hits" in err

    # resume: nothing left to do
    assert run_verify(inp, out, judge_url, tmp_path) == 0
    assert "0 verified, 3 already in" in capsys.readouterr().err
    # a fresh output over the same inputs: every verdict from the cache, zero judge calls
    out2 = tmp_path / "out2.jsonl"
    assert run_verify(inp, out2, judge_url, tmp_path) == 0
    assert "0 calls, 3 cache hits" in capsys.readouterr().err
    assert out2.read_text() == out.read_text() and judge_url.requests == 3


def test_resume_after_a_partial_run(tmp_path, judge_url, capsys):
    inp, out = write(tmp_path / "in.jsonl", rows()), tmp_path / "out.jsonl"
    assert run_verify(inp, out, judge_url, tmp_path, "--limit", "1") == 0
    assert run_verify(inp, out, judge_url, tmp_path, "--no-cache") == 0
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a", "b", "c"]
    assert "2 verified, 1 already in" in capsys.readouterr().err


def test_input_errors_name_file_and_line(tmp_path, judge_url, capsys):
    no_gt = rows()[:1] + [{"id": "z", "question": "q", "solution": CE}]
    assert run_verify(write(tmp_path / "a.jsonl", no_gt), tmp_path / "o.jsonl", judge_url, tmp_path) == 2
    assert "a.jsonl:2" in capsys.readouterr().err
    dup = rows()[:1] * 2
    assert run_verify(write(tmp_path / "b.jsonl", dup), tmp_path / "o.jsonl", judge_url, tmp_path) == 2
    assert "duplicate id" in capsys.readouterr().err
    assert main(["verify", "--input", write(tmp_path / "c.jsonl", rows()), "--out", str(tmp_path / "o.jsonl"),
                 "--verifier", "oracle"]) == 2
    # verifier.kind has no fixed choices (users register their own): the registry names the valid ones
    assert "unknown verifier 'oracle'; valid: hybrid, llm, symbolic" in capsys.readouterr().err


def test_registry_refuses_duplicates_and_lists_names():
    assert {"llm", "symbolic"} <= set(available_verifiers())
    from physr3.verify.llm_judge import LLMJudge

    assert register_verifier("llm")(LLMJudge) is LLMJudge  # re-registering the same factory is harmless
    with pytest.raises(ValueError, match="already registered"):
        register_verifier("llm")(lambda cfg: None)
