"""A small vocabulary for declaring an estimator's parameter constraints once.

As in scikit-learn, an estimator class holds ``_parameter_constraints``: parameter name -> a
list of constraints, any one of which a valid value satisfies. A constraint is
:class:`Options` (one of a few values), :class:`Interval` (a number of a kind between bounds),
:class:`InstanceOf` (a value of a type) or ``None`` (the value None). :func:`validate_params`
checks an estimator against its declaration at fit time; the CLI and the benchmark config read
their choices from it (:func:`options`). Standard library only, so that the CLI can import it
cheaply.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

from rulelearn.errors import ParameterError


@dataclass(frozen=True, init=False)
class Options:
    """One of ``values`` (compared with ``in``, so ``np.str_("dnf")`` is ``"dnf"``)."""

    values: tuple

    def __init__(self, *values):
        object.__setattr__(self, "values", values)

    def accepts(self, value) -> bool:
        return value in self.values

    def __str__(self) -> str:
        return f"one of {{{', '.join(repr(v) for v in self.values)}}}"


@dataclass(frozen=True)
class Interval:
    """A number of ``kind`` (``numbers.Integral`` or ``numbers.Real``; never a bool) in bounds.

    ``low`` / ``high`` (None: unbounded) are included as ``closed`` says: "left", "right",
    "both" or "neither". ``finite`` also refuses infinity; NaN is always refused.
    """

    kind: type
    low: float | None = None
    high: float | None = None
    closed: str = "left"
    finite: bool = False

    def accepts(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind):
            return False
        number: Any = value
        if number != number or (self.finite and not math.isfinite(number)):  # NaN never passes
            return False
        low_ok = self.low is None or (number >= self.low if self.closed in ("left", "both")
                                      else number > self.low)
        high_ok = self.high is None or (number <= self.high if self.closed in ("right", "both")
                                        else number < self.high)
        return bool(low_ok and high_ok)

    def __str__(self) -> str:
        what = ("an int" if self.kind is numbers.Integral
                else "a finite number" if self.finite else "a number")
        if self.low is not None and self.high is not None:
            left = "[" if self.closed in ("left", "both") else "("
            right = "]" if self.closed in ("right", "both") else ")"
            return f"{what} in {left}{self.low}, {self.high}{right}"
        if self.low is not None:
            return f"{what} {'>=' if self.closed in ('left', 'both') else '>'} {self.low}"
        if self.high is not None:
            return f"{what} {'<=' if self.closed in ('right', 'both') else '<'} {self.high}"
        return what


@dataclass(frozen=True)
class InstanceOf:
    """An instance of ``kind`` (``dict``: a mapping given as a dict); what it holds is the
    estimator's to check at fit time."""

    kind: type

    def accepts(self, value) -> bool:
        return isinstance(value, self.kind)

    def __str__(self) -> str:
        return f"a {self.kind.__name__}"


def _accepts(constraint, value) -> bool:
    return value is None if constraint is None else constraint.accepts(value)


def accepts(constraints: list, value) -> bool:
    """Whether ``value`` meets one of a parameter's ``constraints``."""
    return any(_accepts(c, value) for c in constraints)


def allowed(constraints: list) -> str:
    """What a parameter's ``constraints`` allow, as text: ``an int >= 1 or None``."""
    return " or ".join("None" if c is None else str(c) for c in constraints)


def check_param(estimator_class: Any, name: str, value) -> None:
    """:class:`ParameterError` naming the parameter, what it allows and ``value``, if refused."""
    constraints = estimator_class._parameter_constraints[name]
    if not accepts(constraints, value):
        raise ParameterError(f"The {name!r} parameter of {estimator_class.__name__} must be "
                             f"{allowed(constraints)}. Got {value!r} instead.")


def check_value(constraints: list, value, what: str) -> None:
    """:class:`ParameterError` ``{what} must be {allowed}; got {value!r}`` if ``value`` is
    refused: a function's check of a value declared once (e.g. each θ of a grid)."""
    if not accepts(constraints, value):
        raise ParameterError(f"{what} must be {allowed(constraints)}; got {value!r}")


def interval(constraints: list) -> Interval:
    """The one :class:`Interval` among a parameter's ``constraints``."""
    found = [c for c in constraints if isinstance(c, Interval)]
    if len(found) != 1:
        raise TypeError(f"expected one Interval among {constraints!r}")
    return found[0]


def click_type(constraints: list):
    """A Click type for the numbers of a parameter's :class:`Interval`: an ``IntRange`` or
    ``FloatRange`` with its bounds (so ``--help`` shows them) that also refuses what the range
    lets through and the declaration does not (NaN, or infinity when ``finite``)."""
    import click

    bound = interval(constraints)
    base: Any = click.IntRange if bound.kind is numbers.Integral else click.FloatRange

    class Declared(base):
        def convert(self, value, param, ctx):
            number = super().convert(value, param, ctx)
            if not bound.accepts(number):
                self.fail(f"{number!r} is not {bound}.", param, ctx)
            return number

    return Declared(min=bound.low, max=bound.high,
                    min_open=bound.closed not in ("left", "both"),
                    max_open=bound.closed not in ("right", "both"))


def validate_params(estimator: Any) -> None:
    """Check every declared parameter of ``estimator``, in the order of the declaration."""
    for name in type(estimator)._parameter_constraints:
        check_param(type(estimator), name, getattr(estimator, name))


def options(constraints: dict, name: str) -> tuple:
    """The values ``name`` may take if it is declared as one :class:`Options`, else ``()``."""
    declared = constraints.get(name, ())
    if len(declared) == 1 and isinstance(declared[0], Options):
        return declared[0].values
    return ()
