"""Self-Refine (Madaan et al., 2023) at inference: the model critiques and revises its own solution.

Not one of the paper's baselines: it makes the paper's premise measurable — that small models are weak
verifiers of their own reasoning, so self-correction without an external verifier does not fix their errors.
No verifier, ground truth, retrieval or tool is used; every call is the same base model.

Algorithm (batched over the problems of a chunk; greedy unless `generation.temperature > 0`):

    y0 = generate(CoT conversation)                                  # identical to the `cot` condition
    for t in 1..k (k = eval.self_refine_rounds):
        c_t = generate(CoT conversation + [assistant: y_{t-1}, user: CRITIQUE_INSTRUCTION])
        if c_t's verdict is CORRECT: stop                            # the model says it is done
        y_t = generate(... + [assistant: c_t, user: REFINE_INSTRUCTION])
    answer = the last y

Exact prompts (the conversation keeps the CoT system prompt and the question as its first two messages):

CRITIQUE_INSTRUCTION (user turn after the solution):

    Review your solution above step by step. Check that the given quantities match the problem, that the
    physical principle and the equations apply, and that every substitution and calculation is right. If
    you find a mistake, name the first wrong step and explain what is wrong. End your review with exactly
    one line: "VERDICT: CORRECT" if the solution has no mistake, or "VERDICT: INCORRECT" if it has one.

REFINE_INSTRUCTION (user turn after the critique):

    Using your review, write a complete corrected solution to the problem, in the same format as before,
    ending with the final answer.

Stopping rule: the LAST "VERDICT: CORRECT|INCORRECT" line of a critique decides (case-insensitive; the
critique generation stops right after the first verdict it writes). A critique with no verdict (a
frequent outcome for a small model) does not say the solution is correct, so the model revises
(counted as verdict "none"). Critique and revision use the generation settings of the run
(`generation.max_new_tokens`, temperature, top-p, seed); a revision stops at "</final_answer>" as every
solution does.

Deviations from Madaan et al.: zero-shot instructions instead of task-specific few-shot feedback and refine
prompts (no such exemplars exist for physics solutions); the refine prompt holds only the latest attempt and
its critique, not the whole history (small models have short contexts); the stop indicator is the explicit
verdict line instead of a scored feedback.

Each result row's `trace` holds `attempts` (y0, y1, ...), `critiques` with their verdicts, `stopped`
("verdict_correct" | "max_rounds") and `rounds` (critiques written), so one can score y0 against the final
answer and count how often the model calls a wrong solution correct.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from physr3.config import Config
from physr3.eval.conditions import Condition, cot_conversation
from physr3.models.types import Completion, Conversation, Engine, SamplingParams
from physr3.problems import Problem
from physr3.prompts import COT_SYSTEM_PROMPT

CRITIQUE_INSTRUCTION = (
    "Review your solution above step by step. Check that the given quantities match the problem, that the "
    "physical principle and the equations apply, and that every substitution and calculation is right. If "
    "you find a mistake, name the first wrong step and explain what is wrong. End your review with exactly "
    "one line: \"VERDICT: CORRECT\" if the solution has no mistake, or \"VERDICT: INCORRECT\" if it has one."
)
REFINE_INSTRUCTION = (
    "Using your review, write a complete corrected solution to the problem, in the same format as before, "
    "ending with the final answer."
)
VERDICT_STOPS = ("VERDICT: CORRECT", "VERDICT: INCORRECT")
_VERDICT_RE = re.compile(r"VERDICT\s*:\s*\**\s*(CORRECT|INCORRECT)\b", re.IGNORECASE)


def parse_verdict(critique: str) -> str:
    """"correct" | "incorrect" from the last verdict line of a critique; "none" when it has none."""
    found = _VERDICT_RE.findall(critique)
    return found[-1].lower() if found else "none"


def critique_conversation(base: Conversation, attempt: str) -> Conversation:
    return base + [{"role": "assistant", "content": attempt}, {"role": "user", "content": CRITIQUE_INSTRUCTION}]


def refine_conversation(base: Conversation, attempt: str, critique: str) -> Conversation:
    return critique_conversation(base, attempt) + [{"role": "assistant", "content": critique},
                                                   {"role": "user", "content": REFINE_INSTRUCTION}]


def run_self_refine(engine: Engine, problems: list[Problem], cfg: Config,
                    params: SamplingParams) -> list[tuple[Completion, dict[str, Any]]]:
    """Generate, then critique and revise up to `eval.self_refine_rounds` times; one (final, trace) per problem."""
    bases = [cot_conversation(p, cfg) for p in problems]
    finals = engine.generate(bases, params)
    traces: list[dict[str, Any]] = [{"attempts": [c.text], "critiques": [], "stopped": "max_rounds", "rounds": 0,
                                     "tokens": len(c.token_ids)} for c in finals]
    critique_params = replace(params, stop=VERDICT_STOPS)
    active = list(range(len(problems)))
    for _ in range(max(0, cfg.eval.self_refine_rounds)):
        if not active:
            break
        critiques = engine.generate([critique_conversation(bases[i], finals[i].text) for i in active],
                                    critique_params)
        revise = []
        for i, c in zip(active, critiques):
            verdict = parse_verdict(c.text)
            traces[i]["critiques"].append({"text": c.text, "verdict": verdict})
            traces[i]["rounds"] += 1
            traces[i]["tokens"] += len(c.token_ids)
            if verdict == "correct":
                traces[i]["stopped"] = "verdict_correct"
            else:
                revise.append((i, c.text))
        if revise:
            revised = engine.generate([refine_conversation(bases[i], finals[i].text, crit) for i, crit in revise],
                                      params)
            for (i, _), y in zip(revise, revised):
                finals[i] = y
                traces[i]["attempts"].append(y.text)
                traces[i]["tokens"] += len(y.token_ids)
        active = [i for i, _ in revise]
    return list(zip(finals, traces))


def self_refine_details(cfg: Config) -> str:
    fmt = "with the seven-tag format instruction" if cfg.eval.cot_format_instruction else "no format instruction"
    return (f"Base model, no adapter, no external verifier. Round 0 is the CoT condition (system prompt "
            f"\"{COT_SYSTEM_PROMPT}\", the question, {fmt}). Then up to {cfg.eval.self_refine_rounds} rounds: the "
            f"model reviews its latest solution (user turn: \"{CRITIQUE_INSTRUCTION}\") and stops when its review "
            f"ends with VERDICT: CORRECT; otherwise it revises (user turn: \"{REFINE_INSTRUCTION}\"), seeing only "
            f"the latest attempt and review. The last attempt is scored. Decoding: temperature "
            f"{cfg.generation.temperature}, at most {cfg.generation.max_new_tokens} new tokens per call.")


# Registered in physr3.eval.conditions as the lazy target "physr3.eval.self_refine:SELF_REFINE".
SELF_REFINE = Condition("self-refine", "Base model; the CoT answer, then up to k self-critique and revision "
                        "rounds (Madaan et al.) with no external verifier.", None, cot_conversation,
                        self_refine_details, run_self_refine)
