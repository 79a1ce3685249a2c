"""Drives a running `calibkit serve-model` with lm-evaluation-harness's own request code, and prints what it sent
and what it read back, as JSON: the literals of test/adapters/serveModel.lmEval.test.ts.

lm-eval's pieces are taken from its source as they are (no lm-eval install needed, only `requests`):
RemoteTokenizer and check_remote_tokenizer_support (lm_eval/utils.py), TemplateLM._encode_pair and the empty
context rule of TemplateLM.loglikelihood (lm_eval/api/model.py), TemplateAPI.tok_encode, prefix_token_id and
batch_loglikelihood_requests (lm_eval/models/api_models.py), LocalCompletionsAPI._create_payload, parse_logprobs
and parse_generations (lm_eval/models/openai_completions.py), handle_stop_sequences (lm_eval/models/utils.py).

usage: python3 lmEvalReplay.py LM_EVAL_CHECKOUT SERVER_URL
"""
import ast
import json
import sys
import threading
from functools import cached_property  # noqa: F401 (lm-eval's code names it)
from collections.abc import Iterable
from operator import itemgetter

import jinja2
import requests

SRC, URL = sys.argv[1], sys.argv[2].rstrip("/")


def grab(path, names, cls=None):
    tree = ast.parse(open(f"{SRC}/{path}", encoding="utf-8").read())
    body = tree.body
    if cls:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    out = []
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name in names:
            if isinstance(node, ast.FunctionDef):
                node.decorator_list = [d for d in node.decorator_list if ast.unparse(d) not in ("cached_property", "property")]
            out.append(ast.unparse(node))
    assert len(out) == len(names), (path, names, cls)
    # Annotations stay unevaluated: they name lm-eval types this script does not load.
    return "from __future__ import annotations\n\n" + "\n\n".join(out)


ns = {"requests": requests, "threading": threading, "env": jinja2.Environment(), "itemgetter": itemgetter, "Iterable": Iterable, "eval_logger": None}
exec(grab("lm_eval/utils.py", ["RemoteTokenizer", "check_remote_tokenizer_support"]), ns)
exec(grab("lm_eval/models/utils.py", ["handle_stop_sequences"]), ns)


class LM:
    """The lm-eval methods a `local-completions` run with the remote tokenizer goes through, on one object."""

    exec(grab("lm_eval/api/model.py", ["_encode_pair"], "TemplateLM"), ns)
    _encode_pair = ns["_encode_pair"]
    exec(grab("lm_eval/models/api_models.py", ["tok_encode", "prefix_token_id", "batch_loglikelihood_requests"], "TemplateAPI"), ns)
    tok_encode = ns["tok_encode"]
    prefix_token_id = property(ns["prefix_token_id"])
    batch_loglikelihood_requests = ns["batch_loglikelihood_requests"]
    exec(grab("lm_eval/models/openai_completions.py", ["_create_payload", "parse_logprobs", "parse_generations"], "LocalCompletionsAPI"), ns)
    _create_payload = ns["_create_payload"]
    parse_logprobs = ns["parse_logprobs"]
    parse_generations = ns["parse_generations"]

    def __init__(self, model):
        self.model = model
        self.backend = "causal"
        self.tokenizer_backend = "remote"
        self.tokenizer = ns["RemoteTokenizer"](URL + "/v1/completions")
        self.custom_prefix_token_id = None
        self.max_length = 2048
        self._max_gen_toks = 256

    def encode_request(self, context, continuation):
        # TemplateLM.loglikelihood's rule for an empty context, then _encode_pair.
        if context == "":
            continuation_enc = self.tok_encode(continuation, add_special_tokens=False)
            if self.prefix_token_id != continuation_enc[0]:
                return [self.prefix_token_id], continuation_enc
            return continuation_enc[:1], continuation_enc[1:]
        return self._encode_pair(context, continuation)

    def post(self, body):
        response = requests.post(URL + "/v1/completions", json=body, timeout=60)
        response.raise_for_status()
        return response.json()


ns["eval_logger"] = type("Quiet", (), {"warning": staticmethod(print)})
assert ns["check_remote_tokenizer_support"](URL + "/v1/completions")
lm = LM("stories260K.gguf")
out = {"tokenizer_info": lm.tokenizer.tokenizer_info, "bos_token_id": lm.tokenizer.bos_token_id, "eos_token_id": lm.tokenizer.eos_token_id}

PAIRS = [
    ("Once upon a time, there was a little girl named Lily. She", " went"),
    ("Lily and her mom went to the", " park to play"),
    ("One day, ", "Tom saw a big dog."),
    ("", "Once upon a time"),
]
requests_ = [((c, x),) + tuple(lm.encode_request(c, x)) for c, x in PAIRS]
# The huggingface backend with add_bos_token=True encodes with BOS first: the same pairs as it sends them.
with_bos = [(key, [lm.prefix_token_id] + ctx if ctx[:1] != [lm.prefix_token_id] else ctx, cont) for key, ctx, cont in requests_]
out["loglikelihood"] = []
for label, chunk, batch in (("remote, one per request", requests_, 1), ("add_bos_token, batched", with_bos, 4)):
    for start in range(0, len(chunk), batch):
        inputs, ctxlens, _ = lm.batch_loglikelihood_requests([chunk[start:start + batch]])
        body = lm._create_payload(inputs, generate=False, seed=1234)
        parsed = LM.parse_logprobs(outputs=lm.post(body), tokens=inputs, ctxlens=ctxlens)
        out["loglikelihood"].append({"label": label, "body": body, "ctxlens": ctxlens, "parsed": parsed})

out["generate_until"] = []
for context, gen_kwargs in [
    ("Once upon a time, there was a little girl named Lily. She", {"until": [" the"], "max_gen_toks": 40, "do_sample": False, "temperature": 0.0}),
    ("Once upon a time, there was a little girl named Lily. She", {"until": ["\n\n"], "max_gen_toks": 24, "do_sample": False}),
]:
    encoded = lm.tok_encode([context])
    body = lm._create_payload(encoded, generate=True, gen_kwargs=dict(gen_kwargs), seed=1234, eos=lm.tokenizer.eos_token)
    out["generate_until"].append({"body": body, "parsed": LM.parse_generations(outputs=lm.post(body))})
print(json.dumps(out, indent=1))
