"""What a given's words attach its value to, judged against the problem: the object, the process, a remark's
own numbers and the law a concept step names. The checks the walk in `physr3.verify.symbolic` runs on a step
in given position (through `symbolic_givens.GivenStatements`) and on a <concept> step, after the embedding
matcher of `symbolic_meaning` (which compares a given's words with the record's descriptions only, and so
cannot see what the problem says about the objects, the process or what is neglected).

Session nine, from the round-6 misses (benchmarks/data/real_solutions/round6_test.jsonl, tuning data since
session 8; classes B1, B15, B16, B18 and C1 of analysis/round6_misses_session8_verifier.md); each rule in one
sentence, all MC but the last:
- a value said to be due to something the problem tells to neglect ("acceleration due to air" after "neglect
  air resistance") is attributed to a cause that is not there (`neglected_cause`);
- a value said to be at constant volume, pressure or temperature when the record gives two different values
  of that kind (the process changes it) names the value in the wrong process (`contradicted_process`);
- a refractive index said to be that of air or vacuum with a value that is not 1 is another medium's
  (`vacuum_index`);
- a remark that states a percentage the problem does not state invents a second quantity (`invented_percent`);
- one value said to be that of "each" or "both" objects, when the record gives those objects values of that
  kind that differ, is only one object's value (`each_of_several`);
- a value called a capacity (a limit, "current carrying capacity"; not a heat capacity) when neither its own
  description nor the problem says so names another quantity (`limit_word`);
- an object named by a capital letter ("W: a stable nucleus") where the problem names its objects by other
  capital letters (X, Y, Z) is an object the problem does not have (`invented_object`);
- a given sentence whose subject is the quantity asked for ("The fringe width is the separation between the
  slits, which is 0.65 mm") states the target as given (`target_subject`);
- a <concept> step headed by a named law that none of the problem's principles names, whose statement then
  names the problem's own law ("Ampère-Maxwell: Ohm's law, ..."), names a law that does not apply: CM
  (`two_laws`);
- a <concept> step headed by a name none of whose words the problem or any problem of the generator uses
  (question, descriptions, principles: "Deuterium-dithionium (D-D): half-life 15 d") names a principle or an
  object that does not exist: CM (`invented_heading`).

Session ten, from the late misses at given steps on all eight tuning sets (round-7 classes B21 and P2 of
analysis/round7_misses_session9_verifier.md, and the same causes in rounds 4 to 6); each rule in one sentence, MC:
- a given sentence whose words contradict the problem's sentence that states the same value, by a word of a small
  general table of opposite position, direction and geometry words ("behind" / "in front of", "towards" / "away
  from", "single-slit" / "double-slit") applied to the same noun ("behind the mirror" where the problem places
  the object "in front of a concave mirror"), places the value wrongly (`contradicted_words`);
- a given sentence whose subject ("The screen is 0.88 mm apart") is a noun the problem attaches only to another
  value of the same kind ("the screen is 0.814 m away"), while the problem states this value of something else
  ("the slits are 0.88 mm apart"), gives the value to the wrong object (`other_subject`);
- a given sentence "<quantity> (its value) is the <quantity> (its value)" whose two sides are quantities of
  different kinds by their head nouns ("the initial mass ... is the initial velocity (u)") or carry different
  values of one kind ("The final temperature of the gas (425 K) is the starting temperature (324 K)") equates
  two different quantities (`equated_sides`, B22);
- a given sentence "The <quantity> of the <object> is <value>" where the problem gives that value as the quantity
  between two objects ("the cable makes an angle of 70 deg with the beam") and the line names only the second
  gives a quantity of a pair to one of its objects (`one_of_pair`, P2: "The angle of the beam is 70 deg");
- a value called the half-life, decay constant or lifetime of something stable ("nY = 7.4 h (half-life of the
  stable nucleus Z)"): a stable nucleus does not decay (`stable_decay`, B1).
"""

from __future__ import annotations

import functools
import math
import re

from physr3 import quantity as mp
from physr3.verify.symbolic_checks import Finding
from physr3.verify.symbolic_given_forms import remark_head

_ARTICLES = frozenset("the and for with from its this that which".split())
_TAGS = re.compile(r"<\s*/?\s*[a-z_]+\s*>?", re.IGNORECASE)
_NUMBER = r"(?<![\w^.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VALUE = re.compile(rf"({_NUMBER})\s*((?:[A-Za-zμΩ°][A-Za-z0-9μΩ°/*^.()\-]*)?)")
_REL = 0.005  # a written value is a given's when it is within this (rounding of three figures)

# what the problem tells to leave out: "Neglect air resistance", "ignoring friction", "the rope's mass is negligible"
_NEGLECT = re.compile(r"\b(?:neglect(?:ing)?|ignor(?:e|ing)|without)\s+(?:the\s+|any\s+)?([a-z]+)", re.IGNORECASE)
_NEGLIGIBLE = re.compile(r"\b([a-z]+)\s+(?:[a-z]+\s+)?(?:is|are)\s+negligible", re.IGNORECASE)
_CAUSE = re.compile(r"\b(?:due to|caused by|because of)\s+(?:the\s+)?([a-z]+)", re.IGNORECASE)
# a process held at one value of a kind; the unit names the kind
# (not "isothermal": a cycle has isothermal stages at two temperatures)
_PROCESS = re.compile(r"\bat\s+constant\s+(volume|pressure|temperature)\b", re.IGNORECASE)
_HELD = {"volume": "m^3", "pressure": "Pa", "temperature": "K"}
_NAMED_PROCESS = {"volume": "isochoric", "pressure": "isobaric", "temperature": "isothermal"}
_VACUUM_INDEX = re.compile(r"\brefractive\s+index\s+(?:of|in)\s+(?:the\s+)?(air|vacuum|free\s+space)\b", re.IGNORECASE)
_PERCENT = re.compile(r"(\d+\.?\d*)\s*(?:%|per\s?cent\b)", re.IGNORECASE)
_EACH = re.compile(r"\b(each|both|every)\s+(?:of\s+the\s+)?([a-z]+)", re.IGNORECASE)
# a word that makes a quantity a limit of itself ("current carrying capacity"); "heat capacity" is a quantity of
# its own; not "rated"/"rating": an appliance's rated power is its power
_LIMIT = re.compile(r"\b(?<!heat\s)(capacity)\b", re.IGNORECASE)
# "W: a stable nucleus", "Z (initial sample): a nucleus": a capital letter naming an object
_OBJECT_LETTER = re.compile(r"(?<![\w'])([A-Z])\s*(?:\([^()]*\))?\s*:\s*(?:a|an|the)\s")
_SUBJECT = re.compile(r"\s*(?:the\s+)?(?P<head>[A-Za-z][A-Za-z ,'-]*?)\s+is\s+", re.IGNORECASE)
# names of physicists that name laws and principles in introductory physics (textbook law names: Ampère's law,
# Faraday's law, Snell's law, ...); a heading that names one is a law's name
_EPONYMS = frozenset(
    "ampere faraday lenz gauss biot savart coulomb ohm kirchhoff snell newton hooke bernoulli archimedes pascal "
    "boyle charles lussac avogadro stefan boltzmann wien kepler doppler maxwell joule malus brewster bragg planck "
    "einstein broglie bohr heisenberg compton hubble rayleigh huygens fermat torricelli stokes poiseuille carnot "
    "clausius dalton henry curie lorentz fourier hall".split())
# opposite words of position, direction and geometry (a general table, not made from the items); each side a
# regular expression. Not "open"/"closed": a pipe open at one end is closed at the other (both labels accept it)
_OPPOSITES = (
    (r"behind", r"in\s+front\s+of"), (r"towards?", r"away\s+from"), (r"above", r"below"),
    (r"inside", r"outside"), (r"single[- ]slit", r"double[- ]slit"), (r"concave", r"convex"),
    (r"converging", r"diverging"), (r"approaching", r"receding"), (r"in\s+series", r"in\s+parallel"),
)
# words that name no object after a position word ("behind the mirror", "towards a stationary listener")
_FILLER = _ARTICLES | frozenset("a an is are was it at to of in on by be".split())
# the problem giving an object's quantity: "a light string of length 1.2 m", "a curve of radius 85.6 m"
_OWNED_PROBLEM = re.compile(rf"\b(?P<owner>[A-Za-z]{{3,}})\s+of\s+(?P<qty>[a-z]{{3,}})\s+(?:of\s+)?{_NUMBER}\s*[A-Za-zμΩ°]",
                            re.IGNORECASE)
# ... or "<object> whose <quantity> is <value>": "a diffraction grating whose line density is 344 mm^-1" (session 14)
_WHOSE_PROBLEM = re.compile(rf"\b(?P<owner>[A-Za-z]{{3,}})\s+whose\s+(?:[a-z]{{3,}}\s+)?(?P<qty>[a-z]{{3,}})\s+is\s+"
                            rf"{_NUMBER}\s*[A-Za-zμΩ°](?:[\w/*]|\^-?)*", re.IGNORECASE)
# a given line giving an object's quantity: "the length of the circle is 1.6 m", "the car has a radius of 284 m",
# "the line density of the light (λ) is 405 mm^-1" (one word before the quantity's noun and a letter in brackets
# before "is" allowed, session 14)
_OWNED_LINES = (
    re.compile(rf"\bthe\s+(?:[a-z]{{3,}}\s+)?(?P<qty>[a-z]{{3,}})\s+of\s+the\s+(?:[a-z-]+\s+)?(?P<owner>[a-z]{{3,}})"
               rf"(?:\s*\([^()]{{1,12}}\))?\s+(?:is|=|:)\s*(?P<num>{_NUMBER})\s*(?P<unit>[A-Za-zμΩ°](?:[\w/*]|\^-?)*)",
               re.IGNORECASE),
    re.compile(rf"\bthe\s+(?:[a-z-]+\s+)?(?P<owner>[a-z]{{3,}})\s+has\s+an?\s+(?P<qty>[a-z]{{3,}})\s+of\s+"
               rf"(?P<num>{_NUMBER})\s*(?P<unit>[A-Za-zμΩ°][\w/^*]*)", re.IGNORECASE))
# "<quantity> (...) is the <quantity> (...)": one quantity said to be another
# (session 14: the second side may end at a colon that gives its value, "... is the speed of light (c): c = 3e8 m/s")
_EQUATED = re.compile(r"\s*(?P<a>(?:the\s+)?[A-Za-z][^=:]{2,80}?)\s+is\s+the\s+(?P<b>[A-Za-z][^=:]*)(?::[^:]*)?$",
                      re.IGNORECASE)
# "The angle of the beam is 70 deg": a quantity of one object
_OF_OBJECT = re.compile(r"\s*the\s+(?P<head>[a-z]{3,})\s+of\s+the\s+(?P<owner>[a-z]{3,})\s+is\b", re.IGNORECASE)
# a clause of the problem that begins with its subject: "the cable makes ..."
_NOUN_START = re.compile(r"\s*(?:the|a|an)\s+([a-z]{3,})\b", re.IGNORECASE)
# what only an unstable nucleus has, said to be a stable one's: "half-life of the stable nucleus Z"
_STABLE_DECAY = re.compile(r"\b(?:half[- ]?life|decay\s+constant|mean\s+life(?:time)?|lifetime)\s+of\s+(?:the\s+|a\s+)?"
                           r"stable\b[\w ]{0,20}", re.IGNORECASE)
# a sentence that begins with its one-noun subject: "The screen is ...", "the slits are ..."
_NOUN_SUBJECT = re.compile(r"\s*(?:the|a|an)\s+(?P<noun>[a-z]{3,})\s+(?:is|are|was|were)\b", re.IGNORECASE)
# ... or a quantity between two of them: "The distance between the slits is 1.38 m." (session 14)
_BETWEEN_SUBJECT = re.compile(r"\s*the\s+[a-z]{3,}\s+between\s+the\s+(?P<noun>[a-z]{3,})\s+(?:is|are|was|were)\b",
                              re.IGNORECASE)


@functools.lru_cache(maxsize=1)
def generator_vocabulary() -> frozenset[str]:
    """The stems (`_stem`) of every word the generator's families write: questions, the givens' and the
    computed quantities' descriptions and reasons, the principles' names, statements and keywords; empty
    when the generator cannot be loaded (the heading check then steps aside)."""
    try:
        from physr3.synth.registry import all_families
    except ImportError:  # pragma: no cover
        return frozenset()
    texts: list[str] = []
    for fam in all_families():
        texts += [fam.question, str(fam.find)]
        texts += [g.description or "" for g in fam.givens]
        texts += [f"{s.description} {getattr(s, 'why', '')}" for s in fam.steps]
        texts += [f"{p.name} {p.text} {' '.join(p.keywords)}" for p in fam.principles]
    return frozenset(_stem(w) for t in texts for w in _words(t))


def _stem(word: str) -> str:
    """A word as compared across texts: a plural "s"/"es" cut, then its first 5 letters."""
    for suffix in ("es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            word = word[:-len(suffix)]
            break
    return word[:5]


def _words(text: str) -> list[str]:
    """Lower-case words, accents folded ("Ampère" -> "ampere")."""
    return re.findall(r"[a-z]+", text.lower().replace("è", "e").replace("é", "e"))


def _one_value(text: str) -> tuple[float, mp.Dim | None] | None:
    """The one number of a line in SI with its dimension (None: unit not understood); None with no or
    several numbers."""
    found = list(_VALUE.finditer(text))
    if len(found) != 1:
        return None
    number, unit = float(found[0].group(1)), found[0].group(2).rstrip(".,;:")
    while unit.endswith(")") and unit.count(")") > unit.count("("):
        unit = unit[:-1]
    if not unit:
        return number, mp.DIMLESS
    info = mp.pint_unit(unit.replace("^", "**"))
    return (number, None) if info is None else (number * info.factor, info.dim)


class ObjectWords:
    """The checks of this module for one problem (see the module docstring)."""

    def __init__(self, gt, question: str = ""):
        self.gt = gt
        self.question = question or ""
        self.neglected = {m.group(1).lower() for m in _NEGLECT.finditer(self.question)} | \
            {m.group(1).lower() for m in _NEGLIGIBLE.finditer(self.question)}
        self.percents = {float(x) for x in _PERCENT.findall(self.question)}
        # capital letters the problem names its objects by ("X decays to Y ... a stable nucleus Z"); not "A", "I"
        self.object_letters = set(re.findall(r"(?<![\w'])([A-Z])(?![\w'])", self.question)) - {"A", "I"}
        own = set(_words(self.question))
        for p in getattr(gt, "principles", ()):  # (a stand-in record may have none)
            own |= set(_words(" ".join([p.get("name", ""), p.get("statement", ""), *p.get("keywords", [])])))
        self.own_laws = own & _EPONYMS

    def given(self, text: str) -> Finding | None:
        """The first failure of these checks on a step in given position, else None."""
        plain = _TAGS.sub(" ", text)
        return self.neglected_cause(plain) or self.contradicted_process(plain) or self.vacuum_index(plain) or \
            self.invented_percent(plain) or self.each_of_several(plain) or self.limit_word(plain) or \
            self.invented_object(plain) or self.target_subject(plain) or self.contradicted_words(plain) or \
            self.other_subject(plain) or self.equated_sides(plain) or self.one_of_pair(plain) or \
            self.stable_decay(plain) or self.other_owner(plain)

    def concept(self, text: str) -> Finding | None:
        """The first failure of a <concept> step (`two_laws`, `invented_heading`), else None."""
        plain = _TAGS.sub(" ", text)
        return self.two_laws(plain) or self.invented_heading(plain)

    # -- helpers
    def _kind_values(self, dim: mp.Dim) -> set[float]:
        """The distinct values of the record's givens of one kind (SI, rounded)."""
        values = self.gt.instances[0]
        return {round(float(values[g]), 12) for g in self.gt.givens if g in values
                and self.gt.dims.get(g) is not None and mp.same_dim(self.gt.dims[g], dim)}

    def _own(self, text: str) -> str | None:
        """The one given whose value (and kind) the line's one value is, else None."""
        value = _one_value(text)
        if value is None:
            return None
        si, dim = value
        values = self.gt.instances[0]
        own = [g for g in self.gt.givens if g in values and math.isclose(float(values[g]), si, rel_tol=_REL) and
               (dim is None or self.gt.dims.get(g) is None or mp.same_dim(dim, self.gt.dims[g]))]
        return own[0] if len(own) == 1 else None

    @staticmethod
    def _fail(why: str, check: str, symbol: str | None = None) -> Finding:
        return Finding(0, "fail", "MC", why, info={"check": check, "symbol": symbol})

    # -- the checks
    def neglected_cause(self, text: str) -> Finding | None:
        """"g = 9.8 m/s^2 (acceleration due to air)" where the problem says "Neglect air resistance"."""
        if not self.neglected or _one_value(text) is None:
            return None
        m = next((m for m in _CAUSE.finditer(text) if m.group(1).lower() in self.neglected), None)
        if m is None:
            return None
        return self._fail(f"says the value is \"{m.group(0)}\", but the problem tells to neglect the "
                          f"{m.group(1).lower()}: the value is attributed to a cause that is not there.", "given_object")

    def contradicted_process(self, text: str) -> Finding | None:
        """"T = 327 K (temperature of the gas at constant volume)" where the gas goes from 2.83 L to 32.1 L."""
        m = _PROCESS.search(text)
        if m is None or _one_value(text) is None:
            return None
        held = m.group(1).lower()
        dim = mp.dim_of_unit(_HELD[held].replace("^", "**"))
        if dim is None or len(self._kind_values(dim)) < 2 or re.search(rf"constant\s+{held}|{_NAMED_PROCESS[held]}",
                                                                         self.question, re.IGNORECASE):
            return None  # a cycle with a stage at constant volume ("A to B at a constant volume of 4.9 L")
        return self._fail(f"states the value \"{m.group(0)}\", but the problem gives two different values of "
                          f"the {held}: the process is misnamed.",
                          "given_process")

    def vacuum_index(self, text: str) -> Finding | None:
        """"The refractive index of the air is 1.34": air's and vacuum's index is 1."""
        m = _VACUUM_INDEX.search(text)
        value = _one_value(text) if m else None
        if value is None or abs(value[0] - 1.0) <= 0.01:
            return None
        return self._fail(f"calls {value[0]:g} the \"{m.group(0)}\", which is 1: the value is another medium's.",
                          "given_object")

    def invented_percent(self, text: str) -> Finding | None:
        """"2.0 kBq (decays at 2% per second)": a percentage in a remark that the problem does not state."""
        for remark in re.findall(r"\(([^()]*)\)", text):
            for x in _PERCENT.findall(remark):
                if float(x) not in self.percents:
                    return self._fail(f"adds \"({remark.strip()})\", a percentage the problem does not state: the "
                                      f"remark invents a quantity.", "given_remark_number")
        return None

    def each_of_several(self, text: str) -> Finding | None:
        """"The speed of each trolley: 9.42 m/s" where the trolleys move at 9.42 and 4.5 m/s: another given
        of the kind, whose description names the object ("initial speed of the slower trolley"), differs."""
        m = _EACH.search(text)
        own = self._own(text) if m else None
        dim = self.gt.dims.get(own) if own else None
        if dim is None or len(self._kind_values(dim)) < 2:
            return None
        noun = _stem(m.group(2).lower())
        values = self.gt.instances[0]
        if not any(g != own and g in values and not math.isclose(float(values[g]), float(values[own]), rel_tol=_REL)
                   and self.gt.dims.get(g) is not None and mp.same_dim(self.gt.dims[g], dim)
                   and noun in {_stem(w) for w in _words(self.gt.descriptions.get(g, ""))} for g in self.gt.givens):
            return None  # no other object named so has a value of this kind that differs
        return self._fail(f"gives one value for \"{m.group(0)}\", but the problem's values of that kind differ: "
                          f"it is only {own} ({self.gt.descriptions.get(own, '')}).", "given_object", own)

    def limit_word(self, text: str) -> Finding | None:
        """"The current carrying capacity is 1.9 A" for the current the solenoid carries."""
        m = _LIMIT.search(text)
        own = self._own(text) if m else None
        if own is None or _LIMIT.search(self.gt.descriptions.get(own, "")) or _LIMIT.search(self.question):
            return None
        return self._fail(f"calls the value a \"{m.group(0)}\" (a limit), but it is {own} "
                          f"({self.gt.descriptions.get(own, '')}).", "given_words", own)

    def invented_object(self, text: str) -> Finding | None:
        """"W: a stable nucleus with half-life 13 h" where the problem's nuclei are X, Y and Z."""
        if len(self.object_letters) < 2 or not re.search(r"\d", text):
            return None
        for m in _OBJECT_LETTER.finditer(text):
            letter = m.group(1)
            if letter not in self.object_letters and letter not in self.gt.units:
                return self._fail(f"names an object {letter}, but the problem's objects are "
                                  f"{', '.join(sorted(self.object_letters))}: the value is given to an object the "
                                  f"problem does not have.", "given_object")
        return None

    def target_subject(self, text: str) -> Finding | None:
        """"The fringe width is the separation between the slits, which is 0.65 mm": a given sentence whose
        subject holds every content word of the target's description and all of no given's ("The heat absorbed
        per cycle is QH = ..." names the given QH, though the target is the heat rejected per cycle)."""
        target = getattr(self.gt, "target", None)
        m = _SUBJECT.match(text)
        if m is None or not target or target in self.gt.givens or _one_value(text) is None:
            return None
        head = set(_words(m.group("head")))
        words = self._content(self.gt.target_desc)
        if not words or not words <= head or any(self._content(self.gt.descriptions.get(g, "")) <= head
                                                 for g in self.gt.givens if self._content(self.gt.descriptions.get(g, ""))):
            return None
        return self._fail(f"makes \"{m.group('head')}\", the quantity asked for, the subject of a given value: the "
                          f"target is stated as given.", "given_unknown", target)

    @staticmethod
    def _content(description: str) -> set[str]:
        """A description's content words: three letters or more, articles and the like aside ("final" and
        "initial" count: "initial temperature" is not "final temperature")."""
        return {w for w in _words(description) if len(w) > 2 and w not in _ARTICLES}

    def two_laws(self, text: str) -> Finding | None:
        """"Ampère-Maxwell: Ohm's law, current is the power per volt": a heading's law that is none of the
        problem's, before the problem's own law."""
        m = re.match(r"\s*([^:]{2,60}?)\s*:(.*)$", text, re.DOTALL)
        if m is None:
            return None
        foreign = (set(_words(m.group(1))) & _EPONYMS) - self.own_laws
        own = set(_words(m.group(2))) & self.own_laws
        if not foreign or not own:
            return None
        return Finding(0, "fail", "CM", f"is headed by {', '.join(sorted(foreign))}'s law, which none of this problem's "
                       f"principles names, before {', '.join(sorted(own))}'s law: a law that does not apply.",
                       info={"check": "principle"})

    def invented_heading(self, text: str) -> Finding | None:
        """"Deuterium-dithionium (D-D): half-life 15 d": a heading whose words (of three letters or more) are
        none of the problem's, the record's or the generator's."""
        m = re.match(r"\s*([^:]{2,60}?)\s*:", text)
        vocabulary = generator_vocabulary()
        if m is None or not vocabulary:
            return None
        words = [w for w in _words(m.group(1)) if len(w) > 2 and w not in _ARTICLES]
        known = vocabulary | {_stem(w) for w in _words(self.question + " " + " ".join(self.gt.descriptions.values()))}
        if not words or any(_stem(w) in known for w in words):
            return None
        return Finding(0, "fail", "CM", f"is headed by \"{m.group(1)}\", a name no principle or quantity of physics "
                       f"problems here uses: the principle is invented.", info={"check": "principle"})

    # -- session ten
    def contradicted_words(self, text: str) -> Finding | None:
        """"The object is placed 76.8 cm behind the mirror." where the problem places it "76.8 cm in front of a
        concave mirror": a position or direction word (`_OPPOSITES`) whose opposite the problem's sentence with
        one of the step's numbers applies to the same noun, while the problem never applies the word itself
        to that noun."""
        numbers = {round(float(x), 9) for x in re.findall(_NUMBER, text)}
        if not numbers:
            return None
        sentences = [x for x in re.split(r"(?<=[.;?])\s+|;", self.question) if x.strip()]
        for one, other in _OPPOSITES:
            for said, opposite in ((one, other), (other, one)):
                nouns = _nouns_after(said, text)
                if not nouns:
                    continue
                shared = [x for x in sentences if numbers & {round(float(v), 9) for v in re.findall(_NUMBER, x)}]
                against = set().union(*[_nouns_after(opposite, x) for x in shared]) & nouns if shared else set()
                if against and not _nouns_after(said, self.question) & against:
                    m = re.search(rf"\b{said}\b", text, re.IGNORECASE)
                    noun = next(w for w in _words(text[m.end():]) if _stem(w) in against)
                    return self._fail(f"says \"{m.group(0)} ... {noun}\", but the problem's sentence with this value says "
                                      f"the opposite: the value is placed wrongly.", "given_object")
        return None

    def other_subject(self, text: str) -> Finding | None:
        """"The screen is 0.88 mm apart." where the problem writes "the slits are 0.88 mm apart and the screen is
        0.814 m away": the sentence's one-noun subject is attached in the problem (clause by clause) only to
        other values of the line's value's kind, and no clause that states the value names that noun. A subject
        that is a quantity between two objects ("The distance between the slits is 1.38 m.") is judged by those
        objects' noun in the same way (session 14)."""
        m = _NOUN_SUBJECT.match(text) or _BETWEEN_SUBJECT.match(text)
        value = _one_value(text) if m else None
        if value is None or value[1] is None or mp.same_dim(value[1], mp.DIMLESS):
            return None
        noun = _plural_cut(m.group("noun").lower())  # the word itself: "acceleration" is not "accelerates"
        if noun in _ARTICLES:
            return None
        clauses = [(c, {_plural_cut(w) for w in _words(c)}, _clause_values(c))
                   for c in re.split(r"[,;]|\.\s|\band\b", self.question)]
        stating = [c for c in clauses if any(mp.same_dim(d, value[1]) and math.isclose(v, value[0], rel_tol=_REL)
                                             for v, d in c[2])]
        naming = [c for c in clauses if noun in c[1]]
        if not stating or any(noun in c[1] for c in stating) or not naming:
            return None
        if not any(mp.same_dim(d, value[1]) for c in naming for _, d in c[2]):
            return None  # the problem gives the noun no value of this kind
        return self._fail(f"makes \"{m.group('noun')}\" the subject of the value, but the problem gives the "
                          f"{m.group('noun')} another value of that kind and states this one of something else.",
                          "given_object")

    def equated_sides(self, text: str) -> Finding | None:
        """"The final temperature of the gas (425 K) is the starting temperature (324 K)": a given sentence that
        says one quantity is another, each side named by a noun phrase (cut at its first remark, comma or "and"),
        of two kinds by their head nouns (`remark_head`), or with two remarks' values of one kind that differ."""
        m = _EQUATED.match(text)
        if m is None:
            return None
        sides = [m.group("a"), re.split(r",|\band\b|\.\s|;", m.group("b"))[0]]
        heads = [remark_head(re.split(r"[(,]", x)[0]) for x in sides]
        if all(heads) and not mp.same_dim(heads[0][1], heads[1][1]):
            return self._fail(f"says the {heads[0][0]} is the {heads[1][0]}: two quantities of different kinds are "
                              f"equated.", "given_equated")
        values = [[v for x in re.findall(r"\(([^()]*)\)", side) for v in _clause_values(x)] for side in sides]
        if any(mp.same_dim(d1, d2) and not math.isclose(v1, v2, rel_tol=_REL)
               for v1, d1 in values[0] for v2, d2 in values[1]):
            return self._fail("says one value is another of its kind that differs: two different quantities are "
                              "equated.", "given_equated")
        return None

    def one_of_pair(self, text: str) -> Finding | None:
        """"The angle of the beam is 70 deg." where the problem writes "the cable makes an angle of 70 deg with the
        beam": the problem's clause with the value names the quantity, its subject and, after "with", the line's
        object; the line does not name the subject."""
        m = _OF_OBJECT.match(text)
        value = _one_value(text) if m else None
        if value is None or value[1] is None:
            return None
        head, owner = _stem(m.group("head").lower()), _stem(m.group("owner").lower())
        said = {_stem(w) for w in _words(text)}
        for clause in re.split(r"[,;]|\.\s|\band\b", self.question):
            if not any(mp.same_dim(d, value[1]) and math.isclose(v, value[0], rel_tol=_REL)
                       for v, d in _clause_values(clause)):
                continue
            subject = _NOUN_START.match(clause)
            pair = re.search(r"\bwith\s+(?:the\s+|a\s+|an\s+)?([a-z]+)", clause, re.IGNORECASE)
            if subject and pair and head in {_stem(w) for w in _words(clause)} and _stem(pair.group(1)) == owner \
                    and _stem(subject.group(1).lower()) not in said:
                return self._fail(f"calls the value the {m.group('head')} of the {m.group('owner')}, but the problem "
                                  f"gives it between the {subject.group(1)} and the {pair.group(1)}.", "given_object")
        return None

    def other_owner(self, text: str) -> Finding | None:
        """"The length of the circle is 1.6 m." where the problem writes "a light string of length 1.6 m ... whirled
        in a vertical circle", "The car has a radius of 284 m." for "a curve of radius 284 m" (session 12): the
        problem's "<object> of <quantity> <value>" says whose quantity the value is; a given line that gives the
        same quantity with that value to another object the problem names has moved it to the wrong object. The
        problem's "<object> whose <quantity> is <value>" says it too ("a diffraction grating whose line density is
        344 mm^-1": "the line density of the light is 344 mm^-1" gives it to the light; session 14)."""
        named = {_stem(w) for w in _words(self.question)}
        for said in (m for r in _OWNED_LINES for m in r.finditer(text)):
            line_values = _clause_values(said.group(0))
            qty, owner = _stem(said.group("qty").lower()), _stem(said.group("owner").lower())
            if owner not in named:
                continue  # an object of the solution's own wording: judged by the word checks, not here
            for m in [*_OWNED_PROBLEM.finditer(self.question), *_WHOSE_PROBLEM.finditer(self.question)]:
                if _stem(m.group("qty").lower()) == qty and _stem(m.group("owner").lower()) != owner and any(
                        mp.same_dim(d, d2) and math.isclose(v, v2, rel_tol=_REL)
                        for v, d in _clause_values(m.group(0)) for v2, d2 in line_values):
                    return self._fail(f"gives the {said.group('qty')} {said.group('num')} {said.group('unit')} to the "
                                      f"{said.group('owner')}, but the problem gives it to the {m.group('owner')}.",
                                      "given_object")
        return None

    def stable_decay(self, text: str) -> Finding | None:
        """"nY = 7.4 h (half-life of the stable nucleus Z)": a line with a value that names the half-life, decay
        constant or lifetime OF something stable (not the problem's "decays to a stable nucleus Z with a half-life
        of 7.4 h", where the half-life is Y's)."""
        m = _STABLE_DECAY.search(text)
        if m is None or not re.search(_NUMBER, text):
            return None
        return self._fail(f"gives the \"{m.group(0)}\" a value, but a stable nucleus does not decay: the value is "
                          f"another nucleus's.", "given_object")


def _nouns_after(word: str, text: str) -> set[str]:
    """The words (stems, fillers aside) within three words after each place `word` (a regular expression)
    occurs in `text`: "towards a stationary listener" -> {stati, liste}."""
    out: set[str] = set()
    for m in re.finditer(rf"\b{word}\b", text, re.IGNORECASE):
        after = [w for w in _words(text[m.end():])[:3] if w not in _FILLER]
        out |= {_stem(w) for w in after}
    return out


def _plural_cut(word: str) -> str:
    """A word with a plural "s" cut ("slits" -> "slit"), otherwise whole."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _clause_values(clause: str) -> list[tuple[float, mp.Dim]]:
    """Every value of a clause of the problem with a unit pint reads (SI, dimension)."""
    out = []
    for m in _VALUE.finditer(clause):
        unit = m.group(2).rstrip(".,;:)")
        info = mp.pint_unit(unit.replace("^", "**")) if unit else None
        if info is not None:
            out.append((float(m.group(1)) * info.factor, info.dim))
    return out
