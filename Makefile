# rulelearn: common tasks. PY is the interpreter of the project's environment.
PY ?= $(if $(wildcard .venv/bin/python),.venv/bin/python,python3)
RULELEARN = $(PY) -m rulelearn.cli
MIRROR ?= $(if $(RULELEARN_MIRROR),$(RULELEARN_MIRROR),../shared/uci)

.PHONY: help install test test-fast slow-list lint docs quick quick-seeds paper brcg brcg-seeds table1 table2 perf

help:
	@echo "make install   create .venv and install rulelearn with its test extra"
	@echo "make test      run the test suite (in parallel, one worker per core; TEST_JOBS=N to choose)"
	@echo "make test-fast the suite without its slowest tests (tests/slow_tests.txt; about 30 s)"
	@echo "make lint      ruff and mypy (configured in pyproject.toml; pip install -e '.[lint]')"
	@echo "make docs      the documentation site in docs/_build/html, warnings as errors (pip install -e '.[docs]')"
	@echo "make quick     the offline benchmark on the bundled WDBC (80 s measured on 2 loaded cores)"
	@echo "make quick-seeds   the same over 5 split seeds (several minutes)"
	@echo "make paper     the paper's full protocol (configs/paper.yaml) and its tables"
	@echo "make brcg      BRCG beside BCD and AM (configs/brcg.yaml; pip install -e '.[brcg]'; about 2.5 h on 2 cores, Musk's BRCG 1 h of it)"
	@echo "make brcg-seeds   the same over 5 split seeds (reuses brcg's seed 0; hours, resumable)"
	@echo "make table1 / make table2   re-render the paper tables from existing records"
	@echo "make perf      speed benchmark, written to results/perf/perf.md"

install:
	python3 -m venv .venv
	.venv/bin/pip install -e ".[test]"

# The suite in TEST_JOBS worker processes (pytest-xdist; default one per core, TEST_JOBS=0 for one
# process); worksteal: an idle worker takes queued tests from a busy one, so the long tests spread.
TEST_JOBS ?= auto

test:
	$(PY) -m pytest -q -rs -n $(TEST_JOBS) --dist worksteal

# The suite less the tests listed in tests/slow_tests.txt: those over 0.2 s and the slowest others
# until the rest take 13 s (a quick check while editing, under 30 s; make test stays the whole
# suite). slow-list rewrites that list from a timed full run.
test-fast:
	$(PY) -m pytest -q -rs -m "not slow"

slow-list:
	$(PY) -m pytest -q -p no:cacheprovider --durations=0 > .durations.log || (cat .durations.log; exit 1)
	$(PY) benchmarks/slow_tests.py .durations.log && rm -f .durations.log

lint:
	$(PY) -m ruff check .
	$(PY) -m mypy

# The documentation site (Sphinx; docs/conf.py): every warning an error, every cross-reference
# checked (-n), all problems listed before it fails (--keep-going).
docs:
	$(PY) -m sphinx -W --keep-going -n -q -b html docs docs/_build/html

# The benchmark (configs/*.yaml; results in results/<experiment>/). JOBS= sets --jobs;
# EXP= picks the experiment whose tables make table1 / table2 re-render (default: paper).
# ONLY="ilpd sonar" restricts make paper to those datasets (Musk takes hours);
# FORCE=1 recomputes units already in the results; REUSE_STALE=1 keeps units recorded by other
# code (a changed learner, or records from before code fingerprints) instead of recomputing them
# (bench recomputes the former and stops on the latter unless told which).
BENCH_FLAGS = $(if $(JOBS),--jobs $(JOBS),) $(foreach d,$(ONLY),--only-dataset $(d)) \
	$(if $(FORCE),--force,) $(if $(REUSE_STALE),--reuse-stale,)
EXP ?= paper

quick:
	$(RULELEARN) bench configs/quick.yaml $(BENCH_FLAGS)

quick-seeds:
	$(RULELEARN) bench configs/quick-seeds.yaml $(BENCH_FLAGS)
	@cat results/quick-seeds/table1.md

paper:
	$(RULELEARN) bench configs/paper.yaml --mirror $(MIRROR) $(BENCH_FLAGS)
	@cat results/paper/table2.md

brcg:
	$(RULELEARN) bench configs/brcg.yaml --mirror $(MIRROR) $(BENCH_FLAGS)

brcg-seeds:
	@mkdir -p results/brcg-seeds
	@test -s results/brcg-seeds/records.jsonl || ! test -s results/brcg/records.jsonl || \
		cp results/brcg/records.jsonl results/brcg-seeds/records.jsonl
	$(RULELEARN) bench configs/brcg-seeds.yaml --mirror $(MIRROR) $(BENCH_FLAGS)

table1:
	$(RULELEARN) table results/$(EXP) --show 1

table2:
	$(RULELEARN) table results/$(EXP) --show 2

# Speed benchmark (not a test): fast path vs the straightforward loop, MAGIC scaling, peak memory;
# then the rows section (generated tables of 10k, 100k and 1M rows; ROWS="--quick" for 10k, 100k).
perf:
	RULELEARN_MIRROR=$(MIRROR) $(PY) benchmarks/perf.py
	$(PY) benchmarks/rows.py $(ROWS)
