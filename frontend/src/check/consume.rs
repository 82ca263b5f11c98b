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

// Note [Component aliases]
// The components of a tuple or record may alias different things, and
// some rules are about that: a unique component of a function's result
// may not alias another component (error index `unique-return-aliased`),
// nor may the components of an argument for a consuming tuple parameter
// alias each other (`self-aliasing-arg`), nor a loop parameter's next
// value another consumed parameter's (`loop-parameter-aliases-other`).
// So an expression's aliases are an [`AliasTree`]: per component where
// the analysis sees the tuple or record (a literal, a variable bound to
// one, a projection, `let`, `if`, `loop`, and a call of a top-level
// function whose result's components alias its parameters), else one set
// for the whole value. A variable bound to a tuple or record gets an id
// per component besides its own, and keeps the tree of its value with
// those ids added (`Binding::parts`); a use of it gives each component
// the variable's own id too, which says nothing about the components
// apart, so the rules above ignore such ids, and consuming skips them: a
// component is consumed through its own id, which is among the
// variable's aliases, so a later use of the whole variable is an error
// and one of another component is not. A value made inside a loop body
// (`let arr = iota n in (arr, arr)`) keeps the id of its binding when it
// leaves the loop, and an argument that aliases nothing gets an id of its
// own where a call's result tree is built from it (`dup (copy xs)`): two
// components made from one such value alias each other.

/// The aliases of a value, per component where known (Note [Component
/// aliases]).
#[derive(Clone, Debug)]
pub(super) enum AliasTree {
    Whole(Aliases),
    Tuple(Vec<AliasTree>),
    Record(Vec<(Name, AliasTree)>),
}

impl AliasTree {
    fn flat(&self) -> Aliases {
        match self {
            AliasTree::Whole(a) => a.clone(),
            AliasTree::Tuple(ts) => ts.iter().fold(Vec::new(), |acc, t| union(acc, &t.flat())),
            AliasTree::Record(fs) => fs.iter().fold(Vec::new(), |acc, (_, t)| union(acc, &t.flat())),
        }
    }

    fn map_leaves(&self, f: &mut impl FnMut(&Aliases) -> Aliases) -> AliasTree {
        match self {
            AliasTree::Whole(a) => AliasTree::Whole(f(a)),
            AliasTree::Tuple(ts) => AliasTree::Tuple(ts.iter().map(|t| t.map_leaves(f)).collect()),
            AliasTree::Record(fs) => AliasTree::Record(fs.iter().map(|(n, t)| (n.clone(), t.map_leaves(f))).collect()),
        }
    }

    /// The component `field` (`0`, `1`, ... of a tuple).
    fn project(&self, field: &str) -> Option<&AliasTree> {
        match self {
            AliasTree::Tuple(ts) => field.parse::<usize>().ok().and_then(|i| ts.get(i)),
            AliasTree::Record(fs) => fs.iter().find(|(n, _)| &**n == field).map(|(_, t)| t),
            AliasTree::Whole(_) => None,
        }
    }

    /// Two trees of one value's branches: per component where both have
    /// the same shape.
    fn merge(&self, other: &AliasTree) -> AliasTree {
        match (self, other) {
            (AliasTree::Tuple(a), AliasTree::Tuple(b)) if a.len() == b.len() => {
                AliasTree::Tuple(a.iter().zip(b).map(|(x, y)| x.merge(y)).collect())
            }
            (AliasTree::Record(a), AliasTree::Record(b))
                if a.len() == b.len() && a.iter().all(|(n, _)| b.iter().any(|(m, _)| m == n)) =>
            {
                AliasTree::Record(
                    a.iter()
                        .map(|(n, x)| {
                            let y = b.iter().find(|(m, _)| m == n).map(|(_, y)| y).unwrap_or(x);
                            (n.clone(), x.merge(y))
                        })
                        .collect(),
                )
            }
            _ => AliasTree::Whole(union(self.flat(), &other.flat())),
        }
    }

    /// The leaves, in order.
    fn leaves(&self) -> Vec<Aliases> {
        match self {
            AliasTree::Whole(a) => vec![a.clone()],
            AliasTree::Tuple(ts) => ts.iter().flat_map(|t| t.leaves()).collect(),
            AliasTree::Record(fs) => fs.iter().flat_map(|(_, t)| t.leaves()).collect(),
        }
    }
}

struct Binding {
    name: Name,
    aliases: Aliases,
    /// The aliases of the components of the tuple or record bound (Note
    /// [Component aliases]).
    parts: Option<AliasTree>,
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
    /// The aliases of the arguments of the last call analysed.
    last_args: Vec<Aliases>,
    /// Whether the result of each local function (by binding id) is
    /// unique; see Note [Unique results of functional arguments].
    fn_result_unique: FastMap<u32, bool>,
    /// The same for the last lambda or local function analysed.
    last_fn_result_unique: bool,
    /// The top-level functions whose result's components alias their
    /// parameters ([`Checker::result_parts`]).
    result_parts: &'c FastMap<Name, (usize, AliasTree)>,
    /// See Note [Unique abstract types].
    unique_spec_params: &'c FastMap<Name, Vec<bool>>,
    /// The top-level functions whose result aliases top-level constants
    /// ([`Checker::result_globals`]).
    result_globals: &'c FastMap<Name, (usize, Vec<Name>)>,
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
pub(super) fn contains_unique(t: &Type) -> bool {
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

// Note [Unique abstract types]
// `*t` of an abstract type or a type parameter is unique (`val f : *t ->
// *t` consumes its argument), but the checker's `Type::Param` has no `*`.
// So where a module type's value is bound (sealing, and a functor
// parameter's stand-in) the parameters its spec declares unique are
// recorded by name ([`Checker::unique_spec_params`]), and a call of such
// a value consumes the arguments given for them, whatever their types
// (issue844). A parameter of array type keeps its `*` in its type.

/// Record which parameters of the value `name`, of the spec type `te`,
/// are declared unique but have a type that cannot say so (Note [Unique
/// abstract types]).
pub(super) fn record_unique_spec_params(ck: &mut Checker, name: &Name, te: &TypeExp) {
    let mut params = Vec::new();
    let mut t = te;
    while let TypeExpKind::Arrow(_, p, r) = &t.kind {
        params.push(matches!(&p.kind, TypeExpKind::Unique(inner) if matches!(inner.kind, TypeExpKind::Var(_) | TypeExpKind::Apply(..))));
        t = r;
    }
    if params.iter().any(|u| *u) {
        ck.unique_spec_params.insert(name.clone(), params);
    } else {
        ck.unique_spec_params.remove(name);
    }
}

// Note [Unique results of functional arguments]
// A function passed for a parameter whose type has a unique result
// (`f: () -> *[n]i32`) must return a unique value: the callee may
// consume what it returns (uniqueness-error56). A local function or
// lambda has a unique result where its declared return type says so,
// or, without one, where its result aliases neither its parameters nor
// anything bound outside it (Futhark infers such a result unique). The
// checker's types do not keep that `*` reliably, so this is decided
// here, for the lambdas and local functions the analysis sees; other
// functional arguments (parameters, top-level functions) are not
// checked.

/// The result of a function type after all its arrows.
fn final_result(t: &Type) -> &Type {
    match t {
        Type::Arrow { ret, .. } => final_result(ret),
        _ => t,
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
            parts: None,
            not_consumable,
            span,
        });
        self.scope.push((name.clone(), id));
        id
    }

    fn bind_pat(&mut self, p: &Pat, aliases: &[u32], not_consumable: Option<&'static str>) -> Vec<u32> {
        self.bind_pat_tree(p, &AliasTree::Whole(aliases.to_vec()), not_consumable)
    }

    /// Bind `p` to a value with the aliases `tree`: each variable of a
    /// tuple or record pattern gets its component's (Note [Component
    /// aliases]).
    fn bind_pat_tree(&mut self, p: &Pat, tree: &AliasTree, not_consumable: Option<&'static str>) -> Vec<u32> {
        let mut ids = Vec::new();
        self.bind_pat_into(p, tree, not_consumable, &mut ids);
        ids
    }

    fn bind_pat_into(&mut self, p: &Pat, tree: &AliasTree, nc: Option<&'static str>, ids: &mut Vec<u32>) {
        match (&p.kind, tree) {
            (PatKind::Id(n), _) => {
                let t = p.ty.as_ref();
                if !t.is_none_or(has_array) {
                    ids.push(self.bind(n, &[], None, p.span));
                    return;
                }
                // A tuple or record gets an id per component (Note
                // [Component aliases]).
                let tree = match (tree, t) {
                    (AliasTree::Whole(w), Some(ty @ (Type::Tuple(_) | Type::Record(_)))) => split_by_type(ty, w),
                    _ => tree.clone(),
                };
                if let AliasTree::Whole(w) = &tree {
                    ids.push(self.bind(n, w, nc, p.span));
                    return;
                }
                let id = self.bind(n, &[], nc, p.span);
                ids.push(id);
                let parts = self.component_ids(n, &tree, nc, p.span, ids);
                let b = &mut self.bindings[id as usize];
                b.aliases = union(vec![id], &parts.flat());
                b.parts = Some(parts);
            }
            (PatKind::Tuple(ps), AliasTree::Tuple(ts)) if ps.len() == ts.len() => {
                ps.iter().zip(ts).for_each(|(q, t)| self.bind_pat_into(q, t, nc, ids))
            }
            (PatKind::Record(fs), AliasTree::Record(_)) => fs.iter().for_each(|(f, _, q)| {
                let t = tree
                    .project(f)
                    .cloned()
                    .unwrap_or_else(|| AliasTree::Whole(tree.flat()));
                self.bind_pat_into(q, &t, nc, ids)
            }),
            (PatKind::Tuple(ps) | PatKind::Constr(_, ps), _) => {
                let whole = AliasTree::Whole(tree.flat());
                ps.iter().for_each(|q| self.bind_pat_into(q, &whole, nc, ids))
            }
            (PatKind::Record(fs), _) => {
                let whole = AliasTree::Whole(tree.flat());
                fs.iter().for_each(|(_, _, q)| self.bind_pat_into(q, &whole, nc, ids))
            }
            (PatKind::Ascribe(q, te), _) => {
                // A unique annotation on a function parameter makes it
                // consumable; a non-unique one on a loop parameter makes
                // it not consumable (`loop xs: []i32 ...`). `*t` of an
                // abstract type is unique too (Note [Unique abstract
                // types]).
                let nc = if p.ty.as_ref().is_some_and(contains_unique) || matches!(te.kind, TypeExpKind::Unique(_)) {
                    None
                } else if self.loop_pat && p.ty.as_ref().is_some_and(has_array) {
                    Some("it is a loop parameter whose type is not unique")
                } else {
                    nc
                };
                self.bind_pat_into(q, tree, nc, ids)
            }
            (PatKind::Wildcard | PatKind::Lit { .. }, _) => {}
        }
    }

    /// `tree` with an id of its own added to each component of the
    /// variable `n` (Note [Component aliases]).
    fn component_ids(
        &mut self,
        n: &Name,
        tree: &AliasTree,
        nc: Option<&'static str>,
        span: Span,
        ids: &mut Vec<u32>,
    ) -> AliasTree {
        match tree {
            AliasTree::Whole(w) => {
                let id = self.bindings.len() as u32;
                self.bindings.push(Binding {
                    name: n.clone(),
                    aliases: union(vec![id], w),
                    parts: None,
                    not_consumable: nc,
                    span,
                });
                ids.push(id);
                AliasTree::Whole(union(vec![id], w))
            }
            AliasTree::Tuple(ts) => {
                AliasTree::Tuple(ts.iter().map(|t| self.component_ids(n, t, nc, span, ids)).collect())
            }
            AliasTree::Record(fs) => AliasTree::Record(
                fs.iter()
                    .map(|(f, t)| (f.clone(), self.component_ids(n, t, nc, span, ids)))
                    .collect(),
            ),
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
                // (A component of a tuple variable has its name.)
                let msg = if *a == id || self.bindings[*a as usize].name == *name {
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
            parts: None,
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

    /// `outside`, but an id bound inside that aliases nothing outside and
    /// may be consumed stays: the value it names was made inside (Note
    /// [Component aliases]).
    fn outside_kept(&self, aliases: &[u32], first: u32) -> Aliases {
        let mut out = self.outside(aliases, first);
        for &a in aliases {
            let b = &self.bindings[a as usize];
            if a >= first
                && b.not_consumable.is_none()
                && b.parts.is_none()
                && !b.aliases.iter().any(|x| *x < first)
                && !self.globals.values().any(|g| *g == a)
            {
                out = union(out, &[a]);
            }
        }
        out
    }

    /// The values a loop body returns for its parameters do not alias a
    /// consumed parameter other than their own, nor, for a consumed
    /// parameter, another returned value (error index
    /// `loop-parameter-aliases-other`, `aliases-previously-returned`).
    fn loop_returns_apart(
        &self,
        cs: &[LoopComponent],
        ids: &[Vec<u32>],
        consumed: &[bool],
        returned: &[Aliases],
        span: Span,
    ) -> Result<(), Diag> {
        let consuming: Vec<bool> = cs
            .iter()
            .zip(consumed)
            .map(|(c, used)| *used || c.pat.ty.as_ref().is_some_and(contains_unique))
            .collect();
        let name = |i: usize| {
            let mut ns = Vec::new();
            super::sizes::pat_names(cs[i].pat, &mut ns);
            ns.first().map_or_else(|| cs[i].key.to_string(), |n| n.to_string())
        };
        for (i, r) in returned.iter().enumerate() {
            for j in (0..cs.len()).filter(|j| *j != i && consuming[*j]) {
                if r.iter().any(|a| ids[j].contains(a)) {
                    return Err(Diag::new(
                        span,
                        format!(
                            "Return value for loop parameter \"{}\" aliases other consumed loop parameter \"{}\"{}",
                            name(i),
                            name(j),
                            see("loop-parameter-aliases-other")
                        ),
                    )
                    .help("`copy` the value returned for it"));
                }
            }
        }
        for (i, r) in returned.iter().enumerate().filter(|(i, _)| consuming[*i]) {
            for (j, q) in returned.iter().enumerate() {
                if j != i && self.overlapping(&[r.clone(), q.clone()]).is_some() {
                    return Err(Diag::new(
                        span,
                        format!(
                            "Return value for consuming loop parameter \"{}\" aliases previously returned value{}",
                            name(i),
                            see("aliases-previously-returned")
                        ),
                    )
                    .help("`copy` one of the values returned"));
                }
            }
        }
        Ok(())
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
        // A variable bound to a tuple is consumed through its components'
        // ids (Note [Component aliases]): consuming one component leaves
        // the others usable.
        let aliases: Vec<u32> = aliases
            .iter()
            .copied()
            .filter(|a| self.bindings[*a as usize].parts.is_none())
            .collect();
        let aliases = &aliases[..];
        for &a in aliases {
            let b = &self.bindings[a as usize];
            if let Some(why) = b.not_consumable {
                // A value that aliases a top-level constant (`f ()` where
                // `f` returns one): named as Futhark does.
                let global = if self.globals.get(&b.name) == Some(&a) {
                    format!(" (the value consumed aliases the free variable \"{}\")", b.name)
                } else {
                    String::new()
                };
                return Err(Diag::new(
                    span,
                    format!("Consuming \"{}\", which is not consumable: {why}{global}", b.name),
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
        Ok(self.exp_tree(e)?.flat())
    }

    /// The aliases of `e`, per component where known (Note [Component
    /// aliases]).
    fn exp_tree(&mut self, e: &Exp) -> Result<AliasTree, Diag> {
        let arrays = e.ty.as_ref().is_none_or(has_array);
        let t = self.exp_tree_inner(e)?;
        Ok(if arrays { t } else { AliasTree::Whole(Vec::new()) })
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
        unique_params: &[bool],
    ) -> Result<Aliases, Diag> {
        let mut arg_al = Vec::new();
        let mut t = fty;
        for a in args {
            let before = self.consumed.clone();
            let first = self.bindings.len() as u32;
            let tree = self.exp_tree(a)?;
            let al = tree.flat();
            if let Some(Type::Arrow { param, .. }) = t {
                if contains_unique(param) && self.components_overlap(&tree.leaves()) {
                    return Err(Diag::new(
                        a.span,
                        format!(
                            "Argument passed for consuming parameter is self-aliased.{}",
                            see("self-aliasing-arg")
                        ),
                    )
                    .help("the function may consume each component on its own: `copy` one of them"));
                }
            }
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
                if want.is_some_and(|w| contains_unique(final_result(w))) && self.result_not_unique(a) {
                    return Err(Diag::new(
                        a.span,
                        format!(
                            "Argument of functional type `{at}` does not return a unique value, but the parameter's type `{}` says it does",
                            want.map(|w| w.to_string()).unwrap_or_default()
                        ),
                    )
                    .help("give the function a unique result type (`*`) and return a value that aliases nothing, such as a `copy`"));
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
        for (i, (a, al)) in args.iter().zip(&arg_al).enumerate() {
            match t {
                Some(Type::Arrow { param, ret, .. }) => {
                    // See Note [Unique abstract types].
                    if contains_unique(param) || unique_params.get(i).is_some_and(|u| *u) {
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
        self.last_args = arg_al;
        // The application's type may have lost the `*` of the function's
        // result in inference; the function type keeps it.
        if result.is_some_and(Type::is_unique) || t.is_some_and(Type::is_unique) {
            return Ok(Vec::new());
        }
        Ok(out)
    }

    /// Whether the functional argument `a`, just analysed, is known to
    /// return a value that is not unique (Note [Unique results of
    /// functional arguments]).
    fn result_not_unique(&self, a: &Exp) -> bool {
        match &a.kind {
            ExpKind::Lambda { .. } => !self.last_fn_result_unique,
            ExpKind::Var(v) if matches!(v.res, Some(Resolved::Local)) && v.name.quals.is_empty() => self
                .lookup(&v.name.name)
                .and_then(|id| self.fn_result_unique.get(&id))
                .is_some_and(|unique| !unique),
            _ => false,
        }
    }

    /// Whether two of `leaves` alias one value, not counting the ids of
    /// variables bound to tuples (Note [Component aliases]).
    fn components_overlap(&self, leaves: &[Aliases]) -> bool {
        self.overlapping(leaves).is_some()
    }

    /// Two components `(i, j)` of `leaves` that alias one value (Note
    /// [Component aliases]).
    fn overlapping(&self, leaves: &[Aliases]) -> Option<(usize, usize)> {
        for (i, a) in leaves.iter().enumerate() {
            for (j, b) in leaves.iter().enumerate().skip(i + 1) {
                if a.iter()
                    .any(|x| b.contains(x) && self.bindings[*x as usize].parts.is_none())
                {
                    return Some((i, j));
                }
            }
        }
        None
    }

    /// An id for a value that aliases nothing (Note [Component aliases]).
    fn fresh_value(&mut self, span: Span) -> u32 {
        let id = self.bindings.len() as u32;
        self.bindings.push(Binding {
            name: "an argument".into(),
            aliases: vec![id],
            parts: None,
            not_consumable: None,
            span,
        });
        id
    }

    /// A lambda or local function: the aliases of the functional value
    /// (Note [Functional aliases]).
    fn function_body(
        &mut self,
        params: &[Pat],
        ret: Option<&TypeExp>,
        body: &Exp,
        what: &'static str,
    ) -> Result<Aliases, Diag> {
        let first = self.bindings.len() as u32;
        let mut params_end = first;
        let result = self.scoped(|an| {
            an.frames.push(Frame {
                first,
                what,
                free: Vec::new(),
            });
            for p in params {
                an.bind_pat(p, &[], Some("it is a parameter whose type is not unique"));
            }
            params_end = an.bindings.len() as u32;
            let r = an.exp(body);
            let frame = an.frames.pop();
            Ok((r?, frame.map(|f| f.free).unwrap_or_default()))
        });
        // What the body consumed of its own bindings happens at each call,
        // not here.
        self.consumed.retain(|a, _| *a < first);
        let (result, free) = result?;
        // See Note [Unique results of functional arguments].
        self.last_fn_result_unique = match ret {
            Some(te) => unique_in(te),
            None => !result
                .iter()
                .any(|a| *a < params_end || self.globals.values().any(|g| g == a)),
        };
        self.no_global_aliases(&self.outside(&result, first), body.ty.as_ref(), body.span)?;
        let mut out = Vec::new();
        for (id, _) in free {
            out = union(out, &self.bindings[id as usize].aliases.clone());
        }
        Ok(out)
    }

    /// A use of a variable: its aliases, once checked that none is
    /// consumed.
    fn var(&mut self, v: &Var, e: &Exp) -> Result<Aliases, Diag> {
        Ok(match (&v.res, v.name.quals.is_empty()) {
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
        })
    }

    /// The expressions whose aliases may have components (Note
    /// [Component aliases]); the others are `exp_inner`'s.
    fn exp_tree_inner(&mut self, e: &Exp) -> Result<AliasTree, Diag> {
        Ok(match &e.kind {
            // `(++)` naming a local variable (a parameter may be named so)
            // is that variable.
            ExpKind::OpSection {
                op,
                left: None,
                right: None,
                ..
            } if matches!(op.res, Some(Resolved::Local)) => self.var_tree(op, e)?,
            ExpKind::Var(v) => self.var_tree(v, e)?,
            ExpKind::Apply(f, args) => {
                let tree = self.call_tree(e, f, args)?;
                // A call of a function whose result aliases a top-level
                // constant aliases it too (Note [Global aliases]).
                match &f.kind {
                    ExpKind::Var(Var {
                        res: Some(Resolved::Global(_)),
                        name,
                    }) if name.quals.is_empty() => match self.result_globals.get(&name.name) {
                        Some((arity, globals)) if *arity == args.len() => {
                            let globals = globals.clone();
                            let ids: Vec<u32> = globals.iter().map(|g| self.global(g, e.span)).collect();
                            tree.map_leaves(&mut |l| union(l.clone(), &ids))
                        }
                        _ => tree,
                    },
                    _ => tree,
                }
            }
            ExpKind::Tuple(es) => {
                let mut out = Vec::new();
                for x in es {
                    out.push(self.exp_tree(x)?);
                }
                AliasTree::Tuple(out)
            }
            ExpKind::Record(fs) => {
                let mut out = Vec::new();
                for f in fs {
                    match f {
                        RecordField::Explicit(n, _, x) => out.push((n.clone(), self.exp_tree(x)?)),
                        RecordField::Implicit(n, s, Some(Resolved::Local)) => {
                            let t = match self.lookup(n) {
                                Some(id) => {
                                    self.observe(id, *s)?;
                                    self.use_free(id, *s);
                                    self.binding_tree(id)
                                }
                                None => AliasTree::Whole(Vec::new()),
                            };
                            out.push((n.clone(), t));
                        }
                        RecordField::Implicit(n, _, _) => out.push((n.clone(), AliasTree::Whole(Vec::new()))),
                    }
                }
                AliasTree::Record(out)
            }
            ExpKind::Project(x, field) => {
                let t = self.exp_tree(x)?;
                t.project(field).cloned().unwrap_or_else(|| AliasTree::Whole(t.flat()))
            }
            ExpKind::Coerce(x, _) | ExpKind::Ascript(x, _) | ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => {
                self.exp_tree(x)?
            }
            ExpKind::If { cond, then, els } => {
                self.exp(cond)?;
                let before = self.consumed.clone();
                let a = self.exp_tree(then)?;
                let after_then = std::mem::replace(&mut self.consumed, before);
                let b = self.exp_tree(els)?;
                self.consumed.extend(after_then);
                // A variable one branch consumes is dead after the `if`:
                // the result need not alias it (`if c then a else f a`).
                let consumed = &self.consumed;
                a.merge(&b).map_leaves(&mut |l| {
                    let mut l = l.clone();
                    l.retain(|x| !consumed.contains_key(x));
                    l
                })
            }
            ExpKind::Let { pat, value, body } => {
                let before = self.consumed.clone();
                let first = self.bindings.len() as u32;
                let tree = self.exp_tree(value)?;
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
                    an.bind_pat_tree(pat, &tree, None);
                    an.exp_tree(body)
                })?
            }
            ExpKind::Loop { pat, init, form, body } => {
                // The parameters of a tuple or record pattern, each with
                // the aliases of its initial value where the initial
                // value's components are known, so that a loop consumes
                // only the initial values of the parameters its body
                // consumes (Note [Component aliases]).
                let init_tree = match init.as_deref() {
                    Some(i) => Some(self.exp_tree(i)?),
                    None => None,
                };
                let init_span = init.as_deref().map_or(e.span, |i| i.span);
                let mut parts = init_tree.as_ref().and_then(|t| loop_components(pat, t));
                if let (Some(cs), Some(i)) = (&mut parts, init.as_deref()) {
                    match &i.kind {
                        ExpKind::Tuple(es) => cs.iter_mut().zip(es).for_each(|(c, x)| c.span = Some(x.span)),
                        ExpKind::Record(fs) => {
                            for c in cs.iter_mut() {
                                c.span = fs.iter().find_map(|f| match f {
                                    RecordField::Explicit(n, _, x) if *n == c.key => Some(x.span),
                                    RecordField::Implicit(n, s, _) if *n == c.key => Some(*s),
                                    _ => None,
                                });
                            }
                        }
                        _ => {}
                    }
                }
                let init_als: Vec<(Aliases, Span)> = match (&parts, &init_tree) {
                    (Some(cs), _) => cs
                        .iter()
                        .map(|c| (c.init.flat(), c.span.unwrap_or(init_span)))
                        .collect(),
                    (None, Some(t)) => vec![(t.flat(), init_span)],
                    (None, None) => Vec::new(),
                };
                if let LoopForm::For(_, _, b) = &**form {
                    self.exp(b)?;
                }
                let xs_al = match &**form {
                    LoopForm::ForIn(_, xs) => self.exp(xs)?,
                    _ => Vec::new(),
                };
                let first = self.bindings.len() as u32;
                let (consumed_param, ids, result, free) = self.scoped(|an| {
                    an.frames.push(Frame {
                        first,
                        what: "a loop body",
                        free: Vec::new(),
                    });
                    an.loop_pat = true;
                    let ids: Vec<Vec<u32>> = match &parts {
                        Some(cs) => cs.iter().map(|c| an.bind_pat(c.pat, &[], None)).collect(),
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
                        an.exp_tree(body)
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
                    Ok((consumed, ids, result, frame.map(|f| f.free).unwrap_or_default()))
                })?;
                // The value returned for each parameter, where the body's
                // result has the pattern's components.
                let returned: Option<Vec<Aliases>> = parts
                    .as_ref()
                    .and_then(|cs| cs.iter().map(|c| result.project(&c.key).map(AliasTree::flat)).collect());
                if let (Some(cs), Some(returned)) = (&parts, &returned) {
                    self.loop_returns_apart(cs, &ids, &consumed_param, returned, body.span)?;
                }
                let flat_result = self.outside(&result.flat(), first);
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
                    if let Some(a) = flat_result.iter().find(|a| **a < first && !globals.contains(a)) {
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
                // A variable bound to the initial tuple is in every
                // component's aliases: consumed once.
                let mut carriers = Vec::new();
                let mut init_kept = Vec::new();
                for ((al, span), consumed) in init_als.iter().zip(&consumed_param) {
                    if *consumed {
                        let (c, own): (Vec<u32>, Vec<u32>) =
                            al.iter().partition(|a| self.bindings[**a as usize].parts.is_some());
                        carriers = union(carriers, &c);
                        self.consume(&own, *span)?;
                        init_kept.push(Vec::new());
                    } else {
                        init_kept.push(al.clone());
                    }
                }
                self.consume(&carriers, init_span)?;
                // The result aliases the initial values and what the body
                // returns (its own bindings stand for what they alias, or
                // for themselves where they alias nothing outside).
                match (&parts, &returned) {
                    (Some(cs), Some(returned)) => {
                        let comps: Vec<AliasTree> = returned
                            .iter()
                            .zip(&init_kept)
                            .map(|(r, i)| AliasTree::Whole(union(self.outside_kept(r, first), i)))
                            .collect();
                        if cs.iter().all(|c| c.field) {
                            AliasTree::Record(cs.iter().map(|c| c.key.clone()).zip(comps).collect())
                        } else {
                            AliasTree::Tuple(comps)
                        }
                    }
                    _ => {
                        let mut init_all = Vec::new();
                        for al in &init_kept {
                            init_all = union(init_all, al);
                        }
                        match result {
                            // Without components, what the body made stays
                            // inside (one set for all would make the
                            // components alias each other).
                            AliasTree::Whole(r) => AliasTree::Whole(union(self.outside(&r, first), &init_all)),
                            r => r.map_leaves(&mut |l| union(self.outside_kept(l, first), &init_all)),
                        }
                    }
                }
            }
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
                let tree = self.exp_tree(&args[0])?;
                self.scoped(|an| {
                    an.bind_pat_tree(pat, &tree, None);
                    an.exp_tree(value)
                })?
            }
            ExpKind::LetFun {
                params,
                ret,
                value,
                body,
                ..
            } => {
                let al = self.function_body(params, ret.as_deref(), value, "a local function")?;
                let result_unique = self.last_fn_result_unique;
                self.scoped(|an| {
                    if let ExpKind::LetFun { name, name_span, .. } = &e.kind {
                        let id = an.bind(name, &al, None, *name_span);
                        an.fn_result_unique.insert(id, result_unique);
                    }
                    an.exp_tree(body)
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
                    an.exp_tree(body)
                })?
            }
            ExpKind::Assert(c, x) => {
                self.exp(c)?;
                self.exp_tree(x)?
            }
            _ => AliasTree::Whole(self.exp_inner(e)?),
        })
    }

    /// The aliases of the call `e` of `f` (Note [Component aliases]).
    fn call_tree(&mut self, e: &Exp, f: &Exp, args: &[Exp]) -> Result<AliasTree, Diag> {
        Ok({
            let fal = self.exp(f)?;
            let refs: Vec<&Exp> = args.iter().collect();
            let unique_params = match &f.kind {
                ExpKind::Var(Var {
                    res: Some(Resolved::Global(_)),
                    name,
                }) => self.unique_spec_params.get(&name.name).cloned().unwrap_or_default(),
                _ => Vec::new(),
            };
            let al = self.apply(f.ty.as_ref(), fal, &refs, e.ty.as_ref(), &unique_params)?;
            let function_result = e.ty.as_ref().is_some_and(|t| matches!(t, Type::Arrow { .. }));
            // `copy` returns a fresh value whatever its type, and so do
            // the top-level functions whose result aliases none of
            // their parameters (applied to all their arguments).
            match &f.kind {
                ExpKind::Var(Var {
                    res: Some(Resolved::Builtin(b)),
                    ..
                }) if &**b == "copy" => AliasTree::Whole(Vec::new()),
                ExpKind::Var(Var {
                    res: Some(Resolved::Global(_)),
                    name,
                }) if self.fresh_results.contains(&name.name) && !function_result => AliasTree::Whole(Vec::new()),
                ExpKind::Var(Var {
                    res: Some(Resolved::Global(_)),
                    name,
                }) if !function_result => match self.result_parts.get(&name.name) {
                    Some((arity, parts)) if *arity == args.len() => {
                        let parts = parts.clone();
                        let arg_al = std::mem::take(&mut self.last_args);
                        let mut fresh: Vec<Option<u32>> = vec![None; arg_al.len()];
                        parts.map_leaves(&mut |params| {
                            let mut out = Vec::new();
                            for &i in params {
                                let i = i as usize;
                                match arg_al.get(i) {
                                    Some(a) if !a.is_empty() => out = union(out, a),
                                    Some(_) => {
                                        let id = match fresh[i] {
                                            Some(id) => id,
                                            None => {
                                                let id = self.fresh_value(args[i].span);
                                                fresh[i] = Some(id);
                                                id
                                            }
                                        };
                                        out = union(out, &[id]);
                                    }
                                    None => {}
                                }
                            }
                            out
                        })
                    }
                    _ => AliasTree::Whole(al),
                },
                _ => AliasTree::Whole(al),
            }
        })
    }

    /// A use of a variable: its aliases, per component for one bound to a
    /// tuple or record (Note [Component aliases]).
    fn var_tree(&mut self, v: &Var, e: &Exp) -> Result<AliasTree, Diag> {
        let al = self.var(v, e)?;
        if al.is_empty() || !matches!(v.res, Some(Resolved::Local)) || !v.name.quals.is_empty() {
            return Ok(AliasTree::Whole(al));
        }
        Ok(match self.lookup(&v.name.name) {
            Some(id) => self.binding_tree(id),
            None => AliasTree::Whole(al),
        })
    }

    /// The aliases of the variable `id` (Note [Component aliases]).
    fn binding_tree(&self, id: u32) -> AliasTree {
        let b = &self.bindings[id as usize];
        match &b.parts {
            Some(p) => p.map_leaves(&mut |l| union(vec![id], l)),
            None => AliasTree::Whole(b.aliases.clone()),
        }
    }

    fn exp_inner(&mut self, e: &Exp) -> Result<Aliases, Diag> {
        Ok(match &e.kind {
            ExpKind::Lit(_) | ExpKind::ProjectSection(_) | ExpKind::Hole => Vec::new(),
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
                self.apply(rhs.ty.as_ref(), fal, &[lhs], e.ty.as_ref(), &[])?
            }
            ExpKind::BinOp { op, lhs, rhs, .. } if op.name.quals.is_empty() && &*op.name.name == "<|" => {
                let fal = self.exp(lhs)?;
                self.apply(lhs.ty.as_ref(), fal, &[rhs], e.ty.as_ref(), &[])?
            }
            ExpKind::BinOp { lhs, rhs, .. } => self.apply(None, Vec::new(), &[lhs, rhs], e.ty.as_ref(), &[])?,
            ExpKind::OpSection { left, right, .. } => {
                for x in [left, right].into_iter().flatten() {
                    self.exp(x)?;
                }
                Vec::new()
            }
            ExpKind::Lambda { params, ret, body } => self.function_body(params, ret.as_deref(), body, "a lambda")?,
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
            ExpKind::Index(a, ix) => {
                let al = self.exp(a)?;
                self.indices(ix)?;
                al
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
            // See `exp_tree_inner`.
            ExpKind::Var(_)
            | ExpKind::Apply(..)
            | ExpKind::Tuple(_)
            | ExpKind::Record(_)
            | ExpKind::Project(..)
            | ExpKind::Coerce(..)
            | ExpKind::Ascript(..)
            | ExpKind::Attr(..)
            | ExpKind::OpenIn(..)
            | ExpKind::If { .. }
            | ExpKind::Let { .. }
            | ExpKind::Loop { .. }
            | ExpKind::LetFun { .. }
            | ExpKind::LetWith { .. }
            | ExpKind::Assert(..) => self.exp_tree_inner(e)?.flat(),
        })
    }
}

/// The leaves of a function's result `tree` along its declared return
/// type `te`, each with whether that type is unique there.
fn unique_leaves(te: &TypeExp, tree: &AliasTree, out: &mut Vec<(Aliases, bool)>) {
    match (&te.kind, tree) {
        (TypeExpKind::Tuple(ts), AliasTree::Tuple(parts)) if ts.len() == parts.len() => {
            ts.iter().zip(parts).for_each(|(t, p)| unique_leaves(t, p, out))
        }
        (TypeExpKind::Record(fs), AliasTree::Record(_)) => {
            for (n, _, t) in fs {
                match tree.project(n) {
                    Some(p) => unique_leaves(t, p, out),
                    None => out.push((Vec::new(), false)),
                }
            }
        }
        _ => out.push((tree.flat(), unique_in(te))),
    }
}

/// Whether a type expression has a `*` in it.
fn unique_in(te: &TypeExp) -> bool {
    match &te.kind {
        TypeExpKind::Unique(_) => true,
        TypeExpKind::Array(_, t) => unique_in(t),
        TypeExpKind::Tuple(ts) => ts.iter().any(unique_in),
        TypeExpKind::Record(fs) => fs.iter().any(|(_, _, t)| unique_in(t)),
        _ => false,
    }
}

/// The aliases `whole` of a value of type `t`, split into its tuple's or
/// record's components.
fn split_by_type(t: &Type, whole: &Aliases) -> AliasTree {
    match t {
        Type::Tuple(ts) => AliasTree::Tuple(ts.iter().map(|t| split_by_type(t, whole)).collect()),
        Type::Record(fs) => AliasTree::Record(fs.iter().map(|(n, t)| (n.clone(), split_by_type(t, whole))).collect()),
        _ => AliasTree::Whole(whole.clone()),
    }
}

/// A parameter of a loop whose pattern is a tuple or record.
struct LoopComponent<'p> {
    /// The component's name in the alias tree (`0`, `1`, ... or a field).
    key: Name,
    /// Whether it is a record field.
    field: bool,
    pat: &'p Pat,
    /// The aliases of its initial value.
    init: AliasTree,
    /// The initial value's own expression, where the initial value is a
    /// literal.
    span: Option<Span>,
}

/// The parameters of a loop pattern that is a tuple or record whose
/// initial value has those components (Note [Component aliases]).
fn loop_components<'p>(pat: &'p Pat, init: &AliasTree) -> Option<Vec<LoopComponent<'p>>> {
    let comps: Vec<(Name, bool, &Pat)> = match &pat.kind {
        PatKind::Tuple(ps) if ps.len() > 1 => ps
            .iter()
            .enumerate()
            .map(|(i, p)| (Name::from(i.to_string()), false, p))
            .collect(),
        PatKind::Record(fs) if fs.len() > 1 => fs.iter().map(|(n, _, p)| (n.clone(), true, p)).collect(),
        _ => return None,
    };
    comps
        .into_iter()
        .map(|(key, field, pat)| {
            let init = init.project(&key)?.clone();
            Some(LoopComponent {
                key,
                field,
                pat,
                init,
                span: None,
            })
        })
        .collect()
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
        last_args: Vec::new(),
        fn_result_unique: FastMap::default(),
        unique_spec_params: &ck.unique_spec_params,
        last_fn_result_unique: false,
        result_parts: &ck.result_parts,
        result_globals: &ck.result_globals,
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
    let mut ids_per_param = Vec::new();
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
        let ids = an.bind_pat(p, &[], nc);
        param_ids.extend(ids.iter().copied());
        ids_per_param.push(ids);
    }
    let result_tree = an.exp_tree(&vb.body)?;
    let result = result_tree.flat();
    // See Note [Global aliases].
    let result_globals: Vec<Name> = an
        .globals
        .iter()
        .filter(|(_, id)| result.contains(id))
        .map(|(n, _)| n.clone())
        .collect();
    if let Some(ret) = &vb.ret {
        let mut leaves = Vec::new();
        unique_leaves(ret, &result_tree, &mut leaves);
        for (i, (al, unique)) in leaves.iter().enumerate() {
            let others: Vec<Aliases> = leaves
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, (a, _))| a.clone())
                .collect();
            if *unique && others.iter().any(|o| an.components_overlap(&[al.clone(), o.clone()])) {
                return Err(Diag::new(
                    vb.body.span,
                    format!(
                        "A unique-typed component of the return value of \"{}\" is aliased to some other component.{}",
                        vb.name,
                        see("unique-return-aliased")
                    ),
                )
                .help("`copy` one of the components"));
            }
        }
    }
    // What the components of the result alias of the parameters, by
    // parameter (Note [Component aliases]).
    let parts = (!matches!(result_tree, AliasTree::Whole(_))).then(|| {
        result_tree.map_leaves(&mut |l| {
            ids_per_param
                .iter()
                .enumerate()
                .filter(|(_, ids)| ids.iter().any(|id| l.contains(id)))
                .map(|(i, _)| i as u32)
                .collect()
        })
    });

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
    if result_globals.is_empty() || vb.params.is_empty() {
        ck.result_globals.remove(&vb.name);
    } else {
        ck.result_globals
            .insert(vb.name.clone(), (vb.params.len(), result_globals));
    }
    match parts {
        Some(p) => ck.result_parts.insert(vb.name.clone(), (vb.params.len(), p)),
        None => ck.result_parts.remove(&vb.name),
    };
    if fresh {
        ck.fresh_results.insert(vb.name.clone());
    } else {
        ck.fresh_results.remove(&vb.name);
    }
    Ok(())
}
