"""The certificate of a unit's rule: its objective beside a lower bound on every rule's
(:func:`rulelearn.certify.certify` within :data:`CERTIFY_LIMITS`), and the bounds of earlier
records that a run reuses (:func:`known_bounds`)."""

from __future__ import annotations

import time

from rulelearn.bench.records import latest
from rulelearn.certify import Limits, certify
from rulelearn.colgen import Certificate

#: Limits of a record's certificate (:meth:`rulelearn.certify.Limits.bench`), as the keyword
#: arguments of :func:`rulelearn.certify.lower_bound`; a record keeps them.
CERTIFY_LIMITS = Limits.bench().options()


def certificate_of(model, X, y, known=None) -> dict:
    """Objective, lower bound and gap of a fitted rule learner on its training part
    (:func:`rulelearn.certify.certify` within :data:`CERTIFY_LIMITS`). The bound is not seeded
    with the rule, so it depends on the fold, θ, R and form only: every method choosing the
    same θ on a fold is measured against the same bound, computed once per process, or
    taken from ``known`` (:func:`known_bounds` of earlier records; ``reused`` then) when its
    ``bound_key`` (:func:`rulelearn.certify.bound_key`: the literals, classes, weights, θ,
    R, form, limits and the bound's code) is there.
    ``limits`` and ``status`` say what produced it (``reproducible``: the counts, not the
    CPU safety net, stopped it); ``cpu_seconds`` is the bound's own (0 when reused)."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    c = certify(model, X, y, seed_rule=False, cache=True, known=known, **CERTIFY_LIMITS)
    return {"objective": c.objective, "lower_bound": c.bound, "gap": c.gap,
            "theta": float(model.theta), "status": c.certificate.status,
            "reproducible": c.certificate.status != "cpu limit",
            "exact_pricing": c.certificate.exact_pricing, "columns": c.certificate.columns,
            "iterations": c.certificate.iterations,
            "pricing_mips": c.certificate.pricing_mips, "limits": dict(CERTIFY_LIMITS),
            "lp_value": c.certificate.lp_value, "lp_bound": c.certificate.lp_bound,
            "levels": c.certificate.levels, "bound_key": c.bound_key,
            "kind": c.certificate.kind, "closure_status": c.certificate.closure_status,
            "upper_bound": c.certificate.upper_bound,
            "reused": bool(known) and c.bound_key in known,
            "seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - cpu0}


def known_bounds(records) -> dict:
    """The reproducible certificates of ``records`` (the latest per unit, ok) by bound key,
    as :class:`rulelearn.colgen.Certificate` (for :func:`certificate_of`'s ``known``)."""
    known = {}
    for rec in latest(records).values():
        c = (rec.raw or {}).get("certificate") if rec.ok else None
        if not isinstance(c, dict) or not c.get("bound_key") or not c.get("reproducible") \
                or c.get("limits") != CERTIFY_LIMITS:
            continue
        try:
            known[c["bound_key"]] = Certificate(
                float(c["lower_bound"]), float(c["lp_value"]), bool(c["exact_pricing"]),
                int(c["iterations"]), int(c["columns"]), 0.0, str(c["status"]),
                pricing_mips=int(c["pricing_mips"]), lp_bound=float(c["lp_bound"]),
                levels=int(c["levels"]), kind=str(c.get("kind", "lp")),
                closure_status=str(c.get("closure_status", "")),
                upper_bound=c.get("upper_bound"))
        except (KeyError, TypeError, ValueError):  # a damaged record: computed again
            continue
    return known
