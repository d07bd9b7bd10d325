"""Evaluation: benchmark loaders (`benchmarks`), answer extraction and scoring (`answers`, `quantities`)."""

from physr3.eval.answers import Score, extract_answer, score, score_problem, summarize
from physr3.eval.benchmarks import (
    BENCHMARKS,
    data_dir,
    data_path,
    load_benchmark,
    register_benchmark,
)

__all__ = ["BENCHMARKS", "Score", "data_dir", "data_path", "extract_answer", "load_benchmark",
           "register_benchmark", "score", "score_problem", "summarize"]
