"""Equation and number surgery for the error injector (`physr3.synth.inject`).

- `equation_mutations(family)`: every generic conceptual error of a family's equations, as (operator,
  symbol, wrong right-hand side, detail): flip_sign (one term of a sum), missing_factor (one factor of a
  product: a number, or a dimensionless factor), swap_trig (sin <-> cos), invert_ratio (a dimensionless
  ratio upside down), wrong_constant (gamma 5/3 <-> 7/5, 3/2 <-> 5/2, 7/2 -> 5/2 as a coefficient or an
  exact constant; h -> h/(2 pi) for a Planck constant). Only dimensionally consistent mutations are kept,
  and none that is the right equation rewritten or in which a shown variable cancels (`_degenerate`,
  tested numerically at random points). Rebuilt expressions stay unevaluated, so they print the way the
  author wrote the original (argument order kept). Computed once per family and cached.
- `digit_slips(text)`: one-digit changes and adjacent transpositions of the significant digits of a
  number as written (misread givens, arithmetic slips).
- `nodes`, `replace_at`, `numeric_coefficient`, `mul`: the tree helpers the injector's CE operators use.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

import sympy as sp

from physr3.quantity.units import DimensionError, check_unit, si_factor
from physr3.synth.check import exact_value
from physr3.synth.family import Family, expr_text

# Exact constants a student confuses: value -> (replacement, what went wrong).
_RATIONAL_SWAPS = {
    sp.Rational(5, 3): (sp.Rational(7, 5), "gamma of a diatomic gas (7/5) used for 5/3"),
    sp.Rational(7, 5): (sp.Rational(5, 3), "gamma of a monatomic gas (5/3) used for 7/5"),
    sp.Rational(3, 2): (sp.Rational(5, 2), "5/2 (Cp/R of a monatomic gas) used for 3/2"),
    sp.Rational(5, 2): (sp.Rational(3, 2), "3/2 (Cv/R of a monatomic gas) used for 5/2"),
    sp.Rational(7, 2): (sp.Rational(5, 2), "5/2 (Cv/R of a diatomic gas) used for 7/2"),
}
_PLANCK = 6.62607015e-34


def _rebuild(expr: sp.Basic, args: Sequence[sp.Basic]) -> sp.Basic:
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow, sp.Function)):
        return expr.func(*args, evaluate=False)
    return expr.func(*args)


def replace_at(expr: sp.Basic, path: tuple[int, ...], new: sp.Basic) -> sp.Basic:
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = replace_at(args[path[0]], path[1:], new)
    return _rebuild(expr, args)


def nodes(expr: sp.Basic, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], sp.Basic]]:
    yield path, expr
    if isinstance(expr, (sp.Add, sp.Mul, sp.Pow, sp.Function)):
        for i, a in enumerate(expr.args):
            yield from nodes(a, path + (i,))


def mul(args: Sequence[sp.Basic]) -> sp.Basic:
    if not args:
        return sp.Integer(1)
    return args[0] if len(args) == 1 else sp.Mul(*args, evaluate=False)


def _is_number(a: sp.Basic) -> bool:
    return bool(a.is_number)


def _negated(term: sp.Basic) -> sp.Basic:
    if isinstance(term, sp.Mul) and term.args and term.args[0] == -1:
        return mul(term.args[1:])
    return sp.Mul(sp.Integer(-1), term, evaluate=False)


def _is_negative_term(term: sp.Basic) -> bool:
    return isinstance(term, sp.Mul) and bool(term.args) and term.args[0] == -1


def numeric_coefficient(node: sp.Mul) -> tuple[sp.Basic, list[sp.Basic]]:
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
        coeff, rest = numeric_coefficient(node)
        if coeff != 1 and rest:
            sign = [sp.Integer(-1)] if node.args[0] == -1 else []
            yield "missing_factor", mul(sign + rest), f"dropped the factor {coeff}"
            if coeff in _RATIONAL_SWAPS:
                new, why = _RATIONAL_SWAPS[coeff]
                yield "wrong_constant", mul(sign + [new] + rest), why
        for i, a in enumerate(node.args):
            if not _is_number(a) and len(node.args) > 1:
                yield "missing_factor", mul(node.args[:i] + node.args[i + 1:]), f"dropped the factor {expr_text(a)}"
        dens = [a for a in node.args if isinstance(a, sp.Pow) and _is_number(a.exp) and a.exp < 0]
        nums = [a for a in node.args if a not in dens and not _is_number(a)]
        plain = not any(_is_number(a) or _is_negative_term(a) for a in node.args)
        if dens and nums and plain:
            flipped = [sp.Pow(a.base, -a.exp, evaluate=False) if a.exp != -1 else a.base for a in dens]
            flipped += [sp.Pow(a, -1, evaluate=False) for a in nums]
            yield "invert_ratio", mul(flipped), f"inverted the ratio {expr_text(node)}"
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
    (g*(m1 + m2)/(m1 + m2), i0*(-1 + 1)): no student writes that. Tested numerically at random points
    (complex arithmetic, so square roots of negatives do not stop the test); sympy's cancel is 100x slower."""
    names = sorted(x.name for x in wrong.free_symbols)
    if not names:
        return True
    rng = random.Random(0)
    same, moves = 0, set()
    for _ in range(3):
        point = {n: rng.uniform(0.5, 2.0) for n in sorted({*names, *(x.name for x in expr.free_symbols)})}
        try:
            w = exact_value(wrong, point, "cmath")
            r = exact_value(expr, point, "cmath")
            same += abs(w - r) <= 1e-9 * max(abs(r), 1e-300)
            for n in names:
                w2 = exact_value(wrong, dict(point, **{n: point[n] * 1.37}), "cmath")
                if abs(w2 - w) > 1e-9 * max(abs(w), 1e-300):
                    moves.add(n)
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return True
    return same == 3 or moves != set(names)


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
        for path, node in nodes(expr):
            for op, new, detail in _local_mutations(fam, node):
                wrong = replace_at(expr, path, new)
                if isinstance(node, sp.Symbol):  # a constant is confused everywhere it is used
                    for other, same in nodes(expr):
                        if same == node and other != path:
                            wrong = replace_at(wrong, other, new)
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


def digit_slips(text: str) -> list[tuple[str, str]]:
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
