//! The sums over a map's rows of the adjoints its lambda gives a free
//! variable, built without stacking those adjoints where they are map
//! nests (Note [Row sums by interchange]).

use std::collections::{HashMap, HashSet};

use futmlir_dialects::ir::{
    Attr, AttrKind, BlockId, Builder, Context, Dim, InsertPoint, OpId, Scalar, Type, TypeKind, Value, ValueMap,
};

use super::{is_plus, row_type, Adjoints, R};
use crate::soac::ad::Emit;
use crate::soac::analysis::{cannot_fail, consumed, defined_inside, reads};

// Note [Row sums by interchange]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The adjoint of a free array `F` of a map's lambda (over rows `i`) is
// the sum over `i` of the adjoints the lambda gives it, one per row
// (Note [Reverse-mode AD]). Stacking those and summing the columns costs
// `n` times the memory of `F`: for a matrix product
// `map_i (map_j (dot x_i wᵀ_j)) x`, the lambda's adjoint of `wᵀ` is
// `map_j (λ wᵀ_j ȳ_ij. let s = 2(dot x_i wᵀ_j - y_ij) in map_k (λ x_ik. s·x_ik) x_i)`,
// an `[m][k]` per row, `n·m·k` stacked. When the per-row adjoint `y` is
// the result of a `map_j` in the lambda, the sum moves inside it:
//
//     Σ_i map_j (λ a_j. g) A_i  =  map_j (λ a_j. Σ_i g) (Aᵀ)
//
// where `A` stacks the `A_i` (transposed so that row `j` of `Aᵀ` holds
// `A_i[j]` for every `i`); an input the same for every `i` stays as it is.
// Inside `map_j`, the sum over `i` is the sum over the rows of a new
// `map_i` whose lambda is `g`'s, applied to the `i`s of row `j` and to
// the rows of what `g` reads from the outer lambda, stacked. That sum is
// again a sum over a map's rows, built the same way: the nest
// `map_j (map_k (Σ_i s_ij · x_ik))` comes out, with `s` computed by a
// `map_i` inside `map_j` and `x` read in place — a matrix product that
// kernel extraction makes a `segred` over `(j, k)`, never `n·m·k`.
// `rearrange` commutes with the sum, and a `map` adding two adjoints
// (`add_values`) is the sum of their sums (when one of them moves inside
// a map; otherwise the sum is stacked, rather than both).
//
// A value of the outer lambda is stacked by yielding it from the map,
// except the lambda's arguments, whose stacks are the map's inputs; a
// value the same for every row (`wᵀ` above, a `rearrange` of a free
// array) is not stacked but copied out of the lambda, when it may be
// hoisted (Note [Hoisting] in `simplify.rs`), and an input of `map_j`
// that is a `replicate` of the lambda's stands for the value replicated
// (the adjoint of `s` spread over `x_i`'s row). The interchange only
// stacks values of lower rank than `y` (otherwise stacking the one summed
// is no worse), of sizes known outside the lambda; anything else is
// stacked and its rows summed as before, as are results of ops other
// than these. Every `(i, j)` runs `g` once, as before; only when `m` has
// other uses in the lambda is its body computed twice.

/// How to build the sum over the rows of a map of a value its lambda
/// computes for every row.
pub(super) enum RowSum {
    /// The value stacked, its rows summed.
    Rows(Stack),
    /// The sum of the operand, rearranged by `perm` to type `ty`.
    Rearrange(Box<RowSum>, Attr, Type),
    /// The sum of two values, added elementwise.
    Add(Box<RowSum>, Box<RowSum>),
    /// The sum of a result of a `map` of the lambda, moved inside it.
    Interchange(Interchange),
}

impl RowSum {
    /// Whether the plan moves a sum inside a map anywhere.
    fn interchanges(&self) -> bool {
        match self {
            RowSum::Rows(_) => false,
            RowSum::Rearrange(inner, ..) => inner.interchanges(),
            RowSum::Add(a, b) => a.interchanges() || b.interchanges(),
            RowSum::Interchange(_) => true,
        }
    }
}

/// The sum of result `r` of `map` `m` of the lambda, moved inside a new
/// `map` of the same size.
pub(super) struct Interchange {
    m: OpId,
    r: usize,
    /// How `m`'s inputs vary with the row.
    inputs: Vec<Input>,
    /// What `m`'s lambda reads from the outer one (`None`: the same for
    /// every row).
    free: Vec<(Value, Option<Stack>)>,
    /// The ops of the lambda, the same for every row, that those read:
    /// they are copied out of it.
    hoist: Vec<OpId>,
    /// The type of the sum (of the result).
    ty: Type,
}

/// An input of the map whose sum over the rows is moved inside it.
#[derive(Clone, Copy)]
pub(super) enum Input {
    /// The same for every row.
    Same,
    /// Different for every row: stacked.
    Stacked(Stack),
    /// A `replicate` of this value (one of the free values), made by
    /// the lambda: its rows are that value.
    Replicated(Value),
}

/// A value of a lambda stacked over the map's rows.
#[derive(Clone, Copy)]
pub(super) enum Stack {
    /// An input of the map (the value is the lambda's argument).
    Input(Value),
    /// The value the lambda yields at this position of its extra yields.
    Yielded(usize),
}

/// The lambda of a map being built, whose row sums are planned.
pub(super) struct Lambda<'a> {
    block: BlockId,
    /// The map's inputs, one per argument of `block`.
    inputs: &'a [Value],
    /// The values to stack (yield) for the planned sums.
    yields: Vec<Value>,
    /// Which values of the lambda are the same for every row.
    invariant: HashMap<Value, bool>,
}

/// Whether `v` is defined in block `b` or in a block nested in it.
fn within(ctx: &Context, v: Value, b: BlockId) -> bool {
    let mut cur = ctx.value_block(v);
    while let Some(blk) = cur {
        if blk == b {
            return true;
        }
        cur = ctx
            .block_parent(blk)
            .and_then(|r| ctx.region_parent(r))
            .and_then(|o| ctx.parent_block(o));
    }
    false
}

/// The rank of type `t` (0 for a scalar).
fn rank(ctx: &Context, t: Type) -> usize {
    match ctx.type_kind(t) {
        TypeKind::Array { shape, .. } => shape.len(),
        _ => 0,
    }
}

/// Whether type `t`'s sizes are all known outside block `b`.
fn regular_outside(ctx: &Context, t: Type, b: BlockId) -> bool {
    let unknown = matches!(ctx.type_kind(t), TypeKind::Array { shape, .. } if shape.contains(&Dim::Unknown));
    !unknown && ctx.type_size_values(t).iter().all(|&s| !within(ctx, s, b))
}

impl<'a> Lambda<'a> {
    /// The lambda `block` of a map over `inputs`.
    pub fn new(block: BlockId, inputs: &'a [Value]) -> Self {
        Lambda {
            block,
            inputs,
            yields: Vec::new(),
            invariant: HashMap::new(),
        }
    }

    /// The values the planned sums need yielded, in the order of
    /// [`Stack::Yielded`].
    pub fn into_yields(self) -> Vec<Value> {
        self.yields
    }

    /// Whether `v` is the same for every row: defined outside the lambda,
    /// or by an op of it that reads only such values and may be hoisted
    /// (Note [Hoisting] in `simplify.rs`: it cannot fail).
    fn is_invariant(&mut self, ctx: &Context, v: Value) -> bool {
        if !within(ctx, v, self.block) {
            return true;
        }
        if let Some(&known) = self.invariant.get(&v) {
            return known;
        }
        let inv = match ctx.defining_op(v) {
            Some(d) if ctx.parent_block(d) == Some(self.block) => {
                cannot_fail(ctx, d)
                    && consumed(ctx, d).is_empty()
                    && reads(ctx, d, true).into_iter().all(|u| self.is_invariant(ctx, u))
            }
            _ => false,
        };
        self.invariant.insert(v, inv);
        inv
    }

    /// The ops of the lambda that compute the invariant values `vs`, in
    /// the lambda's order.
    fn hoisted(&self, ctx: &Context, vs: &[Value]) -> Vec<OpId> {
        let mut need: HashSet<OpId> = HashSet::new();
        let mut todo: Vec<Value> = vs.to_vec();
        while let Some(v) = todo.pop() {
            if !within(ctx, v, self.block) {
                continue;
            }
            let d = ctx
                .defining_op(v)
                .expect("an invariant value of the lambda is an op's result");
            if need.insert(d) {
                todo.extend(reads(ctx, d, true));
            }
        }
        ctx.block_ops(self.block).filter(|o| need.contains(o)).collect()
    }
    /// How `v` (of the lambda) is stacked, without yielding it yet.
    fn stack_of(&self, ctx: &Context, v: Value) -> Option<Value> {
        let args = ctx.block_args(self.block);
        args.iter().position(|&a| a == v).map(|p| self.inputs[p])
    }

    /// `v` stacked, yielded when it must be.
    fn stack(&mut self, ctx: &Context, v: Value) -> Stack {
        if let Some(x) = self.stack_of(ctx, v) {
            return Stack::Input(x);
        }
        match self.yields.iter().position(|&y| y == v) {
            Some(k) => Stack::Yielded(k),
            None => {
                self.yields.push(v);
                Stack::Yielded(self.yields.len() - 1)
            }
        }
    }

    /// Plan the sum over the map's rows of `y`, a number or array of
    /// numbers the lambda computes (Note [Row sums by interchange]).
    pub fn plan(&mut self, ctx: &Context, y: Value) -> RowSum {
        let Some(d) = ctx.defining_op(y).filter(|&d| ctx.parent_block(d) == Some(self.block)) else {
            return RowSum::Rows(self.stack(ctx, y));
        };
        let ty = ctx.value_type(y);
        if !regular_outside(ctx, ty, self.block) {
            return RowSum::Rows(self.stack(ctx, y));
        }
        match ctx.op_name(d) {
            "soac.rearrange" => {
                let inner = self.plan(ctx, ctx.operand(d, 0));
                let perm = ctx.attr(d, "perm").expect("a rearrange has a perm (verified)");
                RowSum::Rearrange(Box::new(inner), perm, ty)
            }
            "soac.map" if ctx.operands(d).len() == 3 && is_plus(ctx, ctx.regions(d)[0]) => {
                let mark = self.yields.len();
                let a = self.plan(ctx, ctx.operand(d, 1));
                let b = self.plan(ctx, ctx.operand(d, 2));
                if !a.interchanges() && !b.interchanges() {
                    // Stacking the sum costs less than stacking both.
                    self.yields.truncate(mark);
                    return RowSum::Rows(self.stack(ctx, y));
                }
                RowSum::Add(Box::new(a), Box::new(b))
            }
            "soac.map" => match self.interchange(ctx, d, y, ty) {
                Some(p) => p,
                None => RowSum::Rows(self.stack(ctx, y)),
            },
            _ => RowSum::Rows(self.stack(ctx, y)),
        }
    }

    /// The plan moving the sum of `y`, a result of map `m`, inside a map
    /// like `m`, if what it must stack is of lower rank than `y`.
    fn interchange(&mut self, ctx: &Context, m: OpId, y: Value, ty: Type) -> Option<RowSum> {
        let b = self.block;
        let size = ctx.operand(m, 0);
        if within(ctx, size, b) || !consumed(ctx, m).is_empty() {
            return None;
        }
        let r = ctx.results(m).position(|v| v == y)?;
        let body = ctx.blocks(ctx.regions(m)[0])[0];
        let mut free = Vec::new();
        for o in ctx.block_ops(body) {
            for v in reads(ctx, o, true) {
                if within(ctx, v, b) && !defined_inside(ctx, v, m) && !free.contains(&v) {
                    free.push(v);
                }
            }
        }
        let operands = ctx.operands(m)[1..].to_vec();
        // A `replicate` of the lambda's stands for the value replicated.
        let replicated: Vec<Option<Value>> = operands
            .iter()
            .map(|&a| {
                let d = ctx.defining_op(a)?;
                (ctx.op_name(d) == "soac.replicate" && ctx.parent_block(d) == Some(b)).then(|| ctx.operand(d, 1))
            })
            .collect();
        for v in replicated.iter().flatten() {
            if !free.contains(v) {
                free.push(*v);
            }
        }
        let mut varying = Vec::new();
        let mut invariant = Vec::new();
        let direct = operands
            .iter()
            .zip(&replicated)
            .filter(|(_, r)| r.is_none())
            .map(|(a, _)| a);
        for &v in direct.chain(&free) {
            if self.is_invariant(ctx, v) {
                invariant.push(v);
            } else {
                varying.push(v);
            }
        }
        let fits = |v: &Value| {
            let t = ctx.value_type(*v);
            regular_outside(ctx, t, b) && (self.stack_of(ctx, *v).is_some() || rank(ctx, t) < rank(ctx, ty))
        };
        if !varying.iter().all(fits) {
            return None;
        }
        let hoist = self.hoisted(ctx, &invariant);
        let stack = |lam: &mut Self, v: Value| (!invariant.contains(&v)).then(|| lam.stack(ctx, v));
        let inputs = operands
            .iter()
            .zip(&replicated)
            .map(|(&a, rep)| match rep {
                Some(v) => Input::Replicated(*v),
                None => stack(self, a).map_or(Input::Same, Input::Stacked),
            })
            .collect();
        let free = free.into_iter().map(|v| (v, stack(self, v))).collect();
        Some(RowSum::Interchange(Interchange {
            m,
            r,
            inputs,
            free,
            hoist,
            ty,
        }))
    }
}

impl Adjoints<'_> {
    /// The value `s` stands for, `yielded` the map's extra results.
    fn stacked(s: Stack, yielded: &[Value]) -> Value {
        match s {
            Stack::Input(x) => x,
            Stack::Yielded(k) => yielded[k],
        }
    }

    /// Build the sum `plan` describes over the `n` rows of a map whose
    /// extra results (the planned yields) are `yielded`.
    pub(super) fn row_sum(&mut self, n: Value, plan: &RowSum, yielded: &[Value]) -> R<Value> {
        match plan {
            RowSum::Rows(s) => self.sum_rows(Self::stacked(*s, yielded)),
            RowSum::Rearrange(inner, perm, ty) => {
                let v = self.row_sum(n, inner, yielded)?;
                Ok(self.emit1("soac.rearrange", &[v], *ty, &[("perm", *perm)]))
            }
            RowSum::Add(a, b) => {
                let a = self.row_sum(n, a, yielded)?;
                let b = self.row_sum(n, b, yielded)?;
                self.add_values(a, b)
            }
            RowSum::Interchange(plan) => self.interchanged(n, plan, yielded),
        }
    }

    /// `map_j (λ a_j. Σ_i g) (Aᵀ)` for result `r` of map `m` (Note [Row
    /// sums by interchange]).
    fn interchanged(&mut self, n: Value, plan: &Interchange, yielded: &[Value]) -> R<Value> {
        let Interchange {
            m,
            r,
            ref inputs,
            ref free,
            ref hoist,
            ty,
        } = *plan;
        let size = self.ctx.operand(m, 0);
        let operands = self.ctx.operands(m)[1..].to_vec();
        let mut hoisted = ValueMap::default();
        for &o in hoist.iter() {
            let c = self.ctx.clone_op(o, &mut hoisted);
            let mut b = Builder::new(self.ctx);
            b.point = self.at;
            b.insert(c);
        }
        // The inputs of `map_j`: stacks transposed, so that row `j` holds
        // every `i`'s row `j`.
        let mut outer_ins = Vec::new();
        for (&a, input) in operands.iter().zip(inputs) {
            match input {
                Input::Same => outer_ins.push(hoisted.get(a)),
                Input::Stacked(s) => {
                    let st = Self::stacked(*s, yielded);
                    outer_ins.push(self.swap_outer_dims(st));
                }
                Input::Replicated(_) => {}
            }
        }
        let tys: Vec<Type> = outer_ins
            .iter()
            .map(|&v| row_type(self.ctx, self.ctx.value_type(v)))
            .collect();
        let (outer_r, outer_b, outer_args) = self.new_region(&tys);
        let saved_outer = self.enter(outer_b);
        // The inputs of `map_i`: the columns of the stacked inputs, then
        // the stacks of what `m`'s lambda reads from the outer lambda.
        let mut inner_ins = Vec::new();
        let mut outer_at = 0;
        for input in inputs {
            match input {
                Input::Same => outer_at += 1,
                Input::Stacked(_) => {
                    inner_ins.push(outer_args[outer_at]);
                    outer_at += 1;
                }
                Input::Replicated(_) => {}
            }
        }
        let stacked_inputs = inner_ins.len();
        for (_, s) in free {
            if let Some(s) = s {
                inner_ins.push(Self::stacked(*s, yielded));
            }
        }
        let tys: Vec<Type> = inner_ins
            .iter()
            .map(|&v| row_type(self.ctx, self.ctx.value_type(v)))
            .collect();
        let (inner_r, inner_b, inner_args) = self.new_region(&tys);
        let saved_inner = self.enter(inner_b);
        let body = self.ctx.blocks(self.ctx.regions(m)[0])[0];
        let params = self.ctx.block_args(body).to_vec();
        let mut map = ValueMap::default();
        let mut next = stacked_inputs;
        for (v, s) in free {
            if s.is_some() {
                map.insert(*v, inner_args[next]);
                next += 1;
            } else {
                map.insert(*v, hoisted.get(*v));
            }
        }
        let (mut outer_at, mut inner_at) = (0, 0);
        for (&p, input) in params.iter().zip(inputs) {
            let to = match input {
                Input::Same => {
                    outer_at += 1;
                    outer_args[outer_at - 1]
                }
                Input::Stacked(_) => {
                    outer_at += 1;
                    inner_at += 1;
                    inner_args[inner_at - 1]
                }
                Input::Replicated(v) => map.get(*v),
            };
            map.insert(p, to);
        }
        let ys = self.ctx.inline_block_mapped(body, &mut map, InsertPoint::End(inner_b));
        let mut lam = Lambda::new(inner_b, &inner_ins);
        let plan = lam.plan(self.ctx, ys[r]);
        let inner_yields = lam.into_yields();
        self.leave(&inner_yields, saved_inner);
        let inner_out = if inner_yields.is_empty() {
            Vec::new()
        } else {
            self.emit_map(n, &inner_ins, inner_r, &inner_yields)
        };
        let s = self.row_sum(n, &plan, &inner_out)?;
        self.leave(&[s], saved_outer);
        let mut ops = vec![size];
        ops.extend(&outer_ins);
        let res = self.emit("soac.map", &ops, &[ty], &[], vec![outer_r]);
        Ok(self.ctx.result(res, 0))
    }

    /// Array `a` of type `[n][c]t` as `[c][n]t`.
    fn swap_outer_dims(&mut self, a: Value) -> Value {
        let t = self.ctx.value_type(a);
        let TypeKind::Array { elem, shape } = self.ctx.type_kind(t).clone() else {
            unreachable!("a stacked input of a map is an array of arrays")
        };
        let mut s = shape.clone();
        s.swap(0, 1);
        let tt = self.ctx.intern_type(TypeKind::Array { elem, shape: s });
        let perm: Vec<_> = (0..shape.len() as i64)
            .map(|i| {
                let p = match i {
                    0 => 1,
                    1 => 0,
                    i => i,
                };
                self.ctx.int_attr(p, Scalar::I64)
            })
            .collect();
        let perm = self.ctx.intern_attr(AttrKind::Array(perm));
        self.emit1("soac.rearrange", &[a], tt, &[("perm", perm)])
    }
}
