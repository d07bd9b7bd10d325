"""Accuracy of the offline symbolic verifier: on the generator's error-injected solutions (held-out
families) and on labelled real solutions written by the fine-tuned model.

    .venv/bin/python benchmarks/verifier.py                      # 1,200 problems, seed 2026, 1/3 of families held out
    .venv/bin/python benchmarks/verifier.py --n 2000 --seed 7 --show 10
    .venv/bin/python benchmarks/verifier.py --input injected.jsonl   # a `physr3 synth --inject` file instead
    .venv/bin/python benchmarks/verifier.py --real benchmarks/data/real_solutions/dev.jsonl --n 0   # real set only

Any LLM judge, offline (no endpoint needed): dump its prompts, have the judge answer each one however it can be
reached, score the raw replies exactly as the HTTP path (`verifier.kind=llm`) would, in the same real-set report:

    .venv/bin/python benchmarks/verifier.py --judge-prompts prompts.jsonl   # {"id", "n_steps", "messages"}; no labels
    .venv/bin/python benchmarks/verifier.py --judge-replies replies.jsonl --judge-name gpt-x --save-verdicts v.jsonl

The replies of the judge measured so far (a Claude agent answering the paper's prompt by reading alone, standing in
for GPT-4o; see the data folder's README) are kept, so its figures are reproducible:

    .venv/bin/python benchmarks/verifier.py --judge-replies benchmarks/data/real_solutions/judge/round4_replies.jsonl
    .venv/bin/python benchmarks/verifier.py --real benchmarks/data/real_solutions/round3_test.jsonl \
        --judge-replies benchmarks/data/real_solutions/judge/round3_replies.jsonl

Problems: the test split of `generate_problems` restricted to held-out families (every `--holdout-every`-th
family by sorted name, offset by `--holdout-offset`; the verifier has no per-family code, so "held out"
means these families were not the ones looked at while writing it). Each problem becomes one line of
`physr3.synth.inject.inject_problems` (about 10% untouched controls, the rest one MC, CM or CE error with
its first step and type). Printed, all from this one run:

- first-error step exact: verdict step == label step, over all injected lines (controls included);
- error type: verdict type == label type (MC | CM | CE | none), same lines;
- untouched ground truth passed: the reference solution of every problem judged error-free;
- paraphrases passed: two programmatic rewrites per problem (`tests/support/paraphrase.py`: reordered
  givens, equations in other forms and LaTeX, words around maths, other unit spellings, rounding, missing
  units) judged error-free;
- restyled injected: each injected erroneous solution rewritten the same way (labels renumbered with
  the reordered givens), first error step and type both right (generated runs only);
- the confusion matrix of types, accuracy per injection operator, and the verifier's speed.
Targets set when the verifier was built: step >= 95%, type >= 90%, ground truth passed >= 99%.

The real set (`--real`, default `benchmarks/data/real_solutions/round18_test.jsonl`, the newest round: 134 real
solutions of a demo run's refine-trained and Stage 1 models, both at temperature 0.7, on new problems of 76
families, plus 16 reworded ground truths, labelled by two independent teams (the second team's labels under
`second_team`, scored with `--labels second_team`); it had its one held-out measurement in session 15, after the
last verifier change). `correct_reworded.jsonl` holds 40 more correct solutions (reworded ground truths, all
labelled "none" by two blind annotators): the false-alarm check.
`dev.jsonl`, `test.jsonl`, `level1_test.jsonl` and `round3_test.jsonl` to `round11_test.jsonl` are tuning data
(each had its one held-out measurement), and so are rounds 12 to 16 (held out in sessions 14 and 15) and rounds 17
and 18 (the held-out measurement of session 15's rules)
once their misses are read: pass one of
them while changing the verifier, or `--real ""` for the injected set only; a verifier change needs a new
labelled round to be measured honestly (skipped with a message when the file is absent):
`physr3 verify` input lines with `label_error_step` (1-based, 0 = no error) and
`label_error_type` (MC | CM | CE | none) from two independent annotators (see the data folder's README). Printed: first-error step exact and within
one step, error type, Cohen's kappa of the type with "none" as a class (`sklearn.metrics.cohen_kappa_score`),
the mean reward e/(n+1) by the verifier against the same reward computed from the labels (the inflation when
the verifier finds errors late), the confusion matrix, where the verifier's step lies against the label's
(early, exact, late), and the share of labelled first errors at a step the verifier could not check
(`Verdict.unchecked_steps`: free prose, which only the LLM judge can read). The aim on real solutions: step >= 85%,
type >= 80%, mean reward within 0.03 of the labels'. Tune on a dev part only; report the held-out part.
A verdict that is not `ok` (an unreadable judge reply) agrees with no label, "no error" included. The step figure
comes with its 95% Wilson interval; `--paired-with OTHER.jsonl` (another verifier's or judge's `--save-verdicts`
file on the same set) lists the items each gets right and the other wrong, with an exact sign test: on ~160
items a few points between two verifiers are within noise unless the discordant items lean one way.

`--judge-replies` (one `{"id", "reply"}` line per `--real` item, the reply text as the judge wrote it) puts a judge
in the symbolic verifier's place in that report (the injected part runs only if `--n` is given): each reply goes
through `LLMJudge.interpret` (parsing, range check per `--on-step-out-of-range`, type inferred from the section),
and the judge's counters are printed. A missing, unknown or repeated id is an error naming the file and line.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import sys
import time
from pathlib import Path

from physr3.config import VerifierConfig
from physr3.errors import UserError

DEFAULT_REAL = "benchmarks/data/real_solutions/round18_test.jsonl"
TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"  # the paraphraser is a test double: tests/support


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=None,
                        help="problems (one injected line each; default 1200, 0 with --judge-replies; 0: real set only)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--holdout-every", type=int, default=3, help="hold out every k-th family (sorted names)")
    parser.add_argument("--holdout-offset", type=int, default=1)
    parser.add_argument("--input", help="verify this injected JSONL instead of generating")
    parser.add_argument("--paraphrases", type=int, default=2, help="paraphrases per problem (0: skip)")
    parser.add_argument("--show", type=int, default=5, help="print this many mismatches")
    parser.add_argument("--real", default=DEFAULT_REAL, help="labelled real solutions (JSONL; skipped if absent)")
    parser.add_argument("--unchecked", default=VerifierConfig.symbolic_unchecked, choices=("pass", "error"),
                        help="verifier.symbolic_unchecked, for both sets (default: the config's)")
    parser.add_argument("--answer-overrules", default=VerifierConfig.symbolic_answer_overrules,
                        action=argparse.BooleanOptionalAction,
                        help="verifier.symbolic_answer_overrules, for both sets (default: the config's)")
    parser.add_argument("--arbiter", default="on" if VerifierConfig.symbolic_arbiter else "off", choices=("on", "off"),
                        help="verifier.symbolic_arbiter, the learned given/find step arbiter, for both sets "
                             "(default: the config's)")
    parser.add_argument("--judge-prompts", metavar="OUT.jsonl",
                        help="write the LLM judge's request for each --real item ({id, n_steps, messages}; no "
                             "labels) and exit")
    parser.add_argument("--judge-step-numbers", default=VerifierConfig.judge_step_numbers,
                        choices=("position", "as_written"),
                        help="verifier.judge_step_numbers for --judge-prompts (rounds 3 to 10 were judged as_written)")
    parser.add_argument("--judge-replies", metavar="FILE.jsonl",
                        help="score a judge's raw replies ({id, reply} lines, one per --real item) in the real "
                             "report instead of the symbolic verifier")
    parser.add_argument("--judge-name", help="the judge's name in the report (default: the replies file's stem)")
    parser.add_argument("--on-step-out-of-range", default=VerifierConfig.on_step_out_of_range,
                        choices=("clamp", "reject", "keep_counted"),
                        help="verifier.on_step_out_of_range for --judge-replies (default: the config's)")
    parser.add_argument("--labels", metavar="FIELD",
                        help="score against a second team's labels kept in each row under FIELD (e.g. second_team)")
    parser.add_argument("--save-verdicts", metavar="FILE.jsonl",
                        help="write the real set's verdicts beside their labels (id, step, type, status, "
                             "label_step, label_type, explanation)")
    parser.add_argument("--paired-with", metavar="FILE.jsonl",
                        help="a --save-verdicts file of another verifier or judge on the same --real set: print the "
                             "items each gets right and the other wrong (first-error step) and an exact sign test")
    args = parser.parse_args(argv)
    try:
        if args.judge_prompts:
            write_judge_prompts(args.judge_prompts, args.real, args.judge_step_numbers)
            return 0
        if args.n is None:  # a judge's replies answer the real set only, unless the injected set is asked for
            args.n = 0 if args.judge_replies else 1200
        if args.n > 0 or args.input:
            injected(args)
        real(args)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def injected(args: argparse.Namespace) -> int:
    """The generator's injected errors, ground truths and paraphrases (see the module docstring)."""
    from physr3.problems import Problem, iter_jsonl
    from physr3.synth.generate import generate_problems
    from physr3.synth.registry import family_names
    from physr3.verify.symbolic import SymbolicVerifier, with_arbiter

    sys.path.insert(0, str(TESTS_DIR))
    from support.paraphrase import paraphrase, paraphrase_injection

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

    verifier = with_arbiter(SymbolicVerifier(unchecked=args.unchecked, answer_overrules=args.answer_overrules),
                            args.arbiter)
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


def real(args: argparse.Namespace) -> int:
    """The labelled real set: agreement of the verifier's (or, with --judge-replies, a judge's) first error
    with the annotators'."""
    import os

    from physr3.verify.runner import read_items
    from physr3.verify.symbolic import SymbolicVerifier, with_arbiter

    if not args.real or not os.path.exists(args.real):
        if args.judge_replies:
            raise UserError(f"--judge-replies needs the labelled set they answer: --real {args.real!r} not found")
        print(f"\nreal set: {args.real} not found; skipped (--real PATH to give one)")
        return 0
    # a judge prompt needs the ground truth: refused here, line named, rather than skipped
    items = read_items(args.real, need_ground_truth=bool(args.judge_replies), limit=None)
    if args.labels:
        items = with_labels_of(items, args.labels, args.real)
    judge = None
    if args.judge_replies:
        judge = offline_judge(args.judge_name or Path(args.judge_replies).stem, args.on_step_out_of_range)
        replies = read_replies(args.judge_replies, args.real, items)
        t0 = time.perf_counter()
        verdicts = [score_reply(judge, replies[p.id], s) for p, s, _ in items]
        elapsed = time.perf_counter() - t0
        what = (f"judge {judge.client.model} (replies from {args.judge_replies}); "
                f"verifier.on_step_out_of_range={args.on_step_out_of_range}")
    else:
        verifier = with_arbiter(SymbolicVerifier(unchecked=args.unchecked, answer_overrules=args.answer_overrules),
                                args.arbiter)
        t0 = time.perf_counter()
        verdicts = verifier.verify_batch([(p, s) for p, s, _ in items])
        elapsed = time.perf_counter() - t0
        what = (f"verifier.symbolic_unchecked={args.unchecked}, "
                f"verifier.symbolic_answer_overrules={args.answer_overrules}, verifier.symbolic_arbiter={args.arbiter}")
    real_report(args, items, verdicts, elapsed, what)
    if judge is not None:
        c = judge.counters()
        assert c["calls"] == 0, "the offline judge must never call its client"
        print(f"judge counters: {c['verdicts']} replies, {c['parse_failures']} parse failures (no usable verdict), "
              f"{c['out_of_range_steps']} out-of-range steps ({args.on_step_out_of_range}), "
              f"{c['type_inferred']} types inferred from the section, {c['inconsistent']} inconsistent "
              "(step 0 with a type); 0 API calls")
    if args.save_verdicts:
        save_verdicts(args.save_verdicts, items, verdicts)
    if args.paired_with:
        paired_report(args.paired_with, args.real, items, verdicts)
    return 0


def with_labels_of(items: list, field: str, path: str) -> list:
    """The items with a second team's labels (`label_round.py second-team`, row[field]) in the label's place."""
    out = []
    for problem, solution, row in items:
        label = row.get(field)
        if not isinstance(label, dict) or "error_step" not in label or "error_type" not in label:
            raise UserError(f"{path}: item {problem.id} has no {field!r} label with error_step and error_type "
                            "(--labels)")
        out.append((problem, solution, row | {"label_error_step": int(label["error_step"]),
                                              "label_error_type": label["error_type"]}))
    return out


def real_report(args: argparse.Namespace, items: list, verdicts: list, elapsed: float, what: str) -> None:
    """Print the real-set figures of `verdicts` against the labels of `items` (read_items triples).

    A verdict that is not `ok` (an unreadable judge reply, a solution the verifier could not read) is no
    answer: it agrees with no label, not even "no error" (its type shows as "failed"), and its reward is
    the failure reward (0.0, `on_failure=min_reward`).
    """
    from sklearn.metrics import cohen_kappa_score

    from physr3.config import RewardConfig
    from physr3.report.intervals import wilson_interval
    from physr3.reward import step_reward
    from physr3.verify.base import Verdict

    rows = [row for _, _, row in items]
    n = len(rows)
    if not n:
        print(f"\nreal set: {args.real} is empty")
        return
    label_steps = [int(r["label_error_step"]) for r in rows]
    label_types = [str(r.get("label_error_type") or "none") for r in rows]
    steps = [v.error_step if v.ok else -1 for v in verdicts]  # -1: never equal to, nor within one of, a label
    types = [v.error_type if v.ok else "failed" for v in verdicts]
    failed = sum(not v.ok for v in verdicts)
    exact = sum(a == b for a, b in zip(steps, label_steps))
    near = sum(abs(a - b) <= 1 and (a == 0) == (b == 0) for a, b in zip(steps, label_steps))
    type_hits = sum(a == b for a, b in zip(types, label_types))
    both = sum(a == b and c == d for a, b, c, d in zip(steps, label_steps, types, label_types))
    order = ("MC", "CM", "CE", "none") + (("failed",) if failed else ())
    kappa = cohen_kappa_score(label_types, types, labels=list(order))
    cfg = RewardConfig()
    r_verifier = [step_reward(v, s, cfg) or 0.0 for v, (_, s, _) in zip(verdicts, items)]
    r_labels = [step_reward(Verdict(k, t if k else "none"), s, cfg) or 0.0
                for k, t, (_, s, _) in zip(label_steps, label_types, items)]
    mean_v, mean_l = sum(r_verifier) / n, sum(r_labels) / n
    early = sum(0 < a < b or (a > 0 and b == 0) for a, b in zip(steps, label_steps))
    late = sum(a > b > 0 or (a == 0 and b > 0) for a, b in zip(steps, label_steps))
    errors = [(v, k) for v, k in zip(verdicts, label_steps) if k > 0]
    # passed over unread (a miss), or found only because `--unchecked error` blames the first unread step
    prose = sum(k in getattr(v, "unchecked_steps", []) for v, k in errors if v.error_step != k)
    by_default = sum(v.error_step == k and (v.details or {}).get("check") == "unchecked" for v, k in errors)
    domains = collections.Counter(r.get("domain", "?") for r in rows)
    print(f"\nreal set: {n} labelled solutions from {args.real} ({len({r.get('family') for r in rows})} families; "
          + ", ".join(f"{d} {c}" for d, c in sorted(domains.items())) + f"); {what}")
    labels = collections.Counter(label_types)
    print("labels: " + ", ".join(f"{k} {labels[k]}" for k in ("MC", "CM", "CE", "none")))
    low, high = wilson_interval(exact, n)
    print(f"first-error step exact      {exact / n:7.2%}  ({exact}/{n}; 95% CI {low:.1%}-{high:.1%})   aim >= 85%")
    print(f"first-error step within 1   {near / n:7.2%}  ({near}/{n})")
    print(f"error type                  {type_hits / n:7.2%}  ({type_hits}/{n})   aim >= 80%")
    print(f"step and type both right    {both / n:7.2%}  ({both}/{n})")
    print(f"Cohen's kappa (type, none a class)  {kappa:.3f}")
    print(f"mean reward e/(n+1): verifier {mean_v:.3f}, labels {mean_l:.3f} (inflation {mean_v - mean_l:+.3f}; "
          "aim within 0.03)")
    print(f"verifier's step against the label's: early {early}, exact {exact}, late {late}"
          + (f", no usable verdict {failed}" if failed else ""))
    print(f"labelled first errors at a step the verifier could not check (free prose; for the LLM judge): "
          f"{prose}/{len(errors)} passed unread, {by_default}/{len(errors)} exact only as the first unread step "
          "(--unchecked error)")
    print(f"statuses: {dict(collections.Counter(v.status for v in verdicts))}; speed {n / max(elapsed, 1e-9):.0f} "
          "solutions/s")
    # per batch (source), so that tuning on one batch shows as a gap to the others
    by_source: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for r, a, b, c, d in zip(rows, steps, label_steps, types, label_types):
        tally = by_source[str(r.get("source") or "?")]
        tally[0] += 1
        tally[1] += a == b
        tally[2] += c == d
    print("per source: " + "; ".join(f"{src} {t[0]}: step {t[1] / t[0]:.1%}, type {t[2] / t[0]:.1%}"
                                      for src, t in sorted(by_source.items(), key=lambda kv: -kv[1][0])))
    conf = collections.Counter(zip(label_types, types))
    print("confusion (rows: label, columns: verdict)")
    print("        " + "".join(f"{c:>7}" for c in order))
    for a in order[:4]:
        print(f"{a:>6}  " + "".join(f"{conf[(a, b)]:7d}" for b in order))
    shown = 0
    for v, r, a, k, c, t in zip(verdicts, rows, steps, label_steps, types, label_types):
        if shown >= args.show:
            break
        if (a, c) != (k, t):
            shown += 1
            print(f"\nREAL MISS {r.get('id')} {r.get('family')} label {k} {t} ({str(r.get('label_note', ''))[:120]})\n"
                  f"  verdict {v.error_step} {v.error_type}{'' if v.ok else f' [{v.status}]'}: {v.explanation[:200]}")


# ------------------------------------------------------------------------------ the LLM judge, offline
def offline_judge(name: str, on_step_out_of_range: str):
    """An LLMJudge for replies that come from a file, never from its client.

    Only `LLMJudge.messages` and `LLMJudge.interpret` are used (the prompt and the parse/validation/range
    handling of the HTTP path, unchanged); the client exists because the judge needs one. It points at an
    unused address (port 9, "discard") with a placeholder key and no cache: constructing it opens no
    connection, and `real()` asserts afterwards that it made no call.
    """
    from physr3.llm.client import ChatClient
    from physr3.verify.llm_judge import LLMJudge

    client = ChatClient(model=name, base_url="http://127.0.0.1:9/v1", api_key="unused", cache=None)
    return LLMJudge(client, VerifierConfig(kind="llm", on_step_out_of_range=on_step_out_of_range))


def score_reply(judge, reply: str, solution: str):
    """The Verdict the HTTP path (`LLMJudge.averify`) makes of this reply, counted the same way."""
    judge.stats.verdicts += 1
    verdict = judge.interpret(reply, solution)
    if verdict.ok:
        judge.stats.ok += 1
    return verdict


def write_judge_prompts(out: str, real_path: str, step_numbers: str = "position") -> int:
    """One line per item of `real_path`: {"id", "n_steps", "messages"}, the judge's exact request and the
    step count its reply is checked against; nothing of the labels."""
    from physr3.problems import check_output_path
    from physr3.verify.llm_judge import n_steps_for_range
    from physr3.verify.runner import read_items

    items = read_items(real_path, need_ground_truth=True, limit=None)
    judge = offline_judge("prompts-only", VerifierConfig.on_step_out_of_range)
    judge.cfg.judge_step_numbers = step_numbers
    check_output_path(Path(out))
    with open(out, "w", encoding="utf-8") as f:
        for problem, solution, _ in items:
            line = {"id": problem.id, "n_steps": n_steps_for_range(solution),
                    "messages": judge.messages(problem, solution)}
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"wrote {len(items)} judge prompts from {real_path} to {out}: answer each with the judge model, then "
          f"`benchmarks/verifier.py --real {real_path} --judge-replies REPLIES.jsonl` "
          '(one {"id", "reply"} line per prompt, the reply text as the judge wrote it)')
    return len(items)


def read_replies(path: str, real_path: str, items: list) -> dict[str, str]:
    """id -> raw reply text from a {"id", "reply"} JSONL file: exactly one reply per item of the real set."""
    from physr3.errors import InputFormatError
    from physr3.problems import iter_jsonl

    known = {p.id for p, _, _ in items}
    replies: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        rid, reply = row.get("id"), row.get("reply")
        if not isinstance(rid, str):
            raise InputFormatError(path, lineno, "id", "required string field (an id of the --real set)")
        if not isinstance(reply, str):
            raise InputFormatError(path, lineno, "reply", "required string field (the judge's raw reply text)")
        if rid in first_line:
            raise InputFormatError(path, lineno, "id", f"duplicate id {rid!r} (first on line {first_line[rid]})")
        if rid not in known:
            raise InputFormatError(path, lineno, "id", f"unknown id {rid!r}: not an item of {real_path}")
        first_line[rid], replies[rid] = lineno, reply
    missing = [rid for rid in (p.id for p, _, _ in items) if rid not in replies]
    if missing:
        real_line = {row.get("id"): lineno for lineno, row in iter_jsonl(real_path)}
        named = ", ".join(f"{rid!r} ({real_path}:{real_line.get(rid, '?')})" for rid in missing[:5])
        raise UserError(f"{path}: no reply for {len(missing)} of the {len(items)} items of {real_path}: {named}"
                        + (", ..." if len(missing) > 5 else ""))
    return replies


def sign_test_p(wins: int, losses: int) -> float:
    """Two-sided exact sign test (binomial, p = 1/2) on the discordant pairs; ties carry no information."""
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1)) / 2**n
    return min(1.0, 2 * tail)


def paired_report(path: str, real_path: str, items: list, verdicts: list) -> None:
    """Compare these verdicts item by item with another dump on the same labelled set (first-error step):
    the figure two verifiers differ by on ~160 items is within noise unless the discordant items say so."""
    from physr3.errors import InputFormatError
    from physr3.problems import iter_jsonl

    labels = {p.id: int(row["label_error_step"]) for p, _, row in items}
    other: dict[str, int] = {}
    for lineno, row in iter_jsonl(path):
        rid, step = row.get("id"), row.get("step")
        if rid not in labels:
            raise InputFormatError(path, lineno, "id", f"unknown id {rid!r}: not an item of {real_path}")
        if not isinstance(step, int):
            raise InputFormatError(path, lineno, "step", "required integer field (the other verdict's step)")
        other[rid] = step if row.get("status", "ok") == "ok" else -1  # no usable verdict: agrees with no label
    missing = [rid for rid in labels if rid not in other]
    if missing:
        raise UserError(f"{path}: no verdict for {len(missing)} of the {len(labels)} items of {real_path} "
                        f"(first: {missing[0]!r})")
    now = {p.id: (v.error_step if v.ok else -1) for (p, _, _), v in zip(items, verdicts)}
    wins = sorted(i for i in labels if now[i] == labels[i] != other[i])
    losses = sorted(i for i in labels if other[i] == labels[i] != now[i])
    print(f"paired with {path}: right where it was wrong {len(wins)}, wrong where it was right {len(losses)} "
          f"(exact sign test p = {sign_test_p(len(wins), len(losses)):.3g})")
    for name, ids in (("right where it was wrong", wins), ("wrong where it was right", losses)):
        if ids:
            print(f"  {name}: " + ", ".join(ids))


def save_verdicts(path: str, items: list, verdicts: list) -> None:
    """One line per item: the verdict beside its labels, to list the misses."""
    with open(path, "w", encoding="utf-8") as f:
        for (problem, _, row), v in zip(items, verdicts):
            f.write(json.dumps({"id": problem.id, "step": v.error_step, "type": v.error_type, "status": v.status,
                                "label_step": int(row["label_error_step"]),
                                "label_type": str(row.get("label_error_type") or "none"),
                                "explanation": v.explanation}, ensure_ascii=False) + "\n")
    print(f"verdicts written to {path}")


if __name__ == "__main__":
    raise SystemExit(main())
