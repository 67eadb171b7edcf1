//! The thresholds the oracle's ratios are held below. Each ratio already scales with the
//! problem (sizes, norms, ε, the condition where it matters), so a threshold is a small
//! constant, never a number of digits.

/// LAPACK's threshold for its test ratios (LU, QR and orthogonality, solves, least squares,
/// tridiagonal residuals and forward errors), and the tour's for every measure it prints.
pub const RATIO: f64 = 30.0;

/// The gemm ratio's threshold: its denominator `(k + 2)·(…)·ε` is the worst-case bound
/// already, which a correct product stays well below.
pub const GEMM_RATIO: f64 = 10.0;

/// ODE integrators: the largest global error, in units of the local tolerance
/// (atol + rtol·‖y‖∞), of the problems the checks use (global errors are a modest multiple of
/// the local tolerance there).
pub const ODE_GLOBAL: f64 = 100.0;

/// Complete pivoting: two pivot choices at step k whose moduli differ by at most this,
/// relative, are a near-tie that rounding (FMA, the complex modulus) breaks either way.
pub fn near_tie(n: usize, eps: f64) -> f64 {
    4.0 * n as f64 * eps
}

/// SS-HOPM: the convergence tolerance of the checks' runs in a precision of machine epsilon
/// `eps` (1e-12 in double, 1e-6 in single).
pub fn sshopm_tol(eps: f64) -> f64 {
    if eps < 1e-10 {
        1e-12
    } else {
        1e-6
    }
}

/// SS-HOPM: the bound of the eigen-residual ‖A·x^{m−1} − λ·x‖₂ of a pair converged at `tol`
/// (tol shapes x's accuracy, as |Δλ| ~ ‖Δx‖² near a fixed point; ε the rest) for a tensor of
/// size `scale` (1 for unit-size entries).
pub fn eigen_residual(tol: f64, eps: f64, scale: f64) -> f64 {
    (10.0 * tol.sqrt() + 1e3 * eps) * scale.max(1.0)
}
