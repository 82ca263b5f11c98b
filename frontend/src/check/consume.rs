//! Alias and uniqueness analysis (thesis section 5.3).
//!
//! Every variable binding gets an id; a value's *aliases* are the ids of
//! the bindings whose memory it may share. Consuming a value (passing it
//! for a `*` parameter, `a with [i] = v`, `let a[i] = v`) marks its aliases
//! consumed; a later use of any variable aliasing a consumed one is an
//! error naming the consumed variable. Only values whose type contains an
//! array or a function can alias anything (Note [Functional aliases]);
//! top-level constants get ids when used (Note [Global aliases]).
//!
//! What may be consumed: a variable bound by `let`/`loop` inside the
//! function, or a parameter of unique type (`*`); never a non-unique
//! parameter, and never, inside a loop body or a lambda, a variable bound
//! outside it (it would be consumed once per iteration or call). A loop
//! whose body consumes its parameter consumes its initial value. A function
//! whose return type is unique may not return an alias of a parameter,
//! and a function's array result may not alias a top-level constant. The
//! rules of the reference's "In-place Updates and Higher-Order Functions"
//! are checked at `let` and at functional arguments; a loop's result
//! aliases its initial values and what its body returns.

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
    /// The variables bound outside the frame that its code uses, with
    /// where (a function's aliases; what a loop body must not use after
    /// its initial value is consumed).
    free: Vec<(u32, Span)>,
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
    /// The ids given to the top-level constants used (Note [Global
    /// aliases]).
    globals: FastMap<Name, u32>,
    /// Binding a loop's parameters: a non-unique ascription makes one
    /// not consumable.
    loop_pat: bool,
}

// Note [Global aliases]
// A top-level constant is not a binding of the function being checked,
// but values may alias it (`def f () = global`). Each constant used gets
// an id the first time it is seen, like a binding of the function's
// outside: it is never consumable, and a function's result may not alias
// it (error index `alias-free-variable`): the reference requires that
// "the value returned by a function may not alias any global variables".

// Note [Functional aliases]
// A functional value aliases the variables its closure holds: a lambda or
// local function the free variables of its body ("the function will be
// treated as aliasing any free variables"), a partial application its
// arguments. So a function whose free array was consumed cannot be used
// after, and the result of applying a function parameter aliases the
// parameter (it may return anything it holds), which is not consumable.

/// Futhark's link to an entry of its error index, on the message's line.
fn see(entry: &str) -> String {
    format!(" (see https://futhark.readthedocs.io/en/latest/error-index.html#{entry})")
}

/// Whether a type has a unique part: a parameter of such a type consumes
/// its argument ("if an asterisk is present at any point inside a tuple
/// parameter type, the parameter as a whole is considered consuming").
fn contains_unique(t: &Type) -> bool {
    match t {
        Type::Array { unique, .. } => *unique,
        Type::Tuple(ts) => ts.iter().any(contains_unique),
        Type::Record(fs) => fs.iter().any(|(_, t)| contains_unique(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(contains_unique)),
        Type::Prim(_) | Type::Param(_) | Type::Var(_) | Type::Arrow { .. } => false,
    }
}

/// The first parameter of a function type that consumes, where `want`
/// (the type a higher-order parameter expects) does not consume there.
fn consuming_where_not_expected(have: &Type, want: Option<&Type>) -> Option<Type> {
    match have {
        Type::Arrow { param, ret, .. } => {
            let (wp, wr) = match want {
                Some(Type::Arrow { param, ret, .. }) => (Some(&**param), Some(&**ret)),
                _ => (None, None),
            };
            if contains_unique(param) && !wp.is_some_and(contains_unique) {
                return Some((**param).clone());
            }
            consuming_where_not_expected(ret, wr)
        }
        _ => None,
    }
}

fn has_array(t: &Type) -> bool {
    match t {
        // See Note [Functional aliases].
        Type::Array { .. } | Type::Param(_) | Type::Var(_) | Type::Arrow { .. } => true,
        Type::Prim(_) => false,
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
                // consumable; a non-unique one on a loop parameter makes
                // it not consumable (`loop xs: []i32 ...`).
                let nc = if p.ty.as_ref().is_some_and(contains_unique) {
                    None
                } else if self.loop_pat && p.ty.as_ref().is_some_and(has_array) {
                    Some("it is a loop parameter whose type is not unique")
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

    /// A use of a variable whose value may alias something: the frames it
    /// is free in hold on to it.
    fn use_free(&mut self, id: u32, span: Span) {
        for f in self.frames.iter_mut() {
            if id < f.first {
                f.free.push((id, span));
            }
        }
    }

    fn observe(&self, id: u32, span: Span) -> Result<(), Diag> {
        for a in &self.bindings[id as usize].aliases {
            if let Some(cs) = self.consumed.get(a) {
                let name = &self.bindings[id as usize].name;
                // The consumed variable is named (as Futhark does): the
                // one used may only alias it.
                let msg = if *a == id {
                    format!("Using \"{name}\", but this was consumed")
                } else {
                    let other = &self.bindings[*a as usize].name;
                    format!("Using \"{name}\", which aliases \"{other}\", but \"{other}\" was consumed")
                };
                return Err(Diag::new(span, msg).note(*cs, "consumed here"));
            }
        }
        Ok(())
    }

    /// The id of top-level constant `name` (Note [Global aliases]).
    fn global(&mut self, name: &Name, span: Span) -> u32 {
        if let Some(id) = self.globals.get(name) {
            return *id;
        }
        let id = self.bindings.len() as u32;
        self.bindings.push(Binding {
            name: name.clone(),
            aliases: vec![id],
            not_consumable: Some("it is a top-level constant"),
            span,
        });
        self.globals.insert(name.clone(), id);
        id
    }

    /// A function's array result may not alias a top-level constant. (As
    /// in Futhark, only a result of array type is checked: a value of an
    /// abstract type, such as a functor parameter's `M.ne`, or a tuple may
    /// hold one.)
    fn no_global_aliases(&self, result: &[u32], ty: Option<&Type>, span: Span) -> Result<(), Diag> {
        if !matches!(ty, Some(Type::Array { .. })) {
            return Ok(());
        }
        for a in result {
            if let Some((n, _)) = self.globals.iter().find(|(_, id)| *id == a) {
                return Err(Diag::new(
                    span,
                    format!(
                        "Function result aliases the free variable \"{n}\"{}",
                        see("alias-free-variable")
                    ),
                )
                .help("return a `copy` of it"));
            }
        }
        Ok(())
    }

    /// `aliases` with the ids bound at or after `first` (inside a scope
    /// being left) replaced by what they alias outside it.
    fn outside(&self, aliases: &[u32], first: u32) -> Aliases {
        let mut out = Vec::new();
        for &a in aliases {
            if a < first || self.globals.values().any(|g| *g == a) {
                out = union(out, &[a]);
            } else {
                let outer: Vec<u32> = self.bindings[a as usize]
                    .aliases
                    .iter()
                    .copied()
                    .filter(|b| *b < first)
                    .collect();
                out = union(out, &outer);
            }
        }
        out
    }

    /// The ids consumed that are bound before `first`, and not in `before`.
    fn newly_consumed(&self, before: &FastMap<u32, Span>, first: u32) -> Vec<u32> {
        self.consumed
            .keys()
            .copied()
            .filter(|a| *a < first && !before.contains_key(a))
            .collect()
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
        let mut t = fty;
        for a in args {
            let before = self.consumed.clone();
            let first = self.bindings.len() as u32;
            let al = self.exp(a)?;
            // The two rules of "In-place Updates and Higher-Order
            // Functions": a functional argument is neither made by a
            // consumption (it could be applied many times) nor consumes a
            // parameter that the higher-order parameter does not.
            if let Some(at @ Type::Arrow { .. }) = a.ty.as_ref() {
                let want = match t {
                    Some(Type::Arrow { param, .. }) => Some(&**param),
                    _ => None,
                };
                if !self.newly_consumed(&before, first).is_empty() {
                    return Err(Diag::new(
                        a.span,
                        format!(
                            "Argument of functional type `{at}` contains consumption{}",
                            see("consuming-argument")
                        ),
                    )
                    .help("the function could be applied more than once; `copy` what it consumes"));
                }
                if let Some(p) = consuming_where_not_expected(at, want) {
                    return Err(Diag::new(
                        a.span,
                        format!(
                            "Non-consuming higher-order parameter passed consuming argument of type `{at}`{}",
                            see("consuming-argument")
                        ),
                    )
                    .help(format!("the argument consumes its parameter of type `{p}`; a higher-order parameter may only consume where its type says so (`*`)")));
                }
            }
            arg_al.push(al);
            t = match t {
                Some(Type::Arrow { ret, .. }) => Some(ret),
                _ => None,
            };
        }
        let mut t = fty;
        let mut out = fal;
        for (a, al) in args.iter().zip(&arg_al) {
            match t {
                Some(Type::Arrow { param, ret, .. }) => {
                    if contains_unique(param) {
                        self.consume(al, a.span)?;
                    } else if !matches!(a.ty, Some(Type::Arrow { .. })) {
                        // A functional argument's aliases stay with it: what
                        // the call returns comes from the other arguments
                        // (or the function applied).
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
        // The application's type may have lost the `*` of the function's
        // result in inference; the function type keeps it.
        if result.is_some_and(Type::is_unique) || t.is_some_and(Type::is_unique) {
            return Ok(Vec::new());
        }
        Ok(out)
    }

    /// A lambda or local function: the aliases of the functional value
    /// (Note [Functional aliases]).
    fn function_body(&mut self, params: &[Pat], body: &Exp, what: &'static str) -> Result<Aliases, Diag> {
        let first = self.bindings.len() as u32;
        let result = self.scoped(|an| {
            an.frames.push(Frame {
                first,
                what,
                free: Vec::new(),
            });
            for p in params {
                an.bind_pat(p, &[], Some("it is a parameter whose type is not unique"));
            }
            let r = an.exp(body);
            let frame = an.frames.pop();
            Ok((r?, frame.map(|f| f.free).unwrap_or_default()))
        });
        // What the body consumed of its own bindings happens at each call,
        // not here.
        self.consumed.retain(|a, _| *a < first);
        let (result, free) = result?;
        self.no_global_aliases(&self.outside(&result, first), body.ty.as_ref(), body.span)?;
        let mut out = Vec::new();
        for (id, _) in free {
            out = union(out, &self.bindings[id as usize].aliases.clone());
        }
        Ok(out)
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
                        self.use_free(id, e.span);
                        self.bindings[id as usize].aliases.clone()
                    }
                    Some(id) => {
                        self.observe(id, e.span)?;
                        Vec::new()
                    }
                    None => Vec::new(),
                },
                // A top-level constant (not a function): see Note [Global
                // aliases].
                (Some(Resolved::Global(_)), _)
                    if e.ty
                        .as_ref()
                        .is_some_and(|t| has_array(t) && !matches!(t, Type::Arrow { .. })) =>
                {
                    vec![self.global(&v.name.name, e.span)]
                }
                _ => Vec::new(),
            },
            ExpKind::Neg(x) | ExpKind::Not(x) => {
                self.exp(x)?;
                Vec::new()
            }
            // An operator's parameter types are not kept in the tree, so a
            // user-defined operator with unique parameters consumes nothing
            // here (built-in operators take scalars).
            // A pipe is an application of the function on its other side,
            // whose type is known.
            ExpKind::BinOp { op, lhs, rhs, .. } if op.name.quals.is_empty() && &*op.name.name == "|>" => {
                let fal = self.exp(rhs)?;
                self.apply(rhs.ty.as_ref(), fal, &[lhs], e.ty.as_ref())?
            }
            ExpKind::BinOp { op, lhs, rhs, .. } if op.name.quals.is_empty() && &*op.name.name == "<|" => {
                let fal = self.exp(lhs)?;
                self.apply(lhs.ty.as_ref(), fal, &[rhs], e.ty.as_ref())?
            }
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
            ExpKind::Lambda { params, body, .. } => self.function_body(params, body, "a lambda")?,
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
                                self.use_free(id, *s);
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
                // A variable one branch consumes is dead after the `if`:
                // the result need not alias it (`if c then a else f a`).
                let mut r = union(a, &b);
                r.retain(|x| !self.consumed.contains_key(x));
                r
            }
            ExpKind::Let { pat, value, body } => {
                let before = self.consumed.clone();
                let first = self.bindings.len() as u32;
                let al = self.exp(value)?;
                if let Some(t) = pat.ty.as_ref().filter(|t| t.has_function()) {
                    if !self.newly_consumed(&before, first).is_empty() {
                        return Err(Diag::new(
                            value.span,
                            format!(
                                "Let-bound expression of higher-order type `{t}` contains consumption{}",
                                see("contains-consumption")
                            ),
                        )
                        .help("each application of the function would consume again; `copy` what it consumes"));
                    }
                }
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
                let al = self.function_body(params, value, "a local function")?;
                self.scoped(|an| {
                    if let ExpKind::LetFun { name, name_span, .. } = &e.kind {
                        an.bind(name, &al, None, *name_span);
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
                let v = self.exp(value)?;
                let id = self.lookup(name);
                if let Some(id) = id {
                    self.observe(id, *name_span)?;
                    let al = self.bindings[id as usize].aliases.clone();
                    in_place_value(&al, &v, value.span)?;
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
                let v = self.exp(value)?;
                in_place_value(&al, &v, value.span)?;
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
                let first = self.bindings.len() as u32;
                let (consumed_param, result, free) = self.scoped(|an| {
                    an.frames.push(Frame {
                        first,
                        what: "a loop body",
                        free: Vec::new(),
                    });
                    an.loop_pat = true;
                    let ids: Vec<Vec<u32>> = match parts {
                        Some((ps, _)) => ps.iter().map(|p| an.bind_pat(p, &[], None)).collect(),
                        None => vec![an.bind_pat(pat, &[], None)],
                    };
                    an.loop_pat = false;
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
                    let frame = an.frames.pop();
                    let result = r?;
                    let consumed: Vec<bool> = ids
                        .iter()
                        .map(|part| part.iter().any(|id| an.consumed.contains_key(id)))
                        .collect();
                    for id in ids.iter().flatten() {
                        an.consumed.remove(id);
                    }
                    Ok((consumed, result, frame.map(|f| f.free).unwrap_or_default()))
                })?;
                let result = self.outside(&result, first);
                // A consuming parameter's next value is consumed in the
                // next iteration: it may not alias what the loop does not
                // own (for a single parameter, whose value is the body's).
                let single = match &pat.kind {
                    PatKind::Id(n) => Some(n),
                    PatKind::Ascribe(q, _) => match &q.kind {
                        PatKind::Id(n) => Some(n),
                        _ => None,
                    },
                    _ => None,
                };
                if let (Some(pname), [true]) = (single, consumed_param.as_slice()) {
                    let globals: Vec<u32> = self.globals.values().copied().collect();
                    if let Some(a) = result.iter().find(|a| !globals.contains(a)) {
                        return Err(Diag::new(
                            body.span,
                            format!(
                                "Return value for consuming loop parameter \"{pname}\" aliases \"{}\"{}",
                                self.bindings[*a as usize].name,
                                see("consuming-loop-param-aliases")
                            ),
                        )
                        .help("`copy` the value returned for it"));
                    }
                }
                let mut consumed_init = Vec::new();
                for ((al, _), consumed) in init_als.iter().zip(&consumed_param) {
                    if *consumed {
                        consumed_init = union(consumed_init, al);
                    }
                }
                // The initial values are consumed before the first
                // iteration, so the body may use nothing aliasing them.
                for (id, span) in free {
                    if self.bindings[id as usize]
                        .aliases
                        .iter()
                        .any(|a| consumed_init.contains(a))
                    {
                        return Err(Diag::new(
                            span,
                            format!(
                                "Loop body uses \"{}\" (or an alias), but this is consumed by the initial loop argument",
                                self.bindings[id as usize].name
                            ),
                        ));
                    }
                }
                let mut out = result;
                for ((al, span), consumed) in init_als.iter().zip(consumed_param) {
                    if consumed {
                        self.consume(al, *span)?;
                    } else {
                        out = union(out, al);
                    }
                }
                // The result aliases the initial values and what the body
                // returns (its own bindings stand for what they alias).
                out
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

/// The value written by an in-place update may not alias the array it
/// is written into (it would be overwritten while being read).
fn in_place_value(array: &[u32], value: &[u32], span: Span) -> Result<(), Diag> {
    if value.iter().any(|v| array.contains(v)) {
        return Err(Diag::new(
            span,
            "The value written by an in-place update may not alias the array being updated",
        )
        .help("`copy` the value"));
    }
    Ok(())
}

/// Check a top-level function.
pub fn check_valbind(ck: &mut Checker, vb: &ValBind) -> Result<(), Diag> {
    let mut an = Analysis {
        fresh_results: &ck.fresh_results,
        bindings: Vec::new(),
        scope: Vec::new(),
        consumed: FastMap::default(),
        frames: Vec::new(),
        globals: FastMap::default(),
        loop_pat: false,
    };
    for tp in &vb.type_params {
        if let TypeParam::Size { name, span } = tp {
            an.bind(name, &[], None, *span);
        }
    }
    // The eta parameters passed for unique parameters of the function
    // applied in the body `(e) eta%0 eta%1`.
    let mut eta_unique: Vec<&Name> = Vec::new();
    if let ExpKind::Apply(f, args) = &vb.body.kind {
        let mut t = f.ty.as_ref();
        for a in args {
            let Some(Type::Arrow { param, ret, .. }) = t else { break };
            if let ExpKind::Var(v) = &a.kind {
                if v.name.name.starts_with("eta%") && contains_unique(param) {
                    eta_unique.push(&v.name.name);
                }
            }
            t = Some(ret);
        }
    }
    let mut param_ids = Vec::new();
    for p in &vb.params {
        // The parameters an eta expansion adds (Note [Point-free
        // definitions]) stand for the parameters of the definition's
        // function type, and consume where those do.
        let eta = matches!(&p.kind, PatKind::Id(n) if eta_unique.contains(&n));
        let nc = if eta {
            None
        } else {
            Some("it is a parameter whose type is not unique")
        };
        param_ids.extend(an.bind_pat(p, &[], nc));
    }
    let result = an.exp(&vb.body)?;
    if !vb.params.is_empty() {
        an.no_global_aliases(&result, vb.body.ty.as_ref(), vb.body.span)?;
    }
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
