"""The declarative pieces a family is written with: givens, samplers, computed steps, principles, distractors.

These are plain frozen records with no behaviour beyond sampling; `physr3.synth.family.Family` turns them
into problems. Everything a family author needs is re-exported from `physr3.synth`.

- `given(symbol, value, unit, description, sig=2)`: a quantity stated in the problem. `value` is a sampler
  (`between`, `choice`) or a fixed number; sampled values are rounded to `sig` significant figures and the
  rounded value is what every later step uses (so the text and the ground truth agree exactly).
- `const(symbol, value, unit, description)`: a fixed given written as the author writes it (g = 9.8 m/s^2);
  a string value is an exact fraction shown as written (`const("gamma", "5/3", "", ...)`).
- `compute(symbol, expr, unit, description, sig=3, why="")`: one solution step: `symbol = expr`, where
  `expr` (a string parsed by sympy, `^` allowed, or a sympy expression) uses only givens and earlier
  computed symbols, evaluated in SI and reported in `unit` with `sig` significant figures. `why` is an
  optional note shown with the governing equation (e.g. the law it was solved from).
- `principle(name, text, *keywords)`: a line of the <concept> section; keywords are what a verifier can
  look for in a model's concept step.
- `distractor(label, **overrides)`: for MCQ families, a typical error expressed as replacement expressions
  for one or more computed symbols; the wrong answer follows by recomputing every later step.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

Sampler = Callable[[random.Random], float]


@dataclass(frozen=True)
class between:  # noqa: N801 - reads as a declaration: between(10, 40)
    """Uniform on [lo, hi]; with `step`, uniform on the grid lo, lo+step, ..., hi."""

    lo: float
    hi: float
    step: float | None = None

    def __call__(self, rng: random.Random) -> float:
        if self.step:
            k = rng.randint(0, int(round((self.hi - self.lo) / self.step)))
            return round(self.lo + k * self.step, 12)
        return rng.uniform(self.lo, self.hi)


@dataclass(frozen=True)
class choice:  # noqa: N801
    """One of a fixed list of values, equally likely."""

    values: tuple[float, ...]

    def __init__(self, *values: float):
        object.__setattr__(self, "values", tuple(values))

    def __call__(self, rng: random.Random) -> float:
        return rng.choice(self.values)


@dataclass(frozen=True)
class Given:
    symbol: str
    value: float | Sampler
    unit: str
    description: str
    sig: int | None = 2  # None: display as written (constants, exact integers)
    text: str | None = None  # display text of an exact constant such as "5/3"

    @property
    def fixed(self) -> bool:
        return not callable(self.value)


@dataclass(frozen=True)
class Compute:
    symbol: str
    expr: str | sp.Expr
    unit: str
    description: str
    sig: int = 3
    why: str = ""


@dataclass(frozen=True)
class Principle:
    name: str
    text: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Distractor:
    label: str
    overrides: dict[str, str | sp.Expr] = field(default_factory=dict)


def given(symbol: str, value: float | Sampler, unit: str, description: str, sig: int | None = 2) -> Given:
    """A stated quantity; see the module docstring. Fixed numbers keep `sig` for display if given."""
    return Given(symbol, value, unit, description, sig)


def const(symbol: str, value: float | str, unit: str, description: str) -> Given:
    """A fixed given (a constant or an exact count), displayed as written; a string such as "5/3" is an
    exact value shown as that fraction (gamma of a monatomic gas)."""
    if isinstance(value, str):
        return Given(symbol, float(sp.Rational(value)), unit, description, None, value)
    return Given(symbol, float(value), unit, description, None)


def compute(symbol: str, expr: str | sp.Expr, unit: str, description: str, sig: int = 3, why: str = "") -> Compute:
    return Compute(symbol, expr, unit, description, sig, why)


def principle(name: str, text: str, *keywords: str) -> Principle:
    return Principle(name, text, tuple(keywords))


def distractor(label: str, **overrides: str | sp.Expr) -> Distractor:
    if not overrides:
        raise ValueError(f"distractor {label!r}: give at least one symbol=expression override")
    return Distractor(label, dict(overrides))
