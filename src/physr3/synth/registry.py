"""The family registry: name -> Family, filled by the domain modules under `physr3.synth.families`.

A `physr3.registry.Registry`: `register_family(Family(...))` refuses a second family with the same name (two
helpers picking the same name must notice, not silently shadow each other). `get_family` on an unknown name
lists the valid names. The first lookup imports `physr3.synth.families`, which imports every module in that
package, so adding a domain module needs no edit anywhere else. Listing order is sorted by name: generation
is deterministic regardless of import order.
"""

from __future__ import annotations

from physr3.errors import UserError
from physr3.registry import Registry, UnknownNameError
from physr3.synth.family import Family


class UnknownFamilyError(UnknownNameError):
    """An unknown family name (a UserError and a KeyError)."""


FAMILIES: Registry[Family] = Registry("family", autoload=["physr3.synth.families"], sort_names=True,
                                      describe=lambda f: f"domain {f.domain}", error=UnknownFamilyError)


def register_family(family: Family) -> Family:
    """Add a family; returns it so a module can keep a reference. Duplicate names are an error."""
    if not isinstance(family, Family):
        raise TypeError(f"register_family expects a Family, got {type(family).__name__}")
    return FAMILIES.register(family.name, family)


def unregister_family(name: str) -> None:
    """Remove a family (tests only)."""
    FAMILIES.unregister(name)


def all_families() -> list[Family]:
    return [FAMILIES.get(n) for n in FAMILIES.names()]


def family_names() -> list[str]:
    return FAMILIES.names()


def get_family(name: str) -> Family:
    return FAMILIES.get(name)


def select_families(names: list[str] | None = None, domains: list[str] | None = None,
                    levels: list[int] | None = None) -> list[Family]:
    """Families by name (each must exist), domain (each must have families) and difficulty level
    (`Family.level`); empty = all."""
    fams = [get_family(n) for n in sorted(set(names))] if names else all_families()
    if domains:
        known = {f.domain for f in all_families()}
        unknown = [d for d in domains if d not in known]
        if unknown:
            raise UserError(f"unknown or empty domain(s) {unknown}; valid: {', '.join(sorted(known))}")
        fams = [f for f in fams if f.domain in domains]
    if levels:
        from physr3.synth.family import LEVELS

        bad = [lv for lv in levels if lv not in LEVELS]
        if bad:
            raise UserError(f"unknown level(s) {bad}; valid: {', '.join(map(str, LEVELS))}")
        fams = [f for f in fams if f.level in levels]
    if not fams:
        raise UserError("no family matches the given --families/--domains/--level")
    return fams
