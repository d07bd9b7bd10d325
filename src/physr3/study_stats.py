"""Confidence intervals for the study's figures: percentile bootstrap for means, Wilson for proportions.

A study's claim rests on a difference between conditions on the same held-out items, so every figure carries
a 95% interval: the bootstrap resamples items with replacement (seeded: the same data give the same interval),
and a proportion also gets the Wilson score interval, which behaves at 0 and 1 where the normal one collapses.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def bootstrap_ci(values: Sequence[float], n_resamples: int = 1000, level: float = 0.95,
                 seed: int = 0) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean; None for no values."""
    if not values:
        return None
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(n_resamples))
    lo = means[int(math.floor((1 - level) / 2 * (n_resamples - 1)))]
    hi = means[int(math.ceil((1 + level) / 2 * (n_resamples - 1)))]
    return (lo, hi)


def wilson_ci(successes: int, n: int, level: float = 0.95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion; None for n = 0."""
    if n == 0:
        return None
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + level / 2)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, not 1e-17
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)
