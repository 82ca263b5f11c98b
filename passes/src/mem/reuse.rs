//! `mem-reuse`: an allocation of the mem level takes a block that is
//! dead by then, of the same size.
//!
//! **Note [Block reuse].** At the mem level (Note [The mem level] in
//! `segop_to_mem.rs`) a host block holds the arrays bound to it and
//! every array that may share its memory: views of them (index, slice,
//! reshape, rearrange), in-place updates (`update`, a scatter's or a
//! histogram's destinations) and the results of control ops (`if`,
//! `loop`) that take one of them in — conservatively, every array
//! result of an op that uses such an array, directly or in its regions,
//! and is not bound to a block of its own. A block is dead after the
//! last op of its block (region) that uses one of these arrays; it is
//! never dead if the region yields or returns one. An allocation `%m2 =
//! mem.alloc(%b2)` whose array is made by op `P` then takes an earlier
//! block `%m1` of the same region when `%m1` is dead before `P` (not at
//! `P`: an op may not write the memory it reads) and the sizes agree:
//! the same product of the same size values, or constants with `%m1`'s
//! at least `%m2`'s. `%m2`'s arrays are then bound to `%m1`, and the
//! next allocation sees them there. Each reuse is one allocation and one
//! free fewer at run time; the memory's peak is what the runtime's pool
//! already gave (a free followed by an allocation of the same size takes
//! the same memory from its free list), unless a later pass moves frees.

use std::collections::{HashMap, HashSet};

use crate::{Level, Options, Pass, PassInfo};
use futmlir_dialects::ir::{BlockId, Context, Diagnostic, OpId, OpView, Value};

use crate::mem::{array_elem, binding, host_functions, host_regions};

pub const INFO: PassInfo = PassInfo {
    name: "mem-reuse",
    description: "mem level: an allocation takes a dead block of the same size (Note [Block reuse])",
    options: &[],
    reads: &[Level::Mem],
    writes: None,
    create: &|_: &Options, _| Box::new(Reuse),
};

struct Reuse;

impl Pass for Reuse {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        for f in host_functions(ctx, module) {
            let body = ctx.blocks(ctx.regions(f)[0])[0];
            reuse_in(ctx, body);
        }
        Ok(())
    }
}

/// A block's size as a constant factor and the size values multiplied
/// into it (sorted), read from the `mul` chain that computes its bytes.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Bytes {
    constant: i64,
    values: Vec<Value>,
}

fn bytes_of(ctx: &Context, v: Value) -> Bytes {
    let mut b = Bytes {
        constant: 1,
        values: Vec::new(),
    };
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        let Some(view) = ctx.defining_op(x).map(|op| OpView { ctx, op }) else {
            b.values.push(x);
            continue;
        };
        match (ctx.op_name(view.op), view.int_attr("value")) {
            ("soac.constant", Ok(c)) => b.constant = b.constant.saturating_mul(c),
            ("soac.binop", _) if view.string_attr("kind") == Ok("mul") => {
                stack.extend(ctx.operands(view.op).iter().copied());
            }
            // A product saturating at i64::MAX (Note [Byte sizes saturate]
            // in `segop_to_mem`) is the product: two of the same factors
            // saturate alike, whatever the order.
            ("soac.select", _) if saturated_product(ctx, view.op) => stack.push(ctx.operand(view.op, 2)),
            _ => b.values.push(x),
        }
    }
    b.values.sort();
    b
}

/// Whether `sel` is `select(c, i64::MAX, a * b)`, a saturating product.
fn saturated_product(ctx: &Context, sel: OpId) -> bool {
    let ops = ctx.operands(sel);
    let is_max = ctx
        .defining_op(ops[1])
        .is_some_and(|d| ctx.op_name(d) == "soac.constant" && OpView { ctx, op: d }.int_attr("value") == Ok(i64::MAX));
    let is_mul = ctx
        .defining_op(ops[2])
        .is_some_and(|d| ctx.op_name(d) == "soac.binop" && OpView { ctx, op: d }.string_attr("kind") == Ok("mul"));
    is_max && is_mul
}

/// Whether a block of `old` bytes holds an array of `new` bytes.
/// (Sizes are never negative.)
fn fits(old: &Bytes, new: &Bytes) -> bool {
    old.values == new.values && old.constant >= new.constant
}

/// The arrays bound to block `m` (`mem.bind` uses), or `None` when `m`
/// has another use.
fn bound_arrays(ctx: &Context, m: Value) -> Option<Vec<Value>> {
    ctx.uses(m)
        .iter()
        .map(|u| (ctx.op_name(u.op) == "mem.bind" && u.index == 0).then(|| ctx.operands(u.op)[1]))
        .collect()
}

/// The values `op` and the ops nested in it use.
fn used_values(ctx: &Context, op: OpId) -> HashSet<Value> {
    let mut out: HashSet<Value> = ctx.operands(op).iter().copied().collect();
    ctx.walk(op, &mut |o| out.extend(ctx.operands(o).iter().copied()));
    out
}

/// The position (in `ops`) of the last op that makes or uses memory of
/// the arrays `arrays`, following the arrays that may share it; `None`
/// when the block's terminator passes one on (the memory never dies
/// here).
fn last_use(
    ctx: &Context,
    ops: &[OpId],
    pos: &HashMap<OpId, usize>,
    uses: &[HashSet<Value>],
    arrays: &[Value],
) -> Option<usize> {
    let mut live: HashSet<Value> = arrays.iter().copied().collect();
    let mut last = arrays
        .iter()
        .filter_map(|&a| ctx.defining_op(a).and_then(|d| pos.get(&d)))
        .max()
        .copied()
        .unwrap_or(0);
    for (i, &op) in ops.iter().enumerate() {
        if ctx.op_name(op) == "mem.bind" || !uses[i].iter().any(|v| live.contains(v)) {
            continue;
        }
        // The terminator passes it on.
        ctx.next_op(op)?;
        // `last` may already be later than `op`: an array made after
        // another's last use (and never read itself, a result no one
        // needs) still holds the block from the op that makes it.
        last = last.max(i);
        for r in ctx.results(op) {
            if array_elem(ctx, ctx.value_type(r)).is_some() && binding(ctx, r).is_none() {
                live.insert(r);
            }
        }
    }
    Some(last)
}

fn reuse_in(ctx: &mut Context, b: BlockId) {
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    for &o in &ops {
        for inner in host_regions(ctx, o) {
            reuse_in(ctx, inner);
        }
    }
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let pos: HashMap<OpId, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let uses: Vec<HashSet<Value>> = ops.iter().map(|&o| used_values(ctx, o)).collect();
    // The blocks allocated so far: (block, its size).
    let mut blocks: Vec<(Value, Bytes)> = Vec::new();
    for &o in &ops {
        if ctx.op_name(o) != "mem.alloc" {
            continue;
        }
        let m2 = ctx.result(o, 0);
        let need = bytes_of(ctx, ctx.operands(o)[0]);
        let Some(arrays2) = bound_arrays(ctx, m2) else { continue };
        // The first op writing into `m2`.
        let writer = arrays2
            .iter()
            .filter_map(|&a| ctx.defining_op(a).and_then(|d| pos.get(&d)))
            .min()
            .copied();
        let mut taken = None;
        if let Some(w) = writer {
            for (m1, have) in &blocks {
                let Some(arrays1) = bound_arrays(ctx, *m1) else {
                    continue;
                };
                if !fits(have, &need) {
                    continue;
                }
                if last_use(ctx, &ops, &pos, &uses, &arrays1).is_some_and(|l| l < w) {
                    taken = Some(*m1);
                    break;
                }
            }
        }
        match taken {
            // The byte computation left unused is `ir-dce`'s.
            Some(m1) => {
                ctx.replace_all_uses(m2, m1);
                ctx.erase_op(o);
            }
            None => blocks.push((m2, need)),
        }
    }
}
