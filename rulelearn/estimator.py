"""``BooleanRuleClassifier``: the scikit-learn face of the rule learners.

CNF rules are learned natively. A DNF rule for ``y`` is, by De Morgan, the
negation of a CNF rule for ``not y`` over the complemented features: the CNF
clause that selects "not literal j" becomes the DNF term that requires literal
j. The objective is the same Hamming loss + θ·sparsity in both views.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from rulelearn._labels import default_positive, same_label
from rulelearn._params import check_param, options, validate_params
from rulelearn._rule_params import RULE_PARAMETERS
from rulelearn._traps import numbers_as_numbers, warn_traps
from rulelearn._utils import accuracy
from rulelearn.binarize import (
    QuantileBinarizer,
    ZeroOneBinarizer,
    add_sums,
    as_frame,
    check_sums,
)
from rulelearn.errors import DataError
from rulelearn.learners import run_learner
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.problem import CNFProblem
from rulelearn.proba import RuleProba, fit_proba
from rulelearn.rules import Clause, Literal, Rule

#: The parameters a θ path's binarization, problem and clause solver do not depend on
#: (``fit_path``'s ``workspace``).
PATH_FREE = ("max_rules", "start", "theta")
#: The entry of a ``fit_path`` workspace that holds the clause LPs' optima.
LP_ANSWERS = "lp answers"
#: Read from the declared constraints (:data:`rulelearn._rule_params.RULE_PARAMETERS`).
METHODS = options(RULE_PARAMETERS, "method")
FORMS = options(RULE_PARAMETERS, "form")
CLAUSE_SOLVERS = options(RULE_PARAMETERS, "clause_solver")


class BooleanRuleClassifier(ClassifierMixin, BaseEstimator):
    """Learn a two-level Boolean rule (DNF or CNF) by LP relaxation.

    Parameters
    ----------
    method : {"bcd", "am", "sc", "ocrl", "cg"}, default="bcd"
        Block coordinate descent, alternating minimization, set covering, one clause, or
        column generation (conjunctions priced by a beam search, the rule picked by a MIP
        over them; seeded with the set-covering rule).
    form : {"dnf", "cnf"}, default="dnf"
        OR of ANDs, or AND of ORs.
    max_rules : int, default=5
        Number of clauses R (unused clauses are disabled and cost nothing).
    theta : float, default=1.0
        Sparsity weight: objective = total Hamming loss + theta * number of literals.
    max_iter : int, default=100
        BCD / AM iterations at most.
    n_thresholds : int, default=10
        Quantile thresholds per numeric column when ``X`` is binarized (and at most that many
        tree cuts, see ``cut_points``).
    pos_label : label or None, default=None
        The class the rule predicts; None means the minority class of ``y``.
    binarize : {"auto", True, False}, default="auto"
        "auto": a 0/1 ``X`` gives two literals per column, ``x == 1`` and ``x == 0``
        (:class:`~rulelearn.binarize.ZeroOneBinarizer`), anything else is binarized by
        quantiles. True: a 0/1 ``X`` is the literal matrix itself (one literal, ``x == 1``,
        per column). False: every ``X`` is binarized by quantiles.
    disable_cost : float, default=0.0
        Sparsity cost of the "always true" feature that disables a clause.
    clause_solver : {"lp", "mip"}, default="lp"
        LP relaxation with best-threshold rounding, or exact MIP per clause.
    time_limit : float, default=60.0
        Seconds per clause MIP (``clause_solver="mip"`` only).
    start : {"sc", "tree", "best", "cg"}, default="best"
        Where BCD and AM start: the set-covering rule (the paper's), a rule read off a CART
        tree's negative leaves, or both (the lower objective is kept; ``rulelearn fit``'s
        default too), or the rule of method "cg" (never worse than it). Other methods ignore
        it. The benchmark's paper methods pass "sc".
    class_weight : None, "balanced" or dict, default=None
        Weights of the classes in the rule's loss (the Hamming loss the LPs minimize and the
        CV error of :func:`~rulelearn.model_selection.fit_select`), times ``sample_weight``.
        "balanced": each class weighs as much as the other (a row of class c counts
        ``total / (2 * total_c)``, by sample weight), so the minority class is not ignored;
        a dict maps a class to its weight (a positive number; a class left out weighs 1).
        The binarizer's quantiles, the default ``pos_label`` and the clause precisions of
        :meth:`predict_proba` stay those of the rows' own weights.
    cut_points : {"quantile", "tree", "both"}, default="quantile"
        Numeric split points of the binarizer: the quantiles (the paper's), those of a
        shallow tree per column grown against the training labels (a cut where the classes
        change, e.g. in a tail with 3 % positives), or both
        (:class:`~rulelearn.binarize.QuantileBinarizer`).
    lp_rows : "auto", None or int, default="auto"
        Rows of the clause LP. The LP only proposes clauses; rounding and every objective
        use all rows. An int ``m``: the LP is built on a random sample of ``m`` of its rows
        (the positives of the CNF problem, weights scaled to their total), and BCD / AM go
        on with samples of 2m, 4m, 8m and 16m rows while the larger sample lowers the
        objective on all rows (SC and OCRL use the first sample only); a tree start is then
        grown on 20,000 sampled rows. None: every row (the paper's LP). "auto": None up to
        :data:`LP_SAMPLE_ABOVE` training rows (so none of the paper's datasets is sampled),
        1,000 above.
    certify : bool, default=False
        Also compute a lower bound on the objective of every rule of the form with at most
        ``max_rules`` clauses (:func:`rulelearn.certify.certify`, on the training data):
        ``fit_stats_`` then has ``lower_bound`` and ``gap`` (relative to ``objective``).
    sums : None or dict, default=None
        Derived columns: ``{"total": ["day_charge", "eve_charge"]}`` adds a column ``total``,
        the sum of those numeric columns (missing where any of them is), before binarizing;
        a literal on it reads ``total <= 73.4``. Computed again from the raw columns at
        predict time (:func:`rulelearn.binarize.add_sums`); ``X`` keeps its own columns.
    polish : bool, default=False
        BCD and AM: after the descent, add, drop or swap single literals of the rule (or
        disable a clause) while that lowers its objective (:mod:`rulelearn.learners.polish`).
    perturb : int, default=0
        BCD and AM: then that many rounds of iterated local search (kick one or two clauses
        at random, with a fixed seed; descend and polish again; keep the rule when not worse;
        :mod:`rulelearn.learners.perturb`). Each round costs about one more descent.

    Attributes
    ----------
    rule_ : Rule
    classes_ : ndarray of shape (2,)
    pos_label_ : the positive class
    literals_ : list of Literal, the binary features the rule was chosen from
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape ``(n_features_in_,)``
        The columns of a DataFrame ``X`` (as text); absent when ``X`` had no column names.
    n_iter_ : int
    fit_stats_ : dict with ``objective``, ``n_lp``, ``simplex_iterations``, ``fit_seconds``
    clause_precision_ : ndarray of shape (n_clauses,)
        Training precision per clause (DNF), or share of positives among the training rows the
        clause rejects (CNF); see :meth:`predict_proba`.
    default_precision_ : float
        Share of positives among the training rows no clause accepts (DNF) / every clause
        accepts (CNF).
    """

    _parameter_constraints = RULE_PARAMETERS

    def __init__(self, *, method="bcd", form="dnf", max_rules=5, theta=1.0, max_iter=100,
                 n_thresholds=10, pos_label=None, binarize="auto", disable_cost=0.0,
                 clause_solver="lp", time_limit=60.0, start="best", lp_rows="auto",
                 class_weight=None, cut_points="quantile", certify=False, sums=None,
                 polish=False, perturb=0):
        self.method = method
        self.form = form
        self.max_rules = max_rules
        self.theta = theta
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
        self.sums = sums
        self.polish = polish
        self.perturb = perturb

    # ------------------------------------------------------------------ fitting
    def fit(self, X, y, sample_weight=None):
        """Learn the rule; returns ``self``.

        ``sample_weight`` (non-negative) counts each row that many times: an integer weight k
        gives the rule of k repeated rows (weighted binarizer quantiles, weighted LP costs,
        the default ``pos_label`` by total weight), and a row of weight 0 is as if removed.
        """
        fitted = self.fit_path(X, y, [self.theta], sample_weight=sample_weight)[0]
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)  # nothing of an earlier fit survives
        self.__dict__.update({k: v for k, v in fitted.__dict__.items() if k.endswith("_")})
        return self

    def fit_path(self, X, y, thetas, sample_weight=None,
                 warm_across_theta=True, workspace=None) -> list["BooleanRuleClassifier"]:
        """One fitted copy per θ in ``thetas`` (in that order), sharing one LP model.

        The data are binarized once and one HiGHS model serves every θ, walked
        from the largest θ to the smallest. An LP met before at a larger θ (same
        negative weights) starts from that solve's final basis: several times
        fewer simplex iterations, the same optimum. The tie-break costs make
        every LP's optimum unique, so each model equals a separate ``fit`` with
        its θ (up to ties closer than the solver's tolerance; none seen in
        ``make perf``). ``warm_across_theta=False`` solves every LP from scratch.
        Method ``"cg"`` is the exception: on a path it keeps the columns priced at
        the larger θ values, so its rule at one θ can differ from a separate
        ``fit`` (see :mod:`rulelearn.learners.cg`).

        ``workspace`` (a dict the caller keeps): paths on the same ``X``, ``y`` and
        ``sample_weight`` objects whose parameters differ only in :data:`PATH_FREE` share
        one binarization, problem and clause solver (its LP, kept bases and answers: the
        CV's starts and numbers of clauses on one fold ask many of the same LPs). Its
        :data:`LP_ANSWERS` entry holds the clause LPs' optima (picklable): given to a new
        workspace on the same data, they are not solved again.
        """
        self._validate_params()
        thetas = [float(t) for t in np.atleast_1d(thetas)]
        for theta in thetas:
            check_param(type(self), "theta", theta)
        start = time.perf_counter()
        key = (tuple((name, repr(value)) for name, value in sorted(self.get_params().items())
                     if name not in PATH_FREE), warm_across_theta)
        shared = None if workspace is None else workspace.get(key)
        if shared is None or shared[0] is not X or shared[1] is not y \
                or shared[2] is not sample_weight:
            answers = None if workspace is None else \
                workspace.setdefault(LP_ANSWERS, {}).setdefault(key, {})
            shared = (X, y, sample_weight,
                      self._prepare(X, y, sample_weight, warm_across_theta, answers))
            if workspace is not None:
                workspace[key] = shared
        frame, y, sample_weight, classes, pos_label, positive, binarizer, literals, \
            loss_weight, problem, solver = shared[3]
        setup_seconds = time.perf_counter() - start
        fitted: list = [None] * len(thetas)
        for index in sorted(range(len(thetas)), key=lambda i: -thetas[i]):
            begin, lps, iterations = time.perf_counter(), solver.n_solves, solver.total_iterations
            result = run_learner(self.method, solver, thetas[index], max_rules=self.max_rules,
                                 max_iter=self.max_iter, start=self.start, polish=self.polish,
                                 perturb=self.perturb)
            model = clone(self).set_params(theta=thetas[index])
            model.classes_ = classes
            model.pos_label_ = pos_label
            model.binarizer_ = binarizer
            model.literals_ = literals
            n_raw = frame.shape[1] - len(check_sums(self.sums))  # the sums come last
            model.n_features_in_ = n_raw
            if isinstance(X, pd.DataFrame):
                model.feature_names_in_ = np.asarray([str(c) for c in frame.columns[:n_raw]],
                                                     dtype=object)
            model.rule_ = rule_from_clauses(result.W, literals, self.form)
            proba = fit_proba(model.rule_, frame, positive, sample_weight)
            model.clause_precision_ = np.asarray(proba.clause_precision)
            model.default_precision_ = proba.default_precision
            model.n_iter_ = result.n_iter
            model.fit_stats_ = {
                "objective": result.objective,
                "objective_history": result.history,
                "n_lp": solver.n_solves - lps,
                "simplex_iterations": solver.total_iterations - iterations,
                "fit_seconds": time.perf_counter() - begin + setup_seconds / len(thetas),
                "n_rows_merged": len(problem.w_pos) + len(problem.w_neg),
                "n_literals_available": len(literals),
                "lp_rows": [size if size is not None else len(problem.w_pos)
                            for size in solver.lp_sizes],
            }
            if self.certify:
                from rulelearn.certify import certify_fitted

                certify_fitted(model, frame, y, loss_weight)  # the objective's weights
            fitted[index] = model
        return fitted

    def _prepare(self, X, y, sample_weight, warm_across_theta, lp_answers=None):
        """What a θ path starts from: the training data checked, binarized, as a CNF problem
        (DNF: the complements, by De Morgan), and the clause solver on it (sharing
        ``lp_answers``, if given)."""
        raw, y = training_data(self, X, y)
        raw = numbers_as_numbers(raw)  # numbers stored as text: thresholds, not categories
        warn_traps(raw)  # identifiers, row numbers: warned about, kept (the caller's columns)
        frame = add_sums(raw, self.sums, check=True)
        sample_weight = check_weights(sample_weight, len(y))
        classes, pos_label = self._classes(y, sample_weight)
        positive = np.asarray(y) == pos_label
        binarizer, A, literals = self._binarize(frame, sample_weight, positive)
        loss_weight = class_sample_weight(self.class_weight, y, classes, sample_weight)
        if self.form == "cnf":
            problem = CNFProblem.from_data(A, positive, loss_weight)
        else:
            problem = CNFProblem.from_data(1 - A, ~positive, loss_weight)
        del A  # the binarized matrix lives on in the problem only
        n_rows = len(y) if loss_weight is None else int(np.count_nonzero(loss_weight))
        solver = ClauseSolver(problem, disable_cost=self.disable_cost,
                              exact=self.clause_solver == "mip", time_limit=self.time_limit,
                              warm_across_theta=warm_across_theta,
                              lp_rows=lp_sample_sizes(self.lp_rows, n_rows),
                              lp_answers=lp_answers)
        return (frame, y, sample_weight, classes, pos_label, positive, binarizer, literals,
                loss_weight, problem, solver)

    def _validate_params(self):
        validate_params(self)

    def _classes(self, y, sample_weight=None):
        classes = np.unique(y)
        if len(classes) != 2:
            shown = ", ".join(map(str, classes[:5]))
            raise DataError(f"Only binary classification is supported: a Boolean rule needs "
                            f"exactly 2 classes; y has {len(classes)} "
                            f"class{'' if len(classes) == 1 else 'es'} "
                            f"({shown}{', ...' if len(classes) > 5 else ''})"
                            f"{_continuous_hint(y)}"
                            + ("; BooleanRuleListClassifier (rulelearn.rule_list) learns a "
                               "rule list for more" if len(classes) > 2 else ""))
        if self.pos_label is None:
            pos_label = default_positive(y, sample_weight)
            pos_label = classes[[same_label(c, pos_label) for c in classes].index(True)]
        else:
            matches = [c for c in classes if same_label(c, self.pos_label)]
            if not matches:
                raise DataError(f"pos_label {self.pos_label!r} is not a class of y "
                                f"(classes: {', '.join(map(str, classes))})")
            pos_label = matches[0]
        return classes, pos_label

    def _binarize(self, frame, sample_weight=None, positive=None):
        used = frame if sample_weight is None else frame[sample_weight > 0]
        if self.binarize is True:
            values = frame.to_numpy(dtype=float)
            if np.isnan(values).any() or not np.isin(values, (0.0, 1.0)).all():
                raise DataError("binarize=True needs a matrix of 0/1 values only")
            literals = [Literal(str(c), "==", 1) for c in frame.columns]
            return None, values.astype(np.uint8), literals
        if self.binarize == "auto" and is_binary(used):  # x == 1 and its negation x == 0
            zero_one = ZeroOneBinarizer().fit(frame)
            return zero_one, zero_one.transform(frame), list(zero_one.literals_)
        binarizer = QuantileBinarizer(n_thresholds=self.n_thresholds,
                                      cut_points=self.cut_points).fit(
            frame, positive, sample_weight=sample_weight)
        if not binarizer.literals_:
            raise DataError("no usable feature: every column is constant or empty")
        return binarizer, binarizer.transform(frame), list(binarizer.literals_)

    # ------------------------------------------------------------------ prediction
    def predict(self, X):
        """Class labels: ``pos_label_`` where the rule holds, the other class elsewhere."""
        check_is_fitted(self, "rule_")
        frame = input_frame(self, X)
        held = self.rule_.evaluate(frame)
        negative = self.classes_[0] if self.classes_[1] == self.pos_label_ else self.classes_[1]
        return np.where(held, self.pos_label_, negative)

    def score(self, X, y, sample_weight=None):
        """Accuracy of :meth:`predict` on ``X`` against ``y`` (any two labels, floats included)."""
        return accuracy(self, X, y, sample_weight)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags

    def predict_proba(self, X):
        """Probabilities, columns ordered as ``classes_``, from the clause deciding each row.

        DNF: a row some clauses accept gets the highest (sample-weighted) training precision
        among them; a row no clause accepts, the share of positives among the training rows no
        clause accepts. CNF, the dual: a row some clauses reject gets the lowest share of
        positives among the training rows each of them rejects; a row every clause accepts,
        the rule's training precision.

        The probabilities agree with :meth:`predict`, which follows the rule: a row the rule
        accepts gets ``max(precision, 0.5)`` for ``pos_label_``, a row it rejects
        ``min(precision, 0.5)`` (a clause whose training precision contradicts the rule gives
        0.5), and a tie at 0.5 is moved by one ulp so that ``argmax`` is the predicted class.
        Rows keep their order within each side (ROC-AUC); see :mod:`rulelearn.proba`.
        """
        second = self._second_class_probability(X)
        return np.column_stack([1 - second, second])

    def decision_function(self, X):
        """``predict_proba(X)[:, 1] - 0.5``: positive exactly where :meth:`predict` gives
        ``classes_[1]``, and in the same order as the probabilities."""
        return self._second_class_probability(X) - 0.5

    def _second_class_probability(self, X) -> np.ndarray:
        check_is_fitted(self, "clause_precision_")
        held, positive = self._proba().decide(self.rule_, input_frame(self, X))
        if self.classes_[1] == self.pos_label_:
            second, predicted_second = positive, held
        else:
            second, predicted_second = 1 - positive, ~held
        # argmax takes the first column on a tie, and the decision must be > 0
        return np.where(predicted_second & (second <= 0.5), np.nextafter(0.5, 1.0), second)

    def _proba(self) -> RuleProba:
        return RuleProba(tuple(map(float, self.clause_precision_)), self.default_precision_)


#: ``lp_rows="auto"`` samples the clause LP above this many training rows: more than any
#: training set of the paper's datasets (MAGIC has 19,020 rows in all), so their rules are
#: those of the full LP.
LP_SAMPLE_ABOVE = 20_000
LP_SAMPLE_AUTO = 1_000  #: the first sample of ``lp_rows="auto"`` above that
LP_SAMPLE_STEPS = 5  #: samples of m, 2m, 4m, 8m, 16m rows


def lp_sample_sizes(lp_rows, n_rows: int):
    """The clause LP's sample sizes (:class:`~rulelearn.learners.clause.ClauseSolver`'s
    ``lp_rows``) for the estimator's ``lp_rows`` and ``n_rows`` training rows."""
    if lp_rows == "auto":
        lp_rows = LP_SAMPLE_AUTO if n_rows > LP_SAMPLE_ABOVE else None
    if lp_rows is None:
        return None
    return tuple(int(lp_rows) << k for k in range(LP_SAMPLE_STEPS))


def rule_from_clauses(W: np.ndarray, literals: list[Literal], form: str) -> Rule:
    """Rule over ``literals`` from a clause matrix (always-true last, disabled clauses dropped)."""
    clauses = tuple(Clause(tuple(literals[j] for j in np.flatnonzero(clause[:-1])))
                    for clause in np.asarray(W, dtype=bool) if not clause[-1])
    return Rule(form, clauses)


def class_sample_weight(class_weight, y, classes=None, sample_weight=None):
    """Per row of ``y``, ``sample_weight`` (1 if None) times the weight ``class_weight`` gives
    its class; None when both are None (every row weighs 1).

    ``"balanced"``: class ``c`` weighs ``total / (n_classes * total_c)``, the totals by sample
    weight (so that integer weights act as repeated rows); a dict: its value for ``c`` (a
    finite number > 0; a class left out weighs 1). :class:`DataError` for a dict naming a
    label that is not a class of ``y``, or a weight that is not a finite number > 0.
    """
    if class_weight is None:
        return sample_weight
    y = np.asarray(y)
    classes = np.unique(y) if classes is None else classes
    base = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    members = [np.asarray(y == c, dtype=bool) for c in classes]
    if isinstance(class_weight, str):  # "balanced"
        total = float(base.sum())
        per_class = [total / (len(classes) * float(base[m].sum())) if base[m].sum() > 0 else 1.0
                     for m in members]
    else:
        for label, weight in class_weight.items():
            if not any(same_label(label, c) for c in classes):
                raise DataError(f"class_weight names {label!r}, which is not a class of y "
                                f"(classes: {', '.join(map(str, classes))})")
            if (isinstance(weight, (bool, np.bool_)) or not isinstance(weight, (int, float,
                                                                                 np.number))
                    or not np.isfinite(weight) or weight <= 0):
                raise DataError(f"class_weight[{label!r}] must be a finite number > 0, "
                                f"got {weight!r}")
        per_class = [next((float(w) for k, w in class_weight.items() if same_label(k, c)), 1.0)
                     for c in classes]
    weights = base.copy()
    for mask, weight in zip(members, per_class):
        weights[mask] *= weight
    return weights


def check_weights(sample_weight, n_samples):
    if sample_weight is None:
        return None
    weights = np.asarray(sample_weight, dtype=float).ravel()
    if weights.shape != (n_samples,):
        raise DataError(f"sample_weight has {weights.size} values for {n_samples} samples")
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise DataError("sample_weight must be finite and non-negative")
    if not np.any(weights > 0):
        raise DataError("sample_weight is zero everywhere; nothing to fit")
    return weights


def is_binary(frame: pd.DataFrame) -> bool:
    for name in frame.columns:
        column = frame[name]
        if not (pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)):
            return False
        values = column.to_numpy(dtype=float)
        if np.isnan(values).any() or not np.isin(values, (0.0, 1.0)).all():
            return False
    return True



def _continuous_hint(y) -> str:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # its integer test on inf
            continuous = type_of_target(y).startswith("continuous")
    except (ValueError, TypeError):  # labels sklearn cannot type (mixed objects, inf)
        continuous = False
    return "; y looks continuous (a regression target?)" if continuous else ""


def _names_mismatch(fitted: list, given: list) -> str:
    """scikit-learn's message for feature names that differ from the fitted ones."""
    message = "The feature names should match those that were passed during fit.\n"
    unseen = [n for n in given if n not in fitted]
    missing = [n for n in fitted if n not in given]
    if unseen:
        message += "Feature names unseen at fit time:\n" + "".join(f"- {n}\n" for n in unseen)
    if missing:
        message += "Feature names seen at fit time, yet now missing:\n" + \
            "".join(f"- {n}\n" for n in missing)
    if not unseen and not missing:
        message += "Feature names must be in the same order as they were in fit.\n"
    return message


def training_data(estimator, X, y) -> tuple[pd.DataFrame, np.ndarray]:
    """``(X as a frame, y as an array)`` for ``estimator``'s fit, with scikit-learn's checks
    and messages (no labels, rows that do not match, an empty X, missing labels)."""
    if y is None:
        raise DataError("BooleanRuleClassifier requires y to be passed, "
                        "but the target y is None")
    frame = as_frame(X)
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = column_or_1d(y, warn=True)  # DataConversionWarning, as in scikit-learn
    if len(frame) != len(y):
        raise DataError(f"X has {len(frame)} rows but y has {len(y)} labels")
    for axis, what in ((0, "sample"), (1, "feature")):
        if frame.shape[axis] == 0:
            raise DataError(f"Found array with 0 {what}(s) (shape={frame.shape}) while a "
                            f"minimum of 1 is required by {type(estimator).__name__}.")
    if pd.isna(pd.Series(y, dtype=object)).any():
        raise DataError("y has missing labels")
    return frame, y


def input_frame(estimator, X) -> pd.DataFrame:
    """``X`` as a frame with the fitted columns; scikit-learn's checks and messages on the
    number of features and their names (a frame is matched by its column names as text)."""
    names = getattr(estimator, "feature_names_in_", None)
    frame = as_frame(X, names)
    if frame.shape[1] != estimator.n_features_in_:
        raise DataError(f"X has {frame.shape[1]} features, but {type(estimator).__name__} is "
                        f"expecting {estimator.n_features_in_} features as input.")
    given = isinstance(X, pd.DataFrame)
    if given and names is None:
        warnings.warn(f"X has feature names, but {type(estimator).__name__} was fitted without "
                      "feature names", UserWarning, stacklevel=3)
        frame = frame.set_axis([f"x{j}" for j in range(frame.shape[1])], axis=1)
        return add_sums(frame, getattr(estimator, "sums", None))
    if not given and names is not None:
        warnings.warn(f"X does not have valid feature names, but {type(estimator).__name__} was "
                      "fitted with feature names", UserWarning, stacklevel=3)
    if given and names is not None and [str(c) for c in frame.columns] != list(names):
        raise DataError(_names_mismatch(list(names), [str(c) for c in frame.columns]))
    return add_sums(frame, getattr(estimator, "sums", None))
