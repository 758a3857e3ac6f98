"""Exceptions raised by rulelearn. The CLI turns each into a one-line error."""


class RuleLearnError(Exception):
    """Base class of every error rulelearn raises on purpose."""


class DataError(RuleLearnError, ValueError):
    """Input data that cannot be used (bad CSV, bad target, missing columns, ...)."""


class SolverError(RuleLearnError, RuntimeError):
    """HiGHS did not reach an optimal solution."""


class ModelFileError(RuleLearnError):
    """A model file that is not a rulelearn model or has an incompatible version."""


class FetchError(RuleLearnError):
    """A dataset file could not be downloaded or read from a mirror."""


class ChecksumError(FetchError):
    """A downloaded or cached file does not have the expected sha256."""


class ConfigError(RuleLearnError, ValueError):
    """An experiment configuration that cannot be used."""


class ParameterError(RuleLearnError, ValueError):
    """An estimator or command parameter outside its allowed values."""


class RuleError(RuleLearnError, ValueError):
    """A literal, clause or rule that is malformed (bad operator, threshold, form or text)."""
