"""One registry and one unit table: every reader of quantities agrees on what a unit is and what it weighs."""

from __future__ import annotations

import math

import pint
import pytest

from physr3.quantity import arith, expr, units
from physr3.quantity.answer import parse_quantity


def test_one_registry_so_quantities_from_different_readers_combine():
    answer = parse_quantity("2.0 kJ").quantity()
    step = arith.evaluate(arith.parse("500 J"), {})
    # pint refuses arithmetic between quantities of two registries; one registry makes this a plain sum
    assert (answer + step).to("J").magnitude == pytest.approx(2500.0)
    assert answer._REGISTRY is units.ureg() and step._REGISTRY is units.ureg()
    assert units.unit_quantity("N")._REGISTRY is units.ureg()


@pytest.mark.parametrize("word", ["kg", "μF", "µF", "MeV", "kΩ", "°", "deg", "h", "min", "u", "ug", "kBq", "GPa",
                                  "mmHg", "joules", "L", "mL"])
def test_a_unit_word_means_the_same_in_both_expression_readers(word):
    info = units.unit_word(word)
    assert info is not None, word
    lenient = expr.evaluate(expr.parse_full(f"2 {word}", expr.Names({})), {})
    strict = arith.evaluate(arith.parse(f"2 {word}"), {}).to_base_units().magnitude
    assert lenient == pytest.approx(2 * info.factor, rel=1e-12)
    assert strict == pytest.approx(2 * info.factor, rel=1e-12)


@pytest.mark.parametrize("word", ["the", "meters_per", "xyz", "in"])
def test_words_that_are_not_unit_words(word):
    assert units.unit_word(word) is None


def test_si_factor_and_dimensions():
    assert units.si_factor("km/h") == pytest.approx(1 / 3.6)
    assert units.si_factor("") == 1.0
    assert units.si_factor("m/s^2") == units.si_factor("m/s**2") == 1.0
    assert units.same_dim(units.dim_of_unit("N"), units.dim_of_unit("kg*m/s^2"))
    assert not units.same_dim(units.dim_of_unit("N"), units.dim_of_unit("J"))
    with pytest.raises(ValueError, match="offset"):
        units.si_factor("degC")
    with pytest.raises(ValueError, match="not understood"):
        units.si_factor("furlongs_per_blorp")


def test_offset_temperatures_still_compare_in_answers():
    q = parse_quantity("27 °C").quantity()
    assert q.to("K").magnitude == pytest.approx(300.15)


def test_dimension_analysis_of_sympy_expressions():
    import sympy as sp

    m, a, t = sp.symbols("m a t")
    got = units.dimension_of(m * a, {"m": "kg", "a": "m/s^2"})
    assert got.dimensionality == units.unit_quantity("N").dimensionality
    with pytest.raises(units.DimensionError):
        units.dimension_of(m + t, {"m": "kg", "t": "s"})
    with pytest.raises(units.DimensionError):
        units.check_unit(m * a, {"m": "kg", "a": "m/s^2"}, "J", "force")
    assert isinstance(units.ureg(), pint.UnitRegistry) and math.isfinite(units.si_factor("eV"))


@pytest.mark.parametrize("text,ref_unit", [
    ("1.57 Nm", "N*m"),  # pint alone reads Nm as 'number_meter' (1000 m/kg)
    ("1.56 kgm²s⁻¹", "kg*m^2/s"), ("2 cc", "cm^3"), ("4 hrs", "hour"), ("1 amu", "dalton"), ("2 rev/s", "1/s"),
])
def test_the_answer_reader_uses_the_same_spellings_as_the_expression_readers(text, ref_unit):
    q = parse_quantity(text)
    assert q is not None and q.unit is not None, text
    assert q.quantity().dimensionality == units.ureg().parse_expression(ref_unit.replace("^", "**")).dimensionality
    word = text.split()[1].split("/")[0]
    if units.unit_word(word) is not None:  # a word both kinds of reader know means the same size in both
        assert q.quantity().to_base_units().magnitude == pytest.approx(q.value * units.unit_word(word).factor)
