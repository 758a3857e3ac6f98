"""rulelearn: interpretable two-level Boolean rules (CNF / DNF) via LP relaxations."""

__version__ = "0.1.0"

#: Version of the model-file format written by ``rulelearn fit --save``.
MODEL_FORMAT_VERSION = 1
