//! Scatters and histograms as sequential loops (Note [Sequential writes]).

use futmlir_dialects::ir::{Builder, Context, InsertPoint, OpId, Scalar, Type, TypeKind, Value, ValueMap};

use super::{at_host_level, row_type};

// Note [Sequential writes]
// A `scatter` or `hist` inside another SOAC's lambda (a thread's work:
// `map (\x -> scatter (copy x) is vs) xss`), and a `hist` whose buckets
// are arrays (`reduce_by_index` with `map2 (+)`), have no segop form
// here. They become `for` loops over their input rows, writing in place:
//
//   scatter: for i < n: each destination j gets value j at index j, when
//            the index is in bounds (out-of-bounds writes are ignored);
//   hist:    for i < n: when the bucket b is in bounds, each destination
//            j gets op(dest_j[b], value_j) at b.
//
// The destinations are the loops' merge parameters (they are consumed by
// the scatter or hist, so updating them in place is allowed). Host-level
// scatters and hists of scalars keep their kernels.

/// Rewrites the scatters and hists under `root` that need it (Note
/// [Sequential writes]).
pub fn sequential_writes(ctx: &mut Context, root: OpId) {
    let mut found = Vec::new();
    ctx.walk(root, &mut |o| {
        let name = ctx.op_name(o);
        if (name == "soac.scatter" && !at_host_level(ctx, o))
            || (name == "soac.hist" && (!at_host_level(ctx, o) || hist_of_arrays(ctx, o)))
        {
            found.push(o);
        }
    });
    // Innermost first (an outer rewrite clones its lambda).
    for o in found.into_iter().rev() {
        if ctx.op_name(o) == "soac.scatter" {
            scatter(ctx, o);
        } else {
            hist(ctx, o);
        }
    }
}

fn is_array(ctx: &Context, v: Value) -> bool {
    matches!(ctx.type_kind(ctx.value_type(v)), TypeKind::Array { .. })
}

fn hist_of_arrays(ctx: &Context, o: OpId) -> bool {
    let op = ctx.blocks(ctx.regions(o)[0])[0];
    ctx.block_args(op).iter().any(|&a| is_array(ctx, a))
}

/// A `for` loop over `n` with merge parameters starting at `dests`, whose
/// body `body` builds at the end of the block, given the index and the
/// merge parameters, returning the next merge values. Replaces `o`.
pub(super) fn replace_by_loop(
    ctx: &mut Context,
    o: OpId,
    n: Value,
    dests: &[Value],
    body: impl FnOnce(&mut Context, futmlir_dialects::ir::BlockId, Value, &[Value]) -> Vec<Value>,
) {
    let types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let mut arg_types = vec![ctx.scalar(Scalar::I64)];
    arg_types.extend_from_slice(&types);
    let region = ctx.create_region();
    let lb = ctx.append_block(region, &arg_types);
    let args: Vec<Value> = ctx.block_args(lb).to_vec();
    let next = body(ctx, lb, args[0], &args[1..]);
    Builder::at_end(ctx, lb).op("soac.yield", &next, &[], &[], Vec::new());
    let mut operands = vec![n];
    operands.extend_from_slice(dests);
    let form = ctx.string_attr("for");
    let lp = Builder::before(ctx, o).op("soac.loop", &operands, &types, &[("form", form)], vec![region]);
    let results: Vec<Value> = ctx.results(lp).collect();
    ctx.replace_op(o, &results);
}

/// The rows at `i` of `xs`, read at the end of `b`.
pub(super) fn rows(ctx: &mut Context, b: futmlir_dialects::ir::BlockId, xs: &[Value], i: Value) -> Vec<Value> {
    xs.iter()
        .map(|&x| {
            let rt = row_type(ctx, x);
            let r = Builder::at_end(ctx, b).op("soac.index", &[x, i], &[rt], &[], Vec::new());
            ctx.result(r, 0)
        })
        .collect()
}

/// The rows at `i` of `xs`, bound to the arguments of `lambda`'s block,
/// and the lambda inlined at the end of `b`: what it yields.
fn apply_lambda(
    ctx: &mut Context,
    b: futmlir_dialects::ir::BlockId,
    lambda: futmlir_dialects::ir::BlockId,
    xs: &[Value],
    i: Value,
) -> Vec<Value> {
    let rows = rows(ctx, b, xs, i);
    ctx.inline_block(lambda, &rows, InsertPoint::End(b))
}

/// Whether `0 <= idx < size of d's outer dimension`, built at the end of `b`.
fn in_bounds(ctx: &mut Context, b: futmlir_dialects::ir::BlockId, d: Value, idx: Value) -> Value {
    let i64t = ctx.scalar(Scalar::I64);
    let boolt = ctx.scalar(Scalar::Bool);
    let dim = ctx.int_attr(0, Scalar::I64);
    let w = Builder::at_end(ctx, b).op("soac.size", &[d], &[i64t], &[("dim", dim)], Vec::new());
    let w = ctx.result(w, 0);
    let zero = ctx.int_attr(0, Scalar::I64);
    let z = Builder::at_end(ctx, b).op("soac.constant", &[], &[i64t], &[("value", zero)], Vec::new());
    let z = ctx.result(z, 0);
    let cmp = |ctx: &mut Context, kind: &str, x: Value, y: Value| {
        let k = ctx.string_attr(kind);
        let c = Builder::at_end(ctx, b).op("soac.cmpop", &[x, y], &[boolt], &[("kind", k)], Vec::new());
        ctx.result(c, 0)
    };
    let ge = cmp(ctx, "ge", idx, z);
    let lt = cmp(ctx, "lt", idx, w);
    let and = ctx.string_attr("and");
    let c = Builder::at_end(ctx, b).op("soac.binop", &[ge, lt], &[boolt], &[("kind", and)], Vec::new());
    ctx.result(c, 0)
}

/// `if c then (then_ builds the values) else dests`, at the end of `b`.
fn guarded(
    ctx: &mut Context,
    b: futmlir_dialects::ir::BlockId,
    c: Value,
    dests: &[Value],
    then_: impl FnOnce(&mut Context, futmlir_dialects::ir::BlockId) -> Vec<Value>,
) -> Vec<Value> {
    let types: Vec<Type> = dests.iter().map(|&d| ctx.value_type(d)).collect();
    let rt = ctx.create_region();
    let tb = ctx.append_block(rt, &[]);
    let ys = then_(ctx, tb);
    Builder::at_end(ctx, tb).op("soac.yield", &ys, &[], &[], Vec::new());
    let re = ctx.create_region();
    let eb = ctx.append_block(re, &[]);
    Builder::at_end(ctx, eb).op("soac.yield", dests, &[], &[], Vec::new());
    let r = Builder::at_end(ctx, b).op("soac.if", &[c], &types, &[], vec![rt, re]);
    ctx.results(r).collect()
}

fn update(ctx: &mut Context, b: futmlir_dialects::ir::BlockId, d: Value, i: Value, x: Value) -> Value {
    let t = ctx.value_type(d);
    let u = Builder::at_end(ctx, b).op("soac.update", &[d, i, x], &[t], &[], Vec::new());
    ctx.result(u, 0)
}

fn scatter(ctx: &mut Context, o: OpId) {
    let k = ctx.num_results(o);
    let ops: Vec<Value> = ctx.operands(o).to_vec();
    let n = ops[0];
    let (xs, dests) = ops[1..].split_at(ops.len() - 1 - k);
    let (xs, dests) = (xs.to_vec(), dests.to_vec());
    let lambda = ctx.blocks(ctx.regions(o)[0])[0];
    replace_by_loop(ctx, o, n, &dests, |ctx, b, i, ds| {
        let ys = apply_lambda(ctx, b, lambda, &xs, i);
        let mut next = Vec::new();
        for (j, &d) in ds.iter().enumerate() {
            let (idx, v) = (ys[j], ys[k + j]);
            let c = in_bounds(ctx, b, d, idx);
            let out = guarded(ctx, b, c, &[d], |ctx, tb| vec![update(ctx, tb, d, idx, v)]);
            next.push(out[0]);
        }
        next
    });
}

fn hist(ctx: &mut Context, o: OpId) {
    let k = ctx.num_results(o);
    let ops: Vec<Value> = ctx.operands(o).to_vec();
    let n = ops[0];
    let dests = ops[2..2 + k].to_vec();
    let xs = ops[2 + 2 * k..].to_vec();
    let op = ctx.blocks(ctx.regions(o)[0])[0];
    let lambda = ctx.blocks(ctx.regions(o)[1])[0];
    replace_by_loop(ctx, o, n, &dests, |ctx, b, i, ds| {
        let ys = apply_lambda(ctx, b, lambda, &xs, i);
        let bucket = ys[0];
        let c = in_bounds(ctx, b, ds[0], bucket);
        let ds = ds.to_vec();
        guarded(ctx, b, c, &ds, |ctx, tb| {
            let mut args = Vec::new();
            for &d in &ds {
                let rt = row_type(ctx, d);
                let r = Builder::at_end(ctx, tb).op("soac.index", &[d, bucket], &[rt], &[], Vec::new());
                args.push(ctx.result(r, 0));
            }
            args.extend_from_slice(&ys[1..]);
            // The operator may update its first argument in place: it is
            // a row of the destination, which the update replaces.
            let mut vm = ValueMap::default();
            for (&p, &a) in ctx.block_args(op).to_vec().iter().zip(&args) {
                vm.insert(p, a);
            }
            let combined = ctx.inline_block_mapped(op, &mut vm, InsertPoint::End(tb));
            ds.iter()
                .zip(combined)
                .map(|(&d, v)| {
                    let v = if is_array(ctx, v) {
                        let t = ctx.value_type(v);
                        let c = Builder::at_end(ctx, tb).op("soac.copy", &[v], &[t], &[], Vec::new());
                        ctx.result(c, 0)
                    } else {
                        v
                    };
                    update(ctx, tb, d, bucket, v)
                })
                .collect()
        })
    });
}
