# Every target sets itself up: a fresh clone needs nothing but python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test demo lint typecheck pytest bench fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy src

pytest: $(STAMP)
	$(BIN)/pytest

test: lint typecheck pytest

demo: $(STAMP)
	$(BIN)/llmbridge demo --provider all

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# The long property runs (10,000 examples each); `make test` deselects them (pyproject addopts).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest -m fuzz

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
