"""Evaluation conditions: which prompt the model sees and which adapter (if any) it runs with.

`CONDITIONS` is a `physr3.registry.Registry`: a duplicate name is refused and an unknown one lists the valid
names. Conditions defined in their own modules (`rag`, `self-refine`) are registered here as lazy
`"module:attr"` targets, imported on first use: those modules import this one (for `Condition`), never the
reverse. Each condition states its exact prompt, and the report quotes it.

| condition | model                         | prompt                                                        |
|-----------|-------------------------------|---------------------------------------------------------------|
| cot       | base                          | the paper's zero-shot CoT system prompt + the question        |
| sft       | base + `eval.sft_adapter`     | physr3's solve prompt (question + seven-tag instruction)     |
| dpo       | base + `eval.dpo_adapter`     | physr3's solve prompt                                         |
| ours      | base + `eval.ours_adapter`    | physr3's solve prompt (no verifier or feedback at inference)  |
| rag       | base                          | CoT prompt + top-3 formula-corpus chunks (physr3.eval.rag)    |
| self-refine | base                        | CoT, then self-critique/revise rounds (physr3.eval.self_refine) |

`eval.cot_format_instruction=true` adds the seven-tag instruction to CoT (and RAG, Self-Refine), so its
structure can be compared. `Condition.details` holds each condition's exact prompts and hyperparameters
for the report (`condition_details(cfg)` fills in the configured values).

A condition builds one conversation per problem (`build`, one `Engine.generate` call per batch), or, when it
needs several model calls per problem (Self-Refine) or records more per item (RAG's retrieved chunks),
provides `run(engine, problems, cfg, params)` that returns one `(final Completion, trace dict)` per problem;
the runner stores a non-empty trace in the row. `build` is then the first conversation the model sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from physr3.config import Config
from physr3.models.types import Completion, Conversation, Engine, SamplingParams
from physr3.problems import Problem
from physr3.prompts import COT_SYSTEM_PROMPT, build_cot_conversation, build_solve_conversation
from physr3.registry import Registry

RunHook = Callable[[Engine, list[Problem], Config, SamplingParams], list[tuple[Completion, dict[str, Any]]]]


@dataclass(frozen=True)
class Condition:
    name: str
    description: str
    adapter_key: str | None  # EvalConfig field naming the adapter folder, None = base model
    build: Callable[[Problem, Config], Conversation]  # the (first) conversation the model sees
    details: str | Callable[[Config], str] = ""  # exact prompts and hyperparameters, for the report
    run: RunHook | None = None  # several model calls per problem: replaces one generate over `build`


CONDITIONS: Registry[Condition] = Registry("condition")


def register_condition(condition: Condition) -> Condition:
    """Add a condition under its name (a duplicate name is an error)."""
    return CONDITIONS.register(condition.name, condition)


def get_condition(name: str) -> Condition:
    return CONDITIONS.get(name)


def condition_details(name: str, cfg: Config) -> str:
    """The condition's exact prompts and hyperparameters, with the configured values filled in."""
    c = get_condition(name)
    return c.details(cfg) if callable(c.details) else c.details


def cot_conversation(problem: Problem, cfg: Config) -> Conversation:
    """The `cot` condition's conversation (also Self-Refine's first attempt)."""
    return build_cot_conversation(problem, cfg.eval.cot_format_instruction)


def _cot_details(cfg: Config) -> str:
    fmt = "the seven-tag format instruction appended" if cfg.eval.cot_format_instruction else "no format instruction"
    return (f"System prompt (section 4.3, verbatim): \"{COT_SYSTEM_PROMPT}\" User message: the question "
            f"(options as 'A) ...' lines and the multiple-choice note for MCQ items), {fmt}. Base model, no adapter; "
            f"decoding: temperature {cfg.generation.temperature}, top-p {cfg.generation.top_p}, "
            f"at most {cfg.generation.max_new_tokens} new tokens.")


def _solve_details(adapter_key: str, trained_by: str) -> Callable[[Config], str]:
    def details(cfg: Config) -> str:
        fmt = "with" if cfg.generation.format_instruction else "without"
        return (f"Base model + the adapter in eval.{adapter_key} ({getattr(cfg.eval, adapter_key)}), trained by "
                f"{trained_by}. Prompt: physr3's system prompt (\"{cfg.model.system_prompt}\") and the question "
                f"{fmt} the seven-tag format instruction (physr3.prompts.build_solve_conversation). Decoding: "
                f"temperature {cfg.generation.temperature}, at most {cfg.generation.max_new_tokens} new tokens.")

    return details


def _solve(problem: Problem, cfg: Config) -> Conversation:
    return build_solve_conversation(problem, cfg.generation.format_instruction)


register_condition(Condition("cot", "Base model, the paper's zero-shot chain-of-thought prompt.", None,
                             cot_conversation, _cot_details))
register_condition(Condition(
    "sft", "Base model + the SFT adapter, physr3's seven-tag solve prompt.", "sft_adapter", _solve,
    _solve_details("sft_adapter", "`physr3 sft` (the paper's SFT baseline is `physr3 sft --baseline`, section "
                   "sft_baseline: LoRA SFT, lr 5e-5, batch 4, grad. accum. 8, 3 epochs; the demo uses its Stage 1 "
                   "adapter, the reference that ours starts from)")))
register_condition(Condition(
    "dpo", "Base model + the DPO (IPO) adapter, the seven-tag solve prompt.", "dpo_adapter", _solve,
    _solve_details("dpo_adapter", "`physr3 dpo` (TRL DPOTrainer, loss_type='ipo', continuing the SFT adapter with "
                   "the SFT adapter as frozen reference; paper: lr 2e-6, batch 2, grad. accum. 16, 1 epoch; "
                   "see physr3.train.dpo)")))
register_condition(Condition("ours", "Base model + the refine-trained adapter, the seven-tag solve prompt.",
                             "ours_adapter", _solve,
                             _solve_details("ours_adapter", "`physr3 train` (Algorithm 1, Eq. 2)")))
# Defined in their own modules, imported on first use.
CONDITIONS.register("rag", "physr3.eval.rag:RAG")
CONDITIONS.register("self-refine", "physr3.eval.self_refine:SELF_REFINE")
