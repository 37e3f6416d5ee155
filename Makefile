# Every target sets itself up: a fresh clone needs nothing but Python 3.11 or newer.
# Another interpreter: make PYTHON=python3.12 test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
MIN_VENV := .venv-min
MIN_STAMP := $(MIN_VENV)/.installed
PEERS_VENV := .venv-peers
PEERS_STAMP := $(PEERS_VENV)/.installed
# Exit status 0 when the interpreter given as $(1) is Python 3.11 or newer.
IS_RECENT = $(1) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
TOO_OLD = echo "error: llmbridge needs Python 3.11 or newer, but $(PYTHON) is $$($(PYTHON) -c 'import platform; print("Python", platform.python_version())' 2>/dev/null || echo 'not found'); pass a newer one, e.g. make PYTHON=python3.12 test (a .venv made by an older Python is rebuilt; make clean removes it)" >&2; exit 1

.PHONY: test demo docs lint typecheck pytest bench bench-peers fuzz test-min clean

# The version is read from src/llmbridge/__init__.py, so a new version reinstalls too.
$(STAMP): pyproject.toml src/llmbridge/__init__.py
	@$(call IS_RECENT,$(PYTHON)) || { $(TOO_OLD); }
	@if [ -x $(BIN)/python ] && ! $(call IS_RECENT,$(BIN)/python); then \
		echo "rebuilding $(VENV): an older Python made it"; rm -rf $(VENV); fi
	@[ -x $(BIN)/python ] || $(PYTHON) -m venv $(VENV)
	@echo "setting up $(VENV): installing llmbridge and its dev tools (about a minute)"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	@touch $(STAMP)

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

# The documentation site, warnings as errors, into site/ (tests/test_docs.py runs the same build).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

bench: $(STAMP)
	$(BIN)/python -m benchmarks

# llmbridge beside LangChain, Pydantic AI and LiteLLM (benchmarks/peers/requirements.txt), in
# their own venv, never the main one; `make test` does not need it. llmbridge comes with every
# extra: the harness reuses the benchmark cases of all four wings. LiteLLM reads its bundled
# model cost map instead of fetching one.
$(PEERS_STAMP): pyproject.toml src/llmbridge/__init__.py benchmarks/peers/requirements.txt
	@$(call IS_RECENT,$(PYTHON)) || { $(TOO_OLD); }
	@[ -x $(PEERS_VENV)/bin/python ] || $(PYTHON) -m venv $(PEERS_VENV)
	@echo "setting up $(PEERS_VENV): llmbridge and the peers (a few minutes)"
	$(PEERS_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PEERS_VENV)/bin/python -m pip install --quiet -e '.[all]' \
		-r benchmarks/peers/requirements.txt
	@touch $(PEERS_STAMP)

bench-peers: $(PEERS_STAMP)
	LITELLM_LOCAL_MODEL_COST_MAP=True $(PEERS_VENV)/bin/python -m benchmarks.peers

# The long property runs (10,000 examples each); `make test` deselects them (pyproject addopts).
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest -m fuzz

# The suite against the lowest runtime versions pyproject.toml declares, in its own venv.
$(MIN_STAMP): pyproject.toml src/llmbridge/__init__.py tools/min_constraints.py
	@$(call IS_RECENT,$(PYTHON)) || { $(TOO_OLD); }
	rm -rf $(MIN_VENV)
	$(PYTHON) -m venv $(MIN_VENV)
	$(PYTHON) tools/min_constraints.py > $(MIN_VENV)/constraints.txt
	$(PYTHON) tools/min_constraints.py --tools > $(MIN_VENV)/tools.txt
	@echo "setting up $(MIN_VENV) with the lowest declared versions (about a minute):"
	@sed 's/^/  /' $(MIN_VENV)/constraints.txt
	$(MIN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(MIN_VENV)/bin/python -m pip install --quiet -c $(MIN_VENV)/constraints.txt \
		-r $(MIN_VENV)/tools.txt -e '.[all]'
	@touch $(MIN_STAMP)

test-min: $(MIN_STAMP)
	$(MIN_VENV)/bin/pytest

clean:
	rm -rf $(VENV) $(MIN_VENV) $(PEERS_VENV) site .mypy_cache .pytest_cache .ruff_cache
