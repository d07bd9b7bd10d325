"""The study's report.md as a self-contained HTML page: tables, headings, lists, the embedded figure, escaping."""

import base64

from physr3.report.html_page import markdown_page

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


def test_tables_headings_lists_and_the_figure_become_html(tmp_path):
    (tmp_path / "curve.png").write_bytes(PNG)
    md = "\n".join(["# physr3 study — level 1", "", "Intro <b>not markup</b>.", "",
                    "| condition | n | r1 |", "|---|---|---|", "| sft | 200 | 0.539 [0.500, 0.577] |",
                    "| ours-paper | 200 | 0.565 |", "", "## Curves", "", "![](curve.png)", "",
                    "- ours-paper: step 0: 0.551", "- ours-paper+first: step 4: 0.562", "", "![](absent.png)"])
    page = markdown_page("physr3 study", md, tmp_path)
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert "<h1>physr3 study — level 1</h1>" in page and "<h2>Curves</h2>" in page
    assert "<thead><tr><th>condition</th><th>n</th><th>r1</th></tr></thead>" in page
    assert "<tr><th>sft</th><td>200</td><td>0.539 [0.500, 0.577]</td></tr>" in page
    assert page.count("<tr>") == 3  # header + two body rows; the |---| row is not a row
    assert "<li>ours-paper: step 0: 0.551</li>" in page and page.count("<ul>") == 1
    assert "data:image/png;base64," + base64.b64encode(PNG).decode() in page
    assert "missing figure: absent.png" in page
    assert "&lt;b&gt;not markup&lt;/b&gt;" in page and "<b>not markup</b>" not in page
