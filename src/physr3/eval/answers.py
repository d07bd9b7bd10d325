"""Answer extraction and scoring: `score(gold, pred, answer_type) -> Score`.

Extraction (`extract_answer`) runs named filter steps in order and stops at the first that finds a span:

1. `final_answer_tag`: the text inside `<final_answer>` (an unclosed tag at the end of a truncated
   generation counts).
2. `last_pattern`: the pattern that occurs *last* in the text among "answer is ..." / "Answer: ..." /
   "correct option is ...", `\\boxed{...}`, and, for multiple-choice types only, option phrases
   ("option (B) is correct", "choose B").
3. `short_text`: a prediction that is already a short answer (at most 2 lines and 80 characters) is
   used whole, so `pred` may be a bare "ABD" or "5.0 m/s^2".

Nothing found is reason `no_answer`, counted apart from wrong answers; so is a short reply with nothing
answer-like in it ("I am not sure."). A span found by a tag or pattern that cannot be read is `unparseable`. The span is then read per type:

- `mcq`: exact letter (a set of several letters is wrong, as in JEEBench's `compute_score`).
- `mcq_multi`: JEEBench's official rule (dair-iitd/jeebench `compute_metrics.py`): 1.0 for the exact
  set; 0.25 per chosen letter when every chosen letter is in the gold set; 0 when any chosen letter is
  wrong (so an empty choice also scores 0). `correct` is True only for full credit.
- `integer`, `numeric`, `numeric_unit`: `physr3.quantity.answer.judge` (absolute 0.01 for numbers as in
  JEEBench; pint conversion, matching dimensions and 1% relative for values with units; a bare number
  against a gold with a unit is `missing_unit` unless `allow_missing_unit=True`). The symbolic verifier's
  final-answer check calls the same function, so the two never disagree on a value.

For multiple-choice items, `options` lets an answer that quotes an option's text or value instead of
its letter be mapped back to that letter.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass

from physr3.problems import ANSWER_TYPES, Problem
from physr3.quantity.answer import (
    DIMENSION_MISMATCH,
    MATCH,
    MISMATCH,
    MISSING_UNIT,
    UNPARSEABLE,
    judge,
    parse_number,
)
from physr3.quantity.text import find_boxed, latex_to_plain

# Reason codes (stable strings: reports group by them).
PARTIAL = "partial"
NO_ANSWER = "no_answer"
REASONS = (MATCH, PARTIAL, MISMATCH, NO_ANSWER, UNPARSEABLE, DIMENSION_MISMATCH, MISSING_UNIT)

LETTERS = "ABCD"


@dataclass(frozen=True)
class Extraction:
    """The answer span found in a prediction and the filter step that found it (`none` if none did)."""

    span: str | None
    method: str


@dataclass(frozen=True)
class Score:
    """One scored prediction. `reason` is one of REASONS; `detail` says why in words."""

    correct: bool
    score: float
    extracted: str
    reason: str
    detail: str = ""
    method: str = ""

    def to_json(self) -> dict:
        return asdict(self)


# ---- extraction filters --------------------------------------------------------------------------

_FINAL_TAG = re.compile(r"<final_answer>\s*(.*?)\s*(?:</final_answer>|$)", re.S | re.I)
_ANSWER_IS = re.compile(
    r"(?:final\s+answer|correct\s+(?:answer|option|choice)s?|answers?)"
    r"\s*(?:is|are|would\s+be|will\s+be|should\s+be|[:=])\s*:?\s*(?P<span>[^\n]+)", re.I)
_OPTION_PHRASES = (
    re.compile(r"\b(?:choose|select|pick|mark|tick)\s+(?:options?\s*|choices?\s*)?(?P<span>\(?[A-D]\)?"
               r"(?:\s*(?:,|and|&)\s*\(?[A-D]\)?)*)"),
    re.compile(r"(?P<span>(?:\b(?:options?|choices?)\s*)?\(?\b[A-D]\b\)?(?:\s*(?:,|and|&)\s*\(?[A-D]\)?)*)"
               r"\s+(?:is|are)\s+(?:the\s+)?(?:correct|right|true)\b"),
)


def final_answer_tag(text: str) -> str | None:
    """Filter 1: the `<final_answer>` content (the last non-empty one; unclosed at the end counts)."""
    spans = [m.group(1).strip() for m in _FINAL_TAG.finditer(text)]
    spans = [s for s in spans if s]
    return spans[-1] if spans else None


def _trim_sentence(span: str) -> str:
    """Cut an "answer is ..." span at the end of its sentence (a period followed by space or end)."""
    span = re.split(r"\.(?:\s|$)", span, maxsplit=1)[0]
    return span.strip().rstrip(".;,").strip()


def last_pattern(text: str, answer_type: str) -> tuple[str, str] | None:
    """Filter 2: (span, pattern name) of whichever answer pattern occurs last in the text.

    When the last hit opens another hit's span ("Answer: $\\boxed{2.5}$ m/s"), the enclosing span is
    used: it holds more (here the unit).
    """
    hits: list[tuple[int, int, int, str, str]] = []  # start, span start, span end, span, name
    for m in _ANSWER_IS.finditer(text):
        span = _trim_sentence(m.group("span"))
        if span:
            hits.append((m.start(), m.start("span"), m.start("span") + len(span), span, "answer_is"))
    for pos, content in find_boxed(text):
        if content.strip():
            end = text.find(content, pos) + len(content) + 1
            hits.append((pos, pos, end, content.strip(), "boxed"))
    if answer_type in ("mcq", "mcq_multi"):
        for pattern in _OPTION_PHRASES:
            for m in pattern.finditer(text):
                hits.append((m.start(), m.start("span"), m.end("span"), m.group("span"), "option"))
    if not hits:
        return None
    last = max(hits, key=lambda h: h[0])
    for outer in sorted(hits):
        if outer[0] < last[0] and outer[2] >= last[2] and not text[outer[1]:last[0]].strip(" $\\(["):
            return outer[3], outer[4]
    return last[3], last[4]


def short_text(text: str) -> str | None:
    """Filter 3: the whole prediction when it is already a short answer (≤ 2 lines, ≤ 80 characters)."""
    stripped = text.strip()
    if stripped and len(stripped) <= 80 and stripped.count("\n") <= 1:
        return stripped
    return None


def extract_answer(text: str, answer_type: str) -> Extraction:
    """Run the filters in order; the first span found wins."""
    span = final_answer_tag(text)
    if span is not None:
        return Extraction(span, "final_answer")
    found = last_pattern(text, answer_type)
    if found is not None:
        return Extraction(found[0], found[1])
    span = short_text(text)
    if span is not None:
        return Extraction(span, "short_text")
    return Extraction(None, "none")


# ---- reading letters -----------------------------------------------------------------------------

_LETTER_NOISE = re.compile(r"\b(?:options?|choices?|statements?|and|both|only|answers?|is|are|the|final|correct|"
                           r"right|true)\b|[\s,;:&/.()\[\]{}*+'\"]", re.I)


def parse_letters(span: str) -> frozenset[str] | None:
    """The option letters an answer span names: "B", "(A), (C)", "A, B and D", "ABD", "(B) 6.4e-34"."""
    plain = latex_to_plain(span)
    compact = _LETTER_NOISE.sub("", plain)
    if compact and re.fullmatch(r"[A-D]+", compact):
        return frozenset(compact)
    if compact and re.fullmatch(r"[a-d]", compact):  # a lone lower-case letter "(b)"
        return frozenset(compact.upper())
    bracketed = re.findall(r"[(\[]\s*([A-Da-d])\s*[)\]]", plain)
    if bracketed:
        return frozenset(c.upper() for c in bracketed)
    lead = re.match(r"\s*(?:options?\s*|choices?\s*)?([A-D])(?:[).:,;]|\s|$)", plain, re.I)
    if lead and lead.group(1).isupper():
        return frozenset(lead.group(1))
    return None


def _normalise_text(text: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "", latex_to_plain(text).lower())


def match_option(span: str, options: Sequence[str]) -> str | None:
    """The letter of the option whose text (or single value) the span states, if exactly one matches."""
    norm = _normalise_text(span)
    hits = [LETTERS[i] for i, opt in enumerate(options[:4]) if norm and _normalise_text(opt) == norm]
    if len(hits) == 1:
        return hits[0]
    value = parse_number(span)
    if value is None:
        return None
    hits = []
    for i, opt in enumerate(options[:4]):
        other = parse_number(opt)
        if other is not None and math.isclose(value, other, rel_tol=1e-6):
            hits.append(LETTERS[i])
    return hits[0] if len(hits) == 1 else None


# ---- scoring per type ----------------------------------------------------------------------------


def _gold_letters(gold: str) -> frozenset[str]:
    letters = parse_letters(gold)
    if not letters:
        raise ValueError(f"gold {gold!r} is not an option letter (A-D) or set of letters")
    return letters


def _pred_letters(span: str, options: Sequence[str] | None) -> frozenset[str] | None:
    letters = parse_letters(span)
    if letters is None and options:
        letter = match_option(span, options)
        letters = frozenset(letter) if letter else None
    return letters


def _score_mcq(gold: str, span: str, options: Sequence[str] | None, multi: bool, **_: object) -> Score:
    want = _gold_letters(gold)
    got = _pred_letters(span, options)
    if got is None:
        return Score(False, 0.0, span, UNPARSEABLE, "no option letter in the answer")
    extracted = "".join(sorted(got))
    if got == want:
        return Score(True, 1.0, extracted, MATCH)
    if not multi:
        detail = "several letters for a single-answer item" if len(got) > 1 else f"gold {''.join(sorted(want))}"
        return Score(False, 0.0, extracted, MISMATCH, detail)
    if got <= want:  # JEEBench: 0.25 per chosen letter when none is wrong
        return Score(False, 0.25 * len(got), extracted, PARTIAL,
                     f"{len(got)} of {len(want)} correct letters, none wrong")
    wrong = "".join(sorted(got - want))
    return Score(False, 0.0, extracted, MISMATCH, f"wrong letter(s) {wrong}")


def _score_value(gold: str, span: str, answer_type: str, rel_tol: float, abs_tol: float, allow_missing_unit: bool,
                 **_: object) -> Score:
    found = judge(span, gold, answer_type, rel_tol, abs_tol=abs_tol, allow_missing_unit=allow_missing_unit)
    return Score(found.correct, 1.0 if found.correct else 0.0, found.extracted, found.reason, found.detail)


_SCORERS: dict[str, Callable[..., Score]] = {
    "mcq": lambda gold, span, **kw: _score_mcq(gold, span, multi=False, **kw),
    "mcq_multi": lambda gold, span, **kw: _score_mcq(gold, span, multi=True, **kw),
    "integer": lambda gold, span, **kw: _score_value(gold, span, "integer", **kw),
    "numeric": lambda gold, span, **kw: _score_value(gold, span, "numeric", **kw),
    "numeric_unit": lambda gold, span, **kw: _score_value(gold, span, "numeric_unit", **kw),
}


def score(gold: str, pred: str, answer_type: str, rel_tol: float = 0.01, *, abs_tol: float = 0.01,
          options: Sequence[str] | None = None, allow_missing_unit: bool = False) -> Score:
    """Extract the answer from `pred` (a short answer or a whole response) and score it against `gold`.

    Raises ValueError for an unknown `answer_type` or a gold answer that cannot be read (a data error,
    not a model error).
    """
    if answer_type not in _SCORERS:
        raise ValueError(f"answer type {answer_type!r} is not one of {', '.join(ANSWER_TYPES)}")
    found = extract_answer(pred, answer_type)
    if found.span is None:
        # Still validate the gold answer, so a bad gold line is reported even when the model said nothing.
        _SCORERS[answer_type](gold, gold, rel_tol=rel_tol, abs_tol=abs_tol, options=None,
                              allow_missing_unit=True)
        return Score(False, 0.0, "", NO_ANSWER, "no <final_answer>, answer phrase, \\boxed{} or short answer",
                     found.method)
    result = _SCORERS[answer_type](gold, found.span, rel_tol=rel_tol, abs_tol=abs_tol, options=options,
                                   allow_missing_unit=allow_missing_unit)
    if result.reason == UNPARSEABLE and found.method == "short_text":
        # The short-text fallback only guessed that the whole reply is the answer ("I am not sure."):
        # nothing answer-like in it is "no answer", not an unreadable answer.
        return Score(False, 0.0, result.extracted, NO_ANSWER, result.detail, found.method)
    return Score(result.correct, result.score, result.extracted, result.reason, result.detail, found.method)


def score_problem(problem: Problem, pred: str, rel_tol: float = 0.01) -> Score:
    """Score a prediction for a benchmark item (uses its options to map quoted option text to letters)."""
    return score(problem.answer, pred, problem.answer_type, rel_tol, options=problem.options)


def summarize(scores: Iterable[Score]) -> dict:
    """Totals for a list of scores: n, correct, accuracy, mean score, no_answer and counts per reason."""
    scores = list(scores)
    n = len(scores)
    reasons = Counter(s.reason for s in scores)
    return {
        "n": n,
        "correct": sum(s.correct for s in scores),
        "accuracy": sum(s.correct for s in scores) / n if n else 0.0,
        "mean_score": sum(s.score for s in scores) / n if n else 0.0,
        "no_answer": reasons.get(NO_ANSWER, 0),
        "reasons": dict(reasons),
    }
