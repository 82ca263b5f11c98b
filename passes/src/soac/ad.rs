//! What the two AD passes share: emitting scalar code at an insertion
//! point ([`Emit`]) and the derivatives of the unary functions
//! ([`derivative`]). `soac-jvp` (Note [Forward-mode AD] in `jvp.rs`)
//! multiplies a derivative by a tangent, `soac-vjp` (Note [Reverse-mode
//! AD] in `vjp.rs`) by an adjoint.

use super::analysis::held_by;

use futmlir_dialects::ir::{
    Attr, AttrKind, Builder, Context, Diagnostic, Dim, InsertPoint, Location, OpId, RegionId, Scalar, Type, TypeKind,
    Value, ValueMap,
};

/// The element type of a scalar or array type.
pub fn elem(ctx: &Context, t: Type) -> Option<Scalar> {
    match ctx.type_kind(t) {
        TypeKind::Scalar(s) => Some(*s),
        TypeKind::Array { elem, .. } => ctx.as_scalar(*elem),
        _ => None,
    }
}

/// Whether values of type `t` are differentiated: numbers and arrays of
/// them.
pub fn is_number(ctx: &Context, t: Type) -> bool {
    elem(ctx, t).is_some_and(|s| s != Scalar::Bool)
}

/// Emitting ops at an insertion point, with a location: what a pass
/// building derivative code needs from its state.
pub trait Emit {
    fn ctx(&mut self) -> &mut Context;
    fn ctx_ref(&self) -> &Context;
    fn point(&self) -> InsertPoint;
    fn loc(&self) -> Location;
    /// The diagnostic for a construct the pass does not differentiate.
    fn unsupported(&self, what: &str) -> Diagnostic;

    fn emit(
        &mut self,
        name: &str,
        operands: &[Value],
        tys: &[Type],
        attrs: &[(&str, Attr)],
        regions: Vec<RegionId>,
    ) -> OpId {
        let (point, location) = (self.point(), self.loc());
        let mut b = Builder::new(self.ctx());
        b.point = point;
        b.location = location;
        b.op(name, operands, tys, attrs, regions)
    }

    fn emit1(&mut self, name: &str, operands: &[Value], ty: Type, attrs: &[(&str, Attr)]) -> Value {
        let op = self.emit(name, operands, &[ty], attrs, Vec::new());
        self.ctx_ref().result(op, 0)
    }

    fn kind(&mut self, k: &str) -> Attr {
        self.ctx().string_attr(k)
    }

    fn bin(&mut self, k: &str, a: Value, b: Value) -> Value {
        let t = self.ctx_ref().value_type(a);
        let kind = self.kind(k);
        self.emit1("soac.binop", &[a, b], t, &[("kind", kind)])
    }

    fn un(&mut self, k: &str, a: Value) -> Value {
        let t = self.ctx_ref().value_type(a);
        let kind = self.kind(k);
        self.emit1("soac.unop", &[a], t, &[("kind", kind)])
    }

    fn cmp(&mut self, k: &str, a: Value, b: Value) -> Value {
        let t = self.ctx().scalar(Scalar::Bool);
        let kind = self.kind(k);
        self.emit1("soac.cmpop", &[a, b], t, &[("kind", kind)])
    }

    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ctx_ref().value_type(a);
        self.emit1("soac.select", &[c, a, b], t, &[])
    }

    /// The scalar constant `x` of type `s`.
    fn constant(&mut self, s: Scalar, x: f64) -> Value {
        let ty = self.ctx().scalar(s);
        let a = if s.is_float() {
            self.ctx().intern_attr(AttrKind::Float { bits: x.to_bits(), ty })
        } else if s == Scalar::Bool {
            self.ctx().intern_attr(AttrKind::Bool(x != 0.0))
        } else {
            self.ctx().int_attr(x as i64, s)
        };
        self.emit1("soac.constant", &[], ty, &[("value", a)])
    }

    /// The constant `x` of the type of scalar `like`.
    fn konst(&mut self, like: Value, x: f64) -> Value {
        let t = self.ctx_ref().value_type(like);
        let s = self.ctx_ref().as_scalar(t).expect("a scalar op's operand is a scalar");
        self.constant(s, x)
    }

    /// The sizes of (new) value `v`, as values.
    fn sizes(&mut self, v: Value) -> Vec<Value> {
        let t = self.ctx_ref().value_type(v);
        let shape = match self.ctx_ref().type_kind(t) {
            TypeKind::Array { shape, .. } => shape.clone(),
            _ => Vec::new(),
        };
        let i64t = self.ctx().scalar(Scalar::I64);
        let mut dims = Vec::new();
        for (j, d) in shape.iter().enumerate() {
            dims.push(match *d {
                Dim::Value(n) => n,
                Dim::Const(c) => self.constant(Scalar::I64, c as f64),
                Dim::Unknown => {
                    let a = self.ctx().int_attr(j as i64, Scalar::I64);
                    self.emit1("soac.size", &[v], i64t, &[("dim", a)])
                }
            });
        }
        dims
    }

    /// `x` replicated to the sizes `dims` (outermost first): one flat
    /// `replicate` of the scalar, reshaped (a replicate of an array row
    /// copies the row in each of its threads).
    fn filled(&mut self, dims: &[Value], x: Value) -> Value {
        let et = self.ctx_ref().value_type(x);
        let Some((&first, rest)) = dims.split_first() else {
            return x;
        };
        let mut total = first;
        for &d in rest {
            total = self.bin("mul", total, d);
        }
        let flat_t = self.ctx().intern_type(TypeKind::Array {
            elem: et,
            shape: vec![Dim::Value(total)],
        });
        let flat = self.emit1("soac.replicate", &[total, x], flat_t, &[]);
        if rest.is_empty() {
            return flat;
        }
        let shape = dims.iter().map(|&d| Dim::Value(d)).collect();
        let rt = self.ctx().intern_type(TypeKind::Array { elem: et, shape });
        let mut ops = vec![flat];
        ops.extend(dims);
        self.emit1("soac.reshape", &ops, rt, &[])
    }

    /// A zero shaped like the (new) value `v` (0, `false`, or an array of
    /// them of `v`'s shape).
    fn zero(&mut self, v: Value) -> Result<Value, Diagnostic> {
        let t = self.ctx_ref().value_type(v);
        let Some(s) = elem(self.ctx_ref(), t) else {
            return Err(self.unsupported("a value of this type"));
        };
        let dims = self.sizes(v);
        let z = self.constant(s, 0.0);
        Ok(self.filled(&dims, z))
    }
}

/// `Emit` for a pass state `$t` with fields `ctx`, `at` and `loc`, whose
/// "not supported" diagnostics name `$what` (`jvp`, `vjp`).
macro_rules! impl_emit {
    ($t:ident, $what:literal) => {
        impl Emit for $t<'_> {
            fn ctx(&mut self) -> &mut Context {
                self.ctx
            }
            fn ctx_ref(&self) -> &Context {
                self.ctx
            }
            fn point(&self) -> InsertPoint {
                self.at
            }
            fn loc(&self) -> Location {
                self.loc
            }
            fn unsupported(&self, what: &str) -> Diagnostic {
                Diagnostic::error(self.loc, format!(concat!($what, ": {} is not supported"), what))
            }
        }
    };
}
pub(super) use impl_emit;

/// The derivative of unary function `k` at `x`, where its value is `r`;
/// `None` for `neg` (the tangent or adjoint negated) and for the
/// piecewise constant functions (zero).
pub fn derivative<E: Emit>(e: &mut E, k: &str, x: Value, r: Value) -> Result<Option<Value>, Diagnostic> {
    let c = |e: &mut E, v: f64| e.konst(x, v);
    let recip = |e: &mut E, v: Value| {
        let one = c(e, 1.0);
        e.bin("div", one, v)
    };
    Ok(Some(match k {
        "neg" | "signum" | "floor" | "ceil" | "round" | "not" | "popc" | "clz" => return Ok(None),
        "abs" => {
            let z = c(e, 0.0);
            let neg = e.cmp("lt", x, z);
            let m1 = c(e, -1.0);
            let p1 = c(e, 1.0);
            e.select(neg, m1, p1)
        }
        "sqrt" => {
            let two = c(e, 2.0);
            let d = e.bin("mul", two, r);
            recip(e, d)
        }
        "cbrt" => {
            let three = c(e, 3.0);
            let rr = e.bin("mul", r, r);
            let d = e.bin("mul", three, rr);
            recip(e, d)
        }
        "exp" => r,
        "log" => recip(e, x),
        "log2" | "log10" => {
            let ln = c(
                e,
                if k == "log2" {
                    std::f64::consts::LN_2
                } else {
                    std::f64::consts::LN_10
                },
            );
            let d = e.bin("mul", x, ln);
            recip(e, d)
        }
        "log1p" => {
            let one = c(e, 1.0);
            let d = e.bin("add", one, x);
            recip(e, d)
        }
        "sin" => e.un("cos", x),
        "cos" => {
            let s = e.un("sin", x);
            e.un("neg", s)
        }
        "tan" => {
            let one = c(e, 1.0);
            let rr = e.bin("mul", r, r);
            e.bin("add", one, rr)
        }
        "asin" | "acos" => {
            let one = c(e, 1.0);
            let xx = e.bin("mul", x, x);
            let d = e.bin("sub", one, xx);
            let s = e.un("sqrt", d);
            let d = recip(e, s);
            if k == "acos" {
                e.un("neg", d)
            } else {
                d
            }
        }
        "atan" => {
            let one = c(e, 1.0);
            let xx = e.bin("mul", x, x);
            let d = e.bin("add", one, xx);
            recip(e, d)
        }
        "sinh" => e.un("cosh", x),
        "cosh" => e.un("sinh", x),
        "tanh" => {
            let one = c(e, 1.0);
            let rr = e.bin("mul", r, r);
            e.bin("sub", one, rr)
        }
        "asinh" | "acosh" => {
            let one = c(e, 1.0);
            let xx = e.bin("mul", x, x);
            let d = e.bin(if k == "asinh" { "add" } else { "sub" }, xx, one);
            let s = e.un("sqrt", d);
            recip(e, s)
        }
        "atanh" => {
            let one = c(e, 1.0);
            let xx = e.bin("mul", x, x);
            let d = e.bin("sub", one, xx);
            recip(e, d)
        }
        // erf' = 2/√π e^(-x²), erfc' = -erf'
        "erf" | "erfc" => {
            let k2 = if k == "erf" { 2.0 } else { -2.0 } / std::f64::consts::PI.sqrt();
            let xx = e.bin("mul", x, x);
            let nxx = e.un("neg", xx);
            let ex = e.un("exp", nxx);
            let kk = c(e, k2);
            e.bin("mul", kk, ex)
        }
        k => return Err(e.unsupported(&format!("the derivative of `{k}`"))),
    }))
}

/// Run the AD pass for `own` (`soac.jvp` or `soac.vjp`) on `module`: each
/// op of that name, and each AD op of the other kind nested in one, is
/// replaced by its derivative program, inner ones first, so that an outer
/// op differentiates the inner one's program (higher-order derivatives,
/// and forward mode over reverse mode or the other way).
pub fn run(ctx: &mut Context, module: OpId, own: &str, loops: super::vjp::LoopStrategy) -> Result<(), Diagnostic> {
    let mut ops = Vec::new();
    ctx.walk(module, &mut |o| {
        if matches!(ctx.op_name(o), "soac.jvp" | "soac.vjp") {
            ops.push(o);
        }
    });
    for o in ops.into_iter().rev() {
        if !ctx.is_alive(o) || (ctx.op_name(o) != own && !held_by(ctx, o, |n| n == own)) {
            continue;
        }
        if ctx.op_name(o) == "soac.jvp" {
            super::jvp::differentiate(ctx, module, o)?;
        } else {
            super::vjp::differentiate(ctx, o, loops)?;
        }
    }
    // Reverse mode is the last: a `with_vjp` outside it is its function.
    if own == "soac.vjp" {
        inline_with_vjps(ctx, module);
    }
    Ok(())
}

/// Replace every `soac.with_vjp` nested in `op` by its function (region
/// 0) applied to its operands.
pub fn inline_with_vjps(ctx: &mut Context, op: OpId) {
    let mut ws = Vec::new();
    ctx.walk(op, &mut |o| {
        if ctx.op_name(o) == "soac.with_vjp" {
            ws.push(o);
        }
    });
    // Inner ones first: an outer one's copy then has none.
    for w in ws.into_iter().rev() {
        let region = ctx.regions(w)[0];
        let args = ctx.operands(w).to_vec();
        let ys = inline(ctx, region, &mut ValueMap::default(), &args, InsertPoint::Before(w));
        ctx.replace_op(w, &ys);
    }
}

/// A copy of the body of region `r` (one block) applied to `args`,
/// inserted at `point`, cloning with `vm` (which maps the block's
/// arguments to `args` afterwards); the copies of its yields.
pub fn inline(ctx: &mut Context, r: RegionId, vm: &mut ValueMap, args: &[Value], point: InsertPoint) -> Vec<Value> {
    let block = ctx.blocks(r)[0];
    for (&a, &x) in ctx.block_args(block).to_vec().iter().zip(args) {
        vm.insert(a, x);
    }
    let ops: Vec<OpId> = ctx.block_ops(block).collect();
    let (term, body) = ops.split_last().expect("a region ends with its yield");
    for &o in body {
        let c = ctx.clone_op(o, vm);
        let mut b = Builder::new(ctx);
        b.point = point;
        b.insert(c);
    }
    ctx.operands(*term).iter().map(|&v| vm.get(v)).collect()
}
