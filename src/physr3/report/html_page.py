"""The report as one self-contained HTML page: readable on a laptop screen, nothing fetched from the network.

Layout: a header (the runs with model, start time and commit; the settings that matter for the numbers; each
run's full config folded away), a table of contents, how the runs were merged (replaced cells and conflicting
settings), the tables (title, caption, value / interval / n per cell), the figures (PNG embedded as base64 data
URIs, scaled to the text column) and the conditions' exact prompts folded in <details>. No script, no external
stylesheet or font: the file can be mailed or archived and opens the same everywhere.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import json
from pathlib import Path

import yaml

from physr3.report import tables
from physr3.report.merge import CELL_SETTINGS, Merged, _get
from physr3.report.tables import Table

CSS = """
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;max-width:62rem;
 margin:0 auto;padding:1rem 1.25rem 4rem}
h1{font-size:1.6rem;margin:.2rem 0 .4rem}h2{font-size:1.2rem;margin:2rem 0 .3rem;border-bottom:1px solid #ddd}
h3{font-size:1rem;margin:1.2rem 0 .3rem}
.meta{color:#555;margin:.2rem 0}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{overflow-wrap:anywhere}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;padding:.6rem;border-radius:4px}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:13px;margin:.4rem 0;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid #e3e3e3;padding:4px 9px;vertical-align:top;text-align:right}
thead th{border-bottom:2px solid #888;text-align:right}
th:first-child,thead th:first-child{text-align:left}
tbody th{font-weight:normal;text-align:left;overflow-wrap:anywhere;max-width:18rem}
td .v{display:block;font-size:14px}td .ci,td .n{display:block;font-size:11px;color:#666;white-space:nowrap}
td.best .v{font-weight:700}td.best{background:#eaf5ea}
.caption{color:#444;font-size:13.5px;margin:.2rem 0 .4rem}
.note{color:#555;font-size:12.5px;margin:.1rem 0}
.warn{color:#9a3412;font-weight:600}
figure{margin:1rem 0 1.6rem}figure img{max-width:100%;height:auto;display:block;border:1px solid #eee}
figcaption{font-size:13px;color:#444;margin-top:.3rem}
nav ol{columns:2;column-gap:2rem;margin:.3rem 0;padding-left:1.4rem}
details{margin:.3rem 0}summary{cursor:pointer}
.runs td,.runs th{text-align:left}.runs td code{display:inline-block;min-width:11rem}
"""


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f"data:image/png;base64,{data}"


def _value(v) -> str:
    if v is None:
        return "–"
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 90 else text[:89] + "…"


def _cells_summary(summary: dict) -> str:
    """What a run measured, compactly: "cot, sft, ours on scieval (164), jeebench (123)" when every condition
    ran on the same items, one clause per condition otherwise."""
    grids = {c: tuple((b, s.get("n")) for b, s in per.items()) for c, per in summary.items()}
    if len(set(grids.values())) == 1:
        (grid,) = set(grids.values())
        return f"{', '.join(grids)} on " + ", ".join(f"{b} ({n})" for b, n in grid)
    return "; ".join(f"{c} on " + ", ".join(f"{b} ({n})" for b, n in grid) for c, grid in grids.items())


def _header(merged: Merged, train_path: Path | None) -> list[str]:
    e = html.escape
    now = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    models = ", ".join(f"<code>{e(m)}</code>" for m in merged.models)
    out = ["<header><h1>physr3 evaluation report</h1>",
           f"<p class='meta'>{len(merged.runs)} eval run(s) of {len(merged.models)} model(s): {models}; "
           f"{len(merged.benchmarks)} benchmark(s), {len(merged.conditions)} condition(s). Generated {e(now)}."
           "</p>", "<div class='scroll'><table class='runs'><thead><tr><th>#</th><th>run folder</th><th>model</th>"
           "<th>conditions on benchmarks (items)</th><th>started</th><th>commit</th></tr></thead><tbody>"]
    for i, r in enumerate(merged.runs, 1):
        cells = _cells_summary(r.summary)
        out.append(f"<tr><td>{i}</td><td><code>{e(str(r.path))}</code></td><td><code>{e(r.model)}</code></td>"
                   f"<td>{e(cells)}</td><td>{e(r.started)}</td><td><code>{e(r.commit or 'unknown')}</code></td></tr>")
    out.append("</tbody></table></div>")
    if train_path:
        out.append(f"<p class='meta'>Refine training metrics: <code>{e(str(train_path))}</code>.</p>")
    # the settings that change what a cell measures, one column per run; differing rows are highlighted
    keys = [k for k in CELL_SETTINGS if k != "model.system_prompt"]
    head = "".join(f"<th>run {i}</th>" for i in range(1, len(merged.runs) + 1))
    rows = []
    for k in keys:
        vals = [_get(r.config, k) for r in merged.runs]
        cls = " class='warn'" if len({repr(v) for v in vals}) > 1 else ""
        rows.append(f"<tr{cls}><th>{e(k)}</th>" + "".join(f"<td>{e(_value(v))}</td>" for v in vals) + "</tr>")
    out.append("<details><summary>Settings that affect the numbers (rows in colour differ between runs)"
               f"</summary><div class='scroll'><table class='runs'><thead><tr><th>setting</th>{head}</tr></thead>"
               f"<tbody>{''.join(rows)}</tbody></table></div></details>")
    for i, r in enumerate(merged.runs, 1):
        out.append(f"<details><summary>Full config of run {i} (<code>{e(str(r.path))}/config.yaml</code>)"
                   f"</summary><pre>{e(yaml.safe_dump(r.config, sort_keys=False, allow_unicode=True))}</pre>"
                   "</details>")
    out.append("</header>")
    return out


def _merge_section(merged: Merged) -> list[str]:
    from physr3.report.paper_tables import SUPERSEDED_MARK, condition_label, diff_excerpts, grouped_superseded

    e = html.escape
    out = ["<section id='merging'><h2>Runs and merging</h2>",
           "<p class='caption'>Runs are merged by (model, benchmark, condition): each model is one row. A cell "
           "measured by more than one run is taken from the newer run (later start time in run.json) and marked "
           f"{SUPERSEDED_MARK} in the tables; settings that differ between those runs are flagged as conflicts."
           "</p>"]
    for model in merged.models:
        mixed = merged.row_conflicts(model)
        if mixed:
            out.append(f"<p><span class='warn'>Row {e(model)} mixes runs with different settings:</span> " +
                       "; ".join(f"<code>{e(k)}</code> " + " vs ".join(
                           f"{e(_value(v))} ({e(', '.join(condition_label(c) for c in conds))})"
                           for v, conds in vals) for k, vals in mixed.items()) + ".</p>")
    if not merged.superseded:
        out.append("<p>No cell was measured by more than one run.</p></section>")
        return out
    out.append("<ul>")
    for model, cond, benches, winner, losers, conflicts in grouped_superseded(merged):
        older = ", ".join(f"<code>{e(str(r.path))}</code> (started {e(r.started)})" for r in losers)
        item = (f"<li><b>{e(model)} / {e(condition_label(cond))}</b> on {e(', '.join(benches))}: from "
                f"<code>{e(str(winner.path))}</code> (started {e(winner.started)}), replacing {older}.")
        if conflicts:
            item += "<br><span class='warn'>Conflicting settings:</span> " + "; ".join(
                "<code>{}</code> = <code>{}</code> (shown) vs <code>{}</code>".format(
                    e(k), *(e(x) for x in diff_excerpts(new, old))) for k, (new, old) in conflicts.items())
        out.append(item + "</li>")
    out.append("</ul></section>")
    return out


def render_page(merged: Merged, built: list[Table], figures: list[tuple[str, str, str, Path]],
                details: dict, train_path: Path | None = None) -> str:
    e = html.escape
    toc = [("merging", "Runs and merging")] + [(t.name, t.title) for t in built] + \
        [(anchor, title) for anchor, title, _, _ in figures] + ([("conditions", "Conditions and prompts")]
                                                               if details else [])
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
             "<meta name='viewport' content='width=device-width,initial-scale=1'>",
             f"<title>physr3 report: {e(', '.join(merged.models))}</title><style>{CSS}</style></head><body>"]
    parts += _header(merged, train_path)
    parts.append("<nav><h2>Contents</h2><ol>" + "".join(f"<li><a href='#{a}'>{e(t)}</a></li>" for a, t in toc)
                 + "</ol></nav>")
    parts += _merge_section(merged)
    parts += [tables.table_html(t) for t in built]
    for anchor, title, caption, path in figures:
        parts.append(f"<section id='{anchor}'><h2>{e(title)}</h2><figure><img src='{_img(path)}' "
                     f"alt='{e(title)}'><figcaption>{e(caption)}</figcaption></figure></section>")
    if details:
        parts.append("<section id='conditions'><h2>Conditions and prompts</h2><p class='caption'>Each "
                     "condition's exact prompts and hyperparameters as the eval run recorded them "
                     "(conditions.json); click to unfold.</p>")
        for name, info in details.items():
            parts.append(f"<details><summary><b>{e(name)}</b>: {e(info.get('description', ''))}</summary>"
                         f"<pre>{e(str(info.get('details') or '(no details recorded)'))}</pre></details>")
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def markdown_page(title: str, markdown_text: str, base_dir: Path) -> str:
    """A self-contained HTML page (same style as the report page) from a Markdown file that physr3 wrote
    itself — `physr3 study`'s report.md. Only the subset those files use is read: `#`/`##` headings, pipe
    tables (a header row, a `|---|` row, body rows), `- ` list items, `![alt](file.png)` images (embedded
    from `base_dir`; a missing file is named instead) and paragraphs. Everything else is escaped text, so
    no input can inject markup."""
    e = html.escape
    out = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
           "<meta name='viewport' content='width=device-width,initial-scale=1'>",
           f"<title>{e(title)}</title><style>{CSS}</style></head><body>"]
    lines = markdown_text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if line.startswith("|") and i + 1 < len(lines) and set(lines[i + 1].strip()) <= set("|-: "):
            cells = lambda row: [c.strip() for c in row.strip().strip("|").split("|")]  # noqa: E731
            head = "".join(f"<th>{e(c)}</th>" for c in cells(line))
            i += 2
            body = []
            while i < len(lines) and lines[i].startswith("|"):
                row = cells(lines[i])
                body.append("<tr><th>" + e(row[0]) + "</th>" + "".join(f"<td>{e(c)}</td>" for c in row[1:]) + "</tr>")
                i += 1
            out.append(f"<div class='scroll'><table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody>"
                       "</table></div>")
            continue
        if line.startswith("## "):
            out.append(f"<h2>{e(line[3:])}</h2>")
        elif line.startswith("# "):
            out.append(f"<h1>{e(line[2:])}</h1>")
        elif line.startswith("![") and "](" in line and line.endswith(")"):
            alt, name = line[2:].split("](", 1)
            path = base_dir / name[:-1]
            out.append(f"<figure><img src='{_img(path)}' alt='{e(alt or path.name)}'></figure>" if path.is_file()
                       else f"<p class='warn'>missing figure: {e(path.name)}</p>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{e(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        elif line:
            out.append(f"<p>{e(line)}</p>")
        i += 1
    out.append("</body></html>")
    return "\n".join(out) + "\n"
