//! `soac-vjp`: reverse-mode automatic differentiation. Every `soac.vjp`
//! (Futhark's `vjp2 f x y'`, made by internalisation) is replaced by its
//! region's primal program and adjoint program: ordinary soac IR, which
//! the later passes simplify, fuse and extract into kernels like any
//! other code.
//!
//! **Note [Reverse-mode AD].**
//! `soac.vjp(xs..., dys...)` is replaced in three steps.
//!
//! 1. *Activity.* A value is active when it is a number (or an array of
//!    numbers) that depends on the region's arguments. An op with an
//!    active operand, or an op inside it using one, makes its numeric
//!    results and its regions' numeric block arguments active (more than
//!    needed, never less: an inactive value only costs a zero).
//! 2. *The forward sweep* copies the region's ops before the op (the
//!    primal). Everything the return sweep reads stays in scope, as SSA
//!    values do, with two exceptions handled here: an array an in-place
//!    op consumes (`update`, `scatter`, `hist`) that is also read
//!    elsewhere is copied first, so the return sweep still reads the old
//!    one; and a `loop` records its merge values at the start of every
//!    iteration in a *tape*, an array with a row per iteration (a `while`
//!    loop first counts its iterations and then runs as a `for` loop of
//!    that count), or only some iterations' (Note [Loop strategies]). A
//!    merge array whose versions only flow through in-place updates to the
//!    loop's yield is never read, and gets no tape.
//! 3. *The return sweep* walks the ops backwards. `adj` maps each value
//!    (of the region) to its adjoint so far; the yielded values start with
//!    the cotangents `dys`; each op adds to its operands' adjoints what its
//!    results' adjoints contribute (`d(a*b)`: `a += b*ȳ`, `b += a*ȳ`; the
//!    unary functions share their derivatives with `soac-jvp`, `ad.rs`).
//!    An op is visited after every use of its results, so its results'
//!    adjoints are complete. The results of `soac.vjp` are the primal
//!    results and the adjoints of the arguments (zero for an argument the
//!    result does not depend on).
//!
//! Nested code is recomputed rather than stored: the adjoint of
//! - a `map` is a `map` over the same rows and the rows of the results'
//!   adjoints, whose lambda recomputes the original lambda's body and then
//!   runs its return sweep; it yields the adjoints of the rows, and of each
//!   active free variable, whose per-row adjoints are then summed (inside
//!   the nest where they are map nests: Note [Row sums by interchange],
//!   `vjp/row_sums.rs`);
//! - an `if` is an `if` on the same condition whose branches recompute the
//!   original branch and run its return sweep, yielding the free
//!   variables' adjoints;
//! - a `loop` is a loop over the iterations backwards that restores the
//!   merge values from the tape (Note [Loop strategies]), recomputes the
//!   body and runs its return sweep, carrying the merge values' adjoints
//!   and the free variables'.
//!
//! The parallel rules: `reduce`, `scan` and `hist` whose operator adds
//! (componentwise, also on arrays) have linear adjoints (a `replicate`, a
//! reversed `scan`, a gather from the result's adjoint); `scatter`'s values
//! get the adjoint at the index they were written to (the last write
//! there) and its destination the result's adjoint with the written
//! positions zeroed; `reduce` by any other operator ⊙ gives element `i`
//! its adjoint in `l_i ⊙ x_i ⊙ r_i`, with `l` and `r` exclusive scans from
//! both ends. `scan` by any operator on tuples of scalars of one type,
//! and `hist` by `min`, `max` or `*`, have parallel rules too (Note [Scan
//! and histogram adjoints]). What is left — a `scan` whose operator
//! combines arrays or scalars of different types, a `hist` by any other
//! operator, and a `reduce`, `scan` or `hist` whose operator uses values
//! from outside — is first rewritten, in the region about to be replaced,
//! into the sequential loop it means (`lower_to_loops`), which the loop
//! rule then differentiates: correct for every operator, but sequential.
//! Booleans have no adjoint; integers are differentiated in their own
//! arithmetic, as `soac-jvp` does.
//!
//! A `with_vjp` (a custom adjoint) runs its function in the forward sweep
//! and its adjoint function in the return sweep; outside reverse mode it
//! is its function ([`super::ad::inline_with_vjps`]).
//!
//! A `soac.vjp` or `soac.jvp` nested in another AD op goes first
//! ([`super::ad::run`]), so derivatives of derivatives work. Streams,
//! `screma`, `partition`, a `scatter` writing several pairs per
//! row and calls left by `soac-inline` get a diagnostic "vjp: ... is not
//! supported".

use std::collections::{HashMap, HashSet};

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, Dim, InsertPoint, Location, OpId, RegionId, Scalar, Type,
    TypeKind, Value, ValueMap,
};

use super::ad::{self, derivative, elem, is_number, Emit};
use super::analysis::defined_inside;
use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

mod row_sums;

pub const INFO: PassInfo = PassInfo {
    name: "soac-vjp",
    description: "Reverse-mode AD: replace each soac.vjp by its region's primal and adjoint program",
    options: &[OptionSpec {
        name: "loop",
        kind: OptionKind::Enum(&["tape", "recompute", "checkpoint"]),
        default: "tape",
        help: "what the return sweep of a loop restores its merge values from: a tape of every iteration's, \
               a recomputation from the initial ones, or checkpoints every √n iterations \
               (Note [Loop strategies])",
    }],
    reads: &[Level::Soac],
    writes: None,
    create: &|o: &Options, _| {
        let loops = match o.string("loop") {
            "recompute" => LoopStrategy::Recompute,
            "checkpoint" => LoopStrategy::Checkpoint,
            _ => LoopStrategy::Tape,
        };
        Box::new(Vjp { loops })
    },
};

struct Vjp {
    loops: LoopStrategy,
}

impl Pass for Vjp {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        ad::run(ctx, op, "soac.vjp", self.loops)
    }
}

/// How the return sweep of a `loop` gets each iteration's merge values
/// (Note [Loop strategies]).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum LoopStrategy {
    /// A tape row per iteration.
    Tape,
    /// From the initial values, running the body again up to the iteration.
    Recompute,
    /// From the latest of the checkpoints taken every ⌈√n⌉ iterations.
    Checkpoint,
}

/// Replace `soac.vjp` `j` by its primal and adjoint program.
pub(super) fn differentiate(ctx: &mut Context, j: OpId, loops: LoopStrategy) -> R<()> {
    let loc = ctx.location(j);
    lower_to_loops(ctx, j, loc)?;
    combine_indexes(ctx, j);
    let mut a = Adjoints {
        ctx,
        vm: ValueMap::default(),
        adj: HashMap::new(),
        owned: HashSet::new(),
        active: HashSet::new(),
        tapes: HashMap::new(),
        loops,
        sparse: HashMap::new(),
        scopes: Vec::new(),
        at: InsertPoint::Before(j),
        loc,
    };
    a.vjp(j)
}

type R<T> = Result<T, Diagnostic>;

// Note [Scan and histogram adjoints]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The parallel rules of "Reverse-Mode AD of Multi-Reduce and Scan in
// Futhark" (Bruun, Schenck, Oancea et al., IFL 2023), in our terms.
//
// *Scan* `y_i = y_{i-1} ⊙ x_i` (`y_{-1}` the neutral element) by an
// operator on k-tuples of scalars of one type. With `J_i = ∂(y_{i-1} ⊙
// x_i)/∂y_{i-1}`, a k×k matrix, the whole adjoint `r_i` of `y_i` obeys
// `r_i = ȳ_i + J_{i+1}ᵀ r_{i+1}` (`r_{n-1} = ȳ_{n-1}`): a linear recurrence
// from the end. Each step is the affine map `f_i(r) = ȳ_i + M_i r`, `M_i =
// J_{i+1}ᵀ`, and `r_i = f_i(f_{i+1}(…f_{n-1}(0)))`; composition of affine
// maps is associative, `(M, b)` after `(M', b')` being `(M M', b + M b')`,
// with neutral `(I, 0)`. So: a `map` computes each `J_i` (k return sweeps
// of the operator, seeded by the unit vectors, at `(y_{i-1}, x_i)`), a
// `map` lays out the pairs `(M_i, ȳ_i)` in reverse order, an inclusive
// `scan` composes them, and its `b` parts reversed are the `r_i`; a last
// `map` gives `x̄_i = (∂(y_{i-1} ⊙ x_i)/∂x_i)ᵀ r_i`, one return sweep of the
// operator seeded by `r_i`. Work O(n k³), depth O(log n), no division:
// `*` with zeros and `min`/`max` (whose Jacobians are 0 or 1) need no
// special case. The neutral element gets no adjoint (as in `reduce`): the
// language requires it to be neutral, so it does not change the result.
//
// *Histogram* by `min`/`max` (argmin bookkeeping): a bucket's result is
// its destination element or one of its values. The destination gets the
// bucket's adjoint where it equals the result (it wins ties, as in
// Futhark: tests reducebyindexminmax*); elsewhere a `map` marks each
// value equal to its bucket's result with its index (else `n`), and a
// `hist` by `min` of those indices picks the first such value, which gets
// the adjoint. The rule reads the destination, so the forward sweep copies
// it before the `hist` consumes it.
//
// *Histogram* by `*`: a bucket's result is the product of its
// destination element and values. A `hist` of (product of the nonzero
// factors `p`, number of zero factors `z`), the destination's included,
// gives each factor `v` the adjoint `h̄·p/v` when `z = 0`, `h̄·p` when `v`
// is the bucket's only zero, and 0 otherwise: exact with zeros, which
// dividing the result by `v` is not. This rule reads the destination too.
//
// A `hist` by any other operator (a user lambda, a tuple operator) still
// becomes a loop: the paper's general rule (sort by bucket, then
// segmented scans) is not built.

// Note [Loop strategies]
// ~~~~~~~~~~~~~~~~~~~~~~
// `soac-vjp{loop=...}` says where the return sweep of a loop of `n`
// iterations finds iteration `i`'s merge values:
// - `tape` (the default): the forward sweep writes every iteration's into
//   a tape of `n` rows. Memory O(n), no recomputation.
// - `recompute`: the tape holds the initial values only (one row); the
//   return sweep's iteration `i` runs the body again `i` times from them.
//   Memory O(1), work O(n²): for loops with large merge values and few
//   iterations.
// - `checkpoint`: the forward sweep writes only every `s`-th iteration's
//   values, `s = max(1, ⌈√n⌉)`. The return sweep is a loop over the
//   ⌈n/s⌉ segments, last first: it runs the body again from the
//   segment's checkpoint, recording the segment's (at most `s`)
//   iterations in a tape of its own, then runs the segment's return sweep
//   from that tape. Memory O(√n) rows, work one more forward run of the
//   loop. For 10⁴ iterations over 100 f64s (as in driver/tests/
//   vjp_loop_strategies.rs) the CPU's peak memory is 8.4 MB with the
//   tape, 169 KB with checkpoints (100 of them and a segment tape of 100
//   rows) and 6 KB with recomputation, which is 2000× slower there.
// All three give the same gradient: the recomputation runs the same
// primal code on the same values. Futhark's language reference defines
// no loop attribute for AD (its "Attributes" section; unknown attributes
// are ignored), so the strategy is the pass's option for every loop, not
// a per-loop attribute.

// Note [Sparse adjoints]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A free array `F` of a map's lambda that the lambda reads at a few
// points (a gather, a stencil) would get, for each row, an adjoint as
// large as `F`, one-hot at those points, and the map's adjoint would sum
// `n` of them: `n` times the memory and work of `F`. Instead, while a
// lambda or an `if` branch is reversed (a `Scope` that tracks its free
// arrays), an `index` of `F` at a full index adds the pair (flat index,
// adjoint) to `sparse[F]` rather than to a dense adjoint. The scope yields
// its pairs: a map stacks them into arrays of `n` rows, an `if` yields
// each branch's (a dummy pair, index -1, where the other branch has one).
// Where the scope around is one that tracks `F` too, the pairs join its
// list; elsewhere they become dense: a `hist` with `+` of the values into
// `F`'s adjoint, flattened (atomic adds on the GPU), or, for a scalar pair,
// one in-place update. A `loop` body is a `Barrier`: its indexes of `F`
// add to its dense adjoint, which the loop carries and updates in place.

/// A construct whose return sweep is being built (Note [Sparse
/// adjoints]).
enum Scope {
    /// A lambda of a map (pairs become rows of arrays) or a branch of an
    /// `if` (scalar pairs only), with the free arrays it tracks.
    Map(HashSet<Value>),
    If(HashSet<Value>),
    /// A loop body or an operator: no sparse adjoints.
    Barrier,
}

/// A loop of the forward sweep: its iteration count, the tape of each
/// merge value (`None`: never read, no tape) and, unless every iteration
/// has its row, the stride between the iterations that have one (Note
/// [Loop strategies]).
#[derive(Clone)]
struct Taped {
    n: Value,
    tapes: Vec<Option<Value>>,
    stride: Option<Value>,
}

/// Where the return sweep of a loop finds an iteration `i`'s merge values
/// (Note [Loop strategies]).
enum Restore {
    /// Row `i - base` of the tapes (every iteration of the sweep has one).
    Rows(Vec<Option<Value>>),
    /// Row `i / stride` of the tapes, then the body run again up to `i`.
    Rerun(Vec<Option<Value>>, Value),
}

/// The state of differentiating one `soac.vjp`.
struct Adjoints<'c> {
    ctx: &'c mut Context,
    /// Each value of the region to its (latest) copy.
    vm: ValueMap,
    /// Each value of the region to its adjoint so far.
    adj: HashMap<Value, Value>,
    /// The adjoints made for their entry alone (a sum, a zero), which may
    /// be updated in place; any other may be shared with another entry.
    owned: HashSet<Value>,
    /// The active values (step 1 of Note [Reverse-mode AD]).
    active: HashSet<Value>,
    /// Each `loop` of the forward sweep: its iteration count and the tape
    /// of each merge value (`None`: never read, no tape).
    tapes: HashMap<OpId, Taped>,
    /// The strategy for loops (Note [Loop strategies]).
    loops: LoopStrategy,
    /// The sparse adjoints of arrays (Note [Sparse adjoints]): (flat
    /// index, value) pairs, scalars or arrays of them of one shape.
    sparse: HashMap<Value, Vec<(Value, Value)>>,
    /// The lambdas and branches being reversed, innermost last.
    scopes: Vec<Scope>,
    at: InsertPoint,
    loc: Location,
}

ad::impl_emit!(Adjoints, "vjp");

/// Whether `region` (with `2k` arguments) adds its arguments
/// componentwise: `(a..., b...) -> (a_0 + b_0, ...)`, on scalars or, by a
/// `map` of such a region, on arrays.
fn is_plus(ctx: &Context, region: RegionId) -> bool {
    let block = ctx.blocks(region)[0];
    let args = ctx.block_args(block);
    let k = args.len() / 2;
    if k == 0 || args.len() != 2 * k {
        return false;
    }
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    let Some((&term, body)) = ops.split_last() else {
        return false;
    };
    let ys = ctx.operands(term);
    if ys.len() != k || body.len() != k {
        return false;
    }
    (0..k).all(|i| {
        let Some(o) = ctx.defining_op(ys[i]) else {
            return false;
        };
        let ops = ctx.operands(o);
        let pair = |x: Value, y: Value| (x == args[i] && y == args[k + i]) || (x == args[k + i] && y == args[i]);
        match ctx.op_name(o) {
            "soac.binop" => {
                matches!(ctx.attr(o, "kind").map(|a| ctx.attr_kind(a)), Some(AttrKind::String(s)) if ctx.str(*s) == "add")
                    && pair(ops[0], ops[1])
            }
            "soac.map" => ops.len() == 3 && pair(ops[1], ops[2]) && is_plus(ctx, ctx.regions(o)[0]),
            _ => false,
        }
    })
}

/// `"min"` or `"max"` when operator `region` is that one binop on its two
/// scalar arguments.
fn min_or_max(ctx: &Context, region: RegionId) -> Option<&'static str> {
    scalar_binop(ctx, region).filter(|k| matches!(*k, "min" | "max"))
}

/// `"min"`, `"max"` or `"mul"` when operator `region` is that one binop on
/// its two scalar arguments.
fn scalar_binop(ctx: &Context, region: RegionId) -> Option<&'static str> {
    let block = ctx.blocks(region)[0];
    let args = ctx.block_args(block);
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    if args.len() != 2 || ops.len() != 2 || ctx.as_scalar(ctx.value_type(args[0])).is_none() {
        return None;
    }
    let o = ops[0];
    let opnds = ctx.operands(o);
    if ctx.op_name(o) != "soac.binop" || ctx.operands(ops[1]) != [ctx.result(o, 0)] {
        return None;
    }
    if !((opnds[0] == args[0] && opnds[1] == args[1]) || (opnds[0] == args[1] && opnds[1] == args[0])) {
        return None;
    }
    match ctx.attr(o, "kind").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String(s)) => ["min", "max", "mul"].into_iter().find(|k| ctx.str(*s) == *k),
        _ => None,
    }
}

/// Whether operator `region` combines tuples of numbers all of one scalar
/// type (Note [Scan and histogram adjoints]: its Jacobians are matrices).
fn scalar_operator(ctx: &Context, region: RegionId) -> bool {
    let block = ctx.blocks(region)[0];
    let args = ctx.block_args(block);
    let t = ctx.value_type(args[0]);
    ctx.as_scalar(t).is_some() && is_number(ctx, t) && args.iter().all(|&a| ctx.value_type(a) == t)
}

/// Make each `index` of an `index`'s result (a row: `g[i][j]` is
/// internalised as two, with the bounds check between) one `index` of
/// the whole array, in `soac.vjp` `j`'s region (about to be replaced), so
/// that its adjoint is one element (Note [Sparse adjoints]) rather than a
/// row made dense. The row's `index` stays for its other uses, if any.
fn combine_indexes(ctx: &mut Context, j: OpId) {
    let mut todo = Vec::new();
    ctx.walk(j, &mut |n| {
        if ctx.op_name(n) == "soac.index" {
            if let Some(d) = ctx.defining_op(ctx.operand(n, 0)) {
                if ctx.op_name(d) == "soac.index" {
                    todo.push(n);
                }
            }
        }
    });
    // In order: a chain of three becomes one.
    for n in todo {
        let row = ctx.operand(n, 0);
        let d = ctx.defining_op(row).expect("filtered");
        let mut ops = ctx.operands(d).to_vec();
        ops.extend(&ctx.operands(n)[1..]);
        let t = ctx.value_type(ctx.result(n, 0));
        let name = ctx.op_name_sym(n);
        let loc = ctx.location(n);
        let c = ctx.create_op(name, &ops, &[t], &[], Vec::new(), loc);
        let mut b = Builder::new(ctx);
        b.point = InsertPoint::Before(n);
        b.insert(c);
        let r = ctx.result(c, 0);
        ctx.replace_op(n, &[r]);
    }
}

// ----- lowering operators without a parallel rule to loops ------------------

/// Rewrite, in `soac.vjp` `j`'s region (about to be replaced), every `reduce`, `scan` and
/// `hist` whose operator does not add into the sequential loop it means
/// (Note [Reverse-mode AD]).
fn lower_to_loops(ctx: &mut Context, j: OpId, loc: Location) -> R<()> {
    let mut todo = Vec::new();
    ctx.walk(j, &mut |n| {
        let name = ctx.op_name(n);
        if !matches!(name, "soac.reduce" | "soac.scan" | "soac.hist") || is_plus(ctx, ctx.regions(n)[0]) {
            return;
        }
        // A reduction's operator is differentiated in parallel, unless it
        // uses values from outside (whose adjoints the rule would miss).
        let op = ctx.regions(n)[0];
        let mut closed = true;
        for &b in ctx.blocks(op) {
            for o in ctx.block_ops(b) {
                let mut check = |m: OpId| {
                    closed &= ctx.operands(m).iter().all(|&v| {
                        defined_inside(ctx, v, n)
                            || ctx.defining_op(v).is_some_and(|d| ctx.op_name(d) == "soac.constant")
                    });
                };
                check(o);
                ctx.walk(o, &mut check);
            }
        }
        let parallel = closed
            && match name {
                "soac.reduce" => true,
                "soac.scan" => scalar_operator(ctx, op),
                _ => matches!(scalar_binop(ctx, op), Some("min" | "max" | "mul")),
            };
        if !parallel {
            todo.push(n);
        }
    });
    // Inner ones first: an outer one's loop copies the inner one's.
    for o in todo.into_iter().rev() {
        let mut l = Lower {
            ctx: &mut *ctx,
            at: InsertPoint::Before(o),
            loc,
        };
        let new = match l.ctx.op_name(o) {
            "soac.hist" => l.hist(o)?,
            _ => l.reduce_or_scan(o),
        };
        ctx.replace_op(o, &new);
    }
    Ok(())
}

/// A loop body's builder: given the index and the merge values, the next
/// merge values.
type LoopBody<'c, 'f> = dyn FnMut(&mut Lower<'c>, Value, &[Value]) -> Vec<Value> + 'f;

/// The seeds of a lambda's yields, given the yields (old) and the rows of
/// the extra arrays (`Adjoints::map_adjoint`).
type Seeds<'c, 'f> = dyn FnMut(&mut Adjoints<'c>, &[Value], &[Value]) -> R<Vec<Option<Value>>> + 'f;

/// The seeds of the return sweeps of an operator, one list per sweep,
/// given the rows of the extra arrays (`Adjoints::operator_sweeps`).
type OperatorSeeds<'c, 'f> = dyn FnMut(&mut Adjoints<'c>, &[Value]) -> Vec<Vec<Value>> + 'f;

/// Sparse adjoints taken out of the map while a scope is reversed.
type SavedSparse = Vec<(Value, Option<Vec<(Value, Value)>>)>;

/// Emitting the loops of `lower_to_loops`, in the old region.
struct Lower<'c> {
    ctx: &'c mut Context,
    at: InsertPoint,
    loc: Location,
}

ad::impl_emit!(Lower, "vjp");

impl<'c> Lower<'c> {
    /// A copy of region `r`'s body applied to `args`, emitted here; its
    /// yields.
    fn inline(&mut self, r: RegionId, args: &[Value]) -> Vec<Value> {
        ad::inline(self.ctx, r, &mut ValueMap::default(), args, self.at)
    }

    /// A `for` loop of `n` iterations carrying `inits`, whose body `body`
    /// emits (given the index and the merge values) the next merge values.
    fn for_loop(&mut self, n: Value, inits: &[Value], body: &mut LoopBody<'c, '_>) -> Vec<Value> {
        let mut tys = vec![self.ctx.value_type(n)];
        tys.extend(inits.iter().map(|&v| self.ctx.value_type(v)));
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, &tys);
        let args = self.ctx.block_args(b).to_vec();
        let saved = self.at;
        self.at = InsertPoint::End(b);
        let ys = body(self, args[0], &args[1..]);
        self.emit("soac.yield", &ys, &[], &[], Vec::new());
        self.at = saved;
        let mut ops = vec![n];
        ops.extend(inits);
        let rtys: Vec<Type> = inits.iter().map(|&v| self.ctx.value_type(v)).collect();
        let form = self.kind("for");
        let l = self.emit("soac.loop", &ops, &rtys, &[("form", form)], vec![r]);
        self.ctx.results(l).collect()
    }

    /// `reduce` as `loop acc = ne for i < n do op acc xs[i]`, and `scan`
    /// also writing each `acc` into its row of the result.
    fn reduce_or_scan(&mut self, o: OpId) -> Vec<Value> {
        let scan = self.ctx.op_name(o) == "soac.scan";
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let n = operands[0];
        let (nes, xs) = (operands[1..1 + k].to_vec(), operands[1 + k..].to_vec());
        let op = self.ctx.regions(o)[0];
        let mut inits = nes.clone();
        if scan {
            let results: Vec<Value> = self.ctx.results(o).collect();
            for (i, &ne) in nes.iter().enumerate() {
                let t = self.ctx.value_type(results[i]);
                inits.push(self.emit1("soac.replicate", &[n, ne], t, &[]));
            }
        }
        let out = self.for_loop(n, &inits, &mut |s, i, ms| {
            let mut args = ms[..k].to_vec();
            for &x in &xs {
                let t = row_type(s.ctx, s.ctx.value_type(x));
                args.push(s.emit1("soac.index", &[x, i], t, &[]));
            }
            let mut ys = s.inline(op, &args);
            if scan {
                for j in 0..k {
                    let t = s.ctx.value_type(ms[k + j]);
                    let u = s.emit1("soac.update", &[ms[k + j], i, ys[j]], t, &[]);
                    ys.push(u);
                }
            }
            ys
        });
        if scan {
            out[k..].to_vec()
        } else {
            out
        }
    }

    /// `hist` as a loop over the rows, combining each value into its bucket
    /// when the bucket is in range.
    fn hist(&mut self, o: OpId) -> R<Vec<Value>> {
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let (n, w) = (operands[0], operands[1]);
        let dests = operands[2..2 + k].to_vec();
        let xs = operands[2 + 2 * k..].to_vec();
        let regions = self.ctx.regions(o).to_vec();
        Ok(self.for_loop(n, &dests, &mut |s, i, ds| {
            let mut rows = Vec::new();
            for &x in &xs {
                let t = row_type(s.ctx, s.ctx.value_type(x));
                rows.push(s.emit1("soac.index", &[x, i], t, &[]));
            }
            let bv = s.inline(regions[1], &rows);
            let b = bv[0];
            let zero = s.constant(Scalar::I64, 0.0);
            let ge = s.cmp("le", zero, b);
            let lt = s.cmp("lt", b, w);
            let inb = s.bin("and", ge, lt);
            // then: each dest updated at the bucket; else: unchanged.
            let tys: Vec<Type> = ds.iter().map(|&d| s.ctx.value_type(d)).collect();
            let then_r = s.ctx.create_region();
            let tb = s.ctx.append_block(then_r, &[]);
            let saved = s.at;
            s.at = InsertPoint::End(tb);
            let mut olds = Vec::new();
            for &d in ds {
                let t = row_type(s.ctx, s.ctx.value_type(d));
                olds.push(s.emit1("soac.index", &[d, b], t, &[]));
            }
            olds.extend(&bv[1..]);
            let news = s.inline(regions[0], &olds);
            let mut ups = Vec::new();
            for (j, &d) in ds.iter().enumerate() {
                ups.push(s.emit1("soac.update", &[d, b, news[j]], tys[j], &[]));
            }
            s.emit("soac.yield", &ups, &[], &[], Vec::new());
            let else_r = s.ctx.create_region();
            let eb = s.ctx.append_block(else_r, &[]);
            s.at = InsertPoint::End(eb);
            s.emit("soac.yield", ds, &[], &[], Vec::new());
            s.at = saved;
            let f = s.emit("soac.if", &[inb], &tys, &[], vec![then_r, else_r]);
            s.ctx.results(f).collect()
        }))
    }
}

/// `file:line:col` of `loc`, for a run-time error message.
fn describe(ctx: &Context, loc: Location) -> String {
    match loc {
        Location::Span { source, start, .. } => {
            let f = ctx.source(source);
            let (l, c) = f.line_col(start);
            format!("{}:{l}:{c}", f.name)
        }
        Location::FileLineCol { file, line, col } => format!("{}:{line}:{col}", ctx.str(file)),
        _ => "<unknown>".to_string(),
    }
}

/// The operands op `n` consumes: an updated array, a scatter's or a
/// hist's destinations, a loop's initial arrays.
fn consumed_operands(ctx: &Context, n: OpId) -> Vec<Value> {
    let ops = ctx.operands(n);
    let k = ctx.num_results(n);
    match ctx.op_name(n) {
        "soac.update" => vec![ops[0]],
        "soac.scatter" => ops[ops.len() - k..].to_vec(),
        "soac.hist" => ops[2..2 + k].to_vec(),
        "soac.loop" => ops[ops.len() - k..]
            .iter()
            .copied()
            .filter(|&v| ctx.as_scalar(ctx.value_type(v)).is_none())
            .collect(),
        _ => Vec::new(),
    }
}

/// The row type of array type `t`.
fn row_type(ctx: &mut Context, t: Type) -> Type {
    match ctx.type_kind(t).clone() {
        TypeKind::Array { elem, shape } if shape.len() > 1 => ctx.intern_type(TypeKind::Array {
            elem,
            shape: shape[1..].to_vec(),
        }),
        TypeKind::Array { elem, .. } => elem,
        _ => t,
    }
}

/// The type of an array of `n` values of type `t`.
fn array_of(ctx: &mut Context, n: Value, t: Type) -> Type {
    match ctx.type_kind(t).clone() {
        TypeKind::Array { elem, shape } => {
            let mut s = vec![Dim::Value(n)];
            s.extend(shape);
            ctx.intern_type(TypeKind::Array { elem, shape: s })
        }
        _ => ctx.intern_type(TypeKind::Array {
            elem: t,
            shape: vec![Dim::Value(n)],
        }),
    }
}

impl<'c> Adjoints<'c> {
    // ----- values ------------------------------------------------------------

    fn primal(&self, old: Value) -> Value {
        self.vm.get(old)
    }

    fn number(&self, old: Value) -> bool {
        is_number(self.ctx, self.ctx.value_type(old))
    }

    fn is_active(&self, old: Value) -> bool {
        self.active.contains(&old)
    }

    /// The adjoint of `old`, zero where it has none.
    fn adj_or_zero(&mut self, old: Value) -> R<Value> {
        match self.adj.get(&old) {
            Some(&a) => Ok(a),
            None => {
                let p = self.primal(old);
                self.zero(p)
            }
        }
    }

    /// Add `c` to the adjoint of `old` (nothing for an inactive value).
    fn add_adj(&mut self, old: Value, c: Value) -> R<()> {
        if !self.is_active(old) {
            return Ok(());
        }
        let v = match self.adj.get(&old) {
            Some(&e) => {
                let s = self.add_values(e, c)?;
                self.owned.insert(s);
                s
            }
            None => c,
        };
        self.adj.insert(old, v);
        Ok(())
    }

    /// `a + b`, elementwise on arrays.
    fn add_values(&mut self, a: Value, b: Value) -> R<Value> {
        let t = self.ctx.value_type(a);
        if self.ctx.as_scalar(t).is_some() {
            return Ok(self.bin("add", a, b));
        }
        let n = self.sizes(a)[0];
        let rt = row_type(self.ctx, t);
        let (r, blk, args) = self.new_region(&[rt, rt]);
        let saved = self.enter(blk);
        let s = self.add_values(args[0], args[1])?;
        self.leave(&[s], saved);
        let m = self.emit("soac.map", &[n, a, b], &[t], &[], vec![r]);
        Ok(self.ctx.result(m, 0))
    }

    /// The operator adding two values of type `t` (a region for `reduce`
    /// and `scan`).
    fn plus_region(&mut self, t: Type) -> R<RegionId> {
        let (r, blk, args) = self.new_region(&[t, t]);
        let saved = self.enter(blk);
        let s = self.add_values(args[0], args[1])?;
        self.leave(&[s], saved);
        Ok(r)
    }

    /// The sum of the rows of (new) array `a`: for rows that are arrays,
    /// the sums of the columns of `a` seen as `[n][R]` (a map of sums
    /// over its transpose, which kernel extraction makes a segmented
    /// reduction) rather than a reduction by an array operator.
    fn sum_rows(&mut self, a: Value) -> R<Value> {
        let t = self.ctx.value_type(a);
        let rt = row_type(self.ctx, t);
        let dims = self.sizes(a);
        let s = elem(self.ctx, t).expect("a sum of numbers");
        let et = self.ctx.scalar(s);
        if dims.len() == 1 {
            let z = self.constant(s, 0.0);
            let op = self.plus_region(et)?;
            let r = self.emit("soac.reduce", &[dims[0], z, a], &[et], &[], vec![op]);
            return Ok(self.ctx.result(r, 0));
        }
        let mut cols = dims[1];
        for &d in &dims[2..] {
            cols = self.bin("mul", cols, d);
        }
        let flat_t = {
            let inner = array_of(self.ctx, cols, et);
            array_of(self.ctx, dims[0], inner)
        };
        let flat = self.emit1("soac.reshape", &[a, dims[0], cols], flat_t, &[]);
        let tr_t = {
            let inner = array_of(self.ctx, dims[0], et);
            array_of(self.ctx, cols, inner)
        };
        let perm: Vec<_> = [1i64, 0].iter().map(|&i| self.ctx.int_attr(i, Scalar::I64)).collect();
        let perm = self.ctx.intern_attr(AttrKind::Array(perm));
        let tr = self.emit1("soac.rearrange", &[flat], tr_t, &[("perm", perm)]);
        let col_t = array_of(self.ctx, dims[0], et);
        let (r, b, args) = self.new_region(&[col_t]);
        let saved = self.enter(b);
        let op = self.plus_region(et)?;
        let z = self.constant(s, 0.0);
        let red = self.emit("soac.reduce", &[dims[0], z, args[0]], &[et], &[], vec![op]);
        let v = self.ctx.result(red, 0);
        self.leave(&[v], saved);
        let sums_t = array_of(self.ctx, cols, et);
        let sums = self.emit("soac.map", &[cols, tr], &[sums_t], &[], vec![r]);
        let sums = self.ctx.result(sums, 0);
        let mut ops = vec![sums];
        ops.extend(&dims[1..]);
        Ok(self.emit1("soac.reshape", &ops, rt, &[]))
    }

    /// `n` copies of (new) value `v`.
    fn replicate(&mut self, n: Value, v: Value) -> Value {
        let t = self.ctx.value_type(v);
        let rt = array_of(self.ctx, n, t);
        self.emit1("soac.replicate", &[n, v], rt, &[])
    }

    /// `v` as an i64 (loop indices and counts may be narrower).
    fn as_i64(&mut self, v: Value) -> Value {
        let t = self.ctx.value_type(v);
        if self.ctx.as_scalar(t) == Some(Scalar::I64) {
            return v;
        }
        let i64t = self.ctx.scalar(Scalar::I64);
        let k = self.kind("sext");
        self.emit1("soac.convop", &[v], i64t, &[("kind", k)])
    }

    /// The type of (new) value `v`, yielded by region `r`, as seen outside
    /// `r`: its sizes computed inside `r` are unknown (existential).
    fn outer_type(&mut self, v: Value, r: RegionId) -> Type {
        let t = self.ctx.value_type(v);
        let (elem, shape) = match self.ctx.type_kind(t) {
            TypeKind::Array { elem, shape } => (*elem, shape.clone()),
            _ => return t,
        };
        let inside = |d: Value| {
            let mut b = self.ctx.value_block(d);
            while let Some(blk) = b {
                let Some(reg) = self.ctx.block_parent(blk) else {
                    return false;
                };
                if reg == r {
                    return true;
                }
                b = self.ctx.region_parent(reg).and_then(|o| self.ctx.parent_block(o));
            }
            false
        };
        let shape: Vec<Dim> = shape
            .into_iter()
            .map(|d| match d {
                Dim::Value(x) if inside(x) => Dim::Unknown,
                d => d,
            })
            .collect();
        self.ctx.intern_type(TypeKind::Array { elem, shape })
    }

    /// A fresh region with one block of arguments of types `tys`.
    fn new_region(&mut self, tys: &[Type]) -> (RegionId, BlockId, Vec<Value>) {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, tys);
        let args = self.ctx.block_args(b).to_vec();
        (r, b, args)
    }

    /// A fresh lambda region taking a row of each of `ins`, its arguments
    /// standing for `params`, entered behind a scope barrier: the region,
    /// its arguments and the point to go back to.
    fn row_lambda(&mut self, params: &[Value], ins: &[Value]) -> (RegionId, Vec<Value>, InsertPoint) {
        let tys: Vec<Type> = ins
            .iter()
            .map(|&v| row_type(self.ctx, self.ctx.value_type(v)))
            .collect();
        let (r, b, args) = self.new_region(&tys);
        for (&a, &v) in params.iter().zip(&args) {
            self.vm.insert(a, v);
        }
        let saved = self.enter(b);
        self.scopes.push(Scope::Barrier);
        (r, args, saved)
    }

    /// Emit at the end of `b` from now on; returns the point to go back to.
    fn enter(&mut self, b: BlockId) -> InsertPoint {
        std::mem::replace(&mut self.at, InsertPoint::End(b))
    }

    /// Yield `ys` and go back to `saved`.
    fn leave(&mut self, ys: &[Value], saved: InsertPoint) {
        self.emit("soac.yield", ys, &[], &[], Vec::new());
        self.at = saved;
    }

    /// The active values defined outside `holder` that ops inside it use.
    fn free_active(&self, holder: OpId) -> Vec<Value> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        self.ctx.walk(holder, &mut |n| {
            for &v in self.ctx.operands(n) {
                if self.is_active(v) && !defined_inside(self.ctx, v, holder) && seen.insert(v) {
                    out.push(v);
                }
            }
        });
        out
    }

    /// Take the adjoints of `vs` out of the map (a nested return sweep
    /// starts them afresh); [`Adjoints::restore`] puts them back.
    fn stash(&mut self, vs: &[Value]) -> Vec<(Value, Option<Value>)> {
        vs.iter().map(|&v| (v, self.adj.remove(&v))).collect()
    }

    /// Take the sparse adjoints of `vs` out of the map (a scope starts them
    /// afresh); [`Adjoints::restore_sparse`] puts them back.
    fn take_sparse(&mut self, vs: &HashSet<Value>) -> SavedSparse {
        vs.iter().map(|&f| (f, self.sparse.remove(&f))).collect()
    }

    /// Put back the sparse adjoints a scope took out ([`SavedSparse`]).
    fn restore_sparse(&mut self, saved: &SavedSparse) {
        for (f, outer) in saved {
            if let Some(o) = outer {
                self.sparse.insert(*f, o.clone());
            }
        }
    }

    fn restore(&mut self, saved: Vec<(Value, Option<Value>)>) {
        for (v, a) in saved {
            match a {
                Some(a) => self.adj.insert(v, a),
                None => self.adj.remove(&v),
            };
        }
    }

    // ----- the three steps -----------------------------------------------------

    fn vjp(&mut self, j: OpId) -> R<()> {
        let region = self.ctx.regions(j)[0];
        let block = self.ctx.blocks(region)[0];
        let operands = self.ctx.operands(j).to_vec();
        let args = self.ctx.block_args(block).to_vec();
        for (i, &a) in args.iter().enumerate() {
            self.vm.insert(a, operands[i]);
            if self.number(a) {
                self.active.insert(a);
            }
        }
        self.activity(block);
        let ys = self.forward(block)?;
        let mut out: Vec<Value> = ys.iter().map(|&y| self.primal(y)).collect();
        for (&y, &s) in ys.iter().zip(&operands[args.len()..]) {
            let s = self.fit_cotangent(s, self.primal(y));
            self.add_adj(y, s)?;
        }
        self.reverse(block)?;
        for &a in &args {
            let d = self.adj_or_zero(a)?;
            out.push(d);
        }
        self.ctx.replace_op(j, &out);
        Ok(())
    }

    /// Cotangent `s` checked to have the shape of the result `y` it is for
    /// (whose sizes the function may have computed), and given its type.
    fn fit_cotangent(&mut self, s: Value, y: Value) -> Value {
        let (st, yt) = (self.ctx.value_type(s), self.ctx.value_type(y));
        if st == yt || self.ctx.as_scalar(yt).is_some() {
            return s;
        }
        let want = self.sizes(y);
        self.assert_shape(s, &want, "vjp: the cotangent does not have the shape of the result");
        let mut ops = vec![s];
        ops.extend(want);
        self.emit1("soac.reshape", &ops, yt, &[])
    }

    /// A run-time check that (new) array `v` has the sizes `want`, failing
    /// with `msg` and the op's location.
    fn assert_shape(&mut self, v: Value, want: &[Value], msg: &str) {
        let have = self.sizes(v);
        let mut ok = None;
        for (&h, &w) in have.iter().zip(want) {
            let e = self.cmp("eq", h, w);
            ok = Some(match ok {
                Some(o) => self.bin("and", o, e),
                None => e,
            });
        }
        if let Some(ok) = ok {
            let msg = format!("{msg} ({})", describe(self.ctx, self.loc));
            let m = self.ctx.string_attr(&msg);
            self.emit("soac.assert", &[ok], &[], &[("message", m)], Vec::new());
        }
    }

    /// Step 1: mark the active values of `block`.
    fn activity(&mut self, block: BlockId) {
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        for o in ops {
            let mut touched = self.ctx.operands(o).iter().any(|v| self.active.contains(v));
            self.ctx.walk(o, &mut |n| {
                touched |= self.ctx.operands(n).iter().any(|v| self.active.contains(v));
            });
            if !touched {
                continue;
            }
            for r in self.ctx.results(o).collect::<Vec<_>>() {
                if self.number(r) {
                    self.active.insert(r);
                }
            }
            for r in self.ctx.regions(o).to_vec() {
                for b in self.ctx.blocks(r).to_vec() {
                    for a in self.ctx.block_args(b).to_vec() {
                        if self.number(a) {
                            self.active.insert(a);
                        }
                    }
                    self.activity(b);
                }
            }
        }
    }

    /// Step 2: copy the ops of `block` but its terminator, whose operands
    /// (old) are returned.
    fn forward(&mut self, block: BlockId) -> R<Vec<Value>> {
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        let Some((term, rest)) = ops.split_last() else {
            return Ok(Vec::new());
        };
        for &o in rest {
            let saved = self.loc;
            self.loc = self.ctx.location(o);
            let r = self.forward_op(o);
            self.loc = saved;
            r?;
        }
        Ok(self.ctx.operands(*term).to_vec())
    }

    fn forward_op(&mut self, o: OpId) -> R<()> {
        // The arrays `o` consumes (updates in place), itself or an op in
        // it, that something else reads too get a copy, which the copy of
        // `o` consumes instead (Note [Reverse-mode AD]).
        let mut consumed = Vec::new();
        let note = |ctx: &Context, n: OpId, out: &mut Vec<Value>| {
            // The adjoint of a `hist` by `*`, `min` or `max` reads its
            // destination (Note [Scan and histogram adjoints]).
            let reread = ctx.op_name(n) == "soac.hist" && scalar_binop(ctx, ctx.regions(n)[0]).is_some();
            for v in consumed_operands(ctx, n) {
                if (n == o || !defined_inside(ctx, v, o)) && (reread || ctx.uses(v).len() > 1) && !out.contains(&v) {
                    out.push(v);
                }
            }
        };
        note(self.ctx, o, &mut consumed);
        self.ctx.walk(o, &mut |n| note(self.ctx, n, &mut consumed));
        let mut saved = Vec::new();
        for &v in &consumed {
            let p = self.primal(v);
            let t = self.ctx.value_type(p);
            let c = self.emit1("soac.copy", &[p], t, &[]);
            saved.push((v, p));
            self.vm.insert(v, c);
        }
        let r = if self.ctx.op_name(o) == "soac.loop" {
            self.forward_loop(o)
        } else if self.ctx.op_name(o) == "soac.with_vjp" {
            // The function, inline; its results' adjoints come from the
            // adjoint function (`custom`).
            let operands: Vec<Value> = self.ctx.operands(o).iter().map(|&v| self.primal(v)).collect();
            let ys = self.inline(self.ctx.regions(o)[0], &operands);
            for (j, y) in ys.into_iter().enumerate() {
                let r = self.ctx.result(o, j);
                self.vm.insert(r, y);
            }
            Ok(())
        } else {
            let c = self.ctx.clone_op(o, &mut self.vm);
            let mut b = Builder::new(self.ctx);
            b.point = self.at;
            b.insert(c);
            Ok(())
        };
        for (v, p) in saved {
            self.vm.insert(v, p);
        }
        r
    }

    /// Whether merge parameter `p` of a loop body is read: whether a
    /// version of it reaches anything but in-place updates and the yield.
    fn read(&self, p: Value) -> bool {
        self.ctx.uses(p).iter().any(|u| match self.ctx.op_name(u.op) {
            "soac.yield" => false,
            "soac.update" if u.index == 0 => self.read(self.ctx.result(u.op, 0)),
            _ => true,
        })
    }

    /// A loop of the forward sweep, recording its merge values in tapes.
    fn forward_loop(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let region = self.ctx.regions(o)[0];
        let block = self.ctx.blocks(region)[0];
        let old_args = self.ctx.block_args(block).to_vec();
        let results: Vec<Value> = self.ctx.results(o).collect();
        let for_loop = old_args.len() > results.len();
        let params = &old_args[old_args.len() - results.len()..];
        let inits: Vec<Value> = operands[operands.len() - results.len()..]
            .iter()
            .map(|&v| self.primal(v))
            .collect();
        // The iteration count: a while loop runs once to count them.
        let n = if for_loop {
            self.primal(operands[0])
        } else {
            self.count_iterations(o, &inits)?
        };
        let n64 = self.as_i64(n);
        let stride = match self.loops {
            LoopStrategy::Tape => None,
            LoopStrategy::Recompute => {
                let one = self.konst(n, 1.0);
                Some(self.bin("max", n, one))
            }
            LoopStrategy::Checkpoint => Some(self.sqrt_stride(n)),
        };
        // The tape's rows: ⌈n / stride⌉ (`n >= 0`, `stride >= 1`).
        let rows = match stride {
            None => n64,
            Some(st) => {
                let st = self.as_i64(st);
                let one = self.constant(Scalar::I64, 1.0);
                let up = self.bin("add", n64, st);
                let up = self.bin("sub", up, one);
                self.bin("div", up, st)
            }
        };
        let taped: Vec<bool> = params
            .iter()
            .map(|&p| self.ctx.as_scalar(self.ctx.value_type(p)).is_some() || self.read(p))
            .collect();
        let mut loop_ops = vec![n];
        loop_ops.extend(&inits);
        let mut tys = vec![self.ctx.value_type(n)];
        tys.extend(params.iter().map(|&p| {
            let t = self.ctx.value_type(p);
            self.ctx.map_type(t, &self.vm)
        }));
        for (j, &init) in inits.iter().enumerate() {
            if taped[j] {
                let t = self.new_tape(rows, init);
                tys.push(self.ctx.value_type(t));
                loop_ops.push(t);
            }
        }
        let (r, nb, new_args) = self.new_region(&tys);
        let m = params.len();
        let mut vm_args = Vec::new();
        if for_loop {
            vm_args.push((old_args[0], new_args[0]));
        }
        for (j, &p) in params.iter().enumerate() {
            vm_args.push((p, new_args[1 + j]));
        }
        for (a, b) in vm_args {
            self.vm.insert(a, b);
        }
        for &a in &new_args {
            let t = self.ctx.value_type(a);
            let mt = self.ctx.map_type(t, &self.vm);
            if mt != t {
                self.ctx.set_value_type(a, mt);
            }
        }
        let saved = self.enter(nb);
        // A tape row per iteration, and the adjoints carried backwards,
        // need merge arrays of one shape (Futhark's reverse mode has the
        // same limit): checked at run time.
        for (j, &init) in inits.iter().enumerate() {
            if self.ctx.as_scalar(self.ctx.value_type(init)).is_none() {
                let want = self.sizes(init);
                self.assert_shape(
                    new_args[1 + j],
                    &want,
                    "vjp: a loop whose merge arrays change size is not supported",
                );
            }
        }
        // The tapes record the merge values first, before the body may
        // update them in place.
        let record: Vec<(Value, Value)> = (0..m)
            .filter(|&j| taped[j])
            .enumerate()
            .map(|(c, j)| (new_args[1 + m + c], new_args[1 + j]))
            .collect();
        let tape_ys = match stride {
            None => {
                let i64i = self.as_i64(new_args[0]);
                self.record(&record, i64i)
            }
            // Only the first iteration of each stride writes its row.
            Some(st) => {
                let rem = self.bin("mod", new_args[0], st);
                let zero = self.konst(n, 0.0);
                let first = self.cmp("eq", rem, zero);
                let row = self.bin("div", new_args[0], st);
                let row = self.as_i64(row);
                let tys: Vec<Type> = record.iter().map(|&(t, _)| self.ctx.value_type(t)).collect();
                let (tr, tb, _) = self.new_region(&[]);
                let saved = self.enter(tb);
                let ups = self.record(&record, row);
                self.leave(&ups, saved);
                let (er, eb, _) = self.new_region(&[]);
                let saved = self.enter(eb);
                let same: Vec<Value> = record.iter().map(|&(t, _)| t).collect();
                self.leave(&same, saved);
                let f = self.emit("soac.if", &[first], &tys, &[], vec![tr, er]);
                self.ctx.results(f).collect()
            }
        };
        let ys = self.forward(block)?;
        let mut yv: Vec<Value> = ys.iter().map(|&y| self.primal(y)).collect();
        yv.extend(&tape_ys);
        self.leave(&yv, saved);
        let rtys: Vec<Type> = tys[1..].to_vec();
        let form = self.kind("for");
        let l = self.emit("soac.loop", &loop_ops, &rtys, &[("form", form)], vec![r]);
        let new: Vec<Value> = self.ctx.results(l).collect();
        for (j, &res) in results.iter().enumerate() {
            self.vm.insert(res, new[j]);
        }
        let mut tapes = Vec::new();
        let mut k = m;
        for &t in &taped {
            tapes.push(t.then(|| {
                k += 1;
                new[k - 1]
            }));
        }
        self.tapes.insert(o, Taped { n, tapes, stride });
        Ok(())
    }

    /// A tape of `rows` (i64) rows of the type of (new) value `init`.
    fn new_tape(&mut self, rows: Value, init: Value) -> Value {
        // Every row is written before it is read: any contents do.
        match elem(self.ctx, self.ctx.value_type(init)) {
            Some(s) if self.ctx.as_scalar(self.ctx.value_type(init)).is_none() => {
                let mut dims = vec![rows];
                dims.extend(self.sizes(init));
                let z = self.constant(s, 0.0);
                self.filled(&dims, z)
            }
            _ => self.replicate(rows, init),
        }
    }

    /// Each (tape, value) of `record` with the value written at `row`.
    fn record(&mut self, record: &[(Value, Value)], row: Value) -> Vec<Value> {
        record
            .iter()
            .map(|&(tape, v)| {
                let t = self.ctx.value_type(tape);
                self.emit1("soac.update", &[tape, row, v], t, &[])
            })
            .collect()
    }

    /// `max(1, ⌈√n⌉)` in `n`'s integer type: the checkpoint stride.
    fn sqrt_stride(&mut self, n: Value) -> Value {
        let nt = self.ctx.value_type(n);
        let f64t = self.ctx.scalar(Scalar::F64);
        let k = self.kind("sitofp");
        let nf = self.emit1("soac.convop", &[n], f64t, &[("kind", k)]);
        let r = self.un("sqrt", nf);
        let r = self.un("ceil", r);
        let k = self.kind("fptosi");
        let st = self.emit1("soac.convop", &[r], nt, &[("kind", k)]);
        let one = self.konst(n, 1.0);
        self.bin("max", st, one)
    }

    /// The number of iterations of while loop `o` from `inits` (copies): a
    /// copy of the loop carrying a counter.
    fn count_iterations(&mut self, o: OpId, inits: &[Value]) -> R<Value> {
        let region = self.ctx.regions(o)[0];
        let block = self.ctx.blocks(region)[0];
        let old_args = self.ctx.block_args(block).to_vec();
        let mut tys: Vec<Type> = inits.iter().map(|&v| self.ctx.value_type(v)).collect();
        let i64t = self.ctx.scalar(Scalar::I64);
        tys.push(i64t);
        let (r, nb, new_args) = self.new_region(&tys);
        let saved = self.enter(nb);
        let mut ys = ad::inline(
            self.ctx,
            region,
            &mut ValueMap::default(),
            &new_args[..old_args.len()],
            self.at,
        );
        let one = self.constant(Scalar::I64, 1.0);
        let counter = *new_args.last().expect("the counter");
        ys.push(self.bin("add", counter, one));
        self.leave(&ys, saved);
        let mut ops = inits.to_vec();
        ops.push(self.constant(Scalar::I64, 0.0));
        let attrs = self.ctx.attrs(o).to_vec();
        let name = self.ctx.op_name_sym(o);
        let l = self.ctx.create_op(name, &ops, &tys, &attrs, vec![r], self.loc);
        let mut b = Builder::new(self.ctx);
        b.point = self.at;
        b.insert(l);
        Ok(self.ctx.result(l, inits.len()))
    }

    /// Step 3: the return sweep over the ops of `block` but its terminator.
    fn reverse(&mut self, block: BlockId) -> R<()> {
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        let Some((_, rest)) = ops.split_last() else {
            return Ok(());
        };
        for &o in rest.iter().rev() {
            if !self.ctx.results(o).any(|r| self.adj.contains_key(&r)) {
                continue;
            }
            let saved = self.loc;
            self.loc = self.ctx.location(o);
            let r = self.reverse_op(o);
            self.loc = saved;
            r?;
        }
        Ok(())
    }

    fn reverse_op(&mut self, o: OpId) -> R<()> {
        let name = self.ctx.op_name(o).to_string();
        match name.as_str() {
            "soac.binop" | "soac.unop" | "soac.ternop" | "soac.convop" | "soac.select" => self.scalar(&name, o),
            "soac.index" | "soac.update" | "soac.slice" | "soac.reshape" | "soac.rearrange" | "soac.rotate"
            | "soac.copy" | "soac.concat" | "soac.replicate" => self.linear(&name, o),
            "soac.map" => self.map(o),
            "soac.reduce" => self.reduce(o),
            "soac.scan" => self.scan(o),
            "soac.hist" => self.hist(o),
            "soac.scatter" => self.scatter(o),
            "soac.filter" => self.filter(o),
            "soac.loop" => self.loop_(o),
            "soac.if" => self.if_(o),
            "soac.with_vjp" => self.custom(o),
            "soac.apply" => {
                Err(self.unsupported("a call of a function `soac-inline` did not inline (`noinline` or recursive)"))
            }
            n => Err(self.unsupported(&format!("`{n}`"))),
        }
    }

    // ----- scalar ops ----------------------------------------------------------

    fn scalar(&mut self, name: &str, o: OpId) -> R<()> {
        let res = self.ctx.result(o, 0);
        let Some(&ybar) = self.adj.get(&res) else {
            return Ok(());
        };
        let operands = self.ctx.operands(o).to_vec();
        let kind = match self.ctx.attr(o, "kind").map(|a| self.ctx.attr_kind(a).clone()) {
            Some(AttrKind::String(s)) => self.ctx.str(s).to_string(),
            _ => String::new(),
        };
        let a = |s: &Self, i: usize| s.primal(operands[i]);
        let p = self.primal(res);
        let int = self.ctx.as_scalar(self.ctx.value_type(p)).is_some_and(|s| s.is_int());
        // (operand, contribution) pairs.
        let mut contrib: Vec<(usize, Value)> = Vec::new();
        match (name, kind.as_str()) {
            ("soac.binop", "add") => contrib = vec![(0, ybar), (1, ybar)],
            ("soac.binop", "sub") => {
                let n = self.un("neg", ybar);
                contrib = vec![(0, ybar), (1, n)];
            }
            ("soac.binop", "mul") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let dx = self.bin("mul", ybar, y);
                let dy = self.bin("mul", ybar, x);
                contrib = vec![(0, dx), (1, dy)];
            }
            ("soac.binop", "div") if int => {
                // As `soac-jvp`: (a'b - ab')/b².
                let (x, y) = (a(self, 0), a(self, 1));
                let yy = self.bin("mul", y, y);
                let t = self.bin("mul", ybar, y);
                let dx = self.bin("div", t, yy);
                let t = self.bin("mul", ybar, x);
                let t = self.bin("div", t, yy);
                let dy = self.un("neg", t);
                contrib = vec![(0, dx), (1, dy)];
            }
            ("soac.binop", "div") => {
                let y = a(self, 1);
                let dx = self.bin("div", ybar, y);
                let t = self.bin("mul", dx, p);
                let dy = self.un("neg", t);
                contrib = vec![(0, dx), (1, dy)];
            }
            ("soac.binop", "pow") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let one = self.konst(y, 1.0);
                let zero = self.konst(y, 0.0);
                let e = self.bin("sub", y, one);
                let e = if int {
                    let neg = self.cmp("lt", e, zero);
                    self.select(neg, zero, e)
                } else {
                    e
                };
                let pw = self.bin("pow", x, e);
                let d = self.bin("mul", y, pw);
                let y0 = self.cmp("eq", y, zero);
                let d = self.select(y0, zero, d);
                contrib.push((0, self.bin("mul", ybar, d)));
                if !int {
                    let zx = self.konst(x, 0.0);
                    let l = self.un("log", x);
                    let d = self.bin("mul", p, l);
                    let x0 = self.cmp("eq", x, zx);
                    let d = self.select(x0, zx, d);
                    contrib.push((1, self.bin("mul", ybar, d)));
                }
            }
            ("soac.binop", "min" | "max") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let c = self.cmp(if kind == "max" { "ge" } else { "le" }, x, y);
                let zero = self.konst(ybar, 0.0);
                let dx = self.select(c, ybar, zero);
                let dy = self.select(c, zero, ybar);
                contrib = vec![(0, dx), (1, dy)];
            }
            ("soac.binop", "atan2") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let xx = self.bin("mul", x, x);
                let yy = self.bin("mul", y, y);
                let den = self.bin("add", xx, yy);
                let dx = self.bin("div", y, den);
                let nx = self.un("neg", x);
                let dy = self.bin("div", nx, den);
                contrib = vec![(0, self.bin("mul", ybar, dx)), (1, self.bin("mul", ybar, dy))];
            }
            ("soac.binop", "hypot") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let dx = self.bin("div", x, p);
                let dy = self.bin("div", y, p);
                contrib = vec![(0, self.bin("mul", ybar, dx)), (1, self.bin("mul", ybar, dy))];
            }
            ("soac.binop", "copysign") => {
                let x = a(self, 0);
                let one = self.konst(x, 1.0);
                let sa = self.bin("copysign", one, x);
                let sp = self.bin("copysign", one, p);
                let d = self.bin("mul", sa, sp);
                contrib = vec![(0, self.bin("mul", ybar, d))];
            }
            ("soac.binop", "mod" | "rem") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let diff = self.bin("sub", x, p);
                let q = self.bin("div", diff, y);
                let nq = self.un("neg", q);
                contrib = vec![(0, ybar), (1, self.bin("mul", ybar, nq))];
            }
            ("soac.binop", "and" | "or" | "xor" | "shl" | "shr" | "ushr" | "mul_hi") => {}
            ("soac.unop", "neg") => contrib = vec![(0, self.un("neg", ybar))],
            ("soac.unop", k) => {
                let x = a(self, 0);
                if let Some(d) = derivative(self, k, x, p)? {
                    contrib = vec![(0, self.bin("mul", ybar, d))];
                }
            }
            ("soac.ternop", _) => {
                let (x, y) = (a(self, 0), a(self, 1));
                contrib = vec![(0, self.bin("mul", ybar, y)), (1, self.bin("mul", ybar, x)), (2, ybar)];
            }
            ("soac.convop", "fpconv" | "zext" | "sext" | "trunc" | "sitofp" | "uitofp" | "fptosi" | "fptoui") => {
                // The conversion back, from the result's type to the operand's.
                let ot = self.ctx.value_type(a(self, 0));
                let (from, to) = (
                    self.ctx.as_scalar(self.ctx.value_type(p)).expect("a scalar"),
                    self.ctx.as_scalar(ot).expect("a scalar"),
                );
                let back = match (from.is_float(), to.is_float()) {
                    _ if from == to => None,
                    (true, true) => Some("fpconv"),
                    (true, false) => Some(if kind == "uitofp" { "fptoui" } else { "fptosi" }),
                    (false, true) => Some(if kind == "fptoui" { "uitofp" } else { "sitofp" }),
                    (false, false) if from.bits() > to.bits() => Some("trunc"),
                    (false, false) if from.bits() < to.bits() => Some(if kind == "trunc" { "sext" } else { "zext" }),
                    (false, false) => Some("zext"),
                };
                let d = match back {
                    None => ybar,
                    Some(k) => {
                        let k = self.kind(k);
                        self.emit1("soac.convop", &[ybar], ot, &[("kind", k)])
                    }
                };
                contrib = vec![(0, d)];
            }
            ("soac.convop", _) => {}
            ("soac.select", _) => {
                let c = a(self, 0);
                let zero = self.zero(ybar)?;
                let dx = self.select(c, ybar, zero);
                let dy = self.select(c, zero, ybar);
                contrib = vec![(1, dx), (2, dy)];
            }
            (n, k) => return Err(self.unsupported(&format!("`{n}` of kind `{k}`"))),
        }
        for (i, c) in contrib {
            self.add_adj(operands[i], c)?;
        }
        Ok(())
    }

    // ----- linear array ops ----------------------------------------------------

    /// An owned copy of adjoint `a` (to update in place).
    fn own(&mut self, a: Value) -> Value {
        if self.owned.contains(&a) {
            return a;
        }
        let t = self.ctx.value_type(a);
        let c = self.emit1("soac.copy", &[a], t, &[]);
        self.owned.insert(c);
        c
    }

    /// A zero shaped like old `x`'s copy with `ybar` added at the slice
    /// `triples` (offset, length, stride of each leading dimension).
    fn embed(&mut self, dest: Value, triples: &[(Value, Value, Value)], ybar: Value) -> R<Value> {
        let Some((&(off, len, stride), rest)) = triples.split_first() else {
            return Ok(ybar);
        };
        // scatter(len, iota len, ybar, dest) writing row k of ybar at off + k*stride.
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, len, i64t);
        let iota = self.emit1("soac.iota", &[len], it, &[]);
        let rt = row_type(self.ctx, self.ctx.value_type(ybar));
        let (r, blk, args) = self.new_region(&[i64t, rt]);
        let saved = self.enter(blk);
        let ks = self.bin("mul", args[0], stride);
        let idx = self.bin("add", off, ks);
        let row = if rest.is_empty() {
            args[1]
        } else {
            let drt = row_type(self.ctx, self.ctx.value_type(dest));
            let dims = self.sizes(dest);
            let s = elem(self.ctx, drt).expect("numbers");
            let z = self.constant(s, 0.0);
            let zrow = self.filled(&dims[1..], z);
            self.embed(zrow, rest, args[1])?
        };
        self.leave(&[idx, row], saved);
        let t = self.ctx.value_type(dest);
        let sc = self.emit("soac.scatter", &[len, iota, ybar, dest], &[t], &[], vec![r]);
        Ok(self.ctx.result(sc, 0))
    }

    fn linear(&mut self, name: &str, o: OpId) -> R<()> {
        let res = self.ctx.result(o, 0);
        let Some(&ybar) = self.adj.get(&res) else {
            return Ok(());
        };
        let operands = self.ctx.operands(o).to_vec();
        match name {
            "soac.index" => {
                let x = operands[0];
                if !self.is_active(x) {
                    return Ok(());
                }
                let idx: Vec<Value> = operands[1..].iter().map(|&v| self.primal(v)).collect();
                if self.tracks(x) && self.ctx.as_scalar(self.ctx.value_type(ybar)).is_some() {
                    let flat = self.flat_index(x, &idx);
                    self.sparse.entry(x).or_default().push((flat, ybar));
                    return Ok(());
                }
                let cur = match self.adj.get(&x) {
                    Some(&a) => self.own(a),
                    None => {
                        let p = self.primal(x);
                        let z = self.zero(p)?;
                        self.owned.insert(z);
                        z
                    }
                };
                let mut ops = vec![cur];
                ops.extend(&idx);
                let rt = self.ctx.value_type(ybar);
                let old = self.emit1("soac.index", &ops, rt, &[]);
                let s = self.add_values(old, ybar)?;
                ops.push(s);
                let t = self.ctx.value_type(cur);
                let u = self.emit1("soac.update", &ops, t, &[]);
                self.owned.insert(u);
                self.adj.insert(x, u);
            }
            "soac.update" => {
                let (x, v) = (operands[0], operands[operands.len() - 1]);
                let idx: Vec<Value> = operands[1..operands.len() - 1]
                    .iter()
                    .map(|&v| self.primal(v))
                    .collect();
                let mut ops = vec![ybar];
                ops.extend(&idx);
                let vt = {
                    let t = self.ctx.value_type(v);
                    self.ctx.map_type(t, &self.vm)
                };
                let dv = self.emit1("soac.index", &ops, vt, &[]);
                // The copy of `dv` keeps it apart from the update below.
                let dv = if self.ctx.as_scalar(vt).is_some() {
                    dv
                } else {
                    self.emit1("soac.copy", &[dv], vt, &[])
                };
                self.add_adj(v, dv)?;
                if self.is_active(x) {
                    let own = self.own(ybar);
                    let pv = self.primal(v);
                    let z = self.zero(pv)?;
                    ops[0] = own;
                    ops.push(z);
                    let t = self.ctx.value_type(own);
                    let u = self.emit1("soac.update", &ops, t, &[]);
                    self.add_adj(x, u)?;
                }
            }
            "soac.slice" => {
                let x = operands[0];
                if !self.is_active(x) {
                    return Ok(());
                }
                let t: Vec<Value> = operands[1..].iter().map(|&v| self.primal(v)).collect();
                let triples: Vec<(Value, Value, Value)> = t.chunks(3).map(|c| (c[0], c[1], c[2])).collect();
                let p = self.primal(x);
                let z = self.zero(p)?;
                let e = self.embed(z, &triples, ybar)?;
                self.add_adj(x, e)?;
            }
            "soac.reshape" => {
                let x = operands[0];
                let p = self.primal(x);
                let mut ops = vec![ybar];
                ops.extend(self.sizes(p));
                let t = self.ctx.value_type(p);
                let r = self.emit1("soac.reshape", &ops, t, &[]);
                self.add_adj(x, r)?;
            }
            "soac.rearrange" => {
                let x = operands[0];
                let Some(perm) = super::simplify::perm(self.ctx, o) else {
                    return Err(self.unsupported("`soac.rearrange` without a permutation"));
                };
                let mut inv = vec![0; perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    inv[p] = i;
                }
                let inv_attrs: Vec<_> = inv.iter().map(|&i| self.ctx.int_attr(i as i64, Scalar::I64)).collect();
                let a = self.ctx.intern_attr(AttrKind::Array(inv_attrs));
                let p = self.primal(x);
                let t = self.ctx.value_type(p);
                let r = self.emit1("soac.rearrange", &[ybar], t, &[("perm", a)]);
                self.add_adj(x, r)?;
            }
            "soac.rotate" => {
                let x = operands[0];
                let mut ops = vec![ybar];
                for &k in &operands[1..] {
                    let k = self.primal(k);
                    ops.push(self.un("neg", k));
                }
                let t = self.ctx.value_type(ybar);
                let r = self.emit1("soac.rotate", &ops, t, &[]);
                self.add_adj(x, r)?;
            }
            "soac.copy" => self.add_adj(operands[0], ybar)?,
            "soac.concat" => {
                let dim = match self.ctx.attr(o, "dim").map(|a| self.ctx.attr_kind(a).clone()) {
                    Some(AttrKind::Int { bits, .. }) => bits as usize,
                    _ => 0,
                };
                let whole = self.sizes(ybar);
                let zero = self.constant(Scalar::I64, 0.0);
                let one = self.constant(Scalar::I64, 1.0);
                let mut off = zero;
                for &x in &operands[1..] {
                    let p = self.primal(x);
                    let len = self.sizes(p)[dim];
                    if self.is_active(x) {
                        let mut ops = vec![ybar];
                        for &w in whole.iter().take(dim) {
                            ops.extend([zero, w, one]);
                        }
                        ops.extend([off, len, one]);
                        let t = self.ctx.value_type(p);
                        let s = self.emit1("soac.slice", &ops, t, &[]);
                        self.add_adj(x, s)?;
                    }
                    off = self.bin("add", off, len);
                }
            }
            "soac.replicate" => {
                let x = operands[1];
                if self.is_active(x) {
                    let s = self.sum_rows(ybar)?;
                    self.add_adj(x, s)?;
                }
            }
            _ => unreachable!("linear ops are the ones listed"),
        }
        Ok(())
    }

    // ----- sparse adjoints (Note [Sparse adjoints]) ---------------------------

    /// Whether the innermost scope tracks array `x` sparsely.
    fn tracks(&self, x: Value) -> bool {
        matches!(self.scopes.last(), Some(Scope::Map(s) | Scope::If(s)) if s.contains(&x))
    }

    /// The position of element `idx` of old array `x` in its rows flattened.
    fn flat_index(&mut self, x: Value, idx: &[Value]) -> Value {
        let p = self.primal(x);
        let dims = self.sizes(p);
        let mut flat = idx[0];
        for (&i, &d) in idx[1..].iter().zip(&dims[1..]) {
            let m = self.bin("mul", flat, d);
            flat = self.bin("add", m, i);
        }
        flat
    }

    /// The free arrays of numbers among `free`, for a scope to track.
    fn trackable(&self, free: &[Value]) -> HashSet<Value> {
        free.iter()
            .copied()
            .filter(|&f| {
                let t = self.ctx.value_type(f);
                self.ctx.as_scalar(t).is_none() && is_number(self.ctx, t)
            })
            .collect()
    }

    /// Give the pairs of `f`, made by a scope just closed, to the scope
    /// around if it tracks `f` (and takes arrays, unless they are scalars),
    /// or add them to `f`'s dense adjoint.
    fn settle(&mut self, f: Value, pairs: Vec<(Value, Value)>) -> R<()> {
        if pairs.is_empty() {
            return Ok(());
        }
        let scalars = self.ctx.as_scalar(self.ctx.value_type(pairs[0].0)).is_some();
        let takes = match self.scopes.last() {
            Some(Scope::Map(s)) => s.contains(&f),
            Some(Scope::If(s)) => s.contains(&f) && scalars,
            _ => false,
        };
        if takes {
            self.sparse.entry(f).or_default().extend(pairs);
            return Ok(());
        }
        let cur = match self.adj.get(&f).copied() {
            Some(a) => self.own(a),
            None => {
                let p = self.primal(f);
                let z = self.zero(p)?;
                self.owned.insert(z);
                z
            }
        };
        let dims = self.sizes(cur);
        let t = self.ctx.value_type(cur);
        let s = elem(self.ctx, t).expect("numbers");
        let i64t = self.ctx.scalar(Scalar::I64);
        let mut total = dims[0];
        for &d in &dims[1..] {
            total = self.bin("mul", total, d);
        }
        let et = self.ctx.scalar(s);
        let flat_t = array_of(self.ctx, total, et);
        let mut flat = if dims.len() > 1 {
            self.emit1("soac.reshape", &[cur, total], flat_t, &[])
        } else {
            cur
        };
        for (idx, val) in pairs {
            let st = self.ctx.value_type(flat);
            if self.ctx.as_scalar(self.ctx.value_type(idx)).is_some() {
                // One element, when the index is one (not a dummy).
                let zero = self.constant(Scalar::I64, 0.0);
                let ge = self.cmp("le", zero, idx);
                let lt = self.cmp("lt", idx, total);
                let inb = self.bin("and", ge, lt);
                let (tr, tb, _) = self.new_region(&[]);
                let saved = self.enter(tb);
                let old = self.emit1("soac.index", &[flat, idx], et, &[]);
                let sum = self.bin("add", old, val);
                let u = self.emit1("soac.update", &[flat, idx, sum], st, &[]);
                self.leave(&[u], saved);
                let (er, eb, _) = self.new_region(&[]);
                let saved = self.enter(eb);
                self.leave(&[flat], saved);
                let r = self.emit("soac.if", &[inb], &[st], &[], vec![tr, er]);
                flat = self.ctx.result(r, 0);
            } else {
                let idims = self.sizes(idx);
                let mut m = idims[0];
                for &d in &idims[1..] {
                    m = self.bin("mul", m, d);
                }
                let (fi, fv) = if idims.len() > 1 {
                    let it = array_of(self.ctx, m, i64t);
                    let vt = array_of(self.ctx, m, et);
                    (
                        self.emit1("soac.reshape", &[idx, m], it, &[]),
                        self.emit1("soac.reshape", &[val, m], vt, &[]),
                    )
                } else {
                    (idx, val)
                };
                let op = self.plus_region(et)?;
                let (lam, lb, largs) = self.new_region(&[i64t, et]);
                let saved = self.enter(lb);
                self.leave(&[largs[0], largs[1]], saved);
                let zero = self.constant(s, 0.0);
                let h = self.emit("soac.hist", &[m, total, flat, zero, fi, fv], &[st], &[], vec![op, lam]);
                flat = self.ctx.result(h, 0);
            }
        }
        let dense = if dims.len() > 1 {
            let mut ops = vec![flat];
            ops.extend(&dims);
            self.emit1("soac.reshape", &ops, t, &[])
        } else {
            flat
        };
        self.owned.insert(dense);
        self.adj.insert(f, dense);
        Ok(())
    }

    // ----- SOACs -------------------------------------------------------------

    /// The adjoint of the lambda `region` of `holder`, applied to the rows
    /// of `xs` (old): a map over those rows and the rows of `extra` (new
    /// arrays) whose lambda recomputes the body and runs its return sweep,
    /// the yields seeded by `seeds` (given the yields, old, and the rows of
    /// `extra`). Adds to the adjoints of the active `xs` and of the lambda's
    /// active free variables.
    fn map_adjoint(
        &mut self,
        holder: OpId,
        region: RegionId,
        n: Value,
        xs: &[Value],
        extra: &[Value],
        seeds: &mut Seeds<'c, '_>,
    ) -> R<()> {
        let free = self.free_active(holder);
        let block = self.ctx.blocks(region)[0];
        let old_args = self.ctx.block_args(block).to_vec();
        let mut ins: Vec<Value> = xs.iter().map(|&x| self.primal(x)).collect();
        ins.extend(extra);
        let (r, new_args, ys, saved) = self.recompute_lambda(region, &ins)?;
        let saved_adj = self.stash(&free);
        let tracked = self.trackable(&free);
        let saved_sparse = self.take_sparse(&tracked);
        self.scopes.push(Scope::Map(tracked));
        let ss = seeds(self, &ys, &new_args[xs.len()..])?;
        for (&y, s) in ys.iter().zip(ss) {
            if let Some(s) = s {
                self.add_adj(y, s)?;
            }
        }
        self.reverse(block)?;
        let active_xs: Vec<usize> = (0..xs.len()).filter(|&i| self.is_active(xs[i])).collect();
        let mut yv = Vec::new();
        for &i in &active_xs {
            yv.push(self.adj_or_zero(old_args[i])?);
        }
        // The free variables' adjoints are summed over the rows as
        // planned here (Note [Row sums by interchange]).
        let got: Vec<Value> = free.iter().copied().filter(|f| self.adj.contains_key(f)).collect();
        let mut lam = row_sums::Lambda::new(self.ctx.blocks(r)[0], &ins);
        let plans: Vec<row_sums::RowSum> = got.iter().map(|f| lam.plan(self.ctx, self.adj[f])).collect();
        let sum_yields = lam.into_yields();
        // The pairs, each an index then a value.
        let mut pairs_of = Vec::new();
        for (f, _) in &saved_sparse {
            let ps = self.sparse.remove(f).unwrap_or_default();
            for &(i, v) in &ps {
                yv.extend([i, v]);
            }
            pairs_of.push((*f, ps.len()));
        }
        let sums_at = yv.len();
        yv.extend(&sum_yields);
        self.scopes.pop();
        self.leave(&yv, saved);
        self.restore(saved_adj);
        self.restore_sparse(&saved_sparse);
        let out = self.emit_map(n, &ins, r, &yv);
        for (j, &i) in active_xs.iter().enumerate() {
            self.add_adj(xs[i], out[j])?;
        }
        for (&f, plan) in got.iter().zip(&plans) {
            let s = self.row_sum(n, plan, &out[sums_at..])?;
            self.add_adj(f, s)?;
        }
        let mut at = active_xs.len();
        for (f, count) in pairs_of {
            let ps: Vec<(Value, Value)> = (0..count).map(|c| (out[at + 2 * c], out[at + 2 * c + 1])).collect();
            at += 2 * count;
            self.settle(f, ps)?;
        }
        Ok(())
    }

    /// `map(n, xs...)`: the adjoint map, seeded by the rows of the results'
    /// adjoints.
    fn map(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let results: Vec<Value> = self.ctx.results(o).collect();
        let with: Vec<usize> = (0..results.len())
            .filter(|&i| self.adj.contains_key(&results[i]))
            .collect();
        let extra: Vec<Value> = with.iter().map(|&i| self.adj[&results[i]]).collect();
        let n = self.primal(operands[0]);
        let region = self.ctx.regions(o)[0];
        let k = results.len();
        self.map_adjoint(o, region, n, &operands[1..], &extra, &mut |_, _, rows| {
            let mut s = vec![None; k];
            for (j, &i) in with.iter().enumerate() {
                s[i] = Some(rows[j]);
            }
            Ok(s)
        })
    }

    /// `reduce`: by addition, every element's adjoint is the result's;
    /// by any other operator ⊙, element `i`'s is its adjoint in `l_i ⊙ x_i
    /// ⊙ r_i`, `l_i` the reduction of the elements before it and `r_i` of
    /// those after it (two exclusive scans, one of them over the reversed
    /// elements with the operator's arguments swapped): parallel for
    /// every operator, `min`, `max` and `*` included.
    fn reduce(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let n = self.primal(operands[0]);
        let op = self.ctx.regions(o)[0];
        if let Some(kind) = min_or_max(self.ctx, op) {
            return self.reduce_extremum(o, kind);
        }
        if !is_plus(self.ctx, op) {
            return self.reduce_general(o);
        }
        for j in 0..k {
            let r = self.ctx.result(o, j);
            let x = operands[1 + k + j];
            if let (Some(&ybar), true) = (self.adj.get(&r), self.is_active(x)) {
                let rep = self.replicate(n, ybar);
                self.add_adj(x, rep)?;
            }
        }
        Ok(())
    }

    /// `reduce` by `min` or `max` (`kind`) of scalars: only the element
    /// chosen (the first of equal ones) gets the result's adjoint, at the
    /// index a reduction of (value, index) pairs finds; a sparse adjoint
    /// (Note [Sparse adjoints]).
    fn reduce_extremum(&mut self, o: OpId, kind: &str) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let (x, ne) = (operands[2], self.primal(operands[1]));
        let Some(&ybar) = self.adj.get(&self.ctx.result(o, 0)) else {
            return Ok(());
        };
        if !self.is_active(x) {
            return Ok(());
        }
        let n = self.primal(operands[0]);
        let px = self.primal(x);
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let vt = self.ctx.value_type(ne);
        let (r, b, a) = self.new_region(&[vt, i64t, vt, i64t]);
        let saved = self.enter(b);
        let better = if kind == "min" { "lt" } else { "gt" };
        let first = self.cmp(better, a[0], a[2]);
        let second = self.cmp(better, a[2], a[0]);
        let lower = self.bin("min", a[1], a[3]);
        let v = self.select(first, a[0], a[2]);
        let i = self.select(second, a[3], lower);
        let i = self.select(first, a[1], i);
        self.leave(&[v, i], saved);
        let none = self.sizes(px)[0];
        let red = self.emit("soac.reduce", &[n, ne, none, px, iota], &[vt, i64t], &[], vec![r]);
        let idx = self.ctx.result(red, 1);
        self.settle(x, vec![(idx, ybar)])
    }

    fn reduce_general(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let n = self.primal(operands[0]);
        let (nes, xs) = (operands[1..1 + k].to_vec(), operands[1 + k..].to_vec());
        if !xs.iter().any(|&x| self.is_active(x)) {
            return Ok(());
        }
        let op = self.ctx.regions(o)[0];
        let results: Vec<Value> = self.ctx.results(o).collect();
        let mut ybars = Vec::new();
        for &r in &results {
            ybars.push(self.adj_or_zero(r)?);
        }
        let pnes: Vec<Value> = nes.iter().map(|&v| self.primal(v)).collect();
        let pxs: Vec<Value> = xs.iter().map(|&v| self.primal(v)).collect();
        let tys: Vec<Type> = pxs.iter().map(|&v| self.ctx.value_type(v)).collect();
        // l: the exclusive scan of xs; r: of the reversed xs by the swapped
        // operator, reversed.
        let fwd_op = self.copy_operator(op, false);
        let mut ops = vec![n];
        ops.extend(&pnes);
        ops.extend(&pxs);
        let sc = self.emit("soac.scan", &ops, &tys, &[], vec![fwd_op]);
        let incl: Vec<Value> = self.ctx.results(sc).collect();
        let mut ls = Vec::new();
        for j in 0..k {
            ls.push(self.shift_right(incl[j], pnes[j])?);
        }
        let mut rev = Vec::new();
        for &x in &pxs {
            rev.push(self.reversed(x)?);
        }
        let swapped = self.copy_operator(op, true);
        let mut ops = vec![n];
        ops.extend(&pnes);
        ops.extend(&rev);
        let sc = self.emit("soac.scan", &ops, &tys, &[], vec![swapped]);
        let incl_r: Vec<Value> = self.ctx.results(sc).collect();
        let mut rs = Vec::new();
        for j in 0..k {
            let e = self.shift_right(incl_r[j], pnes[j])?;
            rs.push(self.reversed(e)?);
        }
        // g(l, x, r) = (l ⊙ x) ⊙ r, as a region of its own (old code, never
        // inserted), differentiated in x for each row.
        let g = self.sandwich(op);
        let gb = self.ctx.blocks(g)[0];
        let gargs = self.ctx.block_args(gb).to_vec();
        for &a in &gargs[k..2 * k] {
            if self.number(a) {
                self.active.insert(a);
            }
        }
        self.activity(gb);
        let mut ins = ls;
        ins.extend(&pxs);
        ins.extend(rs);
        let (r, _, saved) = self.row_lambda(&gargs, &ins);
        let ys = self.forward(gb)?;
        for (&y, &yb) in ys.iter().zip(&ybars) {
            self.add_adj(y, yb)?;
        }
        self.reverse(gb)?;
        self.scopes.pop();
        let mut yv = Vec::new();
        for &a in &gargs[k..2 * k] {
            yv.push(self.adj_or_zero(a)?);
        }
        self.leave(&yv, saved);
        let mut mops = vec![n];
        mops.extend(&ins);
        let m = self.emit("soac.map", &mops, &tys, &[], vec![r]);
        let out: Vec<Value> = self.ctx.results(m).collect();
        for (j, &x) in xs.iter().enumerate() {
            self.add_adj(x, out[j])?;
        }
        Ok(())
    }

    /// A copy of operator region `op` (old) for new code, with its two
    /// halves of arguments swapped when `swap`.
    fn copy_operator(&mut self, op: RegionId, swap: bool) -> RegionId {
        let block = self.ctx.blocks(op)[0];
        let args = self.ctx.block_args(block).to_vec();
        let k = args.len() / 2;
        let tys: Vec<Type> = args
            .iter()
            .map(|&a| {
                let t = self.ctx.value_type(a);
                self.ctx.map_type(t, &self.vm)
            })
            .collect();
        let (r, nb, new_args) = self.new_region(&tys);
        let ins: Vec<Value> = (0..args.len())
            .map(|i| new_args[if swap { (i + k) % (2 * k) } else { i }])
            .collect();
        let saved = self.enter(nb);
        let ys = self.inline(op, &ins);
        self.leave(&ys, saved);
        r
    }

    /// The region `(l..., x..., r...) -> (l ⊙ x) ⊙ r` of operator region
    /// `op`, in the old code's terms (not inserted anywhere).
    fn sandwich(&mut self, op: RegionId) -> RegionId {
        let block = self.ctx.blocks(op)[0];
        let args = self.ctx.block_args(block).to_vec();
        let k = args.len() / 2;
        let half: Vec<Type> = args[..k].iter().map(|&a| self.ctx.value_type(a)).collect();
        let mut tys = half.clone();
        tys.extend(&half);
        tys.extend(&half);
        let (g, gb, gargs) = self.new_region(&tys);
        let mut l = Lower {
            ctx: &mut *self.ctx,
            at: InsertPoint::End(gb),
            loc: self.loc,
        };
        let mut lx = gargs[..k].to_vec();
        lx.extend(&gargs[k..2 * k]);
        let t = l.inline(op, &lx);
        let mut tr = t;
        tr.extend(&gargs[2 * k..]);
        let u = l.inline(op, &tr);
        l.emit("soac.yield", &u, &[], &[], Vec::new());
        g
    }

    /// The rows of (new) array `a` moved one down, `first` in front (the
    /// last row dropped): an inclusive scan made exclusive.
    fn shift_right(&mut self, a: Value, first: Value) -> R<Value> {
        let n = self.sizes(a)[0];
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let (r, blk, args) = self.new_region(&[i64t]);
        let saved = self.enter(blk);
        let zero = self.constant(Scalar::I64, 0.0);
        let at0 = self.cmp("eq", args[0], zero);
        let rt = row_type(self.ctx, self.ctx.value_type(a));
        let (tr, tb, _) = self.new_region(&[]);
        let s2 = self.enter(tb);
        self.leave(&[first], s2);
        let (er, eb, _) = self.new_region(&[]);
        let s2 = self.enter(eb);
        let one = self.constant(Scalar::I64, 1.0);
        let prev = self.bin("sub", args[0], one);
        let row = self.emit1("soac.index", &[a, prev], rt, &[]);
        self.leave(&[row], s2);
        let f = self.emit("soac.if", &[at0], &[rt], &[], vec![tr, er]);
        let v = self.ctx.result(f, 0);
        self.leave(&[v], saved);
        let t = self.ctx.value_type(a);
        let m = self.emit("soac.map", &[n, iota], &[t], &[], vec![r]);
        Ok(self.ctx.result(m, 0))
    }

    /// The rows of (new) array `a` in reverse order.
    fn reversed(&mut self, a: Value) -> R<Value> {
        let n = self.sizes(a)[0];
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let (r, blk, args) = self.new_region(&[i64t]);
        let saved = self.enter(blk);
        let one = self.constant(Scalar::I64, 1.0);
        let last = self.bin("sub", n, one);
        let j = self.bin("sub", last, args[0]);
        let rt = row_type(self.ctx, self.ctx.value_type(a));
        let row = self.emit1("soac.index", &[a, j], rt, &[]);
        self.leave(&[row], saved);
        let t = self.ctx.value_type(a);
        let m = self.emit("soac.map", &[n, iota], &[t], &[], vec![r]);
        Ok(self.ctx.result(m, 0))
    }

    /// `scan` by addition: an element's adjoint is the sum of the result's
    /// adjoints from its position on (a scan of the reversed adjoints,
    /// reversed).
    fn scan(&mut self, o: OpId) -> R<()> {
        if !is_plus(self.ctx, self.ctx.regions(o)[0]) {
            return self.scan_general(o);
        }
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let n = self.primal(operands[0]);
        for j in 0..k {
            let r = self.ctx.result(o, j);
            let x = operands[1 + k + j];
            if let (Some(&ybar), true) = (self.adj.get(&r), self.is_active(x)) {
                let rev = self.reversed(ybar)?;
                let t = self.ctx.value_type(rev);
                let rt = row_type(self.ctx, t);
                let dims = self.sizes(rev);
                let s = elem(self.ctx, t).expect("numbers");
                let z = self.constant(s, 0.0);
                let ne = self.filled(&dims[1..], z);
                let op = self.plus_region(rt)?;
                let sc = self.emit("soac.scan", &[n, ne, rev], &[t], &[], vec![op]);
                let sc = self.ctx.result(sc, 0);
                let back = self.reversed(sc)?;
                self.add_adj(x, back)?;
            }
        }
        Ok(())
    }

    /// `scan` by an operator ⊙ on tuples of scalars other than addition:
    /// the reversed linear recurrence of Note [Scan and histogram
    /// adjoints], solved by a `scan` of affine maps.
    fn scan_general(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let xs = operands[1 + k..].to_vec();
        if !xs.iter().any(|&x| self.is_active(x)) {
            return Ok(());
        }
        let n = self.primal(operands[0]);
        let results: Vec<Value> = self.ctx.results(o).collect();
        let mut ybars = Vec::new();
        for &r in &results {
            ybars.push(self.adj_or_zero(r)?);
        }
        let pxs: Vec<Value> = xs.iter().map(|&x| self.primal(x)).collect();
        let s = elem(self.ctx, self.ctx.value_type(pxs[0])).expect("a scan of numbers");
        let et = self.ctx.scalar(s);
        // l_i = y_{i-1}, the operator's left argument at i (l_0 = ne).
        let mut ls = Vec::new();
        for j in 0..k {
            let y = self.primal(results[j]);
            let ne = self.primal(operands[1 + j]);
            ls.push(self.shift_right(y, ne)?);
        }
        let op = self.ctx.regions(o)[0];
        let ob = self.ctx.blocks(op)[0];
        let oargs = self.ctx.block_args(ob).to_vec();
        for &a in &oargs {
            self.active.insert(a);
        }
        self.activity(ob);
        let mut ins = ls.clone();
        ins.extend(&pxs);
        // J[m][p] = ∂(l ⊙ x)_m / ∂l_p at each i: a return sweep of the
        // operator per component m.
        let jac = self.operator_sweeps(op, n, &ins, &[], 0..k, &mut |a, _| {
            let one = a.constant(s, 1.0);
            let zero = a.constant(s, 0.0);
            (0..k)
                .map(|m| (0..k).map(|q| if q == m { one } else { zero }).collect())
                .collect()
        })?;
        // In reverse order, element j is the affine map r ↦ ȳ_i + M_i·r,
        // i = n-1-j, M_i = J_{i+1}ᵀ (zero for the last i).
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let (r, b, args) = self.new_region(&[i64t]);
        let saved = self.enter(b);
        let one = self.constant(Scalar::I64, 1.0);
        let last = self.bin("sub", n, one);
        let i = self.bin("sub", last, args[0]);
        let zero_i = self.constant(Scalar::I64, 0.0);
        let first = self.cmp("eq", args[0], zero_i);
        let next = self.bin("sub", n, args[0]);
        let next = self.select(first, i, next);
        let zero = self.constant(s, 0.0);
        let mut yv = Vec::new();
        for p in 0..k {
            for m in 0..k {
                let v = self.emit1("soac.index", &[jac[m * k + p], next], et, &[]);
                yv.push(self.select(first, zero, v));
            }
        }
        for &yb in &ybars {
            yv.push(self.emit1("soac.index", &[yb, i], et, &[]));
        }
        self.leave(&yv, saved);
        let at = array_of(self.ctx, n, et);
        let tys = vec![at; k * k + k];
        let maps = self.emit("soac.map", &[n, iota], &tys, &[], vec![r]);
        let elems: Vec<Value> = self.ctx.results(maps).collect();
        // (Ma, ba) then (Mg, bg) ↦ (Mg·Ma, bg + Mg·ba): g after a.
        let (cr, cb, c) = self.new_region(&vec![et; 2 * (k * k + k)]);
        let saved = self.enter(cb);
        let h = k * k + k;
        let mut out = Vec::new();
        for p in 0..k {
            for q in 0..k {
                let mut acc = None;
                for m in 0..k {
                    let t = self.bin("mul", c[h + p * k + m], c[m * k + q]);
                    acc = Some(match acc {
                        Some(a) => self.bin("add", a, t),
                        None => t,
                    });
                }
                out.push(acc.expect("k > 0"));
            }
        }
        for p in 0..k {
            let mut acc = c[h + k * k + p];
            for m in 0..k {
                let t = self.bin("mul", c[h + p * k + m], c[k * k + m]);
                acc = self.bin("add", acc, t);
            }
            out.push(acc);
        }
        self.leave(&out, saved);
        let one_s = self.constant(s, 1.0);
        let zero = self.constant(s, 0.0);
        let mut sops = vec![n];
        for p in 0..k {
            for q in 0..k {
                sops.push(if p == q { one_s } else { zero });
            }
        }
        sops.extend(std::iter::repeat_n(zero, k));
        sops.extend(&elems);
        let sc = self.emit("soac.scan", &sops, &tys, &[], vec![cr]);
        // r_i, the whole adjoint of y_i.
        let mut rs = Vec::new();
        for p in 0..k {
            let bp = self.ctx.result(sc, k * k + p);
            rs.push(self.reversed(bp)?);
        }
        // x̄_i = (∂(l_i ⊙ x_i)/∂x_i)ᵀ r_i.
        let xbars = self.operator_sweeps(op, n, &ins, &rs, k..2 * k, &mut |_, rows| vec![rows.to_vec()])?;
        for (&x, &xb) in xs.iter().zip(&xbars) {
            self.add_adj(x, xb)?;
        }
        Ok(())
    }

    /// A `map` over the rows of (new) arrays `ins` (the operator's left
    /// then right arguments) and `extra` whose lambda runs return sweeps
    /// of operator region `op` (old), one per list of seeds that `seeds`
    /// gives (from the rows of `extra`): the adjoints of the arguments in
    /// `wrt` after each sweep, as arrays of `n`.
    fn operator_sweeps(
        &mut self,
        op: RegionId,
        n: Value,
        ins: &[Value],
        extra: &[Value],
        wrt: std::ops::Range<usize>,
        seeds: &mut OperatorSeeds<'c, '_>,
    ) -> R<Vec<Value>> {
        let ob = self.ctx.blocks(op)[0];
        let oargs = self.ctx.block_args(ob).to_vec();
        let mut all = ins.to_vec();
        all.extend(extra);
        let (r, args, saved) = self.row_lambda(&oargs, &all);
        let lists = seeds(self, &args[ins.len()..]);
        let mut yv = Vec::new();
        for list in lists {
            let ys = self.forward(ob)?;
            for (&y, &sd) in ys.iter().zip(&list) {
                self.add_adj(y, sd)?;
            }
            self.reverse(ob)?;
            for &a in &oargs[wrt.clone()] {
                yv.push(self.adj_or_zero(a)?);
            }
            self.forget(ob);
        }
        self.scopes.pop();
        self.leave(&yv, saved);
        Ok(self.emit_map(n, &all, r, &yv))
    }

    /// Drop the adjoints of the arguments and values of `block` (old), so
    /// that another return sweep over it starts afresh.
    fn forget(&mut self, block: BlockId) {
        for a in self.ctx.block_args(block).to_vec() {
            self.adj.remove(&a);
        }
        for o in self.ctx.block_ops(block).collect::<Vec<_>>() {
            for v in self.ctx.results(o).collect::<Vec<_>>() {
                self.adj.remove(&v);
            }
            for r in self.ctx.regions(o).to_vec() {
                for b in self.ctx.blocks(r).to_vec() {
                    self.forget(b);
                }
            }
        }
    }

    /// `ybar[i]` where `0 <= i < size` and zero elsewhere (a row of
    /// `ybar`).
    fn gather_or_zero(&mut self, ybar: Value, i: Value, size: Value) -> R<Value> {
        let zero = self.constant(Scalar::I64, 0.0);
        let ge = self.cmp("le", zero, i);
        let lt = self.cmp("lt", i, size);
        let inb = self.bin("and", ge, lt);
        let rt = row_type(self.ctx, self.ctx.value_type(ybar));
        let (tr, tb, _) = self.new_region(&[]);
        let saved = self.enter(tb);
        let row = self.emit1("soac.index", &[ybar, i], rt, &[]);
        self.leave(&[row], saved);
        let (er, eb, _) = self.new_region(&[]);
        let saved = self.enter(eb);
        let dims = self.sizes(ybar);
        let s = elem(self.ctx, rt).expect("numbers");
        let z = self.constant(s, 0.0);
        let zrow = self.filled(&dims[1..], z);
        self.leave(&[zrow], saved);
        let f = self.emit("soac.if", &[inb], &[rt], &[], vec![tr, er]);
        Ok(self.ctx.result(f, 0))
    }

    /// `hist` by addition: the destinations' adjoints are the results', and
    /// a value's is the result's adjoint at its bucket.
    fn hist(&mut self, o: OpId) -> R<()> {
        match scalar_binop(self.ctx, self.ctx.regions(o)[0]) {
            Some("min" | "max") => return self.hist_extremum(o),
            Some("mul") => return self.hist_product(o),
            _ => {}
        }
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let (n, w) = (self.primal(operands[0]), self.primal(operands[1]));
        let results: Vec<Value> = self.ctx.results(o).collect();
        let ybars: Vec<Option<Value>> = results.iter().map(|r| self.adj.get(r).copied()).collect();
        for j in 0..k {
            if let Some(y) = ybars[j] {
                self.add_adj(operands[2 + j], y)?;
            }
        }
        let region = self.ctx.regions(o)[1];
        self.map_adjoint(o, region, n, &operands[2 + 2 * k..], &[], &mut |s, ys, _| {
            let b = s.primal(ys[0]);
            let mut out = vec![None];
            for y in &ybars {
                out.push(match *y {
                    Some(y) => Some(s.gather_or_zero(y, b, w)?),
                    None => None,
                });
            }
            Ok(out)
        })
    }

    /// `hist` by `min` or `max` of scalars: the destination gets its
    /// bucket's adjoint where it equals the bucket's result, and elsewhere
    /// the first (lowest index) value equal to the result gets it (Note
    /// [Scan and histogram adjoints]).
    fn hist_extremum(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let Some(&hbar) = self.adj.get(&self.ctx.result(o, 0)) else {
            return Ok(());
        };
        let (n, w) = (self.primal(operands[0]), self.primal(operands[1]));
        let xs = operands[4..].to_vec();
        let region = self.ctx.regions(o)[1];
        let h = self.primal(self.ctx.result(o, 0));
        let dst = self.primal(operands[2]);
        let bv = self.lambda_yields(region, n, &xs, &[0, 1])?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let vt = row_type(self.ctx, self.ctx.value_type(bv[1]));
        // Each value's index where it equals its bucket's result and the
        // destination does not, n (none) elsewhere; the least of them per
        // bucket wins.
        let (r, b, a) = self.new_region(&[i64t, vt, i64t]);
        let saved = self.enter(b);
        let hv = self.gather_or_zero(h, a[0], w)?;
        let dv = self.gather_or_zero(dst, a[0], w)?;
        let same = self.cmp("eq", a[1], hv);
        let kept = self.cmp("eq", dv, hv);
        let beats = self.un("not", kept);
        let same = self.bin("and", same, beats);
        let cand = self.select(same, a[2], n);
        self.leave(&[cand], saved);
        let cands = self.emit("soac.map", &[n, bv[0], bv[1], iota], &[it], &[], vec![r]);
        let cands = self.ctx.result(cands, 0);
        let (op, ob, oargs) = self.new_region(&[i64t, i64t]);
        let saved = self.enter(ob);
        let m = self.bin("min", oargs[0], oargs[1]);
        self.leave(&[m], saved);
        let (lam, lb, largs) = self.new_region(&[i64t, i64t]);
        let saved = self.enter(lb);
        self.leave(&[largs[0], largs[1]], saved);
        let dest = self.filled(&[w], n);
        let wt = self.ctx.value_type(dest);
        let win = self.emit("soac.hist", &[n, w, dest, n, bv[0], cands], &[wt], &[], vec![op, lam]);
        let win = self.ctx.result(win, 0);
        // The destination's adjoint: where it is the bucket's result.
        let ht = self.ctx.value_type(hbar);
        let (r, b, a) = self.new_region(&[vt, vt, vt]);
        let saved = self.enter(b);
        let kept = self.cmp("eq", a[0], a[1]);
        let zero = self.konst(a[2], 0.0);
        let d = self.select(kept, a[2], zero);
        self.leave(&[d], saved);
        let dbar = self.emit("soac.map", &[w, dst, h, hbar], &[ht], &[], vec![r]);
        let dbar = self.ctx.result(dbar, 0);
        self.add_adj(operands[2], dbar)?;
        self.map_adjoint(o, region, n, &xs, &[iota], &mut |s, ys, rows| {
            let bk = s.primal(ys[0]);
            let wb = s.gather_or_zero(win, bk, w)?;
            let hb = s.gather_or_zero(hbar, bk, w)?;
            let zero = s.constant(Scalar::I64, 0.0);
            let ge = s.cmp("le", zero, bk);
            let lt = s.cmp("lt", bk, w);
            let inb = s.bin("and", ge, lt);
            let mine = s.cmp("eq", wb, rows[0]);
            let chosen = s.bin("and", inb, mine);
            let z = s.konst(hb, 0.0);
            Ok(vec![None, Some(s.select(chosen, hb, z))])
        })
    }

    /// `hist` by `*` of scalars: per bucket, the product `p` of the
    /// nonzero factors (the destination's included) and their number of
    /// zeros `z`; a factor `v`'s adjoint is the bucket's times `p / v`
    /// when `z = 0`, `p` when `v` is the only zero, and 0 otherwise
    /// (Note [Scan and histogram adjoints]).
    fn hist_product(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let Some(&hbar) = self.adj.get(&self.ctx.result(o, 0)) else {
            return Ok(());
        };
        let (n, w) = (self.primal(operands[0]), self.primal(operands[1]));
        let xs = operands[4..].to_vec();
        let region = self.ctx.regions(o)[1];
        let dst = self.primal(operands[2]);
        let bv = self.lambda_yields(region, n, &xs, &[0, 1])?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let vt = row_type(self.ctx, self.ctx.value_type(bv[1]));
        let ht = self.ctx.value_type(hbar);
        let cnt_t = array_of(self.ctx, w, i64t);
        // A factor as (nonzero part, zero count).
        let split = |s: &mut Self, v: Value| {
            let zero = s.konst(v, 0.0);
            let one = s.konst(v, 1.0);
            let is0 = s.cmp("eq", v, zero);
            let p = s.select(is0, one, v);
            let c1 = s.constant(Scalar::I64, 1.0);
            let c0 = s.constant(Scalar::I64, 0.0);
            (p, s.select(is0, c1, c0))
        };
        let (r, b, a) = self.new_region(&[vt]);
        let saved = self.enter(b);
        let (p, c) = split(self, a[0]);
        self.leave(&[p, c], saved);
        let dsplit = self.emit("soac.map", &[w, dst], &[ht, cnt_t], &[], vec![r]);
        let (dp, dz) = (self.ctx.result(dsplit, 0), self.ctx.result(dsplit, 1));
        let (op, ob, oa) = self.new_region(&[vt, i64t, vt, i64t]);
        let saved = self.enter(ob);
        let p = self.bin("mul", oa[0], oa[2]);
        let c = self.bin("add", oa[1], oa[3]);
        self.leave(&[p, c], saved);
        let (lam, lb, la) = self.new_region(&[i64t, vt]);
        let saved = self.enter(lb);
        let (p, c) = split(self, la[1]);
        self.leave(&[la[0], p, c], saved);
        let one = self.constant(elem(self.ctx, vt).expect("a number"), 1.0);
        let zero = self.constant(Scalar::I64, 0.0);
        let pz = self.emit(
            "soac.hist",
            &[n, w, dp, dz, one, zero, bv[0], bv[1]],
            &[ht, cnt_t],
            &[],
            vec![op, lam],
        );
        let (ps, zs) = (self.ctx.result(pz, 0), self.ctx.result(pz, 1));
        // ∂/∂v of the bucket's product, times its adjoint.
        let factor = |s: &mut Self, v: Value, p: Value, z: Value, hb: Value| {
            let zero = s.konst(v, 0.0);
            let one = s.konst(v, 1.0);
            let is0 = s.cmp("eq", v, zero);
            let safe = s.select(is0, one, v);
            let q = s.bin("div", p, safe);
            let c0 = s.constant(Scalar::I64, 0.0);
            let c1 = s.constant(Scalar::I64, 1.0);
            let none = s.cmp("eq", z, c0);
            let only = s.cmp("eq", z, c1);
            let only = s.bin("and", only, is0);
            let d = s.select(only, p, zero);
            let d = s.select(none, q, d);
            s.bin("mul", hb, d)
        };
        let (r, b, a) = self.new_region(&[vt, vt, i64t, vt]);
        let saved = self.enter(b);
        let d = factor(self, a[0], a[1], a[2], a[3]);
        self.leave(&[d], saved);
        let dbar = self.emit("soac.map", &[w, dst, ps, zs, hbar], &[ht], &[], vec![r]);
        let dbar = self.ctx.result(dbar, 0);
        self.add_adj(operands[2], dbar)?;
        self.map_adjoint(o, region, n, &xs, &[], &mut |s, ys, _| {
            let bk = s.primal(ys[0]);
            let v = s.primal(ys[1]);
            let p = s.gather_or_zero(ps, bk, w)?;
            let z = s.gather_or_zero(zs, bk, w)?;
            let hb = s.gather_or_zero(hbar, bk, w)?;
            Ok(vec![None, Some(factor(s, v, p, z, hb))])
        })
    }

    /// `scatter(n, xs..., dests...)`: the written positions of the
    /// destinations' adjoints are zeroed, and a value's adjoint is the
    /// result's at the index it was written to.
    fn scatter(&mut self, o: OpId) -> R<()> {
        if self.ctx.attr(o, "num_writes").is_some() {
            return Err(self.unsupported("`soac.scatter` with several writes per row"));
        }
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let m = operands.len() - 1 - k;
        let n = self.primal(operands[0]);
        let (xs, dests) = (operands[1..1 + m].to_vec(), operands[1 + m..].to_vec());
        let results: Vec<Value> = self.ctx.results(o).collect();
        let ybars: Vec<Option<Value>> = results.iter().map(|r| self.adj.get(r).copied()).collect();
        let region = self.ctx.regions(o)[0];
        // The destinations: the adjoints with the written positions zeroed.
        let zeroed: Vec<usize> = (0..k)
            .filter(|&j| ybars[j].is_some() && self.is_active(dests[j]))
            .collect();
        if !zeroed.is_empty() {
            let ins: Vec<Value> = xs.iter().map(|&x| self.primal(x)).collect();
            let (r, _, ys, saved) = self.recompute_lambda(region, &ins)?;
            let mut yv: Vec<Value> = zeroed.iter().map(|&j| self.primal(ys[j])).collect();
            for &j in &zeroed {
                let v = self.primal(ys[k + j]);
                yv.push(self.zero(v)?);
            }
            self.leave(&yv, saved);
            let mut ops = vec![n];
            ops.extend(&ins);
            let mut tys = Vec::new();
            for &j in &zeroed {
                let y = ybars[j].expect("filtered");
                let c = self.own(y);
                tys.push(self.ctx.value_type(c));
                ops.push(c);
            }
            let sc = self.emit("soac.scatter", &ops, &tys, &[], vec![r]);
            let out: Vec<Value> = self.ctx.results(sc).collect();
            for (i, &j) in zeroed.iter().enumerate() {
                self.add_adj(dests[j], out[i])?;
            }
        }
        // The values: each gets the adjoint at its index if its write is
        // the one that counts, the last of the writes to that index
        // (Futhark's scatter leaves unspecified which one wins, so for
        // equal values any choice is the derivative).
        let sizes: Vec<Value> = dests
            .iter()
            .map(|&d| {
                let p = self.primal(d);
                self.sizes(p)[0]
            })
            .collect();
        let present: Vec<usize> = (0..k).filter(|&j| ybars[j].is_some()).collect();
        let idxs = self.lambda_yields(region, n, &xs, &present)?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let it = array_of(self.ctx, n, i64t);
        let iota = self.emit1("soac.iota", &[n], it, &[]);
        let mut winners = vec![None; k];
        for (c, &j) in present.iter().enumerate() {
            winners[j] = Some(self.last_writer(n, sizes[j], idxs[c], iota)?);
        }
        self.map_adjoint(o, region, n, &xs, &[iota], &mut |s, ys, rows| {
            let mut out = vec![None; 2 * k];
            for j in 0..k {
                if let (Some(y), Some(w)) = (ybars[j], winners[j]) {
                    let i = s.primal(ys[j]);
                    let g = s.gather_or_zero(y, i, sizes[j])?;
                    let last = s.gather_or_zero(w, i, sizes[j])?;
                    let mine = s.cmp("eq", last, rows[0]);
                    let z = s.zero(g)?;
                    out[k + j] = Some(s.choose(mine, g, z));
                }
            }
            Ok(out)
        })
    }

    /// A new lambda over the rows of (new) arrays `ins` whose body is a
    /// recomputation of lambda `region`'s (the forward sweep), left open
    /// for more code: the region, its arguments, the old yields, and the
    /// insertion point to go back to after yielding.
    fn recompute_lambda(
        &mut self,
        region: RegionId,
        ins: &[Value],
    ) -> R<(RegionId, Vec<Value>, Vec<Value>, InsertPoint)> {
        let block = self.ctx.blocks(region)[0];
        let old_args = self.ctx.block_args(block).to_vec();
        let tys: Vec<Type> = ins
            .iter()
            .map(|&v| row_type(self.ctx, self.ctx.value_type(v)))
            .collect();
        let (r, nb, new_args) = self.new_region(&tys);
        for (&a, &b) in old_args.iter().zip(&new_args) {
            self.vm.insert(a, b);
        }
        let saved = self.enter(nb);
        let ys = self.forward(block)?;
        Ok((r, new_args, ys, saved))
    }

    /// `map(n, ins...)` with lambda `r`, which yields `yv`: its results.
    fn emit_map(&mut self, n: Value, ins: &[Value], r: RegionId, yv: &[Value]) -> Vec<Value> {
        let rtys: Vec<Type> = yv
            .iter()
            .map(|&v| {
                let t = self.outer_type(v, r);
                array_of(self.ctx, n, t)
            })
            .collect();
        let mut ops = vec![n];
        ops.extend(ins);
        let m = self.emit("soac.map", &ops, &rtys, &[], vec![r]);
        self.ctx.results(m).collect()
    }

    /// The values lambda `region` yields at positions `which`, for each
    /// row of `xs` (old): arrays of `n`.
    fn lambda_yields(&mut self, region: RegionId, n: Value, xs: &[Value], which: &[usize]) -> R<Vec<Value>> {
        let ins: Vec<Value> = xs.iter().map(|&x| self.primal(x)).collect();
        let (r, _, ys, saved) = self.recompute_lambda(region, &ins)?;
        let yv: Vec<Value> = which.iter().map(|&w| self.primal(ys[w])).collect();
        self.leave(&yv, saved);
        Ok(self.emit_map(n, &ins, r, &yv))
    }

    /// For each of `w` positions, the last of the `n` rows whose index in
    /// `idx` is that position (-1 for none): a `hist` with `max`.
    fn last_writer(&mut self, n: Value, w: Value, idx: Value, iota: Value) -> R<Value> {
        let i64t = self.ctx.scalar(Scalar::I64);
        let none = self.constant(Scalar::I64, -1.0);
        let dest = self.filled(&[w], none);
        let (op, ob, oargs) = self.new_region(&[i64t, i64t]);
        let saved = self.enter(ob);
        let m = self.bin("max", oargs[0], oargs[1]);
        self.leave(&[m], saved);
        let (lam, lb, largs) = self.new_region(&[i64t, i64t]);
        let saved = self.enter(lb);
        self.leave(&[largs[0], largs[1]], saved);
        let t = self.ctx.value_type(dest);
        let h = self.emit("soac.hist", &[n, w, dest, none, idx, iota], &[t], &[], vec![op, lam]);
        Ok(self.ctx.result(h, 0))
    }

    /// `if c then a else b` (of any type).
    fn choose(&mut self, c: Value, a: Value, b: Value) -> Value {
        if self.ctx.as_scalar(self.ctx.value_type(a)).is_some() {
            return self.select(c, a, b);
        }
        let t = self.ctx.value_type(a);
        let (tr, tb, _) = self.new_region(&[]);
        let saved = self.enter(tb);
        self.leave(&[a], saved);
        let (er, eb, _) = self.new_region(&[]);
        let saved = self.enter(eb);
        self.leave(&[b], saved);
        let f = self.emit("soac.if", &[c], &[t], &[], vec![tr, er]);
        self.ctx.result(f, 0)
    }

    /// `filter(n, xs...)`: a kept row's adjoint is the result's row at its
    /// position among the kept ones (an inclusive scan of the predicate,
    /// minus one), a dropped row's zero.
    fn filter(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let n = self.primal(operands[0]);
        let xs = operands[1..].to_vec();
        let results: Vec<Value> = self.ctx.results(o).collect();
        let region = self.ctx.regions(o)[0];
        let flags = self.lambda_yields(region, n, &xs, &[0])?[0];
        let i64t = self.ctx.scalar(Scalar::I64);
        let bt = self.ctx.scalar(Scalar::Bool);
        let nt = array_of(self.ctx, n, i64t);
        // The position of each kept row among the kept ones, -1 for the
        // dropped ones.
        let (r, b, args) = self.new_region(&[bt]);
        let saved = self.enter(b);
        let one = self.constant(Scalar::I64, 1.0);
        let zero = self.constant(Scalar::I64, 0.0);
        let c = self.select(args[0], one, zero);
        self.leave(&[c], saved);
        let counts = self.emit("soac.map", &[n, flags], &[nt], &[], vec![r]);
        let counts = self.ctx.result(counts, 0);
        let plus = self.plus_region(i64t)?;
        let zero = self.constant(Scalar::I64, 0.0);
        let incl = self.emit("soac.scan", &[n, zero, counts], &[nt], &[], vec![plus]);
        let incl = self.ctx.result(incl, 0);
        let (r, b, args) = self.new_region(&[bt, i64t]);
        let saved = self.enter(b);
        let one = self.constant(Scalar::I64, 1.0);
        let before = self.bin("sub", args[1], one);
        let none = self.constant(Scalar::I64, -1.0);
        let pos = self.select(args[0], before, none);
        self.leave(&[pos], saved);
        let pos = self.emit("soac.map", &[n, flags, incl], &[nt], &[], vec![r]);
        let pos = self.ctx.result(pos, 0);
        for (j, &x) in xs.iter().enumerate() {
            let Some(&ybar) = self.adj.get(&results[j]) else {
                continue;
            };
            if !self.is_active(x) {
                continue;
            }
            let m = self.sizes(ybar)[0];
            let (r, b, args) = self.new_region(&[i64t]);
            let saved = self.enter(b);
            let g = self.gather_or_zero(ybar, args[0], m)?;
            self.leave(&[g], saved);
            let t = {
                let p = self.primal(x);
                self.ctx.value_type(p)
            };
            let d = self.emit("soac.map", &[n, pos], &[t], &[], vec![r]);
            let d = self.ctx.result(d, 0);
            self.add_adj(x, d)?;
        }
        Ok(())
    }

    /// `if`: an `if` on the same condition whose branches recompute the
    /// branch and run its return sweep, yielding the free variables'
    /// adjoints.
    fn if_(&mut self, o: OpId) -> R<()> {
        let results: Vec<Value> = self.ctx.results(o).collect();
        let ybars: Vec<Option<Value>> = results.iter().map(|r| self.adj.get(r).copied()).collect();
        let free = self.free_active(o);
        let tracked = self.trackable(&free);
        let saved_sparse = self.take_sparse(&tracked);
        let mut branches = Vec::new();
        for region in self.ctx.regions(o).to_vec() {
            let block = self.ctx.blocks(region)[0];
            let (r, nb, _) = self.new_region(&[]);
            let saved_adj = self.stash(&free);
            self.scopes.push(Scope::If(tracked.clone()));
            let saved = self.enter(nb);
            let ys = self.forward(block)?;
            for (&y, yb) in ys.iter().zip(&ybars) {
                if let Some(yb) = *yb {
                    self.add_adj(y, yb)?;
                }
            }
            self.reverse(block)?;
            let got: HashMap<Value, Value> = free.iter().filter_map(|&f| self.adj.get(&f).map(|&a| (f, a))).collect();
            let pairs: HashMap<Value, Vec<(Value, Value)>> = saved_sparse
                .iter()
                .map(|(f, _)| (*f, self.sparse.remove(f).unwrap_or_default()))
                .collect();
            self.scopes.pop();
            self.at = saved;
            self.restore(saved_adj);
            branches.push((r, nb, got, pairs));
        }
        self.restore_sparse(&saved_sparse);
        let wanted: Vec<Value> = free
            .iter()
            .copied()
            .filter(|f| branches.iter().any(|(_, _, g, _)| g.contains_key(f)))
            .collect();
        // Each branch's pairs, with dummies where the other branch has one.
        let counts: Vec<(Value, usize, usize)> = saved_sparse
            .iter()
            .map(|(f, _)| (*f, branches[0].3[f].len(), branches[1].3[f].len()))
            .collect();
        let mut regions = Vec::new();
        let mut tys = Vec::new();
        for (bi, (r, nb, got, pairs)) in branches.into_iter().enumerate() {
            let saved = self.enter(nb);
            let mut yv = Vec::new();
            for &f in &wanted {
                yv.push(match got.get(&f) {
                    Some(&a) => a,
                    None => {
                        let p = self.primal(f);
                        self.zero(p)?
                    }
                });
            }
            for &(f, a, b) in &counts {
                let s = elem(self.ctx, self.ctx.value_type(f)).expect("numbers");
                let (before, after) = if bi == 0 { (0, b) } else { (a, 0) };
                let dummies = |s2: &mut Self, k: usize, yv: &mut Vec<Value>| {
                    for _ in 0..k {
                        let i = s2.constant(Scalar::I64, -1.0);
                        let z = s2.constant(s, 0.0);
                        yv.extend([i, z]);
                    }
                };
                dummies(self, before, &mut yv);
                for &(i, v) in &pairs[&f] {
                    yv.extend([i, v]);
                }
                dummies(self, after, &mut yv);
            }
            if tys.is_empty() {
                tys = yv.iter().map(|&v| self.outer_type(v, r)).collect();
            }
            self.leave(&yv, saved);
            regions.push(r);
        }
        let c = self.primal(self.ctx.operand(o, 0));
        let f = self.emit("soac.if", &[c], &tys, &[], regions);
        let out: Vec<Value> = self.ctx.results(f).collect();
        for (&fv, &a) in wanted.iter().zip(&out) {
            self.add_adj(fv, a)?;
        }
        let mut at = wanted.len();
        for (f, a, b) in counts {
            let ps: Vec<(Value, Value)> = (0..a + b).map(|c| (out[at + 2 * c], out[at + 2 * c + 1])).collect();
            at += 2 * (a + b);
            self.settle(f, ps)?;
        }
        Ok(())
    }

    /// `with_vjp`: the arguments' adjoints are its adjoint function (region
    /// 1) of the results and their adjoints.
    fn custom(&mut self, o: OpId) -> R<()> {
        let results: Vec<Value> = self.ctx.results(o).collect();
        let mut args: Vec<Value> = results.iter().map(|&r| self.primal(r)).collect();
        for &r in &results {
            let a = self.adj_or_zero(r)?;
            args.push(a);
        }
        let xbars = self.inline(self.ctx.regions(o)[1], &args);
        for (&x, xb) in self.ctx.operands(o).to_vec().iter().zip(xbars) {
            self.add_adj(x, xb)?;
        }
        Ok(())
    }

    /// A copy of region `r`'s body (old) applied to `args` (new), emitted
    /// here; its yields.
    fn inline(&mut self, r: RegionId, args: &[Value]) -> Vec<Value> {
        let mut vm = self.vm.clone();
        ad::inline(self.ctx, r, &mut vm, args, self.at)
    }

    /// The merge values of `loop` `o` (old) after `count` more iterations
    /// from `vals` (new), the first being iteration `base`: the body run
    /// again, primal only (Note [Loop strategies]); and, for each merge
    /// value with a tape in `record` (empty: none), a new tape of its
    /// values at the start of each of the `count` iterations.
    fn rerun(
        &mut self,
        o: OpId,
        count: Value,
        base: Value,
        vals: &[Value],
        record: &[Option<Value>],
    ) -> R<(Vec<Value>, Vec<Option<Value>>)> {
        let region = self.ctx.regions(o)[0];
        let m = vals.len();
        let for_loop = self.ctx.block_args(self.ctx.blocks(region)[0]).len() > m;
        let rows = self.as_i64(count);
        let mut inits = vals.to_vec();
        let taped: Vec<usize> = (0..record.len()).filter(|&j| record[j].is_some()).collect();
        for &j in &taped {
            let t = self.new_tape(rows, vals[j]);
            inits.push(t);
        }
        let mut tys = vec![self.ctx.value_type(count)];
        tys.extend(inits.iter().map(|&v| self.ctx.value_type(v)));
        let (r, b, args) = self.new_region(&tys);
        let saved = self.enter(b);
        let pairs: Vec<(Value, Value)> = taped
            .iter()
            .enumerate()
            .map(|(c, &j)| (args[1 + m + c], args[1 + j]))
            .collect();
        let at = self.as_i64(args[0]);
        let ups = self.record(&pairs, at);
        let mut ins = Vec::new();
        if for_loop {
            ins.push(self.bin("add", base, args[0]));
        }
        ins.extend(&args[1..1 + m]);
        let mut ys = self.inline(region, &ins);
        ys.extend(ups);
        self.leave(&ys, saved);
        let mut ops = vec![count];
        ops.extend(&inits);
        let form = self.kind("for");
        let l = self.emit("soac.loop", &ops, &tys[1..], &[("form", form)], vec![r]);
        let out: Vec<Value> = self.ctx.results(l).collect();
        let mut tapes = vec![None; record.len()];
        for (c, &j) in taped.iter().enumerate() {
            tapes[j] = Some(out[m + c]);
        }
        Ok((out[..m].to_vec(), tapes))
    }

    /// `loop`: a loop over the iterations backwards that restores the merge
    /// values (from the tapes, Note [Loop strategies]), recomputes the
    /// body and runs its return sweep, carrying the merge values' adjoints
    /// and the free variables'.
    fn loop_(&mut self, o: OpId) -> R<()> {
        let Some(Taped { n, tapes, stride }) = self.tapes.get(&o).cloned() else {
            return Err(self.unsupported("a loop the forward sweep did not record"));
        };
        let results: Vec<Value> = self.ctx.results(o).collect();
        let operands = self.ctx.operands(o).to_vec();
        let m = results.len();
        let params = self.merge_params(o);
        let inits = operands[operands.len() - m..].to_vec();
        let nums: Vec<usize> = (0..m)
            .filter(|&j| self.number(params[j]) && self.is_active(params[j]))
            .collect();
        let free = self.free_active(o);
        // The carried adjoints: of the merge values, then of the free variables.
        let mut carried = Vec::new();
        for &j in &nums {
            carried.push(self.adj_or_zero(results[j])?);
        }
        for &f in &free {
            let a = match self.adj.get(&f).copied() {
                Some(a) => self.own(a),
                None => {
                    let p = self.primal(f);
                    let z = self.zero(p)?;
                    self.owned.insert(z);
                    z
                }
            };
            carried.push(a);
        }
        let zero = self.konst(n, 0.0);
        let out = match (self.loops, stride) {
            (LoopStrategy::Checkpoint, Some(st)) => self.segments(o, n, st, &tapes, &carried, &nums, &free)?,
            (_, Some(st)) => self.return_loop(o, n, zero, &Restore::Rerun(tapes, st), &carried, &nums, &free)?,
            (_, None) => self.return_loop(o, n, zero, &Restore::Rows(tapes), &carried, &nums, &free)?,
        };
        // The loop's results are the free variables' whole adjoints (set
        // first: an initial merge value may be a free variable too).
        for (c, &f) in free.iter().enumerate() {
            self.adj.insert(f, out[nums.len() + c]);
        }
        for (c, &j) in nums.iter().enumerate() {
            self.add_adj(inits[j], out[c])?;
        }
        Ok(())
    }

    /// The merge parameters of `loop` `o` (old): its body's arguments but
    /// the index.
    fn merge_params(&self, o: OpId) -> Vec<Value> {
        let block = self.ctx.blocks(self.ctx.regions(o)[0])[0];
        let args = self.ctx.block_args(block);
        args[args.len() - self.ctx.num_results(o)..].to_vec()
    }

    /// The merge values of `loop` `o` (old) at row `row` (i64) of `tapes`:
    /// copies of the rows, or, for a merge value without a tape (never
    /// read, Note [Reverse-mode AD]), a stand-in whose uses are dead code.
    fn tape_rows(&mut self, o: OpId, tapes: &[Option<Value>], row: Value) -> R<Vec<Value>> {
        let params = self.merge_params(o);
        let operands = self.ctx.operands(o).to_vec();
        let inits = &operands[operands.len() - params.len()..];
        let mut out = Vec::new();
        for (j, &p) in params.iter().enumerate() {
            let pt = {
                let t = self.ctx.value_type(p);
                self.ctx.map_type(t, &self.vm)
            };
            out.push(match tapes[j] {
                Some(tape) => {
                    let r = self.emit1("soac.index", &[tape, row], pt, &[]);
                    if self.ctx.as_scalar(pt).is_some() {
                        r
                    } else {
                        self.emit1("soac.copy", &[r], pt, &[])
                    }
                }
                None => {
                    let init = self.primal(inits[j]);
                    self.zero(init)?
                }
            });
        }
        Ok(out)
    }

    /// The return sweep of `loop` `o` (old) over its iterations `base +
    /// count - 1` down to `base`, from the adjoints `carried` (of the
    /// merge values `nums`, then of the free variables `free`), finding
    /// each iteration's merge values as `restore` says; the adjoints after
    /// it.
    #[allow(clippy::too_many_arguments)]
    fn return_loop(
        &mut self,
        o: OpId,
        count: Value,
        base: Value,
        restore: &Restore,
        carried: &[Value],
        nums: &[usize],
        free: &[Value],
    ) -> R<Vec<Value>> {
        let region = self.ctx.regions(o)[0];
        let block = self.ctx.blocks(region)[0];
        let old_args = self.ctx.block_args(block).to_vec();
        let params = self.merge_params(o);
        let for_loop = old_args.len() > params.len();
        let mut tys = vec![self.ctx.value_type(count)];
        tys.extend(carried.iter().map(|&v| self.ctx.value_type(v)));
        let (r, nb, new_args) = self.new_region(&tys);
        let saved = self.enter(nb);
        // The iteration this one undoes: base + count - 1 - k.
        let one = self.konst(count, 1.0);
        let last = self.bin("sub", count, one);
        let back = self.bin("sub", last, new_args[0]);
        let i = self.bin("add", base, back);
        let restored = match restore {
            Restore::Rows(tapes) => {
                let row = self.as_i64(back);
                self.tape_rows(o, tapes, row)?
            }
            Restore::Rerun(tapes, st) => {
                let c = self.bin("div", i, *st);
                let from = self.bin("mul", c, *st);
                let row = self.as_i64(c);
                let vals = self.tape_rows(o, tapes, row)?;
                let todo = self.bin("sub", i, from);
                self.rerun(o, todo, from, &vals, &[])?.0
            }
        };
        if for_loop {
            self.vm.insert(old_args[0], i);
        }
        for (&p, &v) in params.iter().zip(&restored) {
            self.vm.insert(p, v);
        }
        let mut stash_vals = free.to_vec();
        stash_vals.extend(&params);
        let saved_adj = self.stash(&stash_vals);
        self.scopes.push(Scope::Barrier);
        // The free variables' adjoints so far are the loop's own: the body
        // adds to them in place (an index adds to one element, not a copy).
        for (c, &f) in free.iter().enumerate() {
            let acc = new_args[1 + nums.len() + c];
            self.adj.insert(f, acc);
            self.owned.insert(acc);
        }
        let ys = self.forward(block)?;
        for (c, &j) in nums.iter().enumerate() {
            self.add_adj(ys[j], new_args[1 + c])?;
        }
        self.reverse(block)?;
        let mut yv = Vec::new();
        for &j in nums {
            yv.push(self.adj_or_zero(params[j])?);
        }
        for &f in free {
            yv.push(self.adj[&f]);
        }
        self.scopes.pop();
        self.restore(saved_adj);
        self.leave(&yv, saved);
        let mut ops = vec![count];
        ops.extend(carried);
        let form = self.kind("for");
        let l = self.emit("soac.loop", &ops, &tys[1..], &[("form", form)], vec![r]);
        Ok(self.ctx.results(l).collect())
    }

    /// The checkpointed return sweep of `loop` `o` (old) of `n` iterations
    /// with a checkpoint every `st` in `tapes`: for each segment, last
    /// first, the body run again from its checkpoint recording a tape of
    /// the segment, then the segment's return sweep from that tape (Note
    /// [Loop strategies]).
    #[allow(clippy::too_many_arguments)]
    fn segments(
        &mut self,
        o: OpId,
        n: Value,
        st: Value,
        tapes: &[Option<Value>],
        carried: &[Value],
        nums: &[usize],
        free: &[Value],
    ) -> R<Vec<Value>> {
        let one = self.konst(n, 1.0);
        let up = self.bin("add", n, st);
        let up = self.bin("sub", up, one);
        let rows = self.bin("div", up, st);
        let mut tys = vec![self.ctx.value_type(n)];
        tys.extend(carried.iter().map(|&v| self.ctx.value_type(v)));
        let (r, b, args) = self.new_region(&tys);
        let saved = self.enter(b);
        let one = self.konst(n, 1.0);
        let last = self.bin("sub", rows, one);
        let c = self.bin("sub", last, args[0]);
        let base = self.bin("mul", c, st);
        let rest = self.bin("sub", n, base);
        let len = self.bin("min", st, rest);
        let row = self.as_i64(c);
        let vals = self.tape_rows(o, tapes, row)?;
        let (_, seg) = self.rerun(o, len, base, &vals, tapes)?;
        let ys = self.return_loop(o, len, base, &Restore::Rows(seg), &args[1..], nums, free)?;
        self.leave(&ys, saved);
        let mut ops = vec![rows];
        ops.extend(carried);
        let form = self.kind("for");
        let l = self.emit("soac.loop", &ops, &tys[1..], &[("form", form)], vec![r]);
        Ok(self.ctx.results(l).collect())
    }
}
