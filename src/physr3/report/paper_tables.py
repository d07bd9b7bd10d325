"""`physr3 report RUN...`: the paper's Tables 1, 3/4, 5 and 7 from eval runs, with n and 95% intervals.

Each RUN is a `physr3 eval` run folder. The runs are merged into one row per model (physr3.report.merge: a
cell held by two runs comes from the newer one, and the page says so; differing settings are flagged). Every
table is written as Markdown, CSV, LaTeX (booktabs) and HTML to `--out` (default `FIRST_RUN/report/`):

- `average`: per-model accuracy averaged over benchmarks, per condition (paper Table 1);
- `accuracy_<benchmark>`: per-model accuracy on one benchmark (paper Tables 3 and 4 put the benchmarks side by
  side; one table per benchmark keeps one row per model and the page narrow);
- `compliance`: seven-tag format compliance (the paper's evaluation protocol, step 2; no table in the paper);
- `errors`: the MC / CM / CE share of attributed errors per condition (paper Table 5);
- `deltas`: ours − baseline per error type, in percentage points (paper Table 7's layout);
- figures (accuracy, error types, and the refine training's transitions and learning curves when the `ours`
  adapter's training run is found), `report.md` with every table, `conditions.md`, and `index.html`: one
  self-contained page (images embedded as data URIs, no network) — see physr3.report.html_page.

Accuracy is the mean final-answer score (JEEBench's partial credit included), in percent. Intervals are 95%:
Wilson when every score is 0/1 (a proportion), a percentile bootstrap of the mean otherwise (partial credit),
a stratified bootstrap for averages over benchmarks, Newcombe's interval for differences of shares
(physr3.report.intervals). Deviation from the paper: the paper's Table 5 lets one wrong answer count under
several error types (rows exceed 100%); our verifier names the type of the first wrong step, so shares sum to
100% over attributed errors.
"""

from __future__ import annotations

import json
from pathlib import Path

from physr3.errors import UserError
from physr3.problems import write_text_atomic
from physr3.report import intervals, plots, tables
from physr3.report.merge import EvalRun, Merged, load_run, merge_runs
from physr3.report.tables import Stat, Table

ERROR_TYPES = ("MC", "CM", "CE")
ERROR_NAMES = {"MC": "problem miscomprehension", "CM": "conceptual misapplication", "CE": "calculation error"}
CONDITION_NAMES = {"cot": "CoT", "rag": "RAG", "sft": "SFT", "dpo": "DPO", "ours": "Ours",
                   "self-refine": "Self-Refine"}
BENCHMARK_NAMES = {"jeebench": "JEEBench", "mmlu-hs": "MMLU high-school physics",
                   "mmlu-college": "MMLU college physics", "scieval": "SciEval static", "physicsqa": "PhysicsQA",
                   "synth-test": "the generated test set (synth-test)"}
# Which of the paper's tables shows each benchmark (Table 3: the easy ones, Table 4: the hard ones).
PAPER_TABLE = {"scieval": "Table 3", "mmlu-hs": "Table 3", "mmlu-college": "Table 3", "jeebench": "Table 4",
               "physicsqa": "Table 4"}
SUPERSEDED_MARK = "‡"
PARTIAL_MARK = "*"
INTERVAL_NOTE = ("Cells: value, 95% interval in brackets, n = items scored. Intervals: Wilson for 0/1 scores, "
                 "percentile bootstrap (2000 resamples) for mean scores with partial credit.")


def condition_label(c: str) -> str:
    return CONDITION_NAMES.get(c, c)


def benchmark_label(b: str) -> str:
    return BENCHMARK_NAMES.get(b, b)


def _pct(interval: tuple[float, float] | None) -> tuple[float | None, float | None]:
    return (None, None) if interval is None else (100.0 * interval[0], 100.0 * interval[1])


class CellStats:
    """The numbers behind the cells of a merged set of runs: per-item scores, intervals, provenance marks."""

    def __init__(self, merged: Merged):
        self.m = merged
        self.superseded = {(s.model, s.benchmark, s.condition): s for s in merged.superseded}

    def _provenance(self, model: str, bench: str, cond: str) -> tuple[str, str]:
        run = self.m.run_of(model, bench, cond)
        if run is None:
            return "", ""
        tip = f"from {run.path} (started {run.started})"
        sup = self.superseded.get((model, bench, cond))
        if sup is None:
            return "", tip
        return SUPERSEDED_MARK, tip + "; replaces " + ", ".join(str(r.path) for r in sup.losers)

    def scores(self, model: str, bench: str, cond: str) -> list[float] | None:
        """Per-item scores of one cell: from the results file, else rebuilt from the summary's counts when the
        scores are 0/1 (accuracy equals mean score); None when neither is possible."""
        run = self.m.run_of(model, bench, cond)
        if run is None:
            return None
        rows = run.item_scores(cond, bench)
        if rows is not None and all("score" in r for r in rows):
            return [float(r["score"]) for r in rows]
        s = run.summary[cond][bench]
        n, acc, mean = s.get("n") or 0, s.get("accuracy"), s.get("mean_score")
        if n and acc is not None and (mean is None or abs(mean - acc) < 1e-12):
            k = round(acc * n)
            return [1.0] * k + [0.0] * (n - k)
        return None

    @staticmethod
    def _interval(scores: list[float]) -> tuple[float, float] | None:
        if all(x in (0.0, 1.0) for x in scores):
            return intervals.wilson_interval(sum(scores), len(scores))
        return intervals.bootstrap_ci(scores)

    def accuracy(self, model: str, bench: str, cond: str) -> Stat | None:
        run = self.m.run_of(model, bench, cond)
        if run is None:
            return None
        s = run.summary[cond][bench]
        mark, tip = self._provenance(model, bench, cond)
        scores = self.scores(model, bench, cond)
        mean = s.get("mean_score", s.get("accuracy"))
        if not s.get("n") or mean is None:
            return Stat(None, n=s.get("n"), mark=mark, tooltip=tip)
        low, high = _pct(self._interval(scores)) if scores else (None, None)
        return Stat(100.0 * mean, low, high, s["n"], mark, tip)

    def average(self, model: str, cond: str) -> Stat | None:
        """Mean over benchmarks of the per-benchmark accuracy (each benchmark weighs the same, as in Table 1)."""
        benches = [b for b in self.m.benchmarks if self.m.run_of(model, b, cond) is not None]
        cells = [self.accuracy(model, b, cond) for b in benches]
        cells = [c for c in cells if c is not None and c.value is not None]
        if not cells:
            return None
        if len(cells) == 1:
            one = cells[0]
        else:
            groups = [self.scores(model, b, cond) for b in benches]
            low, high = (None, None) if any(g is None for g in groups) else \
                _pct(intervals.stratified_bootstrap_ci(groups))
            one = Stat(sum(c.value for c in cells) / len(cells), low, high, sum(int(c.n) for c in cells))
        marks = "".join(dict.fromkeys(c.mark for c in cells if c.mark))
        if len(cells) < len(self.m.benchmarks):
            marks += PARTIAL_MARK
        return Stat(one.value, one.low, one.high, one.n, marks,
                    f"{len(cells)} of {len(self.m.benchmarks)} benchmarks")

    def compliance(self, model: str, cond: str) -> Stat | None:
        k = n = 0
        marks = []
        for b in self.m.benchmarks:
            run = self.m.run_of(model, b, cond)
            if run is None:
                continue
            s = run.summary[cond][b]
            rows = run.item_scores(cond, b)
            if rows is not None and all("compliant" in r for r in rows):
                k += sum(bool(r["compliant"]) for r in rows)
            elif s.get("compliance") is not None:
                k += round(s["compliance"] * s["n"])
            else:
                continue
            n += s["n"]
            marks.append(self._provenance(model, b, cond)[0])
        if not n:
            return None
        low, high = _pct(intervals.wilson_interval(k, n))
        return Stat(100.0 * k / n, low, high, n, "".join(dict.fromkeys(x for x in marks if x)))

    def error_counts(self, model: str, cond: str) -> tuple[dict[str, int], str] | None:
        counts = {t: 0 for t in ERROR_TYPES}
        found, marks = False, []
        for b in self.m.benchmarks:
            run = self.m.run_of(model, b, cond)
            if run is None:
                continue
            found = True
            for t, c in (run.summary[cond][b].get("error_types") or {}).items():
                if t in counts:
                    counts[t] += int(c)
            marks.append(self._provenance(model, b, cond)[0])
        return (counts, "".join(dict.fromkeys(x for x in marks if x))) if found else None

    def error_share(self, model: str, cond: str, etype: str) -> Stat | None:
        got = self.error_counts(model, cond)
        if got is None:
            return None
        counts, mark = got
        total = sum(counts.values())
        if not total:
            return Stat(None, n=0, mark=mark)
        low, high = _pct(intervals.wilson_interval(counts[etype], total))
        return Stat(100.0 * counts[etype] / total, low, high, total, mark)

    def error_delta(self, model: str, etype: str, base: str) -> Stat | None:
        a, b = self.error_counts(model, "ours"), self.error_counts(model, base)
        if a is None or b is None:
            return None
        (ca, _), (cb, _) = a, b
        na, nb = sum(ca.values()), sum(cb.values())
        if not na or not nb:
            return Stat(None, n=f"{na}/{nb}")
        low, high = _pct(intervals.newcombe_interval(ca[etype], na, cb[etype], nb))
        return Stat(100.0 * (ca[etype] / na - cb[etype] / nb), low, high, f"{na}/{nb}")


def _model_labels(merged: Merged) -> dict[str, str]:
    """Row labels: a model folder's last path component when that is unambiguous (the full path is in the
    page's run list), the name otherwise."""
    short = {m: (Path(m).name if ("/" in m and Path(m).name) else m) for m in merged.models}
    clash = {v for v in short.values() if list(short.values()).count(v) > 1}
    return {m: (m if s in clash else s) for m, s in short.items()}


def _notes(rows: list[list], extra: list[str] | None = None) -> list[str]:
    marks = "".join(c.mark for row in rows for c in row[1:] if isinstance(c, Stat) and c.value is not None)
    out = list(extra or [])
    if SUPERSEDED_MARK in marks:
        out.append(f"{SUPERSEDED_MARK} Also measured by an older run; the newer run's value is shown "
                   "(see \"Runs and merging\").")
    if PARTIAL_MARK in marks:
        out.append(f"{PARTIAL_MARK} Averaged over fewer benchmarks than the table's columns cover "
                   "(the condition was not run on all of them).")
    return out


def build_tables(merged: Merged) -> list[Table]:
    st = CellStats(merged)
    labels = _model_labels(merged)
    conds = merged.conditions
    header = ["Model", *[condition_label(c) for c in conds]]
    bench_list = ", ".join(f"{benchmark_label(b)}" for b in merged.benchmarks)
    out: list[Table] = []

    rows = [[labels[m], *[st.average(m, c) for c in conds]] for m in merged.models]
    out.append(Table(
        "average", "Average accuracy across benchmarks (%)",
        f"Final-answer accuracy per model and condition, averaged over {len(merged.benchmarks)} benchmark(s) "
        f"with equal weight ({bench_list}); mirrors the paper's Table 1. Best per row in bold. "
        "n = items scored across the benchmarks; the interval of an average over several benchmarks is a "
        "bootstrap resampling items within each benchmark. " + INTERVAL_NOTE,
        header, rows, bold_best=True, notes=_notes(rows)))

    for b in merged.benchmarks:
        rows = [[labels[m], *[st.accuracy(m, b, c) for c in conds]] for m in merged.models]
        ns = sorted({c.n for r in rows for c in r[1:] if isinstance(c, Stat) and c.n is not None})
        items = f"{ns[0]} items" if len(ns) == 1 else f"{', '.join(map(str, ns))} items (differs by run)"
        paper = PAPER_TABLE.get(b)
        mirror = f"mirrors one benchmark's columns of the paper's {paper}" if paper else \
            "no counterpart in the paper (the closest is PhysicsQA, Table 4)"
        out.append(Table(
            f"accuracy_{b.replace('/', '_').replace('=', '_')}", f"Accuracy on {benchmark_label(b)} (%)",
            f"Final-answer accuracy (mean score, partial credit included) on {benchmark_label(b)}, {items}; "
            f"{mirror}. Best per row in bold. " + INTERVAL_NOTE, header, rows, bold_best=True, notes=_notes(rows)))

    rows = [[labels[m], *[st.compliance(m, c) for c in conds]] for m in merged.models]
    out.append(Table(
        "compliance", "Seven-tag format compliance (%)",
        "Share of solutions that use the seven tags once each, in order, with numbered steps (the paper's "
        "evaluation protocol, step 2; no table in the paper), pooled over all benchmarks. Best per row in bold. "
        "Cells: value, 95% Wilson interval, n = solutions.", header, rows, bold_best=True, notes=_notes(rows)))

    several = len(merged.models) > 1
    rows = [[f"{labels[m]} / {condition_label(c)}" if several else condition_label(c),
             *[st.error_share(m, c, t) for t in ERROR_TYPES]]
            for m in merged.models for c in conds]
    out.append(Table(
        "errors", "Error types among incorrect answers (%)",
        "Share of each error type among the incorrect answers whose first wrong step the verifier attributed "
        "(MC problem miscomprehension, CM conceptual misapplication, CE calculation error), pooled over all "
        "benchmarks; mirrors the paper's Table 5 (where one answer may count under several types; here each "
        "attributed answer has one type, so a row sums to 100). Cells: value, 95% Wilson interval, "
        "n = attributed errors (0: the run did not attribute errors, or the verifier found none).",
        ["Model / condition" if several else "Condition", *[f"{t} ({ERROR_NAMES[t]})" for t in ERROR_TYPES]],
        rows, notes=_notes(rows)))

    baselines = [c for c in conds if c != "ours"]
    if "ours" in conds and baselines:
        rows = [[f"{labels[m]} / {t}" if several else t, *[st.error_delta(m, t, c) for c in baselines]]
                for m in merged.models for t in ERROR_TYPES]
        out.append(Table(
            "deltas", "Error-type shares: ours minus each baseline (percentage points)",
            "Difference between the share of each error type under ours and under each baseline (negative: the "
            "type is rarer among ours' errors), pooled over all benchmarks; the layout of the paper's Table 7. "
            "Cells: difference, 95% Newcombe interval, n = attributed errors under ours / under the baseline.",
            ["Model / error type" if several else "Error type",
             *[f"Ours − {condition_label(c)}" for c in baselines]], rows, notes=_notes(rows)))
    return out


# ---- figures ---------------------------------------------------------------------------------------------

def build_figures(merged: Merged, out_dir: Path, train_metrics: list[dict] | None) -> list[tuple[str, str, str,
                                                                                                 Path]]:
    """(anchor, title, caption, PNG path) per figure: one figure per question."""
    st = CellStats(merged)
    labels = _model_labels(merged)
    figs = []
    panels = [(labels[m], [benchmark_label(b).replace("the generated test set ", "generated ") for b in
                           merged.benchmarks],
               {c: [st.accuracy(m, b, c) for b in merged.benchmarks] for c in merged.conditions})
              for m in merged.models]
    figs.append(("fig-accuracy", "Accuracy by condition and benchmark",
                 "Final-answer accuracy (%) per benchmark, one bar per condition, one panel per model; error bars "
                 "are the 95% intervals of the accuracy tables; a stub on the axis is a measured 0, n/a a cell "
                 "no run measured.",
                 plots.percent_bars(panels, out_dir / "accuracy.png", "Accuracy by condition and benchmark",
                                    "accuracy (%)", plots.CONDITION_COLOURS, CONDITION_NAMES)))
    panels = []
    for m in merged.models:
        groups, series = [], {t: [] for t in ERROR_TYPES}
        for c in merged.conditions:
            got = st.error_counts(m, c)
            groups.append(f"{condition_label(c)}\n(n={sum(got[0].values()) if got else 0})")
            for t in ERROR_TYPES:
                series[t].append(st.error_share(m, c, t))
        panels.append((labels[m], groups, series))
    figs.append(("fig-errors", "Error types among incorrect answers",
                 "Share (%) of MC, CM and CE among attributed errors per condition (n under each group); error "
                 "bars are 95% Wilson intervals; n/a: no attributed errors.",
                 plots.percent_bars(panels, out_dir / "errors.png", "Error types among incorrect answers",
                                    "share of attributed errors (%)", plots.ERROR_COLOURS)))
    if train_metrics:
        trans = {k: sum(m.get("transitions", {}).get(k, 0) for m in train_metrics) for k in ("RR", "RW", "WR", "WW")}
        total = sum(trans.values())
        cells = {}
        for k, v in trans.items():
            low, high = _pct(intervals.wilson_interval(v, total)) if total else (None, None)
            cells[k] = [Stat(100.0 * v / total, low, high, total) if total else None]
        figs.append(("fig-transitions", "First attempt → revision during refine training",
                     f"Share (%) of revised samples by correctness of the first attempt y1 and the revision y2 "
                     f"(R right, W wrong: WR = fixed, RW = broken), summed over {len(train_metrics)} training "
                     f"step(s), n = {total} revisions; error bars are 95% Wilson intervals.",
                     plots.percent_bars([("", [f"y1 → y2 (n={total})"], cells)], out_dir / "transitions.png",
                                        "y1 → y2 transitions", "share of revisions (%)",
                                        plots.TRANSITION_COLOURS,
                                        {"RR": "RR (stayed right)", "RW": "RW (broken)", "WR": "WR (fixed)",
                                         "WW": "WW (stayed wrong)"})))
        figs.append(("fig-learning", "Learning curves of the refine training",
                     "Per training step: accuracy (%) of the first attempts y1 and the revisions y2 on the "
                     "problems drawn, and their mean step reward r = e/(n+1).",
                     plots.learning_curves(train_metrics, out_dir / "learning_curves.png")))
    return figs


def find_training(merged: Merged, train_dir: str | None) -> tuple[Path | None, list[dict]]:
    """The refine run's metrics.jsonl: `--train DIR`, else next to the `ours` adapter an eval run used."""
    candidates = [Path(train_dir)] if train_dir else []
    for run in merged.runs if not train_dir else ():  # an explicit --train is the only place looked at
        adapter = (run.config.get("eval") or {}).get("ours_adapter")
        if adapter and "ours" in run.summary:
            candidates += [Path(adapter), Path(adapter).parent]
    for folder in candidates:
        path = folder / "metrics.jsonl"
        if path.is_file():
            from physr3.problems import iter_jsonl

            return path, [row for _, row in iter_jsonl(path, allow_empty=True)]
    if train_dir:
        raise UserError(f"--train {train_dir}: no metrics.jsonl there")
    return None, []


def write_report(run_dirs: list[str], out: str | None = None, train_dir: str | None = None) -> Path:
    from physr3.report.html_page import render_page

    if not run_dirs:
        raise UserError("give at least one eval run folder")
    runs: list[EvalRun] = [load_run(p, i) for i, p in enumerate(run_dirs)]
    merged = merge_runs(runs)
    out_dir = Path(out) if out else Path(run_dirs[0]) / "report"
    out_dir.mkdir(parents=True, exist_ok=True)
    built = build_tables(merged)
    for t in built:
        write_text_atomic(out_dir / f"{t.name}.md", tables.table_markdown(t))
        write_text_atomic(out_dir / f"{t.name}.csv", tables.table_csv(t))
        write_text_atomic(out_dir / f"{t.name}.tex", tables.table_latex(t))
    train_path, metrics = find_training(merged, train_dir)
    figures = build_figures(merged, out_dir, metrics)
    details: dict = {}
    for run in sorted(runs, key=lambda r: (r.started, r.order)):  # newer runs' records win, like the cells
        details.update(run.conditions)
    if details:
        write_text_atomic(out_dir / "conditions.md", "\n".join(tables.conditions_markdown(details, "##")))
    md = ["# physr3 evaluation report", ""]
    md += [f"- run: `{r.path}` — model `{r.model}`, started {r.started}, commit {r.commit or 'unknown'}"
           for r in runs]
    md += [""] + merge_notes(merged) + [""]
    for t in built:
        md += [tables.table_markdown(t), ""]
    md += [f"![{title}]({path.name})\n\n{caption}\n" for _, title, caption, path in figures]
    write_text_atomic(out_dir / "report.md", "\n".join(md))
    write_text_atomic(out_dir / "index.html", render_page(merged, built, figures, details, train_path))
    return out_dir


def grouped_superseded(merged: Merged) -> list[tuple[str, str, list[str], EvalRun, list[EvalRun], dict]]:
    """Replaced cells grouped by (model, condition, winner, losers, conflicts): one line for "cot on five
    benchmarks came from run B, not run A" instead of five."""
    groups: dict[tuple, list] = {}
    for s in merged.superseded:
        key = (s.model, s.condition, str(s.winner.path), tuple(str(r.path) for r in s.losers), repr(s.conflicts))
        groups.setdefault(key, [s.model, s.condition, [], s.winner, s.losers, s.conflicts])[2].append(s.benchmark)
    return [tuple(g) for g in groups.values()]


def merge_notes(merged: Merged) -> list[str]:
    """One line per group of cells two runs share: which run the values come from, and conflicting settings."""
    mixed = []
    for model in merged.models:
        for k, vals in merged.row_conflicts(model).items():
            mixed.append(f"- **Row {model} mixes runs with different settings:** {k} " + " vs ".join(
                f"{v!r} ({', '.join(condition_label(c) for c in conds)})" for v, conds in vals) + ".")
    if not merged.superseded:
        return ["No cell was measured by more than one run."] + ([""] + mixed if mixed else [])
    out = [f"{len(merged.superseded)} cell(s) were measured by more than one run; the newer run's value is shown "
           f"(marked {SUPERSEDED_MARK}; newer = later start time in run.json)."]
    for model, cond, benches, winner, losers, conflicts in grouped_superseded(merged):
        line = (f"- {model} / {condition_label(cond)} on {', '.join(benches)}: from `{winner.path}` "
                f"(started {winner.started}), replacing " +
                ", ".join(f"`{r.path}` (started {r.started})" for r in losers) + ".")
        if conflicts:
            line += " **Conflicting settings:** " + "; ".join(
                "{} = {!r} (shown) vs {!r}".format(k, *diff_excerpts(new, old)) for k, (new, old) in
                conflicts.items()) + "."
        out.append(line)
    return out + ([""] + mixed if mixed else [])


def diff_excerpts(new, old, context: int = 30) -> tuple[str, str]:
    """Two long values shown around their first difference ("…max_new_tokens: 12…" vs "…: 8…"), so a
    conflict in a long prompt record is readable; short values are shown whole."""
    a, b = (v if isinstance(v, str) else json.dumps(v) for v in (new, old))
    if len(a) <= 2 * context + 10 and len(b) <= 2 * context + 10:
        return a, b
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, i - context)

    def cut(t: str) -> str:
        return ("…" if start else "") + t[start: i + context] + ("…" if i + context < len(t) else "")

    return cut(a), cut(b)
