"""What this CPU allows a generation engine: the model's linear layers alone, against the engines' tokens/s.

    python benchmarks/cpu_roofline.py --threads 2                      # bounds only (~1 minute)
    python benchmarks/cpu_roofline.py --threads 2 --engines            # + both engines at the same batch sizes

Issue #14 asks for >= 2.5x the transformers engine at batch 8 and >= 300 tok/s at batch 32 on 2 cores. Whether
that is within reach depends on the machine (its figures moved 2x between the machines this project ran on), so
this script measures, in one run, on the embedded model's shapes (read from its config):
  stream  - memory bandwidth: a 512 MB f32 copy with torch on --threads threads (GB/s, read + write). At batch 1
            decoding streams every weight once per token, so bandwidth / weight bytes bounds batch-1 tok/s.
  linear  - every linear layer of a decode step (each layer's q, k, v, o, gate, up and down projections, and the
            tied LM head: all but a few tenths of a percent of a decode step's multiply-adds, attention over the
            cache aside) as one OpenVINO model of f16 weights, compiled with the engine's CPU settings (so bf16
            where the CPU has AVX512-BF16, as the engine's "fast" precision), fed `batch` tokens at once. Its
            tokens/s bounds any engine built on OpenVINO's kernels: no attention, KV cache, sampling or scheduling.
            `--weights f16,i8` adds the same chain with int8 weights (what an int8 export could reach).
  torch   - the same chain through torch in bf16 (the transformers engine's kernels).
  prefill - the same chain fed `--prefill-chunk` tokens at once (OpenVINO's prefill runs the prompt in chunks of
            256 tokens by default): the rate at which any engine on these kernels can read a prompt.
  engine  - with --engines: `benchmarks/generation.py --json`'s rows (OpenVINO and transformers engines, 1..32
            distinct solve prompts of ~450 tokens, EOS ignored), each with two bounds for its own workload: the
            decode bound (the linear chain at its batch size) and the workload bound, which also charges the
            prompts' prefill at the prefill rate, minus the prefix all prompts of the batch share (what prefix
            caching can save): bound = B*new / (B*(prompt - shared)/prefill + B*new/decode(B)). Attention over
            the cache, sampling and scheduling come on top of both, so an engine's share of the workload bound is
            how much of this CPU's kernel time it turns into tokens.
One JSON line per row: {"what", "batch", "tok_s", "gflops", "threads", "load_avg", ...}. GFLOP/s counts 2 per
multiply-add of the linear layers. On a shared CPU read the figures as ratios within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np


def _widths(config) -> tuple[int, int, int, int]:
    """hidden, intermediate, query and key/value widths of a Llama-family config (grouped-query attention)."""
    h = config.hidden_size
    head_dim = getattr(config, "head_dim", None) or h // config.num_attention_heads
    return h, config.intermediate_size, config.num_attention_heads * head_dim, config.num_key_value_heads * head_dim


def linear_shapes(config) -> list[tuple[int, int]]:
    """(in, out) of every linear layer one decode step runs, in order, for a Llama-family config."""
    h, i, q_dim, kv = _widths(config)
    layer = [(h, q_dim), (h, kv), (h, kv), (q_dim, h), (h, i), (h, i), (i, h)]
    return layer * config.num_hidden_layers + [(h, config.vocab_size)]


def multiply_adds_per_token(config) -> int:
    return sum(a * b for a, b in linear_shapes(config))


def _timed(fn, min_seconds: float) -> float:
    """Seconds per call of `fn`, after two warm-up calls, averaged over at least `min_seconds`."""
    fn()
    fn()
    calls, start = 0, time.perf_counter()
    while True:
        fn()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return elapsed / calls


def stream_gb_s(threads: int, min_seconds: float) -> float:
    import torch

    torch.set_num_threads(threads)
    src = torch.ones(128 * 1024 * 1024)  # 512 MB: far beyond any cache
    dst = torch.empty_like(src)
    seconds = _timed(lambda: dst.copy_(src), min_seconds)
    return 2 * src.numel() * 4 / seconds / 1e9


def _openvino_chain(config, batch: int, weights: str = "f16"):
    """The decode step's linear layers as one OpenVINO model: x[batch, hidden] -> logits.

    Within a layer the projections feed each other as in the model (q -> o, gate * up -> down, residual adds);
    k and v are summed into the residual so the compiler cannot drop them. Weights are random, scaled so
    activations stay near unit size (no denormals or overflow to slow the kernels). `weights`: "f16" (the
    engine's GGUF) or "i8" (symmetric int8 with one scale per output row, the pattern OpenVINO's CPU plugin
    fuses into a compressed-weight FullyConnected, with its int8 kernels where the CPU has VNNI)."""
    import openvino as ov
    import openvino.opset13 as ops

    rng = np.random.default_rng(0)

    def linear(x, n_in: int, n_out: int):
        weight = rng.standard_normal((n_out, n_in)) / np.sqrt(n_in)
        if weights == "i8":
            scale = np.abs(weight).max(axis=1, keepdims=True) / 127
            quantized = ops.constant(np.round(weight / scale).astype(np.int8))
            weight_node = ops.multiply(ops.convert(quantized, ov.Type.f32), ops.constant(scale.astype(np.float32)))
        else:
            weight_node = ops.convert(ops.constant(weight.astype(np.float16)), ov.Type.f32)
        return ops.matmul(x, weight_node, False, True)

    h, i, q_dim, kv = _widths(config)
    x = ops.parameter([batch, h], ov.Type.f32, name="x")
    y = x
    for _ in range(config.num_hidden_layers):
        q = linear(y, h, q_dim)
        k_and_v = ops.add(ops.reduce_mean(linear(y, h, kv), [1], True), ops.reduce_mean(linear(y, h, kv), [1], True))
        y = ops.add(ops.add(y, linear(q, q_dim, h)), k_and_v)
        gate_up = ops.multiply(ops.swish(linear(y, h, i)), linear(y, h, i))
        y = ops.add(y, linear(gate_up, i, h))
    return ov.Model([linear(y, h, config.vocab_size)], [x], "linear_chain")


def openvino_linear_tok_s(config, batch: int, threads: int, min_seconds: float,
                          weights: str = "f16") -> tuple[float, str]:
    """Tokens/s of the linear chain at `batch`, compiled as the engine compiles (its "fast" precision)."""
    import openvino as ov

    core = ov.Core()
    compiled = core.compile_model(_openvino_chain(config, batch, weights), "CPU",
                                  {"INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1})
    request = compiled.create_infer_request()
    x = np.random.default_rng(1).standard_normal((batch, config.hidden_size)).astype(np.float32)
    seconds = _timed(lambda: request.infer({0: x}), min_seconds)
    return batch / seconds, str(compiled.get_property("INFERENCE_PRECISION_HINT"))


def torch_linear_tok_s(config, batch: int, threads: int, min_seconds: float) -> float:
    """Tokens/s of the same chain through torch.nn.functional.linear in bf16."""
    import torch

    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    weights = [torch.randn(n_out, n_in, generator=gen).div_(n_in ** 0.5).to(torch.bfloat16)
               for n_in, n_out in linear_shapes(config)]
    x = torch.randn(batch, config.hidden_size, generator=gen).to(torch.bfloat16)
    per_layer = 7

    def step():
        with torch.inference_mode():
            y = x
            for j in range(config.num_hidden_layers):
                wq, wk, wv, wo, wg, wu, wd = weights[j * per_layer:(j + 1) * per_layer]
                q = torch.nn.functional.linear(y, wq)
                k_and_v = torch.nn.functional.linear(y, wk).mean(1, keepdim=True) + \
                    torch.nn.functional.linear(y, wv).mean(1, keepdim=True)
                y = y + torch.nn.functional.linear(q, wo) + k_and_v
                gate_up = torch.nn.functional.silu(torch.nn.functional.linear(y, wg)) * \
                    torch.nn.functional.linear(y, wu)
                y = y + torch.nn.functional.linear(gate_up, wd)
            return torch.nn.functional.linear(y, weights[-1])

    return batch / _timed(step, min_seconds)


def workload_bound(batch: int, prompt_tokens: float, new_tokens: int, prefill_tok_s: float,
                   decode_tok_s: float) -> float:
    """Generated tokens/s if the linear layers were the only cost: read `batch` prompts of `prompt_tokens` at
    the prefill rate, then decode `new_tokens` each at the decode rate of that batch size."""
    seconds = batch * prompt_tokens / prefill_tok_s + batch * new_tokens / decode_tok_s
    return batch * new_tokens / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="model.name_or_path (default: embedded)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batches", default="1,8,32")
    parser.add_argument("--seconds", type=float, default=3.0, help="minimum timed seconds per bound")
    parser.add_argument("--prefill-chunk", type=int, default=256, help="tokens per prefill pass (OpenVINO's default)")
    parser.add_argument("--weights", default="f16,i8",
                        help="OpenVINO chain weights, comma-separated: f16 (the engine's) and/or i8")
    parser.add_argument("--engines", action="store_true", help="also run generation.py --json's engine rows")
    parser.add_argument("--max-new-tokens", type=int, default=128, help="with --engines (generation.py: 256)")
    args = parser.parse_args(argv)

    from transformers import AutoConfig

    from physr3.config import load_config
    from physr3.models.loading import resolve_model_path

    cfg = load_config(None, [f"model.name_or_path={args.model}"])
    config = AutoConfig.from_pretrained(resolve_model_path(cfg.model))
    macs = multiply_adds_per_token(config)
    per_token = 2 * macs  # FLOPs
    weight_bytes = 2 * macs  # one 16-bit weight per multiply-add, each read once per decode step
    batches = [int(b) for b in args.batches.split(",")]

    def emit(row: dict) -> None:
        row.update(threads=args.threads, load_avg=round(os.getloadavg()[0], 2))
        print(json.dumps(row), flush=True)

    bandwidth = stream_gb_s(args.threads, args.seconds)
    emit({"what": "stream", "gb_s": round(bandwidth, 1), "weight_mb": round(weight_bytes / 1e6),
          "batch1_bound_tok_s": round(bandwidth * 1e9 / weight_bytes, 1)})
    bounds = {}
    for batch in batches:
        for weights in args.weights.split(","):
            tok_s, precision = openvino_linear_tok_s(config, batch, args.threads, args.seconds, weights)
            bounds.setdefault(batch, tok_s)  # the first kind (f16 by default: the engine's weights) is the bound
            emit({"what": f"linear-openvino-{weights}", "batch": batch, "tok_s": round(tok_s, 1),
                  "gflops": round(tok_s * per_token / 1e9, 1), "precision": precision})
        tok_s = torch_linear_tok_s(config, batch, args.threads, args.seconds)
        emit({"what": "linear-torch-bf16", "batch": batch, "tok_s": round(tok_s, 1),
              "gflops": round(tok_s * per_token / 1e9, 1)})
    prefill, _ = openvino_linear_tok_s(config, args.prefill_chunk, args.threads, args.seconds)
    emit({"what": "prefill-openvino-f16", "batch": args.prefill_chunk, "tok_s": round(prefill, 1),
          "gflops": round(prefill * per_token / 1e9, 1)})
    if args.engines:
        sys.path.insert(0, str(Path(__file__).parent))
        from generation import measure_engines

        engine_args = SimpleNamespace(model=args.model, dtype="auto", threads=args.threads, no_prefix_caching=False,
                                      openvino_exact=False, max_new_tokens=args.max_new_tokens, batches=args.batches)
        shared = 0
        for row in measure_engines(engine_args):
            batch, tok_s = row["batch"], row["tok_s"]
            # the transformers engine returns prompt ids, OpenVINO does not: the batch's prompts are the same
            shared = row["shared_prefix_tokens"] if row["shared_prefix_tokens"] is not None else shared
            saved = shared if batch > 1 else 0  # one prompt shares nothing with another
            unshared = row["prompt_tokens"] - saved
            workload = workload_bound(batch, unshared, args.max_new_tokens, prefill, bounds[batch])
            emit({"what": f"engine-{row['engine']}", "batch": batch, "tok_s": tok_s,
                  "ratio_to_transformers": row["ratio_to_transformers"], "prompt_tokens": row["prompt_tokens"],
                  "shared_prefix_tokens": saved, "decode_bound_tok_s": round(bounds[batch], 1),
                  "workload_bound_tok_s": round(workload, 1), "share_of_workload_bound": round(tok_s / workload, 2)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
