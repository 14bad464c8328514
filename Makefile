# Two commands for a fresh clone: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
BIN := $(VENV)/bin

.PHONY: run test install install-dev migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the pinned dependencies change.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo_tables

# The web process serves the tables; the coach's reviews (tens of ms of CPU a settled
# round) run in a process of their own beside it, stopped with it (README "The coach").
run: migrate
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Casino on http://127.0.0.1:$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/python manage.py review_rounds --follow & reviewer=$$!; \
	trap 'kill $$reviewer 2>/dev/null' EXIT INT TERM; \
	COACH_REVIEW_THREAD=false $(BIN)/python -m casino.serve -b 127.0.0.1 -p $(PORT) casino.asgi:application

# The suite runs on the defaults (SQLite, in-memory channel layer); when
# DATABASE_URL or REDIS_URL is set it runs a second time on those.
# CONN_MAX_AGE=0 (for DATABASE_POOL_SIZE=0; the pool closes its own):
# connections opened in consumers' worker threads close after each call, so
# PostgreSQL can drop its test database at the end.
# Tests marked `scaled` (several daphne processes) need PostgreSQL and Redis,
# so they run in the second pass only.
# The tests that need no live server run on $(WORKERS) workers (pytest-xdist);
# those that start daphne (browser, scaled) run one at a time after them.
# Exit status 5 is "no test selected" (a PYTEST_ARGS -k that picks none of a group).
WORKERS ?= 2
test: install-dev
	env -u DATABASE_URL -u REDIS_URL $(BIN)/pytest -m "not scaled and not browser" -n $(WORKERS) $(PYTEST_ARGS) || [ $$? -eq 5 ]
	env -u DATABASE_URL -u REDIS_URL $(BIN)/pytest -m "browser" $(PYTEST_ARGS) || [ $$? -eq 5 ]
	@if [ -n "$$DATABASE_URL$$REDIS_URL" ]; then \
		echo "--- again with DATABASE_URL=$$DATABASE_URL REDIS_URL=$$REDIS_URL"; \
		{ CONN_MAX_AGE=0 $(BIN)/pytest -m "not scaled and not browser" -n $(WORKERS) $(PYTEST_ARGS) || [ $$? -eq 5 ]; } && \
		{ CONN_MAX_AGE=0 $(BIN)/pytest -m "scaled or browser" $(PYTEST_ARGS) || [ $$? -eq 5 ]; }; \
	fi

clean:
	rm -rf $(VENV) staticfiles test-output .pytest_cache
