"""The benchmark harness: experiment configs, the evaluation protocol, runs, records and tables.

Built on the core (:mod:`rulelearn.estimator`, :mod:`rulelearn.model_selection`,
:mod:`rulelearn.data`); the core never imports it.
"""
