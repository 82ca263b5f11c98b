//! Reductions whose accumulators are arrays (Note [Array reductions]).

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, InsertPoint, OpId, Scalar, Type, TypeKind, Value, ValueMap,
};

use super::distribute::{commutative_attr, rows_of, split_redomap};
use super::row_type;
use super::sequential::{replace_by_loop, rows};

// Note [Array reductions]
// A `reduce` (or `redomap`) whose operator combines arrays has no
// segmented form here: a segred's accumulators, and the sequential
// reduction a thread runs, are scalars. Before kernel extraction each
// such reduction is rewritten, innermost first:
//
// - a vectorised operator, a `map` of the accumulators and the elements
//   and nothing else (`reduce (map2 (+)) (replicate m 0) xss`), is
//   interchanged with the reduction (thesis ch. 8, the "vectorised
//   reduction" rule): `map (\col ne -> reduce op ne col) (transpose xss)
//   nes`, a segmented reduction over the columns;
// - any other operator (a loop over the arrays, say) runs as a sequential
//   `for` loop over the rows, with the accumulators as merge parameters:
//   correct everywhere, parallel only inside the operator.
//
// A scan with a vectorised operator is interchanged the same way (its
// result transposed back); other scans of arrays run as a sequential loop
// too, with the results as merge parameters updated in place (found by
// `futmlir fuzz`: the simplifier turns a one-wide `map2 op` into an
// index and a `replicate`, which is no vectorised operator). A redomap or
// scanomap is split into its map and a reduce or scan first.

/// Rewrites every reduction under `root` whose accumulators include an
/// array (Note [Array reductions]).
pub fn array_reductions(ctx: &mut Context, root: OpId) {
    let mut found = Vec::new();
    ctx.walk(root, &mut |o| {
        let combine = matches!(
            ctx.op_name(o),
            "soac.reduce" | "soac.redomap" | "soac.scan" | "soac.scanomap"
        );
        if combine && has_array_accumulator(ctx, o) {
            found.push(o);
        }
    });
    // Innermost first: an outer rewrite clones its operator, inner
    // reductions included, which are then already rewritten.
    for o in found.into_iter().rev() {
        let o = if matches!(ctx.op_name(o), "soac.redomap" | "soac.scanomap") {
            split_redomap(ctx, o).1
        } else {
            o
        };
        if !interchange(ctx, o) {
            if ctx.op_name(o) == "soac.reduce" {
                sequential(ctx, o);
            } else {
                sequential_scan(ctx, o);
            }
        }
    }
}

fn rank(ctx: &Context, x: Value) -> usize {
    match ctx.type_kind(ctx.value_type(x)) {
        TypeKind::Array { shape, .. } => shape.len(),
        _ => 0,
    }
}

fn operator_block(ctx: &Context, o: OpId) -> BlockId {
    ctx.blocks(ctx.regions(o)[0])[0]
}

fn has_array_accumulator(ctx: &Context, o: OpId) -> bool {
    let args = ctx.block_args(operator_block(ctx, o));
    args[..args.len() / 2]
        .iter()
        .any(|&a| matches!(ctx.type_kind(ctx.value_type(a)), TypeKind::Array { .. }))
}

/// The vectorised-operator rule; false (and nothing changed) when the
/// operator is not made of `map`s over one width, of its arguments only,
/// whose results it yields.
fn interchange(ctx: &mut Context, o: OpId) -> bool {
    let b = operator_block(ctx, o);
    let args: Vec<Value> = ctx.block_args(b).to_vec();
    let k = args.len() / 2;
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let Some((&term, maps)) = ops.split_last() else {
        return false;
    };
    // The width: the first op's first operand (an op without operands,
    // a constant, is no map and fails the test below).
    let Some(&w) = maps.first().and_then(|&first| ctx.operands(first).first()) else {
        return false;
    };
    let vectorised = |ctx: &Context, m: OpId| {
        ctx.op_name(m) == "soac.map" && ctx.operand(m, 0) == w && ctx.operands(m)[1..].iter().all(|v| args.contains(v))
    };
    let results: Vec<Value> = maps.iter().flat_map(|&m| ctx.results(m)).collect();
    if args.contains(&w)
        || !maps.iter().all(|&m| vectorised(ctx, m))
        || !ctx.operands(term).iter().all(|v| results.contains(v))
        || !ctx.operands(o)[1 + k..].iter().all(|&x| rank(ctx, x) >= 2)
    {
        return false;
    }
    // The inner operator: the maps' lambdas on the rows of the arguments.
    let arg_rows: Vec<Type> = args.iter().map(|&a| row_type(ctx, a)).collect();
    let operator = ctx.create_region();
    let ob = ctx.append_block(operator, &arg_rows);
    let rows: Vec<Value> = ctx.block_args(ob).to_vec();
    let mut of_result = ValueMap::default();
    for &m in maps {
        let lam = ctx.blocks(ctx.regions(m)[0])[0];
        let ins: Vec<Value> = ctx.operands(m)[1..]
            .iter()
            .map(|v| rows[args.iter().position(|a| a == v).expect("a map of the arguments")])
            .collect();
        let ys = ctx.inline_block(lam, &ins, InsertPoint::End(ob));
        for (r, y) in ctx.results(m).collect::<Vec<_>>().into_iter().zip(ys) {
            of_result.insert(r, y);
        }
    }
    let yields: Vec<Value> = ctx.operands(term).iter().map(|&v| of_result.get(v)).collect();
    Builder::at_end(ctx, ob).op("soac.yield", &yields, &[], &[], Vec::new());
    let results: Vec<Value> = ctx.operands(term).to_vec();
    let ops: Vec<Value> = ctx.operands(o).to_vec();
    let (n, nes, xs) = (ops[0], ops[1..1 + k].to_vec(), ops[1 + k..].to_vec());
    // Each input transposed: its columns are the rows of the new map.
    let mut columns = Vec::new();
    let mut row_types: Vec<Type> = Vec::new();
    for &x in &xs {
        let TypeKind::Array { elem, shape } = ctx.type_kind(ctx.value_type(x)).clone() else {
            return false;
        };
        if shape.len() < 2 {
            return false;
        }
        let t = transpose(ctx, x, elem, shape, InsertPoint::Before(o));
        columns.push(t);
        row_types.push(row_type(ctx, t));
    }
    // A neutral element that is a `replicate` gives its value directly
    // (from outside the map: the nest is then a segmented reduction);
    // others are mapped over.
    let replicated = |ctx: &Context, ne: Value| {
        ctx.defining_op(ne)
            .filter(|&d| ctx.op_name(d) == "soac.replicate")
            .map(|d| ctx.operand(d, 1))
    };
    let mapped_nes: Vec<Value> = nes
        .iter()
        .copied()
        .filter(|&ne| replicated(ctx, ne).is_none())
        .collect();
    for &ne in &mapped_nes {
        row_types.push(row_type(ctx, ne));
    }
    let region = ctx.create_region();
    let mb = ctx.append_block(region, &row_types);
    let params: Vec<Value> = ctx.block_args(mb).to_vec();
    let mut ne_rows = params[k..].iter();
    let inner_nes: Vec<Value> = nes
        .iter()
        .map(|&ne| replicated(ctx, ne).unwrap_or_else(|| *ne_rows.next().expect("a row per mapped neutral element")))
        .collect();
    let mut operands = vec![n];
    operands.extend(inner_nes);
    operands.extend_from_slice(&params[..k]);
    let scan = ctx.op_name(o) == "soac.scan";
    let mut inner_types: Vec<Type> = results.iter().map(|&r| row_type(ctx, r)).collect();
    if scan {
        for t in inner_types.iter_mut() {
            *t = rows_of(ctx, n, *t);
        }
    }
    let attrs = commutative_attr(ctx, o);
    let name = if scan { "soac.scan" } else { "soac.reduce" };
    let r = Builder::at_end(ctx, mb).op(name, &operands, &inner_types, &attrs, vec![operator]);
    let reduced: Vec<Value> = ctx.results(r).collect();
    Builder::at_end(ctx, mb).op("soac.yield", &reduced, &[], &[], Vec::new());
    // Its accumulators may be arrays still (of a third dimension).
    if has_array_accumulator(ctx, r) && !interchange(ctx, r) && !scan {
        sequential(ctx, r);
    }
    let mut operands = vec![w];
    operands.extend(columns);
    operands.extend(mapped_nes);
    // A scan's results are [n][w]: the map makes them transposed.
    let types: Vec<Type> = ctx
        .results(o)
        .map(|r| {
            let t = ctx.value_type(r);
            match ctx.type_kind(t).clone() {
                TypeKind::Array { elem, mut shape } if scan => {
                    shape.swap(0, 1);
                    ctx.intern_type(TypeKind::Array { elem, shape })
                }
                _ => t,
            }
        })
        .collect();
    let new = Builder::before(ctx, o).op("soac.map", &operands, &types, &[], vec![region]);
    let mut new: Vec<Value> = ctx.results(new).collect();
    if scan {
        for v in new.iter_mut() {
            let TypeKind::Array { elem, shape } = ctx.type_kind(ctx.value_type(*v)).clone() else {
                unreachable!("a scan's result is an array")
            };
            *v = transpose(ctx, *v, elem, shape, InsertPoint::Before(o));
        }
    }
    ctx.replace_op(o, &new);
    true
}

/// `x` (of element type `elem` and shape `shape`, at least two
/// dimensions) with its first two dimensions swapped, made at `at`.
fn transpose(ctx: &mut Context, x: Value, elem: Type, shape: Vec<futmlir_dialects::ir::Dim>, at: InsertPoint) -> Value {
    let mut perm: Vec<usize> = (0..shape.len()).collect();
    perm.swap(0, 1);
    let mut tshape = shape;
    tshape.swap(0, 1);
    let tt = ctx.intern_type(TypeKind::Array { elem, shape: tshape });
    let attrs: Vec<_> = perm.iter().map(|&p| ctx.int_attr(p as i64, Scalar::I64)).collect();
    let perm = ctx.intern_attr(AttrKind::Array(attrs));
    let mut b = Builder::new(ctx);
    b.set_insert_point(at);
    let t = b.op("soac.rearrange", &[x], &[tt], &[("perm", perm)], Vec::new());
    ctx.result(t, 0)
}

/// The reduction as a sequential loop over the rows.
fn sequential(ctx: &mut Context, o: OpId) {
    let op = operator_block(ctx, o);
    let k = ctx.block_args(op).len() / 2;
    let ops: Vec<Value> = ctx.operands(o).to_vec();
    let (n, nes, xs) = (ops[0], ops[1..1 + k].to_vec(), ops[1 + k..].to_vec());
    // The operator may update its accumulator in place: the loop then
    // must not start from the neutral elements themselves, which the
    // program may use elsewhere.
    let mut inits = Vec::new();
    for ne in nes {
        let t = ctx.value_type(ne);
        let init = if matches!(ctx.type_kind(t), TypeKind::Array { .. }) {
            let c = Builder::before(ctx, o).op("soac.copy", &[ne], &[t], &[], Vec::new());
            ctx.result(c, 0)
        } else {
            ne
        };
        inits.push(init);
    }
    replace_by_loop(ctx, o, n, &inits, |ctx, lb, i, accs| {
        let mut args = accs.to_vec();
        args.extend(rows(ctx, lb, &xs, i));
        ctx.inline_block(op, &args, InsertPoint::End(lb))
    });
}

/// The scan as a sequential loop over the rows: the accumulators and the
/// results (each row written in place) are its merge parameters.
fn sequential_scan(ctx: &mut Context, o: OpId) {
    let op = operator_block(ctx, o);
    let k = ctx.block_args(op).len() / 2;
    let ops: Vec<Value> = ctx.operands(o).to_vec();
    let (n, nes, xs) = (ops[0], ops[1..1 + k].to_vec(), ops[1 + k..].to_vec());
    let out_types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let acc_types: Vec<Type> = nes.iter().map(|&ne| ctx.value_type(ne)).collect();
    let mut operands = vec![n];
    // As in `sequential`: the loop must not start from the neutral
    // elements themselves.
    for &ne in &nes {
        let t = ctx.value_type(ne);
        let init = if matches!(ctx.type_kind(t), TypeKind::Array { .. }) {
            let c = Builder::before(ctx, o).op("soac.copy", &[ne], &[t], &[], Vec::new());
            ctx.result(c, 0)
        } else {
            ne
        };
        operands.push(init);
    }
    for (&ne, &t) in nes.iter().zip(&out_types) {
        let r = Builder::before(ctx, o).op("soac.replicate", &[n, ne], &[t], &[], Vec::new());
        operands.push(ctx.result(r, 0));
    }
    let mut arg_types = vec![ctx.scalar(Scalar::I64)];
    arg_types.extend_from_slice(&acc_types);
    arg_types.extend_from_slice(&out_types);
    let region = ctx.create_region();
    let lb = ctx.append_block(region, &arg_types);
    let args: Vec<Value> = ctx.block_args(lb).to_vec();
    let i = args[0];
    let mut inputs = args[1..1 + k].to_vec();
    inputs.extend(rows(ctx, lb, &xs, i));
    let next_accs = ctx.inline_block(op, &inputs, InsertPoint::End(lb));
    let mut next = next_accs.clone();
    for (j, &out) in args[1 + k..].iter().enumerate() {
        let u = Builder::at_end(ctx, lb).op("soac.update", &[out, i, next_accs[j]], &[out_types[j]], &[], Vec::new());
        next.push(ctx.result(u, 0));
    }
    Builder::at_end(ctx, lb).op("soac.yield", &next, &[], &[], Vec::new());
    let mut types = acc_types;
    types.extend_from_slice(&out_types);
    let form = ctx.string_attr("for");
    let lp = Builder::before(ctx, o).op("soac.loop", &operands, &types, &[("form", form)], vec![region]);
    let results: Vec<Value> = ctx.results(lp).skip(k).collect();
    ctx.replace_op(o, &results);
}
