//! A segmented reduction by columns on the GPU (Note [Column
//! reductions] in `futmlir_passes::segop::coalesce`): a group takes 32
//! consecutive segments and 8 lanes of a chunk of the reduction's
//! points, so that each warp reads a row's consecutive elements; a
//! second kernel combines each segment's chunks.

use futmlir_dialects::ir::{MemSpace, TypeKind, Value};

use super::group::when;
use super::launch::{ceil_div, global_id, launch, par_for, param, unravel, BLOCK, PARAM_REDUCE_GROUPS};
use super::segred::strided_reduce;
use super::{apply, MapPoint, Op};
use crate::segop_to_imp::{elem_bytes, segops, Arr, Tr, R};

/// Segments a group takes (a warp's width).
const COLUMNS: i64 = 32;
/// Lanes of a group's chunk (`BLOCK / COLUMNS`).
const LANES: i64 = BLOCK / COLUMNS;
/// The fewest points a lane reduces in a chunk: more chunks than this
/// allows would leave the lanes too little to do.
const MIN_PER_LANE: i64 = 16;

/// The segred over `sizes` (`outer..., p, m`: `p` segments of `m`
/// points each, for each outer index) with the commutative operator `op`,
/// into the arrays `outs` (over `outer..., p`); `point` gives a point's
/// values (the first `k` combined).
pub(crate) fn column_reduce(tr: &mut Tr, sizes: &[Value], op: &Op, outs: &[Arr], point: &mut MapPoint) -> R<()> {
    let d = sizes.len();
    let (outer, space) = sizes.split_at(d - 2);
    let (p, m) = (space[0], space[1]);
    let cols = tr.i64c(COLUMNS);
    let col_blocks = ceil_div(tr, p, cols);
    let outer_count = tr.product(outer);
    let blocks = tr.mul(col_blocks, outer_count);
    // Chunks enough for `reduce_groups` groups in all, but each lane at
    // least MIN_PER_LANE points, and at least one chunk.
    let groups = param(tr, PARAM_REDUCE_GROUPS);
    let one = tr.i64c(1);
    let some_blocks = tr.bin("max", blocks, one);
    let want = ceil_div(tr, groups, some_blocks);
    let per_chunk_min = tr.i64c(LANES * MIN_PER_LANE);
    let most = ceil_div(tr, m, per_chunk_min);
    let chunks = tr.bin("min", want, most);
    let chunks = tr.bin("max", chunks, one);
    let rows = ceil_div(tr, m, chunks);
    let mut partial_sizes = vec![chunks];
    partial_sizes.extend_from_slice(&sizes[..d - 1]);
    let partials: Vec<Arr> = op
        .elems
        .iter()
        .map(|&e| tr.alloc_array(e, &partial_sizes))
        .collect::<R<_>>()?;
    let grid = tr.mul(blocks, chunks);
    // No segments (an empty space): no kernels.
    let zero = tr.i64c(0);
    let any = tr.cmp("gt", blocks, zero);
    when(tr, any, &mut |tr| {
        launches(
            tr,
            (grid, chunks, rows, col_blocks),
            sizes,
            op,
            (outs, &partials),
            point,
        )
    })
}

/// [`column_reduce`]'s two kernels, for `chunks` chunks of `rows` points
/// of groups of `col_blocks` columns each (`grid` groups in all), through
/// the arrays `partials` of each chunk's results.
fn launches(
    tr: &mut Tr,
    (grid, chunks, rows, col_blocks): (Value, Value, Value, Value),
    sizes: &[Value],
    op: &Op,
    (outs, partials): (&[Arr], &[Arr]),
    point: &mut MapPoint,
) -> R<()> {
    let d = sizes.len();
    let (outer, space) = sizes.split_at(d - 2);
    let (p, m) = (space[0], space[1]);
    let k = op.nes.len();
    let cols = tr.i64c(COLUMNS);
    let lanes = tr.i64c(LANES);
    launch(tr, grid, BLOCK, &mut |tr| {
        let (_, tid, bid) = global_id(tr);
        let chunk = tr.bin("mod", bid, chunks);
        let block = tr.bin("div", bid, chunks);
        let jb = tr.bin("mod", block, col_blocks);
        let outer_flat = tr.bin("div", block, col_blocks);
        let outer_idx = unravel(tr, outer_flat, outer);
        let mask = tr.i64c(COLUMNS - 1);
        let col = tr.bin("and", tid, mask);
        let shift = tr.i64c(COLUMNS.trailing_zeros() as i64);
        let lane = tr.bin("shr", tid, shift);
        let j = tr.mul(jb, cols);
        let j = tr.add(j, col);
        let valid = tr.cmp("lt", j, p);
        // This lane's points of the chunk: start + lane, + LANES, ...
        let start = tr.mul(chunk, rows);
        let end = tr.add(start, rows);
        let end = tr.bin("min", end, m);
        let first = tr.add(start, lane);
        let left = tr.bin("sub", end, first);
        let zero = tr.i64c(0);
        let left = tr.bin("max", left, zero);
        let count = ceil_div(tr, left, lanes);
        let nes = op.nes.to_vec();
        let accs = tr.if_(
            valid,
            &mut |tr| {
                strided_reduce(tr, op, (count, first, lanes), &mut |tr, q| {
                    let mut at = outer_idx.clone();
                    at.extend([j, q]);
                    let ys = point(tr, &at)?;
                    segops::rep_scalars(tr, &ys[..k])
                })
            },
            &mut |_| Ok(nes.clone()),
        )?;
        // The lanes' values through shared memory; lane 0 combines them.
        let shared_t = tr.ctx.intern_type(TypeKind::Mem(MemSpace::Shared));
        let sh: Vec<(Value, _)> = op
            .elems
            .iter()
            .zip(&accs)
            .map(|(&e, &a)| {
                let bytes = tr.i64c(BLOCK * elem_bytes(e));
                let m = tr.emit1("imp.shared_alloc", &[bytes], shared_t, &[]);
                tr.emit("imp.store", &[m, tid, a], &[], &[], vec![]);
                (m, tr.ty(e))
            })
            .collect();
        let local = tr.ctx.string_attr("local");
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        let lane0 = tr.cmp("eq", lane, zero);
        let write = tr.bin("and", lane0, valid);
        when(tr, write, &mut |tr| {
            let mut acc: Vec<Value> = sh
                .iter()
                .map(|&(m, t)| tr.emit1("imp.load", &[m, col], t, &[]))
                .collect();
            for l in 1..LANES {
                let off = tr.i64c(l * COLUMNS);
                let at = tr.add(col, off);
                let xs: Vec<Value> = sh
                    .iter()
                    .map(|&(m, t)| tr.emit1("imp.load", &[m, at], t, &[]))
                    .collect();
                acc = apply(tr, op, &acc, &xs)?;
            }
            let mut at = vec![chunk];
            at.extend(outer_idx.iter().copied());
            at.push(j);
            for (a, &v) in partials.iter().zip(&acc) {
                tr.store(a, &at, v);
            }
            Ok(())
        })
    })?;
    // Each segment's chunks, in order.
    par_for(tr, &sizes[..d - 1], &mut |tr, idx| {
        let nes = op.nes.to_vec();
        let acc = tr.for_loop(chunks, &nes, &mut |tr, c, acc| {
            let mut at = vec![c];
            at.extend_from_slice(idx);
            let xs: Vec<Value> = partials.iter().map(|a| tr.load(a, &at)).collect();
            apply(tr, op, acc, &xs)
        })?;
        for (o, &v) in outs.iter().zip(&acc) {
            tr.store(o, idx, v);
        }
        Ok(())
    })
}
