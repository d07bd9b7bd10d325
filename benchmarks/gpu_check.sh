#!/usr/bin/env bash
# One prepared check for a GPU machine, under 8 minutes in all (each part has its own time limit):
#   1. install the `vllm` extra (skipped when vLLM is importable already);
#   2. vLLM greedy parity with the transformers engine on the embedded model: 8 solve prompts, the first 64
#      tokens, both in float32, counted identical per prompt (the CPU OpenVINO bar is >= 7 of 8);
#   3. one refine step of the demo's shape (4 problems, attempts up to 512 tokens) timed on the GPU with
#      benchmarks/train_step.py (rollouts by the transformers engine on CUDA: the refine loop's GPU path).
# Run from anywhere:  bash benchmarks/gpu_check.sh   (PY=/path/to/python to choose the interpreter)
# Everything it measures is printed; exit status 0 only when every part ran. Not run yet: no GPU was lent
# while it was written, so the README calls the GPU paths untested until it has.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python}
export HF_HUB_OFFLINE=1 PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
status=0
echo "== machine"; date -u; uptime
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || { echo "no GPU: nothing to check"; exit 2; }

echo "== 1. vLLM extra"
if ! "$PY" -c "import vllm" 2>/dev/null; then
  timeout 240 "$PY" -m pip install --quiet -e ".[vllm]" || { echo "FAILED: pip install -e .[vllm] (offline machine or resolver conflict)"; exit 3; }
fi
"$PY" -c "import vllm, torch, transformers; print('vllm', vllm.__version__, 'torch', torch.__version__, 'transformers', transformers.__version__, 'cuda', torch.cuda.is_available())"

echo "== 2. vLLM greedy parity with the transformers engine (embedded model, float32, 8 prompts x 64 tokens)"
timeout 180 "$PY" - <<'EOF' || status=1
import time
from physr3.config import load_config
from physr3.models.engine import TransformersEngine
from physr3.models.loading import load_model
from physr3.models.openvino_engine import CHECK_QUESTIONS
from physr3.models.types import SamplingParams
from physr3.models.vllm_engine import VLLMEngine
from physr3.problems import Problem
from physr3.prompts import build_solve_conversation

cfg = load_config(None, ["model.dtype=float32", "model.device=cuda"])
convs = [build_solve_conversation(Problem(id=str(i), question=q, answer=""), True) for i, q in enumerate(CHECK_QUESTIONS)]
params = SamplingParams(max_new_tokens=64, temperature=0.0, stop=())
model, tok = load_model(cfg.model)
t = time.perf_counter(); ref = TransformersEngine(model, tok, batch_size=8).generate(convs, params); t_ref = time.perf_counter() - t
del model
vllm = VLLMEngine.from_config(cfg.model, gpu_memory_utilization=0.3)
t = time.perf_counter(); out = vllm.generate(convs, params); t_v = time.perf_counter() - t
same = sum(a.token_ids == b.token_ids for a, b in zip(ref, out))
print(f"greedy parity: {same}/8 prompts identical over 64 tokens (transformers {t_ref:.1f} s, vLLM {t_v:.1f} s)")
for i, (a, b) in enumerate(zip(ref, out)):
    if a.token_ids != b.token_ids:
        k = next((j for j, (x, y) in enumerate(zip(a.token_ids, b.token_ids)) if x != y), min(len(a.token_ids), len(b.token_ids)))
        print(f"  prompt {i}: first difference at token {k}")
raise SystemExit(0 if same >= 7 else 1)
EOF

echo "== 3. one refine step of the demo's shape on the GPU"
timeout 240 "$PY" benchmarks/train_step.py --steps 1 --batch 4 --max-attempt-tokens 512 || status=1
date -u
exit $status
