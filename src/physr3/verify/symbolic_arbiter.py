"""A learned step arbiter on top of the symbolic verifier (issue #12): one decision, learned from the labelled
real solutions instead of written as rules: "does this <given>/<find> step state the problem's quantity
correctly?".

Why: on the two rounds measured fresh (12, 13), 63 of the symbolic verifier's 70 misses are that decision at steps
1-5, either way (a wrong given read as right, a right given blamed), and rules written from one round's misses
gained about a point on the next. So the rules stay FROZEN and a small model reads their outcome next to the
step's own evidence:

- `step_features`: per <given>/<find> step, features that name no item or family: the values the step writes and
  which ground-truth quantity owns each (a given, the target, another computed quantity, an option, a number of
  the question, or a new value) with its unit kind against the owner's, the step's letter against the owner's,
  values repeated from earlier steps, MiniLM similarities of the step's words (numbers, symbols and units dropped,
  `symbolic_meaning.phrases`) to the owner's description against the best other quantity's, the section tag, and
  where the symbolic verdict stands (this step passed before it, is its step with which check, or lies after it).
- `ArbiterModel`: a logistic regression over those features (standardised; weights, thresholds and provenance
  in `symbolic_arbiter.json` beside this module, rebuilt by `benchmarks/train_step_arbiter.py`).
- `ArbitratedVerifier` (`verifier.symbolic_arbiter=on`): the combination rule. Walk the given/find steps before the
  symbolic verdict's step (all of them when it finds no error): the first with p(wrong) >= `t_hi` is the first
  error, MC. If the verdict's own step is a given/find step blamed MC with p <= `t_lo`, that finding is dropped
  (`SymbolicVerifier.verify(..., accepted=...)`: the step taken as right, no check changed) and the walk goes on;
  every other verdict (another type, another section) is the symbolic verifier's as it is.

An arbiter's verdict says so: `details["check"] == "arbiter"` (the hybrid treats it as a reading finding, so the
judge sees it), `details["arbiter"]` holds p and what the symbolic verdict was.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from physr3 import quantity as mp
from physr3.problems import Problem
from physr3.solution import parse_solution
from physr3.verify.base import Verdict

WEIGHTS = Path(__file__).with_name("symbolic_arbiter.json")
SECTIONS = ("given", "find")  # the steps the arbiter judges
MAX_ACCEPTED = 3  # dropped findings per solution (each costs one more walk of the symbolic verifier)
VALUE_REL = 0.02  # a written value owned by a quantity within this (the verifier's value_rel)
_NUMBER = re.compile(r"(?<![\w.^])[-+]?(?:\d+\.?\d*|\.\d+)(?:\s*(?:[eE]|[x×*]\s*10\^)\s*[-+]?\d+)?")
_UNIT = re.compile(r"\s*([A-Za-zμµΩ°][A-Za-z0-9μµΩ°/*^()\-]*)")
_LHS = re.compile(r"^\s*([A-Za-zα-ωΑ-Ω][\w']*)\s*(?:\([^()]*\)\s*)?[=:]")
_CONSTANTS = (9.8, 9.81, 8.314, 3e8, 6.63e-34, 6.626e-34, 1.6e-19, 1.602e-19, 8.99e9, 9e9, 6.67e-11, 1.38e-23,
              6.02e23, 6.022e23, 8.85e-12, 9.11e-31, 1.67e-27)


# ---------------------------------------------------------------------------------------------- steps
@dataclasses.dataclass
class StepView:
    """One step as the verifier walks it: its 1-based position (the reward's count), section and text."""

    position: int
    tag: str | None
    text: str


def walked_steps(solution: str) -> list[StepView]:
    """The solution's steps with the sections the symbolic verifier reads them in (`section_tags`)."""
    from physr3.verify.symbolic import MAX_STEPS, continued_steps, section_tags

    parsed = parse_solution(solution or "")
    steps = continued_steps(solution or "", section_tags(solution or "", parsed.steps[:MAX_STEPS]))
    return [StepView(i + 1, s.tag, s.text) for i, s in enumerate(steps)]


def read_values(text: str) -> list[tuple[float, Any]]:
    """Each number of a step with the unit written after it (`mp.pint_unit`, None when no unit is read)."""
    out = []
    for m in _NUMBER.finditer(text):
        raw = re.sub(r"\s*(?:[x×*]\s*10\^)\s*", "e", m.group(0)).replace(" ", "")
        try:
            value = float(raw)
        except ValueError:
            continue
        unit = _UNIT.match(text, m.end())
        info = None
        if unit:
            word = unit.group(1).rstrip(".,;:)")
            info = mp.pint_unit(word) if word else None
        out.append((value, info))
    return out


def _close(a: float, b: float, rel: float = VALUE_REL) -> bool:
    return _gap(a, b) <= rel


def _gap(a: float, b: float) -> float:
    """Relative difference of two values."""
    return abs(a - b) / max(abs(a), abs(b), 1e-300)


# ---------------------------------------------------------------------------------------------- features
class ItemReader:
    """The evidence of one problem's ground truth a step's features are read against (built once per item)."""

    def __init__(self, gt: Any, problem: Problem):
        from physr3.verify.symbolic_meaning import WordsMatcher

        self.gt = gt
        self.question = problem.question or ""
        self.truth = gt.instances[0]
        self.roles = {s: ("given" if s in gt.givens else "target" if s == gt.target else "computed")
                      for s in gt.units if s in self.truth}
        self.options = [v for o in (problem.options or []) for v, _ in read_values(o)]
        self.matcher = WordsMatcher(gt)
        # the problem's own vocabulary: its question, the record's descriptions and principles (5-letter stems)
        own = " ".join([self.question, *gt.descriptions.values(), *(p.get("text", "") for p in gt.principles)])
        self.vocabulary = {w[:5] for w in _words(own)}

    def owner(self, value: float, info: Any, letter: str | None = None) -> tuple[str | None, bool]:
        """(the quantity whose value this is, whether the written unit's kind differs from that quantity's):
        the closest match in SI with a unit of the quantity's kind, else the closest display value (two givens
        within `VALUE_REL` of each other, 389 and 385 J/(kg*K), are told apart by the nearer one; two with the
        same value by the step's own letter)."""
        in_si, shown = [], []
        for sym in self.roles:
            kind = self.gt.dims.get(sym)
            if info is not None and _close(value * info.factor, self.truth[sym]) and (
                    kind is None or mp.same_dim(kind, info.dim)):
                in_si.append((round(_gap(value * info.factor, self.truth[sym]), 9), sym != letter, sym))
            if _close(value, self.gt.display_value(sym)):
                clash = info is not None and kind is not None and not mp.same_dim(kind, info.dim)
                shown.append((round(_gap(value, self.gt.display_value(sym)), 9), sym != letter, sym, clash))
        if in_si:
            return min(in_si)[2], False
        if shown:
            _, _, sym, clash = min(shown)
            return sym, clash
        return None, False

    def letter(self, text: str) -> str | None:
        """The ground-truth quantity the step's left-hand letter names, if any."""
        m = _LHS.match(text)
        if not m:
            return None
        name = mp.canonical_name(m.group(1))
        return self.gt.names.get(name) or (m.group(1) if m.group(1) in self.roles else None)

    def similarities(self, text: str) -> dict[str, float]:
        """Best cosine similarity of the step's word phrases to each quantity's description ({} without words
        or without the embedder)."""
        from physr3.verify.symbolic_meaning import phrases

        best: dict[str, float] = {}
        for phrase in phrases(text, tuple(self.matcher.names)):
            scores = self.matcher.scores(phrase) or {}
            for sym, score in scores.items():
                best[sym] = max(best.get(sym, -1.0), score)
        return best


def _words(text: str) -> list[str]:
    """Content words (4 letters or more, no unit words), lower case."""
    return [w.lower() for w in re.findall(r"[A-Za-z]{4,}", text) if mp.pint_unit(w) is None]


def step_features(reader: ItemReader, steps: Sequence[StepView], index: int, verdict: Verdict) -> dict[str, float]:
    """The features of steps[index] (a given/find step), given the symbolic verdict on the whole solution."""
    step = steps[index]
    f: dict[str, float] = {"bias_find": float(step.tag == "find"),
                           "rank": float(sum(s.tag in SECTIONS for s in steps[:index]))}
    values = read_values(step.text)
    f["n_values"] = float(min(len(values), 4))
    f["has_equals"] = float("=" in step.text)
    f["n_words"] = math.log1p(len(re.findall(r"[A-Za-z]{3,}", step.text)))
    letter = reader.letter(step.text)
    owners = []
    for value, info in values:
        sym, clash = reader.owner(value, info, letter)
        owners.append(sym)
        role = reader.roles.get(sym) if sym else None
        if role:
            f[f"owner_{role}"] = f.get(f"owner_{role}", 0.0) + 1.0
        elif any(_close(value, o) for o in reader.options):
            f["owner_option"] = f.get("owner_option", 0.0) + 1.0
        elif value == 0 or any(_close(value, c) for c in _CONSTANTS):
            f["owner_constant"] = f.get("owner_constant", 0.0) + 1.0
        elif re.search(rf"(?<![\d.]){re.escape(_plain(value))}(?![\d])", reader.question):
            f["owner_question"] = f.get("owner_question", 0.0) + 1.0
        else:
            f["owner_new"] = f.get("owner_new", 0.0) + 1.0
        f["unit_missing"] = f.get("unit_missing", 0.0) + float(info is None)
        f["kind_clash"] = f.get("kind_clash", 0.0) + float(clash)
    earlier = [reader.owner(v, i, reader.letter(s.text))[0] for s in steps[:index] if s.tag in SECTIONS
               for v, i in read_values(s.text)]
    f["owner_repeat"] = float(any(o is not None and o in earlier for o in owners))
    words = _words(step.text)
    novel = [w for w in words if w[:5] not in reader.vocabulary]
    f["novel_words"] = math.log1p(len(novel))
    f["novel_share"] = len(novel) / len(words) if words else 0.0
    f["letter_new"] = float(letter is None and bool(_LHS.match(step.text)))
    own = next((o for o in owners if o), None)
    f["letter_known"] = float(letter is not None)
    f["letter_other"] = float(letter is not None and own is not None and letter != own)
    f["letter_target"] = float(letter is not None and letter == reader.gt.target)
    sims = reader.similarities(step.text)
    f["has_words"] = float(bool(sims))
    if sims:
        ref = own if own in sims else (reader.gt.target if step.tag == "find" and reader.gt.target in sims else None)
        top = max(sims, key=sims.get)
        f["sim_top"] = sims[top]
        f["top_is_given"] = float(reader.roles.get(top) == "given")
        f["top_is_target"] = float(top == reader.gt.target)
        if ref is not None:
            other = max((v for s, v in sims.items() if s != ref), default=0.0)
            f["sim_ref"] = sims[ref]
            f["sim_margin"] = sims[ref] - other
    k = verdict.error_step if verdict.ok else 0
    check = str((verdict.details or {}).get("check") or "none")
    f["verdict_none"] = float(k == 0)
    f["verdict_overruled"] = float(bool((verdict.details or {}).get("overruled")))
    if k == 0 or step.position < k:
        f["state_passed"] = 1.0
    elif step.position == k:
        f["state_failed"] = 1.0
        f[f"failed_{verdict.error_type}"] = 1.0
        f[f"check={check}"] = 1.0
    else:
        f["state_after"] = 1.0
    return f


def _plain(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


# ---------------------------------------------------------------------------------------------- the model
@dataclasses.dataclass
class ArbiterModel:
    """Logistic regression over named features; p(wrong) of a given/find step, and the two thresholds."""

    features: list[str]
    mean: np.ndarray
    std: np.ndarray
    coef: np.ndarray
    intercept: float
    t_hi: float
    t_lo: float
    provenance: dict[str, Any] = dataclasses.field(default_factory=dict)
    # optional: a second regression for the step the symbolic verdict failed (the drop decision), so that the
    # evidence may weigh differently there than on the steps it passed (the blame decision)
    failed: ArbiterModel | None = None

    def matrix(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        return np.array([[r.get(name, 0.0) for name in self.features] for r in rows], dtype=np.float64)

    def prob(self, rows: Sequence[dict[str, float]]) -> np.ndarray:
        if not rows:
            return np.zeros(0)
        z = ((self.matrix(rows) - self.mean) / self.std) @ self.coef + self.intercept
        p = 1.0 / (1.0 + np.exp(-z))
        if self.failed is not None:
            at = [i for i, r in enumerate(rows) if r.get("state_failed")]
            if at:
                p[at] = self.failed.prob([rows[i] for i in at])
        return p

    def to_json(self) -> dict[str, Any]:
        return {"model": "logistic", "features": self.features, "mean": self.mean.round(6).tolist(),
                "std": self.std.round(6).tolist(), "coef": self.coef.round(6).tolist(),
                "intercept": round(float(self.intercept), 6), "t_hi": self.t_hi, "t_lo": self.t_lo,
                "provenance": self.provenance, "failed": self.failed.to_json() if self.failed else None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArbiterModel:
        failed = cls.from_json(data["failed"]) if data.get("failed") else None
        return cls(list(data["features"]), np.array(data["mean"]), np.array(data["std"]), np.array(data["coef"]),
                   float(data["intercept"]), float(data["t_hi"]), float(data["t_lo"]), data.get("provenance", {}),
                   failed)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


@functools.lru_cache(maxsize=4)
def load_model(path: str | None = None) -> ArbiterModel:
    """The shipped weights (or those at `path`)."""
    return ArbiterModel.from_json(json.loads(Path(path or WEIGHTS).read_text(encoding="utf-8")))


def fit_split(rows: Sequence[dict[str, float]], labels: Sequence[int], **kwargs: Any) -> ArbiterModel:
    """Two regressions (`fit`): one over the steps the symbolic verdict passed or did not reach, one over the
    steps it failed (`ArbiterModel.failed`)."""
    at = [bool(r.get("state_failed")) for r in rows]
    model = fit([r for r, a in zip(rows, at) if not a], [y for y, a in zip(labels, at) if not a], **kwargs)
    model.failed = fit([r for r, a in zip(rows, at) if a], [y for y, a in zip(labels, at) if a], **kwargs)
    return model


def fit(rows: Sequence[dict[str, float]], labels: Sequence[int], *, l2: float = 1.0, min_count: int = 5,
        iters: int = 200) -> ArbiterModel:
    """L2-regularised logistic regression by Newton's method (deterministic, no dependency beyond numpy);
    features seen nonzero in fewer than `min_count` rows are left out (a check name seen twice is noise)."""
    counts: dict[str, int] = {}
    for r in rows:
        for name, v in r.items():
            counts[name] = counts.get(name, 0) + (v != 0)
    features = sorted(n for n, c in counts.items() if c >= min_count)
    model = ArbiterModel(features, np.zeros(len(features)), np.ones(len(features)), np.zeros(len(features)), 0.0,
                         1.01, -1.0)
    x = model.matrix(rows)
    y = np.asarray(labels, dtype=np.float64)
    model.mean = x.mean(axis=0)
    model.std = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
    z = np.hstack([(x - model.mean) / model.std, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[-1] = 0.0  # the intercept is not shrunk
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        grad = z.T @ (p - y) + reg * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    model.coef, model.intercept = w[:-1], float(w[-1])
    return model


# ---------------------------------------------------------------------------------------------- the rule
def arbitrate(verify: Any, reader: ItemReader, steps: Sequence[StepView], model: ArbiterModel,
              first: Verdict, features: Any = None) -> Verdict:
    """The combination rule (module docstring). `verify(accepted)` is the symbolic verdict with those 1-based
    positions taken as right; `first` is its verdict with none; `features` reads a step (`step_features`, or a
    memoised one when many thresholds are tried)."""
    features = features or step_features
    verdict, accepted = first, frozenset()
    while True:
        if not verdict.ok:
            return verdict
        k = verdict.error_step
        walk = [i for i, s in enumerate(steps) if s.tag in SECTIONS and (k == 0 or s.position <= k)
                and s.position not in accepted]
        probs = dict(zip(walk, model.prob([features(reader, steps, i, verdict) for i in walk])))
        for i in walk:
            if steps[i].position < k or k == 0:
                if probs[i] >= model.t_hi:
                    return _blamed(steps[i], float(probs[i]), verdict)
        at = next((i for i in walk if steps[i].position == k), None)
        if (at is None or verdict.error_type != "MC" or probs[at] > model.t_lo
                or len(accepted) >= MAX_ACCEPTED):
            return verdict
        accepted = accepted | {k}
        following = verify(accepted)
        following.details = {**following.details, "arbiter": {"accepted": sorted(accepted),
                                                              "p_dropped": round(float(probs[at]), 3)}}
        verdict = following


def _blamed(step: StepView, p: float, verdict: Verdict) -> Verdict:
    return Verdict(step.position, "MC", f"Step {step.position} states a quantity of the problem wrongly (the "
                   f"learned arbiter: p = {p:.2f} that this {step.tag} step is wrong).",
                   details={"tag": step.tag, "check": "arbiter",
                            "arbiter": {"p": round(p, 3), "symbolic": {"error_step": verdict.error_step,
                                                                       "error_type": verdict.error_type,
                                                                       "check": verdict.details.get("check")}}},
                   unchecked_steps=[k for k in verdict.unchecked_steps if k < step.position])


class ArbitratedVerifier:
    """The symbolic verifier with the learned arbiter over its given/find decisions (`verifier.symbolic_arbiter`)."""

    name = "symbolic"

    def __init__(self, symbolic: Any, model: ArbiterModel | None = None):
        self.symbolic = symbolic
        self.model = model or load_model()
        self.counters = symbolic.counters

    def report(self) -> str:
        return self.symbolic.report()

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        return [self.verify(p, s) for p, s in items]

    def verify(self, problem: Problem, solution: str) -> Verdict:
        first = self.symbolic.verify(problem, solution)
        gt = self.symbolic.ground_truth(problem) if first.ok else None
        if gt is None:
            return first
        steps = walked_steps(solution)
        return arbitrate(lambda accepted: self.symbolic.verify(problem, solution, accepted=accepted),
                         ItemReader(gt, problem), steps, self.model, first)
