"""A batch of linear systems spread over MPI ranks, one numgpu handle per rank on its
node-local GPU (mpi4py).

    mpirun -np 4 python examples/python/mpi_batch.py [--batch 1000] [--n 32] [--backend auto]

Rank 0 makes a batch of symmetric positive definite systems A_i·X_i = B_i, scatters it by
whole problems (MPI_Scatterv), each rank solves its share with numgpu.posv on a handle of the
GPU its node-local rank picks (local rank mod the node's GPUs; the CPU backend without one),
and rank 0 gathers the solutions (MPI_Gatherv) and checks them against a one-rank solve of
the whole batch. Host arrays travel through MPI; on a CUDA handle numgpu stages them through
the GPU, so no CUDA-aware MPI is needed.

Layout: each matrix is column-major (numgpu's C layout): the batch is a C-contiguous buffer
(batch, cols, rows) whose `.transpose(0, 2, 1)` is the (batch, rows, cols) view numgpu takes,
and whose problems are contiguous blocks, which is what Scatterv needs.
"""

import argparse
import ctypes
import sys

import numpy as np
from mpi4py import MPI

import numgpu


def cuda_devices():
    """CUDA devices on this node (the driver's count), 0 without a driver."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def make_handle(local_rank, backend):
    """A handle on the node-local rank's GPU (round robin over the node's GPUs), else the CPU."""
    ngpu = cuda_devices() if backend in ("auto", "cuda") else 0
    if ngpu == 0:
        if backend == "cuda":
            raise SystemExit("mpi_batch: --backend cuda but no CUDA device on this node")
        return numgpu.Handle("cpu")
    return numgpu.Handle("cuda", local_rank % ngpu)


def shares(batch, size):
    """Problems per rank: as even as possible, the first ranks one more."""
    return [batch // size + (r < batch % size) for r in range(size)]


def problem(batch, n, nrhs, seed=25):
    """A (batch, n, n) SPD batch and right-hand sides, as column-major buffers."""
    rng = np.random.default_rng(seed)
    G = rng.standard_normal((batch, n, n))
    A = G @ G.transpose(0, 2, 1) + n * np.eye(n)
    B = rng.standard_normal((batch, n, nrhs))
    # Buffers (batch, cols, rows), C-contiguous: buf[i].T is problem i, column-major.
    return np.ascontiguousarray(A.transpose(0, 2, 1)), np.ascontiguousarray(B.transpose(0, 2, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--n", type=int, default=32)
    ap.add_argument("--nrhs", type=int, default=2)
    ap.add_argument("--backend", choices=("auto", "cpu", "cuda"), default="auto")
    args = ap.parse_args()
    n, nrhs = args.n, args.nrhs

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    local_rank = comm.Split_type(MPI.COMM_TYPE_SHARED, key=rank).Get_rank()
    handle = make_handle(local_rank, args.backend)

    counts = shares(args.batch, size)
    mine = counts[rank]
    A_all = B_all = None
    if rank == 0:
        A_all, B_all = problem(args.batch, n, nrhs)

    # Scatter whole problems: counts and displacements in elements.
    a_counts = [c * n * n for c in counts]
    b_counts = [c * n * nrhs for c in counts]
    displ = lambda cs: [sum(cs[:r]) for r in range(size)]  # noqa: E731
    A = np.empty((mine, n, n))
    B = np.empty((mine, nrhs, n))
    comm.Scatterv([A_all, a_counts, displ(a_counts), MPI.DOUBLE], A, root=0)
    comm.Scatterv([B_all, b_counts, displ(b_counts), MPI.DOUBLE], B, root=0)

    # Solve this rank's share in place (the transposed views are column-major).
    _, info = numgpu.posv(A.transpose(0, 2, 1), B.transpose(0, 2, 1), overwrite_a=True, overwrite_b=True,
                          handle=handle)
    handle.synchronize()
    bad = int(np.count_nonzero(info))

    X_all = np.empty((args.batch, nrhs, n)) if rank == 0 else None
    comm.Gatherv(B, [X_all, b_counts, displ(b_counts), MPI.DOUBLE], root=0)
    bad = comm.reduce(bad, op=MPI.SUM, root=0)
    where = comm.gather(f"rank {rank}: local rank {local_rank}, {handle.backend_name} device {handle.device}, "
                        f"{mine} problems", root=0)

    ok = True
    if rank == 0:
        # The same batch on one rank: rank 0's handle, the whole batch at once.
        A1, B1 = problem(args.batch, n, nrhs)
        X1, info1 = numgpu.posv(A1.transpose(0, 2, 1), B1.transpose(0, 2, 1), handle=handle)
        diff = float(np.max(np.abs(X_all.transpose(0, 2, 1) - X1))) / max(1.0, float(np.max(np.abs(X1))))
        ok = bad == 0 and not np.any(info1) and diff <= 1e-12
        print("\n".join(where))
        print(f"mpi_batch: {args.batch} SPD systems of order {n} over {size} ranks; "
              f"info != 0: {bad}; max relative difference to one rank: {diff:.2e}: {'ok' if ok else 'FAILED'}")
    ok = comm.bcast(ok, root=0)
    handle.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
