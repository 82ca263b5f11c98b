//! What a group of threads does together, used by several segop kinds:
//! shared arrays, reductions across a warp and across the group, the
//! group's scan, broadcasts from one thread, and rounds of the input
//! staged in shared memory (Note [Batched loads]).

use futmlir_dialects::ir::{Scalar, Type, TypeKind, Value};

use super::launch::BLOCK;
use super::{apply, Op};
use crate::segop_to_imp::{elem_bytes, Tr, R};

/// Each thread's values `vals` (one per operand of `op`) into shared
/// arrays of [`BLOCK`] elements at the thread's index, then a barrier;
/// returns the arrays and their element types.
fn to_shared(tr: &mut Tr, op: &Op, tid: Value, vals: &[Value]) -> Vec<(Value, Type)> {
    let shared_t = tr
        .ctx
        .intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Shared));
    let mut sh = Vec::new();
    for (&a, &e) in vals.iter().zip(&op.elems) {
        let bytes = tr.i64c(BLOCK * elem_bytes(e));
        let m = tr.emit1("imp.shared_alloc", &[bytes], shared_t, &[]);
        tr.emit("imp.store", &[m, tid, a], &[], &[], vec![]);
        sh.push((m, tr.ty(e)));
    }
    let local = tr.ctx.string_attr("local");
    tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
    sh
}

/// Shared memory a kernel may give its staging buffers: 40 KiB of the
/// 48 KiB a block may have without asking the driver for more.
pub(super) const STAGING_BYTES: i64 = 40 * 1024;

/// The most elements per thread, a power of two up to `max`, whose
/// staging buffers ([`staging`]) for elements of types `elems` fit in
/// `budget` bytes; `None` when not even one does.
pub(super) fn fitting_items(elems: &[Scalar], max: i64, budget: i64) -> Option<i64> {
    let bytes: i64 = elems.iter().map(|&e| elem_bytes(e)).sum();
    let mut k = max;
    while k >= 1 {
        let words = BLOCK * k;
        if (words + words / 32) * bytes <= budget {
            return Some(k);
        }
        k /= 2;
    }
    None
}

/// Staging buffers in shared memory for `items` elements per thread of
/// each of `op`'s operands, indexed through [`padded`]; with the
/// elements' types.
pub(super) fn staging(tr: &mut Tr, elems: &[Scalar], items: i64) -> Vec<(Value, Type)> {
    let shared_t = tr
        .ctx
        .intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Shared));
    elems
        .iter()
        .map(|&e| {
            let words = BLOCK * items;
            let bytes = tr.i64c((words + words / 32) * elem_bytes(e));
            (tr.emit1("imp.shared_alloc", &[bytes], shared_t, &[]), tr.ty(e))
        })
        .collect()
}

/// Position `e` of a staging buffer in shared memory with a word of
/// padding after every 32, so that thread `t` reading element
/// `t * SCAN_ITEMS + j` hits a bank of its own.
pub(super) fn padded(tr: &mut Tr, e: Value) -> Value {
    let five = tr.i64c(5);
    let q = tr.bin("shr", e, five);
    tr.add(e, q)
}

// **Note [Batched loads].** A thread staging its elements of a round
// in shared memory reads several of them before it stores any. A store
// waits for the load that gives its value, and a thread issues in
// order, so a load, store, load, store, ... sequence keeps one load per
// thread in flight: the scan and the argmax ran at 1.9 and 1.7 TB/s so,
// against the copy's 2.8. The batched loads are unguarded, so only a
// round wholly in the input (`full`) takes that path; the kernel's last,
// partial, round checks each element's bounds.

/// Reads element `j * BLOCK + tid` of a round, for `j` in `0..k`, into
/// the staging buffers `stage` at its [`padded`] place, `batch` loads
/// before their stores (Note [Batched loads]): `at(e)` is element `e`'s
/// point index and whether it is in the input, `load(i)` the values to
/// stage for point `i`. An element out of the input gets `fill`, or
/// nothing when `None`.
pub(super) fn stage_round(
    tr: &mut Tr,
    full: Value,
    (k, batch, tid): (i64, i64, Value),
    stage: &[(Value, Type)],
    at: &mut dyn FnMut(&mut Tr, Value) -> (Value, Value),
    load: &mut dyn FnMut(&mut Tr, Value) -> R<Vec<Value>>,
    fill: Option<&[Value]>,
) -> R<()> {
    let bs = tr.i64c(BLOCK);
    let element = |tr: &mut Tr, j: Value| {
        let e = tr.mul(j, bs);
        tr.add(e, tid)
    };
    let store = |tr: &mut Tr, e: Value, xs: &[Value]| {
        let e = padded(tr, e);
        for (&(m, _), &x) in stage.iter().zip(xs) {
            tr.emit("imp.store", &[m, e, x], &[], &[], vec![]);
        }
    };
    tr.if_versions(full, &mut |tr, full| {
        if full {
            for first in (0..k).step_by(batch as usize) {
                let mut loaded = Vec::new();
                for j in first..(first + batch).min(k) {
                    let j = tr.i64c(j);
                    let e = element(tr, j);
                    let (i, _) = at(tr, e);
                    loaded.push((e, load(tr, i)?));
                }
                for (e, xs) in &loaded {
                    store(tr, *e, xs);
                }
            }
            return Ok(vec![]);
        }
        let items = tr.i64c(k);
        tr.for_loop(items, &[], &mut |tr, j, _| {
            let e = element(tr, j);
            let (i, ok) = at(tr, e);
            match fill {
                Some(fill) => {
                    let xs = tr.if_(ok, &mut |tr| load(tr, i), &mut |_| Ok(fill.to_vec()))?;
                    store(tr, e, &xs);
                }
                None => when(tr, ok, &mut |tr| {
                    let xs = load(tr, i)?;
                    store(tr, e, &xs);
                    Ok(())
                })?,
            }
            Ok(vec![])
        })?;
        Ok(vec![])
    })?;
    Ok(())
}

/// An exclusive scan of the threads' values `vals` over the group (the
/// neutral elements for thread 0), and the group's total, through shared
/// memory (Hillis and Steele: in step `s`, thread `t >= s` combines the
/// value of `t - s` on its left).
pub(super) fn block_scan(tr: &mut Tr, op: &Op, tid: Value, vals: &[Value]) -> R<(Vec<Value>, Vec<Value>)> {
    let sh = to_shared(tr, op, tid, vals);
    let local = tr.ctx.string_attr("local");
    let mut s = 1;
    while s < BLOCK {
        let sc = tr.i64c(s);
        let mine: Vec<Value> = sh
            .iter()
            .map(|&(m, t)| tr.emit1("imp.load", &[m, tid], t, &[]))
            .collect();
        let has = tr.cmp("ge", tid, sc);
        let new = tr.if_(
            has,
            &mut |tr| {
                let at = tr.bin("sub", tid, sc);
                let before: Vec<Value> = sh
                    .iter()
                    .map(|&(m, t)| tr.emit1("imp.load", &[m, at], t, &[]))
                    .collect();
                apply(tr, op, &before, &mine)
            },
            &mut |_| Ok(mine.clone()),
        )?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        for (&(m, _), &v) in sh.iter().zip(&new) {
            tr.emit("imp.store", &[m, tid, v], &[], &[], vec![]);
        }
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        s *= 2;
    }
    let zero = tr.i64c(0);
    let first = tr.cmp("eq", tid, zero);
    let nes = op.nes.to_vec();
    let before = tr.if_(first, &mut |_| Ok(nes.clone()), &mut |tr| {
        let one = tr.i64c(1);
        let left = tr.bin("sub", tid, one);
        Ok(sh
            .iter()
            .map(|&(m, t)| tr.emit1("imp.load", &[m, left], t, &[]))
            .collect())
    })?;
    let last = tr.i64c(BLOCK - 1);
    let total = sh
        .iter()
        .map(|&(m, t)| tr.emit1("imp.load", &[m, last], t, &[]))
        .collect();
    Ok((before, total))
}

/// Threads per warp.
pub(super) const WARP: i64 = 32;

/// Combines the values `vals` of the first `width` lanes of each warp in
/// order (lane `l` with `l % 2s == 0` takes `l + s`'s value by a shuffle
/// in round `s` = 1, 2, 4, ...); lane 0 gets the result. All lanes of the
/// warp must run it.
pub(super) fn warp_reduce(tr: &mut Tr, op: &Op, lane: Value, vals: &[Value], width: i64) -> R<Vec<Value>> {
    let mut vals = vals.to_vec();
    let mut s = 1;
    while s < width {
        let off = tr.i64c(s);
        let down = tr.ctx.string_attr("down");
        let others: Vec<Value> = vals
            .iter()
            .map(|&v| {
                let t = tr.ctx.value_type(v);
                tr.emit1("imp.shuffle", &[v, off], t, &[("kind", down)])
            })
            .collect();
        let mask = tr.i64c(2 * s - 1);
        let low = tr.bin("and", lane, mask);
        let zero = tr.i64c(0);
        let active = tr.cmp("eq", low, zero);
        let mine = vals.clone();
        vals = tr.if_(active, &mut |tr| apply(tr, op, &mine, &others), &mut |_| {
            Ok(mine.clone())
        })?;
        s *= 2;
    }
    Ok(vals)
}

/// Shared arrays of `len` elements of each of `types`, with the
/// elements' types.
fn shared_arrays(tr: &mut Tr, types: &[Scalar], len: i64) -> Vec<(Value, Type)> {
    let shared_t = tr
        .ctx
        .intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Shared));
    types
        .iter()
        .map(|&e| {
            let bytes = tr.i64c(len * elem_bytes(e));
            (tr.emit1("imp.shared_alloc", &[bytes], shared_t, &[]), tr.ty(e))
        })
        .collect()
}

/// Runs `f` in the threads where `cond` holds.
pub(super) fn when(tr: &mut Tr, cond: Value, f: &mut dyn FnMut(&mut Tr) -> R<()>) -> R<()> {
    tr.if_(
        cond,
        &mut |tr| {
            f(tr)?;
            Ok(vec![])
        },
        &mut |_| Ok(vec![]),
    )?;
    Ok(())
}

/// Stores `vals` at `at` of the shared arrays `sh` in the threads where
/// `cond` holds.
fn store_where(tr: &mut Tr, cond: Value, sh: &[(Value, Type)], at: Value, vals: &[Value]) -> R<()> {
    when(tr, cond, &mut |tr| {
        for (&(m, _), &v) in sh.iter().zip(vals) {
            tr.emit("imp.store", &[m, at, v], &[], &[], vec![]);
        }
        Ok(())
    })
}

/// Combines the threads' values of a group, keeping their order: each
/// warp by shuffles ([`warp_reduce`]), then the warps' results by warp 0
/// through shared memory. Every thread gets the result.
pub(super) fn group_reduce(tr: &mut Tr, op: &Op, tid: Value, accs: &[Value]) -> R<Vec<Value>> {
    const WARPS: i64 = BLOCK / WARP;
    let mask = tr.i64c(WARP - 1);
    let lane = tr.bin("and", tid, mask);
    let five = tr.i64c(5);
    let warp = tr.bin("shr", tid, five);
    let mine = warp_reduce(tr, op, lane, accs, WARP)?;
    // The warps' results.
    let sh = shared_arrays(tr, &op.elems, WARPS);
    let local = tr.ctx.string_attr("local");
    let zero = tr.i64c(0);
    let lane0 = tr.cmp("eq", lane, zero);
    store_where(tr, lane0, &sh, warp, &mine)?;
    tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
    let warp0 = tr.cmp("eq", warp, zero);
    broadcast(tr, warp0, lane0, &op.elems, &mut |tr| {
        let warps = tr.i64c(WARPS);
        let has = tr.cmp("lt", lane, warps);
        let nes = op.nes.to_vec();
        let xs = tr.if_(
            has,
            &mut |tr| {
                Ok(sh
                    .iter()
                    .map(|&(m, t)| tr.emit1("imp.load", &[m, lane], t, &[]))
                    .collect())
            },
            &mut |_| Ok(nes.clone()),
        )?;
        warp_reduce(tr, op, lane, &xs, WARPS)
    })
}

/// Values of types `types` that the threads where `run` holds compute
/// with `f`, given to every thread of the block through shared memory
/// by the one where `keep` holds.
pub(super) fn broadcast(
    tr: &mut Tr,
    run: Value,
    keep: Value,
    types: &[Scalar],
    f: &mut dyn FnMut(&mut Tr) -> R<Vec<Value>>,
) -> R<Vec<Value>> {
    let sh = shared_arrays(tr, types, 1);
    let zero = tr.i64c(0);
    when(tr, run, &mut |tr| {
        let vals = f(tr)?;
        store_where(tr, keep, &sh, zero, &vals)?;
        Ok(())
    })?;
    let local = tr.ctx.string_attr("local");
    tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
    Ok(sh
        .iter()
        .map(|&(m, t)| tr.emit1("imp.load", &[m, zero], t, &[]))
        .collect())
}
