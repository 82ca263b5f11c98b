//! Map distribution (thesis rule G4): a host-level map whose lambda holds
//! parallel SOACs among other code becomes several maps, one per SOAC and
//! one per run of other code between them, communicating through arrays
//! with one row per iteration of the original map. Each SOAC's map is
//! then a perfect nest, which kernel extraction flattens. A loop with
//! inner parallelism gets a map of its own likewise, which
//! [`super::interchange`] turns into a loop of maps.
//!
//! A map is left alone when its lambda holds no SOAC over a size from
//! outside it (nothing to gain), when it is a perfect nest already, or
//! when a value that must cross between the new maps has a type whose
//! sizes are computed inside the lambda (its array of rows would have no
//! type to name them).

use std::collections::{HashMap, HashSet};

use futmlir_dialects::ir::{Builder, Context, Dim, OpId, Type, TypeKind, Value, ValueMap};
use futmlir_passes::ir::is_pure;
use futmlir_passes::soac::analysis::{defined_inside as defined_in, reads};

use super::interchange::interchangeable;

/// SOACs worth a map (and so a kernel) of their own.
const PARALLEL: &[&str] = &["soac.map", "soac.reduce", "soac.scan", "soac.redomap", "soac.scanomap"];

/// Distributes map `m` if it should; the new maps, in order (empty when
/// `m` stays as it is).
/// Whether the lambda (region `r`) of `holder` runs a parallel SOAC over
/// a size from outside `holder`: inner parallelism worth kernels.
pub fn has_inner_parallelism(ctx: &Context, holder: OpId, r: usize) -> bool {
    let lam = ctx.blocks(ctx.regions(holder)[r])[0];
    ctx.block_ops(lam).any(|o| parallel(ctx, o, holder))
}

/// Whether `o`, in the lambda of `holder`, is a parallel SOAC over a size
/// from outside `holder`, or a loop to interchange with it.
pub(super) fn parallel(ctx: &Context, o: OpId, holder: OpId) -> bool {
    (PARALLEL.contains(&ctx.op_name(o)) && !defined_in(ctx, ctx.operand(o, 0), holder))
        || interchangeable(ctx, o, holder)
}

/// A redomap or scanomap whose lambda has inner parallelism as a map of
/// its lambda, then a reduce or scan of the values it combines (the map
/// can then be distributed). The new map and reduce or scan.
/// `o`'s `commutative` attribute, if it has one, for an op made from it.
pub(super) fn commutative_attr(ctx: &Context, o: OpId) -> Vec<(&'static str, futmlir_dialects::ir::Attr)> {
    ctx.attr(o, "commutative")
        .map(|a| ("commutative", a))
        .into_iter()
        .collect()
}

pub fn split_redomap(ctx: &mut Context, o: OpId) -> (OpId, OpId) {
    let scan = ctx.op_name(o) == "soac.scanomap";
    let regions = ctx.regions(o).to_vec();
    let k = ctx.block_args(ctx.blocks(regions[0])[0]).len() / 2;
    let ops = ctx.operands(o).to_vec();
    let (n, nes, inputs) = (ops[0], ops[1..1 + k].to_vec(), &ops[1 + k..]);
    let lam_types: Vec<Type> = {
        let lam = ctx.blocks(regions[1])[0];
        let term = ctx.last_op(lam).expect("a lambda ends in a yield");
        ctx.operands(term).iter().map(|&v| ctx.value_type(v)).collect()
    };
    let types: Vec<Type> = lam_types.iter().map(|&t| rows_of(ctx, n, t)).collect();
    let lambda = ctx.create_region();
    ctx.clone_region_into(regions[1], lambda, &mut ValueMap::default());
    let mut operands = vec![n];
    operands.extend_from_slice(inputs);
    let m = Builder::before(ctx, o).op("soac.map", &operands, &types, &[], vec![lambda]);
    let mapped: Vec<Value> = ctx.results(m).collect();
    let operator = ctx.create_region();
    ctx.clone_region_into(regions[0], operator, &mut ValueMap::default());
    let mut operands = vec![n];
    operands.extend(nes);
    operands.extend_from_slice(&mapped[..k]);
    let combined_types: Vec<Type> = ctx.results(o).take(k).map(|r| ctx.value_type(r)).collect();
    let attrs = commutative_attr(ctx, o);
    let name = if scan { "soac.scan" } else { "soac.reduce" };
    let r = Builder::before(ctx, o).op(name, &operands, &combined_types, &attrs, vec![operator]);
    let mut new: Vec<Value> = ctx.results(r).collect();
    new.extend_from_slice(&mapped[k..]);
    ctx.replace_op(o, &new);
    (m, r)
}

pub fn distribute(ctx: &mut Context, m: OpId) -> Vec<OpId> {
    let lam = ctx.blocks(ctx.regions(m)[0])[0];
    let ops: Vec<OpId> = ctx.block_ops(lam).collect();
    let Some((term, body)) = ops.split_last() else {
        return Vec::new();
    };
    let inside = |ctx: &Context, v: Value| defined_in(ctx, v, m);
    let parallel = |ctx: &Context, o: OpId| parallel(ctx, o, m);
    if body.len() < 2 || !body.iter().any(|&o| parallel(ctx, o)) {
        return Vec::new();
    }
    // The groups: each parallel SOAC alone, the runs of other ops between.
    let mut groups: Vec<Vec<OpId>> = Vec::new();
    let mut run: Vec<OpId> = Vec::new();
    for &o in body {
        if parallel(ctx, o) {
            if !run.is_empty() {
                groups.push(std::mem::take(&mut run));
            }
            groups.push(vec![o]);
        } else {
            run.push(o);
        }
    }
    if !run.is_empty() {
        groups.push(run);
    }
    // What each group must give the groups after it and the yield.
    let params: Vec<Value> = ctx.block_args(lam).to_vec();
    let inputs: Vec<Value> = ctx.operands(m)[1..].to_vec();
    let n = ctx.operand(m, 0);
    let mut later_uses: HashSet<Value> = ctx.operands(*term).iter().copied().collect();
    let mut outputs: Vec<Vec<Value>> = vec![Vec::new(); groups.len()];
    for (g, group) in groups.iter().enumerate().rev() {
        let results: Vec<Value> = group.iter().flat_map(|&o| ctx.results(o)).collect();
        outputs[g] = if group.len() == 1 && parallel(ctx, group[0]) {
            // All of a SOAC's (or loop's) results, so that its map is a
            // perfect nest (or one to interchange).
            results
        } else {
            results.into_iter().filter(|v| later_uses.contains(v)).collect()
        };
        for &o in group {
            later_uses.extend(reads(ctx, o, true));
        }
    }
    // Every crossing value needs a type without sizes from inside.
    let crossing_ok = outputs
        .iter()
        .flatten()
        .all(|&v| ctx.type_size_values(ctx.value_type(v)).iter().all(|&s| !inside(ctx, s)));
    let effects_kept = groups
        .iter()
        .zip(&outputs)
        .all(|(g, out)| !out.is_empty() || g.iter().all(|&o| is_pure(ctx, o)));
    if !crossing_ok || !effects_kept {
        return Vec::new();
    }

    // The arrays standing for values of the lambda, one row each.
    let mut array_of: HashMap<Value, Value> = params.iter().copied().zip(inputs.iter().copied()).collect();
    let mut new_maps = Vec::new();
    for (group, out) in groups.iter().zip(&outputs) {
        if out.is_empty() {
            continue;
        }
        // The lambda values the group reads, as rows of arrays.
        let mut needed: Vec<Value> = Vec::new();
        for &o in group {
            for v in reads(ctx, o, true) {
                if array_of.contains_key(&v) && !needed.contains(&v) {
                    needed.push(v);
                }
            }
        }
        let row_types: Vec<Type> = needed.iter().map(|&v| ctx.value_type(v)).collect();
        let region = ctx.create_region();
        let blk = ctx.append_block(region, &row_types);
        let mut map = ValueMap::default();
        for (&v, &p) in needed.iter().zip(ctx.block_args(blk).to_vec().iter()) {
            map.insert(v, p);
        }
        for &o in group {
            let c = ctx.clone_op(o, &mut map);
            Builder::at_end(ctx, blk).insert(c);
        }
        let yields: Vec<Value> = out.iter().map(|&v| map.get(v)).collect();
        Builder::at_end(ctx, blk).op("soac.yield", &yields, &[], &[], Vec::new());
        let mut operands = vec![n];
        operands.extend(needed.iter().map(|v| array_of[v]));
        let types: Vec<Type> = out.iter().map(|&v| rows_of(ctx, n, ctx.value_type(v))).collect();
        let nm = Builder::before(ctx, m).op("soac.map", &operands, &types, &[], vec![region]);
        for (&v, r) in out.iter().zip(ctx.results(nm).collect::<Vec<_>>()) {
            array_of.insert(v, r);
        }
        new_maps.push(nm);
    }
    // The map's results: the arrays of what its lambda yielded.
    let yields: Vec<Value> = ctx.operands(*term).to_vec();
    let mut results = Vec::new();
    for (y, r) in yields.into_iter().zip(ctx.results(m).collect::<Vec<_>>()) {
        let v = match array_of.get(&y) {
            Some(&a) => a,
            None => {
                // A value from outside the map, the same in every row.
                let t = ctx.value_type(r);
                let rep = Builder::before(ctx, m).op("soac.replicate", &[n, y], &[t], &[], Vec::new());
                ctx.result(rep, 0)
            }
        };
        results.push(v);
    }
    ctx.replace_op(m, &results);
    new_maps
}

/// The type of an array of `n` rows of type `t`.
pub(super) fn rows_of(ctx: &mut Context, n: Value, t: Type) -> Type {
    let (elem, rest) = match ctx.type_kind(t).clone() {
        TypeKind::Array { elem, shape } => (elem, shape),
        _ => (t, Vec::new()),
    };
    let mut shape = vec![Dim::Value(n)];
    shape.extend(rest);
    ctx.intern_type(TypeKind::Array { elem, shape })
}
