"""``rulelearn fit`` / ``predict`` / ``show`` for a target of three or more classes: an ordered
rule list (:mod:`rulelearn.rule_list`). The commands call in here when the data or the model
file has more than two classes; this module renders, the library does the work."""

import click

from rulelearn.cli import CVProgress, echo, plain, plural, training_line, write_file, write_out
from rulelearn.rule_list import label_text


def fit_rule_list(data, dataset, estimator, *, fixed, cv, seed, jobs, select, thresholds,
                  show_path, plot_file, save, as_json, quiet, missing, method, scheduler=None,
                  prune=True, more_cut_points=(), reading=None):
    """Learn, print and save the rule list of ``dataset`` (``fixed``: the given form, R, θ).

    Each rule's setting not given is chosen by the CV of a binary ``fit``
    (:func:`~rulelearn.rule_list.fit_select_rule_list`) on the rows the rules before it leave;
    its folds run on the dask cluster of ``scheduler`` if given.
    """
    from rulelearn._defaults import DEFAULT_FORMS, DEFAULT_RULES, DEFAULT_THETAS
    from rulelearn.cluster import dask_client
    from rulelearn.model_io import accuracy
    from rulelearn.rule_list import BooleanRuleListClassifier, fit_select_rule_list

    if plot_file is not None:
        raise click.UsageError("--plot draws the CV of one rule; a target of three or more "
                               "classes gets a rule list: leave out --plot")
    form, rules, theta = fixed
    list_estimator = BooleanRuleListClassifier(estimator=estimator)
    if None in fixed or len(thresholds) > 1:
        progress = None if quiet else CVProgress()
        try:
            with dask_client(scheduler) as client:
                model, selections = fit_select_rule_list(
                    list_estimator, dataset.X, dataset.y, cv=cv, seed=seed, client=client,
                    forms=DEFAULT_FORMS if form is None else (form,),
                    rules=DEFAULT_RULES if rules is None else (rules,),
                    thetas=DEFAULT_THETAS if theta is None else (theta,),
                    thresholds=thresholds if len(thresholds) > 1 else None, progress=progress,
                    n_jobs=-1 if jobs is None else jobs, select=select, prune=prune,
                    more_cut_points=more_cut_points)
        finally:
            if progress is not None:
                progress.close()
    else:
        list_estimator.set_params(estimator__form=form, estimator__max_rules=rules,
                                  estimator__theta=theta)
        model = list_estimator.fit(dataset.X, dataset.y)
        selections = [None] * len(model.steps_)
    train_accuracy = accuracy(model, dataset.X, dataset.y)
    if as_json:
        _save_list(save, model, dataset, data, missing, selections, err=True, reading=reading)
        write_out(_fit_json(data, dataset, method, model, selections, train_accuracy, save))
        return
    for line in _report(data, dataset, method, model, selections, train_accuracy, show_path):
        echo(line)
    _save_list(save, model, dataset, data, missing, selections, err=False,
               reading=reading)


def _classes_line(y, order) -> str:
    import numpy as np

    labels, counts = np.unique(np.asarray(y), return_counts=True)
    count = {str(label): int(n) for label, n in zip(labels, counts)}
    return ", ".join(f"{label_text(label)} ({plural(count[str(label)], 'row')})"
                     for label in order)


def _report(data, dataset, method, model, selections, train_accuracy, show_path):
    rule_list = model.rule_list_
    yield (f"data: {click.format_filename(data)} ({plural(len(dataset.y), 'row')}, "
           f"{plural(dataset.X.shape[1], 'feature')}); target {dataset.target!r}, "
           f"{len(rule_list.classes)} classes: {_classes_line(dataset.y, rule_list.classes)}")
    yield (f"rule list ({method}): the most frequent class, {label_text(rule_list.default)}, "
           "is the ELSE; one rule for each other class, the more frequent first, each learned "
           "on the rows the rules before it leave")
    for number, (label, step, selection) in enumerate(
            zip(rule_list.labels, model.steps_, selections), 1):
        if step is None:
            yield (f"rule {number} ({label_text(label)}): nothing to separate on the rows left, so "
                   f"{rule_list.rules[number - 1]}")
            continue
        head = (f"rule {number} ({label_text(label)} against the rest): {step.form.upper()}, "
                f"R = {step.max_rules}, theta = {step.theta:.3g}")
        if selection is None:
            yield head + " (given)"
            continue
        yield f"{head} {selection.describe()}"
        if show_path:
            yield selection.table(full=True)
    yield (f"rule list: {plural(len(rule_list.rules), 'rule')}, "
           f"{plural(rule_list.n_literals, 'literal')}")
    yield rule_list.describe(dataset.target)
    yield f"training accuracy: {100 * train_accuracy:.1f} %"


def _save_list(save, model, dataset, data, missing, selections, *, err, reading=None):
    from rulelearn.model_io import model_json

    if save is None:
        return
    extra = {"data": str(data), "missing_values": missing,
             **({"reading": reading} if reading else {}),
             "cv_selection": [None if s is None else s.to_dict() for s in selections]}
    write_file(save, model_json(model, target=dataset.target, X=dataset.X, y=dataset.y,
                            extra=extra))
    echo(f"saved: {save}", err=err)


def _fit_json(data, dataset, method, model, selections, train_accuracy, save) -> str:
    import json

    rule_list = model.rule_list_
    steps = []
    for label, rule, step, selection in zip(rule_list.labels, rule_list.rules, model.steps_,
                                            selections):
        steps.append({
            "label": plain(label), "rule": str(rule), "literals": int(rule.n_literals),
            "setting": None if step is None else {
                "form": step.form, "R": int(step.max_rules), "theta": float(step.theta),
                "thresholds": int(step.n_thresholds),
                "chosen_by": "cv" if selection is not None else "given"},
            "cv": None if selection is None else {
                "folds": int(selection.n_folds), "select": selection.select,
                "error_percent": 100 * float(selection.best.mean_error),
                "sem_percent": 100 * float(selection.best.sem)}})
    doc = {"data": str(data), "rows": int(len(dataset.y)), "columns": int(dataset.X.shape[1]),
           "target": dataset.target, "kind": "rule-list", "method": method,
           "classes": [plain(c) for c in rule_list.classes], "default": plain(rule_list.default),
           "rule_list": str(rule_list), "rule_list_text": rule_list.describe(dataset.target),
           "rule_list_json": rule_list.to_dict(), "literals": int(rule_list.n_literals),
           "steps": steps, "train_accuracy_percent": 100 * float(train_accuracy),
           "saved": None if save is None else str(save)}
    return json.dumps(doc, indent=2, default=plain)


def describe_loaded(loaded):
    """``rulelearn show`` of a rule-list model file (lines)."""

    rule_list = loaded.rule_list
    yield (f"model: {click.format_filename(loaded.path)} (rulelearn "
           f"{loaded.rulelearn_version}{', ' + loaded.created if loaded.created else ''})")
    yield (f"target {loaded.target!r}: a rule list over {len(rule_list.classes)} classes "
           f"({', '.join(map(label_text, rule_list.classes))}); ELSE "
           f"{label_text(rule_list.default)}")
    for number, (label, setting) in enumerate(zip(rule_list.labels, loaded.settings), 1):
        if setting:
            theta = setting.get("theta")
            yield (f"rule {number} ({label_text(label)}): {str(setting.get('form', '?')).upper()}, "
                   f"R = {setting.get('max_rules', '?')}"
                   + (f", theta = {theta:.3g}" if isinstance(theta, (int, float)) else ""))
    yield (f"rule list: {plural(len(rule_list.rules), 'rule')}, "
           f"{plural(rule_list.n_literals, 'literal')}")
    yield rule_list.describe(loaded.target)
    yield training_line(loaded)


def report_prediction(model_path, loaded, result, output, as_json):
    """The summary of ``rulelearn predict`` with a rule-list model (stderr, or JSON)."""
    import json

    for note in result.notes:
        echo(f"note: {note}", err=True)
    if as_json:
        doc = {"model": str(model_path), "kind": "rule-list",
               "literals": int(loaded.rule_list.n_literals),
               "rules": len(loaded.rule_list.rules), "target": loaded.target,
               "classes": [plain(c) for c in loaded.classes], "rows": int(result.n_rows),
               "has_target": bool(result.has_target), "scored_rows": int(result.n_scored),
               "unknown_labels": int(result.n_unknown_labels),
               "accuracy_percent": None if result.accuracy is None
               else 100 * float(result.accuracy),
               "balanced_accuracy_percent": None if result.balanced_accuracy is None
               else 100 * float(result.balanced_accuracy),
               "confusion": None if result.matrix is None else {
                   "labels": [plain(c) for c in result.labels],
                   "matrix": [list(row) for row in result.matrix]},
               "notes": list(result.notes), "output": str(output)}
        write_out(json.dumps(doc, indent=2, default=plain))
    else:
        echo(f"model: {click.format_filename(model_path)} (rule list of "
             f"{plural(len(loaded.rule_list.rules), 'rule')}, "
             f"{plural(loaded.rule_list.n_literals, 'literal')}; target {loaded.target!r}, "
             f"classes {', '.join(map(label_text, loaded.classes))})", err=True)
        echo(result.summary(loaded.target), err=True)
        for line in result.matrix_lines():
            echo(line, err=True)
    if output != "-":
        echo(f"written: {output}", err=True)
