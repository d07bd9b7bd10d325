"""Self-check of generated problems: recompute every step from the stored record, independently.

`check_problem` reads only the Problem record (as the offline verifier will) and raises `SelfCheckError`
naming family, seed and id at the first failure:

1. the solution passes `physr3.solution.validate`, and its steps are exactly the ground-truth steps
   (same numbers, sections and text);
2. each equation, rebuilt from `rhs_srepr`, uses only givens and earlier computed symbols, and its
   dimensions (pint) match the declared unit of its symbol;
3. each calculation value equals the equation evaluated at 30 digits (`exact_value`: mpmath over the
   sympy tree; sympy `evalf` for anything it does not know) on the givens (converted to SI by pint) and
   the earlier stated values, within 1e-9 relative. This path shares nothing with generation (which uses
   `lambdify` to the math module and cached factors) except pint itself;
4. each substitution puts exactly the givens of its equation, with their stated values, into the text;
   each calculation shows its value rounded to its significant figures;
5. the final answer is the target's calculation (numeric) or the letter of the one correct option, whose
   text is that value, among four distinct options (MCQ);
6. with `regenerate=True`, `get_family(family).generate(seed)` reproduces the record byte for byte.
"""

from __future__ import annotations

import cmath
import json
import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import mpmath
import sympy as sp

from physr3.problems import Problem
from physr3.quantity.sigfig import fmt_sig, with_unit
from physr3.quantity.units import DimensionError, check_unit, ureg
from physr3.solution import parse_solution, validate
from physr3.synth.groundtruth import SCHEMA
from physr3.synth.registry import get_family

REL_TOL = 1e-9


class SelfCheckError(AssertionError):
    """A generated problem whose record is inconsistent; the message names family, seed and id."""


def _si(value: float, unit: str) -> float:
    return float(ureg().Quantity(value, unit or "dimensionless").to_base_units().magnitude)


@lru_cache(maxsize=4096)
def _number(x: sp.Basic, lib: str) -> Any:
    x = sp.N(sp.sympify(sp.srepr(x)), 40)  # evaluated first: evalf of an unevaluated 1 - 1 is not 0
    v = complex(x)
    if lib == "cmath":
        return v
    return mpmath.mpf(str(sp.re(x))) if not v.imag else mpmath.mpc(str(sp.re(x)), str(sp.im(x)))


def _tree_value(expr: sp.Basic, env: Mapping[str, Any], lib: str) -> Any:
    if isinstance(expr, sp.Symbol):
        return env[expr.name]
    if expr.is_number:
        return _number(expr, lib)
    args = [_tree_value(a, env, lib) for a in expr.args]
    if isinstance(expr, sp.Add):
        return sum(args[1:], args[0])
    if isinstance(expr, sp.Mul):
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if isinstance(expr, sp.Pow):
        return mpmath.power(args[0], args[1]) if lib == "mpmath" else args[0] ** args[1]
    if isinstance(expr, sp.Abs):
        return abs(args[0])
    fn = getattr(mpmath if lib == "mpmath" else cmath, expr.func.__name__, None)
    if fn is None or not isinstance(expr, sp.Function):
        raise _Unknown(expr.func.__name__)
    return fn(*args)


class _Unknown(Exception):
    pass


def exact_value(expr: sp.Basic, env: Mapping[str, float], lib: str = "mpmath") -> complex:
    """`expr` at the SI values `env` (symbol name -> float): mpmath at 30 digits (`lib="mpmath"`) or
    double-precision complex (`lib="cmath"`), walking the sympy tree (no code generation: 50x cheaper
    than `lambdify` for a one-off expression); anything unknown falls back to sympy `evalf`."""
    try:
        if lib == "cmath":
            return complex(_tree_value(expr, {k: complex(v) for k, v in env.items()}, lib))
        with mpmath.workdps(30):
            return complex(_tree_value(expr, {k: mpmath.mpf(v) for k, v in env.items()}, lib))
    except _Unknown:
        subs = {sp.Symbol(k): sp.Float(v, 30) for k, v in env.items()}
        return complex(expr.evalf(30, subs=subs))


def check_problem(problem: Problem | dict[str, Any], *, regenerate: bool = True) -> None:
    """Raise SelfCheckError unless the problem's record is internally consistent (see module docstring)."""
    p = problem if isinstance(problem, Problem) else Problem.from_json(problem)
    rec = p.ground_truth or {}
    where = f"family {rec.get('family', p.family)!r} seed {rec.get('seed')} (id {p.id})"

    def fail(msg: str) -> None:
        raise SelfCheckError(f"{where}: {msg}")

    if rec.get("schema") != SCHEMA:
        fail(f"ground_truth schema is {rec.get('schema')!r}, expected {SCHEMA!r}")
    report = validate(p.solution or "")
    if not report.compliant:
        fail(f"solution is not compliant: {'; '.join(report.violations)}")
    parsed = parse_solution(p.solution or "")
    steps = rec["steps"]
    got = [(s.number, s.tag, s.text) for s in parsed.steps]
    want = [(s["number"], s["tag"], s["text"]) for s in steps]
    if got != want:
        bad = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        fail(f"solution steps differ from ground truth at step {bad + 1}: "
             f"{got[bad] if bad < len(got) else None} vs {want[bad] if bad < len(want) else None}")

    units = {s: v["unit"] for s, v in rec["symbols"].items()}
    env: dict[str, float] = {}
    givens: dict[str, dict] = {}
    equations: dict[str, sp.Expr] = {}
    for s in steps:
        kind, sym = s["kind"], s.get("symbol")
        if kind == "given":
            givens[sym] = s
            env[sym] = _si(s["value"], s["unit"])
        elif kind == "equation":
            expr = sp.sympify(s["rhs_srepr"])
            names = sorted(x.name for x in expr.free_symbols)
            if names != s["depends"]:
                fail(f"step {s['number']}: equation uses {names}, record says {s['depends']}")
            try:
                check_unit(expr, units, s["unit"], f"step {s['number']} ({sym})")
            except DimensionError as exc:
                fail(str(exc))
            equations[sym] = expr
        elif kind == "substitution":
            eq_step = steps[s["equation_step"] - 1]
            used = {n for n in eq_step["depends"] if n in givens}
            if set(s["values"]) != used:
                fail(f"step {s['number']}: substitutes {sorted(s['values'])}, equation needs givens {sorted(used)}")
            for n, (value, unit) in s["values"].items():
                if [value, unit] != [givens[n]["value"], givens[n]["unit"]]:
                    fail(f"step {s['number']}: {n} = {value} {unit} differs from the given")
                shown = givens[n]["text"].split(" = ", 1)[1].rsplit(" (", 1)[0]
                if shown not in s["text"]:
                    fail(f"step {s['number']}: the text does not show {n} = {shown}")
        elif kind == "calculation":
            expr = equations.get(sym)
            if expr is None:
                fail(f"step {s['number']}: {sym} is calculated before its equation")
            missing = [x.name for x in expr.free_symbols if x.name not in env]
            if missing:
                fail(f"step {s['number']}: {sym} needs {missing}, not yet known")
            try:
                exact = exact_value(expr, env)
            except (ZeroDivisionError, ValueError, OverflowError) as exc:
                fail(f"step {s['number']}: {sym} cannot be evaluated: {exc}")
            if exact.imag:
                fail(f"step {s['number']}: {sym} evaluates to non-real {exact}")
            stated = _si(s["value"], s["unit"])
            if not math.isclose(exact.real, stated, rel_tol=REL_TOL, abs_tol=1e-300):
                fail(f"step {s['number']}: {sym} = {stated} (SI) but the equation gives {exact.real}")
            if s["display"] != with_unit(fmt_sig(s["value"], s["sig"]), s["unit"]) or \
                    s["text"] != f"{sym} = {s['display']}":
                fail(f"step {s['number']}: shown as {s['text']!r}, value {s['value']} sig {s['sig']}")
            env[sym] = stated

    _check_answer(p, rec, parsed.final_answer, fail)
    if regenerate:
        again = get_family(rec["family"]).generate(rec["seed"])
        if json.dumps(again.to_json()) != json.dumps(p.to_json()):
            fail("regenerating from (family, seed) gives a different record (non-deterministic family?)")


def _check_answer(p: Problem, rec: dict, final: str | None, fail) -> None:
    ans, steps = rec["answer"], rec["steps"]
    target = next(s for s in steps if s["kind"] == "target")
    calc = [s for s in steps if s["kind"] == "calculation" and s["symbol"] == target["symbol"]]
    if ans["symbol"] != target["symbol"] or not calc:
        fail(f"answer symbol {ans['symbol']!r} is not the calculated target {target['symbol']!r}")
    if ans["value"] != calc[-1]["value"] or ans["text"] != calc[-1]["display"]:
        fail(f"answer {ans['text']} differs from the target's calculation {calc[-1]['display']}")
    if rec["kind"] == "numeric":
        if final != ans["text"] or p.answer != ans["text"]:
            fail(f"final answer {final!r} / record answer {p.answer!r} should be {ans['text']!r}")
        return
    opts = ans["options"]
    texts = [o["text"] for o in opts]
    correct = [o for o in opts if o["correct"]]
    if len(opts) != 4 or len(set(texts)) != 4 or [o["letter"] for o in opts] != list("ABCD"):
        fail(f"MCQ needs four distinct options A-D, got {texts}")
    if len(correct) != 1 or correct[0]["text"] != ans["text"] or correct[0]["letter"] != ans["letter"]:
        fail(f"MCQ correct option {correct} does not match the answer {ans['text']} ({ans.get('letter')})")
    if final != ans["letter"] or p.answer != ans["letter"] or p.options != texts:
        fail(f"final answer {final!r}, record answer {p.answer!r} or options {p.options} disagree with {ans}")


def check_family(name: str, seeds: Iterable[int]) -> int:
    """Generate and check one problem per seed; returns how many were checked."""
    fam = get_family(name)
    count = 0
    for seed in seeds:
        check_problem(fam.generate(seed))
        count += 1
    return count
