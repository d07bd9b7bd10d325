"""Verifiers: find the first erroneous step of a solution against the ground truth, and its type."""

from physr3.verify.base import ERROR_TYPES, Verdict, Verifier

__all__ = ["ERROR_TYPES", "Verdict", "Verifier"]
