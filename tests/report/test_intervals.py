"""Interval functions against published values and their defining properties."""

import random

import pytest

from physr3.report.intervals import (
    bootstrap_ci,
    newcombe_interval,
    stratified_bootstrap_ci,
    wilson_interval,
    z_value,
)


def test_wilson_matches_published_values_and_is_not_degenerate_at_zero():
    assert z_value() == pytest.approx(1.959964, abs=1e-6)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    # 0 of 2 and 0 of 370 are both 0%, but the intervals tell them apart
    assert wilson_interval(0, 2) == (0.0, pytest.approx(0.6576, abs=1e-4))
    assert wilson_interval(0, 370) == (0.0, pytest.approx(0.01028, abs=1e-4))
    assert wilson_interval(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_newcombe_difference_matches_newcombe_1998_example():
    # Newcombe (1998), Statistics in Medicine 17:873, Table II example (56/70 vs 48/80): 0.0524 to 0.3339
    assert newcombe_interval(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert newcombe_interval(1, 0, 1, 2) is None


def test_bootstrap_is_seeded_and_close_to_the_normal_interval_for_a_large_sample():
    rng = random.Random(1)
    values = [rng.gauss(0.5, 0.2) for _ in range(400)]
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    low, high = bootstrap_ci(values)
    assert low < mean < high
    assert low == pytest.approx(mean - 1.96 * sd / 20, abs=0.004)
    assert high == pytest.approx(mean + 1.96 * sd / 20, abs=0.004)
    assert bootstrap_ci(values) == (low, high)  # same seed, same interval
    assert bootstrap_ci([0.5, 0.5, 0.5]) == (0.5, 0.5)
    assert bootstrap_ci([]) is None
    assert bootstrap_ci([1.0, 2.0, 9.0], statistic=max)[1] == 9.0


def test_stratified_bootstrap_keeps_each_group_and_averages_group_means():
    groups = [[1, 0, 1, 1], [0, 0, 0, 1, 0, 0]]
    low, high = stratified_bootstrap_ci(groups)
    macro = (0.75 + 1 / 6) / 2
    assert low < macro < high and 0.0 <= low and high <= 1.0
    assert stratified_bootstrap_ci([[1, 1], [0, 0]]) == (0.5, 0.5)  # no variation inside a group
    assert stratified_bootstrap_ci([[], []]) is None
