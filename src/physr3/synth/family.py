"""`Family`: a declared problem template turned into seeded problems with step-level ground truth.

A family is data (see `physr3.synth.spec` and "How to add a family" in `physr3.synth.families`). From the
declaration the framework derives, per instance: sampled givens (rounded to their significant figures),
every computed value (SI, full precision), the seven-tag solution text, the final answer, MCQ options from
typical-error distractors, and the ground-truth record (`physr3.synth.groundtruth`).

Design decisions:
- Generation is pure: `generate(seed)` draws everything from `random.Random(f"{name}:{seed}")`, so the same
  (family, seed) gives a byte-identical record on any machine and Python version (string seeds are hashed
  with SHA-512 by `random`, independent of PYTHONHASHSEED).
- Givens that violate `require` (or make a step undefined: sqrt of a negative, division by zero) are
  redrawn from the same stream, up to 200 times; then generation fails naming family and seed.
- Substitution lines put the givens into the equation and leave earlier computed symbols symbolic, so
  every substitution depends only on givens and equations, and a slip in one calculation shows first in
  that calculation step (the error injector relies on this).
- Evaluation is by `sympy.lambdify(..., "math")`, compiled once per family on first use; the self-check
  recomputes independently with sympy `evalf` at 30 digits from the stored record.
- `solve_steps` accepts replacement expressions and replacement values, for distractors now and for the
  error injector later: a wrong equation or a slipped value propagates through every later step.
- The problem id is content-addressed (family + given values), so duplicate instances share an id and
  the train/test split (`physr3.synth.generate`) cannot put one in both splits.
"""

from __future__ import annotations

import hashlib
import json
import keyword
import math
import random
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import sympy as sp
from sympy.parsing.sympy_parser import convert_xor, parse_expr, standard_transformations
from sympy.printing.str import StrPrinter

from physr3.problems import DOMAINS, Problem
from physr3.quantity.sigfig import fmt_plain, fmt_sig, round_sig, with_unit
from physr3.quantity.units import check_unit, dimension_of, si_factor
from physr3.solution import render_solution
from physr3.synth import groundtruth as gt
from physr3.synth.spec import Compute, Distractor, Given, Principle

MAX_DRAWS = 200
GENERIC_DISTRACTORS = ((2.0, "generic: off by a factor of 2"), (0.5, "generic: off by a factor of 1/2"),
                       (10.0, "generic: power-of-ten slip (x10)"), (0.1, "generic: power-of-ten slip (/10)"))
_TRANSFORMS = standard_transformations + (convert_xor,)
LEVELS = (1, 2, 3)  # see Family.level
_RESERVED = {"pi", "E", "I", "oo", "sin", "cos", "tan", "exp", "log", "sqrt", "asin", "acos", "atan"}
_SLOT = re.compile(r"\x00(\w+)\x01")


class GenerationError(RuntimeError):
    """A family could not produce a valid instance, or its declaration is inconsistent."""


class _Reject(Exception):
    """The drawn givens make a step undefined; draw again."""


class _SlotPrinter(StrPrinter):
    """Prints symbols as \\x00name\\x01 slots, so one template serves the equation and the substitution."""

    def _print_Symbol(self, expr: sp.Symbol) -> str:
        return f"\x00{expr.name}\x01"


def _drop_double_parens(text: str) -> str:
    """'((x))' -> '(x)': unevaluated sympy expressions sometimes print a redundant pair."""
    stack, pairs = [], {}
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            pairs[stack.pop()] = i
    drop = {j for i, j in pairs.items() if pairs.get(i + 1) == j - 1} | {
        i + 1 for i, j in pairs.items() if pairs.get(i + 1) == j - 1}
    return "".join(ch for k, ch in enumerate(text) if k not in drop)


def expr_text(expr: sp.Expr) -> str:
    """The expression as written by its author (argument order kept), sympy syntax with `**`."""
    return _drop_double_parens(StrPrinter({"order": "none"}).doprint(expr))


def template_of(expr: sp.Expr) -> str:
    """Display template: `^` for powers and a slot per symbol (see `fill`)."""
    return _drop_double_parens(_SlotPrinter({"order": "none"}).doprint(expr)).replace("**", "^")


def fill(template: str, shown: Mapping[str, str]) -> str:
    """Replace slots by `shown[name]` (parenthesised unless already the sole argument), else by the name."""

    def sub(m: re.Match) -> str:
        name = m.group(1)
        if name not in shown:
            return name
        text = shown[name]
        bare = (m.start() > 0 and template[m.start() - 1] == "(" and template[m.end():m.end() + 1] == ")")
        return text if bare or re.fullmatch(r"[0-9.]+", text) else f"({text})"

    return _SLOT.sub(sub, template)


@lru_cache(maxsize=4096)
def _printed(expr: sp.Expr) -> tuple[str, str, str]:
    """(template, text, srepr) of a replacement expression (distractors and injected errors recur)."""
    return template_of(expr), expr_text(expr), sp.srepr(expr)


@lru_cache(maxsize=4096)
def _lambdify(expr: sp.Expr) -> tuple[tuple[str, ...], Any]:
    args = tuple(sorted(s.name for s in expr.free_symbols))
    return args, sp.lambdify([sp.Symbol(a) for a in args], expr, modules="math")


@dataclass(eq=False)
class Family:
    """A problem family; see `physr3.synth.families` for how to write one."""

    name: str
    domain: str
    question: str
    givens: Sequence[Given]
    find: tuple[str, str]  # (computed symbol, description of what is asked)
    principles: Sequence[Principle]
    steps: Sequence[Compute]
    distractors: Sequence[Distractor] = ()
    require: Sequence[str] = ()
    typical_errors: Sequence[Distractor] = ()  # CM errors for the injector only (not MCQ options)
    inject_skip: Sequence[str] = ()  # CM or operator names the injector must not use on this family
    exprs: dict[str, sp.Expr] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        where = f"family {self.name!r}"
        if self.domain not in DOMAINS:
            raise GenerationError(f"{where}: domain {self.domain!r} is not one of {', '.join(DOMAINS)}")
        names = [g.symbol for g in self.givens] + [c.symbol for c in self.steps]
        dup = sorted({n for n in names if names.count(n) > 1})
        bad = [n for n in names if not n.isidentifier() or keyword.iskeyword(n) or n in _RESERVED]
        if dup or bad:
            raise GenerationError(f"{where}: duplicate symbols {dup} or unusable names {bad}")
        if not self.steps or not self.principles:
            raise GenerationError(f"{where}: needs at least one principle and one computed step")
        self._locals = {n: sp.Symbol(n) for n in names}
        self.exprs = {}
        known = {g.symbol for g in self.givens}
        for c in self.steps:
            self.exprs[c.symbol] = self._parse(c.expr, known, f"{where}, step {c.symbol}")
            known.add(c.symbol)
        if self.find[0] not in self.exprs:
            raise GenerationError(f"{where}: find symbol {self.find[0]!r} is not a computed step")
        self._overrides = [self._parse_overrides(d, "distractor") for d in self.distractors]
        self._typical = [self._parse_overrides(d, "typical error") for d in self.typical_errors]
        if {"MC", "CE"} & set(self.inject_skip):
            raise GenerationError(f"{where}: every family supports MC and CE injection; inject_skip may name "
                                  f"CM or single operators, got {list(self.inject_skip)}")
        if self.distractors and len(self.distractors) < 3:
            raise GenerationError(f"{where}: an MCQ family declares at least 3 distractors")
        self._require = [self._parse(r, set(names), f"{where}, require {r!r}") for r in self.require]
        fields_ = {f for _, f, _, _ in string.Formatter().parse(self.question) if f}
        givens = {g.symbol for g in self.givens}
        if fields_ - givens or givens - fields_:
            raise GenerationError(f"{where}: question placeholders {sorted(fields_)} must be exactly the givens "
                                  f"{sorted(givens)} (every given is stated in the question)")

    def _parse_overrides(self, d: Distractor, what: str) -> tuple[str, dict[str, sp.Basic]]:
        where = f"family {self.name!r}, {what} {d.label!r}"
        order = list(self.exprs)
        parsed = {}
        for sym, expr in d.overrides.items():
            if sym not in self.exprs:
                raise GenerationError(f"{where}: {sym!r} is not a computed step")
            before = {g.symbol for g in self.givens} | set(order[: order.index(sym)])
            parsed[sym] = self._parse(expr, before, where)
        return d.label, parsed

    def _parse(self, expr: str | sp.Basic, known: set[str], where: str) -> sp.Basic:
        try:
            out = expr if isinstance(expr, sp.Basic) else parse_expr(expr, local_dict=self._locals, evaluate=False,
                                                                     transformations=_TRANSFORMS)
        except Exception as exc:  # sympy raises many kinds
            raise GenerationError(f"{where}: cannot parse {expr!r}: {exc}") from None
        unknown = sorted(s.name for s in out.free_symbols if s.name not in known)
        if unknown:
            raise GenerationError(f"{where}: uses {unknown}, not givens or earlier steps")
        return out

    def parse(self, expr: str | sp.Basic) -> sp.Basic:
        """An expression over this family's symbols (for distractors and error injection)."""
        return self._parse(expr, set(self._locals), f"family {self.name!r}")

    # ----- derived, once per family -----
    @property
    def declared_errors(self) -> list[tuple[str, dict[str, sp.Basic]]]:
        """(label, {symbol: wrong expression}) of the MCQ distractors and the typical errors (injector's CM)."""
        return self._overrides + self._typical

    @property
    def level(self) -> int:
        """Difficulty by the length of the chain: 1 = one governing equation, 2 = two or three, 3 = four or
        more (`LEVELS`). Derived from the declaration, so a new family gets its level without a tag."""
        n = len(self.steps)
        return 1 if n == 1 else 2 if n <= 3 else 3

    @property
    def kind(self) -> str:
        return "mcq" if self.distractors else "numeric"

    @cached_property
    def units(self) -> dict[str, str]:
        return {g.symbol: g.unit for g in self.givens} | {c.symbol: c.unit for c in self.steps}

    @cached_property
    def compiled(self) -> dict[str, Any]:
        """Unit factors, dimension checks, equation templates and srepr: computed on first use."""
        where = f"family {self.name!r}"
        try:
            factors = {s: si_factor(u) for s, u in self.units.items()}
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        for c in self.steps:
            check_unit(self.exprs[c.symbol], self.units, c.unit, f"{where}, step {c.symbol}")
        for label, parsed in self._overrides + self._typical:
            for sym, expr in parsed.items():
                check_unit(expr, self.units, self.units[sym], f"{where}, distractor/typical error {label!r}")
        for r in self._require:
            if not isinstance(r, sp.core.relational.Relational):
                raise GenerationError(f"{where}: require {r} is not a comparison")
            dimension_of(r.lhs if r.rhs == 0 else r.lhs - r.rhs, self.units)  # mixed dimensions raise
        return {
            "factors": factors,
            "templates": {s: template_of(e) for s, e in self.exprs.items()},
            "srepr": {s: sp.srepr(e) for s, e in self.exprs.items()},
            "str": {s: expr_text(e) for s, e in self.exprs.items()},
            "require": [_lambdify(r) for r in self._require],
        }

    # ----- sampling and solving -----
    def sample(self, rng: random.Random) -> dict[str, float]:
        """Given values as stated (in their units), rounded to their significant figures."""
        out = {}
        for g in self.givens:
            v = float(g.value) if g.fixed else float(g.value(rng))
            out[g.symbol] = round_sig(v, g.sig) if g.sig else v
        return out

    def to_si(self, shown: Mapping[str, float]) -> dict[str, float]:
        f = self.compiled["factors"]
        return {s: v * f[s] for s, v in shown.items()}

    def solve(self, si: Mapping[str, float], exprs: Mapping[str, sp.Expr] | None = None,
              values: Mapping[str, float] | None = None) -> dict[str, float]:
        """All values in SI: givens, then each step in order. `exprs` replaces a step's expression and
        `values` a step's SI value (both propagate to later steps). Raises _Reject when undefined."""
        vals = dict(si)
        for c in self.steps:
            if values and c.symbol in values:
                vals[c.symbol] = float(values[c.symbol])
                continue
            args, fn = _lambdify((exprs or {}).get(c.symbol, self.exprs[c.symbol]))
            try:
                v = fn(*(vals[a] for a in args))
            except (ValueError, ZeroDivisionError, OverflowError):
                raise _Reject from None
            if isinstance(v, complex) or not math.isfinite(v):
                raise _Reject
            vals[c.symbol] = float(v)
        return vals

    def _accept(self, vals: Mapping[str, float]) -> bool:
        return all(bool(fn(*(vals[a] for a in args))) for args, fn in self.compiled["require"])

    def draw(self, seed: int) -> tuple[random.Random, dict[str, float], dict[str, float]]:
        """(rng after drawing, stated givens, SI values of everything) for a valid instance."""
        rng = random.Random(f"{self.name}:{seed}")
        for _ in range(MAX_DRAWS):
            shown = self.sample(rng)
            try:
                vals = self.solve(self.to_si(shown))
            except _Reject:
                continue
            if self._accept(vals):
                return rng, shown, vals
        raise GenerationError(f"family {self.name!r} seed {seed}: no valid givens in {MAX_DRAWS} draws")

    # ----- rendering -----
    def given_text(self, g: Given, value: float) -> str:
        if g.text is not None and value == g.value:
            return g.text
        return fmt_sig(value, g.sig) if g.sig else fmt_plain(value)

    def solve_steps(self, shown: Mapping[str, float], exprs: Mapping[str, sp.Expr] | None = None,
                    values: Mapping[str, float] | None = None) -> tuple[list[dict[str, Any]], dict[str, float]]:
        """Numbered ground-truth steps and SI values for stated givens, optionally perturbed (see solve)."""
        c = self.compiled
        vals = self.solve(self.to_si(shown), exprs, values)
        shown_txt = {g.symbol: with_unit(self.given_text(g, shown[g.symbol]), g.unit) for g in self.givens}
        steps = [gt.step("given", f"{g.symbol} = {shown_txt[g.symbol]} ({g.description})", symbol=g.symbol,
                         value=shown[g.symbol], unit=g.unit, description=g.description) for g in self.givens]
        sym, desc = self.find
        unit = self.units[sym]
        steps.append(gt.step("target", f"{sym}, {desc}" + (f" (in {unit})" if unit else ""),
                             symbol=sym, unit=unit, description=desc))
        steps += [gt.step("principle", f"{p.name}: {p.text}", name=p.name, keywords=list(p.keywords),
                          statement=p.text) for p in self.principles]
        for cs in self.steps:
            s = cs.symbol
            expr = (exprs or {}).get(s)
            tmpl, text, srepr = _printed(expr) if expr is not None else (c["templates"][s], c["str"][s],
                                                                          c["srepr"][s])
            rhs_text = fill(tmpl, {})
            steps.append(gt.step(
                "equation", f"{s} = {rhs_text}" + (f" ({cs.why})" if cs.why else ""), symbol=s, unit=cs.unit,
                lhs=s, rhs=text, rhs_srepr=srepr,
                depends=sorted(set(_SLOT.findall(tmpl)))))
            used = {n for n in _SLOT.findall(tmpl) if n in shown_txt}
            steps.append(gt.step("substitution", f"{s} = {fill(tmpl, {n: shown_txt[n] for n in used})}",
                                 symbol=s, values={n: [shown[n], self.units[n]] for n in sorted(used)}))
            value = vals[s] / c["factors"][s]
            display = with_unit(fmt_sig(value, cs.sig), cs.unit)
            steps.append(gt.step("calculation", f"{s} = {display}", symbol=s, value=value, unit=cs.unit,
                                 sig=cs.sig, display=display))
        return gt.number_steps(steps), vals

    def content_key(self, shown: Mapping[str, float]) -> str:
        """Stable text identifying an instance by its content (family and stated givens)."""
        return json.dumps([self.name, [[g.symbol, shown[g.symbol]] for g in self.givens]])

    def problem_id(self, shown: Mapping[str, float]) -> str:
        return f"{self.name}-{hashlib.sha256(self.content_key(shown).encode()).hexdigest()[:12]}"

    def _options(self, rng: random.Random, si: dict[str, float], answer_text: str) -> list[dict[str, Any]]:
        sym, sig, unit = self.find[0], self._find_step.sig, self.units[self.find[0]]
        factor = self.compiled["factors"][sym]
        correct = si[sym] / factor
        candidates: list[tuple[float, str]] = []
        for label, parsed in self._overrides:
            try:
                candidates.append((self.solve(si, parsed)[sym] / factor, label))
            except _Reject:
                continue
        candidates += [(correct * k, label) for k, label in GENERIC_DISTRACTORS]
        chosen, seen = [], {answer_text}
        for value, label in candidates:
            text = with_unit(fmt_sig(value, sig), unit)
            if text not in seen and len(chosen) < 3:
                seen.add(text)
                chosen.append({"text": text, "value": value, "correct": False, "error": label})
        options = [{"text": answer_text, "value": correct, "correct": True, "error": None}] + chosen
        rng.shuffle(options)
        return [{"letter": "ABCD"[i], **o} for i, o in enumerate(options)]

    @cached_property
    def _find_step(self) -> Compute:
        return next(c for c in self.steps if c.symbol == self.find[0])

    def generate(self, seed: int) -> Problem:
        """The problem for this seed: question, solution, answer, options and ground truth."""
        rng, shown, _ = self.draw(seed)
        steps, vals = self.solve_steps(shown)
        sym = self.find[0]
        calc = next(s for s in steps if s["kind"] == "calculation" and s["symbol"] == sym)
        answer = {"symbol": sym, "value": calc["value"], "unit": calc["unit"], "sig": calc["sig"],
                  "text": calc["display"]}
        options = None
        if self.kind == "mcq":
            opts = self._options(rng, vals, calc["display"])
            answer["letter"] = next(o["letter"] for o in opts if o["correct"])
            answer["options"] = opts
            options = [o["text"] for o in opts]
        final = answer.get("letter", answer["text"])
        shown_txt = {g.symbol: with_unit(self.given_text(g, shown[g.symbol]), g.unit) for g in self.givens}
        record = {"schema": gt.SCHEMA, "family": self.name, "domain": self.domain, "seed": seed,
                  "kind": self.kind, "level": self.level,
                  "symbols": {s: {"unit": u, "description": d, "role": r} for s, u, d, r in
                              [(g.symbol, g.unit, g.description, "given") for g in self.givens]
                              + [(c.symbol, c.unit, c.description, "computed") for c in self.steps]},
                  "steps": steps, "answer": answer}
        return Problem(
            id=self.problem_id(shown), question=self.question.format_map(shown_txt), answer=final,
            answer_type="mcq" if options else ("numeric_unit" if calc["unit"] else "numeric"),
            domain=self.domain, family=self.name, options=options,
            solution=render_solution(gt.sections(steps), final), ground_truth=record, source="synth",
            extra={"level": self.level})
