// numgpu's built-in ODE problems as right-hand sides for kernels/rkc.cu: the same formulas,
// in the same order, as src/rkc/problems.rs. NG_PROBLEM selects one (the numgpu_ode_problem
// value); NEQ and NPAR are the integrator's compile-time sizes.

#if NG_PROBLEM == 0
// Heat equation y_t = D y_xx, NEQ interior points, zero Dirichlet boundaries.
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double c = p[0] * (double)((NEQ + 1) * (NEQ + 1));
    for (int k = 0; k < NEQ; ++k) {
        const double l = k > 0 ? y[k - 1] : 0.0;
        const double r = k + 1 < NEQ ? y[k + 1] : 0.0;
        f[k] = c * (l - 2.0 * y[k] + r);
    }
}
__device__ double numgpu_spcrad(double t, const double *y, const double *p) {
    return 4.0 * p[0] * (double)((NEQ + 1) * (NEQ + 1));
}

#elif NG_PROBLEM == 1
// Brusselator, NEQ/2 grid points, y = (u1, v1, u2, v2, ...), boundaries u = A, v = B/A.
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    const double a = p[0], b = p[1], alpha = p[2];
    const int g = NEQ / 2;
    const double c = alpha * (double)((g + 1) * (g + 1));
    for (int k = 0; k < g; ++k) {
        const double u = y[2 * k], v = y[2 * k + 1];
        const double ul = k > 0 ? y[2 * k - 2] : a, vl = k > 0 ? y[2 * k - 1] : b / a;
        const double ur = k + 1 < g ? y[2 * k + 2] : a, vr = k + 1 < g ? y[2 * k + 3] : b / a;
        const double uuv = u * u * v;
        f[2 * k] = a + uuv - (b + 1.0) * u + c * (ul - 2.0 * u + ur);
        f[2 * k + 1] = b * u - uuv + c * (vl - 2.0 * v + vr);
    }
}
// Gershgorin: the largest row sum of |J| around the diagonal.
__device__ double numgpu_spcrad(double t, const double *y, const double *p) {
    const double b = p[1];
    const int g = NEQ / 2;
    const double c = p[2] * (double)((g + 1) * (g + 1));
    double s = 0.0;
    for (int k = 0; k < g; ++k) {
        const double u = y[2 * k], v = y[2 * k + 1];
        const double ru = fabs(2.0 * u * v - (b + 1.0) - 2.0 * c) + 2.0 * c + u * u;
        const double rv = fabs(u * u + 2.0 * c) + fabs(b - 2.0 * u * v) + 2.0 * c;
        s = fmax(fmax(s, ru), rv);
    }
    return s;
}

#elif NG_PROBLEM == 2
// Lorenz, p = (sigma, R, b).
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    f[0] = p[0] * (y[1] - y[0]);
    f[1] = p[1] * y[0] - y[1] - y[0] * y[2];
    f[2] = y[0] * y[1] - p[2] * y[2];
}

#elif NG_PROBLEM == 3
// PLEI: 7 bodies of masses 1..7 in the plane; y = (x1..x7, y1..y7, x'1..x'7, y'1..y'7).
__device__ void numgpu_rhs(double t, const double *y, const double *p, double *f) {
    for (int i = 0; i < 7; ++i) {
        double sx = 0.0, sy = 0.0;
        for (int j = 0; j < 7; ++j) {
            if (j != i) {
                const double dx = y[j] - y[i], dy = y[j + 7] - y[i + 7];
                const double r = dx * dx + dy * dy;
                const double r32 = r * sqrt(r);
                sx += (double)(j + 1) * dx / r32;
                sy += (double)(j + 1) * dy / r32;
            }
        }
        f[i + 14] = sx;
        f[i + 21] = sy;
    }
    for (int k = 0; k < 14; ++k) f[k] = y[k + 14];
}

#else
#error "NG_PROBLEM must be 0 (heat), 1 (Brusselator), 2 (Lorenz) or 3 (PLEI)"
#endif
