"""Units and numbers for the generator: one pint registry, SI factors, dimensional analysis, formatting.

Families compute in SI base units: every given is converted with `si_factor(unit)` before evaluation and
every computed value is converted back to its declared unit. Factors are cached per unit string, so pint is
consulted once per unit, not once per problem (the 10,000-problems-a-minute target). Offset units (degC,
degF) have no factor and are refused: temperatures are declared in K.

`dimension_of` walks a sympy expression with pint quantities of magnitude 1, so an addition of
incompatible dimensions, a dimensional exponent or a dimensional argument of sin/exp/log raises
`DimensionError`. Angles (rad, deg) are dimensionless, as in pint.

`fmt_sig` is the one place that decides how a number reads in text: fixed notation for 1e-3 <= |x| < 1e5,
otherwise `6.63e-34` (mantissa with the requested significant figures, exponent without padding).
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

import pint
import sympy as sp


class DimensionError(ValueError):
    """An expression whose dimensions do not add up, or that do not match its declared unit."""


@lru_cache(maxsize=1)
def ureg() -> pint.UnitRegistry:
    """The shared unit registry (created on first use: about 0.2 s)."""
    return pint.UnitRegistry()


@cache
def si_factor(unit: str) -> float:
    """Multiplier taking a magnitude in `unit` to SI base units; '' means dimensionless (1.0)."""
    if not unit:
        return 1.0
    try:
        one = ureg().Quantity(1.0, unit).to_base_units().magnitude
        two = ureg().Quantity(2.0, unit).to_base_units().magnitude
    except (pint.errors.PintError, AttributeError, TypeError, ValueError) as exc:
        raise ValueError(f"unit {unit!r} is not understood by pint: {exc}") from None
    if not math.isclose(two, 2 * one, rel_tol=1e-12):
        raise ValueError(f"unit {unit!r} has an offset (use K for temperatures)")
    return float(one)


@cache
def unit_quantity(unit: str) -> pint.Quantity:
    """1 `unit` in SI base units, with magnitude forced to 1 (only its dimensions matter)."""
    si_factor(unit)  # validates
    q = ureg().Quantity(1.0, unit or "dimensionless").to_base_units()
    return ureg().Quantity(1.0, q.units)


def same_dimension(a: pint.Quantity, b: pint.Quantity) -> bool:
    return a.dimensionality == b.dimensionality


def dimension_of(expr: sp.Expr, units: dict[str, str]) -> pint.Quantity:
    """A magnitude-1 pint quantity carrying the dimensions of `expr`, whose symbols have `units`."""
    if isinstance(expr, sp.Symbol):
        if expr.name not in units:
            raise DimensionError(f"symbol {expr.name} has no declared unit")
        return unit_quantity(units[expr.name])
    if expr.is_number:
        return unit_quantity("")
    if isinstance(expr, sp.Add):
        terms = [dimension_of(a, units) for a in expr.args]
        for t in terms[1:]:
            if not same_dimension(t, terms[0]):
                raise DimensionError(f"adding {terms[0].dimensionality} and {t.dimensionality} in {expr}")
        return terms[0]
    if isinstance(expr, sp.Mul):
        out = unit_quantity("")
        for a in expr.args:
            out = out * dimension_of(a, units)
        return ureg().Quantity(1.0, out.units)
    if isinstance(expr, sp.Pow):
        base, exp = dimension_of(expr.base, units), expr.exp
        if not exp.is_number:
            if not (base.dimensionless and dimension_of(exp, units).dimensionless):
                raise DimensionError(f"non-numeric exponent on a dimensional base in {expr}")
            return unit_quantity("")
        out = base ** float(exp)
        return ureg().Quantity(1.0, out.units)
    if isinstance(expr, sp.Function):
        for a in expr.args:
            if not dimension_of(a, units).dimensionless:
                raise DimensionError(f"argument of {expr.func.__name__} is not dimensionless in {expr}")
        return unit_quantity("")
    raise DimensionError(f"cannot analyse dimensions of {type(expr).__name__}: {expr}")


def check_unit(expr: sp.Expr, units: dict[str, str], unit: str, where: str) -> None:
    """Raise DimensionError unless `expr` has the dimensions of `unit`."""
    got, want = dimension_of(expr, units), unit_quantity(unit)
    if not same_dimension(got, want):
        raise DimensionError(f"{where}: expression has dimensions {got.dimensionality}, "
                             f"declared unit {unit or 'dimensionless'!r} has {want.dimensionality}")


def round_sig(x: float, sig: int) -> float:
    """`x` rounded to `sig` significant figures."""
    return float(f"{x:.{sig - 1}e}") if x else 0.0


def fmt_sig(x: float, sig: int) -> str:
    """`x` with exactly `sig` significant figures, e.g. 9.8 -> '9.80' (sig 3), 6.626e-34 -> '6.63e-34'."""
    if x == 0:
        return "0" if sig == 1 else "0." + "0" * (sig - 1)
    r = round_sig(x, sig)
    e = math.floor(math.log10(abs(r)))
    if -3 <= e < 5:
        return f"{r:.{max(sig - 1 - e, 0)}f}"
    mant, ex = f"{r:.{sig - 1}e}".split("e")
    return f"{mant}e{int(ex)}"


def fmt_plain(x: float) -> str:
    """A constant as an author would write it: 9.8, 2, 6.63e-34, 3e8."""
    if float(x).is_integer() and abs(x) < 1e6:
        return str(int(x))
    s = f"{x:.6g}"
    if "e" in s:
        mant, ex = s.split("e")
        return f"{mant}e{int(ex)}"
    return s


def with_unit(text: str, unit: str) -> str:
    """'20' + 'm/s' -> '20 m/s'; dimensionless values read bare."""
    return f"{text} {unit}" if unit else text
