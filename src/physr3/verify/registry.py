"""A small registry of verifiers by name: `@register_verifier("llm")`, `build_verifier("llm", cfg)`.

A verifier module registers a factory — a class with `from_config(cfg: Config)`, or any callable
`(cfg: Config) -> Verifier` — under a name. Built-in names map to their modules, which are imported only
when asked for (the LLM judge needs no sympy, the symbolic verifier no HTTP client):

    @register_verifier("symbolic")
    class SymbolicVerifier:
        name = "symbolic"
        @classmethod
        def from_config(cls, cfg): ...

Registering a name twice is refused (a second module would silently shadow the first); an unknown name
is refused with the list of valid ones.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, TypeVar

from physr3.errors import UserError

F = TypeVar("F", bound=Callable[..., Any])

_REGISTRY: dict[str, Callable[..., Any]] = {}
# name -> module that registers it on import
BUILTIN_VERIFIERS: dict[str, str] = {
    "llm": "physr3.verify.llm_judge",
    "symbolic": "physr3.verify.symbolic",
}


def register_verifier(name: str) -> Callable[[F], F]:
    """Class/function decorator: register a verifier factory under `name` (refuses duplicates)."""

    def deco(factory: F) -> F:
        if name in _REGISTRY and _REGISTRY[name] is not factory:
            raise ValueError(f"verifier {name!r} is already registered (by {_REGISTRY[name]!r})")
        _REGISTRY[name] = factory
        return factory

    return deco


def available_verifiers() -> list[str]:
    return sorted(set(_REGISTRY) | set(BUILTIN_VERIFIERS))


def get_verifier_factory(name: str) -> Callable[..., Any]:
    if name not in _REGISTRY and name in BUILTIN_VERIFIERS:
        module = BUILTIN_VERIFIERS[name]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                raise UserError(f"verifier {name!r} is not available in this version ({module} is missing)") from None
            raise
    if name not in _REGISTRY:
        raise UserError(f"unknown verifier {name!r}; valid: {', '.join(available_verifiers())}")
    return _REGISTRY[name]


def build_verifier(name: str, cfg: Any, **kwargs: Any) -> Any:
    """Instantiate verifier `name` from a full `Config` (extra keyword arguments go to the factory)."""
    factory = get_verifier_factory(name)
    make = getattr(factory, "from_config", factory)
    return make(cfg, **kwargs)
