//! The segred on the GPU (Note [Segops on the GPU]): a reduction over
//! one dimension in two kernels of groups ([`reduce`]), and a segmented
//! reduction with a group per segment ([`segred_groups`], taken at run
//! time when the segments are long: [`long_segments`]); each thread
//! reduces its points, strided or in order (Note [Index parts]), then the
//! group combines the threads' values.

use futmlir_dialects::ir::{RegionId, Value};

use super::group::{fitting_items, group_reduce, padded, stage_round, staging, when, STAGING_BYTES};
use super::launch::{
    ceil_div, global_id, group_count, launch_with, param, thread_range, unravel, BLOCK, PARAM_SEGRED_GROUP_MIN,
};
use super::{apply, MapPoint, MapWrite, Op};
use crate::segop_to_imp::{Arr, Rep, Tr, R};

/// What a one-dimensional reduction or scan reads at index `i`: the `k`
/// values to combine (and it may write mapped results).
pub(crate) type Point<'b> = dyn FnMut(&mut Tr, Value) -> R<Vec<Value>> + 'b;

/// The version of a segmented reduction over segments `outer` of length
/// `m` that gives each segment a group ([`segred_groups`]), for long
/// segments: whether the segments are at least the tuning parameter
/// `segred_group_min` long, and the version's region. (The other version,
/// a thread per segment, is `segops.rs`'s.)
pub(crate) fn long_segments(
    tr: &mut Tr,
    outer: &[Value],
    m: Value,
    op: &Op,
    outs: &[Option<Arr>],
    point: &mut MapPoint,
    write_mapped: &mut MapWrite,
) -> R<(Value, RegionId)> {
    // The tuning parameter `segred_group_min`.
    let min = param(tr, PARAM_SEGRED_GROUP_MIN);
    let long = tr.cmp("ge", m, min);
    let (r, _) = tr.region(&[], &mut |tr, _| {
        segred_groups(tr, outer, m, op, outs, point, write_mapped)?;
        Ok(vec![])
    })?;
    Ok((long, r))
}

/// A segmented reduction over segments `outer` of length `m`, a group
/// per segment: its threads reduce their parts of the segment (every
/// BLOCK-th element, coalesced, for a commutative operator; contiguous
/// chunks otherwise), then the group in order; thread 0 writes the
/// segment's results into `outs` (the first `k`, `k` the operator's
/// arity); `write_mapped` writes each point's mapped results.
fn segred_groups(
    tr: &mut Tr,
    outer: &[Value],
    m: Value,
    op: &Op,
    outs: &[Option<Arr>],
    point: &mut MapPoint,
    write_mapped: &mut MapWrite,
) -> R<()> {
    let k = op.nes.len();
    let outs = outs[..k]
        .iter()
        .map(|o| {
            o.clone()
                .ok_or_else(|| tr.fail("internal error: a segmented reduction without its array"))
        })
        .collect::<R<Vec<Arr>>>()?;
    let segments = tr.product(outer);
    launch_with(tr, segments, BLOCK, ordered_min_blocks(op), &mut |tr| {
        let (_, tid, bid) = global_id(tr);
        let idx = unravel(tr, bid, outer);
        let bs = tr.i64c(BLOCK);
        let zero = tr.i64c(0);
        group_reduce_range(tr, op, (m, bs, zero), tid, &outs, &idx, &mut |tr, i| {
            let mut at = idx.clone();
            at.push(i);
            let ys = point(tr, &at)?;
            write_mapped(tr, &at, &ys);
            ys[..k]
                .iter()
                .map(|y| match y {
                    Rep::Scalar(v) => Ok(*v),
                    Rep::Array(_) => Err(tr.unsupported("reductions of arrays")),
                })
                .collect()
        })
    })
}

/// A group's part of a reduction of the points `0..n` shared by
/// `threads` threads, of which this group's start at `first_thread`
/// (`(n, threads, first_thread)`): each thread reduces its points (every
/// `threads`-th for a commutative operator; otherwise a contiguous chunk,
/// read through shared memory by [`ordered_chunks`]), then the group in
/// order; thread 0 stores the results in `outs` at `at`.
fn group_reduce_range(
    tr: &mut Tr,
    op: &Op,
    (n, threads, first_thread): (Value, Value, Value),
    tid: Value,
    outs: &[Arr],
    at: &[Value],
    point: &mut Point,
) -> R<()> {
    let nes = op.nes.to_vec();
    let me = tr.add(first_thread, tid);
    let accs = if op.commutative {
        let (count, first, step) = thread_range(tr, n, threads, me, true);
        strided_reduce(tr, op, (count, first, step), point)?
    } else if fitting_items(&op.staged(), ORDERED_ITEMS, STAGING_BYTES).is_some() {
        ordered_chunks(tr, op, (n, threads, first_thread), tid, point)?
    } else {
        // Elements too wide to stage: each thread reads its chunk itself.
        let (count, first, _) = thread_range(tr, n, threads, me, false);
        tr.for_loop(count, &nes, &mut |tr, j, accs| {
            let i = tr.add(first, j);
            let ys = point(tr, i)?;
            apply(tr, op, accs, &ys)
        })?
    };
    let accs = group_reduce(tr, op, tid, &accs)?;
    let zero = tr.i64c(0);
    let is0 = tr.cmp("eq", tid, zero);
    when(tr, is0, &mut |tr| {
        for (o, &a) in outs.iter().zip(&accs) {
            tr.store(o, at, a);
        }
        Ok(())
    })?;
    Ok(())
}

/// Points a thread reads at once in [`strided_reduce`].
const REDUCE_UNROLL: i64 = 4;

/// A thread's reduction, with a commutative operator, of the `count`
/// points `first`, `first + step`, ...: [`REDUCE_UNROLL`] points read
/// before any is combined (so that their loads are in flight together),
/// combined pairwise, then the points left over one by one.
pub(super) fn strided_reduce(
    tr: &mut Tr,
    op: &Op,
    (count, first, step): (Value, Value, Value),
    point: &mut Point,
) -> R<Vec<Value>> {
    let nes = op.nes.to_vec();
    let shift = tr.i64c(REDUCE_UNROLL.trailing_zeros() as i64);
    let rounds = tr.bin("shr", count, shift);
    let unroll = tr.i64c(REDUCE_UNROLL);
    let wide = tr.mul(step, unroll);
    let accs = tr.for_loop(rounds, &nes, &mut |tr, r, accs| {
        let base = tr.mul(r, wide);
        let base = tr.add(first, base);
        let mut ys = Vec::new();
        for u in 0..REDUCE_UNROLL {
            let u = tr.i64c(u);
            let off = tr.mul(step, u);
            let i = tr.add(base, off);
            ys.push(point(tr, i)?);
        }
        while ys.len() > 1 {
            let mut next = Vec::new();
            for pair in ys.chunks(2) {
                next.push(match pair {
                    [a, b] => apply(tr, op, a, b)?,
                    [a] => a.clone(),
                    _ => unreachable!("chunks of two"),
                });
            }
            ys = next;
        }
        apply(tr, op, accs, &ys[0])
    })?;
    let done = tr.bin("shl", rounds, shift);
    let left = tr.bin("sub", count, done);
    let start = tr.mul(done, step);
    let start = tr.add(first, start);
    tr.for_loop(left, &accs, &mut |tr, j, accs| {
        let s = tr.mul(j, step);
        let i = tr.add(start, s);
        let ys = point(tr, i)?;
        apply(tr, op, accs, &ys)
    })
}

/// The blocks per multiprocessor a kernel reducing with `op` asks for:
/// with a non-commutative operator ([`ordered_chunks`]) 2, which caps a
/// thread at 128 registers, none otherwise. Measured on the H100 (the
/// argmax benchmark, 10^8 elements, [`ORDERED_BATCH`] 16): 207 µs asking
/// for 2, 205 for 1, 203 for none, 256 for 3; asking for 4 (64
/// registers) spilled and took 295.
fn ordered_min_blocks(op: &Op) -> Option<i64> {
    (!op.commutative).then_some(2)
}

/// Loads a thread has in flight in a round of [`ordered_chunks`]
/// (Note [Batched loads]): the argmax took 210 µs with 8, 207 with 16.
const ORDERED_BATCH: i64 = 16;

/// Elements a thread reads per round in [`ordered_chunks`]: the argmax
/// took 251 µs with 8, 207 with 16 and 256 with 32.
const ORDERED_ITEMS: i64 = 16;

// **Note [Index parts].** A reduction's operands are often the point's
// index itself (the `i` of `zip xs (iota n)` in an argmax): a value
// known from the element's position. `ordered_chunks` stages only the
// other operands in shared memory and gives the index parts from the
// position when it combines, so more elements fit a round (argmax: 16
// of 4 bytes instead of 8 of 12). `segops.rs` finds them: the yielded
// values that are the body's innermost index argument.

/// Each thread's reduction, in order, of a contiguous chunk of the points
/// `0..n`: thread `k` of `threads` (this group's threads are
/// `first_thread..first_thread + BLOCK`) has the points `k*c..(k+1)*c`,
/// `c` being `n / threads` rounded up to a multiple of `m`, at most
/// [`ORDERED_ITEMS`] ([`fitting_items`]). The group reads them in rounds:
/// in round `r` it reads the `m` points `k*c + r*m ..` of each of its
/// threads — runs of 64 bytes or more, so each sector read is read whole —
/// into shared memory, and each thread then combines its own run. (16
/// items a round beat 8 and 32 on the H100: 269 µs, 303 µs and 294 µs
/// for the argmax benchmark.)
fn ordered_chunks(
    tr: &mut Tr,
    op: &Op,
    (n, threads, first_thread): (Value, Value, Value),
    tid: Value,
    point: &mut Point,
) -> R<Vec<Value>> {
    let staged = op.staged();
    let k = fitting_items(&staged, ORDERED_ITEMS, STAGING_BYTES)
        .expect("ordered_chunks for an operator whose staging fits");
    let items = tr.i64c(k);
    let per_thread = ceil_div(tr, n, threads);
    let rounds = ceil_div(tr, per_thread, items);
    let c = tr.mul(rounds, items);
    let stage = staging(tr, &staged, k);
    let local = tr.ctx.string_attr("local");
    let bs = tr.i64c(BLOCK);
    let log_items = tr.i64c(k.trailing_zeros() as i64);
    let item_mask = tr.i64c(k - 1);
    let mine = tr.add(first_thread, tid);
    let mine = tr.mul(mine, c);
    let nes = op.nes.to_vec();
    // The group's last run ends at `last_run + offset` in round `r`.
    let last_run = tr.add(first_thread, bs);
    let one = tr.i64c(1);
    let last_run = tr.bin("sub", last_run, one);
    let last_run = tr.mul(last_run, c);
    let last_run = tr.add(last_run, items);
    let staged_parts: Vec<bool> = op.index_parts.iter().map(|&ix| !ix).collect();
    tr.for_loop(rounds, &nes, &mut |tr, r, accs| {
        let offset = tr.mul(r, items);
        let end = tr.add(last_run, offset);
        let full = tr.cmp("le", end, n);
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        // Element `f` of the round: item `f % k` of thread `f / k`'s run.
        let mut at = |tr: &mut Tr, f: Value| {
            let owner = tr.bin("shr", f, log_items);
            let item = tr.bin("and", f, item_mask);
            let owner = tr.add(first_thread, owner);
            let i = tr.mul(owner, c);
            let i = tr.add(i, offset);
            let i = tr.add(i, item);
            (i, tr.cmp("lt", i, n))
        };
        let mut load = |tr: &mut Tr, i: Value| -> R<Vec<Value>> {
            let xs = point(tr, i)?;
            Ok(xs
                .into_iter()
                .zip(&staged_parts)
                .filter(|&(_, &s)| s)
                .map(|(x, _)| x)
                .collect())
        };
        stage_round(tr, full, (k, ORDERED_BATCH, tid), &stage, &mut at, &mut load, None)?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        let run = tr.add(mine, offset);
        let own = tr.mul(tid, items);
        // This thread's run, combined in order; in a partial round, only
        // its points in the input.
        tr.if_versions(full, &mut |tr, full| {
            tr.for_loop(items, accs, &mut |tr, j, accs| {
                let i = tr.add(run, j);
                let e = tr.add(own, j);
                let e = padded(tr, e);
                let mut combine = |tr: &mut Tr| {
                    let mut staged = stage.iter();
                    let mut x = Vec::new();
                    for &ix in &op.index_parts {
                        x.push(if ix {
                            i
                        } else {
                            let &(m, t) = staged.next().expect("a staging buffer per staged operand");
                            tr.emit1("imp.load", &[m, e], t, &[])
                        });
                    }
                    apply(tr, op, accs, &x)
                };
                if full {
                    return combine(tr);
                }
                let ok = tr.cmp("lt", i, n);
                let accs = accs.to_vec();
                tr.if_(ok, &mut combine, &mut |_| Ok(accs.clone()))
            })
        })
    })
}

/// Reduces `n` values with `op` (Note [Segops on the GPU]); returns the
/// `k` results as host scalars.
pub(crate) fn reduce(tr: &mut Tr, n: Value, op: &Op, point: &mut Point) -> R<Vec<Value>> {
    let k = op.nes.len();
    let groups = group_count(tr, n);
    let partials: Vec<Arr> = op
        .elems
        .iter()
        .map(|&e| tr.alloc_array(e, &[groups]))
        .collect::<R<_>>()?;
    stage(tr, n, groups, op, point, &partials)?;
    let one = tr.i64c(1);
    let results: Vec<Arr> = op.elems.iter().map(|&e| tr.alloc_array(e, &[one])).collect::<R<_>>()?;
    let mut read_partials =
        |tr: &mut Tr, i: Value| -> R<Vec<Value>> { Ok(partials.iter().map(|p| tr.load(p, &[i])).collect()) };
    let partials_op = Op {
        block: op.block,
        nes: op.nes,
        elems: op.elems.clone(),
        commutative: op.commutative,
        index_parts: vec![false; k],
    };
    stage(tr, groups, one, &partials_op, &mut read_partials, &results)?;
    let zero = tr.i64c(0);
    Ok((0..k).map(|j| tr.load(&results[j], &[zero])).collect())
}

/// One reduction kernel: `groups` groups, each thread reducing its range,
/// then the group in shared memory; thread 0 of group `g` writes `outs[j][g]`.
fn stage(tr: &mut Tr, n: Value, groups: Value, op: &Op, point: &mut Point, outs: &[Arr]) -> R<()> {
    launch_with(tr, groups, BLOCK, ordered_min_blocks(op), &mut |tr| {
        let (_, tid, bid) = global_id(tr);
        let bs = tr.i64c(BLOCK);
        let threads = tr.mul(groups, bs);
        let first = tr.mul(bid, bs);
        group_reduce_range(tr, op, (n, threads, first), tid, outs, &[bid], point)
    })
}
