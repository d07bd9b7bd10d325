"""Revision warm-up (Stage 1b): revision examples built from injected errors, the real verifier and router."""

from __future__ import annotations

import pytest

from physr3.config import Config
from physr3.errors import UserError
from physr3.feedback.router import FeedbackRouter
from physr3.prompts import REVISION_INSTRUCTION
from physr3.synth.generate import generate_problems
from physr3.train.revision_warmup import revision_count, revision_records
from physr3.verify.symbolic import SymbolicVerifier


def test_count_makes_the_requested_share_of_the_mix():
    assert revision_count(96, 0.0) == 0
    assert revision_count(96, 0.25) == 32  # 32 / (96 + 32) = 0.25
    assert revision_count(10, 0.5) == 10
    with pytest.raises(UserError, match="revision_fraction"):
        revision_count(10, 1.0)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cfg = Config()
    cfg.generation.format_instruction = False
    cfg.feedback.store_dir = str(tmp_path_factory.mktemp("store"))
    problems = list(generate_problems(6, 3, split="train"))
    rows, stats = revision_records(problems, cfg, 0.6, seed=0, verifier=SymbolicVerifier(),
                                   feedback_fn=FeedbackRouter(cfg.feedback))
    return problems, rows, stats


def test_examples_use_the_training_revision_prompt_and_target_the_ground_truth(built):
    problems, rows, stats = built
    assert len(rows) == revision_count(6, 0.6) == 9  # more than the problems: a second cycle of injections
    by_question = {p.question: p for p in problems}
    firsts = set()
    for row in rows:
        user, first, revise = row["prompt"][-3:]
        p = by_question[next(q for q in by_question if q in user["content"])]
        assert first["role"] == "assistant" and first["content"] != p.solution  # y1 carries an error
        assert revise["content"].startswith(REVISION_INSTRUCTION.split("{feedback}")[0])
        assert row["completion"] == [{"role": "assistant", "content": p.solution}]
        firsts.add(first["content"])
    assert len(firsts) == len(rows)  # the second cycle draws other injections
    assert stats["revision_examples"] == 9
    assert sum(v for k, v in stats.items() if k.startswith("injected_")) == 9
    # the real router answered with its channels (re-read, retrieval, code), not a placeholder
    assert {k for k in stats if k.startswith("feedback_")} <= {"feedback_statement", "feedback_retrieval",
                                                                "feedback_code"}


def test_problems_without_ground_truth_are_skipped_and_counted(built):
    problems, _, _ = built
    bare = [type(p)(id=p.id, question=p.question, answer=p.answer) for p in problems[:2]]
    rows, stats = revision_records(bare, Config(), 0.5, seed=0, verifier=SymbolicVerifier(),
                                   feedback_fn=lambda *a: None)
    assert rows == [] and stats["no_ground_truth"] == 2
