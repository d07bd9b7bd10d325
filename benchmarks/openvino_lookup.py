"""OpenVINO GenAI prompt-lookup (n-gram) speculative decoding against the plain pipeline, alternating in one process.

    python benchmarks/openvino_lookup.py [--settings plain,k3n3,k5n3] [--batches 1,8,32] [--shapes check,solve]
                                         [--reps 2] [--threads 2] [--solve-temperature 0.0]

Prompt lookup (`prompt_lookup=True` on a `ContinuousBatchingPipeline`; `kKnN` = `num_assistant_tokens` K,
`max_ngram_size` N in the GenerationConfig): before each step, the last n-gram (N tokens down to 1) of a request's
prompt + generated text is looked up in that text; the K tokens that followed its first earlier occurrence are
appended as candidates and the model scores all K + 1 positions in one step; the sampler draws each position's
token from the model's distribution as the plain pipeline does (one draw per token, same random stream) and keeps
the candidates up to the first one that differs from the draw. So the policy's distribution is kept (a draft that
proposes one token is accepted with exactly that token's probability), and at f32 the sampled ids equal the plain
pipeline's for the same seed (checked: 8/8 prompts, 96 tokens, temperature 0.7, K 1 and 3); at bf16 the K + 1-token
step computes slightly different logits, so sequences may part after a while. Candidates are always padded to K
(openvino-genai 2026.4, `ContinuousBatchingForPromptLookupImpl`): every step costs K + 1 tokens per request,
whether the lookup found anything or not.

Shapes: `check` is the issue's shape: the self-check's 8 solve prompts (~450 tokens; batch 32 adds 24 generated
problems, batch 1 takes the first), greedy, 256 new tokens, end-of-sequence ignored. `solve` is what eval and
training generate: distinct generated problems (`physr3.synth`, the solve prompt with the format instruction),
end-of-sequence and the `</final_answer>` stop string honoured, 512 new tokens (the demo's cap), greedy or, with
`--solve-temperature`, sampled (seed 1000 + i for request i, the same for every setting; top_p 1.0 as the refine
loop). The embedded model's cached f16 GGUF at the engine's fast precision, prefix caching off (every call pays
its prefill). Two pipelines (plain, prompt lookup; the `kKnN` settings share the second: K and N are per
request), one warm-up call per pipeline and batch, then `--reps` rounds in which every setting runs once, each
round starting at the next setting (rotation), so load drift hits them alike.

One JSON line per shape, batch and setting: median tokens/s, tokens per CPU second of the process (less moved by
other jobs on a shared machine than wall time), the medians over rounds of both ratios to `plain` in the same round, main-model steps per call (from the pipeline's perf metrics), and for the lookup settings the
acceptance rate (accepted candidates / candidates found; replayed from the output ids with the pipeline's own
candidate search, `lookup_stats`), tokens per request per step, and how many sequences equal plain's (greedy:
also on the first 64 tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def candidates(ids: list[int], k: int, max_ngram: int) -> list[int]:
    """openvino-genai's prompt-lookup candidates for `ids` (prompt + generated so far): the last n-gram, longest
    first (at most half the text), at its FIRST earlier occurrence, and up to `k` tokens after it."""
    import numpy as np

    if k <= 0:
        return []
    arr = np.asarray(ids)
    n = len(arr)
    if max_ngram >= n:
        max_ngram = n // 2
    for size in range(max_ngram, 0, -1):
        windows = np.lib.stride_tricks.sliding_window_view(arr, size)[: n - size]  # not the suffix itself
        hits = np.flatnonzero((windows == arr[n - size :]).all(axis=1))
        if hits.size:
            start = int(hits[0]) + size
            return ids[start : start + min(n - start, k)]
    return []


def lookup_stats(prompt: list[int], generated: list[int], k: int, max_ngram: int, max_new: int) -> tuple[int, int, int]:
    """(steps, candidates found, candidates accepted) that prompt lookup took to produce `generated`: every step
    keeps the candidates that equal the next generated tokens, plus one token of the model's (the first token
    comes from the prefill)."""
    steps = found = accepted = 0
    pos = 1
    while pos < len(generated):
        cand = candidates(prompt + generated[:pos], min(k, max_new - pos - 1), max_ngram)
        match = 0
        while match < len(cand) and pos + match < len(generated) and cand[match] == generated[pos + match]:
            match += 1
        steps, found, accepted, pos = steps + 1, found + len(cand), accepted + match, pos + match + 1
    return steps, found, accepted


def parse_setting(name: str) -> tuple[int, int] | None:
    """None for `plain`, else (num_assistant_tokens, max_ngram_size) from `kKnN`."""
    if name == "plain":
        return None
    m = re.fullmatch(r"k(\d+)n(\d+)", name)
    if not m:
        raise SystemExit(f"unknown setting {name!r}: plain or kKnN (e.g. k3n3)")
    return int(m[1]), int(m[2])


def shape_prompts(engine, shape: str, batch: int, pool: list) -> list[list[int]]:
    """The prompt ids of one shape and batch size (see the module docstring); `pool` yields generated problems."""
    from physr3.models.openvino_engine import CHECK_QUESTIONS
    from physr3.problems import Problem
    from physr3.prompts import build_solve_conversation

    problems = [Problem(id=str(i), question=q, answer="") for i, q in enumerate(CHECK_QUESTIONS)] if shape == "check" else []
    problems = (problems + [pool.pop(0) for _ in range(max(0, batch - len(problems)))])[:batch]
    return [engine.encode(build_solve_conversation(p, True)) for p in problems]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--settings", default="plain,k3n3,k5n3")
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--shapes", default="check,solve")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--solve-temperature", type=float, default=0.0, help="solve shape: 0 greedy, else sampled")
    args = ap.parse_args()
    import numpy as np
    import openvino as ov
    import openvino_genai as og

    from physr3.config import load_config
    from physr3.models.openvino_engine import build_openvino_engine
    from physr3.models.types import FINAL_ANSWER_STOP, SamplingParams
    from physr3.synth.generate import generate_problems

    engine = build_openvino_engine(load_config(None, [f"generation.openvino_threads={args.threads}"]))
    gguf, tokenizer, props = engine.gguf_path, engine._ov_tokenizer, dict(engine.properties)
    engine.pipe = None
    settings = {name: parse_setting(name) for name in args.settings.split(",")}
    pipes = {}
    for lookup in sorted({s is not None for s in settings.values()}):
        scheduler = og.SchedulerConfig()
        scheduler.enable_prefix_caching = False
        pipes[lookup] = og.ContinuousBatchingPipeline(gguf, tokenizer, scheduler, "CPU",
                                                      **props, **({"prompt_lookup": True} if lookup else {}))
    pool = list(generate_problems(400, seed=23))

    def configs(setting: tuple[int, int] | None, params: SamplingParams, n: int) -> list:
        out = []
        for i in range(n):
            g = engine._config(params, 1000 + i)
            if setting is not None:
                g.num_assistant_tokens, g.max_ngram_size = setting
            out.append(g)
        return out

    for shape in args.shapes.split(","):
        if shape == "check":
            engine.ignore_eos, params = True, SamplingParams(max_new_tokens=256, temperature=0.0, stop=())
        else:
            engine.ignore_eos = False
            params = SamplingParams(max_new_tokens=512, temperature=args.solve_temperature, top_p=1.0,
                                    stop=(FINAL_ANSWER_STOP,))
        for batch in (int(b) for b in args.batches.split(",")):
            prompts = shape_prompts(engine, shape, batch, pool)
            inputs = [ov.Tensor(np.asarray([p], dtype=np.int64)) for p in prompts]
            warm = [ov.Tensor(np.asarray([p], dtype=np.int64)) for p in shape_prompts(engine, "solve", batch, pool)]
            for setting in settings.values():  # kernels are compiled per shape on first use
                pipes[setting is not None].generate(warm, configs(setting, SamplingParams(max_new_tokens=8), batch))
            rows = {name: {"tok_s": [], "tok_cpu_s": [], "steps": [], "ids": None} for name in settings}
            names = list(settings)
            for rep in range(args.reps):
                for name in names[rep % len(names):] + names[: rep % len(names)]:
                    start, cpu = time.perf_counter(), time.process_time()
                    results = pipes[settings[name] is not None].generate(inputs, configs(settings[name], params, batch))
                    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
                    ids = [[int(t) for t in r.m_generation_ids[0]] for r in results]
                    rows[name]["tok_s"].append(sum(map(len, ids)) / seconds)
                    rows[name]["tok_cpu_s"].append(sum(map(len, ids)) / cpu)
                    rows[name]["steps"].append(len(results[0].perf_metrics.raw_metrics.token_infer_durations))
                    rows[name]["ids"] = ids
                    print(f"{shape} b{batch} round {rep} {name}: {rows[name]['tok_s'][-1]:.1f} tok/s, "
                          f"{rows[name]['tok_cpu_s'][-1]:.1f} per CPU s, load average {os.getloadavg()[0]:.2f}", flush=True)
            report(shape, batch, prompts, rows, settings, params, args)


def report(shape: str, batch: int, prompts: list, rows: dict, settings: dict, params, args) -> None:
    """One JSON line per setting (see the module docstring)."""
    plain = rows.get("plain")
    for name, row in rows.items():
        out = {"shape": shape, "batch": batch, "setting": name, "tok_s_median": round(statistics.median(row["tok_s"]), 1),
               "tok_s_min": round(min(row["tok_s"]), 1), "tok_s_max": round(max(row["tok_s"]), 1),
               "tok_cpu_s_median": round(statistics.median(row["tok_cpu_s"]), 1),
               "steps_median": statistics.median(row["steps"]),
               "tokens": sum(map(len, row["ids"])), "threads": args.threads,
               "temperature": params.temperature, "load_avg": round(os.getloadavg()[0], 2)}
        if plain is not None:
            for key in ("tok_s", "tok_cpu_s"):
                out[f"{key}_ratio_to_plain"] = round(statistics.median(
                    [a / b for a, b in zip(row[key], plain[key], strict=True)]), 3)
            out["same_ids_as_plain"] = sum(a == b for a, b in zip(row["ids"], plain["ids"], strict=True))
            if params.temperature == 0:
                out["first64_same_as_plain"] = sum(a[:64] == b[:64] for a, b in zip(row["ids"], plain["ids"], strict=True))
        if settings[name] is not None:
            k, n = settings[name]
            stats = [lookup_stats(p, g, k, n, params.max_new_tokens) for p, g in zip(prompts, row["ids"], strict=True)]
            steps, found, accepted = (sum(s[i] for s in stats) for i in range(3))
            out["acceptance"] = round(accepted / max(1, found), 3)  # accepted / candidates the lookup found
            out["found_per_step"] = round(found / max(1, steps), 2)  # of the k slots every step pays for
            out["tokens_per_step"] = round((accepted + steps) / max(1, steps), 2)  # per request
        print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
