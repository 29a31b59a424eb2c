"""Statistics of many games: intervals and Elo (formulas in docs/arena.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964
#: Elo differences are clipped to this (a score beyond about 0.3% or 99.7%).
ELO_CLIP = 1000.0


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A normal interval for the mean of ``values`` in [0, 1] (the sample
    standard deviation; when it is 0, or one value is all there is, the
    Wilson interval of the mean over ``len(values)`` trials, which is wider
    than any other spread of scores with that mean allows)."""
    n = len(values)
    if n == 0:
        return 0.0, 1.0
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    if sd == 0:
        return wilson(mean * n, n, z)
    half = z * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def elo(score: float) -> float:
    """The Elo difference that gives an expected ``score``: ``-400 log10(1/score - 1)``, clipped to +-1000."""
    if score <= 0:
        return -ELO_CLIP
    if score >= 1:
        return ELO_CLIP
    return max(-ELO_CLIP, min(ELO_CLIP, -400 * math.log10(1 / score - 1)))
