// Many independent ODE systems, one GPU thread each (Niemeyer & Sung, ch. 8): rkc.f's
// Runge-Kutta-Chebyshev method, or Cash-Karp 5(4) when NG_RKCK is defined. The same code,
// statement for statement, as src/rkc/cpu.rs (see src/rkc/mod.rs for the method).
//
// The host compiles this file after the user's source, which defines
//   __device__ void numgpu_rhs(double t, const double *y, const double *p, double *dydt)
// and, when NG_HAS_SPCRAD is 1, __device__ double numgpu_spcrad(double t, const double *y,
// const double *p). NEQ and NPAR (compile-time sizes) and NG_THREADS (threads per block) are
// defines. Each thread keeps its system's vectors in local memory and takes the next system
// from a global counter when it is done (persistent threads), so a slow system does not hold
// up the systems of its warp that have finished.

#include "common.cuh"

#if !defined(NEQ) || !defined(NPAR) || !defined(NG_THREADS) || !defined(NG_HAS_SPCRAD)
#error "NEQ, NPAR, NG_THREADS and NG_HAS_SPCRAD must be defined"
#endif

#define NG_NP (NPAR > 0 ? NPAR : 1)
// Blocks per multiprocessor the register budget must allow: the vectors live in local memory
// anyway, and more resident threads hide its latency.
#define NG_MIN_BLOCKS 8

// The call, as src/rkc/cuda.rs's KArgs (Y … next are its Arrays).
struct ng_rkc_args {
    double t0, tend, rtol, h0, hmax;
    double *Y;
    const double *P;
    const double *atol;
    double *state;     // 6 + NEQ per system, or null
    int *status;
    ng_i64 *stats;     // NG_NSTATS per system (numgpu_rkc_stat), or null
    unsigned long long *next;  // the next system to take
    ng_i64 nsys, ldy, ldp, max_steps, mmax;
    int natol, layout, user_sigma, constant;
};

#define NG_UROUND 2.220446049250313e-16

__device__ __forceinline__ bool ng_all_finite(const double *v) {
    bool ok = true;
    for (int i = 0; i < NEQ; ++i) ok = ok && isfinite(v[i]);
    return ok;
}

__device__ __forceinline__ double ng_norm2(const double *v) {
    double s = 0.0;
    for (int i = 0; i < NEQ; ++i) s += v[i] * v[i];
    return sqrt(s);
}

__device__ __forceinline__ void ng_copy(double *dst, const double *src) {
    for (int i = 0; i < NEQ; ++i) dst[i] = src[i];
}

#if !defined(NG_RKCK)
// rkc.f's rkcrho: the nonlinear power method; false when 50 iterations do not converge.
__device__ bool ng_rho(double t, const double *yn, const double *fn, const double *p, double *v, double *fv,
                       double *ev, bool use_ev, double hmax, ng_i64 *st, double *sprad) {
    const double small = 1.0 / hmax;
    ng_copy(v, use_ev ? ev : fn);
    const double ynrm = ng_norm2(yn), vnrm = ng_norm2(v);
    const double sqrtu = sqrt(NG_UROUND);
    double dynrm;
    if (ynrm != 0.0 && vnrm != 0.0) {
        dynrm = ynrm * sqrtu;
        for (int i = 0; i < NEQ; ++i) v[i] = yn[i] + v[i] * (dynrm / vnrm);
    } else if (ynrm != 0.0) {
        dynrm = ynrm * sqrtu;
        for (int i = 0; i < NEQ; ++i) v[i] = yn[i] + yn[i] * sqrtu;
    } else if (vnrm != 0.0) {
        dynrm = NG_UROUND;
        for (int i = 0; i < NEQ; ++i) v[i] *= dynrm / vnrm;
    } else {
        dynrm = NG_UROUND;
        for (int i = 0; i < NEQ; ++i) v[i] = dynrm;
    }
    double sigma = 0.0;
    for (int iter = 1; iter <= 50; ++iter) {
        numgpu_rhs(t, v, p, fv);
        st[4] += 1;
        double dfnrm = 0.0;
        for (int i = 0; i < NEQ; ++i) dfnrm += (fv[i] - fn[i]) * (fv[i] - fn[i]);
        dfnrm = sqrt(dfnrm);
        const double sigmal = sigma;
        sigma = dfnrm / dynrm;
        if (iter >= 2 && fabs(sigma - sigmal) <= fmax(sigma, small) * 0.01) {
            for (int i = 0; i < NEQ; ++i) ev[i] = v[i] - yn[i];
            *sprad = 1.2 * sigma;
            return true;
        }
        if (dfnrm != 0.0) {
            for (int i = 0; i < NEQ; ++i) v[i] = yn[i] + (fv[i] - fn[i]) * (dynrm / dfnrm);
        } else {
            // v degenerated to yn: perturb the guess by flipping one component.
            const int k = iter % NEQ;
            v[k] = yn[k] - (v[k] - yn[k]);
        }
    }
    return false;
}

// rkc.f's step: y = the RKC step of size h with m stages from (t, yn).
__device__ void ng_rkc_step(double t, const double *yn, const double *fn, const double *p, double h, ng_i64 m,
                            double *y, double *yjm1, double *yjm2) {
    const double mf = (double)m;
    const double w0 = 1.0 + 2.0 / (13.0 * mf * mf);
    const double temp1 = w0 * w0 - 1.0;
    const double temp2 = sqrt(temp1);
    const double arg = mf * log(w0 + temp2);
    const double w1 = sinh(arg) * temp1 / (cosh(arg) * mf * temp2 - w0 * sinh(arg));
    double bjm1 = 1.0 / ((2.0 * w0) * (2.0 * w0));
    double bjm2 = bjm1;
    ng_copy(yjm2, yn);
    const double mus1 = w1 * bjm1;
    for (int i = 0; i < NEQ; ++i) yjm1[i] = yn[i] + h * mus1 * fn[i];
    double thjm2 = 0.0, thjm1 = mus1;
    double zjm1 = w0, zjm2 = 1.0, dzjm1 = 1.0, dzjm2 = 0.0, d2zjm1 = 0.0, d2zjm2 = 0.0;
    for (ng_i64 j = 2; j <= m; ++j) {
        const double zj = 2.0 * w0 * zjm1 - zjm2;
        const double dzj = 2.0 * w0 * dzjm1 - dzjm2 + 2.0 * zjm1;
        const double d2zj = 2.0 * w0 * d2zjm1 - d2zjm2 + 4.0 * dzjm1;
        const double bj = d2zj / (dzj * dzj);
        const double ajm1 = 1.0 - zjm1 * bjm1;
        const double mu = 2.0 * w0 * bj / bjm1;
        const double nu = -bj / bjm2;
        const double mus = mu * w1 / w0;
        numgpu_rhs(t + h * thjm1, yjm1, p, y);
        for (int i = 0; i < NEQ; ++i)
            y[i] = mu * yjm1[i] + nu * yjm2[i] + (1.0 - mu - nu) * yn[i] + h * mus * (y[i] - ajm1 * fn[i]);
        const double thj = mu * thjm1 + nu * thjm2 + mus * (1.0 - ajm1);
        if (j < m) {
            ng_copy(yjm2, yjm1);
            ng_copy(yjm1, y);
            thjm2 = thjm1; thjm1 = thj;
            bjm2 = bjm1; bjm1 = bj;
            zjm2 = zjm1; zjm1 = zj;
            dzjm2 = dzjm1; dzjm1 = dzj;
            d2zjm2 = d2zjm1; d2zjm1 = d2zj;
        }
    }
}
#else
// Cash-Karp's tableau (Press et al., rkck).
__constant__ double ng_ck_a[5] = {0.2, 0.3, 0.6, 1.0, 0.875};
__constant__ double ng_ck_b[5][5] = {
    {0.2, 0.0, 0.0, 0.0, 0.0},
    {3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0},
    {0.3, -0.9, 1.2, 0.0, 0.0},
    {-11.0 / 54.0, 2.5, -70.0 / 27.0, 35.0 / 27.0, 0.0},
    {1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0},
};
__constant__ double ng_ck_c[6] = {37.0 / 378.0, 0.0, 250.0 / 621.0, 125.0 / 594.0, 0.0, 512.0 / 1771.0};
__constant__ double ng_ck_dc[6] = {37.0 / 378.0 - 2825.0 / 27648.0, 0.0, 250.0 / 621.0 - 18575.0 / 48384.0,
                                   125.0 / 594.0 - 13525.0 / 55296.0, -277.0 / 14336.0, 512.0 / 1771.0 - 0.25};

// The Cash-Karp step of size h from (t, yn): y the 5th-order solution, err its difference
// from the 4th-order one (k2 lives in err until then); tmp and ks (k3..k6) scratch.
__device__ void ng_rkck_step(double t, const double *yn, const double *fn, const double *p, double h, double *y,
                             double *err, double *tmp, double (*ks)[NEQ]) {
    for (int s = 1; s < 6; ++s) {
        for (int i = 0; i < NEQ; ++i) {
            double acc = ng_ck_b[s - 1][0] * fn[i];
            for (int r = 1; r < s; ++r) acc += ng_ck_b[s - 1][r] * (r == 1 ? err[i] : ks[r - 2][i]);
            tmp[i] = yn[i] + h * acc;
        }
        numgpu_rhs(t + ng_ck_a[s - 1] * h, tmp, p, s == 1 ? err : ks[s - 2]);
    }
    for (int i = 0; i < NEQ; ++i) {
        y[i] = yn[i] + h * (ng_ck_c[0] * fn[i] + ng_ck_c[2] * ks[0][i] + ng_ck_c[3] * ks[1][i] + ng_ck_c[5] * ks[3][i]);
        tmp[i] = h * (ng_ck_dc[0] * fn[i] + ng_ck_dc[2] * ks[0][i] + ng_ck_dc[3] * ks[1][i] + ng_ck_dc[4] * ks[2][i] +
                      ng_ck_dc[5] * ks[3][i]);
    }
    ng_copy(err, tmp);
}
#endif

// Integrates system i (as cpu.rs's solve) and writes its Y, state, status and stats.
__device__ void ng_rkc_system(const ng_rkc_args &a, ng_i64 i) {
    double yb[NEQ], fb[NEQ], zb[NEQ], va[NEQ], vb[NEQ], ev[NEQ], p[NG_NP];
#if defined(NG_RKCK)
    double ks[4][NEQ];
    const bool rkc = false;
#else
    const bool rkc = true;
#endif
    double *yn = yb, *fn = fb, *y = zb;
    const ng_i64 ye = a.layout == 0 ? 1 : a.ldy, ys = a.layout == 0 ? a.ldy : 1;
    const ng_i64 pe = a.layout == 0 ? 1 : a.ldp, ps = a.layout == 0 ? a.ldp : 1;
    for (int j = 0; j < NEQ; ++j) yn[j] = a.Y[j * ye + i * ys];
    for (int k = 0; k < NPAR; ++k) p[k] = a.P[k * pe + i * ps];
    for (int j = 0; j < NEQ; ++j) ev[j] = 0.0;
    ng_i64 st[6] = {0, 0, 0, 0, 0, 0};
    int status = 0;
    double *state = a.state ? a.state + i * (6 + NEQ) : nullptr;
    double absh = 0.0, hold = 0.0, errold = 0.0, sprad = 0.0;
    unsigned nstsig = 0;
    unsigned long long accepted = 0;
    const bool warm = state && state[0] > 0.0;
    const double tend = a.tend, t0 = a.t0, rtol = a.rtol;
    const double span = fabs(tend - t0);
    const double hmax = a.hmax > 0.0 ? fmin(a.hmax, span) : span;
    if (warm) {
        absh = fmin(state[0], hmax);
        hold = state[1];
        errold = state[2];
        sprad = state[3];
        nstsig = (unsigned)state[4];
        accepted = (unsigned long long)state[5];
        for (int j = 0; j < NEQ; ++j) ev[j] = state[6 + j];
    }
    if (t0 != tend) {
        const double tdir = tend > t0 ? 1.0 : -1.0;
        double hmin = 10.0 * NG_UROUND * fmax(fabs(t0), span);
        double t = t0;
        numgpu_rhs(t, yn, p, fn);
        st[0] += 1;
        status = -1;  // running
        if (!ng_all_finite(yn) || !ng_all_finite(fn)) status = 4;
        bool newspc = rkc && (!warm || sprad <= 0.0 || (a.user_sigma && !a.constant));
        bool jacatt = false;
        while (status < 0) {
#if !defined(NG_RKCK)
            if (newspc) {
                if (a.user_sigma) {
#if NG_HAS_SPCRAD
                    sprad = numgpu_spcrad(t, yn, p);
#else
                    sprad = nan("");
#endif
                } else if (!ng_rho(t, yn, fn, p, va, vb, ev, warm || st[1] > 0, hmax, st, &sprad)) {
                    status = 3;
                    break;
                }
                if (!isfinite(sprad)) {
                    status = 4;
                    break;
                }
                jacatt = true;
            }
#endif
            if (absh == 0.0) {
                if (a.h0 > 0.0) {
                    absh = fmin(a.h0, hmax);
                } else {
                    absh = hmax;
                    if (sprad * absh > 1.0) absh = 1.0 / sprad;
                    absh = fmax(absh, hmin);
                    for (int k = 0; k < NEQ; ++k) va[k] = yn[k] + absh * fn[k];
                    numgpu_rhs(t + tdir * absh, va, p, vb);
                    st[0] += 1;
                    double est = 0.0;
                    for (int k = 0; k < NEQ; ++k) {
                        const double wt = a.atol[a.natol == 1 ? 0 : k] + rtol * fabs(yn[k]);
                        if (wt == 0.0) status = 5;
                        const double d = (vb[k] - fn[k]) / wt;
                        est += d * d;
                    }
                    if (status >= 0) break;
                    est = absh * sqrt(est / NEQ);
                    if (0.1 * absh < hmax * sqrt(est)) absh = fmax(0.1 * absh / sqrt(est), hmin);
                    else absh = hmax;
                }
            }
            bool last = false;
            if (1.1 * absh >= fabs(tend - t)) {
                absh = fabs(tend - t);
                last = true;
            }
            ng_i64 m = 6;
            if (rkc) {
                m = 1 + (ng_i64)sqrt(1.54 * absh * sprad + 1.0);
                if (m > a.mmax) {
                    m = a.mmax;
                    absh = ((double)(m * m) - 1.0) / (1.54 * sprad);
                    last = false;
                    if (absh < hmin) {
                        status = 1;
                        break;
                    }
                }
            }
            st[5] = max(st[5], m);
            const double h = tdir * absh;
            hmin = 10.0 * NG_UROUND * fmax(fabs(t), fabs(t + h));
#if defined(NG_RKCK)
            ng_rkck_step(t, yn, fn, p, h, y, vb, va, ks);
#else
            ng_rkc_step(t, yn, fn, p, h, m, y, va, vb);
#endif
            const double tnew = last ? tend : t + h;
            numgpu_rhs(tnew, y, p, va);
            st[0] += m;
            st[1] += 1;
            double err = 0.0;
            for (int k = 0; k < NEQ; ++k) {
                const double wt = a.atol[a.natol == 1 ? 0 : k] + rtol * fmax(fabs(y[k]), fabs(yn[k]));
                if (wt == 0.0) status = 5;
                const double est = rkc ? 0.8 * (yn[k] - y[k]) + 0.4 * h * (fn[k] + va[k]) : vb[k];
                err += (est / wt) * (est / wt);
            }
            if (status >= 0) break;
            err = sqrt(err / NEQ);
            if (!(err <= 1.0)) {
                st[3] += 1;
                const bool finite = isfinite(err);
                if (!finite) absh = 0.1 * absh;
                else if (rkc) absh = 0.8 * absh / cbrt(err);
                else absh = absh * fmax(0.9 * pow(err, -0.25), 0.1);
                if (absh < hmin) {
                    status = finite ? 1 : 4;
                    break;
                }
                newspc = rkc && !jacatt;
                if ((unsigned long long)st[1] >= (unsigned long long)a.max_steps) status = 2;
                continue;
            }
            st[2] += 1;
            accepted += 1;
            t = tnew;
            jacatt = a.constant;
            nstsig = (nstsig + 1) % 25;
            newspc = rkc && (a.user_sigma || nstsig == 0) && !jacatt;
            double *sw = yn;
            yn = y;
            y = sw;
            ng_copy(fn, va);
            double fac;
            if (rkc) {
                fac = 10.0;
                if (accepted == 1) {
                    const double temp2 = cbrt(err);
                    if (0.8 < fac * temp2) fac = 0.8 / temp2;
                } else {
                    const double temp1 = 0.8 * absh * cbrt(errold);
                    const double temp2 = fabs(hold) * cbrt(err * err);
                    if (temp1 < fac * temp2) fac = temp1 / temp2;
                }
                fac = fmax(fac, 0.1);
            } else if (err > 1.89e-4) {
                fac = fmin(0.9 * pow(err, -0.2), 5.0);
            } else {
                fac = 5.0;
            }
            absh = fmax(hmin, fmin(hmax, fac * absh));
            errold = err;
            hold = h;
            if (last) status = 0;
            else if ((unsigned long long)st[1] >= (unsigned long long)a.max_steps) status = 2;
        }
    }
    for (int j = 0; j < NEQ; ++j) a.Y[j * ye + i * ys] = yn[j];
    a.status[i] = status;
    if (state) {
        state[0] = absh; state[1] = hold; state[2] = errold; state[3] = sprad;
        state[4] = (double)nstsig; state[5] = (double)accepted;
        for (int j = 0; j < NEQ; ++j) state[6 + j] = ev[j];
    }
    if (a.stats) {
        for (int k = 0; k < 6; ++k) a.stats[i * NG_NSTATS + k] = st[k];
        a.stats[i * NG_NSTATS + NG_STAT_BACKEND] = NG_BACKEND_CUDA;
    }
}

// One thread per system at a time; each takes the next system from *a.next until none is left.
extern "C" __global__ void __launch_bounds__(NG_THREADS, NG_MIN_BLOCKS)
#if defined(NG_RKCK)
rkck_integrate
#else
rkc_integrate
#endif
    (const ng_rkc_args a) {
    for (;;) {
        const ng_i64 i = (ng_i64)atomicAdd(a.next, 1ull);
        if (i >= a.nsys) return;
        ng_rkc_system(a, i);
    }
}
