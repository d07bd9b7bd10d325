"""95% intervals for the numbers a report prints: Wilson for proportions, percentile bootstrap for means.

Small and dependency-light on purpose (the standard library, plus numpy for the bootstrap) so any command that
prints a rate or a mean can attach an interval the same way:

- `wilson_interval(k, n)`: the Wilson score interval of a proportion k/n. Unlike the normal ("Wald")
  interval it stays inside [0, 1] and is not zero-width at k = 0 or k = n: 0 correct of 2 items gives
  [0, 0.66], 0 of 370 gives [0, 0.01], which is the difference a reader needs to see.
- `bootstrap_ci(values)`: the percentile bootstrap of a mean (or any statistic) of per-item values, e.g.
  JEEBench scores with partial credit, which are not 0/1. Seeded, so a report is reproducible.
- `stratified_bootstrap_ci(groups)`: a statistic over several groups resampled within each group, e.g. the
  paper's Table 1 average over benchmarks (a mean of per-benchmark means; each benchmark keeps its size).
- `newcombe_interval(k1, n1, k2, n2)`: the difference of two proportions p1 − p2 (Newcombe's hybrid score
  method, built from the two Wilson intervals), e.g. "ours − CoT" error shares.

All return `(low, high)` on the scale of their input (proportions in [0, 1]); `None` bounds where there is no
data (n = 0 or no values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

Interval = tuple[float, float]


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile: 1.959964 for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> Interval | None:
    """Wilson score interval of `successes`/`n`; None when n = 0."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in [0, n], got {successes} of {n}")
    z = z_value(confidence)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # k = 0 and k = n give exactly 0 and 1 in exact arithmetic; floating point leaves noise like 3e-17
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def newcombe_interval(k1: float, n1: int, k2: float, n2: int, confidence: float = 0.95) -> Interval | None:
    """Interval of p1 − p2 for two independent proportions (Newcombe 1998, method 10); None if either n is 0."""
    w1, w2 = wilson_interval(k1, n1, confidence), wilson_interval(k2, n2, confidence)
    if w1 is None or w2 is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    (l1, u1), (l2, u2) = w1, w2
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def _mean(values) -> float:
    return float(sum(values) / len(values))


def bootstrap_ci(values: Sequence[float], statistic: Callable | None = None, confidence: float = 0.95,
                 n_resamples: int = 2000, seed: int = 0) -> Interval | None:
    """Percentile bootstrap interval of `statistic` (default: the mean) over per-item `values`; None if empty.

    With one value, or all values equal, the interval collapses to that value: the bootstrap cannot show
    uncertainty it never sees (use `wilson_interval` for 0/1 outcomes, which can)."""
    return stratified_bootstrap_ci([values], (lambda groups: statistic(groups[0])) if statistic else None,
                                   confidence, n_resamples, seed)


def stratified_bootstrap_ci(groups: Sequence[Sequence[float]], statistic: Callable | None = None,
                            confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0) -> Interval | None:
    """Percentile bootstrap over several groups, each resampled within itself (its size kept).

    `statistic` takes the list of resampled groups (numpy arrays); the default is the mean of the group means
    (a macro average, the paper's Table 1). Empty groups are dropped; None when every group is empty."""
    import numpy as np

    arrays = [np.asarray(g, dtype=float) for g in groups if len(g)]
    if not arrays:
        return None
    stat = statistic or (lambda gs: float(np.mean([g.mean() for g in gs])))
    rng = np.random.default_rng(seed)
    # one (n_resamples, len(group)) index matrix per group: vectorised for the default statistic
    samples = [a[rng.integers(0, len(a), size=(n_resamples, len(a)))] for a in arrays]
    if statistic is None:
        stats = np.mean([s.mean(axis=1) for s in samples], axis=0)
    else:
        stats = np.array([stat([s[i] for s in samples]) for i in range(n_resamples)])
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return float(low), float(high)
