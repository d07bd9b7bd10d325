"""The feedback generator F of section 3.3: route a verdict to one of three channels by error type.

    error_step == 0           -> "There is no error in your solution."      (channel "none")
    MC  problem miscomprehension -> re-read the problem (physr3.feedback.statement)   ("statement")
    CM  conceptual misapplication -> retrieved formulas (physr3.feedback.retrieval)  ("retrieval")
    CE  calculation error        -> executed code (physr3.feedback.code)              ("code")

As Appendix C, Listing 3. Additions: a verdict that is not usable (`status != "ok"`) gets channel
"unchecked" and a request to rewrite in the checked format, never "no error"; a verdict with a step but
type "none" is routed by the section the step is in (`physr3.solution.TAG_ERROR_TYPE`); a channel that
fails (no readable arithmetic, sandbox error, model error) still returns the explanation-based feedback and
says why in `details`. `Feedback` is JSON-serialisable (`to_json`) so the training loop logs it per sample.

`FeedbackRouter(cfg.feedback)` is the callable the training loop takes: `router(problem, solution, verdict)`.
The ChromaDB store, the embedder and the model client are created on first use, so MC/CE-only use and
import stay cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from physr3.config import FeedbackConfig
from physr3.feedback import code as code_channel
from physr3.feedback.own_code import run_own_code
from physr3.feedback.retrieval import FormulaRetriever, build_query, correct_concepts, retrieval_feedback
from physr3.feedback.statement import statement_feedback
from physr3.problems import Problem
from physr3.solution import TAG_ERROR_TYPE, parse_solution
from physr3.verify.base import Verdict

NO_ERROR_TEXT = "There is no error in your solution."
UNCHECKED_TEXT = ("Your solution could not be checked. Rewrite it in the seven-tag format with numbered steps "
                  "(Step 1:, Step 2:, ...) and check every step.")
CHANNELS = {"MC": "statement", "CM": "retrieval", "CE": "code"}


@dataclass
class Feedback:
    """Feedback p1 and its parts: channel none|statement|retrieval|code|unchecked, the step it is about."""

    text: str
    channel: str
    step: int
    error_type: str = "none"
    retrieved: list[dict] = field(default_factory=list)
    code: str | None = None
    code_output: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class FeedbackRouter:
    """Callable `(problem, solution, verdict) -> Feedback`; collaborators can be injected for tests."""

    def __init__(self, cfg: FeedbackConfig | None = None, *, retriever: FormulaRetriever | None = None,
                 runner: code_channel.Runner | None = None, chat: code_channel.Chat | None = None,
                 own_runner: code_channel.Runner | None = None):
        self.cfg = cfg or FeedbackConfig()
        self.retriever = retriever or FormulaRetriever(self.cfg.store_dir, self.cfg.corpus_dir, self.cfg.embedder,
                                                       self.cfg.top_k, self.cfg.query_step_weight)
        self._runner, self._chat = runner, chat
        # `runner` (the sandbox) runs code a model wrote; `own_runner` the programs physr3 writes itself
        # (ground truth, text routes), checked to be plain arithmetic and run in-process (feedback/own_code.py).
        self.own_runner = own_runner or run_own_code

    # -- collaborators, created on first use -----------------------------------------------------------
    @property
    def runner(self) -> code_channel.Runner:
        if self._runner is None:
            from physr3.feedback.sandbox import run_code

            self._runner = lambda code, timeout_s: run_code(code, timeout_s=timeout_s)
        return self._runner

    @property
    def chat(self) -> code_channel.Chat | None:
        if self._chat is None and self.cfg.code_model:
            from physr3.llm.client import ChatClient

            client = ChatClient(model=self.cfg.code_model, base_url=self.cfg.code_base_url,
                                api_key_env=self.cfg.code_api_key_env, timeout_s=self.cfg.code_timeout_s)
            self._chat = lambda messages: client.chat(messages, temperature=0.0).text
        return self._chat

    # -- routing ---------------------------------------------------------------------------------------
    def __call__(self, problem: Problem | str, solution: str, verdict: Verdict) -> Feedback:
        return self.route(problem, solution, verdict)

    def route(self, problem: Problem | str, solution: str, verdict: Verdict) -> Feedback:
        question = problem.question if isinstance(problem, Problem) else str(problem)
        if not verdict.ok:
            return Feedback(UNCHECKED_TEXT, "unchecked", 0, "none", details={"status": verdict.status})
        if verdict.error_step == 0:
            return Feedback(NO_ERROR_TEXT, "none", 0, "none")
        parsed = parse_solution(solution)
        step = parsed.step(verdict.error_step)
        error_type = verdict.error_type
        details: dict[str, Any] = {}
        if error_type == "none":  # a step without a type: route by its section
            error_type = TAG_ERROR_TYPE.get(step.tag if step else "", "CE")
            details["type_from_section"] = True
        step_text = step.text if step else None
        explanation = verdict.explanation or ""
        k = verdict.error_step
        if error_type == "MC":
            return Feedback(statement_feedback(question, k, step_text, explanation), "statement", k, "MC",
                            details=details)
        if error_type == "CM":
            retrieved = self.retriever.search_error(question, step_text, explanation,
                                                    context=correct_concepts(parsed, k))
            details["query"] = build_query(question, step_text, explanation)
            return Feedback(retrieval_feedback(k, step_text, explanation, retrieved), "retrieval", k, "CM",
                            retrieved=retrieved, details=details)
        return self._code(problem, question, solution, parsed, k, step_text, explanation, details)

    def _code(self, problem, question, solution, parsed, k, step_text, explanation, details) -> Feedback:
        result, errors = None, []
        for name, make in self._plans(problem, question, solution, parsed, k, explanation):
            try:
                plan = make()
            except Exception as exc:  # each route may fail on this input; the next one is tried
                errors.append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            if plan is None:
                errors.append(f"{name}: not applicable")
                continue
            runner = self.runner if plan.source == "model" else self.own_runner
            result = code_channel.run_plan(plan, runner, self.cfg.sandbox_timeout_s)
            if result.ok:
                break
            errors.append(f"{name}: run failed ({result.details})")
        if errors:
            details["code_routes_failed"] = errors
        if result is None or not result.ok:
            text = code_feedback_text(k, step_text, explanation, None)
            return Feedback(text, "code", k, "CE", code=result.plan.code if result else None,
                            code_output=result.output if result else None, details=details)
        details.update(result.details)
        plan = result.plan
        details.update({"correct_value": result.value, "unit": plan.unit, "written_value": plan.written,
                        "slip": code_channel.describe_slip(plan.written, result.value)})
        return Feedback(code_feedback_text(k, step_text, explanation, result), "code", k, "CE", code=plan.code,
                        code_output=result.output, details=details)

    def _plans(self, problem, question, solution, parsed, k, explanation):
        """(route name, plan factory) in order of preference."""
        routes: list[tuple[str, Callable[[], code_channel.CodePlan | None]]] = []
        if self.chat is not None:
            routes.append(("model", lambda: code_channel.plan_from_model(self.chat, question, solution, k,
                                                                         explanation)))
        if isinstance(problem, Problem) and problem.ground_truth:
            routes.append(("ground_truth", lambda: code_channel.plan_from_ground_truth(problem, parsed, k)))
        routes.append(("text", lambda: code_channel.plan_from_text(parsed, k)))
        return routes


def code_feedback_text(step: int, step_text: str | None, explanation: str,
                       result: code_channel.CodeResult | None) -> str:
    """Feedback text for a calculation error: the code, its output, the correct value and the slip."""
    lines = [f"Step {step} contains a calculation error."]
    if step_text:
        lines.append(f'You wrote: "Step {step}: {step_text.strip()}"')
    if explanation.strip():
        lines.append(f"What went wrong: {explanation.strip()}")
    if result is None:
        lines.append(f"Redo the computation of Step {step} carefully, term by term, and carry the corrected "
                     "value through every later step.")
        return "\n".join(lines)
    plan = result.plan
    lines += [f"This Python code redoes the computation of Step {step}:", "```python", plan.code.rstrip(), "```",
              f"Its output: {result.output}"]
    if plan.unit or plan.source != "model":
        value = code_channel.fmt_value(result.value, plan.sig)
        name = f"{plan.symbol} = " if plan.symbol else ""
        sentence = f"The correct value is {name}{value}{' ' + plan.unit if plan.unit else ''}"
        slip = code_channel.describe_slip(plan.written, result.value)
        if plan.written is not None:
            sentence += f"; you wrote {plan.written:.6g}{' ' + plan.unit if plan.unit else ''}"
            sentence += f": {slip}." if slip else "."
        else:
            sentence += "."
        lines.append(sentence)
    lines.append(f"Redo Step {step} with the correct value and carry it through every later step.")
    return "\n".join(lines)
