# The two commands: `make explore` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: explore test lint typecheck pytest bench soak examples gallery clean web screenshots

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "chartkit needs Python 3.11 or newer; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# setup.py and the C source too: a change rebuilds chartkit._speedups in place
$(VENV)/.app-installed: pyproject.toml setup.py chartkit/_speedups.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[app]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml setup.py chartkit/_speedups.c | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.app-installed

explore: $(VENV)/.app-installed
	$(BIN)/streamlit run app/explorer.py --server.address 127.0.0.1

test: $(VENV)/.dev-installed
	$(BIN)/ruff check chartkit tests bench app examples
	$(BIN)/mypy
	$(BIN)/mkdocs build --strict --quiet  # the docs site (mkdocs.yml): a broken link or a stale name fails
	$(BIN)/pytest

# The property suite run long (over 100,000 generated examples); prints how many ran. Then
# wide results (3 rows x 100,000 columns) and long names (1,000,000 characters), timed.
soak: $(VENV)/.dev-installed
	CHARTKIT_HYPOTHESIS_PROFILE=soak CHARTKIT_HYPOTHESIS_REPORT=1 $(BIN)/pytest -s -q -p no:cacheprovider tests/test_properties.py
	$(BIN)/python bench/wide.py --budget 600  # wide results and long names: linear, within 10 min each

screenshots: $(VENV)/.dev-installed
	$(BIN)/python docs/screenshot.py

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/check.py
	$(BIN)/python bench/import.py
	$(BIN)/python bench/view.py
	$(BIN)/python bench/mask.py
	$(BIN)/python bench/explorer.py
	$(BIN)/python bench/stage.py
	$(BIN)/python bench/engines.py
	$(BIN)/python bench/gallery.py

examples:
	$(PYTHON) app/generate_examples.py

# docs/gallery.md and docs/gallery/*.png: each bundled example's chart and its alternatives.
gallery: $(VENV)/.dev-installed
	$(BIN)/python docs/gallery.py

# The MCP Apps page (chartkit/web/view.html) and the test-only host (tests/mcp_host/host.js),
# built from web/package-lock.json. Both are committed, so `make test` and CI need no npm.
web:
	cd web && npm ci --no-audit --no-fund && node build.mjs && node widget.mjs

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
