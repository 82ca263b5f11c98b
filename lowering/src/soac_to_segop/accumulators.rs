//! Accumulator streams as sequential loops (Note [Sequential
//! accumulators]).

use futmlir_dialects::ir::{
    BlockId, Builder, Context, Diagnostic, InsertPoint, OpId, RegionId, Scalar, TypeKind, Value, ValueMap,
};
use futmlir_dialects::soac::acc_stream;

use super::row_type;
use super::sequential::{replace_by_loop, rows};

// Note [Sequential accumulators]
// A `soac.scatter_stream` or `soac.hist_stream` (Note [Accumulator ops] in
// the soac dialect) becomes a `for` loop over its input rows whose merge
// parameter is the accumulator, starting at the destination: the lambda's
// body, inlined, runs for row `j` with the accumulator so far. Each
// `soac.acc_write acc i v` tied to the stream becomes
//
//   if 0 <= i < size(acc) then update(acc, i, v')  else acc
//
// with `v' = v` (scatter) or `op(acc[i], v)` (hist, its operator inlined).
// Running the rows in order is one of the orders the stream allows, and
// the accumulator is unique, so the updates are in place. This runs on
// the host for a stream at host level (each write then is one small
// update of device memory on CUDA), and inside a thread for a stream in
// a lambda, as Note [Sequential writes] does for scatter and hist. A
// parallel kernel (a segmap whose writes are stores, or atomics for the
// operators seghist knows) is not done yet.

/// Rewrites every accumulator stream under `root` (Note [Sequential
/// accumulators]); an error names a write that belongs to no stream.
pub fn sequential_accumulators(ctx: &mut Context, root: OpId) -> Result<(), Diagnostic> {
    let mut streams = Vec::new();
    ctx.walk(root, &mut |o| {
        if matches!(ctx.op_name(o), "soac.scatter_stream" | "soac.hist_stream") {
            streams.push(o);
        }
    });
    // Innermost first: an outer stream's writes are then all its own.
    for o in streams.into_iter().rev() {
        lower_stream(ctx, o);
    }
    let mut stray = None;
    ctx.walk(root, &mut |o| {
        if stray.is_none() && ctx.op_name(o) == "soac.acc_write" {
            stray = Some(o);
        }
    });
    match stray {
        Some(w) => Err(Diagnostic::error(
            ctx.location(w),
            "the compiled backends do not support an accumulator passed to a function that is not inlined (#[noinline] or recursive) yet",
        )),
        None => Ok(()),
    }
}

fn lower_stream(ctx: &mut Context, o: OpId) {
    let hist = ctx.op_name(o) == "soac.hist_stream";
    let regions = ctx.regions(o).to_vec();
    let operator = hist.then(|| regions[0]);
    let lambda = ctx.blocks(*regions.last().expect("a stream has a lambda"))[0];
    let mut writes = Vec::new();
    ctx.walk(o, &mut |w| {
        if ctx.op_name(w) == "soac.acc_write" {
            writes.push(w);
        }
    });
    // Which writes are the stream's is decided before any is rewritten:
    // a rewritten write is an `if`, which `acc_stream` does not follow.
    writes.retain(|&w| acc_stream(ctx, ctx.operands(w)[0]) == Some(o));
    for w in writes {
        guarded_write(ctx, w, operator);
    }
    let ops = ctx.operands(o).to_vec();
    let (n, dest) = (ops[0], ops[1]);
    let bs = ops[if hist { 3 } else { 2 }..].to_vec();
    replace_by_loop(ctx, o, n, &[dest], |ctx, b, j, acc| {
        let mut args = vec![acc[0]];
        args.extend(rows(ctx, b, &bs, j));
        ctx.inline_block(lambda, &args, InsertPoint::End(b))
    });
}

/// Replaces `acc_write(acc, i, v)` `w` by the guarded update of Note
/// [Sequential accumulators], combining with `operator` where given.
fn guarded_write(ctx: &mut Context, w: OpId, operator: Option<RegionId>) {
    let [acc, i, v] = ctx.operands(w).to_vec()[..] else {
        unreachable!("the verifier checked acc_write's three operands")
    };
    let t = ctx.value_type(acc);
    let i64t = ctx.scalar(Scalar::I64);
    let boolt = ctx.scalar(Scalar::Bool);
    let before = |ctx: &mut Context, name: &str, operands: &[Value], result, attrs: &[(&str, _)]| {
        let op = Builder::before(ctx, w).op(name, operands, &[result], attrs, Vec::new());
        ctx.result(op, 0)
    };
    let dim = ctx.int_attr(0, Scalar::I64);
    let size = before(ctx, "soac.size", &[acc], i64t, &[("dim", dim)]);
    let zero = ctx.int_attr(0, Scalar::I64);
    let zero = before(ctx, "soac.constant", &[], i64t, &[("value", zero)]);
    let ge = ctx.string_attr("ge");
    let ge = before(ctx, "soac.cmpop", &[i, zero], boolt, &[("kind", ge)]);
    let lt = ctx.string_attr("lt");
    let lt = before(ctx, "soac.cmpop", &[i, size], boolt, &[("kind", lt)]);
    let and = ctx.string_attr("and");
    let ok = before(ctx, "soac.binop", &[ge, lt], boolt, &[("kind", and)]);
    let then = ctx.create_region();
    let tb = ctx.append_block(then, &[]);
    let new = match operator {
        Some(r) => combine(ctx, tb, r, acc, i, v),
        None => v,
    };
    let u = Builder::at_end(ctx, tb).op("soac.update", &[acc, i, new], &[t], &[], Vec::new());
    let u = ctx.result(u, 0);
    Builder::at_end(ctx, tb).op("soac.yield", &[u], &[], &[], Vec::new());
    let els = ctx.create_region();
    let eb = ctx.append_block(els, &[]);
    Builder::at_end(ctx, eb).op("soac.yield", &[acc], &[], &[], Vec::new());
    let r = Builder::before(ctx, w).op("soac.if", &[ok], &[t], &[], vec![then, els]);
    let r = ctx.result(r, 0);
    ctx.replace_op(w, &[r]);
}

/// `op(acc[i], v)` built at the end of `b`, the operator region `op`
/// inlined; a row that is an array is copied, since the update that
/// follows replaces the row the operator may have returned a view of.
fn combine(ctx: &mut Context, b: BlockId, op: RegionId, acc: Value, i: Value, v: Value) -> Value {
    let rt = row_type(ctx, acc);
    let cur = Builder::at_end(ctx, b).op("soac.index", &[acc, i], &[rt], &[], Vec::new());
    let cur = ctx.result(cur, 0);
    let opb = ctx.blocks(op)[0];
    let mut vm = ValueMap::default();
    for (&p, &a) in ctx.block_args(opb).to_vec().iter().zip(&[cur, v]) {
        vm.insert(p, a);
    }
    let r = ctx.inline_block_mapped(opb, &mut vm, InsertPoint::End(b))[0];
    if matches!(ctx.type_kind(ctx.value_type(r)), TypeKind::Array { .. }) {
        let c = Builder::at_end(ctx, b).op("soac.copy", &[r], &[rt], &[], Vec::new());
        ctx.result(c, 0)
    } else {
        r
    }
}
