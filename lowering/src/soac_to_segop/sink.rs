//! Sinking cheap code into the parallel SOACs of a map's lambda, before
//! the map is distributed.
//!
//! **Note [Sinking cheap code].** The simplifier hoists what an inner
//! lambda computes from the outer map's index alone out of it (`i == 0`
//! in `tabulate_2d n m (\i j -> if i == 0 ...)`, the row `a[i - 1]`).
//! That is right for sequential code, but distribution (thesis rule G4,
//! `distribute.rs`) then gives those few scalar ops a kernel of their
//! own, writing an array with a row per outer index that the inner
//! kernel reads back; a row view (`a[i - 1]`) even becomes a copy of the
//! whole matrix, in every iteration of a loop around it. So before a map
//! is distributed, each op of its lambda that is cheap (a scalar op, an
//! `if` of such, or an index or slice, which only makes a view) and whose
//! results only the lambdas of the map's parallel SOACs use is cloned
//! into each of those lambdas and removed: the threads of the inner
//! kernel recompute it, which costs a few instructions where the
//! distributed form cost a launch and memory traffic. An op used anywhere
//! else (by the map's yield, by a sequential op or an assertion left
//! between the SOACs, as an operand of a SOAC itself, or as a size in a
//! type) stays. The sunk ops of an inner map whose own lambda holds
//! parallel SOACs sink on into those in turn.
//!
//! A view the lambda makes and an inner map takes as an input (`map2 f
//! a[i - 1] a[i]`, as the simplifier leaves `\j -> ... a[i - 1, j]`) is
//! first made a read in the inner map's lambda, `view[j]` with `j` from
//! an `iota` input (which flattening turns into the thread's index), so
//! that the view sinks like any other cheap op.

use futmlir_dialects::ir::{BlockId, Builder, Context, Dim, OpId, Scalar, Type, TypeKind, Value, ValueMap};
use futmlir_passes::ir::is_pure;

use super::distribute::parallel;

/// Scalar ops that cost a few instructions.
const SCALAR: &[&str] = &[
    "soac.constant",
    "soac.binop",
    "soac.cmpop",
    "soac.unop",
    "soac.ternop",
    "soac.convop",
    "soac.select",
    "soac.size",
];

/// Sinks the cheap ops of map `m`'s lambda into its parallel SOACs
/// (Note [Sinking cheap code]).
pub fn sink_cheap(ctx: &mut Context, m: OpId) {
    let lam = ctx.blocks(ctx.regions(m)[0])[0];
    let maps: Vec<OpId> = ctx
        .block_ops(lam)
        .filter(|&o| ctx.op_name(o) == "soac.map" && parallel(ctx, o, m))
        .collect();
    for p in maps {
        views_read_inside(ctx, p, lam);
    }
    let mut inner = Vec::new();
    loop {
        let mut changed = false;
        let ops: Vec<OpId> = ctx.block_ops(lam).collect();
        // Last first: an op's users sink before it, so that its uses are
        // then in the SOACs' lambdas too.
        for &o in ops.iter().rev() {
            if let Some(homes) = homes(ctx, o, m, lam) {
                sink(ctx, o, &homes);
                for b in homes {
                    if let Some(p) = ctx.block_parent(b).and_then(|r| ctx.region_parent(r)) {
                        if !inner.contains(&p) {
                            inner.push(p);
                        }
                    }
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for p in inner {
        if ctx.op_name(p) == "soac.map" && super::distribute::has_inner_parallelism(ctx, p, 0) {
            sink_cheap(ctx, p);
        }
    }
}

/// Makes each input of map `p` (an op of block `lam`) that is a view
/// made in `lam` a read of that view in `p`'s lambda, at the index an
/// `iota` input gives (Note [Sinking cheap code]).
fn views_read_inside(ctx: &mut Context, p: OpId, lam: BlockId) {
    let operands = ctx.operands(p).to_vec();
    let w = operands[0];
    let is_view = |ctx: &Context, v: Value| {
        ctx.defining_op(v).is_some_and(|d| {
            ctx.parent_block(d) == Some(lam) && matches!(ctx.op_name(d), "soac.index" | "soac.slice") && cheap(ctx, d)
        })
    };
    let views: Vec<usize> = (1..operands.len()).filter(|&k| is_view(ctx, operands[k])).collect();
    if views.is_empty() {
        return;
    }
    let counter = operands[1..].iter().position(|&v| {
        ctx.defining_op(v)
            .is_some_and(|d| ctx.op_name(d) == "soac.iota" && ctx.operands(d) == [w])
    });
    let mut operands = operands;
    let body = ctx.blocks(ctx.regions(p)[0])[0];
    let j = match counter {
        Some(k) => ctx.block_args(body)[k],
        None => {
            // A new `iota` input, made where the map's width is defined
            // (it is defined outside `lam`: the map is parallel).
            let i64t = ctx.scalar(Scalar::I64);
            let at = ctx.defining_op(w).and_then(|d| ctx.next_op(d));
            let iota_t = ctx.intern_type(TypeKind::Array {
                elem: i64t,
                shape: vec![Dim::Value(w)],
            });
            let mut b = match at {
                Some(next) => Builder::before(ctx, next),
                None => {
                    let blk = ctx.value_block(w).expect("a width has a block");
                    match ctx.first_op(blk) {
                        Some(first) => Builder::before(ctx, first),
                        None => Builder::at_end(ctx, blk),
                    }
                }
            };
            let iota = b.op("soac.iota", &[w], &[iota_t], &[], Vec::new());
            operands.push(ctx.result(iota, 0));
            ctx.add_block_arg(body, i64t)
        }
    };
    for &k in views.iter().rev() {
        let arg = ctx.block_args(body)[k - 1];
        let t = ctx.value_type(arg);
        let first = ctx.first_op(body).expect("a lambda ends in a yield");
        let read = Builder::before(ctx, first).op("soac.index", &[operands[k], j], &[t], &[], Vec::new());
        let x = ctx.result(read, 0);
        ctx.replace_all_uses(arg, x);
        ctx.erase_block_arg(body, k - 1);
        operands.remove(k);
    }
    let types: Vec<Type> = ctx.results(p).map(|r| ctx.value_type(r)).collect();
    let regions = ctx.take_regions(p);
    let name = ctx.op_name_sym(p);
    let attrs = ctx.attrs(p).to_vec();
    let new = ctx.create_op(name, &operands, &types, &attrs, regions, ctx.location(p));
    Builder::before(ctx, p).insert(new);
    let results: Vec<Value> = ctx.results(new).collect();
    ctx.replace_op(p, &results);
}

/// The blocks, each directly in a region of a parallel SOAC of `lam`
/// (the lambda of map `m`), that hold the uses of cheap op `o`'s results
/// where every use is in one; `None` where `o` must stay.
fn homes(ctx: &Context, o: OpId, m: OpId, lam: BlockId) -> Option<Vec<BlockId>> {
    if ctx.last_op(lam) == Some(o) || !cheap(ctx, o) || parallel(ctx, o, m) {
        return None;
    }
    let results: Vec<Value> = ctx.results(o).collect();
    if results.is_empty() || results.iter().any(|&r| !ctx.type_users(r).is_empty()) {
        return None;
    }
    let mut homes = Vec::new();
    for r in results {
        for u in ctx.uses(r) {
            let (top, blk) = top_level(ctx, u.op, lam)?;
            if !parallel(ctx, top, m) {
                return None;
            }
            if !homes.contains(&blk) {
                homes.push(blk);
            }
        }
    }
    (!homes.is_empty()).then_some(homes)
}

/// The op of block `lam` that holds `op` (strictly inside one of its
/// regions) and the block of that region `op` is in; `None` when `op` is
/// in `lam` itself or outside it.
fn top_level(ctx: &Context, op: OpId, lam: BlockId) -> Option<(OpId, BlockId)> {
    let mut x = op;
    loop {
        let blk = ctx.parent_block(x)?;
        if blk == lam {
            return None;
        }
        let p = ctx.parent_op(x)?;
        if ctx.parent_block(p) == Some(lam) {
            return Some((p, blk));
        }
        x = p;
    }
}

/// Whether `op` is in block `b`, at any depth.
fn within(ctx: &Context, mut op: OpId, b: BlockId) -> bool {
    loop {
        if ctx.parent_block(op) == Some(b) {
            return true;
        }
        match ctx.parent_op(op) {
            Some(p) => op = p,
            None => return false,
        }
    }
}

/// Clones `o` to the start of each of `homes`, its uses there reading the
/// clone, and erases it.
fn sink(ctx: &mut Context, o: OpId, homes: &[BlockId]) {
    let results: Vec<Value> = ctx.results(o).collect();
    for &b in homes {
        let c = ctx.clone_op(o, &mut ValueMap::default());
        let first = ctx.first_op(b);
        ctx.insert_op(b, first, c);
        for (k, &r) in results.iter().enumerate() {
            let new = ctx.result(c, k);
            for u in ctx.uses(r).to_vec() {
                if within(ctx, u.op, b) {
                    ctx.set_operand(u.op, u.index as usize, new);
                }
            }
        }
    }
    ctx.erase_op(o);
}

/// Whether `o` costs a few instructions and has no effect: a scalar op,
/// an index or slice (a view), or an `if` of scalars whose branches hold
/// only such ops.
fn cheap(ctx: &Context, o: OpId) -> bool {
    if !is_pure(ctx, o) && ctx.op_name(o) != "soac.if" {
        return false;
    }
    let scalar_results = || {
        ctx.results(o)
            .all(|r| !matches!(ctx.type_kind(ctx.value_type(r)), TypeKind::Array { .. }))
    };
    match ctx.op_name(o) {
        "soac.index" | "soac.slice" => true,
        "soac.if" => {
            scalar_results()
                && ctx.regions(o).iter().all(|&r| {
                    ctx.blocks(r).iter().all(|&b| {
                        ctx.block_ops(b)
                            .all(|x| ctx.op_name(x) == "soac.yield" || cheap(ctx, x))
                    })
                })
        }
        name => SCALAR.contains(&name) && ctx.regions(o).is_empty() && scalar_results(),
    }
}
