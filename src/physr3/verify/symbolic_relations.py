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

Session twelve (issue #12: late and type-only misses on model-written solutions of all eleven sets whose labelled
step is a relation; round 9's classes C3 and U7), one sentence each:
- a new letter defined in <given> or <find> by an expression of known quantities is CM when no kind its letter
  conventionally names and no quantity of the problem has the expression's dimension (`v2 = v*(h/c)` among the
  givens, once every given of a kind its letter names is stated: the <concept> check `letter_misfit` applied
  where data are stated; not where the solution works, `f = mu*N` with f the friction, which the letter table
  lacks), or, in any section but <concept>, when the expression
  adds two terms that both carry units of different kinds (`E = (18.3 kg*9.8 m/s^2) - (14.1 m)*g`);
- an equation between values only, one side combining two or more of them, whose two sides are of different
  kinds (`14.0 g * 4 g/mol * (285 K) = 100 kJ`) or a side adds values of two kinds, is CM wherever it is written,
  found failing or left unchecked: the relation is wrong, not the arithmetic (CE) nor a given (MC);
- an unchecked <concept> or <governing_equation> step that only equates letters to single values (`v = 367 V`)
  states data: MC, not CM by its section.
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
    return nodes_misfit(checker, [sides[0][0], sides[1][0]], f"{parts[0].strip()} = {parts[1].strip()[:40]}")


def nodes_misfit(checker, nodes: list, what: str) -> Finding | None:
    """`letter_misfit` for an equation already read (`nodes`: its two sides), written `what` in the message."""
    from physr3.verify.symbolic_givens import _INDEXED, _LETTER_KINDS  # imports symbolic_checks

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
    return Finding(0, "fail", "CM", f"writes {what}, which no usual meaning of "
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


def definition_misfit(checker, name: str, readings: list, raw: str, numeric: bool, tag: str | None) -> Finding | None:
    """A new letter defined outside <concept> by an expression that no reading makes a quantity, CM by its cause
    (round-9 class C3); None when it may be right or nothing decides. Two ways:
    - in any section, a sum of two terms that both carry units of different kinds (`E = (18.3 kg*9.8 m/s^2) -
      (14.1 m)*g`), judged in the reading with the fewest letters (`readings`, the first the preferred one);
    - in <given> and <find>, where data are stated, a relation whose dimension none of the kinds its letter
      conventionally names, nor any quantity of the problem, has (`v2 = v*(h/c)`; `nodes_misfit`, the <concept>
      check), among the givens only when no given the letter may stand for is left unstated."""
    # the reading with the fewest letters reads the units as units (`9.8 m/s^2`, not 9.8 times a mass m per s^2)
    unlike = unlike_sum(min(readings, key=lambda r: len(mp.variables(r))), checker.dims)
    if unlike is not None:
        return Finding(0, "fail", "CM", f"defines {name} = {raw.strip()[:40]}, which adds {mp.to_text(unlike[0])} "
                       f"and {mp.to_text(unlike[1])}, quantities of different kinds: a wrong relation.",
                       info={"check": "dimension", "symbol": name})
    if numeric or tag not in ("given", "find") or (tag == "given" and _may_stand_for_given(checker, name)):
        # where the solution works (`f = mu*N`, f the friction) the letter table is too small to judge a new letter;
        # `m = mp*e` before the proton mass is stated is a given misstated (MC), the given checks' part
        return None
    return nodes_misfit(checker, [("var", name), readings[0]], f"{name} = {raw.strip()[:40]}")


def _may_stand_for_given(checker, name: str) -> bool:
    """Whether a letter written among the givens may stand in for a given of the problem not stated yet: one
    of the kinds it conventionally names is that given's (`m` for the proton mass mp). The labels type such a
    line by what it stands in for (a given misstated, MC); with no such given left it can be none (CM)."""
    from physr3.verify.symbolic_givens import _INDEXED, _LETTER_KINDS  # imports symbolic_checks

    m = _INDEXED.fullmatch(name)
    kinds = [info.dim for unit in (_LETTER_KINDS.get(m.group("base"), ()) if m else ())
             if (info := mp.pint_unit(unit)) is not None]
    return any(g not in checker.stated and g not in checker.aliased and mp.same_dim(checker.gt.dims.get(g), d)
               for g in checker.gt.givens for d in kinds)


def unlike_sum(node, dims) -> tuple | None:
    """The two terms of the first sum or difference in an expression whose terms both carry a unit (a value
    with its unit, or a symbol times one) and have known dimensions that differ (`(18.3 kg*9.8 m/s^2) -
    (14.1 m)*g`, a force minus m^2/s^2); None when there is none. A term written as a bare number is not
    judged: a small model drops units in arithmetic it otherwise does right."""
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        return None
    if node[0] in ("add", "sub"):
        a, b = node[1], node[2]
        da, db = mp.dimension(a, dims), mp.dimension(b, dims)
        if mp.has_units(a) and mp.has_units(b) and da is not None and db is not None and not mp.same_dim(da, db):
            return a, b
    if node[0] in ("num", "qty", "var", "const"):
        return None
    for a in node[1:]:
        found = unlike_sum(a, dims)
        if found is not None:
            return found
    return None


def unlike_sides(lhs, rhs, dims) -> bool:
    """Whether an equation between values only (no letter on either side) equates quantities of two kinds:
    both sides carry units, one combines two or more values by an operator, and their dimensions are known
    and differ, or a side adds values of two kinds (`14.0 g * 4 g/mol * (285 K) = 100 kJ`, `(2.6 mol)*(493
    K) = 124 J`; not `844 g = 266 K`, two values written as one, a misread given). Its numbers cannot be a slip of
    arithmetic in a right relation: the relation itself is wrong (CM by cause, wherever it is written)."""
    sides = (lhs, rhs)
    if any(mp.variables(n) or not mp.has_units(n) for n in sides) or not any(_leaves(n) >= 2 for n in sides):
        return False  # `844 g = 266 K`: two values side by side, no relation written (a garbled given, MC)
    if any(unlike_sum(n, dims) is not None for n in sides):
        return True
    da, db = (mp.dimension(n, dims) for n in sides)
    return da is not None and db is not None and not mp.same_dim(da, db)


def equates_unlike_values(checker, text: str) -> bool:
    """Whether a step writes an equation between values only whose two sides are quantities of different
    kinds (`unlike_sides`; `1.84 kg * (286 K) = 392 J*K`, `((502 K) - (13.6 L)) / (3.1 mol) = ...`), each side
    read with the fewest letters (its units as units), clause by clause. Remarks in parentheses are not read."""
    for clause in re.split(r"[;,]\s+|\.\s", _strip_remarks(_strip_tags(text)))[:MAX_LINES]:
        sides = []
        for raw in clause.split("=")[:MAX_LINES]:
            found = checker.readings(raw, "rhs") if raw.strip() else []
            sides.append(min(found, key=lambda r: len(mp.variables(r))) if found else None)
        if any(n is not None and not mp.variables(n) and unlike_sum(n, checker.dims) is not None for n in sides):
            return True  # `(502 K - 13.6 L) / (3.1 mol)`: a temperature minus a volume, whatever the other side
        if any(a is not None and b is not None and unlike_sides(a, b, checker.dims) for a, b in zip(sides, sides[1:])):
            return True
    return False


def states_values_only(checker, text: str) -> bool:
    """Whether every equation a step writes is one letter equated to one value with a unit (`v = 367 V`, "the
    first ball's initial velocity is F1 = 11.1 m/s"), and it writes at least one: the step states data, not a
    relation. Unchecked in <concept> or <governing_equation>, whose section would say CM, it is a given stated
    again or misstated, MC by its cause (round-9 issue: "a misread given is MC wherever it is")."""
    plain = _strip_remarks(_strip_tags(text))
    found = False
    for m in _LHS_LETTER.finditer(plain):
        if not mp.symbol_like(m.group(1)):
            return False
        rhs = re.split(r"=|;|,\s|\.\s|\.$", plain[m.end():], maxsplit=1)[0]
        readings = checker.readings(rhs, "rhs") if rhs.strip() else []
        node = readings[0] if readings else None
        if node is None or node[0] != "qty":
            return False
        found = True
    return found and plain.count("=") == sum(1 for _ in _LHS_LETTER.finditer(plain))
