"""Generation throughput: physr3's batched engine vs the paper's per-sample `model.generate` loop.

    python benchmarks/generation.py                 # embedded model, dtype auto (bf16 here), 8 prompts
    python benchmarks/generation.py --max-new-tokens 64 --dtype float32

Same prompts (the solve prompt with the format instruction, 8 physics questions), same greedy decoding, same
stop string and token cap, measured in one process, one after another:
  naive   - for each prompt: `model.generate(input_ids)` on that prompt alone (the paper's loop);
  batch 1 - `TransformersEngine(batch_size=1)` (engine overhead check: should be ~1.0x naive);
  batch 8 - `TransformersEngine(batch_size=8)`: one left-padded batch, finished rows leave the batch;
  hf batch 8 - `model.generate` on the same left-padded batch (finished rows stay until the longest ends:
            what the engine did before its own decoding loop).
With `--adapter DIR` (a LoRA adapter folder, e.g. runs/demo/sft/adapter), two more rows at batch 8: decoding
through the unmerged PEFT adapter, and through a merged copy (physr3.models.merged, what eval and training use).
With `--json`: the engine comparison instead, one JSON line per engine and batch size
`{"engine", "batch", "tok_s", "ratio_to_transformers", "threads", "load_avg", "prefix_caching", "prompt_tokens",
"shared_prefix_tokens"}` (the mean prompt length, and the token prefix all prompts of the batch share: null when the
engine does not return prompt ids), all from one run: the same solve prompts for every engine, `--threads` (default 1) for both engines, 256 new tokens (`--max-new-tokens`), end-of-sequence and stop strings ignored,
so every row decodes exactly the cap; for each batch size the engines run one after another (transformers
first), after a short warm-up on OTHER questions (generated problems): with OpenVINO's prefix caching
(`generation.openvino_prefix_caching`, on unless `--no-prefix-caching`) only the prompt prefix they share with
the timed prompts (system prompt and user header) can be reused, as in an evaluation after its first batch,
never a whole timed prompt. The --json prompts are distinct generated problems (the solve prompt with the
format instruction, ~450 tokens like the self-check's questions), new for every batch size. Engines: `transformers` (the reference, `TransformersEngine`, dtype auto) and
`openvino` (physr3.models.openvino_engine at the fast precision; `--openvino-exact` adds the f32 setting).
tokens/s counts generated tokens (up to and including end-of-sequence or the stop string). A short warm-up
at each batch shape runs first: oneDNN builds its kernels on first use (seconds on CPU). Prints tokens/s,
the ratios to naive, greedy agreement between batch 8 and naive, and the process's peak RSS. The machine's
load average is printed too: on a shared CPU, numbers move with other processes.
"""

from __future__ import annotations

import argparse
import copy
import os
import resource
import sys
import time

from physr3.models.openvino_engine import CHECK_QUESTIONS as QUESTIONS  # one prompt list: the self-check's


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="model.name_or_path (default: embedded)")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--max-new-tokens", type=int, default=None, help="default 128; 256 with --json")
    parser.add_argument("--n-prompts", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--threads", type=int, default=None,
                        help="torch intra-op threads (default: torch's choice). On a CPU shared with other busy "
                             "processes, 1 avoids OpenMP oversubscription stalls (measured 25x slower at 2).")
    parser.add_argument("--rounds", type=int, default=1,
                        help="Repeat the naive/batch-1/batch-8 cycle; totals per method (alternation evens out load drift).")
    parser.add_argument("--skip-batch1", action="store_true", help="Skip the engine batch-1 run (saves time).")
    parser.add_argument("--adapter", default=None, help="LoRA adapter folder: also time unmerged vs merged.")
    parser.add_argument("--json", action="store_true",
                        help="Engine comparison (transformers vs openvino): one JSON line per engine and batch.")
    parser.add_argument("--batches", default="1,8,32", help="With --json: batch sizes, comma-separated.")
    parser.add_argument("--openvino-exact", action="store_true", help="With --json: also the f32 OpenVINO setting.")
    parser.add_argument("--no-prefix-caching", action="store_true",
                        help="With --json: OpenVINO without prefix caching (generation.openvino_prefix_caching=false).")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.max_new_tokens is None:
        args.max_new_tokens = 256 if args.json else 128
    if args.json:
        return engines_json(args)

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)

    from physr3.config import ModelConfig
    from physr3.models.engine import TransformersEngine
    from physr3.models.loading import load_model
    from physr3.models.types import FINAL_ANSWER_STOP, SamplingParams
    from physr3.problems import Problem
    from physr3.prompts import build_solve_conversation

    t0 = time.perf_counter()
    model, tokenizer = load_model(ModelConfig(name_or_path=args.model, dtype=args.dtype, device="cpu"))
    print(f"model {args.model}: {model.num_parameters() / 1e6:.1f}M params, {model.dtype}, loaded in "
          f"{time.perf_counter() - t0:.1f} s; torch threads {torch.get_num_threads()}, "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    questions = (QUESTIONS * (args.n_prompts // len(QUESTIONS) + 1))[: args.n_prompts]
    convs = [build_solve_conversation(Problem(id=str(i), question=q, answer=""), True) for i, q in enumerate(questions)]
    params = SamplingParams(max_new_tokens=args.max_new_tokens, stop=(FINAL_ANSWER_STOP,))
    engine1 = TransformersEngine(model, tokenizer, batch_size=1)
    engineB = TransformersEngine(model, tokenizer, batch_size=args.batch_size)

    # Warm-up: one short generation at each batch shape.
    warm = SamplingParams(max_new_tokens=4, stop=(FINAL_ANSWER_STOP,))
    engine1.generate(convs[:1], warm)
    engineB.generate(convs[: args.batch_size], warm)

    def naive() -> list[list[int]]:
        """The paper's style: one `model.generate` call per prompt, no batching."""
        eos = tokenizer.eos_token_id
        outs = []
        with torch.inference_mode():
            for conv in convs:
                ids = tokenizer.apply_chat_template(conv, add_generation_prompt=True, return_tensors="pt",
                                                    return_dict=True)["input_ids"]
                seq = model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=args.max_new_tokens,
                                     do_sample=False, stop_strings=[FINAL_ANSWER_STOP], tokenizer=tokenizer,
                                     eos_token_id=eos, pad_token_id=eos)
                new = seq[0, ids.shape[1]:].tolist()
                outs.append(new[: new.index(eos) + 1] if eos in new else new)
        return outs

    def hf_batched() -> list[list[int]]:
        """`model.generate` on the engine's left-padded batches: finished rows keep decoding."""
        eos = tokenizer.eos_token_id
        outs = []
        with torch.inference_mode():
            for start in range(0, len(convs), args.batch_size):
                prompts = [engineB.encode(c) for c in convs[start : start + args.batch_size]]
                width = max(len(p) for p in prompts)
                ids = torch.tensor([[eos] * (width - len(p)) + p for p in prompts])
                mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
                seq = model.generate(ids, attention_mask=mask, max_new_tokens=args.max_new_tokens, do_sample=False,
                                     stop_strings=[FINAL_ANSWER_STOP], tokenizer=tokenizer, eos_token_id=eos,
                                     pad_token_id=eos)
                for row in seq[:, width:].tolist():
                    outs.append(row[: row.index(eos) + 1] if eos in row else row)
        return outs

    adapter_engines = {}
    if args.adapter:
        from peft import PeftModel

        from physr3.models.merged import merged_copy

        unmerged = PeftModel.from_pretrained(copy.deepcopy(model), args.adapter).eval()
        adapter_engines["adapter, unmerged"] = TransformersEngine(unmerged, tokenizer, batch_size=args.batch_size)
        adapter_engines["adapter, merged"] = TransformersEngine(merged_copy(model, args.adapter), tokenizer,
                                                                batch_size=args.batch_size)
        for eng in adapter_engines.values():
            eng.generate(convs[: args.batch_size], warm)

    results: dict[str, tuple[int, float]] = {}

    def timed(name: str, fn) -> list[list[int]]:
        start = time.perf_counter()
        token_lists = fn()
        dt = time.perf_counter() - start
        n = sum(len(t) for t in token_lists)
        n0, dt0 = results.get(name, (0, 0.0))
        results[name] = (n0 + n, dt0 + dt)
        print(f"{name:<18} {n:5d} tokens in {dt:7.1f} s = {n / dt:7.1f} tok/s  (load avg {os.getloadavg()[0]:.2f})",
              flush=True)
        return token_lists

    for _ in range(args.rounds):
        naive_ids = timed("naive", naive)
        if not args.skip_batch1:
            timed("batch 1", lambda: [c.token_ids for c in engine1.generate(convs, params)])
        batch_ids = timed(f"batch {args.batch_size}", lambda: [c.token_ids for c in engineB.generate(convs, params)])
        timed(f"hf batch {args.batch_size}", hf_batched)
        for name, eng in adapter_engines.items():
            timed(name, lambda eng=eng: [c.token_ids for c in eng.generate(convs, params)])

    print(f"totals over {args.rounds} round(s):")
    for name, (n, dt) in results.items():
        print(f"  {name:<18} {n:5d} tokens in {dt:7.1f} s = {n / dt:7.1f} tok/s")
    base = results["naive"][0] / results["naive"][1]
    print("ratios vs naive (tokens/s):")
    for name, (n, dt) in results.items():
        print(f"  {name:<18} {n / dt / base:5.2f}x")
    if args.adapter:
        (nu, du), (nm, dm) = results["adapter, unmerged"], results["adapter, merged"]
        print(f"merged vs unmerged adapter: {(nm / dm) / (nu / du):.2f}x tokens/s")
    same = sum(a == b for a, b in zip(naive_ids, batch_ids))
    print(f"greedy agreement batch {args.batch_size} vs naive: {same}/{len(convs)} completions identical "
          f"(bf16 rounding differs between padded and unpadded shapes)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS: {peak:.0f} MiB")
    return 0


def engines_json(args: argparse.Namespace) -> int:
    """The --json comparison: tokens/s per engine and batch size, ratios to transformers from this run."""
    import json

    for row in measure_engines(args):
        print(json.dumps(row), flush=True)
    return 0


def measure_engines(args: argparse.Namespace):
    """Yield one row per engine and batch size (`--json`'s fields), measured as the module docstring says.

    `args` needs model, dtype, threads, no_prefix_caching, openvino_exact, max_new_tokens and batches
    (benchmarks/cpu_roofline.py calls it too)."""
    import torch

    from physr3.config import load_config
    from physr3.models.engine import TransformersEngine
    from physr3.models.loading import load_model
    from physr3.models.openvino_engine import build_openvino_engine
    from physr3.models.types import SamplingParams
    from physr3.prompts import build_solve_conversation
    from physr3.synth.generate import generate_problems

    threads = args.threads or 1  # the same thread count for both engines (one per engine on a shared CPU)
    torch.set_num_threads(threads)
    cfg = load_config(None, [f"model.name_or_path={args.model}", f"model.dtype={args.dtype}", "model.device=cpu",
                             f"generation.openvino_threads={threads}",
                             f"generation.openvino_prefix_caching={str(not args.no_prefix_caching).lower()}"])
    model, tokenizer = load_model(cfg.model)
    engines: dict[str, object] = {"transformers": None}
    cfg.generation.openvino_precision = "fast"
    engines["openvino"] = build_openvino_engine(cfg)
    if args.openvino_exact:
        cfg.generation.openvino_precision = "exact"
        engines["openvino-exact"] = build_openvino_engine(cfg)
    for eng in engines.values():
        if eng is not None:
            eng.ignore_eos = True
    params = SamplingParams(max_new_tokens=args.max_new_tokens, stop=())
    warm = SamplingParams(max_new_tokens=4, stop=())
    batches = [int(b) for b in args.batches.split(",")]
    # Every prompt of the run is a different question (the timed ones of each batch size and every warm-up), so
    # prefix caching can reuse only the prefix all solve prompts share, never a whole prompt seen before.
    pool, seen = [], set()
    for p in generate_problems(4 * sum(batches) + 64, seed=11):
        conv = build_solve_conversation(p, True)
        if conv[0]["content"] not in seen:
            seen.add(conv[0]["content"])
            pool.append(conv)
    assert len(pool) >= 2 * sum(batches), "not enough distinct generated problems"
    for batch in batches:
        warm_convs, convs, pool = pool[:batch], pool[batch : 2 * batch], pool[2 * batch :]
        base = None
        for name, eng in engines.items():
            if eng is None:
                eng = TransformersEngine(model, tokenizer, batch_size=batch)
                eng.eos_ids = set()  # EOS ignored: every row decodes to the cap
            eng.generate(warm_convs, warm)
            start = time.perf_counter()
            out = eng.generate(convs, params)
            dt = time.perf_counter() - start
            tokens = sum(len(c.token_ids) for c in out)
            assert tokens == batch * args.max_new_tokens, (name, tokens)
            tok_s = tokens / dt
            base = tok_s if name == "transformers" else base
            prompts = [c.prompt_ids for c in out]
            shared = len(os.path.commonprefix(prompts)) if all(p is not None for p in prompts) else None
            yield {"engine": name, "batch": batch, "tok_s": round(tok_s, 1),
                   "ratio_to_transformers": round(tok_s / base, 2), "threads": threads,
                   "load_avg": round(os.getloadavg()[0], 2),
                   "prefix_caching": None if name == "transformers" else eng.prefix_caching,
                   "prompt_tokens": round(sum(c.prompt_tokens for c in out) / len(out), 1),
                   "shared_prefix_tokens": shared}


if __name__ == "__main__":
    sys.exit(main())
