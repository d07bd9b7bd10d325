"""The outcome as evidence: a solution that reaches the right answer is not failed on a doubtful reading.

Most of the symbolic verifier's findings on correct work are misreadings of the author's own notation: a step
no check could read (`unchecked`), words matched to the wrong description (`given_meaning`), an equation in
letters the verifier does not map to the ground truth's (`equation`, `relation`, `dimension`, `constant`), a
principle or target named in other words. On the ten labelled sets of real solutions (session 11), every
solution whose numeric final answer matched the ground truth was labelled correct but one (102 of 103), and
the verifier failed 26 of them, 24 by such readings. (The 102 are all reworded ground truths: in 1,251 labelled
model solutions the model never reached a numeric answer, so what this rule does to the model's own right
answers is not measured yet.) A right multiple-choice letter is weaker evidence (one in
four by chance: 37 of 91 right letters were labelled wrong, all written by the model), so there the solution
must also compute the right option's value.

The rule (`verifier.symbolic_answer_overrules`): when the outcome is reached, a finding from a check in
`READING_CHECKS` is overruled and the verdict is "no error", with the overruled finding kept in
`Verdict.details["overruled"]`; a finding that a stated number contradicts the problem's data or the ground
truth's values (a given's value, unit kind or object, an unknown given a value, a wrong computed value) stands
whatever the outcome, because a right answer does not make a wrong given right.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from physr3 import quantity as mp
from physr3.quantity.answer import MATCH, judge

# Checks that judge how the solution's words, letters and relations read against the ground truth's: what a
# correct solution in its author's own notation trips (the module docstring's figures).
READING_CHECKS = frozenset({
    "unchecked",  # no check could read the step (verifier.symbolic_unchecked=error)
    "complete",  # an element of a complete solution not recognised (the principle or equation in own words)
    "given_meaning", "given_described", "given_words", "given_object",  # a given's words against descriptions
    "principle", "target",  # a law or the target named in other words
    "equation", "relation", "dimension", "constant",  # a relation in letters not mapped to the ground truth's
})

_LAST_VALUE = re.compile(r"(?:=|≈)\s*([^=≈]+)$")


def reaches_answer(gt: Any, final_status: str, steps: Sequence[Any], final_rel: float) -> bool:
    """Whether the solution's outcome is evidence of correct work: a numeric final answer that matches the
    ground truth (`final_status == "correct"`), or a right multiple-choice letter together with a computed step
    (outside <given>/<find>) whose last value is the right option's."""
    if final_status != "correct":
        return False
    answer = gt.rec.get("answer", {})
    if gt.rec.get("kind") != "mcq":
        return True
    gold = answer.get("text") or ""
    if not gold:
        return False
    kind = "numeric_unit" if answer.get("unit") else "numeric"
    for step in steps:
        if step.tag in ("given", "find"):
            continue
        m = _LAST_VALUE.search(mp.normalize(step.text).strip())
        if m is None:
            continue
        try:
            if judge(m.group(1), gold, kind, final_rel, allow_missing_unit=True).reason == MATCH:
                return True
        except ValueError:  # the option's text is not a value (a word answer): the letter alone is too weak
            return False
    return False


def overrules(check: str | None) -> bool:
    """Whether a finding of this check gives way to a reached answer (see `READING_CHECKS`)."""
    return check in READING_CHECKS
