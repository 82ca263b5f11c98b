//! The free variables of a lambda or local function: what its closure
//! captures.
//!
//! A closure that held its whole defining scope would keep every array of
//! that scope alive, and an array referenced twice is copied by its next
//! in-place update (Note [Value representation]): a helper `let f = \j ->
//! ...` inside a loop that updates an array would copy the array on every
//! iteration. Capturing exactly the free variables avoids that.
//!
//! Sizes count as uses: a size variable in the type of an expression (a
//! coercion `:> [n]t`, the element shape of an empty array) is looked up at
//! run time. A name with no binding when the closure is made (an
//! existential size of the checker) is simply not captured.

use crate::syntax::ast::{DimIndex, Exp, ExpKind, LoopForm, Pat, PatKind, RecordField, Resolved, TypeParam, Var};
use crate::types::{Size, Type};

/// The names free in `\params -> body` (with size parameters
/// `type_params`), each once, in order of first use.
pub(crate) fn free_vars<'a>(type_params: &'a [TypeParam], params: &'a [Pat], body: &'a Exp) -> Vec<&'a str> {
    let mut fv = Free::default();
    for tp in type_params {
        fv.bound.push(tp.name());
    }
    for p in params {
        fv.bind(p);
    }
    fv.exp(body);
    fv.free
}

#[derive(Default)]
struct Free<'a> {
    bound: Vec<&'a str>,
    free: Vec<&'a str>,
}

impl<'a> Free<'a> {
    fn use_name(&mut self, n: &'a str) {
        if !self.bound.iter().rev().any(|b| *b == n) && !self.free.contains(&n) {
            self.free.push(n);
        }
    }

    fn use_var(&mut self, v: &'a Var) {
        if let Some(Resolved::Local) = v.res {
            self.use_name(&v.name.name);
        }
    }

    fn ty(&mut self, t: &'a Type) {
        match t {
            Type::Array { elem, shape, .. } => {
                for d in shape {
                    self.size(d);
                }
                self.ty(elem);
            }
            Type::Tuple(ts) => ts.iter().for_each(|t| self.ty(t)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| self.ty(t)),
            Type::Sum(cs) => cs.iter().flat_map(|(_, ts)| ts).for_each(|t| self.ty(t)),
            Type::Arrow { param, ret, .. } => {
                self.ty(param);
                self.ty(ret);
            }
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => {}
        }
    }

    fn size(&mut self, d: &'a Size) {
        match d {
            Size::Var(n) => self.use_name(n),
            Size::Expr(e) => {
                self.size(&e.lhs);
                self.size(&e.rhs);
            }
            Size::Term(t) => t.holes.iter().for_each(|(_, d)| self.size(d)),
            Size::Const(_) | Size::Unknown | Size::Infer(_) => {}
        }
    }

    fn bind(&mut self, p: &'a Pat) {
        match &p.kind {
            PatKind::Id(n) => self.bound.push(n),
            PatKind::Wildcard | PatKind::Lit { .. } => {}
            PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| self.bind(q)),
            PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| self.bind(q)),
            PatKind::Ascribe(q, _) => self.bind(q),
        }
    }

    /// The variables of a pattern used as values (`loop x for ...`).
    fn use_pat(&mut self, p: &'a Pat) {
        match &p.kind {
            PatKind::Id(n) => self.use_name(n),
            PatKind::Wildcard | PatKind::Lit { .. } => {}
            PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| self.use_pat(q)),
            PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| self.use_pat(q)),
            PatKind::Ascribe(q, _) => self.use_pat(q),
        }
    }

    fn dims(&mut self, idx: &'a [DimIndex]) {
        for d in idx {
            match d {
                DimIndex::Fix(e) => self.exp(e),
                DimIndex::Slice { start, end, stride } => {
                    for e in [start, end, stride].into_iter().flatten() {
                        self.exp(e);
                    }
                }
            }
        }
    }

    fn exp(&mut self, e: &'a Exp) {
        if let Some(t) = &e.ty {
            self.ty(t);
        }
        let mark = self.bound.len();
        match &e.kind {
            ExpKind::Lit(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => {}
            ExpKind::Var(v) => self.use_var(v),
            ExpKind::Neg(x) | ExpKind::Not(x) | ExpKind::Project(x, _) => self.exp(x),
            ExpKind::Coerce(x, _) | ExpKind::Ascript(x, _) | ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => self.exp(x),
            ExpKind::BinOp { op, lhs, rhs, .. } => {
                self.use_var(op);
                self.exp(lhs);
                self.exp(rhs);
            }
            ExpKind::OpSection { op, left, right, .. } => {
                self.use_var(op);
                for x in [left, right].into_iter().flatten() {
                    self.exp(x);
                }
            }
            ExpKind::Apply(f, args) => {
                self.exp(f);
                args.iter().for_each(|a| self.exp(a));
            }
            ExpKind::Lambda { params, body, .. } => {
                params.iter().for_each(|p| self.bind(p));
                self.exp(body);
            }
            ExpKind::Tuple(es) | ExpKind::ArrayLit(es) | ExpKind::Constr(_, es) => es.iter().for_each(|x| self.exp(x)),
            ExpKind::Record(fields) => {
                for f in fields {
                    match f {
                        RecordField::Explicit(_, _, x) => self.exp(x),
                        RecordField::Implicit(n, _, Some(Resolved::Local)) => self.use_name(n),
                        RecordField::Implicit(..) => {}
                    }
                }
            }
            ExpKind::Range { start, second, end, .. } => {
                self.exp(start);
                if let Some(x) = second {
                    self.exp(x);
                }
                self.exp(end);
            }
            ExpKind::Index(x, idx) => {
                self.exp(x);
                self.dims(idx);
            }
            ExpKind::If { cond, then, els } => {
                self.exp(cond);
                self.exp(then);
                self.exp(els);
            }
            ExpKind::Let { pat, value, body } => {
                self.exp(value);
                self.bind(pat);
                self.exp(body);
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                value,
                body,
                ..
            } => {
                for tp in type_params {
                    self.bound.push(tp.name());
                }
                params.iter().for_each(|p| self.bind(p));
                self.exp(value);
                self.bound.truncate(mark);
                self.bound.push(name);
                self.exp(body);
            }
            ExpKind::LetWith {
                name,
                index,
                value,
                body,
                ..
            } => {
                self.use_name(name);
                self.dims(index);
                self.exp(value);
                self.bound.push(name);
                self.exp(body);
            }
            ExpKind::Update { array, index, value } => {
                self.exp(array);
                self.dims(index);
                self.exp(value);
            }
            ExpKind::RecordUpdate { record, value, .. } => {
                self.exp(record);
                self.exp(value);
            }
            ExpKind::Loop { pat, init, form, body } => {
                match init {
                    Some(x) => self.exp(x),
                    None => self.use_pat(pat),
                }
                match &**form {
                    LoopForm::For(i, _, bound) => {
                        self.exp(bound);
                        self.bind(pat);
                        self.bound.push(i);
                    }
                    LoopForm::ForIn(p, xs) => {
                        self.exp(xs);
                        self.bind(pat);
                        self.bind(p);
                    }
                    LoopForm::While(c) => {
                        self.bind(pat);
                        self.exp(c);
                    }
                }
                self.exp(body);
            }
            ExpKind::Assert(c, x) => {
                self.exp(c);
                self.exp(x);
            }
            ExpKind::Match(x, cases) => {
                self.exp(x);
                for (p, body) in cases {
                    self.bind(p);
                    self.exp(body);
                    self.bound.truncate(mark);
                }
            }
        }
        self.bound.truncate(mark);
    }
}
