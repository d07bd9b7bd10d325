"""Robust reading of an LLM judge's reply: the JSON verdict of the paper's Appendix A prompt.

The paper reads the reply with `ast.literal_eval`, which crashes a run on the first reply wrapped in a
code fence or a sentence. Judges (GPT-4o included) write, in practice:

- the object inside a Markdown code fence (```json ... ```), or with prose before and after it;
- single-quoted keys and strings, trailing commas, Python literals (True/False/None) or JSON ones;
- the step as 3, 3.0, "3", "Step 3" or null; the type as the paper's category names ("Problem
  Miscomprehension", "Conceptual Error", "Computational Error"), abbreviations (MC/CM/CE), the
  project's own names ("conceptual misapplication", "calculation error") or "no_error"/"none".

`parse_judge_reply` tries, in order: the whole text as JSON; each balanced `{...}` span as JSON, then
with JSON repairs (trailing commas, Python literals, single quotes via `ast.literal_eval`); and last a
key-by-key regex scan. It returns a `JudgeReply` or raises `JudgeParseError` with the reason — it never
lets another exception escape. Interpreting the reply against the solution (step range, a missing
type) is the judge's job (`physr3.verify.llm_judge`), not this module's.
"""

from __future__ import annotations

import ast
import json
import math
import re
import warnings
from dataclasses import dataclass
from typing import Any

# Canonical types: MC (problem miscomprehension), CM (conceptual misapplication), CE (calculation error).
_TYPE_WORDS: dict[str, str] = {
    "mc": "MC", "cm": "CM", "ce": "CE",
    "problemmiscomprehension": "MC", "miscomprehension": "MC", "problemmisunderstanding": "MC",
    "misunderstanding": "MC", "misreading": "MC", "misread": "MC", "comprehensionerror": "MC",
    "problemcomprehensionerror": "MC", "readingerror": "MC",
    "conceptualerror": "CM", "conceptual": "CM", "conceptualmisapplication": "CM", "conceptualmistake": "CM",
    "misapplication": "CM", "conceptmisapplication": "CM", "conceptualmisunderstanding": "CM",
    "computationalerror": "CE", "computational": "CE", "calculationerror": "CE", "calculation": "CE",
    "computationerror": "CE", "arithmeticerror": "CE", "arithmetic": "CE", "algebraicerror": "CE",
    "computationalmistake": "CE", "calculationmistake": "CE", "numericalerror": "CE",
    "noerror": "none", "none": "none", "null": "none", "": "none", "correct": "none", "noerrors": "none",
    "na": "none", "nan": "none",
}
_STEP_KEYS = ("error_step", "first_error_step", "errorstep", "step", "first_error", "error_step_number")
_TYPE_KEYS = ("error_type", "errortype", "type", "category", "error_category")
_EXPL_KEYS = ("error_explanation", "explanation", "error_explanation_text", "reason", "rationale")


class JudgeParseError(ValueError):
    """The reply holds no readable verdict; the message says why (kept in Verdict.explanation)."""


@dataclass(frozen=True)
class JudgeReply:
    """A verdict as the judge wrote it, normalised: `error_type` is MC | CM | CE | none | unknown.

    `error_step` may be out of range (negative or past the last step): range checks need the solution.
    `repaired` names the repair that made the reply readable ("json" when none was needed).
    """

    error_step: int
    error_type: str
    explanation: str
    repaired: str = "json"


def normalize_error_type(value: Any) -> str:
    """Map a judge's category to MC | CM | CE | none, or "unknown" when it names none of them."""
    if value is None:
        return "none"
    text = str(value).strip()
    key = re.sub(r"[^a-z]", "", text.lower())
    if key in _TYPE_WORDS:
        return _TYPE_WORDS[key]
    # "Conceptual Error (CM)", "CE - arithmetic slip", "error type: computational"
    abbrev = re.findall(r"\b(MC|CM|CE)\b", text)
    if len(set(abbrev)) == 1:
        return abbrev[0]
    for word, canon in (("miscomprehen", "MC"), ("misread", "MC"), ("conceptual", "CM"), ("concept", "CM"),
                        ("computation", "CE"), ("calculat", "CE"), ("arithmetic", "CE"), ("algebra", "CE")):
        if word in key:
            return canon
    if key.startswith("no") and "error" in key:
        return "none"
    return "unknown"


def _to_step(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool):
        raise JudgeParseError(f"error_step is a boolean ({value!r})")
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise JudgeParseError(f"error_step {value!r} is not a whole number")
        return int(value)
    if isinstance(value, list) and value:  # "error_step": [3, 5] -> the first error
        return _to_step(value[0])
    text = str(value).strip()
    if text.lower() in ("", "none", "null", "n/a", "na", "no error", "no_error"):
        return 0
    m = re.search(r"-?\d+(?:\.0+)?", text)
    if not m:
        raise JudgeParseError(f"error_step {value!r} holds no number")
    return _step_number(m.group(0).split(".")[0])


def _step_number(digits: str) -> int:
    """An integer step from its digits; more than 9 digits is no step (and would overflow int limits)."""
    if len(digits.lstrip("-")) > 9:
        raise JudgeParseError(f"error_step {digits[:12]}... is not a step number")
    return int(digits)


def _balanced_objects(text: str) -> list[str]:
    """Every top-level `{...}` span, honouring quoted strings (either quote), outermost first."""
    spans: list[str] = []
    depth, start, quote, escape = 0, -1, "", False
    for i, ch in enumerate(text):
        if quote:
            if escape:
                escape = False
            elif ch == "\\":
                escape = True
            elif ch == quote:
                quote = ""
            continue
        if ch in "\"'" and depth > 0:
            # An apostrophe inside prose between keys ("it's") would open a bogus string; only treat a
            # quote as opening a string where a JSON string may start.
            prev = text[:i].rstrip()[-1:] if text[:i].rstrip() else ""
            if prev in ("{", ",", ":", "["):
                quote = ch
            continue
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append(text[start : i + 1])
    if depth > 0 and start >= 0:  # unclosed object (the reply was cut off): try what is there
        spans.append(text[start:] + "}")
    return spans


def _strip_fences(text: str) -> str:
    fence = re.search(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", text, re.DOTALL)
    return fence.group(1) if fence else text


_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _load_object(candidate: str) -> tuple[dict[str, Any], str] | None:
    """Try JSON, then repaired JSON, then a Python literal; return (object, repair name) or None."""
    attempts: list[tuple[str, str]] = [("json", candidate)]
    no_trailing = _TRAILING_COMMA.sub(r"\1", candidate)
    attempts.append(("trailing_comma", no_trailing))
    pythonic = re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false", re.sub(r"\bNone\b", "null", no_trailing)))
    attempts.append(("python_literals", pythonic))
    for name, text in attempts:
        try:
            obj = json.loads(text, strict=False)
        except (json.JSONDecodeError, ValueError):
            continue
        if isinstance(obj, dict):
            return obj, name
    literalish = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", re.sub(r"\bnull\b", "None", no_trailing)))
    try:
        with warnings.catch_warnings():  # "invalid escape sequence" warnings from model text
            warnings.simplefilter("ignore")
            obj = ast.literal_eval(literalish)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return (obj, "python_literal") if isinstance(obj, dict) else None


def _lookup(obj: dict[str, Any], keys: tuple[str, ...]) -> tuple[bool, Any]:
    folded = {re.sub(r"[^a-z_]", "", str(k).lower().replace(" ", "_")): v for k, v in obj.items()}
    for key in keys:
        if key in folded:
            return True, folded[key]
    return False, None


def _from_object(obj: dict[str, Any], repair: str) -> JudgeReply:
    if len(obj) == 1 and isinstance(next(iter(obj.values())), dict):  # {"verdict": {...}}
        obj = next(iter(obj.values()))
    has_step, step_value = _lookup(obj, _STEP_KEYS)
    has_type, type_value = _lookup(obj, _TYPE_KEYS)
    _, expl = _lookup(obj, _EXPL_KEYS)
    if not has_step and not has_type:
        raise JudgeParseError(f"JSON object without error_step or error_type (keys: {sorted(obj)[:6]})")
    error_type = normalize_error_type(type_value) if has_type else "unknown"
    if has_step:
        step = _to_step(step_value)
    elif error_type == "none":
        step = 0
    else:
        raise JudgeParseError("reply names an error type but no error_step")
    return JudgeReply(step, error_type, "" if expl is None else str(expl).strip(), repair)


_KEY_SCAN = {
    "step": re.compile(r"""["']?(?:first_)?error_step["']?\s*[:=]\s*["']?\s*(?:step\s*)?(-?\d+)""", re.IGNORECASE),
    "type": re.compile(r"""["']?error_type["']?\s*[:=]\s*["']([^"'\n]*)["']""", re.IGNORECASE),
    "expl": re.compile(r"""["']?(?:error_)?explanation["']?\s*[:=]\s*["'](.*?)["']\s*[,}\n]""",
                       re.IGNORECASE | re.DOTALL),
}


def parse_judge_reply(text: str | None) -> JudgeReply:
    """Read the judge's verdict from its reply text; raise JudgeParseError (only) when there is none."""
    if text is None or not str(text).strip():
        raise JudgeParseError("empty reply")
    text = str(text)
    errors: list[str] = []
    for source in dict.fromkeys([text, _strip_fences(text)]):  # the fence's content, if any, second
        candidates = [source.strip()] + _balanced_objects(source)
        for candidate in candidates:
            loaded = _load_object(candidate)
            if loaded is None:
                continue
            try:
                return _from_object(*loaded)
            except JudgeParseError as exc:
                errors.append(str(exc))
    # Last resort: the keys written out of any valid syntax ("error_step: 3, error_type: 'CE'").
    step = _KEY_SCAN["step"].search(text)
    kind = _KEY_SCAN["type"].search(text)
    if step:
        expl = _KEY_SCAN["expl"].search(text)
        return JudgeReply(_step_number(step.group(1)), normalize_error_type(kind.group(1)) if kind else "unknown",
                          expl.group(1).strip() if expl else "", "key_scan")
    if kind and normalize_error_type(kind.group(1)) == "none":
        return JudgeReply(0, "none", "", "key_scan")
    reason = errors[0] if errors else "no JSON object with error_step found"
    raise JudgeParseError(reason)
