//! Accumulator streams as scatters and histograms where their writes
//! allow (Note [Accumulators as scatter and hist]), else as sequential
//! loops (Note [Sequential accumulators]).

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, Dim, InsertPoint, OpId, RegionId, Scalar, TypeKind, Value,
    ValueMap,
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
// a lambda, as Note [Sequential writes] does for scatter and hist. It is
// the fallback for the streams that Note [Accumulators as scatter and
// hist] cannot make parallel: those writing in a loop or a branch.

// Note [Accumulators as scatter and hist]
// Where a stream's lambda writes a fixed number `w > 0` of times, the
// writes a chain in the lambda's own block (`acc -> write -> ... -> write
// -> yield`, no loop or branch carrying the accumulator), the stream is
// an ordinary SOAC:
//
//   scatter_stream: a `soac.scatter` (`num_writes = [w]` for w > 1), its
//                   lambda the stream's without the writes, yielding
//                   their indices and then their values: a segmap whose
//                   writes are direct stores;
//   hist_stream:    `w` `soac.hist`s in a row, the `j`-th with the
//                   lambda yielding the `j`-th write's index and value
//                   (simplification leaves each the code its write
//                   needs): each a `segop.seghist`, with atomics for the
//                   operators `segop-to-imp` knows and its general path
//                   for the others. The operator is associative and
//                   commutative, so the order of the hists is free.
//
// Kernel extraction then makes them kernels like any scatter or hist
// (host level), or loops (in a lambda, Note [Sequential writes]). Two
// writes of one row to one index: in the stream the later wins; a
// scatter leaves that unspecified (its segmap writes them in order, so
// the later wins there too). A stream that writes nothing is left to
// `soac-simplify` (Note [Simplifying accumulators]), which removes it
// unless its lambda has effects (an assertion); the loop keeps those.

/// Rewrites every accumulator stream under `root` into a scatter or
/// hists (Note [Accumulators as scatter and hist]) or a loop (Note
/// [Sequential accumulators]); an error names a write that belongs to no
/// stream.
pub fn accumulator_streams(ctx: &mut Context, root: OpId) -> Result<(), Diagnostic> {
    let mut streams = Vec::new();
    ctx.walk(root, &mut |o| {
        if matches!(ctx.op_name(o), "soac.scatter_stream" | "soac.hist_stream") {
            streams.push(o);
        }
    });
    // Innermost first: an outer stream's writes are then all its own.
    for o in streams.into_iter().rev() {
        match write_chain(ctx, o) {
            Some(writes) if !writes.is_empty() => as_scatter_or_hist(ctx, o, &writes),
            _ => lower_stream(ctx, o),
        }
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
            "the compiled backends do not support this accumulator write yet: its accumulator does not come from an enclosing \
             scatter_stream or hist_stream through writes, loops and branches (it was passed to a function that is not \
             inlined, #[noinline] or recursive, or into another SOAC's lambda)",
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

/// The writes of stream `o`'s lambda when they are a chain in its block
/// (Note [Accumulators as scatter and hist]), in order.
fn write_chain(ctx: &Context, o: OpId) -> Option<Vec<OpId>> {
    let lambda = ctx.blocks(*ctx.regions(o).last()?)[0];
    let mut acc = ctx.block_args(lambda)[0];
    let mut writes = Vec::new();
    loop {
        let [u] = ctx.uses(acc) else { return None };
        if ctx.parent_block(u.op) != Some(lambda) {
            return None;
        }
        match ctx.op_name(u.op) {
            "soac.acc_write" if u.index == 0 => {
                writes.push(u.op);
                acc = ctx.result(u.op, 0);
            }
            "soac.yield" => return Some(writes),
            _ => return None,
        }
    }
}

/// Replaces stream `o`, whose lambda's writes are the chain `writes`, by
/// a scatter or hists (Note [Accumulators as scatter and hist]).
fn as_scatter_or_hist(ctx: &mut Context, o: OpId, writes: &[OpId]) {
    let hist = ctx.op_name(o) == "soac.hist_stream";
    let ops = ctx.operands(o).to_vec();
    let (n, dest) = (ops[0], ops[1]);
    let bs = ops[if hist { 3 } else { 2 }..].to_vec();
    let regions = ctx.regions(o).to_vec();
    let lambda = ctx.blocks(*regions.last().expect("a stream has a lambda"))[0];
    let t = ctx.value_type(dest);
    if !hist {
        let region = lambda_of_writes(ctx, lambda, writes, 0..writes.len());
        let mut operands = vec![n];
        operands.extend_from_slice(&bs);
        operands.push(dest);
        let mut attrs = Vec::new();
        if writes.len() > 1 {
            let w = ctx.int_attr(writes.len() as i64, Scalar::I64);
            attrs.push(("num_writes", ctx.intern_attr(AttrKind::Array(vec![w]))));
        }
        let s = Builder::before(ctx, o).op("soac.scatter", &operands, &[t], &attrs, vec![region]);
        let r = ctx.result(s, 0);
        ctx.replace_op(o, &[r]);
        return;
    }
    // The histogram's size is the destination's, as its type names it.
    let i64t = ctx.scalar(Scalar::I64);
    let w = match ctx.type_kind(t) {
        TypeKind::Array { shape, .. } => shape.first().copied(),
        _ => None,
    };
    let w = match w {
        Some(Dim::Value(v)) => v,
        Some(Dim::Const(c)) => {
            let c = ctx.int_attr(c as i64, Scalar::I64);
            let w = Builder::before(ctx, o).op("soac.constant", &[], &[i64t], &[("value", c)], Vec::new());
            ctx.result(w, 0)
        }
        _ => {
            let dim = ctx.int_attr(0, Scalar::I64);
            let w = Builder::before(ctx, o).op("soac.size", &[dest], &[i64t], &[("dim", dim)], Vec::new());
            ctx.result(w, 0)
        }
    };
    let mut acc = dest;
    for j in 0..writes.len() {
        let operator = ctx.create_region();
        ctx.clone_region_into(regions[0], operator, &mut ValueMap::default());
        let region = lambda_of_writes(ctx, lambda, writes, j..j + 1);
        let mut operands = vec![n, w, acc, ops[2]];
        operands.extend_from_slice(&bs);
        let h = Builder::before(ctx, o).op("soac.hist", &operands, &[t], &[], vec![operator, region]);
        acc = ctx.result(h, 0);
    }
    ctx.replace_op(o, &[acc]);
}

/// A lambda over the rows of a stream's inputs: the stream's `lambda`
/// without the accumulator and its `writes`, yielding the indices of
/// the writes `pick`, then their values.
fn lambda_of_writes(ctx: &mut Context, lambda: BlockId, writes: &[OpId], pick: std::ops::Range<usize>) -> RegionId {
    let params = ctx.block_args(lambda)[1..].to_vec();
    let types: Vec<_> = params.iter().map(|&p| ctx.value_type(p)).collect();
    let region = ctx.create_region();
    let b = ctx.append_block(region, &types);
    let mut vm = ValueMap::default();
    for (&p, &a) in params.iter().zip(ctx.block_args(b).to_vec().iter()) {
        vm.insert(p, a);
    }
    let body: Vec<OpId> = ctx.block_ops(lambda).collect();
    for &op in &body[..body.len() - 1] {
        if writes.contains(&op) {
            continue;
        }
        let c = ctx.clone_op(op, &mut vm);
        Builder::at_end(ctx, b).insert(c);
    }
    let picked = &writes[pick];
    let mut ys: Vec<Value> = picked.iter().map(|&w| vm.get(ctx.operands(w)[1])).collect();
    ys.extend(picked.iter().map(|&w| vm.get(ctx.operands(w)[2])));
    Builder::at_end(ctx, b).op("soac.yield", &ys, &[], &[], Vec::new());
    region
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
