"""Units: the one pint registry, the one table of written unit words, SI factors and dimensions.

Everything in physr3 that converts a unit goes through `ureg()` (one `pint.UnitRegistry`, created on first
use, about 0.3 s) and the helpers here, so the generator, the verifier, the code channel and the answer
scorer agree on what a unit means:

- `si_factor(unit)`: the multiplier taking a magnitude in `unit` (pint syntax) to SI base units. Offset
  units (degC, degF) have no factor and are refused: temperatures are K. Cached per unit string, so the
  generator consults pint once per unit, not once per problem.
- `unit_word(name)`: what one written word means as a unit (`kg`, `μF`, `MeV`, `Ω`, `°`, `joules`), from
  the table below (`BASE_UNITS` take SI prefixes, `PLAIN_UNITS` do not, `WORD_UNITS` are spelled out). The
  expression readers (`physr3.quantity.expr`, `physr3.quantity.arith`) use only this table, so a word is a
  unit in one reader exactly when it is one in the other.
- `parse_unit(text)`: the leading unit expression of free answer text ("5 m/s towards the east" -> m/s),
  read word by word with pint itself (any unit pint knows, plus `PLAIN_UNITS` and the `UNIT_SPELLINGS` it
  lacks); English words pint would take for units (`in` = inch, `a` = year, `are` = 100 m²) are never
  units here (`NOT_UNITS`). This is the answer scorer's reader: broader than `unit_word`, because a final answer is
  one value and one unit, with no variables to confuse with unit symbols.
- Dimensions: `Dim` (SI exponents of length, mass, time, current, temperature, substance, luminosity) for
  the verifier's float arithmetic; `dimension_of` checks a generator family's sympy expressions with
  magnitude-1 pint quantities (`DimensionError` for adding metres to seconds, a dimensional exponent or a
  dimensional argument of sin/exp/log). Angles (rad, deg) are dimensionless, as in pint.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pint is imported on first use (about 0.25 s), not when a reader module is imported
    import pint


class DimensionError(ValueError):
    """An expression whose dimensions do not add up, or that do not match its declared unit."""


@lru_cache(maxsize=1)
def ureg() -> pint.UnitRegistry:
    """The shared unit registry (created on first use). Offset units convert to base units when multiplied
    (`autoconvert_offset_to_baseunit`), so an answer in °C still compares with one in K."""
    import pint

    return pint.UnitRegistry(autoconvert_offset_to_baseunit=True)


# ---------------------------------------------------------------------------------------------- SI factors
_DIMS = ("[length]", "[mass]", "[time]", "[current]", "[temperature]", "[substance]", "[luminosity]")
Dim = tuple[float, ...]
DIMLESS: Dim = (0.0,) * 7


@dataclass(frozen=True)
class UnitInfo:
    """One unit: pint spelling, factor to SI base units and SI dimension exponents."""

    pint: str
    factor: float
    dim: Dim


@lru_cache(maxsize=4096)
def pint_unit(spelling: str) -> UnitInfo | None:
    """Factor and dimensions of a pint unit expression ("m/s^2", "uF", "N*m^2/C^2"); None if unreadable
    or an offset unit (degC); "" is dimensionless."""
    if not spelling:
        return UnitInfo("", 1.0, DIMLESS)
    try:
        q = ureg().Quantity(1.0, spelling.replace("^", "**")).to_base_units()
        q2 = ureg().Quantity(2.0, spelling.replace("^", "**")).to_base_units()
    except Exception:  # pint raises many kinds (undefined unit, syntax, offset)
        return None
    if not math.isclose(q2.magnitude, 2 * q.magnitude, rel_tol=1e-9):
        return None  # offset unit (degC)
    dims = q.dimensionality
    return UnitInfo(spelling, float(q.magnitude), tuple(float(dims.get(d, 0)) for d in _DIMS))


@cache
def si_factor(unit: str) -> float:
    """Multiplier taking a magnitude in `unit` to SI base units; '' means dimensionless (1.0)."""
    info = pint_unit(unit)
    if info is None:
        try:
            ureg().Quantity(1.0, unit.replace("^", "**")).to_base_units()
        except Exception as exc:  # pint raises many kinds; say which
            raise ValueError(f"unit {unit!r} is not understood by pint: {exc}") from None
        raise ValueError(f"unit {unit!r} has an offset (use K for temperatures)")
    return info.factor


def dim_of_unit(unit: str) -> Dim | None:
    info = pint_unit(unit)
    return None if info is None else info.dim


def same_dim(a: Dim | None, b: Dim | None) -> bool:
    return a is not None and b is not None and all(abs(x - y) < 1e-9 for x, y in zip(a, b))


# ---------------------------------------------------------------------------------------------- unit words
BASE_UNITS = {  # symbol -> pint spelling; take SI prefixes
    "m": "m", "g": "g", "s": "s", "A": "A", "K": "K", "mol": "mol", "N": "N", "J": "J", "W": "W", "Pa": "Pa",
    "C": "C", "V": "V", "F": "F", "Ω": "ohm", "ohm": "ohm", "T": "T", "Wb": "Wb", "H": "H", "Hz": "Hz",
    "eV": "eV", "L": "L", "rad": "rad", "cal": "cal", "Wh": "Wh", "bar": "bar", "Bq": "Bq", "Ci": "Ci",
    "Gy": "Gy", "Sv": "Sv",
}
PLAIN_UNITS = {  # no prefixes
    "deg": "degree", "°": "degree", "degree": "degree", "degrees": "degree", "min": "minute", "h": "hour",
    "hr": "hour", "hrs": "hour", "d": "day", "day": "day", "days": "day", "yr": "year", "year": "year",
    "years": "year", "y": "year", "Nm": "N*m", "kgm": "kg*m", "atm": "atm", "u": "dalton", "amu": "dalton",
    "Da": "dalton", "%": "percent", "sec": "s", "secs": "s", "ohms": "ohm", "Ohm": "ohm", "Ohms": "ohm",
    "torr": "torr", "Torr": "torr", "mmHg": "mmHg", "cc": "cm**3", "litre": "L", "liter": "L", "litres": "L",
    "liters": "L", "ly": "light_year", "lb": "lb", "ft": "ft", "sr": "sr",
}
WORD_UNITS = ("meter metre second gram newton joule watt pascal coulomb volt ampere amp farad tesla weber "
              "henry hertz kelvin radian electronvolt calorie kilogram kilometer kilometre centimeter "
              "centimetre millimeter millimetre nanometer nanometre microsecond millisecond kilojoule").split()
PREFIXES = {"p": "p", "n": "n", "u": "u", "μ": "u", "µ": "u", "m": "m", "c": "c", "k": "k", "M": "M", "G": "G",
            "T": "T", "d": "d"}


@lru_cache(maxsize=4096)
def unit_word(name: str) -> UnitInfo | None:
    """The unit a single written word stands for (`kg`, `μF`, `MeV`, `Ω`, `°`, `joules`), or None."""
    if name in PLAIN_UNITS:
        return pint_unit(PLAIN_UNITS[name])
    if name in BASE_UNITS:
        return pint_unit(BASE_UNITS[name])
    low = name.lower()
    singular = low[:-1] if low.endswith("s") and low[:-1] in WORD_UNITS else low
    if singular in WORD_UNITS:
        return pint_unit(singular)
    if len(name) >= 2 and name[0] in PREFIXES and name[1:] in BASE_UNITS and name[1:] not in ("bar", "Wh") \
            and not (name[0] == "d" and name[1:] != "m") and not (name[0] == "c" and name[1:] not in ("m", "L")):
        return pint_unit(PREFIXES[name[0]] + BASE_UNITS[name[1:]])
    if name == "kWh":
        return pint_unit("kWh")
    return None


# ---------------------------------------------------------------------------------------------- answer units
# Words pint would accept as units but that are English here ("5 m in 2 s", "a = 3", "are").
NOT_UNITS = frozenset({"in", "a", "at", "an", "as", "are", "is", "it", "the", "and", "or", "to", "of", "by",
                       "for", "from", "on", "up", "down", "left", "right", "north", "south", "east", "west",
                       "its", "be", "approximately", "about", "nearly", "roughly"})
# Spellings of free answer text that pint lacks, beyond the unit words above (`PLAIN_UNITS`, also consulted).
UNIT_SPELLINGS = {
    "rev": "revolution", "revs": "revolution", "AU": "astronomical_unit", "kmph": "km/hr", "kmh": "km/hr",
    "mins": "min", "lit": "liter", "gm": "gram", "kgf": "kilogram_force",
}
_UNIT_TOKEN = re.compile(r"[A-Za-zµΩÅ%_]+")


@lru_cache(maxsize=4096)
def _is_unit_word(word: str) -> bool:
    if word in NOT_UNITS:
        return False
    try:
        ureg().parse_units(word)
    except Exception:  # pint raises several error types for unknown or malformed names
        return False
    return True


def _canonical_word(word: str) -> str | None:
    """A pint-readable spelling of one unit word, or None when it is not a unit."""
    word = UNIT_SPELLINGS.get(word) or PLAIN_UNITS.get(word) or word
    if _is_unit_word(word):
        return word
    if len(word) >= 3 and word.lower() != word and _is_unit_word(word.lower()):
        return word.lower()  # "Joules", "Newton"
    return None


def unit_text_to_pint(unit_text: str) -> str:
    """The leading unit expression of `unit_text` in pint syntax; "" if it starts with no unit."""
    text = re.sub(r"\bmm\s+Hg\b", "mmHg", unit_text)
    text = re.sub(r"\bper\b", "/", text)
    text = re.sub(r"\bsquared\b", "^2", text)
    text = re.sub(r"\bcubed\b", "^3", text)
    out: list[str] = []
    for m in re.finditer(r"[A-Za-zµΩÅ%_]+|\^\s*\(?\s*[-+]?\s*\d+(?:\.\d+)?\s*\)?|[*/()]|\s+|.", text):
        tok = m.group(0)
        if _UNIT_TOKEN.fullmatch(tok):
            word = _canonical_word(tok)
            if word is None:
                break
            out.append(word)
        elif tok.startswith("^"):
            if not out or out[-1] in "*/(":
                break
            out.append("**(" + re.sub(r"[\s()^]", "", tok) + ")")
        elif tok in "*/()" or tok.isspace():
            out.append(" " if tok.isspace() else tok)
        else:  # any other character (",", ";", a digit) ends the unit
            break
    expr = "".join(out).strip()
    # Drop dangling operators and unmatched "(" left by the cut.
    while True:
        before = expr
        expr = expr.rstrip(" */(")
        if expr.count("(") > expr.count(")"):
            expr = expr[:expr.rfind("(")].rstrip()
        if expr == before:
            break
    if expr.startswith("/"):
        expr = "1" + expr
    if expr.startswith("*"):
        expr = ""
    return expr


def parse_unit(unit_text: str) -> Any | None:
    """A pint Unit for the leading unit expression of `unit_text`; None when there is none or it is unreadable."""
    expr = unit_text_to_pint(unit_text)
    if not expr:
        return None
    try:
        parsed = ureg().parse_expression(expr)
    except Exception:  # pint's parser raises several error types
        return None
    units = getattr(parsed, "units", None)
    if units is None or getattr(parsed, "magnitude", 1) != 1:
        return None
    return units


# ---------------------------------------------------------------------------------------------- dimensions
@cache
def unit_quantity(unit: str) -> pint.Quantity:
    """1 `unit` in SI base units, with magnitude forced to 1 (only its dimensions matter)."""
    si_factor(unit)  # validates
    q = ureg().Quantity(1.0, unit or "dimensionless").to_base_units()
    return ureg().Quantity(1.0, q.units)


def same_dimension(a: pint.Quantity, b: pint.Quantity) -> bool:
    return a.dimensionality == b.dimensionality


def dimension_of(expr: Any, units: dict[str, str]) -> pint.Quantity:
    """A magnitude-1 pint quantity carrying the dimensions of the sympy expression `expr`, whose symbols
    have `units`."""
    import sympy as sp

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


def check_unit(expr: Any, units: dict[str, str], unit: str, where: str) -> None:
    """Raise DimensionError unless the sympy expression `expr` has the dimensions of `unit`."""
    got, want = dimension_of(expr, units), unit_quantity(unit)
    if not same_dimension(got, want):
        raise DimensionError(f"{where}: expression has dimensions {got.dimensionality}, "
                             f"declared unit {unit or 'dimensionless'!r} has {want.dimensionality}")
