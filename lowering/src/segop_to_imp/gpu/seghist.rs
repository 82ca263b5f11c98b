//! The seghist on the GPU: which operators have an atomic
//! ([`atomic_kind`]), and, with few buckets and an atomic operator, a
//! sub-histogram in shared memory per group (Note [Segops on the GPU]).
//! The others are `par_for` kernels, or one thread, chosen in
//! `segops.rs`.

use futmlir_dialects::ir::{BlockId, Scalar, TypeKind, Value};

use super::group::when;
use super::launch::{ceil_div, global_id, group_count, launch, thread_range, unravel, BLOCK};
use crate::segop_to_imp::{elem_bytes, segops, Arr, Tr, R};

/// The `imp.atomic` kind that does what operator `op` does to a
/// histogram of `elem`s, when there is one: a lone `binop` of the two
/// arguments (add on ints and floats; min, max, and, or, xor on ints).
pub(crate) fn atomic_kind(tr: &Tr, op: BlockId, elem: Scalar) -> Option<&'static str> {
    let kind = segops::lone_binop(tr, op)?;
    let int = elem.is_int() && elem.bits() >= 32;
    match kind {
        "add" if int || matches!(elem, Scalar::F32 | Scalar::F64) => Some("add"),
        "min" if int => Some("min"),
        "max" if int => Some("max"),
        "and" if int => Some("and"),
        "or" if int => Some("or"),
        "xor" if int => Some("xor"),
        _ => None,
    }
}

/// A histogram's point: its bucket and its value.
pub(crate) type HistPoint<'b> = dyn FnMut(&mut Tr, &[Value]) -> R<(Value, Value)> + 'b;

/// The most buckets a histogram keeps per group in shared memory.
pub(crate) const SHARED_BUCKETS: i64 = 4096;

/// A histogram of `buckets` (a constant, at most [`SHARED_BUCKETS`])
/// buckets whose operator has the atomic `kind`: each group combines its
/// points (strided, so reads are coalesced) into a sub-histogram in shared
/// memory, started at the neutral element `ne`, then adds it to `dest`
/// with global atomics. `point` gives a point's bucket and value.
pub(crate) fn shared_hist(
    tr: &mut Tr,
    sizes: &[Value],
    buckets: i64,
    dest: &Arr,
    kind: &str,
    ne: Value,
    point: &mut HistPoint,
) -> R<()> {
    let total = tr.product(sizes);
    let groups = group_count(tr, total);
    let bs = tr.i64c(BLOCK);
    let threads = tr.mul(groups, bs);
    let local = tr.ctx.string_attr("local");
    let kind_attr = tr.ctx.string_attr(kind);
    launch(tr, groups, BLOCK, &mut |tr| {
        let (gtid, tid, _) = global_id(tr);
        let shared_t = tr
            .ctx
            .intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Shared));
        let bytes = tr.i64c(buckets * elem_bytes(dest.elem));
        let sh = tr.emit1("imp.shared_alloc", &[bytes], shared_t, &[]);
        let w = tr.i64c(buckets);
        // Thread t handles buckets t, t + BLOCK, ...
        let per_thread = ceil_div(tr, w, bs);
        let each_bucket = |tr: &mut Tr, f: &mut dyn FnMut(&mut Tr, Value) -> R<()>| -> R<()> {
            tr.for_loop(per_thread, &[], &mut |tr, j, _| {
                let jb = tr.mul(j, bs);
                let b = tr.add(jb, tid);
                let ok = tr.cmp("lt", b, w);
                when(tr, ok, &mut |tr| f(tr, b))?;
                Ok(vec![])
            })?;
            Ok(())
        };
        each_bucket(tr, &mut |tr, b| {
            tr.emit("imp.store", &[sh, b, ne], &[], &[], vec![]);
            Ok(())
        })?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        let (count, first, step) = thread_range(tr, total, threads, gtid, true);
        tr.for_loop(count, &[], &mut |tr, j, _| {
            let s = tr.mul(j, step);
            let p = tr.add(first, s);
            let idx = unravel(tr, p, sizes);
            let (b, v) = point(tr, &idx)?;
            let zero = tr.i64c(0);
            let lo = tr.cmp("ge", b, zero);
            let hi = tr.cmp("lt", b, w);
            let ok = tr.bin("and", lo, hi);
            let t = tr.ctx.value_type(v);
            when(tr, ok, &mut |tr| {
                tr.emit1("imp.atomic", &[sh, b, v], t, &[("kind", kind_attr)]);
                Ok(())
            })?;
            Ok(vec![])
        })?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        let t = tr.ty(dest.elem);
        each_bucket(tr, &mut |tr, b| {
            let x = tr.emit1("imp.load", &[sh, b], t, &[]);
            let off = tr.element_offset(dest, &[b]);
            tr.emit1("imp.atomic", &[dest.mem, off, x], t, &[("kind", kind_attr)]);
            Ok(())
        })
    })
}
