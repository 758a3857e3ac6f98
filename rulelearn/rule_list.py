"""Multi-class targets as ordered rule lists: ``IF rule_a THEN a ELIF rule_b THEN b ELSE c``.

One Boolean rule per class but the last, learned one class against the rest, in a fixed class
order. The most frequent class is the ``ELSE``, so that a list of empty rules predicts the
majority class. The order of the others (``order="frequent"``, the default): the most frequent
first, then the next; each later rule is learned on the training rows that the earlier rules do
not claim (do not hold on): the rows it will see at prediction time. ``order="rarest"`` learns
them from the rarest up; a list of labels fixes the whole order, its last label being the
``ELSE``. The default, the more frequent first, was the more accurate on average over the
tables measured (see the docs, guide/parameters).

:class:`RuleList` is the value (evaluates, prints, round-trips through JSON);
:class:`BooleanRuleListClassifier` is the scikit-learn estimator, each step a
:class:`~rulelearn.estimator.BooleanRuleClassifier` with one setting;
:func:`fit_select_rule_list` chooses each step's setting (form, R, θ) by
:func:`rulelearn.model_selection.fit_select`, the CV of ``rulelearn fit``. The rule-list estimator
is separate from the binary one so that the binary path (``pos_label``, ``predict_proba``, its
model files) stays as it is. A rule list has no ``predict_proba``: a rule chosen for few literals
may claim more training rows of another class than of its own, and the class shares of the rows
each rule decides would then contradict ``predict``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted

from rulelearn._labels import label_order, same_label
from rulelearn._utils import accuracy
from rulelearn.errors import DataError, ParameterError, RuleError
from rulelearn.rules import Rule

#: The named class orders (a list of labels is the other choice).
ORDERS = ("frequent", "rarest")


@dataclass(frozen=True)
class RuleList:
    """``IF rules[0] THEN labels[0] ELIF rules[1] THEN labels[1] … ELSE default``."""

    labels: tuple
    rules: tuple[Rule, ...]
    default: object

    def __post_init__(self):
        if len(self.labels) != len(self.rules):
            raise RuleError(f"a rule list needs one label per rule; got {len(self.labels)} "
                            f"labels and {len(self.rules)} rules")

    def decide(self, X: pd.DataFrame) -> np.ndarray:
        """Per row, the index of the first rule that holds; ``len(rules)`` where none does."""
        out = np.full(len(X), len(self.rules))
        for index in reversed(range(len(self.rules))):
            out[self.rules[index].evaluate(X)] = index
        return out

    def predict(self, X: pd.DataFrame) -> np.ndarray:
        """Labels (object array): the label of the first rule that holds, else ``default``."""
        outcomes = np.empty(len(self.rules) + 1, dtype=object)
        outcomes[:] = [*self.labels, self.default]
        return outcomes[self.decide(X)]

    @property
    def classes(self) -> list:
        """The labels in list order, the default last."""
        return [*self.labels, self.default]

    @property
    def n_literals(self) -> int:
        return sum(rule.n_literals for rule in self.rules)

    @property
    def n_clauses(self) -> int:
        return sum(rule.n_clauses for rule in self.rules)

    @property
    def features(self) -> list[str]:
        """The distinct columns the rules read, in first-use order."""
        return list(dict.fromkeys(f for rule in self.rules for f in rule.features))

    def __str__(self) -> str:
        parts = [f"{'IF' if i == 0 else 'ELIF'} {_bracketed(rule)} THEN {label_text(label)}"
                 for i, (label, rule) in enumerate(zip(self.labels, self.rules))]
        return " ".join([*parts, f"ELSE {label_text(self.default)}"])

    def describe(self, target: str | None = None) -> str:
        """Several lines: each rule as :meth:`Rule.describe` prints it (``ELIF`` for the later
        ones), then the ``ELSE``."""
        def outcome(label):
            return f"{target} = {label_text(label)}" if target else f"predict {label_text(label)}"

        lines = []
        for i, (label, rule) in enumerate(zip(self.labels, self.rules)):
            lead = "IF" if i == 0 else "ELIF"
            if not rule.clauses:
                lines.append(f"{lead} {rule} THEN {outcome(label)}")
                continue
            text = rule.describe(label_text(label), target).splitlines()
            lines.append(f"{lead:<4} {text[0][4:]}")  # "IF  1. ..." -> "ELIF 1. ..."
            lines.extend(line if line.startswith("THEN") else " " + line for line in text[1:])
        lines.append(f"ELSE {outcome(self.default)}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        from rulelearn._io import to_native

        return {"steps": [{"label": to_native(label), "rule": rule.to_dict()}
                          for label, rule in zip(self.labels, self.rules)],
                "default": to_native(self.default)}

    @classmethod
    def from_dict(cls, data) -> "RuleList":
        """The list of ``{"steps": [{"label": ..., "rule": {...}}, ...], "default": ...}``;
        :class:`RuleError` names the step that is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list) \
                or "default" not in data:
            raise RuleError("a rule list must be an object with 'steps' (a list) and 'default'")
        labels, rules = [], []
        for i, step in enumerate(data["steps"], 1):
            if not isinstance(step, dict) or "label" not in step or "rule" not in step:
                raise RuleError(f"step {i} must be an object with 'label' and 'rule'")
            try:
                rules.append(Rule.from_dict(step["rule"]))
            except RuleError as exc:
                raise RuleError(f"step {i}: {exc}") from None
            labels.append(step["label"])
        return cls(tuple(labels), tuple(rules), data["default"])


def label_text(label) -> str:
    """A label as printed in a list: as is, or as a Python string literal when it has a
    character that does not print (a line break would start a line of its own)."""
    text = str(label)
    return text if text.isprintable() else repr(text)


def _bracketed(rule: Rule) -> str:
    text = str(rule)
    return text if rule.n_clauses <= 1 else f"[{text}]"


def _count(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def class_order(y, order="frequent", sample_weight=None) -> list:
    """The labels of ``y`` in rule-list order, the ``ELSE`` class last (see the module).

    Counts are total ``sample_weight``; a tie goes to the label that sorts first
    (:func:`~rulelearn._labels.label_order`). A list ``order`` must name every class once.
    """
    y = np.asarray(y)
    classes = list(np.unique(y))
    if isinstance(order, str):
        if order not in ORDERS:
            raise ParameterError(f"The 'order' parameter of BooleanRuleListClassifier must be "
                                 f"one of {{'frequent', 'rarest'}} or a list of the classes. "
                                 f"Got {order!r} instead.")
        weights = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, float)
        count = {i: float(weights[y == c].sum()) for i, c in enumerate(classes)}
        ranked = sorted(range(len(classes)), key=lambda i: (count[i], label_order(classes[i])))
        last = ranked.pop()  # the most frequent: the ELSE
        if order == "frequent":
            ranked.sort(key=lambda i: -count[i])  # stable: ties keep the label order
        return [classes[i] for i in [*ranked, last]]
    given = list(order)
    found = []
    for value in given:
        matches = [c for c in classes if same_label(c, value)]
        if len(matches) != 1:
            raise ParameterError(f"order names {value!r}, which is not one class of y "
                                 f"(classes: {', '.join(map(str, classes))})")
        found.append(matches[0])
    if len(set(map(str, found))) != len(found) or len(found) != len(classes):
        raise ParameterError(f"order must name each class of y once (classes: "
                             f"{', '.join(map(str, classes))}); got {given!r}")
    return found


class BooleanRuleListClassifier(ClassifierMixin, BaseEstimator):
    """An ordered list of Boolean rules, one per class but the last (any number of classes).

    Parameters
    ----------
    estimator : BooleanRuleClassifier or None, default=None
        The setting of every step (None: ``BooleanRuleClassifier()``); each step fits a clone
        with ``pos_label=True`` on "this class" against the rest of the unclaimed rows.
    order : {"frequent", "rarest"} or list of labels, default="frequent"
        The class order (see :mod:`rulelearn.rule_list`); the last class is the ``ELSE``.

    Attributes
    ----------
    rule_list_ : RuleList
    classes_ : ndarray, the sorted classes
    steps_ : list of fitted BooleanRuleClassifier or None (a step with a constant rule)
    n_features_in_ : int
    feature_names_in_ : ndarray of str (only when ``X`` had column names)
    """

    def __init__(self, *, estimator=None, order="frequent"):
        self.estimator = estimator
        self.order = order

    def fit(self, X, y, sample_weight=None):
        """Learn the list, each step with the estimator's own setting; returns ``self``."""
        def fit_step(template, X_step, y_step, w_step):
            return clone(template).fit(X_step, y_step, sample_weight=w_step), None

        return self._fit_steps(X, y, sample_weight, fit_step)[0]

    def template(self):
        from rulelearn.estimator import BooleanRuleClassifier

        base = BooleanRuleClassifier() if self.estimator is None else self.estimator
        if not isinstance(base, BooleanRuleClassifier):
            raise ParameterError(f"The 'estimator' parameter of BooleanRuleListClassifier must "
                                 f"be a BooleanRuleClassifier or None. Got {base!r} instead.")
        return clone(base).set_params(pos_label=True)

    def _fit_steps(self, X, y, sample_weight, fit_step):
        """Fit the list with ``fit_step(template, X, y_bool, weights) -> (model, selection)``;
        returns ``(self, selections)``."""
        from rulelearn.estimator import check_weights, training_data

        template = self.template()
        frame, y = training_data(self, X, y)
        _check_labels(y)
        weights = check_weights(sample_weight, len(y))
        used = np.ones(len(y), bool) if weights is None else weights > 0
        order = class_order(y[used], self.order, None if weights is None else weights[used])
        steps, rules, selections = [], [], []
        open_rows = used.copy()  # rows no earlier rule claims
        for label in order[:-1]:
            rows = np.flatnonzero(open_rows)
            y_step = np.asarray([same_label(v, label) for v in y[rows]], dtype=bool)
            if y_step.all() or not y_step.any():  # nothing to separate: a constant rule
                model, selection, rule = None, None, Rule("cnf" if y_step.any() else "dnf", ())
            else:
                model, selection = fit_step(template, frame.iloc[rows], y_step,
                                            None if weights is None else weights[rows])
                rule = model.rule_
            steps.append(model)
            rules.append(rule)
            selections.append(selection)
            open_rows[rows[rule.evaluate(frame.iloc[rows])]] = False
        for name in [k for k in vars(self) if k.endswith("_") and not k.startswith("_")]:
            delattr(self, name)  # nothing of an earlier fit survives
        self.classes_ = np.unique(y)
        self.rule_list_ = RuleList(tuple(order[:-1]), tuple(rules), order[-1])
        self.steps_ = steps
        self.n_features_in_ = frame.shape[1]
        if isinstance(X, pd.DataFrame):
            self.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)
        return self, selections

    def predict(self, X):
        """The label of the first rule that holds on each row, else the ``ELSE`` class."""
        from rulelearn.estimator import input_frame

        check_is_fitted(self, "rule_list_")
        frame = input_frame(self, X)
        decided = self.rule_list_.decide(frame)
        outcomes = [*self.rule_list_.labels, self.rule_list_.default]
        index = [int(np.flatnonzero(self.classes_ == c)[0]) for c in outcomes]
        return self.classes_[np.asarray(index)[decided]]

    def score(self, X, y, sample_weight=None):
        """Accuracy of :meth:`predict` (any labels, floats included)."""
        return accuracy(self, X, y, sample_weight)

    @property
    def complexity_(self) -> int:
        """Literals over every rule of the list."""
        check_is_fitted(self, "rule_list_")
        return self.rule_list_.n_literals

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = True
        return tags


def _check_labels(y) -> None:
    """Refuse labels that are not classes: infinite numbers, or a continuous target."""
    import warnings

    from sklearn.utils.multiclass import type_of_target

    numbers = pd.to_numeric(pd.Series(y, dtype=object), errors="coerce")
    if np.isinf(numbers.to_numpy(dtype=float)).any():
        raise DataError("y has an infinite label; class labels must be finite")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            continuous = type_of_target(y).startswith("continuous")
    except (ValueError, TypeError):  # labels scikit-learn cannot type (mixed objects)
        continuous = False
    if continuous:
        raise DataError("Unknown label type: y looks continuous (a regression target?); a rule "
                        "list needs class labels")


def fit_select_rule_list(estimator: BooleanRuleListClassifier, X, y, **options):
    """Each step's (form, R, θ) chosen by :func:`rulelearn.model_selection.fit_select` (the CV
    of ``rulelearn fit``; ``options`` are its keyword arguments), on that step's rows.

    Returns ``(fitted clone of estimator, selections)``: one
    :class:`~rulelearn.model_selection.Selection` per rule of the list, or None for a step
    fitted without CV (its rows are all of one side, or a side has fewer than 2 rows to
    validate on: then the estimator's own setting).
    """
    from rulelearn.model_selection import fit_select

    def fit_step(template, X_step, y_step, w_step):
        if min(int(y_step.sum()), int((~y_step).sum())) < 2:
            return clone(template).fit(X_step, y_step), None
        return fit_select(template, X_step, y_step, **options)

    return clone(estimator)._fit_steps(X, y, None, fit_step)
