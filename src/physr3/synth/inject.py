"""Error injection: erroneous solutions with a known first error step and type, from the ground truth.

From a generated problem (its step-level ground truth) `inject_error` writes the solution a student with
one specific mistake would write: the mistake enters at one step and every later step follows from it
(`Family.solve_steps` with replaced givens, equations or values), so the erroneous text is as internally
consistent as a real wrong solution. The label is the first step whose text differs from the ground
truth, and the error type follows the section it is in (DESIGN.md: MC <-> given/find, CM <-> equations,
CE <-> calculations). Operators:

MC (misread the problem; first difference in <given> or <find>)
    misread_given     one stated value copied wrongly: a digit changed or two adjacent digits transposed
    swap_givens       the values of two givens of the same unit exchanged (m1 <-> m2)
    wrong_target      an intermediate quantity taken for the one asked; the solution stops there
CM (wrong concept or equation; first difference in <governing_equation>)
    declared          a family's typical error: its MCQ distractors and `typical_errors`
    flip_sign         one term of a sum with its sign flipped (sign convention)
    missing_factor    one factor of a product dropped (a number such as 2 or 1/2, or a dimensionless
                      factor such as cos(theta) or mu)
    swap_trig         sin <-> cos (wrong component)
    invert_ratio      a dimensionless ratio upside down (V1/V2 -> V2/V1)
    wrong_constant    a known constant confusion: gamma 5/3 <-> 7/5, 3/2 <-> 5/2 (Cv/R, Cp/R), h -> h/(2 pi)
CE (computational slip; first difference in <calculation>, the equation and substitution are right)
    arithmetic_slip   one computed value with a digit changed or two digits transposed
    dropped_factor    a numeric factor of the equation (2, 1/2, ...) left out of the arithmetic
    unit_prefix_slip  a prefixed given (cm, g, uF, kJ, ...) used unconverted, or a result left in SI
                      where a prefixed unit is asked
    degree_radian_slip an angle in degrees evaluated as radians (calculator mode)
    power_of_ten      a computed value off by a factor 10 or 1/10

Generic CM operators keep the equation dimensionally consistent (a mutation that breaks dimensions is
not used): the wrong equation is plausible, not caught by a unit check alone. A CE slip is a wrong value
under a right equation; later calculations use the slipped value as shown.

Acceptance (every injection is checked before it is returned; otherwise the next candidate is tried):
the first differing step lies in the section of the error type, the final answer differs (numeric: by
more than `MIN_REL_CHANGE` relative or a different quantity; MCQ: another letter, the option nearest to
the wrong value), and the solution is format-compliant. A family may declare `inject_skip` (CM, or
operator names) for errors that do not apply; MC and CE always apply.

Determinism: everything is drawn from `random.Random(f"physr3.inject:{seed}:{problem id}")`, so a
problem's injection depends on the seed and the problem only, not on its position in a file.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from physr3.errors import UserError
from physr3.problems import Problem
from physr3.solution import TAG_ERROR_TYPE, parse_solution, render_solution, validate
from physr3.synth import groundtruth as gt
from physr3.synth.family import Family, _lambdify, _Reject, expr_text
from physr3.synth.registry import get_family
from physr3.synth.units import DimensionError, check_unit, fmt_sig, si_factor, ureg, with_unit

ERROR_TYPES = ("MC", "CM", "CE")
OPERATORS: dict[str, tuple[str, ...]] = {
    "MC": ("misread_given", "swap_givens", "wrong_target"),
    "CM": ("declared", "flip_sign", "missing_factor", "swap_trig", "invert_ratio", "wrong_constant"),
    "CE": ("arithmetic_slip", "dropped_factor", "unit_prefix_slip", "degree_radian_slip", "power_of_ten"),
}
OPERATOR_TYPE = {op: t for t, ops in OPERATORS.items() for op in ops}
MIN_REL_CHANGE = 0.02  # a numeric final answer must move by more than this (answers score at 1%)
MAX_TRIES_PER_OPERATOR = 6
REL_TOL = 1e-9

# Exact constants a student confuses: value -> (replacement, what went wrong).
_RATIONAL_SWAPS = {
    sp.Rational(5, 3): (sp.Rational(7, 5), "gamma of a diatomic gas (7/5) used for 5/3"),
    sp.Rational(7, 5): (sp.Rational(5, 3), "gamma of a monatomic gas (5/3) used for 7/5"),
    sp.Rational(3, 2): (sp.Rational(5, 2), "5/2 (Cp/R of a monatomic gas) used for 3/2"),
    sp.Rational(5, 2): (sp.Rational(3, 2), "3/2 (Cv/R of a monatomic gas) used for 5/2"),
    sp.Rational(7, 2): (sp.Rational(5, 2), "5/2 (Cv/R of a diatomic gas) used for 7/2"),
}
_PLANCK = 6.62607015e-34


class InjectionError(RuntimeError):
    """No operator could make a valid erroneous solution for a problem (names family and seed)."""


class InjectionCheckError(AssertionError):
    """An injected solution that does not match its labels (see `check_injection`)."""


@dataclass
class Injection:
    """An erroneous solution and its labels. `steps` are ground-truth-schema records of the wrong text."""

    error_type: str
    operator: str
    error_step: int
    detail: str
    solution: str
    final_answer: str
    steps: list[dict[str, Any]] = field(repr=False)

    def labels(self) -> dict[str, Any]:
        return {"label_error_step": self.error_step, "label_error_type": self.error_type,
                "label_operator": self.operator, "label_detail": self.detail}


@dataclass
class _Candidate:
    etype: str
    operator: str
    detail: str
    shown: dict[str, float] | None = None  # replaced stated givens
    exprs: dict[str, sp.Basic] | None = None  # replaced equations
    values: dict[str, float] | None = None  # replaced SI values of calculations
    target: str | None = None  # wrong target symbol


@dataclass
class _Context:
    fam: Family
    problem: Problem
    shown: dict[str, float]
    vals: dict[str, float]
    ref_steps: list[tuple[int, str, str]]
    answer: dict[str, Any]


# ----------------------------------------------------------------------------- expression surgery
def _rebuild(expr: sp.Basic, args: Sequence[sp.Basic]) -> sp.Basic:
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow, sp.Function)):
        return expr.func(*args, evaluate=False)
    return expr.func(*args)


def _replace_at(expr: sp.Basic, path: tuple[int, ...], new: sp.Basic) -> sp.Basic:
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = _replace_at(args[path[0]], path[1:], new)
    return _rebuild(expr, args)


def _nodes(expr: sp.Basic, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], sp.Basic]]:
    yield path, expr
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow, sp.Function)):
        for i, a in enumerate(expr.args):
            yield from _nodes(a, path + (i,))


def _mul(args: Sequence[sp.Basic]) -> sp.Basic:
    if not args:
        return sp.Integer(1)
    return args[0] if len(args) == 1 else sp.Mul(*args, evaluate=False)


def _is_number(a: sp.Basic) -> bool:
    return bool(a.is_number)


def _negated(term: sp.Basic) -> sp.Basic:
    if isinstance(term, sp.Mul) and term.args and term.args[0] == -1:
        return _mul(term.args[1:])
    return sp.Mul(sp.Integer(-1), term, evaluate=False)


def _is_negative_term(term: sp.Basic) -> bool:
    return isinstance(term, sp.Mul) and bool(term.args) and term.args[0] == -1


def _numeric_coefficient(node: sp.Mul) -> tuple[sp.Basic, list[sp.Basic]]:
    """(product of the numeric factors other than a leading -1, the other factors)."""
    nums = [a for a in node.args if _is_number(a) and a != -1]
    rest = [a for a in node.args if not (_is_number(a) and a != -1)]
    return sp.Mul(*nums), rest


def _local_mutations(fam: Family, node: sp.Basic) -> Iterator[tuple[str, sp.Basic, str]]:
    """(operator, replacement node, detail) for one node of an equation's right-hand side."""
    if isinstance(node, sp.Add):
        for i, term in enumerate(node.args):
            args = list(node.args)
            args[i] = _negated(term)
            if all(_is_negative_term(a) for a in args):
                continue
            yield "flip_sign", sp.Add(*args, evaluate=False), f"flipped the sign of the term {expr_text(term)}"
    elif isinstance(node, sp.Mul):
        coeff, rest = _numeric_coefficient(node)
        if coeff != 1 and rest:
            sign = [sp.Integer(-1)] if node.args[0] == -1 else []
            yield "missing_factor", _mul(sign + rest), f"dropped the factor {coeff}"
            if coeff in _RATIONAL_SWAPS:
                new, why = _RATIONAL_SWAPS[coeff]
                yield "wrong_constant", _mul(sign + [new] + rest), why
        for i, a in enumerate(node.args):
            if not _is_number(a) and len(node.args) > 1:
                yield "missing_factor", _mul(node.args[:i] + node.args[i + 1:]), f"dropped the factor {expr_text(a)}"
        dens = [a for a in node.args if isinstance(a, sp.Pow) and _is_number(a.exp) and a.exp < 0]
        nums = [a for a in node.args if a not in dens and not _is_number(a)]
        plain = not any(_is_number(a) or _is_negative_term(a) for a in node.args)
        if dens and nums and plain:
            flipped = [sp.Pow(a.base, -a.exp, evaluate=False) if a.exp != -1 else a.base for a in dens]
            flipped += [sp.Pow(a, -1, evaluate=False) for a in nums]
            yield "invert_ratio", _mul(flipped), f"inverted the ratio {expr_text(node)}"
    elif isinstance(node, sp.sin):
        yield "swap_trig", sp.cos(*node.args, evaluate=False), f"used cos instead of sin in {expr_text(node)}"
    elif isinstance(node, sp.cos):
        yield "swap_trig", sp.sin(*node.args, evaluate=False), f"used sin instead of cos in {expr_text(node)}"
    elif isinstance(node, sp.Rational) and node in _RATIONAL_SWAPS:
        new, why = _RATIONAL_SWAPS[node]
        yield "wrong_constant", new, why
    elif isinstance(node, sp.Symbol):
        g = next((g for g in fam.givens if g.symbol == node.name and g.fixed), None)
        if g is None:
            return
        exact = sp.Rational(g.text) if g.text else None
        if exact in _RATIONAL_SWAPS:
            new, why = _RATIONAL_SWAPS[exact]
            yield "wrong_constant", new, f"{why} ({g.symbol})"
        elif math.isclose(float(g.value) * si_factor(g.unit), _PLANCK, rel_tol=1e-2):
            yield "wrong_constant", sp.Mul(node, sp.Pow(sp.Mul(2, sp.pi, evaluate=False), -1, evaluate=False),
                                           evaluate=False), f"used hbar = {g.symbol}/(2*pi) in place of {g.symbol}"


def _degenerate(expr: sp.Basic, wrong: sp.Basic) -> bool:
    """True when the wrong equation is the right one rewritten, or a variable it shows cancels out
    (g*(m1 + m2)/(m1 + m2), i0*(-1 + 1)): no student writes that."""
    try:
        right, bad = sp.sympify(sp.srepr(expr)), sp.sympify(sp.srepr(wrong))
        if not wrong.free_symbols or sp.cancel(bad).free_symbols != wrong.free_symbols:
            return True
        return sp.cancel(bad - right) == 0
    except (sp.SympifyError, sp.PolynomialError, TypeError, ValueError):
        return True


_MUTATIONS: dict[str, list[tuple[str, str, sp.Basic, str]]] = {}


def equation_mutations(fam: Family) -> list[tuple[str, str, sp.Basic, str]]:
    """(operator, symbol, wrong rhs, detail) of every dimensionally consistent generic CM mutation and
    every declared typical error's first equation, in declaration order (cached per family)."""
    if fam.name in _MUTATIONS:
        return _MUTATIONS[fam.name]
    out: list[tuple[str, str, sp.Basic, str]] = []
    seen: set[tuple[str, str]] = set()
    for c in fam.steps:
        expr = fam.exprs[c.symbol]
        for path, node in _nodes(expr):
            for op, new, detail in _local_mutations(fam, node):
                wrong = _replace_at(expr, path, new)
                key = (c.symbol, sp.srepr(wrong))
                if wrong == expr or key in seen:
                    continue
                try:
                    check_unit(wrong, fam.units, c.unit, "mutation")
                except DimensionError:
                    continue
                if _degenerate(expr, wrong):
                    continue
                seen.add(key)
                out.append((op, c.symbol, wrong, f"{detail} in the equation for {c.symbol}"))
    _MUTATIONS[fam.name] = out
    return out


# ----------------------------------------------------------------------------- digits
def _digit_slips(text: str) -> list[tuple[str, str]]:
    """(new text, how) for one-digit changes and adjacent transpositions of the significant digits."""
    mant, _, exp = text.partition("e")
    sign = "-" if mant.startswith("-") else ""
    mant = mant.lstrip("-")
    idx = [i for i, ch in enumerate(mant) if ch.isdigit()]
    first = next((k for k, i in enumerate(idx) if mant[i] != "0"), None)
    if first is None:
        return []
    sig = idx[first:]
    out = []

    def emit(chars: list[str], how: str) -> None:
        new = sign + "".join(chars) + (f"e{exp}" if exp else "")
        if new != text and float(new) != 0:
            out.append((new, how))

    for a, b in zip(sig, sig[1:]):
        if mant[a] != mant[b] and not (a == sig[0] and mant[b] == "0"):
            chars = list(mant)
            chars[a], chars[b] = chars[b], chars[a]
            emit(chars, "transposed two digits")
    for k, i in enumerate(sig):
        for d in {(int(mant[i]) + 1) % 10, (int(mant[i]) - 1) % 10, {"1": 7, "7": 1, "3": 8, "8": 3, "5": 6,
                                                                    "6": 5}.get(mant[i], -1)}:
            if d < 0 or (k == 0 and d == 0):
                continue
            chars = list(mant)
            chars[i] = str(d)
            emit(chars, "changed a digit")
    return out


# ----------------------------------------------------------------------------- candidates
def _context(problem: Problem) -> _Context:
    fam = get_family(problem.family)
    rec = problem.ground_truth or {}
    shown = {s["symbol"]: s["value"] for s in rec.get("steps", []) if s["kind"] == "given"}
    vals = fam.solve(fam.to_si(shown))
    ref = [(s.number, s.tag or "", s.text) for s in parse_solution(problem.solution or "").steps]
    return _Context(fam, problem, shown, vals, ref, rec["answer"])


def _deps(fam: Family, sym: str) -> set[str]:
    """Computed symbols `sym` needs (itself included)."""
    out, todo = set(), [sym]
    while todo:
        s = todo.pop()
        if s in out or s not in fam.exprs:
            continue
        out.add(s)
        todo += [x.name for x in fam.exprs[s].free_symbols]
    return out


def _mc_candidates(ctx: _Context) -> list[_Candidate]:
    fam, out = ctx.fam, []
    for g in fam.givens:
        if g.fixed:
            continue
        old = fam.given_text(g, ctx.shown[g.symbol])
        for new, how in _digit_slips(old):
            shown = dict(ctx.shown, **{g.symbol: float(new)})
            out.append(_Candidate("MC", "misread_given", f"misread {g.symbol} = {with_unit(old, g.unit)} as "
                                  f"{with_unit(new, g.unit)} ({how})", shown=shown))
    gs = list(fam.givens)
    for i, a in enumerate(gs):
        for b in gs[i + 1:]:
            va, vb = ctx.shown[a.symbol], ctx.shown[b.symbol]
            if a.unit == b.unit and va != vb and not (a.fixed and b.fixed):
                shown = dict(ctx.shown, **{a.symbol: vb, b.symbol: va})
                out.append(_Candidate("MC", "swap_givens", f"swapped the values of {a.symbol} and {b.symbol}",
                                      shown=shown))
    find = fam.find[0]
    for c in fam.steps:
        if c.symbol == find:
            break
        out.append(_Candidate("MC", "wrong_target", f"took {c.symbol} ({c.description}) for the quantity asked, "
                              f"{find}", target=c.symbol))
    return out


def _cm_candidates(ctx: _Context) -> list[_Candidate]:
    out = [_Candidate("CM", "declared", f"typical error: {label}", exprs=dict(parsed))
           for label, parsed in ctx.fam.declared_errors]
    out += [_Candidate("CM", op, detail, exprs={sym: wrong}) for op, sym, wrong, detail in equation_mutations(ctx.fam)]
    return out


def _eval(expr: sp.Basic, vals: dict[str, float]) -> float | None:
    args, fn = _lambdify(expr)
    try:
        v = fn(*(vals[a] for a in args))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return float(v) if not isinstance(v, complex) and math.isfinite(v) else None


def _ce_candidates(ctx: _Context) -> list[_Candidate]:
    fam, vals, out = ctx.fam, ctx.vals, []
    factors = fam.compiled["factors"]
    given_units = {g.symbol: g.unit for g in fam.givens}

    def add(op: str, sym: str, si_value: float | None, detail: str) -> None:
        if si_value is not None and si_value != vals[sym]:
            out.append(_Candidate("CE", op, f"{detail} when calculating {sym}", values={sym: si_value}))

    for c in fam.steps:
        s, expr, f = c.symbol, fam.exprs[c.symbol], factors[c.symbol]
        shown_text = fmt_sig(vals[s] / f, c.sig)
        for new, how in _digit_slips(shown_text):
            add("arithmetic_slip", s, float(new) * f, f"{how}: {shown_text} written as {new}")
        for path, node in _nodes(expr):
            if isinstance(node, sp.Mul):
                coeff, rest = _numeric_coefficient(node)
                if coeff != 1 and rest:
                    sign = [sp.Integer(-1)] if node.args[0] == -1 else []
                    add("dropped_factor", s, _eval(_replace_at(expr, path, _mul(sign + rest)), vals),
                        f"left out the factor {coeff}")
        for x in sorted(x.name for x in expr.free_symbols if x.name in given_units):
            unit, gf = given_units[x], factors[x]
            if gf != 1 and math.isclose(10 ** round(math.log10(gf)), gf, rel_tol=1e-9):
                add("unit_prefix_slip", s, _eval(expr, dict(vals, **{x: ctx.shown[x]})),
                    f"used {x} in {unit} without converting to SI")
            if unit == "deg":
                add("degree_radian_slip", s, _eval(expr, dict(vals, **{x: ctx.shown[x]})),
                    f"evaluated {x} in degrees as radians")
        if f != 1 and math.isclose(10 ** round(math.log10(f)), f, rel_tol=1e-9):
            add("unit_prefix_slip", s, vals[s] * f, f"left the result in SI units instead of {c.unit}")
        add("power_of_ten", s, vals[s] * 10, "wrong power of ten (x10)")
        add("power_of_ten", s, vals[s] / 10, "wrong power of ten (/10)")
    return out


_CANDIDATES = {"MC": _mc_candidates, "CM": _cm_candidates, "CE": _ce_candidates}


# ----------------------------------------------------------------------------- realising a candidate
def _retarget(fam: Family, steps: list[dict[str, Any]], target: str) -> list[dict[str, Any]]:
    """Steps of a solution that takes `target` for the quantity asked and stops once it has it."""
    need = _deps(fam, target)
    c = next(c for c in fam.steps if c.symbol == target)
    out = []
    for s in steps:
        s = dict(s)
        if s["kind"] == "target":
            s.update(text=f"{target}, {c.description}" + (f" (in {c.unit})" if c.unit else ""), symbol=target,
                     unit=c.unit, description=c.description)
        elif s["kind"] in ("equation", "substitution", "calculation") and s["symbol"] not in need:
            continue
        out.append(s)
    return gt.number_steps(out)


def _nearest_letter(options: list[dict[str, Any]], value: float) -> str:
    def dist(o: dict[str, Any]) -> float:
        a, b = value, o["value"]
        if a and b and (a > 0) == (b > 0):
            return abs(math.log(abs(a) / abs(b)))
        return 1e3 + abs(a - b) / max(abs(a), abs(b), 1e-300)
    return min(options, key=dist)["letter"]


def first_difference(reference: Sequence[tuple[int, str, str]], steps: Sequence[tuple[int, str, str]]) -> int:
    """1-based number of the first step whose (number, tag, text) differs; 0 when the steps are equal."""
    for k, (a, b) in enumerate(zip(reference, steps), 1):
        if a != b:
            return k
    return 0 if len(reference) == len(steps) else min(len(reference), len(steps)) + 1


def _realise(ctx: _Context, cand: _Candidate) -> Injection | None:
    fam = ctx.fam
    try:
        steps, vals = fam.solve_steps(cand.shown or ctx.shown, cand.exprs, cand.values)
    except _Reject:
        return None
    sym = cand.target or fam.find[0]
    if cand.target:
        steps = _retarget(fam, steps, cand.target)
    calc = next(s for s in steps if s["kind"] == "calculation" and s["symbol"] == sym)
    ans = ctx.answer
    if fam.kind == "mcq":
        final = _nearest_letter(ans["options"], calc["value"])
        if final == ans["letter"]:
            return None
    else:
        final = calc["display"]
        if not cand.target and (final == ans["text"] or abs(calc["value"] - ans["value"])
                                <= MIN_REL_CHANGE * abs(ans["value"])):
            return None
    got = [(s["number"], s["tag"], s["text"]) for s in steps]
    k = first_difference(ctx.ref_steps, got)
    if k == 0 or k > len(got) or TAG_ERROR_TYPE.get(got[k - 1][1]) != cand.etype:
        return None
    if cand.etype == "CM" and got[k - 1][1] != "governing_equation" or \
            cand.etype == "CE" and got[k - 1][1] != "calculation":
        return None
    solution = render_solution(gt.sections(steps), final)
    if not validate(solution).compliant:
        return None
    return Injection(cand.etype, cand.operator, k, cand.detail, solution, final, steps)


# ----------------------------------------------------------------------------- public API
def operator_types(fam: Family) -> list[str]:
    """The error types the injector may use on this family (MC and CE always; CM unless skipped)."""
    return [t for t in ERROR_TYPES if t not in fam.inject_skip]


def inject_error(problem: Problem, rng: random.Random, *, types: Sequence[str] = ERROR_TYPES,
                 operators: Sequence[str] | None = None) -> Injection | None:
    """An erroneous solution of `problem` with one error of a type drawn uniformly from `types` (falling
    back to the other types when none of its operators applies), or None when nothing applies."""
    ctx = _context(problem)
    order = [t for t in operator_types(ctx.fam) if t in types]
    rng.shuffle(order)
    for etype in order:
        by_op: dict[str, list[_Candidate]] = {}
        for cand in _CANDIDATES[etype](ctx):
            if cand.operator not in ctx.fam.inject_skip and (operators is None or cand.operator in operators):
                by_op.setdefault(cand.operator, []).append(cand)
        ops = sorted(by_op)
        rng.shuffle(ops)
        for op in ops:
            cands = by_op[op]
            rng.shuffle(cands)
            for cand in cands[:MAX_TRIES_PER_OPERATOR]:
                inj = _realise(ctx, cand)
                if inj is not None:
                    return inj
    return None


def inject_row(problem: Problem, seed: int, control_fraction: float = 0.1, *,
               types: Sequence[str] = ERROR_TYPES, operators: Sequence[str] | None = None,
               injection: list | None = None) -> dict[str, Any]:
    """One output line: the problem's fields, the erroneous `solution`, the ground-truth
    `reference_solution` and the labels; a control (label 0, type "none") with probability
    `control_fraction`. `injection`, if given, receives the Injection (None for a control)."""
    rng = random.Random(f"physr3.inject:{seed}:{problem.id}")
    row = problem.to_json()
    row["reference_solution"] = problem.solution
    row["inject_seed"] = seed
    if rng.random() < control_fraction:
        inj = None
        row.update(label_error_step=0, label_error_type="none", label_operator="none", label_detail="",
                   solution_answer=problem.answer, final_correct=True)
    else:
        inj = inject_error(problem, rng, types=types, operators=operators)
        if inj is None:
            rec = problem.ground_truth or {}
            raise InjectionError(f"family {problem.family!r} seed {rec.get('seed')} (id {problem.id}): no "
                                 f"operator of {list(types)} gives a valid erroneous solution")
        row["solution"] = inj.solution
        row.update(inj.labels(), solution_answer=inj.final_answer, final_correct=False)
    if injection is not None:
        injection.append(inj)
    return row


def inject_problems(problems: Iterable[Problem], seed: int, control_fraction: float = 0.1, *,
                    types: Sequence[str] = ERROR_TYPES, check: bool = False) -> Iterator[dict[str, Any]]:
    """`inject_row` over a stream of problems; with `check`, every injection passes `check_injection`."""
    bad = [t for t in types if t not in ERROR_TYPES]
    if bad or not types:
        raise UserError(f"unknown error type(s) {bad}; valid: {', '.join(ERROR_TYPES)}")
    if not 0.0 <= control_fraction <= 1.0:
        raise UserError(f"control_fraction must be in [0, 1], got {control_fraction}")
    for p in problems:
        box: list = []
        row = inject_row(p, seed, control_fraction, types=types, injection=box)
        if check and box[0] is not None:
            check_injection(p, box[0])
        yield row


# ----------------------------------------------------------------------------- independent check
def _si(value: float, unit: str) -> float:
    return float(ureg().Quantity(value, unit or "dimensionless").to_base_units().magnitude)


def inconsistent_calculations(steps: Sequence[dict[str, Any]]) -> list[int]:
    """Numbers of the calculation steps whose stated value differs (beyond 1e-9 relative) from their
    equation evaluated (sympy, 30 digits, pint SI) on the stated givens and earlier stated values."""
    env: dict[sp.Symbol, sp.Float] = {}
    eqs: dict[str, sp.Basic] = {}
    bad = []
    for s in steps:
        if s["kind"] == "given":
            env[sp.Symbol(s["symbol"])] = sp.Float(_si(s["value"], s["unit"]), 30)
        elif s["kind"] == "equation":
            eqs[s["symbol"]] = sp.sympify(s["rhs_srepr"])
        elif s["kind"] == "calculation":
            stated = _si(s["value"], s["unit"])
            exact = float(eqs[s["symbol"]].evalf(30, subs=env))
            if not math.isclose(exact, stated, rel_tol=REL_TOL, abs_tol=1e-300):
                bad.append(s["number"])
            env[sp.Symbol(s["symbol"])] = sp.Float(stated, 30)
    return bad


def check_injection(problem: Problem, inj: Injection) -> None:
    """Raise InjectionCheckError unless the injection matches its labels: the label is the first step
    whose text differs from the ground truth, in a section of its type; the solution is compliant and its
    steps are `inj.steps`; the final answer differs from the gold one; and recomputing every calculation
    from the shown givens and equations reproduces the shown values, except the slipped one (CE)."""
    rec = problem.ground_truth or {}
    where = f"family {problem.family!r} seed {rec.get('seed')} (id {problem.id}), {inj.operator}"

    def fail(msg: str) -> None:
        raise InjectionCheckError(f"{where}: {msg}")

    report = validate(inj.solution)
    if not report.compliant:
        fail(f"not compliant: {'; '.join(report.violations)}")
    parsed = parse_solution(inj.solution)
    got = [(s.number, s.tag or "", s.text) for s in parsed.steps]
    if got != [(s["number"], s["tag"], s["text"]) for s in inj.steps]:
        fail("solution text and step records disagree")
    ref = [(s.number, s.tag or "", s.text) for s in parse_solution(problem.solution or "").steps]
    k = first_difference(ref, got)
    if k != inj.error_step:
        fail(f"labelled step {inj.error_step}, but the first differing step is {k}")
    if TAG_ERROR_TYPE.get(got[k - 1][1]) != inj.error_type or OPERATOR_TYPE[inj.operator] != inj.error_type:
        fail(f"step {k} is in <{got[k - 1][1]}>, which does not fit type {inj.error_type}")
    if parsed.final_answer == problem.answer:
        fail(f"final answer {parsed.final_answer!r} equals the gold answer")
    bad = inconsistent_calculations(inj.steps)
    want = [inj.error_step] if inj.error_type == "CE" else []
    if bad != want:
        fail(f"calculations {bad} do not follow from the shown steps (expected {want})")
