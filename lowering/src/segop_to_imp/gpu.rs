//! The CUDA target: segops as kernels (Note [Segops on the GPU]).
//!
//! **Note [Segops on the GPU].**
//! At host level, each parallel loop nest becomes an `imp.kernel` (added
//! to the module) and an `imp.launch` of it:
//! - a segmap, a scatter, a histogram with an atomic operator (and many
//!   or unknown buckets), and the array ops that fill memory (copies, iota,
//!   replicate, ...): one
//!   thread per point of the space, blocks of [`BLOCK`] threads, the
//!   flat thread index unravelled into the space's indices;
//! - a segmented reduction or scan: one thread per segment, which runs
//!   the segment sequentially;
//! - a reduction over one dimension (thesis 4.5): a fixed number of
//!   groups whose threads each reduce a chunk sequentially — strided,
//!   so reads are coalesced, when the operator is commutative;
//!   contiguous otherwise, read in rounds through shared memory so that
//!   each sector is read whole ([`ordered_chunks`]) — then combine, in
//!   the order of the operands, by warp shuffles and then across the
//!   warps in shared memory ([`group_reduce`]); a second kernel of one
//!   group reduces the groups' results;
//! - a scan over one dimension: one kernel that reads the input once
//!   (decoupled look-back, Note [Single-pass scan]), after a small one
//!   that clears its flags;
//! - a histogram with an atomic operator and at most [`SHARED_BUCKETS`]
//!   buckets (a constant): a sub-histogram in shared memory per group,
//!   added to the result with global atomics;
//! - a histogram whose operator has no atomic: one thread in all.
//! - a filter (`segop.filter`) of one dimension: the scan of its 0/1
//!   flags, whose kernel writes each kept point's values at its
//!   place instead of storing the prefixes ([`filter`]).
//!
//! A kernel's parameters are the host values its body uses, found after
//! the body is built (`analysis::reads`). Code inside a kernel (and the
//! SOACs left in a segop's body) is sequential, per thread.

use futmlir_dialects::ir::{AttrKind, BlockId, Builder, OpId, Scalar, Type, TypeKind, Value};
use futmlir_passes::soac::analysis::{reads, walk_with};

use super::{elem_bytes, Arr, Rep, Tr, R};

/// Threads per block.
pub(crate) const BLOCK: i64 = 256;
/// The runtime's tuning parameters (`runtime-cuda/src/params.rs`), by
/// number: the most groups a one-dimensional reduction or scan uses, and
/// the shortest segments a segmented reduction gives a group each.
pub(crate) const PARAM_REDUCE_GROUPS: i64 = 0;
pub(crate) const PARAM_SEGRED_GROUP_MIN: i64 = 1;

/// The value of tuning parameter `k`, read at run time.
pub(crate) fn param(tr: &mut Tr, k: i64) -> Value {
    let i64t = tr.ty(Scalar::I64);
    let index = tr.ctx.int_attr(k, Scalar::I64);
    tr.emit1("imp.param", &[], i64t, &[("index", index)])
}

/// Builds a kernel run by `grid` blocks of `block` threads, whose body
/// `body` makes, and launches it.
pub(crate) fn launch(tr: &mut Tr, grid: Value, block: i64, body: &mut dyn FnMut(&mut Tr) -> R<()>) -> R<()> {
    launch_with(tr, grid, block, None, body)
}

/// [`launch`], asking the code generator to fit `min_blocks` blocks on
/// a multiprocessor when given (by capping the registers a thread uses).
fn launch_with(
    tr: &mut Tr,
    grid: Value,
    block: i64,
    min_blocks: Option<i64>,
    body: &mut dyn FnMut(&mut Tr) -> R<()>,
) -> R<()> {
    let r = tr.ctx.create_region();
    let kb = tr.ctx.append_block(r, &[]);
    tr.enter_kernel(kb, grid, block);
    let built = body(tr);
    tr.end_kernel_body(built.is_ok());
    if built.is_ok() {
        tr.emit("imp.return", &[], &[], &[], vec![]);
    }
    let expanded = tr.leave_kernel();
    built?;
    // The kernel op, then its parameters: the host values it reads.
    let name = format!("k{}", tr.next_kernel());
    let unit_ft = tr.ctx.intern_type(TypeKind::Function {
        inputs: vec![],
        results: vec![],
    });
    let mut attrs = vec![
        ("sym_name", tr.ctx.string_attr(&name)),
        ("function_type", tr.ctx.intern_attr(AttrKind::Type(unit_ft))),
        ("block_size", super::entry::int_array(tr.ctx, &[block])),
    ];
    if let Some(m) = min_blocks {
        attrs.push(("min_blocks", tr.ctx.int_attr(m, Scalar::I64)));
    }
    let mut b = Builder::at_end(tr.ctx, tr.module_body);
    b.location = tr.loc;
    let k = b.op("imp.kernel", &[], &[], &attrs, vec![r]);
    let mut free = reads(tr.ctx, k, false);
    // Host constants are cloned into the kernel, not passed: the kernel's
    // index arithmetic then folds (strides of 1, offsets of 0).
    let constants: Vec<Value> = free
        .iter()
        .copied()
        .filter(|&v| {
            tr.ctx
                .defining_op(v)
                .is_some_and(|d| tr.ctx.op_name(d) == "soac.constant")
        })
        .collect();
    let mut cloned = Vec::new();
    for &c in &constants {
        let d = tr.ctx.defining_op(c).expect("a constant's op");
        let t = tr.ctx.value_type(c);
        let attrs: Vec<(String, futmlir_dialects::ir::Attr)> = tr
            .ctx
            .attrs(d)
            .iter()
            .map(|&(n, a)| (tr.ctx.str(n).to_string(), a))
            .collect();
        let attrs: Vec<(&str, futmlir_dialects::ir::Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let mut b = match tr.ctx.first_op(kb) {
            Some(f) => Builder::before(tr.ctx, f),
            None => Builder::at_end(tr.ctx, kb),
        };
        let op = b.op("soac.constant", &[], &[t], &attrs, vec![]);
        cloned.push(tr.ctx.result(op, 0));
    }
    free.retain(|v| !constants.contains(v));
    let mut uses: Vec<(OpId, usize, usize)> = Vec::new();
    let mut const_uses: Vec<(OpId, usize, usize)> = Vec::new();
    walk_with(tr.ctx, k, &mut |o| {
        for (i, v) in tr.ctx.operands(o).iter().enumerate() {
            if let Some(j) = free.iter().position(|f| f == v) {
                uses.push((o, i, j));
            } else if let Some(j) = constants.iter().position(|f| f == v) {
                const_uses.push((o, i, j));
            }
        }
    });
    for (o, i, j) in const_uses {
        tr.ctx.set_operand(o, i, cloned[j]);
    }
    let types: Vec<Type> = free.iter().map(|&v| tr.ctx.value_type(v)).collect();
    let params: Vec<Value> = types.iter().map(|&t| tr.ctx.add_block_arg(kb, t)).collect();
    for (o, i, j) in uses {
        tr.ctx.set_operand(o, i, params[j]);
    }
    let ft = tr.ctx.intern_type(TypeKind::Function {
        inputs: types,
        results: vec![],
    });
    let ft = tr.ctx.intern_attr(AttrKind::Type(ft));
    let key = tr.ctx.sym("function_type");
    tr.ctx.set_attr(k, key, ft);
    let one = tr.i64c(1);
    let bs = tr.i64c(block);
    let mut operands = vec![grid, one, one, bs, one, one];
    operands.extend(free);
    let callee = tr.ctx.sym(&name);
    let callee = tr.ctx.intern_attr(AttrKind::SymbolRef(callee));
    tr.emit("imp.launch", &operands, &[], &[("callee", callee)], vec![]);
    for m in expanded {
        tr.emit("mem.free", &[m], &[], &[], vec![]);
    }
    Ok(())
}

/// The thread's index in the grid.
pub(crate) fn global_id(tr: &mut Tr) -> (Value, Value, Value) {
    let i64t = tr.ty(Scalar::I64);
    let dim = tr.ctx.int_attr(0, Scalar::I64);
    let tid = tr.emit1("imp.thread_id", &[], i64t, &[("dim", dim)]);
    let bid = tr.emit1("imp.block_id", &[], i64t, &[("dim", dim)]);
    let bdim = tr.emit1("imp.block_dim", &[], i64t, &[("dim", dim)]);
    let base = tr.mul(bid, bdim);
    (tr.add(base, tid), tid, bid)
}

/// `ceil(a / b)` for non-negative `a` and positive `b`.
pub(crate) fn ceil_div(tr: &mut Tr, a: Value, b: Value) -> Value {
    let one = tr.i64c(1);
    let t = tr.add(a, b);
    let t = tr.bin("sub", t, one);
    tr.bin("div", t, b)
}

/// Runs `body` at every point of `sizes`: a kernel with one thread per
/// point at host level on the GPU, loops otherwise.
pub(crate) fn par_for(tr: &mut Tr, sizes: &[Value], body: &mut dyn FnMut(&mut Tr, &[Value]) -> R<()>) -> R<()> {
    if !tr.gpu_host() || sizes.is_empty() {
        return super::segops::try_nest(tr, sizes, body);
    }
    let total = tr.product(sizes);
    let bs = tr.i64c(BLOCK);
    let grid = ceil_div(tr, total, bs);
    launch(tr, grid, BLOCK, &mut |tr| {
        let (gid, _, _) = global_id(tr);
        let ok = tr.cmp("lt", gid, total);
        when(tr, ok, &mut |tr| {
            let idx = unravel(tr, gid, sizes);
            body(tr, &idx)?;
            Ok(())
        })?;
        Ok(())
    })
}

/// Points a thread computes in a map kernel ([`par_for_points`]).
pub(crate) const MAP_POINTS: i64 = 4;

/// A point of a map: its results, computed without writing anything.
pub(crate) type MapPoint<'b> = dyn FnMut(&mut Tr, &[Value]) -> R<Vec<Rep>> + 'b;
/// Writes a point's results.
pub(crate) type MapWrite<'b> = dyn FnMut(&mut Tr, &[Value], &[Rep]) + 'b;

/// A map over `sizes` whose points give scalars: on the GPU each thread
/// computes [`MAP_POINTS`] points, `threads` apart (so each round of
/// reads is coalesced), all before writing any, so that their reads are
/// in flight together (a write could alias a later read, so the
/// compiler would not move the reads above it). A point past the end
/// computes the last point again (no bounds test before the reads) and
/// writes nothing. Elsewhere, loops.
pub(crate) fn par_for_points(tr: &mut Tr, sizes: &[Value], point: &mut MapPoint, write: &mut MapWrite) -> R<()> {
    if !tr.gpu_host() || sizes.is_empty() {
        return super::segops::try_nest(tr, sizes, &mut |tr, idx| {
            let ys = point(tr, idx)?;
            write(tr, idx, &ys);
            Ok(())
        });
    }
    let total = tr.product(sizes);
    let per_block = tr.i64c(BLOCK * MAP_POINTS);
    let grid = ceil_div(tr, total, per_block);
    launch(tr, grid, BLOCK, &mut |tr| {
        let (gid, _, _) = global_id(tr);
        let bs = tr.i64c(BLOCK);
        let threads = tr.mul(grid, bs);
        let one = tr.i64c(1);
        let last = tr.bin("sub", total, one);
        let mut points = Vec::new();
        for j in 0..MAP_POINTS {
            let jt = tr.i64c(j);
            let off = tr.mul(jt, threads);
            let flat = tr.add(gid, off);
            let inside = tr.cmp("lt", flat, total);
            let i64t = tr.ty(Scalar::I64);
            let at = tr.emit1("soac.select", &[inside, flat, last], i64t, &[]);
            let idx = unravel(tr, at, sizes);
            let ys = point(tr, &idx)?;
            points.push((inside, idx, ys));
        }
        for (inside, idx, ys) in points {
            when(tr, inside, &mut |tr| {
                write(tr, &idx, &ys);
                Ok(())
            })?;
        }
        Ok(())
    })
}

/// The indices of flat index `flat` in the space `sizes`, row-major (the
/// last index varies fastest).
pub(crate) fn unravel(tr: &mut Tr, flat: Value, sizes: &[Value]) -> Vec<Value> {
    let mut idx = vec![flat; sizes.len()];
    let mut rest = flat;
    for d in (1..sizes.len()).rev() {
        idx[d] = tr.bin("mod", rest, sizes[d]);
        rest = tr.bin("div", rest, sizes[d]);
    }
    if let Some(first) = idx.first_mut() {
        *first = rest;
    }
    idx
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

/// The combining operator of a reduction or scan.
pub(crate) struct Op<'a> {
    pub block: BlockId,
    pub nes: &'a [Value],
    pub elems: Vec<Scalar>,
    pub commutative: bool,
    /// Which operands are the point's index itself, which a reduction
    /// in order need not stage (Note [Index parts]).
    pub index_parts: Vec<bool>,
}

impl Op<'_> {
    /// The element types of the operands a reduction in order stages
    /// (all but the index parts).
    fn staged(&self) -> Vec<Scalar> {
        self.elems
            .iter()
            .zip(&self.index_parts)
            .filter(|&(_, &ix)| !ix)
            .map(|(&e, _)| e)
            .collect()
    }
}

fn apply(tr: &mut Tr, op: &Op, a: &[Value], b: &[Value]) -> R<Vec<Value>> {
    let mut args: Vec<Rep> = a.iter().map(|&v| Rep::Scalar(v)).collect();
    args.extend(b.iter().map(|&v| Rep::Scalar(v)));
    tr.block(op.block, &args)?
        .into_iter()
        .map(|r| match r {
            Rep::Scalar(v) => Ok(v),
            Rep::Array(_) => Err(tr.unsupported("reductions and scans of arrays")),
        })
        .collect()
}

/// What a one-dimensional reduction or scan reads at index `i`: the `k`
/// values to combine (and it may write mapped results).
pub(crate) type Point<'b> = dyn FnMut(&mut Tr, Value) -> R<Vec<Value>> + 'b;

/// [`Point`] for scans, run twice per index: told whether this is the
/// first time (when it writes the mapped results).
pub(crate) type ScanPoint<'b> = dyn FnMut(&mut Tr, Value, bool) -> R<Vec<Value>> + 'b;

/// A segmented reduction over segments `outer` of length `m`, a group
/// per segment: its threads reduce their parts of the segment (every
/// BLOCK-th element, coalesced, for a commutative operator; contiguous
/// chunks otherwise), then the group in order; thread 0 writes the
/// segment's results into `outs` (the first `k`, `k` the operator's
/// arity); `write_mapped` writes each point's mapped results.
pub(crate) fn segred_groups(
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
fn strided_reduce(
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

/// The number of groups for `n` elements: `ceil(n / BLOCK)`, at least 1
/// and at most the tuning parameter `reduce_groups`.
fn group_count(tr: &mut Tr, n: Value) -> Value {
    let bs = tr.i64c(BLOCK);
    let g = ceil_div(tr, n, bs);
    let max = param(tr, PARAM_REDUCE_GROUPS);
    let one = tr.i64c(1);
    let g = tr.bin("min", g, max);
    tr.bin("max", g, one)
}

/// The range of indices thread `gtid` of `threads` handles, as
/// `(count, first, step)`: strided for a commutative operator,
/// contiguous chunks otherwise.
fn thread_range(tr: &mut Tr, n: Value, threads: Value, gtid: Value, commutative: bool) -> (Value, Value, Value) {
    let zero = tr.i64c(0);
    let one = tr.i64c(1);
    if commutative {
        // gtid, gtid + T, ... below n: ceil((n - gtid) / T) when gtid < n.
        let left = tr.bin("sub", n, gtid);
        let left = tr.bin("max", left, zero);
        (ceil_div(tr, left, threads), gtid, threads)
    } else {
        let chunk = ceil_div(tr, n, threads);
        let start = tr.mul(gtid, chunk);
        let end = tr.add(start, chunk);
        let end = tr.bin("min", end, n);
        let count = tr.bin("sub", end, start);
        (tr.bin("max", count, zero), start, one)
    }
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

/// Elements a thread scans per tile in a scan (Note [Single-pass scan]),
/// at most: [`fitting_items`] gives fewer to wide elements (the filter's
/// i64 counts get 16). The i32 scan ran in 425 µs with 16 and 355 with
/// 32 on the H100 (10^8 elements).
const SCAN_ITEMS: i64 = 32;

/// Loads a thread of a single-pass scan has in flight while it stages
/// its tile (Note [Batched loads]).
const SCAN_BATCH: i64 = 32;

/// Shared memory a kernel may give its staging buffers: 40 KiB of the
/// 48 KiB a block may have without asking the driver for more.
const STAGING_BYTES: i64 = 40 * 1024;

/// The blocks per multiprocessor a single-pass scan asks for (the
/// register cap that gives): the more tiles in flight, the more of the
/// look-back's latency is hidden, but the fewer registers a thread has.
/// Measured on the H100 (10^8 elements, [`SCAN_ITEMS`] 32): the i32 scan
/// ran in 355 µs asking for 5, 366 for 4 and 398 for 3; the filter (16
/// i64 counts a thread, of which 6 blocks fit in shared memory) in 691
/// µs for 6 and 686 for 8, against 770 with 8 counts a thread.
const SCAN_MIN_BLOCKS: i64 = 5;
const FILTER_MIN_BLOCKS: i64 = 6;

/// The most elements per thread, a power of two up to `max`, whose
/// staging buffers ([`staging`]) for elements of types `elems` fit in
/// `budget` bytes; `None` when not even one does.
fn fitting_items(elems: &[Scalar], max: i64, budget: i64) -> Option<i64> {
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
fn staging(tr: &mut Tr, elems: &[Scalar], items: i64) -> Vec<(Value, Type)> {
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
fn padded(tr: &mut Tr, e: Value) -> Value {
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
fn stage_round(
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
fn block_scan(tr: &mut Tr, op: &Op, tid: Value, vals: &[Value]) -> R<(Vec<Value>, Vec<Value>)> {
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
const WARP: i64 = 32;

/// Combines the values `vals` of the first `width` lanes of each warp in
/// order (lane `l` with `l % 2s == 0` takes `l + s`'s value by a shuffle
/// in round `s` = 1, 2, 4, ...); lane 0 gets the result. All lanes of the
/// warp must run it.
fn warp_reduce(tr: &mut Tr, op: &Op, lane: Value, vals: &[Value], width: i64) -> R<Vec<Value>> {
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
fn when(tr: &mut Tr, cond: Value, f: &mut dyn FnMut(&mut Tr) -> R<()>) -> R<()> {
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
fn group_reduce(tr: &mut Tr, op: &Op, tid: Value, accs: &[Value]) -> R<Vec<Value>> {
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

/// An inclusive scan of `n` values into `outs` (Note [Segops on the GPU]).
/// `point` is run twice per index (the first time it also writes mapped
/// results; `first` says which).
pub(crate) fn scan(tr: &mut Tr, n: Value, op: &Op, point: &mut ScanPoint, outs: &[Arr]) -> R<()> {
    let mut store = |tr: &mut Tr, i: Value, ys: &[Value]| -> R<()> {
        for (o, &v) in outs.iter().zip(ys) {
            tr.store(o, &[i], v);
        }
        Ok(())
    };
    scan_with(tr, n, op, point, &mut store, false)
}

/// What a scan does with the prefixes `ys` at index `i`.
type ScanWrite<'b> = dyn FnMut(&mut Tr, Value, &[Value]) -> R<()> + 'b;

/// [`scan`], giving each index's prefixes to `write` instead of storing
/// them.
///
/// **Note [Single-pass scan].** One kernel, one read of the input and
/// one write of the output (decoupled look-back, after Merrill and
/// Garland): block `b` takes tile `t` (a counter bumped atomically, so
/// tiles are taken in the order blocks start and a block only waits on
/// blocks that run) of [`BLOCK`] × `k` elements, reads it coalesced
/// into shared memory, and scans it there (each thread its `k`
/// consecutive elements, then the threads' totals by [`block_scan`]).
/// Thread 0 then publishes the tile's total with flag `A` (aggregate)
/// and walks back over the tiles before it, combining their totals
/// (earlier on the left), until one has flag `P`: its inclusive prefix
/// ends the walk. It publishes the tile's inclusive prefix with `P`, and
/// the block adds its exclusive prefix to its elements and writes them
/// coalesced. Values are written before their flag with a device fence
/// between, and read after it with a fence between; flags and values
/// are read volatile (past the L1 cache). A first, small kernel clears
/// the flags and the counter.
fn scan_with(tr: &mut Tr, n: Value, op: &Op, point: &mut ScanPoint, write: &mut ScanWrite, counts: bool) -> R<()> {
    let k = fitting_items(&op.elems, SCAN_ITEMS, STAGING_BYTES).unwrap_or(1);
    let items = tr.i64c(k);
    let per_tile = tr.i64c(BLOCK * k);
    let tiles = ceil_div(tr, n, per_tile);
    let one = tr.i64c(1);
    let tiles = tr.bin("max", tiles, one);
    let lb = LookBack::new(tr, op, tiles, counts)?;
    let counter = tr.alloc_array(Scalar::I64, &[one])?;
    par_for(tr, &[tiles], &mut |tr, idx| {
        let empty = lb.empty(tr);
        tr.store(&lb.status, idx, empty);
        let zero = tr.i64c(0);
        let first = tr.cmp("eq", idx[0], zero);
        when(tr, first, &mut |tr| {
            tr.store(&counter, &[zero], zero);
            Ok(())
        })?;
        Ok(())
    })?;
    let local = tr.ctx.string_attr("local");
    let min_blocks = if counts { FILTER_MIN_BLOCKS } else { SCAN_MIN_BLOCKS };
    launch_with(tr, tiles, BLOCK, Some(min_blocks), &mut |tr| {
        let (_, tid, _) = global_id(tr);
        let zero = tr.i64c(0);
        let is0 = tr.cmp("eq", tid, zero);
        let tile = broadcast(tr, is0, is0, &[Scalar::I64], &mut |tr| {
            let one = tr.i64c(1);
            let off = tr.element_offset(&counter, &[zero]);
            let add = tr.ctx.string_attr("add");
            let i64t = tr.ty(Scalar::I64);
            Ok(vec![tr.emit1(
                "imp.atomic",
                &[counter.mem, off, one],
                i64t,
                &[("kind", add)],
            )])
        })?[0];
        let tile_start = tr.mul(tile, per_tile);
        let tile_end = tr.add(tile_start, per_tile);
        let tile_end = tr.bin("min", tile_end, n);
        let bs = tr.i64c(BLOCK);
        let stage = staging(tr, &op.elems, k);
        // Element `e` of the tile: its index and whether it is in the
        // input.
        let at = |tr: &mut Tr, e: Value| -> (Value, Value) {
            let i = tr.add(tile_start, e);
            (i, tr.cmp("lt", i, tile_end))
        };
        let span = tr.bin("sub", tile_end, tile_start);
        let full = tr.cmp("eq", span, per_tile);
        stage_round(
            tr,
            full,
            (k, SCAN_BATCH, tid),
            &stage,
            &mut |tr, e| at(tr, e),
            &mut |tr, i| point(tr, i, true),
            Some(op.nes),
        )?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        // This thread's elements, scanned in place.
        let mine = tr.mul(tid, items);
        let nes = op.nes.to_vec();
        let own = rewrite_run(tr, &stage, mine, items, &nes, true, &mut |tr, acc, x| {
            apply(tr, op, acc, x)
        })?;
        let (before, total) = block_scan(tr, op, tid, &own)?;
        let warp_size = tr.i64c(WARP);
        let warp0 = tr.cmp("lt", tid, warp_size);
        let exclusive = broadcast(tr, warp0, is0, &op.elems, &mut |tr| {
            look_back(tr, op, &lb, tile, tid, &total)
        })?;
        let prefix = apply(tr, op, &exclusive, &before)?;
        rewrite_run(tr, &stage, mine, items, &prefix, false, &mut |tr, prefix, x| {
            apply(tr, op, prefix, x)
        })?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        tr.for_loop(items, &[], &mut |tr, j, _| {
            let e = tr.mul(j, bs);
            let e = tr.add(e, tid);
            let (i, ok) = at(tr, e);
            let e = padded(tr, e);
            let y: Vec<Value> = stage
                .iter()
                .map(|&(m, t)| tr.emit1("imp.load", &[m, e], t, &[]))
                .collect();
            when(tr, ok, &mut |tr| write(tr, i, &y))?;
            Ok(vec![])
        })?;
        Ok(())
    })
}

/// A function of two lists of values (as [`apply`] is).
type Combiner<'b> = dyn FnMut(&mut Tr, &[Value], &[Value]) -> R<Vec<Value>> + 'b;

/// Replaces the `items` staged elements from `mine` on (a thread's run
/// in a staging buffer) by `f(carried, element)`, the carried value
/// starting at `inits` and, when `carry`, becoming each new element (an
/// in-place scan; otherwise it stays); returns the last carried value.
fn rewrite_run(
    tr: &mut Tr,
    stage: &[(Value, Type)],
    mine: Value,
    items: Value,
    inits: &[Value],
    carry: bool,
    f: &mut Combiner,
) -> R<Vec<Value>> {
    tr.for_loop(items, inits, &mut |tr, j, carried| {
        let e = tr.add(mine, j);
        let e = padded(tr, e);
        let x: Vec<Value> = stage
            .iter()
            .map(|&(m, t)| tr.emit1("imp.load", &[m, e], t, &[]))
            .collect();
        let y = f(tr, carried, &x)?;
        for (&(m, _), &v) in stage.iter().zip(&y) {
            tr.emit("imp.store", &[m, e, v], &[], &[], vec![]);
        }
        Ok(if carry { y } else { carried.to_vec() })
    })
}

/// A look-back flag: the tile's total is published.
const FLAG_TOTAL: i64 = 1;
/// A look-back flag: the tile's inclusive prefix is published.
const FLAG_PREFIX: i64 = 2;

/// The look-back state of a single-pass scan (Note [Single-pass scan]),
/// one element per tile in `status`: either an i32 flag, the values
/// being in `totals` or `prefixes` by the flag; or, `packed`, the flag
/// shifted left by `shift` bits and the one value's bits below it, in
/// one i64 (one store publishes both, so no fences are needed).
struct LookBack {
    status: Arr,
    packed: Option<i64>,
    totals: Vec<Arr>,
    prefixes: Vec<Arr>,
}

/// Elements whose bits fit below a flag in an i64 ([`LookBack`]).
fn packable(e: Scalar) -> bool {
    matches!(
        e,
        Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::F32
    )
}

impl LookBack {
    /// The look-back arrays for `tiles` tiles of a scan with `op`;
    /// `counts`: the operator is (+) on i64 values below 2^62.
    fn new(tr: &mut Tr, op: &Op, tiles: Value, counts: bool) -> R<LookBack> {
        let packed = if counts {
            Some(62)
        } else if op.elems.len() == 1 && packable(op.elems[0]) {
            Some(32)
        } else {
            None
        };
        let status = tr.alloc_array(if packed.is_some() { Scalar::I64 } else { Scalar::I32 }, &[tiles])?;
        let mut arrays = || -> R<Vec<Arr>> {
            if packed.is_some() {
                return Ok(Vec::new());
            }
            op.elems.iter().map(|&e| tr.alloc_array(e, &[tiles])).collect()
        };
        let totals = arrays()?;
        let prefixes = arrays()?;
        Ok(LookBack {
            status,
            packed,
            totals,
            prefixes,
        })
    }

    /// The status meaning "no value yet" (0).
    fn empty(&self, tr: &mut Tr) -> Value {
        tr.int(0, self.status.elem)
    }

    /// A status with flag `flag` and no value.
    fn flag_only(&self, tr: &mut Tr, flag: i64) -> Value {
        tr.int(flag << self.packed.unwrap_or(0), self.status.elem)
    }

    /// The flag (an i32) of status `st`.
    fn flag(&self, tr: &mut Tr, st: Value) -> Value {
        match self.packed {
            Some(shift) => {
                let sh = tr.i64c(shift);
                let f = tr.bin("ushr", st, sh);
                convert(tr, "trunc", f, Scalar::I32)
            }
            None => st,
        }
    }

    /// Publishes `vals` for `tile` with flag `flag`.
    fn publish(&self, tr: &mut Tr, tile: Value, vals: &[Value], flag: i64) {
        let word = match self.packed {
            Some(shift) => {
                let bits = match tr.ctx.as_scalar(tr.ctx.value_type(vals[0])) {
                    Some(Scalar::F32) => convert(tr, "bitcast", vals[0], Scalar::I32),
                    _ => vals[0],
                };
                let bits = if tr.ctx.as_scalar(tr.ctx.value_type(bits)) == Some(Scalar::I64) {
                    bits
                } else {
                    let wide = convert(tr, "zext", bits, Scalar::I64);
                    let mask = tr.i64c(0xffff_ffff);
                    tr.bin("and", wide, mask)
                };
                let f = tr.i64c(flag << shift);
                tr.bin("or", f, bits)
            }
            None => {
                let arrs = if flag == FLAG_PREFIX {
                    &self.prefixes
                } else {
                    &self.totals
                };
                for (a, &v) in arrs.iter().zip(vals) {
                    tr.store(a, &[tile], v);
                }
                tr.emit("imp.fence", &[], &[], &[], vec![]);
                tr.int(flag, Scalar::I32)
            }
        };
        let off = tr.element_offset(&self.status, &[tile]);
        let vol = tr.ctx.intern_attr(AttrKind::Unit);
        tr.emit(
            "imp.store",
            &[self.status.mem, off, word],
            &[],
            &[("volatile", vol)],
            vec![],
        );
    }

    /// The values published for `tile`, whose status `st` has a flag;
    /// `prefix`: whether the flag is [`FLAG_PREFIX`].
    fn values(&self, tr: &mut Tr, op: &Op, tile: Value, st: Value, prefix: Value) -> R<Vec<Value>> {
        match self.packed {
            Some(shift) => {
                let mask = tr.i64c((1 << shift) - 1);
                let bits = tr.bin("and", st, mask);
                Ok(vec![match op.elems[0] {
                    Scalar::I64 => bits,
                    Scalar::F32 => {
                        let b = convert(tr, "trunc", bits, Scalar::I32);
                        convert(tr, "bitcast", b, Scalar::F32)
                    }
                    e => convert(tr, "trunc", bits, e),
                }])
            }
            None => {
                // The values were written before the flag (and a fence).
                tr.emit("imp.fence", &[], &[], &[], vec![]);
                tr.if_(
                    prefix,
                    &mut |tr| Ok(self.prefixes.iter().map(|a| load_volatile(tr, a, tile)).collect()),
                    &mut |tr| Ok(self.totals.iter().map(|a| load_volatile(tr, a, tile)).collect()),
                )
            }
        }
    }
}

/// A volatile read of `a` at `i`.
fn load_volatile(tr: &mut Tr, a: &Arr, i: Value) -> Value {
    let off = tr.element_offset(a, &[i]);
    let t = tr.ty(a.elem);
    let vol = tr.ctx.intern_attr(AttrKind::Unit);
    tr.emit1("imp.load", &[a.mem, off], t, &[("volatile", vol)])
}

/// The largest of the i32 `x` of the lanes of the warp, for every lane
/// (shuffles across: lane `l` and `l ^ s` swap in round `s` = 16, 8, ...).
fn warp_max(tr: &mut Tr, x: Value) -> Value {
    let mut x = x;
    let mut s = WARP / 2;
    while s >= 1 {
        let off = tr.i64c(s);
        let kind = tr.ctx.string_attr("xor");
        let t = tr.ctx.value_type(x);
        let other = tr.emit1("imp.shuffle", &[x, off], t, &[("kind", kind)]);
        x = tr.bin("max", x, other);
        s /= 2;
    }
    x
}

/// Warp 0's part of the single-pass scan for tile `tile` of total
/// `total` (all its lanes run it; `lane` is the thread's): publishes the
/// total, walks back to the exclusive prefix, publishes the inclusive
/// one; the exclusive prefix is right in lane 0. The walk reads the
/// statuses of [`WARP`] tiles at a time, lane `l` that of tile
/// `j - 31 + l` (so lane order is tile order), waits until none is
/// empty, and combines (by [`warp_reduce`], in order) the values from
/// the last tile with a prefix on, or all the totals when none has one.
fn look_back(tr: &mut Tr, op: &Op, lb: &LookBack, tile: Value, lane: Value, total: &[Value]) -> R<Vec<Value>> {
    let zero = tr.i64c(0);
    let first = tr.cmp("eq", tile, zero);
    let lane0 = tr.cmp("eq", lane, zero);
    let nes = op.nes.to_vec();
    let publish_at_lane0 = |tr: &mut Tr, vals: &[Value], flag: i64| -> R<()> {
        when(tr, lane0, &mut |tr| {
            lb.publish(tr, tile, vals, flag);
            Ok(())
        })?;
        Ok(())
    };
    tr.if_(
        first,
        &mut |tr| {
            publish_at_lane0(tr, total, FLAG_PREFIX)?;
            Ok(nes.clone())
        },
        &mut |tr| {
            publish_at_lane0(tr, total, FLAG_TOTAL)?;
            // Carried: the last tile of the window, whether a prefix was
            // found, and the combination of the values after the window.
            let one = tr.i64c(1);
            let start = tr.bin("sub", tile, one);
            let no = tr.int(0, Scalar::I32);
            let mut inits = vec![start, no];
            inits.extend_from_slice(&nes);
            let out = tr.while_loop(
                &inits,
                &mut |tr, c| {
                    let no = tr.int(0, Scalar::I32);
                    Ok(vec![tr.cmp("eq", c[1], no)])
                },
                &mut |tr, c| {
                    let (j, acc) = (c[0], c[2..].to_vec());
                    let back = tr.i64c(WARP - 1);
                    let idx = tr.bin("sub", j, back);
                    let idx = tr.add(idx, lane);
                    let zero = tr.i64c(0);
                    let inside = tr.cmp("ge", idx, zero);
                    // Before tile 0: a prefix (never the last one: tile 0
                    // has one by the time no status is empty).
                    let read = |tr: &mut Tr| -> R<Value> {
                        Ok(tr.if_(
                            inside,
                            &mut |tr| Ok(vec![load_volatile(tr, &lb.status, idx)]),
                            &mut |tr| Ok(vec![lb.flag_only(tr, FLAG_PREFIX)]),
                        )?[0])
                    };
                    let st0 = read(tr)?;
                    let st = tr.while_loop(
                        &[st0],
                        &mut |tr, c| {
                            let empty = lb.empty(tr);
                            let waiting = tr.cmp("eq", c[0], empty);
                            let w = convert(tr, "btoi", waiting, Scalar::I32);
                            let any = warp_max(tr, w);
                            let none = tr.int(0, Scalar::I32);
                            Ok(vec![tr.cmp("ne", any, none)])
                        },
                        &mut |tr, _| Ok(vec![read(tr)?]),
                    )?[0];
                    // The last lane whose tile has a prefix, or -1.
                    let flag = lb.flag(tr, st);
                    let p = tr.int(FLAG_PREFIX, Scalar::I32);
                    let has = tr.cmp("eq", flag, p);
                    let lane32 = convert(tr, "trunc", lane, Scalar::I32);
                    let minus = tr.int(-1, Scalar::I32);
                    let mark = tr.if_(has, &mut |_| Ok(vec![lane32]), &mut |_| Ok(vec![minus]))?[0];
                    let last = warp_max(tr, mark);
                    let counts = tr.cmp("ge", lane32, last);
                    let counts = tr.bin("and", counts, inside);
                    let nes = op.nes.to_vec();
                    let v = tr.if_(counts, &mut |tr| lb.values(tr, op, idx, st, has), &mut |_| {
                        Ok(nes.clone())
                    })?;
                    let window = warp_reduce(tr, op, lane, &v, WARP)?;
                    let acc = apply(tr, op, &window, &acc)?;
                    let width = tr.i64c(WARP);
                    let next = tr.bin("sub", j, width);
                    let none = tr.int(0, Scalar::I32);
                    let found = tr.cmp("ge", last, none);
                    let found = convert(tr, "btoi", found, Scalar::I32);
                    let mut out = vec![next, found];
                    out.extend(acc);
                    Ok(out)
                },
            )?;
            let exclusive = out[2..].to_vec();
            let inclusive = apply(tr, op, &exclusive, total)?;
            publish_at_lane0(tr, &inclusive, FLAG_PREFIX)?;
            Ok(exclusive)
        },
    )
}

/// `x` converted to `to` by the `soac.convop` of kind `kind`.
fn convert(tr: &mut Tr, kind: &str, x: Value, to: Scalar) -> Value {
    let t = tr.ty(to);
    let kind = tr.ctx.string_attr(kind);
    tr.emit1("soac.convop", &[x], t, &[("kind", kind)])
}

/// Values of types `types` that the threads where `run` holds compute
/// with `f`, given to every thread of the block through shared memory
/// by the one where `keep` holds.
fn broadcast(
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

/// A filter of the points `0..n` (`segop.filter`): `point` gives whether
/// to keep a point, then its values, stored in `outs` in order. A scan
/// (+) of the 0/1 flags whose last kernel, instead of storing the
/// prefixes, writes each kept point's values at its prefix minus one
/// (the values are computed again there) — one pass writing only what is
/// kept. Returns the count (on the host).
pub(crate) fn filter(tr: &mut Tr, n: Value, point: &mut MapPoint, outs: &[Arr]) -> R<Value> {
    let i64t = tr.ty(Scalar::I64);
    // The operator: (+) on i64, as a block of its own.
    let region = tr.ctx.create_region();
    let add = tr.ctx.append_block(region, &[i64t, i64t]);
    let (a, b) = (tr.ctx.block_args(add)[0], tr.ctx.block_args(add)[1]);
    let kind = tr.ctx.string_attr("add");
    let sum = Builder::at_end(tr.ctx, add).op("soac.binop", &[a, b], &[i64t], &[("kind", kind)], vec![]);
    let sum = tr.ctx.result(sum, 0);
    Builder::at_end(tr.ctx, add).op("segop.yield", &[sum], &[], &[], vec![]);
    let zero = tr.i64c(0);
    let op = Op {
        block: add,
        nes: &[zero],
        elems: vec![Scalar::I64],
        commutative: true,
        index_parts: vec![false],
    };
    let one = tr.i64c(1);
    let count = tr.alloc_array(Scalar::I64, &[one])?;
    let keep = |tr: &mut Tr, ys: &[Rep]| -> R<Value> {
        match ys.first() {
            Some(Rep::Scalar(k)) => Ok(*k),
            _ => Err(tr.fail("internal error: a filter's test that is not a scalar")),
        }
    };
    // The test and the values both come from `point`, which the scan's
    // reads (`flag`) and its writes share.
    let point = std::cell::RefCell::new(point);
    let mut flag = |tr: &mut Tr, i: Value, _: bool| -> R<Vec<Value>> {
        let ys = (point.borrow_mut())(tr, &[i])?;
        let k = keep(tr, &ys)?;
        Ok(vec![convert(tr, "btoi", k, Scalar::I64)])
    };
    let last = tr.bin("sub", n, one);
    let mut place = |tr: &mut Tr, i: Value, prefix: &[Value]| -> R<()> {
        let ys = (point.borrow_mut())(tr, &[i])?;
        let k = keep(tr, &ys)?;
        let s = prefix[0];
        when(tr, k, &mut |tr| {
            let one = tr.i64c(1);
            let at = tr.bin("sub", s, one);
            for (o, y) in outs.iter().zip(&ys[1..]) {
                tr.write(o, &[at], y);
            }
            Ok(())
        })?;
        let is_last = tr.cmp("eq", i, last);
        when(tr, is_last, &mut |tr| {
            let zero = tr.i64c(0);
            tr.store(&count, &[zero], s);
            Ok(())
        })?;
        Ok(())
    };
    // The counts are below n < 2^62: packed with their flags.
    scan_with(tr, n, &op, &mut flag, &mut place, true)?;
    let nonempty = tr.cmp("gt", n, zero);
    let c = tr.if_(
        nonempty,
        &mut |tr| {
            let zero = tr.i64c(0);
            Ok(vec![tr.load(&count, &[zero])])
        },
        &mut |tr| Ok(vec![tr.i64c(0)]),
    )?;
    Ok(c[0])
}
