"""`verifier.kind=hybrid`: a hard symbolic finding is kept, everything else goes to the judge over real HTTP.

The judge is `physr3 serve` on loopback with `DiffJudgeResponder` (tests/support/responders.py), a model-free
stand-in for GPT-4o whose verdict is the first step that differs from the ground truth's: a real judge cannot
be told what to answer, and the routing is what is tested here. The problem is the generator's atwood_tension
seed 0 (m1 = 7.31 kg, answer B), so the symbolic verifier runs on its real step-level ground truth.
"""

import json

import pytest

from physr3.config import load_config
from physr3.llm.client import ChatClient
from physr3.llm.serve import OpenAIServer
from physr3.problems import Problem
from physr3.synth.registry import get_family
from physr3.verify.hybrid import HybridVerifier, keeps_symbolic
from physr3.verify.llm_judge import LLMJudge
from physr3.verify.registry import build_verifier
from physr3.verify.runner import run_verify
from physr3.verify.symbolic import SymbolicVerifier
from support.responders import DiffJudgeResponder
from support.step_edits import replace_step

WRONG_PRINCIPLE = "Conservation of momentum: the total momentum of the two blocks stays the same"


@pytest.fixture(scope="module")
def atwood() -> Problem:
    return get_family("atwood_tension").generate(0)


def cases(problem: Problem) -> dict[str, str]:
    gt = problem.solution
    return {
        "correct": gt,  # no finding: the judge decides
        "wrong_given": replace_step(gt, 1, "m1 = 73.1 kg (mass of the heavier block)"),  # hard: kept
        # a reading finding on a solution whose answer is wrong: the symbolic verifier is unsure, the judge decides
        "wrong_principle": replace_step(gt, 5, WRONG_PRINCIPLE).replace("<final_answer>\nB", "<final_answer>\nA"),
    }


def hybrid_over(srv, tmp_path) -> HybridVerifier:
    cfg = load_config(None, ["verifier.kind=hybrid", f"verifier.judge_base_url={srv.url}"])
    client = ChatClient(model="judge", base_url=srv.url, cache=tmp_path / "judge.sqlite", backoff_base_s=0.01)
    return build_verifier("hybrid", cfg, client=client)


def test_a_hard_finding_is_kept_and_the_rest_go_to_the_judge(atwood, tmp_path):
    items = [(atwood, text) for text in cases(atwood).values()]
    symbolic = SymbolicVerifier(unchecked="error").verify_batch(items)
    assert [keeps_symbolic(v) for v in symbolic] == [False, True, False]
    assert symbolic[2].details.get("check") == "principle"  # a reading check: the kind the hybrid does not trust
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        hybrid = hybrid_over(srv, tmp_path)
        verdicts = hybrid.verify_batch(items)
        assert srv.requests == 2  # the wrong given never reached the judge
    got = [(v.error_step, v.error_type, v.details["hybrid"]) for v in verdicts]
    assert got == [(0, "none", "judge"), (1, "MC", "symbolic"), (5, "CM", "judge")]
    assert verdicts[2].details["symbolic"] == {"error_step": 5, "error_type": "CM", "status": "ok",
                                               "check": "principle"}
    c = hybrid.counters()
    assert (c["verdicts"], c["kept_symbolic"], c["sent_to_judge"], c["judge_calls"]) == (3, 1, 2, 2)
    assert "3 verdicts, 1 kept from the symbolic verifier, 2 sent to the judge (67%)" in hybrid.report()
    hybrid.close()


def test_without_step_level_ground_truth_the_judge_decides_and_without_any_it_refuses(atwood, tmp_path):
    text_only = Problem(id="t1", question=atwood.question, answer=atwood.answer, options=atwood.options,
                        solution=atwood.solution)  # no physr3.synth.gt/1 record: the symbolic verifier cannot check
    bare = Problem(id="t2", question=atwood.question, answer=atwood.answer, options=atwood.options)
    wrong_given = cases(atwood)["wrong_given"]
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        hybrid = hybrid_over(srv, tmp_path)
        verdict = hybrid.verify(text_only, wrong_given)
        with pytest.raises(ValueError, match="t2: the symbolic verifier is unsure"):
            hybrid.verify_batch([(atwood, atwood.solution), (bare, wrong_given)])
        assert srv.requests == 1  # the refused batch made no call
    assert (verdict.error_step, verdict.error_type, verdict.details["hybrid"]) == (1, "MC", "judge")
    assert verdict.details["symbolic"]["status"] == "parse_error"


def test_physr3_verify_with_the_hybrid_kind_end_to_end(atwood, tmp_path):
    rows = [{"id": name, "question": atwood.question, "options": atwood.options, "answer": atwood.answer,
             "ground_truth": atwood.ground_truth, "reference_solution": atwood.solution, "solution": text}
            for name, text in cases(atwood).items()]
    src, out = tmp_path / "in.jsonl", tmp_path / "verdicts.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with OpenAIServer(DiffJudgeResponder(), port=0) as srv:
        cfg = load_config(None, ["verifier.kind=hybrid", f"verifier.judge_base_url={srv.url}",
                                 f"verifier.cache_path={tmp_path / 'cache.sqlite'}"])
        assert run_verify(cfg, str(src), str(out)) == 0
        assert srv.requests == 2
    got = {r["id"]: (r["error_step"], r["error_type"]) for r in map(json.loads, out.read_text().splitlines())}
    assert got == {"correct": (0, "none"), "wrong_given": (1, "MC"), "wrong_principle": (5, "CM")}


def test_the_judge_and_the_hybrid_need_the_reference_text_the_symbolic_verifier_does_not():
    assert LLMJudge.needs_reference_text and HybridVerifier.needs_reference_text
    assert not getattr(SymbolicVerifier, "needs_reference_text", False)


def test_a_refine_step_summary_counts_the_judges_verdicts_only_under_the_hybrid(atwood):
    from physr3.train.attempt import Attempt
    from physr3.train.refine import Rollout, summarize
    from physr3.verify.base import Verdict

    def attempt(verdict):
        return Attempt([1], [2], "t", "stop", 0.7, 1.0, verdict=verdict, reward=0.5)

    judged, kept = Verdict(2, "MC", details={"hybrid": "judge"}), Verdict(1, "MC", details={"hybrid": "symbolic"})
    rollouts = [Rollout(atwood, attempt(judged), y2=attempt(kept)), Rollout(atwood, attempt(judged))]
    assert summarize(rollouts)["hybrid_judge_calls"] == 2
    plain = summarize([Rollout(atwood, attempt(Verdict(2, "MC")))])
    assert plain["hybrid_judge_calls"] is None
    # under data parallel the processes' counts add up (and stay None when no process ran the hybrid)
    from physr3.train.refine_trainer import _merge_summaries

    assert _merge_summaries([summarize(rollouts), summarize(rollouts)])["hybrid_judge_calls"] == 4
    assert _merge_summaries([plain, plain])["hybrid_judge_calls"] is None
