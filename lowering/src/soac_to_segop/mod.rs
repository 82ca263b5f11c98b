//! `soac-to-segop`: kernel extraction (thesis ch. 8, a first part of
//! moderate flattening).
//!
//! SOACs at host level (in function bodies, and in the loops and branches
//! there — not inside another SOAC's lambda) become segmented ops whose
//! bodies take thread indices and read their inputs with `soac.index`:
//!
//! - `map` → `segop.segmap`; a map whose lambda is only another map over
//!   a size from outside (a perfect nest) becomes one segmap over both
//!   dimensions (rule G3), as deep as the nest goes;
//! - `reduce`/`redomap` → `segop.segred`, `scan`/`scanomap` →
//!   `segop.segscan`; a map whose lambda is only one of them (over a size
//!   from outside, with neutral elements from outside) becomes a
//!   segmented one over two dimensions (rule G5);
//! - `hist` → `segop.seghist`; `scatter` → a `segop.segmap` writing in
//!   place (attribute `writes`); `filter` → a segscan of the predicate's
//!   flags (the offsets), then a segmap writing the kept rows into a copy
//!   of each input, sliced to the count.
//!
//! Before that, a map whose lambda holds such SOACs among other code is
//! distributed into several maps (rule G4, [`distribute`]), so that each
//! SOAC becomes a perfect nest; a redomap or scanomap whose lambda holds
//! them (fusion made it) is first split into a map and a reduce or scan.
//! A map whose lambda is a `for` loop with inner parallelism becomes the
//! loop around a map of its body (rule G7, [`interchange`]), whose SOACs
//! are then extracted in turn. SOACs inside the bodies stay `soac` ops:
//! each thread runs them sequentially. Not yet done (so left as they
//! are, run on the host): streams, distribution below the outermost map,
//! and interchange with `while` loops. A `partition` never gets here: the
//! earlier `soac-partition` makes a scanomap and a scatter of it.
//! First of all, reductions of arrays become a map of reductions or a
//! loop ([`array_reduce`], Note [Array reductions]), and scatters and
//! histograms inside lambdas, and histograms of arrays, become loops
//! ([`sequential`], Note [Sequential writes]). Before all of that,
//! accumulator streams become scatters or histograms, or loops
//! ([`accumulators`], Notes [Accumulators as scatter and hist] and
//! [Sequential accumulators]).

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, InsertPoint, OpId, RegionId, Type, Value, ValueMap,
};
use futmlir_passes::{OptionKind, OptionSpec, Options, Pass, PassInfo};

use distribute::{distribute, has_inner_parallelism, split_redomap};
use futmlir_passes::soac::analysis::{defined_inside as defined_in, held_by, SOAC_OPS};
use interchange::interchange;

mod accumulators;
mod array_reduce;
mod distribute;
mod interchange;
mod sequential;
mod sink;

pub const INFO: PassInfo = PassInfo {
    name: "soac-to-segop",
    description:
        "Extract kernels: host-level SOACs become segop segmap/segred/segscan/seghist over flattened map nests",
    options: &[OptionSpec {
        name: "sink",
        kind: OptionKind::Bool,
        default: "true",
        help: "sink cheap scalar code and views of an outer map's lambda into its inner SOACs before distributing it (Note [Sinking cheap code])",
    }],
    reads: &[futmlir_passes::Level::Soac],
    writes: Some(futmlir_passes::Level::Segop),
    create: &|o: &Options, _| Box::new(ToSegop { sink: o.bool("sink") }),
};

struct ToSegop {
    sink: bool,
}

impl Pass for ToSegop {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        accumulators::accumulator_streams(ctx, op)?;
        split_post_lambdas(ctx, op);
        split_multiple_writes(ctx, op);
        array_reduce::array_reductions(ctx, op);
        sequential::sequential_writes(ctx, op);
        let mut host = Vec::new();
        ctx.walk(op, &mut |o| {
            if SOAC_OPS.contains(&ctx.op_name(o)) && at_host_level(ctx, o) {
                host.push(o);
            }
        });
        for o in host {
            lower(ctx, o, self.sink);
        }
        Ok(())
    }
}

/// Every `soac.screma` under `op` becomes a scanomap of its pre-lambda
/// (mapping out the values to reduce and the others), a reduce of those
/// to reduce, and a map of its post-lambda over the scanned and other
/// arrays: the kernels below know scans without post-lambdas, and the map
/// is one more parallel (or, inside a lambda, sequential) loop over rows
/// the scan wrote. See Note [Post-lambda fusion] in `soac-fuse`.
fn split_post_lambdas(ctx: &mut Context, op: OpId) {
    loop {
        let mut found = None;
        ctx.walk(op, &mut |o| {
            if found.is_none() && ctx.op_name(o) == "soac.screma" {
                found = Some(o);
            }
        });
        let Some(o) = found else { return };
        let regions = ctx.regions(o).to_vec();
        let arity = |ctx: &Context, r: RegionId| ctx.block_args(ctx.blocks(r)[0]).len() / 2;
        let (k, r) = (arity(ctx, regions[0]), arity(ctx, regions[1]));
        let operands = ctx.operands(o).to_vec();
        let n = operands[0];
        let pre_types: Vec<Type> = {
            let pre = ctx.blocks(regions[2])[0];
            let term = ctx.last_op(pre).expect("a lambda ends in a yield");
            ctx.operands(term).iter().map(|&v| ctx.value_type(v)).collect()
        };
        let types: Vec<Type> = pre_types.iter().map(|&t| distribute::rows_of(ctx, n, t)).collect();
        let (scan_op, pre, post) = (ctx.create_region(), ctx.create_region(), ctx.create_region());
        ctx.clone_region_into(regions[0], scan_op, &mut ValueMap::default());
        ctx.clone_region_into(regions[2], pre, &mut ValueMap::default());
        ctx.clone_region_into(regions[3], post, &mut ValueMap::default());
        let mut scan_operands = vec![n];
        scan_operands.extend_from_slice(&operands[1..1 + k]);
        scan_operands.extend_from_slice(&operands[1 + k + r..]);
        let scan = Builder::before(ctx, o).op("soac.scanomap", &scan_operands, &types, &[], vec![scan_op, pre]);
        let arrays: Vec<Value> = ctx.results(scan).collect();
        let mut new = Vec::new();
        if r > 0 {
            let red_op = ctx.create_region();
            ctx.clone_region_into(regions[1], red_op, &mut ValueMap::default());
            let mut red_operands = vec![n];
            red_operands.extend_from_slice(&operands[1 + k..1 + k + r]);
            red_operands.extend_from_slice(&arrays[k..k + r]);
            let red_types: Vec<Type> = ctx.results(o).take(r).map(|v| ctx.value_type(v)).collect();
            let red = Builder::before(ctx, o).op("soac.reduce", &red_operands, &red_types, &[], vec![red_op]);
            new.extend(ctx.results(red));
        }
        let mut map_operands = vec![n];
        map_operands.extend_from_slice(&arrays[..k]);
        map_operands.extend_from_slice(&arrays[k + r..]);
        let result_types: Vec<Type> = ctx.results(o).skip(r).map(|v| ctx.value_type(v)).collect();
        let map = Builder::before(ctx, o).op("soac.map", &map_operands, &result_types, &[], vec![post]);
        new.extend(ctx.results(map));
        ctx.replace_op(o, &new);
    }
}

/// Every `soac.scatter` under `op` that writes several pairs per row into
/// a destination (`num_writes`, Note [Concatenations into a scatter] in
/// `soac-simplify`) becomes a map computing all the index and value
/// arrays, then one scatter of one pair per row for each write, in turn
/// into the destination: the writing segmap writes one pair per row.
fn split_multiple_writes(ctx: &mut Context, op: OpId) {
    let mut scatters = Vec::new();
    ctx.walk(op, &mut |o| {
        if ctx.op_name(o) == "soac.scatter" && ctx.attr(o, "num_writes").is_some() {
            scatters.push(o);
        }
    });
    // Inner scatters first: cloning an outer one's lambda would miss them.
    for o in scatters.into_iter().rev() {
        let ws = futmlir_dialects::soac::scatter_writes(ctx, o);
        let total: usize = ws.iter().sum();
        let k = ws.len();
        let operands = ctx.operands(o).to_vec();
        let n = operands[0];
        let (inputs, dests) = operands[1..].split_at(operands.len() - 1 - k);
        let lam = ctx.regions(o)[0];
        let yield_types: Vec<Type> = {
            let blk = ctx.blocks(lam)[0];
            let term = ctx.last_op(blk).expect("a lambda ends in a yield");
            ctx.operands(term).iter().map(|&v| ctx.value_type(v)).collect()
        };
        let types: Vec<Type> = yield_types.iter().map(|&t| distribute::rows_of(ctx, n, t)).collect();
        let region = ctx.create_region();
        ctx.clone_region_into(lam, region, &mut ValueMap::default());
        let mut map_operands = vec![n];
        map_operands.extend_from_slice(inputs);
        let map = Builder::before(ctx, o).op("soac.map", &map_operands, &types, &[], vec![region]);
        let arrays: Vec<Value> = ctx.results(map).collect();
        let mut results = Vec::new();
        let mut slot = 0;
        for (&dest, &w) in dests.iter().zip(&ws) {
            let mut d = dest;
            for _ in 0..w {
                let row_types = [yield_types[slot], yield_types[total + slot]];
                let pass = ctx.create_region();
                let blk = ctx.append_block(pass, &row_types);
                let rows = ctx.block_args(blk).to_vec();
                Builder::at_end(ctx, blk).op("soac.yield", &rows, &[], &[], Vec::new());
                let t = ctx.value_type(d);
                let one = Builder::before(ctx, o).op(
                    "soac.scatter",
                    &[n, arrays[slot], arrays[total + slot], d],
                    &[t],
                    &[],
                    vec![pass],
                );
                d = ctx.result(one, 0);
                slot += 1;
            }
            results.push(d);
        }
        ctx.replace_op(o, &results);
    }
}

/// Extracts the kernels of host-level SOAC `o`: splits a redomap or
/// scanomap with inner parallelism, interchanges a map with the loop it
/// is, distributes a map, and flattens each nest that results.
fn lower(ctx: &mut Context, o: OpId, sink: bool) {
    let mut o = o;
    let mut after = None;
    let fused = matches!(ctx.op_name(o), "soac.redomap" | "soac.scanomap");
    if fused && has_inner_parallelism(ctx, o, 1) {
        // Its map part has parallelism to flatten: a map (to
        // distribute), then a reduce or scan.
        let (m, r) = split_redomap(ctx, o);
        (o, after) = (m, Some(r));
    }
    // The map in an interchanged loop's body, or the distributed maps:
    // at host level, each lowered in turn.
    let is_map = ctx.op_name(o) == "soac.map";
    if sink && is_map && has_inner_parallelism(ctx, o, 0) {
        sink::sink_cheap(ctx, o);
    }
    let parts = if !is_map {
        Vec::new()
    } else if let Some(inner) = interchange(ctx, o) {
        vec![inner]
    } else {
        distribute(ctx, o)
    };
    if parts.is_empty() {
        extract(ctx, o);
    }
    for p in parts.into_iter().chain(after) {
        lower(ctx, p, sink);
    }
}

/// Whether no SOAC or segop holds `op`.
fn at_host_level(ctx: &Context, op: OpId) -> bool {
    !held_by(ctx, op, |name| SOAC_OPS.contains(&name) || name.starts_with("segop."))
}

/// One level of a map nest: the size, the arrays mapped over, the values
/// their rows bind to (the lambda's arguments), and the lambda's block
/// (the operator's, for the identity lambda of reduce and scan).
struct Level {
    width: Value,
    inputs: Vec<Value>,
    params: Vec<Value>,
    block: BlockId,
}

/// The innermost op of a nest: what the segop's body computes per point.
enum Inner {
    /// The innermost map's lambda: the body yields what it yields.
    Map,
    /// A reduction or scan (with its operator, neutral elements, and
    /// lambda or `None` for the identity) over the innermost level.
    Combine {
        scan: bool,
        operator: RegionId,
        nes: Vec<Value>,
        lambda: Option<BlockId>,
    },
}

fn extract(ctx: &mut Context, o: OpId) {
    match ctx.op_name(o) {
        "soac.map" => {
            let nest = map_nest(ctx, o);
            build(ctx, o, nest);
        }
        "soac.reduce" | "soac.scan" | "soac.redomap" | "soac.scanomap" => {
            let (level, inner) = combine_level(ctx, o);
            let n = ctx.num_results(o);
            let nest = Nest {
                levels: vec![level],
                inner,
                picks: (0..n).collect(),
                result_types: ctx.results(o).map(|r| ctx.value_type(r)).collect(),
            };
            build(ctx, o, nest);
        }
        "soac.hist" => hist(ctx, o),
        "soac.scatter" => scatter(ctx, o),
        "soac.filter" => filter(ctx, o),
        _ => {}
    }
}

fn map_level(ctx: &Context, m: OpId) -> Level {
    let ops = ctx.operands(m);
    let block = ctx.blocks(ctx.regions(m)[0])[0];
    Level {
        width: ops[0],
        inputs: ops[1..].to_vec(),
        params: ctx.block_args(block).to_vec(),
        block,
    }
}

/// A reduce, scan, redomap or scanomap as a level and what combines.
fn combine_level(ctx: &Context, o: OpId) -> (Level, Inner) {
    let regions = ctx.regions(o).to_vec();
    let opb = ctx.blocks(regions[0])[0];
    let k = ctx.block_args(opb).len() / 2;
    let ops = ctx.operands(o).to_vec();
    let lambda = regions.get(1).map(|&r| ctx.blocks(r)[0]);
    let level = Level {
        width: ops[0],
        inputs: ops[1 + k..].to_vec(),
        // The identity lambda's rows are the operator's second arguments.
        params: match lambda {
            Some(l) => ctx.block_args(l).to_vec(),
            None => ctx.block_args(opb)[k..].to_vec(),
        },
        block: lambda.unwrap_or(opb),
    };
    let inner = Inner::Combine {
        scan: matches!(ctx.op_name(o), "soac.scan" | "soac.scanomap"),
        operator: regions[0],
        nes: ops[1..1 + k].to_vec(),
        lambda,
    };
    (level, inner)
}

/// The levels of the perfect map nest rooted at map `m`, and what the
/// innermost level computes.
fn map_nest(ctx: &mut Context, m: OpId) -> Nest {
    let mut levels = vec![map_level(ctx, m)];
    let mut picks: Vec<usize> = (0..ctx.num_results(m)).collect();
    let mut innermost = m;
    let mut inner = Inner::Map;
    while let Some((sole, yielded)) = sole_op(ctx, levels.last().expect("a level").block) {
        let defined_outside = |v: Value| !defined_in(ctx, v, m);
        let next = match ctx.op_name(sole) {
            "soac.map" => map_level(ctx, sole),
            "soac.reduce" | "soac.scan" | "soac.redomap" | "soac.scanomap" => {
                let (next, combine) = combine_level(ctx, sole);
                let Inner::Combine { nes, .. } = &combine else {
                    unreachable!("combine_level gives a combination")
                };
                if !nes.iter().all(|&v| defined_outside(v)) {
                    break;
                }
                inner = combine;
                next
            }
            _ => break,
        };
        if !defined_outside(next.width) {
            inner = Inner::Map;
            break;
        }
        levels.push(next);
        picks = picks.iter().map(|&j| yielded[j]).collect();
        innermost = sole;
        if matches!(inner, Inner::Combine { .. }) {
            break;
        }
    }
    // The segop's results: the innermost op's, over the outer dimensions.
    let outer: Vec<Value> = levels[..levels.len() - 1].iter().map(|l| l.width).collect();
    let result_types = if innermost == m {
        ctx.results(m).map(|r| ctx.value_type(r)).collect()
    } else {
        let inner_types: Vec<Type> = ctx.results(innermost).map(|r| ctx.value_type(r)).collect();
        inner_types
            .into_iter()
            .map(|t| outer.iter().rev().fold(t, |t, &w| distribute::rows_of(ctx, w, t)))
            .collect()
    };
    Nest {
        levels,
        inner,
        picks,
        result_types,
    }
}

/// A map nest flattened: its levels, what the innermost computes, the
/// segop's result types, and which of them each result of the outermost
/// map is.
struct Nest {
    levels: Vec<Level>,
    inner: Inner,
    picks: Vec<usize>,
    result_types: Vec<Type>,
}

/// The only op of `b` besides its terminator, when the terminator yields
/// only its results; which result each yield is.
fn sole_op(ctx: &Context, b: BlockId) -> Option<(OpId, Vec<usize>)> {
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let [op, term] = ops.as_slice() else { return None };
    let results: Vec<Value> = ctx.results(*op).collect();
    let yielded: Option<Vec<usize>> = ctx
        .operands(*term)
        .iter()
        .map(|v| results.iter().position(|r| r == v))
        .collect();
    Some((*op, yielded?))
}

/// A segop body over the levels: indices, the rows of every level bound
/// to `soac.index` of its inputs, and the innermost code inlined; returns
/// the region and the values the innermost code yields.
fn body(ctx: &mut Context, levels: &[Level], inner: &Inner) -> (RegionId, BlockId, Vec<Value>) {
    let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
    let region = ctx.create_region();
    let blk = ctx.append_block(region, &vec![i64t; levels.len()]);
    let idx: Vec<Value> = ctx.block_args(blk).to_vec();
    let mut map = ValueMap::default();
    for (level, &i) in levels.iter().zip(&idx) {
        for (&x, &p) in level.inputs.iter().zip(&level.params) {
            let x = map.get(x);
            // Row `i` of `iota n` is `i`, of `replicate n v` is `v`: no
            // array to read (`i < n`, the level's size).
            let made = ctx.defining_op(x).map(|d| (ctx.op_name(d), ctx.operands(d).to_vec()));
            let row = match made {
                Some(("soac.iota", ops)) if ops.len() == 1 => i,
                Some(("soac.replicate", ops)) => ops[1],
                _ => {
                    let t = ctx.value_type(p);
                    let row = Builder::at_end(ctx, blk).op("soac.index", &[x, i], &[t], &[], Vec::new());
                    ctx.result(row, 0)
                }
            };
            map.insert(p, row);
        }
    }
    let last = levels.last().expect("a level");
    let yields = match inner {
        // An identity lambda: the rows themselves.
        Inner::Combine { lambda: None, .. } => last.params.iter().map(|&p| map.get(p)).collect(),
        _ => ctx.inline_block_mapped(last.block, &mut map, InsertPoint::End(blk)),
    };
    (region, blk, yields)
}

/// A copy of operator region `r` ending in `segop.yield`.
fn operator(ctx: &mut Context, r: RegionId) -> RegionId {
    let nr = ctx.create_region();
    ctx.clone_region_into(r, nr, &mut ValueMap::default());
    let b = ctx.blocks(nr)[0];
    let term = ctx.last_op(b).expect("an operator ends in a yield");
    let vals = ctx.operands(term).to_vec();
    Builder::before(ctx, term).op("segop.yield", &vals, &[], &[], Vec::new());
    ctx.erase_op(term);
    nr
}

fn level_attr(ctx: &mut Context) -> Vec<(&'static str, futmlir_dialects::ir::Attr)> {
    let a = ctx.string_attr("thread");
    vec![("level", a)]
}

/// Replaces SOAC `o` (the root of `levels`) by the segop over them.
fn build(ctx: &mut Context, o: OpId, nest: Nest) {
    let Nest {
        levels,
        inner,
        picks,
        result_types: types,
    } = nest;
    let levels = &levels[..];
    let (region, blk, yields) = body(ctx, levels, &inner);
    Builder::at_end(ctx, blk).op("segop.yield", &yields, &[], &[], Vec::new());
    let mut operands: Vec<Value> = levels.iter().map(|l| l.width).collect();
    let mut attrs = level_attr(ctx);
    let (name, regions) = match inner {
        Inner::Map => ("segop.segmap", vec![region]),
        Inner::Combine {
            scan, operator: r, nes, ..
        } => {
            operands.extend(nes);
            let comm = ctx.attr(o, "commutative").or_else(|| {
                // A nest's reduction is the sole op of the map's lambda.
                let b = levels.last().expect("a level").block;
                let inner_op = ctx.block_parent(b).and_then(|r| ctx.region_parent(r))?;
                ctx.attr(inner_op, "commutative")
            });
            if comm.is_some() {
                attrs.push(("commutative", ctx.intern_attr(AttrKind::Unit)));
            }
            let name = if scan { "segop.segscan" } else { "segop.segred" };
            (name, vec![region, operator(ctx, r)])
        }
    };
    let seg = Builder::before(ctx, o).op(name, &operands, &types, &attrs, regions);
    let new: Vec<Value> = picks.iter().map(|&p| ctx.result(seg, p)).collect();
    ctx.replace_op(o, &new);
}

/// `hist` → `seghist` over one dimension.
fn hist(ctx: &mut Context, o: OpId) {
    let ops = ctx.operands(o).to_vec();
    let k = ctx.num_results(o);
    let regions = ctx.regions(o).to_vec();
    let block = ctx.blocks(regions[1])[0];
    let level = Level {
        width: ops[0],
        inputs: ops[2 + 2 * k..].to_vec(),
        params: ctx.block_args(block).to_vec(),
        block,
    };
    let (region, blk, yields) = body(ctx, &[level], &Inner::Map);
    Builder::at_end(ctx, blk).op("segop.yield", &yields, &[], &[], Vec::new());
    let operands: Vec<Value> = [ops[0], ops[1]]
        .into_iter()
        .chain(ops[2..2 + 2 * k].iter().copied())
        .collect();
    let types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let attrs = level_attr(ctx);
    let op_region = operator(ctx, regions[0]);
    let seg = Builder::before(ctx, o).op("segop.seghist", &operands, &types, &attrs, vec![region, op_region]);
    let new: Vec<Value> = ctx.results(seg).collect();
    ctx.replace_op(o, &new);
}

/// `scatter` → a `segmap` writing in place (`writes = k`) over one
/// dimension.
fn scatter(ctx: &mut Context, o: OpId) {
    let ops = ctx.operands(o).to_vec();
    let k = ctx.num_results(o);
    let m = ops.len() - k;
    let block = ctx.blocks(ctx.regions(o)[0])[0];
    let level = Level {
        width: ops[0],
        inputs: ops[1..m].to_vec(),
        params: ctx.block_args(block).to_vec(),
        block,
    };
    let (region, blk, yields) = body(ctx, &[level], &Inner::Map);
    Builder::at_end(ctx, blk).op("segop.yield", &yields, &[], &[], Vec::new());
    let mut operands = vec![ops[0]];
    operands.extend_from_slice(&ops[m..]);
    let types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let mut attrs = level_attr(ctx);
    attrs.push(("writes", ctx.int_attr(k as i64, futmlir_dialects::ir::Scalar::I64)));
    let seg = Builder::before(ctx, o).op("segop.segmap", &operands, &types, &attrs, vec![region]);
    let new: Vec<Value> = ctx.results(seg).collect();
    ctx.replace_op(o, &new);
}

/// `filter` → kernels: a segscan over the predicate's flags (0 or 1)
/// giving each kept row its place (and mapping out the flags), the count
/// (the last offset), then a segmap writing each kept row of every input
/// into a copy of it at its place, sliced to the count.
fn filter(ctx: &mut Context, o: OpId) {
    use futmlir_dialects::ir::Scalar;
    let ops = ctx.operands(o).to_vec();
    let (n, inputs) = (ops[0], ops[1..].to_vec());
    let i64t = ctx.scalar(Scalar::I64);
    let boolt = ctx.scalar(Scalar::Bool);
    let attr = |ctx: &mut Context, s: &str| ctx.string_attr(s);
    let block = ctx.blocks(ctx.regions(o)[0])[0];
    let level = Level {
        width: n,
        inputs: inputs.clone(),
        params: ctx.block_args(block).to_vec(),
        block,
    };
    let (region, blk, yields) = body(ctx, &[level], &Inner::Map);
    let zero_a = ctx.int_attr(0, Scalar::I64);
    let zero = Builder::before(ctx, o).op("soac.constant", &[], &[i64t], &[("value", zero_a)], Vec::new());
    let zero = ctx.result(zero, 0);
    let one_a = ctx.int_attr(1, Scalar::I64);
    let one = Builder::before(ctx, o).op("soac.constant", &[], &[i64t], &[("value", one_a)], Vec::new());
    let one = ctx.result(one, 0);
    let scalar_rows = inputs.iter().all(|&x| {
        let t = row_type(ctx, x);
        ctx.as_scalar(t).is_some()
    });
    if scalar_rows {
        // One `segop.filter` (the backends keep the rows as they find
        // them), then the first `count` rows of each result.
        yield_with_rows(ctx, blk, vec![yields[0]], &inputs);
        let mut types = vec![i64t];
        for &x in &inputs {
            types.push(ctx.value_type(x));
        }
        let attrs = level_attr(ctx);
        let f = Builder::before(ctx, o).op("segop.filter", &[n], &types, &attrs, vec![region]);
        let count = ctx.result(f, 0);
        let mut results = Vec::new();
        for j in 0..inputs.len() {
            let w = ctx.result(f, j + 1);
            let row = row_type(ctx, w);
            let t = distribute::rows_of(ctx, count, row);
            let s = Builder::before(ctx, o).op("soac.slice", &[w, zero, count, one], &[t], &[], Vec::new());
            results.push(ctx.result(s, 0));
        }
        ctx.replace_op(o, &results);
        return;
    }
    // Rows that are arrays: the flags and their inclusive sums, then a
    // scatter.
    let btoi = attr(ctx, "btoi");
    let flag = Builder::at_end(ctx, blk).op("soac.convop", &[yields[0]], &[i64t], &[("kind", btoi)], Vec::new());
    let flag = ctx.result(flag, 0);
    Builder::at_end(ctx, blk).op("segop.yield", &[flag, flag], &[], &[], Vec::new());
    let add_region = ctx.create_region();
    let ab = ctx.append_block(add_region, &[i64t, i64t]);
    let (a, b) = (ctx.block_args(ab)[0], ctx.block_args(ab)[1]);
    let add = attr(ctx, "add");
    let sum = Builder::at_end(ctx, ab).op("soac.binop", &[a, b], &[i64t], &[("kind", add)], Vec::new());
    let sum = ctx.result(sum, 0);
    Builder::at_end(ctx, ab).op("segop.yield", &[sum], &[], &[], Vec::new());
    let arr_n = distribute::rows_of(ctx, n, i64t);
    let attrs = level_attr(ctx);
    let scan = Builder::before(ctx, o).op(
        "segop.segscan",
        &[n, zero],
        &[arr_n, arr_n],
        &attrs,
        vec![region, add_region],
    );
    let (offsets, flags) = (ctx.result(scan, 0), ctx.result(scan, 1));
    // The count: the last offset, or 0 for no rows.
    let gt = attr(ctx, "gt");
    let nonempty = Builder::before(ctx, o).op("soac.cmpop", &[n, zero], &[boolt], &[("kind", gt)], Vec::new());
    let nonempty = ctx.result(nonempty, 0);
    let then = ctx.create_region();
    let tb = ctx.append_block(then, &[]);
    let sub = attr(ctx, "sub");
    let last = Builder::at_end(ctx, tb).op("soac.binop", &[n, one], &[i64t], &[("kind", sub)], Vec::new());
    let last = ctx.result(last, 0);
    let total = Builder::at_end(ctx, tb).op("soac.index", &[offsets, last], &[i64t], &[], Vec::new());
    let total = ctx.result(total, 0);
    Builder::at_end(ctx, tb).op("soac.yield", &[total], &[], &[], Vec::new());
    let els = ctx.create_region();
    let eb = ctx.append_block(els, &[]);
    Builder::at_end(ctx, eb).op("soac.yield", &[zero], &[], &[], Vec::new());
    let count = Builder::before(ctx, o).op("soac.if", &[nonempty], &[i64t], &[], vec![then, els]);
    let count = ctx.result(count, 0);
    // Each kept row to its place in a copy of its input.
    let mut scratch = Vec::new();
    for &x in &inputs {
        let t = ctx.value_type(x);
        let c = Builder::before(ctx, o).op("soac.copy", &[x], &[t], &[], Vec::new());
        scratch.push(ctx.result(c, 0));
    }
    let wr = ctx.create_region();
    let wb = ctx.append_block(wr, &[i64t]);
    let i = ctx.block_args(wb)[0];
    let f = Builder::at_end(ctx, wb).op("soac.index", &[flags, i], &[i64t], &[], Vec::new());
    let f = ctx.result(f, 0);
    let off = Builder::at_end(ctx, wb).op("soac.index", &[offsets, i], &[i64t], &[], Vec::new());
    let off = ctx.result(off, 0);
    let place = Builder::at_end(ctx, wb).op("soac.binop", &[off, one], &[i64t], &[("kind", sub)], Vec::new());
    let place = ctx.result(place, 0);
    let ne = attr(ctx, "ne");
    let kept = Builder::at_end(ctx, wb).op("soac.cmpop", &[f, zero], &[boolt], &[("kind", ne)], Vec::new());
    let kept = ctx.result(kept, 0);
    let minus_one_a = ctx.int_attr(-1, Scalar::I64);
    let nowhere = Builder::at_end(ctx, wb).op("soac.constant", &[], &[i64t], &[("value", minus_one_a)], Vec::new());
    let nowhere = ctx.result(nowhere, 0);
    let at = Builder::at_end(ctx, wb).op("soac.select", &[kept, place, nowhere], &[i64t], &[], Vec::new());
    let at = ctx.result(at, 0);
    yield_with_rows(ctx, wb, vec![at; inputs.len()], &inputs);
    let mut operands = vec![n];
    operands.extend(&scratch);
    let types: Vec<Type> = scratch.iter().map(|&v| ctx.value_type(v)).collect();
    let mut attrs = level_attr(ctx);
    attrs.push(("writes", ctx.int_attr(inputs.len() as i64, Scalar::I64)));
    let written = Builder::before(ctx, o).op("segop.segmap", &operands, &types, &attrs, vec![wr]);
    // The kept rows: the first `count` of each.
    let mut results = Vec::new();
    for j in 0..inputs.len() {
        let w = ctx.result(written, j);
        let row = row_type(ctx, w);
        let t = distribute::rows_of(ctx, count, row);
        let s = Builder::before(ctx, o).op("soac.slice", &[w, zero, count, one], &[t], &[], Vec::new());
        results.push(ctx.result(s, 0));
    }
    ctx.replace_op(o, &results);
}

/// Ends segop body `blk` (whose argument is the index `i`) yielding `ys`
/// then row `i` of each of `inputs`.
fn yield_with_rows(ctx: &mut Context, blk: BlockId, mut ys: Vec<Value>, inputs: &[Value]) {
    let i = ctx.block_args(blk)[0];
    for &x in inputs {
        let t = row_type(ctx, x);
        let r = Builder::at_end(ctx, blk).op("soac.index", &[x, i], &[t], &[], Vec::new());
        ys.push(ctx.result(r, 0));
    }
    Builder::at_end(ctx, blk).op("segop.yield", &ys, &[], &[], Vec::new());
}

/// The type of a row of array `x`.
fn row_type(ctx: &mut Context, x: Value) -> Type {
    match ctx.type_kind(ctx.value_type(x)).clone() {
        futmlir_dialects::ir::TypeKind::Array { elem, shape } if shape.len() > 1 => {
            ctx.intern_type(futmlir_dialects::ir::TypeKind::Array {
                elem,
                shape: shape[1..].to_vec(),
            })
        }
        futmlir_dialects::ir::TypeKind::Array { elem, .. } => elem,
        _ => ctx.value_type(x),
    }
}
