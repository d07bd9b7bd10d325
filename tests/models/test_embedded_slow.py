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
    engine = TransformersEngine(model, tokenizer, batch_size=1)
    problem = Problem(id="1", question="A 2.0 kg block is pushed by a 10 N force on a frictionless floor. "
                                       "What is its acceleration?", answer="5.0 m/s^2")
    params = params_from_config(cfg.generation)
    params.max_new_tokens = 80
    (out,) = engine.generate([build_solve_conversation(problem, True)], params)
    assert out.finish_reason in {"stop", "length"} and 0 < len(out.token_ids) <= 80 and out.prompt_tokens > 200
    prompt = engine.render(build_solve_conversation(problem, True))
    assert prompt.startswith(f"<|im_start|>system\n{cfg.model.system_prompt}<|im_end|>") and "SmolLM" not in prompt
    # Before SFT the 135M model rarely writes the tags within 80 tokens (greedy output also shifts with bf16
    # batch shapes); it does answer on topic: restating the givens, sometimes as "Step k:" lines.
    assert len(out.text.strip()) > 40 and ("kg" in out.text or "acceleration" in out.text.lower()), out.text
