"""The verifier interface: `verify(problem, solution) -> Verdict`.

`error_step` is 1-based with 0 = no error (the paper's JSON); `error_type` is MC (problem
miscomprehension), CM (conceptual misapplication), CE (calculation error) or "none"; `status` says
whether the verdict is usable (`ok`) or what went wrong (`parse_error`, `api_error`). A verdict that is
not `ok` carries error_step 0 and type "none" and must not be read as "no error": the reward policy for
failures is the caller's (see physr3.reward).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from physr3.problems import Problem

ERROR_TYPES = ("MC", "CM", "CE", "none")
STATUSES = ("ok", "parse_error", "api_error")


@dataclass
class Verdict:
    error_step: int
    error_type: str
    explanation: str = ""
    status: str = "ok"
    raw: Any = None  # the judge's reply text, or the symbolic checker's structured findings
    details: dict[str, Any] = field(default_factory=dict)  # e.g. expected value, step tag, counted faults
    # steps before the reported one that no check could judge (the symbolic verifier; empty for a judge)
    unchecked_steps: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.error_type not in ERROR_TYPES:
            raise ValueError(f"error_type {self.error_type!r} not in {ERROR_TYPES}")
        if self.status not in STATUSES:
            raise ValueError(f"status {self.status!r} not in {STATUSES}")
        if self.error_step < 0:
            raise ValueError("error_step must be >= 0")

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def has_error(self) -> bool:
        return self.ok and self.error_step > 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Verifier(Protocol):
    name: str

    def verify(self, problem: Problem, solution: str) -> Verdict: ...

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]: ...
