"""Step-level ground truth: the JSON record stored in `Problem.ground_truth` for every generated problem.

It is what the offline symbolic verifier compares a model's solution against (to find the first wrong
step) and what the error injector perturbs. It is plain JSON (floats, strings, lists, objects); floats
are written by `json` with `repr`, so they round-trip exactly.

Top level (schema "physr3.synth.gt/1")::

    schema   "physr3.synth.gt/1"
    family   family name; `get_family(family).generate(seed)` reproduces the whole Problem byte for byte
    domain   one of physr3.problems.DOMAINS
    seed     the instance seed (int)
    kind     "numeric" | "mcq"
    symbols  {symbol: {"unit": str, "description": str, "role": "given" | "computed"}}
    steps    [step, ...]: one per `Step k:` line of the solution, in order, steps[i]["number"] == i + 1
    answer   {"symbol", "value", "unit", "sig", "text"}; for "mcq" also "letter" and
             "options": [{"letter", "text", "value", "correct": bool, "error": label or null}]

Every step has ``number`` (1-based, as written), ``tag`` (its seven-tag section), ``kind`` and ``text``
(the line exactly as it follows "Step k: " in the solution). By kind:

    given         symbol, value, unit, description: the stated value in its stated unit (not SI)
    target        symbol, unit, description
    principle     name, keywords (list of lowercase cues), statement
    equation      symbol, unit, lhs (== symbol), rhs (sympy `str`, `**` for powers), rhs_srepr (exact,
                  `sympy.parse_expr(rhs_srepr)` rebuilds it; safe for names such as E, I, S, N),
                  depends (sorted names of the symbols in rhs)
    substitution  symbol, equation_step (number of its equation step), values {given symbol: [value,
                  unit]}: the givens put into the equation; computed symbols are left symbolic and take
                  the values of their calculation steps
    calculation   symbol, value (full precision, in unit), unit, sig, display (the rounded text shown),
                  equation_step

Conventions the consumers rely on:

- Equations hold in SI base units: convert each given with pint (`value * unit` to base units), evaluate
  rhs, convert to the step's unit. Angles in deg become rad. Offset units are never used (K only).
- A calculation's `value` is computed from full-precision earlier values, never from rounded displays;
  recomputation agrees to 1e-9 relative (`physr3.synth.check`). A model that rounds intermediates will
  differ by rounding error only; tolerance is the verifier's choice.
- Section order is fixed: givens, one target, principles, then per computed symbol in order one equation,
  one substitution, one calculation (equations, then substitutions, then calculations).
"""

from __future__ import annotations

from typing import Any

SCHEMA = "physr3.synth.gt/1"
STEP_KINDS = ("given", "target", "principle", "equation", "substitution", "calculation")
KIND_TAG = {
    "given": "given",
    "target": "find",
    "principle": "concept",
    "equation": "governing_equation",
    "substitution": "substitution",
    "calculation": "calculation",
}


def step(kind: str, text: str, **content: Any) -> dict[str, Any]:
    """One step record without its number (numbers are assigned once all steps are known)."""
    if kind not in KIND_TAG:
        raise ValueError(f"unknown step kind {kind!r}; valid: {', '.join(STEP_KINDS)}")
    return {"number": 0, "tag": KIND_TAG[kind], "kind": kind, "text": text, **content}


def number_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Assign 1-based numbers in section order; equation_step links are resolved from `_eq` markers."""
    order = {tag: i for i, tag in enumerate(KIND_TAG.values())}
    steps = sorted(steps, key=lambda s: order[s["tag"]])  # stable: keeps order within a section
    eq_number: dict[str, int] = {}
    for k, s in enumerate(steps, 1):
        s["number"] = k
        if s["kind"] == "equation":
            eq_number[s["symbol"]] = k
    for s in steps:
        if s["kind"] in ("substitution", "calculation"):
            s["equation_step"] = eq_number[s["symbol"]]
    return steps


def sections(steps: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The per-tag lines that `physr3.solution.render_solution` numbers 1..n in the same order."""
    out: dict[str, list[str]] = {tag: [] for tag in KIND_TAG.values()}
    for s in steps:
        out[s["tag"]].append(s["text"])
    return out
