//! Type inference for expressions.

use std::rc::Rc;

use super::unify::{self, Constraint, LiftLimit, LiftSite, PrimSet};
use super::{builtins, record_type, sizes, Checker, Local, Scheme};
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, SizeOp, TyVar, Type};

fn i64t() -> Type {
    Type::Prim(PrimType::I64)
}
fn boolt() -> Type {
    Type::Prim(PrimType::Bool)
}

fn arrow(a: Type, b: Type) -> Type {
    Type::Arrow {
        param_name: None,
        param: Rc::new(a),
        ret: Rc::new(b),
    }
}

/// What is applied, as messages name it: `` `f` `` or "this function".
/// Formatted only when a message is made (most applications check).
enum Callee<'q> {
    Name(&'q QualName),
    Other,
}

impl Callee<'_> {
    /// Futhark's wording of a failed application (`Cannot apply "f" to
    /// "x"`), with the argument's position.
    fn cannot_apply(&self, i: usize, arg: &Exp) -> String {
        let f = match self {
            Callee::Name(n) => format!("\"{n}\""),
            Callee::Other => "function".to_string(),
        };
        match &arg.kind {
            ExpKind::Var(v) => format!(
                "Cannot apply {f} to \"{}\" (argument {})",
                crate::types::user_name(&v.name.to_string()),
                i + 1
            ),
            _ => format!("Cannot apply {f} to argument {}", i + 1),
        }
    }
}

impl std::fmt::Display for Callee<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Callee::Name(n) => write!(f, "`{n}`"),
            Callee::Other => f.write_str("this function"),
        }
    }
}

/// Whether an argument is checked after the others (so its parameter types
/// are known from them): lambdas and sections.
fn deferred(e: &Exp) -> bool {
    matches!(
        e.kind,
        ExpKind::Lambda { .. } | ExpKind::OpSection { .. } | ExpKind::ProjectSection(_)
    )
}

/// Whether `e` is a lambda with a parameter whose type is not annotated
/// (See Note [Occurs check on sizes]).
fn unannotated_lambda(e: &Exp) -> bool {
    match &e.kind {
        ExpKind::Lambda { params, .. } => params.iter().any(|p| !matches!(p.kind, PatKind::Ascribe(..))),
        _ => false,
    }
}

impl Checker {
    pub fn check_exp(&mut self, e: &mut Exp) -> Result<Type, Diag> {
        let t = self.infer(e)?;
        e.ty = Some(t.clone());
        Ok(t)
    }

    /// Check `e` where a type is expected; lambdas use it for their
    /// parameters.
    pub fn check_against(&mut self, e: &mut Exp, expected: &Type) -> Result<Type, Diag> {
        if let ExpKind::Lambda { .. } = e.kind {
            let t = self.check_lambda(e, Some(expected))?;
            e.ty = Some(t.clone());
            self.subst.unify(expected, &t, e.span)?;
            return Ok(t);
        }
        let t = self.check_exp(e)?;
        self.subst.unify(expected, &t, e.span)?;
        Ok(t)
    }

    fn infer(&mut self, e: &mut Exp) -> Result<Type, Diag> {
        let span = e.span;
        match &mut e.kind {
            ExpKind::Lit(l) => Ok(self.literal_type(l, span)),
            ExpKind::Hole => Ok(self.subst.fresh()),
            ExpKind::Var(_) => {
                if let Some(new) = self.desugar_projection(e) {
                    *e = new;
                    return self.infer(e);
                }
                let ExpKind::Var(v) = &mut e.kind else { unreachable!() };
                if let Some(l) = self.lookup_local(&v.name.name).filter(|_| v.name.quals.is_empty()) {
                    // See Note [Shadowed size names].
                    v.name.name = l.name.clone();
                }
                let (res, t) = self.resolve_var(&v.name, span)?;
                v.res = Some(res);
                Ok(t)
            }
            ExpKind::Neg(x) => {
                let t = self.check_exp(x)?;
                self.subst
                    .require_prim(&t, PrimSet::numeric(), x.span, "operand of `-`")?;
                Ok(t)
            }
            ExpKind::Not(x) => {
                let t = self.check_exp(x)?;
                let set = PrimSet(PrimSet::ints().0 | PrimSet::of(&[PrimType::Bool]).0);
                self.subst.require_prim(&t, set, x.span, "operand of `!`")?;
                Ok(t)
            }
            ExpKind::BinOp { op, op_span, lhs, rhs } => {
                let name = op.name.name.clone();
                if op.name.quals.is_empty() && (&*name == "&&" || &*name == "||") && self.is_builtin_op(&name) {
                    op.res = Some(Resolved::Builtin(name.clone()));
                    self.check_against(lhs, &boolt())?;
                    self.check_against(rhs, &boolt())?;
                    return Ok(boolt());
                }
                let (res, ft) = self.resolve_op(&op.name, *op_span)?;
                let concat = matches!(&res, Resolved::Builtin(n) if &**n == "++");
                op.res = Some(res);
                let mut args = [&mut **lhs, &mut **rhs];
                let r = self.apply_args(ft, &mut args, *op_span, &Callee::Name(&op.name))?;
                Ok(if concat {
                    self.computed_size(r, "concat", &[&**lhs, &**rhs])
                } else {
                    r
                })
            }
            ExpKind::OpSection {
                op,
                op_span,
                left,
                right,
            } => {
                let (res, ft) = self.resolve_op(&op.name, *op_span)?;
                op.res = Some(res);
                let desc = Callee::Name(&op.name);
                match (left, right) {
                    (None, None) => Ok(ft),
                    (Some(l), None) => {
                        let mut args = [&mut **l];
                        self.apply_args(ft, &mut args, *op_span, &desc)
                    }
                    (None, Some(r)) => {
                        let (p1, rest) = self.split_arrow(&ft, *op_span, &desc)?;
                        let (p2, res) = self.split_arrow(&rest, *op_span, &desc)?;
                        self.check_against(r, &p2)?;
                        Ok(arrow(p1, res))
                    }
                    (Some(l), Some(r)) => {
                        let mut args = [&mut **l, &mut **r];
                        self.apply_args(ft, &mut args, *op_span, &desc)
                    }
                }
            }
            ExpKind::ProjectSection(path) => {
                let a = self.subst.fresh();
                let mut t = a.clone();
                for f in path.iter() {
                    let ft = self.subst.fresh();
                    self.subst.require_field(&t, f, &ft, span)?;
                    t = ft;
                }
                Ok(arrow(a, t))
            }
            ExpKind::Apply(f, args) => {
                let ft = self.check_exp(f)?;
                let desc = match &f.kind {
                    ExpKind::Var(v) => Callee::Name(&v.name),
                    _ => Callee::Other,
                };
                let mut refs: Vec<&mut Exp> = args.iter_mut().collect();
                let r = self.apply_args(ft, &mut refs, f.span, &desc)?;
                Ok(match &f.kind {
                    ExpKind::Var(Var {
                        res: Some(Resolved::Builtin(n)),
                        ..
                    }) if &**n == "concat" && args.len() == 2 => {
                        let n = n.clone();
                        let args: Vec<&Exp> = args.iter().collect();
                        self.computed_size(r, &n, &args)
                    }
                    _ => r,
                })
            }
            ExpKind::Lambda { .. } => self.check_lambda(e, None),
            ExpKind::Tuple(es) => {
                let ts = es
                    .iter_mut()
                    .map(|x| self.check_exp(x))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(if ts.len() == 1 {
                    ts.into_iter().next().unwrap()
                } else {
                    Type::Tuple(ts)
                })
            }
            ExpKind::Record(fields) => {
                let mut out: Vec<(Name, Type)> = Vec::new();
                for f in fields.iter_mut() {
                    let (n, s, t) = match f {
                        RecordField::Explicit(n, s, x) => (n.clone(), *s, self.check_exp(x)?),
                        RecordField::Implicit(n, s, _) if self.lookup_local(n).is_some_and(|l| l.name != *n) => {
                            // `{c}` where `c` was renamed: `{c = c#1}`. See
                            // Note [Shadowed size names].
                            let (n, s) = (n.clone(), *s);
                            let var = Exp::new(
                                ExpKind::Var(Var {
                                    name: QualName::unqual(n.clone()),
                                    res: None,
                                }),
                                s,
                            );
                            *f = RecordField::Explicit(n.clone(), s, var);
                            let RecordField::Explicit(_, _, x) = f else {
                                unreachable!()
                            };
                            (n, s, self.check_exp(x)?)
                        }
                        RecordField::Implicit(n, s, res) => {
                            let (r, t) = self.resolve_var(&QualName::unqual(n.clone()), *s)?;
                            *res = Some(r);
                            (n.clone(), *s, t)
                        }
                    };
                    if out.iter().any(|(m, _)| *m == n) {
                        return Err(Diag::new(
                            s,
                            format!("field `{n}` is defined twice (previously defined in this record)"),
                        ));
                    }
                    out.push((n, t));
                }
                Ok(record_type(out))
            }
            ExpKind::ArrayLit(es) => {
                let et = self.subst.fresh();
                for x in es.iter_mut() {
                    self.check_against(x, &et)?;
                }
                self.subst
                    .require_lift(&et, Liftedness::Unlifted, LiftSite::ArrayElem, span)?;
                let n = es.len() as i64;
                Ok(et.array_of(Size::Const(n)))
            }
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => {
                let t = self.check_exp(start)?;
                self.subst
                    .require_prim(&t, PrimSet::ints(), start.span, "range bound")?;
                if let Some(s) = second {
                    self.check_against(s, &t)?;
                }
                self.check_against(end, &t)?;
                let kind = *kind;
                let d = self.range_size(start, second.as_deref(), end, kind);
                Ok(t.array_of(d))
            }
            ExpKind::Project(x, field) => {
                let t = self.check_exp(x)?;
                let ft = self.subst.fresh();
                self.subst.require_field(&t, field, &ft, span)?;
                Ok(ft)
            }
            ExpKind::Index(a, idx) => {
                let at = self.check_exp(a)?;
                self.index_type(&at, idx, a.span, false)
            }
            ExpKind::Coerce(x, te) => {
                // Only the sizes may differ (checked at run time).
                let t = self.type_of(te)?;
                self.check_against(x, &unify::erase_sizes(&t))?;
                Ok(t)
            }
            ExpKind::Ascript(x, te) => {
                let t = self.type_of(te)?;
                if let ExpKind::Lambda { .. } = x.kind {
                    self.check_against(x, &t)?;
                } else {
                    let xt = self.check_exp(x)?;
                    self.subst.unify_declared("Expression", &t, &xt, x.span)?;
                }
                Ok(t)
            }
            ExpKind::If { cond, then, els } => {
                self.check_against(cond, &boolt())?;
                let t = self.check_exp(then)?;
                let u = self.check_exp(els)?;
                // Branches may differ in sizes: the result then has an
                // unknown (existential) size there.
                let te = unify::erase_sizes(&self.subst.resolve(&t));
                self.subst.unify_explained(&te, &u, els.span, |s, help| {
                    Diag::new(
                        els.span,
                        format!(
                            "the branches of `if` have different types: expected `{}`, found `{}`",
                            s.show(&t),
                            s.show(&u)
                        ),
                    )
                    .note(then.span, "the `then` branch")
                    .help(help)
                })?;
                self.subst
                    .require_lift(&t, Liftedness::SizeLifted, LiftSite::Branch("if"), span)?;
                Ok(self.join_sizes(&t, &u, "if"))
            }
            ExpKind::Let { pat, value, body } => {
                let vt = self.check_exp(value)?;
                // A function value is not generalised: its own size
                // variables are forgotten rather than fixed by its first use.
                if self.subst.has_function(&vt) {
                    let mut gen = self.generalise_sizes(&[&vt]);
                    // See Note [Context sizes of a let-bound function value]
                    // in `context_sizes`.
                    gen.retain(|(v, _)| !self.context_size_vars.contains(v));
                    self.forget_sizes(&gen);
                }
                let mark = self.locals.len();
                let pt = self.pat_type(pat)?;
                self.subst.unify(&pt, &vt, value.span)?;
                self.bind_pat(pat, &pt)?;
                let r = self.check_exp(body).map(|t| self.leave_let_scope(t, mark));
                self.locals.truncate(mark);
                r
            }
            ExpKind::LetFun {
                name,
                name_span,
                type_params,
                params,
                ret,
                value,
                body,
            } => {
                super::check_redefinable(name, *name_span)?;
                super::sizes::check_distinct_params(type_params)?;
                let snapshot = self.scope_snapshot(type_params, params);
                let saved_rigid = self.subst.rigid.len();
                let mark = self.locals.len();
                for tp in type_params.iter() {
                    match tp {
                        TypeParam::Size { name, .. } => self.locals.push(Local {
                            name: name.clone(),
                            ty: i64t(),
                            scheme: None,
                        }),
                        TypeParam::Type { name, liftedness, .. } => self.subst.rigid.push((name.clone(), *liftedness)),
                    }
                }
                let r = self.check_function(params, ret.as_deref(), value, false);
                self.locals.truncate(mark);
                let declared: Vec<(Name, Liftedness)> = self.subst.rigid.drain(saved_rigid..).collect();
                let (ptys, rt) = r?;
                self.check_scope_snapshot(&snapshot, name, *name_span)?;
                self.check_param_order(params, &ptys)?;
                if **name != *SIZE_BINDER {
                    self.check_inaccessible_sizes(params, &ptys, ret.as_deref())?;
                }
                // As for a `def`, a size parameter may be one of the
                // result's sizes: the call's context gives its value.
                let mut sized = ptys.clone();
                sized.push(rt.clone());
                self.check_sizes_bound(type_params, &sized)?;
                // Reported after the bound expression (the call below) is
                // checked, whose errors come first in Futhark.
                let binder = match ptys.first() {
                    Some(pt) if **name == *SIZE_BINDER => self.check_size_binder(type_params, pt),
                    _ => Ok(()),
                };
                let mut ft = rt;
                for (p, pt) in params.iter().zip(ptys).rev() {
                    ft = Type::Arrow {
                        param_name: super::param_name(p),
                        param: Rc::new(pt),
                        ret: Rc::new(ft),
                    };
                }
                value.ty.get_or_insert_with(Type::unit);
                let scheme = self.generalise(&ft, declared, type_params);
                self.locals.push(Local {
                    name: name.clone(),
                    ty: ft,
                    scheme,
                });
                let r = self.check_exp(body);
                self.locals.truncate(mark);
                let t = r?;
                binder?;
                Ok(t)
            }
            ExpKind::LetWith {
                name,
                name_span,
                index,
                value,
                body,
            } => {
                if let Some(l) = self.lookup_local(name) {
                    // See Note [Shadowed size names].
                    *name = l.name.clone();
                }
                let (_, at) = self.resolve_var(&QualName::unqual(name.clone()), *name_span)?;
                let want = self.index_type(&at, index, *name_span, true)?;
                self.check_against(value, &want)?;
                let mark = self.locals.len();
                self.locals.push(Local {
                    name: name.clone(),
                    ty: at,
                    scheme: None,
                });
                let r = self.check_exp(body);
                self.locals.truncate(mark);
                r
            }
            ExpKind::Update { array, index, value } => {
                let at = self.check_exp(array)?;
                let want = self.index_type(&at, index, array.span, true)?;
                self.check_against(value, &want)?;
                Ok(at)
            }
            ExpKind::RecordUpdate { record, path, value } => {
                let rt = self.check_exp(record)?;
                let mut t = rt.clone();
                for f in path.iter() {
                    let ft = self.subst.fresh();
                    self.subst.require_field(&t, f, &ft, record.span)?;
                    t = ft;
                }
                // The field may change its sizes (`r with xs = r.xs ++ ys`),
                // and, in a record whose type is known, its type (`r with
                // a = true` where `a` was an `i32`): where the new value's
                // type clashes with the field's, the result has the new.
                let ft = unify::erase_sizes(&self.subst.resolve(&t));
                let vt = if let ExpKind::Lambda { .. } = value.kind {
                    self.check_against(value, &ft)?
                } else {
                    let vt = self.check_exp(value)?;
                    let known = self.subst.resolve(&rt);
                    let new = self.subst.resolve(&vt);
                    let changed = update_field(&known, path, &unify::strip_unique(&new));
                    match changed {
                        Some(changed) if clashes(&self.subst.resolve(&ft), &new) => return Ok(changed),
                        // A field whose type is not known yet (a
                        // literal's) takes the new value's type by
                        // unification, as Futhark's (`{a = 0} with a =
                        // true` is an error: letwith/field-error2).
                        Some(_) | None => {
                            self.subst.unify(&ft, &vt, value.span)?;
                            vt
                        }
                    }
                };
                let rt = self.subst.resolve(&rt);
                Ok(update_field(&rt, path, &unify::strip_unique(&self.subst.resolve(&vt)))
                    .unwrap_or_else(|| unify::erase_sizes(&rt)))
            }
            ExpKind::Loop { pat, init, form, body } => {
                if init.is_none() {
                    *init = Some(Box::new(loop_init_of(pat)?));
                }
                let init = init.as_mut().unwrap();
                let it = self.check_exp(init)?;
                let mark = self.locals.len();
                let pt = self.pat_type(pat)?;
                self.subst.unify(&pt, &it, init.span)?;
                self.subst
                    .require_lift(&pt, Liftedness::SizeLifted, LiftSite::LoopParam, pat.span)?;
                // The sizes of the loop parameters may change from one
                // iteration to the next: each one not annotated is a fresh
                // size variable in the body. See Note [Loop-variant sizes].
                let outer = self.subst.resolve(&pt);
                let init_dims = sizes::dims_of(&outer);
                let inner = sizes::map_shape(&outer, &mut |_| self.subst.fresh_size_for(None));
                let pt = self.pat_type(pat)?;
                self.subst.unify(&pt, &inner, init.span)?;
                let pat_t0 = self.subst.resolve(&pt);
                let ex_mark = self.subst.existentials.len();
                let r = (|| {
                    match &mut **form {
                        LoopForm::For(i, _, bound) => {
                            let bt = self.check_exp(bound)?;
                            self.subst
                                .require_prim(&bt, PrimSet::ints(), bound.span, "loop bound")?;
                            self.bind_pat(pat, &pt)?;
                            *i = self.binder_name(i);
                            self.locals.push(Local {
                                name: i.clone(),
                                ty: bt,
                                scheme: None,
                            });
                        }
                        LoopForm::ForIn(p, xs) => {
                            let xt = self.check_exp(xs)?;
                            let row = self.row_type(&xt, xs.span)?;
                            self.bind_pat(pat, &pt)?;
                            let ept = self.pat_type(p)?;
                            self.subst.unify(&ept, &row, p.span)?;
                            self.bind_pat(p, &ept)?;
                        }
                        LoopForm::While(c) => {
                            self.bind_pat(pat, &pt)?;
                            self.check_against(c, &boolt())?;
                        }
                    }
                    let bt = self.check_exp(body)?;
                    self.loop_result(
                        &pat_t0, &init_dims, &bt, &it, mark, ex_mark, pat.span, init.span, body.span,
                    )
                })();
                self.locals.truncate(mark);
                r
            }
            ExpKind::Assert(c, x) => {
                self.check_against(c, &boolt())?;
                self.check_exp(x)
            }
            ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => self.check_exp(x),
            ExpKind::Constr(c, args) => {
                // A sum type with at least this constructor: which one the
                // context says (unification), or the annotation asked for
                // by the ambiguity error at the end of the definition.
                let ts = args
                    .iter_mut()
                    .map(|x| self.check_exp(x))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(self.subst.fresh_constrained(Constraint {
                    constrs: vec![(c.clone(), ts, span)],
                    ..Default::default()
                }))
            }
            ExpKind::Match(x, cases) => self.check_match(x, cases, span),
        }
    }

    /// `match x case p -> e ...`: every pattern has the type of `x`, every
    /// case the type of the first, up to sizes (as the branches of `if`).
    /// Exhaustiveness and redundancy are checked once the types are known
    /// (`patterns`).
    fn check_match(&mut self, x: &mut Exp, cases: &mut [(Pat, Exp)], span: Span) -> Result<Type, Diag> {
        let xt = self.check_exp(x)?;
        let mut result: Option<(Type, Span)> = None;
        for (p, body) in cases.iter_mut() {
            let mark = self.locals.len();
            let r = self.bind_pat(p, &xt).and_then(|()| self.check_exp(body));
            let r = r.map(|t| self.leave_scope(t, mark, None));
            self.locals.truncate(mark);
            let t = r?;
            result = Some(match result {
                None => (t, body.span),
                Some((prev, first)) => {
                    let pe = unify::erase_sizes(&self.subst.resolve(&prev));
                    self.subst.unify_explained(&pe, &t, body.span, |s, help| {
                        Diag::new(
                            body.span,
                            format!(
                                "the cases of `match` have different types: expected `{}`, found `{}`",
                                s.show(&prev),
                                s.show(&t)
                            ),
                        )
                        .note(first, "the first case")
                        .help(help)
                    })?;
                    (self.join_sizes(&prev, &t, "match"), first)
                }
            });
        }
        let (t, _) = result.ok_or_else(|| Diag::new(span, "a `match` needs at least one `case`"))?;
        self.subst
            .require_lift(&t, Liftedness::SizeLifted, LiftSite::Branch("match"), span)?;
        Ok(t)
    }

    pub(crate) fn literal_type(&mut self, l: &Literal, span: Span) -> Type {
        match l {
            Literal::Int { suffix: Some(p), .. } | Literal::Float { suffix: Some(p), .. } => Type::Prim(*p),
            Literal::Int { .. } => self.subst.fresh_constrained(Constraint {
                prims: Some((PrimSet::numeric(), span)),
                default: Some(PrimType::I32),
                ..Default::default()
            }),
            Literal::Float { .. } => self.subst.fresh_constrained(Constraint {
                prims: Some((PrimSet::floats(), span)),
                default: Some(PrimType::F64),
                ..Default::default()
            }),
            Literal::Bool(_) => boolt(),
            Literal::String(s) => Type::Prim(PrimType::U8).array_of(Size::Const(s.len() as i64)),
        }
    }

    /// `r.x.y` parsed as a qualified name whose head is a value: rewrite
    /// into projections.
    fn desugar_projection(&self, e: &Exp) -> Option<Exp> {
        let ExpKind::Var(v) = &e.kind else { return None };
        let head = v.name.quals.first()?;
        if self.lookup_local(head).is_none() && self.lookup_global(head).is_none() {
            return None;
        }
        let mut cur = Exp::new(
            ExpKind::Var(Var {
                name: QualName::unqual(head.clone()),
                res: None,
            }),
            Span::new(e.span.file, e.span.lo, e.span.lo + head.len() as u32),
        );
        for f in v.name.quals[1..].iter().chain(std::iter::once(&v.name.name)) {
            let hi = (cur.span.hi + 1 + f.len() as u32).min(e.span.hi);
            let span = Span::new(e.span.file, e.span.lo, hi);
            cur = Exp::new(ExpKind::Project(Box::new(cur), f.clone()), span);
        }
        Some(cur)
    }

    /// Resolve a name used as a value: locals, then globals, then
    /// built-ins.
    pub fn resolve_var(&mut self, qn: &QualName, span: Span) -> Result<(Resolved, Type), Diag> {
        if qn.quals.is_empty() {
            if let Some(l) = self.lookup_local(&qn.name) {
                let t = match l.scheme.clone() {
                    Some(s) => self.instantiate(&s, &qn.name, span),
                    None => l.ty.clone(),
                };
                return Ok((Resolved::Local, t));
            }
            if let Some(r) = self.recursive.as_mut().filter(|r| r.name == qn.name) {
                r.used = true;
                let (id, s) = (r.id, r.scheme.clone());
                return Ok((Resolved::Global(id), self.instantiate(&s, &qn.name, span)));
            }
            if let Some((id, s)) = self.lookup_global(&qn.name) {
                return Ok((Resolved::Global(id), self.instantiate(&s, &qn.name, span)));
            }
            if let Some(s) = self.lookup_builtin(&qn.name) {
                return Ok((Resolved::Builtin(qn.name.clone()), self.instantiate(&s, &qn.name, span)));
            }
            if let Some((target, s)) = self.lookup_builtin_alias(&qn.name) {
                return Ok((Resolved::Builtin(target), self.instantiate(&s, &qn.name, span)));
            }
            if self.is_builtin_op(&qn.name) {
                return Ok((Resolved::Builtin(qn.name.clone()), self.op_type(&qn.name, span)));
            }
            // Futhark's wording.
            let mut d = Diag::new(span, format!("Unknown name \"{}\"", qn.name));
            if let Some(c) = self.close_name(&qn.name) {
                d = d.help(format!("did you mean `{c}`?"));
            }
            return Err(d);
        }
        let full = qn.to_string();
        if let Some(s) = self.lookup_builtin(&full) {
            let name: Name = full.into();
            let t = self.instantiate(&s, &name, span);
            return Ok((Resolved::Builtin(name), t));
        }
        if let Some((target, s)) = self.lookup_builtin_alias(&full) {
            let name: Name = full.into();
            let t = self.instantiate(&s, &name, span);
            return Ok((Resolved::Builtin(target), t));
        }
        if qn.quals.len() == 1 && PrimType::from_name(&qn.quals[0]).is_some() {
            return Err(Diag::new(
                span,
                format!("unknown name `{full}`: module `{}` has no `{}`", qn.quals[0], qn.name),
            ));
        }
        Err(Diag::new(span, format!("unknown name `{full}`")))
    }

    /// Generalise a local function's type over the variables that nothing
    /// outside it mentions and nothing constrains, plus its declared type
    /// parameters; `None` when it stays monomorphic.
    fn generalise(&mut self, ft: &Type, declared: Vec<(Name, Liftedness)>, tps: &[TypeParam]) -> Option<Rc<Scheme>> {
        let mut env_vars = Vec::new();
        for l in &self.locals {
            self.subst.unbound_vars(&l.ty, &mut env_vars);
        }
        let mut vars = Vec::new();
        self.subst.unbound_vars(ft, &mut vars);
        // A variable with a constraint stays a unification variable, which
        // the uses decide (`let f v = v.0` is applied to a pair); so do the
        // variables its constraint names (the type of `v.0`), or the
        // constraint would name a rigid type parameter.
        let mut kept: Vec<TyVar> = Vec::new();
        for &v in &vars {
            let c = self.subst.constraint(v);
            if env_vars.contains(&v)
                || c.prims.is_some()
                || !c.fields.is_empty()
                || !c.constrs.is_empty()
                || c.lift.is_some()
            {
                kept.push(v);
            }
        }
        let mut i = 0;
        while i < kept.len() {
            let c = self.subst.constraint(kept[i]);
            let named: Vec<Type> = c
                .fields
                .iter()
                .map(|(_, t, _)| t.clone())
                .chain(c.constrs.iter().flat_map(|(_, ts, _)| ts.iter().cloned()))
                .collect();
            for t in &named {
                self.subst.unbound_vars(t, &mut kept);
            }
            i += 1;
        }
        let mut type_params = declared;
        for v in vars {
            if kept.contains(&v) {
                continue;
            }
            let n = self.fresh_name("t");
            self.subst.set(v, Type::Param(n.clone()));
            type_params.push((n, Liftedness::Lifted));
        }
        let mut size_params: Vec<Name> = tps
            .iter()
            .filter_map(|tp| match tp {
                TypeParam::Size { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        let gen = self.generalise_sizes(&[ft]);
        size_params.extend(gen.iter().map(|(_, n)| n.clone()));
        if type_params.is_empty() && size_params.is_empty() {
            return None;
        }
        let ty = self.scheme_type(ft, &gen, false);
        self.forget_sizes(&gen);
        Some(Rc::new(Scheme {
            type_params,
            size_params,
            ty,
            existential_ty: None,
        }))
    }

    pub fn is_builtin_op(&self, name: &str) -> bool {
        builtins::OPERATORS.contains(&name)
    }

    /// Resolve an operator: a user definition shadows the built-in one.
    fn resolve_op(&mut self, qn: &QualName, span: Span) -> Result<(Resolved, Type), Diag> {
        if qn.quals.is_empty()
            && self.is_builtin_op(&qn.name)
            && self.lookup_local(&qn.name).is_none()
            && self.lookup_global(&qn.name).is_none()
        {
            return Ok((Resolved::Builtin(qn.name.clone()), self.op_type(&qn.name, span)));
        }
        self.resolve_var(qn, span)
    }

    /// The type of a built-in operator at a fresh, constrained type.
    fn op_type(&mut self, op: &str, span: Span) -> Type {
        let (set, result_bool) = match op {
            "+" | "-" | "*" | "/" | "%" | "**" => (Some(PrimSet::numeric()), false),
            "//" | "%%" | "&" | "|" | "^" | "<<" | ">>" | ">>>" => (Some(PrimSet::ints()), false),
            "<" | "<=" | ">" | ">=" => (Some(PrimSet::ALL), true),
            "==" | "!=" => (None, true),
            _ => (Some(PrimSet::of(&[PrimType::Bool])), false),
        };
        let t = self.subst.fresh_constrained(Constraint {
            prims: set.map(|s| (s, span)),
            lift: set.is_none().then_some(LiftLimit {
                level: Liftedness::SizeLifted,
                site: LiftSite::Compare,
                span,
            }),
            equality: set.is_none().then_some(span),
            ..Default::default()
        });
        let r = if result_bool { boolt() } else { t.clone() };
        arrow(t.clone(), arrow(t, r))
    }

    /// Split a function type into parameter and result, making a variable
    /// into an arrow.
    fn split_arrow(&mut self, ft: &Type, span: Span, desc: &Callee) -> Result<(Type, Type), Diag> {
        match self.subst.shallow_ref(ft) {
            Type::Arrow { param, ret, .. } => Ok(((**param).clone(), (**ret).clone())),
            Type::Var(_) => {
                let (a, b) = (self.subst.fresh(), self.subst.fresh());
                self.subst.unify(ft, &arrow(a.clone(), b.clone()), span)?;
                Ok((a, b))
            }
            t => Err(Diag::new(
                span,
                format!(
                    "{desc} is applied to too many arguments: expected a function type, found `{}`",
                    self.subst.show(t)
                ),
            )),
        }
    }

    /// Apply a function of type `ft` to arguments: non-lambda arguments
    /// first, so lambdas see their parameter types.
    fn apply_args(&mut self, ft: Type, args: &mut [&mut Exp], span: Span, desc: &Callee) -> Result<Type, Diag> {
        let mut params = Vec::with_capacity(args.len());
        let mut t = ft;
        for (i, a) in args.iter().enumerate() {
            let pname = match self.subst.shallow_ref(&t) {
                Type::Arrow { param_name, .. } => param_name.clone(),
                _ => None,
            };
            let (p, mut r) = match t {
                // A function type built for this application (an
                // instantiated scheme) is taken apart, not copied.
                Type::Arrow { param, ret, .. } => (Rc::unwrap_or_clone(param), Rc::unwrap_or_clone(ret)),
                t => self.split_arrow(&t, a.span, desc).map_err(|d| {
                    // A type variable that cannot be a function (it is an
                    // array element, say) keeps the liftedness message.
                    let unbound = matches!(self.subst.shallow_ref(&t), Type::Var(_));
                    if i == 0 && !unbound {
                        Diag::new(
                            span,
                            format!(
                                "{desc} is not a function: expected a function type, found `{}`",
                                self.subst.show(&t)
                            ),
                        )
                    } else {
                        d
                    }
                })?,
            };
            // A named parameter `(n: i64)` may give the size of the result.
            if let Some(n) = pname {
                // Only a size the result has is looked at (and warned about).
                let size = if super::unify::mentions_size(&r, &n) {
                    self.size_of_exp(a)
                } else {
                    Size::Unknown
                };
                // A later named parameter whose name the size mentions (the
                // caller's `m` given for `n` of `(n: i64) -> (m: i64) ->
                // [n][m]t`) is renamed first, so that it is not captured.
                r = avoid_capture(r, &size);
                r = super::unify::map_sizes(&r, &mut |m| if *m == n { size.clone() } else { Size::Var(m.clone()) });
            }
            params.push(p);
            t = r;
        }
        // The parameter-dependent sizes each argument brings in (Note
        // [Dependent function types]).
        let mut dependent: Vec<(usize, Vec<Name>)> = Vec::new();
        for pass in [false, true] {
            for (i, a) in args.iter_mut().enumerate() {
                if deferred(a) != pass {
                    continue;
                }
                let at = if let ExpKind::Lambda { .. } = a.kind {
                    let lt = self.check_lambda(a, Some(&params[i]))?;
                    a.ty = Some(lt.clone());
                    lt
                } else {
                    self.check_exp(a)?
                };
                self.check_size_form(&params[i], &at, i, a, desc)?;
                let what = desc.cannot_apply(i, a);
                let mark = self.existential_mark();
                // See Note [Occurs check on sizes].
                self.subst.inferred_sizes = unannotated_lambda(a);
                let unified = self.subst.unify_explained(&params[i], &at, a.span, |s, help| {
                    Diag::new(
                        a.span,
                        format!(
                            "{what}: expected type `{}`, found `{}`",
                            s.show(&params[i]),
                            s.show(&at)
                        ),
                    )
                    .help(help)
                });
                self.subst.inferred_sizes = false;
                unified.map_err(|d| match desc {
                    Callee::Name(qn) => super::default_notes(self, &qn.to_string(), d),
                    Callee::Other => d,
                })?;
                let sizes = self.dependent_since(mark);
                if !sizes.is_empty() {
                    dependent.push((i, sizes));
                }
            }
        }
        for (i, sizes) in dependent {
            if let Some((why, help)) = self.dependent_escape(&sizes, &params[i + 1..], &t) {
                return Err(Diag::new(args[i].span, format!("{}: {why}", desc.cannot_apply(i, args[i]))).help(help));
            }
        }
        Ok(t)
    }

    /// A lambda, with the expected function type when known.
    fn check_lambda(&mut self, e: &mut Exp, expected: Option<&Type>) -> Result<Type, Diag> {
        let ExpKind::Lambda { params, ret, body } = &mut e.kind else {
            unreachable!()
        };
        let mark = self.locals.len();
        let mut ptys = Vec::new();
        let mut exp = expected.cloned();
        let r = (|| {
            for p in params.iter_mut() {
                let pt = self.pat_type(p)?;
                if let Some(x) = &exp {
                    if let Type::Arrow { param, ret, .. } = self.subst.shallow(x) {
                        self.subst.unify(&pt, &param, p.span)?;
                        exp = Some((*ret).clone());
                    } else {
                        exp = None;
                    }
                }
                self.bind_pat(p, &pt)?;
                ptys.push(pt);
            }
            let rt = match ret {
                Some(te) => {
                    let rt = self.type_of(te)?;
                    self.check_against(body, &rt)?;
                    rt
                }
                None => match &exp {
                    Some(x) if matches!(body.kind, ExpKind::Lambda { .. }) => self.check_against(body, &x.clone())?,
                    _ => self.check_exp(body)?,
                },
            };
            // Parameters that are plain names stay visible in the arrow.
            let named: Vec<Name> = params.iter().filter_map(super::param_name).collect();
            Ok(self.leave_scope(rt, mark, Some(&named)))
        })();
        self.locals.truncate(mark);
        let mut t = r?;
        self.check_param_order(params, &ptys)?;
        self.check_inaccessible_sizes(params, &ptys, ret.as_deref())?;
        for (p, pt) in params.iter().zip(ptys).rev() {
            t = Type::Arrow {
                param_name: super::param_name(p),
                param: Rc::new(pt),
                ret: Rc::new(t),
            };
        }
        Ok(t)
    }

    /// A type leaving the scope of the locals bound since `mark` (except
    /// `keep`): sizes named by those of type `i64` become unknown (an
    /// existential size, in Futhark's terms); so do terms with a hole
    /// named by one of another integer type (Note [Size terms] in `types`).
    pub(crate) fn leave_scope(&self, t: Type, mark: usize, keep: Option<&[Name]>) -> Type {
        let gone: Vec<&Name> = self.locals[mark..]
            .iter()
            .filter(|l| {
                l.scheme.is_none()
                    && !keep.is_some_and(|k| k.contains(&l.name))
                    && matches!(self.subst.shallow_ref(&l.ty), Type::Prim(p) if p.is_int())
            })
            .map(|l| &l.name)
            .collect();
        if gone.is_empty() {
            return t;
        }
        unify::map_sizes(&self.subst.resolve(&t), &mut |n| {
            if gone.contains(&n) {
                Size::Unknown
            } else {
                Size::Var(n.clone())
            }
        })
    }

    /// The type of a `let`'s body leaving the scope of the names the `let`
    /// binds: a size named by one of type `i64` becomes a fresh existential
    /// (See Note [Existential results] in `sizes`).
    fn leave_let_scope(&mut self, t: Type, mark: usize) -> Type {
        let gone: Vec<Name> = self.locals[mark..]
            .iter()
            .filter(|l| l.scheme.is_none() && matches!(self.subst.shallow_ref(&l.ty), Type::Prim(p) if p.is_int()))
            .map(|l| l.name.clone())
            .collect();
        if gone.is_empty() {
            return t;
        }
        let t = self.subst.resolve(&t);
        let mut fresh: Vec<(Name, Size)> = Vec::new();
        unify::map_sizes(&t, &mut |n| {
            if !gone.contains(n) {
                return Size::Var(n.clone());
            }
            match fresh.iter().find(|(m, _)| m == n) {
                Some((_, e)) => e.clone(),
                None => {
                    let e = self.fresh_existential(format!("the unknown size bound by \"{n}\""));
                    fresh.push((n.clone(), e.clone()));
                    e
                }
            }
        })
    }

    /// The result type `r` of `concat`/`++`, whose size is the sum of the
    /// argument sizes: `[n+m]`. (Their type schemes say `[]`, so that
    /// `reduce (++)` and the like, which Futhark accepts with an existential
    /// size, stay lenient.)
    fn computed_size(&self, r: Type, builtin: &str, args: &[&Exp]) -> Type {
        let outer = |e: &Exp| match e.ty.as_ref().map(|t| self.subst.resolve(t)) {
            Some(Type::Array { shape, .. }) => Some(shape[0].clone()),
            _ => None,
        };
        let d = match (builtin, args) {
            ("concat", [a, b]) => match (outer(a), outer(b)) {
                (Some(x), Some(y)) => size_sum(x, y),
                _ => return r,
            },
            _ => return r,
        };
        match self.subst.resolve(&r) {
            Type::Array {
                elem,
                mut shape,
                unique,
            } => {
                shape[0] = d;
                Type::Array { elem, shape, unique }
            }
            t => t,
        }
    }

    /// The size of an `i64` expression: arithmetic (`+`, `-`, `*`) on
    /// integer literals and `i64` variables in scope as such, any other
    /// part a size term (Note [Size terms] in `types`), or `Unknown`
    /// where it cannot be one (Note [Static size checking]).
    pub(crate) fn size_of_exp(&mut self, e: &Exp) -> Size {
        match &e.kind {
            ExpKind::Lit(Literal::Int {
                value,
                suffix: None | Some(PrimType::I64),
            }) => i64::try_from(*value).map_or(Size::Unknown, Size::Const),
            ExpKind::Var(v) if v.name.quals.is_empty() => match self.lookup_local(&v.name.name) {
                Some(l)
                    if l.scheme.is_none()
                        && matches!(self.subst.shallow_ref(&l.ty), Type::Prim(PrimType::I64) | Type::Var(_)) =>
                {
                    // The local's own name: See Note [Shadowed size names].
                    Size::Var(l.name.clone())
                }
                Some(_) => Size::Unknown,
                None => self.size_term(e),
            },
            ExpKind::BinOp { op, lhs, rhs, .. }
                if op.name.quals.is_empty()
                    && self.lookup_local(&op.name.name).is_none()
                    && self.lookup_global(&op.name.name).is_none() =>
            {
                match SizeOp::from_name(&op.name.name) {
                    Some(o) => {
                        let (a, b) = (self.size_of_exp(lhs), self.size_of_exp(rhs));
                        Size::binary(o, a, b)
                    }
                    None => self.size_term(e),
                }
            }
            ExpKind::Tuple(es) if es.len() == 1 => self.size_of_exp(&es[0]),
            ExpKind::Let { .. } | ExpKind::LetFun { .. } | ExpKind::LetWith { .. } => {
                crate::diag::warn(Diag::new(
                    e.span,
                    "Size expression with binding is replaced by unknown size.",
                ));
                Size::Unknown
            }
            _ => self.size_term(e),
        }
    }

    /// A parameter whose size is an expression on the function's size
    /// parameters (`[n*m]t` of `unflatten`) takes them from the argument's
    /// size, which must be an expression of the same form (`[k*l]`) or a
    /// size variable; Futhark rejects anything else, and so do we, with a
    /// message that says what was expected. An untracked (`Unknown`) size
    /// fits only where the argument is a coercion (`xs :> [opaque 1*b]t`):
    /// the size written there is one Futhark tracks and we do not. See
    /// Note [Static size checking].
    fn check_size_form(&self, param: &Type, arg: &Type, i: usize, arg_exp: &Exp, desc: &Callee) -> Result<(), Diag> {
        let span = arg_exp.span;
        let mut inner = arg_exp;
        while let ExpKind::Tuple(es) = &inner.kind {
            match &es[..] {
                [x] => inner = x,
                _ => break,
            }
        }
        let coerced = matches!(inner.kind, ExpKind::Coerce(..));
        let fits = |p: &Size, a: &Size| -> bool {
            fn go(p: &Size, a: &Size, coerced: bool) -> bool {
                match (p, a) {
                    (Size::Expr(x), Size::Expr(y)) if x.op == y.op => {
                        go(&x.lhs, &y.lhs, coerced) && go(&x.rhs, &y.rhs, coerced)
                    }
                    (Size::Expr(_), Size::Infer(_)) => true,
                    (Size::Expr(_), Size::Unknown) if coerced => true,
                    (Size::Expr(_), _) => !unify::Subst::is_open(p),
                    _ => true,
                }
            }
            go(p, a, coerced)
        };
        // Only a parameter with a size expression in its (resolved) shape
        // has a form to check; most have none, and resolving both types
        // for every argument would cost more than the rest of the check.
        let mut t = self.subst.shallow_ref(param);
        let mut has_expr = false;
        while let Type::Array { elem, shape, .. } = t {
            has_expr |= shape
                .iter()
                .any(|d| matches!(self.subst.resolve_size(d), Size::Expr(_)));
            t = self.subst.shallow_ref(elem);
        }
        if !has_expr {
            return Ok(());
        }
        let (
            Type::Array { shape: ps, .. },
            Type::Array {
                shape: arg_shape, elem, ..
            },
        ) = (self.subst.resolve(param), self.subst.resolve(arg))
        else {
            return Ok(());
        };
        for (j, (p, a)) in ps.iter().zip(&arg_shape).enumerate() {
            if !unify::Subst::is_open(p) || fits(p, a) {
                continue;
            }
            let form = self.subst.describe_size(p);
            let found = match a {
                Size::Unknown => format!("`{}`, whose size is not known statically", self.subst.show(arg)),
                _ => format!("`{}`", self.subst.show(arg)),
            };
            return Err(Diag::new(
                span,
                format!(
                    "{}: expected an array of size `{form}`, found {found}",
                    desc.cannot_apply(i, arg_exp)
                ),
            )
            .help(format!(
                "{desc} reads its size parameters off the argument's size, which must have the form `{form}`; \
                 coerce the argument to such a size, e.g. `e :> {example}{elem}` with sizes in scope for the names",
                example = arg_shape
                    .iter()
                    .enumerate()
                    .map(|(k, d)| if k == j { format!("[{form}]") } else { d.to_string() })
                    .collect::<String>(),
            )));
        }
        Ok(())
    }
    /// The type of an `if` or `match` (`kw`) whose branches have types `t`
    /// and `u`, which agree but for sizes: where two known sizes differ,
    /// a fresh existential; where one is not known, `Unknown` (Note
    /// [Existential sizes]).
    fn join_sizes(&mut self, t: &Type, u: &Type, kw: &str) -> Type {
        fn join(a: &Type, b: &Type, differ: &mut dyn FnMut(&Size, &Size) -> Size) -> Type {
            match (a, b) {
                (
                    Type::Array {
                        elem: e1,
                        shape: s1,
                        unique,
                    },
                    Type::Array {
                        elem: e2, shape: s2, ..
                    },
                ) if s1.len() == s2.len() => Type::Array {
                    elem: Rc::new(join(e1, e2, differ)),
                    shape: s1
                        .iter()
                        .zip(s2)
                        .map(|(x, y)| if x == y { x.clone() } else { differ(x, y) })
                        .collect(),
                    unique: *unique,
                },
                (Type::Tuple(xs), Type::Tuple(ys)) if xs.len() == ys.len() => {
                    Type::Tuple(xs.iter().zip(ys).map(|(x, y)| join(x, y, differ)).collect())
                }
                (Type::Record(xs), Type::Record(ys)) if xs.len() == ys.len() => Type::Record(
                    xs.iter()
                        .zip(ys)
                        .map(|((n, x), (_, y))| (n.clone(), join(x, y, differ)))
                        .collect(),
                ),
                (Type::Sum(xs), Type::Sum(ys)) if xs.len() == ys.len() => Type::Sum(
                    xs.iter()
                        .zip(ys)
                        .map(|((n, a), (_, b))| (n.clone(), a.iter().zip(b).map(|(x, y)| join(x, y, differ)).collect()))
                        .collect(),
                ),
                (
                    Type::Arrow {
                        param_name,
                        param: p1,
                        ret: r1,
                    },
                    Type::Arrow { param: p2, ret: r2, .. },
                ) => Type::Arrow {
                    param_name: param_name.clone(),
                    param: Rc::new(join(p1, p2, differ)),
                    ret: Rc::new(join(r1, r2, differ)),
                },
                (Type::Prim(_) | Type::Param(_) | Type::Var(_), _) => a.clone(),
                _ => unify::erase_sizes(a),
            }
        }
        let (t, u) = (self.subst.resolve(t), self.subst.resolve(u));
        let known = |d: &Size| matches!(d, Size::Const(_) | Size::Var(_));
        // The same two sizes give the same existential (`if b then ([1,
        // 2], [3, 4]) else ([5], [6])` is `([k]i32, [k]i32)`).
        let mut made: Vec<(Size, Size, Size)> = Vec::new();
        join(&t, &u, &mut |x, y| {
            if !(known(x) && known(y)) {
                return Size::Unknown;
            }
            if let Some((_, _, k)) = made.iter().find(|(a, b, _)| a == x && b == y) {
                return k.clone();
            }
            let k = self.fresh_existential(format!(
                "the size of an `{kw}` whose branches have sizes [{}] and [{}]",
                x.text(),
                y.text()
            ));
            made.push((x.clone(), y.clone(), k.clone()));
            k
        })
    }

    /// The type of one element of an array type.
    fn row_type(&mut self, at: &Type, span: Span) -> Result<Type, Diag> {
        match self.subst.shallow(at) {
            t @ Type::Array { .. } => Ok(t.row().unwrap()),
            Type::Var(_) => {
                let e = self.subst.fresh();
                self.subst.unify(at, &e.array_of(Size::Unknown), span)?;
                Ok(e)
            }
            t => Err(Diag::new(
                span,
                format!("expected an array, found a value of type `{}`", self.subst.show(&t)),
            )),
        }
    }

    /// An index of any integer type (the language reference, `a[i]`); an
    /// index whose type nothing else decides is an `i64`.
    fn check_index(&mut self, i: &mut Exp) -> Result<(), Diag> {
        let t = self.check_exp(i)?;
        let t = match self.subst.resolve(&t) {
            // Not known yet: any integer type, an `i32` if nothing else
            // decides it (as an integer literal; `def index xs i = xs[i]`
            // is called with an `i32` in Futhark's bounds-error1).
            // A literal index is an `i64` (the type of sizes) as before.
            Type::Var(_) if matches!(i.kind, ExpKind::Lit(_)) => {
                return self.subst.unify(&t, &i64t(), i.span);
            }
            Type::Var(_) => {
                let int = self.subst.fresh_constrained(unify::Constraint {
                    prims: Some((PrimSet::ints(), i.span)),
                    default: Some(PrimType::I32),
                    ..Default::default()
                });
                return self.subst.unify(&t, &int, i.span);
            }
            t => t,
        };
        match t {
            Type::Prim(p) if p.is_int() => Ok(()),
            t => Err(Diag::new(
                i.span,
                format!(
                    "an index must be of an integer type, found a value of type `{}`",
                    self.subst.show(&t)
                ),
            )),
        }
    }

    /// The type of `a[idx]` for `a: at`; checks the indices.
    /// `update`: the target of `a with [idx] = v`, whose slices keep an
    /// unknown size rather than an existential one (the update checks the
    /// value's shape at run time).
    fn index_type(&mut self, at: &Type, idx: &mut [DimIndex], span: Span, update: bool) -> Result<Type, Diag> {
        let mut at = self.subst.resolve(at);
        if let Type::Var(_) = at {
            let e = self.subst.fresh();
            let mut t = e;
            for _ in 0..idx.len() {
                t = t.array_of(Size::Unknown);
            }
            self.subst.unify(&at, &t, span)?;
            at = self.subst.resolve(&t);
        }
        let (elem, shape) = match &at {
            Type::Array { elem, shape, .. } => (elem.clone(), shape.clone()),
            t => {
                return Err(Diag::new(
                    span,
                    format!(
                        "expected an array to index, found a value of type `{}`",
                        self.subst.show(t)
                    ),
                ))
            }
        };
        if idx.len() > shape.len() {
            return Err(Diag::new(
                span,
                format!(
                    "expected at most {} indices for an array of type `{}`, found {}",
                    shape.len(),
                    self.subst.show(&at),
                    idx.len()
                ),
            ));
        }
        let mut out_shape = Vec::new();
        for (d, ix) in shape.iter().zip(idx.iter_mut()) {
            match ix {
                DimIndex::Fix(i) => self.check_index(i)?,
                DimIndex::Slice { start, end, stride } => {
                    let whole = start.is_none() && end.is_none() && stride.is_none();
                    for x in [&mut *start, &mut *end, &mut *stride].into_iter().flatten() {
                        self.check_against(x, &i64t())?;
                    }
                    out_shape.push(if whole {
                        d.clone()
                    } else if update {
                        Size::Unknown
                    } else {
                        self.slice_size(d, start.as_ref(), end.as_ref(), stride.as_ref())
                    });
                }
            }
        }
        out_shape.extend(shape[idx.len()..].iter().cloned());
        let mut t = (*elem).clone();
        for d in out_shape.into_iter().rev() {
            t = t.array_of(d);
        }
        Ok(t)
    }
}

impl Checker {
    /// The size of a slice `a[start:end:stride]` of a dimension `d` that
    /// is not `a[:]`, where Futhark has one: `end` for `a[:end]`,
    /// `end-start` for `a[start:end]`, `d-start` for `a[start:]`, `d` for
    /// `a[::-1]`; else `Unknown` (Note [Existential sizes]).
    fn slice_size(&mut self, d: &Size, start: Option<&Exp>, end: Option<&Exp>, stride: Option<&Exp>) -> Size {
        // A size still being inferred (`def f xs = xs[1:]`) would make an
        // expression that agrees with no other size: not tracked.
        if unify::Subst::is_open(&self.subst.resolve_size(d)) {
            return Size::Unknown;
        }
        match (start, end, stride) {
            (None, None, Some(s)) if is_negated_one(s) => d.clone(),
            (None, Some(j), None) => self.size_of_exp(j),
            (Some(i), Some(j), None) => {
                let (j, i) = (self.size_of_exp(j), self.size_of_exp(i));
                Size::binary(SizeOp::Sub, j, i)
            }
            (Some(i), None, None) => {
                let i = self.size_of_exp(i);
                Size::binary(SizeOp::Sub, d.clone(), i)
            }
            _ => Size::Unknown,
        }
    }

    /// The size of a range (Note [Existential sizes]): `n` for `0..<n`,
    /// `0..1..<n` and `1..2...n` of `i64`, else existential. (A range of
    /// another type, or one whose type is not known yet, is `Unknown`.)
    fn range_size(&mut self, start: &Exp, second: Option<&Exp>, end: &Exp, kind: RangeEnd) -> Size {
        let ty = start.ty.as_ref().map(|t| self.subst.resolve(t));
        if ty != Some(Type::Prim(PrimType::I64)) {
            return Size::Unknown;
        }
        let from = |lo: u128, next: Option<u128>| {
            is_int_literal(start, lo)
                && match (second, next) {
                    (None, _) => true,
                    (Some(s), Some(n)) => is_int_literal(s, n),
                    (Some(_), None) => false,
                }
        };
        let known = match kind {
            RangeEnd::UpToExclusive => from(0, Some(1)),
            RangeEnd::Inclusive => second.is_some() && from(1, Some(2)),
            RangeEnd::DownToExclusive => false,
        };
        // The end is the size, as Futhark has it: also an expression
        // (`0..<(n+1)` is `[n+1]`), compared as size expressions are.
        if known {
            return self.size_of_exp(end);
        }
        self.fresh_existential("the unknown length of range".into())
    }
}

/// Whether `e` is `-1`.
fn is_negated_one(e: &Exp) -> bool {
    match &e.kind {
        ExpKind::Neg(x) => is_int_literal(x, 1),
        _ => false,
    }
}

/// Whether `e` is the integer literal `n`.
fn is_int_literal(e: &Exp, n: u128) -> bool {
    matches!(&e.kind, ExpKind::Lit(Literal::Int { value, .. }) if *value == n)
}

/// The initial value of `loop pat for ...` (no `= init`): the variables
/// the pattern binds, as they are bound outside the loop.
fn loop_init_of(pat: &Pat) -> Result<Exp, Diag> {
    let kind = match &pat.kind {
        PatKind::Id(n) => ExpKind::Var(Var {
            name: QualName::unqual(n.clone()),
            res: None,
        }),
        PatKind::Tuple(ps) => ExpKind::Tuple(ps.iter().map(loop_init_of).collect::<Result<_, _>>()?),
        PatKind::Record(fs) => ExpKind::Record(
            fs.iter()
                .map(|(n, sp, p)| Ok(RecordField::Explicit(n.clone(), *sp, loop_init_of(p)?)))
                .collect::<Result<_, Diag>>()?,
        ),
        PatKind::Ascribe(p, _) => return loop_init_of(p),
        PatKind::Wildcard | PatKind::Lit { .. } | PatKind::Constr(..) => {
            return Err(Diag::new(
                pat.span,
                "a `loop` without `= init` takes its initial value from the variables its pattern binds; this pattern part binds none",
            ))
        }
    };
    Ok(Exp::new(kind, pat.span))
}

/// The record type `t` with the field at `path` of type `v`.
/// Whether two types certainly differ: both known at a place, with
/// different constructors, primitive types, ranks, fields or
/// constructors there. (Unknown parts, functions and sizes do not clash.)
fn clashes(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Var(_), _) | (_, Type::Var(_)) | (Type::Arrow { .. }, Type::Arrow { .. }) => false,
        (Type::Prim(p), Type::Prim(q)) => p != q,
        (Type::Param(p), Type::Param(q)) => p != q,
        (
            Type::Array {
                elem: e1, shape: s1, ..
            },
            Type::Array {
                elem: e2, shape: s2, ..
            },
        ) => s1.len() != s2.len() || clashes(e1, e2),
        (Type::Tuple(xs), Type::Tuple(ys)) => xs.len() != ys.len() || xs.iter().zip(ys).any(|(x, y)| clashes(x, y)),
        (Type::Record(xs), Type::Record(ys)) => {
            xs.len() != ys.len() || xs.iter().zip(ys).any(|((n, x), (m, y))| n != m || clashes(x, y))
        }
        (Type::Sum(xs), Type::Sum(ys)) => {
            xs.len() != ys.len()
                || xs
                    .iter()
                    .zip(ys)
                    .any(|((n, x), (m, y))| n != m || x.len() != y.len() || x.iter().zip(y).any(|(a, b)| clashes(a, b)))
        }
        _ => std::mem::discriminant(a) != std::mem::discriminant(b),
    }
}

fn update_field(t: &Type, path: &[Name], v: &Type) -> Option<Type> {
    let Some((f, rest)) = path.split_first() else {
        return Some(v.clone());
    };
    match t {
        Type::Record(fs) => {
            let mut fs = fs.clone();
            let (_, ft) = fs.iter_mut().find(|(n, _)| n == f)?;
            *ft = update_field(ft, rest, v)?;
            Some(Type::Record(fs))
        }
        Type::Tuple(ts) => {
            let mut ts = ts.clone();
            let ft = ts.get_mut(f.parse::<usize>().ok()?)?;
            *ft = update_field(ft, rest, v)?;
            Some(Type::Tuple(ts))
        }
        _ => None,
    }
}

/// `a + b` as the size of a concatenation, constants folded (see Note
/// [Static size checking]). A size variable stays in it: one that nothing
/// binds becomes a size parameter (`def f (xs: []i32) (ys: []i32) :
/// [10]i32 = xs ++ ys` is an error, as `n+m` is not `10`).
fn size_sum(a: Size, b: Size) -> Size {
    match (a, b) {
        (Size::Const(x), Size::Const(y)) => x.checked_add(y).map_or(Size::Unknown, Size::Const),
        (Size::Const(0), d) | (d, Size::Const(0)) => d,
        (a, b) => Size::binary(SizeOp::Add, a, b),
    }
}

/// `t` (the rest of a function type being applied) with each named
/// parameter of its arrows whose name occurs in `size` renamed to a name
/// that does not (a prime added), in the parameter and below it.
fn avoid_capture(t: Type, size: &Size) -> Type {
    let mentions = |m: &str| size.any_leaf(&mut |d| matches!(d, Size::Var(x) if &**x == m));
    match t {
        Type::Arrow {
            param_name: Some(m),
            param,
            ret,
        } if mentions(&m) => {
            let mut fresh = format!("{m}'");
            while mentions(&fresh) {
                fresh.push('\'');
            }
            let fresh: Name = fresh.into();
            let mut rename = |x: &Name| Size::Var(if *x == m { fresh.clone() } else { x.clone() });
            let ret = super::unify::map_sizes(&ret, &mut rename);
            Type::Arrow {
                param_name: Some(fresh),
                param,
                ret: Rc::new(avoid_capture(ret, size)),
            }
        }
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name,
            param,
            ret: Rc::new(avoid_capture(Rc::unwrap_or_clone(ret), size)),
        },
        t => t,
    }
}
