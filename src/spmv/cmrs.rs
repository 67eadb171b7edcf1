//! CMRS, Compressed Multi-Row Storage (the book's §6.3.2.2), and how numgpu packs it.
//!
//! Rows are grouped in strips of `height` (<= 16) consecutive rows, processed by one warp.
//! Each stored element is a value and a 32-bit word `(col << 4) | r`, its column and its row
//! within the strip (so n < 2^28). `strip_ptr` (strips + 1 offsets, 64-bit: padding may take
//! the stored length past 2^31) is the prefix sum of the strips' stored lengths, each a
//! multiple of 32, so every strip starts at a warp-aligned offset and element j of a strip is
//! handled by lane `j % 32`.
//!
//! The kernel accumulates into M copies of the strip's row sums (slot `(lane % M)·height + r`,
//! M in {2, 4, 8}), then adds the copies. Two lanes of one 32-element chunk must never hit one
//! slot, so within a chunk each row's entries form one contiguous run of at most M lanes
//! (their `lane % M` differ). [`schedule`] fills the chunks of a strip greedily: each chunk
//! takes, from the rows with the most entries left first, a run of up to M entries per row,
//! until its 32 lanes are full or the strip is done. A chunk that cannot be filled is padded
//! with the word [`PAD`] (column 2^28 − 1, which no valid matrix has) and value 0; the
//! kernels skip padding words, so padding touches no accumulator and no element of x (an Inf
//! or NaN in x reaches exactly the rows whose entries use it). M is the one of 2, 4, 8 with
//! the fewest stored elements (ties to the smaller M: less shared memory per warp) unless the
//! caller fixes it.
//!
//! A strip of more than [`ITEM_CHUNKS`] chunks (a long row, or long rows) would keep one warp
//! busy long after the others, so the work is cut into items of at most that many chunks, a
//! warp each: a strip of one item writes its rows of y; the items of a longer strip each write
//! their own row sums (a partial), and a fix-up pass adds a strip's partials in item order.
//!
//! Within an item, a row's entries keep their CSR order, and each accumulator slot receives
//! its products in chunk order, so the CPU backend (which replays the kernel's order) and the
//! CUDA backend compute the same sums.

use crate::core::Scalar;
use rayon::prelude::*;

/// Rows per strip at most (4 bits of row-in-strip).
pub(crate) const MAX_HEIGHT: usize = 16;
/// Columns must be fewer than this (28 bits of column).
pub(crate) const MAX_COLS: usize = 1 << 28;
/// Lanes of a warp: a strip's stored length is a multiple of it.
pub(crate) const WARP: usize = 32;
/// The word of a padding element, skipped by the kernels.
pub(crate) const PAD: u32 = u32::MAX;
/// The values M may take.
pub(crate) const LANE_CHOICES: [usize; 3] = [2, 4, 8];
/// The largest M.
pub(crate) const MAX_LANES: usize = 8;
/// Chunks of one work item at most.
pub(crate) const ITEM_CHUNKS: usize = 32;

/// The packed structure of a CMRS matrix (host memory).
#[derive(Clone, Debug, Default)]
pub struct Layout {
    pub height: usize,
    /// M: the accumulator copies per row, and the longest run of one row in a chunk.
    pub lanes: usize,
    /// strips + 1 offsets into `packed`, multiples of 32.
    pub strip_ptr: Vec<i64>,
    /// `(col << 4) | row-in-strip` of each stored element, or [`PAD`].
    pub packed: Vec<u32>,
    /// The CSR position (0-based) each stored element takes its value from, −1 for padding:
    /// how new values are gathered.
    pub src: Vec<i32>,
    /// items + 1 offsets into `packed`: the work items, in strip order, each within a strip
    /// and of at most [`ITEM_CHUNKS`] chunks (an empty strip is one empty item).
    pub item_ptr: Vec<i64>,
    /// The strip of each item.
    pub item_strip: Vec<i32>,
    /// Each item's partial (its `height` row sums), or −1 when it is its strip's only item
    /// and writes y itself.
    pub item_part: Vec<i32>,
    /// The strips of more than one item.
    pub split_strip: Vec<i32>,
    /// split strips + 1 offsets: split strip j's partials are `split_part[j]..split_part[j + 1]`.
    pub split_part: Vec<i32>,
}

/// Items of a strip of `chunks` chunks (an empty strip is one item).
pub fn items_of(chunks: usize) -> usize {
    chunks.div_ceil(ITEM_CHUNKS).max(1)
}

/// Fills the chunks of one strip whose rows have `lens` entries, `lanes` = M: calls `lane`
/// once per lane of every chunk, in order, with `(row in strip, entry of that row)` or
/// `None` for padding. Returns the number of chunks.
pub fn schedule(lens: &[usize], lanes: usize, mut lane: impl FnMut(Option<(usize, usize)>)) -> usize {
    let mut done = vec![0usize; lens.len()];
    let mut order: Vec<usize> = Vec::with_capacity(lens.len());
    let mut chunks = 0;
    loop {
        order.clear();
        order.extend((0..lens.len()).filter(|&r| done[r] < lens[r]));
        if order.is_empty() {
            return chunks;
        }
        // Most entries left first; ties by row (a stable sort), so the packing is a function
        // of the pattern alone.
        order.sort_by_key(|&r| std::cmp::Reverse(lens[r] - done[r]));
        let mut filled = 0;
        for &r in &order {
            let take = lanes.min(lens[r] - done[r]).min(WARP - filled);
            for e in done[r]..done[r] + take {
                lane(Some((r, e)));
            }
            done[r] += take;
            filled += take;
            if filled == WARP {
                break;
            }
        }
        for _ in filled..WARP {
            lane(None);
        }
        chunks += 1;
    }
}

impl Layout {
    /// Packs the (validated, 0-based after subtracting `base`) CSR structure with `height`
    /// rows per strip and M = `lanes`, or the M that stores the fewest elements.
    pub fn build(row_ptr: &[i32], col_ind: &[i32], base: i32, height: usize, lanes: Option<usize>) -> Layout {
        let m = row_ptr.len() - 1;
        let strips = m.div_ceil(height);
        let lens_of = |s: usize| -> Vec<usize> { (s * height..((s + 1) * height).min(m)).map(|i| (row_ptr[i + 1] - row_ptr[i]) as usize).collect() };
        let stored = |l: usize| -> usize { (0..strips).into_par_iter().map(|s| schedule(&lens_of(s), l, |_| {})).sum() };
        let lanes = lanes.unwrap_or_else(|| LANE_CHOICES.into_iter().min_by_key(|&l| (stored(l), l)).expect("choices are not empty"));
        let parts: Vec<(Vec<u32>, Vec<i32>)> = (0..strips)
            .into_par_iter()
            .map(|s| {
                let first = s * height;
                let (mut words, mut src) = (Vec::new(), Vec::new());
                schedule(&lens_of(s), lanes, |e| match e {
                    Some((r, e)) => {
                        let k = (row_ptr[first + r] - base) as usize + e;
                        words.push((((col_ind[k] - base) as u32) << 4) | r as u32);
                        src.push(k as i32);
                    }
                    None => {
                        words.push(PAD);
                        src.push(-1);
                    }
                });
                (words, src)
            })
            .collect();
        let mut strip_ptr = Vec::with_capacity(strips + 1);
        strip_ptr.push(0i64);
        for (w, _) in &parts {
            strip_ptr.push(strip_ptr.last().unwrap() + w.len() as i64);
        }
        let (packed, src) = parts.into_iter().fold((Vec::new(), Vec::new()), |(mut pw, mut ps), (w, s)| {
            pw.extend(w);
            ps.extend(s);
            (pw, ps)
        });
        let mut l = Layout { height, lanes, strip_ptr, packed, src, split_part: vec![0], ..Layout::default() };
        l.cut_items();
        l
    }

    /// Cuts the strips into work items (see the module docs).
    fn cut_items(&mut self) {
        self.item_ptr.push(0);
        for s in 0..self.strips() {
            let (lo, hi) = (self.strip_ptr[s], self.strip_ptr[s + 1]);
            let items = items_of((hi - lo) as usize / WARP);
            let first_part = *self.split_part.last().expect("starts with 0");
            for i in 0..items {
                self.item_ptr.push((lo + ((i + 1) * ITEM_CHUNKS * WARP) as i64).min(hi));
                self.item_strip.push(s as i32);
                self.item_part.push(if items == 1 { -1 } else { first_part + i as i32 });
            }
            if items > 1 {
                self.split_strip.push(s as i32);
                self.split_part.push(first_part + items as i32);
            }
        }
    }

    /// Partials of the split strips (each `height` row sums).
    pub fn parts(&self) -> usize {
        *self.split_part.last().unwrap_or(&0) as usize
    }

    pub fn strips(&self) -> usize {
        self.strip_ptr.len() - 1
    }

    /// The stored values for CSR values `val` (0 for padding).
    pub fn gather<T: Scalar>(&self, val: &[T]) -> Vec<T> {
        self.src.par_iter().with_min_len(4096).map(|&k| if k < 0 { T::zero() } else { val[k as usize] }).collect()
    }
}

/// Host copies of a CMRS matrix's stored values, in its precision.
#[derive(Clone, Debug)]
pub enum HostValues {
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// The element types CMRS is built for (f32, f64).
pub trait CmrsScalar: Scalar {
    fn values(v: &HostValues) -> Option<&[Self]>;
    fn wrap(v: Vec<Self>) -> HostValues;
}

/// The `CmrsScalar` impl of a real type and the `HostValues` variant that holds it.
macro_rules! cmrs_scalar {
    ($t:ty, $variant:ident) => {
        impl CmrsScalar for $t {
            fn values(v: &HostValues) -> Option<&[$t]> {
                match v {
                    HostValues::$variant(x) => Some(x),
                    _ => None,
                }
            }
            fn wrap(v: Vec<$t>) -> HostValues {
                HostValues::$variant(v)
            }
        }
    };
}

cmrs_scalar!(f32, F32);
cmrs_scalar!(f64, F64);

/// Where a CMRS matrix's stored data lives.
pub(crate) enum Store {
    Host(HostValues),
    Cuda(super::cuda::CmrsDevice),
}

/// An opaque CMRS matrix (`numgpu_cmrs_matrix` in C): built once by `numgpu_?cmrs_create`
/// on a handle's backend (its data lives there: host memory, or memory of the handle's CUDA
/// device), multiplied by `numgpu_?cmrsmv` through any handle of that backend and device,
/// released by `numgpu_cmrs_destroy`. Its precision is the one it was created with.
pub struct CmrsMatrix {
    pub(crate) m: usize,
    pub(crate) n: usize,
    pub(crate) nnz: usize,
    /// 's' or 'd'.
    pub(crate) letter: char,
    pub(crate) layout: Layout,
    pub(crate) store: Store,
}

impl CmrsMatrix {
    pub fn m(&self) -> usize {
        self.m
    }
    pub fn n(&self) -> usize {
        self.n
    }
    pub fn nnz(&self) -> usize {
        self.nnz
    }
    /// Rows per strip.
    pub fn height(&self) -> usize {
        self.layout.height
    }
    /// M.
    pub fn lanes(&self) -> usize {
        self.layout.lanes
    }
    /// Stored elements, padding included.
    pub fn stored(&self) -> usize {
        self.layout.packed.len()
    }
    /// Padding elements per entry: (stored − nnz) / nnz, 0 when nnz = 0.
    pub fn padding_ratio(&self) -> f64 {
        if self.nnz == 0 {
            0.0
        } else {
            (self.stored() - self.nnz) as f64 / self.nnz as f64
        }
    }
    /// 's' (float) or 'd' (double).
    pub fn letter(&self) -> char {
        self.letter
    }
    /// The CUDA device the data lives on, `None` on the CPU backend.
    pub fn device(&self) -> Option<i32> {
        match &self.store {
            Store::Host(_) => None,
            Store::Cuda(d) => Some(d.dev.ordinal),
        }
    }
    /// The packed structure (host copy).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Items tile the stored elements strip by strip, at most ITEM_CHUNKS chunks each, and
    /// only strips of several items have partials, numbered in order.
    #[test]
    fn items_cut_long_strips_only() {
        // Strips of 16 rows: 3 short rows; one row of 2000 (250 chunks at M = 8); none.
        let mut lens = vec![3usize; 3];
        lens.extend([2000]);
        lens.extend(vec![0; 28]);
        let mut row_ptr = vec![0i32];
        for l in &lens {
            row_ptr.push(row_ptr.last().unwrap() + *l as i32);
        }
        let col_ind: Vec<i32> = (0..*row_ptr.last().unwrap()).map(|k| k % 7).collect();
        let l = Layout::build(&row_ptr, &col_ind, 0, 16, Some(8));
        assert_eq!(l.strips(), 2);
        let chunks = (l.strip_ptr[1] / WARP as i64) as usize;
        assert_eq!(chunks, 250);
        assert_eq!(l.item_ptr.len() - 1, items_of(chunks) + 1);
        assert_eq!((l.item_ptr[0], *l.item_ptr.last().unwrap()), (0, l.packed.len() as i64));
        assert!(l.item_ptr.windows(2).all(|w| w[0] <= w[1] && w[1] - w[0] <= (ITEM_CHUNKS * WARP) as i64 && w[0] % WARP as i64 == 0));
        assert_eq!((l.split_strip.clone(), l.split_part.clone(), l.parts()), (vec![0], vec![0, 8], 8));
        assert_eq!(l.item_part, (0..8).chain([-1]).collect::<Vec<i32>>());
        assert_eq!(l.item_strip, [0, 0, 0, 0, 0, 0, 0, 0, 1]);
    }

    /// Every chunk is 32 lanes, no (row, lane % M) slot is hit twice in a chunk, each row's
    /// entries come out once each and in order.
    #[test]
    fn schedule_keeps_slots_apart_and_entries_in_order() {
        for lanes in LANE_CHOICES {
            for lens in [vec![1usize, 0, 70, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 33], vec![0; 16], vec![200], vec![5; 16], vec![1, 2]] {
                let mut seen = Vec::new();
                let chunks = schedule(&lens, lanes, |e| seen.push(e));
                assert_eq!(seen.len(), chunks * WARP);
                for c in seen.chunks(WARP) {
                    let mut slots = std::collections::HashSet::new();
                    for (l, e) in c.iter().enumerate() {
                        if let Some((r, _)) = e {
                            assert!(slots.insert((*r, l % lanes)), "M = {lanes}, lens {lens:?}: slot hit twice");
                        }
                    }
                }
                for (r, &len) in lens.iter().enumerate() {
                    let got: Vec<usize> = seen.iter().filter_map(|e| e.filter(|(q, _)| *q == r).map(|(_, k)| k)).collect();
                    assert_eq!(got, (0..len).collect::<Vec<_>>(), "M = {lanes}, row {r}");
                }
                let nnz: usize = lens.iter().sum();
                let lower = nnz.div_ceil(WARP).max(lens.iter().map(|l| l.div_ceil(lanes)).max().unwrap_or(0));
                assert_eq!(chunks, lower, "M = {lanes}, lens {lens:?}: not the fewest chunks");
            }
        }
    }
}
