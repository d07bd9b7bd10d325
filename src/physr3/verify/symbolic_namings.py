"""Value-less namings among the givens: read both ways (session 14, issue #12, early verdicts).

A small model often lists a quantity in <given> without a value: `V = Voltage applied across the capacitor`,
`vi: the wavelength of the light at normal incidence`, `T = Time taken for charge to change its position`. The
rubric (paragraph "A quantity named without a value", added in session 13) says such a step states no number, so
it is RIGHT when its words name a quantity of this problem (a given, the unknown, one the solution will compute)
and an ERROR (MC) when they name a quantity the problem does not have or carry a false unit or meaning. Before this
module the verifier read only namings whose words covered one given's or the target's description
(`_Checker.named_with_words`); the rest were left unread and blamed by `verifier.symbolic_unchecked=error` (round
11's class A2 (ii): five early false alarms). One sentence per rule:

- `value_less_naming`: a naming whose content words are those of one quantity's description in the ground-truth
  record (a given, the unknown or a computed quantity), plus words of the problem's text that describe no
  quantity in particular ("light", "normal incidence"), names that quantity, when a unit written with it and its
  quantity noun are of that quantity's kind; it is read as right. Its letter is the author's notation (RUBRIC.md,
  "Letters are the author's notation"): "wavelength (v)", "na: wavelength (in nm)" name the wavelength.
- it is MC when a unit written with it is of a kind that no quantity of the problem has ("(in degrees)" in a
  problem without an angle), or of another kind than the one quantity its words describe ("the number of photons
  emitted per second (J/s)");
- it is MC when its quantity noun (`_KIND_NOUNS`: "time", "mass", ...) is of a kind that no quantity of the
  problem has and the problem's text never uses that noun ("Time taken for the charge to change its position" in
  a capacitor problem that has no time at all), unless its letter is one the problem or the record writes
  (`M, the mass` where the record describes k as "I/(M*R^2)") or its noun is a body's mass or weight (every body
  has them, given or not: "Mass of the pendulum: m").
- "a kind the problem has" (both MC rules) counts the kinds of its quantities and of the product or ratio of any
  two of them (`_kinds_within_reach`): a quantity the solution may compute on the way is the problem's too.
- Anything else (words of the problem that belong to another quantity of another kind, "angle of the cliff";
  words from outside the problem) stays undecided: a reader's call, left to `--unchecked`.
- `letter_equals_words`: `LETTER = words` with no number and no maths on the right (`n = the number of photons
  emitted per second`) is the naming "LETTER: words", not an equation.

Layouts of right givens with a value, read rather than left unread (round 11's class A2 (i)):

- `drop_stray_word`: one lower-case word between '=' and a given's value that is no symbol, unit, function or
  quantity noun (`g = gaining 9.8 m/s^2`) is a stray word; the value is read as written after it.
- `_Checker.worded_count` (in `symbolic_checks`): a small whole number after words that describe a unitless
  given with that value ("The number of loops is 4") states that given.
- `_Checker.check_given_text` drops a remark that names the value's own unit again ("the initial velocity of the
  trolley: 7.31 m/s (m/s)"), as the '=' layouts already did (`drop_unit_echo`).
"""

from __future__ import annotations

import re

from physr3 import quantity as mp

# `V = Voltage applied across the capacitor`: a letter, '=', then at least two words of prose, no digit and no
# operator of an expression (so `T = T_v + L (tension)` and `F = ma * g` stay equations)
_LETTER_EQUALS_WORDS = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω][A-Za-z0-9_α-ωΑ-Ω']{0,7})\s*=\s*"
                                  r"((?:the\s+|a\s+|an\s+)?[A-Za-z][a-z]{2,}(?:[\s,'-]+[A-Za-z(][\w()/'^-]*)+)\s*\.?\s*$")
_ANGLE_UNIT = re.compile(r"\s*(?:deg|degrees?|rad|radians?|°)\s*")
# every body has a mass and a weight, stated in the problem or not ("Mass of the pendulum: m" names the bob's)
_BODY_NOUNS = frozenset({"mass", "weight"})
# words between '=' and a value that say something about it: kept for the checks that read them
_NOT_STRAY = frozenset("not minus negative plus initial final total".split())
_MATHS = re.compile(r"[+*^=\\]|(?<![(\w])/|\d")


# `g = gaining 9.8 m/s^2`: a letter, '=', one lower-case word, then a number
_STRAY_WORD = re.compile(r"^(\s*[A-Za-zα-ωΑ-Ω][A-Za-z0-9_]{0,7}\s*=\s*)([a-z]{3,})\s+(?=[-+]?(?:\d|\.\d))")


def drop_stray_word(text: str, names: dict) -> str | None:
    """`text` without a stray word between '=' and the value (`g = gaining 9.8 m/s^2` -> `g = 9.8 m/s^2`), or None
    when there is none: the word must be no symbol of the problem (`names`), unit, function, Greek letter or
    quantity noun (`T = mass 3 kg` keeps its noun, for the checks of a value's words)."""
    # imported here, not above: symbolic_checks imports this module
    from physr3.verify.symbolic_checks import _kind_noun

    m = _STRAY_WORD.match(text)
    if not m:
        return None
    word = m.group(2)
    if mp.canonical_name(word) in names or mp.unit_word(word) is not None or word in mp.FUNCTIONS or \
            word in mp.GREEK_NAMES or _kind_noun(word) is not None or word in _NOT_STRAY:
        return None
    return m.group(1) + text[m.end():]


def letter_equals_words(text: str) -> str | None:
    """`LETTER = words` with prose on the right and no number or maths: the same text written "LETTER: words"
    (a naming), else None."""
    m = _LETTER_EQUALS_WORDS.match(text)
    if not m or _MATHS.search(re.sub(r"\([^()]*\)", " ", m.group(2))):
        return None
    return f"{m.group(1)}: {m.group(2)}"


def value_less_naming(checker, plain: str):
    """Judge a value-less naming with words (`plain`, normalised: a letter and words, as `_Checker.named_with_words`
    reads it): a Finding (MC) when it names a quantity the problem does not have or carries a unit of another
    kind, True when it names a quantity of the problem, None when undecided (see the module)."""
    from physr3.verify.symbolic_checks import (  # here, not above: symbolic_checks imports this module
        _NAME_RE,
        Finding,
        _kind_noun,
        naming_parts,
    )
    from physr3.verify.symbolic_checks import content_stems as content

    gt = checker.gt
    units, letters, words = naming_parts(plain)
    if not letters:  # a sentence, not a naming: `restates_problem` and the reader's part
        return None
    said = content(words)
    if not said:
        return None
    descs = {q: content(d) for q, d in gt.descriptions.items()}
    described = set().union(*descs.values()) if descs else set()
    loose = content(checker.question) - described  # the problem's words that describe no quantity in particular
    kinds = _kinds_within_reach([d for d in checker.dims.values() if d is not None])
    unit_dims = [u.dim for u in (_unit_info(u[0] or u[1]) for u in units) if u is not None]
    noun = _kind_noun(words.lower())
    angles = [u for u in units if _ANGLE_UNIT.fullmatch(u[0] or u[1])]
    no_angle = not any(_ANGLE_UNIT.fullmatch(u or "") for u in gt.units.values())
    # "(in degrees)" where the problem has no angle; "(in lumens)" where it has no luminous quantity
    if angles and no_angle or any(d != mp.DIMLESS and not any(mp.same_dim(d, k) for k in kinds) for d in unit_dims):
        return Finding(0, "fail", "MC", f"names a quantity without a value ({plain.strip()[:50]}) in a unit of a "
                       "kind no quantity of the problem has.", info={"check": "given_words"})
    meant = checker.described(words, strict=True)
    if meant is not None and checker.dims.get(meant) is not None:
        for dim in unit_dims:  # "the number of photons emitted per second (J/s)"
            if not mp.same_dim(dim, checker.dims[meant]):
                return Finding(0, "fail", "MC", f"names the {gt.descriptions.get(meant, meant)} without a value "
                               "but with a unit of another kind.", info={"check": "given_words", "symbol": meant})
    written = set(_NAME_RE.findall(checker.question + " " + " ".join(gt.descriptions.values())))
    if noun is not None and noun[0] not in _BODY_NOUNS and not any(mp.same_dim(noun[1], k) for k in kinds) and \
            not re.search(rf"\b{re.escape(noun[0])}", checker.question.lower()) and not set(letters) & written:
        return Finding(0, "fail", "MC", f"names a {noun[0]} without a value ({plain.strip()[:50]}), a quantity the "
                       f"problem does not have; the problem gives {checker.given_list()}.",
                       info={"check": "given_words"})
    for q, own in descs.items():
        dim = checker.dims.get(q)
        if not (said & own) or not said <= own | loose:
            continue
        if dim is not None and (noun is not None and not mp.same_dim(noun[1], dim) or
                                any(not mp.same_dim(d, dim) for d in unit_dims)):
            continue
        return True
    return None


def _kinds_within_reach(dims: list) -> list:
    """The kinds of the problem's quantities and of the product or ratio of any two of them: a quantity the
    solution may compute on the way (the number of moles from a mass and a molar mass, the spring's force from its
    constant and extension) is a quantity of the problem too, though the record does not name it."""
    out = list(dims)
    for i, a in enumerate(dims):
        for b in dims[i:]:
            out.append(tuple(x + y for x, y in zip(a, b)))
            out.append(tuple(x - y for x, y in zip(a, b)))
            out.append(tuple(y - x for x, y in zip(a, b)))
    return out


def _unit_info(spelled: str):
    """The unit of a written unit remark ("m/s", "degrees", "J/mol*K" also grouped), or None."""
    for text in (re.sub(r"/([A-Za-z]+)\*([A-Za-z]+)$", r"/(\1*\2)", spelled), spelled):
        info = mp.pint_unit(text)
        if info is not None:
            return info
    return None
