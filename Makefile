# Everything starts here: each target creates .venv from pyproject.toml on first use,
# so a fresh machine needs nothing but `make`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM

.PHONY: help setup play test lab bench handout slides chromium clean

help:
	@echo "make play     set up, then the computer plays itself"
	@echo "make test     set up, then every test (unit, property, notebooks, browser)"
	@echo "make lab      open the course in JupyterLab"
	@echo "make bench    the performance figures"
	@echo "make handout  student copies of the notebooks, without solutions"
	@echo "make slides   the notebooks as reveal.js slides"

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebooks,test]'
	@# build matplotlib's font cache now: its one-time notice would otherwise reach a notebook's output
	$(BIN)/python -c "import matplotlib.font_manager"
	touch $(STAMP)

setup: $(STAMP)

# The widget tests drive Debian's chromium; Playwright's own browser download cannot work here.
chromium:
	@test -x $(CHROMIUM) || { echo "installing chromium (Debian package)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@test -x $(CHROMIUM) || { echo "chromium is missing and could not be installed"; exit 1; }

play: $(STAMP)
	$(BIN)/python -m ttt_lib selfplay

test: $(STAMP) chromium
	$(BIN)/python -m pytest

# JupyterLab refuses to start as root unless told to (the course machines run as root)
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/00_index.ipynb

bench: $(STAMP)
	$(BIN)/python -m ttt_lib bench

handout: $(STAMP)
	$(BIN)/python tools/handout.py notebooks build/handout

slides: $(STAMP)
	$(BIN)/python tools/slides.py notebooks build/slides

clean:
	rm -rf build .pytest_cache .hypothesis
