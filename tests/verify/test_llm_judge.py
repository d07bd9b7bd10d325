"""The paper's LLM judge, end to end over real HTTP on loopback against `physr3 serve`.

Model-free test doubles stand in for GPT-4o (tests/support/responders.py): `DiffJudgeResponder` answers
the verifier prompt by comparing steps with the ground truth, `ScriptedResponder` replies exactly what a
test needs (odd JSON, out-of-range steps, HTTP failures). One test serves a real tiny random model, whose
garbage must come back as a counted parse_error, never a crash.
"""

import time

import pytest

from physr3.config import Config, VerifierConfig
from physr3.llm.client import ChatClient
from physr3.llm.serve import EngineResponder, OpenAIServer
from physr3.problems import Problem
from physr3.reward import step_reward
from physr3.solution import render_solution
from physr3.verify.llm_judge import VERIFIER_PROMPT, LLMJudge, build_prompt, numbered_by_position
from physr3.verify.registry import build_verifier
from support.responders import DiffJudgeResponder, ScriptedResponder, ScriptRule

SECTIONS = {
    "given": ["m = 2.0 kg", "F = 10 N"],
    "find": ["a, the acceleration"],
    "concept": ["Newton's second law"],
    "governing_equation": ["a = F / m"],
    "substitution": ["a = (10 N) / (2.0 kg)"],
    "calculation": ["a = 5.0 m/s^2"],
}
GT = render_solution(SECTIONS, "5.0 m/s^2")
PROBLEM = Problem(id="p1", question="A 2.0 kg block is pushed by 10 N. Find a.", answer="5.0 m/s^2", solution=GT)


def variant(**changes):
    return render_solution({**SECTIONS, **changes}, "x")


MC = variant(given=["m = 20 kg", "F = 10 N"])                      # step 1
CM = variant(governing_equation=["a = F * m"])                     # step 5
CE = variant(calculation=["a = 50 m/s^2"])                         # step 7


def judge_for(srv, tmp_path=None, cfg=None, **kw):
    cache = tmp_path / "judge.sqlite" if tmp_path is not None else None
    client = ChatClient(model="judge", base_url=srv.url, cache=cache, backoff_base_s=0.01,
                        concurrency=kw.pop("concurrency", 16), max_retries=kw.pop("max_retries", 3))
    return LLMJudge(client, cfg or VerifierConfig(kind="llm"), **kw)


def test_prompt_is_the_papers_listing_1():
    for line in ['You are a physics reasoning evaluator. Identify and explain',
                 '- "Problem Miscomprehension": misreading given values or',
                 '- "Computational Error": arithmetic, calculus, or algebraic',
                 '  "error_type": "no_error",', '  "error_explanation": "No error in your solution."',
                 'Ground Truth CoT: {cot_solution}', 'LLM Generated Solution: {error_solution}']:
        assert line in VERIFIER_PROMPT.splitlines()
    prompt = build_prompt("Q {cot_solution}?", "GT", "SOL {question}")
    assert "Question: Q {cot_solution}?\nGround Truth CoT: GT\nLLM Generated Solution: SOL {question}\n" in prompt


def test_finds_the_first_error_and_its_type_over_http(tmp_path):
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        judge = judge_for(srv, tmp_path)
        verdicts = judge.verify_batch([(PROBLEM, s) for s in (MC, CM, CE, GT)])
        single = judge.verify(PROBLEM, CE)
    got = [(v.status, v.error_step, v.error_type) for v in verdicts]
    assert got == [("ok", 1, "MC"), ("ok", 5, "CM"), ("ok", 7, "CE"), ("ok", 0, "none")]
    assert "50 m/s^2" in verdicts[2].explanation and single.details["cached"] is True
    assert [step_reward(v, s) for v, s in zip(verdicts, (MC, CM, CE, GT))] == [1 / 8, 5 / 8, 7 / 8, 1.0]
    c = judge.counters()
    assert (c["verdicts"], c["calls"], c["cache_hits"], c["parse_failures"]) == (5, 4, 1, 0)
    assert "4 calls, 1 cache hits, 0 retries" in judge.report()


def _restarted_per_section(solution: str) -> str:
    """The solution as a small model often numbers it: `Step 1:` again at the start of every section."""
    out, k = [], 0
    for line in solution.splitlines():
        if line.startswith("<") and not line.startswith("</"):
            k = 0
        if line.startswith("Step "):
            k += 1
            line = f"Step {k}:" + line.split(":", 1)[1]
        out.append(line)
    return "\n".join(out)


def test_numbered_by_position_renumbers_only_solutions_not_numbered_1_to_n():
    assert numbered_by_position(CM) == CM  # written 1..n: verbatim
    restarted = _restarted_per_section(CM)
    assert restarted != CM and numbered_by_position(restarted) == CM
    assert numbered_by_position("Step 1: a\n## Step 1: b\n  Step 9 : c") == "Step 1: a\n## Step 2: b\n  Step 3 : c"


@pytest.mark.parametrize("numbers, expected_step", [("position", 5), ("as_written", 1)])
def test_a_judge_answers_in_the_numbers_it_is_shown(numbers, expected_step):
    # The responder, like a chat model, answers with the `Step k` number it reads; numbered by position, that
    # number is the position the reward counts (5: the wrong equation), as written it is the section's first.
    restarted = _restarted_per_section(CM)
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        verdict = judge_for(srv, cfg=VerifierConfig(kind="llm", judge_step_numbers=numbers)).verify(PROBLEM, restarted)
    assert (verdict.status, verdict.error_step, verdict.error_type) == ("ok", expected_step, "CM")


def test_batch_runs_concurrently_and_a_rerun_costs_no_calls(tmp_path):
    items = [(PROBLEM, variant(calculation=[f"a = {i} m/s^2"])) for i in range(16)]
    with OpenAIServer(DiffJudgeResponder(), port=0, delay_s=0.25) as srv:
        judge = judge_for(srv, tmp_path, concurrency=16)
        t0 = time.perf_counter()
        first = judge.verify_batch(items)
        elapsed = time.perf_counter() - t0
        judge.close()
        again = judge_for(srv, tmp_path)
        second = again.verify_batch(items)
        assert srv.requests == 16
    assert elapsed < 1.5  # sixteen 0.25 s calls side by side (in a row: 4 s)
    assert [v.to_json() | {"details": None} for v in first] == [v.to_json() | {"details": None} for v in second]
    assert again.counters()["calls"] == 0 and again.counters()["cache_hits"] == 16


@pytest.mark.parametrize("policy,expected", [
    ("clamp", ("ok", 7, "CE")), ("reject", ("parse_error", 0, "none")), ("keep_counted", ("ok", 99, "CE"))])
def test_out_of_range_step_is_counted_and_handled_per_policy(policy, expected):
    reply = '{"error_step": 99, "error_type": "Computational Error", "error_explanation": "x"}'
    with OpenAIServer(ScriptedResponder([ScriptRule(reply=reply)]), port=0) as srv:
        judge = judge_for(srv, cfg=VerifierConfig(kind="llm", on_step_out_of_range=policy))
        verdict = judge.verify(PROBLEM, CE)
    assert (verdict.status, verdict.error_step, verdict.error_type) == expected
    assert judge.counters()["out_of_range_steps"] == 1
    assert verdict.details["out_of_range"] == {"judge_step": 99, "n_steps": 7, "policy": policy}
    assert step_reward(verdict, CE) < 1.0  # an error never scores like an error-free solution


def test_messy_replies_are_parsed_and_unusable_ones_become_counted_parse_errors():
    rules = [
        ScriptRule(match="m = 20 kg", reply="Sure!\n```json\n{'error_step': 1, 'error_type': "
                                             "'Problem Miscomprehension', 'error_explanation': 'mass misread',}\n```"),
        ScriptRule(match="a = F * m", reply='{"error_step": 5, "error_type": "?", "error_explanation": "x"}'),
        ScriptRule(match="a = 50", reply="I am not sure what you want me to do."),
        ScriptRule(match="5.0 m/s^2\n</final_answer>", reply='{"error_step": 0, "error_type": "CE"}'),
    ]
    with OpenAIServer(ScriptedResponder(rules), port=0) as srv:
        judge = judge_for(srv)
        mc, cm, ce, gt = judge.verify_batch([(PROBLEM, s) for s in (MC, CM, CE, GT)])
    assert (mc.error_step, mc.error_type, mc.explanation) == (1, "MC", "mass misread")
    assert (cm.error_step, cm.error_type) == (5, "CM") and cm.details["type_inferred"] == "from <governing_equation>"
    assert ce.status == "parse_error" and ce.raw == "I am not sure what you want me to do."
    assert (gt.status, gt.error_step) == ("ok", 0) and "inconsistent" in gt.details
    assert step_reward(ce, CE, on_failure="min_reward") == 0.0 and step_reward(ce, CE, on_failure="skip") is None
    c = judge.counters()
    assert (c["parse_failures"], c["type_inferred"], c["inconsistent"]) == (1, 1, 1)


def test_api_failures_become_api_error_verdicts_not_exceptions():
    rules = [ScriptRule(match="m = 20 kg", reply="x", fail=[401]),
             ScriptRule(reply='{"error_step": 0, "error_type": "no_error"}', fail=[429, 503])]
    with OpenAIServer(ScriptedResponder(rules), port=0) as srv:
        judge = judge_for(srv, max_retries=3)
        bad, good = judge.verify_batch([(PROBLEM, MC), (PROBLEM, GT)])
    assert bad.status == "api_error" and bad.details["http_status"] == 401
    assert good.ok and good.error_step == 0
    assert step_reward(bad, MC) is None
    c = judge.counters()
    assert (c["api_errors"], c["retries"], c["calls"]) == (1, 2, 4)


def test_gpt4o_by_configuration_alone_and_the_registry(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    cfg = Config()
    cfg.verifier.cache_path = str(tmp_path / "c.sqlite")
    judge = build_verifier("llm", cfg)
    assert isinstance(judge, LLMJudge) and judge.client.model == "gpt-4o"
    assert judge.client.endpoint == "https://api.openai.com/v1" and judge.client.max_retries == 5
    with pytest.raises(ValueError, match="no ground-truth"):
        judge.verify_batch([(Problem(id="x", question="q", answer="1"), GT)])


def test_a_real_tiny_model_served_gives_counted_parse_errors(tiny_model):
    from physr3.models.engine import TransformersEngine

    model, tokenizer = tiny_model
    with OpenAIServer(EngineResponder(TransformersEngine(model, tokenizer)), port=0) as srv:
        judge = judge_for(srv, max_tokens=12)
        verdicts = judge.verify_batch([(PROBLEM, CE), (PROBLEM, GT)])
    assert [v.status for v in verdicts] == ["parse_error", "parse_error"]
    assert all(isinstance(v.raw, str) for v in verdicts)
    c = judge.counters()
    assert (c["calls"], c["parse_failures"]) == (2, 2) and c["completion_tokens"] > 0
    assert [step_reward(v, CE) for v in verdicts] == [0.0, 0.0]
