//! Map-loop interchange (thesis rule G7): a host-level map whose lambda
//! is only a `for` loop with inner parallelism becomes the loop around a
//! map of its body,
//!
//! ```text
//! map (\x -> loop acc = a for i < k do body) xs
//!   =>  loop accs = as for i < k do map (\acc x -> body) accs xs
//! ```
//!
//! where `as` is the array of the initial values (the input itself for a
//! lambda parameter, a `replicate` for a value from outside). The new
//! map is at host level, so kernel extraction flattens its body's
//! parallelism (one kernel per iteration instead of one sequential loop
//! per thread). Map distribution (G4) makes such a loop the sole op of
//! a map of its own first.
//!
//! A perfect map nest over such a loop is interchanged from the inside
//! out, so the loop ends up outside the whole nest.
//!
//! Only when the trip count comes from outside the map (each thread runs
//! the loop as often), when the merge parameters' sizes come from outside
//! it too (the loop's arrays of rows have a type), and when the body runs
//! a parallel SOAC over a size from outside the map (or, nested, another
//! such loop): a sequential loop per thread is otherwise as good.

use std::collections::HashSet;

use futmlir_dialects::ir::{BlockId, Builder, Context, OpId, Type, Value, ValueMap};
use futmlir_passes::soac::analysis::{cannot_fail, defined_inside as defined_in, loop_offset, reads};

use super::distribute::{parallel, rows_of};
use super::sole_op;

/// Whether `o`, in the lambda of map `m`, is a loop that [`interchange`]
/// would move out of `m`.
pub fn interchangeable(ctx: &Context, o: OpId, m: OpId) -> bool {
    let is_for = loop_offset(ctx, o) == Some(1);
    if ctx.op_name(o) != "soac.loop" || !is_for || defined_in(ctx, ctx.operand(o, 0), m) {
        return false;
    }
    let body = ctx.blocks(ctx.regions(o)[0])[0];
    let merge_ok = ctx.block_args(body)[1..]
        .iter()
        .all(|&p| sizes_outside(ctx, ctx.value_type(p), m));
    merge_ok && ctx.block_ops(body).any(|b| parallel(ctx, b, m))
}

/// Moves the scalar ops of map body `mb` that cannot fail (no division
/// that a test before it guards, no indexing) and read none of its rows
/// (directly or through other such ops: `f32.i64 i` of the loop index)
/// to the end of the loop body `lb`, before the map: computed once per
/// iteration, not once per row (and not distributed into a map of their
/// own). Ops with regions (SOACs) stay: the map's extraction handles them.
fn hoist_invariant(ctx: &mut Context, mb: BlockId, lb: BlockId) {
    let mut varying: HashSet<Value> = ctx.block_args(mb).iter().copied().collect();
    let ops: Vec<OpId> = ctx.block_ops(mb).collect();
    for o in ops {
        let invariant = ctx.regions(o).is_empty()
            && ctx.op_name(o) != "soac.yield"
            && cannot_fail(ctx, o)
            && ctx.operands(o).iter().all(|v| !varying.contains(v));
        if invariant {
            ctx.move_op_to_end(o, lb);
        } else {
            varying.extend(ctx.results(o));
        }
    }
}

/// Whether map `x` (in the lambda of `m`) is a perfect nest whose
/// innermost lambda is only a loop that could move out of `m`.
fn ends_in_loop(ctx: &Context, x: OpId, m: OpId) -> bool {
    let Some((sole, _)) = sole_op(ctx, ctx.blocks(ctx.regions(x)[0])[0]) else {
        return false;
    };
    match ctx.op_name(sole) {
        "soac.loop" => interchangeable(ctx, sole, m),
        "soac.map" => ends_in_loop(ctx, sole, m),
        _ => false,
    }
}

/// Whether every size of type `t` is defined outside `m`.
fn sizes_outside(ctx: &Context, t: Type, m: OpId) -> bool {
    ctx.type_size_values(t).iter().all(|&s| !defined_in(ctx, s, m))
}

/// Interchanges map `m` with the loop that is its lambda's only op, if
/// [`interchangeable`]; the new map in the loop's body.
pub fn interchange(ctx: &mut Context, m: OpId) -> Option<OpId> {
    let lam = ctx.blocks(ctx.regions(m)[0])[0];
    let ops: Vec<OpId> = ctx.block_ops(lam).collect();
    let [lp, term] = ops.as_slice() else { return None };
    let (lp, term) = (*lp, *term);
    if ctx.op_name(lp) == "soac.map" && ends_in_loop(ctx, lp, m) {
        // A perfect nest over such a loop: the innermost map first. A
        // replicate may now precede the loop in `m`'s lambda; then the
        // caller distributes `m` and interchanges the loop's map.
        interchange(ctx, lp)?;
        return interchange(ctx, m);
    }
    if !interchangeable(ctx, lp, m) {
        return None;
    }
    // The map yields the loop's results (in any order, any number of
    // times), nothing else.
    let loop_results: Vec<Value> = ctx.results(lp).collect();
    let picks: Vec<usize> = ctx
        .operands(term)
        .iter()
        .map(|v| loop_results.iter().position(|r| r == v))
        .collect::<Option<_>>()?;
    let n = ctx.operand(m, 0);
    let params: Vec<Value> = ctx.block_args(lam).to_vec();
    let inputs: Vec<Value> = ctx.operands(m)[1..].to_vec();
    let input_of = |v: Value| params.iter().position(|&p| p == v).map(|j| inputs[j]);

    // The initial arrays: an input for a lambda parameter, a replicate
    // for a value from outside.
    let count = ctx.operand(lp, 0);
    let inits: Vec<Value> = ctx.operands(lp)[1..].to_vec();
    let mut init_arrays: Vec<Value> = Vec::new();
    for &v in &inits {
        let a = match input_of(v) {
            // An input that starts two merge parameters starts one of them
            // as a copy (the body may update either in place).
            Some(a) if init_arrays.contains(&a) => {
                let t = ctx.value_type(a);
                let c = Builder::before(ctx, m).op("soac.copy", &[a], &[t], &[], Vec::new());
                ctx.result(c, 0)
            }
            Some(a) => a,
            None => {
                let t = ctx.value_type(v);
                let t = rows_of(ctx, n, t);
                let rep = Builder::before(ctx, m).op("soac.replicate", &[n, v], &[t], &[], Vec::new());
                ctx.result(rep, 0)
            }
        };
        init_arrays.push(a);
    }

    // The new loop: its merge parameters are arrays of the old ones.
    let body = ctx.blocks(ctx.regions(lp)[0])[0];
    let old_args: Vec<Value> = ctx.block_args(body).to_vec();
    let mut arg_types = vec![ctx.value_type(old_args[0])];
    for &p in &old_args[1..] {
        let t = ctx.value_type(p);
        arg_types.push(rows_of(ctx, n, t));
    }
    let loop_region = ctx.create_region();
    let lb = ctx.append_block(loop_region, &arg_types);
    let new_args: Vec<Value> = ctx.block_args(lb).to_vec();

    // Its body: a map over the merge arrays and the inputs whose rows the
    // old body reads, running the old body.
    let used: Vec<usize> = {
        let mut used = Vec::new();
        for o in ctx.block_ops(body).collect::<Vec<_>>() {
            for v in reads(ctx, o, true) {
                if let Some(j) = params.iter().position(|&p| p == v) {
                    if !used.contains(&j) {
                        used.push(j);
                    }
                }
            }
        }
        used
    };
    let mut row_types: Vec<Type> = old_args[1..].iter().map(|&p| ctx.value_type(p)).collect();
    row_types.extend(used.iter().map(|&j| ctx.value_type(params[j])));
    let map_region = ctx.create_region();
    let mb = ctx.append_block(map_region, &row_types);
    let rows: Vec<Value> = ctx.block_args(mb).to_vec();
    let mut vm = ValueMap::default();
    vm.insert(old_args[0], new_args[0]);
    for (&p, &r) in old_args[1..].iter().zip(&rows) {
        vm.insert(p, r);
    }
    for (&j, &r) in used.iter().zip(&rows[old_args.len() - 1..]) {
        vm.insert(params[j], r);
    }
    let yields = ctx.inline_block_mapped(body, &mut vm, futmlir_dialects::ir::InsertPoint::End(mb));
    Builder::at_end(ctx, mb).op("soac.yield", &yields, &[], &[], Vec::new());
    hoist_invariant(ctx, mb, lb);
    let mut operands = vec![n];
    operands.extend_from_slice(&new_args[1..]);
    operands.extend(used.iter().map(|&j| inputs[j]));
    let map_types: Vec<Type> = arg_types[1..].to_vec();
    let inner = Builder::at_end(ctx, lb).op("soac.map", &operands, &map_types, &[], vec![map_region]);
    let mapped: Vec<Value> = ctx.results(inner).collect();
    Builder::at_end(ctx, lb).op("soac.yield", &mapped, &[], &[], Vec::new());

    let mut operands = vec![count];
    operands.extend(init_arrays);
    let form = ctx.attr(lp, "form").expect("a for loop has a form");
    let new_loop = Builder::before(ctx, m).op("soac.loop", &operands, &map_types, &[("form", form)], vec![loop_region]);
    let results: Vec<Value> = picks.iter().map(|&p| ctx.result(new_loop, p)).collect();
    ctx.replace_op(m, &results);
    Some(inner)
}
