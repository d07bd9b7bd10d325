"""The paper's LLM judge (Appendix A): an OpenAI-compatible chat model finds the first erroneous step.

The prompt is the paper's Listing 1, word for word, sent as one user message (the paper calls
`eval_model.invoke(prompt)`), with the question, the ground-truth solution (`problem.solution`) and the
solution to check. Deviations from the paper, each deliberate:

- Placeholders are filled by one substitution pass, not `str.format` (the prompt's JSON braces make the
  paper's `.format` call raise, and a solution that contains "{question}" must not be expanded).
- Temperature 0 by default (the paper does not say), so a cached reply is the reply a re-run would get.
- The reply is parsed robustly (`physr3.verify.parsing`) instead of with `ast.literal_eval`; a reply
  with no readable verdict becomes `Verdict(status="parse_error")`, counted, never an exception.
- The verdict is validated against the solution: a step outside 0..n (n = the solution's `Step k:`
  lines, anchored count, or the paper's count when that is 0) is counted and handled per
  `VerifierConfig.on_step_out_of_range`: `clamp` (into 1..max(n, 1); the judge did claim an error),
  `reject` (status parse_error), or `keep_counted` (kept as the judge wrote it and flagged in
  `details["out_of_range"]`; a negative step cannot be kept and is rejected). A positive step with no
  usable type takes the type of its section (given/find → MC, concept/equation → CM, else CE; counted
  as `type_inferred`); step 0 with a type is read as "no error" and counted as `inconsistent`.
- Steps are numbered by position in the request (`VerifierConfig.judge_step_numbers`, default `position`):
  when a solution's written `Step k:` numbers are not 1..n in order (a small model restarts them in each
  section or repeats them: 7% of the real labelled solutions, 17% of round 10's), the judge would answer with
  a written number that names several steps or another position than the one the reward counts, so those
  labels are rewritten to their positions (`numbered_by_position`); `as_written` sends the solution verbatim.
- Transport failures after retries become `Verdict(status="api_error")` (see `physr3.llm.client`).

`verify`/`verify_batch` are synchronous; `averify`/`averify_batch` are the async forms. At most
`concurrency` judge calls are in flight; a re-run over the same inputs is served from the SQLite cache.
`stats` holds the counters and `report()` prints them — every command that uses the judge prints it.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from physr3.config import Config, VerifierConfig
from physr3.llm.client import ChatClient, ChatError
from physr3.problems import Problem
from physr3.solution import ANCHORED_STEP_PATTERN, TAG_ERROR_TYPE, count_steps, step_tag
from physr3.verify.base import Verdict
from physr3.verify.parsing import JudgeParseError, parse_judge_reply
from physr3.verify.registry import register_verifier

# Appendix A, Listing 1 (the PDF's typographic apostrophe in "model's" restored to ASCII).
VERIFIER_PROMPT = """
You are a physics reasoning evaluator. Identify and explain
the first reasoning error (if any) in the model's solution.

Classify the error as one of:
- "Problem Miscomprehension": misreading given values or
  problem conditions before any physics is applied.
- "Conceptual Error": wrong physics law, formula, or
  principle applied.
- "Computational Error": arithmetic, calculus, or algebraic
  mistake.

Return JSON:
{
  "error_step": <first error step number>,
  "error_type": "<one of the three categories>",
  "error_explanation": "<plain text explanation>"
}

If no error:
{
  "error_step": 0,
  "error_type": "no_error",
  "error_explanation": "No error in your solution."
}

Question: {question}
Ground Truth CoT: {cot_solution}
LLM Generated Solution: {error_solution}
"""

_PLACEHOLDER = re.compile(r"\{(question|cot_solution|error_solution)\}")


def build_prompt(question: str, cot_solution: str, error_solution: str) -> str:
    """The paper's prompt with its three fields filled in (one pass: inserted text is not re-expanded)."""
    values = {"question": question, "cot_solution": cot_solution, "error_solution": error_solution}
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], VERIFIER_PROMPT)


@dataclass
class JudgeStats:
    verdicts: int = 0
    ok: int = 0
    parse_failures: int = 0
    api_errors: int = 0
    out_of_range: int = 0
    type_inferred: int = 0
    inconsistent: int = 0

    def to_json(self) -> dict[str, int]:
        return asdict(self)


def numbered_by_position(solution: str) -> str:
    """The solution with each anchored `Step k:` label renumbered to its position (1..n in order of appearance).

    Unchanged when the written numbers already are 1..n, so a well-numbered solution reaches the judge verbatim.
    Positions are what a verdict's step means everywhere else (labels, the symbolic verifier, the reward)."""
    written = [int(m.group(1)) for m in ANCHORED_STEP_PATTERN.finditer(solution)]
    if written == list(range(1, len(written) + 1)):
        return solution
    position = iter(range(1, len(written) + 1))
    return ANCHORED_STEP_PATTERN.sub(
        lambda m: m.group(0)[:m.start(1) - m.start(0)] + str(next(position)) + m.group(0)[m.end(1) - m.start(0):],
        solution)


def n_steps_for_range(solution: str) -> int:
    """The n that a verdict's step is checked against (anchored count; the paper's when that is 0)."""
    return count_steps(solution, "anchored") or count_steps(solution, "paper")


@register_verifier("llm")
class LLMJudge:
    """The paper's verifier over an OpenAI-compatible endpoint (see the module docstring)."""

    name = "llm"
    needs_reference_text = True  # the prompt carries the ground-truth solution text

    def __init__(self, client: ChatClient, cfg: VerifierConfig | None = None, *, temperature: float = 0.0,
                 max_tokens: int | None = 1024):
        self.client = client
        self.cfg = cfg or VerifierConfig(kind="llm")
        self.cfg.validate()  # on_step_out_of_range is one of its choices (VerifierConfig), also after changes
        self.temperature, self.max_tokens = temperature, max_tokens
        self.stats = JudgeStats()

    @classmethod
    def from_config(cls, cfg: Config, *, client: ChatClient | None = None, use_cache: bool = True,
                    **judge_kwargs: Any) -> LLMJudge:
        client = client or ChatClient.from_verifier_config(cfg.verifier, use_cache=use_cache)
        return cls(client, cfg.verifier, **judge_kwargs)

    # ------------------------------------------------------------------------------------------ core
    def messages(self, problem: Problem, solution: str) -> list[dict[str, str]]:
        if problem.solution is None:
            raise ValueError(f"problem {problem.id}: no ground-truth solution for the judge prompt")
        question = problem.question
        if problem.options:
            question += "\n" + "\n".join(f"({chr(65 + i)}) {o}" for i, o in enumerate(problem.options))
        if self.cfg.judge_step_numbers == "position":
            solution = numbered_by_position(solution)
        return [{"role": "user", "content": build_prompt(question, problem.solution, solution)}]

    async def averify(self, problem: Problem, solution: str) -> Verdict:
        messages = self.messages(problem, solution)
        self.stats.verdicts += 1
        try:
            reply = await self.client.achat(messages, temperature=self.temperature, max_tokens=self.max_tokens)
        except ChatError as exc:
            self.stats.api_errors += 1
            return Verdict(0, "none", str(exc), status="api_error", details={"http_status": exc.status})
        verdict = self.interpret(reply.text, solution)
        verdict.details["cached"] = reply.cached
        if verdict.ok:
            self.stats.ok += 1
        return verdict

    async def averify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        for problem, _ in items:  # fail before any call, not halfway through a batch
            if problem.solution is None:
                raise ValueError(f"problem {problem.id}: no ground-truth solution for the judge prompt")
        return list(await asyncio.gather(*(self.averify(p, s) for p, s in items)))

    def verify(self, problem: Problem, solution: str) -> Verdict:
        return self.client.run_sync(lambda: self.averify(problem, solution))

    def verify_batch(self, items: Sequence[tuple[Problem, str]]) -> list[Verdict]:
        return self.client.run_sync(lambda: self.averify_batch(items))

    def interpret(self, text: str, solution: str) -> Verdict:
        """Turn the judge's reply into a validated Verdict (counts faults in `stats`)."""
        n = n_steps_for_range(solution)
        try:
            reply = parse_judge_reply(text)
        except JudgeParseError as exc:
            self.stats.parse_failures += 1
            return Verdict(0, "none", f"unreadable judge reply: {exc}", status="parse_error", raw=text,
                           details={"n_steps": n})
        details: dict[str, Any] = {"n_steps": n, "repair": reply.repaired}
        step, etype = reply.error_step, reply.error_type
        if step == 0:
            if etype not in ("none", "unknown"):
                self.stats.inconsistent += 1
                details["inconsistent"] = f"error_step 0 with error_type {etype}: read as no error"
            return Verdict(0, "none", reply.explanation, raw=text, details=details)
        if step < 0 or step > n:
            self.stats.out_of_range += 1
            details["out_of_range"] = {"judge_step": step, "n_steps": n, "policy": self.cfg.on_step_out_of_range}
            policy = self.cfg.on_step_out_of_range
            if policy == "reject" or (policy == "keep_counted" and step < 0):
                self.stats.parse_failures += 1
                return Verdict(0, "none", f"judge step {step} outside 0..{n}: rejected", status="parse_error",
                               raw=text, details=details)
            if policy == "clamp":
                step = min(max(step, 1), max(n, 1))
        if etype not in ("MC", "CM", "CE"):
            tag = step_tag(solution, step)
            inferred = TAG_ERROR_TYPE.get(tag or "")
            if inferred is None:
                self.stats.parse_failures += 1
                return Verdict(0, "none", f"judge gave step {step} but no usable error type ({etype})",
                               status="parse_error", raw=text, details=details)
            self.stats.type_inferred += 1
            details["type_inferred"] = f"from <{tag}>"
            etype = inferred
        return Verdict(step, etype, reply.explanation, raw=text, details=details)

    # --------------------------------------------------------------------------------------- report
    def counters(self) -> dict[str, int]:
        c = self.client.stats
        return {"verdicts": self.stats.verdicts, "calls": c.calls, "cache_hits": c.cache_hits,
                "retries": c.retries, "api_errors": self.stats.api_errors,
                "parse_failures": self.stats.parse_failures, "out_of_range_steps": self.stats.out_of_range,
                "type_inferred": self.stats.type_inferred, "inconsistent": self.stats.inconsistent,
                "prompt_tokens": c.prompt_tokens, "completion_tokens": c.completion_tokens}

    def report(self) -> str:
        c = self.counters()
        return ("judge {model} @ {url}: {verdicts} verdicts, {calls} calls, {cache_hits} cache hits, "
                "{retries} retries, {api_errors} api errors, {parse_failures} parse failures, "
                "{out_of_range_steps} out-of-range steps, {type_inferred} types inferred, "
                "{prompt_tokens}+{completion_tokens} tokens").format(
                    model=self.client.model, url=self.client.endpoint, **c)

    def close(self) -> None:
        self.client.close()
