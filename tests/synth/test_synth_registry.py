"""Registry and declaration errors: each mistake a family author can make fails loudly and names it."""

from __future__ import annotations

import pytest

from physr3.quantity.units import DimensionError
from physr3.synth import Family, compute, const, family_names, get_family, given, principle, register_family
from physr3.synth.family import GenerationError
from physr3.synth.registry import UnknownFamilyError, select_families, unregister_family
from physr3.synth.spec import between


def tiny(name: str = "tiny_test_family", **kw) -> Family:
    spec = dict(
        name=name, domain="Mechanics", question="A force {F} acts on {m}. Find a.",
        givens=[given("F", between(1, 10), "N", "force"), const("m", 2, "kg", "mass")],
        find=("a", "the acceleration"), principles=[principle("Newton's second law", "F = m a", "newton")],
        steps=[compute("a", "F/m", "m/s^2", "acceleration")],
    )
    spec.update(kw)
    return Family(**spec)


def test_duplicate_name_is_refused():
    fam = register_family(tiny())
    try:
        with pytest.raises(ValueError, match="already registered"):
            register_family(tiny())
    finally:
        unregister_family(fam.name)


def test_unknown_family_lists_valid_names():
    with pytest.raises(UnknownFamilyError) as exc:
        get_family("no_such_family")
    assert "no_such_family" in str(exc.value)
    assert all(n in str(exc.value) for n in family_names())


def test_select_unknown_domain_is_refused():
    with pytest.raises(Exception, match="unknown or empty domain"):
        select_families(domains=["Astrology"])


@pytest.mark.parametrize("kw, match", [
    (dict(domain="Astrology"), "domain"),
    (dict(steps=[compute("a", "F/M", "m/s^2", "acceleration")]), "uses \\['M'\\]"),
    (dict(question="A force {F} acts. Find a."), "placeholders"),
    (dict(find=("F", "force")), "not a computed step"),
    (dict(givens=[given("lambda", 1.0, "N", "x"), const("m", 2, "kg", "mass")]), "unusable"),
])
def test_bad_declarations_fail_at_definition(kw, match):
    with pytest.raises(GenerationError, match=match):
        tiny(**kw)


def test_dimension_mismatch_is_caught_on_compile():
    fam = tiny(steps=[compute("a", "F/m", "m/s", "acceleration")])
    with pytest.raises(DimensionError, match="declared unit"):
        fam.generate(0)
    fam = tiny(steps=[compute("a", "F + m", "N", "nonsense")])
    with pytest.raises(DimensionError, match="adding"):
        fam.generate(0)


def test_offset_unit_is_refused():
    fam = tiny(givens=[given("F", between(1, 10), "degC", "force"), const("m", 2, "kg", "mass")])
    with pytest.raises(ValueError, match="offset"):
        fam.generate(0)


def test_impossible_requirement_names_family_and_seed():
    fam = tiny(require=["F > 100*F"])
    with pytest.raises(GenerationError, match="tiny_test_family.*seed 7"):
        fam.generate(7)


def test_exact_fraction_constant_is_shown_as_written():
    from physr3.synth.check import check_problem

    fam = tiny(question="A force {F} acts on {m}; k = {k}. Find a.",
               givens=[given("F", between(1, 10), "N", "force"), const("m", 2, "kg", "mass"),
                       const("k", "5/3", "", "a ratio")],
               steps=[compute("a", "k*F/m", "m/s^2", "acceleration")])
    p = fam.generate(1)
    assert "k = 5/3 (a ratio)" in p.solution and "(5/3)" in p.solution
    check_problem(p, regenerate=False)
