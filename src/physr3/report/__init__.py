"""Reports: tables (Markdown, CSV, LaTeX) and plots (PNG) from eval summaries and training metrics."""
