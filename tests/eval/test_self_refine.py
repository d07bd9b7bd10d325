"""Self-Refine: critique/revise rounds with the model's own verdict as the only stopping signal."""

import json

from physr3.config import load_config
from physr3.eval.conditions import condition_details, get_condition
from physr3.eval.self_refine import (
    CRITIQUE_INSTRUCTION,
    REFINE_INSTRUCTION,
    VERDICT_STOPS,
    parse_verdict,
    run_self_refine,
)
from physr3.models.types import Completion, SamplingParams
from physr3.problems import Problem
from physr3.prompts import COT_SYSTEM_PROMPT


class ScriptedEngine:
    """Answers "attempt N" to solve/refine prompts and the next scripted critique to critique prompts."""

    def __init__(self, critiques: dict[str, list[str]]):
        self.critiques = {k: list(v) for k, v in critiques.items()}
        self.calls: list[tuple[int, tuple[str, ...]]] = []
        self.attempts: dict[str, int] = {}

    def generate(self, conversations, params):
        self.calls.append((len(conversations), params.stop))
        out = []
        for conv in conversations:
            assert conv[0] == {"role": "system", "content": COT_SYSTEM_PROMPT}
            pid = conv[1]["content"]
            last = conv[-1]["content"]
            if last == CRITIQUE_INSTRUCTION:
                text = self.critiques[pid].pop(0)
            else:
                self.attempts[pid] = n = self.attempts.get(pid, 0) + 1
                assert last == (REFINE_INSTRUCTION if n > 1 else pid)
                if n > 1:  # the refine prompt holds the latest attempt and its critique only
                    assert conv[2]["content"] == f"{pid} attempt {n - 1}" and len(conv) == 6
                text = f"{pid} attempt {n}"
            out.append(Completion(text, [1] * 3, "stop", 10))
        return out


def _problem(pid):
    return Problem(id=pid, question=pid, answer="1 m")


def test_stops_when_the_model_says_correct_and_revises_otherwise():
    cfg = load_config(None, ["eval.self_refine_rounds=3"])
    engine = ScriptedEngine({
        "a": ["Looks fine.\nVERDICT: CORRECT"],
        "b": ["Step 3 is wrong.\nVERDICT: INCORRECT", "No mistake.\nverdict: correct"],
        "c": ["hmm", "still unsure", "no idea"],  # never a verdict: revise every round
    })
    out = run_self_refine(engine, [_problem("a"), _problem("b"), _problem("c")], cfg, SamplingParams())
    (fa, ta), (fb, tb), (fc, tc) = out
    assert fa.text == "a attempt 1" and ta["stopped"] == "verdict_correct" and ta["rounds"] == 1
    assert fb.text == "b attempt 2" and tb["attempts"] == ["b attempt 1", "b attempt 2"] and tb["rounds"] == 2
    assert [c["verdict"] for c in tb["critiques"]] == ["incorrect", "correct"]
    assert fc.text == "c attempt 4" and tc["stopped"] == "max_rounds" and tc["rounds"] == 3
    assert [c["verdict"] for c in tc["critiques"]] == ["none"] * 3 and tc["tokens"] == 3 * 7
    # Batched: one call for y0, then per round one critique call and one refine call over the active items.
    assert [n for n, _ in engine.calls] == [3, 3, 2, 2, 1, 1, 1]
    assert all(stop == VERDICT_STOPS for _, stop in engine.calls[1::2])
    assert all(stop == SamplingParams().stop for _, stop in engine.calls[0::2])


def test_zero_rounds_is_plain_cot():
    cfg = load_config(None, ["eval.self_refine_rounds=0"])
    engine = ScriptedEngine({})
    ((final, trace),) = run_self_refine(engine, [_problem("a")], cfg, SamplingParams())
    assert final.text == "a attempt 1" and trace["rounds"] == 0 and len(engine.calls) == 1
    assert get_condition("self-refine").build(_problem("a"), cfg) == get_condition("cot").build(_problem("a"), cfg)


def test_parse_verdict_takes_the_last_verdict_line():
    assert parse_verdict("VERDICT: INCORRECT\n...\nVERDICT: CORRECT") == "correct"
    assert parse_verdict("Verdict: **Incorrect**") == "incorrect"
    assert parse_verdict("The answer is correct.") == "none"
    assert parse_verdict("VERDICT: CORRECTION needed") == "none"


def test_details_quote_the_prompts_and_the_rounds():
    cfg = load_config(None, ["eval.self_refine_rounds=2"])
    text = condition_details("self-refine", cfg)
    assert CRITIQUE_INSTRUCTION in text and REFINE_INSTRUCTION in text and "up to 2 rounds" in text


def test_self_refine_in_the_runner_stores_the_trace(tiny_model_dir, tmp_path):
    from physr3.eval.runner import run_eval
    from physr3.problems import write_jsonl
    from physr3.synth.generate import generate_problems

    data = tmp_path / "test.jsonl"
    write_jsonl(data, list(generate_problems(2, seed=5, split="test")))
    cfg = load_config(None, [f"model.name_or_path={tiny_model_dir}", "model.dtype=float32",
                             f"run.output_dir={tmp_path}", "run.name=ev", "generation.max_new_tokens=4",
                             "eval.conditions=self-refine", "eval.self_refine_rounds=1"])
    cfg.eval.benchmarks = ["synth-test"]
    run_dir = run_eval(cfg, progress=False, benchmark_paths={"synth-test": str(data)})
    rows = [json.loads(x) for x in (run_dir / "results" / "self-refine__synth-test.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for r in rows:
        t = r["trace"]
        assert t["rounds"] == 1 and len(t["critiques"]) == 1 and r["completion"] == t["attempts"][-1]
