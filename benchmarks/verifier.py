"""Accuracy of the offline symbolic verifier on the generator's error-injected solutions (held-out families).

    .venv/bin/python benchmarks/verifier.py                      # 1,200 problems, seed 2026, 1/3 of families held out
    .venv/bin/python benchmarks/verifier.py --n 2000 --seed 7 --show 10
    .venv/bin/python benchmarks/verifier.py --input injected.jsonl   # a `physr3 synth --inject` file instead

Problems: the test split of `generate_problems` restricted to held-out families (every `--holdout-every`-th
family by sorted name, offset by `--holdout-offset`; the verifier has no per-family code, so "held out"
means these families were not the ones looked at while writing it). Each problem becomes one line of
`physr3.synth.inject.inject_problems` (about 10% untouched controls, the rest one MC, CM or CE error with
its first step and type). Printed, all from this one run:

- first-error step exact: verdict step == label step, over all injected lines (controls included);
- error type: verdict type == label type (MC | CM | CE | none), same lines;
- untouched ground truth passed: the reference solution of every problem judged error-free;
- paraphrases passed: two programmatic rewrites per problem (`physr3.verify.paraphrase`: reordered
  givens, equations in other forms and LaTeX, words around maths, other unit spellings, rounding, missing
  units) judged error-free;
- restyled injected: each injected erroneous solution rewritten the same way (labels renumbered with
  the reordered givens), first error step and type both right (generated runs only);
- the confusion matrix of types, accuracy per injection operator, and the verifier's speed.
Targets (issue 4): step >= 95%, type >= 90%, ground truth passed >= 99%.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1200, help="problems (one injected line each)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--holdout-every", type=int, default=3, help="hold out every k-th family (sorted names)")
    parser.add_argument("--holdout-offset", type=int, default=1)
    parser.add_argument("--input", help="verify this injected JSONL instead of generating")
    parser.add_argument("--paraphrases", type=int, default=2, help="paraphrases per problem (0: skip)")
    parser.add_argument("--show", type=int, default=5, help="print this many mismatches")
    args = parser.parse_args(argv)

    from physr3.problems import Problem, iter_jsonl
    from physr3.synth.generate import generate_problems
    from physr3.synth.registry import family_names
    from physr3.verify.paraphrase import paraphrase, paraphrase_injection
    from physr3.verify.symbolic import SymbolicVerifier

    try:
        from physr3.synth.inject import inject_row
    except ImportError:
        print("physr3.synth.inject is not available yet: nothing to measure", file=sys.stderr)
        return 2

    t0 = time.perf_counter()
    injections: list = []  # the Injection behind each generated line (None for a control)
    if args.input:
        rows = [row for _, row in iter_jsonl(args.input)]
        held = sorted({r.get("family", "") for r in rows})
    else:
        names = family_names()
        held = names[args.holdout_offset::args.holdout_every]
        problems = list(generate_problems(args.n, args.seed, families=held, split="test", holdout_families=held))
        rows = [inject_row(p, args.seed, injection=injections) for p in problems]
    t_gen = time.perf_counter() - t0

    def problem_of(row: dict) -> Problem:
        record = dict(row)
        record["solution"] = row.get("reference_solution") or row.get("ground_truth_solution")
        return Problem.from_json(record)

    verifier = SymbolicVerifier()
    items = [(problem_of(r), r["solution"]) for r in rows]
    t0 = time.perf_counter()
    verdicts = verifier.verify_batch(items)
    t_inj = time.perf_counter() - t0
    refs = [(p, p.solution) for p, _ in items if p.solution]
    t0 = time.perf_counter()
    ref_verdicts = verifier.verify_batch(refs)
    t_ref = time.perf_counter() - t0
    paras = [(p, paraphrase(p, random.Random(f"{p.id}:{k}"))) for p, _ in items if p.ground_truth
             for k in range(args.paraphrases)]
    para_verdicts = verifier.verify_batch(paras)
    # the injected errors again, each solution rewritten in another style (labels follow the renumbering)
    styled = []
    for (p, _), inj in zip(items, injections):
        if inj is not None:
            text, step = paraphrase_injection(p.ground_truth, inj, random.Random(f"{p.id}:styled"))
            styled.append((p, text, step, inj.error_type))
    styled_verdicts = verifier.verify_batch([(p, t) for p, t, _, _ in styled])
    styled_hits = sum((v.error_step, v.error_type) == (k, t) for v, (_, _, k, t) in zip(styled_verdicts, styled))

    n = len(rows)
    step_hits = sum(v.error_step == r["label_error_step"] for v, r in zip(verdicts, rows))
    type_hits = sum(v.error_type == r["label_error_type"] for v, r in zip(verdicts, rows))
    ref_pass = sum(v.ok and v.error_step == 0 for v in ref_verdicts)
    para_pass = sum(v.ok and v.error_step == 0 for v in para_verdicts)
    statuses = collections.Counter(v.status for v in verdicts)
    kind = "families in the input" if args.input else "held-out families"
    print(f"verifier benchmark: {n} injected lines from {len(held)} {kind} "
          f"({', '.join(held[:6])}{', ...' if len(held) > 6 else ''}); generation {t_gen:.1f} s")
    labels = collections.Counter(r["label_error_type"] for r in rows)
    print("labels: " + ", ".join(f"{k} {labels[k]}" for k in ("MC", "CM", "CE", "none")))
    print(f"first-error step exact      {step_hits / n:7.2%}  ({step_hits}/{n})   target >= 95%")
    print(f"error type                  {type_hits / n:7.2%}  ({type_hits}/{n})   target >= 90%")
    print(f"ground truth passed         {ref_pass / max(len(refs), 1):7.2%}  ({ref_pass}/{len(refs)})   target >= 99%")
    if paras:
        print(f"paraphrases passed          {para_pass / len(paras):7.2%}  ({para_pass}/{len(paras)})")
    if styled:
        print(f"restyled injected: step and type both right  {styled_hits / len(styled):7.2%}  "
              f"({styled_hits}/{len(styled)})")
    print(f"statuses: {dict(statuses)}")
    print(f"speed: {n / t_inj:.0f} injected solutions/s, {len(refs) / max(t_ref, 1e-9):.0f} reference solutions/s")

    order = ("MC", "CM", "CE", "none")
    conf = collections.Counter((r["label_error_type"], v.error_type) for v, r in zip(verdicts, rows))
    print("\nconfusion (rows: label, columns: verdict)")
    print("        " + "".join(f"{c:>7}" for c in order))
    for a in order:
        print(f"{a:>6}  " + "".join(f"{conf[(a, b)]:7d}" for b in order))

    per_op: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for v, r in zip(verdicts, rows):
        op = r.get("label_operator", r["label_error_type"])
        per_op[op][0] += v.error_step == r["label_error_step"] and v.error_type == r["label_error_type"]
        per_op[op][1] += 1
    print("\nstep and type both right, per operator")
    for op, (hit, tot) in sorted(per_op.items()):
        print(f"  {op:<20} {hit:5d}/{tot:<5d} {hit / tot:7.2%}")

    shown = 0
    for v, r in zip(verdicts, rows):
        if shown >= args.show:
            break
        if (v.error_step, v.error_type) != (r["label_error_step"], r["label_error_type"]):
            shown += 1
            print(f"\nMISS {r.get('family')} label {r['label_error_step']} {r['label_error_type']} "
                  f"({r.get('label_operator')}: {r.get('label_detail')})\n  verdict {v.error_step} {v.error_type}: "
                  f"{v.explanation}")
    for (p, text, step, etype), v in zip(styled, styled_verdicts):
        if shown >= args.show:
            break
        if (v.error_step, v.error_type) != (step, etype):
            shown += 1
            print(f"\nRESTYLED MISS {p.family} label {step} {etype}\n  verdict {v.error_step} {v.error_type}: "
                  f"{v.explanation}\n" + "\n".join("  " + line for line in text.splitlines()
                                                   if line.startswith((f"Step {step}:", f"Step {v.error_step}:"))))
    for (p, sol), v in list(zip(refs, ref_verdicts)) + list(zip(paras, para_verdicts)):
        if shown >= args.show:
            break
        if v.error_step or not v.ok:
            shown += 1
            print(f"\nFALSE ALARM {p.family}: {v.explanation}\n" + "\n".join(
                "  " + line for line in sol.splitlines() if line.startswith(f"Step {v.error_step}:")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
