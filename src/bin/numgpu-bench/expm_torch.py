"""torch.linalg.matrix_exp on the GPU, the expm peer of numgpu-bench (run as a subprocess).

Usage: python3 expm_torch.py N BATCH DTYPE WARMUP REPS SEED
DTYPE: float32, float64, complex64, complex128. Random matrices with entries uniform in
[-1, 1) (both parts for complex) scaled by sqrt(3/N) (unit variance per row, as numgpu-bench
draws them), on cuda:0; times matrix_exp between CUDA events (WARMUP untimed calls, then
REPS calls, each between its own events), prints one JSON object: {"ms": median, "torch":
version, "device": name} or {"error": why} (torch or CUDA absent).
"""
import json
import sys


def main():
    n, batch, dtype, warmup, reps, seed = sys.argv[1:7]
    n, batch, warmup, reps, seed = int(n), int(batch), int(warmup), int(reps), int(seed)
    try:
        import torch
    except Exception as e:  # no torch: the bench skips the peer with this note
        print(json.dumps({"error": f"torch is not importable: {e}"}))
        return
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch sees no CUDA device"}))
        return
    dt = getattr(torch, dtype)
    g = torch.Generator(device="cuda").manual_seed(seed)
    real = torch.float32 if dt in (torch.float32, torch.complex64) else torch.float64
    a = (torch.rand((batch, n, n), generator=g, device="cuda", dtype=real) * 2 - 1)
    if dt.is_complex:
        a = torch.complex(a, torch.rand((batch, n, n), generator=g, device="cuda", dtype=real) * 2 - 1)
    a = a * (3.0 / n) ** 0.5
    for _ in range(warmup):
        torch.linalg.matrix_exp(a)
    times = []
    for _ in range(reps):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.linalg.matrix_exp(a)
        e.record()
        times.append((s, e))
    torch.cuda.synchronize()
    ms = sorted(s.elapsed_time(e) for s, e in times)
    med = ms[len(ms) // 2] if len(ms) % 2 else 0.5 * (ms[len(ms) // 2 - 1] + ms[len(ms) // 2])
    print(json.dumps({"ms": med, "torch": torch.__version__, "device": torch.cuda.get_device_name(0)}))


if __name__ == "__main__":
    main()
