"""Relations wherever they are written: what a step that writes an equation between quantities is, when its
section would say otherwise (session 10, issue #12: the late and type-only misses whose labelled first error
is a wrong relation, law or arithmetic, CM or CE, on all eight tuning sets).

RUBRIC.md types an error by its cause, not by the tag it sits in: a wrong relation is CM wherever it is
written (<given>, <find>, an untagged first step), a wrong result of a right relation is CE. The walk of
`physr3.verify.symbolic` checks every equation it can evaluate; these helpers say what a step is when the
walk could not decide it.

Session ten, one sentence each:
- a step outside <given> and <find> that nothing could check, blamed under `--unchecked error`, is CM when
  it writes a relation between symbols (`X = expression` whose right side combines two or more leaves by an
  operator, one of them a symbol, and no written value: `fk = (1/k) * (C)` untagged, `Q = C / (T1 - T2)` in a
  calculation), not CE by its section: it states physics, not arithmetic. In <given>/<find> the labels type
  such a line by what it stands in for (`f = c/L` for the given frequency, `s = (m1 - m0)/(m1 - m0)`: MC),
  so the section's type stays there;
- an equation written on the lines below a step's own first line, up to a blank line, a tag or the next step
  ("Step 4: Wave equation: the de Broglie relation is given by:" then `λ = (1/h) * m*v`), belongs to that
  step and is checked with it, whatever its section (a <given> step's lines below were read already);
- a <concept> equation naming one new letter once, as a factor or a divisor, while every other symbol outside a
  sine, cosine, exponential or logarithm has a known dimension (`V = C/L`, `I = R*sin(w*θ)`), is CM when none
  of the kinds the letter conventionally names (the letter table of `symbolic_givens`) makes it hold
  dimensionally, nor does any quantity of the problem have the kind it would need (the table is not
  complete: `Q = m*L`, L the latent heat): no reading of the letter makes the relation true (the check
  `defines_in_passing` passes such an equation by, turned round).
In place elsewhere (small edits, same session):
- `physr3.quantity.text.normalize` reads `/m2` after an indexed symbol (`m1*v1/m2`) as the symbol m2, not per
  square metre (C2: a wrong <find> relation was read as v/m^2 and left unchecked);
- `_Checker.wrong_formula` in a <find> step reads the letter as written (the target's own letter `F` equated to
  a formula of the givens is the target even after `F = 19 W` labelled the power) and each segment of a chain
  (U3);
- a given writing letter(value) on both sides (`F(0.936 m) = T(210 N)`) is garbled data, MC (U6);
- a step that nothing could check and that names a principle that does not apply ("Step 1: Refraction") is CM,
  also when the blame comes from `--unchecked error`; a solution that states no given before a later failure is
  blamed where the givens belong, as when nothing fails (the completeness rule, applied first).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from physr3 import quantity as mp
from physr3.verify.symbolic_checks import Finding, _leaves, _strip_remarks, _strip_tags
from physr3.verify.symbolic_layouts import lines_below_steps

# a letter right before an "=" (not "<=", ">=", "=="): the left-hand side of a written relation
_LHS_LETTER = re.compile(r"(?<![\w'])([A-Za-zα-ωΑ-Ω][\w']{0,7})\s*(?:\([^()]{0,40}\)\s*)?=(?!=)")
_OPERATORS = ("mul", "div", "add", "sub", "pow", "call")


def writes_relation(checker, text: str) -> bool:
    """Whether a step writes a relation between quantities: a symbol `X` equated to an expression that
    combines two or more leaves (values, symbols) by an operator, at least one leaf a symbol
    (`E = h*c*v*sin(θ)`, `Q = C / (T1 - T2)`), not a value (`T = 14.1 N`) nor a substitution of numbers
    only (`F = (9e9 N)*(5.55 uC)`, whose slip is arithmetic). Remarks in parentheses are not read."""
    plain = _strip_remarks(_strip_tags(text))
    for m in _LHS_LETTER.finditer(plain):
        if not mp.symbol_like(m.group(1)):
            continue  # "result = ...": a word, not a symbol
        rhs = re.split(r"=|;|,\s", plain[m.end():], maxsplit=1)[0]
        if re.search(r"\d\.\d|\d{2}", rhs):
            continue  # `k = 2.71 e/s`, `L' = 72 cm * mu0/L`: a value with a garbled unit, data (MC)
        for node in checker.readings(rhs, "rhs")[:1]:
            lhs = checker.readings(m.group(1), "lhs")
            if lhs and lhs[0][0] == "var" and lhs[0][1] in checker.gt.givens:
                continue  # `f = c/L` for the given frequency: a given misstated (MC), as `_type_by_cause` says
            if node[0] in _OPERATORS and (_leaves(node) >= 2 or node[0] == "call") and mp.variables(node):
                return True
    return False


MAX_LINES = 12  # equation lines read below one step


def equation_continuations(text: str, steps: Sequence[Any]) -> dict[int, list[str]]:
    """The lines below a step's own "Step k:" line that write an equation (hold an "="), up to a blank line, a
    tag or the next step, by step index, for steps not written in <given> (whose lines below are
    `symbolic.given_continuations`' case) and with text on their own line (else `continued_steps` reads
    the lines below as the step): a small model often announces a relation in words and writes it below."""
    out: dict[int, list[str]] = {}
    for k, raw in lines_below_steps(text, steps, lambda step: step.tag != "given").items():
        lines = [line.strip() for line in raw if "=" in line]
        if lines:
            out[k] = lines[:MAX_LINES]
    return out


def letter_misfit(checker, parts: list[str]) -> Finding | None:
    """A <concept> equation `parts[0] = parts[1]` whose one new letter (used once, as a factor or a divisor,
    outside any function; letters inside sin/cos/exp/ln leave a number) cannot be any of the kinds that letter
    conventionally names, every other symbol's dimension known: CM (`V = C/L`: C/V is no length, inductance
    or angular momentum). None when it fits a kind, or when anything is unknown (no judgement)."""
    from physr3.verify.symbolic_givens import _INDEXED, _LETTER_KINDS  # imports symbolic_checks

    if len(parts) != 2:
        return None
    saved = checker.names  # read as `check_concept_clause` does: a case variant (L beside l) is no alias there
    checker.names = {k: v for k, v in saved.items() if k not in checker.case_variants or k in checker.spoken}
    try:
        sides = [checker.readings(p, "lhs" if k == 0 else "rhs") for k, p in enumerate(parts)]
    finally:
        checker.names = saved
    if not all(sides):
        return None
    nodes = [sides[0][0], sides[1][0]]
    new = [v for n in nodes for v in _uses_outside_calls(n) if not any(v in env for env in checker.env)]
    if len(new) != 1:
        return None
    u = new[0]
    if any(n[0] == "num" and n[1] == 0.0 for n in nodes) or re.fullmatch(r"(?:d|Δ|delta)[A-Z]\w*", u):
        return None  # `dU = 0`: zero has every kind; dU, ΔT are changes, not letters of the table
    k = 0 if u in _uses_outside_calls(nodes[0]) else 1
    power = _power_of(nodes[k], u)
    m = _INDEXED.fullmatch(u)
    kinds = _LETTER_KINDS.get(m.group("base")) if m else None
    if power is None or not kinds or sum(v == u for n in nodes for v in _var_uses_all(n)) != 1:
        return None
    with_u = mp.dimension(nodes[k], {**checker.dims, u: mp.DIMLESS})
    other = mp.dimension(nodes[1 - k], checker.dims)
    if with_u is None or other is None:
        return None
    need = tuple((x - y) * power for x, y in zip(other, with_u))
    if any((info := mp.pint_unit(unit)) is not None and mp.same_dim(info.dim, need) for unit in kinds):
        return None
    if any(d is not None and mp.same_dim(d, need) for d in checker.gt.dims.values()):
        return None  # a quantity of the problem has that kind (`Q = m*L`, L the latent heat): the letter may be its
    return Finding(0, "fail", "CM", f"writes {parts[0].strip()} = {parts[1].strip()[:40]}, which no usual meaning of "
                   f"{u} ({', '.join(kinds)}) makes dimensionally consistent: a wrong relation.",
                   info={"check": "dimension", "symbol": u})


def _var_uses_all(node) -> list[str]:
    """The variables of an expression, once per occurrence, inside functions too."""
    if node[0] == "var":
        return [node[1]]
    return [v for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str) for v in _var_uses_all(a)]


def _uses_outside_calls(node) -> list[str]:
    """The variables of an expression outside the arguments of functions whose value is a number whatever
    the argument's kind (sin, exp, ln, ...; not sqrt or abs, which carry their argument's dimension)."""
    if node[0] == "var":
        return [node[1]]
    if node[0] == "call" and node[1] not in ("sqrt", "abs"):
        return []
    return [v for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str)
            for v in _uses_outside_calls(a)]


def _power_of(node, name: str) -> int | None:
    """1 when `name` is the expression or a factor of its top product, -1 when it is a divisor there
    (`C/L`, `a/(b*L)`), None otherwise (inside a sum, a power or a function)."""
    if node == ("var", name):
        return 1
    if node[0] == "mul":
        found = [p for a in node[1:3] if (p := _power_of(a, name)) is not None]
        return found[0] if found else None
    if node[0] == "div":
        top = _power_of(node[1], name)
        if top is not None:
            return top
        bottom = _power_of(node[2], name)
        return -bottom if bottom is not None else None
    return None
