# Tabletown developer entry points. Everything installs into .venv from this repo's own files.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps: playing needs only Tabletown and its runtime dependencies (make run, make play); tests,
# benchmarks and research tools add the dev extra (a later make test upgrades a play-only .venv).
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
# ESLint for the browser code (web/static), from the npm registry at the versions in its lockfile,
# installed into .tools/eslint (a developer tool only: players get the JS files as they are).
ESLINT_DIR := .tools/eslint
ESLINT := $(ESLINT_DIR)/node_modules/.bin/eslint
ESLINT_STAMP := $(ESLINT_DIR)/node_modules/.installed
JS := src/tabletown/web/static src/tabletown/web/boards eslint.config.js
# axe-core for the browser tests' accessibility check, the same way into .tools/axe (Playwright injects
# it into the pages under test; it is never served to players).
AXE_DIR := .tools/axe
AXE_STAMP := $(AXE_DIR)/node_modules/.installed

.PHONY: run play test bench bench-server load soak strength lint typecheck eslint clean install install-run catalogs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

$(ESLINT_STAMP): $(ESLINT_DIR)/package.json $(ESLINT_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "ESLint needs node and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix $(ESLINT_DIR) --no-audit --no-fund --loglevel=error
	touch $(ESLINT_STAMP)

$(AXE_STAMP): $(AXE_DIR)/package.json $(AXE_DIR)/package-lock.json
	@command -v npm >/dev/null || { echo "the accessibility check needs node and npm (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --prefix $(AXE_DIR) --no-audit --no-fund --loglevel=error
	touch $(AXE_STAMP)

install: $(STAMP)

install-run: $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/tabletown serve $(SERVE_ARGS)

play: $(RUN_STAMP)
	$(BIN)/tabletown play machikoro --seat human --seat bot:greedy --seat bot:greedy --option harbor=true

test: $(STAMP) $(ESLINT_STAMP) $(AXE_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples
	$(BIN)/mypy
	$(ESLINT) $(JS)
	$(BIN)/python -m pytest -n auto --dist loadgroup

# Message catalogs (issue 28): extract every marked message into the pl/de/ru .po files of each
# domain (core and one per game), then compile the .mo files that ship in the package.
catalogs: $(STAMP)
	$(BIN)/python -m tabletown.core.catalogs update

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/bench_views.py
	$(BIN)/python benchmarks/bench_rl.py
	$(BIN)/python benchmarks/bench_experts.py
	$(BIN)/python benchmarks/instructions.py

# Four busy tables (the target: 500+ stored moves/s, p99 under 50 ms), then sixteen (a stress run:
# clients, bots and server then share the two cores and the latency tail grows). Then one human
# table beside 4 bot-only mcts:hard tables, bots in the web process and then in a bot worker with
# Redis (target: the human's p50 under 20 ms), and one table watched by 300 spectators (target: the
# mover's p50 under 10 ms).
REDIS_URL ?= $${TABLETOWN_TEST_REDIS_URL:-redis://127.0.0.1:6379/0}
bench-server: $(STAMP)
	for tables in 4 16; do \
		rm -f .bench-server.db*; \
		$(BIN)/python -m tabletown.web.bench --tables $$tables --db sqlite:///.bench-server.db \
			--db $${TABLETOWN_TEST_POSTGRES_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test} || exit 1; \
	done
	rm -f .bench-server.db*
	$(BIN)/python -m tabletown.web.bench --tables 1 --seconds 15 --bot-tables 4 --bot mcts:hard
	$(BIN)/python -m tabletown.web.bench --tables 1 --seconds 15 --bot-tables 4 --bot mcts:hard --redis $(REDIS_URL)
	$(BIN)/python -m tabletown.web.bench --tables 1 --seconds 15 --spectators 300

# A bounded loopback load test (issue 26): serve --workers 3 and a bot worker on PostgreSQL + Redis, 200
# tables (REST and WebSocket clients) for 60 s, one web worker and the bot worker killed with SIGKILL on
# the way; then every table is checked from the database. Options: make load LOAD_ARGS="--seconds 30".
load: $(STAMP)
	$(BIN)/python benchmarks/load.py \
		--db $${TABLETOWN_TEST_POSTGRES_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/test} \
		--redis $${TABLETOWN_TEST_REDIS_URL:-redis://127.0.0.1:6379/0} $(LOAD_ARGS)

strength: $(STAMP)
	$(BIN)/python benchmarks/strength.py --workers 2

soak: $(STAMP)
	$(BIN)/python -m pytest -n auto -m soak

lint: $(STAMP) $(ESLINT_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples
	$(BIN)/mypy
	$(ESLINT) $(JS)

# The type check alone (settings in pyproject.toml's [tool.mypy]: strict for core, web and rl).
typecheck: $(STAMP)
	$(BIN)/mypy

eslint: $(ESLINT_STAMP)
	$(ESLINT) $(JS)

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache $(ESLINT_DIR)/node_modules $(AXE_DIR)/node_modules
