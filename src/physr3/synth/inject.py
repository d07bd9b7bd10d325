"""Error injection: erroneous solutions with a known first error step and type, from the ground truth.

From a generated problem (its step-level ground truth) `inject_error` writes the solution a student with
one specific mistake would write: the mistake enters at one step and every later step follows from it
(`Family.solve_steps` with replaced givens, equations or values), so the erroneous text is as internally
consistent as a real wrong solution. The label is the first step whose text differs from the ground
truth, and the error type follows the section it is in (docs/FORMAT.md: MC <-> given/find, CM <-> equations,
CE <-> calculations). Operators:

MC (misread the problem; first difference in <given> or <find>)
    misread_given     one stated value copied wrongly: a digit changed, two adjacent digits transposed,
                      or the decimal point misplaced (the question still states the true value)
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
not used): the wrong equation is plausible, not caught by a unit check alone. Mutations that are the
right equation rewritten, or in which a shown variable cancels ((m1 + m2)/(m1 + m2)), are not offered.
A CE slip is a wrong value under a right equation; later calculations use the slipped value as shown.
Mutations are computed once per family (about 50 ms) and reused.

Acceptance (every injection is checked before it is returned; otherwise the next candidate is tried):
the first differing step lies in the section of the error type, the final answer differs (numeric: by
more than `MIN_REL_CHANGE` relative or a different quantity; MCQ: another letter, the option nearest to
the wrong value), no computed value moves by more than `MAX_DECADES` powers of ten (absurd values, and
cancellation that would spoil the 1e-9 recomputation), and the solution is format-compliant. The error
type is drawn uniformly from those requested, then the operator uniformly among those of the type that
apply, then the site; when nothing of a type applies the next type is tried. A family may declare
`inject_skip` (CM, or operator names) for errors that do not apply; MC and CE always apply.

Output lines (`inject_row`): the problem's fields (the gold `answer`, `ground_truth`, ...), `solution`
(the erroneous text), `reference_solution` (the ground truth text, which `physr3 verify` reads),
`label_error_step` (1-based; 0 for a control), `label_error_type` (MC | CM | CE | none),
`label_operator`, `label_detail` (what went wrong, in words), `solution_answer` (its final answer),
`final_correct` (false unless a control) and `inject_seed`.

Determinism: everything is drawn from `random.Random(f"physr3.inject:{seed}:{problem id}")`, so a
problem's injection depends on the seed and the problem only, not on its position in a file.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

import sympy as sp

from physr3.errors import UserError
from physr3.problems import Problem
from physr3.quantity.sigfig import fmt_sig, round_sig, with_unit
from physr3.quantity.units import ureg
from physr3.solution import TAG_ERROR_TYPE, parse_solution, render_solution, validate
from physr3.synth import groundtruth as gt
from physr3.synth.check import exact_value
from physr3.synth.family import Family, _lambdify, _Reject
from physr3.synth.mutations import (
    digit_slips,
    equation_mutations,
    mul,
    nodes,
    numeric_coefficient,
    replace_at,
)
from physr3.synth.registry import get_family

ERROR_TYPES = ("MC", "CM", "CE")
OPERATORS: dict[str, tuple[str, ...]] = {
    "MC": ("misread_given", "swap_givens", "wrong_target"),
    "CM": ("declared", "flip_sign", "missing_factor", "swap_trig", "invert_ratio", "wrong_constant"),
    "CE": ("arithmetic_slip", "dropped_factor", "unit_prefix_slip", "degree_radian_slip", "power_of_ten"),
}
OPERATOR_TYPE = {op: t for t, ops in OPERATORS.items() for op in ops}
MIN_REL_CHANGE = 0.02  # a numeric final answer must move by more than this (answers score at 1%)
MAX_TRIES_PER_OPERATOR = 6  # numeric families; MCQ tries all (few errors move the letter)
REL_TOL = 1e-9
MAX_DECADES = 6  # an injected value stays within 1e6 of the true one (no pm left in SI)

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


# ----------------------------------------------------------------------------- candidates
def _context(problem: Problem) -> _Context:
    fam = get_family(problem.family)
    rec = problem.ground_truth or {}
    shown = {s["symbol"]: s["value"] for s in rec.get("steps", []) if s["kind"] == "given"}
    vals = fam.solve(fam.to_si(shown))
    ref = [(s["number"], s["tag"], s["text"]) for s in rec["steps"]]  # == the parsed solution (self-check)
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


def _misread_given(ctx: _Context) -> Iterator[_Candidate]:
    for g in ctx.fam.givens:
        if g.fixed:
            continue
        old = ctx.fam.given_text(g, ctx.shown[g.symbol])
        shifted = [round_sig(ctx.shown[g.symbol] * k, g.sig) if g.sig else ctx.shown[g.symbol] * k for k in (10, 0.1)]
        slips = digit_slips(old) + [(ctx.fam.given_text(g, v), "misplaced the decimal point") for v in shifted]
        for new, how in slips:
            yield _Candidate("MC", "misread_given", f"misread {g.symbol} = {with_unit(old, g.unit)} as "
                             f"{with_unit(new, g.unit)} ({how})", shown=dict(ctx.shown, **{g.symbol: float(new)}))


def _swap_givens(ctx: _Context) -> Iterator[_Candidate]:
    gs = list(ctx.fam.givens)
    for i, a in enumerate(gs):
        for b in gs[i + 1:]:
            va, vb = ctx.shown[a.symbol], ctx.shown[b.symbol]
            if a.unit == b.unit and va != vb and not (a.fixed and b.fixed):
                yield _Candidate("MC", "swap_givens", f"swapped the values of {a.symbol} and {b.symbol}",
                                 shown=dict(ctx.shown, **{a.symbol: vb, b.symbol: va}))


def _wrong_target(ctx: _Context) -> Iterator[_Candidate]:
    find = ctx.fam.find[0]
    for c in ctx.fam.steps:
        if c.symbol == find:
            return
        yield _Candidate("MC", "wrong_target", f"took {c.symbol} ({c.description}) for the quantity asked, {find}",
                         target=c.symbol)


def _declared(ctx: _Context) -> Iterator[_Candidate]:
    for label, parsed in ctx.fam.declared_errors:
        yield _Candidate("CM", "declared", f"typical error: {label}", exprs=dict(parsed))


def _mutation_op(op: str):
    def gen(ctx: _Context) -> Iterator[_Candidate]:
        for name, sym, wrong, detail in equation_mutations(ctx.fam):
            if name == op:
                yield _Candidate("CM", op, detail, exprs={sym: wrong})
    return gen


def _eval(expr: sp.Basic, vals: dict[str, float]) -> float | None:
    args, fn = _lambdify(expr)
    try:
        v = fn(*(vals[a] for a in args))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return float(v) if not isinstance(v, complex) and math.isfinite(v) else None


def _slip(ctx: _Context, op: str, sym: str, si_value: float | None, detail: str) -> Iterator[_Candidate]:
    if si_value is not None and si_value != ctx.vals[sym]:
        yield _Candidate("CE", op, f"{detail} when calculating {sym}", values={sym: si_value})


def _power_of_ten_factor(f: float) -> bool:
    return f != 1 and math.isclose(10 ** round(math.log10(f)), f, rel_tol=1e-9)


def _arithmetic_slip(ctx: _Context) -> Iterator[_Candidate]:
    for c in ctx.fam.steps:
        f = ctx.fam.compiled["factors"][c.symbol]
        shown = fmt_sig(ctx.vals[c.symbol] / f, c.sig)
        for new, how in digit_slips(shown):
            yield from _slip(ctx, "arithmetic_slip", c.symbol, float(new) * f, f"{how}: {shown} written as {new}")


def _dropped_factor(ctx: _Context) -> Iterator[_Candidate]:
    for c in ctx.fam.steps:
        expr = ctx.fam.exprs[c.symbol]
        for path, node in nodes(expr):
            if isinstance(node, sp.Mul):
                coeff, rest = numeric_coefficient(node)
                if coeff != 1 and rest:
                    sign = [sp.Integer(-1)] if node.args[0] == -1 else []
                    yield from _slip(ctx, "dropped_factor", c.symbol,
                                     _eval(replace_at(expr, path, mul(sign + rest)), ctx.vals),
                                     f"left out the factor {coeff}")


def _unconverted(ctx: _Context, op: str) -> Iterator[_Candidate]:
    """Givens used in their stated unit as if it were SI (prefixes; degrees as radians)."""
    fam = ctx.fam
    units = {g.symbol: g.unit for g in fam.givens}
    factors = fam.compiled["factors"]
    for c in fam.steps:
        expr = fam.exprs[c.symbol]
        for x in sorted(x.name for x in expr.free_symbols if x.name in units):
            wrong = _eval(expr, dict(ctx.vals, **{x: ctx.shown[x]}))
            if op == "unit_prefix_slip" and _power_of_ten_factor(factors[x]):
                yield from _slip(ctx, op, c.symbol, wrong, f"used {x} in {units[x]} without converting to SI")
            elif op == "degree_radian_slip" and units[x] == "deg":
                yield from _slip(ctx, op, c.symbol, wrong, f"evaluated {x} in degrees as radians")
        if op == "unit_prefix_slip" and _power_of_ten_factor(factors[c.symbol]):
            yield from _slip(ctx, op, c.symbol, ctx.vals[c.symbol] * factors[c.symbol],
                             f"left the result in SI units instead of {c.unit}")


def _power_of_ten(ctx: _Context) -> Iterator[_Candidate]:
    for c in ctx.fam.steps:
        yield from _slip(ctx, "power_of_ten", c.symbol, ctx.vals[c.symbol] * 10, "wrong power of ten (x10)")
        yield from _slip(ctx, "power_of_ten", c.symbol, ctx.vals[c.symbol] / 10, "wrong power of ten (/10)")


_GENERATORS = {
    "misread_given": _misread_given, "swap_givens": _swap_givens, "wrong_target": _wrong_target,
    "declared": _declared, **{op: _mutation_op(op) for op in OPERATORS["CM"] if op != "declared"},
    "arithmetic_slip": _arithmetic_slip, "dropped_factor": _dropped_factor,
    "unit_prefix_slip": lambda ctx: _unconverted(ctx, "unit_prefix_slip"),
    "degree_radian_slip": lambda ctx: _unconverted(ctx, "degree_radian_slip"), "power_of_ten": _power_of_ten,
}


def candidates(problem: Problem, operator: str) -> list[_Candidate]:
    """The candidate errors of one operator for a problem (for inspection and tests)."""
    return list(_GENERATORS[operator](_context(problem)))


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
    for c in fam.steps:  # no absurd magnitudes: they read as nonsense and lose precision in differences
        old, new = ctx.vals[c.symbol], vals[c.symbol]
        if old and (not new or abs(math.log10(abs(new / old))) > MAX_DECADES):
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
        if final == ans["text"] or calc["unit"] == ans["unit"] and \
                abs(calc["value"] - ans["value"]) <= MIN_REL_CHANGE * abs(ans["value"]):
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
        ops = [op for op in OPERATORS[etype] if op not in ctx.fam.inject_skip
               and (operators is None or op in operators)]
        rng.shuffle(ops)
        for op in ops:
            cands = list(_GENERATORS[op](ctx))
            rng.shuffle(cands)
            for cand in cands[:MAX_TRIES_PER_OPERATOR if ctx.fam.kind == "numeric" else None]:
                inj = _realise(ctx, cand)
                if inj is not None:
                    return inj
    return None


def problem_row(problem: Problem) -> dict[str, Any]:
    """`problem.to_json()` without its deep copy (asdict copies the ground truth: most of the time of a
    10,000-line run); the values are shared with the Problem, so do not mutate them."""
    row = {f.name: getattr(problem, f.name) for f in fields(Problem) if f.name != "extra"}
    row.update(problem.extra)
    return row


def inject_row(problem: Problem, seed: int, control_fraction: float = 0.1, *,
               types: Sequence[str] = ERROR_TYPES, operators: Sequence[str] | None = None,
               injection: list | None = None) -> dict[str, Any]:
    """One output line: the problem's fields, the erroneous `solution`, the ground-truth
    `reference_solution` and the labels; a control (label 0, type "none") with probability
    `control_fraction`. `injection`, if given, receives the Injection (None for a control)."""
    rng = random.Random(f"physr3.inject:{seed}:{problem.id}")
    row = problem_row(problem)
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
                                 f"operator of {list(types)} gives a valid erroneous solution (allow more "
                                 f"error types, or leave the family out)")
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
    equation evaluated at 30 digits (`physr3.synth.check.exact_value`) on the stated givens (SI by pint)
    and earlier stated values. Shares nothing with generation but sympy and pint."""
    env: dict[str, float] = {}
    eqs: dict[str, sp.Basic] = {}
    bad = []
    for s in steps:
        if s["kind"] == "given":
            env[s["symbol"]] = _si(s["value"], s["unit"])
        elif s["kind"] == "equation":
            eqs[s["symbol"]] = _parsed(s["rhs_srepr"])
        elif s["kind"] == "calculation":
            stated = _si(s["value"], s["unit"])
            try:
                exact = exact_value(eqs[s["symbol"]], env)
            except (ZeroDivisionError, ValueError, OverflowError):
                exact = complex("nan")
            if exact.imag or not math.isclose(exact.real, stated, rel_tol=REL_TOL, abs_tol=1e-300):
                bad.append(s["number"])
            env[s["symbol"]] = stated
    return bad


@lru_cache(maxsize=4096)
def _parsed(srepr: str) -> sp.Basic:
    return sp.sympify(srepr)


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
