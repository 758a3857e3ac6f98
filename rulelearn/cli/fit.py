"""``rulelearn fit DATA.csv`` learns a rule; ``rulelearn predict MODEL DATA.csv`` applies it.

The library does the work (:func:`rulelearn.data.read_csv_dataset`,
:class:`~rulelearn.estimator.BooleanRuleClassifier` and its CV,
:class:`~rulelearn.cv_estimator.BooleanRuleClassifierCV`,
:mod:`rulelearn.model_io`, :mod:`rulelearn.csv_predict`); these commands parse options and
render. Heavy imports stay inside the command bodies so that ``rulelearn --help`` is quick.
"""

import contextlib
import os

import click

from rulelearn._defaults import (
    DEFAULT_FORMS,
    DEFAULT_RULES,
    DEFAULT_SELECT,
    FIT_MORE_CUT_POINTS,
    FIT_THETAS,
    SELECT_RULES,
)
from rulelearn._params import accepts, allowed, click_type, options
from rulelearn._rule_params import CV_FOLDS, RULE_PARAMETERS
from rulelearn._workers import start as start_workers
from rulelearn._workers import stop as stop_workers
from rulelearn.bench import EXECUTORS
from rulelearn.cli import (
    CVProgress,
    StdoutError,
    echo,
    need_stdout,
    plain,
    plural,
    refuse_overwrite,
    write_file,
    write_out,
)

#: The estimator's declared options (:data:`rulelearn._rule_params.RULE_PARAMETERS`).
METHODS = options(RULE_PARAMETERS, "method")
FORMS = options(RULE_PARAMETERS, "form")
STARTS = options(RULE_PARAMETERS, "start")
CUT_POINTS = options(RULE_PARAMETERS, "cut_points")


@contextlib.contextmanager
def _writing(path):
    """A ``write(text)`` into ``path`` that replaces it only when the block succeeds (through a
    temporary file beside it, as :func:`write_file`); an OSError becomes a one-line CLI error."""
    from pathlib import Path

    from rulelearn._io import replacing

    target = Path(path)
    try:
        if target.is_symlink():
            target = target.resolve()
        if target.exists() and not target.is_file() and not target.is_dir():  # /dev/null, a pipe
            with open(target, "w", encoding="utf-8", newline="") as f:
                yield f.write
            return
        with replacing(target, suffix=".part") as tmp:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                yield f.write
                f.flush()
                os.fsync(f.fileno())
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None


_SEP_NAMES = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t", "space": " ",
              "pipe": "|"}


def _separator(ctx, param, value):
    """``--sep``: one character, or comma / semicolon / tab (also \\t) / space / pipe."""
    if value is None:
        return None
    sep = _SEP_NAMES.get(value.lower() if len(value) > 1 else value, value)
    if len(sep) != 1 or sep in "\"\r\n":
        raise click.BadParameter(f"expected one character or one of {', '.join(_SEP_NAMES)}; "
                                 f"got {value!r}")
    return sep


class _Kinds(click.ParamType):
    """``--cut-points``: one of ``choices`` (``tree``), or several (``quantile,tree``), as a
    tuple."""

    name = "kinds"

    def __init__(self, choices, word="kind"):
        self.choices = tuple(choices)
        self.word = word

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        kinds = tuple(p.strip() for p in str(value).split(","))
        if any(k not in self.choices for k in kinds):
            self.fail(f"every {self.word} must be one of {', '.join(self.choices)}; "
                      f"got {value!r}", param, ctx)
        if len(set(kinds)) != len(kinds):
            self.fail(f"a {self.word} is repeated in {value!r}", param, ctx)
        return kinds


def _threshold_counts(ctx, param, value):
    """``--thresholds``: one count (``10``), or several (``10,30``) for the CV to choose among."""
    parts = [p.strip() for p in str(value).split(",")]
    try:
        counts = tuple(int(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"expected a whole number such as 10, or several such as "
                                 f"10,30; got {value!r}") from None
    if not all(accepts(RULE_PARAMETERS["n_thresholds"], n) for n in counts):
        raise click.BadParameter(f"every count must be {allowed(RULE_PARAMETERS['n_thresholds'])}; "
                                 f"got {value!r}")
    if len(set(counts)) != len(counts):
        raise click.BadParameter(f"a count is repeated in {value!r}")
    return counts


def _sums(ctx, param, value):
    """``--sum NAME=COL+COL...`` (repeatable): the derived columns, ``{name: (column, ...)}``."""
    sums: dict[str, tuple[str, ...]] = {}
    for text in value:
        name, equals, columns = str(text).partition("=")
        parts = tuple(p.strip() for p in columns.split("+"))
        if not equals or not name.strip() or len(parts) < 2 or not all(parts):
            raise click.BadParameter(f"expected NAME=COLUMN+COLUMN[+...], got {text!r}")
        if name.strip() in sums:
            raise click.BadParameter(f"the sum {name.strip()!r} is given twice")
        if len(set(parts)) < len(parts):
            raise click.BadParameter(f"a column is repeated in {text!r}")
        sums[name.strip()] = parts
    return sums or None


def _stop_workers_on_error(command):
    """``command``, whose error or interrupt ends the CV's workers at once (:func:`rulelearn.
    _workers.stop`): ``fit`` starts them before its own heavy imports (once the data are read
    and checked: a bad file starts none), and none may outlive it or hold up its exit."""
    import functools

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BaseException:
            stop_workers()
            raise

    return run


_SEP = click.option("--sep", metavar="CHAR", default=None, callback=_separator,
                    help="The CSV file's separator: one character, or comma, semicolon, tab, "
                         "space, pipe (default: found from the file; comma, semicolon, tab or |).")


_DECIMAL = click.option("--decimal", type=click.Choice((".", ",")), default=".",
                        show_default=True,
                        help="The decimal mark of the CSV file's numbers: ',' reads 1,5 as 1.5 "
                             "and 1.234,5 (also 1 234,5 and 1'234,5) as 1234.5 (European "
                             "files, usually separated by ';'). A saved model remembers it.")

_PREDICT_SEP = click.option("--sep", metavar="CHAR", default=None, callback=_separator,
                            help="The CSV file's separator: one character, or comma, "
                                 "semicolon, tab, space, pipe (default: the model's, if fit "
                                 "was given one; else found from the file).")

_PREDICT_DECIMAL = click.option("--decimal", type=click.Choice((".", ",")), default=None,
                                help="The decimal mark of the CSV file's numbers (default: "
                                     "the model's, as its training file was read).")


@click.command()
@click.argument("data", type=click.Path())
@click.option("--target", "-t", metavar="COLUMN", default=None,
              help="The label column (default: the last column).")
@click.option("--positive", "-p", metavar="VALUE", default=None,
              help="The class the rule predicts (default: the minority class).")
@click.option("--missing", metavar="TOKEN", multiple=True,
              help="Also read this cell value as missing (repeatable; always missing: empty, "
                   "NA, NaN, nan, ?, null, None).")
@click.option("--drop", "-d", metavar="COLUMN", multiple=True,
              help="Leave this column out of the features, e.g. an identifier (repeatable).")
@click.option("--keep", metavar="COLUMN", multiple=True,
              help="Keep this column, which fit would leave out as an identifier (a different "
                   "text in every row) or a row order (a number that increases or decreases "
                   "from row to row, such as a row number) (repeatable).")
@click.option("--method", metavar="METHOD[,METHOD...]", type=_Kinds(METHODS, "method"),
              default="bcd",
              show_default=True,
              help=f"Block coordinate descent, alternating minimization, set covering, one "
                   f"clause, or column generation ({', '.join(METHODS)}). Several (bcd,cg): "
                   f"each one's whole CV runs on the same folds and the CV picks among all "
                   f"their rows (more CPU; docs: guide/parameters).")
@click.option("--start", type=click.Choice(STARTS), default="best",
              show_default=True,
              help="Where BCD and AM start: the better of the set-covering rule (the paper's "
                   "start) and a rule read off a CART tree (best), or one of them, or the "
                   "column-generation rule (cg).")
@click.option("--polish/--no-polish", default=False, show_default=True,
              help="After BCD's or AM's descent, add, drop or swap single literals (or drop a "
                   "clause) while that lowers the training objective (docs: "
                   "guide/parameters).")
@click.option("--perturb", type=click_type(RULE_PARAMETERS["perturb"]), default=0,
              show_default=True, metavar="N",
              help="Then N rounds of iterated local search: kick one or two clauses at random "
                   "(a fixed seed), descend again, keep the rule when its training objective "
                   "is not worse (each round costs about one more descent; "
                   "docs: guide/certificates).")
@click.option("--form", type=click.Choice(FORMS), default=None,
              help="OR of ANDs (dnf) or AND of ORs (cnf) (default: chosen by CV).")
@click.option("--rules", "-R", type=click_type(RULE_PARAMETERS["max_rules"]), default=None,
              help=f"Clauses at most (default: chosen by CV among "
                   f"{', '.join(map(str, DEFAULT_RULES))}).")
@click.option("--theta", type=click_type(RULE_PARAMETERS["theta"]), default=None,
              help=f"Sparsity weight: errors + theta x literals (default: chosen by CV among "
                   f"{len(FIT_THETAS)} values per training row in [{min(FIT_THETAS):g}, "
                   f"{max(FIT_THETAS):g}], theta = value x rows).")
@click.option("--max-iter", type=click_type(RULE_PARAMETERS["max_iter"]), default=100,
              show_default=True,
              help="BCD / AM iterations at most.")
@click.option("--thresholds", metavar="N[,N...]", default="10", show_default=True,
              callback=_threshold_counts,
              help="Quantile thresholds per numeric column. Several (e.g. 10,30): the first is "
                   "used for the whole grid, the others are also tried at the chosen form and "
                   "R, and the CV picks (about 2x the time with 10,30).")
@click.option("--class-weight", type=click.Choice(("none", "balanced")), default="none",
              show_default=True,
              help="balanced: each class weighs as much as the other in the rule's loss and "
                   "the CV error (for a rare positive class that the rule would otherwise "
                   "never predict); none: every row weighs 1.")
@click.option("--cut-points", metavar="KIND[,KIND...]", type=_Kinds(CUT_POINTS),
              default=",".join(("quantile",) + FIT_MORE_CUT_POINTS), show_default=True,
              help=f"Where numeric columns are cut ({', '.join(CUT_POINTS)}): the quantiles "
                   f"(--thresholds); tree: each column's splits in a shallow tree (finds a rare "
                   f"class in a tail); both. Several (e.g. quantile,tree): the first is used "
                   f"for the whole grid, the others are also tried at the chosen form and R, "
                   f"and the CV picks.")
@click.option("--sum", "sums", metavar="NAME=COL+COL[+...]", multiple=True, callback=_sums,
              help="A derived column: NAME, the sum of those numeric columns (repeatable), "
                   "for literals such as 'total > 73.4'. A saved model computes it again from "
                   "those columns when it predicts or is exported.")
@click.option("--cv", type=click_type(CV_FOLDS), default=5, show_default=True,
              help="Folds for choosing the setting (fewer if the minority class is smaller).")
@click.option("--select", type=click.Choice(SELECT_RULES), default=DEFAULT_SELECT,
              show_default=True,
              help="How the CV chooses: the lowest mean CV error (min), the lowest CV error "
                   "plus 0.1 point per literal (0.1pt), the simplest setting within one "
                   "standard error of the lowest (1se), or 0.1pt among the settings within one "
                   "standard error of the lowest (0.1pt1se). The rule refitted then drops each "
                   "literal that saves fewer training errors than θ, or than 0.2 % of the "
                   "rows if that is more (--prune).")
@click.option("--prune/--no-prune", default=True, show_default=True,
              help="Whether the rule refitted after the CV drops each literal or clause whose "
                   "removal does not raise its training objective at θ or at 0.002 x rows, "
                   "whichever is larger (--no-prune: the rule as the learner found it).")
@click.option("--path", "show_path", is_flag=True,
              help="Print the CV error of every theta tried, not only the best per form and R.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Also draw the CV error and literals against theta, per form and R, to this "
                   "file (.png, .svg or .pdf; needs rulelearn[plot]).")
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=0, show_default=True,
              help="Seed of the CV folds.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes for the CV folds: this one and N - 1 workers (default: every "
                   "core; 1 = this process only). The same result whatever the number.")
@click.option("--executor", type=click.Choice(EXECUTORS), default=None,
              help="Where the CV folds run: local processes (--jobs), or a dask cluster "
                   "(--scheduler; as bench). Default: dask when --scheduler is given.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Dask scheduler address, e.g. tcp://10.0.0.5:8786: the CV folds run on its "
                   "workers (needs rulelearn[dask]); the same result as a local run, and the "
                   "final fit runs here.")
@click.option("--save", "-s", type=click.Path(dir_okay=False), default=None,
              help="Write the model to this JSON file (for rulelearn predict).")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object on stdout (the setting, the rule as text and as "
                   "rule_json, literals, CV error, training accuracy) instead of the report.")
@click.option("--quiet", "-q", is_flag=True, help="No CV progress on stderr.")
@click.option("--certify", is_flag=True,
              help="Also print the rule's objective, a lower bound on the objective of every "
                   "rule of its form and R, and the gap between them (column generation).")
@click.option("--certify-budget", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, metavar="SECONDS",
              help="CPU seconds the --certify bound may take; a bound stopped by it is still "
                   "valid, only looser (its status says so).")
@_SEP
@_DECIMAL
@_stop_workers_on_error
def fit(data, target, positive, missing, drop, keep, method, start, polish, perturb, form, rules,  # noqa: C901
        theta,
        max_iter, thresholds, class_weight, cut_points, sums, cv, seed, jobs, executor, scheduler,
        select, prune, show_path, plot_file, save, as_json, quiet, sep, decimal, certify,
        certify_budget):
    """Learn a rule from the CSV file DATA (header row required) and print it.

    The form, the number of clauses and theta not given are chosen together by stratified
    CV (the CV table is printed; its progress is shown on stderr unless -q). Prints the rule
    in your own column names and values, its size in literals and its training accuracy. With
    two classes the positive class is always printed. A target of three or more classes gets an
    ordered rule list (IF rule THEN a ELIF rule THEN b ELSE c): the most frequent class is the
    ELSE, and the others get one rule each, the more frequent first, each chosen by the same CV
    on the rows the rules before it leave.
    """
    need_stdout("the JSON" if as_json else "the rule")  # before the work, not after it
    if save is not None:
        refuse_overwrite("--save", save, [("input data file", data)])
    cv_runs = None in (form, rules, theta) or len(thresholds) > 1  # several counts: an axis
    if len(cut_points) > 1 and not cv_runs:
        cut_points = cut_points[:1]  # nothing to choose among: the first
    methods = method if cv_runs else method[:1]
    method = methods[0]
    if plot_file is not None:
        _check_plot(plot_file, data, save, cv_done=cv_runs)
    scheduler = _where_folds_run(executor, scheduler, jobs, cv_done=cv_runs)
    from rulelearn.data import read_csv_dataset
    from rulelearn.data.parse import DEFAULT_MISSING, drop_columns

    missing = tuple(dict.fromkeys(DEFAULT_MISSING + missing))
    reading = {"sep": sep, "decimal": decimal}  # kept in a saved model, for predict
    dataset = read_csv_dataset(data, target=target, positive=positive, missing_values=missing,
                               sep=sep, decimal=decimal, multiclass=True)
    target = dataset.target
    dataset = _leave_out_traps(drop_columns(dataset, drop), keep)
    if sums is not None:
        from rulelearn.binarize import add_sums
        from rulelearn.errors import DataError

        if dataset.positive is None:
            raise DataError("--sum is for a target of two classes (a rule list of three or "
                            "more classes reads the columns as they are)")
        for name, parts in sums.items():
            if target in (name, *parts):
                raise DataError(f"--sum {name}={'+'.join(parts)}: {target!r} is the target "
                                "column; a sum is a new feature, of feature columns")
        add_sums(dataset.X.iloc[:0], sums, check=True)  # a one-line error before the CV
    if cv_runs and scheduler is None:  # the CV's workers import while this process does
        start_workers(-1 if jobs is None else jobs)
    import warnings

    from rulelearn._traps import DataTrapWarning
    from rulelearn.cv_estimator import CHOSEN, BooleanRuleClassifierCV
    from rulelearn.estimator import BooleanRuleClassifier
    from rulelearn.model_io import accuracy

    warnings.filterwarnings("ignore", category=DataTrapWarning)  # said above, or --keep
    _note_unused_descent_options(methods, polish, perturb)
    estimator = BooleanRuleClassifier(method=method, max_iter=max_iter,
                                      n_thresholds=thresholds[0], pos_label=dataset.positive,
                                      start=start, polish=polish, perturb=perturb,
                                      cut_points=cut_points[0],
                                      sums=sums,
                                      class_weight=None if class_weight == "none" else class_weight)
    if dataset.positive is None:  # three or more classes: an ordered rule list
        from rulelearn.cli.rule_list import fit_rule_list

        if len(methods) > 1:
            raise click.UsageError("several --method values are for a target of two classes; "
                                   "a rule list takes one")
        fit_rule_list(data, dataset, estimator, fixed=(form, rules, theta), cv=cv, seed=seed,
                      jobs=jobs, select=select, thresholds=thresholds, show_path=show_path,
                      plot_file=plot_file, save=save, as_json=as_json, quiet=quiet,
                      missing=missing, reading=reading, method=method, scheduler=scheduler,
                      prune=prune,
                      more_cut_points=cut_points[1:])
        return
    if cv_runs:  # each option given fixes its axis of the grid
        progress = None if quiet else CVProgress()
        try:
            search = BooleanRuleClassifierCV(
                **{k: v for k, v in estimator.get_params().items() if k not in CHOSEN},
                cv=cv, random_state=seed,
                forms=DEFAULT_FORMS if form is None else (form,),
                rules=DEFAULT_RULES if rules is None else (rules,),
                thetas=FIT_THETAS if theta is None else (theta,),
                theta_scale="rows" if theta is None else "errors",
                thresholds=thresholds if len(thresholds) > 1 else None,
                n_jobs=-1 if jobs is None else jobs, scheduler=scheduler, select=select,
                prune=prune, more_cut_points=cut_points[1:], more_methods=methods[1:],
            ).fit(dataset.X, dataset.y, progress=progress)
            model, selection = search.best_estimator_, search.selection_
        finally:
            if progress is not None:
                progress.close()
    else:
        model = estimator.set_params(form=form, max_rules=rules, theta=theta)
        model, selection = model.fit(dataset.X, dataset.y), None
    _certify(model, dataset, certify, certify_budget)
    method = model.method  # the learner of the rule: the CV's choice among several

    if as_json:
        train_accuracy = accuracy(model, dataset.X, dataset.y)
        if selection is not None and plot_file is not None:
            _plot(selection, method, data, plot_file, err=True)
        if save is not None:
            _save(save, model, target, dataset, data, missing, selection, err=True,
                  reading=reading)
        write_out(_fit_json(data, dataset, target, method, model, selection, train_accuracy,
                            save))
        return
    try:
        _echo_fit(data, dataset, target, method, model, selection,
                  given=positive is not None, show_path=show_path, plot_file=plot_file)
    except StdoutError:  # the report could not be shown: the model is kept all the same
        if save is not None:
            _save(save, model, target, dataset, data, missing, selection, err=True,
                  reading=reading)
        raise
    if save is not None:
        _save(save, model, target, dataset, data, missing, selection, err=False,
              reading=reading)


def _leave_out_traps(dataset, keep):
    """``dataset`` without its identifier and row-order columns (:mod:`rulelearn._traps`) that
    ``--keep`` does not name, one warning line for each left out."""
    from rulelearn._traps import trap_columns
    from rulelearn.data.parse import drop_columns
    from rulelearn.errors import DataError

    for column in keep:
        if column not in dataset.X.columns:
            raise DataError(f"--keep {column}: no such feature column in {dataset.source} "
                            f"(features: {', '.join(map(str, dataset.X.columns))})")
    traps = {c: why for c, why in trap_columns(dataset.X).items() if c not in keep}
    if not traps:
        return dataset
    if len(traps) == dataset.X.shape[1]:
        raise DataError(f"every feature column is an identifier or a row order "
                        f"({', '.join(map(repr, traps))}); keep one with --keep COLUMN")
    for column, why in traps.items():
        echo(f"warning: column {column!r} {why}: left out (--keep {column} keeps it)", err=True)
    return drop_columns(dataset, tuple(traps))


def _where_folds_run(executor, scheduler, jobs, *, cv_done) -> str | None:
    """The dask scheduler address the CV folds run on (None: locally), or a one-line error
    for options that contradict each other (before any work)."""
    if executor == "local" and scheduler is not None:
        raise click.UsageError("--executor local runs the CV folds here; --scheduler names a "
                               "dask cluster: give one of them")
    if executor == "dask" and scheduler is None:
        raise click.UsageError("--executor dask needs a scheduler address (--scheduler ADDRESS)")
    if scheduler is None:
        return None
    if jobs is not None:
        raise click.UsageError("--jobs sets the local worker processes; with --scheduler the "
                               "cluster's workers run the CV folds: leave out --jobs")
    if not cv_done:
        raise click.UsageError("--scheduler runs the cross-validation on a dask cluster; with "
                               "--form, --rules and --theta given there is none")
    from rulelearn.cluster import need_dask

    need_dask("--scheduler")
    return scheduler


def _note_unused_descent_options(methods, polish: bool, perturb: int) -> None:
    """Say so on stderr when --polish or --perturb is given but no learner of ``methods``
    descends (only BCD and AM take them)."""
    from rulelearn.learners import LEARNER_OPTIONS

    given = [flag for flag, on in (("--polish", polish), ("--perturb", perturb)) if on]
    if given and not any("polish" in LEARNER_OPTIONS[m] for m in methods):
        both = len(given) > 1
        echo(f"note: {' and '.join(given)} {'apply' if both else 'applies'} to BCD and AM "
             f"only; --method {','.join(methods)} does not use {'them' if both else 'it'}",
             err=True)


def _theta_per_row(selection) -> dict:
    """``{"theta_per_row": θ}`` when the CV chose θ per training row, else nothing."""
    if selection is None or selection.theta_scale != "rows":
        return {}
    return {"theta_per_row": float(selection.best.theta)}


def _per_row(model, selection) -> str:
    """What a θ per row came to in the final fit (nothing for a θ in errors)."""
    if selection.theta_scale != "rows":
        return ""
    return f"; theta per training row ({model.theta:.3g} errors per literal in the final fit)"


def _certify(model, dataset, wanted: bool, budget: float) -> None:
    """With ``--certify``: the lower bound and gap go into ``model.fit_stats_``, within
    ``budget`` CPU seconds (past it the valid fallback bound is kept)."""
    if wanted:
        from rulelearn.certify import certify_fitted
        from rulelearn.estimator import class_sample_weight

        weights = class_sample_weight(model.class_weight, dataset.y, model.classes_)
        certify_fitted(model, dataset.X, dataset.y, weights, cpu_limit=budget)


def _echo_fit(data, dataset, target, method, model, selection, *, given, show_path, plot_file):
    """The human-readable report of a fit: data, CV table, choice, rule, training accuracy."""
    from rulelearn._utils import error_rate
    from rulelearn.cli.model import rule_lines, sum_lines
    from rulelearn.estimator import class_sample_weight
    from rulelearn.model_io import accuracy

    rule = model.rule_
    echo(_data_line(data, dataset, target, given=given))
    if selection is not None:
        which = "every theta" if show_path else "the best theta per form and R; --path: all"
        echo(f"cross-validation ({which}; * = chosen):")
        echo(selection.table(full=show_path))
        echo(f"chosen: {model.form.upper()}, R = {model.max_rules}, theta = "
                   f"{selection.best.theta:.3g} {selection.describe()}{_per_row(model, selection)}")
        if plot_file is not None:
            _plot(selection, method, data, plot_file, err=False)
    else:
        echo(f"theta = {model.theta:.3g} (given)")
    pruned = int(getattr(model, "fit_stats_", {}).get("pruned_literals", 0))
    echo(f"rule ({model.form.upper()}, {method}, R = {model.max_rules}): "
         f"{plural(rule.n_clauses, 'clause')}, {plural(rule.n_literals, 'literal')}"
         + (f" ({pruned} more before pruning)" if pruned else ""))
    negative = next(c for c in model.classes_ if not c == dataset.positive)
    for line in rule_lines(rule, dataset.positive, target, negative=negative):
        echo(line)
    for line in sum_lines(model.sums):
        echo(line)
    line = f"training accuracy: {100 * accuracy(model, dataset.X, dataset.y):.1f} %"
    if model.class_weight is not None:
        balanced = 1 - error_rate(model, dataset.X, dataset.y,
                                  class_sample_weight("balanced", dataset.y))
        line += f" (balanced accuracy {100 * balanced:.1f} %; class weight {model.class_weight})"
    echo(line)
    if "lower_bound" in model.fit_stats_:
        stats = model.fit_stats_
        echo(f"objective {stats['objective']:.6g}, lower bound {stats['lower_bound']:.6g}, "
             f"gap {100 * stats['gap']:.1f} %"
             f"{_bound_note(stats.get('certificate_status', 'optimal'))}")


def _bound_note(status: str) -> str:
    """What the certificate line adds when the bound is not proven the LP's optimum."""
    if status in ("optimal", "trivial"):
        return ""
    if not status.endswith("limit"):  # "pricing stalled"
        return f" ({status}: the bound is valid, maybe loose)"
    hint = "; --certify-budget raises it" if status == "cpu limit" else ""
    return f" (the bound stopped at the {status}: valid, maybe loose{hint})"


def _plot(selection, method, data, plot_file, *, err):
    from rulelearn.bench.plot import save as save_figure
    from rulelearn.bench.plot import selection_figure

    title = f"{method.upper()} on {click.format_filename(data)}"
    save_figure(selection_figure(selection, title=title), plot_file)
    echo(f"plot: {plot_file}", err=err)


def _save(save, model, target, dataset, data, missing, selection, *, err, reading):
    from rulelearn.model_io import model_json

    extra = {"data": str(data), "missing_values": missing, "reading": reading}
    if selection is not None:
        extra["cv_selection"] = selection.to_dict()
    write_file(save, model_json(model, target=target, X=dataset.X, y=dataset.y, extra=extra))
    echo(f"saved: {save}", err=err)


def _fit_json(data, dataset, target, method, model, selection, train_accuracy, save) -> str:
    import json

    import numpy as np

    from rulelearn.rules import simplify

    rule = model.rule_
    simplified = simplify(rule)
    negative = next(c for c in np.unique(dataset.y) if not c == dataset.positive)
    doc = {
        "data": str(data), "rows": int(len(dataset.y)), "columns": int(dataset.X.shape[1]),
        "target": target, "positive": plain(dataset.positive), "negative": plain(negative),
        "method": method,
        "setting": {"form": model.form, "R": int(model.max_rules),
                    "theta": float(model.theta), **_theta_per_row(selection),
                    "thresholds": int(model.n_thresholds),
                    "class_weight": model.class_weight, "cut_points": model.cut_points,
                    **({"sums": model.sums} if model.sums else {}),
                    **({"polish": True} if model.polish else {}),
                    **({"perturb": int(model.perturb)} if model.perturb else {}),
                    "chosen_by": "cv" if selection is not None else "given",
                    "pruned": "pruned_literals" in getattr(model, "fit_stats_", {})},
        "rule": str(rule), "rule_text": rule.describe(dataset.positive, target),
        "rule_json": rule.to_dict(), "literals": int(rule.n_literals),
        "pruned_literals": int(getattr(model, "fit_stats_", {}).get("pruned_literals", 0)),
        "simplified_rule": str(simplified),
        "simplified_literals": int(simplified.n_literals),
        "clauses": int(rule.n_clauses),
        "cv": None if selection is None else {
            "folds": int(selection.n_folds), "seed": int(selection.seed),
            "select": selection.select,
            **({"methods": list(selection.methods)} if len(selection.methods) > 1 else {}),
            "error_percent": 100 * float(selection.best.mean_error),
            "sem_percent": 100 * float(selection.best.sem),
            "grid": [{"form": row.form, "R": int(row.max_rules), "theta": float(row.theta),
                      "thresholds": int(model.n_thresholds if row.n_thresholds is None
                                        else row.n_thresholds),
                      **({"cut_points": row.cut_points} if row.cut_points else {}),
                      **({"method": row.method or selection.methods[0]}
                         if len(selection.methods) > 1 else {}),
                      "chosen": row is selection.best,
                      "error_percent": 100 * float(row.mean_error),
                      "sem_percent": 100 * float(row.sem),
                      "literals": float(row.mean_literals)} for row in selection.rows]},
        "train_accuracy_percent": 100 * float(train_accuracy),
        "saved": None if save is None else str(save),
    }
    if "lower_bound" in model.fit_stats_:
        doc["certificate"] = {name: float(model.fit_stats_[name])
                              for name in ("objective", "lower_bound", "gap")}
        doc["certificate"]["status"] = model.fit_stats_["certificate_status"]
    return json.dumps(doc, indent=2, default=plain)


def _check_plot(path, data, save, *, cv_done):
    """Refuse ``--plot`` before any work when it cannot be drawn."""
    from pathlib import Path

    from rulelearn.bench.plot import figure_class

    if not cv_done:
        raise click.UsageError("--plot draws the cross-validation; leave out --form, --rules "
                               "or --theta to have one")
    if Path(path).suffix.lower() not in (".png", ".svg", ".pdf"):
        raise click.BadParameter(f"expected a .png, .svg or .pdf file; got {path!r}",
                                 param_hint="'--plot'")
    refuse_overwrite("--plot", path, [("input data file", data)] +
                      ([("model file", save)] if save else []))
    figure_class()  # the optional matplotlib: a one-line error before the fit


def _data_line(path, dataset, target, *, given):
    import numpy as np

    is_pos = dataset.is_positive
    negative = next(c for c in np.unique(dataset.y) if not c == dataset.positive)
    why = "given by --positive" if given else "the minority class"
    return (f"data: {click.format_filename(path)} ({plural(len(dataset.y), 'row')}, "
            f"{plural(dataset.X.shape[1], 'feature')}); target {target!r}, "
            f"positive class {dataset.positive} ({plural(int(is_pos.sum()), 'row')}, {why}), "
            f"negative {negative} ({plural(int((~is_pos).sum()), 'row')})")


@click.command()
@click.argument("model", type=click.Path())
@click.argument("data", type=click.Path())
@click.option("--output", "-o", type=click.Path(dir_okay=False, allow_dash=True), default="-",
              show_default=True, help="Where to write the CSV (- is standard output).")
@click.option("--column", metavar="NAME", default="prediction", show_default=True,
              help="Name of the added column (DATA must not have a column of that name).")
@click.option("--explain", is_flag=True,
              help="Add a column 'explanation': the literals that decided the row. DNF: "
                   "'true: ...' every literal of the first clause that holds, else 'false: ...' "
                   "each clause's first literal that fails; CNF: 'false: ...' every literal of "
                   "the first clause that fails, else 'true: ...' each clause's first literal "
                   "that holds.")
@click.option("--proba", is_flag=True,
              help="Add a column 'probability': the row's probability of the positive class "
                   "(from the training precision of the clauses; see predict_proba).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary (rows, accuracy and confusion matrix when DATA has the "
                   "target) as JSON on stdout; the predictions go to the -o file.")
@_PREDICT_SEP
@_PREDICT_DECIMAL
def predict(model, data, output, column, explain, proba, as_json, sep, decimal):
    """Apply the saved MODEL (from rulelearn fit --save) to the CSV file DATA.

    Writes DATA's rows, in order, plus a column of predicted class labels. DATA needs only
    the columns the rule uses. The summary (and, when DATA has the target column, the
    accuracy, confusion matrix, precision and recall) goes to standard error, so that
    standard output stays a clean CSV; with --json it is printed on standard output as JSON
    instead, and the CSV needs -o.
    """
    from rulelearn.csv_predict import predict_csv_to
    from rulelearn.model_io import LoadedRuleList, load_model

    if not column.strip():
        raise click.BadParameter("an empty column name", param_hint="'--column'")
    if as_json and output == "-":
        raise click.UsageError("--json prints the summary on standard output: write the "
                               "predictions to a file with -o FILE")
    if output == "-" or as_json:
        need_stdout("the JSON summary" if as_json else "the predictions")
    if output != "-":
        refuse_overwrite("--output", output, [("input data file", data), ("model file", model)])
    loaded = load_model(model)
    _note_reading_overrides(loaded, sep, decimal)
    options = {"column": column, "sep": sep, "explain": "explanation" if explain else None,
               "proba": "probability" if proba else None, "decimal": decimal}
    if output == "-":
        result = predict_csv_to(loaded, data, lambda text: write_out(text, nl=False), **options)
    else:
        with _writing(output) as write:
            result = predict_csv_to(loaded, data, write, **options)
    if isinstance(loaded, LoadedRuleList):  # three or more classes
        from rulelearn.cli.rule_list import report_prediction

        report_prediction(model, loaded, result, output, as_json)
        return
    rule = loaded.rule
    if as_json:
        _predict_json(model, loaded, result, output)
        return
    echo(f"model: {click.format_filename(model)} ({loaded.form.upper()} rule, "
               f"{plural(rule.n_clauses, 'clause')}, {plural(rule.n_literals, 'literal')}; "
               f"target {loaded.target!r}, positive class {loaded.positive})", err=True)
    for note in result.notes:
        echo(f"note: {note}", err=True)
    echo(result.summary(loaded.target), err=True)
    scores = result.scores(loaded.positive, loaded.negative)
    if scores:
        echo(scores, err=True)
    if output != "-":
        echo(f"written: {output}", err=True)


def _note_reading_overrides(loaded, sep, decimal) -> None:
    """One note on stderr when --sep or --decimal reads DATA otherwise than the model's
    training file was read (the model's reading is the default)."""
    differs = []
    if decimal is not None and decimal != loaded.decimal:
        differs.append(f"--decimal {decimal} (the model was fitted with --decimal "
                       f"{loaded.decimal})")
    if sep is not None and loaded.sep is not None and sep != loaded.sep:
        differs.append(f"--sep {sep!r} (the model was fitted with --sep {loaded.sep!r})")
    if differs:
        echo(f"note: reading DATA with {' and '.join(differs)}", err=True)


def _predict_json(model, loaded, result, output):
    import json

    for note in result.notes:
        echo(f"note: {note}", err=True)
    confusion = None
    if result.confusion:
        confusion = {k: int(result.confusion[k]) for k in ("tp", "fp", "fn", "tn")}
    doc = {"model": str(model), "form": loaded.form, "literals": int(loaded.rule.n_literals),
           "clauses": int(loaded.rule.n_clauses), "target": loaded.target,
           "positive": plain(loaded.positive), "negative": plain(loaded.negative),
           "rows": int(result.n_rows), "has_target": bool(result.has_target),
           "scored_rows": int(result.n_scored), "unknown_labels": int(result.n_unknown_labels),
           "accuracy_percent": None if result.accuracy is None else 100 * float(result.accuracy),
           "balanced_accuracy_percent": None if result.balanced_accuracy is None
           else 100 * float(result.balanced_accuracy),
           "confusion": confusion, "notes": list(result.notes), "output": str(output)}
    write_out(json.dumps(doc, indent=2, default=plain))
    echo(f"written: {output}", err=True)
