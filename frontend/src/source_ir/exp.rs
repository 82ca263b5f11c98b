//! Expressions, patterns, control flow, lambdas and local functions.

use std::rc::Rc;

use futmlir_dialects::ir::{AttrKind, Scalar, Type as IrType, TypeKind, Value};
use futmlir_dialects::source::verify::tyvar_name;

use super::types::{arrow, type_params_of};
use super::{internal, unsupported, Binding, Callee, DResult, Emitter, LocalFun, Scope};
use crate::diag::Diag;
use crate::internalise::pat_names;
use crate::internalise::values::{match_type_where, scalar, subst_type};
use crate::syntax::ast::*;
use crate::types::Type;

impl<'a, 'c> Emitter<'a, 'c> {
    /// The source type of `e` (the checker fills it in).
    pub fn source_type(&self, e: &'a Exp) -> DResult<&'a Type> {
        e.ty.as_ref()
            .ok_or_else(|| internal(e.span, "an expression without a type"))
    }

    /// The IR type of `e`.
    pub fn ty(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<IrType> {
        let t = self.source_type(e)?;
        self.ir_type(sc, t)
    }

    pub fn exp(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<Value> {
        let saved = self.at(e.span);
        let r = self.exp_inner(sc, e);
        self.restore(saved);
        r
    }

    fn exp_inner(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<Value> {
        match &e.kind {
            ExpKind::Hole => {
                let t = self.ty(sc, e)?;
                let m = self.ctx.string_attr("a typed hole (`???`) was evaluated");
                Ok(self.op1("source.hole", &[], t, &[("message", m)]))
            }
            ExpKind::Lit(l) => {
                let t = self.source_type(e)?;
                self.literal(l, t, false)
            }
            ExpKind::Var(v) => self.name_value(sc, v, self.source_type(e)?),
            ExpKind::Neg(x) => {
                if let ExpKind::Lit(l @ (Literal::Int { .. } | Literal::Float { .. })) = &x.kind {
                    let t = self.source_type(e)?;
                    return self.literal(l, t, true);
                }
                let v = self.exp(sc, x)?;
                Ok(self.unop("neg", v))
            }
            ExpKind::Not(x) => {
                let v = self.exp(sc, x)?;
                Ok(self.unop("not", v))
            }
            ExpKind::BinOp { op, lhs, rhs, .. } => {
                if let Some(Resolved::Builtin(n)) = &op.res {
                    if &**n == "&&" || &**n == "||" {
                        return self.short_circuit(sc, &**n == "&&", lhs, rhs);
                    }
                }
                let use_ty = arrow(
                    vec![self.source_type(lhs)?.clone(), self.source_type(rhs)?.clone()],
                    self.source_type(e)?.clone(),
                );
                let f = self.callee(sc, op, &use_ty)?;
                let a = self.exp(sc, lhs)?;
                let b = self.exp(sc, rhs)?;
                let t = self.ty(sc, e)?;
                self.apply(f, vec![a, b], t)
            }
            ExpKind::OpSection { op, left, right, .. } => self.section(sc, e, op, left.as_deref(), right.as_deref()),
            ExpKind::ProjectSection(path) => {
                let ft = self.ty(sc, e)?;
                self.wrapper(ft, |s, args| {
                    let mut v = args[0];
                    for f in path {
                        v = s.project(v, f)?;
                    }
                    Ok(v)
                })
            }
            ExpKind::Apply(f, args) => {
                let callee = match &f.kind {
                    ExpKind::Var(v) => self.callee(sc, v, self.source_type(f)?)?,
                    _ => Callee::Value(self.exp(sc, f)?),
                };
                let mut vs = Vec::new();
                for a in args {
                    vs.push(self.exp(sc, a)?);
                }
                let t = self.ty(sc, e)?;
                self.apply(callee, vs, t)
            }
            ExpKind::Lambda { params, body, .. } => {
                let t = self.source_type(e)?;
                self.lambda(sc, params, &[], body, t)
            }
            ExpKind::Tuple(es) if es.len() == 1 => self.exp(sc, &es[0]),
            ExpKind::Tuple(es) => {
                let mut vs = Vec::new();
                for x in es {
                    vs.push(self.exp(sc, x)?);
                }
                Ok(self.tuple(vs))
            }
            ExpKind::Record(fields) => self.record(sc, e, fields),
            ExpKind::ArrayLit(es) => self.array_lit(sc, e, es),
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => self.range(sc, e, start, second.as_deref(), end, *kind),
            ExpKind::Project(x, f) => {
                let v = self.exp(sc, x)?;
                self.project(v, f)
            }
            ExpKind::Index(a, idx) => {
                let v = self.exp(sc, a)?;
                self.index(sc, v, idx)
            }
            ExpKind::Coerce(x, _) => {
                let v = self.exp(sc, x)?;
                let t = self.ty(sc, e)?;
                Ok(self.coerce(v, t))
            }
            ExpKind::Ascript(x, _) | ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => self.exp(sc, x),
            ExpKind::If { cond, then, els } => {
                let c = self.exp(sc, cond)?;
                let t = self.ty(sc, e)?;
                let r1 = self.region(&[], |s, _| Ok(vec![s.exp(sc, then)?]))?;
                let r2 = self.region(&[], |s, _| Ok(vec![s.exp(sc, els)?]))?;
                let op = self.op("source.if", &[c], &[t], &[], vec![r1, r2]);
                Ok(self.ctx.result(op, 0))
            }
            ExpKind::Let { pat, value, body } => {
                let v = self.exp(sc, value)?;
                let sc2 = self.bind_pat(sc, pat, v)?;
                self.exp(&sc2, body)
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                value,
                body,
                ..
            } => {
                let f = self.local_function(sc, type_params, params, value)?;
                self.exp(&sc.bind(name.clone(), f), body)
            }
            ExpKind::LetWith {
                name,
                name_span,
                index,
                value,
                body,
            } => {
                let arr = match sc.lookup(name) {
                    Some(Binding::Value(v)) => *v,
                    _ => return Err(internal(*name_span, "an unbound variable")),
                };
                let new = self.update(sc, arr, index, value)?;
                self.exp(&sc.bind(name.clone(), Binding::Value(new)), body)
            }
            ExpKind::Update { array, index, value } => {
                let arr = self.exp(sc, array)?;
                self.update(sc, arr, index, value)
            }
            ExpKind::RecordUpdate { record, path, value } => {
                let r = self.exp(sc, record)?;
                let v = self.exp(sc, value)?;
                self.record_update(r, path, v)
            }
            ExpKind::Loop { pat, init, form, body } => {
                let init = init
                    .as_deref()
                    .ok_or_else(|| internal(e.span, "a loop without an initial value"))?;
                self.loop_(sc, pat, init, form, body)
            }
            ExpKind::Assert(c, x) => {
                let cv = self.exp(sc, c)?;
                let saved = self.at(c.span);
                let text = format!("Assertion is false: {}", self.sm.snippet(c.span));
                let m = self.ctx.string_attr(&text);
                self.op("source.assert", &[cv], &[], &[("message", m)], Vec::new());
                self.restore(saved);
                self.exp(sc, x)
            }
            ExpKind::Constr(c, args) => {
                let t = self.ty(sc, e)?;
                let payload = args.iter().map(|a| self.exp(sc, a)).collect::<DResult<Vec<_>>>()?;
                let name = self.ctx.string_attr(c);
                let op = self.op("source.constr", &payload, &[t], &[("constructor", name)], Vec::new());
                Ok(self.ctx.result(op, 0))
            }
            ExpKind::Match(x, cases) => {
                let v = self.exp(sc, x)?;
                let t = self.ty(sc, e)?;
                let mut regions = Vec::new();
                let mut patterns = Vec::new();
                for (pat, body) in cases {
                    // The block arguments are the names the pattern binds,
                    // in order of appearance (Note [Source match]).
                    let mut binds = Vec::new();
                    pattern_bindings(pat, &mut binds);
                    let mut arg_types = Vec::new();
                    for (_, pt) in &binds {
                        let pt = pt.ok_or_else(|| internal(pat.span, "a pattern name without a type"))?;
                        arg_types.push(self.ir_type(sc, pt)?);
                    }
                    let r = self.region(&arg_types, |s, args| {
                        let mut inner = sc.clone();
                        for ((n, _), a) in binds.iter().zip(args) {
                            inner = inner.bind(Name::clone(n), Binding::Value(a));
                        }
                        Ok(vec![s.exp(&inner, body)?])
                    })?;
                    regions.push(r);
                    let text = self.sm.snippet(pat.span).to_string();
                    patterns.push(self.ctx.string_attr(&text));
                }
                let patterns = self.ctx.intern_attr(AttrKind::Array(patterns));
                let op = self.op("source.match", &[v], &[t], &[("patterns", patterns)], regions);
                Ok(self.ctx.result(op, 0))
            }
        }
    }

    // ----- scalars -------------------------------------------------------

    /// A literal of source type `t`, negated when `neg` (`-1` is one
    /// constant).
    fn literal(&mut self, l: &Literal, t: &Type, neg: bool) -> DResult<Value> {
        let (attr, ty) = match (l, t.prim()) {
            (Literal::Int { value, .. }, Some(p)) if p.is_float() => {
                let x = *value as f64;
                self.float_attr(if neg { -x } else { x }, scalar(p))
            }
            (Literal::Int { value, .. }, Some(p)) if p.is_int() => {
                let x = *value as i64;
                let s = scalar(p);
                let bits = crate::internalise::int_bits(if neg { x.wrapping_neg() } else { x }, s);
                (self.ctx.int_attr(bits, s), self.ctx.scalar(s))
            }
            (Literal::Float { value, .. }, Some(p)) if p.is_float() => {
                self.float_attr(if neg { -value } else { *value }, scalar(p))
            }
            (Literal::Bool(b), Some(_)) => (self.ctx.intern_attr(AttrKind::Bool(*b)), self.ctx.scalar(Scalar::Bool)),
            (Literal::String(bytes), _) => {
                let elems = bytes.iter().map(|&b| self.ctx.int_attr(b as i64, Scalar::U8)).collect();
                let u8t = self.ctx.scalar(Scalar::U8);
                let t = self.array_of(u8t, vec![futmlir_dialects::ir::Dim::Const(bytes.len() as u64)]);
                (self.ctx.intern_attr(AttrKind::Array(elems)), t)
            }
            _ => return Err(internal(self.span, &format!("a literal of type `{t}`"))),
        };
        Ok(self.op1("source.constant", &[], ty, &[("value", attr)]))
    }

    /// A float attribute of float type `s` (an `f32` rounded to `f32`).
    pub fn float_attr(&mut self, x: f64, s: Scalar) -> (futmlir_dialects::ir::Attr, IrType) {
        let x = if s == Scalar::F32 { x as f32 as f64 } else { x };
        let ty = self.ctx.scalar(s);
        (self.ctx.intern_attr(AttrKind::Float { bits: x.to_bits(), ty }), ty)
    }

    pub fn unop(&mut self, kind: &str, a: Value) -> Value {
        let t = self.value_type(a);
        let k = self.ctx.string_attr(kind);
        self.op1("source.unop", &[a], t, &[("kind", k)])
    }

    /// `a && b`, `a || b`: `b` is evaluated only when needed (an `if`),
    /// unless it is a name or a literal.
    fn short_circuit(&mut self, sc: &Scope<'a>, and: bool, lhs: &'a Exp, rhs: &'a Exp) -> DResult<Value> {
        let a = self.exp(sc, lhs)?;
        if matches!(rhs.kind, ExpKind::Var(_) | ExpKind::Lit(_)) {
            let b = self.exp(sc, rhs)?;
            return Ok(self.binop(if and { "and" } else { "or" }, a, b));
        }
        let other = self.region(&[], |s, _| Ok(vec![s.exp(sc, rhs)?]))?;
        let konst = self.region(&[], |s, _| Ok(vec![s.const_bool(!and)]))?;
        let regions = if and { vec![other, konst] } else { vec![konst, other] };
        let bool_t = self.ctx.scalar(Scalar::Bool);
        let op = self.op("source.if", &[a], &[bool_t], &[], regions);
        Ok(self.ctx.result(op, 0))
    }

    // ----- tuples and records --------------------------------------------

    /// `source.tuple` of the values, typed by them.
    pub fn tuple(&mut self, vs: Vec<Value>) -> Value {
        let ts = vs.iter().map(|&v| self.value_type(v)).collect();
        let t = self.ctx.intern_type(TypeKind::Tuple(ts));
        self.op1("source.tuple", &vs, t, &[])
    }

    /// `{x = e, y}`: a `source.record` with the fields in the order
    /// written, or a tuple when the fields are `0`, `1`, ...
    fn record(&mut self, sc: &Scope<'a>, e: &'a Exp, fields: &'a [RecordField]) -> DResult<Value> {
        let mut fs: Vec<(&'a Name, Value)> = Vec::new();
        for f in fields {
            match f {
                RecordField::Explicit(n, _, x) => fs.push((n, self.exp(sc, x)?)),
                RecordField::Implicit(n, s, res) => {
                    let var = Var {
                        name: QualName::unqual(n.clone()),
                        res: res.clone(),
                    };
                    let ft = match self.source_type(e)? {
                        Type::Record(ts) => ts.iter().find(|(m, _)| m == n).map(|(_, t)| t),
                        Type::Tuple(ts) => n.parse::<usize>().ok().and_then(|i| ts.get(i)),
                        _ => None,
                    };
                    let ft = ft.ok_or_else(|| internal(*s, &format!("a record without the field `{n}`")))?;
                    let saved = self.at(*s);
                    let v = self.name_value(sc, &var, ft);
                    self.restore(saved);
                    fs.push((n, v?));
                }
            }
        }
        if let Type::Tuple(_) = self.source_type(e)? {
            fs.sort_by_key(|(n, _)| n.parse::<usize>().unwrap_or(0));
            return Ok(self.tuple(fs.into_iter().map(|(_, v)| v).collect()));
        }
        let mut types = Vec::new();
        for (n, v) in &fs {
            let t = self.value_type(*v);
            types.push((self.ctx.sym(n), t));
        }
        let ctx = &*self.ctx;
        types.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
        let rt = self.ctx.intern_type(TypeKind::Record(types));
        let names = fs.iter().map(|(n, _)| self.ctx.string_attr(n)).collect();
        let names = self.ctx.intern_attr(AttrKind::Array(names));
        let vs: Vec<Value> = fs.into_iter().map(|(_, v)| v).collect();
        Ok(self.op1("source.record", &vs, rt, &[("fields", names)]))
    }

    /// The value a name stands for at source type `t`: a local value, a
    /// top-level constant, a function as a function value.
    fn name_value(&mut self, sc: &Scope<'a>, v: &Var, t: &Type) -> DResult<Value> {
        let f = self.callee(sc, v, t)?;
        let t = self.ir_type(sc, t)?;
        self.apply(f, Vec::new(), t)
    }

    /// Component `f` of a tuple (`0`, `1`, ...) or field `f` of a record.
    pub fn project(&mut self, v: Value, f: &str) -> DResult<Value> {
        match self.ctx.type_kind(self.value_type(v)).clone() {
            TypeKind::Tuple(ts) => {
                let i = f
                    .parse::<usize>()
                    .ok()
                    .filter(|&i| i < ts.len())
                    .ok_or_else(|| internal(self.span, &format!("no component `{f}`")))?;
                let a = self.ctx.int_attr(i as i64, Scalar::I64);
                Ok(self.op1("source.tuple_get", &[v], ts[i], &[("index", a)]))
            }
            TypeKind::Record(fs) => {
                let t = fs
                    .iter()
                    .find(|(k, _)| self.ctx.str(*k) == f)
                    .map(|(_, t)| *t)
                    .ok_or_else(|| internal(self.span, &format!("no field `{f}`")))?;
                let a = self.ctx.string_attr(f);
                Ok(self.op1("source.record_get", &[v], t, &[("field", a)]))
            }
            _ => Err(self.not_a_record(v, f)),
        }
    }

    /// The error for field `f` of `v`, which is not a tuple or record.
    fn not_a_record(&self, v: Value, f: &str) -> Diag {
        match tyvar_name(self.ctx, self.value_type(v)) {
            // The checker lets a function use a field of a parameter it
            // knows nothing more of (`def f p = p.x`).
            Some(a) => unsupported(self.span, &format!("a field `{f}` of a value of type parameter `{a}`")),
            None => internal(self.span, &format!("a field `{f}` of a value that is not a record")),
        }
    }

    /// `r with a.b = x`. A field replaced by a value of other sizes is
    /// made `?` first (Note [Source sizes]); a tuple component is replaced by
    /// building the tuple anew.
    fn record_update(&mut self, r: Value, path: &[Name], x: Value) -> DResult<Value> {
        let Some((f, rest)) = path.split_first() else {
            return Ok(x);
        };
        let inner = if rest.is_empty() {
            x
        } else {
            let part = self.project(r, f)?;
            self.record_update(part, rest, x)?
        };
        match self.ctx.type_kind(self.value_type(r)).clone() {
            TypeKind::Record(fs) => {
                let it = self.value_type(inner);
                let mut r = r;
                let old = fs.iter().find(|(k, _)| self.ctx.str(*k) == &**f).map(|&(_, t)| t);
                if old.is_some_and(|t| t != it && !self.same_but_sizes(t, it)) {
                    // The field changes its type (`r with a = true` of an
                    // `i32` field): a new record, of the other fields and
                    // the new one.
                    let mut types = Vec::new();
                    let mut vs = Vec::new();
                    let mut names = Vec::new();
                    for (k, t) in fs {
                        let name = self.ctx.str(k).to_string();
                        let (v, t) = if name == **f {
                            (inner, it)
                        } else {
                            (self.project(r, &name)?, t)
                        };
                        vs.push(v);
                        types.push((k, t));
                        names.push(self.ctx.string_attr(&name));
                    }
                    let rt = self.ctx.intern_type(TypeKind::Record(types));
                    let names = self.ctx.intern_attr(AttrKind::Array(names));
                    return Ok(self.op1("source.record", &vs, rt, &[("fields", names)]));
                }
                if fs.iter().any(|(k, t)| self.ctx.str(*k) == &**f && *t != it) {
                    let mut loose = Vec::new();
                    for (k, t) in fs {
                        loose.push((
                            k,
                            if self.ctx.str(k) == &**f {
                                self.existential(t)
                            } else {
                                t
                            },
                        ));
                    }
                    let lt = self.ctx.intern_type(TypeKind::Record(loose));
                    r = self.coerce(r, lt);
                }
                let rt = self.value_type(r);
                let a = self.ctx.string_attr(f);
                Ok(self.op1("source.record_update", &[r, inner], rt, &[("field", a)]))
            }
            TypeKind::Tuple(ts) => {
                let i: usize = f
                    .parse()
                    .ok()
                    .filter(|&i| i < ts.len())
                    .ok_or_else(|| internal(self.span, &format!("no component `{f}`")))?;
                let mut vs = Vec::new();
                for j in 0..ts.len() {
                    vs.push(if j == i {
                        inner
                    } else {
                        self.project(r, &j.to_string())?
                    });
                }
                Ok(self.tuple(vs))
            }
            _ => Err(self.not_a_record(r, f)),
        }
    }

    // ----- patterns ------------------------------------------------------

    /// Bind the names of a pattern to the parts of a value (projections
    /// only for the parts that bind a name).
    pub fn bind_pat(&mut self, sc: &Scope<'a>, p: &Pat, v: Value) -> DResult<Scope<'a>> {
        let binds = |q: &Pat| {
            let mut names = Vec::new();
            pat_names(q, &mut names);
            !names.is_empty()
        };
        match &p.kind {
            PatKind::Id(n) => Ok(sc.bind(n.clone(), Binding::Value(v))),
            PatKind::Wildcard => Ok(sc.clone()),
            PatKind::Tuple(ps) if ps.len() == 1 => self.bind_pat(sc, &ps[0], v),
            PatKind::Tuple(ps) => {
                let mut sc = sc.clone();
                for (i, q) in ps.iter().enumerate().filter(|(_, q)| binds(q)) {
                    let x = self.project(v, &i.to_string())?;
                    sc = self.bind_pat(&sc, q, x)?;
                }
                Ok(sc)
            }
            PatKind::Record(fs) => {
                let mut sc = sc.clone();
                for (n, _, q) in fs.iter().filter(|(_, _, q)| binds(q)) {
                    let x = self.project(v, n)?;
                    sc = self.bind_pat(&sc, q, x)?;
                }
                Ok(sc)
            }
            PatKind::Ascribe(q, _) => self.bind_pat(sc, q, v),
            PatKind::Lit { .. } | PatKind::Constr(..) => Err(unsupported(p.span, "patterns of `match`")),
        }
    }

    // ----- functions -----------------------------------------------------

    /// A `source.lambda` of source type `fty` whose parameter patterns
    /// are `params` (fewer than the IR inputs when the body is itself a
    /// function: Note [Function values]); the size parameters are read
    /// from the arguments.
    pub fn lambda(
        &mut self,
        sc: &Scope<'a>,
        params: &'a [Pat],
        size_params: &[Name],
        body: &'a Exp,
        fty: &Type,
    ) -> DResult<Value> {
        let mut inner = sc.clone();
        for n in size_params {
            inner = inner.bind(n.clone(), Binding::Unknown);
        }
        let ft = self.ir_type(&inner, fty)?;
        let (inputs, results) = self
            .function_parts(ft)
            .filter(|(i, r)| i.len() >= params.len() && r.len() == 1)
            .ok_or_else(|| internal(self.span, "a lambda whose type is not a function of its parameters"))?;
        let (r, b) = self.new_region();
        self.in_block(b, |s| {
            let mut sc2 = inner;
            let mut args = Vec::new();
            for (k, p) in params.iter().enumerate() {
                let pt =
                    p.ty.as_ref()
                        .ok_or_else(|| internal(p.span, "a parameter without a type"))?;
                let t = s.ir_type(&sc2, pt)?;
                if t != inputs[k] {
                    // `let f (n: i64) (ys: [n]i32)` inside a function with
                    // its own `n`: the function type names the outer one.
                    return Err(unsupported(
                        p.span,
                        "a local function whose parameter sizes name a parameter that shadows an outer size",
                    ));
                }
                let a = s.ctx.add_block_arg(b, t);
                sc2 = s.bind_pat(&sc2, p, a)?;
                args.push(a);
            }
            let extra: Vec<Value> = inputs[params.len()..]
                .iter()
                .map(|&t| s.ctx.add_block_arg(b, t))
                .collect();
            for n in size_params {
                let v = s.size_argument(params, &args, n)?;
                sc2 = sc2.bind(n.clone(), Binding::Value(v));
            }
            let mut v = s.exp(&sc2, body)?;
            if !extra.is_empty() {
                v = s.apply(Callee::Value(v), extra, results[0])?;
            }
            s.op("source.yield", &[v], &[], &[], Vec::new());
            Ok(())
        })?;
        let op = self.op("source.lambda", &[], &[ft], &[], vec![r]);
        Ok(self.ctx.result(op, 0))
    }

    /// `let f [n] 'a (x: t) = e`: a lambda now, or — polymorphic — kept to
    /// be emitted at each use (Note [Function values]).
    fn local_function(
        &mut self,
        sc: &Scope<'a>,
        type_params: &'a [TypeParam],
        params: &'a [Pat],
        body: &'a Exp,
    ) -> DResult<Binding<'a>> {
        let size_params: Vec<Name> = type_params
            .iter()
            .filter_map(|tp| match tp {
                TypeParam::Size { name, .. } => Some(name.clone()),
                TypeParam::Type { .. } => None,
            })
            .collect();
        let mut ptys = Vec::new();
        for p in params {
            ptys.push(
                p.ty.clone()
                    .ok_or_else(|| internal(p.span, "a parameter without a type"))?,
            );
        }
        let ty = arrow(ptys, self.source_type(body)?.clone());
        // Type parameters declared, or invented by the checker when it
        // generalised the function (`let twice f x = f (f x)`).
        let mut occurring = Vec::new();
        type_params_of(&subst_type(&ty, &sc.ts), &mut occurring);
        let polymorphic = type_params.iter().any(|tp| matches!(tp, TypeParam::Type { .. }))
            || occurring.iter().any(|p| !self.type_params.contains(p));
        if polymorphic {
            return Ok(Binding::PolyFun(Rc::new(LocalFun {
                params,
                size_params,
                body,
                ty,
                scope: sc.clone(),
            })));
        }
        Ok(Binding::Value(self.lambda(sc, params, &size_params, body, &ty)?))
    }

    /// A polymorphic local function emitted at the source type `use_ty`
    /// of one of its uses (in scope `sc`). Its own type parameters are
    /// instantiated, also to the type parameters of the enclosing
    /// top-level function.
    pub fn instantiate(&mut self, sc: &Scope<'a>, f: &LocalFun<'a>, use_ty: &Type) -> DResult<Value> {
        let use_ty = subst_type(use_ty, &sc.ts);
        let mut ts = (*f.scope.ts).clone();
        let outer = &self.type_params;
        let own = |n: &Name, a: &Type| !outer.contains(n) && *a != Type::Param(n.clone());
        match_type_where(&f.ty, &use_ty, &mut ts, &own);
        let sc = Scope {
            ts: Rc::new(ts),
            ..f.scope.clone()
        };
        self.lambda(&sc, f.params, &f.size_params, f.body, &f.ty)
    }

    // ----- loops ---------------------------------------------------------

    /// `loop pat = init for/while ... do body`: one merge value of the
    /// pattern's type; the initial value and each iteration's result are
    /// given that type (Note [Source sizes]).
    fn loop_(
        &mut self,
        sc: &Scope<'a>,
        pat: &'a Pat,
        init: &'a Exp,
        form: &'a LoopForm,
        body: &'a Exp,
    ) -> DResult<Value> {
        let x0 = self.exp(sc, init)?;
        let pt = pat
            .ty
            .as_ref()
            .ok_or_else(|| internal(pat.span, "a loop parameter without a type"))?;
        let mt = self.ir_type(sc, pt)?;
        let x0 = self.coerce(x0, mt);
        let next = |s: &mut Self, sc2: &Scope<'a>| -> DResult<Value> {
            let v = s.exp(sc2, body)?;
            Ok(s.coerce(v, mt))
        };
        let (form_name, bound, r) = match form {
            LoopForm::For(i, _, n) => {
                let nv = self.exp(sc, n)?;
                let nt = self.value_type(nv);
                let r = self.region(&[nt, mt], |s, args| {
                    let sc2 = sc.bind(i.clone(), Binding::Value(args[0]));
                    let sc2 = s.bind_pat(&sc2, pat, args[1])?;
                    Ok(vec![next(s, &sc2)?])
                })?;
                ("for", nv, r)
            }
            LoopForm::ForIn(p, xs) => {
                let xv = self.exp(sc, xs)?;
                let xt = self.value_type(xv);
                if self.dims(xt).is_empty() {
                    return Err(internal(xs.span, "a for-in loop over a value that is not an array"));
                }
                let row = self.drop_dims(xt, 1);
                let r = self.region(&[row, mt], |s, args| {
                    let sc2 = s.bind_pat(sc, p, args[0])?;
                    let sc2 = s.bind_pat(&sc2, pat, args[1])?;
                    Ok(vec![next(s, &sc2)?])
                })?;
                ("for_in", xv, r)
            }
            LoopForm::While(c) => {
                let sc0 = self.bind_pat(sc, pat, x0)?;
                let c0 = self.exp(&sc0, c)?;
                let bool_t = self.ctx.scalar(Scalar::Bool);
                let r = self.region(&[bool_t, mt], |s, args| {
                    let sc2 = s.bind_pat(sc, pat, args[1])?;
                    let v = next(s, &sc2)?;
                    let sc3 = s.bind_pat(sc, pat, v)?;
                    let cv = s.exp(&sc3, c)?;
                    Ok(vec![cv, v])
                })?;
                let f = self.ctx.string_attr("while");
                let op = self.op("source.loop", &[c0, x0], &[bool_t, mt], &[("form", f)], vec![r]);
                return Ok(self.ctx.result(op, 1));
            }
        };
        let f = self.ctx.string_attr(form_name);
        let op = self.op("source.loop", &[bound, x0], &[mt], &[("form", f)], vec![r]);
        Ok(self.ctx.result(op, 0))
    }
}

/// **Note [Source match].**
/// A `match` is a `source.match` with one region per case: the case's
/// pattern as written (`#some (x, _)`) in the `patterns` attribute, and
/// the names it binds, in order of appearance, as the region's block
/// arguments. What the pattern tests stays in its text at this level;
/// internalisation (from the typed AST) decides it on the tag and payload.
fn pattern_bindings<'p>(p: &'p Pat, out: &mut Vec<(&'p Name, Option<&'p Type>)>) {
    match &p.kind {
        PatKind::Id(n) => out.push((n, p.ty.as_ref())),
        PatKind::Wildcard | PatKind::Lit { .. } => {}
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| pattern_bindings(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| pattern_bindings(q, out)),
        PatKind::Ascribe(q, _) => pattern_bindings(q, out),
    }
}
