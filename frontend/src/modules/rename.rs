//! Rewriting the names in a declaration to the flat names they denote in
//! a module scope (see the module documentation of `modules`).

use std::rc::Rc;

use super::{lookup_struct, Env, Module};
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::PrimType;

/// Rename a `def` (its own name is left to the caller).
/// Rename a `def`, whose flat name will be `flat`: a function (one with
/// parameters) sees itself by its name in its body (Note [Recursive
/// functions] in check).
pub(super) fn valbind(vb: &mut ValBind, env: &Env, flat: &Name) -> Result<(), Diag> {
    let mut r = Renamer::new(env);
    if !vb.params.is_empty() {
        r.itself = Some((vb.name.clone(), flat.clone()));
    }
    r.type_params(&vb.type_params);
    for p in &mut vb.params {
        r.pat(p)?;
    }
    if let Some(t) = &mut vb.ret {
        r.type_exp(t)?;
    }
    r.exp(&mut vb.body)
}

/// Rename a `type` (its own name is left to the caller).
pub(super) fn typebind(tb: &mut TypeBind, env: &Env) -> Result<(), Diag> {
    let mut r = Renamer::new(env);
    r.type_params(&tb.params);
    r.type_exp(&mut tb.def)
}

/// Rename the type names of a type expression, with `tparams` in scope.
pub(super) fn type_exp(te: &mut TypeExp, env: &Env, tparams: &[TypeParam]) -> Result<(), Diag> {
    let mut r = Renamer::new(env);
    r.type_params(tparams);
    r.type_exp(te)
}

struct Renamer<'e> {
    env: &'e Env,
    /// Modules opened by `m.(e)`, innermost last, each with the number of
    /// `locals` bound outside it: an opened module's names shadow those
    /// locals, and are shadowed by the ones bound inside `e`.
    opened: Vec<(usize, Rc<Env>)>,
    /// Names bound inside the declaration.
    locals: Vec<Name>,
    /// Type parameters in scope.
    tparams: Vec<Name>,
    /// The function being defined and its flat name: in scope of its body
    /// as an unqualified name, under the locals and opened modules.
    itself: Option<(Name, Name)>,
}

/// Where a name was found.
enum Found<'a> {
    Local,
    Val(&'a Name),
    None,
}

impl<'e> Renamer<'e> {
    fn new(env: &'e Env) -> Renamer<'e> {
        Renamer {
            env,
            opened: Vec::new(),
            locals: Vec::new(),
            tparams: Vec::new(),
            itself: None,
        }
    }

    fn type_params(&mut self, tps: &[TypeParam]) {
        for tp in tps {
            match tp {
                TypeParam::Size { name, .. } => self.locals.push(name.clone()),
                TypeParam::Type { name, .. } => self.tparams.push(name.clone()),
            }
        }
    }

    fn val(&self, n: &str) -> Found<'_> {
        self.val_or_itself(n, false)
    }

    /// `val`; with `itself`, the function being defined is found under
    /// the locals and opened modules (only unqualified names see it).
    fn val_or_itself(&self, n: &str, itself: bool) -> Found<'_> {
        let mut inner = self.locals.len();
        for (outer, o) in self.opened.iter().rev() {
            if self.locals[*outer..inner].iter().any(|l| &**l == n) {
                return Found::Local;
            }
            if let Some(v) = o.vals.get(n) {
                return Found::Val(&v.flat);
            }
            inner = *outer;
        }
        if self.locals[..inner].iter().any(|l| &**l == n) {
            return Found::Local;
        }
        if let Some((name, flat)) = self.itself.as_ref().filter(|_| itself) {
            if **name == *n {
                return Found::Val(flat);
            }
        }
        match self.env.vals.get(n) {
            Some(v) => Found::Val(&v.flat),
            None => Found::None,
        }
    }

    fn module(&self, n: &str) -> Option<Module> {
        for (_, o) in self.opened.iter().rev() {
            if let Some(m) = o.mods.get(n) {
                return Some(m.clone());
            }
        }
        self.env.mods.get(n).cloned()
    }

    fn type_name(&self, n: &str) -> Option<Name> {
        for (_, o) in self.opened.iter().rev() {
            if let Some(t) = o.types.get(n) {
                return Some(t.flat.clone());
            }
        }
        self.env.types.get(n).map(|t| t.flat.clone())
    }

    /// The structure named by the first `k` parts of a qualified name
    /// whose head is a module.
    fn walk_path(&self, head: Module, rest: &[Name], qn: &QualName, span: Span) -> Result<(Rc<Env>, usize), Diag> {
        let mut cur = match head {
            Module::Struct(e) => e,
            Module::Functor(_) => {
                return Err(Diag::new(
                    span,
                    format!("expected a structure, found the parametric module `{}`", qn.quals[0]),
                ))
            }
        };
        let mut used = 0;
        for part in rest {
            match cur.mods.get(part).cloned() {
                Some(Module::Struct(e)) => {
                    cur = e;
                    used += 1;
                }
                Some(Module::Functor(_)) => {
                    return Err(Diag::new(
                        span,
                        format!("expected a structure, found the parametric module `{part}`"),
                    ))
                }
                None => break,
            }
        }
        Ok((cur, used))
    }

    /// A name used as a value.
    fn var(&self, qn: &mut QualName, span: Span) -> Result<(), Diag> {
        if qn.quals.is_empty() {
            if let Found::Val(f) = self.val_or_itself(&qn.name, true) {
                qn.name = f.clone();
            }
            return Ok(());
        }
        let head = qn.quals[0].clone();
        match self.val(&head) {
            Found::Local => return Ok(()),
            Found::Val(f) => {
                qn.quals[0] = f.clone();
                return Ok(());
            }
            Found::None => {}
        }
        let Some(m) = self.module(&head) else {
            // A built-in (`i32.sum`), or unknown: the checker decides.
            return Ok(());
        };
        let (env, used) = self.walk_path(m, &qn.quals[1..], qn, span)?;
        let at = 1 + used;
        if at < qn.quals.len() {
            // `M.r.x`: a value of the module, then fields.
            let v = &qn.quals[at];
            let Some(ent) = env.vals.get(v) else {
                return Err(Diag::new(
                    span,
                    format!(
                        "unknown name `{qn}`: module `{}` has no `{v}`",
                        qn.quals[..at].join(".")
                    ),
                ));
            };
            let mut quals = vec![ent.flat.clone()];
            quals.extend(qn.quals[at + 1..].iter().cloned());
            qn.quals = quals;
            return Ok(());
        }
        match env.vals.get(&qn.name) {
            Some(ent) => {
                *qn = QualName::unqual(ent.flat.clone());
                Ok(())
            }
            None => Err(Diag::new(
                span,
                format!(
                    "unknown name `{qn}`: module `{}` has no `{}`",
                    qn.quals.join("."),
                    qn.name
                ),
            )),
        }
    }

    /// A name used as a type.
    fn type_var(&self, qn: &mut QualName, span: Span) -> Result<(), Diag> {
        if qn.quals.is_empty() {
            if PrimType::from_name(&qn.name).is_some() && self.type_name(&qn.name).is_none() {
                return Ok(());
            }
            if self.tparams.contains(&qn.name) {
                return Ok(());
            }
            if let Some(f) = self.type_name(&qn.name) {
                qn.name = f;
            }
            return Ok(());
        }
        if &*qn.quals[0] == sig::SIG_LOCAL {
            return Ok(());
        }
        let Some(m) = self.module(&qn.quals[0]) else {
            return Err(Diag::new(
                span,
                format!("unknown type `{qn}`: unknown module `{}`", qn.quals[0]),
            ));
        };
        let (env, used) = self.walk_path(m, &qn.quals[1..], qn, span)?;
        if 1 + used < qn.quals.len() {
            return Err(Diag::new(
                span,
                format!(
                    "unknown type `{qn}`: unknown module `{}`",
                    qn.quals[..2 + used].join(".")
                ),
            ));
        }
        match env.types.get(&qn.name) {
            Some(t) => {
                *qn = QualName::unqual(t.flat.clone());
                Ok(())
            }
            None => Err(Diag::new(
                span,
                format!(
                    "unknown type `{qn}`: module `{}` has no type `{}`",
                    qn.quals.join("."),
                    qn.name
                ),
            )),
        }
    }

    /// A size, in an array type or as an abbreviation's argument, may name
    /// a top-level constant (`def n = 3`, `[n]`, `vec [n]`).
    fn size_exp(&mut self, size: &mut SizeExp) -> Result<(), Diag> {
        match size {
            SizeExp::Name(qn, sp) => self.var(qn, *sp),
            SizeExp::Exp(e, _) => self.exp(e),
            SizeExp::Any | SizeExp::Const(..) => Ok(()),
        }
    }

    fn type_exp(&mut self, te: &mut TypeExp) -> Result<(), Diag> {
        let span = te.span;
        match &mut te.kind {
            TypeExpKind::Var(qn) => self.type_var(qn, span),
            TypeExpKind::Tuple(ts) => ts.iter_mut().try_for_each(|t| self.type_exp(t)),
            TypeExpKind::Record(fs) => fs.iter_mut().try_for_each(|(_, _, t)| self.type_exp(t)),
            TypeExpKind::Array(size, t) => {
                self.size_exp(size)?;
                self.type_exp(t)
            }
            TypeExpKind::Existential(names, t) => {
                let mark = self.locals.len();
                self.locals.extend(names.iter().map(|(n, _)| n.clone()));
                let r = self.type_exp(t);
                self.locals.truncate(mark);
                r
            }
            TypeExpKind::Unique(t) => self.type_exp(t),
            TypeExpKind::Arrow(name, a, b) => {
                self.type_exp(a)?;
                let mark = self.locals.len();
                self.locals.extend(name.iter().cloned());
                let r = self.type_exp(b);
                self.locals.truncate(mark);
                r
            }
            TypeExpKind::Apply(h, args) => {
                self.type_exp(h)?;
                for a in args {
                    match a {
                        TypeArgExp::Type(t) => self.type_exp(t)?,
                        TypeArgExp::Size(size, _) => self.size_exp(size)?,
                    }
                }
                Ok(())
            }
            TypeExpKind::Sum(cs) => cs
                .iter_mut()
                .try_for_each(|(_, ts)| ts.iter_mut().try_for_each(|t| self.type_exp(t))),
        }
    }

    /// Rename the types in a pattern and bind its names.
    fn pat(&mut self, p: &mut Pat) -> Result<(), Diag> {
        match &mut p.kind {
            PatKind::Id(n) => self.locals.push(n.clone()),
            PatKind::Wildcard | PatKind::Lit { .. } => {}
            PatKind::Tuple(ps) | PatKind::Constr(_, ps) => {
                for q in ps {
                    self.pat(q)?;
                }
            }
            PatKind::Record(fs) => {
                for (_, _, q) in fs {
                    self.pat(q)?;
                }
            }
            PatKind::Ascribe(q, te) => {
                self.type_exp(te)?;
                self.pat(q)?;
            }
        }
        Ok(())
    }

    fn index(&mut self, ix: &mut [DimIndex]) -> Result<(), Diag> {
        for i in ix {
            match i {
                DimIndex::Fix(x) => self.exp(x)?,
                DimIndex::Slice { start, end, stride } => {
                    for x in [start, end, stride].into_iter().flatten() {
                        self.exp(x)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn exp(&mut self, e: &mut Exp) -> Result<(), Diag> {
        let span = e.span;
        match &mut e.kind {
            ExpKind::Lit(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => {}
            ExpKind::Var(v) => self.var(&mut v.name, span)?,
            ExpKind::Neg(x) | ExpKind::Not(x) | ExpKind::Project(x, _) | ExpKind::Attr(_, x) => self.exp(x)?,
            ExpKind::Coerce(x, t) | ExpKind::Ascript(x, t) => {
                self.exp(x)?;
                self.type_exp(t)?;
            }
            ExpKind::BinOp {
                op, op_span, lhs, rhs, ..
            } => {
                self.var(&mut op.name, *op_span)?;
                self.exp(lhs)?;
                self.exp(rhs)?;
            }
            ExpKind::OpSection {
                op,
                op_span,
                left,
                right,
            } => {
                self.var(&mut op.name, *op_span)?;
                for x in [left, right].into_iter().flatten() {
                    self.exp(x)?;
                }
            }
            ExpKind::Apply(f, args) => {
                self.exp(f)?;
                for a in args {
                    self.exp(a)?;
                }
            }
            ExpKind::Lambda { params, ret, body } => {
                let mark = self.locals.len();
                for p in params {
                    self.pat(p)?;
                }
                if let Some(t) = ret {
                    self.type_exp(t)?;
                }
                self.exp(body)?;
                self.locals.truncate(mark);
            }
            ExpKind::Tuple(es) | ExpKind::ArrayLit(es) | ExpKind::Constr(_, es) => {
                for x in es {
                    self.exp(x)?;
                }
            }
            ExpKind::Record(fs) => {
                for f in fs.iter_mut() {
                    match f {
                        RecordField::Explicit(_, _, x) => self.exp(x)?,
                        RecordField::Implicit(n, s, _) => {
                            if let Found::Val(flat) = self.val(n) {
                                if flat != n {
                                    let x = Exp::new(
                                        ExpKind::Var(Var {
                                            name: QualName::unqual(flat.clone()),
                                            res: None,
                                        }),
                                        *s,
                                    );
                                    *f = RecordField::Explicit(n.clone(), *s, x);
                                }
                            }
                        }
                    }
                }
            }
            ExpKind::Range { start, second, end, .. } => {
                self.exp(start)?;
                if let Some(s) = second {
                    self.exp(s)?;
                }
                self.exp(end)?;
            }
            ExpKind::Index(a, ix) => {
                self.exp(a)?;
                self.index(ix)?;
            }
            ExpKind::If { cond, then, els } => {
                self.exp(cond)?;
                self.exp(then)?;
                self.exp(els)?;
            }
            ExpKind::Let { pat, value, body } => {
                self.exp(value)?;
                let mark = self.locals.len();
                self.pat(pat)?;
                self.exp(body)?;
                self.locals.truncate(mark);
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                ret,
                value,
                body,
                ..
            } => {
                let mark = self.locals.len();
                let tmark = self.tparams.len();
                self.type_params(type_params);
                for p in params {
                    self.pat(p)?;
                }
                if let Some(t) = ret {
                    self.type_exp(t)?;
                }
                self.exp(value)?;
                self.locals.truncate(mark);
                self.tparams.truncate(tmark);
                self.locals.push(name.clone());
                self.exp(body)?;
                self.locals.truncate(mark);
            }
            ExpKind::LetWith { index, value, body, .. } => {
                self.index(index)?;
                self.exp(value)?;
                self.exp(body)?;
            }
            ExpKind::Update { array, index, value } => {
                self.exp(array)?;
                self.index(index)?;
                self.exp(value)?;
            }
            ExpKind::RecordUpdate { record, value, .. } => {
                self.exp(record)?;
                self.exp(value)?;
            }
            ExpKind::Loop { pat, init, form, body } => {
                if let Some(i) = init {
                    self.exp(i)?;
                }
                let mark = self.locals.len();
                match &mut **form {
                    LoopForm::For(i, _, b) => {
                        self.exp(b)?;
                        self.locals.push(i.clone());
                    }
                    LoopForm::ForIn(p, xs) => {
                        self.exp(xs)?;
                        self.pat(p)?;
                    }
                    LoopForm::While(_) => {}
                }
                self.pat(pat)?;
                if let LoopForm::While(c) = &mut **form {
                    self.exp(c)?;
                }
                self.exp(body)?;
                self.locals.truncate(mark);
            }
            ExpKind::Assert(c, x) => {
                self.exp(c)?;
                self.exp(x)?;
            }
            ExpKind::Match(x, cases) => {
                self.exp(x)?;
                for (p, c) in cases {
                    let mark = self.locals.len();
                    self.pat(p)?;
                    self.exp(c)?;
                    self.locals.truncate(mark);
                }
            }
            ExpKind::OpenIn(path, x) => {
                let opened = lookup_struct_in(self, path, span)?;
                self.opened.push((self.locals.len(), opened));
                let r = self.exp(x);
                self.opened.pop();
                r?;
                let inner = std::mem::replace(&mut **x, Exp::new(ExpKind::Tuple(Vec::new()), span));
                *e = inner;
            }
        }
        Ok(())
    }
}

/// The structure `path` names from inside a renamer (opened modules
/// first).
fn lookup_struct_in(r: &Renamer<'_>, path: &[Name], span: Span) -> Result<Rc<Env>, Diag> {
    for (_, o) in r.opened.iter().rev() {
        if o.mods.contains_key(&path[0]) {
            return lookup_struct(o, path, span);
        }
    }
    lookup_struct(r.env, path, span)
}

use super::sig;
