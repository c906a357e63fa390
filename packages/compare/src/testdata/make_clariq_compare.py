"""The comparison convkit-compare must print for ClariQ's sample runs, computed with SciPy 1.10 and statsmodels 0.13.

usage: make_clariq_compare.py SHARED_DIR TEST > clariq_compare_expected.json
Per-facet values come from the ClariQ evaluator's own out_file goldens
(SHARED/golden/clariq-eval/expected/document_relevance.dev.<run>.json); every pair of the five
runs, in the order below, is tested per metric (facets in the out_file's order, all runs have
them all) and corrected with Holm per metric. NaN is written as null.
"""
import json, math, sys
import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

shared, test = sys.argv[1], sys.argv[2]
RUNS = ["dev_bm25", "dev_BERT-ranker", "dev_no_q", "dev_best_q", "dev_worst_q"]
per = {r: json.load(open(f"{shared}/golden/clariq-eval/expected/document_relevance.dev.{r}.json"))["out_file"] for r in RUNS}

def f(x):
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else x

out = []
for metric in per[RUNS[0]]:
    facets = list(per[RUNS[0]][metric])
    vec = {r: np.array([per[r][metric][k] for k in facets]) for r in RUNS}
    rows = []
    for i in range(len(RUNS)):
        for j in range(i + 1, len(RUNS)):
            a, b = vec[RUNS[i]], vec[RUNS[j]]
            d = a - b
            n = len(d)
            t = stats.ttest_rel(a, b)
            if test == "t":
                stat, p = t.statistic, t.pvalue
            elif test == "wilcoxon":
                if np.all(d == 0):
                    stat, p = float("nan"), float("nan")
                else:
                    w = stats.wilcoxon(a, b, zero_method="wilcox", correction=False, method="approx")
                    stat, p = w.statistic, w.pvalue
            elif test == "sign":
                wins, losses = int((d > 0).sum()), int((d < 0).sum())
                stat = wins
                p = stats.binomtest(wins, wins + losses, 0.5).pvalue if wins + losses > 0 else float("nan")
            sd = d.std(ddof=1)
            lo, hi = stats.t.interval(0.95, n - 1, loc=d.mean(), scale=sd / math.sqrt(n)) if sd > 0 else (float("nan"), float("nan"))
            wins, losses = int((d > 0).sum()), int((d < 0).sum())
            rows.append({"measure": metric, "a": RUNS[i], "b": RUNS[j], "n": n, "mean_a": f(a.mean()), "mean_b": f(b.mean()),
                         "mean_diff": f(d.mean()), "t": f(t.statistic), "statistic": f(stat), "p": f(p),
                         "cohen_dz": f(d.mean() / sd) if sd > 0 else None, "ci95": [f(lo), f(hi)],
                         "wins": wins, "ties": n - wins - losses, "losses": losses})
    ps = [r["p"] for r in rows if r["p"] is not None]
    rej, adj, _, _ = multipletests(ps, alpha=0.05, method="holm")
    k = 0
    for r in rows:
        if r["p"] is None:
            r["p_adjusted"], r["reject"] = None, False
        else:
            r["p_adjusted"], r["reject"] = float(adj[k]), bool(rej[k])
            k += 1
    out.extend(rows)
json.dump({"runs": RUNS, "test": test, "pairs": out}, sys.stdout, indent=1)
print()
