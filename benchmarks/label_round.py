"""Build a new blind-labelled round of real solutions for `benchmarks/verifier.py` (how rounds 5 and 6 were made).

The labelling itself is done by people or agents outside this script; the script prepares what they read and
collects what they write, so that no annotator sees a verdict, another annotator's labels or the other half.

    python benchmarks/label_round.py select   --dir R --problems R/problems_all.jsonl --seed 61 [--reword 16]
        # per family one problem to solve greedily, one to sample, and (--reword families) one whose ground truth
        # is reworded by hand; questions of any existing set under benchmarks/data/real_solutions are excluded
    # ... generate: physr3 generate --input R/greedy.jsonl --out R/gen_greedy.jsonl (and sampled), and write
    #     R/reworded.jsonl ({"id", "solution"} per line of R/reword.jsonl)
    python benchmarks/label_round.py assemble --dir R --prefix r7 --sources demo-sft-greedy demo-ours-T0.7
        # items.jsonl (shuffled, ids r7-001...), half1.md / half2.md with [P=k] position markers
    # ... two annotators per half write R/half{1,2}_{a,b}.jsonl: {"id", "error_step", "error_type", "note"}
    python benchmarks/label_round.py agree    --dir R     # kappa, step agreement, disagreements.md
    # ... an adjudicator writes R/adjudicated.jsonl for the disagreements
    python benchmarks/label_round.py finalize --dir R --out benchmarks/data/real_solutions/round8_test.jsonl

    # ... optionally a second, independent team labels the same halves in another folder R2 (agree, adjudicate):
    python benchmarks/label_round.py second-team --dir R2 --into benchmarks/data/real_solutions/round8_test.jsonl
        # adds each item's `second_team` label and prints how often the two teams agree (a ceiling for a verifier);
        # benchmarks/verifier.py --labels second_team scores against that team

`relabel` prepares an existing set for a blind relabelling in the same layout (halves of its items under their
own ids); `agree` and `finalize --relabel SET` then work on it, keeping the old label in `label_before_relabel`.
`relabel --set A B --ids FILE` takes only the items named in FILE ('SET ID' lines, e.g. those a rubric change
affects) from several sets, and `put-back --dir R --from OUT` writes finalize's rows back into their sets.
The annotator's instructions are in benchmarks/data/real_solutions/labelling/annotator.txt.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from sklearn.metrics import cohen_kappa_score

from physr3.solution import ANCHORED_STEP_PATTERN

SETS = Path(__file__).resolve().parent / "data" / "real_solutions"
KEEP = ("question", "answer", "answer_type", "domain", "family", "options", "ground_truth", "level")


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def mark(solution: str) -> str:
    """Each `Step k:` line prefixed with its position [P=k] (1-based order of appearance): labels are positions."""
    lines, p = [], 0
    for line in solution.split("\n"):
        if ANCHORED_STEP_PATTERN.match(line):
            p += 1
            line = f"[P={p}] {line}"
        lines.append(line)
    return "\n".join(lines)


def view(item: dict) -> str:
    """One item as an annotator reads it: problem, options, gold answer, reference solution, marked solution."""
    opts = item.get("options")
    s = f"## ITEM {item['id']}\n\n**Problem:** {item['question']}\n\n"
    if opts:
        s += "**Options:** " + "; ".join(f"{chr(65 + i)}) {o}" for i, o in enumerate(opts)) + "\n\n"
    s += f"**Gold answer:** {item['answer']}\n\n**Reference (ground-truth) solution:**\n```\n{item['reference_solution']}\n```\n\n"
    n = len(ANCHORED_STEP_PATTERN.findall(item["solution"]))
    return s + f"**Solution to label** ({n} positions):\n```\n{mark(item['solution'])}\n```\n\n"


def write_halves(folder: Path, items: list[dict], stem: str = "half") -> None:
    half = (len(items) + 1) // 2
    for h, part in ((1, items[:half]), (2, items[half:])):
        (folder / f"{stem}{h}.md").write_text(f"# Items to label ({len(part)} items)\n\n" + "".join(map(view, part)))
        print(f"{stem}{h}.md: {len(part)} items")


def select(args: argparse.Namespace) -> None:
    seen = {r["question"].strip() for f in SETS.glob("*.jsonl") for r in read(f)}
    by_family: dict[str, list[dict]] = {}
    for r in read(Path(args.problems)):
        if r["question"].strip() not in seen:
            by_family.setdefault(r["family"], []).append(r)
    families = sorted(by_family)
    reword = set(random.Random(args.seed).sample(families, min(args.reword, len(families))))
    parts: dict[str, list[dict]] = {"greedy": [], "sampled": [], "reword": []}
    for f in families:
        ps = by_family[f]
        if len(ps) < 2 + (f in reword):
            sys.exit(f"family {f} has only {len(ps)} new problems: synthesize more (--n)")
        parts["greedy"].append(ps[0])
        parts["sampled"].append(ps[1])
        if f in reword:
            parts["reword"].append(ps[2])
    for name, rows in parts.items():
        write(Path(args.dir) / f"{name}.jsonl", rows)
        print(f"{name}.jsonl: {len(rows)} problems")


def assemble(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    items, dropped = [], 0
    for part, source in (("greedy", args.sources[0]), ("sampled", args.sources[1])):
        problems = {p["id"]: p for p in read(folder / f"{part}.jsonl")}
        for g in read(folder / f"gen_{part}.jsonl"):
            if not ANCHORED_STEP_PATTERN.search(g["completion"]):
                dropped += 1  # no numbered step: nothing to label
                continue
            items.append(_item(problems[g["id"]], source, g["completion"], g.get("finish_reason")))
    reworded = {r["id"]: r["solution"] for r in read(folder / "reworded.jsonl")}
    for p in read(folder / "reword.jsonl"):
        items.append(_item(p, "ground-truth-reworded", reworded[p["id"]], None))
    random.Random(args.seed).shuffle(items)
    for i, it in enumerate(items, 1):
        it["id"] = f"{args.prefix}-{i:03d}"
    write(folder / "items.jsonl", items)
    print(f"{len(items)} items ({dropped} samples without a step dropped): {dict(Counter(i['source'] for i in items))}")
    write_halves(folder, items)


def _item(problem: dict, source: str, solution: str, finish: str | None) -> dict:
    row = {k: problem.get(k) for k in KEEP}
    row.update(reference_solution=problem["solution"], problem_id=problem["id"], source=source, solution=solution,
               finish_reason=finish)
    return row


def relabel(args: argparse.Namespace) -> None:
    """A whole set, or (`--ids`) chosen items of several sets, each row marked with its set for `put-back`."""
    folder = Path(args.dir)
    if args.ids is None:
        if len(args.set) != 1:
            sys.exit("relabel: several sets need --ids (which items of each)")
        items = read(SETS / f"{args.set[0]}.jsonl")
    else:
        wanted = [tuple(line.split()) for line in Path(args.ids).read_text().splitlines() if line.strip()]
        if any(len(w) != 2 for w in wanted):
            sys.exit(f"{args.ids}: each line is 'SET ID'")
        items = []
        for name in dict.fromkeys(n for n, _ in wanted):
            rows = {r["id"]: r for r in read(SETS / f"{name}.jsonl")}
            for n, i in wanted:
                if n == name:
                    if i not in rows:
                        sys.exit(f"{args.ids}: no item {i!r} in {name}")
                    items.append(rows[i] | {"relabel_set": name})
    write(folder / "items.jsonl", items)
    write_halves(folder, items)


def put_back(args: argparse.Namespace) -> None:
    """Replace each relabelled row (`finalize --relabel` of a `relabel --ids` folder) in the set it came from."""
    by_set: dict[str, dict[str, dict]] = {}
    for row in read(Path(args.source)):
        name = row.pop("relabel_set", None)
        if name is None:
            sys.exit(f"{args.source}: row {row['id']} has no relabel_set (made by `relabel --ids`)")
        by_set.setdefault(name, {})[row["id"]] = row
    for name, new in by_set.items():
        rows = read(SETS / f"{name}.jsonl")
        missing = set(new) - {r["id"] for r in rows}
        if missing:
            sys.exit(f"{name}: no item {sorted(missing)[0]!r}")
        write(SETS / f"{name}.jsonl", [new.get(r["id"], r) for r in rows])
        print(f"{name}: {len(new)} rows replaced")


def labels(folder: Path) -> tuple[dict, dict]:
    a, b = {}, {}
    for h in (1, 2):
        a.update({r["id"]: r for r in read(folder / f"half{h}_a.jsonl")})
        b.update({r["id"]: r for r in read(folder / f"half{h}_b.jsonl")})
    return a, b


def key(label: dict) -> tuple[int, str]:
    return int(label["error_step"]), label["error_type"]


def agree(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    items = {r["id"]: r for r in read(folder / "items.jsonl")}
    a, b = labels(folder)
    missing = [i for i in items if i not in a or i not in b]
    if missing:
        sys.exit(f"labels missing for {len(missing)} items, first {missing[0]}")
    ids = list(items)
    n = len(ids)
    steps = sum(a[i]["error_step"] == b[i]["error_step"] for i in ids)
    near = sum(abs(int(a[i]["error_step"]) - int(b[i]["error_step"])) <= 1 for i in ids)
    both = [i for i in ids if key(a[i]) == key(b[i])]
    print(f"{n} items: kappa (type) {cohen_kappa_score([a[i]['error_type'] for i in ids], [b[i]['error_type'] for i in ids]):.3f}, "
          f"step exact {steps / n:.1%}, within one {near / n:.1%}, both {len(both) / n:.1%}")
    split = [i for i in ids if i not in set(both)]
    with open(folder / "disagreements.md", "w", encoding="utf-8") as f:
        f.write(f"# {len(split)} disagreements to adjudicate\n\n")
        for i in split:
            f.write(view(items[i]))
            for who, lab in (("Annotator 1", a), ("Annotator 2", b)):
                f.write(f"**{who}:** step {lab[i]['error_step']}, {lab[i]['error_type']}: {lab[i].get('note', '')}\n\n")
            f.write("---\n\n")
    print(f"{len(split)} disagreements -> {folder / 'disagreements.md'}")


def final_labels(folder: Path) -> dict[str, tuple[dict, str]]:
    """Per item id its final label and how it was reached: agreed by both annotators, else adjudicated."""
    a, b = labels(folder)
    adjudicated = {r["id"]: r for r in read(folder / "adjudicated.jsonl")} if (folder / "adjudicated.jsonl").exists() else {}
    out = {}
    for i in a:
        if key(a[i]) == key(b.get(i, {"error_step": -1, "error_type": ""})):
            out[i] = (a[i], "agreed")
        elif i in adjudicated:
            out[i] = (adjudicated[i], "adjudicated")
        else:
            sys.exit(f"{i}: a disagreement without an adjudicated label")
    return out


def second_team(args: argparse.Namespace) -> None:
    """A second, independent team's final labels of the same items go into the set under `--field`, and the two
    teams' agreement is printed: the ceiling of any verifier's agreement with one team is about where two careful
    teams agree with each other."""
    from physr3.report.intervals import wilson_interval

    final, rows = final_labels(Path(args.dir)), read(Path(args.into))
    missing = [r["id"] for r in rows if r["id"] not in final]
    if missing:
        sys.exit(f"{args.dir}: no label for {len(missing)} items of {args.into}, first {missing[0]}")
    for row in rows:
        label, how = final[row["id"]]
        row[args.field] = {"error_step": int(label["error_step"]), "error_type": label["error_type"],
                           "note": label.get("note", ""), "how": how}
    write(Path(args.into), rows)
    n = len(rows)
    first = [(int(r["label_error_step"]), r["label_error_type"]) for r in rows]
    second = [key(r[args.field]) for r in rows]
    step = sum(x[0] == y[0] for x, y in zip(first, second))
    low, high = wilson_interval(step, n)
    kappa = cohen_kappa_score([x[1] for x in first], [y[1] for y in second])
    print(f"{n} rows of {args.into} get {args.field}; the two teams' first-error step agrees on {step}/{n} = "
          f"{step / n:.1%} [{low:.1%}, {high:.1%}], type kappa {kappa:.3f}, "
          f"step and type {sum(x == y for x, y in zip(first, second)) / n:.1%}")


def finalize(args: argparse.Namespace) -> None:
    folder = Path(args.dir)
    a, b = labels(folder)
    final = final_labels(folder)
    rows, changed = read(folder / "items.jsonl"), 0
    for row in rows:
        i = row["id"]
        label, how = final[i]
        if args.relabel:
            before = {"error_step": row["label_error_step"], "error_type": row["label_error_type"],
                      "note": row.get("label_note", ""), "how": row.get("label_how"),
                      "annotator_a": row.get("annotator_a"), "annotator_b": row.get("annotator_b")}
            if "label_before_relabel" in row:  # relabelled before: that history stays, one level down
                before["label_before_relabel"] = row["label_before_relabel"]
            changed += (before["error_step"], before["error_type"]) != key(label)
            row["label_before_relabel"] = before
        row.update(label_error_step=int(label["error_step"]), label_error_type=label["error_type"],
                   label_note=label.get("note", ""), label_how=how,
                   annotator_a={k: a[i][k] for k in ("error_step", "error_type", "note") if k in a[i]},
                   annotator_b={k: b[i][k] for k in ("error_step", "error_type", "note") if k in b[i]})
    write(Path(args.out), rows)
    print(f"{len(rows)} rows -> {args.out}: {dict(Counter(r['label_error_type'] for r in rows))}"
          + (f"; label changed on {changed}" if args.relabel else ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("select")
    s.add_argument("--problems", required=True)
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--reword", type=int, default=16, help="families whose third problem's ground truth is reworded")
    s = sub.add_parser("assemble")
    s.add_argument("--prefix", required=True, help="item id prefix, e.g. r7")
    s.add_argument("--sources", nargs=2, required=True, metavar=("GREEDY", "SAMPLED"))
    s.add_argument("--seed", type=int, default=0)
    s = sub.add_parser("relabel")
    s.add_argument("--set", nargs="+", required=True, help="existing sets' names, e.g. dev")
    s.add_argument("--ids", help="a file of 'SET ID' lines: relabel only these items (then put-back)")
    s = sub.add_parser("put-back", help="write the rows of `finalize --relabel` back into the sets they came from")
    s.add_argument("--from", dest="source", required=True, help="finalize's --out of a `relabel --ids` folder")
    sub.add_parser("agree")
    s = sub.add_parser("finalize")
    s.add_argument("--out", required=True)
    s.add_argument("--relabel", action="store_true", help="keep each row's old label in label_before_relabel")
    s = sub.add_parser("second-team", help="add a second team's labels of the same items to a finished set")
    s.add_argument("--into", required=True, help="the finished set (first team's labels), rewritten in place")
    s.add_argument("--field", default="second_team")
    for p in sub.choices.values():
        p.add_argument("--dir", required=True, help="the round's working folder")
    args = parser.parse_args(argv)
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    {"select": select, "assemble": assemble, "relabel": relabel, "agree": agree, "finalize": finalize,
     "second-team": second_team, "put-back": put_back}[args.cmd](args)


if __name__ == "__main__":
    main()
