"""Teacher conversion: free-form worked solutions rewritten into the seven-tag numbered format, validated.

The paper's SFT corpus is 2,494 worked solutions rewritten into the seven-tag format (§3, Appendix E); it
does not say how the rewrites were checked. Here a teacher model behind any OpenAI-compatible endpoint
(GPT-4o, a vLLM or `physr3 serve` server; `physr3.llm.client.ChatClient`, replies cached in SQLite like
the judge's) rewrites each source solution, and every rewrite is validated before it is kept:

1. **format**: compliant under `physr3.solution.validate` (seven tags once each, in order, numbered steps);
2. **answer**: the rewrite's `<final_answer>` agrees with the source's `answer` under the answer scorer
   (`physr3.eval.answers.score`, the source's `answer_type`, 1% relative tolerance by default).
   Deviation, for sources without an `answer` field (the shipped OpenStax worked examples have none):
   every number in the rewrite's final answer must occur (within the tolerance) in the source's question
   or solution text — a teacher that invents a value is caught, one that picks the wrong one of the
   source's values is not. The output's `answer` is then the rewrite's final answer and
   `answer_checked` says which check ran ("source_answer" or "source_numbers").

A rewrite that fails is sent back with its violations quoted (the conversation continues: the failed
rewrite as the assistant's turn, then the violations and the request to rewrite) at most
`convert.max_retries` times; what still fails goes to the rejects file with its reasons and the last
reply. A transport failure (the endpoint down after the client's own retries) is neither output nor
reject: it is counted and the item is tried again on the next run.

Input lines: `id` (else OpenStax's `module_id/example_id`), `question` (or `problem`), `solution` (the
free-form worked solution), optional `answer`, `answer_type` (default numeric_unit), `options`, `domain`
and any other fields (kept).
Output lines are Problem records (`physr3.problems`) with the rewrite as `solution` — what `physr3 sft`
reads — plus `source_solution`, `attempts`, `teacher` and `answer_checked`. Both outputs are appended
line by line: a rerun skips ids already in either file (delete the rejects file to try them again).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from physr3.corpus.inputs import QUESTION_FIELDS, source_id
from physr3.errors import InputFormatError
from physr3.eval.answers import final_answer_tag, score
from physr3.problems import ANSWER_TYPES, JsonlAppender, iter_jsonl
from physr3.prompts import FORMAT_INSTRUCTION
from physr3.quantity.text import latex_to_plain
from physr3.solution import validate

SYSTEM_PROMPT = (
    "You rewrite worked physics solutions into a fixed structured format for training a small model. Keep "
    "the physics and the numbers of the source solution; do not add new results, do not skip reasoning. "
    "Reply with the rewritten solution only, no preamble.\n\n" + FORMAT_INSTRUCTION
)

USER_TEMPLATE = (
    "Rewrite this worked solution in the seven-tag format.\n\n"
    "Problem:\n{question}\n\n"
    "Worked solution:\n{solution}\n"
    "{answer_line}"
)

RETRY_TEMPLATE = (
    "Your rewrite does not pass the checks:\n{violations}\n\n"
    "Write the whole solution again in the seven-tag format, fixing these problems. Reply with the "
    "solution only."
)

# Reject reasons (stable strings: the summary groups by them).
FORMAT, ANSWER = "format", "answer"


@dataclass
class SourceItem:
    """One input line: the fields the teacher needs, and the whole row (kept in the output)."""

    id: str
    question: str
    solution: str
    answer: str | None
    answer_type: str
    options: list[str] | None
    row: dict[str, Any]


def read_sources(path: str) -> list[SourceItem]:
    """Read and check the input; a bad line raises InputFormatError naming the file, line and field."""
    items: list[SourceItem] = []
    seen: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        got: dict[str, Any] = {"id": source_id(row)}
        if got["id"] is None:
            raise InputFormatError(path, lineno, "id", "required field is missing (nor example_id)")
        key = next((k for k in QUESTION_FIELDS if k in row), None)
        if key is None:
            raise InputFormatError(path, lineno, "question", "required field is missing (nor problem)")
        got["question"] = row[key]
        if not isinstance(got["id"], str | int) or isinstance(got["id"], bool):
            raise InputFormatError(path, lineno, "id", f"expected a string or integer, got {type(got['id']).__name__}")
        if not isinstance(got["question"], str) or not got["question"].strip():
            raise InputFormatError(path, lineno, "question", "expected a non-empty string")
        if "solution" not in row:
            raise InputFormatError(path, lineno, "solution", "required field is missing (the worked solution)")
        if not isinstance(row["solution"], str) or not row["solution"].strip():
            raise InputFormatError(path, lineno, "solution", "expected a non-empty string")
        answer = row.get("answer")
        if answer is not None and (not isinstance(answer, str | int | float) or isinstance(answer, bool)):
            raise InputFormatError(path, lineno, "answer", f"expected a string or number, got {type(answer).__name__}")
        answer_type = row.get("answer_type", "numeric_unit")
        if answer_type not in ANSWER_TYPES:
            raise InputFormatError(path, lineno, "answer_type", f"{answer_type!r} is not one of {', '.join(ANSWER_TYPES)}")
        options = row.get("options")
        if options is not None and not (isinstance(options, list) and all(isinstance(o, str) for o in options)):
            raise InputFormatError(path, lineno, "options", "expected a list of strings or null")
        rid = str(got["id"])
        if rid in seen:
            raise InputFormatError(path, lineno, "id", f"duplicate id {rid!r} (first on line {seen[rid]})")
        seen[rid] = lineno
        if answer is not None:
            try:  # a gold answer the scorer cannot read is a data error: say so now, not after the teacher call
                score(str(answer), str(answer), answer_type, options=options)
            except ValueError as exc:
                raise InputFormatError(path, lineno, "answer", str(exc)) from None
        items.append(SourceItem(rid, got["question"], row["solution"],
                                None if answer is None or str(answer).strip() == "" else str(answer),
                                answer_type, options, row))
    return items


def build_messages(item: SourceItem) -> list[dict[str, str]]:
    question = item.question.strip()
    if item.options:
        question += "\n" + "\n".join(f"{chr(65 + i)}) {o.strip()}" for i, o in enumerate(item.options))
    answer_line = f"\nFinal answer of the source: {item.answer}\n" if item.answer is not None else ""
    return [{"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": USER_TEMPLATE.format(question=question, solution=item.solution.strip(),
                                                             answer_line=answer_line)}]


# ---- the answer check for sources without an answer -------------------------------------------------

_PART_LABEL = re.compile(r"\(\s*[a-hA-H]\s*\)|\b[a-h]\.\s")
_NUMBER = re.compile(r"(?<![\w^.(])(?<!\^\()[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
                     r"(?:\s*(?:\*|×|x|\\times)\s*10\s*\^\s*\(?\s*([-+−]?\d+)\s*\)?)?")


def numbers_in(text: str) -> list[float]:
    """The numeric values written in a text (LaTeX or plain): "3.00 × 10^8", "$24.5\\text{ m/s}$", "1.6e-19".

    OpenStax LaTeX splits decimals ("\\text{10}\\text{.}0"); they are joined again. Exponents of units
    ("m/s^2") and part labels ("(a)") are not values.
    """
    plain = latex_to_plain(text)
    plain = re.sub(r"(\d)\s*\.\s*(\d)", r"\1.\2", plain)
    plain = re.sub(r"(\d)\s+(?=\d{3}\b)", r"\1", plain)  # "1 500" thousands groups
    plain = _PART_LABEL.sub(" ", plain)
    values = []
    for m in _NUMBER.finditer(plain):
        mantissa = m.group(0).replace("−", "-")
        head = re.match(r"[-]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", mantissa)
        if head is None:
            continue
        value = float(head.group(0))
        if m.group(1) is not None:
            value *= 10.0 ** int(m.group(1).replace("−", "-"))
        values.append(value)
    return values


def _close(a: float, b: float, rel_tol: float) -> bool:
    return abs(a - b) <= rel_tol * max(abs(a), abs(b)) + 1e-12


def unsupported_numbers(final_answer: str, source_text: str, rel_tol: float) -> list[float]:
    """Numbers of the final answer that occur nowhere in the source (sign ignored: "-9.8" vs "9.8 down")."""
    pool = [abs(v) for v in numbers_in(source_text)]
    return [v for v in numbers_in(final_answer) if not any(_close(abs(v), p, rel_tol) for p in pool)]


# ---- validating one rewrite -------------------------------------------------------------------------


@dataclass
class Check:
    ok: bool
    reason: str | None = None  # FORMAT or ANSWER
    violations: list[str] = field(default_factory=list)
    answer_checked: str = ""


def check_rewrite(item: SourceItem, text: str, rel_tol: float) -> Check:
    """Format first (a non-compliant rewrite has no reliable final answer), then the answer."""
    report = validate(text)
    if not report.compliant:
        return Check(False, FORMAT, list(report.violations))
    final = final_answer_tag(text) or ""
    if item.answer is not None:
        s = score(item.answer, final, item.answer_type, rel_tol, options=item.options)
        if s.correct:
            return Check(True, answer_checked="source_answer")
        return Check(False, ANSWER, [f"the final answer {final!r} does not match the source's answer "
                                     f"{item.answer!r} ({s.reason}{': ' + s.detail if s.detail else ''})"],
                     "source_answer")
    if not numbers_in(final) and item.answer_type in ("numeric", "numeric_unit", "integer"):
        return Check(False, ANSWER, [f"the final answer {final!r} holds no value"], "source_numbers")
    missing = unsupported_numbers(final, item.question + "\n" + item.solution, rel_tol)
    if missing:
        shown = ", ".join(f"{v:g}" for v in missing)
        return Check(False, ANSWER, [f"the final answer {final!r} has value(s) {shown} that the source solution "
                                     "does not contain; keep the source's result"], "source_numbers")
    return Check(True, answer_checked="source_numbers")


# ---- the conversion loop ----------------------------------------------------------------------------


@dataclass
class Outcome:
    item: SourceItem
    text: str = ""
    attempts: int = 0
    check: Check | None = None
    history: list[list[str]] = field(default_factory=list)  # the violations of each failed attempt
    api_error: str | None = None


async def convert_one(client: Any, item: SourceItem, max_retries: int, rel_tol: float, temperature: float,
                      max_tokens: int | None) -> Outcome:
    """Ask the teacher, validate, quote the violations back; at most 1 + max_retries calls."""
    from physr3.llm.client import ChatError

    messages = build_messages(item)
    outcome = Outcome(item)
    for _attempt in range(max_retries + 1):
        try:
            reply = await client.achat(messages, temperature=temperature, max_tokens=max_tokens)
        except ChatError as exc:
            outcome.api_error = str(exc)
            return outcome
        outcome.attempts += 1
        outcome.text = reply.text
        outcome.check = check_rewrite(item, reply.text, rel_tol)
        if outcome.check.ok:
            return outcome
        outcome.history.append(outcome.check.violations)
        quoted = "\n".join(f"- {v}" for v in outcome.check.violations)
        messages = messages + [{"role": "assistant", "content": reply.text},
                               {"role": "user", "content": RETRY_TEMPLATE.format(violations=quoted)}]
    return outcome


def output_record(outcome: Outcome, teacher: str) -> dict[str, Any]:
    """A Problem record (physr3 sft input) with the rewrite as `solution`; the source's other fields kept."""
    item = outcome.item
    row = {k: v for k, v in item.row.items() if k != "problem"}  # now `question`
    final = final_answer_tag(outcome.text) or ""
    row.update({"id": item.id, "question": item.question, "answer": item.answer if item.answer is not None else final,
                "answer_type": item.answer_type, "solution": outcome.text, "source_solution": item.solution,
                "attempts": outcome.attempts, "teacher": teacher,
                "answer_checked": outcome.check.answer_checked if outcome.check else ""})
    return row


def reject_record(outcome: Outcome) -> dict[str, Any]:
    check = outcome.check
    return {"id": outcome.item.id, "reason": check.reason if check else None,
            "violations": check.violations if check else [], "attempts": outcome.attempts,
            "history": outcome.history, "last_reply": outcome.text}


@dataclass
class Summary:
    converted: int = 0
    first_try: int = 0
    rejected: Counter = field(default_factory=Counter)
    api_errors: int = 0
    skipped: int = 0

    def line(self, out: str, rejects: str) -> str:
        rej = sum(self.rejected.values())
        by = ", ".join(f"{k} {n}" for k, n in sorted(self.rejected.items())) or "-"
        return (f"convert: {self.converted} converted ({self.first_try} on the first try, "
                f"{self.converted - self.first_try} after violations were quoted back) -> {out}; "
                f"{rej} rejected (by reason: {by}) -> {rejects}; {self.api_errors} endpoint failures "
                f"(rerun to retry); {self.skipped} already done")


def convert_file(items: Iterable[SourceItem], client: Any, out_path: str, rejects_path: str, *, teacher: str,
                 max_retries: int, rel_tol: float = 0.01, temperature: float = 0.0, max_tokens: int | None = None,
                 chunk: int = 32, on_progress: Callable[[int], None] | None = None) -> Summary:
    """Convert every item not already in `out_path` or `rejects_path`; both appended as work proceeds."""
    summary = Summary()
    with JsonlAppender(out_path) as out, JsonlAppender(rejects_path) as rejects:
        items = list(items)
        todo = [it for it in items if it.id not in out.done and it.id not in rejects.done]
        summary.skipped = len(items) - len(todo)
        if on_progress:
            on_progress(summary.skipped)
        for start in range(0, len(todo), chunk):
            part = todo[start:start + chunk]

            async def batch(part: list[SourceItem] = part) -> list[Outcome]:
                return list(await asyncio.gather(*(convert_one(client, it, max_retries, rel_tol, temperature,
                                                               max_tokens) for it in part)))

            for outcome in client.run_sync(batch):
                if outcome.api_error is not None:
                    summary.api_errors += 1
                elif outcome.check is not None and outcome.check.ok:
                    out.append(output_record(outcome, teacher))
                    summary.converted += 1
                    summary.first_try += outcome.attempts == 1
                else:
                    rejects.append(reject_record(outcome))
                    summary.rejected[outcome.check.reason if outcome.check else "none"] += 1
            if on_progress:
                on_progress(len(part))
    return summary
