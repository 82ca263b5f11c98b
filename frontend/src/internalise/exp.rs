//! Expressions, patterns, control flow, and function application
//! (inlining of function values, calls of first-order functions).

use std::borrow::Cow;
use std::rc::Rc;

use futmlir_dialects::ir::{AttrKind, Dim, Scalar, Type as IrType, Value};

use super::values::{declared_type, match_type, size_positions, structure, subst_type, FunV, Head, Scope, TSubst, V};
use super::{internal, unsupported, DResult, Internaliser, ResDim, Slot};
use crate::check::{builtins, context_sizes};
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, SizeOp, Type};

/// The form of a loop, evaluated.
enum Form<'a, 'e> {
    For(Value, &'a Name),
    ForIn(V<'a>, Value, &'a Pat),
    While(&'e Exp),
}

impl<'a, 'c> Internaliser<'a, 'c> {
    /// The type of `e` with the scope's type parameters instantiated
    /// (borrowed from the tree when there are none: most expressions are
    /// outside inlined polymorphic functions).
    pub fn ty<'e>(&self, sc: &Scope<'a>, e: &'e Exp) -> DResult<Cow<'e, Type>> {
        let t =
            e.ty.as_ref()
                .ok_or_else(|| internal(e.span, "an expression without a type"))?;
        Ok(if sc.ts.is_empty() {
            Cow::Borrowed(t)
        } else {
            Cow::Owned(subst_type(t, &sc.ts))
        })
    }

    pub fn exp(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<V<'a>> {
        let saved = self.at(e.span);
        let r = self.exp_inner(sc, e);
        self.restore(saved);
        r
    }

    /// `???`: a run-time error when evaluated (like the interpreter's).
    fn hole(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<V<'a>> {
        self.failing_value(sc, e, "a typed hole (`???`) was evaluated")
    }

    /// In place of `e`: an assertion that fails with `msg`, then zeros of
    /// `e`'s type for the code after it, which the assertion keeps from
    /// running.
    pub fn failing_value(&mut self, sc: &Scope<'a>, e: &'a Exp, msg: &str) -> DResult<V<'a>> {
        let t = self.ty(sc, e)?.into_owned();
        let leaves = super::values::leaf_types(&t)
            .map_err(|w| super::unsupported(e.span, &format!("`{msg}` in place of {w}")))?;
        let no = self.const_bool(false);
        self.assert(no, msg);
        let mut zeros = Vec::new();
        for l in leaves {
            let dims = self.dims_of_sizes(sc, &l.shape);
            zeros.push(self.zeros(l.scalar, dims)?);
        }
        Ok(super::values::structure(&t, &mut zeros.into_iter()))
    }

    /// An expression of a scalar type.
    pub fn leaf(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<Value> {
        let v = self.exp(sc, e)?;
        v.as_leaf().ok_or_else(|| internal(e.span, "expected a scalar"))
    }

    fn exp_inner(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<V<'a>> {
        let span = e.span;
        match &e.kind {
            ExpKind::Hole => self.hole(sc, e),
            ExpKind::Lit(l) => {
                let t = self.ty(sc, e)?;
                self.literal(l, &t, false, span)
            }
            ExpKind::Var(v) => {
                let t = self.ty(sc, e)?;
                self.var(sc, v, Some(&t), span)
            }
            ExpKind::Neg(x) => {
                if let ExpKind::Lit(l @ (Literal::Int { .. } | Literal::Float { .. })) = &x.kind {
                    let t = self.ty(sc, e)?;
                    return self.literal(l, &t, true, span);
                }
                let v = self.leaf(sc, x)?;
                Ok(V::Leaf(self.unop("neg", v)))
            }
            ExpKind::Not(x) => {
                let v = self.leaf(sc, x)?;
                Ok(V::Leaf(self.unop("not", v)))
            }
            ExpKind::BinOp { op, lhs, rhs, .. } => {
                if let Some(Resolved::Builtin(n)) = &op.res {
                    if &**n == "&&" || &**n == "||" {
                        return self.short_circuit(sc, n == &"&&".into(), lhs, rhs);
                    }
                }
                let f = self.var(sc, op, None, span)?;
                let a = self.arg(sc, lhs)?;
                let b = self.arg(sc, rhs)?;
                let t = self.ty(sc, e)?;
                self.apply(f, vec![a, b], Some(&t), span)
            }
            ExpKind::OpSection { op, left, right, .. } => {
                let f = self.var(sc, op, None, span)?;
                match (left, right) {
                    (None, None) => Ok(f),
                    (Some(l), None) => {
                        let a = self.arg(sc, l)?;
                        self.apply(f, vec![a], None, span)
                    }
                    (None, Some(r)) => {
                        let arg = self.arg(sc, r)?;
                        Ok(fun(Head::RightSection { op: f, arg }))
                    }
                    (Some(l), Some(r)) => {
                        let a = self.arg(sc, l)?;
                        let b = self.arg(sc, r)?;
                        let t = self.ty(sc, e)?;
                        self.apply(f, vec![a, b], Some(&t), span)
                    }
                }
            }
            ExpKind::ProjectSection(path) => Ok(fun(Head::Project(path))),
            ExpKind::Apply(f, _) if is_hole(f) => {
                // A hole of function type, applied: the application fails
                // (its arguments are not needed).
                self.hole(sc, e)
            }
            ExpKind::Apply(f, args) => {
                let fv = self.exp(sc, f)?;
                let mut avs = Vec::new();
                for a in args {
                    let (v, t) = self.arg(sc, a)?;
                    avs.push((v, self.pin_sizes(sc, &t)));
                }
                let t = self.ty(sc, e)?;
                let t = self.pin_sizes(sc, &t);
                self.apply(fv, avs, Some(&t), span)
            }
            ExpKind::Lambda { params, body, .. } => Ok(fun(Head::Closure {
                params,
                body,
                scope: sc.clone(),
                size_params: Vec::new(),
            })),
            ExpKind::Tuple(es) if es.len() == 1 => self.exp(sc, &es[0]),
            ExpKind::Tuple(es) => {
                let mut vs = Vec::new();
                for x in es {
                    vs.push(self.exp(sc, x)?);
                }
                Ok(V::Tuple(vs))
            }
            ExpKind::Record(fields) => {
                let mut fs: Vec<(Name, V<'a>)> = Vec::new();
                for f in fields {
                    match f {
                        RecordField::Explicit(n, _, x) => fs.push((n.clone(), self.exp(sc, x)?)),
                        RecordField::Implicit(n, s, res) => {
                            let var = Var {
                                name: QualName::unqual(n.clone()),
                                res: res.clone(),
                            };
                            fs.push((n.clone(), self.var(sc, &var, None, *s)?));
                        }
                    }
                }
                if let Type::Tuple(_) = *self.ty(sc, e)? {
                    fs.sort_by_key(|(n, _)| n.parse::<usize>().unwrap_or(0));
                    return Ok(V::Tuple(fs.into_iter().map(|(_, v)| v).collect()));
                }
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(V::Record(fs))
            }
            ExpKind::ArrayLit(es) => {
                let t = self.ty(sc, e)?;
                self.array_lit(sc, es, &t)
            }
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => self.range(sc, start, second.as_deref(), end, *kind),
            ExpKind::Project(x, f) => {
                let v = self.exp(sc, x)?;
                project(&v, f, span)
            }
            ExpKind::Index(a, idx) => {
                let v = self.exp(sc, a)?;
                self.index(sc, &v, idx)
            }
            ExpKind::Coerce(x, _) => {
                let v = self.exp(sc, x)?;
                let t = self.ty(sc, e)?;
                self.coerce_to(sc, v, &t)
            }
            ExpKind::Ascript(x, _) => self.exp(sc, x),
            ExpKind::If { cond, then, els } => {
                let c = self.leaf(sc, cond)?;
                self.if_(c, |s| s.exp(sc, then), |s| s.exp(sc, els), span)
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
                let size_params = type_params
                    .iter()
                    .filter_map(|tp| match tp {
                        TypeParam::Size { name, .. } => Some(name.clone()),
                        TypeParam::Type { .. } => None,
                    })
                    .collect();
                let f = fun(Head::Closure {
                    params,
                    body: value,
                    scope: sc.clone(),
                    size_params,
                });
                self.exp(&sc.bind(name.clone(), f), body)
            }
            ExpKind::LetWith {
                name,
                name_span,
                index,
                value,
                body,
            } => {
                let arr = sc
                    .env
                    .lookup(name)
                    .cloned()
                    .ok_or_else(|| internal(*name_span, "an unbound variable"))?;
                let v = self.exp(sc, value)?;
                let new = self.update(sc, &arr, index, v)?;
                self.exp(&sc.bind(name.clone(), new), body)
            }
            ExpKind::Update { array, index, value } => {
                let arr = self.exp(sc, array)?;
                let v = self.exp(sc, value)?;
                self.update(sc, &arr, index, v)
            }
            ExpKind::RecordUpdate { record, path, value } => {
                let r = self.exp(sc, record)?;
                let v = self.exp(sc, value)?;
                replace(&r, path, v, span)
            }
            ExpKind::Loop { pat, init, form, body } => {
                let init = init
                    .as_ref()
                    .ok_or_else(|| internal(span, "a loop without an initial value"))?;
                self.loop_(sc, pat, init, form, body)
            }
            // `#[unsafe]` removes the assertions inside it too (Futhark's
            // compilers do; its interpreter, like ours, keeps them).
            ExpKind::Assert(_, x) if self.unsafe_ => self.exp(sc, x),
            ExpKind::Assert(c, x) => {
                let cv = self.leaf(sc, c)?;
                let saved = self.at(c.span);
                let text = self.sm.snippet(c.span).to_string();
                self.assert(cv, &format!("Assertion is false: {text}"));
                self.restore(saved);
                self.exp(sc, x)
            }
            ExpKind::OpenIn(_, x) => self.exp(sc, x),
            ExpKind::Attr(a, x) => {
                if &*a.name == "unsafe" && !self.safe {
                    let saved = std::mem::replace(&mut self.unsafe_, true);
                    let r = self.exp(sc, x);
                    self.unsafe_ = saved;
                    r
                } else if &*a.name == "noinline" {
                    // See Note [Calls kept as calls].
                    self.noinline.insert(x.span);
                    self.exp(sc, x)
                } else if &*a.name == "unroll" && matches!(x.kind, ExpKind::Loop { .. }) {
                    self.unroll_next = true;
                    self.exp(sc, x)
                } else {
                    self.exp(sc, x)
                }
            }
            ExpKind::Constr(c, args) => {
                let t = self.ty(sc, e)?;
                self.constr(sc, c, args, &t, span)
            }
            ExpKind::Match(x, cases) => self.match_(sc, x, cases, span),
        }
    }

    /// An argument of an application: its value and type.
    fn arg(&mut self, sc: &Scope<'a>, e: &'a Exp) -> DResult<(V<'a>, Type)> {
        let v = self.exp(sc, e)?;
        Ok((v, self.ty(sc, e)?.into_owned()))
    }

    pub(crate) fn literal(&mut self, l: &Literal, t: &Type, neg: bool, span: Span) -> DResult<V<'a>> {
        let p = match t {
            Type::Prim(p) => Some(*p),
            _ => None,
        };
        let v = match (l, p) {
            (Literal::Int { value, .. }, Some(p)) if p.is_float() => {
                let x = *value as f64;
                self.const_float(if neg { -x } else { x }, super::values::scalar(p))
            }
            (Literal::Int { value, .. }, Some(p)) => {
                let x = *value as i64;
                self.const_int(if neg { x.wrapping_neg() } else { x }, super::values::scalar(p))
            }
            (Literal::Float { value, .. }, Some(p)) => {
                self.const_float(if neg { -value } else { *value }, super::values::scalar(p))
            }
            (Literal::Bool(b), _) => self.const_bool(*b),
            (Literal::String(bytes), _) => {
                let elems = bytes.iter().map(|&b| self.ctx.int_attr(b as i64, Scalar::U8)).collect();
                self.const_array(elems, Scalar::U8)
            }
            _ => return Err(internal(span, "a literal of a non-primitive type")),
        };
        Ok(V::Leaf(v))
    }

    /// A constant array of scalars (`soac.constant` with an array value).
    pub fn const_array(&mut self, elems: Vec<futmlir_dialects::ir::Attr>, s: Scalar) -> Value {
        let n = elems.len() as u64;
        let a = self.ctx.intern_attr(AttrKind::Array(elems));
        let t = self.array_type(s, vec![Dim::Const(n)]);
        self.op1("soac.constant", &[], t, &[("value", a)])
    }

    /// The value a name refers to; `ty` is its type at this use (needed
    /// for polymorphic constants and built-in constants).
    /// The value of top-level constant `id` (monomorphic, no
    /// parameters), computed once, at the start of the function.
    fn global_constant(&mut self, id: GlobalId) -> DResult<V<'a>> {
        if let Some(v) = self.constants.get(&id) {
            return Ok(v.clone());
        }
        let vb = self.valbind(id);
        let saved = std::mem::replace(&mut self.block, self.entry_block);
        let saved_facts = std::mem::take(&mut self.facts);
        let saved_unsafe = std::mem::replace(&mut self.unsafe_, false);
        let v = self.exp(&Scope::default(), &vb.body);
        self.block = saved;
        self.facts = saved_facts;
        self.unsafe_ = saved_unsafe;
        let v = v?;
        self.constants.insert(id, v.clone());
        Ok(v)
    }

    pub fn var(&mut self, sc: &Scope<'a>, v: &Var, ty: Option<&Type>, span: Span) -> DResult<V<'a>> {
        match &v.res {
            Some(Resolved::Local) => {
                let f = sc
                    .env
                    .lookup(&v.name.name)
                    .cloned()
                    .ok_or_else(|| internal(span, &format!("unbound variable `{}`", v.name)))?;
                match &f {
                    V::Fun(fv) if matches!(&fv.head, Head::Closure { size_params, .. } if !size_params.is_empty()) => {
                        self.closure_with_context_sizes(sc, f, ty)
                    }
                    _ => Ok(f),
                }
            }
            Some(Resolved::Global(id)) => {
                let vb = self.valbind(*id);
                let sizes = self.context_sizes(sc, &vb.type_params, &vb.params, &vb.body, ty);
                if !sizes.is_empty() {
                    // See Note [Size parameters from the context] in
                    // `check::context_sizes`.
                    let mut scope = Scope::default();
                    if let (true, Some(bt), Some(t)) = (vb.params.is_empty(), &vb.body.ty, ty) {
                        let mut ts = TSubst::new();
                        match_type(bt, t, &mut ts);
                        scope.ts = Rc::new(ts);
                    }
                    for (n, d) in &sizes {
                        scope = scope.bind(n.clone(), V::Leaf(*d));
                    }
                    if vb.params.is_empty() {
                        return self.exp(&scope, &vb.body);
                    }
                    let size_params = vb
                        .type_params
                        .iter()
                        .filter_map(|tp| match tp {
                            TypeParam::Size { name, .. } if !sizes.iter().any(|(n, _)| n == name) => Some(name.clone()),
                            _ => None,
                        })
                        .collect();
                    return Ok(fun(Head::Closure {
                        params: &vb.params,
                        body: &vb.body,
                        scope,
                        size_params,
                    }));
                }
                let mono = vb.body.ty.as_ref().is_some_and(|t| !super::values::has_param(t));
                if vb.params.is_empty() && mono {
                    return self.global_constant(*id);
                }
                if vb.params.is_empty() {
                    let mut ts = TSubst::new();
                    if let (Some(bt), Some(t)) = (&vb.body.ty, ty) {
                        match_type(bt, t, &mut ts);
                    }
                    let sc = Scope {
                        env: Default::default(),
                        ts: Rc::new(ts),
                    };
                    return self.exp(&sc, &vb.body);
                }
                Ok(fun(Head::Global(*id)))
            }
            Some(Resolved::Builtin(n)) => match self.builtin_arity(n) {
                Some(0) => self.call_builtin(n, Vec::new(), ty, span),
                Some(_) if builtins::implicit_size_count(n) > 0 => {
                    // `unflatten`, `split`: applied to their implicit sizes,
                    // from the type of this use.
                    let t = ty.ok_or_else(|| internal(span, &format!("`{n}` without a type")))?;
                    let mut args = Vec::new();
                    for d in builtins::implicit_sizes(n, t) {
                        let v = match self.size_value(sc, &d) {
                            Some(v) => v,
                            // See Note [Sizes derived from the argument].
                            None if d == Size::Unknown => self.const_i64(builtins::DERIVED_SIZE),
                            None => return Err(internal(span, &format!("the size {d} of `{n}` has no value"))),
                        };
                        args.push((V::Leaf(v), Type::Prim(PrimType::I64)));
                    }
                    Ok(V::Fun(Rc::new(FunV {
                        head: Head::Builtin(n.clone()),
                        args,
                    })))
                }
                Some(_) => Ok(fun(Head::Builtin(n.clone()))),
                None => Err(unsupported(span, &format!("the built-in `{n}`"))),
            },
            None => Err(internal(span, "an unresolved name")),
        }
    }

    /// `a && b`, `a || b`: `b` is evaluated only when needed.
    fn short_circuit(&mut self, sc: &Scope<'a>, and: bool, lhs: &'a Exp, rhs: &'a Exp) -> DResult<V<'a>> {
        let a = self.leaf(sc, lhs)?;
        if matches!(rhs.kind, ExpKind::Var(_) | ExpKind::Lit(_)) {
            let b = self.leaf(sc, rhs)?;
            return Ok(V::Leaf(self.binop(if and { "and" } else { "or" }, a, b)));
        }
        let span = rhs.span;
        let other = |s: &mut Self| s.exp(sc, rhs);
        let konst = move |s: &mut Self| Ok(V::Leaf(s.const_bool(!and)));
        if and {
            self.if_(a, other, konst, span)
        } else {
            self.if_(a, konst, other, span)
        }
    }

    // ----- patterns ----------------------------------------------------------

    /// Bind the names of a pattern to the parts of a value.
    pub fn bind_pat(&mut self, sc: &Scope<'a>, p: &Pat, v: V<'a>) -> DResult<Scope<'a>> {
        match &p.kind {
            PatKind::Id(n) => Ok(sc.bind(n.clone(), v)),
            PatKind::Wildcard => Ok(sc.clone()),
            PatKind::Tuple(ps) if ps.len() == 1 => self.bind_pat(sc, &ps[0], v),
            PatKind::Tuple(ps) => match v {
                V::Tuple(vs) if vs.len() == ps.len() => {
                    let mut sc = sc.clone();
                    for (q, x) in ps.iter().zip(vs) {
                        sc = self.bind_pat(&sc, q, x)?;
                    }
                    Ok(sc)
                }
                _ => Err(internal(p.span, "a tuple pattern for a value that is not a tuple")),
            },
            PatKind::Record(fs) => {
                let mut sc = sc.clone();
                for (n, s, q) in fs {
                    let x = project(&v, n, *s)?;
                    sc = self.bind_pat(&sc, q, x)?;
                }
                Ok(sc)
            }
            PatKind::Ascribe(q, _) => self.bind_pat(sc, q, v),
            // Tested by `match` before the case is taken.
            PatKind::Lit { .. } => Ok(sc.clone()),
            PatKind::Constr(c, ps) => self.bind_constr(sc, p, ps, c, v),
        }
    }

    // ----- application -------------------------------------------------------

    /// Apply a function value to arguments (with their types). `ret` is
    /// the type of the application, when known.
    pub fn apply(&mut self, f: V<'a>, args: Vec<(V<'a>, Type)>, ret: Option<&Type>, span: Span) -> DResult<V<'a>> {
        let V::Fun(fv) = f else {
            return Err(internal(span, "an application of a value that is not a function"));
        };
        // A function value applied for the first time (the usual case)
        // has no arguments to copy.
        let mut all = if fv.args.is_empty() {
            args
        } else {
            let mut all = fv.args.clone();
            all.extend(args);
            all
        };
        let arity = self.arity(&fv.head);
        if all.len() < arity {
            return Ok(V::Fun(Rc::new(FunV {
                head: fv.head.clone(),
                args: all,
            })));
        }
        let rest = all.split_off(arity);
        let r = self.call(&fv.head, all, if rest.is_empty() { ret } else { None }, span)?;
        if rest.is_empty() {
            Ok(r)
        } else {
            self.apply(r, rest, ret, span)
        }
    }

    fn arity(&mut self, h: &Head<'a>) -> usize {
        match h {
            Head::Closure { params, .. } => params.len(),
            Head::Global(id) => self.valbind(*id).params.len(),
            Head::Builtin(n) => self.builtin_arity(n).unwrap_or(0),
            Head::RightSection { .. } | Head::Project(_) => 1,
        }
    }

    /// [`builtins::arity`], computed once per name (it searches the
    /// tables of built-ins and reads the signature).
    /// Looked up before inserting: `entry` would clone the name each time.
    fn builtin_arity(&mut self, n: &Name) -> Option<usize> {
        if let Some(&a) = self.arities.get(n) {
            return a;
        }
        let a = builtins::arity(n);
        self.arities.insert(n.clone(), a);
        a
    }

    fn call(&mut self, h: &Head<'a>, args: Vec<(V<'a>, Type)>, ret: Option<&Type>, span: Span) -> DResult<V<'a>> {
        match h {
            Head::Closure {
                params,
                body,
                scope,
                size_params,
            } => self.inline(params, body, scope, size_params, args, ret),
            Head::Global(id) => {
                if let Some(sig) = self.first_order(*id) {
                    return self.apply_func(*id, sig, args, span, None);
                }
                let vb = self.valbind(*id);
                if vb.recursive {
                    return self.apply_specialised(*id, args, span);
                }
                let vb = self.valbind(*id);
                let sizes: Vec<Name> = vb
                    .type_params
                    .iter()
                    .filter_map(|tp| match tp {
                        TypeParam::Size { name, .. } => Some(name.clone()),
                        TypeParam::Type { .. } => None,
                    })
                    .collect();
                self.inline(&vb.params, &vb.body, &Scope::default(), &sizes, args, ret)
            }
            Head::Builtin(n) => self.call_builtin(n, args, ret, span),
            Head::RightSection { op, arg } => {
                let mut args = args;
                args.push(arg.clone());
                self.apply(op.clone(), args, ret, span)
            }
            Head::Project(path) => {
                let mut v = args.into_iter().next().map(|(v, _)| v).unwrap_or_else(V::unit);
                for f in path.iter() {
                    v = project(&v, f, span)?;
                }
                Ok(v)
            }
        }
    }

    /// The values, at a use of type `ty` in scope `sc`, of the size
    /// parameters of a function that its arguments do not determine (See
    /// Note [Size parameters from the context] in `check::context_sizes`);
    /// those whose value the use does not give are left out.
    fn context_sizes(
        &mut self,
        sc: &Scope<'a>,
        type_params: &[TypeParam],
        params: &[Pat],
        body: &Exp,
        ty: Option<&Type>,
    ) -> Vec<(Name, Value)> {
        let Some(actual) = ty else { return Vec::new() };
        let mut out = Vec::new();
        for n in context_sizes::context_size_params(type_params, params) {
            let Some(d) = context_sizes::size_at_use(n, params, body.ty.as_ref(), actual) else {
                continue;
            };
            if let Some(v) = self.size_value(sc, &d) {
                out.push((n.clone(), v));
            }
        }
        out
    }

    /// A local function with size parameters, at a use of type `ty` in
    /// scope `sc`: the sizes its arguments do not determine bound from the
    /// use (See Note [Size parameters from the context] in
    /// `check::context_sizes`).
    fn closure_with_context_sizes(&mut self, sc: &Scope<'a>, f: V<'a>, ty: Option<&Type>) -> DResult<V<'a>> {
        let V::Fun(fv) = &f else { return Ok(f) };
        let Head::Closure {
            params,
            body,
            scope,
            size_params,
        } = &fv.head
        else {
            return Ok(f);
        };
        let type_params: Vec<TypeParam> = size_params
            .iter()
            .map(|n| TypeParam::Size {
                name: n.clone(),
                span: Span::default(),
            })
            .collect();
        let sizes = self.context_sizes(sc, &type_params, params, body, ty);
        if sizes.is_empty() {
            return Ok(f);
        }
        let mut scope = scope.clone();
        for (n, d) in &sizes {
            scope = scope.bind(n.clone(), V::Leaf(*d));
        }
        Ok(V::Fun(Rc::new(FunV {
            head: Head::Closure {
                params,
                body,
                scope,
                size_params: size_params
                    .iter()
                    .filter(|n| !sizes.iter().any(|(m, _)| m == *n))
                    .cloned()
                    .collect(),
            },
            args: fv.args.clone(),
        })))
    }

    /// Inline a function body: parameters bound to the arguments, type
    /// parameters instantiated from the argument types, size parameters
    /// bound to the arguments' sizes.
    fn inline(
        &mut self,
        params: &'a [Pat],
        body: &'a Exp,
        scope: &Scope<'a>,
        size_params: &[Name],
        args: Vec<(V<'a>, Type)>,
        ret: Option<&Type>,
    ) -> DResult<V<'a>> {
        let mut ts = (*scope.ts).clone();
        let before = ts.len();
        for (p, (_, t)) in params.iter().zip(&args) {
            if let Some(pt) = &p.ty {
                match_type(pt, t, &mut ts);
            }
        }
        if let (Some(bt), Some(rt)) = (&body.ty, ret) {
            match_type(bt, rt, &mut ts);
        }
        let ts = if ts.len() == before {
            scope.ts.clone()
        } else {
            Rc::new(ts)
        };
        let mut sc = Scope {
            env: scope.env.clone(),
            ts,
        };
        if !size_params.is_empty() {
            let mut bound: Vec<(Name, Value)> = Vec::new();
            for (p, (v, _)) in params.iter().zip(&args) {
                let (Some(pt), Some(leaves)) = (declared_type(p), v.leaves()) else {
                    continue;
                };
                let pt = subst_type(&pt, &sc.ts);
                for (s, i, j) in size_positions(&pt) {
                    let Size::Var(n) = s else { continue };
                    if !size_params.contains(&n) || i >= leaves.len() || j >= self.rank(leaves[i]) {
                        continue;
                    }
                    let d = self.size(leaves[i], j)?;
                    match bound.iter().find(|(m, _)| *m == n) {
                        None => bound.push((n, d)),
                        Some(&(_, have)) => {
                            if !self.same_dim(Dim::Value(have), Dim::Value(d)) {
                                let c = self.cmpop("eq", have, d);
                                self.assert(c, &format!("the arguments do not agree on the size `{n}`"));
                            }
                        }
                    }
                }
            }
            for n in size_params {
                if !bound.iter().any(|(m, _)| m == n) {
                    return Err(unsupported(
                        self.span,
                        &format!("a call that does not determine the size parameter `{n}`"),
                    ));
                }
            }
            for (n, d) in bound {
                sc = sc.bind(n, V::Leaf(d));
            }
        }
        self.check_same_type_args(params, &args)?;
        for (p, (v, _)) in params.iter().zip(args) {
            sc = self.bind_pat(&sc, p, v)?;
        }
        self.exp(&sc, body)
    }

    /// Arguments passed for parameters of one type parameter (`def pair
    /// 't (x: t) (y: t)`) have one type, shapes included: the checker
    /// cannot know arrays' sizes when they are not tracked (`[]i32`), so
    /// they are compared at run time.
    fn check_same_type_args(&mut self, params: &'a [Pat], args: &[(V<'a>, Type)]) -> DResult<()> {
        let mut seen: Vec<(Name, Vec<Value>)> = Vec::new();
        for (p, (v, _)) in params.iter().zip(args) {
            let (Some(Type::Param(t)), Some(leaves)) = (declared_type(p), v.leaves()) else {
                continue;
            };
            let Some((_, first)) = seen.iter().find(|(u, _)| *u == t) else {
                seen.push((t, leaves));
                continue;
            };
            let first = first.clone();
            for (&a, &b) in first.iter().zip(&leaves) {
                let rank = self.rank(a).min(self.rank(b));
                for d in 0..rank {
                    let (x, y) = (self.size(a, d)?, self.size(b, d)?);
                    if !self.same_dim(Dim::Value(x), Dim::Value(y)) {
                        let c = self.cmpop("eq", x, y);
                        self.assert_with(
                            c,
                            &format!("the arguments of type `{t}` differ in shape: size {{0}} and size {{1}}"),
                            &[x, y],
                        );
                    }
                }
            }
        }
        Ok(())
    }

    /// A call of a recursive function that takes functions: a call of its
    /// specialisation to the function arguments (Note [Specialised
    /// recursive functions]).
    fn apply_specialised(&mut self, id: GlobalId, args: Vec<(V<'a>, Type)>, span: Span) -> DResult<V<'a>> {
        let vb = self.valbind(id);
        let refuse = |why: &str| {
            crate::diag::Diag::new(
                span,
                format!(
                    "the compiled backends do not support recursive higher-order functions (`{}` calls itself and takes a function) {why} yet",
                    vb.name
                ),
            )
        };
        if vb.type_params.iter().any(|tp| matches!(tp, TypeParam::Type { .. })) {
            return Err(refuse("with type parameters"));
        }
        let mut key = String::new();
        let mut fixed = Vec::new();
        for (p, (v, _)) in vb.params.iter().zip(&args) {
            if p.ty.as_ref().is_some_and(|t| t.has_function()) {
                let k = static_key(v).ok_or_else(|| refuse("given a function that captures local values"))?;
                key.push_str(&k);
                key.push(';');
                fixed.push(Some(v.clone()));
            } else {
                fixed.push(None);
            }
        }
        let is_fixed: Vec<bool> = fixed.iter().map(Option::is_some).collect();
        let ok = |t: &Option<crate::types::Type>| {
            t.as_ref()
                .is_some_and(|t| !t.has_function() && !super::values::has_param(t))
        };
        let first_order_rest = vb.params.iter().zip(&is_fixed).all(|(p, &f)| f || ok(&p.ty)) && ok(&vb.body.ty);
        if !first_order_rest {
            return Err(refuse("with other parameters or results that are not first-order"));
        }
        let sig = self.signature_fixing(vb, &is_fixed)?;
        self.apply_func(id, sig, args, span, Some((key, fixed)))
    }

    /// A call of a first-order function (Note [Functions]), or of a
    /// specialisation (`spec`).
    fn apply_func(
        &mut self,
        id: GlobalId,
        sig: super::Sig,
        args: Vec<(V<'a>, Type)>,
        span: Span,
        spec: Option<(String, Vec<Option<V<'a>>>)>,
    ) -> DResult<V<'a>> {
        let vb = self.valbind(id);
        let is_fixed: Vec<bool> = spec
            .as_ref()
            .map(|(_, f)| f.iter().map(Option::is_some).collect())
            .unwrap_or_default();
        let (sym, known) = self.func_fixing(id, spec)?;
        let mut leaves: Vec<Vec<Value>> = Vec::new();
        for (k, ((v, _), ls)) in args.iter().zip(&sig.params).enumerate() {
            if is_fixed.get(k).copied().unwrap_or(false) {
                leaves.push(Vec::new());
                continue;
            }
            let l = v
                .leaves()
                .ok_or_else(|| internal(span, "a function value passed to a first-order function"))?;
            if l.len() != ls.len() {
                return Err(internal(span, "an argument that does not have the parameter's type"));
            }
            leaves.push(l);
        }
        let mut sizes: Vec<Option<Value>> = vec![None; sig.sizes.len()];
        for (k, ls) in sig.params.iter().enumerate() {
            for (i, l) in ls.iter().enumerate() {
                for (j, slot) in l.dims.iter().enumerate() {
                    if let Slot::Size(x) = slot {
                        if sizes[*x].is_none() {
                            sizes[*x] = Some(self.size(leaves[k][i], j)?);
                        }
                    }
                }
            }
        }
        let mut scratch = Scope::default();
        for (p, (v, _)) in vb.params.iter().zip(&args) {
            scratch = self.bind_pat(&scratch, p, v.clone())?;
        }
        // A size no leaf gives (the parameter is an array of empty tuples:
        // `[n]()`) is the one the call's argument types give, when they
        // name it in every scope (Note [Sizes pinned at a call]).
        for (x, name) in sig.sizes.iter().enumerate() {
            let (None, Some(name)) = (sizes[x], name) else { continue };
            for (p, (_, t)) in vb.params.iter().zip(&args) {
                let Some(pt) = declared_type(p) else { continue };
                if let Some(d) = size_at(&pt, t, name).filter(super::values::scope_free) {
                    sizes[x] = self.size_value(&Scope::default(), &d);
                    break;
                }
            }
        }
        let mut operands: Vec<Value> = Vec::new();
        for (s, name) in sizes.iter().zip(&sig.sizes) {
            operands.push(s.ok_or_else(|| {
                unsupported(
                    span,
                    &format!(
                        "a call whose size parameter `{}` of `{}` only an array of empty tuples gives, of a size \
                         the call's types do not name (arrays of empty tuples carry no size at run time yet)",
                        name.as_deref().unwrap_or("[]"),
                        vb.name
                    ),
                )
            })?);
        }
        let msg = format!(
            "the arguments of `{}` do not have the sizes its parameters require",
            vb.name
        );
        for (k, ls) in sig.params.iter().enumerate() {
            for (i, l) in ls.iter().enumerate() {
                let mut want = Vec::new();
                for slot in &l.dims {
                    want.push(match slot {
                        Slot::Const(c) => Dim::Const(*c),
                        Slot::Size(x) => Dim::Value(sizes[*x].expect("every size was found")),
                        Slot::Param(n) => match scratch.env.lookup(n).and_then(|v| v.as_leaf()) {
                            Some(v) => Dim::Value(v),
                            None => Dim::Unknown,
                        },
                    });
                }
                operands.push(self.coerce(leaves[k][i], &want, &msg)?);
            }
        }
        // The result sizes that are parameters are the arguments.
        let mut rts = Vec::new();
        for (lt, dims) in leaf_types_of(vb, span)?.into_iter().zip(known.iter()) {
            let d = dims
                .iter()
                .map(|d| match *d {
                    ResDim::Arg(k) => Dim::Value(operands[k]),
                    ResDim::Const(c) => Dim::Const(c),
                    ResDim::Unknown => Dim::Unknown,
                })
                .collect();
            rts.push(self.array_type(lt, d));
        }
        let callee = self.ctx.sym(&sym);
        let callee = self.ctx.intern_attr(AttrKind::SymbolRef(callee));
        let mut attrs = vec![("callee", callee)];
        if self.noinline.contains(&span) {
            attrs.push(("noinline", self.ctx.intern_attr(AttrKind::Unit)));
        }
        let op = self.op("soac.apply", &operands, &rts, &attrs, Vec::new());
        let mut res = Vec::new();
        for r in self.results(op) {
            res.push(self.refine(r)?);
        }
        let t = vb.body.ty.as_ref().expect("first_order checked the type");
        Ok(structure(t, &mut res.into_iter()))
    }

    // ----- control flow ------------------------------------------------------

    /// `if c then ... else ...`: results whose sizes differ between the
    /// branches (or are computed inside them) get existential sizes, named
    /// after the `soac.if`.
    pub fn if_(
        &mut self,
        c: Value,
        then: impl FnOnce(&mut Self) -> DResult<V<'a>>,
        els: impl FnOnce(&mut Self) -> DResult<V<'a>>,
        span: Span,
    ) -> DResult<V<'a>> {
        let branch = |v: DResult<V<'a>>| {
            let v = v?;
            let ls = v
                .leaves()
                .ok_or_else(|| unsupported(span, "`if` expressions that return functions"))?;
            Ok((ls, v))
        };
        let (rt, yt, vt) = self.region(&[], |s, _| {
            let v = then(s);
            branch(v)
        })?;
        let (re, ye, _) = self.region(&[], |s, _| {
            let v = els(s);
            branch(v)
        })?;
        if yt.len() != ye.len() {
            return Err(internal(span, "branches of different types"));
        }
        let mut tys = Vec::new();
        for (a, b) in yt.iter().zip(&ye) {
            let ta = self.ctx.value_type(*a);
            let ta = self.hoist(ta, &[rt]);
            let tb = self.ctx.value_type(*b);
            let tb = self.hoist(tb, &[re]);
            if ta == tb {
                tys.push(ta);
                continue;
            }
            let (da, db) = (self.dims_of_type(ta), self.dims_of_type(tb));
            let dims = da
                .iter()
                .zip(&db)
                .map(|(&x, &y)| if self.same_dim(x, y) { x } else { Dim::Unknown })
                .collect();
            tys.push(self.with_dims(ta, dims));
        }
        let op = self.op("soac.if", &[c], &tys, &[], vec![rt, re]);
        let mut res = Vec::new();
        for r in self.results(op) {
            res.push(self.refine(r)?);
        }
        Ok(vt.with_leaves(res))
    }

    fn loop_(
        &mut self,
        sc: &Scope<'a>,
        pat: &'a Pat,
        init: &'a Exp,
        form: &'a LoopForm,
        body: &'a Exp,
    ) -> DResult<V<'a>> {
        // Taken before the parts, whose own loops are not the attributed one.
        let unroll = std::mem::take(&mut self.unroll_next);
        let span = body.span;
        let init_v = self.exp(sc, init)?;
        let inits = init_v
            .leaves()
            .ok_or_else(|| unsupported(pat.span, "loops with function-typed parameters"))?;
        let form = match form {
            LoopForm::For(i, _, bound) => Form::For(self.leaf(sc, bound)?, i),
            LoopForm::ForIn(p, xs) => {
                let xv = self.exp(sc, xs)?;
                let ls = self.array_leaves(&xv, xs.span)?;
                let n = self.size(ls[0], 0)?;
                Form::ForIn(xv, n, p)
            }
            LoopForm::While(c) => Form::While(c),
        };
        // The condition of a while loop on the initial values.
        let cond0 = match &form {
            Form::While(c) => {
                let sc2 = self.bind_pat(sc, pat, init_v.clone())?;
                Some(self.leaf(&sc2, c)?)
            }
            _ => None,
        };
        let bool_t = self.ctx.scalar(Scalar::Bool);
        let i64_t = self.ctx.scalar(Scalar::I64);
        // Merge parameters keep the sizes of their initial values unless the
        // body changes them; those get existential sizes (named in the body
        // and after the loop).
        let mut generic = vec![false; inits.len()];
        loop {
            let mut merge_tys = Vec::new();
            for (&v, &g) in inits.iter().zip(&generic) {
                let t = self.ctx.value_type(v);
                merge_tys.push(if g {
                    let d = vec![Dim::Unknown; self.rank(v)];
                    self.with_dims(t, d)
                } else {
                    t
                });
            }
            let mut args: Vec<IrType> = match &form {
                Form::For(n, _) => vec![self.ctx.value_type(*n)],
                Form::ForIn(..) => vec![i64_t],
                Form::While(_) => vec![bool_t],
            };
            args.extend(merge_tys.iter().copied());
            let (r, ys, ()) = self.region(&args, |s, bargs| {
                let idx = bargs[0];
                let mut merge = Vec::new();
                for &m in &bargs[1..] {
                    merge.push(s.refine(m)?);
                }
                let mut sc2 = s.bind_pat(sc, pat, init_v.with_leaves(merge))?;
                match &form {
                    Form::For(n, i) => {
                        sc2 = sc2.bind((*i).clone(), V::Leaf(idx));
                        s.facts.insert((idx, *n));
                    }
                    Form::ForIn(xv, _, p) => {
                        let mut row = Vec::new();
                        for l in s.array_leaves(xv, span)? {
                            let t = s.ctx.value_type(l);
                            let rt = s.row_type(t);
                            row.push(s.op1("soac.index", &[l, idx], rt, &[]));
                        }
                        sc2 = s.bind_pat(&sc2, p, xv.with_leaves(row))?;
                    }
                    Form::While(_) => {}
                }
                let bv = s.exp(&sc2, body)?;
                let mut ls = bv
                    .leaves()
                    .ok_or_else(|| unsupported(span, "loops with function-typed parameters"))?;
                // The loop verifier compares yields with the initial values:
                // a yield of a changed size forgets it.
                for (k, l) in ls.iter_mut().enumerate() {
                    // A yield whose sizes are the merge parameter's, only
                    // named differently (a constant size as a value), is
                    // given the parameter's type.
                    let mt = merge_tys.get(k).copied();
                    if let Some(mt) = mt.filter(|&mt| generic.get(k) == Some(&false) && s.same_sizes(*l, mt)) {
                        let d = s.dims_of_type(mt);
                        let mut ops = vec![*l];
                        for x in d {
                            ops.push(s.dim_value(x)?);
                        }
                        *l = s.op1("soac.reshape", &ops, mt, &[]);
                    }
                    if generic.get(k) == Some(&true) {
                        let d = s.dims(*l);
                        let ds: Vec<Value> = (0..d.len()).map(|j| s.size(*l, j)).collect::<DResult<_>>()?;
                        let t = s.ctx.value_type(*l);
                        let rt = s.with_dims(t, vec![Dim::Unknown; d.len()]);
                        let mut ops = vec![*l];
                        ops.extend(ds);
                        *l = s.op1("soac.reshape", &ops, rt, &[]);
                    }
                }
                if let Form::While(c) = &form {
                    let sc3 = s.bind_pat(sc, pat, bv)?;
                    let cv = s.leaf(&sc3, c)?;
                    ls.insert(0, cv);
                }
                Ok((ls, ()))
            })?;
            let off = usize::from(matches!(form, Form::While(_)));
            let mut changed = false;
            for k in 0..inits.len() {
                if !generic[k] && self.ctx.value_type(ys[off + k]) != merge_tys[k] {
                    generic[k] = true;
                    changed = true;
                }
            }
            let form_name = match form {
                Form::While(_) => "while",
                _ => "for",
            };
            let form_attr = self.ctx.string_attr(form_name);
            let mut operands = match &form {
                Form::For(n, _) => vec![*n],
                Form::ForIn(_, n, _) => vec![*n],
                Form::While(_) => vec![cond0.expect("computed above")],
            };
            operands.extend(inits.iter().copied());
            let mut rtys = if off == 1 { vec![bool_t] } else { Vec::new() };
            rtys.extend(merge_tys.iter().copied());
            if changed {
                let name = self.ctx.sym("soac.loop");
                let attrs = [(self.ctx.sym("form"), form_attr)];
                let op = self.ctx.create_op(name, &operands, &rtys, &attrs, vec![r], self.loc);
                self.ctx.erase_op(op);
                continue;
            }
            let mut attrs = vec![("form", form_attr)];
            if unroll {
                attrs.push(("unroll", self.ctx.intern_attr(AttrKind::Unit)));
            }
            let op = self.op("soac.loop", &operands, &rtys, &attrs, vec![r]);
            let mut res = Vec::new();
            for v in self.results(op).into_iter().skip(off) {
                res.push(self.refine(v)?);
            }
            return Ok(init_v.with_leaves(res));
        }
    }

    /// Give the leaves of `v` the sizes of type `t` (sizes named by
    /// variables in scope, or constants), checking at run time.
    pub fn coerce_to(&mut self, sc: &Scope<'a>, v: V<'a>, t: &Type) -> DResult<V<'a>> {
        let Some(leaves) = v.leaves() else { return Ok(v) };
        let Ok(lts) = super::values::leaf_types(t) else {
            return Ok(v);
        };
        if lts.len() != leaves.len() {
            return Err(internal(self.span, "a coercion to a type of another shape"));
        }
        let mut out = Vec::new();
        for (l, lt) in leaves.into_iter().zip(lts) {
            let mut want = Vec::new();
            for s in &lt.shape {
                match self.size_dim(sc, s) {
                    Some(d) => want.push(d),
                    None => {
                        return Err(unsupported(
                            self.span,
                            &format!("a coercion to a size `{}` not in scope", s.text()),
                        ))
                    }
                }
            }
            out.push(self.coerce_shape(l, &want, lt.scalar.futhark_name())?);
        }
        Ok(v.with_leaves(out))
    }

    /// A size of a source type as a dimension in scope `sc`: a constant,
    /// the variable it names, or arithmetic on those computed here;
    /// `Dim::Unknown` for a size that is not tracked, `None` when a name is
    /// not in scope.
    pub fn size_dim(&mut self, sc: &Scope<'a>, s: &Size) -> Option<Dim> {
        match s {
            Size::Const(c) => Some(Dim::Const((*c).max(0) as u64)),
            Size::Unknown | Size::Infer(_) => Some(Dim::Unknown),
            _ => self.size_value(sc, s).map(Dim::Value),
        }
    }

    /// The `i64` value of a size in scope `sc` (`None` when it is not
    /// tracked or a name is not in scope).
    pub fn size_value(&mut self, sc: &Scope<'a>, s: &Size) -> Option<Value> {
        match s {
            Size::Const(c) => Some(self.const_i64(*c)),
            Size::Var(n) => sc
                .env
                .lookup(n)
                .and_then(|v| v.as_leaf())
                .or_else(|| self.pinned.get(n).copied()),
            Size::Expr(e) => {
                let a = self.size_value(sc, &e.lhs)?;
                let b = self.size_value(sc, &e.rhs)?;
                let kind = match e.op {
                    SizeOp::Add => "add",
                    SizeOp::Sub => "sub",
                    SizeOp::Mul => "mul",
                };
                Some(self.binop(kind, a, b))
            }
            Size::Term(t) => {
                // Its expression with the holes bound to their sizes'
                // values (Note [Size terms] in `types`).
                let mut hole_scope = Scope::default();
                for (n, d) in &t.holes {
                    let v = self.size_value(sc, d)?;
                    hole_scope = hole_scope.bind(n.clone(), V::Leaf(v));
                }
                self.exp(&hole_scope, t.exp).ok()?.as_leaf()
            }
            Size::Unknown | Size::Infer(_) => None,
        }
    }

    // Note [Sizes pinned at a call]
    // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    // A polymorphic function is inlined with its type parameters
    // instantiated by the types at the call (`match_type` of the
    // parameters' and the result's types against the arguments' and the
    // application's). Those types name sizes of the caller's scope:
    // `empty 3 : (i64, [0][y]i32)` instantiates `a` in `def empty 'a (x:
    // i64) = (x, [] : [0]a)` as `[y]i32`, with `y` the caller's. The
    // callee's body is internalised in its own scope, where `y` is
    // unbound (the empty array got an inner size of 0) or, worse, is a
    // different variable of the callee. So the sizes of the call's types
    // that the caller's scope knows are renamed to fresh names (with a
    // character no source name has) bound to the caller's values before
    // the call; `size_value` finds them whatever the callee binds.
    // Arrow types are left alone: their sizes may be bound by the
    // arrow's own parameter name.

    /// `t` with every size the caller's scope `sc` gives a value renamed
    /// to a fresh pinned name (Note [Sizes pinned at a call]).
    pub fn pin_sizes(&mut self, sc: &Scope<'a>, t: &Type) -> Type {
        match t {
            Type::Array { elem, shape, unique } => Type::Array {
                elem: Rc::new(self.pin_sizes(sc, elem)),
                shape: shape
                    .iter()
                    .map(|d| {
                        d.map_leaves(&mut |s| match s {
                            Size::Var(n) if !self.pinned.contains_key(n) => {
                                match sc.env.lookup(n).and_then(|v| v.as_leaf()) {
                                    Some(v) => {
                                        let fresh: Name =
                                            format!("{n}{}{}", super::values::PINNED, self.pinned.len()).into();
                                        self.pinned.insert(fresh.clone(), v);
                                        Size::Var(fresh)
                                    }
                                    None => s.clone(),
                                }
                            }
                            s => s.clone(),
                        })
                    })
                    .collect(),
                unique: *unique,
            },
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.pin_sizes(sc, t)).collect()),
            Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), self.pin_sizes(sc, t))).collect()),
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| self.pin_sizes(sc, t)).collect()))
                    .collect(),
            ),
            t => t.clone(),
        }
    }

    /// The leaves of an array value (at least one: arrays of empty tuples
    /// and records have no representation yet).
    pub fn array_leaves(&self, v: &V<'a>, span: Span) -> DResult<Vec<Value>> {
        let ls = v.leaves().ok_or_else(|| internal(span, "an array of functions"))?;
        if ls.is_empty() {
            return Err(unsupported(span, "arrays of empty tuples or records"));
        }
        if ls.iter().any(|&l| self.rank(l) == 0) {
            return Err(internal(span, "expected an array"));
        }
        Ok(ls)
    }
}

pub(crate) fn fun(head: Head<'_>) -> V<'_> {
    V::Fun(Rc::new(FunV { head, args: Vec::new() }))
}

/// Field `f` of a record, or element `f` of a tuple.
pub(crate) fn project<'a>(v: &V<'a>, f: &str, span: Span) -> DResult<V<'a>> {
    match v {
        V::Record(fs) => fs
            .iter()
            .find(|(n, _)| &**n == f)
            .map(|(_, x)| x.clone())
            .ok_or_else(|| internal(span, &format!("no field `{f}`"))),
        V::Tuple(vs) => f
            .parse::<usize>()
            .ok()
            .and_then(|i| vs.get(i))
            .cloned()
            .ok_or_else(|| internal(span, &format!("no element `{f}`"))),
        _ => Err(internal(
            span,
            &format!("a projection `.{f}` of a value that is not a record"),
        )),
    }
}

/// `r with a.b = x`.
fn replace<'a>(r: &V<'a>, path: &[Name], x: V<'a>, span: Span) -> DResult<V<'a>> {
    let Some((f, rest)) = path.split_first() else {
        return Ok(x);
    };
    let inner = replace(&project(r, f, span)?, rest, x, span)?;
    match r {
        V::Record(fs) => Ok(V::Record(
            fs.iter()
                .map(|(n, v)| (n.clone(), if n == f { inner.clone() } else { v.clone() }))
                .collect(),
        )),
        V::Tuple(vs) => {
            let i: usize = f.parse().unwrap_or(usize::MAX);
            Ok(V::Tuple(
                vs.iter()
                    .enumerate()
                    .map(|(j, v)| if j == i { inner.clone() } else { v.clone() })
                    .collect(),
            ))
        }
        _ => Err(internal(span, "a record update of a value that is not a record")),
    }
}

/// The scalar types of the leaves of a function's result.
fn leaf_types_of(vb: &ValBind, span: Span) -> DResult<Vec<Scalar>> {
    let t = vb
        .body
        .ty
        .as_ref()
        .ok_or_else(|| internal(span, "a body without a type"))?;
    let lts = super::values::leaf_types(t).map_err(|w| unsupported(span, &format!("functions returning {w}")))?;
    Ok(lts.into_iter().map(|l| l.scalar).collect())
}

/// Whether `e` is `???`, perhaps in parentheses.
fn is_hole(e: &Exp) -> bool {
    match &e.kind {
        ExpKind::Hole => true,
        ExpKind::Tuple(es) if es.len() == 1 => is_hole(&es[0]),
        _ => false,
    }
}

// Note [Specialised recursive functions]
//
// A recursive function that takes functions passes each of them to its
// recursive calls unchanged (Note [Recursive functions] in check), so
// within one outer call the function arguments never change: the
// function is compiled once per distinct set of function arguments, as
// a `soac.func` that takes only the other parameters and has the
// function parameters bound to those arguments. The recursive calls in
// its body find the same arguments (the very values bound), hence the
// same specialisation, and call it. A function argument can be named by
// its code alone when it captures no value of the caller (a `soac.func`
// cannot see the caller's SSA values): [`static_key`] names such a
// function, and gives `None` for one that captures a value (a lambda
// using a local variable), which the compiled backends refuse.

/// A name of function value `v` that is the same for the same code and
/// captures, or `None` if it captures a value of the caller (See Note
/// [Specialised recursive functions]).
fn static_key(v: &V) -> Option<String> {
    match v {
        V::Fun(fv) => {
            let mut k = match &fv.head {
                Head::Global(id) => format!("g{}.{}", id.program, id.dec),
                Head::Builtin(n) => format!("b{n}"),
                Head::Project(path) => format!("p{}", path.join(".")),
                Head::RightSection { op, arg } => format!("r({})({})", static_key(op)?, static_key(&arg.0)?),
                Head::Closure {
                    params,
                    body,
                    scope,
                    size_params,
                } => {
                    let mut k = format!("c{:p}/{:p}", *body as *const Exp, Rc::as_ptr(&scope.ts));
                    for n in crate::interp::free_vars(&[], params, body) {
                        if size_params.iter().any(|s| &**s == n) {
                            continue;
                        }
                        if let Some(v) = scope.env.lookup(n) {
                            k.push_str(&format!(",{n}={}", static_key(v)?));
                        }
                    }
                    k
                }
            };
            for (a, _) in &fv.args {
                k.push_str(&format!("[{}]", static_key(a)?));
            }
            Some(k)
        }
        V::Tuple(vs) => {
            let ks: Option<Vec<String>> = vs.iter().map(static_key).collect();
            Some(format!("({})", ks?.join(",")))
        }
        V::Record(fs) => {
            let ks: Option<Vec<String>> = fs
                .iter()
                .map(|(n, v)| Some(format!("{n}={}", static_key(v)?)))
                .collect();
            Some(format!("{{{}}}", ks?.join(",")))
        }
        V::Known(c, vs) => {
            let ks: Option<Vec<String>> = vs.iter().map(static_key).collect();
            Some(format!("#{c}({})", ks?.join(",")))
        }
        V::Leaf(_) | V::Sum(..) => None,
    }
}

/// The size of `actual` where `decl`, a type of the same structure, has
/// the size named `name`.
fn size_at(decl: &Type, actual: &Type, name: &Name) -> Option<Size> {
    match (decl, actual) {
        (
            Type::Array {
                elem: de, shape: ds, ..
            },
            Type::Array {
                elem: ae, shape: as_, ..
            },
        ) if ds.len() == as_.len() => ds
            .iter()
            .zip(as_)
            .find(|(d, _)| matches!(d, Size::Var(n) if n == name))
            .map(|(_, a)| a.clone())
            .or_else(|| size_at(de, ae, name)),
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => {
            a.iter().zip(b).find_map(|(x, y)| size_at(x, y, name))
        }
        (Type::Record(a), Type::Record(b)) if a.len() == b.len() => {
            a.iter().zip(b).find_map(|((_, x), (_, y))| size_at(x, y, name))
        }
        _ => None,
    }
}
