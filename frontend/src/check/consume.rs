//! Alias and uniqueness analysis (thesis section 5.3).
//!
//! Every variable binding gets an id; a value's *aliases* are the ids of
//! the bindings whose memory it may share. Consuming a value (passing it
//! for a `*` parameter, `a with [i] = v`, `let a[i] = v`) marks its aliases
//! consumed; a later use of any variable aliasing a consumed one is an
//! error naming both places. Only values whose type contains an array can
//! alias anything.
//!
//! What may be consumed: a variable bound by `let`/`loop` inside the
//! function, or a parameter of unique type (`*`); never a non-unique
//! parameter, and never, inside a loop body or a lambda, a variable bound
//! outside it (it would be consumed once per iteration or call). A loop
//! whose body consumes its parameter consumes its initial value. A function
//! whose return type is unique may not return an alias of a parameter.

use futmlir_dialects::ir::FastMap;

use super::Checker;
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::Type;

type Aliases = Vec<u32>;

struct Binding {
    name: Name,
    aliases: Aliases,
    /// Why it may not be consumed, if it may not.
    not_consumable: Option<&'static str>,
    span: Span,
}

/// A loop body or lambda: bindings with ids below `first` are outside it.
struct Frame {
    first: u32,
    what: &'static str,
}

struct Analysis<'c> {
    /// The top-level functions whose result is fresh
    /// ([`Checker::fresh_results`]).
    fresh_results: &'c std::collections::HashSet<Name>,
    /// All bindings ever made, by id.
    bindings: Vec<Binding>,
    /// Names in scope → id (a stack).
    scope: Vec<(Name, u32)>,
    consumed: FastMap<u32, Span>,
    frames: Vec<Frame>,
}

fn has_array(t: &Type) -> bool {
    match t {
        Type::Array { .. } | Type::Param(_) | Type::Var(_) => true,
        Type::Prim(_) | Type::Arrow { .. } => false,
        Type::Tuple(ts) => ts.iter().any(has_array),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_array(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_array)),
    }
}

fn union(mut a: Aliases, b: &[u32]) -> Aliases {
    for x in b {
        if !a.contains(x) {
            a.push(*x);
        }
    }
    a
}

impl Analysis<'_> {
    fn bind(&mut self, name: &Name, aliases: &[u32], not_consumable: Option<&'static str>, span: Span) -> u32 {
        let id = self.bindings.len() as u32;
        self.bindings.push(Binding {
            name: name.clone(),
            aliases: union(vec![id], aliases),
            not_consumable,
            span,
        });
        self.scope.push((name.clone(), id));
        id
    }

    fn bind_pat(&mut self, p: &Pat, aliases: &[u32], not_consumable: Option<&'static str>) -> Vec<u32> {
        let mut ids = Vec::new();
        self.bind_pat_into(p, aliases, not_consumable, &mut ids);
        ids
    }

    fn bind_pat_into(&mut self, p: &Pat, aliases: &[u32], nc: Option<&'static str>, ids: &mut Vec<u32>) {
        match &p.kind {
            PatKind::Id(n) => {
                let t = p.ty.as_ref();
                let (al, nc) = if t.is_none_or(has_array) {
                    (aliases, nc)
                } else {
                    (&[][..], None)
                };
                ids.push(self.bind(n, al, nc, p.span))
            }
            PatKind::Tuple(ps) | PatKind::Constr(_, ps) => {
                ps.iter().for_each(|q| self.bind_pat_into(q, aliases, nc, ids))
            }
            PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| self.bind_pat_into(q, aliases, nc, ids)),
            PatKind::Ascribe(q, _) => {
                // A unique annotation on a function parameter makes it
                // consumable.
                let nc = if p.ty.as_ref().is_some_and(Type::is_unique) {
                    None
                } else {
                    nc
                };
                self.bind_pat_into(q, aliases, nc, ids)
            }
            PatKind::Wildcard | PatKind::Lit { .. } => {}
        }
    }

    fn lookup(&self, name: &str) -> Option<u32> {
        self.scope.iter().rev().find(|(n, _)| &**n == name).map(|(_, id)| *id)
    }

    fn observe(&self, id: u32, span: Span) -> Result<(), Diag> {
        for a in &self.bindings[id as usize].aliases {
            if let Some(cs) = self.consumed.get(a) {
                let name = &self.bindings[id as usize].name;
                let mut d =
                    Diag::new(span, format!("Using \"{name}\", but this was consumed")).note(*cs, "consumed here");
                if *a != id {
                    d = d.help(format!("`{name}` aliases `{}`", self.bindings[*a as usize].name));
                }
                return Err(d);
            }
        }
        Ok(())
    }

    fn consume(&mut self, aliases: &[u32], span: Span) -> Result<(), Diag> {
        for &a in aliases {
            let b = &self.bindings[a as usize];
            if let Some(why) = b.not_consumable {
                return Err(Diag::new(
                    span,
                    format!("Consuming \"{}\", which is not consumable: {why}", b.name),
                )
                .note(b.span, "bound here")
                .help("only unique values may be consumed: give the parameter a unique type (`*`) or `copy` it"));
            }
            if let Some(f) = self.frames.last() {
                if a < f.first {
                    return Err(Diag::new(
                        span,
                        format!(
                            "Consuming \"{}\", which is not consumable inside {}: it is bound outside it and would be consumed more than once",
                            b.name, f.what
                        ),
                    )
                    .note(b.span, "bound here"));
                }
            }
            if let Some(prev) = self.consumed.get(&a) {
                return Err(
                    Diag::new(span, format!("`{}` is consumed twice", b.name)).note(*prev, "consumed here first")
                );
            }
        }
        for &a in aliases {
            self.consumed.insert(a, span);
        }
        Ok(())
    }

    fn exp(&mut self, e: &Exp) -> Result<Aliases, Diag> {
        let arrays = e.ty.as_ref().is_none_or(has_array);
        let al = self.exp_inner(e)?;
        Ok(if arrays { al } else { Vec::new() })
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Diag>) -> Result<T, Diag> {
        let mark = self.scope.len();
        let r = f(self);
        self.scope.truncate(mark);
        r
    }

    fn indices(&mut self, ix: &[DimIndex]) -> Result<(), Diag> {
        for i in ix {
            match i {
                DimIndex::Fix(x) => {
                    self.exp(x)?;
                }
                DimIndex::Slice { start, end, stride } => {
                    for x in [start, end, stride].into_iter().flatten() {
                        self.exp(x)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// A call: consume the arguments passed for unique parameters.
    fn apply(
        &mut self,
        fty: Option<&Type>,
        fal: Aliases,
        args: &[&Exp],
        result: Option<&Type>,
    ) -> Result<Aliases, Diag> {
        let mut arg_al = Vec::new();
        for a in args {
            arg_al.push(self.exp(a)?);
        }
        let mut t = fty;
        let mut out = fal;
        for (a, al) in args.iter().zip(&arg_al) {
            match t {
                Some(Type::Arrow { param, ret, .. }) => {
                    if param.is_unique() {
                        self.consume(al, a.span)?;
                    } else {
                        out = union(out, al);
                    }
                    t = Some(ret);
                }
                _ => {
                    out = union(out, al);
                    t = None;
                }
            }
        }
        if result.is_some_and(Type::is_unique) {
            return Ok(Vec::new());
        }
        Ok(out)
    }

    fn function_body(&mut self, params: &[Pat], body: &Exp, what: &'static str, frame: bool) -> Result<Aliases, Diag> {
        self.scoped(|an| {
            if frame {
                an.frames.push(Frame {
                    first: an.bindings.len() as u32,
                    what,
                });
            }
            for p in params {
                an.bind_pat(p, &[], Some("it is a parameter whose type is not unique"));
            }
            let r = an.exp(body);
            if frame {
                an.frames.pop();
            }
            r
        })
    }

    fn exp_inner(&mut self, e: &Exp) -> Result<Aliases, Diag> {
        Ok(match &e.kind {
            ExpKind::Lit(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => Vec::new(),
            ExpKind::Var(v) => match (&v.res, v.name.quals.is_empty()) {
                (Some(Resolved::Local), true) => match self.lookup(&v.name.name) {
                    // `exp` drops the aliases of a value without arrays:
                    // they are not copied for it.
                    Some(id) if e.ty.as_ref().is_none_or(has_array) => {
                        self.observe(id, e.span)?;
                        self.bindings[id as usize].aliases.clone()
                    }
                    Some(id) => {
                        self.observe(id, e.span)?;
                        Vec::new()
                    }
                    None => Vec::new(),
                },
                _ => Vec::new(),
            },
            ExpKind::Neg(x) | ExpKind::Not(x) => {
                self.exp(x)?;
                Vec::new()
            }
            // An operator's parameter types are not kept in the tree, so a
            // user-defined operator with unique parameters consumes nothing
            // here (built-in operators take scalars).
            ExpKind::BinOp { lhs, rhs, .. } => self.apply(None, Vec::new(), &[lhs, rhs], e.ty.as_ref())?,
            ExpKind::OpSection { left, right, .. } => {
                for x in [left, right].into_iter().flatten() {
                    self.exp(x)?;
                }
                Vec::new()
            }
            ExpKind::Apply(f, args) => {
                let fal = self.exp(f)?;
                let refs: Vec<&Exp> = args.iter().collect();
                let al = self.apply(f.ty.as_ref(), fal, &refs, e.ty.as_ref())?;
                // `copy` returns a fresh value whatever its type, and so do
                // the top-level functions whose result aliases none of
                // their parameters (applied to all their arguments).
                match &f.kind {
                    ExpKind::Var(Var {
                        res: Some(Resolved::Builtin(b)),
                        ..
                    }) if &**b == "copy" => Vec::new(),
                    ExpKind::Var(Var {
                        res: Some(Resolved::Global(_)),
                        name,
                    }) if self.fresh_results.contains(&name.name)
                        && !e.ty.as_ref().is_some_and(|t| matches!(t, Type::Arrow { .. })) =>
                    {
                        Vec::new()
                    }
                    _ => al,
                }
            }
            ExpKind::Lambda { params, body, .. } => {
                self.function_body(params, body, "a lambda", true)?;
                Vec::new()
            }
            ExpKind::Tuple(es) => {
                let mut out = Vec::new();
                for x in es {
                    out = union(out, &self.exp(x)?);
                }
                out
            }
            ExpKind::Record(fs) => {
                let mut out = Vec::new();
                for f in fs {
                    match f {
                        RecordField::Explicit(_, _, x) => out = union(out, &self.exp(x)?),
                        RecordField::Implicit(n, s, Some(Resolved::Local)) => {
                            if let Some(id) = self.lookup(n) {
                                self.observe(id, *s)?;
                                out = union(out, &self.bindings[id as usize].aliases.clone());
                            }
                        }
                        RecordField::Implicit(..) => {}
                    }
                }
                out
            }
            ExpKind::ArrayLit(es) => {
                for x in es {
                    self.exp(x)?;
                }
                Vec::new()
            }
            ExpKind::Range { start, second, end, .. } => {
                self.exp(start)?;
                if let Some(s) = second {
                    self.exp(s)?;
                }
                self.exp(end)?;
                Vec::new()
            }
            ExpKind::Project(x, _)
            | ExpKind::Coerce(x, _)
            | ExpKind::Ascript(x, _)
            | ExpKind::Attr(_, x)
            | ExpKind::OpenIn(_, x) => self.exp(x)?,
            ExpKind::Index(a, ix) => {
                let al = self.exp(a)?;
                self.indices(ix)?;
                al
            }
            ExpKind::If { cond, then, els } => {
                self.exp(cond)?;
                let before = self.consumed.clone();
                let a = self.exp(then)?;
                let after_then = std::mem::replace(&mut self.consumed, before);
                let b = self.exp(els)?;
                self.consumed.extend(after_then);
                union(a, &b)
            }
            ExpKind::Let { pat, value, body } => {
                let al = self.exp(value)?;
                self.scoped(|an| {
                    an.bind_pat(pat, &al, None);
                    an.exp(body)
                })?
            }
            // A size binder (Note [Size binders]): the `let` it stands for.
            ExpKind::LetFun {
                name,
                params,
                value,
                body,
                ..
            } if &**name == crate::syntax::ast::SIZE_BINDER => {
                let (ExpKind::Apply(_, args), [pat]) = (&body.kind, params.as_slice()) else {
                    return Err(Diag::new(e.span, "internal error: a size binder of another form"));
                };
                let al = self.exp(&args[0])?;
                self.scoped(|an| {
                    an.bind_pat(pat, &al, None);
                    an.exp(value)
                })?
            }
            ExpKind::LetFun {
                params, value, body, ..
            } => {
                self.function_body(params, value, "a local function", true)?;
                self.scoped(|an| {
                    if let ExpKind::LetFun { name, name_span, .. } = &e.kind {
                        an.bind(name, &[], None, *name_span);
                    }
                    an.exp(body)
                })?
            }
            ExpKind::LetWith {
                name,
                name_span,
                index,
                value,
                body,
            } => {
                self.indices(index)?;
                self.exp(value)?;
                let id = self.lookup(name);
                if let Some(id) = id {
                    self.observe(id, *name_span)?;
                    let al = self.bindings[id as usize].aliases.clone();
                    self.consume(&al, *name_span)?;
                }
                self.scoped(|an| {
                    an.bind(name, &[], None, *name_span);
                    an.exp(body)
                })?
            }
            ExpKind::Update { array, index, value } => {
                let al = self.exp(array)?;
                self.indices(index)?;
                self.exp(value)?;
                self.consume(&al, array.span)?;
                Vec::new()
            }
            ExpKind::RecordUpdate { record, value, .. } => {
                let a = self.exp(record)?;
                let b = self.exp(value)?;
                union(a, &b)
            }
            ExpKind::Loop { pat, init, form, body } => {
                // The aliases of each component of a tuple pattern's
                // initial tuple, so that a loop consumes only the initial
                // values of the parameters its body consumes.
                let parts = match (&pat.kind, init.as_deref().map(|i| &i.kind)) {
                    (PatKind::Tuple(ps), Some(ExpKind::Tuple(es))) if ps.len() == es.len() && ps.len() > 1 => {
                        Some((ps, es))
                    }
                    _ => None,
                };
                let mut init_als = Vec::new();
                match (parts, init.as_deref()) {
                    (Some((_, es)), _) => {
                        for e in es {
                            init_als.push((self.exp(e)?, e.span));
                        }
                    }
                    (None, Some(i)) => init_als.push((self.exp(i)?, i.span)),
                    (None, None) => {}
                }
                if let LoopForm::For(_, _, b) = &**form {
                    self.exp(b)?;
                }
                let xs_al = match &**form {
                    LoopForm::ForIn(_, xs) => self.exp(xs)?,
                    _ => Vec::new(),
                };
                let consumed_param = self.scoped(|an| {
                    an.frames.push(Frame {
                        first: an.bindings.len() as u32,
                        what: "a loop body",
                    });
                    let ids: Vec<Vec<u32>> = match parts {
                        Some((ps, _)) => ps.iter().map(|p| an.bind_pat(p, &[], None)).collect(),
                        None => vec![an.bind_pat(pat, &[], None)],
                    };
                    let r = (|| {
                        match &**form {
                            LoopForm::ForIn(p, _) => {
                                an.bind_pat(p, &xs_al, Some("it is an element of the array being looped over"));
                            }
                            LoopForm::For(i, s, _) => {
                                an.bind(i, &[], None, *s);
                            }
                            LoopForm::While(c) => {
                                an.exp(c)?;
                            }
                        }
                        an.exp(body)
                    })();
                    an.frames.pop();
                    r?;
                    let consumed: Vec<bool> = ids
                        .iter()
                        .map(|part| part.iter().any(|id| an.consumed.contains_key(id)))
                        .collect();
                    for id in ids.iter().flatten() {
                        an.consumed.remove(id);
                    }
                    Ok(consumed)
                })?;
                for ((al, span), consumed) in init_als.iter().zip(consumed_param) {
                    if consumed {
                        self.consume(al, *span)?;
                    }
                }
                Vec::new()
            }
            ExpKind::Assert(c, x) => {
                self.exp(c)?;
                self.exp(x)?
            }
            ExpKind::Constr(_, es) => {
                let mut out = Vec::new();
                for x in es {
                    out = union(out, &self.exp(x)?);
                }
                out
            }
            ExpKind::Match(x, cases) => {
                // Like the branches of `if`: one case runs, so each starts
                // from what was consumed before the `match`, and after it
                // everything a case consumed is consumed.
                let al = self.exp(x)?;
                let before = self.consumed.clone();
                let mut after = before.clone();
                let mut out = Vec::new();
                for (p, c) in cases {
                    self.consumed = before.clone();
                    let r = self.scoped(|an| {
                        an.bind_pat(p, &al, None);
                        an.exp(c)
                    })?;
                    after.extend(std::mem::take(&mut self.consumed));
                    out = union(out, &r);
                }
                self.consumed = after;
                out
            }
        })
    }
}

/// Check a top-level function.
pub fn check_valbind(ck: &mut Checker, vb: &ValBind) -> Result<(), Diag> {
    let mut an = Analysis {
        fresh_results: &ck.fresh_results,
        bindings: Vec::new(),
        scope: Vec::new(),
        consumed: FastMap::default(),
        frames: Vec::new(),
    };
    for tp in &vb.type_params {
        if let TypeParam::Size { name, span } = tp {
            an.bind(name, &[], None, *span);
        }
    }
    let mut param_ids = Vec::new();
    for p in &vb.params {
        param_ids.extend(an.bind_pat(p, &[], Some("it is a parameter whose type is not unique")));
    }
    let result = an.exp(&vb.body)?;
    let fresh = !result.iter().any(|a| param_ids.contains(a));
    let unique_ret = vb
        .ret
        .as_ref()
        .is_some_and(|r| matches!(r.kind, TypeExpKind::Unique(_)));
    if unique_ret {
        for a in result {
            if param_ids.contains(&a) && an.bindings[a as usize].not_consumable.is_some() {
                let b = &an.bindings[a as usize];
                return Err(Diag::new(
                    vb.body.span,
                    format!(
                        "A unique-typed component of the return value is aliased to \"{}\", which is not consumable (a parameter whose type is not unique)",
                        b.name
                    ),
                )
                .note(b.span, "the parameter")
                .help("return a `copy` of it"));
            }
        }
    }
    if fresh {
        ck.fresh_results.insert(vb.name.clone());
    } else {
        ck.fresh_results.remove(&vb.name);
    }
    Ok(())
}
