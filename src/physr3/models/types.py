"""The generation interface every engine implements (transformers, vLLM) and the recipes rely on.

A conversation is a list of chat messages `{"role": "system"|"user"|"assistant", "content": str}`; the
engine applies the model's chat template (with physr3's system prompt when the conversation has none).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

Message = dict[str, str]
Conversation = list[Message]

FINAL_ANSWER_STOP = "</final_answer>"


@dataclass
class SamplingParams:
    max_new_tokens: int = 384
    temperature: float = 0.0  # 0 = greedy
    top_p: float = 1.0
    stop: tuple[str, ...] = (FINAL_ANSWER_STOP,)  # generation ends after the first stop string (kept in text)
    return_logprobs: bool = False  # per-token log-probs of the sampled tokens
    seed: int | None = None


@dataclass
class Completion:
    text: str
    token_ids: list[int]
    finish_reason: str  # "stop" (eos or stop string) | "length"
    prompt_tokens: int
    logprobs: list[float] | None = field(default=None)
    # The exact prompt ids the completion was sampled from (None from an engine that does not say); a
    # policy-gradient loss scores `prompt_ids + token_ids` rather than re-encoding the conversation.
    prompt_ids: list[int] | None = field(default=None)
    # An engine that scores only whole sequences (OpenVINO) reports log p(token_ids | prompt) under the raw
    # distribution here instead of per-token `logprobs`; None when not asked for or not known exactly.
    sequence_logprob: float | None = field(default=None)


class Engine(Protocol):
    """What recipes call: batched generation over chat conversations."""

    tokenizer: object

    def generate(self, conversations: list[Conversation], params: SamplingParams) -> list[Completion]: ...
