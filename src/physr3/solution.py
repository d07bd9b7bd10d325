"""The seven-tag structured solution format: render, parse, validate, count steps.

A solution is seven XML-like sections in a fixed order; every reasoning line is a numbered step
`Step k:` and the numbering runs 1..n across the six reasoning sections. `<final_answer>` holds
the answer and no step. The verifier points at steps by number and the reward is e/(n+1), so
what counts as a step matters:

- We count steps with a pattern anchored at the start of a line (`ANCHORED_STEP_PATTERN`), so a
  "Step 3:" quoted inside prose is not a step.
- The paper's Appendix B counts with an unanchored pattern (`PAPER_STEP_PATTERN`); it is kept as
  `count_steps(text, pattern="paper")` so the paper's reward can be reproduced exactly.

Compliance (what `validate` checks, each failure named in `FormatReport.violations`):
seven tags present once each, opened and closed, in order, non-empty; every reasoning section holds
at least one numbered step (a section without one cannot be pointed at by the verifier); steps
numbered 1..n without gaps or repeats; no step inside `<final_answer>` and none outside the tags.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

TAGS: tuple[str, ...] = (
    "given",
    "find",
    "concept",
    "governing_equation",
    "substitution",
    "calculation",
    "final_answer",
)
REASONING_TAGS: tuple[str, ...] = TAGS[:-1]

# Which error type a first error in each section usually is (docs/FORMAT.md): used to sanity-check verdicts
# and to route feedback when a verifier gives a step but no usable type.
TAG_ERROR_TYPE: dict[str, str] = {
    "given": "MC",
    "find": "MC",
    "concept": "CM",
    "governing_equation": "CM",
    "substitution": "CE",
    "calculation": "CE",
}

ANCHORED_STEP_PATTERN = re.compile(r"^\s*(?:#+\s*)?Step\s+(\d+)\s*:", re.MULTILINE)
PAPER_STEP_PATTERN = re.compile(r"(?:#+\s*)?Step\s+(\d+):")
STEP_PATTERNS = {"anchored": ANCHORED_STEP_PATTERN, "paper": PAPER_STEP_PATTERN}

_TAG_RE = re.compile(r"<(/?)(" + "|".join(TAGS) + r")\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class Step:
    """One numbered step: its number as written, its text after the colon, and its section."""

    number: int
    text: str
    tag: str | None


@dataclass
class ParsedSolution:
    """What could be read from a solution, however malformed; `validate` judges it."""

    sections: dict[str, str] = field(default_factory=dict)  # tag -> inner text (first occurrence)
    steps: list[Step] = field(default_factory=list)
    final_answer: str | None = None

    def step(self, number: int) -> Step | None:
        """The first step written with this number, or None."""
        return next((s for s in self.steps if s.number == number), None)

    def section_steps(self, tag: str) -> list[Step]:
        return [s for s in self.steps if s.tag == tag]


@dataclass(frozen=True)
class FormatReport:
    compliant: bool
    n_steps: int
    violations: list[str]

    def to_json(self) -> dict:
        return {"compliant": self.compliant, "n_steps": self.n_steps, "violations": list(self.violations)}


def count_steps(text: str, pattern: str = "anchored") -> int:
    """Number of `Step k:` markers; `pattern="paper"` reproduces Appendix B's unanchored count."""
    try:
        regex = STEP_PATTERNS[pattern]
    except KeyError:
        raise ValueError(f"unknown step pattern {pattern!r}; valid: {', '.join(STEP_PATTERNS)}") from None
    return len(regex.findall(text))


def render_solution(sections: Mapping[str, Sequence[str]], final_answer: str) -> str:
    """Render reasoning lines per section into the seven-tag text, numbering steps 1..n in order.

    `sections` maps each reasoning tag to its lines (without "Step k:"); a missing tag is an error
    because a rendered solution must be compliant.
    """
    missing = [t for t in REASONING_TAGS if not sections.get(t)]
    if missing:
        raise ValueError(f"render_solution: no lines for section(s) {', '.join(missing)}")
    unknown = [t for t in sections if t not in REASONING_TAGS]
    if unknown:
        raise ValueError(f"render_solution: unknown section(s) {', '.join(unknown)}")
    if not final_answer.strip():
        raise ValueError("render_solution: empty final answer")
    out: list[str] = []
    k = 0
    for tag in REASONING_TAGS:
        out.append(f"<{tag}>")
        for line in sections[tag]:
            k += 1
            out.append(f"Step {k}: {line.strip()}")
        out.append(f"</{tag}>")
    out += ["<final_answer>", final_answer.strip(), "</final_answer>"]
    return "\n".join(out)


def _tag_spans(text: str) -> list[tuple[str, bool, int, int]]:
    """(tag, is_close, start, end) for each tag marker, in order of appearance."""
    return [(m.group(2).lower(), bool(m.group(1)), m.start(), m.end()) for m in _TAG_RE.finditer(text)]


def parse_solution(text: str) -> ParsedSolution:
    """Read sections, steps and the final answer; never raises on malformed input."""
    spans = _tag_spans(text)
    parsed = ParsedSolution()
    # Section extents: from each first opening tag to the next closing tag of the same name.
    extents: list[tuple[str, int, int]] = []
    for i, (tag, is_close, _start, end) in enumerate(spans):
        if is_close or tag in parsed.sections:
            continue
        close = next((s for s in spans[i + 1 :] if s[0] == tag and s[1]), None)
        inner_end = close[2] if close else len(text)
        parsed.sections[tag] = text[end:inner_end].strip()
        extents.append((tag, end, inner_end))
    for m in ANCHORED_STEP_PATTERN.finditer(text):
        pos = m.start(1)
        tag = next((t for t, a, b in extents if a <= pos < b), None)
        line_end = text.find("\n", m.end())
        body = text[m.end() : line_end if line_end != -1 else len(text)].strip()
        parsed.steps.append(Step(int(m.group(1)), body, tag))
    if "final_answer" in parsed.sections:
        parsed.final_answer = parsed.sections["final_answer"]
    return parsed


def validate(text: str) -> FormatReport:
    """Check the compliance rules of docs/FORMAT.md; each broken rule gives one readable violation."""
    violations: list[str] = []
    spans = _tag_spans(text)
    for tag in TAGS:
        opens = sum(1 for t, c, _, _ in spans if t == tag and not c)
        closes = sum(1 for t, c, _, _ in spans if t == tag and c)
        if opens == 0:
            violations.append(f"missing <{tag}>")
        elif opens > 1:
            violations.append(f"<{tag}> appears {opens} times (expected once)")
        if opens and closes == 0:
            violations.append(f"<{tag}> is not closed")
        elif closes > opens:
            violations.append(f"</{tag}> without a matching <{tag}>")

    # Order and nesting: the markers must read <t1></t1><t2></t2>... exactly.
    expected = [(t, c) for t in TAGS for c in (False, True)]
    seen = [(t, c) for t, c, _, _ in spans]
    if not violations and seen != expected:
        first_bad = next(i for i, (a, b) in enumerate(zip(seen, expected)) if a != b)
        t, c = seen[first_bad]
        violations.append(f"tags out of order: found {'</' if c else '<'}{t}> where "
                          f"{'</' if expected[first_bad][1] else '<'}{expected[first_bad][0]}> was expected")

    parsed = parse_solution(text)
    for tag in TAGS:
        if tag in parsed.sections and not parsed.sections[tag]:
            violations.append(f"<{tag}> is empty")
    for tag in REASONING_TAGS:
        if parsed.sections.get(tag) and not parsed.section_steps(tag):
            violations.append(f"<{tag}> has no numbered step")

    numbers = [s.number for s in parsed.steps]
    if not numbers:
        violations.append("no numbered steps")
    elif numbers != list(range(1, len(numbers) + 1)):
        expected_k = next((k for k, n in enumerate(numbers, 1) if n != k), len(numbers) + 1)
        got = numbers[expected_k - 1] if expected_k <= len(numbers) else None
        violations.append(f"steps not numbered 1..n without gaps: expected Step {expected_k}, found Step {got}")
    inside_final = [s.number for s in parsed.steps if s.tag == "final_answer"]
    if inside_final:
        violations.append(f"<final_answer> contains step(s) {', '.join(map(str, inside_final))}")
    outside = [s.number for s in parsed.steps if s.tag is None]
    if outside:
        violations.append(f"step(s) {', '.join(map(str, outside))} outside any tag")

    return FormatReport(compliant=not violations, n_steps=len(numbers), violations=violations)


def step_tag(text: str, step_number: int) -> str | None:
    """The section holding step `step_number` (1-based), or None when there is no such step."""
    step = parse_solution(text).step(step_number)
    return step.tag if step else None
