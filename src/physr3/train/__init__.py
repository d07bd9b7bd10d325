"""Training recipes: Stage 1 LoRA SFT, the Stage 2-3 refine loop (Algorithm 1, Eq. 2), the DPO baseline."""
