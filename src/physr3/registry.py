"""One registry type for everything chosen by name: verifiers, problem families, conditions, benchmarks.

In the lm-eval style: a `Registry` maps names to objects, registered by a decorator or a direct call,

    VERIFIERS = Registry("verifier")

    @VERIFIERS.register("symbolic")            # decorator
    class SymbolicVerifier: ...

    VERIFIERS.register("llm", "physr3.verify.llm_judge:LLMJudge")   # lazy: imported on first use

- a second object under a taken name is refused (`ValueError`, naming both): two modules picking one name
  must notice, not shadow each other silently. Registering the same object again is harmless, and so is a
  module registering the object that a lazy target of the same name points at (the module imported to
  resolve `"physr3.verify.llm_judge:LLMJudge"` may itself say `@register_verifier("llm")`);
- an unknown name raises `UnknownNameError` (a `physr3.errors.UserError`, so the CLI prints one line and
  exits 2) listing the valid names;
- a `"module:attr"` target (`attr` may be dotted: `"pkg.mod:Class.from_file"`) is imported the first time
  its name is looked up, so a registry lists names without importing sympy, an HTTP client or FAISS;
  `resolve_target` is the same loader for targets that come from the user (`physr3 serve --responder`);
- `autoload` names modules imported before the first lookup or listing: modules that fill the registry
  on import (`physr3.synth.families` registers every family it holds);
- `names()` for listings and help texts: registration order, or sorted (`sort_names=True`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from physr3.errors import UserError

T = TypeVar("T")


class UnknownNameError(UserError, KeyError):
    """A name no registry entry has; the message lists the valid ones. Also a KeyError, for `[]` lookups."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def _split_target(target: str, what: str) -> tuple[str, str]:
    module, sep, attr = target.partition(":")
    if not sep or not module.strip() or not attr.strip():
        raise UserError(f"{what}: {target!r} is not a 'module:attr' target (e.g. 'package.module:ClassName')")
    return module.strip(), attr.strip()


def resolve_target(target: str, what: str = "target") -> Any:
    """The object named by `"module:attr"` (attr may be dotted). A module that cannot be found or an
    attribute it does not have is a UserError naming `what` and the target; an error raised while the
    module runs is not caught (that is a bug in the module, its traceback is the useful report)."""
    module, attr = _split_target(target, what)
    try:
        obj: Any = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            raise UserError(f"{what}: cannot load {target!r}: no module named {exc.name!r} "
                            "(is its folder on PYTHONPATH?)") from None
        raise
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UserError(f"{what}: cannot load {target!r}: {module} has no attribute {attr!r}") from None
    return obj


def _names_target(target: str, obj: Any) -> bool:
    """Whether the lazy `target` names `obj` (its module and qualified name), without importing anything."""
    module, attr = target.partition(":")[::2]
    return getattr(obj, "__module__", None) == module and getattr(obj, "__qualname__", None) == attr


class _Lazy:
    __slots__ = ("target",)

    def __init__(self, target: str):
        self.target = target

    def __repr__(self) -> str:
        return repr(self.target)


class Registry(Generic[T]):
    """Names -> objects of one kind (see the module docstring). `kind` names the kind in messages."""

    def __init__(self, kind: str, *, autoload: Sequence[str] = (), sort_names: bool = False, hint: str = "",
                 describe: Callable[[Any], str] | None = None, error: type[UnknownNameError] = UnknownNameError):
        self.kind, self.hint, self.error = kind, hint, error
        self._entries: dict[str, Any] = {}
        self._targets: dict[str, str] = {}
        self._autoload, self._loaded = tuple(autoload), not autoload
        self._sort, self._describe = sort_names, describe

    # ---- registering
    def register(self, name: str, obj: Any = None) -> Any:
        """`register(name, obj)` adds and returns `obj` (a string `"module:attr"` is a lazy target);
        `register(name)` is the decorator form. A taken name is refused unless it is the same object."""
        if obj is None:
            return lambda o: self.register(name, o)
        new = _Lazy(obj) if isinstance(obj, str) else obj
        old = self._entries.get(name)
        if old is not None and old is not obj:
            target = self._targets.get(name)  # the lazy target this name was registered with, if any
            same = target is not None and ((isinstance(obj, str) and obj == target)
                                           or (isinstance(old, _Lazy) and _names_target(target, obj)))
            if not same:
                raise ValueError(f"{self.kind} {name!r} is already registered ({self._about(old)}); "
                                 f"refusing {self._about(new)}")
        if old is None or isinstance(old, _Lazy):
            self._entries[name] = new
            if isinstance(new, _Lazy):
                self._targets[name] = new.target
        return obj

    def unregister(self, name: str) -> None:
        """Remove a name (tests that register a temporary entry)."""
        self._entries.pop(name, None)
        self._targets.pop(name, None)

    # ---- looking up
    def get(self, name: str) -> T:
        """The object under `name` (a lazy target is imported now, once); unknown -> UnknownNameError."""
        self._load()
        if name not in self._entries:
            raise self.error(f"unknown {self.kind} {name!r}; valid: {', '.join(self.names())}{self.hint}")
        entry = self._entries[name]
        if isinstance(entry, _Lazy):
            obj = resolve_target(entry.target, f"{self.kind} {name!r}")
            if isinstance(self._entries.get(name), _Lazy):  # the module did not register it itself
                self._entries[name] = obj
            entry = obj
        return entry

    def names(self) -> list[str]:
        """Every registered name (lazy ones included, nothing imported but `autoload`)."""
        self._load()
        return sorted(self._entries) if self._sort else list(self._entries)

    def items(self) -> list[tuple[str, T]]:
        """(name, object) for every name, in `names()` order; resolves every lazy target."""
        return [(n, self.get(n)) for n in self.names()]

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    # ---- internals
    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True  # before importing: the modules register into this registry as they load
            for module in self._autoload:
                importlib.import_module(module)

    def _about(self, obj: Any) -> str:
        if isinstance(obj, _Lazy):
            return f"lazy target {obj.target!r}"
        if self._describe is not None:
            return self._describe(obj)
        if hasattr(obj, "__qualname__"):
            return f"{getattr(obj, '__module__', '?')}.{obj.__qualname__}"
        return f"{type(obj).__name__} instance"
