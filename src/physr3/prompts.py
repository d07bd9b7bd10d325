"""Prompts the policy sees: the solve prompt for a problem, with the seven-tag format instruction.

The evaluation's CoT prompt (`build_cot_conversation`, the paper's section 4.3 system prompt) lives here
too, so every condition that builds on it imports it from one place.

`build_solve_conversation(problem, format_instruction)` returns the chat conversation for a first attempt:
one user message with the question (multiple-choice options rendered as "A) ...", one per line) and, when
asked, the format instruction. The system prompt is not added here: the chat template supplies
`ModelConfig.system_prompt` (see `models.loading.apply_system_prompt`), so every engine and the trainers
see the same prompt for the same conversation.

The format instruction names the seven tags in order, the `Step k:` numbering that runs across the six
reasoning sections, and shows one short example rendered by `solution.render_solution`, so the example is
compliant by construction.
"""

from __future__ import annotations

import string

from physr3.models.types import Conversation
from physr3.problems import Problem
from physr3.solution import render_solution

_EXAMPLE = render_solution(
    {
        "given": ["m = 2.0 kg (mass of the block)", "F = 10 N (horizontal force; surface frictionless)"],
        "find": ["a, the acceleration of the block"],
        "concept": ["Newton's second law; friction is absent, so F is the net force."],
        "governing_equation": ["a = F / m"],
        "substitution": ["a = (10 N) / (2.0 kg)"],
        "calculation": ["a = 5.0 m/s^2"],
    },
    "5.0 m/s^2",
)

FORMAT_INSTRUCTION = (
    "Write your solution in exactly these seven sections, in this order, each opened and closed once:\n"
    "<given> the known quantities with units; <find> the unknown asked for; <concept> the physical "
    "principle that applies; <governing_equation> the equation(s) used; <substitution> the known values "
    "put into the equation; <calculation> the arithmetic to the result; <final_answer> the answer only.\n"
    "Every line in the first six sections is a numbered step \"Step k: ...\" on its own line, numbered "
    "1, 2, 3, ... without gaps across all sections. <final_answer> holds no step: just the value with its "
    "unit, or the option letter(s) for a multiple-choice question.\n"
    "Example:\n" + _EXAMPLE
)

MCQ_NOTE = "Choose the correct option(s); put the letter(s) in <final_answer>, e.g. <final_answer>B</final_answer>."


def option_letter(index: int) -> str:
    return string.ascii_uppercase[index]


def render_question(problem: Problem) -> str:
    """The question text with its options as lines "A) ...", "B) ..."."""
    lines = [problem.question.strip()]
    if problem.options:
        lines.append("")
        lines += [f"{option_letter(i)}) {opt.strip()}" for i, opt in enumerate(problem.options)]
    return "\n".join(lines)


def solve_question(problem: Problem, format_instruction: bool = True) -> str:
    """The user message of a first attempt: the question, the multiple-choice note for MCQ items and, when
    asked, the format instruction (the solve prompt and the evaluation's CoT prompt share it)."""
    parts = [render_question(problem)]
    if problem.options:
        parts.append(MCQ_NOTE)
    if format_instruction:
        parts.append(FORMAT_INSTRUCTION)
    return "\n\n".join(parts)


def build_solve_conversation(problem: Problem, format_instruction: bool = True) -> Conversation:
    """The first-attempt conversation for `problem` (a single user message)."""
    return [{"role": "user", "content": solve_question(problem, format_instruction)}]


# The evaluation's chain-of-thought prompt: section 4.3 of the paper, verbatim. Unlike the solve prompt it
# carries its own system prompt (the `cot`, `rag` and `self-refine` conditions of physr3.eval.conditions).
COT_SYSTEM_PROMPT = (
    "You are an expert physics assistant. Given a question, generate the final solution. "
    "Let's think step by step."
)


def build_cot_conversation(problem: Problem, format_instruction: bool = False) -> Conversation:
    """The paper's zero-shot CoT conversation: its system prompt, then the question (the seven-tag format
    instruction only when asked, `eval.cot_format_instruction`)."""
    return [{"role": "system", "content": COT_SYSTEM_PROMPT},
            {"role": "user", "content": solve_question(problem, format_instruction)}]


REVISION_INSTRUCTION = (
    "Feedback on your solution:\n{feedback}\n\n"
    "Write a complete revised solution in the same seven-tag format with numbered steps. Keep the steps "
    "that were right, correct the step the feedback points to, and redo every step after it."
)


def build_revision_conversation(problem: Problem, first_attempt: str, feedback: str,
                                format_instruction: bool = True) -> Conversation:
    """The second-attempt conversation (x, y1, p1) of Algorithm 1: the first attempt as the assistant's
    turn, then the feedback with a fixed revision instruction as the next user turn."""
    return build_solve_conversation(problem, format_instruction) + [
        {"role": "assistant", "content": first_attempt},
        {"role": "user", "content": REVISION_INSTRUCTION.format(feedback=feedback.strip())},
    ]


def encode_prompt(tokenizer, conversation: Conversation) -> list[int]:
    """Token ids of a conversation's prompt: chat template with the assistant header, no extra special tokens.

    The one encoding every consumer uses (engines sample from it, the refine loss and SFT length checks score
    it), so sampled and scored contexts are the same ids.
    """
    text = tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


# The first attempt's content while rendering the revision conversation around it (`revision_prompt_ids`): plain
# ASCII without whitespace, so no template trims, escapes or splits it.
FIRST_ATTEMPT_PLACEHOLDER = "PHYSR3FIRSTATTEMPTPLACEHOLDER7F3A9C"


def revision_suffix_text(tokenizer, problem: Problem, feedback: str, format_instruction: bool = True) -> str | None:
    """The chat-template text that follows the first attempt in the revision prompt: its end-of-turn, the user
    turn with the feedback and the revision instruction, and the assistant header. None when the template does
    not render the revision conversation as the solve prompt (with its assistant header) followed by the
    attempt (a template that rewrites earlier turns, or one that drops or repeats the attempt)."""
    conversation = build_revision_conversation(problem, FIRST_ATTEMPT_PLACEHOLDER, feedback, format_instruction)
    text = tokenizer.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)
    parts = text.split(FIRST_ATTEMPT_PLACEHOLDER)
    if len(parts) != 2:
        return None
    solve = tokenizer.apply_chat_template(build_solve_conversation(problem, format_instruction), tokenize=False,
                                          add_generation_prompt=True)
    return parts[1] if parts[0] == solve else None


def revision_prompt_ids(tokenizer, problem: Problem, first_prompt_ids: list[int], first_completion_ids: list[int],
                        feedback: str, format_instruction: bool = True) -> list[int] | None:
    """The revision prompt (x, y1, p1) built FROM THE SAMPLED IDS: the first attempt's prompt and completion ids
    as they were, then the ids of `revision_suffix_text`. The model sees its own sampled tokens (not a
    re-tokenization of their decoded text), and the revision prompt starts with the first attempt's whole
    sequence, so one forward pass can score both attempts (physr3.train.refine) and an engine with prefix
    caching reuses the first attempt's KV blocks.

    A first attempt that ended with the end-of-turn token the suffix opens with keeps its own and the suffix's is
    dropped (never doubled); one cut at the token cap or after a stop string has none, and the suffix supplies
    it. None when the template does not allow this (`revision_suffix_text`): the caller re-encodes the
    conversation instead."""
    suffix = revision_suffix_text(tokenizer, problem, feedback, format_instruction)
    if suffix is None:
        return None
    suffix_ids = list(tokenizer(suffix, add_special_tokens=False)["input_ids"])
    if first_completion_ids and suffix_ids and first_completion_ids[-1] == suffix_ids[0]:
        suffix_ids = suffix_ids[1:]
    return list(first_prompt_ids) + list(first_completion_ids) + suffix_ids
