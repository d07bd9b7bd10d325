"""The final-answer reader: numbers, quantities with units, and the LaTeX/Unicode normaliser in front of it."""

import pytest

from physr3.quantity.answer import eval_arithmetic, parse_number, parse_quantity
from physr3.quantity.text import latex_to_plain
from physr3.quantity.units import ureg

# ---- numbers and quantities ----------------------------------------------------------------------

@pytest.mark.parametrize("text,value", [
    ("2.00", 2.0), ("τ = 2 s", 2.0), ("$6.4 \\times 10^{-34}$", 6.4e-34), ("3.2e-19", 3.2e-19), ("3/4", 0.75),
    ("\\frac{3}{4}", 0.75), ("\\dfrac{\\sqrt{3}}{2}", 3 ** 0.5 / 2), ("−9.8", -9.8), ("1,000", 1000.0),
    ("2.5 × 10⁻³", 2.5e-3), ("\\boxed{121}", 121.0), ("x ≈ 0.33", 0.33), ("10^{-3}", 1e-3),
])
def test_parse_number(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["None", "B", "cannot be determined", ""])
def test_parse_number_none(text):
    assert parse_number(text) is None


def test_arithmetic_is_whitelisted_not_eval():
    assert eval_arithmetic("__import__('os').system('true')") is None
    assert eval_arithmetic("2**10**10") is None
    assert eval_arithmetic("2 sqrt(3)") == pytest.approx(2 * 3 ** 0.5)


@pytest.mark.parametrize("text,si_value,ref_unit", [
    ("5.0 m/s^2", 5.0, "m/s^2"),
    ("5.0 m s^-2", 5.0, "m/s^2"),
    ("5.0 m/s²", 5.0, "m/s^2"),
    ("5.0 m s⁻²", 5.0, "m/s^2"),
    ("$5.0\\,\\mathrm{m\\,s^{-1}}$", 5.0, "m/s"),
    ("2 kJ", 2000.0, "J"),
    ("1 eV", 1.602176634e-19, "J"),
    ("3.2e-19 J", 3.2e-19, "J"),
    ("$6.4 \\times 10^{-34} \\mathrm{~J} \\mathrm{~s}$", 6.4e-34, "J*s"),
    ("\\boxed{9.8 \\text{ m/s}^2}", 9.8, "m/s^2"),
    ("2.5 \\mu C", 2.5e-6, "C"),
    ("4.5 × 10⁻³ kg·m²/s", 4.5e-3, "J*s"),
    ("10 Ω", 10.0, "ohm"),
    ("3 Ohms", 3.0, "ohm"),
    ("5.0 meters per second squared", 5.0, "m/s^2"),
    ("a = 9.8 m/s² downward", 9.8, "m/s^2"),
    ("5 m in 2 s", 5.0, "m"),
    ("27^{\\circ} \\mathrm{C}", 300.15, "K"),
    ("1.2 J/(mol K)", 1.2, "J/mol/K"),
    ("\\frac{1}{2} \\mathrm{~kg}", 0.5, "kg"),
    ("7 mm Hg", 933.2565, "Pa"),
    ("2 rev/s", 4 * 3.141592653589793, "1/s"),
])
def test_parse_quantity_to_si(text, si_value, ref_unit):
    q = parse_quantity(text)
    assert q is not None and q.unit is not None, text
    base = q.quantity().to_base_units()
    assert base.magnitude == pytest.approx(si_value, rel=1e-5)
    assert base.dimensionality == ureg().parse_expression(ref_unit).dimensionality


def test_latex_to_plain_examples():
    assert latex_to_plain("\\mathrm{m\\,s^{-1}}") == "m s^(-1)"
    assert latex_to_plain("$3 \\times 10^{8}~\\text{m/s}$") == "3 * 10^(8) m/s"
    assert latex_to_plain("30^\\circ") == "30 degree"


@pytest.mark.parametrize("text,value", [
    ("1,000,000 J", 1e6),  # thousands separators all the way (the AST reader stopped at the second comma)
    ("2.14 \\pm 0.01 mm", 2.14),  # two numbers side by side are not a product
    ("37.7 x 10^(-5 C)", 3.77e-4),  # an unclosed exponent group still reads as scientific notation
    ("10^{-34}", 1e-34), ("2(3)", 6.0), ("sqrt(2)/2", 2 ** 0.5 / 2), ("3π", 3 * 3.141592653589793),
])
def test_answer_arithmetic_is_read_by_the_one_expression_reader(text, value):
    assert parse_number(text) == pytest.approx(value)
    assert eval_arithmetic("2 3") is None and eval_arithmetic("log(100)") == pytest.approx(4.605170185988092)
