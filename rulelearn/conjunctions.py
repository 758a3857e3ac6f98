"""Exact search over conjunctions: the least reduced cost, and every conjunction below a cost.

A depth-first branch-and-bound over the conjunctions of ``d`` literals, each reached once:
literals are added in one fixed (canonical) order, so a node's children add the literals after
its last one. The reduced cost of a term ``S`` at the master's duals (levels ``T`` ≥ 1, duals
``μ_{i,t}`` ≥ 0 per positive and level, ``ρ`` ≤ 0; :func:`rulelearn.colgen.reduced_costs`) is::

    rc(S) = θ|S| + Σ_{negatives covered} w_i − Σ_{(i,t): d_S(i) < t} μ_{i,t} − ρ,

``d_S(i)`` the literals of ``S`` that positive ``i`` lacks. Adding literals only shrinks the
negatives covered and raises every ``d``, so every strict superset ``S'`` of ``S`` has::

    rc(S') ≥ θ(|S| + 1) − Σ_{(i,t): d_S(i) < t} μ_{i,t} − ρ          (the node's estimate),

and a subtree whose estimate is not below the cut-off is not searched. A literal ``j`` that
holds on every row ``S`` covers (positives and negatives) is skipped with its subtree: any
``T ⊇ S ∪ {j}`` covers the same rows as ``T \\ {j}``, which lacks fewer literals on every
positive and costs θ less, so ``T`` is never the least (with θ = 0: never less) and a rule
using ``T`` is never better than the same rule with ``T \\ {j}`` (see
:meth:`ConjunctionSearch.below`). So is a literal ``j`` that implies, on every row, a literal
``k`` of the term (``T \\ {k}`` covers the same rows as ``T``). Each node's children are
evaluated at once (two matrix-vector products over the rows still in play), and before a
node is expanded its subtree is bounded once more, negatives included (``_estimate``).

Stopped at a node limit, the least reduced cost is still bounded: every conjunction not
evaluated lies in an open subtree, so ``min(best found, least estimate of the open nodes)``
is a valid lower bound (the best found alone is not).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

_TOL = 1e-9


@dataclass
class SearchResult:
    """What a search found: ``terms`` (literal indices, ascending) with reduced costs
    ``values`` (ascending); ``dual_bound``: no conjunction has a lower reduced cost;
    ``optimal``: the search finished (``complete`` for :meth:`ConjunctionSearch.below`:
    every conjunction at or below the threshold is in ``terms``); ``nodes`` expanded."""

    terms: list[tuple[int, ...]] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    dual_bound: float = -np.inf
    optimal: bool = False
    nodes: int = 0
    clock: bool = False  # the deadline, not the node limit, stopped it

    @property
    def term(self) -> tuple[int, ...] | None:
        """The term of least reduced cost found (None when none was kept)."""
        return self.terms[0] if self.terms else None

    @property
    def value(self) -> float:
        return self.values[0] if self.values else np.inf


def level_tails(mu) -> np.ndarray:
    """``tail[m, i] = Σ_{t > m} μ_{i,t}``: what positive ``i`` is worth to a term that lacks
    ``m`` of its literals (``m`` = 0..T; 0 at ``T``). ``mu``: levels × positives, or 1-D."""
    mu = np.atleast_2d(np.asarray(mu, dtype=np.float64))
    return np.vstack([np.cumsum(mu[::-1], axis=0)[::-1], np.zeros((1, mu.shape[1]))])


class ConjunctionSearch:
    """The search over conjunctions of one data set (0/1 rows ``P`` positives, ``N``
    negatives, their weights, θ); the duals change from call to call."""

    def __init__(self, P, wp, N, wn, theta: float):
        self.P = np.asarray(P, dtype=np.float64)
        self.N = np.asarray(N, dtype=np.float64)
        self.wp = np.asarray(wp, dtype=np.float64)
        self.wn = np.asarray(wn, dtype=np.float64)
        self.theta = float(theta)
        self.d = self.P.shape[1] if self.P.ndim == 2 else self.N.shape[1]
        #: use ``_estimate`` before expanding a node (False: the plain estimate only)
        self.dominance = True
        rows = np.vstack([self.P.reshape(-1, self.d), self.N.reshape(-1, self.d)])
        #: [j, k]: every row with literal j has literal k (j ≠ k)
        self.implies = (rows.T @ (1.0 - rows)) < 0.5
        np.fill_diagonal(self.implies, False)

    def least(self, mu, rho: float, *, node_limit: int = 100_000, keep: int = 10,
              deadline: float | None = None) -> SearchResult:
        """The ``keep`` conjunctions of least negative reduced cost and a lower bound on the
        least reduced cost (``optimal``: proven; then ``min(0, ·)`` of it is the least's,
        since subtrees whose estimate is ≥ min(best found, 0) are not searched).
        ``deadline``: a ``time.process_time()`` value past which the search stops as at
        its node limit (a safety net; the node limit is the count that decides)."""
        return self._search(mu, rho, None, node_limit, keep, False, deadline)

    def below(self, mu, rho: float, threshold: float, *, node_limit: int = 1_000_000,
              max_terms: int = 100_000, deadline: float | None = None) -> SearchResult:
        """Every conjunction of reduced cost ≤ ``threshold`` but those with a skipped
        literal (module docstring: a rule keeps its objective or lowers it when such a term
        loses that literal, which keeps its reduced cost ≤ the threshold), sorted by reduced
        cost; ``optimal`` (complete) is False when more than ``max_terms`` qualify or the
        node limit stops the search first."""
        return self._search(mu, rho, float(threshold), node_limit, max_terms, True, deadline)

    def _search(self, mu, rho, threshold, node_limit, keep, all_rows, deadline):
        tail = level_tails(mu)
        if tail.shape[1] != len(self.wp):
            raise ValueError(f"{tail.shape[1]} duals per level for {len(self.wp)} positives")
        run = _Run(self, tail, float(rho), threshold, keep)
        # rows in play: positives worth something at some level (all that can still be
        # covered at a level < T when enumerating, for the skipped literals), covered negatives
        alive_p = np.arange(len(self.wp)) if all_rows else np.flatnonzero(tail[0] > 0)
        # open subtrees: (estimate of the strict supersets, term, first literal allowed,
        # positives in play, their misses, negatives covered)
        stack = [(self.theta - float(tail[0, alive_p].sum()) - run.rho, (), 0, alive_p,
                  np.zeros(len(alive_p), dtype=np.int64), np.arange(len(self.wn)))]
        nodes = 0
        clock = False
        while stack:
            node = stack.pop()
            if node[0] >= run.cutoff:
                continue
            clock = deadline is not None and nodes % 64 == 0 and time.process_time() > deadline
            if nodes >= node_limit or clock or run.full:
                stack.append(node)
                break
            nodes += 1
            stack += run.expand(*node[1:])
        return run.result(stack, nodes, clock and nodes < node_limit)


class _Run:
    """One search's state: the duals, the cut-off, what was found."""

    def __init__(self, search: ConjunctionSearch, tail, rho: float, threshold, keep: int):
        self.s, self.tail, self.rho = search, tail, rho
        self.levels = len(tail) - 1
        self.threshold, self.keep = threshold, keep
        self.best = float(search.wn.sum() - tail[0].sum() - rho)  # the empty term
        self.found: list[tuple[float, tuple[int, ...]]] = []
        if threshold is None:
            self.found.append((self.best, ()))
            self.cutoff = min(self.best, 0.0)
        else:
            if self.best <= threshold + _TOL:
                self.found.append((self.best, ()))
            self.cutoff = threshold + _TOL

    @property
    def full(self) -> bool:
        """More than ``keep`` conjunctions below the threshold: the listing stops."""
        return self.threshold is not None and len(self.found) > self.keep

    def expand(self, term, start, pa, miss, na) -> list:
        """Evaluate the children of ``term`` (literals from ``start`` on); record those
        found; return the subtrees to search, the most promising last."""
        s, tail, rho = self.s, self.tail, self.rho
        Pp, Nn = s.P[pa, start:], s.N[na, start:]
        has, lacks = tail[miss, pa], tail[np.minimum(miss + 1, self.levels), pa]
        size = len(term) + 1
        if term and s.dominance and _estimate(s.theta * size - rho, Pp, Nn, s.wn[na], miss,
                                              has, lacks) >= self.cutoff:
            return []
        gain = float(lacks.sum()) + (has - lacks) @ Pp
        rc = s.theta * size + s.wn[na] @ Nn - gain - rho
        covered = miss == 0
        holds = covered.astype(np.float64) @ Pp + Nn.sum(axis=0)
        useful = holds < int(covered.sum()) + len(na) - 0.5  # changes the coverage
        if term:  # and makes no literal of the term redundant on every row
            useful &= ~s.implies[start:, list(term)].any(axis=1)
        children = np.flatnonzero(useful)
        if self.threshold is not None:
            record = children[rc[children] <= self.threshold + _TOL]
        else:
            record = children[rc[children] < -_TOL]
            if len(children):
                self.best = min(self.best, float(rc[children].min()))
                self.cutoff = min(self.best, 0.0)
        self.found += [(float(rc[j]), term + (start + int(j),)) for j in record]
        if self.threshold is None and len(self.found) > 4 * self.keep:
            self.found = sorted(self.found)[:self.keep]
        sub = s.theta * (size + 1) - gain - rho  # estimates of the children's subtrees
        grow = children[(sub[children] < self.cutoff) & (start + children + 1 < s.d)]
        out = []
        for j in grow[np.argsort(-sub[grow], kind="stable")]:
            lit = start + int(j)
            new_miss = miss + (1 - s.P[pa, lit]).astype(np.int64)
            stay = new_miss < self.levels
            out.append((float(sub[j]), term + (lit,), lit + 1, pa[stay], new_miss[stay],
                        na[s.N[na, lit] > 0.5]))
        return out

    def result(self, stack, nodes: int, clock: bool) -> SearchResult:
        open_least = min((node[0] for node in stack), default=np.inf)
        found = sorted(self.found)
        if self.threshold is not None:
            return SearchResult([t for _, t in found], [v for v, _ in found],
                                min([self.threshold, open_least] + [v for v, _ in found[:1]]),
                                not stack and len(found) <= self.keep, nodes, clock)
        negative = [(v, t) for v, t in found if v < -_TOL][:self.keep]
        return SearchResult([t for _, t in negative], [v for v, _ in negative],
                            min(self.best, self.cutoff, open_least), not stack, nodes, clock)


def _estimate(fixed: float, Pp, Nn, wn, miss, has, lacks) -> float:
    """A lower bound on the reduced cost of every strict superset of a term, which adds
    literals from the columns of ``Pp`` / ``Nn`` (the positives and covered negatives in
    play; ``has`` / ``lacks``: each positive's worth at its misses and one more).

    ``fixed`` = θ(|S| + 1) − ρ. A positive that has none of the literals left gains
    ``lacks`` at most; one the term misses gains ``has`` at most. A covered one gains
    ``has`` only while it stays covered, and then every covered negative that has each of
    the literals left that it has is covered too: with ``λ_{n,p} ≥ 0``, ``Σ_p λ_{n,p} ≤ 1``
    over the positives ``n`` dominates so, ``w_n · [n covered] ≥ Σ_p λ_{n,p} w_n [p
    covered]``, so it gains at most ``lacks + max(0, has − lacks − Σ_n λ_{n,p} w_n)`` (λ
    split in proportion to ``has − lacks``)."""
    has_any = Pp.max(axis=1, initial=0.0) > 0
    covered = (miss == 0) & has_any
    gain = float(np.where(has_any, has, lacks)[~covered].sum() + lacks[covered].sum())
    keep = (has - lacks)[covered]
    if len(keep) and len(wn):
        dominated = (Pp[covered] @ (1.0 - Nn).T) < 0.5  # [p, n]: n has what p has
        share = dominated * keep[:, None]
        total = share.sum(axis=0)
        penalty = share @ np.divide(wn, total, out=np.zeros_like(wn), where=total > 0)
        gain += float(np.maximum(keep - penalty, 0.0).sum())
    else:
        gain += float(keep.sum())
    return fixed - gain
