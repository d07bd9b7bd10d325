"""Retrieval quality of the CM feedback channel: is the family's governing relation in the top 3?

    .venv/bin/python benchmarks/retrieval.py [--per-family 20] [--input CM.jsonl] [--store-dir DIR] [--k 3]

Target (set with the CM channel): on the generator's CM-injected set, the family's governing relation is among the top 3
retrieved formulas for >= 80% of items.

Cases come from `--input` — the generator's injected set (`physr3 synth --n 600 --seed 0 --inject
--control-fraction 0 --out inj.jsonl`; its CM lines are explained by the symbolic verifier here), or any
records with question, solution, error_step, explanation, family — or, by default, are simulated: the
<concept> step is replaced by another family's principle (a wrong law) and two verifier explanations are
tried — "named" (says which law applies, as a GPT-4o judge usually does) and "vague" (says only that the
principle does not apply). The query is what the router sends (`FormulaRetriever.search_error`:
e(explanation + the solution's concept steps before the error + problem) - 0.3 e(step)); `--no-context`
leaves the concept steps out, `--mode concat` embeds step + explanation + problem as one text.

Measured (2 shared CPU cores; see physr3/feedback/retrieval.py for the query variants):
    --input inj.jsonl (203 CM items, 60 families)   hit@1 0.62  hit@3 0.82  MRR@10 0.739
    simulated, --per-family 3 (183 per variant)     named: 0.66 / 0.86 / 0.762   vague: 0.60 / 0.72 / 0.676

A retrieved formula counts as the governing relation when its name matches the family's pattern in
`GOVERNING` (hand-written from the corpus; a family without one falls back to its ground-truth principle
names). Prints hit@1, hit@3 and MRR per family and overall, the store build time and the query latency;
exits 1 when overall hit@3 of the first explanation variant is below 0.8.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict

from physr3.feedback.retrieval import FormulaRetriever, build_query, correct_concepts
from physr3.solution import parse_solution

# family -> regex over corpus entry names (lower case, straight quotes) that are its governing relation.
GOVERNING = {
    "ac_rl_average_power": r"rms (voltage|current)|impedance of an rlc|inductive reactance|average power",
    "accelerated_ion_radius": r"radius of a particle's path in a magnetic|work-energy theorem|charge-to-mass ratio",
    "adiabatic_then_isochoric_monatomic": r"adiabatic|first law of thermodynamics|internal energy of a monatomic",
    "atwood_tension": r"newton's second law, (scalar|vector|component) form|^net external force",
    "banked_curve_max_speed": r"banked curve|centripetal force|static friction",
    "beam_cable_tension": r"equilibrium condition|^magnitude of torque|^total torque",
    "bohr_photon_photoelectric": r"photoelectron|energy of a photon|energy ?of hydrogen-like|energy in ?the nth orbit",
    "calorimetry_mixing": r"calorimeter|^heat transfer$",
    "capacitor_network_charge": r"capacitance of a (series|parallel) combination|^capacitance$",
    "carnot_engine_heat_rejected": r"carnot|efficiency of a heat engine|result of energy conservation",
    "cliff_projectile_impact_angle": r"conservation of energy with|gravitational potential energy near|velocity components"
                                     r"|trajectory|time of flight",
    "closed_pipe_overtone_temperature": r"tube closed at one end|speed of sound in (an ideal gas|air)",
    "composite_wall_interface_temperature": r"rate of conductive heat transfer",
    "compton_recoil_energy": r"compton",
    "concave_mirror_image_distance": r"mirror equation|focal length for a spherical mirror",
    "coulomb_charges_touched": r"coulomb's law|coulomb constant",
    "critical_angle_glass_liquid": r"critical angle|snell|index of refraction",
    "de_broglie_accelerated_electron": r"de broglie|kinetic energy of a non-relativistic|matter wave",
    "decay_chain_max_daughter": r"radioactive decay|decay constant|lifetime of a substance",
    "diffraction_grating_angle": r"constructive interference|grating",
    "doppler_wall_beats": r"observed frequency|doppler shift|beat frequency",
    "elastic_collision_head_on": r"conservation of momentum|kinetic energy of a non-relativistic",
    "fission_q_value": r"binding energy|mass defect",
    "half_life_from_activity_ratio": r"radioactive decay|decay constant|activity of a radioactive",
    "ice_to_water_heat": r"heat due to phase change|^heat transfer$",
    "incline_friction_speed": r"work-energy theorem|kinetic friction|work done going from a to b by earth",
    "isobaric_heating_diatomic": r"molar heat capacity at constant pressure|first law of thermodynamics|ratio of molar heat",
    "isochoric_heating_helium": r"molar heat capacity at constant volume|first law of thermodynamics"
                                r"|internal energy of a monatomic",
    "isothermal_expansion_heat": r"net work for a finite change in volume|first law of thermodynamics|ideal gas law",
    "lr_circuit_energy": r"for a rl circuit|energy stored in an inductor",
    "moving_rod_emf_force": r"motional(ly induced)? emf|force on a current-carrying wire|ohm's law|faraday",
    "nuclear_mass_from_binding_energy": r"binding energy|mass defect",
    "parallel_plate_dielectric_energy": r"parallel-plate capacitor|capacitor with ?dielectric|energy stored in (a|an isolated)"
                                        r" capacitor|dielectric constant",
    "pendulum_in_lift_period": r"simple pendulum",
    "photoelectric_stopping_potential": r"photoelectron|energy of a photon|cut-off frequency",
    "photon_radiation_force": r"photon's (linear ?)?momentum|radiation pressure|average force from momentum|^impulse",
    "point_charges_field_superposition": r"electric field at point p|superposition of electric|coulomb's law",
    "projectile_range": r"^range$|time of flight|velocity components",
    "proton_helix_pitch": r"particle's (motion|path) in a magnetic field|force on a charge in a magnetic|magnetic force",
    "radioactive_activity_after_time": r"activity of a radioactive|radioactive decay|decay constant|avogadro",
    "rc_charging_charge": r"charge on a charging capacitor|^time constant$",
    "rectangular_cycle_efficiency": r"efficiency of a heat engine|first law of thermodynamics|net work for a finite"
                                    r"|molar heat capacity|result of energy conservation",
    "resistor_network_power": r"equivalent resistance of a (series|parallel)|power dissipated by a resistor"
                              r"|terminal voltage|ohm's law",
    "rms_speed_gas": r"root-mean-square speed",
    "rolling_incline_time": r"rolling|position from velocity and acceleration|rotational kinetic energy",
    "satellite_escape_energy": r"gravitational potential energy beyond earth|energy in circular orbit|law of gravitation"
                               r"|escape velocity|orbital speed",
    "solenoid_stored_energy": r"inside a solenoid|self-inductance of a solenoid|energy stored in an inductor",
    "sound_intensity_level": r"sound intensity level|spherical wave|intensity of sound",
    "spring_friction_compression": r"work-energy theorem|kinetic friction|spring force|potential energy for an ideal spring"
                                   r"|conservation of energy with",
    "spring_mass_max_speed": r"mass-spring system|maximum velocity of shm|restoring force by a spring",
    "stefan_boltzmann_net_power": r"net rate of heat transfer by radiation|stefan",
    "string_standing_wave_frequency": r"wave or pulse on a string|symmetric boundary|linear mass density",
    "table_pulley_friction_tension": r"newton's second law, (scalar|vector|component) form|kinetic friction"
                                     r"|^net external force",
    "thermal_stress_clamped_rod": r"linear thermal expansion|young's modulus|stress and strain",
    "thin_film_reflected_wavelength": r"constructive interference|destructive interference",
    "thin_lens_image_height": r"thin-lens equation|^magnification m|image distance di|^focal length f$",
    "time_dilation_particle_survival": r"time dilation|lorentz factor|radioactive decay law|length contraction",
    "trolleys_stick_energy_loss": r"conservation of momentum|kinetic energy of a non-relativistic",
    "vertical_circle_top_tension": r"centripetal (force|acceleration)|conservation of energy with|gravitational potential"
                                   r" energy near",
    "xray_cutoff_bragg_angle": r"bragg|energy of a photon",
    "young_double_slit_in_liquid": r"bright fringe|index of refraction|path length difference|constructive interference",
}


def _norm(text: str) -> str:
    return text.lower().replace("’", "'").replace("‘", "'")


def relevance_pattern(family: str, principles: list[str]) -> re.Pattern:
    if family in GOVERNING:
        return re.compile(GOVERNING[family])
    return re.compile("|".join(re.escape(_norm(p)) for p in principles) or r"$^")


def simulated_cases(per_family: int) -> list[dict]:
    from physr3.synth import all_families

    families = all_families()
    principles = {}
    for fam in families:
        gt = fam.generate(0).ground_truth
        principles[fam.name] = [s for s in gt["steps"] if s["kind"] == "principle"]
    cases = []
    for i, fam in enumerate(families):
        wrong_family = families[(i + 1) % len(families)].name
        for seed in range(per_family):
            p = fam.generate(seed)
            concept = next(s for s in p.ground_truth["steps"] if s["kind"] == "principle")
            wrong = principles[wrong_family][seed % len(principles[wrong_family])] if len(families) > 1 else None
            wrong_text = f"{wrong['name']}: {wrong['statement']}" if wrong else "Conservation of momentum"
            solution = p.solution.replace(f"Step {concept['number']}: {concept['text']}",
                                          f"Step {concept['number']}: {wrong_text}")
            names = [s["name"] for s in principles[fam.name]]
            base = {"family": fam.name, "question": p.question, "solution": solution, "error_step": concept["number"],
                    "principles": names}
            cases.append({**base, "variant": "named", "explanation":
                          f"Step {concept['number']} applies {wrong['name'] if wrong else 'the wrong law'}, which does "
                          f"not govern this situation; it is governed by {' and '.join(names)}."})
            cases.append({**base, "variant": "vague", "explanation":
                          f"Step {concept['number']} applies a principle that does not govern this situation."})
    return cases


def file_cases(path: str) -> list[dict]:
    """CM cases from a JSONL: verdict fields (top level or under `verdict`), or the generator's injected lines
    (`physr3 synth --inject`: `label_error_type` == "CM"), which the symbolic verifier explains here."""
    verifier = None
    cases = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            verdict = row.get("verdict") if isinstance(row.get("verdict"), dict) else row
            if "explanation" not in verdict and "label_error_type" in row:
                if row["label_error_type"] != "CM":
                    continue
                if verifier is None:
                    from physr3.config import Config
                    from physr3.verify.registry import build_verifier

                    verifier = build_verifier("symbolic", Config())
                from physr3.problems import Problem

                v = verifier.verify(Problem.from_json(row), row["solution"])
                verdict = {"error_step": v.error_step or row["label_error_step"], "explanation": v.explanation}
            gt = row.get("ground_truth") or {}
            names = [s.get("name", "") for s in gt.get("steps", []) if s.get("kind") == "principle"]
            cases.append({"family": row.get("family", ""), "question": row["question"],
                          "solution": row["solution"], "error_step": int(verdict["error_step"]),
                          "explanation": verdict.get("explanation", ""), "principles": names,
                          "variant": "file"})
    return cases


def evaluate(retriever: FormulaRetriever, cases: list[dict], k: int, mode: str = "router",
             use_context: bool = True) -> tuple[dict, float]:
    """mode "router": the query the feedback router sends; "concat": step + explanation + problem as one text."""
    stats: dict = defaultdict(lambda: {"n": 0, "hit1": 0, "hitk": 0, "rr": 0.0})
    t0 = time.perf_counter()
    for case in cases:
        parsed = parse_solution(case["solution"])
        step = parsed.step(case["error_step"])
        context = correct_concepts(parsed, case["error_step"]) if use_context else ""
        pattern = relevance_pattern(case["family"], case["principles"])
        if mode == "router":
            hits = retriever.search_error(case["question"], step.text if step else None, case["explanation"], k=10,
                                          context=context)
        else:
            hits = retriever.search(build_query(case["question"], step.text if step else None, case["explanation"]),
                                    k=10)
        ranks = [h["rank"] for h in hits if pattern.search(_norm(h["name"]))]
        for key in (case["variant"], f"{case['variant']}/{case['family']}"):
            s = stats[key]
            s["n"] += 1
            s["hit1"] += bool(ranks and ranks[0] == 0)
            s["hitk"] += bool(ranks and ranks[0] < k)
            s["rr"] += 1.0 / (ranks[0] + 1) if ranks else 0.0
    return stats, (time.perf_counter() - t0) / max(len(cases), 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--per-family", type=int, default=20)
    ap.add_argument("--input", help="CM-injected JSONL (default: simulate from generated problems)")
    ap.add_argument("--store-dir", help="Chroma folder (default: a fresh temporary one, so the build is timed)")
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--step-weight", type=float, default=-0.3, help="weight of e(step) in the query vector")
    ap.add_argument("--mode", choices=["router", "concat"], default="router")
    ap.add_argument("--no-context", action="store_true", help="leave the solution's correct concept steps out")
    args = ap.parse_args()
    cases = file_cases(args.input) if args.input else simulated_cases(args.per_family)
    with tempfile.TemporaryDirectory() as tmp:
        retriever = FormulaRetriever(store_dir=args.store_dir or tmp, step_weight=args.step_weight)
        t0 = time.perf_counter()
        _ = retriever.store
        build_s = time.perf_counter() - t0
        stats, per_query = evaluate(retriever, cases, args.k, args.mode, not args.no_context)
    print(f"store open/build: {build_s:.1f} s ({'rebuilt' if retriever.store.rebuilt else 'reused'}); "
          f"query: {1000 * per_query:.0f} ms each; {len(cases)} queries")
    print(f"{'subset':45} {'n':>4} {'hit@1':>6} {f'hit@{args.k}':>6} {'MRR@10':>7}")
    for key in sorted(stats, key=lambda s: (s.count("/"), s)):
        s = stats[key]
        print(f"{key:45} {s['n']:4d} {s['hit1'] / s['n']:6.2f} {s['hitk'] / s['n']:6.2f} {s['rr'] / s['n']:7.3f}")
    first = cases[0]["variant"] if cases else None
    overall = stats[first]["hitk"] / stats[first]["n"] if first else 0.0
    print(f"target: hit@{args.k} >= 0.80 on '{first}': {'met' if overall >= 0.8 else 'NOT met'} ({overall:.2f})")
    return 0 if overall >= 0.8 else 1


if __name__ == "__main__":
    sys.exit(main())
