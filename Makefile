# Two entry points for a fresh machine: `make run` (crawl feeds.txt into blogs.db) and `make test`.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run watch test lint evaluate bench report demo clean

$(STAMP): pyproject.toml setup.py $(wildcard extractor/*.py extractor/*/*.py extractor/*.pyx extractor/*.pxd)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/scrapy crawl blogs

watch: $(STAMP)
	$(BIN)/scrapy crawl blogs -a watch=1

test: $(STAMP)
	bash scripts/ensure_chromium.sh
	bash scripts/ensure_postgres.sh
	bash scripts/ensure_wget.sh
	bash scripts/ensure_pywb.sh
	$(BIN)/python -m pytest -n 2 --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check crawler extractor jobs pipelines store commands farm setup.py
	$(BIN)/ruff format --check crawler extractor jobs pipelines store commands farm setup.py
	$(BIN)/mypy crawler extractor jobs pipelines store commands

evaluate: $(STAMP)
	$(BIN)/python -m extractor evaluate --corpus ../shared/corpus

bench: $(STAMP)
	$(BIN)/python bench/extract_speed.py

report: $(STAMP)
	$(BIN)/python -m extractor report --corpus ../shared/corpus --out report

demo: $(STAMP)
	$(BIN)/python scripts/demo.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
