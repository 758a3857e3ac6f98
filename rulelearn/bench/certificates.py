"""The certificate of a unit's rule: its objective beside a lower bound on every rule's
(:func:`rulelearn.certify.certify` within :data:`CERTIFY_LIMITS`), and the bounds of earlier
records that a run reuses (:func:`known_bounds`)."""

from __future__ import annotations

import time

from rulelearn.bench.records import latest

#: Limits of a record's certificate (:func:`rulelearn.certify.lower_bound`), all counts so
#: that a record's bound is the same on any machine at any load: 40 master LP solves
#: (Parkinsons' fold 0 needs them to finish pricing), 20 nodes per pricing MIP after 2 cut
#: rounds. ``cpu_safety`` is a safety net, checked between HiGHS runs only (each run also stops
#: after that many wall seconds, against a runaway one): where it stops a bound, the record's
#: status is "cpu limit" and ``reproducible`` false. The costliest bound measured under the
#: counts, Pima's fold 0 at θ 1.18 (38 master LPs, 8 pricing MIPs), took 250 CPU s, Parkinsons'
#: 151: the net is 600, well above both. ``levels``: the master's ladder rows per positive
#: (rulelearn.certify; 1 was the older G). ``pricing`` "auto" (the exact search of
#: rulelearn.conjunctions until it fails once, then the MIP) and ``closure`` (the master MIP over
#: every conjunction of small enough reduced cost, up to the master MIP's own rule; the bound is
#: the optimum where it finishes): on Transfusion's folds 0 and 2 the bound became the optimum,
#: 90.89 and 89.35, in 29.1 and 8.3 CPU s (88.40 and 88.07 in 29.8 and 34.6 without them).
CERTIFY_LIMITS = {"max_iterations": 40, "pricing_nodes": 20, "cut_rounds": 2,
                  "cpu_safety": 600.0, "levels": 2, "pricing": "auto", "closure": True}


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
    from rulelearn.certify import certify

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
    as :class:`rulelearn.certify.Certificate` (for :func:`certificate_of`'s ``known``)."""
    from rulelearn.certify import Certificate

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
