# rulelearn: common tasks. PY is the interpreter of the project's environment.
PY ?= $(if $(wildcard .venv/bin/python),.venv/bin/python,python3)
RULELEARN = $(PY) -m rulelearn.cli
# Where the raw UCI files come from: RULELEARN_MIRROR (a folder or URL of them), else UCI itself.
MIRROR ?= $(RULELEARN_MIRROR)
MIRROR_FLAG = $(if $(MIRROR),--mirror $(MIRROR),)

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
	@echo "make results/NAME   run configs/NAME.yaml into results/NAME/ (resumable; index: results/README.md)"
	@echo "make studies/NAME   the tables of studies/NAME/README.md (index and costs: studies/README.md)"

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
	$(PY) tools/slow_tests.py .durations.log && rm -f .durations.log

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

# make results/NAME: configs/NAME.yaml into results/NAME/ (its records, tables and report; then
# its figures where the folder keeps them: pip install -e '.[plot]'). Every folder of results/ is
# made this way (results/README.md); tests/test_repository.py checks it.
CONFIGS := $(wildcard configs/*.yaml)
RESULTS := $(patsubst configs/%.yaml,results/%,$(CONFIGS))
FIGURES := results/paper results/public results/quick
.PHONY: $(RESULTS)

$(filter-out results/brcg-seeds,$(RESULTS)): results/%: configs/%.yaml
	$(RULELEARN) bench $< $(MIRROR_FLAG) $(BENCH_FLAGS)
	$(if $(filter $@,$(FIGURES)),$(RULELEARN) plot $@)
	$(if $(filter results/public,$@),$(PY) -c "from rulelearn.bench import plot; plot.write_dataset_figures('$@')")

# seed 0 of configs/brcg-seeds.yaml is results/brcg's run: its records are copied, not recomputed
results/brcg-seeds: configs/brcg-seeds.yaml
	@mkdir -p results/brcg-seeds
	@test -s results/brcg-seeds/records.jsonl || ! test -s results/brcg/records.jsonl || \
		cp results/brcg/records.jsonl results/brcg-seeds/records.jsonl
	$(RULELEARN) bench $< $(MIRROR_FLAG) $(BENCH_FLAGS)

quick: results/quick

quick-seeds: results/quick-seeds
	@cat results/quick-seeds/table1.md

paper: results/paper
	@cat results/paper/table2.md

brcg: results/brcg

brcg-seeds: results/brcg-seeds

table1:
	$(RULELEARN) table results/$(EXP) --show 1

table2:
	$(RULELEARN) table results/$(EXP) --show 2

# Speed benchmark (not a test): fast path vs the straightforward loop, MAGIC scaling, peak memory;
# then the rows section (generated tables of 10k, 100k and 1M rows; ROWS="--quick" for 10k, 100k).
# Written to results/perf/perf.md (studies/perf/README.md).
perf:
	RULELEARN_MIRROR=$(MIRROR) $(PY) studies/perf/perf.py
	$(PY) studies/perf/rows.py $(ROWS)

# make studies/NAME prints the tables of studies/NAME/README.md: from the data the study keeps
# where it keeps some (seconds), else by rerunning it (minutes; studies/README.md gives each
# one's cost and what it needs). Each README also gives the commands of the full rerun.
STUDIES := $(patsubst %/,%,$(wildcard studies/*/))
FRONT = $(PY) studies/public-front/run.py
LEVERS3 = studies/figs-gap/out/levers3_merged.json
.PHONY: studies $(STUDIES)

studies:
	@echo "make studies/NAME, one per folder (studies/README.md):"
	@for s in $(STUDIES); do echo "  make $$s"; done

studies/selection-rule:
	$(PY) studies/selection-rule/run.py --from-raw studies/selection-rule/select_rule.json \
		--rules min,0.1pt,1se --show min,min+p,0.1pt,0.1pt+p,1se,1se+p
	$(FRONT) --select-raw studies/polish/levers4_merged.json --compare --rule 0.1pt+p --rule 0.1pt+r
	$(FRONT) --select-raw studies/polish/levers4_merged.json --paired --rule 0.1pt+p --rule 0.1pt+r
	$(FRONT) --select-raw studies/cut-points/levers_cuts.json --compare --rule 0.1pt+p \
		--rule min+p --rule 1se+p --rule 0.1pt1se+p
	$(FRONT) --select-raw studies/selection-rule/levers_sem.json --compare --rule 0.1pt+p \
		--rule 0.1pt1se+p --rule 0.1pt1.5se+p --rule 0.1pt2se+p

studies/cut-points: $(LEVERS3)
	$(PY) studies/cut-points/run.py
	$(FRONT) --select-raw studies/cut-points/levers_cuts.json --compare --rule 0.1pt+p \
		--rule tree:0.1pt+p --rule tree:min+p --rule tree:1se+p --rule both:0.1pt+p \
		--rule 'base|tree:0.1pt+p' --rule 'base|both:0.1pt+p'
	$(FRONT) --select-raw studies/cut-points/levers_cuts.json --paired --rule 0.1pt+p \
		--rule tree:0.1pt+p --rule both:0.1pt+p --rule 'base|tree:0.1pt+p' --rule 'base|both:0.1pt+p'
	$(FRONT) --select-raw $(LEVERS3) --compare --rule 0.1pt+p --rule cart:0.1pt+p \
		--rule cart:1se+p --rule 'base|cart:0.1pt+p'
	$(FRONT) --select-raw $(LEVERS3) --paired --rule 0.1pt+p --rule cart:0.1pt+p \
		--rule cart:1se+p --rule 'base|cart:0.1pt+p'

studies/polish:
	$(FRONT) --select-raw studies/polish/levers4_merged.json --compare --rule 0.1pt+p \
		--rule polish:0.1pt+p --rule polish:0.1pt+r --rule polish:min+p --rule refit:0.1pt+p \
		--rule polish@cell:0.1pt+p --rule 'base|polish@cell:0.1pt+p' --rule 'base|polish@cell:min+p'
	$(FRONT) --select-raw studies/polish/levers4_merged.json --paired --rule 0.1pt+p \
		--rule polish:0.1pt+p --rule refit:0.1pt+p --rule polish@cell:0.1pt+p \
		--rule 'base|polish@cell:0.1pt+p'

studies/cg-as-learner:
	$(PY) studies/cg-as-learner/run.py --from-json studies/cg-as-learner/levers5.json

studies/figs-gap: $(LEVERS3)
	$(FRONT) --select-raw $(LEVERS3) --compare --rule 0.1pt+p --rule sum:0.1pt+p \
		--rule autosum:0.1pt+p --rule 'base|autosum:0.1pt+p' --rule treesum:0.1pt+p
	$(FRONT) --select-raw $(LEVERS3) --paired --rule 0.1pt+p --rule sum:0.1pt+p \
		--rule autosum:0.1pt+p --rule 'base|autosum:0.1pt+p'
	$(PY) studies/figs-gap/run.py

studies/more-search: $(LEVERS3)
	$(FRONT) --select-raw $(LEVERS3) --compare --rule 0.1pt+p --rule R20:0.1pt+p --rule R20:min+p

# round 3's runs (figs-gap/levers3.json) over round 2's base (cut-points/levers_cuts.json)
$(LEVERS3): studies/figs-gap/levers3.json studies/cut-points/levers_cuts.json
	@mkdir -p $(dir $@)
	RULELEARN_MIRROR=$(MIRROR) $(PY) studies/selection-rule/merge_raw.py $@ $< \
		--base-from studies/cut-points/levers_cuts.json --as-base sum autosum

studies/public-front:
	$(FRONT)
	$(FRONT) --why

studies/certificate-floor:
	$(PY) studies/certificate-floor/lp_floor.py table
	$(PY) studies/certificate-floor/exact_bound.py table

studies/local-search:
	$(PY) studies/local-search/run.py table

studies/cg-vs-brcg:
	$(PY) studies/cg-vs-brcg/run.py

studies/fit-defaults:
	RULELEARN_MIRROR=$(MIRROR) $(PY) studies/fit-defaults/run.py
	RULELEARN_MIRROR=$(MIRROR) $(PY) studies/fit-defaults/run.py --seeds 5 sonar parkinsons XOR

studies/xor-oracle:
	$(PY) studies/xor-oracle/run.py --seeds 5 --thresholds 10 20 30

studies/multiclass:
	$(PY) studies/multiclass/run.py --seeds 10

studies/class-weight:
	$(PY) studies/class-weight/run.py

studies/perf: perf
