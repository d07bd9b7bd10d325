"""The cost of one sampler thread (physr3.models.openvino_engine.SAMPLER_THREADS, the fix of a hang in
openvino-genai's tokenizer queue): 8 prompts x 256 sampled tokens (EOS ignored, a stop string that never fires, so
every step still matches it), 2 inference threads, a pipeline with OpenVINO's default (one sampler thread per core)
and one with 1, alternating; a warm-up round, then 3 timed rounds each; prints tok/s and the ratio.

    python benchmarks/openvino_sampler_threads.py ~/.cache/physr3/openvino/<key>/model-f16.gguf
"""

from __future__ import annotations

import sys
import time

import openvino_genai as og

PROMPTS = [f"Explain step by step how to solve physics problem number {i} about a block sliding on an incline."
           for i in range(8)]


def build(path: str, sampler_threads: int | None) -> og.ContinuousBatchingPipeline:
    """A pipeline on 2 inference threads; `sampler_threads` None keeps OpenVINO's default."""
    props: dict = {"INFERENCE_NUM_THREADS": 2}
    if sampler_threads:
        props["sampler_num_threads"] = sampler_threads
    return og.ContinuousBatchingPipeline(path, og.SchedulerConfig(), "CPU", props)


def configs(seed: int) -> list[og.GenerationConfig]:
    """Sampled at T=0.7 (the refine loop's setting), 256 tokens each, with a stop string to match every step."""
    out = []
    for i in range(len(PROMPTS)):
        g = og.GenerationConfig()
        g.max_new_tokens, g.do_sample, g.temperature, g.top_p = 256, True, 0.7, 1.0
        g.rng_seed, g.ignore_eos = seed + i, True
        g.stop_strings, g.include_stop_str_in_output = {"</final_answer>"}, True
        out.append(g)
    return out


def main(path: str) -> None:
    pipes = {"default": build(path, None), "one": build(path, 1)}
    tokenizer = pipes["one"].get_tokenizer()
    ids = [tokenizer.encode(p).input_ids for p in PROMPTS]
    rates: dict[str, list[float]] = {"default": [], "one": []}
    for round_ in range(4):  # round 0 warms both up; the order alternates, the pipeline run second is favoured
        for name in ("default", "one") if round_ % 2 == 0 else ("one", "default"):
            start = time.perf_counter()
            results = pipes[name].generate(ids, configs(100 * round_))
            seconds = time.perf_counter() - start
            tokens = sum(len(r.m_generation_ids[0]) for r in results)
            if round_:
                rates[name].append(tokens / seconds)
            print(f"round {round_} {name}: {tokens / seconds:.1f} tok/s ({tokens} tokens)", flush=True)
    for name, values in rates.items():
        print(f"{name}: mean {sum(values) / len(values):.1f} tok/s over {len(values)} calls")
    print(f"ratio one/default {sum(rates['one']) / sum(rates['default']):.3f}")


if __name__ == "__main__":
    main(sys.argv[1])
