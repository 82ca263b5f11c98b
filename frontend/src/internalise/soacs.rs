//! The built-in functions: SOACs with their lambdas as regions, array
//! operations, scalar operators and the numeric modules.

use futmlir_dialects::ir::{AttrKind, Dim, RegionId, Scalar, Type as IrType, Value};

use super::values::{prim, scalar, V};
use super::{internal, unsupported, DResult, Internaliser};
use crate::check::builtins::{self, ScalarOp};
use crate::span::Span;
use crate::types::{PrimType, Type};

/// The row type of an array source type.
fn row(t: &Type) -> Type {
    t.row().unwrap_or_else(|| t.clone())
}

impl<'a, 'c> Internaliser<'a, 'c> {
    /// Apply a built-in to all its arguments.
    pub fn call_builtin(
        &mut self,
        name: &str,
        args: Vec<(V<'a>, Type)>,
        ret: Option<&Type>,
        span: Span,
    ) -> DResult<V<'a>> {
        let leaf = |i: usize| -> DResult<Value> {
            args.get(i)
                .and_then(|(v, _)| v.as_leaf())
                .ok_or_else(|| internal(span, &format!("argument {} of `{name}` is not a scalar", i + 1)))
        };
        let a = |i: usize| args[i].clone();
        match name {
            "&&" | "||" | "+" | "-" | "*" | "/" | "%" | "//" | "%%" | "**" | "<" | "<=" | ">" | ">=" | "&" | "|"
            | "^" | "<<" | ">>" | ">>>" => {
                let (x, y) = (leaf(0)?, leaf(1)?);
                Ok(V::Leaf(self.scalar_binop(name, x, y)?))
            }
            "==" | "!=" => {
                let e = self.equal(&args[0].0, &args[1].0, span)?;
                Ok(V::Leaf(if name == "==" { e } else { self.unop("not", e) }))
            }
            "map" => self.map(&args[0].0, &args[1..], span),
            "jvp2" => self.jvp2(a(0).0, a(1), a(2).0, span),
            "vjp2" => self.vjp2(a(0).0, a(1), a(2).0, span),
            "with_vjp" => self.with_vjp(a(0), a(1).0, a(2), span),
            "reduce" | "reduce_comm" => self.reduce_or_scan(a(0), a(1), a(2), false, name == "reduce_comm", span),
            "scan" => self.reduce_or_scan(a(0), a(1), a(2), true, false, span),
            "hist" => {
                let k = leaf(2)?;
                self.assert_size(k, "hist");
                let (ne, _) = a(1);
                let nes = self.array_leaves_of_scalar(&ne, span)?;
                let mut dests = Vec::new();
                for x in nes {
                    let t = self.ctx.value_type(x);
                    let mut d = vec![Dim::Value(k)];
                    d.extend(self.dims(x));
                    let rt = self.with_dims(t, d);
                    dests.push(self.op1("soac.replicate", &[k, x], rt, &[]));
                }
                let dest = ne.with_leaves(dests);
                self.hist(dest, a(0), a(1), a(3), a(4), span)
            }
            "reduce_by_index" => {
                let (dest, _) = a(0);
                self.hist(dest, a(1), a(2), a(3), a(4), span)
            }
            "scatter" => self.scatter(a(0).0, &[a(1).0], a(2).0, span),
            "intrinsics.scatter_stream" => self.acc_stream(a(0), None, a(1).0, a(2), span),
            "intrinsics.hist_stream" => self.acc_stream(a(0), Some((a(1), a(2))), a(3).0, a(4), span),
            "intrinsics.acc_write" => {
                let acc = self.acc_leaf(&a(0).0, span)?;
                let i = leaf(1)?;
                let v = a(2)
                    .0
                    .as_leaf()
                    .ok_or_else(|| unsupported(span, "an accumulator of tuples"))?;
                let t = self.ctx.value_type(acc);
                let rt = self.row_type(t);
                let want = self.dims_of_type(rt);
                let v = self.coerce(v, &want, "the value does not have the size of the accumulator's rows")?;
                Ok(V::Leaf(self.op1("soac.acc_write", &[acc, i, v], t, &[])))
            }
            "scatter_2d" | "scatter_3d" => {
                let is = match &args[1].0 {
                    V::Tuple(vs) => vs.clone(),
                    _ => return Err(internal(span, "scatter indices that are not tuples")),
                };
                self.scatter(a(0).0, &is, a(2).0, span)
            }
            "filter" => self.filter(a(0), a(1), span),
            "partition" => self.partition(a(0), a(1), span),
            "zip" | "zip3" | "zip4" | "zip5" => {
                let first = self.array_leaves(&args[0].0, span)?;
                let d = self.dims(first[0])[0];
                let mut out = Vec::new();
                for (v, _) in args {
                    out.push(self.outer_to(&v, d, "`zip` of arrays of different sizes", span)?);
                }
                Ok(V::Tuple(out))
            }
            // `trace` and `opaque` are the identity here (Note [Dropped
            // built-ins]).
            "unzip" | "unzip3" | "unzip4" | "unzip5" | "trace" | "opaque" => Ok(a(0).0),
            "iota" => {
                let n = leaf(0)?;
                self.assert_size(n, "iota");
                let rt = self.array_type(Scalar::I64, vec![Dim::Value(n)]);
                Ok(V::Leaf(self.op1("soac.iota", &[n], rt, &[])))
            }
            // `rep`'s implicit size `n` comes first: `replicate n x`.
            "replicate" | "rep" => {
                let n = leaf(0)?;
                self.assert_size(n, "replicate");
                let x = a(1).0;
                let ls = x.leaves().ok_or_else(|| internal(span, "an array of functions"))?;
                let mut out = Vec::new();
                for l in ls {
                    let t = self.ctx.value_type(l);
                    let mut d = vec![Dim::Value(n)];
                    d.extend(self.dims(l));
                    let rt = self.with_dims(t, d);
                    out.push(self.op1("soac.replicate", &[n, l], rt, &[]));
                }
                Ok(x.with_leaves(out))
            }
            "concat" | "++" => {
                let (xs, ys) = (a(0).0, a(1).0);
                let lx = self.array_leaves(&xs, span)?;
                let ly = self.array_leaves(&ys, span)?;
                let n = self.size(lx[0], 0)?;
                let m = self.size(ly[0], 0)?;
                let w = self.binop("add", n, m);
                let dim = self.ctx.int_attr(0, Scalar::I64);
                let mut out = Vec::new();
                for (x, y) in lx.into_iter().zip(ly) {
                    let mut want = vec![Dim::Unknown];
                    want.extend(self.dims(x)[1..].iter().copied());
                    let y = self.coerce(y, &want, "`concat` of arrays whose rows have different sizes")?;
                    let t = self.ctx.value_type(x);
                    let mut d = vec![Dim::Value(w)];
                    d.extend(self.dims(x)[1..].iter().copied());
                    let rt = self.with_dims(t, d);
                    out.push(self.op1("soac.concat", &[w, x, y], rt, &[("dim", dim)]));
                }
                Ok(xs.with_leaves(out))
            }
            "rotate" => {
                let r = leaf(0)?;
                let xs = a(1).0;
                let mut out = Vec::new();
                for l in self.array_leaves(&xs, span)? {
                    let mut ops = vec![l, r];
                    for _ in 1..self.rank(l) {
                        ops.push(self.const_i64(0));
                    }
                    let t = self.ctx.value_type(l);
                    out.push(self.op1("soac.rotate", &ops, t, &[]));
                }
                Ok(xs.with_leaves(out))
            }
            "transpose" => {
                let xs = a(0).0;
                let mut out = Vec::new();
                for l in self.array_leaves(&xs, span)? {
                    let mut perm = vec![1, 0];
                    perm.extend(2..self.rank(l));
                    out.push(self.rearrange(l, &perm));
                }
                Ok(xs.with_leaves(out))
            }
            "flatten" | "flatten_3d" | "flatten_4d" => {
                let k = match name {
                    "flatten" => 2,
                    "flatten_3d" => 3,
                    _ => 4,
                };
                let xs = a(0).0;
                let ls = self.array_leaves(&xs, span)?;
                let mut total = self.size(ls[0], 0)?;
                for j in 1..k {
                    let d = self.size(ls[0], j)?;
                    total = self.binop("mul", total, d);
                }
                let mut out = Vec::new();
                for l in ls {
                    let mut d = vec![Dim::Value(total)];
                    d.extend(self.dims(l)[k..].iter().copied());
                    out.push(self.reshape(l, &d)?);
                }
                Ok(xs.with_leaves(out))
            }
            "unflatten" | "unflatten_3d" | "unflatten_4d" => {
                // The implicit sizes first, then the array.
                let k = args.len() - 1;
                let mut sizes = Vec::new();
                for i in 0..k {
                    sizes.push(leaf(i)?);
                }
                let xs = a(k).0;
                let ls = self.array_leaves(&xs, span)?;
                let p = self.size(ls[0], 0)?;
                self.derive_size(&mut sizes, p, "mul");
                let mut total = sizes[0];
                for &s in &sizes[1..] {
                    total = self.binop("mul", total, s);
                }
                let c = self.cmpop("eq", total, p);
                let mut conds = vec![c];
                let zero = self.const_i64(0);
                for &s in &sizes {
                    conds.push(self.cmpop("ge", s, zero));
                }
                let ok = self.and_all(conds).expect("at least one condition");
                // The interpreter's message (interp/builtins.rs).
                let want: String = (1..=sizes.len()).map(|k| format!("[{{{k}}}]")).collect();
                let msg = format!("cannot unflatten an array of size {{0}} into shape {want}: the sizes do not match");
                let mut args = vec![p];
                args.extend_from_slice(&sizes);
                self.assert_with(ok, &msg, &args);
                let mut out = Vec::new();
                for l in ls {
                    let mut d: Vec<Dim> = sizes.iter().map(|&s| Dim::Value(s)).collect();
                    d.extend(self.dims(l)[1..].iter().copied());
                    out.push(self.reshape(l, &d)?);
                }
                Ok(xs.with_leaves(out))
            }
            "split" => {
                // The implicit sizes `n` and `m`, then the array.
                let mut nm = [leaf(0)?, leaf(1)?];
                let xs = a(2).0;
                let ls = self.array_leaves(&xs, span)?;
                let len = self.size(ls[0], 0)?;
                self.derive_size(&mut nm, len, "add");
                let [n, m] = nm;
                let zero = self.const_i64(0);
                let total = self.binop("add", n, m);
                let conds = vec![
                    self.cmpop("ge", n, zero),
                    self.cmpop("ge", m, zero),
                    self.cmpop("eq", total, len),
                ];
                let ok = self.and_all(conds).expect("three conditions");
                self.assert_with(
                    ok,
                    "cannot split an array of size {0} into arrays of sizes {1} and {2}: the sizes do not match",
                    &[len, n, m],
                );
                let one = self.const_i64(1);
                let (mut front, mut back) = (Vec::new(), Vec::new());
                for l in ls {
                    front.push(self.slice1(l, zero, n, one));
                    back.push(self.slice1(l, n, m, one));
                }
                Ok(V::Tuple(vec![xs.with_leaves(front), xs.with_leaves(back)]))
            }
            "copy" => {
                let x = a(0).0;
                let ls = x.leaves().ok_or_else(|| internal(span, "a copy of a function"))?;
                let mut out = Vec::new();
                for l in ls {
                    if self.rank(l) == 0 {
                        out.push(l);
                    } else {
                        let t = self.ctx.value_type(l);
                        out.push(self.op1("soac.copy", &[l], t, &[]));
                    }
                }
                Ok(x.with_leaves(out))
            }
            "reverse" => {
                let xs = a(0).0;
                let ls = self.array_leaves(&xs, span)?;
                let n = self.size(ls[0], 0)?;
                let one = self.const_i64(1);
                let last = self.binop("sub", n, one);
                let m1 = self.const_i64(-1);
                let mut out = Vec::new();
                for l in ls {
                    out.push(self.slice1(l, last, n, m1));
                }
                Ok(xs.with_leaves(out))
            }
            "tabulate" | "tabulate_2d" | "tabulate_3d" => {
                let k = args.len() - 1;
                let mut sizes = Vec::new();
                for i in 0..k {
                    sizes.push(leaf(i)?);
                }
                // All sizes first: an inner one is not reached when an
                // outer one is 0.
                for &n in &sizes {
                    self.assert_size(n, name);
                }
                let f = a(k).0;
                self.tabulate(&f, &sizes, Vec::new(), span)
            }
            _ => {
                if let Some((m, f)) = name.split_once('.') {
                    if let Some(t) = PrimType::from_name(m) {
                        return self.numeric(t, f, args, ret, span);
                    }
                }
                Err(unsupported(span, &format!("the built-in `{name}`")))
            }
        }
    }

    /// The leaves of a value (no functions).
    fn array_leaves_of_scalar(&self, v: &V<'a>, span: Span) -> DResult<Vec<Value>> {
        v.leaves()
            .ok_or_else(|| internal(span, "a function where a value is expected"))
    }

    /// `v` (an array) with outer size `d`, checked at run time.
    fn outer_to(&mut self, v: &V<'a>, d: Dim, msg: &str, span: Span) -> DResult<V<'a>> {
        let mut out = Vec::new();
        for l in self.array_leaves(v, span)? {
            out.push(self.coerce(l, &[d], msg)?);
        }
        Ok(v.with_leaves(out))
    }

    // ----- scalar operators --------------------------------------------------

    /// A binary operator on scalars (Futhark's semantics:
    /// [`builtins::scalar_op`]), with a check that an integer divisor is
    /// not zero.
    pub fn scalar_binop(&mut self, op: &str, x: Value, y: Value) -> DResult<Value> {
        let s = self
            .ctx
            .as_scalar(self.ctx.value_type(x))
            .ok_or_else(|| internal(self.span, "an operator applied to non-scalars"))?;
        let division = matches!(op, "/" | "%" | "//" | "%%");
        if division && !s.is_float() && !self.unsafe_ && !matches!(self.int_value(y), Some(c) if c != 0) {
            let z = self.zero(s);
            let c = self.cmpop("ne", y, z);
            self.assert(c, "division by zero");
        }
        if op == "**" && s.is_signed_int() && !self.unsafe_ && !matches!(self.int_value(y), Some(c) if c >= 0) {
            let z = self.zero(s);
            let c = self.cmpop("ge", y, z);
            self.assert(c, "negative exponent in integer `**`");
        }
        match builtins::scalar_op(op, prim(s)) {
            Some(ScalarOp::Binary(kind)) => Ok(self.binop(kind, x, y)),
            Some(ScalarOp::Compare(kind)) => Ok(self.cmpop(kind, x, y)),
            None if op == "//" => {
                // Signed truncating division: the remainder makes the
                // division exact.
                let r = self.binop("rem", x, y);
                let d = self.binop("sub", x, r);
                Ok(self.binop("div", d, y))
            }
            _ => Err(unsupported(self.span, &format!("the operator `{op}`"))),
        }
    }

    /// Structural equality of two values of one type.
    pub fn equal(&mut self, a: &V<'a>, b: &V<'a>, span: Span) -> DResult<Value> {
        match (a, b) {
            (V::Tuple(xs), V::Tuple(ys)) if xs.len() == ys.len() => {
                let mut conds = Vec::new();
                for (x, y) in xs.iter().zip(ys) {
                    conds.push(self.equal(x, y, span)?);
                }
                return Ok(match self.and_all(conds) {
                    Some(c) => c,
                    None => self.const_bool(true),
                });
            }
            (V::Record(xs), V::Record(ys)) if xs.len() == ys.len() => {
                let mut conds = Vec::new();
                for ((_, x), (_, y)) in xs.iter().zip(ys) {
                    conds.push(self.equal(x, y, span)?);
                }
                return Ok(match self.and_all(conds) {
                    Some(c) => c,
                    None => self.const_bool(true),
                });
            }
            // One sum value: by its tag and payload. Arrays of sums are
            // compared leaf by leaf below, blanks included (those of two
            // arrays may differ in size: see Note [Sum types]).
            (V::Sum(l, xs), V::Sum(_, ys)) if xs.len() == ys.len() && self.rank(xs[0]) == 0 => {
                return self.sum_equal(l, xs, ys, span);
            }
            _ => {}
        }
        let (Some(la), Some(lb)) = (a.leaves(), b.leaves()) else {
            return Err(internal(span, "a comparison of functions"));
        };
        let mut conds = Vec::new();
        for (x, y) in la.into_iter().zip(lb) {
            conds.push(if self.rank(x) == 0 {
                self.cmpop("eq", x, y)
            } else {
                self.array_equal(x, y, span)?
            });
        }
        Ok(match self.and_all(conds) {
            Some(c) => c,
            None => self.const_bool(true),
        })
    }

    /// Equal shapes and equal elements.
    fn array_equal(&mut self, x: Value, y: Value, span: Span) -> DResult<Value> {
        let (dx, dy) = (self.dims(x), self.dims(y));
        let mut conds = Vec::new();
        for (j, (&a, &b)) in dx.iter().zip(&dy).enumerate() {
            if !self.same_dim(a, b) {
                let sa = self.size(x, j)?;
                let sb = self.size(y, j)?;
                conds.push(self.cmpop("eq", sa, sb));
            }
        }
        let same = match self.and_all(conds) {
            Some(c) => c,
            None => self.const_bool(true),
        };
        let elems = |s: &mut Self| -> DResult<V<'a>> {
            let y2 = s.reshape(y, &dx)?;
            let mut total = s.size(x, 0)?;
            for j in 1..dx.len() {
                let d = s.size(x, j)?;
                total = s.binop("mul", total, d);
            }
            let fx = s.reshape(x, &[Dim::Value(total)])?;
            let fy = s.reshape(y2, &[Dim::Value(total)])?;
            let elem = s.elem_of(s.ctx.value_type(x));
            let bool_t = s.ctx.scalar(Scalar::Bool);
            let eqs = s.map_region(total, &[fx, fy], |s, a| Ok(vec![s.cmpop("eq", a[0], a[1])]), span)?;
            let _ = elem;
            let t = s.const_bool(true);
            let r = s.reduce_region(
                total,
                &[t],
                &[eqs[0]],
                &[bool_t],
                |s, a| Ok(vec![s.binop("and", a[0], a[1])]),
                true,
            )?;
            Ok(V::Leaf(r[0]))
        };
        let r = self.if_(same, elems, |s| Ok(V::Leaf(s.const_bool(false))), span)?;
        r.as_leaf().ok_or_else(|| internal(span, "equality"))
    }

    // ----- SOACs -------------------------------------------------------------

    /// A `soac.map` over arrays of outer size `n` whose lambda is built by
    /// `f` from the rows.
    fn map_region(
        &mut self,
        n: Value,
        arrays: &[Value],
        f: impl FnOnce(&mut Self, Vec<Value>) -> DResult<Vec<Value>>,
        _span: Span,
    ) -> DResult<Vec<Value>> {
        let row_tys: Vec<IrType> = arrays
            .iter()
            .map(|&a| {
                let t = self.ctx.value_type(a);
                self.row_type(t)
            })
            .collect();
        let (r, ys, ()) = self.region(&row_tys, |s, bargs| Ok((f(s, bargs)?, ())))?;
        let nd = Dim::Value(n);
        let mut rtys = Vec::new();
        for y in ys {
            let t = self.ctx.value_type(y);
            let t = self.hoist(t, &[r]);
            let mut d = vec![nd];
            d.extend(self.dims_of_type(t));
            rtys.push(self.with_dims(t, d));
        }
        let mut ops = vec![n];
        ops.extend(arrays.iter().copied());
        let op = self.op("soac.map", &ops, &rtys, &[], vec![r]);
        let mut out = Vec::new();
        for v in self.results(op) {
            out.push(self.refine(v)?);
        }
        Ok(out)
    }

    /// A `soac.reduce` with an operator built by `f`.
    fn reduce_region(
        &mut self,
        n: Value,
        nes: &[Value],
        arrays: &[Value],
        tys: &[IrType],
        f: impl FnOnce(&mut Self, Vec<Value>) -> DResult<Vec<Value>>,
        comm: bool,
    ) -> DResult<Vec<Value>> {
        let mut args = tys.to_vec();
        args.extend_from_slice(tys);
        let (r, _, ()) = self.region(&args, |s, bargs| Ok((f(s, bargs)?, ())))?;
        let mut ops = vec![n];
        ops.extend_from_slice(nes);
        ops.extend_from_slice(arrays);
        let mut attrs = Vec::new();
        if comm {
            attrs.push(("commutative", self.ctx.intern_attr(AttrKind::Unit)));
        }
        let op = self.op("soac.reduce", &ops, tys, &attrs, vec![r]);
        Ok(self.results(op))
    }

    /// `map f xs ys ...`: the arrays must have one outer size.
    pub fn map(&mut self, f: &V<'a>, arrays: &[(V<'a>, Type)], span: Span) -> DResult<V<'a>> {
        let first = self.array_leaves(&arrays[0].0, span)?;
        let d = self.dims(first[0])[0];
        let n = self.dim_value(d)?;
        let mut all = Vec::new();
        let mut vs = Vec::new();
        for (v, t) in arrays {
            let v = self.outer_to(v, d, "`map` over arrays of different sizes", span)?;
            all.extend(v.leaves().expect("array leaves"));
            vs.push((v, row(t)));
        }
        let iotas: Vec<Option<Value>> = all.iter().map(|&l| self.iota_of(l)).collect();
        let mut result = None;
        let ys = self.map_region(
            n,
            &all,
            |s, bargs| {
                for (&b, io) in bargs.iter().zip(&iotas) {
                    if let Some(m) = io {
                        s.facts.insert((b, *m));
                    }
                }
                let mut it = bargs.into_iter();
                let rows: Vec<(V<'a>, Type)> = vs.iter().map(|(v, t)| (v.rebuild(&mut it), t.clone())).collect();
                let out = s.apply(f.clone(), rows, None, span)?;
                let ls = out
                    .leaves()
                    .ok_or_else(|| unsupported(span, "`map` with a function-valued result"))?;
                result = Some(out);
                Ok(ls)
            },
            span,
        )?;
        Ok(result.expect("the lambda was built").with_leaves(ys))
    }

    /// `jvp2 f x x'`: a `soac.jvp` of `f` as a region over the leaves of
    /// `x`, with the leaves of `x` and then of `x'` as operands; its results
    /// are the leaves of `f x` and then of their tangents. The pass
    /// `soac-jvp` replaces it by the tangent program (Note [Forward-mode
    /// AD] in `passes/src/soac/jvp.rs`).
    fn jvp2(&mut self, f: V<'a>, x: (V<'a>, Type), dx: V<'a>, span: Span) -> DResult<V<'a>> {
        self.ad_op("jvp", f, x, dx, span)
    }

    /// `vjp2 f x y'`: a `soac.vjp` of `f` as a region over the leaves of
    /// `x`, with the leaves of `x` and then of the cotangent `y'` as
    /// operands; its results are the leaves of `f x` and then of the
    /// adjoint of `x`. The pass `soac-vjp` replaces it by the adjoint
    /// program (Note [Reverse-mode AD] in `passes/src/soac/vjp.rs`).
    fn vjp2(&mut self, f: V<'a>, x: (V<'a>, Type), dy: V<'a>, span: Span) -> DResult<V<'a>> {
        self.ad_op("vjp", f, x, dy, span)
    }

    /// `with_vjp f f' x`: a `soac.with_vjp` of `x`'s leaves whose first
    /// region is `f` and whose second is `f'`, over the leaves of `f x` and
    /// of its cotangent; its results are the leaves of `f x`. `soac-vjp`
    /// uses `f'` for the adjoint and replaces every other one by `f`
    /// (Note [Reverse-mode AD] in `passes/src/soac/vjp.rs`).
    fn with_vjp(&mut self, (f, ft): (V<'a>, Type), fp: V<'a>, (x, xt): (V<'a>, Type), span: Span) -> DResult<V<'a>> {
        let yt = match &ft {
            Type::Arrow { ret, .. } => (**ret).clone(),
            _ => return Err(internal(span, "`with_vjp` of a value that is not a function")),
        };
        let xs = x
            .leaves()
            .ok_or_else(|| unsupported(span, "`with_vjp` of a function-valued argument"))?;
        let tys: Vec<IrType> = xs.iter().map(|&v| self.ctx.value_type(v)).collect();
        let mut result = None;
        let (r, ys, ()) = self.region(&tys, |s, bargs| {
            let out = s.apply(f.clone(), vec![(x.with_leaves(bargs), xt.clone())], None, span)?;
            let ls = out
                .leaves()
                .ok_or_else(|| unsupported(span, "`with_vjp` of a function with a function-valued result"))?;
            result = Some(out);
            Ok((ls, ()))
        })?;
        let shape = result.expect("the region was built");
        let ytys: Vec<IrType> = ys
            .iter()
            .map(|&y| {
                let t = self.ctx.value_type(y);
                self.hoist(t, &[r])
            })
            .collect();
        let mut both = ytys.clone();
        both.extend(&ytys);
        let (r2, _, ()) = self.region(&both, |s, bargs| {
            let (yv, ybar) = bargs.split_at(ytys.len());
            let args = vec![
                (shape.with_leaves(yv.to_vec()), yt.clone()),
                (shape.with_leaves(ybar.to_vec()), yt.clone()),
            ];
            let out = s.apply(fp.clone(), args, None, span)?;
            let ls = out
                .leaves()
                .ok_or_else(|| unsupported(span, "`with_vjp` of an adjoint with a function-valued result"))?;
            let mut fitted = Vec::new();
            for (&l, &x) in ls.iter().zip(&xs) {
                let want = s.dims(x);
                fitted.push(s.coerce(
                    l,
                    &want,
                    "with_vjp: the adjoint does not have the shape of the argument",
                )?);
            }
            if fitted.len() != xs.len() {
                return Err(internal(span, "`with_vjp`: an adjoint shaped unlike the argument"));
            }
            Ok((fitted, ()))
        })?;
        let op = self.op("soac.with_vjp", &xs, &ytys, &[], vec![r, r2]);
        let mut out = Vec::new();
        for v in self.results(op) {
            out.push(self.refine(v)?);
        }
        Ok(shape.with_leaves(out))
    }

    /// `soac.jvp` or `soac.vjp` (`which`) of `f` at `x`, with the seed
    /// `seed`: a tangent shaped like `x` (jvp) or a cotangent shaped like
    /// `f x` (vjp). The results are `(f x, the tangent of f x)` or `(f x,
    /// the adjoint of x)`.
    fn ad_op(&mut self, which: &str, f: V<'a>, (x, xt): (V<'a>, Type), seed: V<'a>, span: Span) -> DResult<V<'a>> {
        let leaves = |v: &V<'a>| {
            v.leaves()
                .ok_or_else(|| unsupported(span, &format!("`{which}` of a function-valued argument")))
        };
        let (xs, seeds) = (leaves(&x)?, leaves(&seed)?);
        let tys: Vec<IrType> = xs.iter().map(|&v| self.ctx.value_type(v)).collect();
        let mut result = None;
        let (r, ys, ()) = self.region(&tys, |s, bargs| {
            let arg = x.with_leaves(bargs);
            let out = s.apply(f.clone(), vec![(arg, xt.clone())], None, span)?;
            let ls = out
                .leaves()
                .ok_or_else(|| unsupported(span, &format!("`{which}` of a function with a function-valued result")))?;
            result = Some(out);
            Ok((ls, ()))
        })?;
        let ytys: Vec<IrType> = ys
            .iter()
            .map(|&y| {
                let t = self.ctx.value_type(y);
                self.hoist(t, &[r])
            })
            .collect();
        // The seed has the shape of the argument (jvp) or of the result
        // (vjp, whose result shapes are only known once `f` is applied).
        let (seed_of, shape_msg) = match which {
            "jvp" => (xs.clone(), "jvp: the tangent does not have the shape of the argument"),
            _ => (Vec::new(), "vjp: the cotangent does not have the shape of the result"),
        };
        if seeds.len() != if which == "jvp" { xs.len() } else { ys.len() } {
            return Err(internal(span, &format!("`{which}2`: a seed shaped unlike its value")));
        }
        let mut coerced = Vec::new();
        for (i, &d) in seeds.iter().enumerate() {
            let want = match seed_of.get(i) {
                Some(&x) => self.dims(x),
                None => {
                    let t = ytys[i];
                    self.dims_of_type(t)
                }
            };
            coerced.push(self.coerce(d, &want, shape_msg)?);
        }
        let mut rtys = ytys.clone();
        if which == "jvp" {
            rtys.extend(ytys);
        } else {
            rtys.extend(tys);
        }
        let mut ops = xs;
        ops.extend(coerced);
        let op = self.op(&format!("soac.{which}"), &ops, &rtys, &[], vec![r]);
        let mut out = Vec::new();
        for v in self.results(op) {
            out.push(self.refine(v)?);
        }
        let shape = result.expect("the region was built");
        let second = out.split_off(ys.len());
        let second = if which == "jvp" {
            shape.with_leaves(second)
        } else {
            x.with_leaves(second)
        };
        Ok(V::Tuple(vec![shape.with_leaves(out), second]))
    }

    /// The size `n` when `l` is `iota n` (its rows are in `0..n`).
    fn iota_of(&self, l: Value) -> Option<Value> {
        let op = self.ctx.defining_op(l)?;
        (self.ctx.op_name(op) == "soac.iota" && self.ctx.operands(op).len() == 1).then(|| self.ctx.operand(op, 0))
    }

    /// `tabulate_kd n m ... f`: nested maps over `iota`.
    fn tabulate(&mut self, f: &V<'a>, sizes: &[Value], idx: Vec<Value>, span: Span) -> DResult<V<'a>> {
        let Some((&n, rest)) = sizes.split_first() else {
            let i64t = Type::Prim(PrimType::I64);
            let args = idx.into_iter().map(|i| (V::Leaf(i), i64t.clone())).collect();
            return self.apply(f.clone(), args, None, span);
        };
        let rt = self.array_type(Scalar::I64, vec![Dim::Value(n)]);
        let is = self.op1("soac.iota", &[n], rt, &[]);
        let mut result = None;
        let ys = self.map_region(
            n,
            &[is],
            |s, bargs| {
                s.facts.insert((bargs[0], n));
                let mut idx = idx.clone();
                idx.push(bargs[0]);
                let out = s.tabulate(f, rest, idx, span)?;
                let ls = out
                    .leaves()
                    .ok_or_else(|| unsupported(span, "`tabulate` with a function-valued result"))?;
                result = Some(out);
                Ok(ls)
            },
            span,
        )?;
        Ok(result.expect("the lambda was built").with_leaves(ys))
    }

    /// The operator region of a reduction-like SOAC on values shaped like
    /// `ne` (source type `t`), yielding values of types `tys`.
    fn operator(&mut self, op: &V<'a>, ne: &V<'a>, t: &Type, tys: &[IrType], span: Span) -> DResult<RegionId> {
        let k = tys.len();
        let mut args = tys.to_vec();
        args.extend_from_slice(tys);
        let (r, _, ()) = self.region(&args, |s, bargs| {
            let x = ne.with_leaves(bargs[..k].to_vec());
            let y = ne.with_leaves(bargs[k..].to_vec());
            let out = s.apply(op.clone(), vec![(x, t.clone()), (y, t.clone())], None, span)?;
            let ls = out
                .leaves()
                .ok_or_else(|| internal(span, "an operator with a function-valued result"))?;
            let mut ys = Vec::new();
            for (l, &ty) in ls.into_iter().zip(tys) {
                let want = s.dims_of_type(ty);
                ys.push(s.coerce(
                    l,
                    &want,
                    "the operator's result does not have the size of its arguments",
                )?);
            }
            Ok((ys, ()))
        })?;
        Ok(r)
    }

    /// Neutral elements shaped like the rows of `leaves`.
    fn neutral(&mut self, ne: &V<'a>, rows: &[IrType], span: Span) -> DResult<Vec<Value>> {
        let nes = ne
            .leaves()
            .ok_or_else(|| internal(span, "a function-valued neutral element"))?;
        if nes.len() != rows.len() {
            return Err(internal(span, "a neutral element of another type than the rows"));
        }
        let mut out = Vec::new();
        for (x, &t) in nes.into_iter().zip(rows) {
            let want = self.dims_of_type(t);
            out.push(self.coerce(
                x,
                &want,
                "the neutral element does not have the size of the array's rows",
            )?);
        }
        Ok(out)
    }

    /// `soac.reduce` (`scan` false) or `soac.scan` (`scan` true) of `op`
    /// with neutral element `ne` over `xs`.
    fn reduce_or_scan(
        &mut self,
        (op, _): (V<'a>, Type),
        (ne, net): (V<'a>, Type),
        (xs, _): (V<'a>, Type),
        scan: bool,
        comm: bool,
        span: Span,
    ) -> DResult<V<'a>> {
        let ls = self.array_leaves(&xs, span)?;
        let n = self.size(ls[0], 0)?;
        let rows: Vec<IrType> = ls
            .iter()
            .map(|&l| {
                let t = self.ctx.value_type(l);
                self.row_type(t)
            })
            .collect();
        let nes = self.neutral(&ne, &rows, span)?;
        let r = self.operator(&op, &ne, &net, &rows, span)?;
        let mut ops = vec![n];
        ops.extend(nes);
        ops.extend(ls.iter().copied());
        let o = if scan {
            let rtys: Vec<IrType> = ls.iter().map(|&l| self.ctx.value_type(l)).collect();
            self.op("soac.scan", &ops, &rtys, &[], vec![r])
        } else {
            let mut attrs = Vec::new();
            if comm {
                attrs.push(("commutative", self.ctx.intern_attr(AttrKind::Unit)));
            }
            self.op("soac.reduce", &ops, &rows, &attrs, vec![r])
        };
        Ok(ne.with_leaves(self.results(o)))
    }

    /// `reduce_by_index dest op ne is as` (and `hist`, with a fresh
    /// destination).
    fn hist(
        &mut self,
        dest: V<'a>,
        (op, _): (V<'a>, Type),
        (ne, net): (V<'a>, Type),
        (is, _): (V<'a>, Type),
        (xs, _): (V<'a>, Type),
        span: Span,
    ) -> DResult<V<'a>> {
        let dests = self.array_leaves(&dest, span)?;
        let w = self.size(dests[0], 0)?;
        let rows: Vec<IrType> = dests
            .iter()
            .map(|&l| {
                let t = self.ctx.value_type(l);
                self.row_type(t)
            })
            .collect();
        let nes = self.neutral(&ne, &rows, span)?;
        let il = self.array_leaves(&is, span)?[0];
        let d = self.dims(il)[0];
        let n = self.dim_value(d)?;
        let mut xls = Vec::new();
        for (l, &rt) in self.array_leaves(&xs, span)?.into_iter().zip(&rows) {
            let mut want = vec![d];
            want.extend(self.dims_of_type(rt));
            xls.push(self.coerce(l, &want, "`hist` of arrays of different sizes")?);
        }
        let r0 = self.operator(&op, &ne, &net, &rows, span)?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let mut args = vec![i64t];
        args.extend(rows.iter().copied());
        let (r1, _, ()) = self.region(&args, |_, bargs| Ok((bargs, ())))?;
        let mut ops = vec![n, w];
        ops.extend(dests.iter().copied());
        ops.extend(nes);
        ops.push(il);
        ops.extend(xls);
        let rtys: Vec<IrType> = dests.iter().map(|&l| self.ctx.value_type(l)).collect();
        let o = self.op("soac.hist", &ops, &rtys, &[], vec![r0, r1]);
        Ok(dest.with_leaves(self.results(o)))
    }

    /// The one array of an accumulator or its destination (an array of
    /// tuples has several: not supported).
    fn acc_leaf(&mut self, v: &V<'a>, span: Span) -> DResult<Value> {
        match self.array_leaves(v, span)?[..] {
            [l] => Ok(l),
            _ => Err(unsupported(
                span,
                "an accumulator of tuples (a destination that is an array of tuples or records)",
            )),
        }
    }

    /// `scatter_stream dest f bs` (`op` `None`) and `hist_stream dest op ne
    /// f bs`: a `soac.scatter_stream` or `soac.hist_stream` whose lambda
    /// applies `f` to the accumulator and a row of `bs` (Note [Accumulator
    /// ops] in the soac dialect).
    fn acc_stream(
        &mut self,
        (dest, dest_t): (V<'a>, Type),
        op: Option<((V<'a>, Type), (V<'a>, Type))>,
        f: V<'a>,
        (bs, bs_t): (V<'a>, Type),
        span: Span,
    ) -> DResult<V<'a>> {
        let d = self.acc_leaf(&dest, span)?;
        let acc_t = self.ctx.value_type(d);
        let acc_dims = self.dims(d);
        let bls = self.array_leaves(&bs, span)?;
        let n = self.size(bls[0], 0)?;
        let mut ops = vec![n, d];
        let mut regions = Vec::new();
        if let Some(((op, _), (ne, ne_t))) = &op {
            let rt = self.row_type(acc_t);
            ops.extend(self.neutral(ne, &[rt], span)?);
            regions.push(self.operator(op, ne, ne_t, &[rt], span)?);
        }
        let mut arg_tys = vec![acc_t];
        for &l in &bls {
            let t = self.ctx.value_type(l);
            arg_tys.push(self.row_type(t));
        }
        let b_t = row(&bs_t);
        let (r, _, ()) = self.region(&arg_tys, |s, bargs| {
            let acc = dest.with_leaves(vec![bargs[0]]);
            let b = bs.rebuild(&mut bargs[1..].iter().copied());
            let out = s.apply(f.clone(), vec![(acc, dest_t.clone()), (b, b_t.clone())], None, span)?;
            let l = s.acc_leaf(&out, span)?;
            let l = s.coerce(
                l,
                &acc_dims,
                "the function's accumulator does not have the destination's size",
            )?;
            Ok((vec![l], ()))
        })?;
        regions.push(r);
        ops.extend(bls);
        let name = if op.is_some() {
            "soac.hist_stream"
        } else {
            "soac.scatter_stream"
        };
        let o = self.op(name, &ops, &[acc_t], &[], regions);
        Ok(dest.with_leaves(self.results(o)))
    }

    /// `scatter dest is vs` with one index array per dimension of the
    /// destination (`scatter_2d`, `scatter_3d` through a flattened
    /// destination).
    fn scatter(&mut self, dest: V<'a>, is: &[V<'a>], vs: V<'a>, span: Span) -> DResult<V<'a>> {
        let dests = self.array_leaves(&dest, span)?;
        let k = is.len();
        let mut ils = Vec::new();
        for i in is {
            ils.push(self.array_leaves(i, span)?[0]);
        }
        let d = self.dims(ils[0])[0];
        let n = self.dim_value(d)?;
        for il in ils.iter_mut().skip(1) {
            *il = self.coerce(*il, &[d], "`scatter` of arrays of different sizes")?;
        }
        // The destination sizes of the indexed dimensions.
        let mut dsizes = Vec::new();
        for j in 0..k {
            dsizes.push(self.size(dests[0], j)?);
        }
        // Flatten the indexed dimensions of the destination.
        let mut flat = Vec::new();
        let mut total = dsizes[0];
        for &s in &dsizes[1..] {
            total = self.binop("mul", total, s);
        }
        for &l in &dests {
            if k == 1 {
                flat.push(l);
            } else {
                let mut dd = vec![Dim::Value(total)];
                dd.extend(self.dims(l)[k..].iter().copied());
                flat.push(self.reshape(l, &dd)?);
            }
        }
        let mut xls = Vec::new();
        for (l, &f) in self.array_leaves(&vs, span)?.into_iter().zip(&flat) {
            let mut want = vec![d];
            want.extend(self.dims(f)[1..].iter().copied());
            xls.push(self.coerce(l, &want, "`scatter` of arrays of different sizes")?);
        }
        let mut inputs = ils.clone();
        inputs.extend(xls.iter().copied());
        let arg_tys: Vec<IrType> = inputs
            .iter()
            .map(|&a| {
                let t = self.ctx.value_type(a);
                self.row_type(t)
            })
            .collect();
        let nd = flat.len();
        let (r, _, ()) = self.region(&arg_tys, |s, bargs| {
            let idx = if k == 1 {
                bargs[0]
            } else {
                // Row-major offset, or -1 (ignored) when any index is out
                // of its dimension.
                let zero = s.const_i64(0);
                let mut conds = Vec::new();
                let mut off = zero;
                for j in 0..k {
                    let lo = s.cmpop("ge", bargs[j], zero);
                    let hi = s.cmpop("lt", bargs[j], dsizes[j]);
                    conds.push(lo);
                    conds.push(hi);
                    let m = s.binop("mul", off, dsizes[j]);
                    off = s.binop("add", m, bargs[j]);
                }
                let ok = s.and_all(conds).expect("conditions");
                let m1 = s.const_i64(-1);
                s.select(ok, off, m1)
            };
            let mut ys = vec![idx; nd];
            ys.extend(bargs[k..].iter().copied());
            Ok((ys, ()))
        })?;
        let mut ops = vec![n];
        ops.extend(inputs);
        ops.extend(flat.iter().copied());
        let rtys: Vec<IrType> = flat.iter().map(|&l| self.ctx.value_type(l)).collect();
        let o = self.op("soac.scatter", &ops, &rtys, &[], vec![r]);
        let mut out = Vec::new();
        for (res, &orig) in self.results(o).into_iter().zip(&dests) {
            out.push(if k == 1 {
                res
            } else {
                let dd = self.dims(orig);
                self.reshape(res, &dd)?
            });
        }
        Ok(dest.with_leaves(out))
    }

    /// The predicate region of `filter`/`partition`: rows of `xs` to what
    /// `post` makes of the predicate's `i1`.
    fn predicate(
        &mut self,
        p: &V<'a>,
        xs: &V<'a>,
        t: &Type,
        leaves: &[Value],
        post: impl FnOnce(&mut Self, Value) -> Value,
        span: Span,
    ) -> DResult<RegionId> {
        let row_tys: Vec<IrType> = leaves
            .iter()
            .map(|&l| {
                let t = self.ctx.value_type(l);
                self.row_type(t)
            })
            .collect();
        let (r, _, ()) = self.region(&row_tys, |s, bargs| {
            let rowv = xs.with_leaves(bargs);
            let b = s.apply(p.clone(), vec![(rowv, row(t))], None, span)?;
            let b = b
                .as_leaf()
                .ok_or_else(|| internal(span, "a predicate that is not a bool"))?;
            Ok((vec![post(s, b)], ()))
        })?;
        Ok(r)
    }

    fn filter(&mut self, (p, _): (V<'a>, Type), (xs, t): (V<'a>, Type), span: Span) -> DResult<V<'a>> {
        let ls = self.array_leaves(&xs, span)?;
        let n = self.size(ls[0], 0)?;
        let r = self.predicate(&p, &xs, &t, &ls, |_, b| b, span)?;
        let rtys: Vec<IrType> = ls
            .iter()
            .map(|&l| {
                let ty = self.ctx.value_type(l);
                let mut d = vec![Dim::Unknown];
                d.extend(self.dims(l)[1..].iter().copied());
                self.with_dims(ty, d)
            })
            .collect();
        let mut ops = vec![n];
        ops.extend(ls);
        let o = self.op("soac.filter", &ops, &rtys, &[], vec![r]);
        let res = self.results(o);
        let k = self.size(res[0], 0)?;
        let mut out = Vec::new();
        for v in res {
            let mut d = vec![Dim::Value(k)];
            d.extend(self.dims(v)[1..].iter().copied());
            out.push(self.reshape(v, &d)?);
        }
        Ok(xs.with_leaves(out))
    }

    /// `partition p xs`: `soac.partition` into the rows that satisfy `p`
    /// (class 0) and the others (class 1), then the two slices.
    fn partition(&mut self, (p, _): (V<'a>, Type), (xs, t): (V<'a>, Type), span: Span) -> DResult<V<'a>> {
        let ls = self.array_leaves(&xs, span)?;
        let n = self.size(ls[0], 0)?;
        let post = |s: &mut Self, b: Value| {
            let zero = s.const_i64(0);
            let one = s.const_i64(1);
            s.select(b, zero, one)
        };
        let r = self.predicate(&p, &xs, &t, &ls, post, span)?;
        let i64t = self.ctx.scalar(Scalar::I64);
        let mut rtys = vec![i64t, i64t];
        rtys.extend(ls.iter().map(|&l| self.ctx.value_type(l)));
        let mut ops = vec![n];
        ops.extend(ls);
        let k = self.ctx.int_attr(2, Scalar::I64);
        let o = self.op("soac.partition", &ops, &rtys, &[("k", k)], vec![r]);
        let res = self.results(o);
        let (s0, s1) = (res[0], res[1]);
        let zero = self.const_i64(0);
        let one = self.const_i64(1);
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        for &v in &res[2..] {
            yes.push(self.slice1(v, zero, s0, one));
            no.push(self.slice1(v, s0, s1, one));
        }
        Ok(V::Tuple(vec![xs.with_leaves(yes), xs.with_leaves(no)]))
    }

    // ----- numeric modules ---------------------------------------------------

    /// `T.f` of the numeric module of `t`.
    fn numeric(
        &mut self,
        t: PrimType,
        f: &str,
        args: Vec<(V<'a>, Type)>,
        _ret: Option<&Type>,
        span: Span,
    ) -> DResult<V<'a>> {
        let s = scalar(t);
        let leaf = |i: usize| -> DResult<Value> {
            args.get(i)
                .and_then(|(v, _)| v.as_leaf())
                .ok_or_else(|| internal(span, &format!("argument {} of `{t}.{f}` is not a scalar", i + 1)))
        };
        if PrimType::from_name(f).is_some() {
            return Ok(V::Leaf(self.convert(leaf(0)?, s)));
        }
        if let Some(ScalarOp::Unary(kind)) = builtins::scalar_op(f, t) {
            return Ok(V::Leaf(self.unop(kind, leaf(0)?)));
        }
        if builtins::numeric_constant(t, f).is_some() {
            return Ok(V::Leaf(self.numeric_const(s, f)?));
        }
        let v = match f {
            "+" | "-" | "*" | "/" | "%" | "//" | "%%" | "**" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "&" | "|"
            | "^" | "<<" | ">>" | ">>>" | "max" | "min" => {
                let (x, y) = (leaf(0)?, leaf(1)?);
                self.scalar_binop(f, x, y)?
            }
            "to_i64" => self.convert(leaf(0)?, Scalar::I64),
            "to_f64" => self.convert(leaf(0)?, Scalar::F64),
            "popc" | "clz" => {
                let r = self.unop(f, leaf(0)?);
                self.convert(r, Scalar::I32)
            }
            "atan2" | "hypot" | "copysign" | "mul_hi" => {
                let (x, y) = (leaf(0)?, leaf(1)?);
                self.binop(f, x, y)
            }
            "fma" | "mad" => {
                let (x, y, z) = (leaf(0)?, leaf(1)?, leaf(2)?);
                self.ternop(f, x, y, z)
            }
            "to_bits" => {
                let u = match s.bits() {
                    16 => Scalar::U16,
                    32 => Scalar::U32,
                    _ => Scalar::U64,
                };
                self.convop("bitcast", leaf(0)?, u)
            }
            "from_bits" => self.convop("bitcast", leaf(0)?, s),
            _ => return Err(unsupported(span, &format!("`{t}.{f}`"))),
        };
        Ok(V::Leaf(v))
    }

    /// The intrinsic constants ([`builtins::numeric_constant`]).
    /// The implicit size of `unflatten` (`op` "mul") or `split` ("add")
    /// passed as `DERIVED_SIZE`, if any, computed from the argument's
    /// length `len` and the other sizes: see Note [Sizes derived from the
    /// argument] in `check::builtins`. The size check that follows rejects
    /// a length that does not fit.
    fn derive_size(&mut self, sizes: &mut [Value], len: Value, op: &str) {
        let Some(u) = sizes
            .iter()
            .position(|&s| self.int_value(s) == Some(builtins::DERIVED_SIZE))
        else {
            return;
        };
        let others: Vec<Value> = sizes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != u)
            .map(|(_, &s)| s)
            .collect();
        sizes[u] = if op == "add" {
            others.into_iter().fold(len, |acc, s| self.binop("sub", acc, s))
        } else {
            // len / max(product, 1): an empty product derives 0 from 0.
            let one = self.const_i64(1);
            let product = others.into_iter().fold(one, |acc, s| self.binop("mul", acc, s));
            let divisor = self.binop("max", product, one);
            self.binop("div", len, divisor)
        };
    }

    fn numeric_const(&mut self, s: Scalar, f: &str) -> DResult<Value> {
        match builtins::numeric_constant(prim(s), f) {
            Some(x) => Ok(self.const_float(x, s)),
            None => Err(internal(
                self.span,
                &format!("no constant `{f}` in the numeric modules"),
            )),
        }
    }
}
