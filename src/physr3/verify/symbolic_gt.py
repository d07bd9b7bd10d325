"""Ground truth for the symbolic verifier: a `physr3.synth.gt/1` record turned into evaluable instances.

`GroundTruth(record, key)` reads the givens, equations (rebuilt from `rhs_srepr` by `srepr_to_sympy`, a
whitelisting reader: the record is data, never executed), units and SI factors (pint), and solves three
instances in SI: the true one and two with the sampled givens perturbed by 0.8-1.25x (fixed constants
such as g or gamma are kept, so an equation written with 5/3 for gamma still holds), seeded by `key`.
The verifier's identity tests evaluate a model's equation at all three.
"""

from __future__ import annotations

import ast
import math
import random
import re
from functools import lru_cache
from typing import Any

import sympy as sp

from physr3 import quantity as mp

SCHEMA = "physr3.synth.gt/1"
CONSTANT_NAMES = frozenset({"g", "k", "e", "h", "c", "eps0", "mu0", "km", "R", "NA", "kB", "G", "me", "mp", "sigma",
                            "hbar", "gamma", "Rinf"})
ALIASES = {"lam": ("lambda", "lamda", "λ"), "eps0": ("epsilon0", "varepsilon0", "e0"), "mu0": ("u0",),
           "theta": ("θ", "th"), "omega": ("w",), "mu": ("muk", "mus", "u_k")}



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


def _literal_ulp(text: str, integer_zeros: bool = True) -> float | None:
    """The unit of the last written digit: '3.19' -> 0.01, '5.51e5' -> 1e3, '2890' -> 10 (trailing zeros
    of an integer taken as not significant, as `fmt_sig` writes 3 figures), or 1 with `integer_zeros=False`."""
    m = re.fullmatch(r"(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?", text)
    if not m:
        return None
    decimals = len(m.group(2) or "")
    exp = int(m.group(3) or 0)
    if integer_zeros and m.group(2) is None and m.group(1):
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
        self.shown = shown = {s: float(g["value"]) for s, g in self.givens.items()}
        self.stated_ulp = {s: self._stated_ulp(g) for s, g in self.givens.items()}
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
    def _stated_ulp(g: dict[str, Any]) -> float:
        """The unit of the last digit of a given as the problem states it ('4.21 kg' -> 0.01)."""
        m = re.search(r"=\s*([0-9.]+(?:e[-+]?\d+)?)", g.get("text", ""))
        ulp = _literal_ulp(m.group(1), integer_zeros=False) if m else None
        return ulp if ulp is not None else (_literal_ulp(repr(float(g["value"])), integer_zeros=False) or 0.0)

    @staticmethod
    def _factor(unit: str) -> float:
        info = mp.pint_unit(unit.replace("^", "**")) if unit else mp.UnitInfo("", 1.0, mp.DIMLESS)
        if info is None:
            raise ValueError(f"unit {unit!r} not understood")
        return info.factor

    def solve(self, shown: dict[str, float], overrides: dict[str, float] | None = None) -> dict[str, float] | None:
        """SI values of everything from stated givens; `overrides` replaces computed SI values (a slip)."""
        vals = {s: v * self.factors[s] for s, v in shown.items()}
        for s, eq in self.equations.items():
            if overrides and s in overrides:
                vals[s] = overrides[s]
                continue
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
