"""The offline symbolic verifier: the first wrong step of a model's solution, against step-level ground truth.

`SymbolicVerifier().verify(problem, solution) -> Verdict` needs `problem.ground_truth` in the generator's
schema (`physr3.synth.gt/1`, see `physr3.synth.groundtruth`); it reads the model's steps with
`physr3.solution.parse_solution` and their maths with `physr3.verify.mathparse` (no eval, no sympify of
model text). It checks every step in the order written and returns the first that fails, by the model's
own step number, with error type MC | CM | CE and a one-sentence explanation of what is wrong and what
was expected. Registered as `"symbolic"` in `physr3.verify.registry`.

How a step is read. Parenthesised remarks that start with a word ("(mass of the block)", "(from ...)")
are dropped; the rest is split into clauses at `;`, `⇒`, ", so", " and ", " where ", " with ", ...; a
clause with `=` is a chain `lhs = s1 = s2 ...`. The lhs is the longest expression ending the text before
the first `=` (so "The height is h = 4.93 m" reads h); each later segment is the longest expression at
its start (trailing prose is ignored). Ambiguous names right after a number (`2 m`, `0.42 T`) are read
both as units and as variables, and a check passes when either reading passes. Unparseable or
unevaluable segments (unknown names) are skipped, never failed.

What is checked, and the type of a failure:
- Givens (MC). A clause `x = <number [unit]>` where x is a given of the problem (by name, `v_0`/`v0`,
  `θ`/`theta`, case variants when unique) must state the problem's value, pint-converted (`4210 g` for
  4.21 kg, `0.611 rad` for 35 deg). A sampled given must agree to the precision written (within half a
  unit of the last written digit, so `4.21` and `4.210` pass and `4.22` fails); a fixed constant (g, k,
  e, ...) within `given_rel` (0.5%: `9.81` for 9.8 passes). A value equal to another given's value is
  reported as a swap. Order does not matter; givens stated under other names are matched by value.
- Target (MC). A <find> step passes when it names the asked symbol or most of its description; it fails
  when it names another quantity of the solution (or gives a unit of another dimension) and no <find>
  step names the target.
- Principle (CM). Lenient: a <concept> step fails only when it matches none of the ground-truth
  principles (keywords or name) while some principle is matched by no step.
- Equations (CM). A clause without substituted numbers (only symbols, small integers, simple fractions,
  pi) must hold as an identity: both sides are evaluated at the instance's true values and at two
  instances re-solved from perturbed givens (0.8-1.25x; fixed constants are not perturbed), and must
  agree to `identity_rel` (1e-6) of the largest term. This decides sympy-style equivalence for every
  rearrangement (`a = F/m`, `F = m a`, `m1 g - T = m1 a`) without simplify/solve, which can hang.
  A new symbol defined by the solution (`N = m g cos θ`) is remembered and used later.
- Substitutions and values (CE). A clause with numbers is evaluated once, at the true values, in SI (pint
  factors), and must match its lhs within `value_rel` (2%; the brief's 1-2% for rounded intermediates).
  Bare numbers are tried as SI, as the lhs's display unit (for a bare result), as the unit of a given
  with that stated magnitude, and with bare trig arguments in degrees or radians; any match passes.
- Rounding versus slips. A single written value that is within 2% but off by more than half a unit of
  its last digit is *suspicious* (a correctly rounded value never is). Suspicion alone is no error (small
  models round intermediates); but when a later step or the final answer fails numerically, the earliest
  suspicious step before it is blamed (CE), because a slip that small is what shows up later.
- Final answer. Numeric answers must match within `final_rel` (1%, the answer-scoring tolerance); MCQ
  letters must match (or the value of the correct option). A wrong final answer with every step passing
  is blamed on the earliest suspicious step, else on the last step, as CE.
- Step number. The model's number of the failing step. When the numbering is not 1..n in order, the
  step's 1-based position is used instead (the reward counts positions).

Not in the format: a solution with no `Step k:` line gets `status="parse_error"` (error_step 0, type
none; the reward's failure policy applies). Missing tags are tolerated: untagged steps are checked by
content. A problem without a physr3.synth.gt record also gets `parse_error` (the verifier cannot judge).
"""

from __future__ import annotations

import ast
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import sympy as sp

from physr3.problems import Problem
from physr3.solution import parse_solution
from physr3.verify import mathparse as mp
from physr3.verify.base import Verdict

try:  # the registry is optional at import time (another module owns it)
    from physr3.verify.registry import register_verifier
except ImportError:  # pragma: no cover
    def register_verifier(name):  # type: ignore[no-redef]
        return lambda cls: cls

SCHEMA = "physr3.synth.gt/1"
# A numeric failure takes its type from the section it is in (DESIGN.md); elsewhere it is CE.
NUMERIC_TYPE_BY_TAG = {"given": "MC", "find": "MC", "concept": "CM", "governing_equation": "CM"}
CONSTANT_NAMES = frozenset({"g", "k", "e", "h", "c", "eps0", "mu0", "km", "R", "NA", "kB", "G", "me", "mp", "sigma",
                            "hbar", "gamma", "Rinf"})
ALIASES = {"lam": ("lambda", "lamda", "λ"), "eps0": ("epsilon0", "varepsilon0", "e0"), "mu0": ("u0",),
           "theta": ("θ", "th"), "omega": ("w",), "mu": ("muk", "mus", "u_k")}


@dataclass
class Tolerances:
    """Every tolerance the verifier applies (relative unless stated); see the module docstring."""

    given_rel: float = 0.005  # fixed constants only; sampled givens must match to the written precision
    value_rel: float = 0.02  # substituted and computed values
    identity_rel: float = 1e-6  # symbolic equations, of the largest term
    final_rel: float = 0.01  # final numeric answer (the answer scorer's tolerance)
    half_ulp: float = 0.5 * (1 + 1e-6)  # a written value further than this many last-digit units is suspicious
    suspicious_rel: float = 5e-4  # ... and further than this relatively


# ---------------------------------------------------------------------------------------------- ground truth
_SREPR_FUNCS = {"Symbol": sp.Symbol, "Integer": sp.Integer, "Float": sp.Float, "Rational": sp.Rational,
                "Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow, "sin": sp.sin, "cos": sp.cos, "tan": sp.tan,
                "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "sinh": sp.sinh, "cosh": sp.cosh,
                "tanh": sp.tanh, "exp": sp.exp, "log": sp.log, "Abs": sp.Abs, "sqrt": sp.sqrt, "Max": sp.Max,
                "Min": sp.Min}
_SREPR_CONSTS = {"pi": sp.pi, "E": sp.E, "Half": sp.S.Half, "One": sp.S.One, "Zero": sp.S.Zero,
                 "NegativeOne": sp.S.NegativeOne, "Exp1": sp.E, "Pi": sp.pi}


def srepr_to_sympy(text: str) -> sp.Basic:
    """Rebuild a sympy expression from its `srepr` with a whitelisting reader (no eval)."""
    if len(text) > 20000:
        raise ValueError("srepr too long")

    def build(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return build(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -build(node.operand)
        if isinstance(node, ast.Name) and node.id in _SREPR_CONSTS:
            return _SREPR_CONSTS[node.id]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SREPR_FUNCS:
            args = [build(a) for a in node.args]
            kwargs = {k.arg: build(k.value) for k in node.keywords if k.arg in ("precision", "integer", "real",
                                                                                  "positive")}
            if node.func.id == "Symbol":
                return sp.Symbol(args[0])
            if node.func.id == "Float":
                return sp.Float(args[0], kwargs.get("precision", 53) // 3 or 15)
            return _SREPR_FUNCS[node.func.id](*args)
        raise ValueError(f"unexpected srepr element {ast.dump(node)[:60]}")

    return build(ast.parse(text, mode="eval"))


@lru_cache(maxsize=4096)
def _compiled(srepr: str) -> tuple[tuple[str, ...], Any]:
    expr = srepr_to_sympy(srepr)
    args = tuple(sorted(s.name for s in expr.free_symbols))
    return args, sp.lambdify([sp.Symbol(a) for a in args], expr, modules="math")


def _fixed_givens(rec: dict[str, Any]) -> set[str]:
    """Givens that are constants (not perturbed in identity tests): from the family if registered."""
    try:
        from physr3.synth.registry import get_family

        fam = get_family(rec.get("family", ""))
        return {g.symbol for g in fam.givens if g.fixed}
    except Exception:  # unknown family (a foreign record): fall back to common constant names
        return {s for s in rec.get("symbols", {}) if s in CONSTANT_NAMES}


def _literal_ulp(text: str) -> float | None:
    """Half-digit unit of a written number: '3.19' -> 0.01, '5.51e5' -> 1e3, '120' -> 1."""
    m = re.fullmatch(r"(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?", text)
    if not m:
        return None
    decimals = len(m.group(2) or "")
    exp = int(m.group(3) or 0)
    if m.group(2) is None and m.group(1):  # '2890': trailing zeros of an integer are not significant
        zeros = len(m.group(1)) - len(m.group(1).rstrip("0"))
        exp += min(zeros, len(m.group(1)) - 1)
    return 10.0 ** (exp - decimals)


class GroundTruth:
    """Everything the checks need from one gt record: symbols, units, true and perturbed SI instances."""

    def __init__(self, rec: dict[str, Any], key: str):
        self.rec = rec
        steps = rec["steps"]
        self.givens = {s["symbol"]: s for s in steps if s["kind"] == "given"}
        self.equations = {s["symbol"]: s for s in steps if s["kind"] == "equation"}
        self.calcs = {s["symbol"]: s for s in steps if s["kind"] == "calculation"}
        self.principles = [s for s in steps if s["kind"] == "principle"]
        target = next((s for s in steps if s["kind"] == "target"), None)
        self.target = target["symbol"] if target else rec.get("answer", {}).get("symbol")
        self.target_desc = target.get("description", "") if target else ""
        symbols = rec.get("symbols", {})
        self.units = {s: v.get("unit", "") for s, v in symbols.items()}
        for s in list(self.givens) + list(self.equations):
            self.units.setdefault(s, (self.givens.get(s) or self.equations.get(s) or {}).get("unit", ""))
        self.descriptions = {s: v.get("description", "") for s, v in symbols.items()}
        self.factors = {s: self._factor(u) for s, u in self.units.items()}
        self.dims = {s: mp.dim_of_unit(u.replace("^", "**")) if u else mp.DIMLESS for s, u in self.units.items()}
        self.fixed = _fixed_givens(rec)
        self.names = self._names()
        shown = {s: float(g["value"]) for s, g in self.givens.items()}
        true = self.solve(shown)
        if true is None:
            raise ValueError("ground truth does not evaluate")
        self.instances = [true]
        rng = random.Random(f"physr3.verify:{key}")
        for _ in range(30):
            if len(self.instances) >= 3:
                break
            pert = {s: v * (1.0 if s in self.fixed else rng.uniform(0.8, 1.25)) for s, v in shown.items()}
            inst = self.solve(pert)
            if inst is not None:
                self.instances.append(inst)
        # bare literal -> SI factor, for a given written without its (non-SI) unit
        self.bare_units = {float(g["value"]): self.factors[s] for s, g in self.givens.items()
                           if self.factors.get(s, 1.0) != 1.0}

    @staticmethod
    def _factor(unit: str) -> float:
        info = mp.pint_unit(unit.replace("^", "**")) if unit else mp.UnitInfo("", 1.0, mp.DIMLESS)
        if info is None:
            raise ValueError(f"unit {unit!r} not understood")
        return info.factor

    def solve(self, shown: dict[str, float]) -> dict[str, float] | None:
        vals = {s: v * self.factors[s] for s, v in shown.items()}
        for s, eq in self.equations.items():
            args, fn = _compiled(eq["rhs_srepr"])
            try:
                v = fn(*(vals[a] for a in args))
            except (ValueError, ZeroDivisionError, OverflowError, KeyError, TypeError):
                return None
            if isinstance(v, complex) or not math.isfinite(v):
                return None
            vals[s] = float(v)
        return vals

    def _names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        syms = list(self.units)
        for s in syms:
            names[mp.canonical_name(s)] = s
        for s in syms:
            for alias in ALIASES.get(s, ()):
                names.setdefault(mp.canonical_name(alias), s)
            for variant in (s.lower(), s.upper(), s[:1].upper() + s[1:], s[:1].lower() + s[1:]):
                c = mp.canonical_name(variant)
                if c not in names and sum(mp.canonical_name(x).lower() == c.lower() for x in syms) == 1:
                    names[c] = s
        return names

    def display_value(self, sym: str) -> float:
        return self.instances[0][sym] / (self.factors.get(sym) or 1.0)


# ---------------------------------------------------------------------------------------------- findings
@dataclass
class Finding:
    """The outcome of checking one step: ok, suspicious (CE, only blamed later) or a failure."""

    step: int  # the number reported (model's number or position)
    status: str  # ok | suspicious | fail
    error_type: str = "none"
    explanation: str = ""
    numeric: bool = False  # a failure of a computed value (may be blamed on an earlier suspicious step)
    info: dict[str, Any] = field(default_factory=dict)


_COMMENT = re.compile(r"\(([^()]*)\)")
_CLAUSE_SPLIT = re.compile(r";|⇒|=>|\\Rightarrow|\\implies|→|\\to\b|, so\b|, thus\b|, hence\b|, giving\b|, which\b"
                           r"|\band\b|\bwhere\b|\bwith\b|\bsince\b|\btherefore\b|\bthen\b|\bgives\b|:\s")


def _fmt(value: float) -> str:
    if value == 0:
        return "0"
    a = abs(value)
    return f"{value:.3g}" if 1e-3 <= a < 1e5 else f"{value:.3g}".replace("e+0", "e").replace("e+", "e")


def _with_unit(value: float, unit: str) -> str:
    return f"{_fmt(value)} {unit}".strip()


class _Checker:
    """Checks one solution against one GroundTruth, step by step, remembering symbols it defines."""

    def __init__(self, gt: GroundTruth, tol: Tolerances):
        self.gt = gt
        self.tol = tol
        self.names: dict[str, str] = dict(gt.names)
        self.env: list[dict[str, float]] = [dict(inst) for inst in gt.instances]
        self.numeric_only: set[str] = set()  # defined from a numeric value: known at the true instance only
        self.dims: dict[str, mp.Dim | None] = dict(gt.dims)
        self.unchecked: list[str] = []

    # -- parsing helpers
    def _names_obj(self) -> mp.Names:
        return mp.Names(self.names)

    def readings(self, text: str, where: str) -> list[mp.Node]:
        out: list[mp.Node] = []
        for units_first in (True, False):
            names = self._names_obj()
            try:
                if where == "lhs":
                    node = mp.parse_suffix(text, names, units_first)
                else:
                    node, used, _ = mp.parse_prefix(text, names, units_first)
                    if used == 0:
                        continue
            except mp.ParseFail:
                continue
            if node not in out:
                out.append(node)
        return out

    def instances_for(self, nodes: Sequence[mp.Node]) -> list[int]:
        """Instance indices where every variable of the nodes has a value."""
        used = set().union(*(mp.variables(n) for n in nodes)) if nodes else set()
        if used & self.numeric_only:
            return [0] if all(v in self.env[0] for v in used) else []
        return [k for k, env in enumerate(self.env) if all(v in env for v in used)]

    def values(self, node: mp.Node, k: int = 0) -> list[float]:
        modes = [mp.Mode(), mp.Mode(trig_degrees=True)]
        if self.gt.bare_units:
            modes += [mp.Mode(bare_units=self.gt.bare_units), mp.Mode(True, self.gt.bare_units)]
        out = []
        for m in modes:
            try:
                v = mp.evaluate(node, self.env[k], m)
            except mp.EvalError:
                continue
            if v not in out:
                out.append(v)
        return out

    def scale(self, node: mp.Node, k: int) -> float:
        """The largest magnitude among the terms of sums inside node (for identity tolerances)."""
        try:
            best = abs(mp.evaluate(node, self.env[k]))
        except mp.EvalError:
            return 0.0
        if node[0] in ("add", "sub", "neg", "mul", "div"):
            for child in node[1:]:
                if node[0] in ("add", "sub", "neg"):
                    best = max(best, self.scale(child, k))
        return best

    # -- comparisons
    def identity_holds(self, a: mp.Node, b: mp.Node) -> bool | None:
        ks = self.instances_for([a, b])
        if not ks:
            return None
        for k in ks:
            try:
                va, vb = mp.evaluate(a, self.env[k]), mp.evaluate(b, self.env[k])
            except mp.EvalError:
                return None
            s = max(self.scale(a, k), self.scale(b, k), abs(va), abs(vb))
            if abs(va - vb) > self.tol.identity_rel * s + 1e-300:
                return False
        return True

    def close(self, v: float, expected: float, rel: float) -> bool:
        return abs(v - expected) <= rel * max(abs(expected), abs(v)) + 1e-300 or (expected == 0 and abs(v) < 1e-12)

    def value_matches(self, node: mp.Node, expected_si: float, display_factor: float, rel: float) -> bool | None:
        if not self.instances_for([node]):
            return None
        vals = self.values(node)
        if not vals:
            return None
        targets = [expected_si]
        if not mp.has_units(node) and display_factor not in (0.0, 1.0):
            targets.append(expected_si / display_factor)
        if any(self.close(v, t, rel) for v in vals for t in targets):
            return True
        # rounded intermediates plugged in (1042 MeV - 1032 MeV): widen by the rounding they carry
        spread = self.rounding_spread(node)
        return spread > 0 and any(abs(vals[0] - t) <= spread + rel * abs(t) for t in targets)

    def rounding_spread(self, node: mp.Node) -> float:
        """How far the value can move when each written literal that is not a stated given moves by half a
        unit of its last digit (summed over literals; evaluated at the true instance)."""
        try:
            base = mp.evaluate(node, self.env[0])
        except mp.EvalError:
            return 0.0
        stated = {float(g["value"]) for g in self.gt.givens.values()}
        total, count = 0.0, 0

        def bump(n: mp.Node, target: int, counter: list[int]) -> mp.Node:
            op = n[0]
            if op in ("num", "qty"):
                text = n[2] if op == "num" else n[4].split()[0]
                if not text[:1].isdigit() or n[1] in stated or _literal_ulp(text) is None:
                    return n
                counter[0] += 1
                if counter[0] - 1 != target:
                    return n
                half = 0.5 * (_literal_ulp(text) or 0.0)
                return (op, n[1] + half, *n[2:])
            return (op, *[bump(a, target, counter) if isinstance(a, tuple) and a and isinstance(a[0], str) else a
                          for a in n[1:]])

        while count < 12:
            counter = [0]
            moved = bump(node, count, counter)
            if counter[0] <= count:
                break
            try:
                total += abs(mp.evaluate(moved, self.env[0]) - base)
            except mp.EvalError:
                pass
            count += 1
        return total

    # -- definitions
    def define(self, name: str, node: mp.Node, numeric: bool) -> None:
        """Remember a symbol the solution introduced (its values per instance)."""
        self.names[name] = name
        self.dims[name] = mp.dimension(node, self.dims)
        for k, env in enumerate(self.env):
            if numeric and k > 0:
                env.pop(name, None)
                continue
            vals = self.values(node, k) if numeric else []
            try:
                env[name] = vals[0] if numeric and vals else mp.evaluate(node, env)
            except mp.EvalError:
                env.pop(name, None)
        if numeric:
            self.numeric_only.add(name)
        else:
            self.numeric_only.discard(name)
            for s in self.gt.equations:  # alias: the solution's name for a known quantity
                if all(s in env and name in env and self.close(env[name], env[s], 1e-6) for env in self.env):
                    self.names[name] = s
                    break

    # -- one clause
    def check_clause(self, clause: str, tag: str | None) -> Finding | None:
        parts = clause.split("=")
        if len(parts) < 2:
            return None
        lhs_readings = self.readings(parts[0], "lhs") if parts[0].strip() else []
        segs = []
        for raw in parts[1:]:
            r = self.readings(raw, "rhs") if raw.strip() else []
            if r:
                segs.append((raw.strip(), r))
        if not segs:
            return None
        lhs = lhs_readings[0] if lhs_readings else None
        if lhs is not None and lhs[0] == "var":
            name = lhs[1]
            plain = [(raw, [n for n in rs if not mp.variables(n)]) for raw, rs in segs]
            if name in self.gt.givens and all(rs for _, rs in plain):
                return self.check_given(name, plain)
            if name in self.env[0] or any(name in env for env in self.env):
                return self.check_against(name, lhs, segs)
            return self.check_definition(name, segs, tag)
        if lhs is None:
            ref_raw, ref = segs[0]
            lhs, segs = ref[0], segs[1:]
            lhs_readings = ref
        return self.check_relation(lhs_readings, segs)

    def check_given(self, name: str, segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        g = self.gt.givens[name]
        stated, unit = float(g["value"]), g.get("unit", "")
        factor = self.gt.factors.get(name, 1.0)
        for raw, readings in segs:
            if self.given_ok(name, readings, stated, factor):
                continue
            if not any(self.values(n) for n in readings):
                self.unchecked.append(raw)  # unreadable value (an unknown unit): not judged
                continue
            other = next((s for s, o in self.gt.givens.items() if s != name and o.get("unit") == unit
                          and self.given_ok(s, readings, float(o["value"]), factor)), None)
            shown = raw if len(raw) < 40 else raw[:37] + "..."
            why = f", which is the value of {other}" if other else ""
            return Finding(0, "fail", "MC", f"states {name} = {shown}{why}; the problem gives {name} = "
                           f"{_with_unit(stated, unit)}.", info={"check": "given", "symbol": name})
        return None

    def given_ok(self, name: str, readings: list[mp.Node], stated: float, factor: float) -> bool:
        for node in readings:
            for v in self.values(node):
                written = v if mp.has_units(node) else v * factor  # bare: in the stated unit
                alt = v  # bare: in SI
                for w in ((written, alt) if not mp.has_units(node) else (written,)):
                    if name in self.gt.fixed:
                        if self.close(w, stated * factor, self.tol.given_rel):
                            return True
                        continue
                    lit = node[2] if node[0] == "num" else (node[4].split()[0] if node[0] == "qty" else None)
                    ulp = _literal_ulp(lit) if lit else None
                    ulp_si = (ulp or 0.0) * (node[2] if node[0] == "qty" else factor)
                    if abs(w - stated * factor) <= max(self.tol.half_ulp * ulp_si, 1e-9 * abs(stated * factor)):
                        return True
        return False

    def _expected_factor(self, name: str) -> float:
        return self.gt.factors.get(name, 1.0)

    def check_against(self, name: str, lhs: mp.Node, segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        """lhs is a known quantity: symbolic segments must be identities, numeric ones match its value."""
        unit = self.gt.units.get(name, "")
        for raw, readings in segs:
            symbolic = [n for n in readings if not mp.is_numeric(n)]
            if symbolic and len(symbolic) == len(readings):
                results = [self.identity_holds(lhs, n) for n in symbolic]
                if any(r is True for r in results) or all(r is None for r in results):
                    continue
                return Finding(0, "fail", "CM", f"uses {name} = {mp.to_text(symbolic[0])}; "
                               + self.expected_relation(name), info={"check": "equation", "symbol": name})
            if name not in self.env[0]:
                continue
            expected = self.env[0][name]
            results = [self.value_matches(n, expected, self._expected_factor(name), self.tol.value_rel)
                       for n in readings]
            if any(r is True for r in results):
                suspicious = self.suspicious(name, readings, expected)
                if suspicious:
                    return suspicious
                continue
            if all(r is None for r in results):
                self.unchecked.append(raw)
                continue
            got = self.values(readings[0])
            shown = _with_unit(got[0] / self._expected_factor(name), unit) if got and mp.has_units(readings[0]) \
                else (raw if len(raw) < 40 else raw[:37] + "...")
            return Finding(0, "fail", "CE", f"gives {name} = {shown}; expected {name} = "
                           f"{_with_unit(expected / self._expected_factor(name), unit)}.", numeric=True,
                           info={"check": "value", "symbol": name})
        return None

    def suspicious(self, name: str, readings: list[mp.Node], expected: float) -> Finding | None:
        """A single written value off by more than half a unit of its last digit (see module docstring)."""
        node = readings[0]
        if node[0] == "neg":
            node = node[1]
        if node[0] == "num":
            lit, factor_options = node[2], [1.0, self._expected_factor(name)]
        elif node[0] == "qty" and node[4][:1].isdigit():
            lit, factor_options = node[4].split()[0], [node[2]]
        else:
            return None
        ulp = _literal_ulp(lit)
        if ulp is None:
            return None
        sign = -1.0 if readings[0][0] == "neg" else 1.0
        for f in factor_options:
            v = sign * float(lit) * f
            dev = abs(v - expected)
            if dev <= self.tol.half_ulp * ulp * f or dev <= self.tol.suspicious_rel * abs(expected):
                return None
        unit = self.gt.units.get(name, "")
        return Finding(0, "suspicious", "CE", f"gives {name} = {lit}{' ' + unit if node[0] == 'num' else ''}; "
                       f"expected {name} = {_with_unit(expected / self._expected_factor(name), unit)}.",
                       numeric=True, info={"check": "rounding", "symbol": name})

    def expected_relation(self, name: str) -> str:
        eq = self.gt.equations.get(name)
        if eq:
            return f"the governing relation is {name} = {eq['rhs'].replace('**', '^')}."
        return "it does not follow from the governing equations."

    def check_definition(self, name: str, segs: list[tuple[str, list[mp.Node]]], tag: str | None) -> Finding | None:
        """A new symbol: defined by its first evaluable segment; later segments must agree with it."""
        for i, (_raw, readings) in enumerate(segs):
            node = readings[0]
            if not self.instances_for([node]):
                continue
            if tag == "given" and not mp.variables(node):
                alias = self.alias_given(readings)
                if alias:
                    self.names[name] = alias
                    return self.check_given(alias, segs)
            self.define(name, node, mp.is_numeric(node))
            rest = segs[i + 1:]
            return self.check_against(name, ("var", name), rest) if rest else None
        self.unchecked.append(name)
        return None

    def alias_given(self, readings: list[mp.Node]) -> str | None:
        used = set(self.names.values())
        for s, g in self.gt.givens.items():
            if s in used and any(self.names.get(c) == s and c != mp.canonical_name(s) for c in self.names):
                continue
            if self.given_ok(s, readings, float(g["value"]), self.gt.factors.get(s, 1.0)):
                return s
        return None

    def check_relation(self, lhs_readings: list[mp.Node], segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        """An equation between expressions (`m1 g - T = m1 a`): every segment equals the first."""
        for raw, readings in segs:
            ok = None
            for a in lhs_readings:
                for b in readings:
                    if mp.is_numeric(a) or mp.is_numeric(b):
                        ks = self.instances_for([a, b])
                        if not ks:
                            continue
                        va, vb = self.values(a), self.values(b)
                        res = any(self.close(x, y, self.tol.value_rel) for x in va for y in vb) if va and vb else None
                    else:
                        res = self.identity_holds(a, b)
                    if res is True:
                        ok = True
                        break
                    if res is False:
                        ok = False if ok is None else ok
                if ok:
                    break
            if ok is False:
                a, b = lhs_readings[0], readings[0]
                numeric = mp.is_numeric(a) or mp.is_numeric(b)
                what = f"{mp.to_text(a)} = {mp.to_text(b)}"
                if numeric:
                    return Finding(0, "fail", "CE", f"writes {what}, which does not hold for the given values.",
                                   numeric=True, info={"check": "relation"})
                return Finding(0, "fail", "CM", f"writes {what}, which does not follow from the governing "
                               "equations.", info={"check": "relation"})
        return None

    # -- whole steps
    def check_target(self, text: str) -> tuple[bool, Finding | None]:
        """(names the target, failure if it names another quantity)."""
        gt = self.gt
        tokens = re.findall(r"[A-Za-zα-ωΑ-Ωμ\\][A-Za-z0-9_{}α-ωΑ-Ωμ\\]*", mp.normalize(text))
        found = []
        for i, tok in enumerate(tokens):
            c = mp.canonical_name(tok.replace("\\", "").replace("{", "").replace("}", ""))
            s = self.names.get(c)
            if s is None or s not in gt.units:
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if tok in ("a", "A", "I") and nxt.islower() and len(nxt) >= 3 and not re.search(
                    rf"\b{tok}\s*[,:]", text):
                continue  # the article
            found.append(s)
        computed = [s for s in found if s not in gt.givens]
        if computed and computed[0] == gt.target:
            return True, None
        other = computed[0] if computed else None
        words = [w for w in re.findall(r"[a-z]{4,}", gt.target_desc.lower()) if w not in mp.STOPWORDS]
        low = text.lower()
        if not other and words and sum(w in low for w in words) >= max(1, math.ceil(0.6 * len(words))):
            return True, None
        if other:
            desc = gt.descriptions.get(other, "")
            return False, Finding(0, "fail", "MC", f"takes {other}{f' ({desc})' if desc else ''} as the unknown; "
                                  f"the question asks for {gt.target}, {gt.target_desc}.",
                                  info={"check": "target", "found": other})
        m = re.search(r"\(in ([^()]+)\)", text)
        if m and gt.target in gt.dims:
            info = mp.pint_unit(mp.normalize(m.group(1)).replace("^", "**"))
            if info is not None and gt.dims[gt.target] is not None and not mp.same_dim(info.dim, gt.dims[gt.target]):
                return False, Finding(0, "fail", "MC", f"asks for a quantity in {m.group(1)}; the question asks for "
                                      f"{gt.target}, {gt.target_desc} (in {gt.units.get(gt.target)}).",
                                      info={"check": "target"})
        return False, None

    def principle_hits(self, text: str) -> set[int]:
        low = _plain_words(text)
        hits = set()
        for i, p in enumerate(self.gt.principles):
            cues = [_plain_words(k) for k in p.get("keywords", [])] + [_plain_words(p.get("name", ""))]
            if any(c and c in low for c in cues):
                hits.add(i)
        return hits


def _plain_words(text: str) -> str:
    t = text.lower().replace("’", "'").replace("'s", "").replace("-", " ")
    return " " + re.sub(r"[^a-z0-9]+", " ", t).strip() + " "


def _is_remark(inner: str) -> bool:
    """A parenthesised group is a remark when it holds '=' or starts with an English word."""
    inner = inner.strip()
    if "=" in inner or "≈" in inner:
        return True
    first = re.match(r"[A-Za-z]+", inner)
    if not first:
        return False
    word = first.group(0)
    if word.lower() in mp.STOPWORDS:
        return bool(re.match(r"[A-Za-z]+\s+[A-Za-z]", inner))
    words = [w for w in re.findall(r"[A-Za-z]{3,}", inner)
             if w not in mp.FUNCTIONS and w not in mp.GREEK_NAMES and mp.unit_word(w) is None]
    return word in words and word.islower() and len(words) >= 2


def _strip_remarks(text: str) -> str:
    """Drop parenthesised remarks: '(mass of the block)', '(from F = m a)', '(in N)', '(cos(phi) = vx/v)'."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "(":
            depth, j = 0, i
            while j < len(text):
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                if depth == 0:
                    break
                j += 1
            if depth == 0 and _is_remark(text[i + 1:j]):
                out.append(" ")
                i = j + 1
                continue
        out.append(text[i])
        i += 1
    return "".join(out)


def split_clauses(text: str) -> list[str]:
    """A step's text without remarks, split into clauses (see the module docstring)."""
    text = _strip_remarks(text)
    depth, parts, cur = 0, [], []
    for ch in text:  # commas followed by a space split only outside parentheses
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(ch, 0)
        cur.append(ch)
        if ch == "," and depth == 0:
            parts.append("".join(cur[:-1]))
            cur = []
    parts.append("".join(cur))
    out = []
    for p in parts:
        out += [c for c in _CLAUSE_SPLIT.split(p) if c and c.strip()]
    # a clause without '=' that follows one with '=' is prose; keep only clauses with '='
    return [c.strip() for c in out if "=" in c or "≈" in c]


# ---------------------------------------------------------------------------------------------- verifier
@register_verifier("symbolic")
class SymbolicVerifier:
    """Offline first-error verifier against `physr3.synth.gt/1` ground truth (see the module docstring)."""

    name = "symbolic"

    def __init__(self, tolerances: Tolerances | None = None):
        self.tol = tolerances or Tolerances()
        self._gt_cache: dict[str, GroundTruth] = {}
        self.counters = {"verified": 0, "parse_error": 0, "errors_found": 0}

    @classmethod
    def from_config(cls, cfg: Any = None, **kwargs: Any) -> SymbolicVerifier:
        """Build from a full Config; tolerances come from `cfg.verifier.symbolic_<name>` when present."""
        v = getattr(cfg, "verifier", None)
        tol = Tolerances(**{f: getattr(v, f"symbolic_{f}") for f in Tolerances.__dataclass_fields__
                            if v is not None and hasattr(v, f"symbolic_{f}")})
        return cls(kwargs.get("tolerances", tol))

    def report(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in self.counters.items())

    def ground_truth(self, problem: Problem) -> GroundTruth | None:
        rec = problem.ground_truth
        if not isinstance(rec, dict) or rec.get("schema") != SCHEMA or not rec.get("steps"):
            return None
        key = f"{problem.id}:{rec.get('family')}:{rec.get('seed')}"
        if key not in self._gt_cache:
            if len(self._gt_cache) > 4096:
                self._gt_cache.clear()
            self._gt_cache[key] = GroundTruth(rec, key)
        return self._gt_cache[key]

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        return [self.verify(p, s) for p, s in items]

    def verify(self, problem: Problem, solution: str) -> Verdict:
        self.counters["verified"] += 1
        try:
            gt = self.ground_truth(problem)
        except Exception as exc:  # a malformed record must not crash a run
            gt = None
            why = f"ground truth unreadable: {exc}"
        else:
            why = "no physr3.synth.gt/1 ground truth on this problem"
        if gt is None:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", why, status="parse_error")
        parsed = parse_solution(solution or "")
        if not parsed.steps:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", "The solution has no numbered steps (Step k:), so no step can be checked.",
                           status="parse_error")
        try:
            verdict = self._verify(gt, parsed)
        except RecursionError:
            self.counters["parse_error"] += 1
            return Verdict(0, "none", "The solution could not be read (nesting too deep).", status="parse_error")
        if verdict.error_step:
            self.counters["errors_found"] += 1
        return verdict

    def _verify(self, gt: GroundTruth, parsed: Any) -> Verdict:
        steps = parsed.steps
        numbered = [s.number for s in steps] == list(range(1, len(steps) + 1))
        checker = _Checker(gt, self.tol)
        findings: list[Finding] = []
        concept_steps = [(i, s) for i, s in enumerate(steps) if s.tag == "concept"]
        concept_fail = self._concept_failure(checker, concept_steps)
        find_steps = [(i, s) for i, s in enumerate(steps) if s.tag == "find"]
        target_fail = self._target_failure(checker, find_steps)

        first_fail: Finding | None = None
        for i, step in enumerate(steps):
            number = step.number if numbered else i + 1
            finding = None
            if concept_fail and concept_fail[0] == i:
                finding = concept_fail[1]
            elif target_fail and target_fail[0] == i:
                finding = target_fail[1]
            elif step.tag != "concept":
                for clause in split_clauses(step.text)[:12]:
                    f = checker.check_clause(clause, step.tag)
                    if f is not None:
                        finding = f
                        if f.status == "fail":
                            break
            if finding is None:
                continue
            finding.step = number
            finding.info["tag"] = step.tag
            if finding.status == "fail" and finding.numeric and step.tag in NUMERIC_TYPE_BY_TAG:
                finding.error_type = NUMERIC_TYPE_BY_TAG[step.tag]  # a wrong value where the section says
                finding.numeric = False  # what kind of step it is (a wrong given, a wrong equation)
            findings.append(finding)
            if finding.status == "fail":
                first_fail = finding
                break
        if first_fail is None:
            final = self._final_failure(checker, parsed)
            if final is not None:
                final.step = steps[-1].number if numbered else len(steps)
                first_fail = final
        suspicious = [f for f in findings if f.status == "suspicious"]
        raw = {"findings": [f.__dict__ for f in findings], "unchecked": checker.unchecked[:20]}
        if first_fail is None:
            return Verdict(0, "none", "Every checked step agrees with the ground truth.", raw=raw,
                           details={"suspicious": [f.step for f in suspicious]})
        blamed = first_fail
        if first_fail.numeric and suspicious:
            blamed = suspicious[0]
        explanation = f"Step {blamed.step} {blamed.explanation}"
        return Verdict(blamed.step, blamed.error_type, explanation, raw=raw,
                       details={"tag": blamed.info.get("tag"), "check": blamed.info.get("check"),
                                "symbol": blamed.info.get("symbol"), "first_failure_step": first_fail.step})

    def _concept_failure(self, checker: _Checker, concept_steps: list) -> tuple[int, Finding] | None:
        if not concept_steps or not checker.gt.principles:
            return None
        hits = [checker.principle_hits(s.text) for _, s in concept_steps]
        covered = set().union(*hits)
        if len(covered) == len(checker.gt.principles):
            return None
        missing = [p for k, p in enumerate(checker.gt.principles) if k not in covered]
        for (i, s), h in zip(concept_steps, hits):
            if not h:
                p = missing[0]
                cues = ", ".join(p.get("keywords", [])[:3])
                return i, Finding(0, "fail", "CM", f"does not state the principle that applies; expected "
                                  f"{p.get('name')} ({cues}).", info={"check": "principle"})
        return None

    def _target_failure(self, checker: _Checker, find_steps: list) -> tuple[int, Finding] | None:
        first = None
        for i, s in find_steps:
            named, fail = checker.check_target(s.text)
            if named:
                return None
            if fail and first is None:
                first = (i, fail)
        return first

    def _final_failure(self, checker: _Checker, parsed: Any) -> Finding | None:
        gt = checker.gt
        text = (parsed.final_answer or "").strip()
        ans = gt.rec.get("answer", {})
        if not text or not ans:
            return None
        if gt.rec.get("kind") == "mcq" and ans.get("letter"):
            m = re.match(r"\W*\(?([A-D])(?![A-Za-z0-9.])", text) or re.search(
                r"(?i:option|answer|choice)\W*(?:is\W*)?\(?([A-D])(?![A-Za-z0-9])", text)
            if m:
                if m.group(1) == ans["letter"]:
                    return None
                return Finding(0, "fail", "CE", f"leads to option {ans['letter']} ({ans.get('text')}), but the "
                               f"final answer is {m.group(1)}.", numeric=True, info={"check": "final"})
        sym = ans.get("symbol")
        if sym not in checker.env[0]:
            return None
        segment = re.split(r"=|≈", mp.normalize(text))[-1]
        readings = checker.readings(segment, "rhs")
        if not readings:
            return None
        results = [checker.value_matches(n, checker.env[0][sym], gt.factors.get(sym, 1.0), self.tol.final_rel)
                   for n in readings]
        if any(r is True for r in results) or all(r is None for r in results):
            return None
        return Finding(0, "fail", "CE", f"ends with the final answer {text[:40]}; expected "
                       f"{ans.get('text')}.", numeric=True, info={"check": "final"})
