"""The vLLM engine: same interface as TransformersEngine; needs vLLM and a CUDA GPU, else skips."""

from __future__ import annotations

import pytest

from physr3.config import Config
from physr3.errors import UserError
from physr3.models.vllm_engine import vllm_available

OK, REASON = vllm_available()


def test_build_engine_refuses_vllm_without_it() -> None:
    if OK:
        pytest.skip("vLLM and a GPU are present")
    from physr3.models.engine import build_engine

    cfg = Config()
    cfg.generation.engine = "vllm"
    with pytest.raises(UserError, match="generation.engine=vllm"):
        build_engine(cfg)


@pytest.mark.skipif(not OK, reason=REASON)
@pytest.mark.slow
def test_vllm_matches_interface_on_embedded_model() -> None:
    from physr3.models.types import SamplingParams
    from physr3.models.vllm_engine import VLLMEngine

    engine = VLLMEngine.from_config(Config().model, gpu_memory_utilization=0.3)
    convs = [[{"role": "user", "content": "What is the SI unit of force?"}]] * 2
    out = engine.generate(convs, SamplingParams(max_new_tokens=32, return_logprobs=True, seed=0))
    assert len(out) == 2 and all(c.text for c in out)
    assert all(len(c.logprobs) == len(c.token_ids) for c in out)
    assert all(c.finish_reason in {"stop", "length"} for c in out)
