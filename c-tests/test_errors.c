/* test_errors: the handle, memory and error contract of numgpu's C ABI, as a C user sees it.
 *
 * - the shape of every failure (each family program checks its own entry points' arguments,
 *   test_gemm.c the batched GEMM's): NUMGPU_INVALID_VALUE or the status of the failure,
 *   numgpu_last_error_arg() the argument's 1-based position (LAPACK's -info), 0 for none, a
 *   message "<function>: argument <position> (<name> ...) ..." naming it, outputs untouched;
 * - numgpu_last_error: truncation to len, the full length returned, NULL buf, cleared after a
 *   successful call, thread-local;
 * - numgpu_status_string for every code, numgpu_version == NUMGPU_VERSION;
 * - handles: bad backend / device values, NULL handle, numgpu_destroy(NULL), get_backend,
 *   set_stream, synchronize, NUMGPU_BACKEND=cpu|<bogus> for AUTO;
 * - numgpu_malloc / numgpu_memcpy / numgpu_free round trip and their argument checks, and an
 *   absurd numgpu_malloc giving NUMGPU_ALLOC_FAILED with the handle still usable;
 * - with a CUDA device: device memory on a CPU-backend handle and mixed host/device arrays on
 *   a CUDA handle are INVALID_VALUE naming the argument. Without one these are skipped, and
 *   say so; NUMGPU_REQUIRE_CUDA=1 makes that a failure.
 *
 * Prints "test_errors: N passed, M failed"; the exit status is non-zero on any failure.
 */
#define _POSIX_C_SOURCE 200112L /* setenv, pthreads */
#include <pthread.h>

#include "numgpu_test.h"

/* A call that must return `want`, naming argument `arg` (0: none) in numgpu_last_error_arg()
 * and in a message that starts with "<fname>: " and contains `needle` (numgpu_test.h). */
static void expect(numgpu_status st, numgpu_status want, const char *fname, int arg, const char *needle,
                   const char *what)
{
    expect_status(st, want, fname, arg, needle, 1, "test_errors", what);
}

/* ---- numgpu_last_error ------------------------------------------------------------ */

static void *other_thread(void *arg)
{
    int *seen_clean = arg;
    char buf[16] = "x";
    /* A new thread starts with no error, then has its own. */
    *seen_clean = numgpu_last_error(buf, sizeof buf) == 0 && buf[0] == '\0' && numgpu_last_error_arg() == 0;
    numgpu_create(NULL);
    return NULL;
}

static void last_error_semantics(numgpu_handle *h)
{
    const char *want = "numgpu_sgemm_batched: argument 9 (lda = 3) must be >= max(1, m) = 4";
    const size_t wl = strlen(want);
    float a[16] = {0}, b[16] = {0}, c[16] = {0};
    const float *ap[1], *bp[1];
    float *cp[1];
    char buf[256], small[8];
    size_t n;
    pthread_t t;
    int seen_clean = 0;
    ap[0] = a, bp[0] = b, cp[0] = c;

    /* DESIGN.md's example message, verbatim. */
    numgpu_sgemm_batched(h, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 1.0f, ap, 3, bp, 4, 0.0f, cp, 4, 1);
    n = numgpu_last_error(NULL, 0);
    check(n == wl, "numgpu_last_error(NULL, 0) returns the full length %lu, got %lu", (unsigned long)wl,
          (unsigned long)n);
    memset(buf, 'x', sizeof buf);
    n = numgpu_last_error(buf, sizeof buf);
    check(n == wl && strcmp(buf, want) == 0, "numgpu_last_error: want \"%s\", got \"%s\" (%lu)", want, buf,
          (unsigned long)n);
    check(numgpu_last_error_arg() == 9, "numgpu_last_error_arg: want 9, got %d", numgpu_last_error_arg());
    memset(small, 'x', sizeof small);
    n = numgpu_last_error(small, sizeof small);
    check(n == wl && small[7] == '\0' && strncmp(small, want, 7) == 0,
          "numgpu_last_error(buf, 8) truncates to 7 bytes and a NUL and returns %lu: got \"%.8s\", %lu",
          (unsigned long)wl, small, (unsigned long)n);
    memset(small, 'x', sizeof small);
    n = numgpu_last_error(small, 1);
    check(n == wl && small[0] == '\0' && small[1] == 'x', "numgpu_last_error(buf, 1) writes only the NUL");
    memset(small, 'x', sizeof small);
    n = numgpu_last_error(small, 0);
    check(n == wl && small[0] == 'x', "numgpu_last_error(buf, 0) writes nothing");

    /* Thread-local: another thread neither sees nor clobbers this thread's error. */
    if (pthread_create(&t, NULL, other_thread, &seen_clean) == 0) {
        pthread_join(t, NULL);
        check(seen_clean, "a new thread starts with an empty last error");
        check(numgpu_last_error(buf, sizeof buf) == wl && strcmp(buf, want) == 0,
              "another thread's failure leaves this thread's last error alone: got \"%s\"", buf);
    } else {
        check(0, "pthread_create failed");
    }

    /* A successful call clears it. */
    check(numgpu_synchronize(h) == NUMGPU_SUCCESS, "numgpu_synchronize: %s", last_error());
    memset(buf, 'x', sizeof buf);
    n = numgpu_last_error(buf, sizeof buf);
    check(n == 0 && buf[0] == '\0' && numgpu_last_error_arg() == 0,
          "a successful call clears the last error: got %lu \"%s\", arg %d", (unsigned long)n, buf,
          numgpu_last_error_arg());
}

/* ---- status strings and version ------------------------------------------------------ */

static void strings(void)
{
    static const char *names[] = {"NUMGPU_SUCCESS",         "NUMGPU_INVALID_VALUE",
                                  "NUMGPU_NOT_SUPPORTED",   "NUMGPU_BACKEND_UNAVAILABLE",
                                  "NUMGPU_ALLOC_FAILED",    "NUMGPU_EXECUTION_FAILED",
                                  "NUMGPU_COMPILE_FAILED",  "NUMGPU_INTERNAL_ERROR",
                                  "NUMGPU_INSUFFICIENT_CAPACITY"};
    static const numgpu_status codes[] = {NUMGPU_SUCCESS,         NUMGPU_INVALID_VALUE,
                                          NUMGPU_NOT_SUPPORTED,   NUMGPU_BACKEND_UNAVAILABLE,
                                          NUMGPU_ALLOC_FAILED,    NUMGPU_EXECUTION_FAILED,
                                          NUMGPU_COMPILE_FAILED,  NUMGPU_INTERNAL_ERROR,
                                          NUMGPU_INSUFFICIENT_CAPACITY};
    static const numgpu_status unknown[] = {9, -1, 1000};
    char v[32];
    size_t i;
    for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = numgpu_status_string(codes[i]);
        size_t l = strlen(names[i]);
        check(codes[i] == (numgpu_status)i && s != NULL && strncmp(s, names[i], l) == 0 && s[l] == ':',
              "numgpu_status_string(%d) = \"%s\" starts with \"%s:\"", (int)i, s ? s : "(null)", names[i]);
    }
    for (i = 0; i < 3; i++) {
        const char *s = numgpu_status_string(unknown[i]);
        check(s != NULL && strcmp(s, "unknown numgpu status") == 0, "numgpu_status_string(%d) = \"%s\"",
              (int)unknown[i], s ? s : "(null)");
    }
    check(strcmp(numgpu_version(), NUMGPU_VERSION) == 0, "numgpu_version() \"%s\" == NUMGPU_VERSION \"%s\"",
          numgpu_version(), NUMGPU_VERSION);
    snprintf(v, sizeof v, "%d.%d.%d", NUMGPU_VERSION_MAJOR, NUMGPU_VERSION_MINOR, NUMGPU_VERSION_PATCH);
    check(strcmp(v, NUMGPU_VERSION) == 0, "NUMGPU_VERSION_MAJOR.MINOR.PATCH %s == NUMGPU_VERSION %s", v,
          NUMGPU_VERSION);
}

/* ---- handles ------------------------------------------------------------------------ */

static void handles(numgpu_handle *cpu)
{
    numgpu_handle *h = NULL;
    int32_t be = -1;
    const char *env = getenv("NUMGPU_BACKEND");
    char *saved = NULL;

    expect(numgpu_create(NULL), NUMGPU_INVALID_VALUE, "numgpu_create", 1, "(h)", "numgpu_create(NULL)");
    expect(numgpu_create_with(&h, 7, 0), NUMGPU_INVALID_VALUE, "numgpu_create_with", 2, "(backend = 7)",
           "numgpu_create_with(backend 7)");
    check(h == NULL, "a failed numgpu_create_with leaves *h alone");
    expect(numgpu_create_with(&h, -1, 0), NUMGPU_INVALID_VALUE, "numgpu_create_with", 2, "backend",
           "numgpu_create_with(backend -1)");
    expect(numgpu_create_with(&h, NUMGPU_BACKEND_CPU, -1), NUMGPU_INVALID_VALUE, "numgpu_create_with", 3,
           "(device = -1)", "numgpu_create_with(device -1)");
    expect(numgpu_create_with(NULL, NUMGPU_BACKEND_CPU, 0), NUMGPU_INVALID_VALUE, "numgpu_create_with", 1,
           "(h)", "numgpu_create_with(NULL)");
    check(h == NULL, "failed creates leave *h alone");
    expect(numgpu_destroy(NULL), NUMGPU_SUCCESS, "numgpu_destroy", 0, "", "numgpu_destroy(NULL)");

    expect(numgpu_get_backend(cpu, &be), NUMGPU_SUCCESS, "numgpu_get_backend", 0, "", "numgpu_get_backend");
    check(be == NUMGPU_BACKEND_CPU, "numgpu_get_backend of a CPU handle gives %d, got %d",
          (int)NUMGPU_BACKEND_CPU, (int)be);
    expect(numgpu_get_backend(NULL, &be), NUMGPU_INVALID_VALUE, "numgpu_get_backend", 1, "(h)",
           "numgpu_get_backend(NULL, &b)");
    expect(numgpu_get_backend(cpu, NULL), NUMGPU_INVALID_VALUE, "numgpu_get_backend", 2, "(backend)",
           "numgpu_get_backend(h, NULL)");
    expect(numgpu_set_stream(cpu, NULL), NUMGPU_SUCCESS, "numgpu_set_stream", 0, "", "numgpu_set_stream");
    expect(numgpu_set_stream(NULL, NULL), NUMGPU_INVALID_VALUE, "numgpu_set_stream", 1, "(h)",
           "numgpu_set_stream(NULL)");
    expect(numgpu_synchronize(cpu), NUMGPU_SUCCESS, "numgpu_synchronize", 0, "", "numgpu_synchronize");
    expect(numgpu_synchronize(NULL), NUMGPU_INVALID_VALUE, "numgpu_synchronize", 1, "(h)",
           "numgpu_synchronize(NULL)");

    /* NUMGPU_BACKEND overrides AUTO: cpu is honoured, another value is refused. */
    if (env != NULL) {
        saved = xmalloc(strlen(env) + 1);
        strcpy(saved, env);
    }
    setenv("NUMGPU_BACKEND", "bogus", 1);
    expect(numgpu_create(&h), NUMGPU_INVALID_VALUE, "numgpu_create", 0, "NUMGPU_BACKEND",
           "numgpu_create with NUMGPU_BACKEND=bogus");
    check(h == NULL, "numgpu_create with NUMGPU_BACKEND=bogus leaves *h alone");
    setenv("NUMGPU_BACKEND", "cpu", 1);
    expect(numgpu_create(&h), NUMGPU_SUCCESS, "numgpu_create", 0, "", "numgpu_create with NUMGPU_BACKEND=cpu");
    be = -1;
    numgpu_get_backend(h, &be);
    check(be == NUMGPU_BACKEND_CPU, "NUMGPU_BACKEND=cpu gives a CPU handle, got %d", (int)be);
    numgpu_destroy(h);
    if (saved != NULL)
        setenv("NUMGPU_BACKEND", saved, 1);
    else
        unsetenv("NUMGPU_BACKEND");
    free(saved);
}

/* ---- memory ------------------------------------------------------------------------- */

static void memory(numgpu_handle *h, const char *hname)
{
    enum { N = 1000 };
    unsigned char src[N], dst[N];
    void *d1 = NULL, *d2 = NULL, *p = NULL;
    size_t i;
    char what[96];
    for (i = 0; i < N; i++)
        src[i] = (unsigned char)(i * 7 + 3);
    memset(dst, 0, N);

    snprintf(what, sizeof what, "%s: malloc/memcpy round trip", hname);
    expect(numgpu_malloc(h, &d1, N), NUMGPU_SUCCESS, "numgpu_malloc", 0, "", what);
    expect(numgpu_malloc(h, &d2, N), NUMGPU_SUCCESS, "numgpu_malloc", 0, "", what);
    if (d1 != NULL && d2 != NULL) {
        expect(numgpu_memcpy(h, d1, src, N), NUMGPU_SUCCESS, "numgpu_memcpy", 0, "", what);
        expect(numgpu_memcpy(h, d2, d1, N), NUMGPU_SUCCESS, "numgpu_memcpy", 0, "", what);
        expect(numgpu_memcpy(h, dst, d2, N), NUMGPU_SUCCESS, "numgpu_memcpy", 0, "", what);
        check(memcmp(src, dst, N) == 0, "%s: host -> memory -> memory -> host gives the bytes back", hname);
    } else {
        check(0, "%s: numgpu_malloc returned NULL for %d bytes", hname, N);
    }
    expect(numgpu_free(h, d1), NUMGPU_SUCCESS, "numgpu_free", 0, "", what);
    expect(numgpu_free(h, d2), NUMGPU_SUCCESS, "numgpu_free", 0, "", what);

    snprintf(what, sizeof what, "%s: malloc/free/memcpy edge cases", hname);
    p = src;
    expect(numgpu_malloc(h, &p, 0), NUMGPU_SUCCESS, "numgpu_malloc", 0, "", what);
    check(p == NULL, "%s: numgpu_malloc of 0 bytes gives NULL", hname);
    expect(numgpu_free(h, NULL), NUMGPU_SUCCESS, "numgpu_free", 0, "", what);
    expect(numgpu_malloc(NULL, &p, 8), NUMGPU_INVALID_VALUE, "numgpu_malloc", 1, "(h)", what);
    expect(numgpu_malloc(h, NULL, 8), NUMGPU_INVALID_VALUE, "numgpu_malloc", 2, "(ptr)", what);
    expect(numgpu_free(NULL, NULL), NUMGPU_INVALID_VALUE, "numgpu_free", 1, "(h)", what);
    expect(numgpu_memcpy(NULL, dst, src, 8), NUMGPU_INVALID_VALUE, "numgpu_memcpy", 1, "(h)", what);
    expect(numgpu_memcpy(h, NULL, src, 8), NUMGPU_INVALID_VALUE, "numgpu_memcpy", 2, "(dst)", what);
    expect(numgpu_memcpy(h, dst, NULL, 8), NUMGPU_INVALID_VALUE, "numgpu_memcpy", 3, "(src)", what);
    expect(numgpu_memcpy(h, NULL, NULL, 0), NUMGPU_SUCCESS, "numgpu_memcpy", 0, "", what);
}

/* An allocation no machine can serve is ALLOC_FAILED with the size in the message, leaves
 * *ptr alone, and the handle keeps working: a 2 x 2 product afterwards is exact. */
static void absurd_malloc(numgpu_handle *h, const char *hname, size_t bytes)
{
    void *p = NULL;
    char size_text[32], what[96];
    const float a[4] = {1, 0, 0, 1}, b[4] = {1, 2, 3, 4};
    float c[4] = {NAN, NAN, NAN, NAN};
    numgpu_status st;
    snprintf(size_text, sizeof size_text, "%lu", (unsigned long)bytes);
    snprintf(what, sizeof what, "%s: numgpu_malloc(%s bytes)", hname, size_text);
    expect(numgpu_malloc(h, &p, bytes), NUMGPU_ALLOC_FAILED, "numgpu_malloc", 0, size_text, what);
    check(p == NULL, "%s leaves *ptr alone", what);
    st = numgpu_sgemm_batched_strided(h, NUMGPU_OP_N, NUMGPU_OP_N, 2, 2, 2, 1.0f, a, 2, 4, b, 2, 4, 0.0f, c, 2,
                                      4, 1);
    check(st == NUMGPU_SUCCESS && numgpu_synchronize(h) == NUMGPU_SUCCESS && c[0] == 1 && c[1] == 2 &&
              c[2] == 3 && c[3] == 4,
          "%s: the handle still works after ALLOC_FAILED (status %d, %s)", hname, (int)st, last_error());
}

/* ---- pointer spaces (CUDA only) ------------------------------------------------------- */

static void pointer_spaces(numgpu_handle *cuda, numgpu_handle *cpu)
{
    enum { LEN = 64 };
    float a[LEN], b[LEN], c[LEN], c0[LEN], back[LEN];
    void *dev = NULL;
    size_t i;
    for (i = 0; i < LEN; i++)
        a[i] = (float)rnd(), b[i] = (float)rnd(), c[i] = (float)rnd();
    memcpy(c0, c, sizeof c);
    if (numgpu_malloc(cuda, &dev, sizeof c) != NUMGPU_SUCCESS ||
        numgpu_memcpy(cuda, dev, c, sizeof c) != NUMGPU_SUCCESS) {
        check(0, "numgpu_malloc/memcpy on the CUDA handle: %s", last_error());
        return;
    }

    /* Device memory on a CPU-backend handle. */
    expect(numgpu_sgemm_batched_strided(cpu, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 1.0f, dev, 4, 16, b, 4, 16, 0.0f,
                                        c, 4, 16, 2),
           NUMGPU_INVALID_VALUE, "numgpu_sgemm_batched_strided", 8, "CUDA device",
           "device A on a CPU handle");
    check(memcmp(c, c0, sizeof c) == 0, "device A on a CPU handle: C untouched");
    expect(numgpu_sgemm_batched_strided(cpu, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16, 0.0f,
                                        dev, 4, 16, 2),
           NUMGPU_INVALID_VALUE, "numgpu_sgemm_batched_strided", 15, "CUDA device", "device C on a CPU handle");
    expect(numgpu_memcpy(cpu, back, dev, sizeof back), NUMGPU_INVALID_VALUE, "numgpu_memcpy", 3, "(src)",
           "numgpu_memcpy from device memory on a CPU handle");

    /* Mixed spaces on a CUDA handle: A, B host and C device; A device and B host. */
    expect(numgpu_sgemm_batched_strided(cuda, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 1.0f, a, 4, 16, b, 4, 16, 0.0f,
                                        dev, 4, 16, 2),
           NUMGPU_INVALID_VALUE, "numgpu_sgemm_batched_strided", 15, "one space", "host A, device C on CUDA");
    expect(numgpu_sgemm_batched_strided(cuda, NUMGPU_OP_N, NUMGPU_OP_N, 4, 4, 4, 1.0f, dev, 4, 16, b, 4, 16,
                                        0.0f, c, 4, 16, 2),
           NUMGPU_INVALID_VALUE, "numgpu_sgemm_batched_strided", 11, "one space", "device A, host B on CUDA");
    check(memcmp(c, c0, sizeof c) == 0, "mixed spaces: host C untouched");
    numgpu_synchronize(cuda);
    if (numgpu_memcpy(cuda, back, dev, sizeof back) == NUMGPU_SUCCESS)
        check(memcmp(back, c0, sizeof back) == 0, "mixed spaces: device C untouched");
    else
        check(0, "copy back from the device: %s", last_error());
    numgpu_free(cuda, dev);
}

static void cuda_checks(numgpu_handle *cpu)
{
    numgpu_handle *cuda = NULL, *autoh = NULL;
    numgpu_status st = numgpu_create_with(&cuda, NUMGPU_BACKEND_CUDA, 0);
    int32_t be = -1;
    if (st != NUMGPU_SUCCESS) {
        const char *why = last_error();
        check(st == NUMGPU_BACKEND_UNAVAILABLE, "numgpu_create_with(CUDA) without CUDA gives "
              "NUMGPU_BACKEND_UNAVAILABLE, got %d (%s)", (int)st, why);
        if (env_is_1("NUMGPU_REQUIRE_CUDA"))
            check(0, "NUMGPU_REQUIRE_CUDA=1 but no CUDA handle: %s", why);
        else
            printf("test_errors: SKIPPED the CUDA checks (device pointer on a CPU handle, mixed pointer "
                   "spaces, device ALLOC_FAILED): %s\n", why);
        return;
    }
    printf("test_errors: CUDA device 0 available, running the pointer-space checks\n");
    expect(numgpu_get_backend(cuda, &be), NUMGPU_SUCCESS, "numgpu_get_backend", 0, "", "CUDA get_backend");
    check(be == NUMGPU_BACKEND_CUDA, "numgpu_get_backend of a CUDA handle gives CUDA, got %d", (int)be);
    if (getenv("NUMGPU_BACKEND") == NULL && numgpu_create(&autoh) == NUMGPU_SUCCESS) {
        numgpu_get_backend(autoh, &be);
        check(be == NUMGPU_BACKEND_CUDA, "AUTO picks CUDA when a device exists, got %s", backend_name(be));
        numgpu_destroy(autoh);
    }
    {
        numgpu_handle *h = NULL;
        expect(numgpu_create_with(&h, NUMGPU_BACKEND_CUDA, 9999), NUMGPU_INVALID_VALUE, "numgpu_create_with", 3,
               "device", "numgpu_create_with(CUDA, device 9999)");
    }
    memory(cuda, "CUDA");
    pointer_spaces(cuda, cpu);
    absurd_malloc(cuda, "CUDA", (size_t)1 << 50);
    st = numgpu_destroy(cuda);
    check(st == NUMGPU_SUCCESS, "numgpu_destroy(CUDA): %s", last_error());
}

int main(void)
{
    numgpu_handle *cpu = NULL, *autoh = NULL;
    numgpu_status st = numgpu_create_with(&cpu, NUMGPU_BACKEND_CPU, 0);
    check(st == NUMGPU_SUCCESS, "numgpu_create_with(CPU): status %d (%s)", (int)st, last_error());
    st = numgpu_create(&autoh);
    check(st == NUMGPU_SUCCESS, "numgpu_create: status %d (%s)", (int)st, last_error());
    if (cpu == NULL || autoh == NULL)
        return finish("test_errors");

    strings();
    handles(cpu);
    last_error_semantics(cpu);
    memory(cpu, "CPU");
    memory(autoh, "AUTO");
    /* Beyond any address space (2^62 bytes), so no overcommit setting can grant it. */
    absurd_malloc(cpu, "CPU", (size_t)1 << 62);
    cuda_checks(cpu);

    numgpu_destroy(autoh);
    numgpu_destroy(cpu);
    return finish("test_errors");
}
