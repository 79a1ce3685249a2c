"""Reference values for test/uncertainty/*.test.ts, computed by lm-polygraph's own estimator, stat-calculator and
ue_metrics code on the inputs below. Not needed by the test run; it writes test/uncertainty/reference/values.ts.

Run (python3 with numpy and scipy; no torch, sklearn, rouge-score or network needed):

  python3 test/uncertainty/reference/lm_polygraph_reference.py \
      /work/.mirror/IINemo+lm-polygraph/repo /work/.mirror/nltk+nltk/repo > test/uncertainty/reference/values.ts

The two arguments are bare git clones of IINemo/lm-polygraph and nltk/nltk; the files used are taken from their
HEAD with `git archive` into a temporary folder. What is stubbed, and why it is not on the computed path:
  - torch / torch.nn (imported at module level by num_sem_sets.py; the value never touches it),
  - lm_polygraph.utils.model / utils.common (type imports and a logging decorator),
  - absl.logging (silences rouge-score's logs).
What is transcribed because it cannot be installed here (each a faithful copy of the library's code path):
  - rouge-score (google-research/rouge: tokenize.tokenize, _score_lcs/_lcs_table, _create_ngrams/_score_ngrams,
    scoring.fmeasure), driven by nltk's real PorterStemmer from the nltk clone;
  - nltk.util.ngrams (for bleu_score.py, which is otherwise nltk's real file);
  - scikit-learn's roc_auc_score and average_precision_score (_binary_clf_curve, roc_curve with
    drop_intermediate, trapezoid area, precision_recall_curve, the step-wise AP) and MinMaxScaler.
"""
import collections, json, math, os, re, subprocess, sys, tempfile, types

import numpy as np
from scipy.integrate import trapezoid
import scipy.linalg, scipy.special, scipy.stats  # noqa: E401,F401  (before the torch stub, which scipy probes for)

LMP, NLTK = sys.argv[1], sys.argv[2]
root = tempfile.mkdtemp(prefix="lmp-ref-")


def extract(repo, paths):
    tar = subprocess.run(["git", "--git-dir", repo, "archive", "HEAD", *paths], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", root], input=tar, check=True)


extract(LMP, ["src/lm_polygraph/estimators", "src/lm_polygraph/ue_metrics", "src/lm_polygraph/stat_calculators/semantic_classes.py",
              "src/lm_polygraph/stat_calculators/stat_calculator.py", "src/lm_polygraph/stat_calculators/entropy.py"])
extract(NLTK, ["nltk/stem/porter.py", "nltk/stem/api.py", "nltk/translate/bleu_score.py"])
sys.path.insert(0, os.path.join(root, "src"))
sys.path.insert(0, root)


def module(name, **attrs):
    m = types.ModuleType(name)
    m.__path__ = []
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


# Packages whose __init__ would import every backend: empty ones instead.
for pkg in ["lm_polygraph", "lm_polygraph.estimators", "lm_polygraph.ue_metrics", "lm_polygraph.stat_calculators",
            "lm_polygraph.utils", "nltk", "nltk.stem", "nltk.translate"]:
    m = module(pkg)
    m.__path__ = [os.path.join(root, "src", *pkg.split(".")) if pkg.startswith("lm_") else os.path.join(root, *pkg.split("."))]
module("lm_polygraph.utils.common", polygraph_module_init=lambda f: f)
module("lm_polygraph.utils.model", Model=object, WhiteboxModel=object)
module("lm_polygraph.normalizers")
module("lm_polygraph.normalizers.isotonic_pcc", IsotonicPCCNormalizer=object)
torch = module("torch")
torch.nn = module("torch.nn", Softmax=lambda dim=None: None)
module("absl")
sys.modules["absl"].logging = module("absl.logging", set_verbosity=lambda *_: None, WARNING=30)
module("nltk.util", ngrams=lambda seq, n: zip(*[list(seq)[i:] for i in range(n)]))

from nltk.stem import porter  # noqa: E402  (nltk's real file)
from nltk.translate.bleu_score import sentence_bleu  # noqa: E402,F401


# ---- rouge-score, transcribed (google-research/rouge: rouge_scorer.py, tokenize.py, scoring.py) ----
def _tokenize(text, stemmer):
    text = text.lower()
    text = re.sub(r"[^a-z0-9]+", " ", text)
    tokens = re.split(r"\s+", text)
    if stemmer:
        tokens = [stemmer.stem(x) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if re.match(r"^[a-z0-9]+$", x)]


def _fmeasure(precision, recall):
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _lcs_table(ref, can):
    t = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == can[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def _ngrams(tokens, n):
    c = collections.Counter()
    for g in (tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)):
        c[g] += 1
    return c


Score = collections.namedtuple("Score", ["precision", "recall", "fmeasure"])


class RougeScorer:
    def __init__(self, rouge_types, use_stemmer=False):
        self.rouge_types = rouge_types
        self._stemmer = porter.PorterStemmer() if use_stemmer else None

    def score(self, target, prediction):
        tt, pt = _tokenize(target, self._stemmer), _tokenize(prediction, self._stemmer)
        out = {}
        for rt in self.rouge_types:
            if rt == "rougeL":
                if not tt or not pt:
                    out[rt] = Score(0, 0, 0)
                    continue
                lcs = _lcs_table(tt, pt)[-1][-1]
                p, r = lcs / len(pt), lcs / len(tt)
            else:
                n = int(rt[5:])
                tn, pn = _ngrams(tt, n), _ngrams(pt, n)
                inter = sum(min(tn[g], pn[g]) for g in tn)
                p, r = inter / max(sum(pn.values()), 1), inter / max(sum(tn.values()), 1)
            out[rt] = Score(p, r, _fmeasure(p, r))
        return out


module("rouge_score")
sys.modules["rouge_score"].rouge_scorer = module("rouge_score.rouge_scorer", RougeScorer=RougeScorer)


# ---- scikit-learn, transcribed (sklearn/metrics/_ranking.py, preprocessing MinMaxScaler) ----
def _binary_clf_curve(y_true, y_score):
    y_true = np.asarray(y_true) == 1
    y_score = np.asarray(y_score, dtype=float)
    if not np.all(np.isfinite(y_score)):
        raise ValueError("Input contains infinity or NaN")
    idx = np.argsort(y_score, kind="mergesort")[::-1]
    y_score, y_true = y_score[idx], y_true[idx]
    distinct = np.where(np.diff(y_score))[0]
    thr = np.r_[distinct, y_true.size - 1]
    tps = np.cumsum(y_true)[thr]
    fps = 1 + thr - tps
    return fps, tps


def roc_auc_score(y_true, y_score):
    if len(np.unique(y_true)) != 2:
        raise ValueError("Only one class present in y_true. ROC AUC score is not defined in that case.")
    fps, tps = _binary_clf_curve(y_true, y_score)
    if len(fps) > 2:
        keep = np.where(np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True])[0]
        fps, tps = fps[keep], tps[keep]
    tps, fps = np.r_[0, tps], np.r_[0, fps]
    return float(trapezoid(tps / tps[-1], fps / fps[-1]))


def average_precision_score(y_true, y_score):
    fps, tps = _binary_clf_curve(y_true, y_score)
    ps = tps + fps
    precision = np.zeros_like(tps, dtype=float)
    np.divide(tps, ps, out=precision, where=(ps != 0))
    recall = np.ones_like(tps, dtype=float) if tps[-1] == 0 else tps / tps[-1]
    precision, recall = np.hstack((precision[::-1], 1)), np.hstack((recall[::-1], 0))
    return float(max(0.0, -np.sum(np.diff(recall) * np.array(precision)[:-1])))


class MinMaxScaler:
    def fit_transform(self, x):
        lo, hi = x.min(axis=0), x.max(axis=0)
        rng = np.where(hi - lo == 0, 1.0, hi - lo)
        return (x - lo) / rng


module("sklearn")
module("sklearn.metrics", roc_auc_score=roc_auc_score, average_precision_score=average_precision_score)
module("sklearn.preprocessing", MinMaxScaler=MinMaxScaler)

# ---- lm-polygraph's own code from here on ----
from lm_polygraph.estimators.max_probability import MaximumSequenceProbability  # noqa: E402
from lm_polygraph.estimators.perplexity import Perplexity  # noqa: E402
from lm_polygraph.estimators.token_entropy import MeanTokenEntropy  # noqa: E402
from lm_polygraph.estimators.self_certainty import SelfCertainty  # noqa: E402
from lm_polygraph.estimators.renyi_neg import RenyiNeg  # noqa: E402
from lm_polygraph.estimators.fisher_rao import FisherRao  # noqa: E402
from lm_polygraph.estimators.monte_carlo_sequence_entropy import MonteCarloSequenceEntropy  # noqa: E402
from lm_polygraph.estimators.monte_carlo_normalized_sequence_entropy import MonteCarloNormalizedSequenceEntropy  # noqa: E402
from lm_polygraph.estimators.semantic_entropy import SemanticEntropy  # noqa: E402
from lm_polygraph.estimators.lexical_similarity import LexicalSimilarity  # noqa: E402
from lm_polygraph.estimators.num_sem_sets import NumSemSets  # noqa: E402
from lm_polygraph.estimators.eig_val_laplacian import EigValLaplacian  # noqa: E402
from lm_polygraph.estimators.deg_mat import DegMat  # noqa: E402
from lm_polygraph.estimators.eccentricity import Eccentricity  # noqa: E402
from lm_polygraph.estimators.p_true import PTrue  # noqa: E402
from lm_polygraph.estimators.eigenscore import EigenScore  # noqa: E402
from lm_polygraph.estimators.verbalized_1s import Verbalized1S  # noqa: E402
from lm_polygraph.estimators.cocoa import CocoaMSP, CocoaPPL, CocoaMTE  # noqa: E402
from lm_polygraph.stat_calculators.entropy import EntropyCalculator  # noqa: E402
from lm_polygraph.stat_calculators.semantic_classes import SemanticClassesCalculator  # noqa: E402
from lm_polygraph.ue_metrics.pred_rej_area import PredictionRejectionArea  # noqa: E402
from lm_polygraph.ue_metrics.risk_cov_curve import RiskCoverageCurveAUC  # noqa: E402
from lm_polygraph.ue_metrics.spearmanr import SpearmanRankCorrelation  # noqa: E402
from lm_polygraph.ue_metrics.kendalltau import KendallTauCorrelation  # noqa: E402
from lm_polygraph.ue_metrics.roc_auc import ROCAUC  # noqa: E402
from lm_polygraph.ue_metrics.pr_auc import PRAUC  # noqa: E402
from lm_polygraph.ue_metrics.ece import ECE  # noqa: E402

rng = np.random.default_rng(26)


def log_softmax(x):
    x = np.asarray(x, dtype=float)
    return x - np.log(np.sum(np.exp(x - x.max()))) - x.max()


# ---- inputs ----
T, V = 5, 7
greedy_log_probs = [log_softmax(rng.normal(0, 2, V)) for _ in range(T)]
greedy_log_probs[2][4] = -np.inf  # a token the model can never emit
greedy_log_likelihoods = [float(row.max()) for row in greedy_log_probs]

sample_texts = [
    "The capital of France is Paris.",
    "Paris is the capital city of France",
    "It is Lyon, I believe.",
    "paris, the capital of france",
    "The answer is Marseille running quickly",
]
K = len(sample_texts)
sample_log_likelihoods = [list(-np.abs(rng.normal(0.4, 0.5, n))) for n in (7, 7, 6, 6, 6)]
sample_log_probs = [float(np.sum(ll)) for ll in sample_log_likelihoods]
sample_tokens = [list(range(len(ll))) for ll in sample_log_likelihoods]


def nli(e_block):
    """Entail / contra probability matrices with entail > contra inside each block, the argmax labels and MNLI ids."""
    e = np.zeros((K, K)); c = np.zeros((K, K))
    for i in range(K):
        for j in range(K):
            same = e_block[i] == e_block[j]
            a = rng.uniform(0.55, 0.95) if same else rng.uniform(0.02, 0.3)
            b = rng.uniform(0.0, 1 - a) * (0.2 if same else 0.9)
            e[i, j], c[i, j] = a, b
    return e, c


entail, contra = nli([0, 0, 1, 0, 2])
entail[1, 3] = 0.3; contra[1, 3] = 0.25  # a neutral-labelled pair inside class 0: the representative decides
labels = np.argmax(np.stack([contra, 1 - entail - contra, entail], -1), -1)  # CONTRADICTION 0, NEUTRAL 1, ENTAILMENT 2
embeddings = rng.normal(0, 1, (K, 6))
similarity = [0.91, 0.83, 0.12, 0.88, 0.05]
greedy_text = "Paris. Probability: 0.85"

stats = {
    "greedy_log_probs": [greedy_log_probs],
    "greedy_log_likelihoods": [greedy_log_likelihoods],
    "sample_texts": [sample_texts],
    "sample_log_probs": [sample_log_probs],
    "sample_log_likelihoods": [sample_log_likelihoods],
    "sample_tokens": [sample_tokens],
    "semantic_matrix_entail": np.array([entail]),
    "semantic_matrix_contra": np.array([contra]),
    "semantic_matrix_classes": np.array([labels]),
    "entailment_id": 2,
    "sample_embeddings": [embeddings],
    "greedy_sentence_similarity": np.array([similarity]),
    "p_true": [-0.3566749439387324],
    "greedy_texts": [greedy_text],
}
stats.update(EntropyCalculator()(stats))
stats.update(SemanticClassesCalculator()(stats, None, None))

ESTIMATORS = [
    MaximumSequenceProbability(), Perplexity(), MeanTokenEntropy(), SelfCertainty(), RenyiNeg(), FisherRao(),
    MonteCarloSequenceEntropy(), MonteCarloNormalizedSequenceEntropy(), SemanticEntropy(),
    SemanticEntropy(class_probability_estimation="frequency"), SemanticEntropy(entropy_estimation="direct"),
    SemanticEntropy(use_unique_responses=True),
    LexicalSimilarity("rougeL"), LexicalSimilarity("rouge1"), LexicalSimilarity("rouge2"), LexicalSimilarity("BLEU"),
    NumSemSets(),
    *[cls(similarity_score="NLI_score", affinity=a) for cls in (EigValLaplacian, DegMat, Eccentricity) for a in ("entail", "contra")],
    EigValLaplacian(similarity_score="Jaccard_score"), DegMat(similarity_score="Jaccard_score"),
    Eccentricity(similarity_score="Jaccard_score"),
    PTrue(), EigenScore(), Verbalized1S(confidence_regex=r"Probability: (\d+\.\d+)"), CocoaMSP(), CocoaPPL(), CocoaMTE(),
]


def floats(xs):
    return ["raises" if x is None else (repr(float(x)) if np.isfinite(x) else ("NaN" if np.isnan(x) else ("Infinity" if x > 0 else "-Infinity"))) for x in xs]


def one(est, s):
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                return float(np.asarray(est(s)).ravel()[0])
            except Exception:  # lm-polygraph raises on this input: written as "raises"
                return None


scores = {str(e): one(e, stats) for e in ESTIMATORS}

# ---- edge cases ----
edge = {}
# K = 1 sample
s1 = {"sample_texts": [sample_texts[:1]], "sample_log_probs": [sample_log_probs[:1]], "sample_tokens": [sample_tokens[:1]],
      "semantic_matrix_entail": np.array([entail[:1, :1]]), "semantic_matrix_contra": np.array([contra[:1, :1]]),
      "semantic_matrix_classes": np.array([labels[:1, :1]]), "entailment_id": 2, "sample_embeddings": [embeddings[:1]]}
s1.update(SemanticClassesCalculator()(s1, None, None))
edge["k1"] = {str(e): one(e, s1) for e in [MonteCarloSequenceEntropy(), MonteCarloNormalizedSequenceEntropy(), SemanticEntropy(),
                                             LexicalSimilarity("rougeL"), NumSemSets(), EigValLaplacian(), DegMat(), Eccentricity(), EigenScore()]}
# all samples identical
same_texts = ["Paris"] * 4
e_same = np.full((4, 4), 0.97); c_same = np.full((4, 4), 0.01)
ss = {"sample_texts": [same_texts], "sample_log_probs": [[-0.2, -0.2, -0.2, -0.2]], "sample_tokens": [[[1]] * 4],
      "semantic_matrix_entail": np.array([e_same]), "semantic_matrix_contra": np.array([c_same]),
      "semantic_matrix_classes": np.array([np.full((4, 4), 2)]), "entailment_id": 2}
ss.update(SemanticClassesCalculator()(ss, None, None))
edge["identical"] = {str(e): one(e, ss) for e in [SemanticEntropy(), SemanticEntropy(use_unique_responses=True),
                                                    LexicalSimilarity("rougeL"), LexicalSimilarity("BLEU"), NumSemSets(),
                                                    EigValLaplacian(), DegMat(), Eccentricity(), Eccentricity(similarity_score="Jaccard_score")]}
# empty text: no tokens, empty strings among the samples
se = {"greedy_log_likelihoods": [[]], "entropy": [[]], "greedy_log_probs": [[]], "greedy_sentence_similarity": np.array([similarity])}
edge["empty_greedy"] = {str(e): one(e, se) for e in [MaximumSequenceProbability(), Perplexity(), MeanTokenEntropy(), SelfCertainty(),
                                                       RenyiNeg(), FisherRao(), CocoaMSP(), CocoaPPL()]}
sx = {"sample_texts": [["", "Paris", ""]], "sample_log_probs": [[-0.1, -0.7, -0.1]], "sample_tokens": [[[], [5], []]]}
edge["empty_samples"] = {str(e): one(e, sx) for e in [LexicalSimilarity("rougeL"), LexicalSimilarity("rouge1"),
                                                        LexicalSimilarity("BLEU"), DegMat(similarity_score="Jaccard_score"),
                                                        EigValLaplacian(similarity_score="Jaccard_score"),
                                                        MonteCarloNormalizedSequenceEntropy()]}
# a token log-probability of −∞
ll_inf = [-0.2, -np.inf, -0.3]
lp_inf = [log_softmax([0.0, 1.0, 2.0]), np.array([-np.inf, 0.0, -np.inf]), log_softmax([1.0, 1.0, 0.0])]
si = {"greedy_log_likelihoods": [ll_inf], "greedy_log_probs": [lp_inf], "greedy_sentence_similarity": np.array([[0.5, 0.2]])}
si.update(EntropyCalculator()(si))
edge["neg_inf"] = {str(e): one(e, si) for e in [MaximumSequenceProbability(), Perplexity(), MeanTokenEntropy(), SelfCertainty(),
                                                  RenyiNeg(), FisherRao(), CocoaMSP(), CocoaMTE()]}
edge["neg_inf_entropy"] = list(si["entropy"][0])
sinf = {"sample_texts": [["a", "b", "a"]], "sample_log_probs": [[-np.inf, -0.5, -1.0]], "sample_tokens": [[[1], [2], [1]]],
        "semantic_matrix_classes": np.array([[[2, 0, 2], [0, 2, 0], [2, 0, 2]]]), "entailment_id": 2}
sinf.update(SemanticClassesCalculator()(sinf, None, None))
edge["neg_inf_samples"] = {str(e): one(e, sinf) for e in [MonteCarloSequenceEntropy(), MonteCarloNormalizedSequenceEntropy(), SemanticEntropy()]}

# ---- metrics ----
n = 40
ue = rng.normal(0, 1, n)
ue_ties = np.round(ue, 0)  # few distinct values: sklearn's tie handling
binary = (rng.uniform(size=n) < 1 / (1 + np.exp(ue))).astype(float)
graded = np.clip(1 / (1 + np.exp(ue)) + rng.normal(0, 0.2, n), 0, 1)
conf = 1 / (1 + np.exp(ue))
metrics = {
    "roc-auc": ROCAUC()(ue, binary), "roc-auc ties": ROCAUC()(ue_ties, binary),
    "pr-auc": PRAUC()(ue, binary), "pr-auc ties": PRAUC()(ue_ties, binary),
    "prr": PredictionRejectionArea()(ue, graded), "prr_0.5": PredictionRejectionArea(0.5)(ue, graded),
    "prr binary": PredictionRejectionArea()(ue, binary),
    "prr oracle": PredictionRejectionArea()(-graded, graded),
    "rcc-auc": RiskCoverageCurveAUC()(ue, graded), "rcc-auc ties": RiskCoverageCurveAUC()(ue_ties, graded),
    "rcc-auc unnormalized": RiskCoverageCurveAUC(normalize=False)(ue, graded),
    "spearmanr": SpearmanRankCorrelation()(ue, graded), "spearmanr ties": SpearmanRankCorrelation()(ue_ties, binary),
    "kendalltau": KendallTauCorrelation()(ue, graded), "kendalltau ties": KendallTauCorrelation()(ue_ties, binary),
    "ece": ECE()(-conf, binary), "ece normalized": ECE(normalize=True)(ue, binary),
}

# ---- text similarity primitives ----
words = ["running", "quickly", "houses", "capital", "generalization", "ponies", "ties", "dying", "skies", "agreed",
         "feed", "hopping", "filing", "happy", "sky", "relational", "conditional", "rational", "digitizer",
         "conformabli", "radically", "differently", "vilely", "analogously", "vietnamization", "predication",
         "operator", "feudalism", "decisiveness", "hopefulness", "callousness", "formality", "sensitivity",
         "sensibility", "triplicate", "formative", "formalize", "electricity", "electrical", "hopeful", "goodness",
         "revival", "allowance", "inference", "airliner", "gyroscopic", "adjustable", "defensible", "irritant",
         "replacement", "adjustment", "dependent", "adoption", "homologou", "communism", "activate", "angulariti",
         "homologous", "effective", "bowdlerize", "probate", "rate", "cease", "controll", "roll", "fully",
         "analogi", "archaeology", "innings", "proceed", "news", "caresses", "ies", "tied", "cried", "sing",
         "bled", "filled", "hissing", "fizzed", "failing", "filing", "possibly", "generously", "fulli"]
stemmer = porter.PorterStemmer()
pairs = [(sample_texts[i], sample_texts[j]) for i in range(K) for j in range(i + 1, K)]
rs = RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=True)
text = {
    "stems": {w: stemmer.stem(w) for w in words},
    "rouge": [[a, b, rs.score(a, b)["rouge1"].fmeasure, rs.score(a, b)["rouge2"].fmeasure, rs.score(a, b)["rougeL"].fmeasure] for a, b in pairs],
}

print("// Written by test/uncertainty/reference/lm_polygraph_reference.py from lm-polygraph's own code (see there):")
print("//   python3 test/uncertainty/reference/lm_polygraph_reference.py /work/.mirror/IINemo+lm-polygraph/repo /work/.mirror/nltk+nltk/repo")
lmp_head = subprocess.run(["git", "--git-dir", LMP, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
nltk_head = subprocess.run(["git", "--git-dir", NLTK, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
print(f"// lm-polygraph {lmp_head}, nltk {nltk_head}, numpy {np.__version__}, python {sys.version.split()[0]}.")
print("// Numbers are strings where JSON has no literal (\"NaN\", \"Infinity\", \"-Infinity\").")
inputs = {
    "greedy_log_probs": [floats(r) for r in greedy_log_probs], "greedy_log_likelihoods": floats(greedy_log_likelihoods),
    "sample_texts": sample_texts, "sample_log_probs": floats(sample_log_probs),
    "sample_log_likelihoods": [floats(r) for r in sample_log_likelihoods],
    "semantic_matrix_entail": [floats(r) for r in entail], "semantic_matrix_contra": [floats(r) for r in contra],
    "sample_embeddings": [floats(r) for r in embeddings], "greedy_sentence_similarity": similarity,
    "p_true": -0.3566749439387324, "greedy_texts": greedy_text,
}
out = {
    "inputs": inputs,
    "entropy": floats(stats["entropy"][0]),
    "classes": {"sample_to_class": [int(stats["semantic_classes_entail"]["sample_to_class"][0][j]) for j in range(K)],
                "class_to_sample": [list(map(int, c)) for c in stats["semantic_classes_entail"]["class_to_sample"][0]]},
    "scores": dict(zip(scores, floats(scores.values()))),
    "edge": {k: (floats(v) if isinstance(v, list) else dict(zip(v, floats(v.values())))) for k, v in edge.items()},
    "metricInputs": {"ue": floats(ue), "ueTies": floats(ue_ties), "binary": floats(binary), "graded": floats(graded)},
    "metrics": dict(zip(metrics, floats(metrics.values()))),
    "text": text,
}
print("export const REFERENCE = " + json.dumps(out, indent=1) + " as const;")
