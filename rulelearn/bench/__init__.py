"""The benchmark harness: experiment configs, the evaluation protocol, runs, records and tables.

Built on the core (:mod:`rulelearn.estimator`, :mod:`rulelearn.model_selection`,
:mod:`rulelearn.data`); the core never imports it.
"""

#: Where ``bench`` can run units (the config's ``executor``, ``--executor``); listed only here.
EXECUTORS = ("local", "dask")
