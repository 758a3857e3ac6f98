"""Datasets: the registry, fetching into a verified cache, and parsing to features and labels.

>>> from rulelearn.data import load_dataset
>>> ds = load_dataset("wdbc_bundled")       # works offline
>>> ds.X.shape, ds.positive
((569, 30), 'malignant')
"""

from __future__ import annotations

from rulelearn.data.fetch import cache_dir, cache_status, cached_source, fetch, fetch_source
from rulelearn.data.parse import Dataset, check_shape, parse_source, read_csv_dataset
from rulelearn.data.registry import PAPER_DATASETS, REGISTRY, DatasetSpec, Source, get_spec

from rulelearn.data import packaged  # isort: skip - after the registry, which it extends

__all__ = [
    "Dataset", "DatasetSpec", "Source", "REGISTRY", "PAPER_DATASETS", "get_spec", "fetch",
    "load_dataset", "read_csv_dataset", "cache_dir", "cached_source", "dataset_status",
]


def load_dataset(name, *, mirror=None, cache_dir=None) -> Dataset:
    """Fetch dataset ``name`` if needed, parse it and check its shape and class counts."""
    spec = get_spec(name)
    if name in packaged.TABLES:  # shipped inside an installed package: read it from there
        X, y = packaged.load_table(name)
        origin = packaged.TABLES[name].loader
    else:
        source, paths = fetch_source(name, mirror=mirror, cache_dir=cache_dir)
        X, y = parse_source(source, paths)
        origin = source.loader if spec.bundled else source.files[0].url
    check_shape(spec, X, y)
    return Dataset(name=spec.name, X=X, y=y, positive=spec.positive,
                   positive_reason=spec.positive_reason, source=origin)


def dataset_status(name, *, cache_dir=None) -> str:
    """``"bundled"``, or what the cache holds, its files checked against their sha256:
    ``"cached (<source>)"``, ``"corrupt (<source>: <file>)"``, ``"partial (...)"`` or ``"no"``
    (see :func:`rulelearn.data.fetch.cache_status`)."""
    spec = get_spec(name)
    if name in packaged.TABLES:
        return packaged.status(name)
    if spec.bundled:
        return "bundled"
    return cache_status(spec, cache_dir=cache_dir)
