# Everything starts here: each target creates .venv from pyproject.toml on first use,
# so a fresh machine needs nothing but `make`.
PYTHON ?= python3
# `make test PYTHON=python3.10` builds and tests in a venv of that interpreter's own
# (.venv-python3.10), so the Pythons the README promises can be tried side by side.
VENV := $(if $(filter python3,$(PYTHON)),.venv,.venv-$(notdir $(PYTHON)))
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM
# The Pyodide release the lite site carries in static/pyodide (tools/lite.py reads it here; the
# JupyterLite versions pinned in pyproject.toml are the ones written for it), and the one
# tests/test_pyodide.py runs under node. 0.27.7: the newest release whose packages can be had
# whole and checked against its official lock (see tools/lite.py).
PYODIDE_VERSION := 0.27.7
PYODIDE_STAMP := build/node/.pyodide-$(PYODIDE_VERSION)
# What `make slides` writes into every deck (tools/slides.py names the same versions): the
# reveal.js release nbconvert's reveal template is written for, and MathJax 3 for the decks with math.
REVEAL_VERSION := 4.0.2
MATHJAX_VERSION := 3.2.2
SLIDE_ASSETS_STAMP := build/reveal/.reveal-$(REVEAL_VERSION)-mathjax-$(MATHJAX_VERSION)
# axe-core, the accessibility engine tests/browser/test_accessibility.py runs in chromium on
# every notebook's HTML (WCAG 2.1 A and AA rules)
AXE_VERSION := 4.14.1
AXE_STAMP := build/axe/.axe-core-$(AXE_VERSION)
# make present NB=03: the first notebook whose name starts with NB
PRESENT := $(firstword $(wildcard notebooks/$(NB)*.ipynb))
# JupyterLab refuses to start as root unless told to (the course machines run as root)
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: help setup play test test-lite lab present bench handout slides slide-assets axe lite lite-instructor release-check node pyodide chromium bubblewrap clean

help:
	@echo "make play     set up, then the computer plays itself"
	@echo "make test     set up, then every test (unit, property, notebooks, browser)"
	@echo "make lab      open the course in JupyterLab"
	@echo "make bench    the performance figures"
	@echo "make handout  student copies of the notebooks, without solutions (GRADED=1: for credit)"
	@echo "make slides   the notebooks as offline reveal.js decks and PDFs, in build/slides"
	@echo "make present NB=03  notebook 03 in JupyterLab, to present live (run all, then Alt+R)"
	@echo "make lite     the students' JupyterLite site (handouts, offline Pyodide) in build/lite"
	@echo "make lite-instructor  the same site with the solutions, in build/lite-instructor"
	@echo "make test-lite  every notebook run in the lite site, in headless chromium"
	@echo "$(BIN)/python -m ttt_lib grade FOLDER [--csv FILE]  a class's notebooks, one row each"

# uv (Astral's installer, itself installed by pip) installs the same packages as pip in a
# fraction of the time and compiles their byte code on every core, as pip does on one. Where uv
# cannot be had (no PyPI, only a mirror pip is configured for), pip does it all instead.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	{ $(BIN)/python -m pip install --quiet uv && \
	  $(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode \
	    --upgrade-package pip pip -e '.[notebooks,test,lite,grading]'; } || \
	{ echo "uv could not install the packages: pip installs them"; \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[notebooks,test,lite,grading]'; }
	@# build matplotlib's font cache now: its one-time notice would otherwise reach a notebook's output
	$(BIN)/python -c "import matplotlib.font_manager"
	touch $(STAMP)

setup: $(STAMP)

# The widget tests drive Debian's chromium; Playwright's own browser download cannot work here.
chromium:
	@test -x $(CHROMIUM) || { echo "installing chromium (Debian package)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@test -x $(CHROMIUM) || { echo "chromium is missing and could not be installed"; exit 1; }

# Students' agents and graded notebooks run in bubblewrap sandboxes (Debian's bubblewrap, the
# unprivileged sandbox Flatpak uses); the tests run hostile code in them.
bubblewrap:
	@command -v bwrap >/dev/null || { echo "installing bubblewrap (Debian package)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; }
	@command -v bwrap >/dev/null || { echo "bubblewrap is missing and could not be installed"; exit 1; }

# The Pyodide test runs Python under node; Debian's nodejs (and npm) when node is missing.
node:
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "installing nodejs and npm (Debian packages)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	@command -v node >/dev/null || { echo "node is missing and could not be installed"; exit 1; }

pyodide: $(PYODIDE_STAMP)

$(PYODIDE_STAMP): | node
	mkdir -p build/node
	npm install --silent --no-audit --no-fund --no-save --prefix build/node pyodide@$(PYODIDE_VERSION)
	@test -f build/node/node_modules/pyodide/pyodide.mjs || { echo "npm did not install pyodide"; exit 1; }
	touch $@

# reveal.js and MathJax from npm into build/reveal; from npm's cache, offline, after the first time
slide-assets: $(SLIDE_ASSETS_STAMP)

$(SLIDE_ASSETS_STAMP): | node
	mkdir -p build/reveal
	npm install --silent --prefer-offline --no-audit --no-fund --no-save --prefix build/reveal \
	  reveal.js@$(REVEAL_VERSION) mathjax@$(MATHJAX_VERSION)
	@test -f build/reveal/node_modules/reveal.js/dist/reveal.js && \
	  test -f build/reveal/node_modules/mathjax/es5/tex-svg-full.js || \
	  { echo "npm did not install reveal.js and mathjax"; exit 1; }
	touch $@

# axe-core from npm into build/axe; from npm's cache, offline, after the first time
axe: $(AXE_STAMP)

$(AXE_STAMP): | node
	mkdir -p build/axe
	npm install --silent --prefer-offline --no-audit --no-fund --no-save --prefix build/axe \
	  axe-core@$(AXE_VERSION)
	@test -f build/axe/node_modules/axe-core/axe.min.js || { echo "npm did not install axe-core"; exit 1; }
	touch $@

play: $(STAMP)
	$(BIN)/python -m ttt_lib selfplay

# The suite on every core (pytest-xdist): TEST_WORKERS processes, twice the cores by default,
# since many tests wait on kernels, browsers and sandboxes; the tests that must share a worker
# (a notebook's cells, a module's costly fixture) are grouped by tests/conftest.py, whose
# scheduler hands each group to one worker.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))

# The set-up's downloads run side by side (pip's into the venv, npm's into build/), after the
# Debian packages (one apt-get at a time); then the lite site, which needs both. The suite
# starts hundreds of Python processes (kernels, sandboxes, the CLI): the package's byte code is
# compiled once beforehand and kept, even where the environment says not to write it
# (PYTHONDONTWRITEBYTECODE), so that no process compiles it again (not the example class's
# agent files: students' code, one of which does not compile on purpose).
test: chromium bubblewrap node
	$(MAKE) --no-print-directory -j 4 $(STAMP) pyodide slide-assets axe
	$(MAKE) --no-print-directory lite
	$(BIN)/python -m compileall -q -x class_agents ttt_lib tests
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope

lab: $(STAMP)
	$(BIN)/jupyter lab $(ALLOW_ROOT) notebooks/00_index.ipynb

# Live slides: the notebook opens in JupyterLab; RISE's "Render as Reveal Slideshow" (Alt+R, or
# its toolbar button) presents it with a running kernel and working widgets.
present: $(STAMP)
	@test -n "$(NB)" -a -n "$(PRESENT)" || { echo "which notebook? e.g. make present NB=03"; exit 2; }
	@echo "presenting $(PRESENT): run all cells, then Alt+R (Render as Reveal Slideshow)"
	$(BIN)/jupyter lab $(ALLOW_ROOT) $(PRESENT)

bench: $(STAMP)
	$(BIN)/python -m ttt_lib bench
	$(BIN)/python benchmarks/class_tournament_speed.py
	$(BIN)/python benchmarks/class_swiss_scaling.py --rounds 8,16,32

# make handout GRADED=1: copies for credit (no listing of a write-it's answer, no stored
# output of the solution's run), in build/handout-graded
handout: $(STAMP)
	$(BIN)/python tools/handout.py notebooks $(if $(GRADED),build/handout-graded --graded,build/handout)

slides: $(STAMP) slide-assets chromium
	$(BIN)/python tools/slides.py notebooks build/slides --pdf

# The students' site: the handouts, the wheels and Pyodide $(PYODIDE_VERSION) itself, every Pyodide
# file checked against the official lock (tools/lite.py says where the files come from).
lite: $(STAMP) pyodide
	$(BIN)/python tools/lite.py build/lite

# The instructor's copy, solutions included: for a class's own server, never for Pages.
lite-instructor: $(STAMP) pyodide
	$(BIN)/python tools/lite.py --instructor build/lite-instructor

# Every notebook of the site run in chromium (the browser test's notebooks beyond the ones
# make test runs); CI runs it after make test.
test-lite: $(STAMP) chromium lite
	$(BIN)/python -m pytest -p no:cacheprovider -m lite_all tests/browser/test_lite_notebooks.py

# The wheel and sdist PyPI would get, checked by twine (the release workflow publishes them).
release-check: $(STAMP)
	rm -rf build/dist && $(BIN)/python -m build --outdir build/dist
	$(BIN)/python -m twine check --strict build/dist/*

clean:
	rm -rf build .pytest_cache .hypothesis
