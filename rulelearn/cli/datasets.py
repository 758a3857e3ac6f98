"""``rulelearn datasets list | fetch | info | export``: thin shells over :mod:`rulelearn.data`."""

import warnings
from collections import Counter

import click
from tabulate import tabulate

from rulelearn import data
from rulelearn.cli import echo, need_stdout, write_file, write_out

_MIRROR = click.option(
    "--mirror", metavar="DIR_OR_URL", default=None,
    help="Fetch from a local folder laid out <name>/<file> or a base URL instead of the real "
         "URLs (default: $RULELEARN_MIRROR).")


def _finite(value, param):
    if value != value or value == float("inf"):  # NaN or inf pass FloatRange
        raise click.BadParameter(f"{value} is not a finite number of seconds", param=param)
    return value


@click.group()
def datasets():
    """List, fetch and inspect the registered UCI datasets."""


@datasets.command("list")
def list_():
    """Every registered dataset: shape, positive class, cached or not."""
    rows = [(s.name, s.n_rows, s.n_features, s.positive, data.dataset_status(s.name))
            for s in data.REGISTRY.values()]
    echo(tabulate(rows, headers=["name", "rows", "features", "positive", "cached"]))
    echo(f"cache: {data.cache_dir()}")


@datasets.command()
@click.argument("names", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Fetch every registered dataset.")
@_MIRROR
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True, callback=lambda ctx, param, value: _finite(value, param),
              help="Seconds to wait for the server.")
def fetch(names, all_, mirror, timeout):
    """Download (or copy from a mirror), verify and cache datasets."""
    if all_ == bool(names):
        raise click.UsageError("give dataset names or --all, not both or neither")
    for name in data.REGISTRY if all_ else names:
        paths = data.fetch(name, mirror=mirror, timeout=timeout)
        echo(f"{name}: " + (", ".join(map(str, paths)) or "bundled, nothing to fetch"))


@datasets.command()
@click.argument("name")
@_MIRROR
def info(name, mirror):
    """Shape, class balance, binarized feature count, source and citation of a dataset."""
    spec = data.get_spec(name)
    ds = data.load_dataset(name, mirror=mirror)
    from rulelearn.binarize import QuantileBinarizer  # lazy: only this command needs it

    with warnings.catch_warnings(record=True) as caught:  # shown as a row, not a traceback line
        warnings.simplefilter("always")
        n_literals = len(QuantileBinarizer(n_thresholds=10).fit(ds.X).literals_)
    notes = "; ".join(dict.fromkeys(str(w.message) for w in caught))
    counts = Counter(ds.y.tolist())
    balance = ", ".join(f"{k}={v} ({v / len(ds.y):.1%})"
                        for k, v in sorted(counts.items(), key=lambda kv: str(kv[0])))
    n_cat = sum(not str(t).startswith(("float", "int")) for t in ds.X.dtypes)
    rows = [
        ("name", f"{spec.name}: {spec.title}"),
        ("shape", f"{ds.X.shape[0]} rows x {ds.X.shape[1]} features"
                  + (f" ({n_cat} categorical)" if n_cat else "")),
        ("missing values", int(ds.X.isna().sum().sum())),
        ("classes", balance),
        ("positive", f"{ds.positive}: {ds.positive_reason}"),
        ("binarized", f"{n_literals} literals (QuantileBinarizer, 10 thresholds)"
                      + (f"; {notes}" if notes else "")),
        ("source", ds.source),
        ("page", spec.page),
        ("cached", data.dataset_status(name)),
        ("citation", spec.citation),
    ] + ([("note", spec.note)] if spec.note else [])
    echo(tabulate(rows, tablefmt="plain", maxcolwidths=[None, 90]))


def _label_column(name) -> str:
    """The label column's name in the dataset's own file (a packaged table's target, a UCI
    file's label column), or ``"class"`` where it has none (a bundled loader)."""
    if name in data.packaged.TABLES:
        return data.packaged.TABLES[name].target
    formats = [source.format for source in data.get_spec(name).sources if source.format]
    return formats[0].label if formats else "class"


@datasets.command()
@click.argument("name")
@click.option("-o", "--output", metavar="FILE", default=None,
              help="Write the CSV to FILE (default: standard output).")
@click.option("--target", metavar="COLUMN", default=None,
              help="Name of the label column, written last (default: the label column of the "
                   "dataset's own file, or 'class').")
@_MIRROR
def export(name, output, target, mirror):
    """Write a registered dataset as a CSV file: its features, then its label column.

    The file is what ``rulelearn fit`` reads: a header row, the label last (so ``fit`` finds it
    without ``--target``), missing cells empty. A bundled dataset (wdbc_bundled) needs no
    download; the others are fetched (or read from the cache or the mirror) first.
    """
    if output is None:
        need_stdout("the CSV")
    elif not output.strip():
        raise click.BadParameter("an empty file name", param_hint="'-o' / '--output'")
    ds = data.load_dataset(name, mirror=mirror)
    column = _label_column(name) if target is None else target
    if not str(column).strip():
        raise click.BadParameter("an empty column name", param_hint="'--target'")
    if column in ds.X.columns:
        raise click.UsageError(f"--target {column!r} is already a feature column of {name}; "
                               "choose another name")
    frame = ds.X.assign(**{column: ds.y})
    text = frame.to_csv(index=False, lineterminator="\n")
    if output is None:
        write_out(text, nl=False)
        return
    write_file(output, text)
    echo(f"written: {click.format_filename(output)} ({len(frame)} rows, {ds.X.shape[1]} "
         f"features and the label column {column!r}; positive class {ds.positive})", err=True)
