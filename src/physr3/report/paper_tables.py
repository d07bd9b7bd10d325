"""`physr3 report RUN...`: the paper's Tables 1, 3/4, 5 and 7 from eval runs, as Markdown, CSV, LaTeX and HTML.

Each RUN is an `physr3 eval` run folder (its `summary.json` and `config.yaml`); one run = one model (a row
of the paper's tables, labelled by `model.name_or_path`). Output goes to `--out` (default `RUN/report/`):

- table1_average: per-model accuracy averaged over benchmarks, per condition (best per row in bold);
- table34_accuracy: per-model, per-benchmark accuracy for every condition;
- table5_errors: the MC / CM / CE share (%) of attributed errors per condition;
- table7_deltas: ours − baseline per error type (percentage points; negative = fewer errors under ours);
- accuracy.png and errors.png; conditions.md (each condition's exact prompts and hyperparameters, from the
  runs' conditions.json); index.html bundling all of it.

Accuracy is the mean score (JEEBench's partial credit included), in percent.
"""

from __future__ import annotations

import html
from pathlib import Path

import yaml

from physr3.errors import UserError
from physr3.inputs import read_json, read_text
from physr3.problems import write_text_atomic
from physr3.report import plots, tables

ERROR_TYPES = ("MC", "CM", "CE")


def load_run(path: Path) -> tuple[str, dict]:
    """(label, summary) of one eval run folder; a folder or file that is not one is a UserError naming it."""
    summary = path / "summary.json"
    if not path.is_dir():
        raise UserError(f"{path}: not an eval run folder ({'not a folder' if path.exists() else 'not found'})")
    if not summary.exists():
        raise UserError(f"{path}: not an eval run folder (no summary.json)")
    data = read_json(summary, what="eval summary")
    for condition, per_bench in data.items():  # {condition: {benchmark: {"mean_score": ..., ...}}}
        if not isinstance(per_bench, dict) or not all(isinstance(s, dict) for s in per_bench.values()):
            raise UserError(f"{summary}: '{condition}': expected an object of benchmark summaries")
        for bench, s in per_bench.items():
            score, types = s.get("mean_score"), s.get("error_types", {})
            if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
                raise UserError(f"{summary}: '{condition}.{bench}.mean_score': expected a number, got {score!r}")
            if not isinstance(types, dict) or not all(isinstance(n, int | float) for n in types.values()):
                raise UserError(f"{summary}: '{condition}.{bench}.error_types': expected an object of counts")
    label = str(path.name)
    cfg_path = path / "config.yaml"
    if cfg_path.is_file():
        try:
            cfg = yaml.safe_load(read_text(cfg_path, what="run config")) or {}
        except yaml.YAMLError:
            cfg = {}
        model = cfg.get("model") if isinstance(cfg, dict) else None
        label = str((model if isinstance(model, dict) else {}).get("name_or_path") or label)
    return label, data


def _pct(x: float | None) -> float | None:
    return None if x is None else 100.0 * x


def build_tables(runs: list[tuple[str, dict]]) -> dict[str, tuple[list[str], list[list]]]:
    conditions = list(dict.fromkeys(c for _, s in runs for c in s))
    benches = list(dict.fromkeys(b for _, s in runs for per in s.values() for b in per))
    out: dict[str, tuple[list[str], list[list]]] = {}

    rows = []
    for label, s in runs:
        row = [label]
        for c in conditions:
            vals = [s.get(c, {}).get(b, {}).get("mean_score") for b in benches]
            vals = [v for v in vals if v is not None]
            row.append(_pct(sum(vals) / len(vals)) if vals else None)
        rows.append(row)
    out["table1_average"] = (["model", *conditions], rows)

    header = ["model / benchmark", *conditions]
    out["table34_accuracy"] = (header, [[f"{label} / {b}", *[_pct(s.get(c, {}).get(b, {}).get("mean_score"))
                                                           for c in conditions]]
                                        for label, s in runs for b in benches])

    def shares(s: dict, c: str) -> dict[str, float | None]:
        counts = {t: 0 for t in ERROR_TYPES}
        for per in s.get(c, {}).values():
            for t, n in per.get("error_types", {}).items():
                if t in counts:
                    counts[t] += n
        total = sum(counts.values())
        return {t: (100.0 * counts[t] / total if total else None) for t in ERROR_TYPES}

    out["table5_errors"] = (["model / condition", *ERROR_TYPES],
                            [[f"{label} / {c}", *shares(s, c).values()] for label, s in runs for c in conditions])
    baselines = [c for c in conditions if c != "ours"]
    rows = []
    for label, s in runs:
        if "ours" not in s:
            continue
        ours = shares(s, "ours")
        for t in ERROR_TYPES:
            base = [shares(s, c)[t] for c in baselines]
            rows.append([f"{label} / {t}", *[None if ours[t] is None or b is None else ours[t] - b for b in base]])
    out["table7_deltas"] = (["model / error type", *[f"ours − {c}" for c in baselines]], rows)
    return out


def write_report(run_dirs: list[str], out: str | None = None) -> Path:
    if not run_dirs:
        raise UserError("give at least one eval run folder")
    runs = [load_run(Path(p)) for p in run_dirs]
    out_dir = Path(out) if out else Path(run_dirs[0]) / "report"
    out_dir.mkdir(parents=True, exist_ok=True)
    built = build_tables(runs)
    sections = []
    for name, (header, rows) in built.items():
        best = name in ("table1_average", "table34_accuracy")
        write_text_atomic(out_dir / f"{name}.md", tables.markdown(header, rows, bold_best=best))
        write_text_atomic(out_dir / f"{name}.csv", tables.to_csv(header, rows))
        write_text_atomic(out_dir / f"{name}.tex", tables.latex(header, rows, bold_best=best))
        sections.append((name, header, rows, best))

    header, rows = built["table34_accuracy"]
    plots.grouped_bars([r[0] for r in rows], {c: [r[i + 1] for r in rows] for i, c in enumerate(header[1:])},
                       out_dir / "accuracy.png", "accuracy (%)", "Accuracy by condition")
    header, rows = built["table5_errors"]
    plots.grouped_bars([r[0] for r in rows], {t: [r[i + 1] for r in rows] for i, t in enumerate(ERROR_TYPES)},
                       out_dir / "errors.png", "share of attributed errors (%)", "Error types by condition")
    details = {}
    for path in run_dirs:  # each condition's exact prompts and hyperparameters, as the eval run recorded them
        record = Path(path) / "conditions.json"
        if record.is_file():
            details.update(read_json(record, what="conditions record"))
    if details:
        write_text_atomic(out_dir / "conditions.md", "\n".join(tables.conditions_markdown(details, "##")))
    write_text_atomic(out_dir / "index.html", _html(sections, details))
    return out_dir


def _html(sections, details: dict | None = None) -> str:
    parts = ["<!doctype html><meta charset='utf-8'><title>physr3 report</title>",
             "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child{text-align:left}"
             ".best{font-weight:bold;background:#e6f4e6}</style><h1>physr3 report</h1>"]
    for name, header, rows, best in sections:
        parts.append(f"<h2>{html.escape(name)}</h2><table><tr>" +
                     "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>")
        for row in rows:
            marks = tables.rank_marks([v if isinstance(v, int | float) else None for v in row[1:]]) if best \
                else [False] * (len(row) - 1)
            cells = "".join(f"<td class='{'best' if m else ''}'>{html.escape(tables.fmt(v))}</td>"
                            for v, m in zip(row[1:], marks))
            parts.append(f"<tr><td>{html.escape(str(row[0]))}</td>{cells}</tr>")
        parts.append("</table>")
    parts += ["<h2>Plots</h2><img src='accuracy.png'><img src='errors.png'>"]
    if details:
        parts.append("<h2>Conditions</h2>")
        for name, info in details.items():
            parts.append(f"<h3>{html.escape(name)}</h3><p>{html.escape(info['description'])}</p>"
                         f"<pre>{html.escape(str(info.get('details') or ''))}</pre>")
    return "\n".join(parts) + "\n"
