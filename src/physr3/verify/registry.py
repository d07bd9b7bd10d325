"""Verifiers by name: `@register_verifier("llm")`, `build_verifier("llm", cfg)` (a `physr3.registry.Registry`).

A verifier module registers a factory — a class with `from_config(cfg: Config)`, or any callable
`(cfg: Config) -> Verifier` — under a name. The built-in names are lazy `"module:attr"` targets, imported
only when asked for (the LLM judge needs no sympy, the symbolic verifier no HTTP client):

    @register_verifier("symbolic")
    class SymbolicVerifier:
        name = "symbolic"
        @classmethod
        def from_config(cls, cfg): ...

Registering a name twice is refused (a second module would silently shadow the first); an unknown name
is refused with the list of valid ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from physr3.registry import Registry

F = TypeVar("F", bound=Callable[..., Any])

VERIFIERS: Registry[Callable[..., Any]] = Registry("verifier", sort_names=True)
VERIFIERS.register("hybrid", "physr3.verify.hybrid:HybridVerifier")
VERIFIERS.register("llm", "physr3.verify.llm_judge:LLMJudge")
VERIFIERS.register("symbolic", "physr3.verify.symbolic:SymbolicVerifier")


def register_verifier(name: str) -> Callable[[F], F]:
    """Class/function decorator: register a verifier factory under `name` (refuses duplicates)."""
    return VERIFIERS.register(name)


def available_verifiers() -> list[str]:
    return VERIFIERS.names()


def get_verifier_factory(name: str) -> Callable[..., Any]:
    return VERIFIERS.get(name)


def build_verifier(name: str, cfg: Any, **kwargs: Any) -> Any:
    """Instantiate verifier `name` from a full `Config` (extra keyword arguments go to the factory)."""
    factory = get_verifier_factory(name)
    make = getattr(factory, "from_config", factory)
    return make(cfg, **kwargs)
