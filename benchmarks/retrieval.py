"""Retrieval quality of the CM feedback channel: is the family's governing relation in the top 3?

    .venv/bin/python benchmarks/retrieval.py [--per-family 20] [--input CM.jsonl] [--store-dir DIR] [--k 3]

Target (issue 5): on the generator's CM-injected set, the family's governing relation is among the top 3
retrieved formulas for >= 80% of items.

Cases come from `--input` (records with question, solution, error_step, explanation, family — e.g. the
generator's CM-injected set, when it exists) or, by default, are simulated from generated problems: the
<concept> step is replaced by another family's principle (a wrong law) and two verifier explanations are
tried — "named" (says which law applies, as a GPT-4o judge usually does) and "vague" (says only that the
principle does not apply). The query is what the router sends: step + explanation + problem.

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

from physr3.feedback.retrieval import FormulaRetriever, build_query
from physr3.solution import parse_solution

# family -> regex over corpus entry names (lower case, straight quotes) that are its governing relation.
GOVERNING = {
    "atwood_tension": r"newton's second law(?!.*(rotation|harmonic|oscillation|extended))",
    "incline_friction_speed": r"work-energy theorem|kinetic friction|work done by a constant force of kinetic",
    "projectile_range": r"^range\b|time of flight|projectile",
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
    cases = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                verdict = row.get("verdict") if isinstance(row.get("verdict"), dict) else row
                gt = row.get("ground_truth") or {}
                names = [s.get("name", "") for s in gt.get("steps", []) if s.get("kind") == "principle"]
                cases.append({"family": row.get("family", ""), "question": row["question"],
                              "solution": row["solution"], "error_step": int(verdict["error_step"]),
                              "explanation": verdict.get("explanation", ""), "principles": names,
                              "variant": "file"})
    return cases


def evaluate(retriever: FormulaRetriever, cases: list[dict], k: int) -> tuple[dict, float]:
    stats: dict = defaultdict(lambda: {"n": 0, "hit1": 0, "hitk": 0, "rr": 0.0})
    t0 = time.perf_counter()
    for case in cases:
        step = parse_solution(case["solution"]).step(case["error_step"])
        query = build_query(case["question"], step.text if step else None, case["explanation"])
        pattern = relevance_pattern(case["family"], case["principles"])
        hits = retriever.search(query, k=10)
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
    args = ap.parse_args()
    cases = file_cases(args.input) if args.input else simulated_cases(args.per_family)
    with tempfile.TemporaryDirectory() as tmp:
        retriever = FormulaRetriever(store_dir=args.store_dir or tmp)
        t0 = time.perf_counter()
        _ = retriever.store
        build_s = time.perf_counter() - t0
        stats, per_query = evaluate(retriever, cases, args.k)
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
