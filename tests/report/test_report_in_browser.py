"""The report page in a real browser: two eval runs of one model (made by the eval runner, see conftest.py),
rendered by `physr3 report`, opened in headless Chromium (Debian's `chromium` package).

Checks: a screenshot at laptop size that is not blank; no horizontal overflow at two laptop widths (measured
by the page itself: a copy of index.html with a probe script that writes scrollWidth/clientWidth, image sizes
and the rows of every table into the DOM, read back with --dump-dom); images embedded, decoded and inside the
page; one row per model in the merged tables; the page says which run a shared cell came from.
"""

from __future__ import annotations

import csv
import html
import json
import re
import shutil
import subprocess

import pytest

from physr3.cli import main

CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                None)
pytestmark = pytest.mark.slow  # the formatted tiny model takes ~45 s to train on 2 busy cores (shared fixture)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed (Debian: "
                                                           "apt-get install -y chromium); the browser test needs it")

PROBE = """<script>
window.addEventListener('load', () => {
  const d = document.documentElement;
  const rows = {};
  document.querySelectorAll('section[id] table').forEach(t => {
    rows[t.closest('section').id] = [...t.tBodies[0].rows].map(r => r.cells[0].textContent.trim());
  });
  document.body.setAttribute('data-probe', JSON.stringify({
    scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, rows: rows,
    images: [...document.images].map(i => ({natural: i.naturalWidth, right: i.getBoundingClientRect().right})),
  }));
});
</script>"""


def _chromium(*args, tmp_path):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           f"--user-data-dir={tmp_path / 'chromium-profile'}", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _probe(page, width, tmp_path) -> dict:
    dom = _chromium(f"--window-size={width},800", "--dump-dom", page.as_uri(), tmp_path=tmp_path)
    found = re.search(r'data-probe="([^"]*)"', dom)
    assert found, "the probe script did not run"
    return json.loads(html.unescape(found.group(1)))


@pytest.fixture(scope="module")
def report(two_eval_runs, tmp_path_factory):
    first, second = two_eval_runs
    out = tmp_path_factory.mktemp("report")
    # the newer run first on the command line: "newer" is the start time, not the order
    assert main(["report", str(second), str(first), "--out", str(out)]) == 0
    return out, first, second


@needs_chromium
def test_report_page_in_headless_chromium(report, formatted_tiny_dir, tmp_path):
    out, first, second = report
    page = (out / "index.html").read_text()
    # self-contained: no scripts, stylesheets, fonts or images fetched from anywhere
    assert not re.search(r"""(src|href)=['"]?(https?:|//)""", page) and "<script" not in page
    assert page.count("src='data:image/png;base64,") >= 2

    shot = tmp_path / "laptop.png"
    _chromium("--window-size=1366,768", f"--screenshot={shot}", (out / "index.html").as_uri(), tmp_path=tmp_path)
    from matplotlib.image import imread

    pixels = imread(shot)
    assert pixels.shape[:2] == (768, 1366)
    assert (pixels[..., :3] < 0.9).any(axis=-1).mean() > 0.01, "the screenshot is blank"

    probe_page = tmp_path / "probe.html"
    probe_page.write_text(page.replace("</body>", PROBE + "</body>"))
    model = formatted_tiny_dir.rstrip("/").rsplit("/", 1)[-1]
    for width in (1366, 1024):
        probe = _probe(probe_page, width, tmp_path)
        assert probe["scrollWidth"] <= probe["clientWidth"], f"horizontal overflow at {width}px: {probe}"
        assert probe["images"] and all(i["natural"] > 0 and i["right"] <= probe["clientWidth"]
                                       for i in probe["images"]), probe["images"]
    rows = probe["rows"]
    for table in ("average", "accuracy_synth-test", "compliance"):
        assert rows[table] == [model], (table, rows[table])  # the two runs are one row
    assert rows["errors"] == ["CoT", "Self-Refine"]

    # the page says where the shared cell came from, and flags the setting that differs
    merging = page[page.index("id='merging'"):page.index("</section>", page.index("id='merging'"))]
    assert "on synth-test: from <code>" in merging
    assert f"from <code>{second}</code>" in merging and f"replacing <code>{first}</code>" in merging
    assert "generation.max_new_tokens" in merging


def test_merged_values_come_from_the_newer_run(report):
    out, first, second = report
    newer = json.loads((second / "summary.json").read_text())["cot"]["synth-test"]
    older = json.loads((first / "summary.json").read_text())["self-refine"]["synth-test"]
    with open(out / "accuracy_synth-test.csv") as fh:
        (row,) = list(csv.DictReader(fh))
    assert float(row["CoT"]) == pytest.approx(100 * newer["mean_score"]) and int(row["CoT_n"]) == newer["n"]
    assert float(row["Self-Refine"]) == pytest.approx(100 * older["mean_score"])
    assert float(row["CoT_low"]) <= float(row["CoT"]) <= float(row["CoT_high"])
    attributed = sum(newer["error_types"].values())
    with open(out / "errors.csv") as fh:
        errors = {r["Condition"]: r for r in csv.DictReader(fh)}
    assert errors["CoT"]["MC (problem miscomprehension)_n"] == (str(attributed) if attributed else "0")
