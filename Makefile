# Two commands: `make run` starts the whole system, `make test` runs the tests.
# Each creates .venv on first use and installs the project into it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast bench install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/atout serve

# The tests run in TEST_JOBS processes (pytest-xdist), each a pytest session with its own
# database and Redis prefix (tests/conftest.py). Most end-to-end tests wait on real clocks,
# sockets and a browser, so four processes share two cores well. TEST_JOBS=0 runs them all in
# one process, for `-s` or `--pdb`.
TEST_JOBS ?= 4

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) --durations=30 $(PYTEST_ARGS)

# For iteration: the rules, properties and contracts without the browser, cluster and long
# end-to-end tests (marked slow); `make test` runs everything.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) -m "not slow" $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .atout .pytest_cache .hypothesis
