"""How a number reads in text: significant figures, plain constants, a value with its unit.

`fmt_sig` is the one place that decides how a computed value is written (the generator's problems and
solutions, the code channel's feedback): fixed notation for 1e-3 <= |x| < 1e5, otherwise `6.63e-34`
(mantissa with the requested significant figures, exponent without padding).
"""

from __future__ import annotations

import math


def round_sig(x: float, sig: int) -> float:
    """`x` rounded to `sig` significant figures."""
    return float(f"{x:.{sig - 1}e}") if x else 0.0


def fmt_sig(x: float, sig: int) -> str:
    """`x` with exactly `sig` significant figures, e.g. 9.8 -> '9.80' (sig 3), 6.626e-34 -> '6.63e-34'."""
    if x == 0:
        return "0" if sig == 1 else "0." + "0" * (sig - 1)
    r = round_sig(x, sig)
    e = math.floor(math.log10(abs(r)))
    if -3 <= e < 5:
        return f"{r:.{max(sig - 1 - e, 0)}f}"
    mant, ex = f"{r:.{sig - 1}e}".split("e")
    return f"{mant}e{int(ex)}"


def fmt_plain(x: float) -> str:
    """A constant as an author would write it: 9.8, 2, 6.63e-34, 3e8."""
    if float(x).is_integer() and abs(x) < 1e6:
        return str(int(x))
    s = f"{x:.6g}"
    if "e" in s:
        mant, ex = s.split("e")
        return f"{mant}e{int(ex)}"
    return s


def with_unit(text: str, unit: str) -> str:
    """'20' + 'm/s' -> '20 m/s'; dimensionless values read bare."""
    return f"{text} {unit}" if unit else text
