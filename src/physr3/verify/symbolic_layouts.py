"""Readers for layouts of right steps that the symbolic verifier otherwise leaves unchecked (session 8).

Round eight, from the fifth round of real solutions (benchmarks/data/real_solutions/round5_test.jsonl, tuning
data since its one held-out measurement in session 7). Each function reads one layout a small model writes for
a right step, so that `verifier.symbolic_unchecked=error` does not blame it as "cannot be checked":

- `unit_echo(value, remark)`, `drop_unit_echo(text)`: a remark that names the value's own unit again ("emf
  (E) = 7.2 V (volt)", "T = 521 K (K)", "1.0 ohm (ohm)") is no factor of the value (a remark naming another
  unit, "395 g (K)", stays: it states a second unit).
- `symbol_value_remark(text)`: "words = SYMBOL (value unit)" ("series resistance = R1 (6.9 ohm)"), "SYMBOL =
  words (value unit)" ("f = the frequency (368 Hz)") and "SYMBOL = words: value unit" read as "SYMBOL = value
  unit (words)": the symbol is the name, the value its value; a heading written again as the left-hand side
  ("emissivity: emissivity = 0.53") is read once.
- `restates_problem(text, question)`: a sentence with no number and no symbol whose content words all come from the
  problem's text ("The listener hears the direct sound and the echo from the wall.") restates the problem;
  words that state no quantity ("initially", "also") are left out of the comparison.
- `own_constant(letter, value)`: a physical constant under its own letter (`g = 9.81 m/s^2 (acceleration due
  to gravity)`) is that constant, never the quantity asked for that its words share a word with.
- `self_plus_term(text)`: an equation X = X + Y (or X - Y) with Y not zero cannot hold whatever X and Y
  are (`L' = L' + L`): a wrong relation, CM, also when its symbols are outside the ground-truth record.
- `stray_openings(marks)`: a section tag opened inside another section and never closed before that
  section's closing tag (`<find>` written inside `<given>`, then `</given>`) is stray; the steps after it
  stay in the outer section.

Readers fixed in place with them (same round): a heading before a given's own statement ("Resistor (R): R =
71 kohm (impedance)") is part of its words (`_Checker.meaning_words`); a remark holding the formula of the
given's description ("r = V1/V2" for "compression ratio V1/V2") is its own meaning (`_Checker.foreign_words`);
a letter the problem writes with a given's own value ("a resistor R1 = 9.8 ohm") holds no other given
(`symbolic_givens`); the problem's formula after words ("The moment of inertia ... is I = 0.5 M R^2,") is the
problem's own (`symbolic._in_question`).

Session nine, from the sixth round (round6_test.jsonl, tuning data since session 8; classes of
analysis/round6_misses_session8_verifier.md), one sentence each (the `_Checker` methods named are in
`symbolic_checks`):

- `indexed_names(text, names)`: a name written with an underscore index (`lambda_n`, `T_half`) is one symbol,
  never the product of the known names its letters spell (`lambda_n` is not lam*n) (A5).
- `unit_read_letter(...)`: the left side of an equation that reads as a lone unit (`Ts` a terasecond, `Tm` a
  terametre) equated to a value of another kind is a letter (A1).
- `_Checker.special_case`: an expression that is not the governing relation in general but gives the quantity's
  value with the problem's numbers (`N = N0/4` after two half-lives) is right there (A6).
- `_Checker.new_letter_power`: `v2^2 = v1^2 - 4*g*r` with v2 new defines v2 as the root; `sin(theta) = ...` is
  the sine of theta, not a function theta(...) (A2).
- `_Checker.other_kind`: a letter that differs from a given's only in case, equated to an expression of another
  kind (`E = h*c/lambda` beside the charge e), is the solution's own letter (A2).
- `_Checker.defines_in_passing`: a <concept> equation naming one new letter once, as a factor (`h*f =
  h*c/lambda`), is checked by the dimension that makes it hold against the kinds the letter conventionally
  names (A2).
- `_Checker.letter_with_word`, `_Checker.ratio_of_given`: a given under a letter run into a word of the problem
  (`mplate = 370 cm^2`), and a number times a given symbol where the number is a dimensionless given's value
  (`v = 0.907c`), are given statements (A2).
- a <concept> step that names the principle counts as naming it even when it also reads like a given (A1, in
  `SymbolicVerifier._concept_failure`).
- `_Checker.paired_remark`: a remark with a value of its own that is another given of the same object as the
  stated value (`m2 = 103 (binding energy per nucleon 8.50 MeV)`, both of the first fragment) describes its own
  value, not the one before it (A1).
- `_Checker.wrong_formula`: a wrong `X = expression` in <given> or <find> whose leaves are all the problem's
  givens is CM by its cause (U3); `_Checker.bare_foreign_principle`: a step that is only the name of a
  principle that does not apply (`Refraction` for a mirror), blamed where the givens belong, is CM (U4).

Session ten, from the early misses (false alarms on right steps) of all eight tuning sets, round 7's classes of
analysis/round7_misses_session9_verifier.md named; one sentence each:

- `unit_read_letter(..., dims)`: a lone unit name equated to symbols of another kind (`ng = c/vg`, a ratio of
  speeds, not a nanogram) is a letter, as with a value of another kind (A1).
- `_Checker.name_for_expression`: a word-like name that reads as no symbol (`tlab`), alone on the left of an
  equation outside the givens whose right side is in symbols that all have values, is the solution's own name
  for that expression, defined and compared with the record (A2).
- `_Checker.ratio_of_given`: a given written as a dimensionless given's value times a given symbol (`q = 1e`,
  n = 1) is that given times the symbol (n*e), so the letter holds at every instance of the record (A9).
- `_Checker.named_with_words`: a given line with no value that names a letter with words describing a given
  or the target (`λ (wavelength)`, `N (net horizontal force)`) introduces the letter and states nothing
  wrong, unless a unit written with it or the letter's conventional kind is of another kind (A2).
- `_Checker.check_given_text`: a value a given line writes twice ("is 0.39 (approx. 0.39)") is one
  statement, no repeat (A8).
- `drop_value_remark`, `_Checker.meaning_words`: a remark that spells a symbol's name in another case
  ("λ = 620 nm (Lambda)") is no factor and no description (A2).
- `_NAME_THEN_LETTER` (in `_Checker.check_clause`): a given's left side "name letter" (`emf E = 14 V`) is
  the letter, the name a heading (A2).

Session eleven, from the early misses on model-written rows of all ten tuning sets (issue #12), grouped by the
reader that misfired; one sentence each:

- `own_given_name(...)`: a given's left side that reads as no symbol and no known name (`Fid`, `dλ`,
  `<acoustic_power>`, `wavelength (wavelength)`), equated to one value, is the solution's own letter, and the line
  is judged as a given under it (value, unit, words) instead of left unread.
- `_Checker.covering`: a value-less naming whose content words all lie in the descriptions of several givens or
  the target (`wavelength (λ)` beside the wavelength in vacuum and in the medium) names a quantity of the problem
  although `described` finds no single best one; the letter and unit kind checks run against each.
- `_Checker.meaning_words`: a remark whose first word after an article says where the value comes from (`(in the
  given)`, "the given direction") is a remark on the value, not another meaning (`_REMARK_OPENERS`).

Session twelve, from the early misses on model-written rows of all eleven tuning sets (round 9's classes A1 and
kin), one sentence each:

- `_Checker.words_of_value`: words that describe a quantity of another kind than the stated value best ("The
  second ball's initial velocity (v2) is 6.6 m/s" beside the mass of the second ball) are judged against the given
  the value fits, and pass when they fit it (a word shared, no quantity noun of another kind, nothing that sets the
  other quantity apart but its own quantity noun): words bind to a quantity only where the value fits it.
- `_Checker.implied_count`: a bare whole number the problem implies (`n = 1 [first order]`) is a count or an
  order, never the value of a quantity to be found with a unit whose description shares its words.
- `_Checker.rounded_once`: a given's value rounded to one significant digit fewer, two at least (`h = 9.8 m` for
  9.81 m), is that given (the rubric: rounding within 1% is fine).
- `symbolic._in_question`, `restates_problem`: the problem's own formula as a whole given line under a letter of
  the solution's (`m = 0.5 M R^2 (inertia)`), and a value-less naming of a letter the problem itself defines, in
  the problem's words (`I, the moment of inertia about the central axis`), restate the problem.

Session 15 (early verdicts), from the early misses of rounds 12 to 16 seen together, one sentence each:

- `drop_instant(text, question)`: an instant written after "at"/"when"/"until" inside a given's words ("capacitor
  uncharged at t = 0", "(only X present at t = 0)") is a condition, not a value stated for its letter, when the
  value is zero (the start) or the problem writes the same letter with the same number; the phrase is read as
  "at that instant", and a clause after the value that holds nothing else ("..., capacitor uncharged at t = 0")
  is left out as a restated starting condition (rounds 13, 14 and 16: three correct solutions blamed).
- `states_problem_expression(text, question)`: a given line "expression = value" whose both sides the problem
  writes together ("mu0/(4*pi) = 1e-7 T*m/A", also with the denominator's brackets left out, "mu0/4*pi") restates
  the problem's constant and is read as right, not left unread (rounds 12 and 15).

Only `physr3.quantity` is imported, so `symbolic_checks` and `symbolic` can both use these readers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from physr3 import quantity as mp
from physr3.solution import ANCHORED_STEP_PATTERN, TAGS

__all__ = ["drop_instant", "drop_unit_echo", "indexed_names", "own_constant", "restates_problem", "self_plus_term",
           "states_problem_expression", "stray_openings", "symbol_value_remark", "unit_echo", "unit_read_letter"]


def unit_echo(value: str, remark: str) -> bool:
    """Whether `remark` (a parenthesised group after a stated value, without its parentheses) names the
    value's own unit again: the same unit symbol, or a word pint reads as a unit of the same dimension and
    SI factor ("7.2 V" and "volt", "521 K" and "K"). A value without a unit has no unit to echo."""
    unit = re.sub(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*", "", value).strip()
    inner = remark.strip()
    if not unit or not inner or not re.fullmatch(r"[A-Za-zμµΩ°][\w/*^()μµΩ°]*", inner):
        return False
    if inner == unit:
        return True
    written = mp.pint_unit(unit.replace("^", "**"))
    named = mp.pint_unit(inner.replace("^", "**")) or mp.pint_unit(inner.lower().removesuffix("s"))
    return (written is not None and named is not None and mp.same_dim(written.dim, named.dim)
            and abs(written.factor - named.factor) <= 1e-9 * abs(written.factor))


_VALUE_THEN_GROUP = re.compile(r"(?<![\w.])([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[A-Za-zμµΩ°][\w/*^()μµΩ°]*?)"
                               r"\s*\(([^()]*)\)")


def drop_unit_echo(text: str) -> str:
    """`text` with every remark that names the value before it's own unit again removed ("E = 7.2 V (volt)
    (emf)" -> "E = 7.2 V (emf)"), so the remarks after it are read as if it were not there."""
    return _VALUE_THEN_GROUP.sub(lambda m: m.group(1) if unit_echo(m.group(1), m.group(2)) else m.group(0), text)


# "series resistance = R1 (6.9 ohm)": words, then a symbol, then its value with a unit in parentheses
_SYMBOL_VALUE_REMARK = re.compile(r"^\s*([A-Za-z][A-Za-z '-]{2,60}?)\s*[:=]\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,6})\s*"
                                  r"\(\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[A-Za-zμµΩ°][^()=]*?)\s*\)"
                                  r"\s*[.;]?\s*$")


# "f = the frequency (368 Hz)", "F1 = mass of first ball: 0.940 kg": a symbol, words, then its value with a unit
_SYMBOL_WORDS_VALUE = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,6})\s*=\s*([A-Za-z][A-Za-z '-]{2,60}?)\s*"
                                 r"(?:\(\s*|:\s*)([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*[A-Za-zμµΩ°][^()=:]*?)"
                                 r"\s*\)?\s*[.;]?\s*$")
# "emissivity: emissivity = 0.53": a heading that is the left-hand side again
_HEADING_AGAIN = re.compile(r"^\s*([A-Za-z][A-Za-z '-]{2,40}?)\s*:\s*(\1\s*=.*)$", re.IGNORECASE)


def symbol_value_remark(text: str) -> str | None:
    """"words = SYMBOL (value unit)", "SYMBOL = words (value unit)" and "SYMBOL = words: value unit" rewritten
    as "SYMBOL = value unit (words)"; "words: words = value" (the heading written again as the left-hand
    side) as "words = value"; else None. Only a value with a unit is moved, so "energy = E (1)" or "x = k
    (m)" stay as written."""
    m = _SYMBOL_VALUE_REMARK.match(text)
    if m is not None and re.search(r"[A-Za-z]{3,}", m.group(1)):
        return f"{m.group(2)} = {m.group(3).strip()} ({m.group(1).strip()})"
    m = _SYMBOL_WORDS_VALUE.match(text)
    if m is not None and mp.symbol_like(m.group(1)) and len(re.findall(r"[A-Za-z]{3,}", m.group(2))) >= 1:
        return f"{m.group(1)} = {m.group(3).strip()} ({m.group(2).strip()})"
    m = _HEADING_AGAIN.match(text)
    return m.group(2) if m is not None else None


# words that say when or how, not what: a restatement may add them to the problem's words
_NO_QUANTITY_WORDS = frozenset("initially finally also still both each all just only now then always already "
                               "first second there here this that these those it its they their them"
                               .split())


def _words(text: str) -> list[str]:
    """Lower-case content words of a text, plural 's' and possessive dropped ("wall's" -> wall)."""
    t = text.lower().replace("’", "'").replace("'s", " ")
    out = []
    for w in re.findall(r"[a-z]+", t):
        if w in mp.STOPWORDS or w in _NO_QUANTITY_WORDS or len(w) < 2:
            continue
        w = w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
        out.append(_verb_stem(w))
    return out


def _verb_stem(word: str) -> str:
    """A word without its verb ending, so the forms of one verb compare equal ("reflecting", "reflects" and
    "reflect"; "released" and "release"; session 14, round 11's A25): -ing, -ed, then a final -e."""
    for ending in ("ing", "ed"):
        if len(word) > len(ending) + 3 and word.endswith(ending):
            word = word[:-len(ending)]
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def restates_problem(text: str, question: str) -> bool:
    """Whether a step is a sentence with no number and no symbol whose content words (at least two) all occur
    in the problem's text: a restatement of the problem ("The block is initially at rest." for "... released from
    rest"), which states nothing new and so nothing wrong. A letter the problem itself defines ("... is I = 0.5 M
    R^2") may name its quantity there ("I, the moment of inertia about the central axis"; session 12)."""
    plain = re.sub(r"<[^<>]*>", " ", text or "")
    if re.search(r"\d", plain) or "=" in plain or not question:
        return False
    if any(mp.symbol_like(t) and not re.search(rf"(?<![\w.]){re.escape(t)}\s*=", question)
           for t in re.findall(r"[A-Za-zα-ωΑ-Ω$][\w'$]*", plain)):
        return False  # "$L$: the length of the pendulum", "V - peak voltage": a letter listed, not a sentence
    mine = _words(plain)
    theirs = set(_words(question))
    return len(mine) >= 2 and all(w in theirs for w in mine)


# a physical constant's conventional letter and its SI values
_OWN_CONSTANTS = {"g": (9.8, 9.81), "c": (2.998e8,), "h": (6.626e-34,), "e": (1.602e-19,), "G": (6.674e-11,),
                  "R": (8.314,), "k": (8.988e9, 1.381e-23), "me": (9.109e-31,), "NA": (6.022e23,)}


def own_constant(letter: str, value_si: float) -> bool:
    """Whether `letter = value` is a physical constant under its own conventional letter (`g = 9.81 m/s^2`,
    `h = 6.63e-34 J*s`, within 1%): what it is, whatever words follow it ("acceleration due to gravity" is
    no statement of an acceleration asked for)."""
    return any(abs(value_si - c) <= 0.01 * c for c in _OWN_CONSTANTS.get(letter.replace("_", ""), ()))


_EQUATION = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω][\w']*)\s*=\s*(.+?)\s*[.;]?\s*$")


def _top_terms(expr: str) -> list[str] | None:
    """The additive terms of an expression at parenthesis depth 0, each with its sign ("+L", "-x"); None
    when parentheses do not balance."""
    terms, depth, start = [], 0, 0
    for k, ch in enumerate(expr):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return None
        elif ch in "+-" and depth == 0 and k > 0 and expr[k - 1] not in "eE*/^(":
            terms.append(expr[start:k])
            start = k
    if depth:
        return None
    terms.append(expr[start:])
    return [t.strip() for t in terms if t.strip()]


def self_plus_term(text: str) -> bool:
    """Whether a step is the equation X = X + Y (or X - Y): its left-hand symbol stands alone as one additive
    term of the right-hand side, beside at least one other term that is no zero (`L' = L' + L`). It holds
    only when Y is 0, so it is a wrong relation whatever the symbols mean."""
    plain = re.sub(r"\([^()]*\)\s*$", "", re.sub(r"<[^<>]*>", " ", text or "")).strip()
    plain = re.sub(r"^[A-Za-z ]{0,40}:\s*", "", plain)  # "The given formula is: L' = L' + L"
    m = _EQUATION.match(plain)
    if m is None or "=" in m.group(2):
        return False
    terms = _top_terms(m.group(2))
    if not terms or len(terms) < 2:
        return False
    lhs = m.group(1)
    own = next((k for k, t in enumerate(terms) if t.lstrip("+").strip() == lhs and not t.startswith("-")), None)
    if own is None:
        return False
    others = terms[:own] + terms[own + 1:]
    return not all(re.fullmatch(r"[-+]?\s*0+(?:\.0*)?", t) for t in others)


def stray_openings(marks: Sequence[tuple[int, bool, str]]) -> set[int]:
    """The indices of opening tags in `marks` ((position, closing, tag) in text order) that are stray: opened
    after an opening of another section X and before X's closing tag, with no closing tag of their own
    before it (`<given> ... <find> ... </given>`). The steps after a stray opening stay in X."""
    stray: set[int] = set()
    for k, (_pos, closing, tag) in enumerate(marks):
        if not closing:
            continue
        start = next((j for j in range(k - 1, -1, -1) if not marks[j][1] and marks[j][2] == tag), None)
        if start is None:
            continue
        for j in range(start + 1, k):
            _p, c, t = marks[j]
            if not c and t != tag and not any(marks[i][1] and marks[i][2] == t for i in range(j + 1, k)):
                stray.add(j)
    return stray


# Session nine (round 6, tuning data since session 8): right steps that were misread.

# "lambda_n", "T_{half}", "v_0": a name, an underscore, then its index
_INDEXED = re.compile(r"(?<![\w.])([A-Za-zα-ωΑ-Ω]+_\{?[A-Za-z0-9]+\}?)(?![\w{])")


def indexed_names(text: str, names: dict[str, str]) -> dict[str, str]:
    """The names written with an underscore index in `text` (`lambda_n`, `T_half`) that are no known name,
    each mapped to itself: an indexed name is one symbol, never the product of the known names its letters
    spell (`lambda_n` is not lam*n). Parse with these added to the known names."""
    out: dict[str, str] = {}
    for token in _INDEXED.findall(text or ""):
        c = mp.canonical_name(token.replace("{", "").replace("}", ""))
        if c not in names and mp.symbol_like(token):
            out[c] = c
    return out


def unit_read_letter(lhs_text: str, lhs: tuple | None, rhs: Sequence[tuple],
                     dims: Mapping[str, mp.Dim | None] | None = None) -> str | None:
    """The letter meant when the left-hand side of an equation, a lone name with no number, was read as a
    unit (`Ts = 301 K` read as one terasecond, `Tm = 273 K` as a terametre) and a value on the right has
    units of another kind: a unit alone is never equated to a value of another kind, so the name is a
    letter (`Ts`). With `dims` (the kinds of the known symbols), a right side written in symbols counts
    too: `ng = c/vg` (a ratio of speeds) is the glass's index ng, not a nanogram (session 10). None when
    the reading as a unit can stand."""
    if lhs is None or lhs[0] != "qty" or lhs[1] != 1.0 or re.search(r"\d", lhs[4]):
        return None
    word = lhs[4].strip()
    if re.sub(r"[\s$]", "", lhs_text or "") != word or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,7}", word):
        return None
    kinds = [mp.dimension(n, {}) for n in rhs if n[0] == "qty"]
    if dims is not None:
        kinds += [mp.dimension(n, dims) for n in rhs if n[0] != "qty" and mp.variables(n)]
    if not kinds or any(d is None or mp.same_dim(d, lhs[3]) for d in kinds):
        return None
    return mp.canonical_name(word)


_TAG_OPENING = re.compile(r"<\s*/?\s*(?:" + "|".join(TAGS) + r")\b", re.IGNORECASE)


def lines_below_steps(text: str, steps: Sequence[Any], take: Callable[[Any], bool]) -> dict[int, list[str]]:
    """The raw lines written below each taken step's own "Step k:" line, up to a blank line, a tag or the next
    step, by step index; steps with no text on their own line are skipped (`continued_steps` reads the lines
    below as the step itself). {} when the markers in `text` do not line up with `steps`. What the lines are
    read as is the caller's: given statements below a <given> step, equations below any other."""
    matches = list(ANCHORED_STEP_PATTERN.finditer(text or ""))
    if len(matches) != len(steps):
        return {}
    out: dict[int, list[str]] = {}
    for k, (step, m) in enumerate(zip(steps, matches)):
        if not take(step) or not step.text.strip():
            continue
        end = matches[k + 1].start() if k + 1 < len(matches) else len(text)
        lines = []
        for line in text[m.end():end].splitlines()[1:]:
            if _TAG_OPENING.search(line) or not line.strip():
                break
            lines.append(line)
        if lines:
            out[k] = lines
    return out


_OWN_NAME = re.compile(r"\s*<?\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ωΑ-Ω']{0,23})\s*>?\s*(?:\(\s*[A-Za-z]{3}[\w ]{0,40}\))?\s*")


def own_given_name(lhs_text: str, values: Sequence[tuple], names: Mapping[str, str]) -> str | None:
    """The left side of a given's statement that reads as no symbol (`Fid`, `dλ`, `<acoustic_power>`,
    `wavelength (wavelength)`), equated to values only: the solution's own name for the value, one new letter, so
    that the line is judged as a given (its value and words) instead of left unread (session 11); else None. The
    angle brackets of a tag-like name and one remark in words after it are no part of the name; a name with a
    letter in brackets (`Voltage (V)`) and a known symbol in angle brackets (`<g>`, not a name of its own) are
    left as they were."""
    m = _OWN_NAME.fullmatch(lhs_text or "")
    if m is None or not values or any(mp.variables(n) for n in values) or mp.canonical_name(m.group(1)) in names:
        return None
    return m.group(1)


# "at t = 0", "when x = 2.5 m": a letter set to a number after a word that makes it an instant or a position
_INSTANT = re.compile(r"\b(at|when|until|from)\s+([A-Za-zα-ωΑ-Ω]\w{0,3})\s*=\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                      r"(?:\s*[A-Za-zμ][A-Za-z]{0,3}\b)?")

# a clause (after a comma or semicolon, outside brackets) with no number and no "=" that holds such an instant
_CONDITION_CLAUSE = re.compile(r"\s*[,;]\s+[^,;()=\d]*\b(?:at|when|until|from) that instant\b[^,;()=\d]*(?=[,;]|$)")


def drop_instant(text: str, question: str) -> str | None:
    """The given's text with each instant phrase ("at t = 0") read as "at that instant", or None when it has
    none: the phrase says when the rest holds, so no check reads it as the letter's value (session 15). A zero
    is the start in any problem; another number counts only where the problem writes the same letter with it
    (so "at t = 5 s" stays a stated value where the problem never says so)."""

    def keep(m: re.Match) -> bool:
        number = float(m.group(3))
        if number == 0:
            return True
        said = re.finditer(rf"(?<![\w.]){re.escape(m.group(2))}\s*=\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)",
                           question)
        return any(abs(float(q.group(1)) - number) <= 1e-9 * max(1.0, abs(number)) for q in said)

    out = _INSTANT.sub(lambda m: f"{m.group(1)} that instant" if keep(m) else m.group(0), text)
    # a clause after the value that says nothing but a condition at that instant ("..., capacitor uncharged at
    # t = 0") restates the problem's starting state: left out, so it is not read as the value's meaning
    out = _CONDITION_CLAUSE.sub("", out)
    return out if out != text else None


def states_problem_expression(text: str, question: str) -> bool:
    """Whether a given line is "expression = value" (an operator on the left, one "=") written as the problem writes
    it, spacing and brackets aside: "mu0/4*pi = 1e-7 T*m/A" for "Taking mu0/(4*pi) = 1e-7 T*m/A" (session 15). The
    brackets are dropped on both sides, so a small model's "mu0/4*pi" reads as the problem's "mu0/(4*pi)", while
    another factor ("mu0/2*pi") or another value stays unread."""
    line = text.strip().rstrip(" .,;")
    if line.count("=") != 1:
        return False
    lhs, rhs = line.split("=")
    if not re.search(r"[A-Za-zα-ωΑ-Ω]", lhs) or not re.search(r"[/*]", lhs) or not re.search(r"\d", rhs):
        return False

    def flat(t: str) -> str:
        return re.sub(r"[\s()]", "", mp.normalize(t))

    said = flat(line)
    return len(said) >= 8 and said in flat(question)
