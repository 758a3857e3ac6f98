"""``BooleanRuleClassifierCV``: the search of ``rulelearn fit`` as a scikit-learn estimator.

As ``LassoCV`` is to ``Lasso``: ``fit`` chooses (form, R, θ) by
:func:`rulelearn.model_selection.fit_select` (θ per training row, successive halving over
(form, R), the tie rule of :func:`~rulelearn.model_selection.select_setting`), refits on all
rows, and then predicts as the refitted :class:`~rulelearn.estimator.BooleanRuleClassifier`.
It subclasses it (as ``LogisticRegressionCV`` does ``LogisticRegression``) for prediction
only: its parameters are the grids and the CV in place of ``form``, ``max_rules`` and
``theta``.
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np

from rulelearn._defaults import (
    DEFAULT_FORMS,
    DEFAULT_RULES,
    DEFAULT_SELECT,
    FIT_MORE_CUT_POINTS,
    FIT_THETAS,
    SELECT_RULES,
    THETA_SCALES,
    TIE_ORDERS,
)
from rulelearn._params import InstanceOf, Interval, Options, validate_params
from rulelearn._rule_params import CV_FOLDS, RULE_PARAMETERS
from rulelearn.estimator import BooleanRuleClassifier, training_data

#: The parameters the CV chooses; the others (``PASSED``) are passed to every fit.
CHOSEN = ("form", "max_rules", "theta")
PASSED = tuple(name for name in inspect.signature(BooleanRuleClassifier).parameters
               if name not in CHOSEN)

class _Splitter:
    """A ``cv`` that is not a number: a splitter or folds (checked by ``resolve_folds``)."""

    def accepts(self, value) -> bool:
        return not isinstance(value, (numbers.Number, bool, str))

    def __str__(self) -> str:
        return "a CV splitter or an iterable of (train, test) index pairs"


#: ``BooleanRuleClassifier``'s constraints less :data:`CHOSEN`, and the CV's own. The grids,
#: ``cv`` and ``halving`` are checked in full by :func:`~rulelearn.model_selection.fit_select`.
CV_PARAMETERS: dict[str, list] = {
    **{name: c for name, c in RULE_PARAMETERS.items() if name not in CHOSEN},
    "theta_scale": [Options(*THETA_SCALES)],
    "select": [Options(*SELECT_RULES)],
    "ties": [Options(*TIE_ORDERS)],
    "cv": [*CV_FOLDS, _Splitter()],
    "n_jobs": [None, Interval(numbers.Integral, -1)],
    "scheduler": [None, InstanceOf(str)],
    "random_state": [Interval(numbers.Integral, 0, 2**32 - 1, closed="both")],
    "prune": [Options(True, False)],
    "more_cut_points": [InstanceOf(tuple), InstanceOf(list)],
    "more_methods": [InstanceOf(tuple), InstanceOf(list)],
}


class BooleanRuleClassifierCV(BooleanRuleClassifier):
    """A Boolean rule whose form, number of clauses R and θ are chosen by cross-validation.

    Parameters
    ----------
    forms : sequence of {"dnf", "cnf"}, default=("dnf", "cnf")
    rules : sequence of int, default=(1, 3, 5, 10)
        Numbers of clauses tried, walked upwards per form (a larger R is not tried once the
        fits leave clauses unused).
    thetas : sequence of float, default=FIT_THETAS
        θ values tried, read as ``theta_scale`` says (8 log-spaced values per row by default).
    theta_scale : {"rows", "errors"}, default="rows"
        "rows": each fold fits with θ x its training rows (the refit with θ x all rows);
        "errors": ``thetas`` are the estimator's θ.
    thresholds : None or sequence of int, default=None
        Numbers of quantile thresholds to try at the chosen (form, R); None: ``n_thresholds``.
    cv : int, CV splitter or iterable of (train, test) index pairs, default=5
        An int: that many stratified, shuffled folds (fewer if a class is smaller), seeded by
        ``random_state``. A splitter (``StratifiedKFold``, ``GroupKFold`` with ``groups`` given
        to :meth:`fit`, ``PredefinedSplit``, ...) or a list of folds is used as given.
    select : {"min", "0.1pt", "1se"}, default="0.1pt"
        The lowest mean CV error (ties: the simplest, as ``ties`` says); the lowest mean CV
        error plus 0.1 point per mean literal; or the simplest setting within one standard
        error of the lowest. The refit's rule is then pruned
        (:func:`rulelearn.prune.prune_model`) unless ``prune`` is False.
    more_cut_points : sequence of {"quantile", "tree", "both"}, default=FIT_MORE_CUT_POINTS
        Cut points also tried at the chosen (form, R), besides ``cut_points``, on the same
        folds; the CV picks among all the rows.
    more_methods : sequence of learner names, default=()
        Other learners (e.g. ``("cg",)``) whose whole search also runs on the same folds and
        grids; the CV picks among all the rows and the refit uses the chosen row's learner
        (``method_``).
    prune : bool, default=True
        Drop each literal or clause of the refit's rule whose removal does not raise its
        training objective (False: the rule as the learner found it).
    ties : {"literals", "theta"}, default="literals"
        What "simplest" means: "literals", fewest mean literals, then the larger θ, smaller
        R, DNF; "theta", the larger θ first, then the same (the benchmark's θ tuning).
    halving : "auto", None or (folds, cells), default="auto"
        Successive halving over (form, R): every cell on the first fold, the 2 best on all
        (there from the start that won on the first fold when ``start`` is "best", at the θ
        near the first fold's choices; :func:`~rulelearn.model_selection.fit_select`).
    n_jobs : int or None, default=None
        Processes for the folds, this one and ``n_jobs`` - 1 workers (-1: every core); the
        same choice whatever the number.
    scheduler : str or None, default=None
        A dask scheduler address (``tcp://10.0.0.5:8786``; needs ``rulelearn[dask]``): the
        folds run on that cluster instead (``n_jobs`` unused), with the same result; the refit
        runs here. :meth:`fit` connects (5 s at most, else a ``ClusterError``) and disconnects.
    random_state : int, default=0
        Seed of the folds of an int ``cv``.
    method, max_iter, n_thresholds, pos_label, binarize, disable_cost, clause_solver, \
time_limit, start, lp_rows, class_weight, cut_points, certify, sums, polish, perturb
        Passed to every fit, as in :class:`~rulelearn.estimator.BooleanRuleClassifier`.

    Attributes
    ----------
    best_estimator_ : BooleanRuleClassifier, the refit on all rows at the chosen setting
    best_params_ : dict, the chosen ``form``, ``max_rules``, ``theta`` (on ``theta_scale``)
        and ``n_thresholds``; ``cv_results_["params"][best_index_]``
    best_index_ : int, the chosen row of ``cv_results_``
    best_score_ : float, mean validation accuracy of the chosen setting (weighted as the
        loss is, by ``class_weight``)
    form_, max_rules_, theta_ : the chosen setting; ``theta_`` is the refit's θ in errors
    method_ : str, the learner of the refit (``method`` unless ``more_methods`` won)
    cv_results_ : dict of arrays, one entry per setting tried (as ``GridSearchCV``'s):
        ``params``, ``param_form``, ``param_max_rules``, ``param_theta``,
        ``param_n_thresholds``, ``split<k>_test_score``, ``mean_test_score``,
        ``std_test_score``, ``rank_test_score``, ``mean_test_error``, ``sem_test_error``,
        ``mean_literals``, ``max_clauses``
    selection_ : :class:`~rulelearn.model_selection.Selection`, everything the CV did
    n_splits_ : int, folds used
    rule_, classes_, pos_label_, literals_, n_features_in_, feature_names_in_, n_iter_, \
fit_stats_, clause_precision_, default_precision_
        Those of ``best_estimator_``.
    """

    _parameter_constraints = CV_PARAMETERS

    def __init__(self, *, forms=DEFAULT_FORMS, rules=DEFAULT_RULES, thetas=FIT_THETAS,
                 theta_scale="rows", thresholds=None, cv=5, select=DEFAULT_SELECT,
                 halving="auto", n_jobs=None, scheduler=None, random_state=0, method="bcd",
                 max_iter=100, n_thresholds=10, pos_label=None, binarize="auto",
                 disable_cost=0.0, clause_solver="lp", time_limit=60.0, start="best",
                 lp_rows="auto", class_weight=None, cut_points="quantile", certify=False,
                 ties="literals", prune=True, more_cut_points=FIT_MORE_CUT_POINTS,
                 sums=None, polish=False, perturb=0, more_methods=()):
        self.forms = forms
        self.rules = rules
        self.thetas = thetas
        self.theta_scale = theta_scale
        self.thresholds = thresholds
        self.cv = cv
        self.select = select
        self.ties = ties
        self.halving = halving
        self.n_jobs = n_jobs
        self.scheduler = scheduler
        self.random_state = random_state
        self.method = method
        self.max_iter = max_iter
        self.n_thresholds = n_thresholds
        self.pos_label = pos_label
        self.binarize = binarize
        self.disable_cost = disable_cost
        self.clause_solver = clause_solver
        self.time_limit = time_limit
        self.start = start
        self.lp_rows = lp_rows
        self.class_weight = class_weight
        self.cut_points = cut_points
        self.certify = certify
        self.prune = prune
        self.more_cut_points = more_cut_points
        self.sums = sums
        self.polish = polish
        self.perturb = perturb
        self.more_methods = more_methods

    def fit(self, X, y, groups=None, progress=None):
        """Choose the setting by CV, refit on all of ``(X, y)``; returns ``self``.

        ``groups``: group labels for a group splitter ``cv``. ``progress(form, R, done,
        total)``: called after each fold of each (form, R) (see
        :func:`~rulelearn.model_selection.select_setting`).
        """
        from rulelearn.cluster import dask_client
        from rulelearn.model_selection import fit_select

        validate_params(self)
        template = BooleanRuleClassifier(**{name: getattr(self, name) for name in PASSED})
        if hasattr(X, "toarray"):  # sparse: the folds take rows of a dense copy
            X = X.toarray()
        y = training_data(self, X, y)[1]  # the estimator's messages, before any fold
        self._classes(y)
        with dask_client(self.scheduler) as client:
            model, selection = fit_select(
                template, X, y, thetas=self.thetas, rules=self.rules, forms=self.forms,
                thresholds=self.thresholds, cv=self.cv, seed=int(self.random_state),
                progress=progress, n_jobs=self.n_jobs, select=self.select,
                theta_scale=self.theta_scale, halving=self.halving, groups=groups,
                client=client, ties=self.ties, prune=self.prune,
                more_cut_points=tuple(self.more_cut_points),
                more_methods=tuple(self.more_methods))
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)  # nothing of an earlier fit survives
        self.__dict__.update({k: v for k, v in vars(model).items()
                              if k.endswith("_") and not k.startswith("_")})
        self.best_estimator_ = model
        self.selection_ = selection
        self.cv_results_ = cv_results(selection)
        self.best_index_ = selection.chosen
        self.best_params_ = self.cv_results_["params"][selection.chosen]
        self.best_score_ = 1.0 - selection.best.mean_error
        self.n_splits_ = selection.n_folds
        self.form_, self.max_rules_, self.theta_ = model.form, model.max_rules, model.theta
        self.method_ = model.method
        return self

    def select_setting(self, X, y, groups=None, progress=None):
        """The CV alone, on every row of ``(X, y)``: the
        :class:`~rulelearn.model_selection.Selection` :meth:`fit` would choose from, without
        the refit (nor ``fit``'s sample of a large table); what the benchmark's inner CV runs.
        Sets no attribute."""
        from rulelearn.model_selection import HALVING, PICK_START, THETA_SPAN, select_setting

        validate_params(self)
        template = BooleanRuleClassifier(**{name: getattr(self, name) for name in PASSED})
        selection = select_setting(
            template, X, y, thetas=self.thetas, rules=self.rules, forms=self.forms,
            thresholds=self.thresholds, cv=self.cv, seed=int(self.random_state),
            progress=progress, n_jobs=self.n_jobs, theta_scale=self.theta_scale,
            halving=HALVING if self.halving == "auto" else self.halving, groups=groups,
            ties=self.ties, pick_start=PICK_START, theta_span=THETA_SPAN)
        return selection if self.select == "min" else selection.chosen_by(self.select)

    def fit_path(self, X, y, thetas, sample_weight=None, warm_across_theta=True,
                 workspace=None):
        """Not available: the CV chooses θ itself (use ``BooleanRuleClassifier.fit_path``)."""
        raise TypeError("BooleanRuleClassifierCV chooses theta by CV; fit a θ path with "
                        "BooleanRuleClassifier.fit_path")

    def _validate_params(self):
        validate_params(self)


def cv_results(selection) -> dict:
    """``GridSearchCV``-style ``cv_results_`` of a :class:`~rulelearn.model_selection.Selection`:
    one entry per row (setting tried), in the selection's order; scores are 1 - error."""
    from scipy.stats import rankdata

    rows = selection.rows
    errors = np.array([row.fold_errors for row in rows], dtype=float).reshape(len(rows), -1)
    mean_error = np.array([row.mean_error for row in rows])
    params = []
    for row in rows:
        setting = dict(row.setting)
        setting.setdefault("n_thresholds", None)
        params.append(setting)
    results: dict = {
        "params": params,
        "param_form": np.array([row.form for row in rows], dtype=object),
        "param_max_rules": np.array([row.max_rules for row in rows]),
        "param_theta": np.array([row.theta for row in rows]),
        "param_n_thresholds": np.array([row.n_thresholds for row in rows], dtype=object),
    }
    for k in range(errors.shape[1]):
        results[f"split{k}_test_score"] = 1.0 - errors[:, k]
    results["mean_test_score"] = 1.0 - mean_error
    results["std_test_score"] = errors.std(axis=1) if errors.size else np.zeros(len(rows))
    results["rank_test_score"] = rankdata(mean_error, method="min").astype(np.int32)
    results["mean_test_error"] = mean_error
    results["sem_test_error"] = np.array([row.sem for row in rows])
    results["mean_literals"] = np.array([row.mean_literals for row in rows])
    results["max_clauses"] = np.array([row.max_clauses for row in rows])
    return results
