"""Seeded fuzz of the judge's reply reader: thousands of mangled replies, zero exceptions.

Each reply starts from a well-formed verdict (the paper's JSON shape, random step, type and explanation) and
goes through one or two mangles: truncated JSON, a Markdown fence, prose around it, wrong value types, huge
numbers, negative or out-of-range steps, unknown error types, unicode (emoji, RTL, combining marks, NUL,
lone surrogates), nesting, repeated objects. Every reply goes through `parse_judge_reply` (which may only
raise `JudgeParseError`) and through `LLMJudge.interpret` (which may raise nothing and returns a Verdict
that is either ok or counted as a parse failure). Mangles that keep the verdict intact (fence, prose,
unicode in the explanation) must still be read as the original verdict.
"""

from __future__ import annotations

import json
import random
import time

from physr3.config import VerifierConfig
from physr3.verify.llm_judge import LLMJudge
from physr3.verify.parsing import JudgeParseError, parse_judge_reply

N_REPLIES = 3000
SEED = 15
SOLUTION = "<given>\nStep 1: m = 2 kg\n</given>\n<find>\nStep 2: a\n</find>\n<concept>\nStep 3: Newton II\n</concept>\n" \
           "<governing_equation>\nStep 4: a = F/m\n</governing_equation>\n<substitution>\nStep 5: a = 10/2\n" \
           "</substitution>\n<calculation>\nStep 6: a = 5 m/s^2\n</calculation>\n<final_answer>\n5 m/s^2\n</final_answer>"
TYPES = ["Problem Miscomprehension", "Conceptual Error", "Computational Error", "no_error", "MC", "CM", "CE"]
CANON = {"Problem Miscomprehension": "MC", "Conceptual Error": "CM", "Computational Error": "CE", "no_error": "none",
         "MC": "MC", "CM": "CM", "CE": "CE"}
UNICODE = ["é", "Δv", "→", "😀", "\u202eRTL\u202c", "e\u0301", "\u0000", "\ud800", "漢字", "\ufeff", "ℏω", "\u2028"]


def _base(rng: random.Random) -> tuple[dict, str]:
    etype = rng.choice(TYPES)
    step = 0 if CANON[etype] == "none" else rng.randint(1, 6)
    obj = {"error_step": step, "error_type": etype, "error_explanation": rng.choice(
        [f"Step {step} uses the wrong sign.", "No error in your solution.", "m is 2 kg, not 3 kg", ""])}
    return obj, json.dumps(obj, ensure_ascii=rng.random() < 0.5)


def _truncate(rng, obj, text):
    return text[: rng.randint(0, max(0, len(text) - 1))], False


def _fence(rng, obj, text):
    return f"```{rng.choice(['json', '', 'JSON', 'python'])}\n{text}\n```", True


def _prose(rng, obj, text):
    before = rng.choice(["Here is my verdict:", "After checking each step carefully, I found", "", "Sure!\n\n"])
    after = rng.choice(["Hope this helps.", "", "Let me know if you need more detail.", "{not a verdict}"])
    return f"{before}\n{text}\n{after}", after != "{not a verdict}"


def _wrong_types(rng, obj, text):
    bad = dict(obj)
    key = rng.choice(["error_step", "error_type", "error_explanation"])
    bad[key] = rng.choice([[1, 2], {"step": 3}, True, None, 3.7, "three", "", [], {}, "Step 4", -0.0, "1e3"])
    return json.dumps(bad), False


def _huge(rng, obj, text):
    big = rng.choice(["1" + "0" * 400, "9" * 5000, "1e999", "-1e999", "1.5e308", "NaN", "Infinity", "-9" * 50])
    if rng.random() < 0.5:
        return text.replace(f'"error_step": {obj["error_step"]}', f'"error_step": {big}'), False
    return f'error_step: {big}, error_type: "CE"', False


def _out_of_range(rng, obj, text):
    return text.replace(f'"error_step": {obj["error_step"]}',
                        f'"error_step": {rng.choice([-1, -7, 7, 99, 10**6, -(10**9)])}'), False


def _unknown_type(rng, obj, text):
    return text.replace(json.dumps(obj["error_type"]),
                        json.dumps(rng.choice(["Vibes", "Typo", "error", "Both MC and CE", "🙃", "CE/CM", "4"]))), False


def _unicode(rng, obj, text):
    noise = "".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 6)))
    if rng.random() < 0.5:  # inside the explanation: the verdict is unchanged
        keep = dict(obj, error_explanation=obj["error_explanation"] + noise)
        return json.dumps(keep, ensure_ascii=False), True
    cut = rng.randint(0, len(text))
    return text[:cut] + noise + text[cut:], False


def _nested(rng, obj, text):
    return rng.choice([json.dumps({"verdict": obj}), json.dumps([obj]), "{" * 500 + text + "}" * 500,
                       text + "\n" + text, text.replace("{", "{{").replace("}", "}}"),
                       f"{{'error_step': {obj['error_step']}, 'error_type': '{obj['error_type']}',}}"]), False


def _garbage(rng, obj, text):
    alphabet = '{}[]":,\'`\\ \n\t0123456789-eE.truefalsnul' + "".join(UNICODE)
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300))), False


MANGLES = [_truncate, _fence, _prose, _wrong_types, _huge, _out_of_range, _unknown_type, _unicode, _nested, _garbage]


def test_a_thousand_mangled_judge_replies_raise_nothing_and_are_each_classified():
    rng = random.Random(SEED)
    judge = LLMJudge(client=None, cfg=VerifierConfig(kind="llm"))  # interpret() needs no endpoint
    parsed = failed = ok = counted = 0
    per_mangle = {m.__name__: [0, 0] for m in MANGLES}
    t0 = time.perf_counter()
    for _ in range(N_REPLIES):
        obj, text = _base(rng)
        keeps = True
        for mangle in rng.sample(MANGLES, rng.choice([1, 1, 2])):
            text, kept = mangle(rng, obj, text)
            keeps = keeps and kept
            per_mangle[mangle.__name__][0] += 1
        try:
            reply = parse_judge_reply(text)
        except JudgeParseError:
            failed += 1
            reply = None
        else:
            parsed += 1
        if keeps:  # the verdict was not touched: it must be read back exactly
            assert reply is not None and (reply.error_step, reply.error_type) == \
                (obj["error_step"], CANON[obj["error_type"]]), text
        verdict = judge.interpret(text, SOLUTION)
        assert verdict.status in ("ok", "parse_error") and 0 <= verdict.error_step <= 6, (text, verdict)
        if verdict.status == "ok":
            ok += 1
        else:
            counted += 1
            per_mangle[mangle.__name__][1] += 1
    assert parsed + failed == N_REPLIES and ok + counted == N_REPLIES
    assert judge.stats.parse_failures == counted  # every unusable reply is counted, none is lost
    assert parsed > N_REPLIES // 4 and failed > N_REPLIES // 20  # the fuzz reaches both outcomes
    assert time.perf_counter() - t0 < 60  # no pathological regex or parse blow-up
