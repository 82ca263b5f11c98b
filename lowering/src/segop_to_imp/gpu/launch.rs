//! Launching kernels: a kernel's body built, its parameters found and
//! the launch emitted ([`launch`]), the thread's ids, a kernel with one
//! thread per point of a space ([`par_for`]), and how the points of a
//! one-dimensional space are shared among groups and threads (Note
//! [Segops on the GPU]).

use futmlir_dialects::ir::{AttrKind, Builder, OpId, Scalar, Type, TypeKind, Value};
use futmlir_passes::soac::analysis::{reads, walk_with};

use super::group::when;
use crate::segop_to_imp::{entry, segops, Tr, R};

/// Threads per block.
pub(crate) const BLOCK: i64 = 256;
/// The runtime's tuning parameters (`runtime-cuda/src/params.rs`), by
/// number: the most groups a one-dimensional reduction or scan uses,
/// the shortest segments a segmented reduction gives a group each, and
/// the fewest blocks of results a tiled segop runs tiled with.
pub(crate) const PARAM_REDUCE_GROUPS: i64 = 0;
pub(crate) const PARAM_SEGRED_GROUP_MIN: i64 = 1;
/// The fewest blocks of results a tiled segop runs tiled with (Note
/// [Block tiling]).
pub(crate) const PARAM_TILE_MIN_BLOCKS: i64 = 2;

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
pub(super) fn launch_with(
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
        ("block_size", entry::int_array(tr.ctx, &[block])),
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
        return segops::try_nest(tr, sizes, body);
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

/// The number of groups for `n` elements: `ceil(n / BLOCK)`, at least 1
/// and at most the tuning parameter `reduce_groups`.
pub(super) fn group_count(tr: &mut Tr, n: Value) -> Value {
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
pub(super) fn thread_range(
    tr: &mut Tr,
    n: Value,
    threads: Value,
    gtid: Value,
    commutative: bool,
) -> (Value, Value, Value) {
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
