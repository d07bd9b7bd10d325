"""One attempt of the refine loop, as one record from the engine through verification and reward to the loss.

The loss must score exactly what was sampled. An `Attempt` therefore carries the prompt ids the engine
sampled from (not a conversation to re-encode), the completion ids, how the completion ended, the sampling
temperature and top-p, and the engine's per-token log-probs when it gives them; verification, reward and
answer scoring fill in the rest. `RefineStep.backward` scores `prompt_ids + completion_ids` with the logits
divided by `temperature`, and compares its own log-probs with `logprobs` (the `logp_gap` metric).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from physr3.models.types import Completion, SamplingParams
from physr3.solution import ParsedSolution
from physr3.verify.base import Verdict


@dataclass
class Attempt:
    prompt_ids: list[int]  # the exact context sampled from
    completion_ids: list[int]  # the generated ids (through the stop string or end-of-sequence)
    text: str
    finish_reason: str  # "stop" | "length" (hit the token cap: truncated)
    temperature: float  # 0 = greedy
    top_p: float
    logprobs: list[float] | None = None  # the engine's log p(token | prefix), raw distribution (temperature 1)
    sequence_logprob: float | None = None  # or only their sum, from an engine that scores whole sequences
    solution: ParsedSolution | None = None
    verdict: Verdict | None = None
    reward: float | None = None
    correct: bool = False  # final answer correct
    n_steps: int = 0

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"

    @property
    def scoring_temperature(self) -> float:
        """The temperature the loss divides logits by: the sampling one. Greedy decoding samples no distribution;
        its attempts are scored under the policy's own (temperature 1)."""
        return self.temperature if self.temperature > 0 else 1.0

    @classmethod
    def from_completion(cls, completion: Completion, prompt_ids: list[int], params: SamplingParams) -> Attempt:
        """`prompt_ids` is the encoding decided on before sampling; an engine that reports the ids it sampled
        from must agree with it (else the loss would score a context that was not sampled)."""
        if completion.prompt_ids is not None and list(completion.prompt_ids) != list(prompt_ids):
            raise RuntimeError("the engine sampled from other prompt ids than the ones the trainer encoded")
        return cls(list(prompt_ids), list(completion.token_ids), completion.text, completion.finish_reason,
                   params.temperature, params.top_p, completion.logprobs, completion.sequence_logprob)

    def to_json(self) -> dict[str, Any]:
        """What samples.jsonl keeps of an attempt besides its text (ids are not logged)."""
        return {"finish_reason": self.finish_reason, "prompt_tokens": len(self.prompt_ids),
                "completion_tokens": len(self.completion_ids), "temperature": self.temperature}
