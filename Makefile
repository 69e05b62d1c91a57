# Two commands do all set-up on a fresh machine:
#   make run   - the server with a Celery worker (beat inside) on the embedded default (SQLite)
#   make test  - the whole test suite (starts PostgreSQL and Redis when installed but stopped)
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint format typecheck bench clean services messages client

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

messages: $(STAMP)
	@if command -v msgfmt >/dev/null 2>&1; then \
	  $(BIN)/python manage.py compilemessages --ignore=.venv -v 0; \
	else echo "gettext (msgfmt) not installed: Japanese pages fall back to English"; fi

run: $(STAMP) messages
	$(BIN)/python manage.py migrate --noinput -v 0
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$${PORT:-8000}} $(BIN)/python manage.py devserver --seed 127.0.0.1:$${PORT:-8000}

services:
	@bash scripts/services.sh

test: $(STAMP) services messages
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict powergrid
	$(BIN)/mypy config games accounts tournaments
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider

test-fast: $(STAMP)
	$(BIN)/python -m pytest tests/engine -q -x

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy --strict powergrid \
	  && $(BIN)/mypy config games accounts tournaments

format: $(STAMP)
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

typecheck: $(STAMP)
	$(BIN)/mypy powergrid config games accounts tournaments

# The API client checked in under clients/ (schema + openapi-python-client's Python package).
client: $(STAMP)
	$(BIN)/python scripts/generate_client

bench: $(STAMP)
	$(BIN)/python -m powergrid bench

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
