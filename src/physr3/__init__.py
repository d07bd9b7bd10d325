"""physr3: Reason, Reward, Refine — step-level error correction for physics reasoning in small LMs."""

__version__ = "0.1.0"
