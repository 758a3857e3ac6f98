"""``rulelearn datasets list | fetch | info``: thin shells over :mod:`rulelearn.data`."""

import warnings
from collections import Counter

import click
from tabulate import tabulate

from rulelearn import data
from rulelearn.cli import echo

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
