"""The per-step checks of the symbolic verifier (see `physr3.verify.symbolic` for the rules they apply).

`_Checker` holds one solution's state (names, symbols it defined, values per instance) and checks one
clause at a time: given statements, values against known quantities, identities, new definitions,
relations between expressions, the target and the principles. `split_clauses` turns a step's text into
clauses. Every tolerance is a field of `Tolerances`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from physr3 import quantity as mp
from physr3.verify.symbolic_gt import GroundTruth, _literal_ulp
from physr3.verify.symbolic_layouts import (
    drop_unit_echo,
    indexed_names,
    own_constant,
    own_given_name,
    unit_read_letter,
)
from physr3.verify.symbolic_namings import value_less_naming


@dataclass
class Tolerances:
    """Every tolerance the verifier applies (relative unless stated); the rules are in `physr3.verify.symbolic`."""

    given_rel: float = 0.005  # fixed constants only; sampled givens must match to their stated precision
    value_rel: float = 0.02  # substituted and computed values
    identity_rel: float = 1e-6  # symbolic equations, of the largest term
    final_rel: float = 0.01  # final numeric answer (the answer scorer's tolerance)
    half_ulp: float = 0.5 * (1 + 1e-6)  # a written value further than this many last-digit units is suspicious
    suspicious_rel: float = 1e-5  # ... and further than this relatively
    constant_rel: float = 0.01  # a stated physical constant (g = 9.81, h = 6.63e-34) against `CONSTANTS`


# Physical constants (SI) and their usual written magnitudes (eV, MeV): a <given> line that states one of
# these is accepted even when the problem's ground truth does not hold it (see "Givens" in the docstring).
CONSTANTS_SI = (9.8, 9.81, 8.314, 2.998e8, 6.626e-34, 1.0546e-34, 1.602e-19, 8.988e9, 1.381e-23, 6.674e-11,
                6.022e23, 8.854e-12, 1.2566e-6, 9.109e-31, 1.6726e-27, 1.6749e-27, 1.6605e-27, 5.670e-8,
                101325.0, 1000.0, 343.0, 1.097e7, 5.29e-11, 2.179e-18, 1.986e-25, 0.0821, 273.15, 4186.0,
                1.496e11, 5.97e24, 6.37e6, 1.99e30, 7.35e22, 8.187e-14, 1.4924e-10, 1.5033e-10, 1.5053e-10)
# the SI unit of each constant above: a stated value with a unit is a constant only in that unit's kind
# (1000 kg/m^3 is the density of water, 1000 J is no constant)
CONSTANT_UNITS = ("m/s^2", "m/s^2", "J/(mol*K)", "m/s", "J*s", "J*s", "C", "N*m^2/C^2", "J/K", "N*m^2/kg^2",
                  "1/mol", "F/m", "H/m", "kg", "kg", "kg", "kg", "W/(m^2*K^4)", "Pa", "kg/m^3", "m/s", "1/m", "m",
                  "J", "J*m", "", "K", "J/(kg*K)", "m", "kg", "m", "kg", "kg", "J", "J", "J", "J")
# bare numbers (no unit) that are constants in their usual units: 13.6 eV, 1240 eV nm, 931.5 MeV/u, n = 1.00
CONSTANT_MAGNITUDES = (13.6, 1240.0, 931.5, 0.511, 938.3, 939.6, 1.0, 4.186, 4.18, 90.0, 180.0)
RIGHT_ANGLES_DEG = (90.0, 180.0, 360.0)
CONSTANT_NAME_WORDS = frozenset({"g", "R", "c", "h", "e", "k", "ke", "kB", "kb", "G", "NA", "Na", "eps0", "epsilon0",
                                 "mu0", "me", "mp", "mn", "u", "sigma", "hbar", "Rinf", "RH", "pi", "qe",
                                 "atm", "rho_w", "rhow", "cw", "c_w", "a0"})


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
    nodes: list = field(default_factory=list, repr=False)  # what was written (for the blame test)
    value_si: float | None = None  # a suspicious step's written value in SI

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "status": self.status, "error_type": self.error_type,
                "explanation": self.explanation, **self.info}


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

    def __init__(self, gt: GroundTruth, tol: Tolerances, question: str = ""):
        self.gt = gt
        self.tol = tol
        # what the clauses checked since the caller last cleared it established (the completeness rule):
        # given, equation, value, target_value
        self.hits: set[str] = set()
        self.question = question
        self.question_numbers = _numbers_in(question)
        self.question_spans = _number_spans(question)
        self.names: dict[str, str] = dict(gt.names)
        self.env: list[dict[str, float]] = [dict(inst) for inst in gt.instances]
        self.numeric_only: set[str] = set()  # defined from a numeric value: known at the true instance only
        self.dims: dict[str, mp.Dim | None] = dict(gt.dims)
        self.unchecked: list[str] = []
        # the prose of the step being checked when it states one quantity (its description, if any, says
        # which quantity the stated value is meant to be: "Acoustic power: 1e-12 W/m^2"); set by the caller
        self.label = ""
        self.aliased: set[str] = set()  # givens the solution stated under a name of its own
        self.stated: dict[str, tuple[str, str]] = {}  # given -> (name, words) it was first stated with
        # names that are only case variants of a symbol (E for e, D for d): not read in <concept> steps
        self.case_variants = {k for k, v in self.names.items() if k != mp.canonical_name(v)
                              and k.lower() == mp.canonical_name(v).lower()}
        # what makes a step "checked" (see `unchecked_steps`): a comparison with the ground truth decided
        # something in it, or a symbol it defined was later confirmed by such a comparison
        self.decided = False
        self.step_index = 0
        self.def_step: dict[str, int] = {}  # symbol the solution defined -> index of the defining step
        self.confirmed: set[str] = set()  # solution symbols used in a comparison that passed
        self.verified_eq: set[str] = set()  # quantities whose governing relation the solution wrote right
        # a given's letter written with another given's value and no words (`R = 906 km` for the height h):
        # read as a label; letter -> (the given whose value it holds, step index), so that a later step
        # writing that given's letter with the first letter's value shows a swap (blamed on the first)
        self.loose_labels: dict[str, tuple[str, int]] = {}
        self.letter = ""  # the letter the given clause being checked was written with
        self.own_stated: set[str] = set()  # givens stated with their own letter and their own value
        self.letter_for: dict[str, str] = {}  # a letter written with another given's value -> that given
        # case variants of the target's symbol the solution named it by in its <find> step ("I, the current"
        # for i_R): read as the target everywhere after, <concept> steps included
        self.spoken: set[str] = set()
        self.option_digits: set[str] = set()  # the significant digits of the numbers in the answer options
        self.written: list[mp.Node] = []  # the right sides the solution wrote, in order (for `part_of_written`)
        self.written_before = 0

    # -- parsing helpers
    def _names_obj(self) -> mp.Names:
        return mp.Names(self.names)

    def readings(self, text: str, where: str) -> list[mp.Node]:
        out: list[mp.Node] = []
        indexed = indexed_names(text, self.names)
        for units_first in (True, False):
            names = mp.Names({**self.names, **indexed}) if indexed else self._names_obj()
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
        """Whether a == b at every instance where both evaluate (None: nowhere). A side that uses a symbol
        the solution defined by a (rounded) number holds only at the true values, to `value_rel`."""
        ks = self.instances_for([a, b])
        if not ks:
            return None
        rounded = bool((mp.variables(a) | mp.variables(b)) & self.numeric_only)
        rel = self.tol.value_rel if rounded else self.tol.identity_rel
        for k in ks:
            try:
                va, vb = mp.evaluate(a, self.env[k]), mp.evaluate(b, self.env[k])
            except mp.EvalError:
                return None
            s = max(self.scale(a, k), self.scale(b, k), abs(va), abs(vb))
            if abs(va - vb) > rel * s + 1e-300:
                return False
        self.confirmed |= mp.variables(a) | mp.variables(b)
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
            self.confirmed |= mp.variables(node)
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
                exact = re.fullmatch(r"\d{1,2}", text) is not None  # small integers (2, 1/2) are exact
                if exact or not text[:1].isdigit() or n[1] in stated or _literal_ulp(text) is None:
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
        self.case_variants.discard(name)
        self.def_step.setdefault(name, self.step_index)
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
            # alias: its name for a known quantity (a given only by a plain renaming, `L0 = L`: `I = V*R/R` is
            # no name for V but a wrong relation for the current)
            renamed = [node[1]] if node[0] == "var" and node[1] in self.gt.givens else []
            for s in list(self.gt.equations) + renamed:
                if all(s in env and name in env and self.close(env[name], env[s], 1e-6) for env in self.env):
                    self.names[name] = s
                    # `E_kinetic = m*v^2/2` for K, `L0 = L`: a right relation under the solution's own name, checked
                    self.decided = True
                    break

    # -- one clause
    def check_clause(self, clause: str, tag: str | None) -> Finding | None:
        parts = re.sub(r"≈|≃|≅|∼|\\approx|\\simeq|\\sim\b|\\equiv", "=", clause).split("=")
        if len(parts) < 2:
            return None
        fn = _FUNCTION_OF.match(parts[0])
        if fn and mp.canonical_name(fn.group(1)) not in mp.FUNCTIONS:  # `sin(theta) = m*lambda/d`: sine of theta
            parts[0] = _FUNCTION_OF.sub(r"\1", parts[0])  # q(t) = ... defines q, not q*t
        if tag == "concept":
            found = self.check_concept_clause(parts)
            if found is None and not self.decided and len(parts) == 2 and self.defines_in_passing(parts):
                self.decided = True  # `h*f = h*c/lambda`: f, a frequency, named in passing
            if found is None and not self.decided:
                from physr3.verify.symbolic_relations import letter_misfit  # imports this module
                found = letter_misfit(self, parts)  # `V = C/L`: no usual meaning of L makes it hold
            return found
        lhs_readings = self.readings(parts[0], "lhs") if parts[0].strip() else []
        segs = []
        for raw in parts[1:]:
            r = self.readings(raw, "rhs") if raw.strip() else []
            if r:
                segs.append((raw.strip(), r))
        if not segs:
            return None
        self.written_before = len(self.written)  # what earlier clauses wrote
        if len(self.written) < 200:
            self.written.extend(rs[0] for _, rs in segs)
        lhs = lhs_readings[0] if lhs_readings else None
        letter = unit_read_letter(parts[0], lhs, [n for _, rs in segs for n in rs], self.dims)
        if lhs is None and tag == "given":
            letter = self.letter_with_word(parts[0])  # `mplate = 370 cm^2 (plate area)`: m indexed by "plate"
            if letter is None and len(segs) == 1:  # `Fid = 58.1 N (net force)`: the solution's own name
                letter = own_given_name(parts[0], segs[0][1][:1], self.names)
        elif tag == "given" and len(parts) == 2 and (named := _NAME_THEN_LETTER.fullmatch(parts[0])) and \
                lhs is not None and lhs[0] == "mul" and not any(mp.variables(n) for _, rs in segs for n in rs[:1]):
            letter = mp.canonical_name(named.group(2))  # `emf E = 14 V`: a name, then the letter it is written as
        elif lhs is None and tag != "concept" and len(parts) == 2:
            letter = self.name_for_expression(parts[0], segs)  # `tlab = L/(beta*c)`: a name of the solution's
        if letter is not None:  # `Ts = 301 K`: the letter Ts, not a terasecond
            lhs, lhs_readings = ("var", letter), [("var", letter)]
        root = self.new_letter_power(lhs, segs)
        if root is not None:  # `v2^2 = v1^2 - 4*g*r`: defines v2, its root
            return self.check_definition(lhs[1][1], root, tag)
        if lhs is not None and lhs[0] == "var" and tag != "given" and lhs[1] in self.gt.givens:
            token = _LAST_NAME.search(mp.normalize(parts[0]))
            written = mp.canonical_name(token.group(0)) if token else lhs[1]
            if written in self.case_variants and self.other_kind(lhs[1], segs):
                return self.check_definition(written, segs, tag)  # `E = h*c/lambda` with e the charge: E, its own
        if lhs is not None and lhs[0] == "var":
            name = lhs[1]
            plain = [(raw, [n for n in rs if not mp.variables(n)]) for raw, rs in segs]
            if tag == "given" and all(rs for _, rs in plain):
                token = _LAST_NAME.search(mp.normalize(parts[0]))
                written = mp.canonical_name(token.group(0)) if token else name
                if written in self.case_variants and not any(self.unit_kind_fits(name, n) for _, rs in plain
                                                             for n in rs):
                    return self.check_definition(written, segs, tag)  # `k = 6.63e-34 J*s`: not K, its own name
                if name in self.gt.equations:
                    return self.given_computed(name, plain)
            if name in self.gt.givens and all(rs for _, rs in plain):
                token = _LAST_NAME.search(mp.normalize(parts[0]))
                self.letter = mp.canonical_name(token.group(0)) if token else name
                if self.letter != name and self.letter in self.gt.givens and tag == "given" and \
                        self.fits_given(self.letter, [n for _, rs in plain for n in rs]):
                    name = self.letter  # `R = 6370 km` after `R = 906 km` (a label for h): R's own value
                self.stated.setdefault(name, (name, self.label))
                return self.check_given(name, plain)
            if name in self.env[0] or any(name in env for env in self.env):
                return self.check_against(name, lhs, segs)
            return self.check_definition(name, segs, tag)
        if lhs is None:
            ref_raw, ref = segs[0]
            lhs, segs = ref[0], segs[1:]
            lhs_readings = ref
        found = self.check_relation(lhs_readings, segs)
        if found is not None and tag == "given" and len(parts) == 2 and len(segs) == 1 and \
                _LONE_NAME.fullmatch(parts[0].strip()) and not mp.variables(segs[0][1][0]):
            # `hc = 3e8 m/s`, `ohm = 1.1 ohm` (session 13, RUBRIC.md "Stating a given"): a lone name before one
            # value among the givens is the author's letter for it, not a product of symbols or a unit equated
            # to the value; the value and its words decide
            return self.check_definition(mp.canonical_name(parts[0].strip()), segs, tag)
        return found

    def new_letter_power(self, lhs: mp.Node | None, segs: list[tuple[str, list[mp.Node]]]
                         ) -> list[tuple[str, list[mp.Node]]] | None:
        """The segments of `u^k = expr` as definitions of u (`expr^(1/k)`) when u is a new letter (no value
        yet, no given), k a positive number and the root a quantity of the record: the equation defines u
        through its power (`v2^2 = v1^2 - 4*g*r`), as `u = expr^(1/k)` would (session 9, round-6 class A2);
        else None."""
        if lhs is None or lhs[0] != "pow" or lhs[1][0] != "var" or lhs[2][0] != "num" or lhs[2][1] <= 0:
            return None
        name = lhs[1][1]
        if name in self.gt.givens or any(name in env for env in self.env):
            return None
        inv = ("div", ("num", 1.0, "1"), lhs[2])  # 1/k, written as a fraction: a symbolic constant
        roots = [(raw, [("pow", n, inv) for n in rs]) for raw, rs in segs]
        return roots if self.record_value(roots[0][1][0]) else None

    def record_value(self, node: mp.Node) -> bool:
        """Whether an expression has the value of a computed quantity of the record at every instance where
        it evaluates: a right intermediate under the solution's own letter (a wrong one stays undefined, so
        the step that wrote it is not confirmed by the equations derived from it)."""
        ks = self.instances_for([node])
        if not ks:
            return False
        for s in self.gt.equations:
            try:
                if all(s in self.env[k] and self.close(mp.evaluate(node, self.env[k]), self.env[k][s], 1e-6) for k in ks):
                    return True
            except mp.EvalError:
                return False
        return False

    def other_kind(self, name: str, segs: list[tuple[str, list[mp.Node]]]) -> bool:
        """Whether every reading of the right-hand sides has a known dimension other than given `name`'s
        (`E = h*c/lambda`, an energy, for e the elementary charge)."""
        own = self.dims.get(name)
        nodes = [n for _, rs in segs for n in rs]
        if not nodes or not all(mp.variables(n) for n in nodes):
            return False  # `B = (50*(18/20))^2`: a number, no relation to read the letter by
        dims = [mp.dimension(n, self.dims) for n in nodes]
        return own is not None and all(d is not None and not mp.same_dim(d, own) for d in dims)

    def wrong_formula(self, text: str, as_written: bool = False) -> bool:
        """Whether a step is one equation `X = expression` whose right side combines two or more quantities
        (symbols or values) by operators, for a letter X that is no given of the problem, and the expression
        does not give X's value (or X has none): a wrong relation written where a given or the target
        belongs (`Q = 4.3 mol * (11.9 L) / (357 K)`, `P = emf / (R1 + R2 + R3)`), CM by its cause, not a
        misread given (session 9, round-6 class U3). `as_written` (a <find> step, session 10): the letter is read
        as written and each segment of a chain is a right side (see below)."""
        plain = _strip_remarks(_strip_tags(text)).strip().rstrip(".;")
        parts = plain.split("=")
        if len(parts) < 2 or not re.fullmatch(r"\s*[A-Za-zα-ωΑ-Ω][\w']{0,7}\s*", parts[0]):
            return False
        lhs = self.readings(parts[0], "lhs")
        if not lhs or lhs[0][0] != "var":
            return False
        name = lhs[0][1]
        if as_written:  # the <find> step names the unknown by the letter it writes: a symbol of the record is that
            # quantity even where the solution used the letter as its label for a given before (`F = 19 W`, then
            # `F = (19 W)(671 nm)/c` for the force F), and a case variant (`C` beside c) is its own letter
            written = mp.canonical_name(parts[0].strip())
            name = written if written in self.gt.units or written in self.case_variants else name
        if name in self.gt.givens or len(parts) > 2 and not as_written:
            return False
        # in <find>, each segment of a chain `B = m*c*gamma = (29.11 ug)*(3e8 m/s)` is a right side
        return any(self._wrong_formula_side(name, raw) for raw in parts[1:])

    def _wrong_formula_side(self, name: str, raw: str) -> bool:
        """`wrong_formula` for one right side `raw` of the letter `name`."""
        rhs = self.readings(raw, "rhs")
        if not rhs:
            return False
        node = rhs[0]
        if node[0] not in ("mul", "div", "add", "sub") or _leaves(node) < 2 or not self.of_givens(node):
            return False
        if not re.search(r"[*/+]|\s-\s|[\w)]\s*-\s*[\w(]", _UNIT_WORDS.sub(" ", raw)):
            return False  # `T = 405 K (345 K)`: two values side by side, no operator written
        values = self.values(node) if self.instances_for([node]) else []
        if name in self.env[0]:
            return bool(values) and not any(self.close(v, self.env[0][name], self.tol.value_rel) for v in values)
        # a letter of the solution's own: wrong unless the expression is the value of some quantity of the record
        return not any(self.close(v, x, self.tol.value_rel) for v in values for x in self.env[0].values())

    def defines_in_passing(self, parts: list[str]) -> bool:
        """Whether a <concept> equation names one new letter in passing (`h*f = h*c/lambda`): every other
        symbol has a value, the new letter occurs once, as a factor, and the dimension that makes the
        equation hold is one of the kinds the letter conventionally names (f a frequency; the letters of
        `symbolic_givens`). There is nothing to compare such a letter with, so its kind is the check
        (session 9, round-6 class A2); `h*f = h/lambda` gives f a wavenumber's dimension and stays unchecked."""
        from physr3.verify.symbolic_givens import _INDEXED, _LETTER_KINDS  # imports this module

        sides = [self.readings(p, "lhs" if k == 0 else "rhs") for k, p in enumerate(parts)]
        if not all(sides):
            return False
        nodes = [sides[0][0], sides[1][0]]
        new = [v for n in nodes for v in _var_uses(n) if not any(v in env for env in self.env)]
        if len(new) != 1:
            return False
        u = new[0]
        k = 0 if u in mp.variables(nodes[0]) else 1
        if not _plain_factor(nodes[k], u):
            return False
        with_u = mp.dimension(nodes[k], {**self.dims, u: mp.DIMLESS})
        other = mp.dimension(nodes[1 - k], self.dims)
        m = _INDEXED.fullmatch(u)
        kinds = _LETTER_KINDS.get(m.group("base")) if m else None
        if with_u is None or other is None or not kinds:
            return False
        need = tuple(x - y for x, y in zip(other, with_u))
        return any((info := mp.pint_unit(unit)) is not None and mp.same_dim(info.dim, need) for unit in kinds)

    def paired_remark(self, alias: str | None) -> bool:
        """Whether the given statement being checked carries a remark with a value of its own that is another
        given of the same object as the stated value's given (`m2 = 103 (binding energy per nucleon 8.50 MeV)`:
        A1 = 103 and b1 = 8.50 MeV, both "of the first fragment"): the remark describes its own value, not the
        one before it (session 9, round-6 class A1). A remark value of another object (the parent's 7.51 MeV
        beside the fragment's 87) still misdescribes it."""
        m = _REMARK_VALUE.search(self.label)
        if alias is None or m is None:
            return False
        nodes = [n for n in self.readings(m.group(1), "rhs") if not mp.variables(n)]
        if not nodes:
            return False
        other = self.alias_given(nodes)
        own = _OBJECT.search(self.gt.descriptions.get(alias, ""))
        theirs = _OBJECT.search(self.gt.descriptions.get(other or "", ""))
        return other not in (None, alias) and own is not None and theirs is not None and \
            own.group(1).strip() == theirs.group(1).strip()

    def letter_with_word(self, lhs_text: str) -> str | None:
        """The left side of a given's statement written as one letter run into a word of the problem's text
        (`mplate` for m_plate, `vball`), which reads as no name: that letter indexed by the word, one new
        symbol (session 9, round-6 class A2); else None."""
        m = re.fullmatch(r"\s*([A-Za-z])([a-z]{3,12})\s*", lhs_text or "")
        if m is None or m.group(2) not in {w.lower() for w in re.findall(r"[A-Za-z]+", self.question)}:
            return None
        return m.group(1) + m.group(2)

    def name_for_expression(self, lhs_text: str, segs: list[tuple[str, list[mp.Node]]]) -> str | None:
        """The left side of an equation outside the givens written as one word-like name that reads as no
        symbol (`tlab`, a letter run into a word; `Numerator`), equated to one expression that is a quantity
        of the record at every instance (`tlab = L/(beta*c)`, the record's tt) or a number that is the value of
        a part of a formula written before (`Numerator = 1.672e6 Hz*m^2/s^2`): the solution's own name for it,
        defined there (session 10, round-7 class A2); else None."""
        m = re.fullmatch(r"\s*([A-Za-z][a-z]{2,11})\s*", lhs_text or "")
        if m is None or len(segs) != 1 or mp.canonical_name(m.group(1)) in self.names:
            return None
        node = segs[0][1][0]
        if not self.instances_for([node]):
            return None
        # adopted only for what it is checked to name: a quantity of the record at every instance, or a part
        # of a formula written before (`Ekin = m1*v1/(2*a)`, a wrong relation, stays unread, as before)
        if mp.is_numeric(node):
            return m.group(1) if self.part_of_written(node) else None
        try:
            values = [mp.evaluate(node, env) for env in self.env]
        except mp.EvalError:
            return None
        named = any(all(s in env and self.close(x, env[s], 1e-6) for x, env in zip(values, self.env))
                    for s in self.gt.equations)
        return m.group(1) if named else None

    def ratio_of_given(self, node: mp.Node) -> str | None:
        """The dimensionless given whose value is the number when an expression is a number times a given's
        symbol (`0.907c`, `0.5*g`, `1e` for the charge n*e): a ratio or count the problem gives, e.g. the
        speed as a fraction of c; else None."""
        if node[0] != "mul":
            return None
        a, b = node[1], node[2]
        num, var = (a, b) if a[0] == "num" else (b, a)
        if num[0] != "num" or var[0] != "var" or self.names.get(var[1], var[1]) not in self.gt.givens:
            return None
        return next((g for g in self.gt.givens if not self.gt.units.get(g) and g in self.env[0]
                     and self.close(num[1], self.env[0][g], self.tol.value_rel)), None)

    def of_givens(self, node: mp.Node) -> bool:
        """Whether every leaf of an expression is one of the problem's givens: a given's symbol (or the
        solution's letter for it), a value equal to a given's (to `value_rel`), or a small whole number; a
        value the problem does not have (`8.63e-34 J*s` for h) or an unknown letter makes it a misread, not
        a relation among the givens."""
        op = node[0]
        if op == "var":
            return self.names.get(node[1], node[1]) in self.gt.givens
        if op in ("num", "qty"):
            if op == "num" and re.fullmatch(r"\d{1,2}", node[2]):
                return True
            try:
                v = mp.evaluate(node, {})
            except mp.EvalError:
                return False
            return any(self.close(v, self.env[0][g], self.tol.value_rel) for g in self.gt.givens if g in self.env[0])
        if op == "const":
            return True
        kids = [a for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str)]
        return bool(kids) and all(self.of_givens(a) for a in kids)

    def bare_foreign_principle(self, text: str) -> bool:
        """Whether a step is only the name of a principle of the generator's families (`principle_library`)
        that is none of this problem's (`Refraction` in a mirror problem): a wrong principle named, CM by its
        cause (session 9, round-6 class U4)."""
        plain = _strip_tags(text).strip().rstrip(".:;")
        if not re.fullmatch(r"[A-Za-z][A-Za-z'’ -]{2,60}", plain) or len(plain.split()) > 6:
            return False
        head = _stems(plain) - _DESC_GENERIC
        if not head or any(head <= (_stems(p.get("name", "")) | _stems(p.get("statement", "")) |
                                    set().union(*(_stems(k) for k in p.get("keywords", []))))
                           for p in self.gt.principles):
            return False
        return any(_stems(name) - _DESC_GENERIC == head for name in principle_library())

    def check_concept_clause(self, parts: list[str]) -> Finding | None:
        """An equation in a <concept> step, checked like a governing equation where that is safe: the
        lhs is one quantity and the rhs is symbolic. Names are read strictly there (`E` is no alias of
        the charge `e`, `D` none of `d`): a principle is often stated in the textbook's letters. Values
        ("with Q = 0" for an adiabatic stage) and relations between expressions, which carry sign
        conventions ("1/v - 1/u = 1/f"), are not judged in a concept step."""
        saved = self.names
        self.names = {k: v for k, v in saved.items() if k not in self.case_variants or k in self.spoken}
        try:
            lhs_readings = self.readings(parts[0], "lhs") if parts[0].strip() else []
            lhs = lhs_readings[0] if lhs_readings else None
            if lhs is None or lhs[0] != "var":
                return None
            segs = []
            for raw in parts[1:]:
                r = [n for n in (self.readings(raw, "rhs") if raw.strip() else []) if not mp.is_numeric(n)]
                if not r:
                    break  # a value or prose: the chain is not a symbolic relation from here on
                segs.append((raw.strip(), r))
            if not segs:
                return None
            name = lhs[1]
            if name in self.env[0] or any(name in env for env in self.env):
                return self.check_against(name, lhs, segs)
            return self.check_definition(name, segs, "concept")
        finally:
            for k, v in self.names.items():  # keep what the clause defined
                if k not in saved or saved[k] != v:
                    saved[k] = v
            self.names = saved

    def check_given(self, name: str, segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        g = self.gt.givens[name]
        stated, unit = float(g["value"]), g.get("unit", "")
        factor = self.gt.factors.get(name, 1.0)
        for raw, readings in segs:
            # "8.314 J/mol*K": the denominator written without its parentheses is also read as J/(mol*K)
            grouped = _UNGROUPED_DENOMINATOR.sub(r"/(\1*\2)", raw)
            if grouped != raw:
                readings = list(readings) + [n for n in self.readings(grouped, "rhs") if not mp.variables(n)]
            if self.given_ok(name, readings, stated, factor):
                foreign = self.foreign_words(name, self.label)
                if foreign:  # "h = 6.63e-34 J*s (wavevector of the photon)": the right number, another meaning
                    return Finding(0, "fail", "MC", f"states {name} = {_with_unit(stated, unit)} as the "
                                   f"{foreign}; in the problem it is the {self.gt.descriptions.get(name, name)}.",
                                   info={"check": "given_meaning", "symbol": name})
                computed = self.computed_meant(name)
                if computed:  # "C2 = 17 uF (capacitance of the parallel combination)": C2's number, C23's words
                    return Finding(0, "fail", "MC", f"states {name} = {_with_unit(stated, unit)} as the "
                                   f"{self.gt.descriptions.get(computed, computed)}, a quantity to be found ({computed}); "
                                   f"{_with_unit(stated, unit)} is the {self.gt.descriptions.get(name, name)}.",
                                   info={"check": "given_meaning", "symbol": name})
                if self.letter == name:
                    self.own_stated.add(name)
                self.hits.add("given")
                self.decided = True
                continue
            if not any(self.values(n) for n in readings):
                self.unchecked.append(raw)  # unreadable value (an unknown unit): not judged
                continue
            with_units = all(mp.has_units(n) for n in readings)
            other = next((s for s, o in self.gt.givens.items() if s != name and (
                (o.get("unit") == unit and self.given_ok(s, readings, float(o["value"]), factor))
                or (with_units and self.fits_given(s, readings)))), None)
            swapped = self.loose_labels.get(other or "")
            if swapped and swapped[0] == name and self.letter != other:
                # `V2 = 14.6 L` (V1's value), then `V1 = 33.3 L` (V2's); not `R` written again with its own value
                return Finding(0, "fail", "MC", f"states {other} = {_with_unit(float(self.gt.givens[name]['value']), unit)}"
                               f", which is the value of {name}: the values of {name} and {other} are swapped "
                               f"(step {swapped[1] + 1} onwards).", info={"check": "given_swap", "symbol": other,
                                                                         "step_index": swapped[1]})
            loose = other and not self.has_words(self.label) and all(self.unit_kind_fits(name, n) for n in readings)
            again = bool(other) and self.letter_for.get(self.letter) == other  # `n = 47 protons` said twice
            if other and name in self.own_stated and self.letter == name and not mp.same_dim(
                    self.dims.get(name) or (), self.dims.get(other) or ()):
                # `C = 87 kohm (resistor)` after `C = 9.7 uF`: the letter already holds its own value, so it
                # is no label here; one symbol for two quantities of different kinds mixes them up (MC)
                return Finding(0, "fail", "MC", f"writes {name} = {segs[0][0][:40]}, the value of {other} "
                               f"({self.gt.descriptions.get(other, '')}), after stating {name} = "
                               f"{_with_unit(stated, unit)}: one symbol for two quantities.",
                               info={"check": "given_reassigned", "symbol": name})
            # `v = 25 deg (angle of the magnetic field)`, `m2 = 1.6e-19 C` for the charge: a value of another kind
            # than the letter's quantity, with no words or words of the given it is the value of: the letter is
            # only a label (RUBRIC.md, "Stating a given", session 13: values, units and words decide)
            reused = bool(self.letter) and self.letter != name and self.names.get(self.letter) == name
            relabel = bool(other) and name not in self.own_stated and (
                self.described_as(other, self.label) or self.wordless() and not reused) and \
                not any(self.unit_kind_fits(name, n) for n in readings if mp.has_units(n))
            if other and (other not in self.stated or again) and (
                    self.described(self.label) == other or loose or again or relabel):
                # ... or `R = 906 km` for the height h with no words at all: the letter is only a label
                if loose and self.described(self.label) != other:
                    self.loose_labels[name] = (other, self.step_index)
                if self.letter:
                    self.letter_for[self.letter] = other
                # `m = 4 g/mol (molar mass)`: the solution's letter for M, its meaning said in words
                self.names[name] = other
                self.aliased.add(other)
                self.stated.setdefault(other, (name, self.label))
                return self.check_given(other, segs)
            shown = raw if len(raw) < 40 else raw[:37] + "..."
            why = f", which is the value of {other}" if other else ""
            if not other and not all(self.unit_kind_fits(name, n) for n in readings):
                why = f", a unit of another kind than {self.gt.units.get(name) or 'a pure number'}"
            return Finding(0, "fail", "MC", f"states {name} = {shown}{why}; the problem gives {name} = "
                           f"{_with_unit(stated, unit)}.", info={"check": "given", "symbol": name})
        return None

    def meaning_words(self, name: str, label: str) -> tuple[str, bool] | None:
        """The words a given's value is described by in `label` and whether they share a word with what
        quantity `name` means in the problem; None when the label has no words of its own. Symbols, units
        and numbers are not description ("R = 32 kohm" has none); one shared word is enough ("speed of the
        ball" for the speed at the lowest point, "thick wall" for the thickness of the first layer)."""
        desc = self.gt.descriptions.get(name, "")
        if not label or not desc:
            return None
        text = mp.normalize(label).split("=", 1)[-1]
        heading = _HEADING.match(mp.normalize(label))
        if heading:  # "Resistor (R): R = 71 kohm (impedance)": the heading describes the value too
            text = heading.group(1) + " " + text
        units = {u for unit in self.gt.units.values() for u in re.findall(r"[A-Za-z]+", unit or "")}
        after_number = set(re.findall(r"\d\s*([A-Za-z]+)", text))  # the value's unit ("35 degrees")
        words = [w for w in re.findall(r"(?<![\w.])[A-Za-z]{3,}(?!\w)", text)  # not L_ind, eps0
                 if mp.canonical_name(w) not in self.names and w not in after_number
                 and mp.canonical_name(w.lower()) not in self.names  # "(Lambda)": the letter's name spelled out
                 and w not in units]  # "mol" of "J/(mol*K)": the problem's units are no description
        opener = next((w.lower() for w in words if w.lower() not in ("the", "this", "that")), "")
        if opener in _REMARK_OPENERS:  # after an article too: "(in the given)" says where the value is from
            return None  # "(we use the usual value)": a remark on the value, not what it is
        # words that name a unit of the quantity's own kind ("number of moles" for 3.42 mol, "(in volts)")
        # say what it is measured in, not what it is: dropped, with a "number"/"amount" before them; other
        # words stay judged ("constant term in Kelvin" for the temperature rise is still another meaning)
        own = [i for i, w in enumerate(words) if _names_unit_of(w, self.dims.get(name))]
        drop = set(own) | {i - 1 for i in own if i > 0 and words[i - 1].lower() in ("number", "amount")}
        words = [w for i, w in enumerate(words) if i not in drop]
        mine = {_stem_syn(w) for w in _stems(" ".join(words)) - _DESC_GENERIC if len(w) > 2}
        if not mine:
            return None
        shares = bool(mine & {_stem_syn(w) for w in _stems(desc) | _stems(name)})
        if not shares and len(words) == 1 and self.own_kind_noun(words[0], name):
            return None  # "emf = 23 V (voltage)": only the noun of the value's own kind (session 14, A10)
        return " ".join(words)[:60], shares

    def own_kind_noun(self, word: str, name: str) -> bool:
        """Whether `word` is a quantity noun (`_KIND_NOUNS`) of given `name`'s own kind that no other quantity of the
        problem is described by: a remark that is only that noun, "(voltage)" on the battery's emf, says what kind
        the value is, not which quantity (session 14, round 11's A10); "(voltage)" where the problem has a "voltage
        across the capacitor" beside the emf, and a noun among other words ("the interval time"), stay judged."""
        noun = _kind_noun(word.lower())
        dim = self.dims.get(name)
        if noun is None or noun[0] != word.lower().removesuffix("s") or dim is None or not mp.same_dim(noun[1], dim):
            return False
        return not any(noun[0] in d.lower() for s, d in self.gt.descriptions.items() if s != name)

    def index_swap(self, name: str, alias: str | None) -> str | None:
        """The given a new name points at by its letter and index (`m_ball1` -> m1, `v_2` -> v2) when it
        holds another given's value that differs from it only in the index (m2's): the values of two
        numbered quantities were swapped (MC); else None. A name whose words say otherwise is not judged."""
        m = re.fullmatch(r"([A-Za-z])[A-Za-z_]*?(\d+)", name)
        if not m or alias is None or self.has_words(self.label):
            return None
        meant = m.group(1) + m.group(2)
        am = re.fullmatch(r"([A-Za-z])(\d+)", alias)
        if meant == alias or meant not in self.gt.givens or not am or am.group(1) != m.group(1):
            return None
        return meant

    def outworded(self, meant: str, alias: str) -> bool:
        """Whether the step's words name given `meant` by at least two content words and by more than they
        share with `alias`, the given whose value the step holds: "r = 56.7 cm (focal length of the object)"
        is the focal length (two words as written) with the object distance's number (one, "object"), a right
        number attached to the wrong quantity; "thick wall" (one word each) stays the thickness."""
        words = _stems(_strip_numbers(self.label)) - _DESC_GENERIC  # the words as written: no synonyms here

        def shared(s: str) -> int:
            return len(words & (_stems(self.gt.descriptions.get(s, "")) - _DESC_GENERIC))

        return shared(meant) >= 2 and shared(meant) > shared(alias)

    def computed_meant(self, name: str) -> str | None:
        """The quantity to be found that the words of a given's right value describe, when they describe
        one of the same kind (`described`, the unique best cover, and at least 3/4 of its description's
        content words) and it is not the given: a right number attached to the wrong quantity ("C2 = 17 uF
        (capacitance of the parallel combination)": C2's value, the words of the combination C23). Only for
        a given written with its own letter; words of another kind ("t = 62 ms (the current at time t)")
        only say when or where, and a loose cover ("frequency of the direct sound" for the source's
        frequency) is no claim."""
        if not self.label or self.letter != name:
            return None
        meant = self.described(self.label)
        if meant is None or meant == name or meant in self.gt.givens or meant not in self.gt.units:
            return None
        mine, theirs = self.dims.get(name), self.dims.get(meant)
        if mine is None or theirs is None or not mp.same_dim(mine, theirs):
            return None
        d = _stems(self.gt.descriptions.get(meant, "")) - _DESC_GENERIC
        words = _stems(_strip_numbers(self.label)) - _DESC_GENERIC
        return meant if d and len(d & words) / len(d) >= 0.75 else None

    def foreign_words(self, name: str, label: str) -> str | None:
        """The words a right value is described by when they share none with what it means in the problem
        (`h = 6.63e-34 J*s (wavevector of the photon)`), else None; never the problem's own words around
        that value (`problem_words`)."""
        said = self.meaning_words(name, label)
        if not said or said[1] or self.problem_words(name, said[0]):
            return None
        own = re.sub(r"\s+", "", self.gt.descriptions.get(name, "")).lower()
        if re.search(r"[/*()^]", own) and own in re.sub(r"\s+", "", label).lower():
            return None  # "(the constant mu0/(4*pi))": a formula description written out, no word stems to share
        formulas = [f.lower() for f in re.findall(r"\S*[/*^]\S*", self.gt.descriptions.get(name, ""))]
        if formulas and all(f in re.sub(r"\s+", "", label).lower() for f in formulas):
            return None  # "(factor by which the volume shrinks, r = V1/V2)" for "compression ratio V1/V2"
        return said[0]

    def problem_words(self, name: str, words: str) -> bool:
        """Whether every content word of `words` is written in the question next to given `name`'s value
        (between the number before it and the number after it): "factor by which the volume is reduced"
        for "its volume is reduced by a factor of 4.6", "perpendicular to the velocity" for "a field of 1.3
        T perpendicular to its velocity". The problem's own wording of a value is never another meaning."""
        g = self.gt.givens.get(name)
        mine = _stems(_strip_numbers(words)) - _DESC_GENERIC - _GENERIC_STEMS
        if g is None or not mine:
            return False
        value = float(g["value"])
        return any(self.close(v, value, 1e-9) and mine <= span for v, span in self.question_spans)

    def described_as(self, name: str, label: str) -> bool:
        """Whether `label` describes quantity `name` in words of its own (`m = 4 g/mol (molar mass)`)."""
        said = self.meaning_words(name, label)
        return bool(said and said[1])

    def given_computed(self, name: str, segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        """A quantity to be found, named by its symbol in <given>: with a given's value it is the
        solution's own name for that given (`v2 = 4.7 m/s` for the initial speed u2); with its own right
        value, an intermediate, a derived value stated early (accepted); otherwise the unknown is listed as
        given (`T = 14.1 N`, the target's value copied from an option, or a wrong value): MC."""
        readings = [n for _, rs in segs for n in rs]
        if all(mp.has_units(n) for n in readings) and not any(self.unit_kind_fits(name, n) for n in readings) \
                and not self._label_for_given(name, readings):
            raw = segs[0][0]
            return Finding(0, "fail", "MC", f"writes {name} ({self.gt.descriptions.get(name, '')}) = {raw[:40]}, a "
                           f"value of another kind than {self.gt.units.get(name) or 'a pure number'}.",
                           info={"check": "given_symbol", "symbol": name})
        alias = self.alias_given(readings)
        if alias and self.described(self.label) == name and not self.words_fit_alias(alias, self.label, name) \
                and not self.words_of_value(name, alias, readings, self.label):
            # `f = 130 cm (image focal length)`: the words say it is f, the value is the object distance u's
            raw = segs[0][0]
            return Finding(0, "fail", "MC", f"states the {self.gt.descriptions.get(name, name)} as {raw[:40]}, which is "
                           f"the value of {alias} ({self.gt.descriptions.get(alias, '')}); {name} is to be found.",
                           info={"check": "given_described", "symbol": name})
        if alias:
            self.names[name] = alias
            self.aliased.add(alias)
            self.stated.setdefault(alias, (name, self.label))
            return self.check_given(alias, segs)
        if name != self.gt.target and name in self.env[0] and any(
                self.value_matches(n, self.env[0][name], self.gt.factors.get(name, 1.0), self.tol.value_rel)
                for n in readings):
            self.hits.add("given")  # a right intermediate stated among the givens ("derived"): accepted
            self.decided = True
            return None
        raw = segs[0][0]
        if any(n[0] not in ("num", "qty", "neg") for n in readings) and self.wrong_relation(("var", name), readings[0]):
            # `Q = 2.5 mol * (15.4 L)`: a relation written among the givens, and a wrong one (CM by cause)
            return Finding(0, "fail", "CM", f"writes {name} = {raw if len(raw) < 40 else raw[:37] + '...'}, a relation "
                           f"that does not hold; {self.expected_relation(name)}", info={"check": "equation",
                                                                                        "symbol": name})
        return Finding(0, "fail", "MC", f"lists the unknown {name} ({self.gt.descriptions.get(name, '')}) as a given, "
                       f"{name} = {raw if len(raw) < 40 else raw[:37] + '...'}; it is to be found.",
                       info={"check": "given_unknown", "symbol": name})

    def _label_for_given(self, name: str, readings: list[mp.Node]) -> bool:
        """Whether the problem's letter `name` (a quantity to be found) holding another given's value is
        only the solution's label for that given: the letter is the given's own in another case (`v = 3.7
        kV` for the potential difference V), the step's words describe that given ("f = 2.80 m/s
        (speed)"), or (session 13, RUBRIC.md "Stating a given") it has no words at all (`T = 7.98 m/s`, the speed,
        under the letter of the tension to be found). A letter is a label; the value and the words say what is
        meant."""
        alias = self.alias_given(readings)
        return bool(alias) and (alias.lower() == name.lower() or self.described_as(alias, self.label)
                                or self.wordless())

    def stated_again(self, name: str, readings: list[mp.Node], label: str = "") -> str | None:
        """A given already stated under another name (or in other words) that this value repeats, when no
        given still unstated has it: `V = 28 g/mol` after `m = 28 g/mol`, "refractive index correction
        (1.21)" after "refractive index (1.21)" (an invented quantity with a copied value)."""
        for s, (first, words) in self.stated.items():
            if not self.fits_given(s, readings) or (name and first == name):
                continue
            # the same words again (or none: `d_s = 30.0 cm` after `d = 30.0 cm`) are a restatement or a
            # relabelling; new words describe an invented quantity
            new = {w[:4] for w in _stems(_strip_numbers(label)) - _DESC_GENERIC if len(w) > 2}
            if new - {w[:4] for w in _stems(_strip_numbers(words or first))}:
                return s
        return None

    def repeated_given(self, s: str, raw: str) -> Finding:
        shown = raw if len(raw) < 40 else raw[:37] + "..."
        return Finding(0, "fail", "MC", f"states {shown} as another quantity, but it is the value of {s} "
                       f"({self.gt.descriptions.get(s, '')}), stated before; the problem has no such quantity.",
                       info={"check": "given_repeated", "symbol": s})

    def unit_kind_fits(self, name: str, node: mp.Node) -> bool:
        """Whether a value written with a unit has the dimension of quantity `name` (a mass written in
        g/mol or g/s does not, whatever its magnitude in SI); a bare number always fits."""
        if not mp.has_units(node) or mp.variables(node):
            return True
        want = self.dims.get(name)
        got = mp.dimension(node, self.dims)
        return want is None or got is None or mp.same_dim(got, want)

    def given_ok(self, name: str, readings: list[mp.Node], stated: float, factor: float) -> bool:
        for node in readings:
            if not self.unit_kind_fits(name, node):
                continue
            for v in self.values(node):
                written = v if mp.has_units(node) else v * factor  # bare: in the stated unit
                alt = v  # bare: in SI
                for w in ((written, alt) if not mp.has_units(node) else (written,)):
                    if name in self.gt.fixed:
                        if self.close(w, stated * factor, self.tol.given_rel):
                            return True
                        continue
                    ulp_si = self.gt.stated_ulp.get(name, 0.0) * factor  # the precision the problem states
                    if abs(w - stated * factor) <= max(self.tol.half_ulp * ulp_si, 1e-9 * abs(stated * factor)):
                        return True
                    if self.rounded_once(node, w, stated * factor, ulp_si):
                        return True
        return False

    def rounded_once(self, node: mp.Node, written: float, stated_si: float, ulp_si: float) -> bool:
        """Whether a given's value is the problem's rounded to one significant digit fewer, keeping at least two
        ("h = 9.8 m" for 9.81 m, "L = 9.3 m" for 9.31 m): the same given, rounded as the rubric allows ("rounding
        within 1% is fine; sig figs do not matter"); a truncation that is no rounding ("9.1 kg" for 9.19 kg) and
        a whole number for a decimal ("2" for 2.4) stay wrong (session 12, early misses of two sets)."""
        text = node[2] if node[0] == "num" else node[4].split()[0] if node[0] == "qty" else ""
        ulp = _literal_ulp(text) if text[:1].isdigit() else None
        digits = re.sub(r"[eE].*$", "", text).replace(".", "").lstrip("0")
        if ulp is None or ulp_si <= 0 or len(digits) < 2 or not node[1]:
            return False
        written_ulp_si = ulp * abs(written / node[1])  # the written unit's last digit, in SI
        return math.isclose(written_ulp_si, 10 * ulp_si, rel_tol=1e-6) and \
            abs(written - stated_si) <= self.tol.half_ulp * written_ulp_si

    def _expected_factor(self, name: str) -> float:
        return self.gt.factors.get(name, 1.0)

    def plausible(self, readings: list[mp.Node], dim: mp.Dim | None) -> list[mp.Node]:
        """The readings whose dimensions fit (`9.8 m/s^2` with m a unit, `2 g L` with g a variable): those
        with the expected dimension, else those that are at least consistent, else all."""
        dims = [mp.dimension(n, self.dims) for n in readings]
        if dim is not None:
            fit = [n for n, d in zip(readings, dims) if mp.same_dim(d, dim)]
            if fit:
                return fit
        consistent = [n for n, d in zip(readings, dims) if d is not None]
        return consistent or readings

    def check_against(self, name: str, lhs: mp.Node, segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        """lhs is a known quantity: symbolic segments must be identities, numeric ones match its value."""
        unit = self.gt.units.get(name, "")
        for raw, all_readings in segs:
            readings = self.plausible(all_readings, self.dims.get(name))
            symbolic = [n for n in readings if not mp.is_numeric(n)]
            wrong_equation = None
            if symbolic:
                results = [self.identity_holds(lhs, n) for n in symbolic]
                if any(r is True for r in results):
                    self.hits.add("equation")
                    self.verified_eq.add(name)
                    self.decided = True
                    continue
                if any(r is False for r in results):
                    wrong_equation = Finding(0, "fail", "CM", f"uses {name} = {mp.to_text(symbolic[0])}; "
                                             + self.expected_relation(name), info={"check": "equation", "symbol": name})
                if len(symbolic) == len(readings):  # read only as an equation: judged as one
                    if wrong_equation is None:
                        continue
                    if self.special_case(name, symbolic):
                        continue
                    return wrong_equation
            if name not in self.env[0]:
                continue
            expected = self.env[0][name]
            results = [self.value_matches(n, expected, self._expected_factor(name), self.tol.value_rel)
                       for n in readings]
            if wrong_equation is not None and not any(r is True for r in results):
                return wrong_equation  # `acos(lam/(2 d))` with d the day read too: the equation is wrong
            if any(r is True for r in results):
                self.hits.add("target_value" if name == self.gt.target else "value")
                self.decided = True
                suspicious = self.suspicious(name, readings, expected)
                if suspicious:
                    return suspicious
                continue
            if all(r is None for r in results):
                self.unchecked.append(raw)
                continue
            swap = self.wrong_quantity(readings[0], expected, self._expected_factor(name))
            if swap:
                used, meant = swap
                return Finding(0, "fail", "MC", f"substitutes the value of {used} where {meant} belongs "
                               f"({raw if len(raw) < 40 else raw[:37] + '...'}); expected {name} = "
                               f"{_with_unit(expected / self._expected_factor(name), unit)}.",
                               info={"check": "wrong_quantity", "symbol": name})
            got = self.values(readings[0])
            shown = _with_unit(got[0] / self._expected_factor(name), unit) if got and mp.has_units(readings[0]) \
                else (raw if len(raw) < 40 else raw[:37] + "...")
            return Finding(0, "fail", "CE", f"gives {name} = {shown}; expected {name} = "
                           f"{_with_unit(expected / self._expected_factor(name), unit)}.", numeric=True,
                           info={"check": "value", "symbol": name}, nodes=list(readings))
        return None

    def special_case(self, name: str, symbolic: Sequence[mp.Node]) -> bool:
        """Whether an expression that is not the governing relation of `name` in general gives its value
        with the problem's own numbers put in (`N = N0/4` after two half-lives, for N = N0*exp(-lam*t)): the
        relation's special case for these givens, right here; it is checked numerically at the true values, to
        1e-6 (session 9, round-6 class A6), not blamed against the general form."""
        if name not in self.env[0] or name in self.numeric_only or not self.instances_for(symbolic):
            return False
        # exactly, not to `value_rel`: `B2 = b2*(N + Z)` for b2*(N + Z - 1) is 1% off and a wrong relation
        if not any(self.close(v, self.env[0][name], 1e-6) for n in symbolic for v in self.values(n)):
            return False
        self.decided = True
        self.hits.add("target_value" if name == self.gt.target else "value")
        return True

    def wrong_quantity(self, node: mp.Node, expected: float, display_factor: float) -> tuple[str, str] | None:
        """(given used, given meant) when putting another given's stated value in place of one literal
        makes the step right: the solution plugged in the wrong quantity (MC, not an arithmetic slip)."""
        givens = self.gt.givens
        by_value: dict[float, list[str]] = {}
        for s, g in givens.items():
            by_value.setdefault(float(g["value"]), []).append(s)
        literals: list[mp.Node] = []

        def walk(n: mp.Node) -> None:
            if n[0] in ("num", "qty") and n[1] in by_value:
                literals.append(n)
            for a in n[1:]:
                if isinstance(a, tuple) and a and isinstance(a[0], str):
                    walk(a)

        walk(node)
        for lit in literals[:8]:
            for used in by_value[lit[1]]:
                for meant, g in givens.items():
                    if meant == used or g.get("unit") != givens[used].get("unit"):
                        continue
                    fixed = _replace_node(node, lit, (lit[0], float(g["value"]), *lit[2:]))
                    if self.value_matches(fixed, expected, display_factor, self.tol.value_rel):
                        return used, meant
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
        best = None
        for f in factor_options:
            v = sign * float(lit) * f
            dev = abs(v - expected)
            if dev <= self.tol.half_ulp * ulp * f or dev <= self.tol.suspicious_rel * abs(expected):
                return None
            best = v if best is None or dev < abs(best - expected) else best
        unit = self.gt.units.get(name, "")
        return Finding(0, "suspicious", "CE", f"gives {name} = {lit}{' ' + unit if node[0] == 'num' else ''}; "
                       f"expected {name} = {_with_unit(expected / self._expected_factor(name), unit)}.",
                       numeric=True, info={"check": "rounding", "symbol": name}, value_si=best)

    def expected_relation(self, name: str) -> str:
        eq = self.gt.equations.get(name)
        if eq:
            return f"the governing relation is {name} = {eq['rhs'].replace('**', '^')}."
        return "it does not follow from the governing equations."

    def check_definition(self, name: str, segs: list[tuple[str, list[mp.Node]]], tag: str | None) -> Finding | None:
        """A new symbol: defined by its first evaluable segment; later segments must agree with it."""
        for i, (_raw, all_readings) in enumerate(segs):
            readings = self.plausible(all_readings, None)
            node = readings[0]
            if tag != "concept":  # `v2 = v*(h/c)`: a new letter that no reading makes a quantity (session 12)
                from physr3.verify.symbolic_relations import definition_misfit  # imports this module
                misfit = definition_misfit(self, name, [node] + all_readings, _raw, mp.is_numeric(node), tag)
                if misfit is not None:
                    return misfit
            if not self.instances_for([node]):
                continue
            if tag == "given" and not mp.variables(node):
                alias = self.alias_given(readings)
                meant = None if self.paired_remark(alias) else self.described(self.label)
                if meant in self.gt.givens and meant != alias and not self.fits_given(meant, readings) and \
                        not (alias and self.described_as(alias, self.label)
                             and not self.outworded(meant, alias)) and \
                        not self.words_of_value(meant, alias, readings, self.label):  # "L1 = 4.2 cm (thick wall)"
                    return self.misdescribed_given(meant, _raw, alias)
                if meant in self.gt.equations and meant != alias and not self.words_fit_alias(alias, self.label, meant) \
                        and not self.words_of_value(meant, alias, readings, self.label) \
                        and not self.implied_count(meant, readings) \
                        and not any(own_constant(name, v) for n in readings for v in self.values(n)):  # `g = 9.81`
                    return self.described_unknown(meant, _raw)
                # a given's value under a letter that usually means another kind (`v = 41.2 cm`) is the
                # solution's label for that given (a symbol is a label; its value and words decide); since
                # session 13 (RUBRIC.md, "Stating a given") also when the value is no given's: a number the
                # problem does not give is blamed below (`unmatched_given`), a constant or implied value passes
                swapped = self.index_swap(name, alias)
                if swapped:  # `m_ball1 = 2.44 kg` where m1 = 2.48 kg and m2 = 2.44 kg: the indices mixed up
                    return Finding(0, "fail", "MC", f"states {name} = {_raw[:40]}, the value of {alias} "
                                   f"({self.gt.descriptions.get(alias, '')}); its index says {swapped} "
                                   f"({self.gt.descriptions.get(swapped, '')}).", info={"check": "given_swap",
                                                                                     "symbol": swapped})
                if alias:
                    self.names[name] = alias
                    self.aliased.add(alias)
                    self.stated.setdefault(alias, (name, self.label))
                    return self.check_given(alias, segs)
                again = self.stated_again(name, readings, self.label)
                if again:
                    return self.repeated_given(again, _raw)
                if self.implied(all_readings, name) is None:  # a stated given that is no quantity of the problem
                    return self.unmatched_given(name, _raw)
                self.hits.add("given")
                self.decided = True
            ratio = self.ratio_of_given(node) if tag == "given" else None
            if ratio is not None:  # `v = 0.907c`: the given ratio 0.907 times c
                self.hits.add("given")
                self.decided = True
                # session 10: the number is that given, so the letter holds at every instance (`q = 1e` is
                # n*e: `r = m*v/(q*B)` is then the record's m*v/(n*e*B), round-7 class A9)
                node = _replace_node(node, next(a for a in node[1:] if a[0] == "num"), ("var", ratio))
            numeric = mp.is_numeric(node)
            if not numeric and self.inconsistent(all_readings):
                return Finding(0, "fail", "CM", f"defines {name} = {mp.to_text(node)}, which adds or equates quantities "
                               "of different kinds (it is dimensionally inconsistent).",
                               info={"check": "dimension", "symbol": name})
            self.define(name, node, numeric)
            if numeric and self.gt.target in self.env[0] and name in self.env[0] and \
                    self.close(self.env[0][name], self.env[0][self.gt.target], self.tol.value_rel):
                self.hits.add("target_value")  # the target's value under the solution's own name
            elif numeric and tag != "given" and self.part_of_written(node):
                self.decided = True  # `Numerator = 1.672e6 Hz*m^2/s^2`: a part of the formula just substituted
            elif not numeric and tag in ("governing_equation", None):
                self.hits.add("equation")  # a relation the solution introduces (N = m g cos θ)
            rest = segs[i + 1:]
            return self.check_against(name, ("var", name), rest) if rest else None
        self.unchecked.append(name)
        return None

    def part_of_written(self, node: mp.Node) -> bool:
        """Whether a value the solution gives a name of its own is the value (to `value_rel`, of the same
        kind) of a part of an expression it wrote in an earlier step: `Numerator = 1.672e6 Hz*m^2/s^2` after
        `fb = 2*(745 Hz)*(340 m/s)*(3.3 m/s)/(...)` names the numerator it works out (session 10, round-7
        class A2). Whole expressions and lone values are not parts."""
        values = self.values(node)
        dim = mp.dimension(node, self.dims)
        if not values or dim is None:
            return False

        def parts(n: mp.Node) -> list[mp.Node]:
            kids = [a for a in n[1:] if isinstance(a, tuple) and a and isinstance(a[0], str)]
            return [k for k in kids if k[0] in ("mul", "div", "add", "sub", "pow")] + \
                [p for k in kids for p in parts(k)]

        for whole in self.written[:self.written_before]:
            for part in parts(whole):
                if not self.instances_for([part]) or not mp.same_dim(mp.dimension(part, self.dims), dim):
                    continue
                if any(self.close(v, values[0], self.tol.value_rel) for v in self.values(part)):
                    return True
        return False

    def unknown_names(self, clause: str) -> set[str]:
        """Symbol-like names of an equation that have no value yet (an unknown the solution has not
        defined): the equation cannot be checked until a later step defines them."""
        parts = clause.split("=")
        out: set[str] | None = None
        for k, part in enumerate(parts):
            if not part.strip():
                continue
            readings = self.readings(part, "lhs" if k == 0 and len(parts) > 1 else "rhs")
            if not readings:
                continue
            names = {v for n in readings[:1] for v in mp.variables(n) if v not in self.env[0]}
            out = names if out is None else out | names
        return out or set()

    def lift(self, node: mp.Node) -> mp.Node | None:
        """The expression with each written number replaced by the quantity whose value it is (a given,
        or a computed value within `value_rel`, of the same unit kind): `3.69*(9.8 - 3.23)` -> m2*(g - a).
        Whole numbers without a unit are part of the equation (2, 1/2, 4 pi, the 1000 of a prefix).
        None when another number matches no quantity (a slip): the form cannot be read back."""
        failed = [False]

        def go(n: mp.Node) -> mp.Node:
            op = n[0]
            if op in ("num", "qty"):
                if op == "num" and re.fullmatch(r"\d{1,4}", n[2]):
                    return n
                for s in list(self.gt.givens) + [s for s in self.gt.equations if s in self.env[0]]:
                    if not self.unit_kind_fits(s, n):
                        continue
                    if self.value_matches(n, self.env[0][s], self.gt.factors.get(s, 1.0),
                                          1e-9 if s in self.gt.givens else self.tol.value_rel):
                        return ("var", s)
                failed[0] = True
                return n
            return (op, *[go(a) if isinstance(a, tuple) and a and isinstance(a[0], str) else a for a in n[1:]])

        lifted = go(node)
        return None if failed[0] else lifted

    def wrong_relation(self, lhs: mp.Node, node: mp.Node) -> bool:
        """A wrong value whose numbers, read back as the quantities they are, form a wrong relation
        (`T = 3.69*(9.8 - 3.23)`: T = m2 (g - a); `K = n e V/1000`): the equation is wrong, not the
        arithmetic (CM). When the solution wrote the right relation before, a wrong substitution into it
        is a slip (CE: `(m1 - m2) g/(m1 - m2)` for `/(m1 + m2)`) unless its numbers leave out a quantity
        the relation needs (`F = k*q1*q2` after `F = k*q1*q2/r^2`): substituted into a different formula,
        CM by the rubric."""
        core = node[1] if node[0] == "neg" else node
        if lhs[0] == "var" and core[0] in ("num", "qty"):
            return False  # a bare result is a value, not a relation
        a, b = self.lift(lhs), self.lift(node)
        if a is None or b is None or not (mp.variables(a) | mp.variables(b)):
            return False  # a number matched no quantity (a slip), or nothing to read back
        if lhs[0] == "var" and lhs[1] in self.verified_eq:
            needed = set(self.gt.equations.get(lhs[1], {}).get("depends") or [])
            if not needed or needed <= mp.variables(b):
                return False
        confirmed = set(self.confirmed)
        holds = self.identity_holds(a, b)
        self.confirmed = confirmed
        return holds is False

    def prose_relations(self, text: str) -> list[str]:
        """Claims in words that state a relation of a quantity of the problem, as equations to check:
        "the length of the pipe is L/2" -> "L = L/2". The words before `is`/`equals`/`becomes` must
        describe one quantity (`described`), and what follows must read as maths up to the next word
        (a symbol of the problem or a number with a unit): "the speed is the same" is not one."""
        out: list[str] = []
        plain = re.sub(r"\\[,;:! ]", " ", _strip_remarks(text))
        for part in re.split(r"[;.](?:\s|$)|, so\b|, and\b|, thus\b|, hence\b|, which\b|:\s", plain):
            if "=" in part or "≈" in part:
                continue
            m = _PROSE_VERB.search(part)
            if not m:
                continue
            phrase = " ".join(part[:m.start()].split()[-8:])
            sym = self.described(phrase)
            if sym is None:
                continue
            noun = _kind_noun(phrase.lower())
            if noun is not None and self.dims.get(sym) is not None and not mp.same_dim(noun[1], self.dims[sym]):
                continue  # "the normal force on the incline is ...": a force, whatever word it shares with the angle
            rest = part[m.end():].strip()
            if not rest or not (rest[0].isdigit() or rest[0] in "(-√\\" or re.match(r"[A-Za-zα-ωΑ-Ω]\w*", rest)):
                continue
            nodes = self.readings(rest, "rhs")
            if not nodes or not any(mp.variables(n) & set(self.env[0]) or n[0] == "qty" for n in nodes):
                continue
            maths = _maths_prefix(rest, self.names)
            after = re.match(r"\s*([A-Za-z]+)", rest[len(maths):])
            if after and after.group(1).lower() in _WORD_OPERATORS:
                continue  # "stress times area": the maths goes on in words
            out.append(f"{sym} = {rest}")
        return out[:4]

    def name_target(self, text: str) -> None:
        """A <find> step that names the target first by a spelling of the target's own letter (a case
        variant, or a new name with the same letter and at most a short subscript: "I, the current in the
        resistor" and "I_R" for i_R, "E" for E0): that spelling is the solution's name for the target from
        here on, also in <concept> steps, where case variants are otherwise not read
        (`check_concept_clause`). A name of another letter ("L' (final length)" for dL) is not adopted."""
        m = re.match(r"\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ωΑ-Ω']{0,5})\s*(?:[,(:]|$)", _strip_tags(text))
        if not m or m.group(1).lower() in mp.STOPWORDS:
            return
        name = mp.canonical_name(m.group(1))
        if self.names.get(name) == self.gt.target and name in self.case_variants:
            self.spoken.add(name)
        elif name not in self.names and name not in self.env[0] and mp.symbol_like(m.group(1)) and \
                name[0].lower() == self.gt.target[0].lower() and re.fullmatch(r"[A-Za-z](?:_?[A-Za-z0-9]{1,2})?", name):
            self.names[name] = self.gt.target  # "I, the current" for i_R, "I_R" too: the target's letter
            self.spoken.add(name)

    def find_value(self, text: str) -> Finding | None:
        """A <find> step that writes a value with a unit that is no given of the problem and nothing it
        implies (`implied`: a number of the question of that kind, a constant, a quantity's true value)
        ("wavelength: 716 nm", "the heat needed to raise the temperature by 1.90 K" where 1.90 is the mass
        in kg): data the problem does not give, MC. "(in 1/s)" is a unit, not a value."""
        plain = re.sub(r"\(\s*in\s+[^()]*\)|\bin\s+1\s*/\s*\w+", " ", mp.normalize(_strip_tags(text)))
        for m in _LONE_NUMBER.finditer(plain):
            if plain[m.end():].lstrip().startswith("/"):
                continue
            readings = [n for n in self.readings(plain[m.start():], "rhs") if n[0] == "qty" and not mp.variables(n)]
            if not readings or any(self.fits_given(s, readings) for s in self.gt.givens) or self.implied(readings):
                continue
            return Finding(0, "fail", "MC", f"writes {plain[m.start():m.end() + 12].split(',')[0].strip()}, a value the "
                           f"problem does not give; the question asks for {self.gt.target}, {self.gt.target_desc}.",
                           info={"check": "target_value"})
        return None

    def option_number(self, node: mp.Node) -> str | None:
        """A number with a unit written in an expression whose significant digits are those of a number in
        the answer options and of no given (`5.39e-4 N`, `5.25 nC` for the option 5.25 N), or None: a wrong value
        that substitutes it took data from the options (MC, the careful labels' reading)."""
        core = node[1] if node[0] == "neg" else node
        if not self.option_digits or core[0] in ("num", "qty"):
            return None  # a bare result is a value computed (a slip there is CE), not data substituted
        given = {_digits(float(g["value"])) for g in self.gt.givens.values()}
        found: list[str] = []

        def walk(n: mp.Node) -> None:
            if not isinstance(n, tuple) or not n:
                return
            if n[0] in ("num", "qty") and isinstance(n[1], (int, float)):
                d = _digits(float(n[1]))  # with a unit only: a bare 100 is a conversion factor, not data
                if n[0] == "qty" and d in self.option_digits and d not in given:
                    found.append(n[4] if len(n) > 4 else str(n[1]))
                return
            for child in n[1:]:
                walk(child)

        walk(node)
        return found[0] if found else None

    def wrong_constant(self, text: str) -> Finding | None:
        """A universal constant's own symbol (G, h, c, N_A, k_B) that is no quantity of this problem, set
        to a number that is not its value ("the gravitational constant (G = 1/6, the speed of light)"):
        a false statement of physics, CM. Read anywhere in the step, parenthesised remarks included; a
        value with a unit counts in SI; an unreadable value is not judged."""
        plain = _strip_tags(text)
        for m in _CONSTANT_SET.finditer(plain):
            name = m.group(1)
            if name in self.gt.units or mp.canonical_name(name) in self.gt.units or \
                    re.match(r"\s*(?:[*×x·^(]|[,.]?\d)", plain[m.end():]):
                continue  # a quantity of this problem; a value that goes on ("3.0*10^8", "300,000")
            readings = [n for n in self.readings(m.group(2), "rhs") if not mp.variables(n)]
            values = [v for n in readings for v in self.values(n)]
            true = _UNIVERSAL[name]
            if not values or any(self.close(abs(v), true, 0.02) for v in values):
                continue
            return Finding(0, "fail", "CM", f"states {name} = {m.group(2).strip()[:30]}; the constant {name} is "
                           f"{_fmt(true)} in SI.", info={"check": "constant", "symbol": name})
        return None

    def prose_word_relations(self, text: str) -> list[str]:
        """Claims in words between quantities named in words, as equations to check: "the charge on a
        capacitor is the voltage across its plates divided by the capacitance" -> "Q = V / C", "the image
        distance is the object distance divided by the focal length" -> "v = u / f". Each side is a
        quantity of the problem named by the head noun of its description (`_KIND_NOUNS`: charge, voltage,
        distance, ...; several of one noun told apart by their other words) within its first words;
        operators are "divided by", "times", "multiplied by". A side that is no such quantity ("the
        distance between crest and trough"), or words that qualify the relation ("is proportional to",
        "is unchanged"), make the claim unread."""
        out: list[str] = []
        plain = re.sub(r"\\[,;:! ]", " ", _strip_remarks(_strip_tags(text)))
        for part in re.split(r"[;.,](?:\s|$)|:\s|\bso\b|\bwhere\b|\bwhen\b|\bwhile\b|\bwhich\b", plain):
            if "=" in part or "≈" in part:
                continue
            m = _PROSE_VERB.search(part)
            if not m:
                continue
            lhs = self.quantity_named(part[:m.start()])
            rest = re.split(r"\s+and\s+|\s+if\s+|\s+for\s+|\s+in\s+this\b", part[m.end():])[0].strip()
            if lhs is None or not rest or _QUALIFIED.match(rest):
                continue
            pieces = re.split(r"\s+(divided by|multiplied by|times)\s+", rest)
            if any(w in _NOT_PLAIN for x in pieces[::2] for w in re.findall(r"[a-z]+", x.lower())):
                continue  # "the momentum transferred per second": more than a quantity's name
            sides = [self.quantity_named(x) for x in pieces[::2]]
            if any(x is None for x in sides):
                continue
            expr = sides[0] or ""
            for op, side in zip(pieces[1::2], sides[1:]):
                expr += (" / " if op.startswith("divided") else " * ") + (side or "")
            out.append(f"{lhs} = {expr}")
        return out[:4]

    def quantity_named(self, phrase: str) -> str | None:
        """The quantity of the problem a short noun phrase names by the head noun of its description (see
        `prose_word_relations`), or None."""
        words = phrase.lower().split()
        if not words or len(words) > 10:
            return None
        noun = _kind_noun(" ".join(words))
        if noun is None or not re.search(rf"\b{re.escape(noun[0])}", " ".join(words[:4])):
            return None  # the noun must open the phrase ("the voltage across it"), not end a clause in it
        cands = []
        for s, desc in self.gt.descriptions.items():
            own = _kind_noun(desc.lower())
            if own is not None and own[0] == noun[0]:
                cands.append(s)
        if len(cands) > 1:
            mine = _stems(phrase) - _DESC_GENERIC
            scored = sorted(((len(mine & (_stems(self.gt.descriptions[c]) - _DESC_GENERIC)), c) for c in cands),
                            reverse=True)
            cands = [scored[0][1]] if scored[0][0] > scored[1][0] else []
        return cands[0] if len(cands) == 1 else None

    def inconsistent(self, readings: list[mp.Node]) -> bool:
        """Every reading of an expression whose symbols all have known dimensions is dimensionally
        inconsistent (`m1 + g`: a mass plus an acceleration)."""
        bad = 0
        for node in readings:
            if any(self.dims.get(v) is None for v in mp.variables(node)):
                return False
            if mp.dimension(node, self.dims) is not None:
                return False
            bad += 1
        return bad > 0

    def claimed_kind(self, plain: str) -> Finding | None:
        """A line of several values (session 14): each of its clauses, cut at commas and semicolons, that says
        "<words> is <one value>" ("At 259 K, the volume of ice is 250 g.") is judged by `misnamed_kind` alone,
        since its words name that value and no other."""
        for piece in re.split(r"[,;]", plain):
            if len(_LONE_NUMBER.findall(piece)) == 1 and re.search(r"\b(?:is|are|equals)\s+[-+]?\.?\d", piece):
                found = self.misnamed_kind(piece, nested=True)
                if found is not None:
                    return found
        return None

    def misnamed_kind(self, text: str, nested: bool = False) -> Finding | None:
        """A given step whose one value is a given's value of the problem, described by words whose head
        noun names a quantity of another kind ("n = 5.89 mW (the total energy emitted)": 5.89 mW is the
        power; "n = 4.67 mol (molar mass of the gas)"; "m1 = 8.36 uC (rest mass of the first charge)"):
        the number was read as the wrong quantity, MC. The noun is the first of `_KIND_NOUNS` in the
        words (longest phrase first), not one followed by a word that changes its kind ("energy per",
        "charge density", "time constant"); a noun the given's own description holds is never judged, nor
        one the problem writes around the value unless it names a process there ("at constant pressure from
        290 K": 290 K is no pressure). A remark after the value ("20 V (emf)") is no factor of it."""
        plain = re.sub(r"\(\s*[a-z]\s*\)", " ", mp.normalize(_strip_tags(text)))  # list labels "(a)": no factor
        numbers = list(_LONE_NUMBER.finditer(plain))
        if len(numbers) > 1 and not nested:
            return self.claimed_kind(plain)
        if len(numbers) != 1:
            return None
        start = numbers[0].start()
        # a remark after the value ("20 V (emf)", "290 K (K)") is no factor of it; "J/(kg*K)" keeps its parentheses
        value_text = re.sub(r"\s\([^()]*\)", " ", plain[start:])
        node = next((n for n in self.readings(value_text, "rhs") if n[0] == "qty" and not mp.variables(n)), None)
        if node is None:
            return None
        got = mp.dimension(node, self.dims)
        fits = [s for s in self.gt.givens if self.fits_given(s, [node])]
        if got is None or not fits:
            return None
        unit = re.match(r"\s*[A-Za-zμµΩ°][\w/*^·()μµΩ°]*", plain[numbers[0].end():])
        words = (plain[:start] + " " + plain[numbers[0].end() + (unit.end() if unit else 0):]).lower()
        # the clause that says what the value is comes first ("cross-sectional area (A): the length of the rod
        # is 2.2 cm^2": the length), then all the words
        claim = re.search(r"([^:;,()]*)\b(?:is|are|equals|=)\s*$", plain[:start])
        noun = (_kind_noun(claim.group(1).lower()) if claim else None) or _kind_noun(words)
        if noun is None:
            return None
        phrase, dim = noun
        process = re.search(rf"\bconstant {re.escape(phrase)}", self.question.lower())  # "at constant pressure"
        if mp.same_dim(dim, got) or any(phrase in self.gt.descriptions.get(s, "").lower()
                                        or (self.problem_words(s, phrase) and not process) for s in fits):
            return None  # ... or the problem's own words around it ("a field of 1.3 T perpendicular to its velocity")
        s = fits[0]
        said = plain[start:numbers[0].end() + (unit.end() if unit else 0)].strip()
        while said.endswith(")") and said.count(")") > said.count("("):  # "(1.6e-19 C)": the bracket's own end
            said = said[:-1]
        article = "an" if phrase[0] in "aeiou" else "a"
        return Finding(0, "fail", "MC", f"calls {said} {article} {phrase}, "
                       f"but it is the {self.gt.descriptions.get(s, s)} ({s}), a quantity of another kind.",
                       info={"check": "given_kind", "symbol": s})

    # -- which quantity a stated value is meant to be
    def described(self, text: str, strict: bool = False) -> str | None:
        """The quantity of the problem a piece of prose describes ("acoustic power" -> P, "mass of the
        helium" -> m), or None: the quantity whose description's content words (5-letter stems) the text
        covers best, at least half of them, ties broken by the number of words shared; still tied, None.
        `strict` (prose with no value to go by): at least two words shared and 60% covered."""
        if not text:
            return None
        words = _stems(_strip_numbers(text)) - _DESC_GENERIC
        best: list[tuple[float, int, str]] = []
        for s, desc in self.gt.descriptions.items():
            d = _stems(desc) - _DESC_GENERIC
            common = len(d & words)
            if not d or not common or common / len(d) < 0.5 or strict and (common < 2 or common / len(d) < 0.6):
                continue
            best.append((common / len(d), common, s))
        if not best:
            return None
        best.sort(reverse=True)
        if len(best) > 1 and best[0][:2] == best[1][:2]:
            return None
        return best[0][2]

    def words_fit_alias(self, alias: str | None, label: str, meant: str | None = None) -> bool:
        """Whether a value that is given `alias`'s value is described by words that fit it too ("Speed of
        sound: 331 m/s" for the speed of sound at the reference temperature, although the words cover
        the speed of sound in the pipe, a quantity to be found, better): then it is that given, stated
        loosely, not the unknown given a value. Not when the words hold what sets the unknown `meant`
        apart from the given ("temperature of the interface" for the hot face's value: the unknown)."""
        if not alias:
            return False

        def stems(text: str) -> set[str]:
            return {_stem_syn(w) for w in _stems(text) - _DESC_GENERIC if len(w) > 2}

        mine = stems(_strip_numbers(mp.normalize(label)))
        theirs = stems(self.gt.descriptions.get(alias, ""))
        apart = stems(self.gt.descriptions.get(meant, "")) - theirs if meant else set()
        if apart & _PART_STEMS and not mine & _PART_STEMS:
            # session 15: words without the direction that makes `meant` a part of a vector ("Initial velocity:
            # 23.6 m/s" beside the initial vertical velocity component) name the whole quantity, not that part;
            # unless a part of them, or of the line's remark, names a quantity of another kind ("Initial velocity
            # (initial acceleration) = 28.7 m/s")
            own = self.dims.get(alias)
            said = _strip_numbers(mp.normalize(f"{label}; {self.label}")).lower()
            nouns = [_kind_noun(part) for part in re.split(r"[(),;:]", said)]
            return bool(mine & theirs) and own is not None and all(n is None or mp.same_dim(n[1], own) for n in nouns)
        return bool(mine & theirs) and not (mine & apart)

    def words_of_value(self, meant: str, alias: str | None, readings: Sequence[mp.Node], label: str) -> bool:
        """Whether words that describe quantity `meant` best are read as the words of `alias`, the given whose
        value the step states, because the value cannot be `meant`'s: its unit is of another kind than `meant`'s
        ("The second ball's initial velocity (v2) is 6.6 m/s" beside the mass of the second ball; "voltage applied
        across the capacitor" for 460 V beside the capacitance). Words bind to a quantity only where the value
        fits it, so they are then judged against `alias`: they must share a word with its description, name no
        quantity noun of another kind than the value (`_KIND_NOUNS`: "the mass of the ball is 8.20 m/s" stays a
        claim) and hold no word that sets `meant` apart from `alias` other than `meant`'s own quantity noun
        ("velocity of the electron" for the speed of light, "heat rejected to the cold reservoir" for the heat
        absorbed, stay wrong; session 12, early misses of every set)."""
        written = [n for n in readings if mp.has_units(n)]  # `460 V`, not 460 times the symbol V
        if alias is None or not written:
            return False
        want = self.dims.get(meant)
        got = [mp.dimension(n, self.dims) for n in written]
        if want is None or any(d is None or mp.same_dim(d, want) for d in got):
            return False
        words = _strip_numbers(mp.normalize(label))
        noun = _kind_noun(words.lower())
        if noun is not None and not any(mp.same_dim(noun[1], d) for d in got):
            return False

        def stems(text: str) -> set[str]:
            return {_stem_syn(w) for w in _stems(text) - _DESC_GENERIC if len(w) > 2}

        mine, theirs = stems(words), stems(self.gt.descriptions.get(alias, ""))
        own_noun = _kind_noun(self.gt.descriptions.get(meant, "").lower())
        apart = stems(self.gt.descriptions.get(meant, "")) - theirs - (stems(own_noun[0]) if own_noun else set())
        return bool(mine & theirs) and not (mine & apart)

    def implied_count(self, meant: str, readings: Sequence[mp.Node]) -> bool:
        """Whether a stated value is a bare whole number the problem implies (`n = 1 [first order]` for "diffracted
        in first order", a number of the question) while `meant`, the quantity to be found its words describe,
        has a unit: a count or an order, never that quantity's value, whatever words it shares with its
        description ("first-order glancing angle"; session 12, r9-134)."""
        if not self.gt.units.get(meant):
            return False
        bare = [n for n in readings if n[0] == "num"]
        return bool(bare) and all(float(n[1]).is_integer() for n in bare) and self.implied(bare) is not None

    def description_word(self, word: str) -> bool:
        """Whether a single word is a word of the problem's descriptions ("wavelength", "mass") and no name
        the verifier reads as a symbol ("Vmax", "Tfinal" are names)."""
        if mp.canonical_name(word) in self.names or word in CONSTANT_NAME_WORDS:
            return False
        stems = {w for d in self.gt.descriptions.values() for w in _stems(d)} - _DESC_GENERIC
        return bool(_stems(word) & stems)

    def wordless(self) -> bool:
        """Whether the given statement being checked is one clause with no words of its own (`m2 = 9.7 m/s`); a
        line of several clauses has no label (`symbolic.py`), so its words are not known and it is not wordless,
        and an "(in UNIT)" remark says what the value is measured in (`gamma (in kJ/mol) = 2.5 mol`: judged)."""
        return bool(self.label) and not self.has_words(self.label) and not re.search(r"\(\s*in\s", self.label)

    def has_words(self, label: str) -> bool:
        """Whether a stated clause has words of its own, anywhere (not symbols, units, functions or Greek
        letters): "speed of sound (c) = 331 m/s", "N = 45 protons" have; "R = 906 km" has none."""
        for w in re.findall(r"(?<![\w.])[A-Za-z]{3,}(?!\w)", mp.normalize(label)):
            if mp.canonical_name(w) in self.names or w in mp.FUNCTIONS or w in mp.GREEK_NAMES or \
                    mp.unit_word(w) is not None:
                continue
            return True
        return False

    def target_with_value(self, text: str) -> Finding | None:
        """A <find> step that names the target and gives it a value ("Sound intensity level: 37.9 W/m^2",
        "The period: T = 0.718 m/s", "p = 121 W"): the unknown listed as if it were given (MC, whatever
        the number; the rubric's error). The target is named by its symbol (any case), by its
        description, or by most of its description's content words; `target = <expression>` is an
        equation, checked as such, not a value; "... at t = 44 ms" (a given's symbol after at, when,
        after, for, with, of) is a condition on the target, not its value."""
        plain = mp.normalize(_strip_remarks(text))
        # a numbered name ("Q1 = 1400 J (heat rejected)") is a head too; digits are excluded from `_NAMED_VALUE`'s
        m = _NAMED_VALUE.match(plain) or _NUMBERED_NAME_VALUE.match(plain)
        if not m:
            return None
        head = m.group("head").strip()
        target = self.gt.target
        tokens = re.findall(r"[A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ]*", head)
        by_symbol = bool(tokens) and any(self.names.get(mp.canonical_name(t)) == target
                                         or t.lower() == target.lower() for t in tokens[-1:])
        words = [w for w in re.findall(r"[a-z]{4,}", self.gt.target_desc.lower()) if w not in mp.STOPWORDS]
        low = head.lower()
        if _NUMBERED_NAME_VALUE.match(plain):  # its words are in its remark: "(heat rejected)"
            low += " " + " ".join(re.findall(r"\(([^()]*)\)", text)).lower()
        by_words = bool(words) and sum(w in low for w in words) >= max(1, math.ceil(0.6 * len(words)))
        if not (by_symbol or by_words or self.described(head) == target):
            return None
        last = tokens[-1] if tokens else ""
        if last and self.names.get(mp.canonical_name(last)) in self.gt.givens and \
                re.search(r"\b(?:at|when|after|for|with|of)\s+" + re.escape(last) + r"\s*$", head):
            return None  # "E, the energy stored at t = 44 ms": a given's value says when, not the target's value
        value = m.group("value").strip()
        return Finding(0, "fail", "MC", f"lists {target}, the quantity asked for, with a value ({value[:40]}) as if "
                       f"it were given.", info={"check": "target", "found": target})

    def fits_given(self, name: str, readings: list[mp.Node]) -> bool:
        g = self.gt.givens[name]
        return self.given_ok(name, readings, float(g["value"]), self.gt.factors.get(name, 1.0))

    def described_unknown(self, meant: str, raw: str) -> Finding:
        shown = raw if len(raw) < 40 else raw[:37] + "..."
        return Finding(0, "fail", "MC", f"states the {self.gt.descriptions.get(meant, meant)}, a quantity to be found, "
                       f"as {shown}; it is no given of the problem.", info={"check": "given_unknown", "symbol": meant})

    def misdescribed_given(self, meant: str, raw: str, other: str | None) -> Finding:
        g = self.gt.givens[meant]
        shown = raw if len(raw) < 40 else raw[:37] + "..."
        why = f", which is the value of {other} ({self.gt.descriptions.get(other, '')})" if other else ""
        return Finding(0, "fail", "MC", f"states the {self.gt.descriptions.get(meant, meant)} as {shown}{why}; the "
                       f"problem gives {meant} = {_with_unit(float(g['value']), g.get('unit', ''))}.",
                       info={"check": "given_described", "symbol": meant})

    # -- givens that are no quantity of the problem
    def implied(self, readings: list[mp.Node], name: str | None = None) -> str | None:
        """What a stated number that is no given of the problem may legitimately be, or None: zero, a
        physical constant (`CONSTANTS_SI`, `CONSTANT_MAGNITUDES`), a number written in the question, or
        the value (SI or display unit, within `value_rel`) of any quantity of the ground truth, a correct
        intermediate included but not the answer; each of its own unit kind when written with a unit."""
        for node in readings:
            if mp.variables(node):
                continue
            vals = self.values(node)
            mag = node[1] if node[0] in ("num", "qty") else None
            if node[0] == "neg" and node[1][0] in ("num", "qty"):
                mag = -node[1][1]
            if any(v == 0 for v in vals) or mag == 0:
                return "zero"
            dim = mp.dimension(node, self.dims) if node[0] == "qty" else None
            if any(self.close(abs(v), c, self.tol.constant_rel) and (
                    dim is None or not u or mp.same_dim(dim, mp.dim_of_unit(u.replace("^", "**"))))
                    for v in vals for c, u in zip(CONSTANTS_SI, CONSTANT_UNITS)) and (
                    name is None or name in CONSTANT_NAME_WORDS or self.kind_in_problem(dim)):
                return "a physical constant"
            if node[0] == "num" and any(self.close(abs(node[1]), c, 1e-3) for c in CONSTANT_MAGNITUDES):
                return "a physical constant"
            if node[0] == "qty" and "deg" in node[4] and any(self.close(node[1], c, 1e-9) for c in RIGHT_ANGLES_DEG):
                return "a right or straight angle"
            bare, si = self.question_numbers
            if (node[0] == "num" and any(self.close(node[1], q, 1e-9) for q in bare)) or \
                    (node[0] == "qty" and any(self.close(v, q, 1e-6) and (dim is None or qd is None or
                                                                          mp.same_dim(dim, qd))
                                              for v in vals for q, qd in si)):
                return "a number of the question"  # of the same kind when it has a unit
            for s, v in self.env[0].items():
                if not self.unit_kind_fits(s, node) or s == self.gt.target:
                    continue  # the answer itself stated as a given is no implied value (an option copied)
                f = self.gt.factors.get(s, 1.0)  # a single stated value: no rounding spread (1000 J is not 1500 J)
                if any(self.close(x, t, self.tol.value_rel) for x in vals
                       for t in ([v] if mp.has_units(node) or f in (0.0, 1.0) else [v, v / f])):
                    return s
            if node[0] == "qty" and vals:  # a sum or difference of two givens of one unit (total mass m1 + m2)
                for a, b in self.given_pairs(dim):
                    if any(self.close(vals[0], c, self.tol.value_rel) for c in (a + b, abs(a - b))):
                        return "a sum or difference of givens"
        return None

    def kind_in_problem(self, dim: mp.Dim | None) -> bool:
        """Whether the problem has a quantity of this dimension (always, for a bare number): a constant
        written with a unit under a name that is not its usual one is implied only where such a quantity
        takes part (`T = 9.81 m/s^2` in an orbit problem, with no acceleration, is a quantity invented with
        a value; `g = 9.8 m/s^2` there is the constant restated, not needed but true)."""
        if dim is None:
            return True
        return any(d is not None and mp.same_dim(d, dim) for d in self.gt.dims.values())

    def given_pairs(self, dim: mp.Dim | None = None) -> list[tuple[float, float]]:
        """SI values of pairs of givens stated in the same unit (of dimension `dim` when given)."""
        items = [(g.get("unit", ""), self.env[0].get(s)) for s, g in self.gt.givens.items()
                 if dim is None or self.dims.get(s) is None or mp.same_dim(self.dims[s], dim)]
        return [(va, vb) for i, (ua, va) in enumerate(items) for ub, vb in items[i + 1:]
                if ua and ua == ub and va is not None and vb is not None]

    def given_list(self, k: int = 4) -> str:
        items = [f"{s} = {_with_unit(float(g['value']), g.get('unit', ''))}" for s, g in self.gt.givens.items()]
        return ", ".join(items[:k]) + (", ..." if len(items) > k else "")

    def unmatched_given(self, name: str, raw: str) -> Finding:
        shown = raw if len(raw) < 40 else raw[:37] + "..."
        return Finding(0, "fail", "MC", f"states {name} = {shown}, which is no quantity of the problem (neither "
                       f"by name nor by value); the problem gives {self.given_list()}.",
                       info={"check": "given_unmatched", "symbol": name})

    def known_given_name(self, word: str, any_symbol: bool) -> bool:
        """A name written without a value in a <given> step: a given of the problem (by any spelling the
        verifier reads), a physical constant's usual name, or (`any_symbol`) any quantity of the problem."""
        s = self.names.get(mp.canonical_name(word))
        if s is not None and (s in self.gt.givens or (any_symbol and s in self.gt.units)):
            return True
        return word in CONSTANT_NAME_WORDS or mp.canonical_name(word) in CONSTANT_NAME_WORDS

    def check_given_text(self, text: str, any_symbol: bool = False) -> Finding | None:
        """A <given> step without `=`: names listed without values ("m", "m1, m2") must be givens of the
        problem; numbers with a unit or a decimal point ("Mass: 2.0 kg") must be quantities of it (a given
        by value, or `implied`). Prose without either is not judged."""
        text = drop_unit_echo(text)  # "the initial velocity of the trolley: 7.31 m/s (m/s)": the unit again
        plain = mp.normalize(_strip_remarks(text))
        if not re.search(r"(?<![A-Za-z_\d])\d", plain):  # no number ("v0", "m1, m2" are names, not numbers)
            meant = self.described(self.label, strict=True)
            if meant in self.gt.equations and meant not in self.gt.givens:  # "energy: kinetic energy: Joules"
                return Finding(0, "fail", "MC", f"lists the {self.gt.descriptions.get(meant, meant)}, a quantity to be "
                               "found, among the givens.", info={"check": "given_unknown", "symbol": meant})
            words = [w for w in _NAME_RE.findall(plain) if w.lower() not in ("and", "or")]
            if not words or not all(mp.symbol_like(w) or w in CONSTANT_NAME_WORDS for w in words):
                found = self.invented_name(plain)
                # session 14: a value-less naming is read both ways (symbolic_namings): MC for a quantity the problem
                # does not have or a unit of another kind, right for one it has
                judged = value_less_naming(self, mp.normalize(text)) if found is None else None
                if judged is not None and judged is not True:
                    return judged
                if found is None and (self.named_with_words(mp.normalize(text)) or judged is True):
                    self.hits.add("given")
                    self.decided = True
                return found
            if self.named_with_words(mp.normalize(text)):  # "N (net horizontal force)": the solution's letter
                self.hits.add("given")
                self.decided = True
                return None
            unknown = [w for w in words if not self.known_given_name(w, any_symbol)]
            if not unknown:
                self.hits.add("given")
                self.decided = True
                return None
            w = unknown[0]
            return Finding(0, "fail", "MC", f"names {w} without a value, and the problem has no given called {w}; "
                           f"the problem gives {self.given_list()}.", info={"check": "given_unmatched", "symbol": w})
        plain = _SYMBOL_LABEL.sub(" ", plain)  # "249 K (T)": a symbol written as a label, not a factor
        start = 0
        seen: list[float] = []  # the values this line has stated so far
        for m in re.finditer(r"(?<![\w.])\d", plain):
            if m.start() < start:
                continue
            try:
                node, used, _total = mp.parse_prefix(plain[m.start():], self._names_obj(), True)
            except mp.ParseFail:
                continue
            if mp.variables(node) or not (node[0] == "qty" or (node[0] == "num" and not
                                                                 re.fullmatch(r"\d{1,2}", node[2]))
                                          or self.worded_count(node, plain[start:m.start()],
                                                               plain[m.start() + used:])):
                continue
            values = self.values(node)
            if values and any(self.close(values[0], x, 1e-9) for x in seen):
                start = m.start() + len(mp.to_text(node))
                continue  # "is 0.39 (approx. 0.39)": the line's own value again, one statement (session 10, A8)
            seen.extend(values[:1])
            # the words that describe this number: those since the previous number ("... frequency 617 Hz,
            # with a velocity of 4.5 m/s": 4.5 m/s is "with a velocity of")
            label = plain[start:m.start()] if self.label else ""
            start = m.start() + len(mp.to_text(node))
            alias = self.alias_given([node])
            meant = self.described(label)
            fits_words = meant is not None and self.words_of_value(meant, alias, [node], label)
            if meant in self.gt.givens and meant != alias and not self.fits_given(meant, [node]) and not fits_words:
                return self.misdescribed_given(meant, mp.to_text(node), alias)
            if meant in self.gt.equations and meant != alias and not self.words_fit_alias(alias, label, meant) \
                    and not fits_words:
                return self.described_unknown(meant, mp.to_text(node))
            which = _WHICH_IS.match(plain[start:])
            foreign = self.foreign_words(alias, which.group(1)) if alias and which else None
            after = None
            if alias and not self.has_words(label):
                after = _VALUE_THEN_WORDS.match(plain[m.start():])
                whole = mp.normalize(self.label)
                if after is None and len(re.findall(r"(?<![\w.])\d", whole)) == 1:  # "172 g (specific heat)"
                    after = _VALUE_THEN_WORDS.search(whole)
            if after and not foreign:  # "140 g: specific heat": the words after the value say what it is
                meant = self.described(after.group(1))
                if meant in self.gt.givens and meant != alias and not self.fits_given(meant, [node]) and \
                        not self.words_of_value(meant, alias, [node], after.group(1)):
                    return self.misdescribed_given(meant, mp.to_text(node), alias)
                foreign = self.foreign_words(alias, "= " + after.group(1))
            if foreign:  # "... is 385 mm^-1, which is the refractive index of the light": another meaning
                return Finding(0, "fail", "MC", f"says {mp.to_text(node)} is the {foreign}; in the problem it is the "
                               f"{self.gt.descriptions.get(alias, alias)}.",
                               info={"check": "given_meaning", "symbol": alias})
            if alias:
                self.stated.setdefault(alias, ("", label or mp.to_text(node)))
            else:
                again = self.stated_again("", [node], label or " ")
                if again:
                    return self.repeated_given(again, mp.to_text(node))
            if alias or self.implied([node]) is not None:
                self.hits.add("given")
                self.decided = True
                continue
            shown = mp.to_text(node)
            return Finding(0, "fail", "MC", f"states {shown}, which is no quantity of the problem (neither a "
                           f"given nor a value it implies); the problem gives {self.given_list()}.",
                           info={"check": "given_unmatched"})
        return None

    def worded_count(self, node: mp.Node, words: str, rest: str) -> bool:
        """Whether a small whole number in a given line ("The number of loops is 4") is a unitless given's value
        stated after words that describe that given: a count of the problem, read as its statement (session 14,
        r11-006), where a bare small number is otherwise left alone (an order, a step number). Only a statement
        of it, "words is|are|:|= N" ending the line (a remark may follow): "maximum of order 1, the maximum in ..."
        and "The maximum of order 3 is at the point where ..." say something else about it."""
        if node[0] != "num" or not self.label or not re.search(r"(?:\bis|\bare|\bequals|[:=])\s*$", words) or \
                not re.fullmatch(r"\s*(?:\([^()]*\))?\s*[.;]?\s*", rest):
            return False
        meant = self.described(words)
        given = self.gt.givens.get(meant) if meant else None
        return given is not None and not given.get("unit") and float(node[2]) == float(given["value"])

    def named_with_words(self, plain: str) -> bool:
        """Whether a given line with no value names a letter with words that describe a given of the problem
        or the quantity asked for (`λ (wavelength)`, `V: the volume (in m^3)`, `Length of the pendulum: l`):
        the solution introduces its letter, which states nothing wrong (session 10, early false alarms of
        every set). A unit written with it (`in m/s`, `(J/m^2)`) must be of that quantity's kind."""
        units, letters, prose = naming_parts(plain)
        words = _NAMED_UNIT.sub(" ", plain)
        if not letters or not re.search(r"[A-Za-z]{3}", _NAME_RE.sub(lambda m: " " if m.group(0) in letters
                                                                     else m.group(0), words)):
            return False
        said = content_stems(prose)
        meant = self.described(plain)
        if meant is None:  # "wavelength (λ)" beside "wavelength in vacuum" and "... in the medium": no one best
            return any(self.named_as(q, said, letters, units) for q in self.covering(said))
        if meant not in self.gt.givens and meant != self.gt.target:
            return False
        return self.named_as(meant, said, letters, units)

    def covering(self, said: set[str]) -> list[str]:
        """The givens and the target whose description holds every content word of a naming (`said`, stems read
        through `_STEM_SYNONYMS`): "wavelength" names a wavelength of the problem even when the problem has two
        (session 11), so the naming is judged against each; an empty naming covers nothing."""
        if not said:
            return []
        return [q for q in list(self.gt.givens) + [self.gt.target]
                if said <= {_stem_syn(w) for w in _stems(self.gt.descriptions.get(q, ""))}]

    def named_as(self, meant: str, said: set[str], letters: list[str], units: list[tuple[str, str]]) -> bool:
        """Whether a value-less naming (`named_with_words`) with content words `said`, letters and written units
        fits the quantity `meant`: no word of another quantity only, no letter or unit of another kind."""
        # no word may belong only to another quantity of the problem ("angle of the cliff" for the launch
        # angle beside the cliff's height, "initial air speed" for the launch speed beside the initial
        # vertical velocity, "acceleration of the pendulum" for the lift's): those say something else
        own = {_stem_syn(w) for w in _stems(self.gt.descriptions.get(meant, ""))}
        others = {_stem_syn(w) for s, d in self.gt.descriptions.items() if s != meant for w in _stems(d)}
        if (said - own) & others:
            return False
        kind = self.dims.get(meant)
        for letter in letters:  # "v1 (height of the final box)": a speed's letter for a height
            conventional = _conventional_dim(mp.canonical_name(letter))
            if conventional is not None and kind is not None and letter not in self.names and \
                    not any(mp.same_dim(kind, d) for d in conventional[1]):
                return False
            unit = mp.pint_unit(letter) if len(letter) > 1 and letter not in self.names else None
            if unit is not None and unit.dim != mp.DIMLESS and (kind is None or not mp.same_dim(unit.dim, kind)):
                return False  # "eV (threshold wavelength)": a unit of another kind written as the letter
        for unit in units:
            spelled = unit[0] or unit[1]
            infos = [mp.pint_unit(u) for u in {spelled, _UNGROUPED_DENOMINATOR.sub(r"/(\1*\2)", spelled)}]
            if any(infos) and not any(i is not None and kind is not None and mp.same_dim(i.dim, kind) for i in infos):
                return False  # "the initial acceleration (a) in m/s": a unit of another kind ("J/mol*K": J/(mol*K))
        return True

    def invented_name(self, plain: str) -> Finding | None:
        """A given line "words (SYMBOL)" without a value ("refractive index (n)") whose symbol is no name of
        the problem and whose words share no content word with any quantity of it: a quantity the problem
        does not have (MC). Words that share one ("initial speed (u)") are not judged."""
        m = re.fullmatch(r"\s*([A-Za-z][A-Za-z '-]{2,60}?)\s*\(\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,6})\s*\)\s*[.,]?\s*", plain)
        if not m or mp.canonical_name(m.group(2)) in self.names or m.group(2) in CONSTANT_NAME_WORDS:
            return None
        mine = {_stem_syn(w) for w in _stems(m.group(1)) - _DESC_GENERIC - _GENERIC_STEMS if len(w) > 2}
        if not mine or any(mine & {_stem_syn(w) for w in _stems(d)} for d in self.gt.descriptions.values()):
            return None
        return Finding(0, "fail", "MC", f"names {m.group(2)} ({m.group(1).strip()}), a quantity the problem does not "
                       f"have; the problem gives {self.given_list()}.", info={"check": "given_unmatched",
                                                                              "symbol": m.group(2)})

    def given_like(self, text: str) -> bool:
        """An untagged step that reads as a given statement: every clause `name = number [unit]`, or no
        clause and only symbol names or numbers with units (see "Given position" in the docstring)."""
        clauses = split_clauses(text)
        if clauses:
            for clause in clauses[:MAX_GIVEN_CLAUSES]:
                parts = clause.split("=")
                if len(parts) != 2 or not _ENDS_WITH_NAME.search(mp.normalize(parts[0][-80:])):
                    return False  # cheap test first: `... name = <number ...>`
                if not re.match(r"\s*[-−]?\s*\.?\d", parts[1]):
                    return False
                rhs = self.readings(parts[1], "rhs")
                if not rhs or all(mp.variables(n) for n in rhs):
                    return False
            return True
        plain = mp.normalize(_strip_remarks(text))
        if not plain or "=" in text:
            return False
        if not re.search(r"\d", plain):
            words = _NAME_RE.findall(plain)
            return bool(words) and all(mp.symbol_like(w) or w.lower() in ("and", "or") for w in words)
        return re.search(r"\d(?:\.\d+)?\s*[A-Za-zμΩ°]", plain) is not None

    def names_target(self, text: str, lenient: bool) -> bool:
        """Whether a step identifies the asked quantity: `check_target` names it or, `lenient` (a <find>
        step), it names no other computed quantity first and holds a content word of the target's
        description ("the maximum speed") or asks for a unit of the target's dimension ("(in N)")."""
        named, fail = self.check_target(text)
        if named:
            return True
        if not lenient or fail is not None:
            return False
        if self.described(text) not in (None, self.gt.target):  # "Nmin = 51 neutrons": N, not the target
            return False
        words = {w for w in _stems(" ".join(re.findall(r"[A-Za-z]{4,}", self.gt.target_desc)))
                 if w not in _GENERIC_STEMS}
        if words & _stems(text):
            return True
        m = re.search(r"\(in ([^()]+)\)", text)
        if m and self.gt.target in self.gt.dims and self.gt.dims[self.gt.target] is not None:
            info = mp.pint_unit(mp.normalize(m.group(1)).replace("^", "**"))
            return info is not None and mp.same_dim(info.dim, self.gt.dims[self.gt.target])
        return False

    def alias_given(self, readings: list[mp.Node]) -> str | None:
        """The given a value stated under another name is (by value and unit kind); a given the solution
        already stated under another name is not matched twice."""
        for s, g in self.gt.givens.items():
            if s in self.aliased or s in self.stated:
                continue
            if self.given_ok(s, readings, float(g["value"]), self.gt.factors.get(s, 1.0)):
                return s
        return None

    def check_relation(self, lhs_readings: list[mp.Node], segs: list[tuple[str, list[mp.Node]]]) -> Finding | None:
        """An equation between expressions (`m1 g - T = m1 a`): every segment equals the first."""
        lhs_readings = self.plausible(lhs_readings, None)
        for _raw, all_readings in segs:
            readings = self.plausible(all_readings, mp.dimension(lhs_readings[0], self.dims))
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
                        self.decided = True
                        self.hits.add("value" if mp.is_numeric(a) or mp.is_numeric(b) else "equation")
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
                                   numeric=True, info={"check": "relation"}, nodes=[a, b])
                return Finding(0, "fail", "CM", f"writes {what}, which does not follow from the governing "
                               "equations.", info={"check": "relation"})
        return None

    # -- whole steps
    def check_target(self, text: str) -> tuple[bool, Finding | None]:
        """(names the target, failure if it names another quantity)."""
        gt = self.gt
        plain = mp.normalize(_strip_remarks(text))
        matches = list(re.finditer(r"[A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ]*", plain))
        found = []
        for i, m in enumerate(matches):
            tok = m.group(0)
            s = self.names.get(mp.canonical_name(tok))
            if s is None or s not in gt.units:
                continue
            before, after = plain[:m.start()].rstrip()[-1:], plain[m.end():].lstrip()[:1]
            if before in "^*/+-=(" and before or after in "^*/+-=)_" and after:
                continue  # inside a formula ("ratio v^2/(R*g)"), not the quantity named
            nxt = matches[i + 1].group(0) if i + 1 < len(matches) else ""
            if tok in ("a", "A", "I") and nxt.islower() and len(nxt) >= 3 and after not in ",:":
                continue  # the article
            found.append(s)
            value = _VALUE_ONLY.match(plain[m.end():]) if s == gt.target else None
            if value and (not value.group("unit") or mp.pint_unit(value.group("unit").replace("^", "**"))):
                # "Q: 25 C" in <find>: the unknown listed as if it were given a value (the rubric's error),
                # whatever the number; "Q = C*V*(1 - exp(-t/(R*C)))" names the target by its equation.
                return False, Finding(0, "fail", "MC", f"lists {gt.target}, the quantity asked for, with a value "
                                      f"({plain[m.end():].strip(' :=')}) as if it were given.",
                                      info={"check": "target", "found": s})
        computed = [s for s in found if s not in gt.givens]
        if computed and computed[0] == gt.target:
            return True, None
        lhs = re.match(r"\s*([A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ]*)\s*=", plain)
        if lhs and self.names.get(mp.canonical_name(lhs.group(1))) == gt.target:
            return True, None  # "Q = ...": the target named by the equation written for it (checked as one)
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

    def target_unit_failure(self, text: str) -> Finding | None:
        """A <find> step that names the target but asks for it in a unit of another kind ("the de Broglie
        wavelength (in Hz)", "the tension in the string (in m)"): the target is misread (MC), although
        its name is right. Only an "(in UNIT)" remark that pint reads is judged, or (session 10) a step that ends
        with "in UNIT" ("I = Current in ohm")."""
        gt = self.gt
        want = gt.dims.get(gt.target)
        if want is None:
            return None
        for m in re.finditer(r"\(\s*in ([^()]+)\)|\bin\s+([A-Za-zΩμ][\w/*^]*)\s*[.)]?\s*$", _strip_tags(text)):
            said = (m.group(1) or m.group(2)).strip()
            if said in _PREFIX_LETTERS:  # "(in u)": a unit cut off after its prefix, not amu
                continue
            info = mp.pint_unit(mp.normalize(said).strip().replace("^", "**"))
            if info is not None and not mp.same_dim(info.dim, want) and (m.group(1) or not mp.same_dim(info.dim, mp.DIMLESS)):
                return Finding(0, "fail", "MC", f"asks for {gt.target} ({gt.target_desc}) in {said}, a "
                               f"unit of another kind than {gt.units.get(gt.target) or 'a pure number'}.",
                               info={"check": "target_unit", "found": gt.target})
        return None

    def target_variant(self, text: str) -> Finding | None:
        """A <find> step that names the target with a qualifier the question does not have ("L' (final
        length)" when the increase in length is asked for, "the minimum height of the image" for its
        height): another quantity of the same name is sought (MC). Only `_VARIANT_WORDS`, absent from the
        question and from the target's description, are judged."""
        said = set(re.findall(r"[a-z]+", _strip_numbers(text).lower())) & _VARIANT_WORDS
        asked = set(re.findall(r"[a-z]+", (self.question + " " + self.gt.target_desc).lower()))
        extra = sorted(said - asked)
        if not extra:
            return None
        return Finding(0, "fail", "MC", f"asks for a {extra[0]} value, a qualifier the question does not have; the "
                       f"question asks for {self.gt.target}, {self.gt.target_desc}.", info={"check": "target_variant"})

    def invented_unknown(self, text: str) -> Finding | None:
        """A <find> line "NAME (words)" or "NAME: words" whose name is no symbol of the problem and whose
        words describe none of its quantities: an unknown the problem does not have."""
        m = re.match(r"\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,5})\s*(?:\(([^()]+)\)|[:,]\s*(.+))\s*$", mp.normalize(text))
        if not m or mp.canonical_name(m.group(1)) in self.names:
            return None
        words = m.group(2) or m.group(3) or ""
        if len(re.findall(r"[A-Za-z]{3,}", words)) < 2 or self.described(words, strict=True) is not None:
            return None
        return Finding(0, "fail", "MC", f"asks for {m.group(1)} ({words.strip()[:40]}), a quantity the problem does "
                       f"not have; the question asks for {self.gt.target}, {self.gt.target_desc}.",
                       info={"check": "target"})

    def principle_hits(self, text: str) -> set[int]:
        """Indices of the ground-truth principles the text names: a keyword or the principle's name whose
        words (lower-case, plural/-ed/-ing endings dropped, in any order) all occur in the text."""
        words = _stems(text)
        formulas = _formula_key(text)
        hits = set()
        for i, p in enumerate(self.gt.principles):
            cues = [_stems(k) for k in p.get("keywords", [])] + [_stems(p.get("name", ""))]
            if any(c and c <= words for c in cues):
                hits.add(i)
            # the principle's own formula written out ("Q = C*V" for the keyword "Q = CV")
            elif any(f and f in formulas for f in (_formula_key(c) for c in [p.get("name", ""), *p.get("keywords", [])]
                                                   if "=" in c for c in re.findall(r"[^()]*=[^()]*", c))):
                hits.add(i)
            elif self.restates(p.get("statement", ""), words):
                hits.add(i)
        return hits

    def foreign_principle(self, text: str) -> Finding | None:
        """A <concept> step headed by the name of a principle ("Kinetic energy: the rest energy is ...",
        "Hooke's law: ...") that is a principle of other problems of the generator (`principle_library`),
        none of this problem's, and has a word none of this problem's principles (name, keywords, statement)
        holds: the wrong principle named, CM. A header in words of this problem's principle ("Conservation
        of energy" for "Conservation of mechanical energy") or another name of this problem's relation (the
        library's statement of it has this problem's formula: "Definition of capacitance" and "Capacitor
        relation" both state Q = C*V) is not judged."""
        if not self.gt.principles:
            return None
        m = re.match(r"\s*([A-Za-z][A-Za-z'’ -]{2,60}?)\s*:", _strip_tags(text))
        if not m or len(m.group(1).split()) > 7:
            return None
        head = _stems(m.group(1)) - _DESC_GENERIC
        mine = set()
        for p in self.gt.principles:
            mine |= _stems(p.get("name", "")) | _stems(p.get("statement", ""))
            for k in p.get("keywords", []):
                mine |= _stems(k)
        if not head or head <= mine or any(_stems(p.get("name", "")) - _DESC_GENERIC == head for p in self.gt.principles):
            return None
        library = principle_library()
        other = next((name for name in library if _stems(name) - _DESC_GENERIC == head), None)
        if other is None:
            return None
        own = set().union(*(_statement_formulas(p.get("statement", "")) for p in self.gt.principles))
        if library[other] & own:
            return None  # "Definition of capacitance: ... Q = C*V" for "Capacitor relation": one relation, two names
        p = self.gt.principles[0]
        return Finding(0, "fail", "CM", f"names {other}, a principle that does not apply here; expected "
                       f"{p.get('name')} ({p.get('statement', '')[:80]}).", info={"check": "principle"})

    @staticmethod
    def restates(statement: str, words: set[str]) -> bool:
        """Whether a step's word stems cover most (60%, at least 3) of the content stems of a principle's
        statement: the principle said in other words ("Apparent gravity in an accelerating frame: ... as
        if gravity were g_eff = g + a" for "Effective gravity", whose keywords it does not use)."""
        content = {w for w in _stems(statement) if len(w) >= 4 and not w.isdigit()} - _DESC_GENERIC
        return len(content) >= 3 and len(content & words) >= 0.6 * len(content)


MAX_GIVEN_CLAUSES = 12


@functools.cache
def principle_library() -> dict[str, frozenset[str]]:
    """The principles of every family of the generator, name -> the formulas its statements write (for
    `_Checker.foreign_principle`); empty when the generator cannot be loaded."""
    try:
        from physr3.synth.registry import all_families
    except ImportError:  # pragma: no cover
        return {}
    out: dict[str, set[str]] = {}
    for fam in all_families():
        for p in fam.principles:
            name = p.name if hasattr(p, "name") else p["name"]
            text = p.text if hasattr(p, "text") else p.get("statement", "")
            out.setdefault(name, set()).update(_statement_formulas(text))
    return {k: frozenset(v) for k, v in out.items()}


def _statement_formulas(text: str) -> set[str]:
    """The formulas a principle's statement writes ("... is proportional to ..., Q = C*V" -> {"Q=CV"})."""
    return {_formula_key(m.group(0)) for m in re.finditer(r"[A-Za-z_]\w*\s*=\s*[\w*/^()+\-. ]+?(?=\s+[a-z]{3,}|[,;]|$)",
                                                           text or "")}


def _formula_key(text: str) -> str:
    """A formula without spaces and multiplication signs, for a textual match ("Q = C*V" -> "Q=CV")."""
    return re.sub(r"[\s*·×]", "", mp.normalize(text))
# the rest of a <find> step after the target's name when it assigns a bare number: ": 25 C", "= 4.4 m/s"
_VALUE_ONLY = re.compile(r"\s*[:=]\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:\s*(?:[eE][-+]?\d+|[x×*]\s*10\^\(?[-+]?\d+\)?))?"
                         r"\s*(?P<unit>[A-Za-zμΩ°%][A-Za-z0-9μΩ°/*^()\s-]{0,20}?)?\s*\.?\s*$")
# a value followed by a colon and words ("140 g: specific heat"): the words describe the value
_VALUE_THEN_WORDS = re.compile(r"[-+]?[\d.]+(?:[eE][-+]?\d+)?\s*[A-Za-zμΩ°/*^\d\s]{0,20}?(?::\s*|\(\s*)"
                               r"([A-Za-z][A-Za-z '-]+)")
# what a stated number is said to be: "15.2 pm, which is the product of ..."
_WHICH_IS = re.compile(r"\s*,?\s*which\s+(?:is|are|represents?|means?)\s+(?:the\s+|a\s+|an\s+)?([^,.;]+)",
                       re.IGNORECASE)
# "NAME-OR-WORDS: value [unit]" / "... = value [unit]" / "... is value [unit]": a quantity stated with a value
_NAMED_VALUE = re.compile(r"^(?P<head>[^=:\d]*?[A-Za-zα-ωΑ-Ωμ][^=:\d]*?)\s*(?::|=|\bis\b)\s*"
                          r"(?:[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]*\s*=\s*)?"
                          r"(?P<value>[-+]?(?:\d+\.?\d*|\.\d+)(?:\s*(?:[eE][-+]?\d+|[x×*]\s*10\^\(?[-+]?\d+\)?))?"
                          r"(?:\s*(?:1\s*/\s*)?[A-Za-zμΩ°%][A-Za-z0-9μΩ°/*^()\s-]{0,20}?)?)\s*\.?\s*$")
_NUMBERED_NAME_VALUE = re.compile(r"^\s*(?P<head>[A-Za-zα-ωΑ-Ω][A-Za-z_]*\d+[A-Za-z0-9_']*)\s*[=:]\s*"
                                  r"(?P<value>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:\s*[A-Za-zμΩ°][\w/*^()]*)?)\s*$")
_LAST_NAME = re.compile(r"[A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ']*(?=\s*$)")
_SYMBOL_LABEL = re.compile(r"\(\s*[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,4}\s*\)")
# letters that stand for one kind of quantity whatever the problem (a new name only; a problem's own
# symbols are read as the problem defines them): t a time, m a mass, v a speed, F a force
_CONVENTIONAL = {"t": ("time", ("s",)), "m": ("mass", ("kg",)), "v": ("speed", ("m/s",)), "F": ("force", ("N",))}


# a lone name as a given's letter (`hc`, `ohm`, `VAB`): one word of letters and digits, no operator or space
_LONE_NAME = re.compile(r"[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,9}")


def _conventional_dim(name: str) -> tuple[str, list[mp.Dim]] | None:
    m = re.fullmatch(r"([tmvF])(?:\d*|_\w*)", name)
    if not m:
        return None
    word, units = _CONVENTIONAL[m.group(1)]
    return word, [d for d in (mp.dim_of_unit(u) for u in units) if d is not None]
_WORD_OPERATORS = frozenset("times divided over plus minus multiplied squared cubed per by into of".split())


def _maths_prefix(text: str, names: dict[str, str]) -> str:
    """The leading run of a text that is maths (symbols, numbers, operators), up to the first word of
    three or more letters that is no symbol, function, unit or Greek name."""
    for m in re.finditer(r"[A-Za-z]{3,}", text):
        w = m.group(0)
        if w in names or w in mp.FUNCTIONS or w in mp.GREEK_NAMES or mp.unit_word(w) is not None:
            continue
        return text[:m.start()]
    return text
# universal constants by the symbol every textbook writes them with (SI values) and a statement setting one
_UNIVERSAL = {"G": 6.674e-11, "h": 6.626e-34, "c": 2.998e8, "N_A": 6.022e23, "NA": 6.022e23, "k_B": 1.381e-23,
              "kB": 1.381e-23}
_CONSTANT_SET = re.compile(r"(?<![\w.])(G|h|c|N_A|NA|k_B|kB)\s*=\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
                           r"(?:\s*/\s*\d+(?:\.\d+)?)?(?:\s*[A-Za-z][\w/*^]*)?)")
# words that make a phrase more than the name of a quantity ("the momentum transferred per second")
_NOT_PLAIN = frozenset("per rate squared cubed square root sum difference plus minus half twice double inverse "
                       "reciprocal product ratio fraction multiple change transferred gained lost added removed "
                       "divided multiplied over average mean maximum minimum initial final each every".split())
# words after "is" that qualify a relation instead of stating one ("is proportional to the voltage")
_QUALIFIED = re.compile(r"(?:directly\s+|inversely\s+)?proportional|related|a function|independent|constant|"
                        r"conserved|unchanged|the same|not\b|no\b|zero|equal and|given by|found|measured|defined|"
                        r"determined|calculated|written|expressed|known", re.IGNORECASE)
_PROSE_VERB = re.compile(r"\b(?:is equal to|is|are|equals|becomes)\b\s*(?:just\s+|simply\s+|given by\s+)?")
_NAME_THEN_LETTER = re.compile(r"\s*([A-Za-z]{3,})\s+([A-Za-zα-ωΑ-Ω](?:\d+|_\w+)?)\s*")  # "emf E", "Resistor R"
_FUNCTION_OF = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ωΑ-Ω]*)\s*\(\s*[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]*\s*\)\s*$")
_ENDS_WITH_NAME = re.compile(r"(?:^|[\s,:])[A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ']*\s*$")
_NAME_RE = re.compile(r"[A-Za-zα-ωΑ-Ωμ][A-Za-z0-9_α-ωΑ-Ωμ']*")
_NAMED_UNIT = re.compile(r"\bin\s+([A-Za-zμΩ][\w/*^.-]*)|\(([^()\s]*/[^()\s]*)\)")  # "(in m/s)", "(J/m^2)"
# description words too common to identify a target ("the magnitude of the ...", "the value of ...")
_GENERIC_STEMS = frozenset({"magni", "value", "quant", "final", "total", "requi", "unkno", "calcu", "deter",
                            "answe", "objec", "syste", "which", "what", "when", "where", "there", "their", "that",
                            "this", "with", "from", "into", "after", "befor", "given", "each"})


# description words that do not tell quantities apart
_DESC_GENERIC = frozenset({"magni", "value", "quant", "the", "of", "in", "at", "on", "to", "by", "for", "from",
                           "and", "one", "each", "its", "is", "as", "a", "an", "wit", "with"})


# quantity nouns and the unit of their kind, longest phrase first: the head noun of a given's words says what
# kind of quantity its value is meant to be (`_Checker.misnamed_kind`)
_KIND_NOUNS = tuple(sorted((
    ("molar mass", "kg/mol"), ("specific heat", "J/(kg*K)"), ("latent heat", "J/kg"), ("heat capacity", "J/K"),
    ("angular speed", "1/s"), ("angular velocity", "1/s"), ("angular frequency", "1/s"),
    ("angular acceleration", "1/s^2"), ("number of moles", "mol"), ("amount of gas", "mol"),
    ("potential difference", "V"), ("mass", "kg"), ("energy", "J"), ("power", "W"), ("speed", "m/s"),
    ("velocity", "m/s"), ("acceleration", "m/s^2"), ("temperature", "K"), ("length", "m"), ("distance", "m"),
    ("height", "m"), ("wavelength", "m"), ("radius", "m"), ("diameter", "m"), ("thickness", "m"), ("time", "s"),
    ("period", "s"), ("frequency", "1/s"), ("force", "N"), ("tension", "N"), ("charge", "C"), ("voltage", "V"),
    ("current", "A"), ("resistance", "ohm"), ("capacitance", "F"), ("pressure", "Pa"), ("volume", "m^3"),
    ("area", "m^2"), ("momentum", "kg*m/s"),
    # where a thing is, and the wave vector's inverse length (session 14; "angular" ones are angles)
    ("position", "m"), ("displacement", "m"), ("angular position", "rad"), ("angular displacement", "rad"),
    ("wavevector", "1/m"), ("wave vector", "1/m"), ("wavenumber", "1/m"), ("wave number", "1/m"),
    # a weight is a force (session 11); the chemists' molecular/atomic weight is a molar or particle mass
    ("weight", "N"), ("molecular weight", "kg/mol"), ("atomic weight", "kg/mol")), key=lambda kv: -len(kv[0])))
# a word after the noun that makes it another kind ("energy per photon", "charge density", "time constant")
_KIND_CHANGERS = frozenset("per density rate flux constant coefficient ratio factor number level gradient flow "
                           "function loss gain index fraction".split())
# ... or before it ("rate of heat", "coefficient of expansion")
_KIND_CHANGERS_BEFORE = re.compile(r"(?:rate|density|flux|coefficient|gradient|per|ratio|fraction|change)\s+(?:of\s+)?"
                                   r"(?:the\s+)?(?:unit\s+)?$")
# ... or a negation before it, with at most one word between: "(ideal, no internal resistance)" says what the object
# lacks, never what the value is (session 14, round 11's A24)
_NEGATED_BEFORE = re.compile(r"\b(?:no|zero|without|negligible|neglecting|neglected)\s+(?:[a-z-]+\s+)?$")
# a number standing alone (not an exponent of a unit: the 2 of "cm^2" or "m/s^2")
_LONE_NUMBER = re.compile(r"(?<![\w.^])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])|"
                          r"(?<![\w.^])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?=[A-Za-zμµΩ°])")
_TAG_LIKE = re.compile(r"</?\s*[A-Za-z_ ]+>?")


_TRAILING_GROUP = re.compile(r"\s\(([^()]*)\)\s*$")
_STATED_VALUE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:\s*[A-Za-zμµΩ°][\w/*^·()μµΩ°]*)?")


def drop_value_remark(clause: str, names: Sequence[str] = ()) -> str:
    """A given `x = <value> [unit] (<group>)` whose group is the problem's symbols ("h = 6.63e-34 J*s (h)",
    "(h/c)": `names`) or the value again ("T1 = 284 K (284 K)"): the group is a remark on the value, not a
    factor of it. A group of units ("1.6e-27 kg (J/s)") stays: a second unit is part of what is stated.
    Also a lone lower-case letter, a list label ("d1 = 13.1 cm (s)", "352 K (b)"), several such groups,
    one group written twice ("v = 20 V (emf) (emf)"), and a group naming the value's own unit again ("7.2 V
    (volt)", "521 K (K)": `symbolic_layouts.unit_echo`)."""
    clause = re.sub(r"(\([^()]*\))\s*\1\s*$", r"\1", clause)  # the same group twice: once
    clause = drop_unit_echo(clause)  # "E = 7.2 V (volt) (emf)": the unit named again, then the remark
    while True:
        kept = _drop_one_remark(clause, names)
        if kept == clause:
            return clause
        clause = kept


def _drop_one_remark(clause: str, names: Sequence[str]) -> str:
    m = _TRAILING_GROUP.search(clause)
    if not m or "=" not in clause[:m.start()]:
        return clause
    value = clause[:m.start()].rsplit("=", 1)[1].strip()
    if not _STATED_VALUE.fullmatch(value):
        return clause
    inner = m.group(1).strip()
    number = re.match(r"[-+]?(?:\d+\.?\d*|\.\d+)", value)
    symbols = re.findall(r"[A-Za-zα-ωΑ-Ω_]\w*", inner)
    if (re.fullmatch(r"[A-Za-zα-ωΑ-Ω_][\w/*^ α-ωΑ-Ω]*", inner) and all(mp.canonical_name(w) in names for w in symbols)) \
            or (number and inner.startswith(number.group(0))) or re.fullmatch(r"[a-z]", inner) \
            or (re.fullmatch(r"[A-Za-z]{3,}", inner) and mp.canonical_name(inner.lower()) in names):
        return clause[:m.start()]  # ... or a symbol's name spelled in another case ("λ = 620 nm (Lambda)")
    return clause


# a heading before a given's own statement: "Resistor (R): R = 71 kohm", "Capacitance: C = 7.5 uF"
# (the statement one symbol set to one value, not "Stefan-Boltzmann constant: F = emissivity * ... = 5.67e-8")
_HEADING = re.compile(r"^\s*([A-Za-z][A-Za-z '-]{2,40}?)\s*(?:\([^()=]*\))?\s*:\s*[A-Za-zα-ωΑ-Ω]\w{0,6}\s*=\s*"
                      r"[-+]?\.?\d[^=]*$")
# qualifiers that make another quantity of the same name ("initial" is not one: a constant acceleration's
# initial value is the value asked for, and labels accept it)
_UNGROUPED_DENOMINATOR = re.compile(r"/\s*([A-Za-zμΩ]+)\s*\*\s*([A-Za-zμΩ]+(?:\^\d+)?)")
_VARIANT_WORDS = frozenset({"minimum", "maximum", "final", "average"})
_PREFIX_LETTERS = frozenset({"u", "μ", "µ", "n", "p", "k", "M", "G"})


def _names_unit_of(word: str, dim: mp.Dim | None) -> bool:
    """Whether a written word ("moles", "volts", "kelvin") names a unit of dimension `dim` (not a pure
    number: "radians" or "percent" say nothing of a dimensionless quantity's meaning)."""
    if dim is None or not any(dim):
        return False
    word = "mol" if word.lower() in ("mole", "moles") else word  # the one unit name unit_word does not spell out
    for w in (word, word[:-1] if word.endswith("s") else ""):
        info = mp.unit_word(w) if w else None
        if info is not None and mp.same_dim(info.dim, dim):
            return True
    return False


# a remark holding its own number and unit: "(binding energy per nucleon 8.50 MeV)"
_REMARK_VALUE = re.compile(r"\([A-Za-z][A-Za-z '-]{2,60}\s((?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[A-Za-zμΩ°][\w/*^°]*)\s*\)")
# the object a description is of: "mass number of the first fragment" -> "the first fragment"
_OBJECT = re.compile(r"\bof\s+(the\s+[a-z][a-z ]*)$")
# a unit written after a number ("mol", "L", "m/s^2", "J/(mol*K)"): its own "/" and "*" are no operators
_UNIT_WORDS = re.compile(r"(?<=\d)\s*[A-Za-zμΩ°][\w°]*(?:\s*[/*]\s*\(?[A-Za-zμΩ°][\w°^]*\)?(?:\^-?\d+)?)*")


def _var_uses(node: mp.Node) -> list[str]:
    """The variables of an expression, once per occurrence."""
    if node[0] == "var":
        return [node[1]]
    return [v for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str) for v in _var_uses(a)]


def _plain_factor(node: mp.Node, name: str) -> bool:
    """Whether `name` is the expression itself or a factor of its top product (`h*f`, `2*m*f`), to the first
    power: then the expression's dimension is its dimension times the rest's."""
    if node == ("var", name):
        return True
    return node[0] == "mul" and any(_plain_factor(a, name) for a in node[1:3])


def _leaves(node: mp.Node) -> int:
    """How many values and symbols an expression combines (its leaves: numbers, quantities, variables)."""
    if node[0] in ("num", "qty", "var", "const"):
        return 1
    return sum(_leaves(a) for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str))


def _strip_tags(text: str) -> str:
    return _TAG_LIKE.sub(" ", text) if "<" in text else text


def _kind_noun(words: str) -> tuple[str, mp.Dim] | None:
    """The first quantity noun of `_KIND_NOUNS` in lower-case prose and its dimension, or None."""
    best: tuple[int, str, str] | None = None
    for phrase, unit in _KIND_NOUNS:
        for m in re.finditer(rf"\b{re.escape(phrase)}s?\b", words):
            after = re.match(r"\s*([a-z]+)", words[m.end():])
            if after and after.group(1) in _KIND_CHANGERS or _KIND_CHANGERS_BEFORE.search(words[:m.start()]) \
                    or _NEGATED_BEFORE.search(words[:m.start()]):
                continue
            if best is None or m.start() < best[0]:
                best = (m.start(), phrase, unit)
            break
    if best is None:
        return None
    dim = mp.dim_of_unit(best[2].replace("^", "**"))
    return (best[1], dim) if dim is not None else None


def _digits(value: float) -> str:
    """The three significant digits of a number (5.39e-4 and 5.39 -> "5.39")."""
    return f"{abs(value):.2e}".split("e")[0]


def option_digits(options: Sequence[str]) -> set[str]:
    """The significant digits of the numbers written in the answer options ("5.39e-4 N" -> {"5.39"})."""
    out = set()
    for opt in options or ():
        for m in re.finditer(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", str(opt)):
            try:
                value = float(m.group(0))
            except ValueError:
                continue
            if value:
                out.add(_digits(value))
    return out


def _strip_numbers(text: str) -> str:
    """Prose of a step: numbers, maths symbols and unit-like tokens dropped (short words are not stems)."""
    return re.sub(r"[-+]?\d[\d.,]*(?:[eE][-+]?\d+)?|[=*/^()_\\{}]", " ", text)


def _number_spans(text: str) -> list[tuple[float, set[str]]]:
    """Each number written in a text (the question) with the word stems around it: from the number before
    it, and after it up to the next number, the end of the sentence or an "of" (which starts the next
    value's words: "a 140 g metal block of specific heat 869 J/(kg*K)" gives 140 g "metal block" only;
    "until its volume is reduced by a factor of 4.6. It is then ..." gives 4.6 volume, reduc, facto)."""
    plain = mp.normalize(text or "")
    found = [(m.start(), m.end(), m.group(0)) for m in re.finditer(r"(?<![\w.^])\d+(?:\.\d*)?(?:e[-+]?\d+)?", plain)]
    out = []
    for k, (start, end, tok) in enumerate(found):
        before = plain[found[k - 1][1]:start] if k else plain[:start]
        after = plain[end:found[k + 1][0]] if k + 1 < len(found) else plain[end:]
        after = re.split(r"\bof\b|\.(?:\s|$)", after, maxsplit=1)[0]
        try:
            out.append((float(tok), _stems(before + " " + after)))
        except ValueError:
            continue
    return out


def _numbers_in(text: str) -> tuple[set[float], set[tuple[float, mp.Dim | None]]]:
    """The numbers written in a text (the question): (bare magnitudes, (SI value, dimension) of those
    with a unit). Exponents (`m/s^2`) are not numbers of the text."""
    bare: set[float] = set()
    si: set[tuple[float, mp.Dim | None]] = set()
    plain = mp.normalize(text or "")
    for m in re.finditer(r"(?<![\w.^])\d", plain):
        try:
            node, _used, _total = mp.parse_prefix(plain[m.start():m.start() + 80], mp.Names({}), True)
        except mp.ParseFail:
            continue
        if node[0] == "num":
            bare.add(node[1])
        elif node[0] == "qty":
            bare.add(node[1])
            si.add((node[1] * node[2], node[3]))
    return bare, si


def _replace_node(node: mp.Node, old: mp.Node, new: mp.Node) -> mp.Node:
    """`node` with the first occurrence (by identity) of `old` replaced by `new`."""
    done = [False]

    def go(n: mp.Node) -> mp.Node:
        if not done[0] and n is old:
            done[0] = True
            return new
        return (n[0], *[go(a) if isinstance(a, tuple) and a and isinstance(a[0], str) else a for a in n[1:]])

    return go(node)


def _stems(text: str) -> set[str]:
    """Word stems (the first 5 letters) of a text: "Newton's laws" -> {newto, laws}, "charged" and
    "charges" -> {charg}; crude, but it makes keyword matching tolerant of endings and word order."""
    t = text.lower().replace("’", "'").replace("'s", " ").replace("-", " ")
    words = {w.removesuffix("s") if len(w) > 3 and not w.endswith("ss") else w for w in re.findall(r"[a-z0-9]+", t)}
    return {w[:5] for w in words} - {"the", "of", "a", "an", "and"}


# words a small model uses for the same quantity (their 5-letter stems), read as one when matching meanings
_STEM_SYNONYMS = {"veloc": "speed", "speed": "speed", "temp": "tempe", "lengt": "lengt", "dista": "lengt",
                  "volta": "poten", "masse": "mass"}  # voltage: a potential difference; "masses"


# stems of the words that make a quantity one part of a vector (a general physics list: the direction of a
# component, or "component" itself); words without any of them name the whole quantity (`words_fit_alias`)
_PART_STEMS = frozenset({"verti", "horiz", "compo", "paral", "perpe", "norma", "tange", "radia", "axial"})


# first words of a remark about a value rather than a description of the quantity
_REMARK_OPENERS = frozenset("we use using used from as approx approximately approximate given taken take standard "
                            "usual assume assumed assuming since because note rounded exact exactly see".split())


def _stem_syn(stem: str) -> str:
    return _STEM_SYNONYMS.get(stem, stem)


def content_stems(text: str) -> set[str]:
    """The stems of a naming's content words, read through `_STEM_SYNONYMS`, without the generic ones ("value",
    "given", "the") and short ones: what a value-less naming says the quantity is."""
    return {_stem_syn(w) for w in _stems(text) - _DESC_GENERIC - _GENERIC_STEMS if len(w) > 2}


def naming_parts(plain: str) -> tuple[list[tuple[str, str]], list[str], str]:
    """A value-less naming (`V: the volume (in m^3)`, normalised) in parts: the units written with it (the
    `_NAMED_UNIT` groups), its letters, and its other words joined: one reading for `_Checker.named_with_words` and
    `symbolic_namings.value_less_naming`, so both see the same letters and words."""
    names = _NAME_RE.findall(_NAMED_UNIT.sub(" ", plain))
    letters = [w for w in names if mp.symbol_like(w)]
    return _NAMED_UNIT.findall(plain), letters, " ".join(w for w in names if w not in letters)


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
    return word in words and len(words) >= 2 and any(w.islower() for w in words)


# a value with its unit, alone ("81.0 ns") or at the end of the text before a bracket ("T = 8.10e-8 s")
_VALUE_UNIT = r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-zμΩ°][A-Za-z0-9μΩ°/*^]*)"
_LONE_VALUE = re.compile(rf"\s*{_VALUE_UNIT}\s*")
_ENDS_WITH_VALUE = re.compile(rf"(?<![\w.]){_VALUE_UNIT}\s*$")


# `mA = 9.52 kg moving at vA = 7.53 m/s` (session 13, round-10 class A1): a value with its unit, a few words in
# lower case, then a new letter and "=": two statements, the words ending the first (else the last value is read
# as a second value of mA)
_VALUE_WORDS_LETTER = re.compile(rf"((?<![\w.]){_VALUE_UNIT})\s+(?:[a-z]+\s+){{1,4}}(?=[A-Za-zα-ωΑ-Ω]\w{{0,9}}\s*=)")


def _restated_value(before: str, inner: str) -> bool:
    """`T = 8.10e-8 s (81.0 ns)` (session 13, round-10 class A21): a bracket holding only a value with a unit,
    right after a value with a unit of the same kind and the same size (within 1%), restates that value in
    another unit; it is a remark, not a factor (read as one, 8.10e-8 s x 81.0 ns is a wrong value)."""
    m, b = _LONE_VALUE.fullmatch(inner), _ENDS_WITH_VALUE.search(before)
    if not m or not b or m.group(2) == b.group(2):
        return False
    mine, theirs = mp.pint_unit(m.group(2).replace("^", "**")), mp.pint_unit(b.group(2).replace("^", "**"))
    if mine is None or theirs is None or not mp.same_dim(mine.dim, theirs.dim) or mp.same_dim(mine.dim, mp.DIMLESS):
        return False
    x, y = float(m.group(1)) * mine.factor, float(b.group(1)) * theirs.factor
    return y != 0 and abs(x - y) <= 0.01 * abs(y)


def _strip_remarks(text: str) -> str:
    """Drop parenthesised remarks: '(mass of the block)', '(from F = m a)', '(in N)', '(cos(phi) = vx/v)', and
    (session 13) a value restated in another unit, '8.10e-8 s (81.0 ns)' (`_restated_value`).
    Linear in the text's length (matching parentheses found with one stack), whatever the nesting."""
    match: dict[int, int] = {}
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            match[stack.pop()] = i
    out, i = [], 0
    while i < len(text):
        j = match.get(i) if text[i] == "(" else None
        if j is not None and (_is_remark(text[i + 1:j]) or _restated_value(text[:i], text[i + 1:j])):
            out.append(" ")
            i = j + 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def split_clauses(text: str) -> list[str]:
    """A step's text without remarks, split into clauses (see the module docstring)."""
    text = re.sub(r"\\[,;:! ]", " ", text)  # LaTeX spacing (3.69\,\mathrm{kg}) is not a comma
    text = _strip_remarks(text)
    depth, parts, cur = 0, [], []
    for i, ch in enumerate(text):  # a comma followed by a space (or the end) splits, outside parentheses
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(ch, 0)
        cur.append(ch)
        if ch == "," and depth == 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            parts.append("".join(cur[:-1]))
            cur = []
    parts.append("".join(cur))
    out = []
    for p in parts:
        p = _VALUE_WORDS_LETTER.sub(r"\1; ", p)
        out += [c for c in _CLAUSE_SPLIT.split(p) if c and c.strip()]
    # a clause without '=' that follows one with '=' is prose; keep only clauses with '='
    return [c.strip() for c in out if "=" in c or "≈" in c]
