"""Readers of given lines for `symbolic_givens` (session 9, from the sixth round's misses, round6_test.jsonl,
tuning data since session 9; classes of analysis/round6_misses_session8_verifier.md): the forms a small model
writes its givens in, and the one word check that needs a quantity noun's place in its phrase.

- `paired`: `h, hc, hf = 6.63e-34 J*s, 3e8 m/s, 1.6e-19 C`, letters and values paired in order;
- `values`: every value with a known unit a line states (for repeats in prose);
- `words_added`: `lens focal length (f): 22 cm` after `focal length (f): 22 cm`, one letter with words added;
- `remark_head`: "(the charge carrier speed)", a remark whose head noun (its last word, before any preposition)
  is a quantity of another kind than the value (B2).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from physr3 import quantity as mp
from physr3.verify.symbolic_checks import _KIND_CHANGERS_BEFORE, _KIND_NOUNS

# words that end a remark's first noun phrase ("energy AT height", "speed OF light")
_PREPOSITIONS = frozenset("of at in on per from to for with across between through by into along over under "
                          "about as than when where after before".split())


def paired(line: str, read: Callable[[str], object | None], symbol: str) -> list:
    """`h, hc, hf = 6.63e-34 J*s, 3e8 m/s, 1.6e-19 C`: the statements of letters and values paired in order (as
    many of each), read by `read`; [] for any other line."""
    if line.count("=") != 1:
        return []
    left, right = (x.split(",") for x in line.split("="))
    if len(left) < 2 or len(left) != len(right) or not all(re.fullmatch(rf"\s*{symbol}\s*", x) for x in left):
        return []
    parts = [read(f"{a.strip()} = {b.strip()}") for a, b in zip(left, right)]
    return parts if all(p is not None for p in parts) else []


def values(line: str, number: str, unit: str, unit_info) -> list[tuple[float, mp.Dim]]:
    """The values with a known unit a line states (SI value, dimension); `unit_info` reads a unit."""
    out = []
    for m in re.finditer(rf"(?<![\w.])({number})\s*({unit})", line):
        _, factor, dim = unit_info(m.group(2))
        try:
            value = float(m.group(1))
        except ValueError:
            continue
        if m.group(2) and dim is not None:
            out.append((value * factor, dim))
    return out


def words_added(text: str, first: str) -> bool:
    """`lens focal length (f): 22 cm` after `focal length (f): 22 cm` (both already known to state one letter
    and one value): the words of one hold all the words of the other (not other words). Since session 11 the
    words of either may be none (`λ = 492 nm` after `Wavelength: λ = 492 nm`, `C = 299 uF (in Farads)` after
    `C = 299 uF`): one letter with one value, written again with words dropped or added, restates it."""
    words = [set(re.findall(r"[a-z]{2,}", re.sub(r"\s+", " ", x).lower())) for x in (text, first)]
    return words[0] <= words[1] or words[1] <= words[0]


def remark_head(remark: str) -> tuple[str, mp.Dim] | None:
    """The head of a remark's first noun phrase when it is a quantity noun (the general list of
    `symbolic_checks._KIND_NOUNS`): its last word before any preposition ("the charge carrier speed" ->
    speed; "energy at height" -> energy; "rate of speed", "energy per unit time", "specific heat capacity" -> None:
    another kind)."""
    words = re.findall(r"[a-z]+", remark.lower())
    cut = next((k for k, w in enumerate(words) if w in _PREPOSITIONS), len(words))
    phrase = " ".join(words[:cut])
    if not phrase or words[cut:cut + 1] == ["per"]:  # "energy per unit time" is a power
        return None
    for noun, unit in _KIND_NOUNS:  # longest first: "angular speed" before "speed"
        found = re.search(rf"(?:^|\s){re.escape(noun)}s?$", phrase)
        if found and not _KIND_CHANGERS_BEFORE.search(phrase[:found.start() + 1]) and \
                not re.search(r"\b(?:specific|molar)\s+$", phrase[:found.start() + 1]):  # "specific heat capacity"
            dim = mp.dim_of_unit(unit.replace("^", "**"))
            return (noun, dim) if dim is not None else None
    return None
