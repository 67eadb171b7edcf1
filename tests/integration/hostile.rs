//! Issue 16's property fuzz (the C side is c-tests/test_hostile.c): the shared extent check
//! against exact arithmetic, any extent beyond the address space rejected before a byte is
//! touched, and csrmv's structure checks against a plain definition of valid CSR.

use numgpu::core::check::check_span;
use numgpu::gemm_batched::{gemm_batched, Batch};
use numgpu::spmv::{csrmv_csr, Csr};
use numgpu::{Handle, Op, Status};
use proptest::prelude::*;

/// Sizes a hostile caller passes: small ones, the 2^31 and 2^61 neighbourhoods, the top.
fn size() -> impl Strategy<Value = usize> {
    prop_oneof![0usize..5, (1usize << 31) - 1..(1usize << 31) + 2, (1usize << 61) - 1..(1usize << 61) + 2, (isize::MAX as usize) - 1..=isize::MAX as usize, any::<usize>()]
}

/// `(count − 1)·step + len` elements of `bytes` each, exactly, when it fits `isize` bytes.
fn exact_span(len: usize, step: usize, count: usize, bytes: usize) -> Option<usize> {
    if len == 0 || count == 0 {
        return Some(0);
    }
    let elems = (count as u128 - 1) * step as u128 + len as u128;
    elems.checked_mul(bytes as u128).filter(|&b| b <= isize::MAX as u128).map(|_| elems as usize)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// check_span accepts exactly the extents whose bytes fit `isize`, and counts them.
    #[test]
    fn check_span_is_exact(len in size(), step in size(), count in size()) {
        let want1 = exact_span(len, step, count, 1);
        let want16 = exact_span(len, step, count, 16);
        prop_assert_eq!(check_span::<u8>(len, step, count, "A").ok(), want1);
        let got16 = check_span::<[f64; 2]>(len, step, count, "A");
        prop_assert_eq!(got16.as_ref().ok().copied(), want16);
        if let Err(e) = got16 {
            prop_assert_eq!((e.status, e.arg), (Status::NUMGPU_NOT_SUPPORTED, Some("A")));
        }
    }
}

/// Leading dimensions, strides and batches of a strided GEMM whose A, B or C would reach
/// beyond the address space (the arrays themselves are 8 elements).
fn huge_gemm() -> impl Strategy<Value = (i64, i64, i64, i64, i64, i64, i64)> {
    let dim = prop_oneof![Just(2i64), (1i64 << 31)..(1i64 << 31) + 2, (1i64 << 60)..(1i64 << 62), Just(i64::MAX)];
    (dim.clone(), dim.clone(), dim.clone(), dim.clone(), dim.clone(), dim.clone(), prop_oneof![Just(2i64), (1i64 << 60)..i64::MAX])
}

/// Bytes spanned by `batch` matrices of `ld × cols` f64, `stride` apart (u128: no overflow).
fn bytes(ld: i64, cols: i64, stride: i64, batch: i64) -> u128 {
    ((batch as u128 - 1) * stride as u128 + ld as u128 * cols as u128).saturating_mul(8)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A strided GEMM (2 × 2 × 2) that describes more than `isize::MAX` bytes for some
    /// operand is rejected and writes nothing; the arrays are 8 elements, so a call that did
    /// not check first would fault or scribble.
    #[test]
    fn gemm_beyond_the_address_space_is_rejected((lda, sa, ldb, sb, ldc, sc, batch) in huge_gemm()) {
        let beyond = [bytes(lda, 2, sa, batch), bytes(ldb, 2, sb, batch), bytes(ldc, 2, sc, batch)].iter().any(|&b| b > isize::MAX as u128);
        prop_assume!(beyond);
        let mut h = Handle::cpu();
        let (a, b) = ([1.0f64; 8], [1.0f64; 8]);
        let mut c = [7.0f64; 8];
        // SAFETY: the call is rejected before it reads or writes (what this test checks); the
        // pointers are valid for 8 elements.
        let e = unsafe {
            gemm_batched::<f64>(&mut h, Op::N, Op::N, 2, 2, 2, 1.0, Batch::Strided { ptr: a.as_ptr(), stride: sa }, lda,
                Batch::Strided { ptr: b.as_ptr(), stride: sb }, ldb, 0.0, Batch::Strided { ptr: c.as_mut_ptr(), stride: sc }, ldc, batch)
        }.expect_err("an extent beyond the address space is rejected");
        prop_assert!(matches!(e.status, Status::NUMGPU_NOT_SUPPORTED | Status::NUMGPU_INVALID_VALUE), "{e}");
        prop_assert_eq!(c, [7.0; 8]);
    }
}

/// A CSR structure of 1 × 1 up to 6 × 6 with up to 12 entries, often malformed: row pointers and
/// column indices drawn around their valid ranges.
fn csr() -> impl Strategy<Value = (usize, usize, i32, Vec<i32>, Vec<i32>)> {
    (1usize..7, 1usize..7, 0i32..2, 0usize..12).prop_flat_map(|(m, n, base, nnz)| {
        let nnz_i = nnz as i32;
        let row_ptr = prop::collection::vec(prop_oneof![8 => base..=nnz_i + base, 1 => -2i32..nnz_i + 4], m + 1);
        let col_ind = prop::collection::vec(prop_oneof![8 => base..(n as i32 + base).max(base + 1), 1 => -2i32..n as i32 + 3], nnz);
        (Just(m), Just(n), Just(base), row_ptr, col_ind)
    })
}

/// Valid CSR as the header defines it: row pointers nondecreasing within
/// [base, nnz + base], and the column indices of the entries up to row_ptr[m] in
/// [base, n + base). Entries beyond row_ptr[m] are never read.
fn valid(n: usize, base: i32, row_ptr: &[i32], col_ind: &[i32]) -> bool {
    let nnz = col_ind.len() as i32;
    let rows_ok = row_ptr.iter().all(|&p| p >= base && p <= nnz + base) && row_ptr.windows(2).all(|w| w[0] <= w[1]);
    rows_ok && col_ind[(row_ptr[0] - base) as usize..(row_ptr[row_ptr.len() - 1] - base) as usize].iter().all(|&c| c >= base && c < n as i32 + base)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// csrmv accepts exactly the valid structures (and then computes y = A·x as a plain loop
    /// does); a bad one is INVALID_VALUE naming row_ptr or col_ind, y untouched.
    #[test]
    fn csrmv_accepts_exactly_valid_structure((m, n, base, row_ptr, col_ind) in csr()) {
        let mut h = Handle::cpu();
        let nnz = col_ind.len();
        let a = Csr { m, n, row_ptr: row_ptr.clone(), col_ind: col_ind.clone(), val: (1..=nnz).map(|v| v as f64).collect(), base };
        let x: Vec<f64> = (0..n).map(|j| 1.0 + j as f64).collect();
        let mut y = vec![-3.0f64; m];
        let got = csrmv_csr(&mut h, Op::N, 1.0, &a, &x, 0.0, &mut y);
        if valid(n, base, &row_ptr, &col_ind) {
            prop_assert!(got.is_ok(), "{:?}", got);
            for (i, yi) in y.iter().enumerate() {
                let (lo, hi) = ((row_ptr[i] - base) as usize, (row_ptr[i + 1] - base) as usize);
                let want: f64 = (lo..hi).map(|k| a.val[k] * x[(col_ind[k] - base) as usize]).sum();
                prop_assert!((yi - want).abs() <= 1e-12 * want.abs().max(1.0), "row {}: {} vs {}", i, yi, want);
            }
        } else {
            let e = got.expect_err("bad structure is rejected");
            prop_assert_eq!(e.status, Status::NUMGPU_INVALID_VALUE);
            prop_assert!(matches!(e.arg, Some("row_ptr") | Some("col_ind")), "{}", e);
            prop_assert!(y.iter().all(|&v| v == -3.0));
        }
    }
}
