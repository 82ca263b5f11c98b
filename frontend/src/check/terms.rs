//! Size expressions in types that are not `+ - *` arithmetic: calls,
//! `/`, constants (See Note [Size terms] in `types`).

use std::rc::Rc;

use super::{zonk, Checker};
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, SizeTerm, Type};

impl Checker {
    /// `e` as a `Size::Term`: checked in the current scope, its free local
    /// names (integers) the holes. `Unknown` where it does not check, is
    /// not an `i64`, its types are not all known yet, or it has a form no
    /// term has (a lambda, an array, a local of another type than an
    /// integer).
    pub(crate) fn size_term(&mut self, e: &Exp) -> Size {
        // Checking a lambda or a loop twice (here and where it is) could
        // report its errors twice; no term has one.
        if !term_form(e) {
            return Size::Unknown;
        }
        // Checked, not checked against `i64`: the expression may be an
        // argument for a named parameter of another type (`f r.a` with
        // `def f (x: i32)`), whose own check comes later.
        let mut c = e.clone();
        match self.check_exp(&mut c) {
            Ok(t) if self.subst.resolve(&t) == Type::Prim(PrimType::I64) => {}
            _ => return Size::Unknown,
        }
        let mut resolved = true;
        let subst = &self.subst;
        let walked = zonk::walk_exp(
            &mut c,
            &mut |x| {
                if let Some(t) = &x.ty {
                    let t = subst.resolve(t);
                    resolved &= !has_type_var(&t);
                    x.ty = Some(t);
                }
                Ok(())
            },
            &mut |_| {},
        );
        if walked.is_err() || !resolved {
            return Size::Unknown;
        }
        let mut holes: Vec<(Name, Size)> = Vec::new();
        let (Some(key), Some(shown)) = (
            self.term_key(&c, &mut holes, true),
            self.term_key(&c, &mut holes, false),
        ) else {
            return Size::Unknown;
        };
        // The outermost parentheses say nothing.
        let shown = match shown.strip_prefix('(').and_then(|k| k.strip_suffix(')')) {
            Some(k) if balanced(k) => k.to_string(),
            _ => shown,
        };
        Size::Term(Rc::new(SizeTerm::new(c, key.into(), shown.into(), holes)))
    }

    /// The text of a checked size expression with its local names as
    /// numbered holes, which it adds to `holes`; `None` for a form no
    /// term has. Operators and applications are parenthesised, so equal
    /// keys are equal trees. As a `key`, a top-level name is written as
    /// the definition it resolves to: a module's name for it and the
    /// name its signature gives it (`m.impl.nbs`, `m.nbs`) are one.
    fn term_key(&self, e: &Exp, holes: &mut Vec<(Name, Size)>, key: bool) -> Option<String> {
        Some(match &e.kind {
            ExpKind::Lit(Literal::Int { value, suffix }) => match suffix {
                Some(p) => format!("{value}{p}"),
                None => value.to_string(),
            },
            ExpKind::Lit(Literal::Bool(b)) => b.to_string(),
            ExpKind::Var(v) => match &v.res {
                Some(Resolved::Local) => {
                    let l = self.lookup_local(&v.name.name)?;
                    if l.scheme.is_some() || !matches!(self.subst.resolve(&l.ty), Type::Prim(p) if p.is_int()) {
                        return None;
                    }
                    let i = match holes.iter().position(|(n, _)| *n == v.name.name) {
                        Some(i) => i,
                        None => {
                            // The local's own name: See Note [Shadowed
                            // size names].
                            holes.push((v.name.name.clone(), Size::Var(l.name.clone())));
                            holes.len() - 1
                        }
                    };
                    format!("#{i}")
                }
                Some(Resolved::Global(id)) if key => format!("{{{}.{}}}", id.program, id.dec),
                Some(Resolved::Builtin(b)) if key => b.to_string(),
                Some(_) => crate::types::user_name(&v.name.to_string()).into_owned(),
                None => return None,
            },
            ExpKind::Neg(x) => format!("(-{})", self.term_key(x, holes, key)?),
            ExpKind::Not(x) => format!("(!{})", self.term_key(x, holes, key)?),
            ExpKind::BinOp { op, lhs, rhs, .. } => {
                let (a, b) = (self.term_key(lhs, holes, key)?, self.term_key(rhs, holes, key)?);
                match &op.res {
                    Some(Resolved::Global(id)) if key => format!("({a} {{{}.{}}} {b})", id.program, id.dec),
                    Some(Resolved::Builtin(o)) if key => format!("({a} {o} {b})"),
                    _ => format!("({a} {} {b})", op.name.name),
                }
            }
            ExpKind::Apply(f, args) => {
                let mut s = format!("({}", self.term_key(f, holes, key)?);
                for a in args {
                    s.push(' ');
                    s.push_str(&self.term_key(a, holes, key)?);
                }
                s.push(')');
                s
            }
            ExpKind::Tuple(es) if es.len() == 1 => self.term_key(&es[0], holes, key)?,
            _ => return None,
        })
    }
}

/// Whether `e` has the form of a term: literals, names, operators and
/// applications of names.
fn term_form(e: &Exp) -> bool {
    match &e.kind {
        ExpKind::Lit(Literal::Int { .. } | Literal::Bool(_)) | ExpKind::Var(_) => true,
        ExpKind::Neg(x) | ExpKind::Not(x) => term_form(x),
        ExpKind::BinOp { lhs, rhs, .. } => term_form(lhs) && term_form(rhs),
        ExpKind::Apply(f, args) => matches!(f.kind, ExpKind::Var(_)) && args.iter().all(term_form),
        ExpKind::Tuple(es) => es.len() == 1 && term_form(&es[0]),
        _ => false,
    }
}

/// Whether the parentheses of `s` pair up (so that `(a) + (b)` keeps its
/// outer ones).
fn balanced(s: &str) -> bool {
    let mut depth = 0i32;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

fn has_type_var(t: &Type) -> bool {
    match t {
        Type::Var(_) => true,
        Type::Prim(_) | Type::Param(_) => false,
        Type::Array { elem, .. } => has_type_var(elem),
        Type::Tuple(ts) => ts.iter().any(has_type_var),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_type_var(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_type_var)),
        Type::Arrow { param, ret, .. } => has_type_var(param) || has_type_var(ret),
    }
}
