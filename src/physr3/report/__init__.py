"""Reports from eval runs and training metrics: run merging (merge), 95% intervals (intervals), tables in
Markdown, CSV, LaTeX and HTML (tables, paper_tables), PNG plots (plots), the self-contained page (html_page)
and the demo's report.md (demo_report)."""
