//! A tiled segmented reduction on the GPU (Note [Block tiling] in
//! `futmlir_passes::segop::tile`): a group of 16x16 threads computes a
//! block of [16*rows][16*cols] results, its inputs' tiles of `k`
//! reduction steps staged in shared memory, each thread's `rows x cols`
//! results in registers.

use futmlir_dialects::ir::{MemSpace, Type, TypeKind, Value};
use futmlir_passes::segop::tile::{Ix, Side, TiledRead};

use super::group::when;
use super::launch::{ceil_div, global_id, launch, param, unravel, BLOCK, PARAM_TILE_MIN_BLOCKS};
use super::{apply, Op};
use crate::segop_to_imp::{elem_bytes, segops, Arr, Tr, R};

/// Threads along each side of a tiled group (`BLOCK` = 16 x 16).
const SIDE: i64 = 16;

/// The most ops of a body times the points a thread computes per tile
/// ([`tiled_kernel`]) for which the tile's steps are unrolled.
const UNROLL_OPS: usize = 16384;

/// A tile of one read in shared memory: `k` steps of `len` elements
/// (the group's rows or columns), each step padded by one element so
/// that threads storing along the reduction hit different banks.
struct SharedTile {
    mem: Value,
    elem: Type,
    side: Side,
    /// The array read, and what its indices are.
    array: Arr,
    indices: Vec<Ix>,
    /// Whether consecutive threads load consecutive rows (or columns) of
    /// the tile, the array's side dimension being contiguous; otherwise
    /// consecutive steps of the reduction.
    side_fast: bool,
}

/// What a point of a tiled kernel combines: given the point's indices
/// (`outer..., i, j, q`) and the values of the tiled reads there, the
/// values to combine.
pub(crate) type Element<'b> = dyn FnMut(&mut Tr, &[Value], &[Value]) -> R<Vec<Value>> + 'b;
/// What a tiled kernel does with a result: given its indices
/// (`outer..., i, j`) and the combined values.
pub(crate) type Finish<'b> = dyn FnMut(&mut Tr, &[Value], &[Value]) -> R<()> + 'b;

/// The tiled kernel (Note [Block tiling]) over the space `sizes`
/// (`outer..., n, p`) of results, each combining with `op` the `element`s
/// of its points `0..m` of the reduction, in order, then `finish`ed;
/// `reads` come from the shared tiles, tiled by `[rows, cols, k]`;
/// `body_ops`: the ops of the code `element` translates.
pub(crate) fn tiled_kernel(
    tr: &mut Tr,
    sizes: &[Value],
    m: Value,
    op: &Op,
    (reads, [rows, cols, k], body_ops): (&[TiledRead], [i64; 3], usize),
    element: &mut Element,
    finish: &mut Finish,
) -> R<()> {
    // The steps of a tile are unrolled where the code stays small, so
    // that the shared tiles' addresses are constant offsets.
    let unroll = body_ops * (rows * cols * k) as usize <= UNROLL_OPS;
    let d = sizes.len();
    let (outer, space) = sizes.split_at(d - 2);
    let (n, p) = (space[0], space[1]);
    let (bm, bn) = (SIDE * rows, SIDE * cols);
    let bm_c = tr.i64c(bm);
    let bn_c = tr.i64c(bn);
    let blocks_i = ceil_div(tr, n, bm_c);
    let blocks_j = ceil_div(tr, p, bn_c);
    let outer_count = tr.product(outer);
    let grid = tr.mul(blocks_i, blocks_j);
    let grid = tr.mul(grid, outer_count);
    let arrays = reads.iter().map(|r| tr.array(r.array)).collect::<R<Vec<_>>>()?;
    launch(tr, grid, BLOCK, &mut |tr| {
        let (_, tid, bid) = global_id(tr);
        let bj = tr.bin("mod", bid, blocks_j);
        let rest = tr.bin("div", bid, blocks_j);
        let bi = tr.bin("mod", rest, blocks_i);
        let rest = tr.bin("div", rest, blocks_i);
        let outer_idx = unravel(tr, rest, outer);
        let four = tr.i64c(SIDE.trailing_zeros() as i64);
        let ty = tr.bin("shr", tid, four);
        let side_mask = tr.i64c(SIDE - 1);
        let tx = tr.bin("and", tid, side_mask);
        let i0 = tr.mul(bi, bm_c);
        let j0 = tr.mul(bj, bn_c);
        let tiles: Vec<SharedTile> = reads
            .iter()
            .zip(&arrays)
            .map(|(r, a)| shared_tile(tr, r, a, [bm, bn, k]))
            .collect();
        // The thread's rows and columns of the block.
        let sixteen = tr.i64c(SIDE);
        let mine = |tr: &mut Tr, count: i64, me: Value, first: Value| -> Vec<Value> {
            (0..count)
                .map(|r| {
                    let r = tr.i64c(r);
                    let off = tr.mul(r, sixteen);
                    let off = tr.add(me, off);
                    tr.add(first, off)
                })
                .collect()
        };
        let my_rows = mine(tr, rows, ty, i0);
        let my_cols = mine(tr, cols, tx, j0);
        let end_i = tr.add(i0, bm_c);
        let end_j = tr.add(j0, bn_c);
        let in_i = tr.cmp("le", end_i, n);
        let in_j = tr.cmp("le", end_j, p);
        let whole_block = tr.bin("and", in_i, in_j);
        let kc = tr.i64c(k);
        let steps = ceil_div(tr, m, kc);
        let width = op.nes.len();
        let inits: Vec<Value> = (0..rows * cols).flat_map(|_| op.nes.iter().copied()).collect();
        let local = tr.ctx.string_attr("local");
        let accs = tr.for_loop(steps, &inits, &mut |tr, step, accs| {
            let q0 = tr.mul(step, kc);
            tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
            for t in &tiles {
                let (base, len) = if t.side == Side::Rows { (i0, bm) } else { (j0, bn) };
                load_tile(tr, t, (&outer_idx, base, q0), (len, k), tid)?;
            }
            tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
            let end_q = tr.add(q0, kc);
            let in_q = tr.cmp("le", end_q, m);
            let whole = tr.bin("and", whole_block, in_q);
            tr.if_versions(whole, &mut |tr, whole| {
                let mut one_step = |tr: &mut Tr, kk: Value, accs: &[Value]| -> R<Vec<Value>> {
                    let q = tr.add(q0, kk);
                    // This step's elements of the thread's rows and columns.
                    let mut regs: Vec<Vec<Value>> = Vec::new();
                    for t in &tiles {
                        let (len, count, me) = match t.side {
                            Side::Rows => (bm, rows, ty),
                            Side::Cols => (bn, cols, tx),
                        };
                        let row = tr.i64c(len + 1);
                        let at = tr.mul(kk, row);
                        let at = tr.add(at, me);
                        regs.push(
                            (0..count)
                                .map(|r| {
                                    let off = tr.i64c(r * SIDE);
                                    let e = tr.add(at, off);
                                    tr.emit1("imp.load", &[t.mem, e], t.elem, &[])
                                })
                                .collect(),
                        );
                    }
                    let mut next = Vec::with_capacity(accs.len());
                    for (ri, &i) in my_rows.iter().enumerate() {
                        for (ci, &j) in my_cols.iter().enumerate() {
                            let at = (ri * cols as usize + ci) * width;
                            let acc = accs[at..at + width].to_vec();
                            let xs: Vec<Value> = tiles
                                .iter()
                                .zip(&regs)
                                .map(|(t, regs)| if t.side == Side::Rows { regs[ri] } else { regs[ci] })
                                .collect();
                            let mut idx = outer_idx.clone();
                            idx.extend([i, j, q]);
                            let mut combine = |tr: &mut Tr| -> R<Vec<Value>> {
                                let ys = element(tr, &idx, &xs)?;
                                apply(tr, op, &acc, &ys)
                            };
                            let new = if whole {
                                combine(tr)?
                            } else {
                                let ok_i = tr.cmp("lt", i, n);
                                let ok_j = tr.cmp("lt", j, p);
                                let ok_q = tr.cmp("lt", q, m);
                                let ok = tr.bin("and", ok_i, ok_j);
                                let ok = tr.bin("and", ok, ok_q);
                                tr.if_(ok, &mut combine, &mut |_| Ok(acc.clone()))?
                            };
                            next.extend(new);
                        }
                    }
                    Ok(next)
                };
                if !unroll {
                    return tr.for_loop(kc, accs, &mut one_step);
                }
                let mut accs = accs.to_vec();
                for kk in 0..k {
                    let kk = tr.i64c(kk);
                    accs = one_step(tr, kk, &accs)?;
                }
                Ok(accs)
            })
        })?;
        for (ri, &i) in my_rows.iter().enumerate() {
            for (ci, &j) in my_cols.iter().enumerate() {
                let at = (ri * cols as usize + ci) * width;
                let ok_i = tr.cmp("lt", i, n);
                let ok_j = tr.cmp("lt", j, p);
                let ok = tr.bin("and", ok_i, ok_j);
                let mut idx = outer_idx.clone();
                idx.extend([i, j]);
                when(tr, ok, &mut |tr| finish(tr, &idx, &accs[at..at + width]))?;
            }
        }
        Ok(())
    })
}

/// Whether the tiled version of a segop over `sizes` (a segred's when
/// `reduce`, a segmap's otherwise) tiled by `[rows, cols, _]` runs:
/// when it has rows and columns to share, at least 16 of each, and at
/// least `tile_min_blocks` blocks of results (the tuning parameter).
/// With fewer, the blocks would each walk the whole reduction, with most
/// of the GPU idle: the gradient of k-means' centres, [32][16] results
/// over 262,144 points, took 263 ms tiled (one block) on the H100,
/// against about 2 ms with a group per result.
pub(crate) fn tiled_enough(tr: &mut Tr, sizes: &[Value], reduce: bool, [rows, cols, _]: [i64; 3]) -> Value {
    let d = sizes.len();
    let at = if reduce { d - 3 } else { d - 2 };
    let (n, p) = (sizes[at], sizes[at + 1]);
    let sixteen = tr.i64c(SIDE);
    let rows_ok = tr.cmp("ge", n, sixteen);
    let cols_ok = tr.cmp("ge", p, sixteen);
    let bm = tr.i64c(SIDE * rows);
    let bn = tr.i64c(SIDE * cols);
    let blocks_i = ceil_div(tr, n, bm);
    let blocks_j = ceil_div(tr, p, bn);
    let outer = tr.product(&sizes[..at]);
    let blocks = tr.mul(blocks_i, blocks_j);
    let blocks = tr.mul(blocks, outer);
    let min = param(tr, PARAM_TILE_MIN_BLOCKS);
    let enough = tr.cmp("ge", blocks, min);
    let big = tr.bin("and", rows_ok, cols_ok);
    tr.bin("and", big, enough)
}

/// The shared tile of read `r` of array `a`, for a block of `bm` rows
/// and `bn` columns and `k` steps.
fn shared_tile(tr: &mut Tr, r: &TiledRead, a: &Arr, [bm, bn, k]: [i64; 3]) -> SharedTile {
    let len = if r.side == Side::Rows { bm } else { bn };
    let bytes = tr.i64c(k * (len + 1) * elem_bytes(a.elem));
    let shared = tr.ctx.intern_type(TypeKind::Mem(MemSpace::Shared));
    let mem = tr.emit1("imp.shared_alloc", &[bytes], shared, &[]);
    let side_at = r
        .indices
        .iter()
        .position(|&x| x == Ix::Side)
        .expect("a tiled read's side index");
    SharedTile {
        mem,
        elem: tr.ty(a.elem),
        side: r.side,
        array: a.clone(),
        indices: r.indices.clone(),
        side_fast: segops::constant_int(tr, a.dims[side_at].1) == Some(1),
    }
}

/// Loads the tile `t` of the rows (or columns) `base..base + len` (at the
/// outer indices `outer`) and the
/// reduction's steps `q0..q0 + k` into shared memory, element (e, kk) at
/// `kk * (len + 1) + e`; the threads of the group take the elements in
/// the order that reads the array's memory contiguously. Elements
/// outside the array are not loaded: only points outside the space, which
/// combine nothing, would read them.
fn load_tile(
    tr: &mut Tr,
    t: &SharedTile,
    (outer, base, q0): (&[Value], Value, Value),
    (len, k): (i64, i64),
    tid: Value,
) -> R<()> {
    let elements = len * k;
    let rounds = (elements + BLOCK - 1) / BLOCK;
    for round in 0..rounds {
        let first = tr.i64c(round * BLOCK);
        let f = tr.add(first, tid);
        let (fast, slow) = if t.side_fast { (len, k) } else { (k, len) };
        let fast_c = tr.i64c(fast);
        let a = tr.bin("mod", f, fast_c);
        let b = tr.bin("div", f, fast_c);
        let (e, kk) = if t.side_fast { (a, b) } else { (b, a) };
        let slow_c = tr.i64c(slow);
        let inside_tile = tr.cmp("lt", b, slow_c);
        let s = tr.add(base, e);
        let q = tr.add(q0, kk);
        let idx: Vec<Value> = t
            .indices
            .iter()
            .map(|x| match *x {
                Ix::Outer(o) => outer[o],
                Ix::Side => s,
                Ix::Reduction => q,
            })
            .collect();
        let mut ok = inside_tile;
        for (&x, &(size, _)) in idx.iter().zip(&t.array.dims) {
            let in_array = tr.cmp("lt", x, size);
            ok = tr.bin("and", ok, in_array);
        }
        when(tr, ok, &mut |tr| {
            let x = tr.load(&t.array, &idx);
            let row = tr.i64c(len + 1);
            let at = tr.mul(kk, row);
            let at = tr.add(at, e);
            tr.emit("imp.store", &[t.mem, at, x], &[], &[], vec![]);
            Ok(())
        })?;
    }
    Ok(())
}
