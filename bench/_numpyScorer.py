# A batched scoring baseline for bench/evidence.ts: lm-evaluation-harness's `hf` backend loglikelihood loop
# (lm_eval/models/huggingface.py, _loglikelihood_tokens) on a llama GGUF, with numpy in place of torch, which
# cannot be installed here. Requests are (context tokens, continuation tokens), given as token ids by calibkit so
# the tokenisation is identical; as lm-eval does: requests sharing context + continuation[:-1] are run once
# (its Collator, group_by="contexts"), sorted longest first, in right-padded batches of 64, one forward pass per
# batch over every position, log-softmax over the whole batch, the continuation tokens' log-probabilities summed.
#
# The forward pass is llama.cpp's for this architecture (llm_build_llama): RMSNorm, rotary embedding in
# llama.cpp's "normal" mode (adjacent pairs) with the GGUF's base, grouped-query attention, SwiGLU feed-forward,
# a final RMSNorm and the output matrix (or the token embedding when the file ties them), all in float32.
#
# Line protocol on stdin/stdout, so the bench can alternate it with the other variants round by round:
#   argv: GGUF path, requests JSON path ({"requests": [[context ids, continuation ids], ...], "batch": 64})
#   prints "ready" once the model and requests are loaded; then per input line
#   "run" -> one whole pass, prints {"ms": wall ms of the pass}; "check" -> the same with "logliks" (one per
#   request, in request order); "quit" -> exits.
# Run with OPENBLAS_NUM_THREADS=OMP_NUM_THREADS=MKL_NUM_THREADS=1 for one thread, as the rest of the bench.
import json
import struct
import sys
import time

import numpy as np

GGUF_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}


def read_gguf(path):
    """Metadata and float32 tensors of a GGUF v2/v3 file whose tensors are all F32 (type 0)."""
    buf = open(path, "rb").read()
    at = 0

    def take(fmt):
        nonlocal at
        value = struct.unpack_from("<" + fmt, buf, at)[0]
        at += struct.calcsize("<" + fmt)
        return value

    def string():
        nonlocal at
        n = take("Q")
        s = buf[at:at + n].decode("utf-8")
        at += n
        return s

    def value(kind):
        if kind == 8:
            return string()
        if kind == 9:
            inner, n = take("I"), take("Q")
            return [value(inner) for _ in range(n)]
        return take(GGUF_SCALARS[kind])

    if buf[:4] != b"GGUF":
        raise SystemExit(f"{path}: not a GGUF file")
    at = 4
    version, n_tensors, n_kv = take("I"), take("Q"), take("Q")
    if version < 2:
        raise SystemExit(f"{path}: GGUF v{version} is not read here")
    meta = {}
    for _ in range(n_kv):
        key = string()
        meta[key] = value(take("I"))
    infos = []
    for _ in range(n_tensors):
        name = string()
        dims = [take("Q") for _ in range(take("I"))]
        kind, offset = take("I"), take("Q")
        infos.append((name, dims, kind, offset))
    align = meta.get("general.alignment", 32)
    data = (at + align - 1) // align * align
    tensors = {}
    for name, dims, kind, offset in infos:
        if kind != 0:
            raise SystemExit(f"{path}: tensor {name} has GGML type {kind}; this reader takes F32 only")
        count = int(np.prod(dims))
        # GGUF lists dimensions innermost first; numpy wants them outermost first.
        tensors[name] = np.frombuffer(buf, dtype=np.float32, count=count, offset=data + offset).reshape(dims[::-1])
    return meta, tensors


class Llama:
    def __init__(self, meta, t):
        arch = meta["general.architecture"]
        if arch != "llama":
            raise SystemExit(f"architecture {arch}: only llama is implemented")
        g = lambda k, d=None: meta.get(f"{arch}.{k}", d)
        self.dim = g("embedding_length")
        self.n_head = g("attention.head_count")
        self.n_kv = g("attention.head_count_kv", self.n_head)
        self.head_dim = self.dim // self.n_head
        self.n_rot = g("rope.dimension_count", self.head_dim)
        self.eps = np.float32(g("attention.layer_norm_rms_epsilon", 1e-5))
        base = g("rope.freq_base", 10000.0)
        self.inv_freq = (base ** (-np.arange(0, self.n_rot, 2, dtype=np.float64) / self.n_rot)).astype(np.float64)
        self.embed = t["token_embd.weight"]
        self.out_norm = t["output_norm.weight"]
        self.out = t.get("output.weight", self.embed).T.copy()
        self.layers = []
        for i in range(g("block_count")):
            p = lambda n: t[f"blk.{i}.{n}.weight"]
            # Weights as [in, out] so a row batch multiplies from the left; q, k, v fused into one product.
            self.layers.append({
                "attn_norm": p("attn_norm"), "ffn_norm": p("ffn_norm"),
                "qkv": np.concatenate([p("attn_q"), p("attn_k"), p("attn_v")], axis=0).T.copy(),
                "o": p("attn_output").T.copy(),
                "gate_up": np.concatenate([p("ffn_gate"), p("ffn_up")], axis=0).T.copy(),
                "down": p("ffn_down").T.copy(),
            })
        self.hidden = self.layers[0]["down"].shape[0]

    def rms(self, x, w):
        return x * (1.0 / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + self.eps)) * w

    def rope_tables(self, length):
        angles = np.arange(length, dtype=np.float64)[:, None] * self.inv_freq[None, :]
        return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)

    def rope(self, x, cos, sin):
        # x: [B, H, L, head_dim]; llama.cpp's normal mode rotates adjacent pairs (x[2i], x[2i+1]).
        r = x[..., :self.n_rot]
        even, odd = r[..., 0::2], r[..., 1::2]
        out = np.empty_like(x)
        out[..., 0:self.n_rot:2] = even * cos - odd * sin
        out[..., 1:self.n_rot:2] = even * sin + odd * cos
        out[..., self.n_rot:] = x[..., self.n_rot:]
        return out

    def logits(self, ids):
        """ids: [B, L] int array -> logits [B, L, vocab] (float32), causal attention over each row."""
        B, L = ids.shape
        H, KV, D = self.n_head, self.n_kv, self.head_dim
        x = self.embed[ids].reshape(B * L, self.dim)
        cos, sin = self.rope_tables(L)
        mask = np.tile(np.triu(np.full((L, L), -np.inf, dtype=np.float32), 1), (H // KV, 1))
        scale = np.float32(1.0 / np.sqrt(D))
        for layer in self.layers:
            h = self.rms(x, layer["attn_norm"]) @ layer["qkv"]
            q = h[:, :H * D].reshape(B, L, H, D).transpose(0, 2, 1, 3)
            k = h[:, H * D:(H + KV) * D].reshape(B, L, KV, D).transpose(0, 2, 1, 3)
            v = h[:, (H + KV) * D:].reshape(B, L, KV, D).transpose(0, 2, 1, 3)
            q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
            # Grouped-query attention: query head j reads key/value head j // (H / KV); the query heads of one
            # key/value head are stacked into one matrix product.
            q = q.reshape(B, KV, (H // KV) * L, D)
            s = (q @ k.transpose(0, 1, 3, 2)) * scale + mask
            s = np.exp(s - s.max(axis=-1, keepdims=True))
            s /= s.sum(axis=-1, keepdims=True)
            a = (s @ v).reshape(B, H, L, D).transpose(0, 2, 1, 3).reshape(B * L, H * D)
            x = x + a @ layer["o"]
            gu = self.rms(x, layer["ffn_norm"]) @ layer["gate_up"]
            g, u = gu[:, :self.hidden], gu[:, self.hidden:]
            x = x + ((g / (1.0 + np.exp(-g))) * u) @ layer["down"]
        return (self.rms(x, self.out_norm) @ self.out).reshape(B, L, -1)


def log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def loglikelihoods(model, requests, batch):
    """lm-eval's _loglikelihood_tokens: one forward per distinct context + continuation[:-1], longest first."""
    groups = {}
    for index, (ctx, cont) in enumerate(requests):
        groups.setdefault(tuple(ctx + cont[:-1]), []).append(index)
    # The group's representative is its longest continuation (lm-eval's Collator keeps the longest).
    order = sorted(groups, key=lambda key: (-(len(key) + 1), key))
    out = [0.0] * len(requests)
    for start in range(0, len(order), batch):
        keys = order[start:start + batch]
        width = max(len(k) for k in keys)
        ids = np.zeros((len(keys), width), dtype=np.int64)  # right padding, as lm-eval's causal batches
        for row, key in enumerate(keys):
            ids[row, :len(key)] = key
        logp = log_softmax(model.logits(ids))
        for row, key in enumerate(keys):
            inplen = len(key)
            for index in groups[key]:
                cont = requests[index][1]
                picked = logp[row, inplen - len(cont):inplen]
                out[index] = float(picked[np.arange(len(cont)), cont].sum())
    return out


def main():
    meta, tensors = read_gguf(sys.argv[1])
    model = Llama(meta, tensors)
    spec = json.load(open(sys.argv[2]))
    requests = [(list(c), list(k)) for c, k in spec["requests"]]
    if any(len(k) == 0 for _, k in requests):
        raise SystemExit("a request has an empty continuation")
    batch = int(spec.get("batch", 64))
    print("ready", flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        t0 = time.perf_counter()
        result = loglikelihoods(model, requests, batch)
        answer = {"ms": (time.perf_counter() - t0) * 1000}
        if command == "check":
            answer["logliks"] = result
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
