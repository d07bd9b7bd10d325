"""Agreement between two sets of step-level verdicts (Table 6 of the paper, and more).

Each side is a JSONL file in `physr3 verify`'s output format (`{"id", "error_step", "error_type", ...}`)
or a labels file (`physr3 synth --inject`'s `label_error_step` / `label_error_type`): two verifiers, a
verifier and labels, two judges, two human annotators. Lines are matched by `id`. A type may be written
as the code (MC, CM, CE, none) or as a category name ("Calculation Error", "no error"; read by the
judge's `normalize_error_type`), so hand-made annotation files need no cleaning; a missing, empty or
unreadable type is refused.

Reported, over the ids present on both sides with a usable verdict on both:
- Cohen's kappa on the error type with "none" as a class (MC, CM, CE, none), computed by scikit-learn's
  `cohen_kappa_score` (unweighted: the types are nominal);
- exact first-error-step agreement and agreement within one step (|a - b| <= 1). Step 0 (no error) is
  compared as a number, so "no error" vs "error at step 1" counts as within one step; the type kappa and
  the confusion matrix's "none" row and column show those cases;
- the type confusion matrix (rows: side A, columns: side B) and n.

Deviation from the paper: Table 6 reports kappa "for step-level scoring" between four evaluators without
saying what was scored; here kappa is on the error type, and the step is reported as raw agreement rates,
because a step index is not a nominal label whose chance agreement kappa models well (step 3 vs step 4 is
closer than 3 vs 9). Kappa is undefined when both sides use a single class throughout; it is then `None`.

A verdict whose `status` is not "ok" (a judge parse or API failure) carries error_step 0 / type "none"
that does not mean "no error" (physr3.verify.base), so such pairs are left out and counted separately.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

from physr3.errors import InputFormatError, UserError
from physr3.problems import iter_jsonl
from physr3.verify.base import ERROR_TYPES
from physr3.verify.parsing import normalize_error_type

# Which fields a side is read from. "auto": the verdict fields when present, else the label fields.
FIELD_SETS = {"verdict": ("error_step", "error_type"), "label": ("label_error_step", "label_error_type")}
SOURCES = ("auto", "verdict", "label")


@dataclass
class Side:
    """One file's verdicts: id -> (step, type); `failed` holds ids whose verdict status is not ok."""

    path: str
    verdicts: dict[str, tuple[int, str]] = field(default_factory=dict)
    failed: set[str] = field(default_factory=set)


def read_side(path: str, source: str = "auto") -> Side:
    """Read one side; a malformed line raises InputFormatError naming the file, line and field."""
    if source not in SOURCES:
        raise UserError(f"field source {source!r}: expected one of {', '.join(SOURCES)}")
    side = Side(path)
    lines: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        if "id" not in row:
            raise InputFormatError(path, lineno, "id", "required field is missing")
        if not isinstance(row["id"], str | int) or isinstance(row["id"], bool):
            raise InputFormatError(path, lineno, "id", f"expected a string or integer, got {type(row['id']).__name__}")
        rid = str(row["id"])
        if rid in lines:
            raise InputFormatError(path, lineno, "id", f"duplicate id {rid!r} (first on line {lines[rid]})")
        lines[rid] = lineno
        kind = source
        if kind == "auto":
            kind = "verdict" if "error_step" in row or "error_type" in row else "label"
        step_key, type_key = FIELD_SETS[kind]
        for key in (step_key, type_key):
            if key not in row:
                other = FIELD_SETS["label" if kind == "verdict" else "verdict"][0]
                hint = "" if source != "auto" else f" (nor {other})"
                raise InputFormatError(path, lineno, key, f"required field is missing{hint}")
        if kind == "verdict" and row.get("status", "ok") != "ok":
            side.failed.add(rid)
            continue
        step, etype = row[step_key], row[type_key]
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise InputFormatError(path, lineno, step_key, f"expected an integer >= 0, got {step!r}")
        norm = normalize_error_type(etype) if isinstance(etype, str) and etype.strip() else "unknown"
        if norm not in ERROR_TYPES:
            raise InputFormatError(path, lineno, type_key, f"{etype!r} is not one of {', '.join(ERROR_TYPES)} "
                                   "(or a category name such as 'Calculation Error')")
        side.verdicts[rid] = (step, norm)
    return side


@dataclass
class Agreement:
    n: int
    kappa_type: float | None
    step_exact: float | None
    step_within1: float | None
    confusion: dict[str, dict[str, int]]
    only_a: int = 0
    only_b: int = 0
    failed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The object `physr3 agreement --json` prints."""
        return {"n": self.n, "kappa_type": self.kappa_type, "step_exact": self.step_exact,
                "step_within1": self.step_within1, "confusion": self.confusion}


def agreement(a: Side, b: Side) -> Agreement:
    """Kappa on the type, step agreement and the confusion matrix over the ids usable on both sides."""
    # imported here: sklearn takes a second to import, and read_side's users do not need it
    from sklearn.exceptions import UndefinedMetricWarning
    from sklearn.metrics import cohen_kappa_score

    ids = [i for i in a.verdicts if i in b.verdicts]  # A's file order
    all_a, all_b = set(a.verdicts) | a.failed, set(b.verdicts) | b.failed
    failed = len(all_a & all_b) - len(ids)
    only_a, only_b = len(all_a - all_b), len(all_b - all_a)
    confusion = {t: dict.fromkeys(ERROR_TYPES, 0) for t in ERROR_TYPES}
    for i in ids:
        confusion[a.verdicts[i][1]][b.verdicts[i][1]] += 1
    n = len(ids)
    if n == 0:
        return Agreement(0, None, None, None, confusion, only_a, only_b, failed)
    types_a = [a.verdicts[i][1] for i in ids]
    types_b = [b.verdicts[i][1] for i in ids]
    with warnings.catch_warnings():  # a single shared class: undefined, reported as None below
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        kappa = float(cohen_kappa_score(types_a, types_b, labels=list(ERROR_TYPES)))
    steps = [(a.verdicts[i][0], b.verdicts[i][0]) for i in ids]
    exact = sum(x == y for x, y in steps) / n
    within = sum(abs(x - y) <= 1 for x, y in steps) / n
    return Agreement(n, None if math.isnan(kappa) else kappa, exact, within, confusion, only_a, only_b, failed)


def format_report(result: Agreement, a: str, b: str) -> str:
    """A plain-text report: the figures, then the confusion matrix with A's types as rows."""
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"

    kappa = "n/a (a single class on both sides)" if result.kappa_type is None and result.n else (
        "n/a" if result.kappa_type is None else f"{result.kappa_type:.3f}")
    lines = [f"A: {a}", f"B: {b}",
             f"n = {result.n} matched ids (only in A {result.only_a}, only in B {result.only_b}, "
             f"left out for a failed verdict {result.failed})",
             f"Cohen's kappa (error type, 'none' a class): {kappa}",
             f"first-error step: exact {pct(result.step_exact)}, within one step {pct(result.step_within1)}",
             "", "confusion (rows A, columns B):",
             "       " + "".join(f"{t:>6}" for t in ERROR_TYPES)]
    for t in ERROR_TYPES:
        lines.append(f"{t:>6} " + "".join(f"{result.confusion[t][u]:>6}" for u in ERROR_TYPES))
    return "\n".join(lines)
