"""What a user writes today for convkit-compare's bench row: all pairs of trec_eval -q files, per measure a
paired t-test (SciPy) and a numpy-vectorized randomization test (10,000 sign patterns), Holm (statsmodels)."""
import itertools, sys
from collections import defaultdict
import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

B = 10000
runs = {}
for path in sys.argv[1:]:
    v = defaultdict(dict)
    for line in open(path):
        m, t, x = line.split("\t")
        if t != "all":
            v[m.strip()][t] = float(x)
    runs[path] = v
names = list(runs)
tests = 0
for m in runs[names[0]]:
    topics = [t for t in runs[names[0]][m] if all(t in runs[r][m] for r in names)]
    ps = []
    for a, b in itertools.combinations(names, 2):
        x = np.array([runs[a][m][t] for t in topics]); y = np.array([runs[b][m][t] for t in topics])
        d = x - y
        stats.ttest_rel(x, y)
        rng = np.random.default_rng(1)
        signs = rng.choice([-1.0, 1.0], size=(B, len(d)))
        count = (np.abs((signs * d).sum(1)) >= abs(d.sum()) - 1e-10 * np.abs(d).sum()).sum()
        ps.append((count + 1) / (B + 1))
        tests += 1
    multipletests(ps, method="holm")
print(tests, "tests")
