//! Analyses of soac code that several passes share: block order, uses
//! within a block, the values an op reads, aliasing and consumption.

use std::collections::HashSet;

use futmlir_dialects::ir::{AttrKind, BlockId, Context, OpId, Value};

use crate::ir::is_pure;

/// The SOACs: ops that apply lambdas to the rows of arrays.
pub const SOAC_OPS: &[&str] = &[
    "soac.map",
    "soac.reduce",
    "soac.scan",
    "soac.redomap",
    "soac.scanomap",
    "soac.screma",
    "soac.hist",
    "soac.scatter",
    "soac.stream_seq",
    "soac.stream_par",
    "soac.filter",
    "soac.partition",
];

/// Every block under `op`, nested blocks before the blocks holding them.
pub(crate) fn blocks_inner_first(ctx: &Context, op: OpId) -> Vec<BlockId> {
    let mut blocks = Vec::new();
    ctx.walk(op, &mut |o| {
        for &r in ctx.regions(o) {
            blocks.extend_from_slice(ctx.blocks(r));
        }
    });
    blocks.reverse();
    blocks
}

pub(crate) fn block_alive(ctx: &Context, b: BlockId) -> bool {
    ctx.block_parent(b)
        .and_then(|r| ctx.region_parent(r))
        .is_some_and(|o| ctx.is_alive(o))
}

/// The top-level op of block `b` that holds `op` (itself when it is in `b`).
pub(crate) fn ancestor_in(ctx: &Context, b: BlockId, mut op: OpId) -> Option<OpId> {
    loop {
        if ctx.parent_block(op) == Some(b) {
            return Some(op);
        }
        op = ctx.parent_op(op)?;
    }
}

/// The ops of `b` (and inside them) that use `v`, as their top-level op
/// in `b`; sizes in types count as uses. `None` stands for a use outside
/// `b`.
pub(crate) fn users_in(ctx: &Context, b: BlockId, v: Value) -> Vec<Option<OpId>> {
    let mut out: Vec<Option<OpId>> = ctx.uses(v).iter().map(|u| ancestor_in(ctx, b, u.op)).collect();
    for &t in ctx.type_users(v) {
        let holder = match ctx.defining_op(t) {
            Some(d) => Some(d),
            None => ctx
                .value_block(t)
                .and_then(|bb| ctx.block_parent(bb))
                .and_then(|r| ctx.region_parent(r)),
        };
        out.push(holder.and_then(|h| ancestor_in(ctx, b, h)));
    }
    out
}

/// `op` and every op nested in it.
pub fn walk_with(ctx: &Context, op: OpId, f: &mut dyn FnMut(OpId)) {
    f(op);
    ctx.walk(op, f);
}

/// The values `op` reads from outside itself, in the order of first use
/// (so that what is built from them is deterministic): its operands and
/// the free values of its regions, and with `sizes` the sizes that the
/// types of its results and of the results nested in it name.
pub fn reads(ctx: &Context, op: OpId, sizes: bool) -> Vec<Value> {
    let mut inside: HashSet<Value> = HashSet::new();
    let mut used: Vec<Value> = Vec::new();
    walk_with(ctx, op, &mut |o| {
        used.extend_from_slice(ctx.operands(o));
        for r in ctx.results(o) {
            inside.insert(r);
            if sizes {
                used.extend(ctx.type_size_values(ctx.value_type(r)));
            }
        }
        for &r in ctx.regions(o) {
            for &bb in ctx.blocks(r) {
                inside.extend(ctx.block_args(bb).iter().copied());
            }
        }
    });
    let mut seen = HashSet::new();
    used.into_iter()
        .filter(|v| !inside.contains(v) && seen.insert(*v))
        .collect()
}

/// Ops that only give another view of their first operand: consuming
/// the view consumes the array, and the other way round.
pub(crate) const VIEWS: &[&str] = &[
    "soac.slice",
    "soac.index",
    "soac.reshape",
    "soac.rearrange",
    "soac.rotate",
];

/// The arrays `v` may alias: itself and what it is a view of.
pub(crate) fn alias_roots(ctx: &Context, v: Value, out: &mut HashSet<Value>) {
    let mut v = v;
    loop {
        if !out.insert(v) {
            return;
        }
        match ctx.defining_op(v) {
            Some(d) if VIEWS.contains(&ctx.op_name(d)) => v = ctx.operands(d)[0],
            _ => return,
        }
    }
}

/// The operands `op` (or an op inside it) may consume (Note [Fusion
/// legality], 4): updated arrays, destinations, and everything passed to
/// a loop or a call.
pub fn consumed(ctx: &Context, op: OpId) -> HashSet<Value> {
    let mut out = HashSet::new();
    walk_with(ctx, op, &mut |o| {
        let ops = ctx.operands(o);
        let taken: Vec<Value> = match ctx.op_name(o) {
            "soac.update" => ops.first().copied().into_iter().collect(),
            "soac.scatter" | "soac.hist" => destinations(ctx, o).to_vec(),
            // Kernel extraction's forms of them (`ir-cse` runs after it).
            "segop.segmap" if ctx.attr(o, "writes").is_some() => {
                ops[ops.len().saturating_sub(ctx.num_results(o))..].to_vec()
            }
            "segop.seghist" => {
                let k = ctx.num_results(o);
                ops[ops.len().saturating_sub(2 * k)..ops.len().saturating_sub(k)].to_vec()
            }
            "soac.loop" | "soac.apply" => ops.to_vec(),
            _ => Vec::new(),
        };
        for v in taken {
            alias_roots(ctx, v, &mut out);
        }
    });
    // A consumed result of a `soac.if` consumes what each branch yields
    // there (two equal `replicate`s yielded by one branch must stay two
    // arrays when one result is updated in place: Futhark's issue715).
    // Inner `if`s come later in the walk: repeat until nothing changes.
    let mut ifs = Vec::new();
    walk_with(ctx, op, &mut |o| {
        if ctx.op_name(o) == "soac.if" {
            ifs.push(o);
        }
    });
    loop {
        let before = out.len();
        for &o in &ifs {
            let results: Vec<Value> = ctx.results(o).collect();
            for (k, r) in results.iter().enumerate() {
                if !out.contains(r) {
                    continue;
                }
                for &region in ctx.regions(o) {
                    for &b in ctx.blocks(region) {
                        if let Some(y) = ctx.last_op(b).filter(|&y| ctx.op_name(y) == "soac.yield") {
                            if let Some(&v) = ctx.operands(y).get(k) {
                                alias_roots(ctx, v, &mut out);
                            }
                        }
                    }
                }
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The destinations a `soac.scatter` or `soac.hist` writes into (and
/// consumes): scatter's last `k` operands, hist's `k` after its two sizes.
pub(crate) fn destinations(ctx: &Context, op: OpId) -> &[Value] {
    let ops = ctx.operands(op);
    let k = ctx.num_results(op);
    match ctx.op_name(op) {
        "soac.scatter" => &ops[ops.len() - k..],
        "soac.hist" => &ops[2..2 + k],
        _ => &[],
    }
}

/// Whether `v` is defined inside op `holder` (in one of its regions, at
/// any depth).
pub fn defined_inside(ctx: &Context, v: Value, holder: OpId) -> bool {
    let owner = ctx
        .value_block(v)
        .and_then(|b| ctx.block_parent(b))
        .and_then(|r| ctx.region_parent(r));
    owner.is_some_and(|o| ctx.is_ancestor(holder, o))
}

/// Whether an op enclosing `op` (at any depth) has a name `holds` accepts.
pub fn held_by(ctx: &Context, op: OpId, holds: impl Fn(&str) -> bool) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if holds(ctx.op_name(p)) {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// Whether `op`, and everything in it, has no effect and cannot fail
/// (Note [Hoisting] in `simplify.rs`): what may move out of a branch or
/// lambda, as no guarding test is needed for it.
pub fn cannot_fail(ctx: &Context, op: OpId) -> bool {
    let mut ok = true;
    walk_with(ctx, op, &mut |o| {
        ok &= match ctx.op_name(o) {
            "soac.yield" => true,
            "soac.index" | "soac.slice" | "soac.reshape" | "soac.concat" | "soac.iota" | "soac.replicate"
            | "soac.copy" => false,
            "soac.binop" => {
                let kind = ctx.attr(o, "kind").map(|a| ctx.attr_kind(a));
                let int = ctx
                    .as_scalar(ctx.value_type(ctx.result(o, 0)))
                    .is_some_and(|s| !s.is_float());
                let failing = matches!(kind, Some(AttrKind::String(k))
                    if matches!(ctx.str(*k), "div" | "mod" | "rem" | "quot" | "pow"));
                !(int && failing)
            }
            _ => is_pure(ctx, o),
        }
    });
    ok
}

/// The operands of a loop before its initial merge values (the bound of
/// a for loop: 1), and the block arguments before its merge parameters;
/// `None` for an op that is no loop.
pub fn loop_offset(ctx: &Context, o: OpId) -> Option<usize> {
    match ctx.attr(o, "form").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(s)) if ctx.str(*s) == "for" => Some(1),
        Some(AttrKind::String(s)) if ctx.str(*s) == "while" => Some(0),
        _ => None,
    }
}
