//! `soac-simplify`: the simplifier of the soac level, run to a fixed point
//! within a bound on the rounds.
//!
//! Each round runs the structural simplifications below over every block
//! (nested blocks first), then the scalar rewrite rules (`soac-rewrite`:
//! constant folding and the algebra of the rule files), CSE and dead-code
//! removal. A round that changes nothing ends the pass.
//!
//! The structural simplifications (Note [What soac-simplify does]):
//!
//! - *unused results*: a map, redomap, scanomap or screma drops arrays nobody
//!   reads; an `if` drops results nobody reads; a loop drops merge
//!   parameters that only feed themselves.
//! - *copy propagation* through structure: an `if` whose branches yield the
//!   same value, a loop parameter that each iteration passes on unchanged,
//!   a map that yields a row of its input (the input itself) or a value
//!   from outside (a `replicate`).
//! - *hoisting*: code in a loop body or a SOAC's lambda that depends on
//!   nothing inside it moves before it (Note [Hoisting]). Nothing leaves
//!   the branches of an `if`.
//! - *trivial structure*: loops of zero or one iteration, branches on a
//!   constant, SOACs over arrays of one row, assertions of `true`.
//! - *closed forms*: a for loop's merge parameter whose value after `n`
//!   iterations has a formula (Note [Loop closed forms]).
//! - *sizes*: `soac.size` of a dimension the type knows becomes that size;
//!   results of `if` and loops whose size every path agrees on get it in
//!   their type (un-existentialisation).
//! - *concatenations into a scatter*: a scatter of concatenated index and
//!   value arrays of equal-sized pieces writes several pairs per row
//!   (Note [Concatenations into a scatter]).
//! - *replicate inputs*: a map's lambda reads the replicated value where
//!   it maps over a `replicate` (unless it consumes its row).
//! - *iota indexing*: a map over `iota n` whose element indexes an array
//!   of `n` rows maps over those rows instead (Note [Indexing with iota]).
//! - *views*: identity reshapes and rearranges go, and a reshape or
//!   rearrange of one becomes one (and an index of an index one index),
//!   as does a reshape of a concatenation
//!   that only renames the joined dimension's size, and a concatenation
//!   of concatenations (along one dimension) is one; an element of a `replicate` is the
//!   replicated value, and one of an `iota` is computed from its index
//!   (Note [Index of iota]).
//! - *maps across views*: an elementwise map nest over a reshape or
//!   rearrange of a map's result maps over that result instead, and the
//!   view moves to its own result, so fusion can join the two maps (Note
//!   [Maps across views]).
//!
//! **Note [Hoisting].**
//! An op moves out of a loop body or lambda when everything it reads
//! (operands, free values of its regions, sizes in its result types) is
//! defined outside, it and everything in it is pure and cannot fail
//! (division, indexing, reshaping and making arrays of a computed size
//! can: a loop that runs no iteration must not fail because of a hoisted
//! op), it is not a `soac.copy` (whose point is a fresh array), and no
//! op consumes its result (a loop body updating a hoisted array in place
//! would update one array in every iteration).
//!
//! An invariant op at the top of a for loop's body that *can* fail (an
//! assertion, an integer division, an index) still leaves the loop, but
//! under `if n > 0` (with zeros for its results otherwise), as Futhark's
//! `protectLoopHoisted` does: the loop runs its first iteration, and so the
//! op, exactly when `n > 0`. Only ops without regions and with scalar
//! results (or none) move so.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, Dim, InsertPoint, OpId, Type, TypeKind, Value,
};

use super::analysis::{
    ancestor_in, block_alive, blocks_inner_first, cannot_fail, consumed, defined_inside, loop_offset, reads, walk_with,
};
use crate::egraph::RuleBook;
use crate::ir::is_pure;
use crate::pass::{Level, OptionKind, OptionSpec, OptionValue, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-simplify",
    description: "Simplify soac code to a fixed point: the rewrite rules (constant folding), CSE, dead code and \
                  unused results, hoisting, trivial loops, branches and SOACs, known sizes, identity views",
    options: &[
        OptionSpec {
            name: "max-rounds",
            kind: OptionKind::UInt,
            default: "8",
            help: "at most this many rounds; a round that changes nothing ends the pass",
        },
        OptionSpec {
            name: "rules",
            kind: OptionKind::String,
            default: "",
            help: "the rule sets soac-rewrite runs each round (empty: the schedules of all loaded files)",
        },
        OptionSpec {
            name: "stats",
            kind: OptionKind::Bool,
            default: "false",
            help: "print ops before and after, what each simplification did, the rounds and the stop reason",
        },
    ],
    reads: &[Level::Soac, Level::Segop, Level::Mem],
    writes: None,
    create: &|o: &Options, rules| {
        Box::new(Simplify {
            book: rules.clone(),
            max_rounds: o.uint("max-rounds") as usize,
            rules: o.string("rules").to_string(),
            stats: o.bool("stats"),
        })
    },
};

struct Simplify {
    book: Arc<RuleBook>,
    max_rounds: usize,
    rules: String,
    stats: bool,
}

/// How often each simplification applied, by name.
type Counts = BTreeMap<&'static str, usize>;

impl Pass for Simplify {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let mut rewrite_options = Options::defaults(super::rewrite::INFO.options);
        rewrite_options.set("rules", OptionValue::String(self.rules.clone()));
        let mut rewrite = (super::rewrite::INFO.create)(&rewrite_options, &self.book);
        let mut cse = (crate::ir::cse::INFO.create)(&Options::defaults(crate::ir::cse::INFO.options), &self.book);
        let mut dce = (crate::ir::dce::INFO.create)(&Options::defaults(crate::ir::dce::INFO.options), &self.book);
        let before = ctx.count_ops(op);
        let mut counts = Counts::new();
        let mut stop = format!("round limit ({})", self.max_rounds);
        let mut rounds = 0;
        for round in 0..self.max_rounds {
            rounds = round + 1;
            let ops_before = ctx.count_ops(op);
            let changed = structural(ctx, op, &mut counts);
            // The rules already ran on this scalar code unless the
            // structure changed (the most costly part of a round).
            if round == 0 || changed {
                rewrite.run(ctx, op)?;
            }
            cse.run(ctx, op)?;
            dce.run(ctx, op)?;
            if !changed && ctx.count_ops(op) == ops_before {
                stop = "fixed point".into();
                break;
            }
        }
        if self.stats {
            let did: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
            eprintln!(
                "soac-simplify: ops {before} -> {}; {}; {rounds} rounds, stopped at {stop}",
                ctx.count_ops(op),
                if did.is_empty() {
                    "no structural change".to_string()
                } else {
                    did.join(", ")
                }
            );
        }
        Ok(())
    }
}

/// One sweep of the structural simplifications; whether any applied.
fn structural(ctx: &mut Context, root: OpId, counts: &mut Counts) -> bool {
    let taken = consumed(ctx, root);
    let mut changed = false;
    for b in blocks_inner_first(ctx, root) {
        if !block_alive(ctx, b) {
            continue;
        }
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        for o in ops {
            if ctx.is_alive(o) {
                for what in simplify_op(ctx, o, &taken) {
                    *counts.entry(what).or_default() += 1;
                    changed = true;
                }
            }
        }
    }
    changed
}

/// The simplifications that applied to `o` (in order, while it lives),
/// by name.
fn simplify_op(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> Vec<&'static str> {
    let name = ctx.op_name(o).to_string();
    let tries: &[(&'static str, Rule)] = match name.as_str() {
        "soac.size" => &[("known-sizes", known_size)],
        "soac.index" => &[
            ("index-replicate", index_replicate),
            ("index-iota", index_iota),
            ("index-index", index_index),
            ("index-concat", index_concat),
        ],
        "soac.rearrange" => &[("identity-views", rearrange)],
        "soac.reshape" => &[("identity-views", reshape)],
        "soac.concat" => &[("concat-concat", concat_concat)],
        "soac.assert" => &[("true-assertions", true_assertion)],
        "soac.map" => &[
            ("size-one-soacs", size_one),
            ("map-concat", map_concat),
            ("map-across-views", map_across_view),
            ("iota-indexing", iota_indexing),
            ("replicate-inputs", replicate_inputs),
            ("unused-inputs", unused_inputs),
            ("map-copy-propagation", map_yields),
            ("unused-results", unused_mapped),
            ("hoisted", hoist),
        ],
        "soac.redomap" | "soac.scanomap" => &[
            ("size-one-soacs", size_one),
            ("unused-results", unused_mapped),
            ("hoisted", hoist),
        ],
        "soac.reduce" | "soac.scan" => &[("size-one-soacs", size_one)],
        "soac.screma" => &[("unused-results", unused_post), ("hoisted", hoist)],
        "soac.scatter" => &[("concat-scatter", concat_scatter), ("hoisted", hoist)],
        "soac.hist" | "soac.stream_seq" | "soac.stream_par" | "soac.filter" | "soac.partition" => &[("hoisted", hoist)],
        "soac.scatter_stream" => &[("unwritten-accumulators", unwritten_accumulator)],
        "soac.hist_stream" => &[
            ("neutral-writes", neutral_writes),
            ("unwritten-accumulators", unwritten_accumulator),
        ],
        "soac.loop" => &[
            ("trivial-loops", trivial_loop),
            ("unrolled", unroll),
            ("loop-copy-propagation", invariant_merge),
            ("loop-closed-forms", closed_form),
            ("unused-results", dead_merge),
            ("unexistentialised", loop_sizes),
            ("hoisted", hoist),
            // After hoisting, which takes out what needs no guard and
            // leaves closed forms their chance (Note [Loop closed forms]).
            ("invariant-bodies", invariant_body),
        ],
        "soac.if" => &[
            ("constant-branches", constant_branch),
            ("if-copy-propagation", same_yields),
            ("unused-results", unused_if),
            ("unexistentialised", if_sizes),
        ],
        _ => &[],
    };
    let mut applied = Vec::new();
    for (what, rule) in tries {
        if !ctx.is_alive(o) {
            break;
        }
        if rule(ctx, o, taken) {
            applied.push(*what);
        }
    }
    applied
}

/// A simplification of one op; whether it applied.
type Rule = fn(&mut Context, OpId, &HashSet<Value>) -> bool;

// ----- helpers ---------------------------------------------------------------

/// The integer value of `v` when a `soac.constant` defines it.
fn int_const(ctx: &Context, v: Value) -> Option<i64> {
    let d = ctx.defining_op(v)?;
    if ctx.op_name(d) != "soac.constant" {
        return None;
    }
    match ctx.attr_kind(ctx.attr(d, "value")?) {
        AttrKind::Int { bits, .. } => Some(*bits),
        _ => None,
    }
}

fn bool_const(ctx: &Context, v: Value) -> Option<bool> {
    let d = ctx.defining_op(v)?;
    if ctx.op_name(d) != "soac.constant" {
        return None;
    }
    match ctx.attr_kind(ctx.attr(d, "value")?) {
        AttrKind::Bool(b) => Some(*b),
        AttrKind::Int { bits, .. } => Some(*bits != 0),
        _ => None,
    }
}

/// A `soac.constant` of type `ty` (an integer type) before `at`.
fn int_before(ctx: &mut Context, at: OpId, v: i64, ty: Type) -> Value {
    let s = ctx.as_scalar(ty).expect("an integer type");
    let a = ctx.int_attr(v, s);
    let c = Builder::before(ctx, at).op("soac.constant", &[], &[ty], &[("value", a)], Vec::new());
    ctx.result(c, 0)
}

/// The block of the single region `r` of an op.
fn body(ctx: &Context, o: OpId, r: usize) -> BlockId {
    ctx.blocks(ctx.regions(o)[r])[0]
}

fn terminator(ctx: &Context, b: BlockId) -> OpId {
    ctx.last_op(b).expect("a block ends in its terminator")
}

/// Replaces `o` by an op like it that keeps only the results at `keep`
/// and has `operands`; `o`'s regions move to it. The other results must
/// be unused.
fn rebuild(ctx: &mut Context, o: OpId, keep: &[usize], operands: &[Value]) -> OpId {
    let types: Vec<Type> = keep.iter().map(|&i| ctx.value_type(ctx.result(o, i))).collect();
    let regions = ctx.take_regions(o);
    let name = ctx.op_name_sym(o);
    let attrs = ctx.attrs(o).to_vec();
    let loc = ctx.location(o);
    let new = ctx.create_op(name, operands, &types, &attrs, regions, loc);
    Builder::before(ctx, o).insert(new);
    for (j, &i) in keep.iter().enumerate() {
        let (old, nv) = (ctx.result(o, i), ctx.result(new, j));
        ctx.replace_all_uses(old, nv);
    }
    ctx.erase_op(o);
    new
}

/// Replaces the terminator of `b` by one with its operands at `keep`.
fn keep_yields(ctx: &mut Context, b: BlockId, keep: &[usize]) {
    let t = terminator(ctx, b);
    let vals: Vec<Value> = keep.iter().map(|&i| ctx.operand(t, i)).collect();
    let name = ctx.op_name(t).to_string();
    Builder::before(ctx, t).op(&name, &vals, &[], &[], Vec::new());
    ctx.erase_op(t);
}

/// Whether `op` and everything in it only computes values: pure ops,
/// branches and loops of them (but they may fail).
fn effect_free(ctx: &Context, op: OpId) -> bool {
    let mut ok = true;
    walk_with(ctx, op, &mut |y| {
        ok &= matches!(ctx.op_name(y), "soac.yield" | "soac.if" | "soac.loop") || is_pure(ctx, y)
    });
    ok
}

/// Replaces `o` as [`rebuild`] does; an op left without results and
/// without effects goes altogether.
fn rebuild_or_erase(ctx: &mut Context, o: OpId, keep: &[usize], operands: &[Value]) {
    if keep.is_empty() && effect_free(ctx, o) {
        ctx.erase_op(o);
    } else {
        rebuild(ctx, o, keep, operands);
    }
}

// ----- sizes and views -------------------------------------------------------

/// `soac.size` of a dimension that the array's type names.
fn known_size(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let dim = match ctx.attr(o, "dim").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Int { bits, .. }) => *bits as usize,
        _ => 0,
    };
    let arr = ctx.operand(o, 0);
    let d = match ctx.type_kind(ctx.value_type(arr)) {
        TypeKind::Array { shape, .. } => shape.get(dim).copied(),
        _ => None,
    };
    let v = match d {
        Some(Dim::Value(v)) => v,
        Some(Dim::Const(c)) => {
            let t = ctx.value_type(ctx.result(o, 0));
            int_before(ctx, o, c as i64, t)
        }
        _ => return false,
    };
    ctx.replace_op(o, &[v]);
    true
}

/// The permutation of `soac.rearrange` `o`.
pub fn perm(ctx: &Context, o: OpId) -> Option<Vec<usize>> {
    match ctx.attr_kind(ctx.attr(o, "perm")?) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&a| match ctx.attr_kind(a) {
                AttrKind::Int { bits, .. } => Some(*bits as usize),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// An identity rearrange goes; a rearrange of a rearrange becomes one.
fn rearrange(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(p) = perm(ctx, o) else { return false };
    let x = ctx.operand(o, 0);
    if p.iter().enumerate().all(|(i, &d)| i == d) {
        ctx.replace_op(o, &[x]);
        return true;
    }
    let Some(inner) = ctx.defining_op(x).filter(|&d| ctx.op_name(d) == "soac.rearrange") else {
        return false;
    };
    let Some(q) = perm(ctx, inner) else { return false };
    // Result dimension i is x's dimension p[i], which is inner's operand
    // dimension q[p[i]].
    let composed: Vec<usize> = p.iter().map(|&i| q[i]).collect();
    let src = ctx.operand(inner, 0);
    let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
    let attrs: Vec<_> = composed
        .iter()
        .map(|&d| {
            ctx.intern_attr(AttrKind::Int {
                bits: d as i64,
                ty: i64t,
            })
        })
        .collect();
    let pa = ctx.intern_attr(AttrKind::Array(attrs));
    let t = ctx.value_type(ctx.result(o, 0));
    let new = Builder::before(ctx, o).op("soac.rearrange", &[src], &[t], &[("perm", pa)], Vec::new());
    let nv = ctx.result(new, 0);
    ctx.replace_op(o, &[nv]);
    true
}

/// A reshape to the shape its operand has goes; a reshape of a reshape
/// becomes one.
fn reshape(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let (x, dims) = (ops[0], &ops[1..]);
    if let TypeKind::Array { shape, .. } = ctx.type_kind(ctx.value_type(x)) {
        let same = shape.len() == dims.len()
            && shape.iter().zip(dims).all(|(d, &v)| match *d {
                Dim::Value(w) => w == v,
                Dim::Const(c) => int_const(ctx, v) == Some(c as i64),
                Dim::Unknown => false,
            });
        if same {
            ctx.replace_op(o, &[x]);
            return true;
        }
    }
    match ctx.defining_op(x).filter(|&d| ctx.op_name(d) == "soac.reshape") {
        Some(inner) => {
            let src = ctx.operand(inner, 0);
            ctx.set_operand(o, 0, src);
            true
        }
        None => reshape_concat(ctx, o),
    }
}

/// The dimension a `soac.concat` joins along.
fn concat_dim(ctx: &Context, o: OpId) -> usize {
    match ctx.attr(o, "dim").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Int { bits, .. }) => *bits as usize,
        _ => 0,
    }
}

/// A reshape of a concatenation that only renames the size of the
/// dimension joined along (`xs ++ ys :> [n]t`, its shape check an assert
/// of its own) is the concatenation at that size.
fn reshape_concat(ctx: &mut Context, o: OpId) -> bool {
    let ops = ctx.operands(o).to_vec();
    let (x, dims) = (ops[0], &ops[1..]);
    let Some(cat) = ctx.defining_op(x).filter(|&d| ctx.op_name(d) == "soac.concat") else {
        return false;
    };
    let d = concat_dim(ctx, cat);
    let TypeKind::Array { shape, .. } = ctx.type_kind(ctx.value_type(x)).clone() else {
        return false;
    };
    let others_same = shape.len() == dims.len()
        && shape.iter().zip(dims).enumerate().all(|(k, (s, &v))| {
            k == d
                || match *s {
                    Dim::Value(w) => w == v,
                    Dim::Const(c) => int_const(ctx, v) == Some(c as i64),
                    Dim::Unknown => false,
                }
        });
    if !others_same {
        return false;
    }
    let mut operands = ctx.operands(cat).to_vec();
    operands[0] = dims[d];
    let t = ctx.value_type(ctx.result(o, 0));
    let attrs: Vec<(&str, futmlir_dialects::ir::Attr)> = ctx.attr(cat, "dim").map(|a| ("dim", a)).into_iter().collect();
    let c = Builder::before(ctx, o).op("soac.concat", &operands, &[t], &attrs, Vec::new());
    let c = ctx.result(c, 0);
    ctx.replace_op(o, &[c]);
    true
}

/// A concatenation of which an array is itself a concatenation along the
/// same dimension takes that one's arrays in its place (Futhark's concat
/// fusion): `xs ++ (ys ++ zs)` is one concatenation of three.
fn concat_concat(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let d = concat_dim(ctx, o);
    let ops = ctx.operands(o).to_vec();
    let mut operands = vec![ops[0]];
    let mut changed = false;
    for &x in &ops[1..] {
        match ctx
            .defining_op(x)
            .filter(|&c| ctx.op_name(c) == "soac.concat" && concat_dim(ctx, c) == d)
        {
            Some(inner) => {
                operands.extend_from_slice(&ctx.operands(inner)[1..]);
                changed = true;
            }
            None => operands.push(x),
        }
    }
    if changed {
        let all: Vec<usize> = (0..ctx.num_results(o)).collect();
        rebuild(ctx, o, &all, &operands);
    }
    changed
}

/// The size of dimension `d` of the array `x` as a value, when its type
/// names one.
fn dim_value(ctx: &mut Context, at: OpId, x: Value, d: usize) -> Option<Value> {
    let TypeKind::Array { shape, .. } = ctx.type_kind(ctx.value_type(x)).clone() else {
        return None;
    };
    match *shape.get(d)? {
        Dim::Value(v) => Some(v),
        Dim::Const(c) => {
            let i64_t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
            Some(int_before(ctx, at, c as i64, i64_t))
        }
        Dim::Unknown => None,
    }
}

/// Indexing a concatenation at a position of the dimension it joins
/// along picks the array that position falls in (Futhark's index-concat
/// rule): `(xs ++ ys)[i]` is `if i < n then xs[i] else ys[i - n]`, `n` the
/// size of `xs`. The bounds check stays an assert of its own (Note [Index
/// of iota]). More arrays give a concatenation of the rest in the `else`
/// branch, which the next round splits in turn.
fn index_concat(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let Some(cat) = ctx.defining_op(ops[0]).filter(|&c| ctx.op_name(c) == "soac.concat") else {
        return false;
    };
    let d = concat_dim(ctx, cat);
    if d + 1 >= ops.len() {
        return false;
    }
    let parts = ctx.operands(cat)[1..].to_vec();
    let Some(first_size) = dim_value(ctx, o, parts[0], d) else {
        return false;
    };
    let i = ops[1 + d];
    let it = ctx.value_type(i);
    let bool_t = ctx.scalar(futmlir_dialects::ir::Scalar::Bool);
    let in_first = scalar_before(ctx, o, "soac.cmpop", "lt", &[i, first_size], bool_t);
    let t = ctx.value_type(ctx.result(o, 0));
    let (then_r, else_r) = (ctx.create_region(), ctx.create_region());
    let then_b = ctx.append_block(then_r, &[]);
    let else_b = ctx.append_block(else_r, &[]);
    let mut first_ops = ops.clone();
    first_ops[0] = parts[0];
    let x = Builder::at_end(ctx, then_b).op("soac.index", &first_ops, &[t], &[], Vec::new());
    let x = ctx.result(x, 0);
    Builder::at_end(ctx, then_b).op("soac.yield", &[x], &[], &[], Vec::new());
    let k = ctx.string_attr("sub");
    let rest_i = Builder::at_end(ctx, else_b).op("soac.binop", &[i, first_size], &[it], &[("kind", k)], Vec::new());
    let rest_i = ctx.result(rest_i, 0);
    let rest = if parts.len() == 2 {
        parts[1]
    } else {
        // The rest's size along `d`: the whole's less the first's.
        let whole = ctx.operand(cat, 0);
        let i64_t = ctx.value_type(whole);
        let k = ctx.string_attr("sub");
        let w =
            Builder::at_end(ctx, else_b).op("soac.binop", &[whole, first_size], &[i64_t], &[("kind", k)], Vec::new());
        let w = ctx.result(w, 0);
        let TypeKind::Array { elem, mut shape } = ctx.type_kind(ctx.value_type(ops[0])).clone() else {
            return false;
        };
        shape[d] = Dim::Value(w);
        let rt = ctx.intern_type(TypeKind::Array { elem, shape });
        let operands: Vec<Value> = std::iter::once(w).chain(parts[1..].iter().copied()).collect();
        let attrs: Vec<(&str, futmlir_dialects::ir::Attr)> =
            ctx.attr(cat, "dim").map(|a| ("dim", a)).into_iter().collect();
        let c = Builder::at_end(ctx, else_b).op("soac.concat", &operands, &[rt], &attrs, Vec::new());
        ctx.result(c, 0)
    };
    let mut rest_ops = ops.clone();
    rest_ops[0] = rest;
    rest_ops[1 + d] = rest_i;
    let y = Builder::at_end(ctx, else_b).op("soac.index", &rest_ops, &[t], &[], Vec::new());
    let y = ctx.result(y, 0);
    Builder::at_end(ctx, else_b).op("soac.yield", &[y], &[], &[], Vec::new());
    let guarded = Builder::before(ctx, o).op("soac.if", &[in_first], &[t], &[], vec![then_r, else_r]);
    let r = ctx.result(guarded, 0);
    ctx.replace_op(o, &[r]);
    true
}

/// A map whose lambda only concatenates its rows (`map2 concat xss yss`)
/// is one concatenation along the next dimension of the arrays it maps
/// over (Futhark's internalisation of `map2 concat`), which index-concat
/// and concat fusion can see.
fn map_concat(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    if ctx.num_results(o) != 1 {
        return false;
    }
    let b = body(ctx, o, 0);
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let [cat, yield_op] = ops[..] else { return false };
    if ctx.op_name(cat) != "soac.concat" || ctx.operands(yield_op) != [ctx.result(cat, 0)] {
        return false;
    }
    let args = ctx.block_args(b).to_vec();
    let inputs = ctx.operands(o)[1..].to_vec();
    let cat_ops = ctx.operands(cat).to_vec();
    let w = cat_ops[0];
    if defined_inside(ctx, w, o) {
        return false;
    }
    let mut arrays = Vec::new();
    for x in &cat_ops[1..] {
        let Some(k) = args.iter().position(|a| a == x) else {
            return false;
        };
        arrays.push(inputs[k]);
    }
    let TypeKind::Array { elem, mut shape } = ctx.type_kind(ctx.value_type(ctx.result(o, 0))).clone() else {
        return false;
    };
    let d = concat_dim(ctx, cat) + 1;
    if d >= shape.len() {
        return false;
    }
    shape[d] = Dim::Value(w);
    let t = ctx.intern_type(TypeKind::Array { elem, shape });
    let dim = ctx.int_attr(d as i64, futmlir_dialects::ir::Scalar::I64);
    let operands: Vec<Value> = std::iter::once(w).chain(arrays).collect();
    let c = Builder::before(ctx, o).op("soac.concat", &operands, &[t], &[("dim", dim)], Vec::new());
    let c = ctx.result(c, 0);
    ctx.replace_op(o, &[c]);
    true
}

/// **Note [Concatenations into a scatter].**
/// A scatter whose index and value arrays are all concatenations of `q`
/// arrays of one outer size `n` (`scatter dest (is0 ++ is1) (vs0 ++ vs1)`)
/// writes, for each `i < n`, the pairs of row `i` of every piece: it is a
/// scatter over `n` rows writing `q` pairs per row into each destination
/// (attribute `num_writes`; Futhark fuses the same way). Its lambda runs
/// once per piece. The concatenations are then no longer read by it, and
/// the scatter may fuse with the SOAC that made the pieces. Two writes to
/// one index were unspecified before, and stay so.
fn concat_scatter(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let k = ctx.num_results(o);
    let ops = ctx.operands(o).to_vec();
    let m = ops.len() - 1 - k;
    if m == 0 {
        return false;
    }
    let (inputs, dests) = (&ops[1..1 + m], &ops[1 + m..]);
    let mut pieces: Vec<Vec<Value>> = Vec::new();
    let mut size: Option<Dim> = None;
    for &x in inputs {
        let Some(cat) = ctx.defining_op(x) else { return false };
        if ctx.op_name(cat) != "soac.concat" || concat_dim(ctx, cat) != 0 {
            return false;
        }
        let ps = ctx.operands(cat)[1..].to_vec();
        if ps.len() < 2 || pieces.first().is_some_and(|first| first.len() != ps.len()) {
            return false;
        }
        for &p in &ps {
            let d = match ctx.type_kind(ctx.value_type(p)) {
                TypeKind::Array { shape, .. } => match shape.first() {
                    Some(&d) => d,
                    None => return false,
                },
                _ => return false,
            };
            if d == Dim::Unknown || size.is_some_and(|s| s != d) {
                return false;
            }
            size = Some(d);
        }
        pieces.push(ps);
    }
    let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
    let n = match size {
        Some(Dim::Value(v)) => v,
        Some(Dim::Const(c)) => match i64::try_from(c) {
            Ok(c) => int_before(ctx, o, c, i64t),
            Err(_) => return false,
        },
        _ => return false,
    };
    let q = pieces[0].len();
    let lam = body(ctx, o, 0);
    let param_types: Vec<Type> = ctx.block_args(lam).iter().map(|&a| ctx.value_type(a)).collect();
    let ws = futmlir_dialects::soac::scatter_writes(ctx, o);
    let total: usize = ws.iter().sum();
    // Piece by piece: the rows of the `m` inputs' `c`th pieces.
    let region = ctx.create_region();
    let all_types: Vec<Type> = (0..q).flat_map(|_| param_types.iter().copied()).collect();
    let blk = ctx.append_block(region, &all_types);
    let args = ctx.block_args(blk).to_vec();
    let per_piece: Vec<Vec<Value>> = args
        .chunks(m)
        .map(|rows| ctx.inline_block(lam, rows, InsertPoint::End(blk)))
        .collect();
    // Destination j's indices from every piece, then its values likewise.
    let (mut indices, mut values) = (Vec::new(), Vec::new());
    let mut first = 0;
    for &w in &ws {
        for ys in &per_piece {
            indices.extend_from_slice(&ys[first..first + w]);
            values.extend_from_slice(&ys[total + first..total + first + w]);
        }
        first += w;
    }
    indices.extend(values);
    Builder::at_end(ctx, blk).op("soac.yield", &indices, &[], &[], Vec::new());
    let mut operands = vec![n];
    for c in 0..q {
        operands.extend(pieces.iter().map(|ps| ps[c]));
    }
    operands.extend_from_slice(dests);
    let types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let counts: Vec<_> = ws
        .iter()
        .map(|&w| ctx.int_attr((w * q) as i64, futmlir_dialects::ir::Scalar::I64))
        .collect();
    let counts = ctx.intern_attr(AttrKind::Array(counts));
    let new = Builder::before(ctx, o).op(
        "soac.scatter",
        &operands,
        &types,
        &[("num_writes", counts)],
        vec![region],
    );
    let new: Vec<Value> = ctx.results(new).collect();
    ctx.replace_op(o, &new);
    true
}

/// **Note [Maps across views].**
/// A map nest that applies a scalar function to every element of an
/// array (`map (map f) xss`, as deep as the array's rank) commutes with
/// any reshape or rearrange of that array: `map f (flatten xss)` is
/// `flatten (map (map f) xss)`, and `map (map f) (transpose xss)` is
/// `transpose (map (map f) xss)`. Where the viewed array is the result of
/// a map, the second form lets `soac-fuse` join the two maps (Futhark's
/// fusion across reshapes and transpositions): the views then apply to
/// the fused result. Only nests whose levels do nothing but map their row
/// qualify (the innermost lambda sees scalars only), and only a view
/// nothing else reads, so no work or memory is duplicated.
fn map_across_view(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    if ops.len() != 2 || taken.contains(&ops[1]) || ctx.uses(ops[1]).len() != 1 {
        return false;
    }
    let x = ops[1];
    let Some(view) = ctx.defining_op(x) else { return false };
    if !matches!(ctx.op_name(view), "soac.reshape" | "soac.rearrange") {
        return false;
    }
    let src = ctx.operand(view, 0);
    if !views_a_map(ctx, src) {
        return false;
    }
    let (Some(rank), Some(src_rank)) = (array_rank(ctx, x), array_rank(ctx, src)) else {
        return false;
    };
    let Some(inner) = elementwise_innermost(ctx, o, rank) else {
        return false;
    };
    let mut widths = Vec::new();
    for d in 0..src_rank {
        let Some(w) = dim_value(ctx, o, src, d) else {
            return false;
        };
        widths.push(w);
    }
    let TypeKind::Array { shape: src_shape, .. } = ctx.type_kind(ctx.value_type(src)).clone() else {
        return false;
    };
    let elems: Vec<Type> = {
        let y = terminator(ctx, body(ctx, inner, 0));
        ctx.operands(y).iter().map(|&v| ctx.value_type(v)).collect()
    };
    // The nest over `src`, built from the innermost level out around the
    // innermost lambda, which moves there (`o` goes).
    let mut region = ctx.take_regions(inner).remove(0);
    let mut result_types = Vec::new();
    for d in (0..src_rank).rev() {
        result_types = elems
            .iter()
            .map(|&e| {
                let shape = src_shape[d..].to_vec();
                ctx.intern_type(TypeKind::Array { elem: e, shape })
            })
            .collect();
        if d == 0 {
            break;
        }
        let row_t = row_type(ctx, ctx.value_type(src), d);
        let r = ctx.create_region();
        let blk = ctx.append_block(r, &[row_t]);
        let row = ctx.block_args(blk)[0];
        let m = Builder::at_end(ctx, blk).op("soac.map", &[widths[d], row], &result_types, &[], vec![region]);
        let ys: Vec<Value> = ctx.results(m).collect();
        Builder::at_end(ctx, blk).op("soac.yield", &ys, &[], &[], Vec::new());
        region = r;
    }
    let m = Builder::before(ctx, o).op("soac.map", &[widths[0], src], &result_types, &[], vec![region]);
    let mapped: Vec<Value> = ctx.results(m).collect();
    let mut viewed = Vec::new();
    for (i, &y) in mapped.iter().enumerate() {
        let t = ctx.value_type(ctx.result(o, i));
        let mut operands = ctx.operands(view).to_vec();
        operands[0] = y;
        let attrs = ctx.attrs(view).to_vec();
        let (name, loc) = (ctx.op_name_sym(view), ctx.location(view));
        let v = ctx.create_op(name, &operands, &[t], &attrs, Vec::new(), loc);
        Builder::before(ctx, o).insert(v);
        viewed.push(ctx.result(v, 0));
    }
    ctx.replace_op(o, &viewed);
    true
}

/// Whether `x` is a map's result, or a reshape or rearrange of one (the
/// rewrite then repeats for each view).
fn views_a_map(ctx: &Context, mut x: Value) -> bool {
    while let Some(d) = ctx.defining_op(x) {
        match ctx.op_name(d) {
            "soac.map" => return true,
            "soac.reshape" | "soac.rearrange" => x = ctx.operand(d, 0),
            _ => return false,
        }
    }
    false
}

/// The rank of the array `x`; `None` for a scalar.
fn array_rank(ctx: &Context, x: Value) -> Option<usize> {
    match ctx.type_kind(ctx.value_type(x)) {
        TypeKind::Array { shape, .. } => Some(shape.len()),
        _ => None,
    }
}

/// The type of the rows `d` levels into `t` (an array of rank > `d`).
fn row_type(ctx: &mut Context, t: Type, d: usize) -> Type {
    match ctx.type_kind(t).clone() {
        TypeKind::Array { elem, shape } => ctx.intern_type(TypeKind::Array {
            elem,
            shape: shape[d..].to_vec(),
        }),
        _ => t,
    }
}

/// The innermost map of the nest `o`, when `o` is `depth` levels of
/// maps, each over its one row and doing nothing else, down to a lambda
/// from a scalar to scalars (Note [Maps across views]).
fn elementwise_innermost(ctx: &Context, o: OpId, depth: usize) -> Option<OpId> {
    let mut level = o;
    for d in 0..depth {
        if ctx.op_name(level) != "soac.map" || ctx.operands(level).len() != 2 {
            return None;
        }
        let r = ctx.regions(level)[0];
        let b = ctx.blocks(r)[0];
        let args = ctx.block_args(b).to_vec();
        if d + 1 == depth {
            let y = terminator(ctx, b);
            let scalar = |v: &Value| !matches!(ctx.type_kind(ctx.value_type(*v)), TypeKind::Array { .. });
            return (args.iter().all(scalar) && ctx.operands(y).iter().all(scalar)).then_some(level);
        }
        let body: Vec<OpId> = ctx.block_ops(b).collect();
        let [next, y] = body[..] else { return None };
        let row = *args.first()?;
        let results: Vec<Value> = ctx.results(next).collect();
        if ctx.operands(next).get(1) != Some(&row) || ctx.uses(row).len() != 1 || ctx.operands(y) != results.as_slice()
        {
            return None;
        }
        level = next;
    }
    None
}

/// **Note [Index of iota].**
/// Element `i` of `iota n start stride` (of integer type `t`) is
/// `start + t(i) * stride`, `t(i)` the index truncated (or widened) to `t`
/// (the iota's own elements wrap the same way); element `i` of
/// `replicate n v` is `v`. The index's bounds check is the `soac.assert`
/// the internaliser put before it (or none, where it knows the index in
/// bounds); an unchecked index (`#[unsafe]`) out of bounds is undefined,
/// as in Futhark, so these rewrites need not know the bounds. Once no
/// index reads it, the array goes: a SOAC over the index space (a segop's
/// thread index, a map's `iota` input its fusion turned into indexing)
/// needs no `iota` in memory.
fn index_iota(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let Some(iota) = ctx.defining_op(ops[0]).filter(|&d| ctx.op_name(d) == "soac.iota") else {
        return false;
    };
    if ops.len() != 2 {
        return false;
    }
    let i = ops[1];
    let parts = ctx.operands(iota).to_vec();
    let [_, start, stride] = parts[..] else {
        // `iota n`: element i is i.
        ctx.replace_op(o, &[i]);
        return true;
    };
    let t = ctx.value_type(start);
    let (Some(st), Some(si)) = (ctx.as_scalar(t), ctx.as_scalar(ctx.value_type(i))) else {
        return false;
    };
    let mut x = i;
    if st != si {
        let kind = if st.bits() < si.bits() { "trunc" } else { "zext" };
        x = scalar_before(ctx, o, "soac.convop", kind, &[x], t);
    }
    let scaled = scalar_before(ctx, o, "soac.binop", "mul", &[x, stride], t);
    let v = scalar_before(ctx, o, "soac.binop", "add", &[start, scaled], t);
    ctx.replace_op(o, &[v]);
    true
}

/// Indexing a row of an array taken by indexing is one index:
/// `a[i][j]` is `a[i, j]`.
fn index_index(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let Some(inner) = ctx.defining_op(ops[0]).filter(|&d| ctx.op_name(d) == "soac.index") else {
        return false;
    };
    let mut operands = ctx.operands(inner).to_vec();
    operands.extend_from_slice(&ops[1..]);
    let t = ctx.value_type(ctx.result(o, 0));
    let x = Builder::before(ctx, o).op("soac.index", &operands, &[t], &[], Vec::new());
    let x = ctx.result(x, 0);
    ctx.replace_op(o, &[x]);
    true
}

/// An element of a `replicate` is the replicated value (Note [Index of
/// iota]).
fn index_replicate(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let Some(rep) = ctx.defining_op(ops[0]).filter(|&d| ctx.op_name(d) == "soac.replicate") else {
        return false;
    };
    // The bounds check is an assert of its own (Note [Index of iota]).
    if ops.len() != 2 {
        return false;
    }
    let v = ctx.operand(rep, 1);
    ctx.replace_op(o, &[v]);
    true
}

// ----- SOACs -----------------------------------------------------------------

/// The number of values a SOAC combines with its operator (0 for map).
fn combined_count(ctx: &Context, o: OpId) -> usize {
    match ctx.op_name(o) {
        "soac.reduce" | "soac.scan" | "soac.redomap" | "soac.scanomap" => ctx.block_args(body(ctx, o, 0)).len() / 2,
        _ => 0,
    }
}

/// A map, reduce, scan, redomap or scanomap over one row: its lambda and
/// operator applied to that row, without the SOAC.
fn size_one(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ops = ctx.operands(o).to_vec();
    let n = ops[0];
    if int_const(ctx, n) != Some(1) {
        return false;
    }
    let k = combined_count(ctx, o);
    let (nes, inputs) = (ops[1..1 + k].to_vec(), ops[1 + k..].to_vec());
    let nregions = ctx.regions(o).len();
    let lambda = (ctx.op_name(o) == "soac.map" || nregions == 2).then(|| body(ctx, o, nregions - 1));
    let i64t = ctx.scalar(futmlir_dialects::ir::Scalar::I64);
    let zero = int_before(ctx, o, 0, i64t);
    let param_types: Vec<Type> = match lambda {
        Some(l) => ctx.block_args(l).iter().map(|&a| ctx.value_type(a)).collect(),
        None => ctx.block_args(body(ctx, o, 0))[..k]
            .iter()
            .map(|&a| ctx.value_type(a))
            .collect(),
    };
    let mut rows = Vec::new();
    for (&x, &t) in inputs.iter().zip(&param_types) {
        let r = Builder::before(ctx, o).op("soac.index", &[x, zero], &[t], &[], Vec::new());
        rows.push(ctx.result(r, 0));
    }
    let ys = match lambda {
        Some(l) => ctx.inline_block(l, &rows, InsertPoint::Before(o)),
        None => rows,
    };
    let mut combined = Vec::new();
    if k > 0 {
        let args: Vec<Value> = nes.iter().chain(&ys[..k]).copied().collect();
        let operator = body(ctx, o, 0);
        combined = ctx.inline_block(operator, &args, InsertPoint::Before(o));
    }
    let scans = matches!(ctx.op_name(o), "soac.scan" | "soac.scanomap");
    let mut new = Vec::new();
    for (i, r) in ctx.results(o).collect::<Vec<_>>().into_iter().enumerate() {
        let t = ctx.value_type(r);
        let v = if i < k { combined[i] } else { ys[i] };
        if i < k && !scans {
            new.push(v);
        } else {
            let rep = Builder::before(ctx, o).op("soac.replicate", &[n, v], &[t], &[], Vec::new());
            new.push(ctx.result(rep, 0));
        }
    }
    ctx.replace_op(o, &new);
    true
}

/// A map result whose lambda yields a value from outside is a
/// `replicate`; one whose lambda yields its row of an input is that input
/// (when neither is consumed: the map's result is a fresh array), unless
/// the lambda has effects (an assertion).
fn map_yields(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> bool {
    // The map must stay when its lambda may fail.
    if !effect_free(ctx, o) {
        return false;
    }
    let lam = body(ctx, o, 0);
    let params = ctx.block_args(lam).to_vec();
    let yields = ctx.operands(terminator(ctx, lam)).to_vec();
    let inputs = ctx.operands(o)[1..].to_vec();
    let n = ctx.operand(o, 0);
    let mut changed = false;
    for (i, &y) in yields.iter().enumerate() {
        let r = ctx.result(o, i);
        if !ctx.has_uses(r) {
            continue;
        }
        if let Some(p) = params.iter().position(|&p| p == y) {
            let x = inputs[p];
            if !taken.contains(&r) && !taken.contains(&x) && ctx.value_type(x) == ctx.value_type(r) {
                ctx.replace_all_uses(r, x);
                changed = true;
            }
        } else if !defined_inside(ctx, y, o) {
            let t = ctx.value_type(r);
            let rep = Builder::before(ctx, o).op("soac.replicate", &[n, y], &[t], &[], Vec::new());
            let v = ctx.result(rep, 0);
            ctx.replace_all_uses(r, v);
            changed = true;
        }
    }
    changed
}

/// **Note [Indexing with iota].**
/// In `map (\i -> ... a[c.., i, r..] ...) (iota n)`, with `a` and the
/// indices `c` from outside the map and `a`'s dimension at `i`'s position
/// of size `n`, the index is row `i` of `a[c..]`: the map takes `a[c..]`
/// as one more input (or its parameter, if it already has it), and the
/// index becomes that parameter (indexed by `r..`). Once no other use of
/// `i` is left, the `iota` input goes too (unused inputs), and the maps
/// fuse as maps over the same arrays do (Futhark's tabulate fusion, thesis
/// 5.2.3).
fn iota_indexing(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> bool {
    let lam = body(ctx, o, 0);
    let n = ctx.operand(o, 0);
    let mut inputs = ctx.operands(o)[1..].to_vec();
    let mut changed = false;
    for k in 0..inputs.len() {
        let is_iota = ctx
            .defining_op(inputs[k])
            .is_some_and(|d| ctx.op_name(d) == "soac.iota" && ctx.operands(d).len() == 1);
        if !is_iota {
            continue;
        }
        let p = ctx.block_args(lam)[k];
        let uses: Vec<OpId> = ctx.uses(p).iter().map(|u| u.op).collect();
        for x in uses {
            if !ctx.is_alive(x) || ctx.op_name(x) != "soac.index" || ctx.results(x).any(|r| taken.contains(&r)) {
                continue;
            }
            let ops = ctx.operands(x).to_vec();
            let a = ops[0];
            let Some(pos) = ops[1..].iter().position(|&v| v == p) else {
                continue;
            };
            let (prefix, rest) = (&ops[1..1 + pos], &ops[2 + pos..]);
            let outside = |v: Value| !defined_inside(ctx, v, o);
            let TypeKind::Array { elem, shape } = ctx.type_kind(ctx.value_type(a)).clone() else {
                continue;
            };
            if !outside(a) || !prefix.iter().all(|&v| outside(v)) || shape.get(pos) != Some(&Dim::Value(n)) {
                continue;
            }
            // The rows: `a` itself, or `a[c..]` made before the map.
            let rows = if prefix.is_empty() {
                a
            } else {
                let t = ctx.intern_type(TypeKind::Array {
                    elem,
                    shape: shape[pos..].to_vec(),
                });
                let mut operands = vec![a];
                operands.extend_from_slice(prefix);
                let s = Builder::before(ctx, o).op("soac.index", &operands, &[t], &[], Vec::new());
                ctx.result(s, 0)
            };
            let row = match inputs.iter().position(|&v| v == rows) {
                Some(j) => ctx.block_args(lam)[j],
                None => {
                    let row_t = match shape.len() - pos {
                        1 => elem,
                        _ => ctx.intern_type(TypeKind::Array {
                            elem,
                            shape: shape[pos + 1..].to_vec(),
                        }),
                    };
                    inputs.push(rows);
                    ctx.add_block_arg(lam, row_t)
                }
            };
            if rest.is_empty() {
                ctx.replace_op(x, &[row]);
            } else {
                let mut operands = vec![row];
                operands.extend_from_slice(rest);
                let t = ctx.value_type(ctx.result(x, 0));
                let y = Builder::before(ctx, x).op("soac.index", &operands, &[t], &[], Vec::new());
                let y = ctx.result(y, 0);
                ctx.replace_op(x, &[y]);
            }
            changed = true;
        }
    }
    if changed {
        let mut operands = vec![n];
        operands.extend(inputs);
        let all: Vec<usize> = (0..ctx.num_results(o)).collect();
        rebuild(ctx, o, &all, &operands);
    }
    changed
}

/// Every row of `replicate n v` is `v`: a map over it reads `v` in its
/// lambda instead of the row parameter (which `unused-inputs` then drops).
/// Not when the lambda consumes the row: it would consume `v` in every
/// iteration.
fn replicate_inputs(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> bool {
    let lam = body(ctx, o, 0);
    let params = ctx.block_args(lam).to_vec();
    let inputs = ctx.operands(o)[1..].to_vec();
    let mut changed = false;
    for (&p, &x) in params.iter().zip(&inputs) {
        let Some(rep) = ctx.defining_op(x).filter(|&d| ctx.op_name(d) == "soac.replicate") else {
            continue;
        };
        let v = ctx.operand(rep, 1);
        let used = ctx.has_uses(p) || !ctx.type_users(p).is_empty();
        if used && !taken.contains(&p) && !taken.contains(&v) && ctx.value_type(v) == ctx.value_type(p) {
            ctx.replace_all_uses(p, v);
            changed = true;
        }
    }
    changed
}

/// A map drops the arrays it maps over whose rows its lambda does not
/// read, keeping at least one (its width is its operand, but a map of no
/// arrays is left to `map-copy-propagation`).
fn unused_inputs(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let lam = body(ctx, o, 0);
    let params = ctx.block_args(lam).to_vec();
    let unused: Vec<usize> = (0..params.len())
        .filter(|&k| !ctx.has_uses(params[k]) && ctx.type_users(params[k]).is_empty())
        .collect();
    if unused.is_empty() || unused.len() == params.len() {
        return false;
    }
    let mut operands = vec![ctx.operand(o, 0)];
    for (k, &v) in ctx.operands(o)[1..].to_vec().iter().enumerate() {
        if !unused.contains(&k) {
            operands.push(v);
        }
    }
    for &k in unused.iter().rev() {
        ctx.erase_block_arg(lam, k);
    }
    let all: Vec<usize> = (0..ctx.num_results(o)).collect();
    rebuild(ctx, o, &all, &operands);
    true
}

/// A map, redomap or scanomap drops the arrays it maps out that nobody
/// reads (a map none of whose results are read is dead code).
fn unused_mapped(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let k = combined_count(ctx, o);
    let n = ctx.num_results(o);
    let keep: Vec<usize> = (0..n).filter(|&i| i < k || ctx.has_uses(ctx.result(o, i))).collect();
    if keep.len() == n || keep.is_empty() {
        return false;
    }
    let lam = body(ctx, o, ctx.regions(o).len() - 1);
    keep_yields(ctx, lam, &keep);
    let operands = ctx.operands(o).to_vec();
    rebuild(ctx, o, &keep, &operands);
    true
}

/// A screma drops the mapped results nobody reads (its post-lambda's
/// yields; the reduced values before them stay).
fn unused_post(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let r = ctx.block_args(body(ctx, o, 1)).len() / 2;
    let n = ctx.num_results(o);
    let keep: Vec<usize> = (0..n).filter(|&i| i < r || ctx.has_uses(ctx.result(o, i))).collect();
    if keep.len() == n || keep.is_empty() {
        return false;
    }
    let yields: Vec<usize> = keep.iter().filter(|&&i| i >= r).map(|&i| i - r).collect();
    keep_yields(ctx, body(ctx, o, 3), &yields);
    let operands = ctx.operands(o).to_vec();
    rebuild(ctx, o, &keep, &operands);
    true
}

/// Note [Hoisting]: moves invariant ops out of `o`'s regions, before it.
fn hoist(ctx: &mut Context, o: OpId, taken: &HashSet<Value>) -> bool {
    let mut moved = false;
    let for_loop = ctx.op_name(o) == "soac.loop" && loop_offset(ctx, o) == Some(1);
    // `n > 0` of a for loop, made the first time an op needs it.
    let mut nonempty: Option<Value> = None;
    for r in ctx.regions(o).to_vec() {
        for b in ctx.blocks(r).to_vec() {
            let ops: Vec<OpId> = ctx.block_ops(b).collect();
            for &x in ops.split_last().map_or(&[][..], |(_, rest)| rest) {
                let invariant = !ctx.results(x).any(|v| taken.contains(&v))
                    && reads(ctx, x, true).iter().all(|&v| !defined_inside(ctx, v, o));
                if !invariant {
                    continue;
                }
                if cannot_fail(ctx, x) {
                    ctx.move_op_before(x, o);
                    moved = true;
                } else if for_loop && protectable(ctx, x) {
                    let c = match nonempty {
                        Some(c) => c,
                        None => {
                            let n = ctx.operand(o, 0);
                            let nt = ctx.value_type(n);
                            let zero = int_before(ctx, o, 0, nt);
                            let bool_t = ctx.scalar(futmlir_dialects::ir::Scalar::Bool);
                            *nonempty.insert(scalar_before(ctx, o, "soac.cmpop", "gt", &[n, zero], bool_t))
                        }
                    };
                    hoist_protected(ctx, x, o, c);
                    moved = true;
                }
            }
        }
    }
    moved
}

/// Whether `x` may leave a for loop under `if n > 0` (Note [Hoisting]): an
/// assertion, or a pure op without regions whose results are scalars.
fn protectable(ctx: &Context, x: OpId) -> bool {
    ctx.regions(x).is_empty()
        && (ctx.op_name(x) == "soac.assert"
            || is_pure(ctx, x) && ctx.results(x).all(|r| ctx.as_scalar(ctx.value_type(r)).is_some()))
}

/// Moves `x` before `o` into `if c then x else zeros`.
fn hoist_protected(ctx: &mut Context, x: OpId, o: OpId, c: Value) {
    let results: Vec<Value> = ctx.results(x).collect();
    let types: Vec<Type> = results.iter().map(|&r| ctx.value_type(r)).collect();
    let zeros: Vec<Value> = types
        .iter()
        .map(|&t| {
            let kind = match ctx.as_scalar(t) {
                Some(futmlir_dialects::ir::Scalar::Bool) => AttrKind::Bool(false),
                Some(s) if s.is_float() => AttrKind::Float { bits: 0, ty: t },
                _ => AttrKind::Int { bits: 0, ty: t },
            };
            let a = ctx.intern_attr(kind);
            let z = Builder::before(ctx, o).op("soac.constant", &[], &[t], &[("value", a)], Vec::new());
            ctx.result(z, 0)
        })
        .collect();
    let (then_r, else_r) = (ctx.create_region(), ctx.create_region());
    let then_b = ctx.append_block(then_r, &[]);
    let else_b = ctx.append_block(else_r, &[]);
    let then_yield = Builder::at_end(ctx, then_b).op("soac.yield", &results, &[], &[], Vec::new());
    Builder::at_end(ctx, else_b).op("soac.yield", &zeros, &[], &[], Vec::new());
    let guarded = Builder::before(ctx, o).op("soac.if", &[c], &types, &[], vec![then_r, else_r]);
    for (i, &r) in results.iter().enumerate() {
        let g = ctx.result(guarded, i);
        ctx.replace_all_uses(r, g);
        ctx.set_operand(then_yield, i, r);
    }
    ctx.move_op_before(x, then_yield);
}

// ----- loops -----------------------------------------------------------------

/// A for loop of no iterations is its initial values; one of one
/// iteration is its body; a while loop whose condition starts false is
/// its initial values.
fn trivial_loop(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(off) = loop_offset(ctx, o) else { return false };
    let inits = ctx.operands(o)[off..].to_vec();
    if off == 0 {
        if bool_const(ctx, inits[0]) == Some(false) {
            ctx.replace_op(o, &inits);
            return true;
        }
        return false;
    }
    let bound = ctx.operand(o, 0);
    match int_const(ctx, bound) {
        Some(n) if n <= 0 => {
            ctx.replace_op(o, &inits);
            true
        }
        Some(1) => {
            let t = ctx.value_type(bound);
            let i = int_before(ctx, o, 0, t);
            let args: Vec<Value> = std::iter::once(i).chain(inits).collect();
            let b = body(ctx, o, 0);
            let out = ctx.inline_block(b, &args, InsertPoint::Before(o));
            ctx.replace_op(o, &out);
            true
        }
        _ => false,
    }
}

/// A for loop whose body reads neither its iteration number nor its merge
/// parameters computes the same values in every iteration, so it is
/// `if n > 0 then body else inits`. Running the body once instead of `n`
/// times changes nothing else: soac code has no effects but assertions,
/// which fail in the first iteration or never, and a body cannot consume
/// an array that is not a merge parameter (Futhark's uniqueness rules).
fn invariant_body(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    if loop_offset(ctx, o) != Some(1) {
        return false;
    }
    let b = body(ctx, o, 0);
    if ctx
        .block_args(b)
        .iter()
        .any(|&a| ctx.has_uses(a) || !ctx.type_users(a).is_empty())
    {
        return false;
    }
    let n = ctx.operand(o, 0);
    let nt = ctx.value_type(n);
    let zero = int_before(ctx, o, 0, nt);
    let bool_t = ctx.scalar(futmlir_dialects::ir::Scalar::Bool);
    let nonempty = scalar_before(ctx, o, "soac.cmpop", "gt", &[n, zero], bool_t);
    let inits = ctx.operands(o)[1..].to_vec();
    let types: Vec<Type> = ctx.results(o).map(|r| ctx.value_type(r)).collect();
    let (then_r, else_r) = (ctx.create_region(), ctx.create_region());
    let then_b = ctx.append_block(then_r, &[]);
    let else_b = ctx.append_block(else_r, &[]);
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let (last, rest) = ops.split_last().expect("a loop body ends in a yield");
    let yields = ctx.operands(*last).to_vec();
    let then_yield = Builder::at_end(ctx, then_b).op("soac.yield", &yields, &[], &[], Vec::new());
    Builder::at_end(ctx, else_b).op("soac.yield", &inits, &[], &[], Vec::new());
    for &x in rest {
        ctx.move_op_before(x, then_yield);
    }
    let guarded = Builder::before(ctx, o).op("soac.if", &[nonempty], &types, &[], vec![then_r, else_r]);
    let out: Vec<Value> = ctx.results(guarded).collect();
    ctx.replace_op(o, &out);
    true
}

/// **Note [Simplifying accumulators].**
/// Two of Futhark's simplifications of accumulators (Note [Accumulator
/// ops] in the soac dialect): a stream whose lambda yields its
/// accumulator as it got it writes nothing, and is its destination
/// (Futhark's accs/id.fut); in a `hist_stream`, a write of the neutral
/// element changes nothing (`op x ne = x`) and goes (accs/neutral.fut),
/// which may leave the stream writing nothing.
fn unwritten_accumulator(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let lambda = body(ctx, o, ctx.regions(o).len() - 1);
    let acc = ctx.block_args(lambda)[0];
    if ctx.operands(terminator(ctx, lambda)) != [acc] {
        return false;
    }
    // What else the lambda does only computes values (an assertion
    // stays, and so does the stream).
    let ops: Vec<OpId> = ctx.block_ops(lambda).collect();
    if !ops.iter().all(|&x| effect_free(ctx, x)) {
        return false;
    }
    let dest = ctx.operand(o, 1);
    ctx.replace_op(o, &[dest]);
    true
}

/// The writes of the neutral element in a `hist_stream` go (Note
/// [Simplifying accumulators]).
fn neutral_writes(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let ne = ctx.operand(o, 2);
    let constant = |ctx: &Context, v: Value| {
        ctx.defining_op(v)
            .filter(|&d| ctx.op_name(d) == "soac.constant")
            .and_then(|d| ctx.attr(d, "value"))
    };
    let ne_const = constant(ctx, ne);
    let mut neutral = Vec::new();
    ctx.walk(o, &mut |w| {
        if ctx.op_name(w) == "soac.acc_write" {
            let v = ctx.operand(w, 2);
            let is_ne = v == ne || ne_const.is_some() && constant(ctx, v) == ne_const;
            if is_ne && futmlir_dialects::soac::acc_stream(ctx, ctx.operand(w, 0)) == Some(o) {
                neutral.push(w);
            }
        }
    });
    for &w in &neutral {
        let acc = ctx.operand(w, 0);
        ctx.replace_op(w, &[acc]);
    }
    !neutral.is_empty()
}

/// An assertion whose condition folded to `true` always holds.
fn true_assertion(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    if bool_const(ctx, ctx.operand(o, 0)) != Some(true) {
        return false;
    }
    ctx.erase_op(o);
    true
}

/// The most iterations `#[unroll]` unrolls: beyond it the program would
/// grow without bound (the reference warns that it may crash the compiler).
const MAX_UNROLL: i64 = 1024;

/// A for loop marked `#[unroll]` (an `unroll` attribute) whose trip count
/// is a constant becomes that many copies of its body, each with its
/// iteration number and the previous copy's results. A count that is not
/// (yet) constant leaves the loop as it is: another round may make it one.
fn unroll(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    if loop_offset(ctx, o) != Some(1) || ctx.attr(o, "unroll").is_none() {
        return false;
    }
    let bound = ctx.operand(o, 0);
    let Some(n) = int_const(ctx, bound).filter(|&n| n <= MAX_UNROLL) else {
        return false;
    };
    let t = ctx.value_type(bound);
    let b = body(ctx, o, 0);
    let mut values = ctx.operands(o)[1..].to_vec();
    for i in 0..n.max(0) {
        let i = int_before(ctx, o, i, t);
        let args: Vec<Value> = std::iter::once(i).chain(values).collect();
        values = ctx.inline_block(b, &args, InsertPoint::Before(o));
    }
    ctx.replace_op(o, &values);
    true
}

/// A merge parameter that every iteration yields unchanged is its initial
/// value, in the body and after the loop.
fn invariant_merge(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(off) = loop_offset(ctx, o) else { return false };
    let b = body(ctx, o, 0);
    let params = ctx.block_args(b)[off..].to_vec();
    let yields = ctx.operands(terminator(ctx, b)).to_vec();
    let inits = ctx.operands(o)[off..].to_vec();
    let mut changed = false;
    // A while loop's condition (merge value 0) is never invariant.
    for j in (1 - off)..params.len() {
        let (p, r) = (params[j], ctx.result(o, j));
        let t = terminator(ctx, b);
        let used_inside = ctx.uses(p).iter().any(|u| u.op != t) || !ctx.type_users(p).is_empty();
        if yields[j] == p && (used_inside || ctx.has_uses(r)) {
            if used_inside {
                ctx.replace_all_uses(p, inits[j]);
                // The yield keeps passing the parameter on.
                ctx.set_operand(t, j, p);
            }
            ctx.replace_all_uses(r, inits[j]);
            changed = true;
        }
    }
    changed
}

/// **Note [Loop closed forms].**
/// A merge parameter `p` of a for loop of `n` iterations (initial value
/// `v`), which nothing in the body reads but the one op computing its next
/// value, whose result only that next value is, has a closed form when
/// that op is:
///
/// - *idempotent in `p`*: a value from outside the loop, or `select c x y`
///   (or an `if` on `c` whose branches only yield `x` and `y`) with `c`
///   from outside and each of `x`, `y` either `p` or from outside. After one iteration `p` holds `f(v)`, and `f(f(v)) = f(v)`,
///   so the result is `if n > 0 then f(v) else v`.
/// - `p + d` of integers, `d` from outside: `v + max(n, 0) * d`, in the
///   type of `p` (integer arithmetic wraps, so converting the count to
///   that type first gives the same sum).
///
/// The loop result's uses take the formula; the parameter is then dead
/// (`unused-results` removes it, and the loop with its last one). This is
/// what Futhark's closed-form simplification of loops does.
fn closed_form(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    if loop_offset(ctx, o) != Some(1) {
        return false;
    }
    let b = body(ctx, o, 0);
    let t = terminator(ctx, b);
    let params = ctx.block_args(b)[1..].to_vec();
    let n = ctx.operand(o, 0);
    let mut changed = false;
    for (j, &p) in params.iter().enumerate() {
        let (y, r, init) = (ctx.operand(t, j), ctx.result(o, j), ctx.operand(o, 1 + j));
        if !ctx.has_uses(r) || !ctx.type_users(p).is_empty() || !ctx.type_users(r).is_empty() {
            continue;
        }
        let outside = |v: Value| !defined_inside(ctx, v, o);
        let p_uses: Vec<OpId> = ctx.uses(p).iter().map(|u| u.op).collect();
        let formula = if outside(y) {
            p_uses.is_empty().then_some(ClosedForm::Once(None))
        } else {
            let Some(d) = ctx.defining_op(y) else { continue };
            // The op's only use is this yield, and `p`'s only use the op
            // (or the yield of a branch of it).
            let sole = ctx.uses(y).len() == 1
                && ctx.parent_block(d) == Some(b)
                && p_uses.iter().all(|&u| u == d || ctx.is_ancestor(d, u));
            let args = ctx.operands(d).to_vec();
            match ctx.op_name(d) {
                "soac.select" | "soac.if"
                    if sole
                        && outside(args[0])
                        && choices(ctx, d).is_some_and(|xs| xs.iter().all(|&x| x == p || outside(x))) =>
                {
                    Some(ClosedForm::Once(Some(d)))
                }
                "soac.binop" if sole && binop_kind(ctx, d).as_deref() == Some("add") => {
                    let int = ctx.as_scalar(ctx.value_type(y)).is_some_and(|s| s.is_int());
                    match args.as_slice() {
                        [x, e] | [e, x] if int && *x == p && *e != p && outside(*e) => Some(ClosedForm::Sum(*e)),
                        _ => None,
                    }
                }
                _ => None,
            }
        };
        let Some(formula) = formula else { continue };
        let Some(value) = build_closed_form(ctx, o, n, p, y, init, formula) else {
            continue;
        };
        ctx.replace_all_uses(r, value);
        changed = true;
    }
    changed
}

/// The two closed forms of Note [Loop closed forms]: the op computing the
/// next value, idempotent in the parameter (`None`: a value from outside,
/// the yield itself), or a sum with the given increment.
enum ClosedForm {
    Once(Option<OpId>),
    Sum(Value),
}

/// The value of the loop `o`'s merge parameter `p` after the loop, built
/// before it; `None` where the types do not allow the formula.
fn build_closed_form(
    ctx: &mut Context,
    o: OpId,
    n: Value,
    p: Value,
    y: Value,
    init: Value,
    formula: ClosedForm,
) -> Option<Value> {
    let nt = ctx.value_type(n);
    let rt = ctx.value_type(init);
    // Scalars only: an array's sizes may differ between `v` and `f(v)`.
    let (sn, st) = (ctx.as_scalar(nt)?, ctx.as_scalar(rt)?);
    if !sn.is_int() || ctx.value_type(y) != rt {
        return None;
    }
    let bool_t = ctx.scalar(futmlir_dialects::ir::Scalar::Bool);
    let zero = int_before(ctx, o, 0, nt);
    let nonempty = scalar_before(ctx, o, "soac.cmpop", "gt", &[n, zero], bool_t);
    match formula {
        ClosedForm::Once(d) => {
            let once = match d {
                None => y,
                Some(d) => {
                    // f(v): the choice with the initial value for `p`.
                    let mut args = vec![ctx.operand(d, 0)];
                    args.extend(choices(ctx, d)?.into_iter().map(|x| if x == p { init } else { x }));
                    let c = Builder::before(ctx, o).op("soac.select", &args, &[rt], &[], Vec::new());
                    ctx.result(c, 0)
                }
            };
            let s = Builder::before(ctx, o).op("soac.select", &[nonempty, once, init], &[rt], &[], Vec::new());
            Some(ctx.result(s, 0))
        }
        ClosedForm::Sum(d) => {
            let count = Builder::before(ctx, o).op("soac.select", &[nonempty, n, zero], &[nt], &[], Vec::new());
            let mut count = ctx.result(count, 0);
            if sn != st {
                let kind = if sn.bits() > st.bits() { "trunc" } else { "zext" };
                count = scalar_before(ctx, o, "soac.convop", kind, &[count], rt);
            }
            let total = scalar_before(ctx, o, "soac.binop", "mul", &[count, d], rt);
            Some(scalar_before(ctx, o, "soac.binop", "add", &[init, total], rt))
        }
    }
}

/// The two values a `select`, or an `if` of one result whose branches only
/// yield, chooses between.
fn choices(ctx: &Context, d: OpId) -> Option<Vec<Value>> {
    match ctx.op_name(d) {
        "soac.select" => Some(ctx.operands(d)[1..].to_vec()),
        "soac.if" if ctx.num_results(d) == 1 => (0..2)
            .map(|r| {
                let b = body(ctx, d, r);
                let t = terminator(ctx, b);
                (ctx.first_op(b) == Some(t)).then(|| ctx.operand(t, 0))
            })
            .collect(),
        _ => None,
    }
}

/// A scalar op `name {kind}` of `args`, of type `ty`, before `at`.
fn scalar_before(ctx: &mut Context, at: OpId, name: &str, kind: &str, args: &[Value], ty: Type) -> Value {
    let k = ctx.string_attr(kind);
    let c = Builder::before(ctx, at).op(name, args, &[ty], &[("kind", k)], Vec::new());
    ctx.result(c, 0)
}

fn binop_kind(ctx: &Context, o: OpId) -> Option<String> {
    match ctx.attr(o, "kind").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(s)) => Some(ctx.str(*s).to_string()),
        _ => None,
    }
}

/// Merge parameters whose results nobody reads and which only feed
/// themselves (through pure code) go, with the code computing them.
fn dead_merge(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(off) = loop_offset(ctx, o) else { return false };
    let b = body(ctx, o, 0);
    let yield_op = terminator(ctx, b);
    let m = ctx.num_results(o);
    let mut dead: HashSet<usize> = ((1 - off)..m).filter(|&j| !ctx.has_uses(ctx.result(o, j))).collect();
    if dead.is_empty() {
        return false;
    }
    // The ops of the body each dead parameter flows into; a parameter
    // stays when it flows into a live yield, an effect, or a type.
    let mut slices: BTreeMap<usize, Vec<OpId>> = BTreeMap::new();
    loop {
        let mut stable = true;
        for j in dead.clone() {
            let p = ctx.block_args(b)[off + j];
            match forward_slice(ctx, b, yield_op, p) {
                Some((ops, ys)) if ys.iter().all(|y| dead.contains(y)) => {
                    slices.insert(j, ops);
                }
                _ => {
                    dead.remove(&j);
                    slices.remove(&j);
                    stable = false;
                }
            }
        }
        if stable {
            break;
        }
    }
    if dead.is_empty() {
        return false;
    }
    let keep: Vec<usize> = (0..m).filter(|j| !dead.contains(j)).collect();
    keep_yields(ctx, b, &keep);
    let mut erase: Vec<OpId> = slices.into_values().flatten().collect();
    erase.sort_by_key(|&x| std::cmp::Reverse(position(ctx, b, x)));
    erase.dedup();
    for x in erase {
        ctx.erase_op(x);
    }
    let mut js: Vec<usize> = dead.into_iter().collect();
    js.sort_by(|a, b| b.cmp(a));
    for &j in &js {
        ctx.erase_block_arg(b, off + j);
    }
    let operands: Vec<Value> = ctx.operands(o)[..off]
        .iter()
        .copied()
        .chain(keep.iter().map(|&j| ctx.operand(o, off + j)))
        .collect();
    rebuild_or_erase(ctx, o, &keep, &operands);
    true
}

fn position(ctx: &Context, b: BlockId, x: OpId) -> usize {
    ctx.block_ops(b).position(|y| y == x).unwrap_or(0)
}

/// The ops of block `b` that `v` flows into, and the positions of the
/// yield (`yield_op`) it reaches; `None` when it reaches an op with an
/// effect or a type.
fn forward_slice(ctx: &Context, b: BlockId, yield_op: OpId, v: Value) -> Option<(Vec<OpId>, Vec<usize>)> {
    let mut ops: Vec<OpId> = Vec::new();
    let mut ys = Vec::new();
    let mut work = vec![v];
    let mut seen: HashSet<Value> = HashSet::new();
    while let Some(x) = work.pop() {
        if !seen.insert(x) {
            continue;
        }
        if !ctx.type_users(x).is_empty() {
            return None;
        }
        for u in ctx.uses(x) {
            if u.op == yield_op {
                ys.push(u.index as usize);
                continue;
            }
            let top = ancestor_in(ctx, b, u.op)?;
            if top == yield_op {
                return None;
            }
            if !ops.contains(&top) {
                if !effect_free(ctx, top) {
                    return None;
                }
                ops.push(top);
                work.extend(ctx.results(top));
            }
        }
    }
    Some((ops, ys))
}

/// Sizes a loop's result type leaves unknown that its initial value, its
/// parameter and its yield agree on (a size from outside the loop).
fn loop_sizes(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(off) = loop_offset(ctx, o) else { return false };
    let b = body(ctx, o, 0);
    let yields = ctx.operands(terminator(ctx, b)).to_vec();
    let mut changed = false;
    for (j, &y) in yields.iter().enumerate() {
        let r = ctx.result(o, j);
        let candidates = [
            ctx.value_type(ctx.operand(o, off + j)),
            ctx.value_type(ctx.block_args(b)[off + j]),
            ctx.value_type(y),
        ];
        changed |= refine(ctx, r, &candidates, o);
    }
    changed
}

/// Gives `r`'s type the sizes it leaves unknown where every candidate
/// type has the same known size, defined outside `o`.
fn refine(ctx: &mut Context, r: Value, candidates: &[Type], o: OpId) -> bool {
    let TypeKind::Array { elem, shape } = ctx.type_kind(ctx.value_type(r)).clone() else {
        return false;
    };
    let mut new = shape.clone();
    for (d, nd) in new.iter_mut().enumerate() {
        if *nd != Dim::Unknown {
            continue;
        }
        let dims: Vec<Option<Dim>> = candidates
            .iter()
            .map(|&t| match ctx.type_kind(t) {
                TypeKind::Array { shape: s, .. } if s.len() == shape.len() => Some(s[d]),
                _ => None,
            })
            .collect();
        let Some(Some(first)) = dims.first().copied() else {
            continue;
        };
        let agreed = dims.iter().all(|x| *x == Some(first))
            && match first {
                Dim::Value(v) => !defined_inside(ctx, v, o),
                Dim::Const(_) => true,
                Dim::Unknown => false,
            };
        if agreed {
            *nd = first;
        }
    }
    if new == shape {
        return false;
    }
    let t = ctx.intern_type(TypeKind::Array { elem, shape: new });
    ctx.set_value_type(r, t);
    true
}

// ----- branches --------------------------------------------------------------

/// A branch on a constant is the branch taken.
fn constant_branch(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let Some(c) = bool_const(ctx, ctx.operand(o, 0)) else {
        return false;
    };
    let b = body(ctx, o, if c { 0 } else { 1 });
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    let (last, rest) = ops.split_last().expect("a branch ends in a yield");
    for &x in rest {
        ctx.move_op_before(x, o);
    }
    let out = ctx.operands(*last).to_vec();
    ctx.replace_op(o, &out);
    true
}

/// A result both branches yield the same value for is that value.
fn same_yields(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let (t, e) = (terminator(ctx, body(ctx, o, 0)), terminator(ctx, body(ctx, o, 1)));
    let (ty, ey) = (ctx.operands(t).to_vec(), ctx.operands(e).to_vec());
    let mut changed = false;
    for (j, (&a, &b)) in ty.iter().zip(&ey).enumerate() {
        let r = ctx.result(o, j);
        if a == b && ctx.has_uses(r) {
            ctx.replace_all_uses(r, a);
            changed = true;
        }
    }
    changed
}

/// An `if` drops the results nobody reads.
fn unused_if(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let n = ctx.num_results(o);
    let keep: Vec<usize> = (0..n).filter(|&i| ctx.has_uses(ctx.result(o, i))).collect();
    if keep.len() == n {
        return false;
    }
    for r in 0..2 {
        let b = body(ctx, o, r);
        keep_yields(ctx, b, &keep);
    }
    let operands = ctx.operands(o).to_vec();
    rebuild_or_erase(ctx, o, &keep, &operands);
    true
}

/// Sizes an `if`'s result type leaves unknown that both branches agree on.
fn if_sizes(ctx: &mut Context, o: OpId, _: &HashSet<Value>) -> bool {
    let (t, e) = (terminator(ctx, body(ctx, o, 0)), terminator(ctx, body(ctx, o, 1)));
    let mut changed = false;
    for j in 0..ctx.num_results(o) {
        let r = ctx.result(o, j);
        let candidates = [ctx.value_type(ctx.operand(t, j)), ctx.value_type(ctx.operand(e, j))];
        changed |= refine(ctx, r, &candidates, o);
    }
    changed
}
