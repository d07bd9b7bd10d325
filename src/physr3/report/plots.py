"""PNG plots with matplotlib's Agg backend (no display needed).

Percentages are drawn on a fixed 0–100 axis (a run where everything is 0 shows an axis from 0 to 100 with
visible zero stubs, not an empty axis around 0), intervals as error bars, each condition and error type in one
fixed colour across figures, and every figure FIG_WIDTH_IN wide (the report page scales it to its column).
"""

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
    """One group of bars per label in `groups`, one bar per series (e.g. condition), on a 0–100 axis (the values
    are percentages); a thin wrapper over `percent_bars` without intervals."""
    from physr3.report.tables import Stat

    cells = {name: [None if v is None else Stat(v) for v in values] for name, values in series.items()}
    return percent_bars([("", list(groups), cells)], path, title, ylabel, CONDITION_COLOURS)


# ---- the report's figures: fixed 0–100 axes, visible zeros, error bars, one colour per condition ----------

CONDITION_COLOURS = {"cot": "#7f7f7f", "rag": "#1f77b4", "sft": "#ff7f0e", "dpo": "#9467bd", "ours": "#2ca02c",
                     "self-refine": "#8c564b"}
ERROR_COLOURS = {"MC": "#17becf", "CM": "#d62728", "CE": "#e0a100"}
TRANSITION_COLOURS = {"RR": "#2ca02c", "RW": "#d62728", "WR": "#1f77b4", "WW": "#7f7f7f"}
_SPARE = ("#e377c2", "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a")
FIG_WIDTH_IN = 8.0  # with dpi 110: ~880 px, the width of the report's text column; the page scales it down
DPI = 110


def colour_for(name: str, palette: dict[str, str], order: Sequence[str] = ()) -> str:
    """A fixed colour per name, so one condition has one colour in every figure; unknown names get spare colours
    by their position in `order` (stable within one report)."""
    if name in palette:
        return palette[name]
    extra = [n for n in order if n not in palette]
    return _SPARE[(extra.index(name) if name in extra else 0) % len(_SPARE)]


def percent_bars(panels: Sequence[tuple[str, Sequence[str], dict[str, Sequence]]], path: Path, title: str,
                 ylabel: str, colours: dict[str, str], legend: dict[str, str] | None = None) -> Path:
    """Grouped bars on a fixed 0–100 axis, one panel (row) per entry of `panels`: (panel title, group labels,
    {series name: [cell per group]}). A cell is None (not measured: "n/a") or has `.value`, `.low`, `.high`
    (percent; physr3.report.tables.Stat). A value of 0 is drawn as a thick stub on the axis and labelled, so
    "measured 0" never looks like "not measured"; intervals are drawn as error bars. `legend` maps series names
    to the labels shown (e.g. cot -> CoT)."""
    plt = _plt()
    n_panels = max(1, len(panels))
    fig, axes = plt.subplots(n_panels, 1, figsize=(FIG_WIDTH_IN, 0.7 + 2.6 * n_panels), squeeze=False,
                             layout="constrained")
    names = list(dict.fromkeys(s for _, _, series in panels for s in series))
    for ax, (panel_title, groups, series) in zip(axes[:, 0], panels):
        k = max(1, len(series))
        width = min(0.8 / k, 0.22)  # a lone group keeps slim bars
        crowded = k * len(groups) > 16  # whole-number labels, so neighbouring labels do not touch
        for i, (name, cells) in enumerate(series.items()):
            colour = colour_for(name, colours, names)
            for g, cell in enumerate(cells):
                x = g + width * (i + 0.5 - k / 2)
                value = None if cell is None else cell.value
                if value is None:
                    ax.text(x, 1.5, "n/a", ha="center", va="bottom", fontsize=6.5, color="#888", rotation=90)
                    continue
                ax.bar(x, value, width * 0.92, color=colour)
                if value == 0:  # zero-height bar: a stub on the axis line, above the spine
                    ax.plot([x - width * 0.42, x + width * 0.42], [0, 0], color=colour, lw=4, clip_on=False,
                            zorder=5, solid_capstyle="butt")
                top = value
                if cell.low is not None and cell.high is not None:
                    ax.errorbar(x, value, yerr=[[max(0.0, value - cell.low)], [max(0.0, cell.high - value)]],
                                fmt="none", ecolor="#222", elinewidth=0.9, capsize=2.5, zorder=6)
                    top = cell.high
                label = f"{value:.0f}" if value in (0, 100) or crowded else f"{value:.1f}"
                ax.text(x, min(top, 100) + 1.5, label,
                        ha="center", va="bottom", fontsize=7, clip_on=False)
        ax.set_xticks(range(len(groups)), groups, fontsize=8)
        ax.set_xlim(-0.5, len(groups) - 0.5)
        ax.set_ylim(0, 100)
        ax.set_yticks(range(0, 101, 20))
        ax.grid(axis="y", color="#ddd", lw=0.6)
        ax.set_axisbelow(True)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.set_title(panel_title, fontsize=9, loc="left", pad=12)  # room for value labels at 100
        ax.tick_params(axis="y", labelsize=8)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour_for(n, colours, names)) for n in names]
    fig.legend(handles, [(legend or {}).get(n, n) for n in names], loc="outside upper right", ncol=min(6, len(names)), fontsize=8, frameon=False)
    fig.suptitle(title, x=0.01, ha="left", fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


def learning_curves(metrics: Sequence[dict], path: Path) -> Path:
    """Refine training per step: accuracy of y1 and y2 (%, 0–100) and mean step reward r1, r2 (0–1)."""
    plt = _plt()
    steps = [m["step"] for m in metrics]
    fig, (acc, rew) = plt.subplots(2, 1, figsize=(FIG_WIDTH_IN, 5.2), sharex=True)
    for ax, keys, scale in ((acc, (("acc_y1", "y1 (first attempt)"), ("acc_y2", "y2 (revision)")), 100.0),
                            (rew, (("r1_mean", "r1 (first attempt)"), ("r2_mean", "r2 (revision)")), 1.0)):
        for (key, label), colour in zip(keys, ("#1f77b4", "#2ca02c")):
            pts = [(s, scale * m[key]) for s, m in zip(steps, metrics) if m.get(key) is not None]
            if pts:
                ax.plot(*zip(*pts), marker="o", ms=3.5, color=colour, label=label, clip_on=False)
        ax.legend(fontsize=8, loc="upper left", frameon=False)
        ax.tick_params(labelsize=8)
        ax.grid(axis="y", color="#ddd", lw=0.6)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
    acc.set_ylim(0, 100)
    acc.set_ylabel("accuracy (%)", fontsize=8)
    acc.set_title("Refine training: accuracy and step reward per step", fontsize=10, loc="left")
    rew.set_ylim(0, 1)
    rew.set_ylabel("mean step reward r = e/(n+1)", fontsize=8)
    rew.set_xlabel("training step", fontsize=8)
    if steps:
        rew.set_xticks(sorted(set(steps)))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path
