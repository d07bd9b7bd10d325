"""How numbers are written: significant figures (the generator's and the code channel's one formatter)."""

import pytest

from physr3.quantity.sigfig import fmt_plain, fmt_sig, round_sig, with_unit


@pytest.mark.parametrize("x, sig, text", [
    (9.8, 3, "9.80"), (0.0123456, 2, "0.012"), (6.62607e-34, 3, "6.63e-34"), (299792458, 3, "3.00e8"),
    (12345.0, 3, "12300"), (0.00012, 2, "1.2e-4"), (-4.55, 2, "-4.5"), (9.96, 2, "10"), (0, 2, "0.0"),
])
def test_fmt_sig(x, sig, text):
    assert fmt_sig(x, sig) == text
    assert float(text) == round_sig(x, sig) or x == 0


def test_plain_constants_and_units():
    assert [fmt_plain(x) for x in (9.8, 2.0, 6.626e-34, 3e8)] == ["9.8", "2", "6.626e-34", "3e8"]
    assert with_unit("20", "m/s") == "20 m/s" and with_unit("0.5", "") == "0.5"
