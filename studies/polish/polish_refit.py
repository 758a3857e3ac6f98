"""Polish at the refit only: base's chosen settings refitted with ``polish=True``.

The CV stays base's (``fit``'s, as recorded in a ``select_rule.py --raw`` file, e.g. round
2's ``studies/cut-points/levers_cuts.json``, whose base is results/public's fit): for each
fold and rule,
the setting base's CV chose (``RULE_setting``) is refitted on the training part as it was and
with ``polish=True``, each pruned as ``+p`` does, and scored on the test part. The raw file
does not record the start the CV may have picked for the refit (``Selection.estimator_setting``),
so the unpolished refit is tried from "best", then "sc", then "tree", and the first that
reproduces base's recorded test errors and literals (unpruned and ``+p``) is polished (none:
the run stops). Writes rows with the columns ``refit:RULE``, ``refit:RULE+p`` (error and
literals) and ``refit:RULE_start`` for ``merge_raw.py``.

    python studies/polish/polish_refit.py BASE.json OUT.json [NAME ...] [--rules min,0.1pt]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import time
import warnings

import numpy as np

from rulelearn.bench.protocol import outer_folds
from rulelearn.data import load_dataset
from rulelearn.estimator import BooleanRuleClassifier
from rulelearn.model_selection import take_rows
from rulelearn.prune import prune_model


def refit_fold(name: str, fold: int, base: dict, rules) -> dict:
    data = load_dataset(name, mirror=os.environ.get("RULELEARN_MIRROR"))
    y = np.asarray(data.y)
    train, test = outer_folds(y, 5, 0, name)[fold]
    X_tr, X_te = take_rows(data.X, train), take_rows(data.X, test)
    out: dict = {"name": name, "fold": fold, "refit:cpu": 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for rule in rules:
            _, form, R, theta, n_thr = base[f"{rule}_setting"]

            def refit(start, polish, form=form, R=R, theta=theta, n_thr=n_thr):
                model = BooleanRuleClassifier(pos_label=data.positive, start=start, form=form,
                                              max_rules=R, theta=theta, n_thresholds=n_thr,
                                              polish=polish).fit(X_tr, y[train])
                return model, prune_model(copy.copy(model), X_tr, y[train])

            def scores(pair):
                return [(100 * float(np.mean(m.predict(X_te) != y[test])), m.rule_.n_literals)
                        for m in pair]

            recorded = [(base[f"{rule}{s}_error"], base[f"{rule}{s}_literals"]) for s in ("", "+p")]
            start = next((s for s in ("best", "sc", "tree")
                          if np.allclose(scores(refit(s, False)), recorded, rtol=0, atol=1e-9)),
                         None)
            if start is None:
                raise SystemExit(f"{name} fold {fold}: no start reproduces base's {rule}")
            began = time.process_time()
            polished = refit(start, True)
            out["refit:cpu"] += time.process_time() - began
            out[f"refit:{rule}_start"] = start
            for suffix, index in (("", 0), ("+p", 1)):
                fitted = polished[index]
                out[f"refit:{rule}{suffix}_error"] = \
                    100 * float(np.mean(fitted.predict(X_te) != y[test]))
                out[f"refit:{rule}{suffix}_literals"] = fitted.rule_.n_literals
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("out")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--rules", default="min,0.1pt")
    args = parser.parse_args(argv)
    with open(args.base) as f:
        rows = json.load(f)
    names = args.names or list(dict.fromkeys(r["name"] for r in rows))
    done: list = []
    for name in names:
        for row in sorted((r for r in rows if r["name"] == name), key=lambda r: r["fold"]):
            done.append(refit_fold(name, row["fold"], row, args.rules.split(",")))
            with open(args.out + ".tmp", "w") as f:
                json.dump(done, f, indent=1)
            os.replace(args.out + ".tmp", args.out)
            print(name, row["fold"], {k: v for k, v in done[-1].items()
                                      if k.endswith("+p_error")}, flush=True)


if __name__ == "__main__":
    main()
