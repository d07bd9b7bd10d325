"""The real embedded SmolLM2-135M-Instruct: converted once, loaded offline, generates an answer shape."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def test_embedded_model_generates_answer_shape() -> None:
    from physr3.config import Config
    from physr3.models.engine import TransformersEngine, params_from_config
    from physr3.models.loading import load_model
    from physr3.problems import Problem
    from physr3.prompts import build_solve_conversation

    cfg = Config()
    model, tokenizer = load_model(cfg.model)
    assert model.config.num_hidden_layers == 30 and model.num_parameters() > 130_000_000
    engine = TransformersEngine(model, tokenizer, batch_size=2)
    problem = Problem(id="1", question="A 2.0 kg block is pushed by a 10 N force on a frictionless floor. "
                                       "What is its acceleration?", answer="5.0 m/s^2")
    params = params_from_config(cfg.generation)
    params.max_new_tokens = 48
    out = engine.generate([build_solve_conversation(problem, True)] * 2, params)
    assert len(out) == 2
    for c in out:
        assert len(c.text.strip()) > 20 and c.finish_reason in {"stop", "length"}
        assert 0 < len(c.token_ids) <= 48 and c.prompt_tokens > 200
    assert out[0].token_ids == out[1].token_ids  # greedy, same prompt
    assert "<" in out[0].text  # it starts writing tags (the format instruction asks for them)
