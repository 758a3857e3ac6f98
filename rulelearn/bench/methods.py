"""The methods a benchmark can run, in one table.

Each entry says how to build the method's estimator, which config keys it takes, which
parameter the inner CV tunes (and which end of its grid is the simpler model), and what it
needs installed. The config validator, the experiment and the preflight checks read from
:data:`METHODS`; adding a method is one entry here plus its adapter (an estimator with
``fit``/``predict`` and ``_parameter_constraints``, see :mod:`.baselines`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulelearn._params import Options, accepts, allowed, options
from rulelearn._rule_params import CV_FOLDS, RULE_PARAMETERS
from rulelearn.bench import baselines, brcg, peers
from rulelearn.cv_estimator import BooleanRuleClassifierCV
from rulelearn.errors import ParameterError
from rulelearn.estimator import BooleanRuleClassifier

#: Where BCD and AM start unless a config says ``start``: the set-covering rule, as in the
#: paper (the estimator's own default is "best", as ``rulelearn fit``'s).
PAPER_START = "sc"
#: Config keys of the paper's rule learners (``R`` is ``max_rules``).
_RULE_KEYS = ("form", "R", "max_iter", "n_thresholds", "clause_solver", "theta")


@dataclass(frozen=True)
class Method:
    """How the benchmark runs one method.

    ``build(params, grid, pos_label, random_state)`` returns the unfitted estimator for a
    variant's fixed ``params`` (config keys); the caller sets the tuned parameter.
    """

    name: str
    estimator: type[Any]
    build: Callable[..., Any]
    config_keys: tuple[str, ...]
    #: Config key -> the estimator's parameter, where they differ.
    renamed: dict = field(default_factory=dict)
    #: The parameter the inner CV tunes, and which end of its grid is simpler (chosen on ties).
    tuned: str | None = None
    simpler: str = "larger"
    #: The tuned grid when the config gives none (θ: the experiment's θ grid).
    default_grid: tuple = ()
    #: A rule learner of the paper: takes the experiment-wide form, R, max_iter, n_thresholds.
    paper_rule: bool = False
    #: Config values fixed for this method whatever the experiment says (OCRL: one clause).
    fixed: dict = field(default_factory=dict)
    #: ``(module, pip extra)`` of an optional dependency, e.g. ``("wittgenstein", "ripper")``.
    requires: tuple[str, str] | None = None
    #: Config key -> its constraints, where a config may give other values than the
    #: estimator's parameter takes (``fit``'s ``method: bcd+cg``; its ``cv``, a number only).
    constraints: dict = field(default_factory=dict)

    def estimator_param(self, key: str) -> str:
        """The estimator parameter a config key sets."""
        return self.renamed.get(key, key)

    def declared(self, key: str) -> list | None:
        """The constraints of config key ``key`` (:attr:`constraints`, else the estimator's
        parameter's), None when neither declares it."""
        if key in self.constraints:
            return self.constraints[key]
        return self.estimator._parameter_constraints.get(self.estimator_param(key))

    def choices(self, key: str) -> tuple:
        """The values config key ``key`` may take if it is declared as options, else ``()``."""
        return options({key: self.declared(key) or ()}, key)

    def check(self, key: str, value) -> None:
        """:class:`ParameterError` naming the parameter and what it allows, if ``value`` is
        refused."""
        declared = self.declared(key)
        if declared is not None and not accepts(declared, value):
            raise ParameterError(f"The {self.estimator_param(key)!r} parameter of "
                                 f"{self.estimator.__name__} must be {allowed(declared)}. "
                                 f"Got {value!r} instead.")


def _rule_learner(name: str) -> Callable[..., Any]:
    def build(params, grid, pos_label, random_state):
        kwargs = dict(method=name, form=params["form"], max_rules=params["R"],
                      max_iter=params["max_iter"], n_thresholds=params["n_thresholds"],
                      theta=max(grid) if grid else 1.0, pos_label=pos_label)
        # in the run's key only when given
        for optional in ("clause_solver", "start", "polish", "perturb"):
            if optional in params:
                kwargs[optional] = params[optional]
        kwargs.setdefault("start", PAPER_START)  # not the estimator's default: the paper's
        return BooleanRuleClassifier(**kwargs)  # deterministic: no random_state

    return build


def _cart(params, grid, pos_label, random_state):
    return baselines.CartClassifier(pos_label=pos_label, random_state=random_state, **params)


def _ripper(params, grid, pos_label, random_state):
    # like Cohen's RIPPER, learn rules for the minority class (the majority is the default)
    return baselines.RipperClassifier(pos_label=None, random_state=random_state, **params)


def _brcg(params, grid, pos_label, random_state):
    return brcg.BrcgClassifier(pos_label=pos_label, **params)  # deterministic: no random_state


#: BRCG's complexity grid: lambda1 (= lambda0 unless given), the larger the simpler.
BRCG_GRID = (3e-4, 1e-3, 3e-3, 1e-2, 3e-2)


def _rule_method(name: str, config_keys=_RULE_KEYS, **extra) -> Method:
    return Method(name=name, estimator=BooleanRuleClassifier, build=_rule_learner(name),
                  config_keys=config_keys, renamed={"R": "max_rules"}, tuned="theta",
                  simpler="larger", paper_rule=True, **extra)


#: The learners of the ``fit`` method: one of the core's, or two joined by "+" (``rulelearn fit
#: --method bcd,cg``: both learners' whole searches on the same folds; the CV picks a row).
FIT_METHODS = (*options(RULE_PARAMETERS, "method"), "bcd+cg")


def _fit_defaults(params, grid, pos_label, random_state):
    """``rulelearn fit``'s defaults: a :class:`~rulelearn.cv_estimator.BooleanRuleClassifierCV`
    that chooses the form (DNF, CNF), R (1, 3, 5, 10) and θ by its own stratified CV on the
    training part (5 folds unless the config's ``cv`` says otherwise) and refits there, with
    the core's defaults but for the config's keys. The benchmark's inner CV has nothing to
    tune for it."""
    params = dict(params)
    own, *more = params.pop("method", "bcd").split("+")
    return BooleanRuleClassifierCV(method=own, more_methods=tuple(more), pos_label=pos_label,
                                   random_state=random_state, **params)


def import_path_method(path: str) -> Method:
    """The entry of a classifier named by import path (:mod:`.peers`); its tuned parameter and
    grid come from the config (the first parameter given as a list, smaller value simpler)."""
    def build(params, grid, pos_label, random_state):
        return peers.ImportedClassifier(path=path, params=dict(params), pos_label=pos_label,
                                        random_state=random_state)

    return Method(name=path, estimator=peers.ImportedClassifier, build=build, config_keys=(),
                  simpler="smaller", requires=(path.partition(".")[0], "public"))


class _MethodTable(dict):
    """:data:`METHODS`: the named entries, and an entry made on demand for an import path
    (``"imodels.FIGSClassifier" in METHODS`` is true, iterating lists the named ones only)."""

    def __missing__(self, key):
        if peers.is_import_path(key):
            return import_path_method(key)
        raise KeyError(key)

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key):
        return dict.__contains__(self, key) or peers.is_import_path(key)


#: Every method a config can name, by name (one entry each; import paths made on demand).
METHODS: dict[str, Method] = _MethodTable({
    # rulelearn fit's defaults: form, R, θ chosen by its own CV inside fit (nothing to tune here)
    "fit": Method(name="fit", estimator=BooleanRuleClassifierCV, build=_fit_defaults,
                  config_keys=("cv", "method", "start", "max_iter", "n_thresholds"),
                  constraints={"method": [Options(*FIT_METHODS)], "cv": CV_FOLDS}),
    # start: default PAPER_START
    "bcd": _rule_method("bcd", _RULE_KEYS + ("start", "polish", "perturb")),
    "am": _rule_method("am", _RULE_KEYS + ("start", "polish", "perturb")),
    "ocrl": _rule_method("ocrl", tuple(k for k in _RULE_KEYS if k != "R"), fixed={"R": 1}),
    "sc": _rule_method("sc"),
    "cg": _rule_method("cg"),  # column generation, seeded with SC (rulelearn.learners.cg)
    "cart": Method(name="cart", estimator=baselines.CartClassifier, build=_cart,
                   config_keys=("max_depth", "min_samples_leaf", "criterion"),
                   tuned="max_depth", simpler="smaller", default_grid=(1, 2, 3, 4, 5, 6, 8, 10)),
    "ripper": Method(name="ripper", estimator=baselines.RipperClassifier, build=_ripper,
                     config_keys=("k", "prune_size", "max_rules", "max_rule_conds",
                                  "n_discretize_bins"),
                     requires=("wittgenstein", "ripper")),
    "brcg": Method(name="brcg", estimator=brcg.BrcgClassifier, build=_brcg,
                   config_keys=("form", "lambda0", "lambda1", "n_thresholds", "max_iter",
                                "time_max", "max_columns", "max_degree", "beam_width"),
                   tuned="lambda1", simpler="larger", default_grid=BRCG_GRID,
                   requires=("aix360", "brcg")),
})

