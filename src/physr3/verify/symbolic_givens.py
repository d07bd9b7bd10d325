"""Given statements judged by their letter and by what the solution stated before: checks the walk in
`physr3.verify.symbolic` runs on every step in given position before the value checks of
`symbolic_checks`.

Round seven, from the fourth round of real solutions (benchmarks/data/real_solutions/round4_test.jsonl, tuning
data since session 7); each rule in one sentence, details in the named method:
- a letter that is no symbol of the problem and conventionally names quantities of other kinds than its
  value's unit is MC when the solution shows it knows better: the letter (with any index) held a value
  of its own kind before (`VAB3 = 219 kPa` after `VAB = 1.4 L`, `letter_two_kinds`), or the value is
  stated again under a letter of its kind (`V = 301 K`, then `T = 301 K`: MC at the first, `repeat`);
- a constant's letter the problem itself defines with a value ("Taking c = 3e8 m/s") written with a value that is
  not that one (`c = 2.04e8 m/s`, "the acceleration due to the lift (g) is 3.4 m/s^2") is MC
  (`defined_letter`);
- one letter written with two different values of one kind among the givens (`L = 1.3 m` after
  `L = 3.01 m and M = 22 kg`) is MC at the second (`two_values`, `clauses`);
- a given's words that name another quantity of its kind, by sentence embeddings, are MC (`meaning`, see
  `symbolic_meaning`);
- a remark after a given's value that is an expression of the problem's given symbols of another kind
  than the value (`h = 6.63e-34 J*s (h/c)`) is MC (`expression_symbol`);
- a given statement that repeats an earlier one word for word, stating its value more often than the
  problem does, is MC at the first repeat: the solution is looping over its givens (`repeat`; a
  reminder of a given inside a later computation is no given statement and is not judged here);
- an unchecked step blamed under `verifier.symbolic_unchecked=error` that writes a symbolic equation whose
  words describe a quantity of another dimension than its expression (`w = h/m (wavelength of the
  particle)`) is CM, a wrong equation being CM wherever it is written (`misdescribed_equation`).

Session eight, from the fifth round's misses (round5_test.jsonl, tuning data since session 8; classes of
analysis/round5_misses_session7_verifier.md):
- a value stated again (after unit conversion) under a new letter or index, beyond the record's givens of
  that value, is MC at the first repeat, as the settled rubric says (`relabelled`, R1);
- a letter of another kind than its value that the solution's givens also write for its own kind
  (`v = 2.96 us`, `v0 = 2.1 km/s`), or a Greek letter of one strong convention (`ω = 190 mH`), is MC
  (`letter_elsewhere`, B10); so is one the problem's own formula uses ("I = 0.5 M R^2": `R = 15 deg`,
  `formula_letter`, B11);
- an answer option's value that is no value of the record, stated as a given, is MC (`option_value`, B13);
- the target, by its record symbol and without a value, listed among the givens is MC (`target_listed`, B14);
- a change ("temperature rise") called by the bare name of what changes ("27.2 K (temperature)"), or a
  temperature that is no state of a process (a reservoir's) called initial or final, is MC (`modifier`, B1);
- a remark that is only a unit of another kind than the value's ("(h in m/s)", not a lone letter) is MC
  (`unit_remark`, B5).

Session nine, from the sixth round's misses (round6_test.jsonl, tuning data since session 9; classes of
analysis/round6_misses_session8_verifier.md; the line readers are in `symbolic_given_forms`):
- a first repeat is also one letter with words added (`lens focal length (f): 22 cm`, `repeat`), a tuple
  restating an earlier tuple's values under new letters (`clauses`), and a prose line with one value an earlier
  prose line of several values stated (`prose_repeat`) (R1);
- a lone-letter remark of another kind is MC when the same solution writes it as a unit after a value of its
  kind ("257 g of ice (K)" beside "240 K (K)", `unit_remark`, B5);
- a letter of the problem's formula that is no record symbol holding another given's value (`R = 5.66 m` for
  the distance where "I = 1 M R^2", `formula_letter`), and a given's own letter without words holding another
  given's value (`R = 1030 km` for the height, `other_given`), are MC (B11); so is, in a <find> section, a letter
  the problem defines with another value (`misdefined`, called from the walk);
- a letter spelled as a product of the problem's given symbols with a value of another kind (`hc = 3e8 m/s`),
  also in a tuple paired in order (`h, hc, hf = ...`), is MC (`product_letter`, B10);
- a given's letter with the value the problem writes for it at another instant ("at t = 0" for t = 82 ms), when
  the solution's givens never state its value, is MC (`other_instant`, B17);
- a remark whose head noun names a quantity of another kind than the value ("(the charge carrier speed)" for e)
  is MC (`remark_kind`, B2).

Session ten, from the late misses at given steps on all eight tuning sets (round-7 classes B11 and B23 of
analysis/round7_misses_session9_verifier.md, and the same causes in round 4):
- a record given's own letter holding another given's value with a counting word that names that other given,
  not the letter's own ("N = 33 protons" where N is the number of neutrons and Z = 33 the number of protons),
  is MC (`counted_other`, B11);
- a given's letter that is itself a unit symbol, no symbol of the problem, called by the name of a unit of its
  kind (`K (kelvin) = 293 K`), sets a unit equal to a value and is MC (`unit_letter`, B23).

Session eleven, from the late misses on model-written solutions of all ten tuning sets (round-8 class B24 of
analysis/round8_misses_session10_verifier.md and the same cause in test, level 1 and rounds 3 and 7):
- a heading before the letter ("Wavelength: λ = 492 nm", "Resistor R = 16 ohm"), and words in parentheses between
  the letter and its value ("V (speed of sound): 331 m/s"), are read as the statement's words (`read_statement`), so
  every check of a statement reaches such lines;
- the same letter with the same value, written again with words dropped or added where either line has none
  (`λ = 492 nm` after `Wavelength: λ = 492 nm`, `C = 299 uF (in Farads)` after `C = 299 uF`), is a first repeat,
  MC (`repeat`), and so is one statement of a line of several that an earlier given stated under the same letter
  (`v = 16 kV, R = 1.4 T` after `m = 8.68 u, q = 2e, v = 16 kV, R = 1.4 T`, `part_repeat`).

Session twelve, from the late misses on model-written solutions of all eleven tuning sets (round-9 classes B28 and
B24 of analysis/round9_misses_session11_verifier.md, and the same causes in rounds 4 and 8):
- every number a given step states must be a quantity of the problem, a constant, a number of the question or a
  value it implies, its remarks included ("(x = 0.12 m)", "(V = 12.1 V)", "(37.8 deg)"; `remark_value`, called
  from the walk once the step's own checks pass), a value in degrees being an angle and never a pure ratio;
- the number 1 under a letter that is no symbol of the problem and conventionally names only quantities with a
  unit (`T = 1 minute`, `L = 1`) is invented: the constant 1 is a pure number (`invented_one`);
- a given line of one value whose words and letters are none or some of an earlier given line's of that one value
  (`(1.2e-5 1/K)`, "wavelength: 624 nm" after "laser emission wavelength: 624 nm") is a first repeat
  (`echo`), the session-11 rule for lines without a letter.

Session thirteen (RUBRIC.md, "Stating a given", settled then): letters are the author's notation, so a given is
never failed for its letter alone. Removed: `letter_two_kinds`, `letter_elsewhere` (with the strict Greek letters),
`formula_letter`, `product_letter`, `unit_letter` and the letter-kind branch of `repeat` (`V = 301 K` then `T = 301
K` is now a first repeat at the second line, `relabelled`). Kept: a given's own letter holding another given's value
of its kind (`other_given`, `counted_other`), values, units and words. The items whose old labels blamed such a
letter are listed in benchmarks/data/real_solutions/analysis/letter_rule_affected.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from physr3 import quantity as mp
from physr3.verify import symbolic_given_forms as forms
from physr3.verify.symbolic_checks import Finding, _stems
from physr3.verify.symbolic_meaning import WordsMatcher, lost_change, lost_state, one_value
from physr3.verify.symbolic_objects import ObjectWords

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_SYMBOL = r"[A-Za-zα-ωΑ-Ωλ][A-Za-z0-9_]{0,9}"
# a unit: letters and the signs of a compound unit, up to a space, a remark or the end
_UNIT = r"(?:[A-Za-zμΩ°][A-Za-z0-9μΩ°/*^.()\-]*)?"
# "X = 2.0 kg ...", "X: 2.0 kg"
_LETTER_FIRST = re.compile(rf"^\s*(?P<sym>{_SYMBOL})\s*[=:]\s*(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})(?P<rest>.*)$")
# "The acceleration of the lift (g) is 3.4 m/s^2.", "Mass (m) = 2 kg", "Mass (m): 2 kg"
_WORDS_LETTER = re.compile(rf"^\s*(?P<words>[A-Za-z][A-Za-z ,'-]{{0,80}}?)\s*\(\s*(?P<sym>{_SYMBOL})\s*\)\s*"
                           rf"(?:=|:|is|equals)\s*(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})(?P<rest>.*)$")
# "V (speed of sound): 331 m/s", "T (temperature) = 273 K" (session 11): the letter, its words, then its value
_LETTER_WORDS = re.compile(rf"^\s*(?P<sym>{_SYMBOL})\s*\(\s*(?P<words>[A-Za-z][A-Za-z ,'-]{{0,80}}?)\s*\)\s*[=:]\s*"
                           rf"(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})(?P<rest>.*)$")
# "Wavelength: λ = 492 nm", "Resistor R = 16 ohm" (session 11): a heading, then the letter and its value
_HEADING_LETTER = re.compile(rf"^\s*(?P<words>[A-Za-z][A-Za-z ,'-]{{0,80}}?)(?:\s*:\s*|\s+)(?P<sym>{_SYMBOL})\s*=\s*"
                             rf"(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})(?P<rest>.*)$")
# a bare value "7.29 cm" (a given line with no name)
_BARE = re.compile(rf"^\s*(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})\s*[.;]?\s*$")
# the problem defining a letter with a value: "Taking g = 9.8 m/s^2", "c = 3e8 m/s"
_DEFINED = re.compile(rf"(?<![\w.])(?P<sym>{_SYMBOL})\s*=\s*(?P<num>{_NUMBER})\s*(?P<unit>{_UNIT})")
# a remark that is only a unit, or "h in m/s"
_REMARK_UNIT = re.compile(r"\(\s*(?P<in>[A-Za-z]\w{0,3}\s+in\s+)?(?P<unit>[A-Za-zμΩ°][A-Za-z0-9μΩ°/*^]*)\s*\)")
# a symbol named without a value: "F: force", "F (force on the wall)"
_NAMED_ONLY = re.compile(rf"^\s*(?P<sym>{_SYMBOL})\s*(?::|\(|,|-)\s*[A-Za-z][A-Za-z ,'-]*\)?\s*[.;]?\s*$")
_TAGS = re.compile(r"<\s*/?\s*[a-z_]+\s*>?", re.IGNORECASE)

# letters that stand for quantities of a few kinds whatever the problem (the units of those kinds); a
# letter that is a symbol of the problem is read as the problem defines it and is not judged here
_LETTER_KINDS: dict[str, tuple[str, ...]] = {
    "t": ("s",), "m": ("kg",), "v": ("m/s",), "u": ("m/s",), "F": ("N",),
    "V": ("m^3", "V"), "T": ("K", "N", "s"), "L": ("m", "H", "kg*m^2/s"), "R": ("ohm", "m", "J/(mol*K)"),
    "P": ("Pa", "W"), "p": ("Pa", "kg*m/s"), "E": ("J", "V/m", "Pa", "V"), "I": ("A", "W/m^2", "kg*m^2", "N*s"),
    "C": ("F", "J/K", "J/(kg*K)", "J/(mol*K)"), "f": ("Hz", "m"), "Q": ("C", "J"), "q": ("C", "J"),
    "B": ("T",), "g": ("m/s^2",), "a": ("m/s^2",), "h": ("m", "J*s"), "d": ("m",), "x": ("m",), "y": ("m",),
    "l": ("m",), "r": ("m",), "W": ("J", "N"), "U": ("J",), "A": ("m^2",), "c": ("m/s", "J/(kg*K)"),
    "λ": ("m", "1/s", "W/(m*K)"), "lambda": ("m", "1/s", "W/(m*K)"), "N": ("", "mol", "N"), "n": ("", "mol"),
    "ω": ("rad/s",), "omega": ("rad/s",),
}
# a letter with an index: digits, "_anything", or capitals naming states or points ("VAB3", "PAB")
_INDEXED = re.compile(r"(?P<base>lambda|λ|omega|ω|[A-Za-z])(?:\d+|_\w+|[A-Z]{1,3}\d*)?")
_REL = 0.02  # two values of one quantity differ by more than this (the verifier's value_rel)


@dataclass(frozen=True)
class Statement:
    """One value stated in a given step: its letter (or None), the number as written, its unit (as
    written), its SI value and dimension (None when the unit is not understood)."""

    letter: str | None
    number: float
    unit: str
    si: float
    dim: mp.Dim | None
    text: str


def _unit_info(unit: str) -> tuple[str, float, mp.Dim | None]:
    """The unit as written (trailing punctuation and an unbalanced ')' cut off), its SI factor and
    dimension; factor 1 and no dimension when it is not understood (a word such as "protons")."""
    unit = unit.rstrip(".,;:")
    while unit.endswith(")") and unit.count(")") > unit.count("("):
        unit = unit[:-1]
    if not unit:
        return "", 1.0, mp.DIMLESS
    info = mp.pint_unit(unit.replace("^", "**"))
    if info is None:
        return unit, 1.0, None
    return unit, info.factor, info.dim


def read_statement(text: str) -> Statement | None:
    """The one value a given line states, with its letter: "X = 2 kg (remark)", "words (X) is 2 kg", "Words: X
    = 2 kg", "X (words): 2 kg", or a bare "2 kg"; None for anything else (several values, prose, an expression)."""
    line = _TAGS.sub(" ", text).strip()
    m = _WORDS_LETTER.match(line) or _LETTER_FIRST.match(line) or _HEADING_LETTER.match(line) or \
        _LETTER_WORDS.match(line) or _BARE.match(line)
    if m is None:
        return None
    rest = m.groupdict().get("rest") or ""
    if re.search(_NUMBER, re.sub(r"\([^()]*\)", " ", rest)) and re.search(r"[=*/+]|\d", rest.split("(")[0]):
        return None  # "X = 2 kg * 3 m": an expression, not one stated value
    unit, factor, dim = _unit_info(m.group("unit"))
    try:
        number = float(m.group("num"))
    except ValueError:
        return None
    return Statement(m.groupdict().get("sym"), number, unit, number * factor, dim, line)


def _close(a: float, b: float, rel: float = _REL) -> bool:
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def _same_kind(a: mp.Dim | None, b: mp.Dim | None) -> bool:
    return a is None or b is None or mp.same_dim(a, b)


class GivenStatements:
    """The given statements of one solution, in the order written, and the checks of round seven on a
    new one (see the module docstring)."""

    def __init__(self, gt, question: str = "", options=()):
        self.gt = gt
        self.question = question or ""
        self.seen: list[tuple[int, Statement]] = []  # (step index, statement) of the passing given steps
        self.last: Finding | None = None  # the failure `check` returned last
        self.parts: list[Statement] = []  # statements of lines with several (for `two_values` only)
        self.given_texts: list[str] = []  # all the solution's given steps, later ones included (`foresee`)
        self.unit_remarks: set[str] = set()  # "(K)" written after a value of its own unit's kind (`foresee`)
        self.prose_values: list[list[tuple[float, mp.Dim]]] = []  # the values of each passing prose given line
        self.lines: list[tuple[set[str], list[tuple[float, mp.Dim | None]]]] = []  # words and values of each passing line
        self.unit_lines: list[list[tuple[float, mp.Dim]]] = []  # the values with a unit of each passing line (`restated`)
        self.options = [o for o in map(read_statement, map(str, options or ())) if o is not None and o.dim is not None]
        self.symbols = set(gt.units) | set(gt.names)
        # a constant ("Taking c = 3e8 m/s"), or a given written with its letter and its own value ("a resistor R1 =
        # 9.8 ohm"; not "at t = 0" for the time t = 210 ms)
        written = self._defined(self.question)
        self.defined = {k: v for k, v in written.items()
                        if k in gt.fixed or (k in gt.givens and _close(v.si, gt.instances[0].get(k, float("nan"))))}
        # a given's letter the problem writes with another value ("switched on at t = 0" for t = 82 ms): a condition
        self.conditions = {k: v for k, v in written.items() if k in gt.givens and k not in self.defined}
        self.words = WordsMatcher(gt)
        self.objects = ObjectWords(gt, question)  # session 9: objects, processes and remarks (`symbolic_objects`)
        self.question_numbers = [float(x) for x in re.findall(rf"(?<![\w.]){_NUMBER}", self.question)
                                 if _is_float(x)]

    @staticmethod
    def _defined(question: str) -> dict[str, Statement]:
        """Letters the problem defines with a value ("Taking c = 3e8 m/s"): letter -> that value."""
        out: dict[str, Statement] = {}
        for m in _DEFINED.finditer(question):
            unit, factor, dim = _unit_info(m.group("unit"))
            if not unit and re.match(r"\s*/\s*\d", question[m.end():]):
                continue  # "gamma = 5/3": a fraction, whose value is not its numerator
            if _is_float(m.group("num")):
                number = float(m.group("num"))
                out.setdefault(m.group("sym"), Statement(m.group("sym"), number, unit, number * factor, dim, m.group(0)))
        return out

    def check(self, text: str, i: int) -> Finding | None:
        """The first round-seven failure of step `i` in given position, else None (and the statement is
        remembered for the steps after it)."""
        s = read_statement(text)
        self.last = self.unit_remark(text) or self.objects.given(text)
        if self.last is not None:
            return self.last
        if s is None:
            self.last = self.target_listed(text) or self.meaning(text) or self.clauses(text, i) or \
                self.prose_repeat(text) or self.echo(text) or self.restated(text) or self.gravity_owner(text)
            if self.last is None:
                self.prose_values.append(_values(text))
                self.lines.append(_worded_values(text))
                self.unit_lines.append(_stated_values(text))
            return self.last
        finding = self.defined_letter(s) or self.other_instant(s) or self.other_given(s) or self.counted_other(s) or \
            self.two_values(s) or self.expression_symbol(s) or self.repeat(s) or self.relabelled(s) or self.option_value(s) or \
            self.invented_one(s) or self.echo(text) or self.meaning(text) or self.remark_kind(text) or self.restated(text) or \
            self.gravity_owner(text)
        self.last = finding
        if finding is None:
            self.seen.append((i, s))
            self.lines.append(_worded_values(text))
            self.unit_lines.append(_stated_values(text))
        return finding

    def invented_one(self, s: Statement) -> Finding | None:
        """`T = 1 minute`, `L = 1 (length of the string in meters)`: the number 1 under a letter that is no symbol
        of the problem and conventionally names only quantities with a unit, where neither the problem nor its
        givens have that value, is an invented given. The constant 1 (n = 1 for air, a first order, `N = 1`) is a
        pure number, so a letter that may name a count or an index (`_LETTER_KINDS` with "") is left alone."""
        if not s.letter or s.number != 1 or not re.search(r"(?<![\w.])1(?![\w.])", s.text) or \
                self._problem_symbol(s.letter):
            return None  # "1.00" is written as a measured value, not as the number one
        m = _INDEXED.fullmatch(s.letter)
        kinds = _LETTER_KINDS.get(m.group("base")) if m else None
        if kinds is None or "" in kinds or any(_close(x, 1.0, 1e-9) for x in self.question_numbers):
            return None
        if any(_close(float(g["value"]), s.number) or _close(self.gt.instances[0].get(k, float("nan")), s.si)
               for k, g in self.gt.givens.items()):
            return None  # a given of the problem that is 1 (in its own or in SI units)
        return Finding(0, "fail", "MC", f"states {s.letter} = 1{' ' + s.unit if s.unit else ''}, which is no quantity "
                       f"of the problem (the constant 1 is a pure number, and {s.letter} names a quantity with a "
                       "unit): an invented given.", info={"check": "given_unmatched", "symbol": s.letter})

    def letter_fits(self, letter: str | None, dim: mp.Dim | None) -> bool | None:
        """Whether a value of dimension `dim` fits what `letter` conventionally names (a letter of the
        problem also what the problem names by it and by its letter with an index); None: not known."""
        if not letter or dim is None:
            return None
        m = _INDEXED.fullmatch(letter)
        kinds = _LETTER_KINDS.get(m.group("base")) if m else None
        if kinds is None or self._problem_symbol(letter):
            return None
        dims = [_unit_info(u)[2] for u in kinds]
        dims += [d for sym, d in self.gt.dims.items() if sym[:1] == m.group("base")[:1] and d is not None]
        return any(d is not None and mp.same_dim(d, dim) for d in dims)

    def unit_remark(self, text: str) -> Finding | None:
        """`h = 6.63e-34 J*s (h in m/s)`, `2.2 kg (m/s)`: a remark after a given's one value that is only a
        unit (or "X in UNIT") of another kind than the value's: the value is given a second, wrong unit. A
        remark that is a symbol of the problem, or a letter conventionally naming the value's kind ("300 K
        (T)"), is a name, not a unit; a lone letter ("395 g of ice (K)") is judged only when the same solution
        writes it as a unit, after a value of its kind ("240 K (K)", session 9): "(s)", "(C)" are as often
        list labels (the labels read the lone "(K)" both ways, r4-054 accepting what r5-028 and r6-126 blame)."""
        value = one_value(_TAGS.sub(" ", text))
        if value is None or not value[1]:
            return None
        _, _, dim = _unit_info(value[1])
        after = _TAGS.sub(" ", text).split(value[1], 1)[-1]
        for m in _REMARK_UNIT.finditer(after):
            said = m.group("unit")
            if len(said) < 2 and not m.group("in") and said not in self.unit_remarks:
                continue  # "(K)", "(s)", "(C)": as often a letter or a list label, unless used as a unit
            if all(self._problem_symbol(w) for w in re.findall(r"[A-Za-z]\w*", said)):
                continue  # "(h/c)": the problem's symbols (`expression_symbol`), not units
            unit, _, other = _unit_info(said)
            if dim is None or other is None or mp.same_dim(other, mp.DIMLESS) or mp.same_dim(other, dim) or \
                    self._problem_symbol(said) or self.letter_fits(said, dim) is not False and said in _LETTER_KINDS:
                continue
            return Finding(0, "fail", "MC", f"writes {value[0]:g} {value[1]} and then \"{m.group(0).strip()}\", a unit of "
                           f"another kind: the value's unit is misread.", info={"check": "given_unit_remark"})
        return None

    def target_listed(self, text: str) -> Finding | None:
        """`F: force` in <given>: the quantity asked for, by its own symbol in the record and without a value,
        listed among the givens (prose that lists it is judged in `symbolic_checks`)."""
        m = _NAMED_ONLY.match(_TAGS.sub(" ", text))
        target = self.gt.target
        if m is None or not target or target in self.gt.givens or \
                mp.canonical_name(m.group("sym")) != mp.canonical_name(target):
            return None
        return Finding(0, "fail", "MC", f"lists {m.group('sym')}, the quantity to be found, among the givens.",
                       info={"check": "given_unknown", "symbol": target})

    def foresee(self, texts: list[str]) -> None:
        """Remember the solution's given steps (all of them, later ones included) and the lone letters they
        write as a unit after a value of its kind (`unit_remark`)."""
        self.given_texts = [_TAGS.sub(" ", t) for t in texts]
        for text in self.given_texts:
            value = one_value(text)
            for m in _REMARK_UNIT.finditer(text.split(value[1], 1)[-1] if value and value[1] else ""):
                said, dim = m.group("unit"), _unit_info(value[1])[2]
                other = _unit_info(said)[2]
                if len(said) == 1 and dim is not None and other is not None and mp.same_dim(dim, other) and \
                        not mp.same_dim(dim, mp.DIMLESS):
                    self.unit_remarks.add(said)  # "240 K (K)": the solution writes "(K)" as a unit

    def other_instant(self, s: Statement) -> Finding | None:
        """`t = 0 (time)` where the problem switches the circuit on "at t = 0" and asks about t = 82 ms (session
        9, B17): a given's own letter with the value the problem writes for it at another instant, while the
        solution's givens never state the given's value (`T = 17 ms` beside it makes `t = 0` the start)."""
        cond = self.conditions.get(s.letter or "")
        if cond is None or not _close(cond.number, s.number, 1e-9) or not _same_kind(s.dim, cond.dim):
            return None
        own = self.gt.instances[0].get(s.letter)
        dim = self.gt.dims.get(s.letter)
        if not isinstance(own, float) or any(_close(v, own, 0.005) and _same_kind(d, dim)
                                             for t in self.given_texts for v, d in _values(t)):
            return None
        return Finding(0, "fail", "MC", f"writes {s.letter} = {s.number:g} {s.unit}".rstrip() + f", the value the problem "
                       f"gives {s.letter} at another instant; {s.letter} is the "
                       f"{self.gt.descriptions.get(s.letter, s.letter)}, not stated.",
                       info={"check": "given_other_instant", "symbol": s.letter})

    def other_given(self, s: Statement) -> Finding | None:
        """`R = 1030 km` where the record's R is the Earth's radius and 1030 km the height h (session 9, B11): a
        given's own letter, without words, holding another given's value of its kind."""
        if not s.letter or s.letter not in self.gt.givens or s.dim is None or _has_words(s):
            return None
        own = self.gt.instances[0].get(s.letter)
        if not isinstance(own, float) or _close(own, s.si) or not _same_kind(s.dim, self.gt.dims.get(s.letter)):
            return None
        other = [g for g in self.gt.givens if g != s.letter and _same_kind(s.dim, self.gt.dims.get(g))
                 and _close(self.gt.instances[0].get(g, float("nan")), s.si, 0.005)]
        if len(other) != 1:
            return None
        return self._value_of_other(s, other[0])

    def counted_other(self, s: Statement) -> Finding | None:
        """`N = 33 protons` where the record's N is the number of neutrons and Z = 33 the number of protons
        (session 10, B11): a given's own letter with another given's value and a counting word (the "unit",
        which pint does not read) that names that other given in the record's descriptions, not the letter's."""
        if not s.letter or s.letter not in self.gt.givens or s.dim is not None or not re.fullmatch(r"[A-Za-z]{3,}", s.unit):
            return None
        word = _stems(s.unit)  # the word stems every description match uses ("protons" -> proto)
        own = _stems(self.gt.descriptions.get(s.letter, ""))
        named = [g for g in self.gt.givens if g != s.letter and word & _stems(self.gt.descriptions.get(g, ""))]
        if not word or word & own or len(named) != 1 or not _close(self.gt.instances[0].get(named[0], float("nan")), s.si, 0.005):
            return None
        return self._value_of_other(s, named[0])

    def _value_of_other(self, s: Statement, other: str) -> Finding:
        """The finding for a given's own letter holding the value of the record's `other` given."""
        return Finding(0, "fail", "MC", f"writes {s.letter} = {s.number:g} {s.unit}, the value of {other} "
                       f"({self.gt.descriptions.get(other, '')}); {s.letter} is the "
                       f"{self.gt.descriptions.get(s.letter, s.letter)}.",
                       info={"check": "given_letter_kind", "symbol": s.letter})

    def remark_kind(self, text: str) -> Finding | None:
        """`e = 1.6e-19 C (the charge carrier speed)` (session 9, B2): a given line's one value, the value of
        one given, with a remark whose head noun names a quantity of another kind (`forms.remark_head`); the
        remark is read as the value's meaning, not as a unit (`unit_remark`)."""
        plain = _TAGS.sub(" ", text)
        value = one_value(plain)
        if value is None or not value[1]:
            return None
        _, factor, dim = _unit_info(value[1])
        if dim is None or not [g for g in self.gt.givens if _same_kind(dim, self.gt.dims.get(g))
                               and _close(self.gt.instances[0].get(g, float("nan")), value[0] * factor, 0.005)]:
            return None
        for remark in re.findall(r"\(\s*([^()]*?)\s*\)", plain.split(value[1], 1)[-1]):
            head = forms.remark_head(remark)
            if head is not None and not mp.same_dim(head[1], dim):
                return Finding(0, "fail", "MC", f"calls {value[0]:g} {value[1]} \"{remark}\", a {head[0]}: a quantity "
                               f"of another kind than the value.", info={"check": "given_words"})
        return None

    def misdefined(self, text: str) -> Finding | None:
        """`Internal resistance (R1) = 1.7 ohm` in a <find> section where the problem writes "R1 = 13 ohm"
        (session 9, B11): the `defined_letter` check on a given statement written in the wrong section."""
        s = read_statement(text)
        return self.defined_letter(s) if s is not None else None

    def prose_repeat(self, text: str) -> Finding | None:
        """"Point A is 33 cm from P." after "P is 33 cm from A and 40 cm from B." (session 9, R1): a prose line
        with one value that an earlier prose line of several values already stated, more often than the problem
        writes it, is MC at the first repeat."""
        value = one_value(text)
        if value is None or not value[1] or read_statement(text) is not None:
            return None
        _, factor, dim = _unit_info(value[1])
        if dim is None or mp.same_dim(dim, mp.DIMLESS):
            return None
        si = value[0] * factor
        before = sum(1 for line in self.prose_values if len(line) > 1 for v, d in line
                     if _close(v, si, 1e-9) and mp.same_dim(d, dim))
        allowed = max(1, sum(1 for x in self.question_numbers if _close(x, value[0], 1e-9)))
        if before < allowed:
            return None
        return Finding(0, "fail", "MC", f"states {value[0]:g} {value[1]} again, after a line that stated it with "
                       f"other values: the givens are repeated, not used.", info={"check": "given_repeat"})

    def echo(self, text: str) -> Finding | None:
        """`(1.2e-5 1/K)` after "Coefficient of linear expansion: 1.2e-5 1/K", "wavelength: 624 nm" after "laser
        emission wavelength: 624 nm", "23 cm (23 cm)" after "PA perpendicular to PB (23 cm)" (session 12, round-9
        class B24): a given line of one value whose words and letters are none or some of an earlier given line's
        of that one value restates it with words dropped, a first repeat (R1) when the problem writes the value
        fewer times. The session-11 rule reads the same case when both lines have one letter (`repeat`); a line of
        several values restated in part is `part_repeat`'s and `prose_repeat`'s case."""
        words, values = _worded_values(text)
        if len(values) != 1:
            return None
        si, dim = values[0]
        before = [w for w, vals in self.lines if len(vals) == 1 and any(
            _close(v, si, 1e-9) and (d is None) == (dim is None) and _same_kind(d, dim) for v, d in vals)]
        written = float(_VALUE_UNIT.search(_TAGS.sub(" ", text)).group("num"))
        allowed = max(1, sum(1 for x in self.question_numbers if _close(x, written, 1e-9)))
        if len(before) < allowed or not any(words <= w for w in before):
            return None
        return Finding(0, "fail", "MC", f"states {_TAGS.sub(' ', text).strip()[:40]} again, with words of an earlier "
                       "given line dropped: the givens are repeated, not used.", info={"check": "given_repeat"})

    def restated(self, text: str) -> Finding | None:
        """`L = 62.3 cm` after a bare `62.3 cm`, `m = initial block mass (5.9 kg)` after `F = mass (5.9 kg)`, `T2: T2 =
        1.6 cm` after `T1: T1 = 1.6 cm`, `θ = 30 deg` after a line of several values that gave it (session 15, rounds
        12 to 15): a given line of one value with a unit, stated by earlier given lines (in any layout) as often as
        the problem has quantities of that value, states it again: the first repeat (RUBRIC.md, repeated step), MC.
        `repeat`, `relabelled` and `echo` read the layouts where both lines are alike; this one reads the rest."""
        values = _stated_values(text)
        if len(values) != 1 or _RELATION.search(_TAGS.sub(" ", text)):
            return None  # `n2c = n2/m1 (... 8.59 MeV)`: a relation, whose remark's value is not what it states
        si, dim = values[0]
        before = sum(1 for line in self.unit_lines if any(_close(v, si, 1e-6) and mp.same_dim(d, dim) for v, d in line))
        if not before or before < self._value_count(si, dim, text):
            return None
        return Finding(0, "fail", "MC", f"states {_TAGS.sub(' ', text).strip()[:40]} again, a value an earlier given "
                       "line already stated: the givens are repeated, not used.", info={"check": "given_repeat"})

    def gravity_owner(self, text: str) -> Finding | None:
        """`g = 9.8 m/s^2 (the acceleration of the pendulum)`, "The acceleration of the pendulum (G) is g, which is 9.8
        m/s^2", `g = 9.8 m/s^2 (constant acceleration due to the initial force)` (session 15, rounds 12 to 16): the
        value of the record's gravitational acceleration, the only given of its value and kind, called "due to" a
        cause, or "the acceleration of" a body where the problem gives another acceleration (a lift's: the body's is
        then not g), with no word of gravity in the line, gives it another owner, MC. A projectile's "acceleration
        of the stone" is g (round 6's r6-056 accepts it), so a body's acceleration alone is no error."""
        plain = _TAGS.sub(" ", text)
        values = _unit_values(plain)
        if len(values) != 1 or _GRAVITY_WORDS.search(plain) or not _OWNED_ACCELERATION.search(plain):
            return None
        si, dim = values[0]
        own = [g for g in self.gt.givens if _close(self.gt.instances[0].get(g, float("nan")), si, 0.005)
               and _same_kind(dim, self.gt.dims.get(g))]
        if len(own) != 1 or not _GRAVITY_WORDS.search(self.gt.descriptions.get(own[0], "")):
            return None
        said = _OWNED_ACCELERATION.search(plain).group(0)
        if not re.search(r"due\s+to", said, re.IGNORECASE) and not any(
                g != own[0] and _same_kind(dim, self.gt.dims.get(g)) for g in self.gt.givens):
            return None  # "the acceleration of the stone" in free fall is g: only another given acceleration says not
        return Finding(0, "fail", "MC", f"calls {self.gt.descriptions.get(own[0])} ({own[0]}) \"{said}\": the value "
                       "is given another owner.", info={"check": "given_words", "symbol": own[0]})

    def _value_count(self, si: float, dim: mp.Dim, text: str) -> int:
        """How many quantities a value with a unit may stand for: the record's givens of its kind with that
        value or the times the problem writes the number as `text` writes it ("+16 nC ... 16 cm from A": two),
        whichever is more (at least one)."""
        record = sum(1 for g in self.gt.givens if _close(self.gt.instances[0].get(g, float("nan")), si, 1e-6)
                     and _same_kind(dim, self.gt.dims.get(g)))
        m = _VALUE_UNIT.search(_TAGS.sub(" ", text))
        written = float(m.group("num")) if m and _is_float(m.group("num")) else float("nan")
        return max(1, record, sum(1 for x in self.question_numbers if _close(x, written, 1e-9)))

    def option_value(self, s: Statement) -> Finding | None:
        """`V = 617 K` where an answer option is 617 K: an option's value, no value of the record (given or
        computed, within 0.5%), stated as a given invents data from the answers."""
        if s.dim is None or not any(mp.same_dim(o.dim, s.dim) and _close(o.si, s.si, 1e-6) for o in self.options):
            return None
        if any(_close(v, s.si, 0.005) for v in self.gt.instances[0].values() if isinstance(v, float)):
            return None
        return Finding(0, "fail", "MC", f"states {s.text[:40]}, the value of an answer option, as a given: no quantity "
                       f"of the problem has it.", info={"check": "given_option_value", "symbol": s.letter})

    def defined_letter(self, s: Statement) -> Finding | None:
        """`c = 2.04e8 m/s` where the problem says "Taking c = 3e8 m/s": the problem's own constant's
        letter with a value that is not the one the problem gives it (as written or in SI)."""
        d = self.defined.get(s.letter or "")
        if d is None or not _same_kind(s.dim, d.dim):
            return None
        if _close(s.si, d.si) or _close(s.number, d.number):
            return None
        return Finding(0, "fail", "MC", f"writes {s.letter} = {s.number:g} {s.unit}, but the problem defines "
                       f"{d.text.strip()}: the value belongs to another quantity.",
                       info={"check": "given_defined_letter", "symbol": s.letter})

    def two_values(self, s: Statement) -> Finding | None:
        """`L = 1.3 m` after `L = 3.01 m`: one letter for two different values of one kind."""
        if not s.letter:
            return None
        for e in [e for _, e in self.seen] + self.parts:
            if e.letter == s.letter and e.dim is not None and s.dim is not None and mp.same_dim(e.dim, s.dim) \
                    and not _close(e.si, s.si):
                return Finding(0, "fail", "MC", f"writes {s.letter} = {s.number:g} {s.unit} after {e.text[:40]}: one "
                               f"symbol for two quantities.", info={"check": "given_two_values", "symbol": s.letter})
        return None

    def _repeats(self, s: Statement, seen: list[Statement]) -> list[Statement]:
        """The earlier statements `s` states again, when it states its value once more than the problem
        does (two charges of 5.87 uC may be stated twice); else []."""
        same = [e for e in seen if _close(e.si, s.si, 1e-9) and (e.dim is None) == (s.dim is None)
                and _same_kind(e.dim, s.dim)]
        allowed = max(1, sum(1 for x in self.question_numbers if _close(x, s.number, 1e-9)))
        return same if len(same) >= allowed else []

    def repeat(self, s: Statement) -> Finding | None:
        """`R = 79.1 ohm` again, word for word: a value stated once more than the problem states it starts
        a loop of repeated givens. When the earlier statement gave the value, without words, a letter of
        another kind and this one a letter of its kind, neither the problem's symbol (`V = 301 K`, then
        `T = 301 K`), the earlier one is the error (the older labels accept `v = 41.2 cm` before the
        problem's own `r = 41.2 cm`). The same letter with words added (`lens focal length (f): 22 cm`
        after `focal length (f): 22 cm`) is as much a repeat (session 9), and so, since session 11, is the same
        letter with words dropped or added where either line has none (`λ = 492 nm` after `Wavelength: λ =
        492 nm`, `C = 299 uF (in Farads)` after `C = 299 uF`). A restatement under another letter
        or with other words is not judged here: the older labels read `v0 = 15 m/s` after `v = 15 m/s`
        as a relabelling (see the History of benchmarks/data/real_solutions/README.md)."""
        same = self._repeats(s, [e for _, e in self.seen])
        if not same:
            return None
        first = same[0]
        if _plain(s.text) != _plain(first.text) and not (s.letter is not None and s.letter == first.letter and
                                                         forms.words_added(s.text, first.text)):
            return None
        how = "word for word" if _plain(s.text) == _plain(first.text) else "with other words around it"
        return Finding(0, "fail", "MC", f"states {s.text[:40]} again, {how}: the givens are repeated, "
                       f"not used.", info={"check": "given_repeat", "symbol": s.letter})

    def relabelled(self, s: Statement) -> Finding | None:
        """`d = 220 pm` after `l = 220 pm`, `P3 = 129 kPa` after `P1 = 129 kPa`: a value stated again (after
        unit conversion) under another letter or index is MC at the first such repeat, once the solution
        has written it under more letters than the record has givens of that value (two charges of
        5.87 uC may be q1 and q2). The settled rubric (RUBRIC.md, session 7) counts such a repeat as the
        first error; older labels that read it as a relabelling are listed in the data README."""
        if not s.letter or s.dim is None or s.si == 0:
            return None
        letters = {_letter_key(e.letter) for e in [e for _, e in self.seen] + self.parts
                   if e.letter and e.dim is not None and mp.same_dim(e.dim, s.dim) and _close(e.si, s.si, 1e-6)}
        letters.discard(_letter_key(s.letter))
        if not letters or len(letters) + 1 <= self._record_count(s):
            return None
        return Finding(0, "fail", "MC", f"states {s.text[:40]}, a value already given under "
                       f"{', '.join(sorted(letters))}: the givens are repeated under new letters, not used.",
                       info={"check": "given_relabelled", "symbol": s.letter})

    def _record_count(self, s: Statement) -> int:
        """How many quantities the value may stand for: the record's givens of its kind with that value,
        else the times the problem writes the number (at least one)."""
        record = sum(1 for g in self.gt.givens if _close(self.gt.instances[0].get(g, float("nan")), s.si, 1e-6)
                     and _same_kind(s.dim, self.gt.dims.get(g)))
        return record or max(1, sum(1 for x in self.question_numbers if _close(x, s.number, 1e-9)))

    def clauses(self, text: str, i: int) -> Finding | None:
        """A line of several statements ("L = 3.01 m and M = 22 kg"): each is remembered for `two_values`
        and judged by it and by `relabelled` (`T = 9.28 m/s, v2 = 4.4 m/s` after a line that gave both, session
        9), none for `repeat` (a word-for-word repeat is of a whole line)."""
        parts = forms.paired(_TAGS.sub(" ", text).strip(), read_statement, _SYMBOL) or \
            [p for p in map(read_statement, re.split(r",|;|\band\b", _TAGS.sub(" ", text))) if p and p.letter]
        if len(parts) < 2:
            return None
        for p in parts:
            finding = self.two_values(p) or self.relabelled(p) or self.part_repeat(p)
            if finding is not None:
                return finding
        self.parts += parts
        return None

    def part_repeat(self, p: Statement) -> Finding | None:
        """`v = 16 kV, R = 1.4 T` after `m = 8.68 u, q = 2e, v = 16 kV, R = 1.4 T`; `T = 273 K, k = 331 m/s` after
        `k = 331 m/s` (session 11, R1): a statement of a line of several that an earlier given stated under the
        same letter and value, more often than the problem writes the value, is MC at the first repeat (the
        `repeat` rule for one statement of a line)."""
        same = [e for e in self._repeats(p, [e for _, e in self.seen] + self.parts) if e.letter == p.letter]
        if not p.letter or not same:
            return None
        return Finding(0, "fail", "MC", f"states {p.letter} = {p.number:g} {p.unit} again after {same[0].text[:40]}: "
                       f"the givens are repeated, not used.", info={"check": "given_repeat", "symbol": p.letter})

    def expression_symbol(self, s: Statement) -> Finding | None:
        """`h = 6.63e-34 J*s (h/c)`: a remark after the value that is a product or quotient of the problem's
        given symbols (no symbol itself) whose dimension is not the value's. The symbol before the value
        (`Work function (hc): 2.39 eV`) is not judged: the older labels accept it (item-004)."""
        if s.dim is None:
            return None
        for said in re.findall(r"\(\s*([^()]*?)\s*\)", s.text.split(s.unit, 1)[-1] if s.unit else s.text):
            dim = self._expression_dim(said)
            if dim is not None and not mp.same_dim(dim, s.dim):
                return Finding(0, "fail", "MC", f"writes {s.number:g} {s.unit} as {said}, an expression of the problem's "
                               f"symbols of another kind than the value: the value is misnamed.",
                               info={"check": "given_expression_symbol", "symbol": s.letter})
        return None

    def _expression_dim(self, said: str) -> mp.Dim | None:
        """The dimension of "hc" or "h/c" read as a product/quotient of two or more given symbols; None when
        it is a symbol of the problem itself or not made of given symbols only."""
        said = said.replace(" ", "")
        if not said or self._problem_symbol(said) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_*/]*", said):
            return None
        tokens = re.findall(r"[*/]|[A-Za-z][0-9_]*", said) if re.search(r"[*/]", said) else list(said)
        names = [t for t in tokens if t not in "*/"]
        if len(names) < 2 or not all(n in self.gt.givens and self.gt.dims.get(n) is not None for n in names):
            return None
        total, sign = [0.0] * len(mp.DIMLESS), 1
        for t in tokens:
            if t in "*/":
                sign = -1 if t == "/" else 1
                continue
            total = [a + sign * b for a, b in zip(total, self.gt.dims[t])]
            sign = 1
        return tuple(total)

    def meaning(self, text: str) -> Finding | None:
        """"The thickness of the film is 97.2 nm (wavelength)": the one value of a given line is the value
        of one given, and its words name another quantity of that kind (`symbolic_meaning`)."""
        value = one_value(_TAGS.sub(" ", text))
        if value is None:
            return None
        unit, factor, dim = _unit_info(value[1])
        si = value[0] * factor
        own = [g for g in self.gt.givens if _close(self.gt.instances[0].get(g, float("nan")), si, 0.005)
               and _same_kind(dim, self.gt.dims.get(g))]
        said = read_statement(text)
        if len(own) != 1 or (said and said.letter in self.gt.givens and said.letter != own[0]):
            return None  # another given's letter with this value: a swap or a label, judged in symbolic_checks
        plain = _TAGS.sub(" ", text)
        found = self.words.misnamed(plain, own[0])
        if found is None:
            return self.modifier(plain, own[0], value, unit, said)
        phrase, other, _ = found
        return Finding(0, "fail", "MC", f"calls {value[0]:g} {unit} the \"{phrase}\", which describes {other} "
                       f"({self.gt.descriptions.get(other, '')}); the value is {own[0]} "
                       f"({self.gt.descriptions.get(own[0], '')}).", info={"check": "given_words", "symbol": own[0]})

    def modifier(self, text: str, own: str, value: tuple[float, str], unit: str,
                 said: Statement | None) -> Finding | None:
        """Words that name the quantity a change is of, without the change ("27.2 K (temperature)" for the
        temperature rise, `lost_change`): session 8, for what the embeddings cannot separate when the record
        has no rival of that kind (the absolute quantity is no quantity of the problem)."""
        desc = self.gt.descriptions.get(own, "")
        phrase = lost_change(text, desc, said.letter if said else None) or \
            lost_state(text, desc, self.gt.dims.get(own))
        if phrase is None:
            return None
        return Finding(0, "fail", "MC", f"calls {value[0]:g} {unit} the \"{phrase}\", but the value is {own} "
                       f"({desc}).", info={"check": "given_words", "symbol": own})

    def _problem_symbol(self, letter: str) -> bool:
        return letter in self.symbols or mp.canonical_name(letter) in self.symbols or \
            letter.lower() in {x.lower() for x in self.symbols}


# "NAME = expression (words)": symbols and operators only, then a remark
_SYMBOLIC_EQUATION = re.compile(r"^\s*(?P<lhs>[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,6})\s*=\s*(?P<rhs>[A-Za-zα-ωΑ-Ω0-9_*/+^\s-]+?)"
                                r"\s*\((?P<words>[A-Za-z][^()]*)\)\s*[.;]?\s*$")


def misdescribed_equation(checker, text: str) -> bool:
    """`w = h/m (wavelength of the particle)`: a symbolic equation whose words describe a quantity of the
    problem and whose expression has another dimension than that quantity (a wrong relation)."""
    m = _SYMBOLIC_EQUATION.match(_TAGS.sub(" ", text))
    if m is None or not re.search(r"[*/+^-]", m.group("rhs")):
        return False
    meant = checker.described(m.group("words")) or _head_meant(checker.gt, m.group("words"))
    want = checker.dims.get(meant) if meant else None
    if want is None:
        return False
    for node in checker.readings(m.group("rhs"), "rhs"):
        got = mp.dimension(node, checker.dims) if mp.variables(node) else None
        if got is not None:
            return not mp.same_dim(got, want)
    return False


# a group in parentheses with no group inside it: a remark of a given line
_REMARK_GROUP = re.compile(r"\(([^()]*)\)")


def remark_value(checker, text: str) -> Finding | None:
    """Every number a given step states must be a quantity of the problem (by value, of its kind), a constant, a
    number of the question or a value it implies (`_Checker.implied`), its remarks included: "... on the ball's
    lowest point (x = 0.12 m)", "Voltage (V) = 8.8 V (V = 12.1 V)", "... the angle it makes with the horizontal
    (37.8 deg)". The readers judge a line's first value and set its remarks aside, so an invented number in a
    remark passed unread (session 12, round-9 class B28). Whole numbers of one or two digits without a unit are
    counts or labels ("(1 M R^2)", "(step 2)") and are not judged, as in `check_given_text`."""
    plain = _TAGS.sub(" ", text)
    for group in _REMARK_GROUP.finditer(plain):
        if re.search(r"(?:[*/^+\-]\s*|\w)$", plain[:group.start()]) or re.match(r"\s*[*/^+\-]", plain[group.end():]):
            continue  # "2.30*(1.6e-19 J)", "sqrt(2)": a factor of an expression, not a remark
        inner = mp.normalize(group.group(1))
        end = 0
        for m in re.finditer(r"(?<![\w.^])\d", inner):
            if m.start() < end:
                continue
            try:
                node, _used, _total = mp.parse_prefix(inner[m.start():], checker._names_obj(), True)
            except mp.ParseFail:
                continue
            end = m.start() + len(mp.to_text(node))
            if mp.variables(node) or not (node[0] == "qty" or (node[0] == "num" and not re.fullmatch(r"\d{1,2}", node[2]))):
                continue
            angle = node[0] == "qty" and bool(re.search(r"deg|rad|°", node[4]))
            if node[0] == "num" and _sum_of_two(node[2], inner):
                continue  # "(Z = 48, N = 53, mass number 101)": a count the remark's own counts add up to
            if any(checker.fits_given(s, [node]) and (not angle or _is_angle_unit(g.get("unit", "")))
                   for s, g in checker.gt.givens.items()) or checker.implied([node]) is not None:
                continue  # a value in degrees is an angle, never a pure ratio of the problem (37.8 deg is no k = 1)
            shown = mp.to_text(node)
            return Finding(0, "fail", "MC", f"states {shown} in a remark, which is no quantity of the problem (neither a "
                           f"given nor a value it implies); the problem gives {checker.given_list()}.",
                           info={"check": "given_unmatched"})
    return None


def _sum_of_two(number: str, inner: str) -> bool:
    """Whether a whole number is the sum of two other whole numbers written in the same remark (session 13,
    round-10 class A20: a mass number 101 beside Z = 48 and N = 53 is their sum, derived in place, not invented)."""
    if not re.fullmatch(r"\d+", number):
        return False
    counts = [int(x) for x in re.findall(r"(?<![\w.])\d+(?![\w.])", inner) if x != number]
    return any(a + b == int(number) for i, a in enumerate(counts) for b in counts[i + 1:])


# a value and its unit as a given line writes it, "1/K" and "1/s" included
_VALUE_UNIT = re.compile(rf"(?<![\w.^/])(?P<num>{_NUMBER})\s*(?P<unit>(?:1\s*/\s*)?{_UNIT})")


def _worded_values(text: str) -> tuple[set[str], list[tuple[float, mp.Dim | None]]]:
    """The words and letters of a given line outside its values (lower case), and its distinct values (SI,
    dimension; None when the unit is not read, then the value as written), for `GivenStatements.echo`."""
    line = _TAGS.sub(" ", text)
    values: list[tuple[float, mp.Dim | None]] = []
    for m in _VALUE_UNIT.finditer(line):
        unit, factor, dim = _unit_info(m.group("unit").replace(" ", ""))
        try:
            si = float(m.group("num")) * factor
        except ValueError:
            continue
        if not any(_close(si, v, 1e-9) and (d is None) == (dim is None) for v, d in values):
            values.append((si, dim))
    words = {w.lower() for w in re.findall(r"[A-Za-zα-ωΑ-Ωλμ]\w*", _VALUE_UNIT.sub(" ", line))}
    return words, values


# words that name gravity (a general physics list, not the items'): a line with one of them calls g by its owner
_GRAVITY_WORDS = re.compile(r"gravit|free[ -]?fall|\bfalling freely\b|\bearth\b|\bweight\b", re.IGNORECASE)
# "acceleration of the pendulum", "acceleration due to the initial force": an acceleration given an owner or a cause
_OWNED_ACCELERATION = re.compile(r"\bacceleration\s+(?:of|due\s+to)\s+(?:the\s+|a\s+|an\s+)?[A-Za-z][\w-]*(?:\s+force)?",
                                 re.IGNORECASE)


def _stated_values(text: str) -> list[tuple[float, mp.Dim]]:
    """The values a given line states: those outside its brackets when it has any ("R = 2.8 kBq [activity 44 h
    later]" states 2.8 kBq, not 44 h), else those inside ("F = mass (5.9 kg)"); none for a prose line of several
    values without "=" (a summary of the problem, which the lettered givens may follow; `prose_repeat` judges its
    values stated again in prose)."""
    outside = _unit_values(_BRACKETED.sub(" ", text))
    values = outside or _unit_values(text)
    if len(values) > 1 and "=" not in text:
        return []  # "The mass is 1.0 kg, the length 1.2 m, ...": a prose summary the lettered givens may follow
    return values


# a bracketed remark, () or []
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
# `= n2/m1`, `= v0 sin(θ)`: a letter and an operator after "=", a relation rather than a stated value
_RELATION = re.compile(r"=\s*[A-Za-zα-ωΑ-Ω]\w*\s*[*/+^-]\s*[\w(]")


def _unit_values(text: str) -> list[tuple[float, mp.Dim]]:
    """The distinct values of a given line written with a unit pint reads (SI, dimension), for
    `GivenStatements.restated`: a bare number or a counting word ("46 protons") is left out."""
    out: list[tuple[float, mp.Dim]] = []
    for m in _VALUE_UNIT.finditer(_TAGS.sub(" ", text)):
        unit, factor, dim = _unit_info(m.group("unit").replace(" ", ""))
        if not unit or dim is None or not _is_float(m.group("num")):
            continue
        si = float(m.group("num")) * factor
        if si != 0 and not any(_close(si, v, 1e-9) and mp.same_dim(dim, d) for v, d in out):
            out.append((si, dim))
    return out


def _is_angle_unit(unit: str) -> bool:
    return bool(re.fullmatch(r"\s*(?:deg|degrees?|rad|radians?|°)\s*", unit or ""))


def _head_meant(gt, words: str) -> str | None:
    """The one quantity of the problem whose description holds the head word of `words` (its first
    content word: "wavelength" of "wavelength of the particle"), else None."""
    head = next((w.lower() for w in re.findall(r"[A-Za-z]{3,}", words) if w.lower() not in {"the", "and"}), None)
    if head is None:
        return None
    found = [sym for sym, desc in gt.descriptions.items() if head in re.findall(r"[a-z]+", desc.lower())]
    return found[0] if len(found) == 1 else None



def _letter_key(letter: str) -> str:
    """A letter as compared for a new name: its canonical spelling ("lambda" for "λ"), case aside (`emf (v) =
    20 V` then `V = 20 V (emf)` writes one letter twice, not a new one)."""
    return (mp.canonical_name(letter) or letter).lower()


def _has_words(s: Statement) -> bool:
    """Whether a statement says in words what its value is (beyond its letter and unit)."""
    rest = s.text.replace(s.letter or "", " ", 1).replace(s.unit, " ", 1) if s.unit else s.text
    return bool(re.search(r"[A-Za-z]{2,}", rest))


def _values(text: str) -> list[tuple[float, mp.Dim]]:
    return forms.values(_TAGS.sub(" ", text), _NUMBER, _UNIT, _unit_info)


def _plain(text: str) -> str:
    """A statement as compared word for word: case, spacing and end punctuation aside."""
    return re.sub(r"\s+", " ", text).strip(" .;,").lower()


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
