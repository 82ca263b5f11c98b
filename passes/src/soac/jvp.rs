//! `soac-jvp`: forward-mode automatic differentiation. Every `soac.jvp`
//! (Futhark's `jvp2 f x x'`, made by internalisation) is replaced by the
//! tangent program of its region: ordinary soac IR, which the later
//! passes simplify, fuse and extract into kernels like any other code.
//!
//! **Note [Forward-mode AD].**
//! The region of `soac.jvp(xs..., dxs...)` is copied before the op, op by
//! op, and every number `v` of it (a scalar or an array of numbers) gets a
//! tangent `v'` beside its copy: the block's arguments get the operands
//! `dxs`, and each op's tangent follows from its operands' by the chain
//! rule (`d(a*b) = a'*b + a*b'`, `d(sin a) = cos a * a'`, ...). As in
//! Futhark (and the interpreter, Note [Dual numbers] in
//! `frontend/src/interp/dual.rs`), integers are differentiated too, in
//! their own arithmetic, and booleans have no tangent (`false` in the
//! results). A value without a tangent in the map [`Tangents::tan`] has
//! tangent zero: values defined outside the region, constants, results of
//! bit operations, comparisons and sizes, and whatever only depends on
//! those. An op none of whose operands (nested ones included) has a
//! tangent is copied as it is, and so is an op with no number among its
//! results (an `if` on booleans).
//!
//! The structured ops carry (value, tangent) pairs:
//! - `map` maps over the arrays and their tangents, its lambda
//!   differentiated, and yields both;
//! - `reduce`, `scan` (and the reductions of `redomap`, `scanomap` and
//!   `hist`) reduce pairs with the operator's own tangent program: for
//!   `+` that sums the tangents, for `*` it is the product rule. The
//!   operator on pairs is associative and has `(ne, 0)` as its neutral
//!   element whenever the operator is associative with neutral element
//!   `ne`: differentiating `f(f(a, b), c) = f(a, f(b, c))` and `f(ne, x) =
//!   x` gives the same laws for the tangents;
//! - `loop` carries the tangents of its numeric merge values; `if` yields
//!   them from both branches;
//! - `index`, `update`, `scatter`, `replicate`, `concat`, `reshape`,
//!   `rearrange`, `rotate`, `slice` and `copy` do to the tangent array what
//!   they do to the array; `filter` keeps the same rows of the tangents;
//! - a call that `soac-inline` left (none, but for `noinline` and
//!   recursive functions) is differentiated through its callee's body,
//!   copied in place; a recursive callee is not supported.
//!
//! A `soac.jvp` or `soac.vjp` inside another one's region goes first
//! ([`super::ad::run`]): the outer one then differentiates the inner
//! one's tangent or adjoint program, which gives higher-order
//! derivatives. Streams and `screma`
//! (which only later passes make), `partition` and a `scatter` writing
//! several pairs per row get a diagnostic "jvp: ... is not supported".
//!
//! The pass sits right after `soac-inline` in the pipelines
//! (`pipelines.rs`): calls are gone by then, and `soac-simplify` afterwards
//! removes the zero tangents and the work on them.

use std::collections::HashMap;

use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, InsertPoint, Location, OpId, RegionId, Type, TypeKind, Value,
    ValueMap,
};

use super::ad::{self, derivative, is_number, Emit};
use crate::pass::{Level, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "soac-jvp",
    description: "Forward-mode AD: replace each soac.jvp by the tangent program of its region",
    options: &[],
    reads: &[Level::Soac],
    writes: None,
    create: &|_, _| Box::new(Jvp),
};

struct Jvp;

impl Pass for Jvp {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        // A `vjp` inside a `jvp` tapes its loops (`soac-vjp`'s default).
        ad::run(ctx, op, "soac.jvp", super::vjp::LoopStrategy::Tape)
    }
}

/// Replace `soac.jvp` `j` (of `module`) by its region's copy and tangent
/// program.
pub(super) fn differentiate(ctx: &mut Context, module: OpId, j: OpId) -> Result<(), Diagnostic> {
    let loc = ctx.location(j);
    let mut t = Tangents {
        ctx,
        module,
        vm: ValueMap::default(),
        tan: HashMap::new(),
        at: InsertPoint::Before(j),
        loc,
        calling: Vec::new(),
    };
    t.jvp(j)
}

/// The state of differentiating one `soac.jvp`.
struct Tangents<'c> {
    ctx: &'c mut Context,
    /// The module, where callees are found.
    module: OpId,
    /// Each value of the region to its copy.
    vm: ValueMap,
    /// Each value of the region to its tangent, where that is not zero.
    tan: HashMap<Value, Value>,
    /// Where the copies go.
    at: InsertPoint,
    /// The location of the op being differentiated: of its copy, its
    /// tangent's ops and the diagnostics about it.
    loc: Location,
    /// The callees being differentiated (to refuse recursion).
    calling: Vec<String>,
}

type R<T> = Result<T, Diagnostic>;

ad::impl_emit!(Tangents, "jvp");

impl Tangents<'_> {
    // ----- values ------------------------------------------------------------

    fn primal(&self, old: Value) -> Value {
        self.vm.get(old)
    }

    fn tangent(&self, old: Value) -> Option<Value> {
        self.tan.get(&old).copied()
    }

    /// The tangent of `old`, zero where it has none.
    fn tangent_or_zero(&mut self, old: Value) -> R<Value> {
        match self.tangent(old) {
            Some(t) => Ok(t),
            None => {
                let p = self.primal(old);
                self.zero(p)
            }
        }
    }

    fn number(&self, old: Value) -> bool {
        is_number(self.ctx, self.ctx.value_type(old))
    }

    /// The type of the copy of `old`.
    fn mapped_type(&mut self, old: Value) -> Type {
        let t = self.ctx.value_type(old);
        self.ctx.map_type(t, &self.vm)
    }

    // ----- ops ---------------------------------------------------------------

    /// Replace `soac.jvp` `j` by its region's copy and tangent program.
    fn jvp(&mut self, j: OpId) -> R<()> {
        let region = self.ctx.regions(j)[0];
        let block = self.ctx.blocks(region)[0];
        let operands = self.ctx.operands(j).to_vec();
        let k = operands.len() / 2;
        for (i, &a) in self.ctx.block_args(block).to_vec().iter().enumerate() {
            self.vm.insert(a, operands[i]);
            if self.number(a) {
                self.tan.insert(a, operands[k + i]);
            }
        }
        let ys = self.block(block)?;
        let mut out: Vec<Value> = ys.iter().map(|&y| self.primal(y)).collect();
        for &y in &ys {
            let t = self.tangent_or_zero(y)?;
            out.push(t);
        }
        self.ctx.replace_op(j, &out);
        Ok(())
    }

    /// Copy and differentiate the ops of `block` but its terminator, whose
    /// operands (not yet mapped) are returned.
    fn block(&mut self, block: BlockId) -> R<Vec<Value>> {
        let ops: Vec<OpId> = self.ctx.block_ops(block).collect();
        let Some((term, rest)) = ops.split_last() else {
            return Ok(Vec::new());
        };
        for &o in rest {
            self.op(o)?;
        }
        Ok(self.ctx.operands(*term).to_vec())
    }

    /// Whether an operand of `o` or of an op nested in it has a tangent.
    fn touches_tangent(&self, o: OpId) -> bool {
        let mut any = self.ctx.operands(o).iter().any(|v| self.tan.contains_key(v));
        self.ctx.walk(o, &mut |n| {
            any |= self.ctx.operands(n).iter().any(|v| self.tan.contains_key(v));
        });
        any
    }

    /// Copy `o` as it is.
    fn copy(&mut self, o: OpId) -> OpId {
        let c = self.ctx.clone_op(o, &mut self.vm);
        let mut b = Builder::new(self.ctx);
        b.point = self.at;
        b.insert(c);
        c
    }

    /// Copy and differentiate `o`.
    fn op(&mut self, o: OpId) -> R<()> {
        let saved = self.loc;
        self.loc = self.ctx.location(o);
        let r = self.op_at(o);
        self.loc = saved;
        r
    }

    fn op_at(&mut self, o: OpId) -> R<()> {
        let name = self.ctx.op_name(o).to_string();
        if name == "soac.apply" {
            return self.apply(o);
        }
        if name == "soac.with_vjp" {
            // Forward mode differentiates a custom adjoint's function.
            let region = self.ctx.regions(o)[0];
            return self.inline_differentiated(o, region);
        }
        let results: Vec<Value> = self.ctx.results(o).collect();
        let numbers = results.iter().any(|&r| self.number(r));
        let constant = matches!(name.as_str(), "soac.size" | "soac.iota" | "soac.cmpop" | "soac.assert");
        if !numbers || constant || !self.touches_tangent(o) {
            self.copy(o);
            return Ok(());
        }
        let operands = self.ctx.operands(o).to_vec();
        match name.as_str() {
            "soac.binop" | "soac.unop" | "soac.ternop" | "soac.convop" | "soac.select" => {
                let c = self.copy(o);
                let p = self.ctx.result(c, 0);
                if let Some(t) = self.scalar(&name, o, &operands, p)? {
                    self.tan.insert(results[0], t);
                }
            }
            "soac.index" | "soac.replicate" | "soac.reshape" | "soac.rearrange" | "soac.rotate" | "soac.slice"
            | "soac.copy" | "soac.concat" | "soac.update" => {
                let c = self.copy(o);
                let p = self.ctx.result(c, 0);
                let t = self.linear(&name, o, &operands, p)?;
                self.tan.insert(results[0], t);
            }
            "soac.map" => self.map(o)?,
            "soac.reduce" | "soac.scan" => self.reduce(o)?,
            "soac.redomap" | "soac.scanomap" => self.redomap(o)?,
            "soac.loop" => self.loop_(o)?,
            "soac.if" => self.if_(o)?,
            "soac.scatter" => self.scatter(o)?,
            "soac.hist" => self.hist(o)?,
            "soac.filter" => self.filter(o)?,
            n => return Err(self.unsupported(&format!("`{n}`"))),
        }
        Ok(())
    }

    /// The tangent of scalar op `o` (copied, its result `p`), or `None`
    /// where it is zero. Operands without a tangent count as zero.
    fn scalar(&mut self, name: &str, o: OpId, operands: &[Value], p: Value) -> R<Option<Value>> {
        let kind = match self.ctx.attr(o, "kind").map(|a| self.ctx.attr_kind(a).clone()) {
            Some(AttrKind::String(s)) => self.ctx.str(s).to_string(),
            _ => String::new(),
        };
        let a = |s: &Self, i: usize| s.primal(operands[i]);
        let has = |s: &Self, i: usize| s.tangent(operands[i]).is_some();
        // The sum of `d_i * t_i` over the operands with a tangent
        // (`d_i` None: the tangent itself).
        let chain = |s: &mut Self, terms: Vec<(usize, Option<Value>)>| -> R<Option<Value>> {
            let mut acc: Option<Value> = None;
            for (i, d) in terms {
                let Some(t) = s.tangent(operands[i]) else { continue };
                let term = match d {
                    Some(d) => s.bin("mul", d, t),
                    None => t,
                };
                acc = Some(match acc {
                    Some(x) => s.bin("add", x, term),
                    None => term,
                });
            }
            Ok(acc)
        };
        Ok(match (name, kind.as_str()) {
            ("soac.binop", "add") => chain(self, vec![(0, None), (1, None)])?,
            ("soac.binop", "sub") => {
                let ta = self.tangent(operands[0]);
                let tb = self.tangent(operands[1]);
                match (ta, tb) {
                    (Some(x), Some(y)) => Some(self.bin("sub", x, y)),
                    (Some(x), None) => Some(x),
                    (None, Some(y)) => Some(self.un("neg", y)),
                    (None, None) => None,
                }
            }
            ("soac.binop", "mul") => {
                let (x, y) = (a(self, 0), a(self, 1));
                chain(self, vec![(0, Some(y)), (1, Some(x))])?
            }
            // Integers: (a'b - ab')/b², in integer division.
            ("soac.binop", "div") if self.int_op(operands[0]) => {
                let (x, y) = (a(self, 0), a(self, 1));
                let ta = self.tangent_or_zero(operands[0])?;
                let tb = self.tangent_or_zero(operands[1])?;
                let l = self.bin("mul", ta, y);
                let r = self.bin("mul", x, tb);
                let num = self.bin("sub", l, r);
                let den = self.bin("mul", y, y);
                Some(self.bin("div", num, den))
            }
            // (a'b - ab')/b² = (a' - (a/b) b')/b
            ("soac.binop", "div") => {
                let b = a(self, 1);
                let num = match (self.tangent(operands[0]), self.tangent(operands[1])) {
                    (Some(ta), Some(tb)) => {
                        let q = self.bin("mul", p, tb);
                        self.bin("sub", ta, q)
                    }
                    (Some(ta), None) => ta,
                    (None, Some(tb)) => {
                        let q = self.bin("mul", p, tb);
                        self.un("neg", q)
                    }
                    (None, None) => return Ok(None),
                };
                Some(self.bin("div", num, b))
            }
            // a ** b: b a^(b-1) a' + a^b log(a) b', a term 0 where its
            // factor b (or a) is: `0 ** 1` has tangent 1 and `0 ** 0`
            // tangent 0, as in Futhark. A term goes with its tangent, and
            // integers have no `log` (their tangent is the first term).
            ("soac.binop", "pow") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let int = self.int_op(operands[0]);
                let da = if has(self, 0) {
                    let one = self.konst(y, 1.0);
                    let zero = self.konst(y, 0.0);
                    let e = self.bin("sub", y, one);
                    let e = if int {
                        // An integer `a ** -1` is an error: raise to 0 instead.
                        let neg = self.cmp("lt", e, zero);
                        self.select(neg, zero, e)
                    } else {
                        e
                    };
                    let pw = self.bin("pow", x, e);
                    let d = self.bin("mul", y, pw);
                    let y0 = self.cmp("eq", y, zero);
                    Some(self.select(y0, zero, d))
                } else {
                    None
                };
                let db = if has(self, 1) && !int {
                    let zero = self.konst(x, 0.0);
                    let l = self.un("log", x);
                    let d = self.bin("mul", p, l);
                    let x0 = self.cmp("eq", x, zero);
                    Some(self.select(x0, zero, d))
                } else {
                    None
                };
                chain(self, vec![(0, da), (1, db)])?
            }
            ("soac.binop", "min" | "max") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let c = self.cmp(if kind == "max" { "ge" } else { "le" }, x, y);
                let ta = self.tangent_or_zero(operands[0])?;
                let tb = self.tangent_or_zero(operands[1])?;
                Some(self.select(c, ta, tb))
            }
            // atan2(a, b)' = (b a' - a b')/(a² + b²)
            ("soac.binop", "atan2") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let xx = self.bin("mul", x, x);
                let yy = self.bin("mul", y, y);
                let den = self.bin("add", xx, yy);
                let dx = self.bin("div", y, den);
                let nx = self.un("neg", x);
                let dy = self.bin("div", nx, den);
                chain(self, vec![(0, Some(dx)), (1, Some(dy))])?
            }
            // hypot(a, b)' = (a a' + b b')/hypot(a, b)
            ("soac.binop", "hypot") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let dx = self.bin("div", x, p);
                let dy = self.bin("div", y, p);
                chain(self, vec![(0, Some(dx)), (1, Some(dy))])?
            }
            // copysign(a, b) = ±a: a' where a and the result agree in sign.
            ("soac.binop", "copysign") => {
                let Some(ta) = self.tangent(operands[0]) else {
                    return Ok(None);
                };
                let x = a(self, 0);
                let one = self.konst(x, 1.0);
                let sa = self.bin("copysign", one, x);
                let sp = self.bin("copysign", one, p);
                let d = self.bin("mul", sa, sp);
                Some(self.bin("mul", d, ta))
            }
            // a mod b = a - q b, q = (a - a mod b)/b integral.
            ("soac.binop", "mod" | "rem") => {
                let (x, y) = (a(self, 0), a(self, 1));
                let diff = self.bin("sub", x, p);
                let q = self.bin("div", diff, y);
                let nq = self.un("neg", q);
                chain(self, vec![(0, None), (1, Some(nq))])?
            }
            ("soac.unop", k) => {
                let Some(t) = self.tangent(operands[0]) else {
                    return Ok(None);
                };
                let x = a(self, 0);
                match derivative(self, k, x, p)? {
                    Some(d) => Some(self.bin("mul", d, t)),
                    None if k == "neg" => Some(self.un("neg", t)),
                    None => None,
                }
            }
            ("soac.ternop", _) => {
                let (x, y) = (a(self, 0), a(self, 1));
                chain(self, vec![(0, Some(y)), (1, Some(x)), (2, None)])?
            }
            // Bit operations are piecewise constant.
            ("soac.binop", "and" | "or" | "xor" | "shl" | "shr" | "ushr" | "mul_hi") => None,
            // Conversions between numbers are linear (as in Futhark,
            // rounding included); from and to booleans they are constant.
            ("soac.convop", "fpconv" | "zext" | "sext" | "trunc" | "sitofp" | "uitofp" | "fptosi" | "fptoui") => {
                let Some(t) = self.tangent(operands[0]) else {
                    return Ok(None);
                };
                let rt = self.ctx.value_type(p);
                let k = self.kind(&kind);
                Some(self.emit1("soac.convop", &[t], rt, &[("kind", k)]))
            }
            ("soac.convop", _) => None,
            ("soac.select", _) => {
                let c = a(self, 0);
                let tx = self.tangent_or_zero(operands[1])?;
                let ty = self.tangent_or_zero(operands[2])?;
                Some(self.select(c, tx, ty))
            }
            (n, k) => return Err(self.unsupported(&format!("`{n}` of kind `{k}`"))),
        })
    }

    /// The tangent of an op that is linear in its array operands and does
    /// to the tangents what it does to the values (copied, result `p`).
    fn linear(&mut self, name: &str, o: OpId, operands: &[Value], p: Value) -> R<Value> {
        let rt = self.ctx.value_type(p);
        let attrs = self.ctx.attrs(o).to_vec();
        let mut ops: Vec<Value> = operands.iter().map(|&v| self.primal(v)).collect();
        match name {
            // (xs, i..., x): both the array and the value
            "soac.update" => {
                ops[0] = self.tangent_or_zero(operands[0])?;
                let last = operands.len() - 1;
                ops[last] = self.tangent_or_zero(operands[last])?;
            }
            // (w, xs...)
            "soac.concat" => {
                for i in 1..operands.len() {
                    ops[i] = self.tangent_or_zero(operands[i])?;
                }
            }
            // (n, x)
            "soac.replicate" => ops[1] = self.tangent_or_zero(operands[1])?,
            _ => ops[0] = self.tangent_or_zero(operands[0])?,
        }
        let name_sym = self.ctx.sym(name);
        let c = self.ctx.create_op(name_sym, &ops, &[rt], &attrs, Vec::new(), self.loc);
        let mut b = Builder::new(self.ctx);
        b.point = self.at;
        b.insert(c);
        Ok(self.ctx.result(c, 0))
    }

    // ----- regions -----------------------------------------------------------

    /// A new region for `old`'s block: its arguments have types `tys`;
    /// old argument `i` maps to new argument `bind[i].0` and has the
    /// tangent `bind[i].1`, if any. The block's ops are copied and
    /// differentiated into it; the insertion point is left at its end
    /// (restore it from the returned one after yielding). Returns the old
    /// terminator's operands.
    fn open(
        &mut self,
        old: RegionId,
        tys: &[Type],
        bind: &[(usize, Option<usize>)],
    ) -> R<(RegionId, BlockId, Vec<Value>, InsertPoint)> {
        let ob = self.ctx.blocks(old)[0];
        let r = self.ctx.create_region();
        let nb = self.ctx.append_block(r, tys);
        let old_args = self.ctx.block_args(ob).to_vec();
        let new_args = self.ctx.block_args(nb).to_vec();
        for (&a, &(p, t)) in old_args.iter().zip(bind) {
            self.vm.insert(a, new_args[p]);
            if let Some(t) = t {
                self.tan.insert(a, new_args[t]);
            }
        }
        // An argument's type may name another argument (Note [Sizes in
        // types]).
        for &a in &new_args {
            let t = self.ctx.value_type(a);
            let m = self.ctx.map_type(t, &self.vm);
            if m != t {
                self.ctx.set_value_type(a, m);
            }
        }
        let saved = self.at;
        self.at = InsertPoint::End(nb);
        let ys = self.block(ob)?;
        Ok((r, nb, ys, saved))
    }

    fn close(&mut self, ys: &[Value], saved: InsertPoint) {
        self.emit("soac.yield", ys, &[], &[], Vec::new());
        self.at = saved;
    }

    /// The old block arguments of region `r`.
    fn args(&self, r: RegionId) -> Vec<Value> {
        let b = self.ctx.blocks(r)[0];
        self.ctx.block_args(b).to_vec()
    }

    /// Emit `o` again with new operands, result types and regions (its
    /// attributes kept); returns the results.
    fn rebuild(&mut self, o: OpId, ops: &[Value], tys: &[Type], regions: Vec<RegionId>) -> Vec<Value> {
        let name = self.ctx.op_name_sym(o);
        let attrs = self.ctx.attrs(o).to_vec();
        let c = self.ctx.create_op(name, ops, tys, &attrs, regions, self.loc);
        let mut b = Builder::new(self.ctx);
        b.point = self.at;
        b.insert(c);
        self.ctx.results(c).collect()
    }

    /// Pushes the primals of `vs` onto `ops`, then the tangents of those at
    /// `with_tan` (zero where a value has none).
    fn with_paired(&mut self, ops: &mut Vec<Value>, vs: &[Value], with_tan: &[usize]) -> R<()> {
        ops.extend(vs.iter().map(|&v| self.primal(v)));
        for &i in with_tan {
            let t = self.tangent_or_zero(vs[i])?;
            ops.push(t);
        }
        Ok(())
    }

    /// Replaces `o` by an op like it with `ops` and `regions` whose results
    /// are `o`'s and then the tangents of its results at `with_tan`, which
    /// it binds ([`Tangents::bind_results`]).
    fn rebuild_paired(&mut self, o: OpId, ops: &[Value], regions: Vec<RegionId>, with_tan: &[usize]) {
        let results: Vec<Value> = self.ctx.results(o).collect();
        let mut tys: Vec<Type> = results.iter().map(|&v| self.mapped_type(v)).collect();
        for &i in with_tan {
            tys.push(tys[i]);
        }
        let new = self.rebuild(o, ops, &tys, regions);
        self.bind_results(o, &new, with_tan);
    }

    /// Bind the results of `o` to `new`: the first ones to the copies of
    /// its results, then the tangents of the results in `with_tan`.
    fn bind_results(&mut self, o: OpId, new: &[Value], with_tan: &[usize]) {
        let results: Vec<Value> = self.ctx.results(o).collect();
        for (i, &r) in results.iter().enumerate() {
            self.vm.insert(r, new[i]);
        }
        for (j, &i) in with_tan.iter().enumerate() {
            self.tan.insert(results[i], new[results.len() + j]);
        }
    }

    /// The row type of array `v` (a copy).
    fn row_type(&mut self, v: Value) -> Type {
        let t = self.ctx.value_type(v);
        match self.ctx.type_kind(t).clone() {
            TypeKind::Array { elem, shape } if shape.len() > 1 => self.ctx.intern_type(TypeKind::Array {
                elem,
                shape: shape[1..].to_vec(),
            }),
            TypeKind::Array { elem, .. } => elem,
            _ => t,
        }
    }

    /// The arrays among `olds` (old values) with a tangent: their
    /// positions, and the tangents.
    fn with_tangents(&self, olds: &[Value]) -> (Vec<usize>, Vec<Value>) {
        let idx: Vec<usize> = (0..olds.len()).filter(|&i| self.tangent(olds[i]).is_some()).collect();
        let ts = idx.iter().map(|&i| self.tangent(olds[i]).expect("filtered")).collect();
        (idx, ts)
    }

    /// The yields `ys` (old) followed by the tangents of those at `fl`.
    fn pairs(&mut self, ys: &[Value], fl: &[usize]) -> R<Vec<Value>> {
        let mut out: Vec<Value> = ys.iter().map(|&y| self.primal(y)).collect();
        for &i in fl {
            let t = self.tangent_or_zero(ys[i])?;
            out.push(t);
        }
        Ok(out)
    }

    /// The positions of the numbers among `vs` (old).
    fn numbers(&self, vs: &[Value]) -> Vec<usize> {
        (0..vs.len()).filter(|&i| self.number(vs[i])).collect()
    }

    /// Whether old scalar `v` is an integer.
    fn int_op(&self, v: Value) -> bool {
        self.ctx.as_scalar(self.ctx.value_type(v)).is_some_and(|s| s.is_int())
    }

    /// `map(n, xs...)`: over the arrays and the tangents of those that
    /// have one.
    fn map(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let xs = &operands[1..];
        let (xi, txs) = self.with_tangents(xs);
        let mut ops = vec![self.primal(operands[0])];
        ops.extend(xs.iter().map(|&x| self.primal(x)));
        ops.extend(&txs);
        let tys: Vec<Type> = ops[1..].iter().map(|&v| self.row_type(v)).collect();
        let bind: Vec<(usize, Option<usize>)> = (0..xs.len())
            .map(|i| (i, xi.iter().position(|&j| j == i).map(|j| xs.len() + j)))
            .collect();
        let region = self.ctx.regions(o)[0];
        let (r, _, ys, saved) = self.open(region, &tys, &bind)?;
        let fl = self.numbers(&ys);
        let yv = self.pairs(&ys, &fl)?;
        self.close(&yv, saved);
        self.rebuild_paired(o, &ops, vec![r], &fl);
        Ok(())
    }

    /// An operator region on pairs: `k` values then `k` more, of which
    /// those at `fl` get tangents: arguments `(a..., ta..., b..., tb...)`,
    /// yields `(r..., tr...)`.
    fn operator(&mut self, region: RegionId, tys: &[Type], fl: &[usize]) -> R<RegionId> {
        let k = tys.len();
        let kp = k + fl.len();
        let mut args: Vec<Type> = tys.to_vec();
        args.extend(fl.iter().map(|&i| tys[i]));
        let half = args.clone();
        args.extend(half);
        let tan_of = |i: usize| fl.iter().position(|&j| j == i);
        let mut bind = Vec::new();
        for i in 0..k {
            bind.push((i, tan_of(i).map(|j| k + j)));
        }
        for i in 0..k {
            bind.push((kp + i, tan_of(i).map(|j| kp + k + j)));
        }
        let (r, _, ys, saved) = self.open(region, &args, &bind)?;
        let yv = self.pairs(&ys, fl)?;
        self.close(&yv, saved);
        Ok(r)
    }

    /// `reduce(n, nes..., xs...)` and `scan`: of pairs.
    fn reduce(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let (nes, xs) = (&operands[1..1 + k], &operands[1 + k..]);
        let fl = self.numbers(nes);
        let mut ops = vec![self.primal(operands[0])];
        self.with_paired(&mut ops, nes, &fl)?;
        self.with_paired(&mut ops, xs, &fl)?;
        let tys: Vec<Type> = nes.iter().map(|&v| self.mapped_type(v)).collect();
        let region = self.ctx.regions(o)[0];
        let r = self.operator(region, &tys, &fl)?;
        self.rebuild_paired(o, &ops, vec![r], &fl);
        Ok(())
    }

    /// `redomap(n, nes..., xs...)` and `scanomap`: the reduction of pairs,
    /// the map over the arrays and their tangents. Results: the `k`
    /// reduced values and their tangents, then the `l` mapped arrays and
    /// theirs.
    fn redomap(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let regions = self.ctx.regions(o).to_vec();
        let k = self.args(regions[0]).len() / 2;
        let (nes, xs) = (&operands[1..1 + k], &operands[1 + k..]);
        let fl = self.numbers(nes);
        let (xi, txs) = self.with_tangents(xs);
        let mut ops = vec![self.primal(operands[0])];
        self.with_paired(&mut ops, nes, &fl)?;
        ops.extend(xs.iter().map(|&v| self.primal(v)));
        ops.extend(&txs);
        let tys: Vec<Type> = nes.iter().map(|&v| self.mapped_type(v)).collect();
        let op_region = self.operator(regions[0], &tys, &fl)?;
        let row_tys: Vec<Type> = ops[1 + k + fl.len()..].iter().map(|&v| self.row_type(v)).collect();
        let bind: Vec<(usize, Option<usize>)> = (0..xs.len())
            .map(|i| (i, xi.iter().position(|&j| j == i).map(|j| xs.len() + j)))
            .collect();
        let (lam, _, ys, saved) = self.open(regions[1], &row_tys, &bind)?;
        let (red, mapped) = ys.split_at(k);
        let gl = self.numbers(mapped);
        let mut yv = self.pairs(red, &fl)?;
        yv.extend(self.pairs(mapped, &gl)?);
        self.close(&yv, saved);
        let results: Vec<Value> = self.ctx.results(o).collect();
        let rt: Vec<Type> = results.iter().map(|&v| self.mapped_type(v)).collect();
        let mut rtys: Vec<Type> = rt[..k].to_vec();
        rtys.extend(fl.iter().map(|&i| rt[i]));
        rtys.extend(&rt[k..]);
        rtys.extend(gl.iter().map(|&i| rt[k + i]));
        let new = self.rebuild(o, &ops, &rtys, vec![op_region, lam]);
        let kp = k + fl.len();
        for i in 0..k {
            self.vm.insert(results[i], new[i]);
        }
        for (j, &i) in fl.iter().enumerate() {
            self.tan.insert(results[i], new[k + j]);
        }
        let l = results.len() - k;
        for i in 0..l {
            self.vm.insert(results[k + i], new[kp + i]);
        }
        for (j, &i) in gl.iter().enumerate() {
            self.tan.insert(results[k + i], new[kp + l + j]);
        }
        Ok(())
    }

    /// `loop`: the numeric merge values carry their tangents.
    fn loop_(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let region = self.ctx.regions(o)[0];
        let old_args = self.args(region);
        // A for loop's bound and index come first.
        let off = old_args.len() - self.ctx.num_results(o);
        let inits = &operands[off..];
        let fl = self.numbers(inits);
        let mut ops: Vec<Value> = operands.iter().map(|&v| self.primal(v)).collect();
        for &i in &fl {
            let t = self.tangent_or_zero(inits[i])?;
            ops.push(t);
        }
        let mut tys: Vec<Type> = old_args.iter().map(|&a| self.mapped_type(a)).collect();
        for &i in &fl {
            tys.push(tys[off + i]);
        }
        let n = old_args.len();
        let bind: Vec<(usize, Option<usize>)> = (0..n)
            .map(|i| {
                let t = (i >= off)
                    .then(|| fl.iter().position(|&j| j == i - off))
                    .flatten()
                    .map(|j| n + j);
                (i, t)
            })
            .collect();
        let (r, _, ys, saved) = self.open(region, &tys, &bind)?;
        let yv = self.pairs(&ys, &fl)?;
        self.close(&yv, saved);
        self.rebuild_paired(o, &ops, vec![r], &fl);
        Ok(())
    }

    /// `if`: both branches yield the tangents of the numeric results.
    fn if_(&mut self, o: OpId) -> R<()> {
        let results: Vec<Value> = self.ctx.results(o).collect();
        let fl = self.numbers(&results);
        let mut regions = Vec::new();
        for region in self.ctx.regions(o).to_vec() {
            let (r, _, ys, saved) = self.open(region, &[], &[])?;
            let yv = self.pairs(&ys, &fl)?;
            self.close(&yv, saved);
            regions.push(r);
        }
        let ops = vec![self.primal(self.ctx.operand(o, 0))];
        let mut rtys: Vec<Type> = results.iter().map(|&v| self.mapped_type(v)).collect();
        for &i in &fl {
            rtys.push(rtys[i]);
        }
        let new = self.rebuild(o, &ops, &rtys, regions);
        self.bind_results(o, &new, &fl);
        Ok(())
    }

    /// `scatter(n, xs..., dests...)`: the numeric destinations get their
    /// tangents written at the same indices.
    fn scatter(&mut self, o: OpId) -> R<()> {
        if self.ctx.attr(o, "num_writes").is_some() {
            return Err(self.unsupported("`soac.scatter` with several writes per row"));
        }
        let operands = self.ctx.operands(o).to_vec();
        let k = self.ctx.num_results(o);
        let m = operands.len() - 1 - k;
        let (xs, dests) = (&operands[1..1 + m], &operands[1 + m..]);
        let fl = self.numbers(dests);
        let (xi, txs) = self.with_tangents(xs);
        let mut ops = vec![self.primal(operands[0])];
        ops.extend(xs.iter().map(|&v| self.primal(v)));
        ops.extend(&txs);
        let row_tys: Vec<Type> = ops[1..].iter().map(|&v| self.row_type(v)).collect();
        self.with_paired(&mut ops, dests, &fl)?;
        let bind: Vec<(usize, Option<usize>)> = (0..m)
            .map(|i| (i, xi.iter().position(|&j| j == i).map(|j| m + j)))
            .collect();
        let region = self.ctx.regions(o)[0];
        let (r, _, ys, saved) = self.open(region, &row_tys, &bind)?;
        let (is, vs) = ys.split_at(k);
        let mut yv: Vec<Value> = is.iter().map(|&v| self.primal(v)).collect();
        yv.extend(fl.iter().map(|&i| self.primal(is[i])));
        yv.extend(vs.iter().map(|&v| self.primal(v)));
        for &i in &fl {
            let t = self.tangent_or_zero(vs[i])?;
            yv.push(t);
        }
        self.close(&yv, saved);
        self.rebuild_paired(o, &ops, vec![r], &fl);
        Ok(())
    }

    /// `hist(n, w, dests..., nes..., xs...)`: buckets of pairs.
    fn hist(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let regions = self.ctx.regions(o).to_vec();
        let k = self.ctx.num_results(o);
        let dests = &operands[2..2 + k];
        let nes = &operands[2 + k..2 + 2 * k];
        let xs = &operands[2 + 2 * k..];
        let fl = self.numbers(nes);
        let (xi, txs) = self.with_tangents(xs);
        let mut ops = vec![self.primal(operands[0]), self.primal(operands[1])];
        self.with_paired(&mut ops, dests, &fl)?;
        self.with_paired(&mut ops, nes, &fl)?;
        let first_x = ops.len();
        ops.extend(xs.iter().map(|&v| self.primal(v)));
        ops.extend(&txs);
        let tys: Vec<Type> = nes.iter().map(|&v| self.mapped_type(v)).collect();
        let op_region = self.operator(regions[0], &tys, &fl)?;
        let row_tys: Vec<Type> = ops[first_x..].iter().map(|&v| self.row_type(v)).collect();
        let bind: Vec<(usize, Option<usize>)> = (0..xs.len())
            .map(|i| (i, xi.iter().position(|&j| j == i).map(|j| xs.len() + j)))
            .collect();
        let (lam, _, ys, saved) = self.open(regions[1], &row_tys, &bind)?;
        // The bucket, then the values.
        let mut yv = vec![self.primal(ys[0])];
        yv.extend(self.pairs(&ys[1..], &fl)?);
        self.close(&yv, saved);
        self.rebuild_paired(o, &ops, vec![op_region, lam], &fl);
        Ok(())
    }

    /// `filter(n, xs...)`: the tangents of the arrays keep the same rows
    /// (the predicate sees the values only).
    fn filter(&mut self, o: OpId) -> R<()> {
        let operands = self.ctx.operands(o).to_vec();
        let xs = &operands[1..];
        let (xi, txs) = self.with_tangents(xs);
        let mut ops = vec![self.primal(operands[0])];
        ops.extend(xs.iter().map(|&x| self.primal(x)));
        ops.extend(&txs);
        let tys: Vec<Type> = ops[1..].iter().map(|&v| self.row_type(v)).collect();
        let bind: Vec<(usize, Option<usize>)> = (0..xs.len()).map(|i| (i, None)).collect();
        let region = self.ctx.regions(o)[0];
        let (r, _, ys, saved) = self.open(region, &tys, &bind)?;
        let yv: Vec<Value> = ys.iter().map(|&y| self.primal(y)).collect();
        self.close(&yv, saved);
        let results: Vec<Value> = self.ctx.results(o).collect();
        let mut rtys: Vec<Type> = results.iter().map(|&v| self.mapped_type(v)).collect();
        for &i in &xi {
            rtys.push(rtys[i]);
        }
        let new = self.rebuild(o, &ops, &rtys, vec![r]);
        self.bind_results(o, &new, &xi);
        Ok(())
    }

    /// A call: its callee's body, differentiated in place.
    fn apply(&mut self, o: OpId) -> R<()> {
        if !self.touches_tangent(o) {
            self.copy(o);
            return Ok(());
        }
        let callee = match self.ctx.attr(o, "callee").map(|a| self.ctx.attr_kind(a).clone()) {
            Some(AttrKind::SymbolRef(s)) => self.ctx.str(s).to_string(),
            _ => return Err(self.unsupported("a call without a callee")),
        };
        if self.calling.contains(&callee) {
            return Err(self.unsupported(&format!("the recursive function `{callee}`")));
        }
        let Some(func) = self.find_func(&callee) else {
            return Err(self.unsupported(&format!("a call of `{callee}`, which is not in the module")));
        };
        let region = self.ctx.regions(func)[0];
        self.calling.push(callee);
        let r = self.inline_differentiated(o, region);
        self.calling.pop();
        r
    }

    /// Op `o` (a call, a `with_vjp`) as `region`'s body applied to its
    /// operands, copied and differentiated in place.
    fn inline_differentiated(&mut self, o: OpId, region: RegionId) -> R<()> {
        let args = self.args(region);
        let operands = self.ctx.operands(o).to_vec();
        for (&a, &x) in args.iter().zip(&operands) {
            self.vm.insert(a, self.primal(x));
            match self.tangent(x) {
                Some(t) => self.tan.insert(a, t),
                None => self.tan.remove(&a),
            };
        }
        let block = self.ctx.blocks(region)[0];
        let ys = self.block(block)?;
        let results: Vec<Value> = self.ctx.results(o).collect();
        for (&r, &y) in results.iter().zip(&ys) {
            self.vm.insert(r, self.primal(y));
            if let Some(t) = self.tangent(y) {
                self.tan.insert(r, t);
            }
        }
        Ok(())
    }

    /// The `soac.func` named `name`.
    fn find_func(&self, name: &str) -> Option<OpId> {
        let mut found = None;
        self.ctx.walk(self.module, &mut |f| {
            if found.is_none() && self.ctx.op_name(f) == "soac.func" {
                if let Some(AttrKind::String(s)) = self.ctx.attr(f, "sym_name").map(|a| self.ctx.attr_kind(a)) {
                    if self.ctx.str(*s) == name {
                        found = Some(f);
                    }
                }
            }
        });
        found
    }
}
