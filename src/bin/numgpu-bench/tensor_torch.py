"""The GPU peers of numgpu-bench --routine tensor (run as a subprocess, one per case).

Usage: python3 tensor_torch.py JOB
JOB is a JSON object: {"dtype": "float32" | "float64", "n": N, "warmup": W, "reps": R,
"budget_s": S, "seed": SEED, "tasks": [TASK, ...]}, each TASK {"routine": "cp" | "tt" | "tr" |
"ht", "x": PATH, "peers": ["explicit", "tensorly"], ...}: PATH holds X, N^3 values of DTYPE in
numgpu's layout (column-major: entry (i, j, k) at i + N*j + N*N*k), written by the bench; cp
adds "rank" and "iters", tt and tr "eps" and "ranks" (numgpu's, which TensorLy is given: it has
no eps), ht "ranks" (r1, r2, r3, r4).

The peers, on cuda:0 (timed between CUDA events: W untimed calls, then up to R calls, fewer
where the calls would exceed S seconds; a first call over S/2 is the one timed):
- explicit: the seed's GPU baseline (Liu et al.), torch on CUDA with an explicit unfolded copy
  of X in every step (permute(...).contiguous()), the MTTKRPs as cuBLAS matmuls of that copy
  with an explicit Khatri-Rao product, the SVDs by torch.linalg.svd and the normal equations by
  torch.linalg.pinv (cuSOLVER): CP-ALS, TT-SVD (Oseledets), TR-SVD (Zhao et al.) and HT (the
  seed's Algorithm 2), the truncations as numgpu's (per-step delta^2 = eps^2*|X|^2/(d-1)).
- tensorly: tensorly.decomposition.parafac (init='random', tol=0), tensor_train, tensor_ring
  with the PyTorch backend, where tensorly imports.

Prints one JSON object: {"torch": version, "device": name, "tensorly": version or null,
"tensorly_skipped": why or null, "results": [{"routine": ..., PEER: {"ms", "calls", "fit" or
"error", "ranks"} or {"skipped": why}}, ...]} or {"error": why} (torch or CUDA absent).
"""
import json
import math
import sys


def median(v):
    s = sorted(v)
    h = len(s) // 2
    return s[h] if len(s) % 2 else 0.5 * (s[h - 1] + s[h])


def truncation_rank(s2, delta2):
    """The smallest rank whose discarded squared singular values (s2, descending) sum to at
    most delta2, at least 1: numgpu's truncate."""
    r, tail = len(s2), 0.0
    while r > 1 and tail + max(s2[r - 1], 0.0) <= delta2:
        tail += max(s2[r - 1], 0.0)
        r -= 1
    return r


def split(m):
    """TR-SVD's split of its first rank: r0 * r1 = m with |r0 - r1| least, r0 <= r1."""
    a = max(d for d in range(1, int(math.isqrt(m)) + 1) if m % d == 0)
    return a, m // a


def plan_calls(first_s, warmup, reps, budget_s):
    """(more untimed calls, timed calls) after a first call of first_s seconds: none and the
    first itself when it took over half the budget, else as many as the budget allows."""
    if first_s > budget_s / 2:
        return 0, 0
    more_warm = max(warmup - 1, 0)
    return more_warm, max(1, min(reps, int(budget_s / max(first_s, 1e-9)) - 1 - more_warm))


def timed(torch, call, warmup, reps, budget_s):
    """Median milliseconds of `call` between CUDA events, the calls timed, and the last result."""
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    out = call()
    e.record()
    torch.cuda.synchronize()
    first = s.elapsed_time(e)
    more_warm, n = plan_calls(first / 1e3, warmup, reps, budget_s)
    if n == 0:
        return first, 1, out
    for _ in range(more_warm):
        call()
    events = []
    for _ in range(n):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        out = call()
        e.record()
        events.append((s, e))
    torch.cuda.synchronize()
    return median([s.elapsed_time(e) for s, e in events]), n, out


def unfold(torch, x, mode):
    """X_(mode), an explicit copy: rows the mode's index, columns the others' in order."""
    order = [mode] + [m for m in range(x.dim()) if m != mode]
    return x.permute(*order).contiguous().reshape(x.shape[mode], -1)


def khatri_rao(a, b):
    """Column-wise Kronecker product, rows (i, j) with j fastest: a (I x R), b (J x R)."""
    return (a[:, None, :] * b[None, :, :]).reshape(-1, a.shape[1])


def explicit_cp(torch, x, rank, iters, seed):
    """CP-ALS as the seed's Algorithm 1 with the conventional MTTKRP (unfold, Khatri-Rao, GEMM)
    from a seeded random start: the factors, lambda and the fit 1 - |X - X^|/|X|."""
    g = torch.Generator(device=x.device).manual_seed(seed)
    n = x.shape
    u = [torch.rand((n[m], rank), generator=g, device=x.device, dtype=x.dtype) * 2 - 1 for m in range(3)]
    lam = torch.ones(rank, device=x.device, dtype=x.dtype)
    for _ in range(iters):
        for m in range(3):
            o = [k for k in range(3) if k != m]
            k = khatri_rao(u[o[0]], u[o[1]])
            mttkrp = unfold(torch, x, m) @ k
            v = (u[o[0]].T @ u[o[0]]) * (u[o[1]].T @ u[o[1]])
            a = mttkrp @ torch.linalg.pinv(v, hermitian=True)
            lam = torch.linalg.vector_norm(a, dim=0)
            u[m] = a / lam
    # The fit from the last MTTKRP, as numgpu's: |X^|^2 from the Gram matrices.
    grams = [f.T @ f for f in u]
    norm_hat2 = (lam[:, None] * lam[None, :] * grams[0] * grams[1] * grams[2]).sum()
    ip = (mttkrp * u[2] * lam).sum()
    norm2 = torch.linalg.vector_norm(x) ** 2
    fit = 1 - torch.sqrt(torch.clamp(norm2 + norm_hat2 - 2 * ip, min=0)) / torch.sqrt(norm2)
    return u, lam, float(fit)


def truncated(torch, c, delta2=None, scale=None):
    """The SVD of c truncated at delta2, or at scale * |C|^2 (the sum of its squared singular
    values: the first step's delta2 = eps^2*|X|^2/(d-1)): U, S*Vh, the rank and delta2."""
    uu, s, vh = torch.linalg.svd(c, full_matrices=False)
    s2 = (s.double() ** 2).tolist()
    if delta2 is None:
        delta2 = scale * sum(s2)
    r = truncation_rank(s2, delta2)
    return uu[:, :r], s[:r, None] * vh[:r], r, delta2


def explicit_tt(torch, x, eps):
    """TT-SVD (Oseledets), the sequential SVDs of explicit reshapes: cores and ranks."""
    n = x.shape
    g1, rest, r1, delta2 = truncated(torch, x.reshape(n[0], -1), scale=eps * eps / (x.dim() - 1))
    g2, g3, r2, _ = truncated(torch, rest.reshape(r1 * n[1], n[2]), delta2)
    return [g1, g2.reshape(r1, n[1], r2), g3], [1, r1, r2, 1]


def explicit_tr(torch, x, eps):
    """TR-SVD (Zhao et al.; the seed's Algorithm 4): cores and ranks."""
    n = x.shape
    u, rest, m, delta2 = truncated(torch, x.reshape(n[0], -1), scale=eps * eps / (x.dim() - 1))
    r0, r1 = split(m)
    g1 = u.reshape(n[0], r0, r1).permute(1, 0, 2).contiguous()
    c = rest.reshape(r0, r1, n[1] * n[2]).permute(1, 2, 0).contiguous().reshape(r1 * n[1], n[2] * r0)
    g2, g3, r2, _ = truncated(torch, c, delta2)
    return [g1, g2.reshape(r1, n[1], r2), g3.reshape(r2, n[2], r0)], [r0, r1, r2, r0]


def explicit_ht(torch, x, ranks):
    """HT of a third-order tensor (the seed's Algorithm 2): U1, U2, U3 the leading left singular
    vectors of X_(1), X_(2), X_(3), U4 those of X_(12) (X_(3)'s right ones), B2 = U4 x1 U1^T
    x2 U2^T (r1 x r2 x r4), B1 = U4^T X_(12) U3 (r4 x r3)."""
    r1, r2, r3, r4 = ranks
    n = x.shape
    u1 = torch.linalg.svd(unfold(torch, x, 0), full_matrices=False)[0][:, :r1]
    u2 = torch.linalg.svd(unfold(torch, x, 1), full_matrices=False)[0][:, :r2]
    u, _, vh = torch.linalg.svd(unfold(torch, x, 2), full_matrices=False)
    u3, u4 = u[:, :r3], vh[:r4].T.reshape(n[0], n[1], r4)
    b2 = torch.einsum("ijt,ia,jb->abt", u4, u1, u2)
    b1 = u4.reshape(n[0] * n[1], r4).T @ x.reshape(n[0] * n[1], n[2]) @ u3
    return [u1, u2, u3, b1, b2]


def rel_err(torch, y, x):
    """|Y - X| / |X| (in X's precision: no double copies of N^3 tensors)."""
    return float(torch.linalg.vector_norm(y - x) / torch.linalg.vector_norm(x))


def train_dense(torch, cores, ring):
    """X^ of the explicit baseline's cores: a train's G1 (N x r1), G2, G3 (r2 x N); a ring's
    G1 (r0 x N x r1), G2 (r1 x N x r2), G3 (r2 x N x r0)."""
    return torch.einsum("aib,bjc,cka->ijk" if ring else "ib,bjc,ck->ijk", *cores)


def ht_dense(torch, parts):
    """X^(i, j, k) = sum U1(i, a) U2(j, b) B2(a, b, t) B1(t, c) U3(k, c), contracted pairwise
    (intermediates of at most N^2 * r entries)."""
    u1, u2, u3, b1, b2 = parts
    w = torch.einsum("ia,abc->ibc", u1, torch.einsum("abt,tc->abc", b2, b1))
    return torch.einsum("ijc,kc->ijk", torch.einsum("jb,ibc->ijc", u2, w), u3)


def explicit(torch, task, x, job, budget):
    """The explicit baseline's row: ms, calls, and its fit or reconstruction error."""
    w, r, k = job["warmup"], job["reps"], task["routine"]
    if k == "cp":
        ms, calls, (_, _, fit) = timed(torch, lambda: explicit_cp(torch, x, task["rank"], task["iters"], job["seed"]), w, r, budget)
        return {"ms": ms, "calls": calls, "fit": fit}
    if k in ("tt", "tr"):
        f = explicit_tr if k == "tr" else explicit_tt
        ms, calls, (cores, ranks) = timed(torch, lambda: f(torch, x, task["eps"]), w, r, budget)
        return {"ms": ms, "calls": calls, "ranks": ranks, "error": rel_err(torch, train_dense(torch, cores, k == "tr"), x)}
    ms, calls, parts = timed(torch, lambda: explicit_ht(torch, x, task["ranks"]), w, r, budget)
    return {"ms": ms, "calls": calls, "error": rel_err(torch, ht_dense(torch, parts), x)}


def tensorly_peer(torch, tl, task, x, job, budget):
    """TensorLy's row: ms, calls, and its fit or reconstruction error; {"skipped": why} for HT."""
    from tensorly.decomposition import parafac, tensor_train
    w, r, k = job["warmup"], job["reps"], task["routine"]
    if k == "cp":
        call = lambda: parafac(x, task["rank"], n_iter_max=task["iters"], init="random", tol=0, random_state=job["seed"])
        ms, calls, cp = timed(torch, call, w, r, budget)
        return {"ms": ms, "calls": calls, "fit": 1 - rel_err(torch, tl.cp_to_tensor(cp), x)}
    if k == "tt":
        ms, calls, tt = timed(torch, lambda: tensor_train(x, task["ranks"]), w, r, budget)
        return {"ms": ms, "calls": calls, "ranks": task["ranks"], "error": rel_err(torch, tl.tt_to_tensor(tt), x)}
    if k == "tr":
        try:
            from tensorly.decomposition import tensor_ring
        except ImportError:
            return {"skipped": f"tensorly {tl.__version__} has no tensor_ring"}
        ms, calls, tr = timed(torch, lambda: tensor_ring(x, task["ranks"]), w, r, budget)
        return {"ms": ms, "calls": calls, "ranks": task["ranks"], "error": rel_err(torch, tl.tr_to_tensor(tr), x)}
    return {"skipped": "tensorly has no HT decomposition"}


def load(torch, path, n, dtype):
    """X from numgpu's column-major file as a contiguous (i, j, k) tensor on cuda:0."""
    import numpy as np
    a = np.fromfile(path, dtype=dtype, count=n ** 3).reshape(n, n, n)
    return torch.from_numpy(a).to("cuda").permute(2, 1, 0).contiguous()


def run_peer(f, *args):
    try:
        return f(*args)
    except Exception as e:  # a peer's failure (out of memory, ...) is its column's note
        return {"skipped": f"{type(e).__name__}: {e}".splitlines()[0][:300]}


def main():
    job = json.loads(sys.argv[1])
    try:
        import torch
    except Exception as e:  # no torch: the bench skips the peers with this note
        print(json.dumps({"error": f"torch is not importable: {e}"}))
        return
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch sees no CUDA device"}))
        return
    try:
        import tensorly as tl
        tl.set_backend("pytorch")
        tl_version, tl_skipped = tl.__version__, None
    except Exception as e:
        tl, tl_version, tl_skipped = None, None, f"tensorly is not importable: {e}"
    results = []
    for task in job["tasks"]:
        x = load(torch, task["x"], job["n"], job["dtype"])
        out = {"routine": task["routine"]}
        if "explicit" in task["peers"]:
            out["explicit"] = run_peer(explicit, torch, task, x, job, job["budget_s"])
        if "tensorly" in task["peers"]:
            out["tensorly"] = run_peer(tensorly_peer, torch, tl, task, x, job, job["budget_s"]) if tl else {"skipped": tl_skipped}
        results.append(out)
        del x
        torch.cuda.empty_cache()
    print(json.dumps({"torch": torch.__version__, "device": torch.cuda.get_device_name(0), "tensorly": tl_version, "tensorly_skipped": tl_skipped, "results": results}))


if __name__ == "__main__":
    main()
