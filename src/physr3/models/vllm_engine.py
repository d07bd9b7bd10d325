"""The `Engine` interface over vLLM (GPU only; optional extra `pip install physr3[vllm]`).

vLLM is imported lazily, so physr3 installs and runs without it. The prompt is rendered with the same
Hugging Face tokenizer and chat template as `TransformersEngine` (our system prompt included) and passed as
token ids, so both engines see identical prompts. The embedded model is served from its converted
safetensors folder; a PEFT adapter is applied per request through vLLM's LoRA support.

Differences from `TransformersEngine`, by construction of vLLM: batching is continuous (no `batch_size`);
`seed` is per request (request i uses seed + i); log-probs come from vLLM's sampler, which by default
(`logprobs_mode="raw_logprobs"` in recent vLLM) reports the raw model distribution like `TransformersEngine`
does; pass `logprobs_mode=` through `from_config(..., **llm_kwargs)` on versions where that differs.
Not exercised here (no GPU on the development machine): its tests skip with the reason.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from physr3.config import ModelConfig
from physr3.errors import UserError
from physr3.models.types import Completion, Conversation, SamplingParams


def vllm_available() -> tuple[bool, str]:
    """(usable, reason): vLLM installed and a CUDA GPU present."""
    if importlib.util.find_spec("vllm") is None:
        return False, "vLLM is not installed (optional extra: pip install 'physr3[vllm]', GPU only)"
    import torch

    if not torch.cuda.is_available():
        return False, "vLLM needs a CUDA GPU and none is available"
    return True, "ok"


class VLLMEngine:
    """`Engine` over `vllm.LLM`."""

    def __init__(self, llm: Any, tokenizer: Any, lora_path: str | None = None):
        self.llm = llm
        self.tokenizer = tokenizer
        self.lora_path = lora_path

    @classmethod
    def from_config(cls, cfg: ModelConfig, **llm_kwargs: Any) -> VLLMEngine:
        ok, reason = vllm_available()
        if not ok:
            raise UserError(f"generation.engine=vllm: {reason}; use generation.engine=transformers")
        from vllm import LLM

        from physr3.models.loading import DTYPES, load_tokenizer, resolve_model_path

        if cfg.dtype not in DTYPES:
            raise UserError(f"model.dtype={cfg.dtype!r}: expected one of {', '.join(DTYPES)}")
        path = resolve_model_path(cfg)
        tokenizer = load_tokenizer(cfg, path)
        dtype = "bfloat16" if cfg.dtype == "auto" else cfg.dtype
        kwargs = {"dtype": dtype, "trust_remote_code": cfg.trust_remote_code, **llm_kwargs}
        if cfg.adapter:
            kwargs.setdefault("enable_lora", True)
        return cls(LLM(model=path, **kwargs), tokenizer, lora_path=cfg.adapter)

    def render(self, conversation: Conversation) -> str:
        return self.tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)

    def generate(self, conversations: list[Conversation], params: SamplingParams) -> list[Completion]:
        from vllm import SamplingParams as VSamplingParams

        prompts = [
            {"prompt_token_ids": self.tokenizer(self.render(c), add_special_tokens=False)["input_ids"]}
            for c in conversations
        ]
        stops = [s for s in params.stop if s]
        sampling = [
            VSamplingParams(
                max_tokens=params.max_new_tokens,
                temperature=params.temperature,
                top_p=params.top_p if params.temperature > 0 else 1.0,
                stop=stops or None,
                include_stop_str_in_output=True,
                logprobs=0 if params.return_logprobs else None,
                seed=None if params.seed is None else params.seed + i,
            )
            for i in range(len(prompts))
        ]
        lora = None
        if self.lora_path:
            from vllm.lora.request import LoRARequest

            lora = LoRARequest("adapter", 1, self.lora_path)
        outputs = self.llm.generate(prompts, sampling, lora_request=lora, use_tqdm=False)
        return [self._completion(o) for o in outputs]

    @staticmethod
    def _completion(output: Any) -> Completion:
        seq = output.outputs[0]
        logprobs = None
        if seq.logprobs is not None:
            logprobs = [float(step[tok].logprob) for tok, step in zip(seq.token_ids, seq.logprobs)]
        return Completion(
            text=seq.text,
            token_ids=list(seq.token_ids),
            finish_reason="length" if seq.finish_reason == "length" else "stop",
            prompt_tokens=len(output.prompt_token_ids),
            logprobs=logprobs,
            prompt_ids=list(output.prompt_token_ids),
        )
