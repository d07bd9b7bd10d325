"""Evaluation conditions: which prompt the model sees and which adapter (if any) it runs with.

A small registry (`@register_condition`) in the lm-eval style: a duplicate name is refused and an unknown
one lists the valid names. Each condition states its exact prompt here, and the report quotes it.

| condition | model                         | prompt                                                        |
|-----------|-------------------------------|---------------------------------------------------------------|
| cot       | base                          | the paper's zero-shot CoT system prompt + the question        |
| sft       | base + `eval.sft_adapter`     | physr3's solve prompt (question + seven-tag instruction)     |
| dpo       | base + `eval.dpo_adapter`     | physr3's solve prompt                                         |
| ours      | base + `eval.ours_adapter`    | physr3's solve prompt (no verifier or feedback at inference)  |

`eval.cot_format_instruction=true` adds the seven-tag instruction to CoT, so its structure can be compared.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from physr3.config import Config
from physr3.errors import UserError
from physr3.models.types import Conversation
from physr3.problems import Problem
from physr3.prompts import FORMAT_INSTRUCTION, MCQ_NOTE, build_solve_conversation, render_question

# Section 4.3 of the paper, verbatim.
COT_SYSTEM_PROMPT = (
    "You are an expert physics assistant. Given a question, generate the final solution. "
    "Let's think step by step."
)


@dataclass(frozen=True)
class Condition:
    name: str
    description: str
    adapter_key: str | None  # EvalConfig field naming the adapter folder, None = base model
    build: Callable[[Problem, Config], Conversation]


CONDITIONS: dict[str, Condition] = {}


def register_condition(name: str, description: str, adapter_key: str | None = None):
    def deco(build: Callable[[Problem, Config], Conversation]):
        if name in CONDITIONS:
            raise ValueError(f"condition {name!r} is already registered")
        CONDITIONS[name] = Condition(name, description, adapter_key, build)
        return build

    return deco


def get_condition(name: str) -> Condition:
    if name not in CONDITIONS:
        raise UserError(f"unknown condition {name!r}; valid: {', '.join(CONDITIONS)}")
    return CONDITIONS[name]


def _question(problem: Problem, cfg: Config) -> str:
    parts = [render_question(problem)]
    if problem.options:
        parts.append(MCQ_NOTE)
    if cfg.eval.cot_format_instruction:
        parts.append(FORMAT_INSTRUCTION)
    return "\n\n".join(parts)


@register_condition("cot", "Base model, the paper's zero-shot chain-of-thought prompt.")
def cot_conversation(problem: Problem, cfg: Config) -> Conversation:
    return [{"role": "system", "content": COT_SYSTEM_PROMPT}, {"role": "user", "content": _question(problem, cfg)}]


def _solve(problem: Problem, cfg: Config) -> Conversation:
    return build_solve_conversation(problem, cfg.generation.format_instruction)


register_condition("sft", "Base model + the SFT adapter, physr3's seven-tag solve prompt.", "sft_adapter")(_solve)
register_condition("dpo", "Base model + the DPO (IPO) adapter, the seven-tag solve prompt.", "dpo_adapter")(_solve)
register_condition("ours", "Base model + the refine-trained adapter, the seven-tag solve prompt.",
                   "ours_adapter")(_solve)
