"""Problem-miscomprehension (MC) feedback: tell the model to re-read the problem, naming what it misread.

The paper sends MC errors a structured prompt that "instructs the model to re-read the problem statement
and correct its understanding of the given conditions" (section 3.3), filled with the error step, type and
explanation (Appendix C, `feedback_prompt`). We build the same text without a model call: the step number,
the step as written, the verifier's explanation of the condition that was misread, and — so the re-read
has a target — the sentence of the problem that best matches the step and the explanation (word and
number overlap). Only the problem's own words are quoted: the feedback never reveals the solution.
"""

from __future__ import annotations

import re

_SENTENCE_RE = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")
_WORD_RE = re.compile(r"\d+(?:\.\d+)?|[A-Za-z]{3,}")
_STOP = {"the", "and", "with", "for", "that", "this", "from", "are", "its", "was", "what", "which", "step",
         "solution", "problem", "uses", "used", "should", "instead", "not", "but", "has", "have", "into"}


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD_RE.findall(text)} - _STOP


def relevant_sentence(question: str, *clues: str) -> str | None:
    """The sentence of `question` sharing the most words and numbers with `clues` (None if none shares any)."""
    sentences = [s.strip() for s in _SENTENCE_RE.split(question.strip()) if s.strip()]
    want = set().union(*(_words(c) for c in clues)) if clues else set()
    scored = [(len(_words(s) & want), -i, s) for i, s in enumerate(sentences)]
    best = max(scored, default=None)
    return best[2] if best and best[0] > 0 else None


def statement_feedback(question: str, step: int, step_text: str | None, explanation: str) -> str:
    """Feedback text for a problem-miscomprehension error at `step`."""
    lines = [f"Step {step} misreads the problem."]
    if step_text:
        lines.append(f'You wrote: "Step {step}: {step_text.strip()}"')
    if explanation.strip():
        lines.append(f"What was misread: {explanation.strip()}")
    quote = relevant_sentence(question, step_text or "", explanation)
    if quote:
        lines.append(f'Re-read this part of the problem: "{quote}"')
    lines.append("Re-read the whole problem statement, check every given value, its unit and every stated "
                 f"condition, and what exactly is asked; correct Step {step} and redo the solution from there.")
    return "\n".join(lines)
