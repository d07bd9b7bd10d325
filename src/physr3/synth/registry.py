"""The family registry: name -> Family, filled by the domain modules under `physr3.synth.families`.

`register_family(Family(...))` refuses a second family with the same name (two helpers picking the same
name must notice, not silently shadow each other). `get_family` on an unknown name lists the valid names.
The first lookup imports `physr3.synth.families`, which imports every module in that package, so adding a
domain module needs no edit anywhere else. Listing order is sorted by name: generation is deterministic
regardless of import order.
"""

from __future__ import annotations

import importlib

from physr3.errors import UserError
from physr3.synth.family import Family

_REGISTRY: dict[str, Family] = {}
_loaded = False


class UnknownFamilyError(UserError, KeyError):
    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def register_family(family: Family) -> Family:
    """Add a family; returns it so a module can keep a reference. Duplicate names are an error."""
    if not isinstance(family, Family):
        raise TypeError(f"register_family expects a Family, got {type(family).__name__}")
    if family.name in _REGISTRY:
        raise ValueError(f"family {family.name!r} is already registered (domain {_REGISTRY[family.name].domain})")
    _REGISTRY[family.name] = family
    return family


def unregister_family(name: str) -> None:
    """Remove a family (tests only)."""
    _REGISTRY.pop(name, None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("physr3.synth.families")


def all_families() -> list[Family]:
    _load()
    return [_REGISTRY[n] for n in sorted(_REGISTRY)]


def family_names() -> list[str]:
    return [f.name for f in all_families()]


def get_family(name: str) -> Family:
    _load()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownFamilyError(f"unknown family {name!r}; valid: {', '.join(sorted(_REGISTRY))}") from None


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
