"""PNG plots with matplotlib's Agg backend (no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def reward_curves(metrics: Sequence[dict], path: Path) -> Path:
    """r1, r2 and y1/y2 accuracy per training step, with the KL term on a second panel."""
    plt = _plt()
    steps = [m["step"] for m in metrics]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    for key, label in (("r1_mean", "r1 (first attempt)"), ("r2_mean", "r2 (revision)"),
                       ("acc_y1", "accuracy y1"), ("acc_y2", "accuracy y2")):
        pts = [(s, m[key]) for s, m in zip(steps, metrics) if m.get(key) is not None]
        if pts:
            top.plot(*zip(*pts), marker="o", ms=3, label=label)
    top.set_ylabel("reward / accuracy")
    top.set_ylim(-0.05, 1.05)
    top.legend(fontsize=8)
    top.set_title("Refine training")
    pts = [(s, m["kl"]) for s, m in zip(steps, metrics) if m.get("used")]
    if pts:
        bottom.plot(*zip(*pts), marker="o", ms=3, color="tab:red", label="KL(π_θ ‖ π_ref)")
    skip = [(s, m["skip_rate"]) for s, m in zip(steps, metrics)]
    bottom.plot(*zip(*skip), marker=".", color="tab:gray", label="skip rate") if skip else None
    bottom.set_xlabel("step")
    bottom.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def grouped_bars(groups: Sequence[str], series: dict[str, Sequence[float | None]], path: Path, ylabel: str,
                 title: str) -> Path:
    """One group of bars per label in `groups`, one bar per series (e.g. condition)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(groups) * max(1, len(series)) / 2), 4))
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + i * width for g in range(len(groups))]
        ax.bar(xs, [v if v is not None else 0 for v in values], width, label=name)
    ax.set_xticks([g + width * (len(series) - 1) / 2 for g in range(len(groups))], groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
