//! Read-only traversal: the direct sub-expressions of an expression.

use super::ast::*;

/// Call `f` on each direct sub-expression of `e` (not on patterns or
/// types), in source order. Recursion is the caller's: use an explicit
/// stack to walk trees of any depth.
pub fn children<'a>(e: &'a Exp, f: &mut dyn FnMut(&'a Exp)) {
    fn idx<'a>(ix: &'a [DimIndex], f: &mut dyn FnMut(&'a Exp)) {
        for i in ix {
            match i {
                DimIndex::Fix(x) => f(x),
                DimIndex::Slice { start, end, stride } => {
                    for x in [start, end, stride].into_iter().flatten() {
                        f(x)
                    }
                }
            }
        }
    }
    match &e.kind {
        ExpKind::Lit(_) | ExpKind::Var(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => {}
        ExpKind::Neg(x)
        | ExpKind::Not(x)
        | ExpKind::Project(x, _)
        | ExpKind::Coerce(x, _)
        | ExpKind::Ascript(x, _)
        | ExpKind::Attr(_, x)
        | ExpKind::OpenIn(_, x) => f(x),
        ExpKind::BinOp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExpKind::OpSection { left, right, .. } => {
            for x in [left, right].into_iter().flatten() {
                f(x)
            }
        }
        ExpKind::Apply(g, args) => {
            f(g);
            args.iter().for_each(&mut *f);
        }
        ExpKind::Lambda { body, .. } => f(body),
        ExpKind::Tuple(es) | ExpKind::ArrayLit(es) | ExpKind::Constr(_, es) => es.iter().for_each(&mut *f),
        ExpKind::Record(fs) => {
            for fl in fs {
                if let RecordField::Explicit(_, _, x) = fl {
                    f(x);
                }
            }
        }
        ExpKind::Range { start, second, end, .. } => {
            f(start);
            if let Some(s) = second {
                f(s);
            }
            f(end);
        }
        ExpKind::Index(a, ix) => {
            f(a);
            idx(ix, f);
        }
        ExpKind::If { cond, then, els } => {
            f(cond);
            f(then);
            f(els);
        }
        ExpKind::Let { value, body, .. } | ExpKind::LetFun { value, body, .. } => {
            f(value);
            f(body);
        }
        ExpKind::LetWith { index, value, body, .. } => {
            idx(index, f);
            f(value);
            f(body);
        }
        ExpKind::Update { array, index, value } => {
            f(array);
            idx(index, f);
            f(value);
        }
        ExpKind::RecordUpdate { record, value, .. } => {
            f(record);
            f(value);
        }
        ExpKind::Loop { init, form, body, .. } => {
            if let Some(i) = init {
                f(i);
            }
            match &**form {
                LoopForm::For(_, _, b) => f(b),
                LoopForm::ForIn(_, xs) => f(xs),
                LoopForm::While(c) => f(c),
            }
            f(body);
        }
        ExpKind::Assert(c, x) => {
            f(c);
            f(x);
        }
        ExpKind::Match(x, cases) => {
            f(x);
            cases.iter().for_each(|(_, c)| f(c));
        }
    }
}
