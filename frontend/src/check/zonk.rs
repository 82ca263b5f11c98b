//! After a declaration is checked: default the remaining type variables
//! and write the final types into the tree.

use std::cell::RefCell;

use super::{builtins, Checker};
use crate::diag::Diag;
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, Type};

/// Visit every expression and pattern of a tree, children first.
pub fn walk_exp(
    e: &mut Exp,
    fe: &mut dyn FnMut(&mut Exp) -> Result<(), Diag>,
    fp: &mut dyn FnMut(&mut Pat),
) -> Result<(), Diag> {
    fn idx(
        ix: &mut [DimIndex],
        fe: &mut dyn FnMut(&mut Exp) -> Result<(), Diag>,
        fp: &mut dyn FnMut(&mut Pat),
    ) -> Result<(), Diag> {
        for i in ix {
            match i {
                DimIndex::Fix(x) => walk_exp(x, fe, fp)?,
                DimIndex::Slice { start, end, stride } => {
                    for x in [start, end, stride].into_iter().flatten() {
                        walk_exp(x, fe, fp)?;
                    }
                }
            }
        }
        Ok(())
    }
    match &mut e.kind {
        ExpKind::Lit(_) | ExpKind::Var(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => {}
        ExpKind::Neg(x) | ExpKind::Not(x) | ExpKind::Project(x, _) | ExpKind::Coerce(x, _) | ExpKind::Ascript(x, _) => {
            walk_exp(x, fe, fp)?
        }
        ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => walk_exp(x, fe, fp)?,
        ExpKind::BinOp { lhs, rhs, .. } => {
            walk_exp(lhs, fe, fp)?;
            walk_exp(rhs, fe, fp)?;
        }
        ExpKind::OpSection { left, right, .. } => {
            for x in [left, right].into_iter().flatten() {
                walk_exp(x, fe, fp)?;
            }
        }
        ExpKind::Apply(f, args) => {
            walk_exp(f, fe, fp)?;
            for a in args {
                walk_exp(a, fe, fp)?;
            }
        }
        ExpKind::Lambda { params, body, .. } => {
            params.iter_mut().for_each(|p| walk_pat(p, fp));
            walk_exp(body, fe, fp)?;
        }
        ExpKind::Tuple(es) | ExpKind::ArrayLit(es) | ExpKind::Constr(_, es) => {
            for x in es {
                walk_exp(x, fe, fp)?;
            }
        }
        ExpKind::Record(fs) => {
            for f in fs {
                if let RecordField::Explicit(_, _, x) = f {
                    walk_exp(x, fe, fp)?;
                }
            }
        }
        ExpKind::Range { start, second, end, .. } => {
            walk_exp(start, fe, fp)?;
            if let Some(s) = second {
                walk_exp(s, fe, fp)?;
            }
            walk_exp(end, fe, fp)?;
        }
        ExpKind::Index(a, ix) => {
            walk_exp(a, fe, fp)?;
            idx(ix, fe, fp)?;
        }
        ExpKind::If { cond, then, els } => {
            walk_exp(cond, fe, fp)?;
            walk_exp(then, fe, fp)?;
            walk_exp(els, fe, fp)?;
        }
        ExpKind::Let { pat, value, body } => {
            walk_pat(pat, fp);
            walk_exp(value, fe, fp)?;
            walk_exp(body, fe, fp)?;
        }
        ExpKind::LetFun {
            params, value, body, ..
        } => {
            params.iter_mut().for_each(|p| walk_pat(p, fp));
            walk_exp(value, fe, fp)?;
            walk_exp(body, fe, fp)?;
        }
        ExpKind::LetWith { index, value, body, .. } => {
            idx(index, fe, fp)?;
            walk_exp(value, fe, fp)?;
            walk_exp(body, fe, fp)?;
        }
        ExpKind::Update { array, index, value } => {
            walk_exp(array, fe, fp)?;
            idx(index, fe, fp)?;
            walk_exp(value, fe, fp)?;
        }
        ExpKind::RecordUpdate { record, value, .. } => {
            walk_exp(record, fe, fp)?;
            walk_exp(value, fe, fp)?;
        }
        ExpKind::Loop { pat, init, form, body } => {
            walk_pat(pat, fp);
            if let Some(i) = init {
                walk_exp(i, fe, fp)?;
            }
            match &mut **form {
                LoopForm::For(_, _, b) => walk_exp(b, fe, fp)?,
                LoopForm::ForIn(p, xs) => {
                    walk_pat(p, fp);
                    walk_exp(xs, fe, fp)?;
                }
                LoopForm::While(c) => walk_exp(c, fe, fp)?,
            }
            walk_exp(body, fe, fp)?;
        }
        ExpKind::Assert(c, x) => {
            walk_exp(c, fe, fp)?;
            walk_exp(x, fe, fp)?;
        }
        ExpKind::Match(x, cases) => {
            walk_exp(x, fe, fp)?;
            for (p, c) in cases {
                walk_pat(p, fp);
                walk_exp(c, fe, fp)?;
            }
        }
    }
    fe(e)
}

pub fn walk_pat(p: &mut Pat, fp: &mut dyn FnMut(&mut Pat)) {
    match &mut p.kind {
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter_mut().for_each(|q| walk_pat(q, fp)),
        PatKind::Record(fs) => fs.iter_mut().for_each(|(_, _, q)| walk_pat(q, fp)),
        PatKind::Ascribe(q, _) => walk_pat(q, fp),
        PatKind::Id(_) | PatKind::Wildcard | PatKind::Lit { .. } => {}
    }
    fp(p)
}

/// Default, resolve and write back every type in a declaration; check
/// that literals fit their types.
pub fn zonk_valbind(ck: &mut Checker, vb: &mut ValBind) -> Result<(), Diag> {
    // First default every variable anywhere in the tree, then resolve.
    let mut left = Vec::new();
    {
        // Both visitors default the variables of the types they meet, in
        // the order of the walk.
        let state = RefCell::new((&mut ck.subst, &mut left));
        let default = |t: &Option<Type>| {
            if let Some(t) = t {
                let (subst, left) = &mut *state.borrow_mut();
                subst.default_vars(t, left);
            }
        };
        walk_exp(
            &mut vb.body,
            &mut |e| {
                default(&e.ty);
                Ok(())
            },
            &mut |p| default(&p.ty),
        )?;
        for p in vb.params.iter_mut() {
            walk_pat(p, &mut |p| default(&p.ty));
        }
        for v in left.drain(..) {
            if let Some(d) = ck.subst.ambiguous_sum(v) {
                return Err(d);
            }
            if !ck.subst.constraint(v).fields.is_empty() {
                let (n, _, s) = ck.subst.constraint(v).fields[0].clone();
                return Err(Diag::new(
                    s,
                    format!("cannot infer the type that has field `{n}`; add a type annotation"),
                ));
            }
            // Nothing constrains it (e.g. the element type of an unused
            // empty array): any type will do.
            ck.subst.set(v, Type::unit());
        }
    }
    let subst = &ck.subst;
    let resolve = |t: &Type| subst.resolve_final_changed(t);
    let mut fix_pat = |p: &mut Pat| {
        if let Some(t) = p.ty.as_ref().and_then(resolve) {
            p.ty = Some(t);
        }
    };
    for p in vb.params.iter_mut() {
        walk_pat(p, &mut fix_pat);
    }
    // A literal that fits its type only negated (`128` as an `i8`) waits
    // for its `-` here (children are visited first).
    let mut needs_minus: Vec<(crate::span::Span, Diag)> = Vec::new();
    walk_exp(
        &mut vb.body,
        &mut |e| {
            if let Some(t) = e.ty.as_ref().and_then(resolve) {
                e.ty = Some(t);
            }
            match (&e.kind, &e.ty) {
                (ExpKind::Lit(Literal::Int { value, suffix: None }), Some(Type::Prim(p))) => {
                    if let Err(d) = check_int_literal(*value, *p, false, e.span) {
                        check_int_literal(*value, *p, true, e.span).map_err(|_| d.clone())?;
                        needs_minus.push((e.span, d));
                    }
                }
                (ExpKind::Neg(x), Some(Type::Prim(p))) => {
                    if let ExpKind::Lit(Literal::Int { value, suffix: None }) = &x.kind {
                        needs_minus.retain(|(s, _)| *s != x.span);
                        check_int_literal(*value, *p, true, e.span)?;
                    }
                }
                (ExpKind::Lit(Literal::Float { value, suffix: None }), Some(Type::Prim(p))) => {
                    let max = match p {
                        PrimType::F16 => 65504.0,
                        PrimType::F32 => f32::MAX as f64,
                        _ => f64::MAX,
                    };
                    if value.is_finite() && value.abs() > max {
                        return Err(Diag::new(
                            e.span,
                            format!("Literal {value} out of bounds for type `{p}`"),
                        ));
                    }
                }
                _ => {}
            }
            if let (
                ExpKind::Var(Var {
                    res: Some(Resolved::Builtin(b)),
                    ..
                }),
                Some(t),
            ) = (&e.kind, &e.ty)
            {
                check_implicit_sizes(b, t, e.span)?;
            }
            if e.ty.is_none() {
                e.ty = Some(Type::unit());
            }
            Ok(())
        },
        &mut fix_pat,
    )?;
    match needs_minus.into_iter().next() {
        Some((_, d)) => Err(d),
        None => Ok(()),
    }
}

/// The implicit sizes of `unflatten`, `split` and `rep` (see
/// `builtins::implicit_size_count`) must be known where they are used, as
/// the interpreters take them from the type; `rep`'s come from the
/// context of its result alone. They are not when the
/// argument's size is a size variable that was generalised away (`def f xs
/// = unflatten (flatten xs)`, whose `xs` has no declared sizes): the body
/// of a function does not see the sizes it was generalised over.
fn check_implicit_sizes(b: &str, t: &Type, span: crate::span::Span) -> Result<(), Diag> {
    // One unknown size is derived from the argument's at run time (Note
    // [Sizes derived from the argument] in `builtins`).
    let unknown = builtins::implicit_sizes(b, t)
        .iter()
        .filter(|d| **d == Size::Unknown)
        .count();
    if unknown == 0 || unknown == 1 && b != "rep" {
        return Ok(());
    }
    if b == "rep" {
        return Err(
            Diag::new(span, "cannot determine the size of the array that `rep` produces here")
                .help("give the result a type with a known size (`let xs: [n]t = rep x`), or use `replicate n x`"),
        );
    }
    Err(Diag::new(
        span,
        format!("cannot determine the sizes that `{b}` produces here: the size of its argument is not known"),
    )
    .help(format!(
        "declare size parameters for the sizes of the enclosing function's parameters \
         (`def f [n][m] (xs: [n][m]t)`), or coerce the argument (`xs :> [{}]t`)",
        if b == "split" { "n+m" } else { "n*m" }
    )))
}

/// An overloaded integer literal (no suffix) must fit the type its
/// context gives it, `negated` or not: `257: u8`, `128: i8` and `-4: u8`
/// are errors, `-128: i8` is not. A suffixed one wraps, as in Futhark:
/// `257u8` is `1u8` and `255i8` is `-1i8` (its magnitude is kept and
/// truncated to the type where it is evaluated).
pub(crate) fn check_int_literal(v: u128, p: PrimType, negated: bool, span: crate::span::Span) -> Result<(), Diag> {
    let max: u128 = match p {
        // Negated, the magnitude may be one more: `-128`.
        PrimType::I8 => (1 << 7) - 1 + negated as u128,
        PrimType::I16 => (1 << 15) - 1 + negated as u128,
        PrimType::I32 => (1 << 31) - 1 + negated as u128,
        PrimType::I64 => (1 << 63) - 1 + negated as u128,
        PrimType::U8 if !negated => u8::MAX as u128,
        PrimType::U16 if !negated => u16::MAX as u128,
        PrimType::U32 if !negated => u32::MAX as u128,
        PrimType::U64 if !negated => u64::MAX as u128,
        PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64 => 0,
        _ => return Ok(()),
    };
    if v > max {
        let lit = if negated { format!("-{v}") } else { v.to_string() };
        return Err(Diag::new(span, format!("Literal {lit} out of bounds for type `{p}`")));
    }
    Ok(())
}
