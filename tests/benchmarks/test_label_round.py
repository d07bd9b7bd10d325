"""benchmarks/label_round.py: a small round built end to end from real round-6 problems (questions changed so
they count as new): selection per family, assembly with position markers, agreement, adjudication, and a final
file that benchmarks/verifier.py reads as a labelled real set."""

from __future__ import annotations

import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "benchmarks" / "data" / "real_solutions"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tool = _load("label_round", ROOT / "benchmarks" / "label_round.py")
bench = _load("verifier_bench_for_labels", ROOT / "benchmarks" / "verifier.py")


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _problems(tmp_path: Path) -> Path:
    """Three problems in each of three families, as `physr3 synth` writes them, with new question texts."""
    by_family: dict[str, list[dict]] = {}
    for r in map(json.loads, (SETS / "round6_test.jsonl").read_text().splitlines()):
        by_family.setdefault(r["family"], []).append(r)
    rows = []
    for family in sorted(f for f, rs in by_family.items() if len(rs) >= 3)[:3]:
        for k, r in enumerate(by_family[family][:3]):
            rows.append({key: r[key] for key in tool.KEEP} | {
                "id": f"{family}-{k}", "question": f"(variant {k}) {r['question']}", "solution": r["reference_solution"]})
    path = tmp_path / "problems_all.jsonl"
    _write(path, rows)
    return path


def test_a_round_goes_from_problems_to_a_labelled_set(tmp_path, capsys) -> None:
    folder = tmp_path / "round"
    tool.main(["select", "--dir", str(folder), "--problems", str(_problems(tmp_path)), "--seed", "1", "--reword", "1"])
    greedy, sampled = (tool.read(folder / f"{p}.jsonl") for p in ("greedy", "sampled"))
    reword = tool.read(folder / "reword.jsonl")
    assert (len(greedy), len(sampled), len(reword)) == (3, 3, 1)
    assert len({p["family"] for p in greedy}) == 3 and not {p["id"] for p in greedy} & {p["id"] for p in sampled}
    # the "model" writes the reference solutions, one sample has no numbered step (dropped)
    _write(folder / "gen_greedy.jsonl", [{"id": p["id"], "completion": p["solution"], "finish_reason": "stop"}
                                         for p in greedy])
    _write(folder / "gen_sampled.jsonl", [{"id": p["id"], "completion": p["solution"] if k else "no steps here",
                                           "finish_reason": "length"} for k, p in enumerate(sampled)])
    _write(folder / "reworded.jsonl", [{"id": p["id"], "solution": p["solution"]} for p in reword])
    tool.main(["assemble", "--dir", str(folder), "--prefix", "rt", "--sources", "sft-greedy", "ours-T0.7"])
    items = tool.read(folder / "items.jsonl")
    assert [i["id"] for i in items] == [f"rt-{k:03d}" for k in range(1, 7)]
    assert sorted(i["source"] for i in items) == ["ground-truth-reworded"] + ["ours-T0.7"] * 2 + ["sft-greedy"] * 3
    halves = [(folder / f"half{h}.md").read_text() for h in (1, 2)]
    assert sum(h.count("## ITEM ") for h in halves) == 6 and "[P=1] Step 1:" in halves[0]
    assert "label_error_step" not in "".join(halves)  # nothing of a label reaches the annotators
    # two annotators per half; they disagree on one item
    for h, part in ((1, items[:3]), (2, items[3:])):
        for who in "ab":
            step = 2 if (who == "b" and h == 1) else 0
            _write(folder / f"half{h}_{who}.jsonl", [
                {"id": it["id"], "error_step": step if k == 0 else 0, "error_type": "MC" if step and k == 0 else "none",
                 "note": "n"} for k, it in enumerate(part)])
    tool.main(["agree", "--dir", str(folder)])
    out = capsys.readouterr().out
    assert "6 items:" in out and "step exact 83.3%" in out and "1 disagreements" in out
    assert (folder / "disagreements.md").read_text().count("## ITEM ") == 1
    final = tmp_path / "roundt_test.jsonl"
    with pytest.raises(SystemExit, match="rt-001: a disagreement without an adjudicated label"):
        tool.main(["finalize", "--dir", str(folder), "--out", str(final)])
    _write(folder / "adjudicated.jsonl", [{"id": items[0]["id"], "error_step": 0, "error_type": "none", "note": "a"}])
    tool.main(["finalize", "--dir", str(folder), "--out", str(final)])
    rows = tool.read(final)
    assert [r["label_how"] for r in rows] == ["adjudicated"] + ["agreed"] * 5
    assert all(r["label_error_step"] == 0 and r["annotator_a"] and r["annotator_b"] for r in rows)
    # a valid labelled real set for the verifier's benchmark
    assert bench.main(["--n", "0", "--real", str(final), "--show", "0"]) == 0
    assert re.search(r"real set: 6 labelled solutions", capsys.readouterr().out)


def test_a_relabel_keeps_the_old_label(tmp_path, capsys) -> None:
    folder = tmp_path / "relabel"
    tool.main(["relabel", "--dir", str(folder), "--set", "dev"])
    items = tool.read(folder / "items.jsonl")
    assert len(items) == 131
    for h, part in ((1, items[:66]), (2, items[66:])):
        for who in "ab":
            _write(folder / f"half{h}_{who}.jsonl", [{"id": it["id"], "error_step": 1, "error_type": "MC"}
                                                     for it in part])
    tool.main(["finalize", "--dir", str(folder), "--out", str(tmp_path / "dev.jsonl"), "--relabel"])
    rows = tool.read(tmp_path / "dev.jsonl")
    kept = [(r["label_before_relabel"]["error_step"], r["label_before_relabel"]["error_type"]) for r in rows]
    assert kept == [(it["label_error_step"], it["label_error_type"]) for it in items]
    assert f"label changed on {sum(k != (1, 'MC') for k in kept)}" in capsys.readouterr().out


def test_a_second_team_is_added_to_a_finished_set_and_scored(tmp_path, capsys) -> None:
    rows = tool.read(SETS / "round6_test.jsonl")[:4]
    finished = tmp_path / "roundt_test.jsonl"
    _write(finished, rows)
    folder = tmp_path / "team2"
    folder.mkdir()
    _write(folder / "items.jsonl", rows)
    # team 2 agrees with the set's labels except on the first item, where its adjudicator says "no error"
    for h, part in ((1, rows[:2]), (2, rows[2:])):
        for who in "ab":
            _write(folder / f"half{h}_{who}.jsonl", [
                {"id": r["id"], "error_step": r["label_error_step"] + (k == 0 and h == 1 and who == "b"),
                 "error_type": r["label_error_type"]} for k, r in enumerate(part)])
    with pytest.raises(SystemExit, match="a disagreement without an adjudicated label"):
        tool.main(["second-team", "--dir", str(folder), "--into", str(finished)])
    _write(folder / "adjudicated.jsonl", [{"id": rows[0]["id"], "error_step": 0, "error_type": "none"}])
    tool.main(["second-team", "--dir", str(folder), "--into", str(finished)])
    assert "agrees on 3/4 = 75.0%" in capsys.readouterr().out
    out = tool.read(finished)
    assert out[0]["second_team"] == {"error_step": 0, "error_type": "none", "note": "", "how": "adjudicated"}
    assert [r["label_error_step"] for r in out] == [r["label_error_step"] for r in rows]  # first team's kept
    # the verifier's benchmark scores against either team; a set without the field is refused by name
    assert bench.main(["--n", "0", "--real", str(finished), "--show", "0", "--labels", "second_team",
                       "--unchecked", "error"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"real set: 4 labelled solutions", out)
    # unread steps: those a miss passed over, and those found only because `error` blames the first unread step
    assert re.search(r"could not check .*: \d+/\d passed unread, \d+/\d exact only as the first unread step", out)
    assert bench.main(["--n", "0", "--real", str(SETS / "round6_test.jsonl"), "--labels", "second_team"]) != 0
    assert "has no 'second_team' label" in capsys.readouterr().err


@pytest.mark.parametrize("name, n, agreed, sources", [
    ("round7", 158, 150, None),
    ("round8", 156, 152, {"demo-ours-greedy": 76, "demo-sft-T0.7": 64, "ground-truth-reworded": 16}),
    ("round9", 150, 148, {"demo-ours-T0.7": 69, "demo-sft-T0.7": 65, "ground-truth-reworded": 16}),
    ("round10", 150, 146, {"demo-ours-T0.7": 67, "demo-sft-T0.7": 67, "ground-truth-reworded": 16}),
    ("round11", 152, 149, {"demo-ours-T0.7": 69, "demo-sft-T0.7": 67, "ground-truth-reworded": 16}),
    ("round12", 153, 150, {"demo-ours-T0.7": 68, "demo-sft-T0.7": 69, "ground-truth-reworded": 16}),
    ("round13", 152, 149, {"demo-ours-T0.7": 68, "demo-sft-T0.7": 68, "ground-truth-reworded": 16}),
    ("round14", 151, 150, {"demo-ours-T0.7": 69, "demo-sft-T0.7": 66, "ground-truth-reworded": 16}),
    ("round15", 157, 157, {"demo-ours-T0.7": 73, "demo-sft-T0.7": 68, "ground-truth-reworded": 16}),
    ("round16", 157, 152, {"demo-ours-T0.7": 71, "demo-sft-T0.7": 70, "ground-truth-reworded": 16}),
    ("round17", 155, 152, {"demo-ours-T0.7": 70, "demo-sft-T0.7": 69, "ground-truth-reworded": 16}),
    ("round18", 150, 148, {"demo-ours-T0.7": 69, "demo-sft-T0.7": 65, "ground-truth-reworded": 16}),
])
def test_a_two_team_round_keeps_both_teams_labels(name, n, agreed, sources) -> None:
    """Rounds 7 to 18 were labelled by two independent teams; the second team's labels stay in the set
    (second_team), the teams' first-error agreement the data folder's README reports is what the file holds, and
    the sources are the ones it lists."""
    rows = tool.read(SETS / f"{name}_test.jsonl")
    assert len(rows) == n and all(r["second_team"]["how"] in ("agreed", "adjudicated") for r in rows)
    # the agreement as labelled: an item relabelled since (session 13's letter rule) keeps its first label
    first = [r.get("label_before_relabel", r) for r in rows]
    assert sum(f.get("error_step", f.get("label_error_step")) == r["second_team"]["error_step"]
               for f, r in zip(first, rows)) == agreed
    if sources is not None:
        assert Counter(r["source"] for r in rows) == sources


def test_the_correct_set_holds_only_solutions_both_annotators_found_correct() -> None:
    """`correct_reworded.jsonl` is the false-alarm check: 40 reworded ground truths (20 light, 20 free rewordings),
    each labelled "none" by both of its blind annotators, each on a different problem."""
    rows = tool.read(SETS / "correct_reworded.jsonl")
    assert len(rows) == 40 and len({r["problem_id"] for r in rows}) == 40
    assert Counter(r["reword_style"] for r in rows) == {"light": 20, "free": 20}
    for r in rows:
        assert (r["label_error_step"], r["label_error_type"], r["label_how"]) == (0, "none", "agreed")
        assert r["annotator_a"]["error_step"] == r["annotator_b"]["error_step"] == 0
        assert r["solution"] != r["reference_solution"]


def test_a_relabel_of_chosen_items_goes_back_into_their_sets(tmp_path, monkeypatch, capsys) -> None:
    sets = tmp_path / "sets"
    sets.mkdir()
    for name in ("dev", "round6_test"):
        (sets / f"{name}.jsonl").write_text((SETS / f"{name}.jsonl").read_text())
    monkeypatch.setattr(tool, "SETS", sets)
    dev, r6 = tool.read(sets / "dev.jsonl"), tool.read(sets / "round6_test.jsonl")
    chosen = [("dev", dev[3]["id"]), ("round6_test", r6[0]["id"]), ("dev", dev[0]["id"])]
    (tmp_path / "ids.txt").write_text("".join(f"{n} {i}\n" for n, i in chosen))
    folder = tmp_path / "relabel"
    tool.main(["relabel", "--dir", str(folder), "--set", "dev", "round6_test", "--ids", str(tmp_path / "ids.txt")])
    items = tool.read(folder / "items.jsonl")
    assert [(it["relabel_set"], it["id"]) for it in items] == [chosen[0], chosen[2], chosen[1]]  # grouped by set
    for h, part in ((1, items[:2]), (2, items[2:])):
        for who in "ab":
            _write(folder / f"half{h}_{who}.jsonl", [{"id": it["id"], "error_step": 7, "error_type": "CE"}
                                                     for it in part])
    tool.main(["finalize", "--dir", str(folder), "--out", str(folder / "out.jsonl"), "--relabel"])
    tool.main(["put-back", "--dir", str(folder), "--from", str(folder / "out.jsonl")])
    assert "dev: 2 rows replaced" in capsys.readouterr().out
    new_dev, new_r6 = tool.read(sets / "dev.jsonl"), tool.read(sets / "round6_test.jsonl")
    assert len(new_dev) == len(dev) and len(new_r6) == len(r6)
    for old, new in ((dev[3], new_dev[3]), (dev[0], new_dev[0]), (r6[0], new_r6[0])):
        assert (new["label_error_step"], new["label_error_type"], "relabel_set" in new) == (7, "CE", False)
        assert new["label_before_relabel"]["error_step"] == old["label_error_step"]
        if "label_before_relabel" in old:  # dev was relabelled in session 8: that history is kept one level down
            assert new["label_before_relabel"]["label_before_relabel"] == old["label_before_relabel"]
    assert new_dev[1] == dev[1] and new_r6[1:] == r6[1:]
