"""The demo's `report.md`: accuracy, compliance and error types per condition, and the training curves.

It reads only what the stages wrote (`eval/summary.json`, `train/metrics.jsonl`, `sft/sft_summary.json`,
`run.json`), so it can be regenerated at any time and reports exactly what was measured.
"""

from __future__ import annotations

import json
from pathlib import Path

from physr3.problems import write_text_atomic
from physr3.report import plots, tables
from physr3.report.intervals import wilson_interval
from physr3.report.merge import load_run, merge_runs
from physr3.report.paper_tables import CellStats, write_report
from physr3.report.tables import Stat

ERROR_TYPES = ("MC", "CM", "CE")


def _load_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _pct(x: float | None) -> float | None:
    return None if x is None else 100.0 * x


def _share(k: int, n: int) -> Stat:
    low, high = wilson_interval(k, n) or (None, None)
    return Stat(100.0 * k / n if n else None, _pct(low), _pct(high), n)


def _proportion(s: dict, key: str) -> Stat | None:
    if s.get(key) is None or not s.get("n"):
        return None
    return _share(round(s[key] * s["n"]), s["n"])


def conditions_section(eval_dir: Path) -> list[str]:
    """Each evaluated condition's description and exact prompts/hyperparameters (the eval run's record)."""
    path = eval_dir / "conditions.json"
    if not path.exists():
        return ["_No condition record found._", ""]
    return tables.conditions_markdown(json.loads(path.read_text()))


def training_section(root: Path, metrics: list[dict]) -> list[str]:
    if not metrics:
        return ["_No refine-training metrics found._", ""]
    plots.reward_curves(metrics, root / "reward_curves.png")
    n = sum(m["problems"] for m in metrics)
    skipped = sum(m["skipped_solved"] + m["skipped_verifier"] for m in metrics)
    trans = {k: sum(m["transitions"][k] for m in metrics) for k in ("RR", "RW", "WR", "WW")}
    revisions = {k: sum(m.get("revisions", {}).get(k, 0) for m in metrics) for k in ("better", "same", "worse")}
    n_steps_y2 = [m["n_steps_y2"] for m in metrics if m.get("n_steps_y2") is not None]
    first, last = metrics[0], metrics[-1]
    secs = {k: sum(m["time"].get(k, 0.0) for m in metrics) for k in ("generation", "verification", "feedback",
                                                                       "update", "step")}
    out = [
        f"{len(metrics)} steps over {n} problem draws; {skipped} skipped (r1 > τ or unreadable verdict), "
        f"skip rate {100 * skipped / max(1, n):.0f}%.",
        "",
        f"- y1 → y2 transitions over revised samples (R = correct answer, W = wrong): "
        f"RR {trans['RR']}, RW {trans['RW']}, WR {trans['WR']}, WW {trans['WW']}.",
        f"- step reward of the revision against the first attempt: r2 > r1 in {revisions['better']}, "
        f"r2 = r1 in {revisions['same']}, r2 < r1 in {revisions['worse']} (Eq. 2 reinforces every revision with "
        f"r2 > 0, better or worse).",
        f"- over-long prompts skipped before sampling: {sum(m.get('skipped_overlong', 0) for m in metrics)}; "
        f"truncated attempts (token cap; never rewarded 1): {sum(m.get('truncated', 0) for m in metrics)}; "
        f"sampled-vs-trained log-prob gap per token: first step {tables.fmt(first.get('logp_gap'), 4)}, "
        f"last step {tables.fmt(last.get('logp_gap'), 4)}.",
        f"- mean r1: first step {tables.fmt(first['r1_mean'], 3)}, last step {tables.fmt(last['r1_mean'], 3)}; "
        f"mean r2: first {tables.fmt(first['r2_mean'], 3)}, last {tables.fmt(last['r2_mean'], 3)}.",
        f"- mean step count of y1 (reward-hacking monitor): first step {tables.fmt(first['n_steps_y1'], 1)}, "
        f"last step {tables.fmt(last['n_steps_y1'], 1)}; revisions y2 average "
        f"{tables.fmt(sum(n_steps_y2) / len(n_steps_y2) if n_steps_y2 else None, 1)} steps.",
        f"- time: generation {secs['generation']:.0f} s, verification {secs['verification']:.0f} s, feedback "
        f"{secs['feedback']:.0f} s, update {secs['update']:.0f} s of {secs['step']:.0f} s in steps.",
        "",
        "![reward curves](reward_curves.png)",
        "",
    ]
    return out


def write_demo_report(root: Path) -> Path:
    root = Path(root)
    summary_path = root / "eval" / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    run = json.loads((root / "run.json").read_text()) if (root / "run.json").exists() else {}
    metrics = _load_jsonl(root / "train" / "metrics.jsonl")
    sft_summary = root / "sft" / "sft_summary.json"

    lines = ["# physr3 demo report", ""]
    if run:
        git = run.get("git", {})
        lines += [f"Run `{root}` — seed {run.get('seed')}, commit {git.get('commit') or 'unknown'}"
                  f"{' (dirty tree)' if git.get('dirty') else ''}, torch {run['versions'].get('torch')}, "
                  f"transformers {run['versions'].get('transformers')}. Resolved config: `config.yaml`.", ""]

    lines += ["## Accuracy on the held-out generated test set", ""]
    if summary:
        conditions = list(summary)
        benches = sorted({b for per in summary.values() for b in per})
        merged = merge_runs([load_run(root / "eval")])
        st, model = CellStats(merged), merged.models[0]
        header = ["benchmark", *conditions]
        acc_rows = [[b, *[st.accuracy(model, b, c) for c in conditions]] for b in benches]
        comp_rows = [[b, *[_proportion(summary[c].get(b, {}), "compliance") for c in conditions]] for b in benches]
        lines += ["Final-answer accuracy (%) with its 95% Wilson interval and the number of items; best per row "
                  "in bold.", "", tables.markdown(header, acc_rows, bold_best=True), "",
                  "Structural compliance with the seven-tag format (%), 95% Wilson interval, n.", "",
                  tables.markdown(header, comp_rows, bold_best=True), ""]
        lines += ["## Error types among incorrect answers", "",
                  "Share (%) of attributed errors by the symbolic verifier (MC problem miscomprehension, "
                  "CM conceptual misapplication, CE calculation error), as in the paper's Table 5; 95% Wilson "
                  "interval; n = attributed errors.", ""]
        rows = []
        for c in conditions:
            for b in benches:
                counts = summary[c].get(b, {}).get("error_types", {})
                total = sum(counts.get(t, 0) for t in ERROR_TYPES)
                rows.append([f"{c} / {b}", *[_share(counts.get(t, 0), total) for t in ERROR_TYPES]])
        lines += [tables.markdown(["condition / benchmark", *ERROR_TYPES], rows), ""]
        plots.percent_bars([("", benches, {c: [st.accuracy(model, b, c) for b in benches] for c in conditions})],
                           root / "accuracy.png", "Accuracy by condition", "accuracy (%)", plots.CONDITION_COLOURS)
        lines += ["![accuracy](accuracy.png)", ""]
    else:
        lines += ["_No evaluation summary found._", ""]

    lines += ["## Refine training", ""] + training_section(root, metrics)
    if sft_summary.exists():
        s = json.loads(sft_summary.read_text())
        lines += ["## Stage 1 SFT", "", f"{s.get('steps')} optimizer steps on {s.get('problems')} problems, "
                  f"final training loss {tables.fmt(s.get('train_loss'), 3)}.", ""]

    lines += ["## Conditions", ""] + conditions_section(root / "eval")
    if summary:  # the full page: every table with n and intervals, the figures, one self-contained HTML file
        write_report([str(root / "eval")], str(root / "report"),
                     str(root / "train") if (root / "train" / "metrics.jsonl").is_file() else None)
        at = lines.index("## Accuracy on the held-out generated test set")
        lines[at:at] = ["The full report with every table, interval and figure: `report/index.html` "
                      "(one self-contained page; `physr3 report` merges further eval runs into it).", ""]
    path = root / "report.md"
    write_text_atomic(path, "\n".join(lines))
    return path
