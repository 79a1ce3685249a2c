#!/usr/bin/env python3
"""Writes fixtures/lm-eval/: lm-evaluation-harness 0.4 `--log_samples` output for two tasks, line for line as
lm_eval/evaluator.py builds each sample and loggers/evaluation_tracker.py writes it (hash_string, the
arguments re-keyed to gen_args_i.arg_j, sanitize_list on resps, str(target), json.dumps(ensure_ascii=False)),
plus the results_<date>.json beside them. The model outputs are seeded draws (no torch here):
  arc_mixed      multiple_choice over fixtures/arc-mixed.jsonl (3, 4 and 5 options), ARC's doc_to_text /
                 doc_to_choice / doc_to_target, metrics acc and acc_norm as api/task.py computes them;
  gsm8k_mini     generate_until with repeats 5 and a majority-vote filter, metric exact_match.
Usage: python3 scripts/write-lm-eval-fixtures.py"""
import hashlib, json, math, random
from pathlib import Path

OUT = Path("fixtures/lm-eval")
DATE_ID = "2026-11-27T09-30-00.000000"

def hash_string(string):  # lm_eval/utils.py
    return hashlib.sha256(string.encode("utf-8")).hexdigest()

def sanitize_list(sub):  # lm_eval/utils.py
    if isinstance(sub, list):
        return [sanitize_list(item) for item in sub]
    if isinstance(sub, tuple):
        return tuple(sanitize_list(item) for item in sub)
    return str(sub)

def logged(doc_id, doc, target, requests, resps, filtered, filter_key, metrics):
    """evaluator.py's example dict, then save_results_samples' sanitising."""
    example = {
        "doc_id": doc_id, "doc": doc, "target": target,
        "arguments": [args for args in requests], "resps": resps, "filtered_resps": filtered,
        "filter": filter_key, "metrics": list(metrics.keys()),
        "doc_hash": hash_string(json.dumps(doc, indent=2, default=str, ensure_ascii=False)),
        "prompt_hash": hash_string(requests[0][0]),
        "target_hash": hash_string(str(target)),
    }
    example.update(metrics)
    arguments = {}
    for i, arg in enumerate(example["arguments"]):
        arguments[f"gen_args_{i}"] = {}
        for j, tmp in enumerate(arg):
            arguments[f"gen_args_{i}"][f"arg_{j}"] = tmp
    example["resps"] = sanitize_list(example["resps"])
    example["filtered_resps"] = sanitize_list(example["filtered_resps"])
    example["arguments"] = arguments
    example["target"] = str(example["target"])
    return example

def arc_mixed(rng):
    docs = [json.loads(l) for l in open("fixtures/arc-mixed.jsonl")][:360]
    samples = []
    for doc_id, doc in enumerate(docs):
        ctx = f"Question: {doc['question']}\nAnswer:"
        choices = doc["choices"]["text"]
        gold = doc["choices"]["label"].index(doc["answerKey"])
        requests = [(ctx, f" {c}") for c in choices]
        # A model that knows the story about as well as a small one: the gold gets a boost of varying size.
        lls = [-1.2 * len(c) ** 0.5 - 2.0 * rng.random() for c in choices]
        lls[gold] += rng.gauss(2.0, 1.5)
        greedy = [False] * len(choices)
        resps = [[(ll, g)] for ll, g in zip(lls, greedy)]
        filtered = [(ll, g) for ll, g in zip(lls, greedy)]
        pred = max(range(len(lls)), key=lambda j: lls[j])
        pred_norm = max(range(len(lls)), key=lambda j: lls[j] / float(len(choices[j])))
        metrics = {"acc": 1.0 if pred == gold else 0.0, "acc_norm": 1.0 if pred_norm == gold else 0.0}
        samples.append(logged(doc_id, doc, gold, requests, resps, filtered, "none", metrics))
    return samples

def gsm8k_mini(rng):
    samples = []
    for doc_id in range(240):
        a, b = rng.randint(2, 40), rng.randint(2, 40)
        doc = {"question": f"Tom has {a} apples and buys {b} more. How many apples does he have?", "answer": f"Tom has {a} + {b} = <<{a}+{b}={a+b}>>{a+b} apples.\n#### {a+b}"}
        target = doc["answer"]
        ctx = f"Question: {doc['question']}\nAnswer:"
        gen = {"until": ["Question:", "</s>", "<|im_end|>"], "do_sample": True, "temperature": 0.8}
        skill = rng.random()
        outs = []
        for _ in range(5):
            n = a + b if rng.random() < skill else a + b + rng.choice([-10, -1, 1, 2, 10])
            outs.append(f" {a} + {b} = {n}. The answer is {n}.")
        answers = [o.split("The answer is ")[1].rstrip(".") for o in outs]
        vote = max(sorted(set(answers)), key=answers.count)
        metrics = {"exact_match": 1.0 if vote == str(a + b) else 0.0}
        samples.append(logged(doc_id, doc, target, [(ctx, gen)], [outs], [vote], "maj@5", metrics))
    return samples

def write(task, samples, results):
    with open(OUT / f"samples_{task}_{DATE_ID}.jsonl", "w", encoding="utf-8") as f:
        for s in samples:
            f.write(json.dumps(s, default=str, ensure_ascii=False) + "\n")
    results["task_hashes"][task] = hash_string("".join(s["doc_hash"] + s["prompt_hash"] + s["target_hash"] for s in samples))

OUT.mkdir(parents=True, exist_ok=True)
rng = random.Random(28)
results = {
    "results": {}, "task_hashes": {},
    "config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-160m,dtype=float32", "batch_size": 64, "device": "cpu", "limit": None, "bootstrap_iters": 100000},
    "git_hash": None, "model_source": "hf", "model_name": "EleutherAI/pythia-160m", "model_name_sanitized": "EleutherAI__pythia-160m",
    "system_instruction": None, "system_instruction_sha": None, "fewshot_as_multiturn": False, "chat_template": None, "chat_template_sha": None,
}
for task, make in (("arc_mixed", arc_mixed), ("gsm8k_mini", gsm8k_mini)):
    samples = make(rng)
    write(task, samples, results)
    metric_names = samples[0]["metrics"]
    results["results"][task] = {"alias": task, **{f"{m},{samples[0]['filter']}": sum(s[m] for s in samples) / len(samples) for m in metric_names}}
(OUT / f"results_{DATE_ID}.json").write_text(json.dumps(results, indent=2, default=str, ensure_ascii=False), encoding="utf-8")
print("wrote", sorted(p.name for p in OUT.iterdir()))
