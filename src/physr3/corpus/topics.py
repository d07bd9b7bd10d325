"""Topic mix of a corpus or benchmark (the paper's Figure 3): five domains and their sub-topics.

The paper shows the share of Mechanics, Electromagnetism, Thermodynamics, Waves & Optics and Modern
Physics in its SFT corpus and in each benchmark, without saying how items were assigned. Here each
question is classified with the offline sentence embedder (all-MiniLM-L6-v2, physr3.retrieval.embedding)
by nearest neighbours among labelled exemplars that ship with the project and are independent of the
generated problems and of the benchmarks:

- the 774 OpenStax worked examples (`data/openstax_worked_examples`), labelled by their textbook chapter
  (`CHAPTER_TOPICS` maps each chapter title to a sub-topic; introductory "units and measurement"
  chapters are left out), and
- one short description per sub-topic (`SUBTOPICS`), so every sub-topic has at least one exemplar.

A question's sub-topic is the one with the largest similarity-weighted vote among its `k` nearest
exemplars; its domain is the domain with the largest summed vote (a domain can win on several
sub-topics' votes together). The exemplar embeddings are computed once and cached under the user cache
dir, keyed by the embedder name and the exemplar texts. Oscillations are counted under Waves & Optics,
as the generated problems (`physr3 synth`) do; electromagnetic waves too.

Deviation: the paper's exact domain boundaries are not stated; these are ours. Measured accuracy on
generated problems (domain known): 92.3% of 300 (benchmarks/topics.py; SciEval with mapped topics 84.8%).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from physr3.problems import DOMAINS

# domain -> sub-topic -> description (also an exemplar)
SUBTOPICS: dict[str, dict[str, str]] = {
    "Mechanics": {
        "Kinematics": "Kinematics: displacement, velocity, acceleration, motion in a straight line, projectile "
                      "motion, relative velocity, vectors.",
        "Forces and Newton's laws": "Newton's laws: forces, tension in strings, pulleys, friction on an incline, "
                                    "normal force, blocks connected by strings.",
        "Work and energy": "Work, kinetic energy, potential energy, springs, conservation of mechanical energy, "
                           "power.",
        "Momentum and collisions": "Linear momentum, impulse, elastic and inelastic collisions, centre of mass.",
        "Rotation and statics": "Rotation about a fixed axis, torque, moment of inertia, rolling, angular momentum, "
                                "static equilibrium of beams and ladders.",
        "Circular motion and gravitation": "Uniform circular motion, centripetal force, banked curves, gravitation, "
                                           "orbits, satellites, escape speed.",
        "Fluids": "Fluid statics and dynamics: pressure, buoyancy, Archimedes, Bernoulli, flow rate, viscosity.",
    },
    "Electromagnetism": {
        "Electrostatics": "Electric charge, Coulomb's law, electric field, Gauss's law, electric potential and "
                          "potential energy of charges.",
        "Capacitance": "Capacitors, capacitance, dielectrics, energy stored in a capacitor, capacitor networks.",
        "Current and circuits": "Electric current, resistance, Ohm's law, resistors in series and parallel, "
                                "DC circuits, Kirchhoff's rules, RC circuits, electric power.",
        "Magnetism": "Magnetic fields, magnetic force on moving charges and currents, charged particle in a "
                     "magnetic field, solenoids, Biot-Savart and Ampere's law.",
        "Induction and AC circuits": "Electromagnetic induction, Faraday's law, motional emf, inductance, RL "
                                     "circuits, transformers, alternating current circuits, impedance.",
    },
    "Thermodynamics": {
        "Heat and calorimetry": "Temperature, heat, specific heat, latent heat, calorimetry, thermal expansion, "
                                "conduction and radiation of heat.",
        "Kinetic theory and gases": "Ideal gas law, kinetic theory of gases, rms speed of molecules, moles, "
                                    "pressure of a gas.",
        "Laws of thermodynamics": "First and second laws of thermodynamics, work done by a gas, isothermal and "
                                  "adiabatic processes, heat engines, Carnot efficiency, entropy.",
    },
    "Waves & Optics": {
        "Oscillations": "Simple harmonic motion, oscillations of a mass on a spring, pendulum period, "
                        "amplitude and frequency.",
        "Waves and sound": "Mechanical waves, waves on a string, standing waves, sound, pipes, intensity level "
                           "in decibels, Doppler effect, beats.",
        "Geometric optics": "Reflection, refraction, Snell's law, total internal reflection, mirrors, lenses, "
                            "image formation, optical instruments.",
        "Wave optics": "Interference, Young's double slit, thin films, diffraction, diffraction gratings, "
                       "polarization.",
        "Electromagnetic waves": "Electromagnetic waves, the speed of light, the electromagnetic spectrum, "
                                 "intensity and radiation pressure of light.",
    },
    "Modern Physics": {
        "Relativity": "Special relativity: time dilation, length contraction, relativistic momentum and energy.",
        "Quantum physics": "Photons, photoelectric effect, Compton scattering, de Broglie wavelength, matter "
                           "waves, uncertainty principle, quantum mechanics.",
        "Atomic physics": "Atomic structure, Bohr model of hydrogen, energy levels, spectral lines, X-rays, "
                          "lasers, solids.",
        "Nuclear physics": "Nuclei, binding energy, radioactivity, half-life, activity, nuclear decay, fission "
                           "and fusion, Q value.",
        "Particle physics": "Elementary particles, quarks, leptons, particle accelerators, cosmology.",
    },
}

# OpenStax chapter title -> sub-topic (College Physics 2e and University Physics 1-3).
CHAPTER_TOPICS: dict[str, str] = {
    "Kinematics": "Kinematics", "Two-Dimensional Kinematics": "Kinematics", "Vectors": "Kinematics",
    "Motion Along a Straight Line": "Kinematics", "Motion in Two and Three Dimensions": "Kinematics",
    "Dynamics: Force and Newton's Laws of Motion": "Forces and Newton's laws",
    "Further Applications of Newton's Laws: Friction, Drag, and Elasticity": "Forces and Newton's laws",
    "Newton's Laws of Motion": "Forces and Newton's laws", "Applications of Newton's Laws": "Forces and Newton's laws",
    "Work, Energy, and Energy Resources": "Work and energy", "Work and Kinetic Energy": "Work and energy",
    "Potential Energy and Conservation of Energy": "Work and energy",
    "Linear Momentum and Collisions": "Momentum and collisions",
    "Statics and Torque": "Rotation and statics", "Rotational Motion and Angular Momentum": "Rotation and statics",
    "Fixed-Axis Rotation": "Rotation and statics", "Angular Momentum": "Rotation and statics",
    "Static Equilibrium and Elasticity": "Rotation and statics",
    "Uniform Circular Motion and Gravitation": "Circular motion and gravitation",
    "Gravitation": "Circular motion and gravitation",
    "Fluid Statics": "Fluids", "Fluid Dynamics and Its Biological and Medical Applications": "Fluids",
    "Fluid Mechanics": "Fluids",
    "Electric Charge and Electric Field": "Electrostatics", "Electric Potential and Electric Field": "Electrostatics",
    "Electric Charges and Fields": "Electrostatics", "Gauss's Law": "Electrostatics",
    "Electric Potential": "Electrostatics", "Capacitance": "Capacitance",
    "Electric Current, Resistance, and Ohm's Law": "Current and circuits",
    "Circuits and DC Instruments": "Current and circuits", "Current and Resistance": "Current and circuits",
    "Direct-Current Circuits": "Current and circuits",
    "Magnetism": "Magnetism", "Magnetic Forces and Fields": "Magnetism", "Sources of Magnetic Fields": "Magnetism",
    "Electromagnetic Induction, AC Circuits, and Electrical Technologies": "Induction and AC circuits",
    "Electromagnetic Induction": "Induction and AC circuits", "Inductance": "Induction and AC circuits",
    "Alternating-Current Circuits": "Induction and AC circuits",
    "Temperature and Heat": "Heat and calorimetry", "Heat and Heat Transfer Methods": "Heat and calorimetry",
    "Temperature, Kinetic Theory, and the Gas Laws": "Kinetic theory and gases",
    "The Kinetic Theory of Gases": "Kinetic theory and gases",
    "Thermodynamics": "Laws of thermodynamics", "The First Law of Thermodynamics": "Laws of thermodynamics",
    "The Second Law of Thermodynamics": "Laws of thermodynamics",
    "Oscillatory Motion and Waves": "Oscillations", "Oscillations": "Oscillations",
    "Waves": "Waves and sound", "Sound": "Waves and sound", "Physics of Hearing": "Waves and sound",
    "Geometric Optics": "Geometric optics", "Geometric Optics and Image Formation": "Geometric optics",
    "Vision and Optical Instruments": "Geometric optics", "The Nature of Light": "Geometric optics",
    "Wave Optics": "Wave optics", "Interference": "Wave optics", "Diffraction": "Wave optics",
    "Electromagnetic Waves": "Electromagnetic waves",
    "Special Relativity": "Relativity", "Relativity": "Relativity",
    "Quantum Physics": "Quantum physics", "Photons and Matter Waves": "Quantum physics",
    "Quantum Mechanics": "Quantum physics",
    "Atomic Physics": "Atomic physics", "Atomic Structure": "Atomic physics", "Condensed Matter Physics": "Atomic physics",
    "Radioactivity and Nuclear Physics": "Nuclear physics", "Medical Applications of Nuclear Physics": "Nuclear physics",
    "Nuclear Physics": "Nuclear physics",
    "Particle Physics": "Particle physics", "Particle Physics and Cosmology": "Particle physics",
}

DOMAIN_OF: dict[str, str] = {sub: dom for dom, subs in SUBTOPICS.items() for sub in subs}
EXEMPLAR_CHARS = 600  # the problem statement's opening: what a question looks like, without the solution


@dataclass
class Exemplars:
    texts: list[str]
    subtopics: list[str]
    vectors: np.ndarray | None = None


def load_exemplars(data_root: Path) -> Exemplars:
    """Sub-topic descriptions and the OpenStax worked examples' problem statements with their chapter's sub-topic."""
    texts, subs = [], []
    for _dom, entries in SUBTOPICS.items():
        for sub, description in entries.items():
            texts.append(description)
            subs.append(sub)
    path = data_root / "openstax_worked_examples" / "worked_examples.jsonl"
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            row = json.loads(raw)
            sub = CHAPTER_TOPICS.get(row["chapter_title"])
            if sub is not None:
                texts.append(row["problem"][:EXEMPLAR_CHARS])
                subs.append(sub)
    return Exemplars(texts, subs)


def _cached_vectors(texts: list[str], embedder, cache_root: Path | None) -> np.ndarray:
    """Embeddings of the exemplars, cached as .npy keyed by the embedder's name and the texts."""
    if cache_root is None:
        return embedder.encode(texts)
    digest = hashlib.sha256(json.dumps([embedder.name, texts]).encode("utf-8")).hexdigest()[:16]
    path = cache_root / "topics" / f"exemplars-{digest}.npy"
    if path.is_file():
        vectors = np.load(path)
        if vectors.shape[0] == len(texts):
            return vectors
    vectors = embedder.encode(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(path)
    return vectors


@dataclass
class Assignment:
    domain: str
    subtopic: str
    score: float  # the winning domain's share of the neighbours' vote


class TopicClassifier:
    """k-nearest-neighbour vote over labelled exemplars in the sentence embedder's space."""

    def __init__(self, embedder, exemplars: Exemplars, k: int = 7, cache_root: Path | None = None):
        self.embedder, self.exemplars, self.k = embedder, exemplars, k
        if exemplars.vectors is None:
            exemplars.vectors = _cached_vectors(exemplars.texts, embedder, cache_root)

    def classify(self, texts: Sequence[str], batch: int = 256,
                 on_progress: Callable[[int], None] | None = None) -> list[Assignment]:
        out: list[Assignment] = []
        ex = self.exemplars
        k = min(self.k, len(ex.texts))
        for start in range(0, len(texts), batch):
            q = self.embedder.encode([t[:EXEMPLAR_CHARS] for t in texts[start:start + batch]])
            sims = q @ ex.vectors.T
            top = np.argsort(-sims, axis=1)[:, :k]
            for row, idx in zip(sims, top):
                sub_votes: Counter[str] = Counter()
                for j in idx:
                    sub_votes[ex.subtopics[j]] += max(float(row[j]), 0.0)
                dom_votes: Counter[str] = Counter()
                for sub, v in sub_votes.items():
                    dom_votes[DOMAIN_OF[sub]] += v
                domain = max(DOMAINS, key=lambda d: dom_votes.get(d, 0.0))  # ties: DOMAINS order
                sub = max((s for s in sub_votes if DOMAIN_OF[s] == domain), key=lambda s: sub_votes[s])
                total = sum(dom_votes.values()) or 1.0
                out.append(Assignment(domain, sub, dom_votes[domain] / total))
            if on_progress:
                on_progress(len(top))
        return out


@dataclass
class Distribution:
    """Counts per domain and per (domain, sub-topic) for one input."""

    name: str
    n: int
    domains: dict[str, int] = field(default_factory=dict)
    subtopics: dict[str, dict[str, int]] = field(default_factory=dict)

    def share(self, domain: str) -> float:
        return self.domains.get(domain, 0) / self.n if self.n else 0.0

    def to_json(self) -> dict:
        return {"name": self.name, "n": self.n,
                "domains": {d: {"count": self.domains.get(d, 0), "share": self.share(d)} for d in DOMAINS},
                "subtopics": self.subtopics}


def distribution(name: str, assignments: Sequence[Assignment]) -> Distribution:
    domains = Counter(a.domain for a in assignments)
    subs: dict[str, dict[str, int]] = {d: {} for d in DOMAINS}
    for a in assignments:
        subs[a.domain][a.subtopic] = subs[a.domain].get(a.subtopic, 0) + 1
    return Distribution(name, len(assignments), {d: domains.get(d, 0) for d in DOMAINS}, subs)


def format_table(dists: Sequence[Distribution]) -> str:
    """A Markdown table: one row per domain (and indented sub-topics), one column per input, in % (count)."""
    head = "| topic | " + " | ".join(f"{d.name} (n={d.n})" for d in dists) + " |"
    lines = [head, "|---|" + "---:|" * len(dists)]
    for dom in DOMAINS:
        lines.append(f"| **{dom}** | " + " | ".join(f"{100 * d.share(dom):.1f}% ({d.domains.get(dom, 0)})"
                                                   for d in dists) + " |")
        for sub in SUBTOPICS[dom]:
            counts = [d.subtopics.get(dom, {}).get(sub, 0) for d in dists]
            if any(counts):
                lines.append(f"| &nbsp;&nbsp;{sub} | " + " | ".join(
                    f"{100 * c / d.n:.1f}%" if d.n else "-" for c, d in zip(counts, dists)) + " |")
    return "\n".join(lines)
