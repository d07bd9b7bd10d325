"""Numbers with units: everything in physr3 that reads or writes a physical quantity lives here.

One module per job:

- `text`: written maths -> plain text (LaTeX, Unicode, Markdown, `× 10^`), in the two forms its readers need;
- `units`: the one pint registry, the one table of unit words, SI factors, dimensions (and the
  generator's dimensional analysis of sympy expressions);
- `expr`: the one reader of a solution step's maths (names, units, implicit products) into a tree that
  evaluates in SI; lenient for the verifier, strict for the code channel;
- `arith`: the code channel's use of that tree: strict parsing, pint evaluation and `to_python`;
- `answer`: a final answer's value and unit, and `judge`, the one comparison with a gold answer;
- `sigfig`: how a number is written (significant figures).

The names below are the verifier's vocabulary (`from physr3 import quantity as mp`); the other readers
are imported from their modules.
"""

from physr3.quantity.expr import (
    FUNCTIONS,
    MAX_CHARS,
    MAX_TOKENS,
    STOPWORDS,
    TRIG,
    EvalError,
    Mode,
    Names,
    Node,
    ParseFail,
    canonical_name,
    dimension,
    evaluate,
    has_units,
    is_numeric,
    parse_full,
    parse_prefix,
    parse_suffix,
    symbol_like,
    to_text,
    tokenize,
    variables,
)
from physr3.quantity.text import GREEK, GREEK_NAMES, normalize
from physr3.quantity.units import DIMLESS, Dim, UnitInfo, dim_of_unit, pint_unit, same_dim, unit_word

__all__ = [
    "DIMLESS", "FUNCTIONS", "GREEK", "GREEK_NAMES", "MAX_CHARS", "MAX_TOKENS", "STOPWORDS", "TRIG", "Dim",
    "EvalError", "Mode", "Names", "Node", "ParseFail", "UnitInfo", "canonical_name", "dim_of_unit", "dimension",
    "evaluate", "has_units", "is_numeric", "normalize", "parse_full", "parse_prefix", "parse_suffix", "pint_unit",
    "same_dim", "symbol_like", "to_text", "tokenize", "unit_word", "variables",
]
