//! Static rules on sizes in declarations and type expressions, checked on
//! the syntax before (or besides) inference: the rules of the language
//! reference's "Size types" that need no unification.
//!
//! Note [Constructive size use]: a size is read at run time from the
//! shape of an array that has it (reference, "Causality restriction";
//! error index `unused-existential`). A use of `n` is *constructive* when
//! `[n]` is an array dimension outside any function type: a function is a
//! black box at run time and carries no sizes, and a size expression
//! (`[n+1]`) cannot be inverted. So
//! * an existential `?[n].t` must use `n` constructively in `t`
//!   ("Existential size "n" not used as array size");
//! * a type abbreviation's anonymous size `[]` stands for such an
//!   existential (`type^ t = []bool -> bool` is `?[n].[n]bool -> bool`):
//!   one in a function's parameter is never constructive. In a function's
//!   result it is the function's own existential result size, as in a
//!   `def`'s return type, which is allowed;
//! * an unlifted abbreviation (`type`) may have neither: its values must
//!   have one shape so that they can be array elements. `type~` may.

use super::Checker;
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{Size, Type};

/// Type, size and value parameters of one binder must have distinct
/// names (`type matrix [n] [n] = ...` is an error).
pub(crate) fn check_distinct_params(params: &[TypeParam]) -> Result<(), Diag> {
    for (i, p) in params.iter().enumerate() {
        if let Some(q) = params[..i].iter().find(|q| q.name() == p.name()) {
            return Err(Diag::new(
                param_span(p),
                format!("Type parameter \"{}\" previously defined.", p.name()),
            )
            .note(param_span(q), "first defined here"));
        }
    }
    Ok(())
}

fn param_span(p: &TypeParam) -> Span {
    match p {
        TypeParam::Size { span, .. } | TypeParam::Type { span, .. } => *span,
    }
}

/// Whether `te` uses the size name `n` constructively (Note [Constructive
/// size use]).
fn constructive_use(te: &TypeExp, n: &Name) -> bool {
    match &te.kind {
        TypeExpKind::Array(size, elem) => {
            matches!(size, SizeExp::Name(qn, _) if qn.quals.is_empty() && qn.name == *n) || constructive_use(elem, n)
        }
        TypeExpKind::Var(_) | TypeExpKind::Arrow(..) => false,
        TypeExpKind::Tuple(ts) => ts.iter().any(|t| constructive_use(t, n)),
        TypeExpKind::Record(fs) => fs.iter().any(|(_, _, t)| constructive_use(t, n)),
        TypeExpKind::Unique(t) => constructive_use(t, n),
        // A size argument of an abbreviation (`vec [n] f32`) counts: the
        // abbreviation's own definition was checked for its parameters.
        TypeExpKind::Apply(_, args) => args.iter().any(|a| match a {
            TypeArgExp::Size(SizeExp::Name(qn, _), _) => qn.quals.is_empty() && qn.name == *n,
            TypeArgExp::Size(..) => false,
            TypeArgExp::Type(t) => constructive_use(t, n),
        }),
        TypeExpKind::Existential(names, t) => !names.iter().any(|(m, _)| m == n) && constructive_use(t, n),
        TypeExpKind::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| constructive_use(t, n))),
    }
}

/// `?[n]...t`: every name used constructively in `t` (Note
/// [Constructive size use]).
pub(crate) fn check_existential(names: &[(Name, Span)], body: &TypeExp) -> Result<(), Diag> {
    for (n, span) in names {
        if !constructive_use(body, n) {
            return Err(
                Diag::new(*span, format!("Existential size \"{n}\" not used as array size.")).help(format!(
                    "use it as the size of an array outside any function type, e.g. a witness `[{n}]()`"
                )),
            );
        }
    }
    Ok(())
}

/// The span of an anonymous size `[]` in `te` that is not allowed in a
/// type abbreviation declared with `lift` (Note [Constructive size use]),
/// and whether it is in a function's parameter (else: anywhere in an
/// unlifted abbreviation).
fn bad_anonymous(te: &TypeExp, lift: Liftedness, in_param: bool) -> Option<(Span, bool)> {
    let here = |s: Span| {
        if in_param {
            Some((s, true))
        } else if lift == Liftedness::Unlifted {
            Some((s, false))
        } else {
            None
        }
    };
    match &te.kind {
        TypeExpKind::Array(size, elem) => {
            if let SizeExp::Any = size {
                if let Some(r) = here(te.span) {
                    return Some(r);
                }
            }
            bad_anonymous(elem, lift, in_param)
        }
        TypeExpKind::Var(_) => None,
        TypeExpKind::Arrow(_, a, b) => bad_anonymous(a, lift, true).or_else(|| bad_anonymous(b, lift, in_param)),
        TypeExpKind::Tuple(ts) => ts.iter().find_map(|t| bad_anonymous(t, lift, in_param)),
        TypeExpKind::Record(fs) => fs.iter().find_map(|(_, _, t)| bad_anonymous(t, lift, in_param)),
        TypeExpKind::Unique(t) => bad_anonymous(t, lift, in_param),
        TypeExpKind::Apply(_, args) => args.iter().find_map(|a| match a {
            TypeArgExp::Size(SizeExp::Any, s) => here(*s),
            TypeArgExp::Size(..) => None,
            TypeArgExp::Type(t) => bad_anonymous(t, lift, in_param),
        }),
        TypeExpKind::Existential(_, t) => {
            if lift == Liftedness::Unlifted && !in_param {
                Some((te.span, false))
            } else {
                bad_anonymous(t, lift, in_param)
            }
        }
        TypeExpKind::Sum(cs) => cs
            .iter()
            .find_map(|(_, ts)| ts.iter().find_map(|t| bad_anonymous(t, lift, in_param))),
    }
}

/// Whether the type `t` has `n` as an array size outside function types
/// (Note [Constructive size use]).
fn constructive_in_type(t: &Type, n: &Name) -> bool {
    match t {
        Type::Array { elem, shape, .. } => {
            shape.iter().any(|d| matches!(d, Size::Var(m) if m == n)) || constructive_in_type(elem, n)
        }
        Type::Tuple(ts) => ts.iter().any(|t| constructive_in_type(t, n)),
        Type::Record(fs) => fs.iter().any(|(_, t)| constructive_in_type(t, n)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| constructive_in_type(t, n))),
        Type::Arrow { .. } | Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
    }
}

/// The size parameters of an abstract type must be used constructively in
/// the type behind it, `def` (Note [Constructive size use]): a value of
/// the abstract type is all that carries them.
pub(crate) fn check_abstract_sizes(name: &Name, params: &[TypeParam], def: &Type) -> Result<(), Diag> {
    // A type behind it that is itself abstract (`type mat [n] = P.mat [n]`
    // in a functor, diku-dk linalg's dpsolve) may carry the size where this
    // representation of types cannot see it: accepted.
    // A functor's parameter is checked with `()` behind its abstract types
    // (the argument is not known): nothing to check there either.
    if mentions_abstract(def) || *def == Type::unit() {
        return Ok(());
    }
    for p in params {
        if let TypeParam::Size { name: n, span } = p {
            if !constructive_in_type(def, n) {
                return Err(Diag::new(
                    *span,
                    format!(
                        "Size parameter \"{n}\" of abstract type \"{}\" is not used constructively as an array size in its definition.",
                        display_type_name(name)
                    ),
                )
                .help("a value of the abstract type must carry the size: use it as the size of an array outside function types"));
            }
        }
    }
    Ok(())
}

/// Whether `t` has an abstract type or type parameter in it.
fn mentions_abstract(t: &Type) -> bool {
    match t {
        Type::Param(_) | Type::Var(_) => true,
        Type::Sum(cs) if cs.len() == 1 && cs[0].0.starts_with(crate::types::ABSTRACT_MARK) => true,
        Type::Array { elem, .. } => mentions_abstract(elem),
        Type::Tuple(ts) => ts.iter().any(mentions_abstract),
        Type::Record(fs) => fs.iter().any(|(_, t)| mentions_abstract(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(mentions_abstract)),
        Type::Arrow { param, ret, .. } => mentions_abstract(param) || mentions_abstract(ret),
        Type::Prim(_) => false,
    }
}

/// A type's name for messages, without the module system's internal
/// parts (`m.impl.t` is `m.t`).
fn display_type_name(n: &str) -> String {
    n.replace(".impl.", ".")
}

impl Checker {
    /// The size rules of a type abbreviation `type t ... = def` (Note
    /// [Constructive size use]).
    pub(crate) fn check_abbr_sizes(&self, tb: &TypeBind) -> Result<(), Diag> {
        check_distinct_params(&tb.params)?;
        match bad_anonymous(&tb.def, tb.liftedness, false) {
            Some((span, true)) => Err(Diag::new(
                span,
                format!(
                    "Type abbreviation \"{}\" contains an anonymous size not used constructively as an array size. [anonymous-nonconstructive]",
                    tb.name
                ),
            )
            .help("an anonymous size in a function's parameter cannot be read from any value; name it as a size parameter of the abbreviation")),
            Some((span, false)) => Err(Diag::new(
                span,
                format!(
                    "Type abbreviation \"{}\" contains an anonymous or existential size, but is not declared size-lifted.",
                    tb.name
                ),
            )
            .help(format!("declare it with `type~ {}` (or `type^`)", tb.name))),
            None => Ok(()),
        }
    }
}

// Note [Anonymous parameter sizes]
// An anonymous size in a top-level function's parameter (`def f (xs:
// []i32)`) is a size the checker infers (reference, "Size types"): a size
// variable while the definition is checked, generalised into a size
// parameter at its end (Note [Static size checking]) unless the body
// fixes it. So `def main (x: []f32) (y: []f32) = map2 (+) x y` gives both
// one size, as in Futhark, and `def f (xs: []i32) : [10]i32 = xs ++ xs`
// is an error: no size makes `d+d` equal `10`. The same holds for the
// parameters of a parameter's function type: in `def ap (f: i64 -> []i32
// -> i32) (k: i32) = f 0 [k]` the body fixes `[]` to `[1]`, and `ap g`
// for `g (n: i64) (xs: [n]i32)` is an error, as in Futhark (shapes/
// error9.fut; Note [Dependent function types]). A function type's result
// `[]` is an existential size, here unknown. Elsewhere (`let`, loop
// parameters, lambdas) `[]` stays an unknown size.

// Note [Anonymous parameter sizes in the body]
// Once a `def` is checked, the size variables generalised from its
// parameters' types (Note [Anonymous parameter sizes]) become size
// parameters with made-up names (`?n0`, which no source name can equal),
// and its tree names them too, as if the program had declared them: `def
// main (xss: [][]i32) = map (map (+1)) xss` is checked as `def main
// [?n0][?n1] (xss: [?n0][?n1]i32) = ...`. The body's types then say the
// sizes of what it builds, which the interpreter needs where no element
// gives them: mapping over an empty `[0][3]i32` must give `[0][3]`, not
// `[0][0]`. Checking the body is over by then, so a size the body could
// not name stays unnameable there (`unflatten (flatten xs)` in a `def f
// xs` is still an error). Only the sizes of parameters with a type
// annotation are named: an unannotated parameter's type is not part of
// the function's declared signature (the internaliser erases its sizes),
// so its sizes stay unknown in the body, as before.

// Note [Anonymous result sizes]
// An anonymous size in a `def`'s return type (`def reshape (l: i64) (x:
// []i32) : []i32 = take l ...`) is inferred like one in its parameters
// (reference: "replaced by an actual size by the type checker, either via
// inference or by inventing a new name"): a size variable that the body's
// type binds. Where the body's size is one the caller can name (a size
// parameter, an `i64` parameter, a constant, arithmetic on them) the
// function's type has it (`(l: i64) -> []i32 -> [l]i32`), so `unflatten
// (reshape (n*m) xs)` knows its sizes; anything else (a size local to the
// body, an existential, nothing) is existential outside, as an anonymous
// result size always was before. Recursive calls see the annotation with
// unknown sizes, since the body they are part of is what infers them. A
// value declaration (`def xs : []i32 = ...`, no parameters) keeps
// existential sizes, as the reference says of value declarations.

// Note [Existential sizes]
// Where Futhark gives an expression "a fresh unknown size, distinct from
// every other size in the program" (reference, "Unknown sizes"), the
// checker makes a rigid size name `?kN` (no source name starts with `?`):
// it equals only itself, a size variable binds to it, and `Unknown`
// agrees with it, so `zip xs[1:] ys[1:]` is an error, as in Futhark, and
// `let ys = xs[1:] in zip ys ys` is not. The checker makes one
// * for a slice other than `a[:]`, `a[:n]`, `a[0:n]` (with stride 1), whose
//   size is `n` (a variable or a constant);
// * for a range other than `0..<n`, `0..1..<n`, `1..2...n`, whose size is
//   `n` (also a size expression: `0..<(n+1)` is `[n+1]`);
// * for an `if` whose branches have different sizes, both known (a
//   constant, a name or an existential).
// Elsewhere an untracked size stays `Unknown`, which agrees with all (Note
// [Static size checking]): the checker must not be stricter than Futhark
// where it knows less. Existentials live while a declaration is checked:
// its trees and scheme have `Unknown` for them (`Subst::resolve_final`).

impl Checker {
    /// A fresh rigid existential size (Note [Existential sizes]); `origin`
    /// says where it comes from ("unknown length of range").
    pub(crate) fn fresh_existential(&mut self, origin: String) -> crate::types::Size {
        let name = self.fresh_name("?k");
        self.subst.existentials.push((name.clone(), origin));
        crate::types::Size::Var(name)
    }
}

// Note [Scope violations]
// A type inferred for something bound in an outer scope may not come to
// mention a name bound only in an inner one (error index
// `scope-violation`): a local function's type parameter (`def f x = let
// g 'b (y: b) = if true then y else x in g` would give `x` the type `b`)
// or its size parameters and parameters (`let f (n: i64) (xs: [n]i32) =
// ... match x case #ys (ys: [n]i32) -> ...` would give `x` a size `n`).
// Likewise a parameter's type may not mention a later parameter of the
// same function (`\xs n -> zip xs (iota n)` would give `xs` the size
// `n`). The checker compares, for the locals in scope before a local
// function, which of the function's own names their types mention before
// and after checking it; a name shadowing an outer one of the same name
// is left alone.

/// The names a pattern binds.
pub(crate) fn pat_names(p: &Pat, out: &mut Vec<Name>) {
    match &p.kind {
        PatKind::Id(n) => out.push(n.clone()),
        PatKind::Ascribe(q, _) => pat_names(q, out),
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| pat_names(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| pat_names(q, out)),
        PatKind::Wildcard | PatKind::Lit { .. } => {}
    }
}

/// What the outer locals' types mention of a local function's own names,
/// before it is checked (Note [Scope violations]).
pub(crate) struct ScopeSnapshot {
    /// The function's names not also bound outside.
    inner: Vec<Name>,
    /// Per outer local (by index), the inner names its type mentions.
    before: Vec<Vec<bool>>,
}

impl Checker {
    /// Take the snapshot for a local function with these type parameters
    /// and parameters.
    pub(crate) fn scope_snapshot(&self, type_params: &[TypeParam], params: &[Pat]) -> ScopeSnapshot {
        let mut inner: Vec<Name> = type_params.iter().map(|tp| tp.name().clone()).collect();
        for p in params {
            pat_names(p, &mut inner);
        }
        inner.retain(|n| self.lookup_local(n).is_none() && !self.subst.rigid.iter().any(|(m, _)| m == n));
        let before = if inner.is_empty() {
            Vec::new()
        } else {
            self.locals
                .iter()
                .map(|l| inner.iter().map(|n| self.subst.mentions_name(&l.ty, n)).collect())
                .collect()
        };
        ScopeSnapshot { inner, before }
    }

    /// After checking the local function `fun`: no outer local's type has
    /// come to mention one of its own names.
    pub(crate) fn check_scope_snapshot(&self, snap: &ScopeSnapshot, fun: &Name, span: Span) -> Result<(), Diag> {
        for (l, before) in self.locals.iter().zip(&snap.before) {
            for (n, was) in snap.inner.iter().zip(before) {
                if !was && self.subst.mentions_name(&l.ty, n) {
                    return Err(Diag::new(
                        span,
                        format!(
                            "The type of \"{}\" would mention \"{n}\", which is bound only inside \"{}\" (scope-violation).",
                            l.name,
                            display_fun(fun)
                        ),
                    )
                    .help(format!("annotate the type of `{}` where it is bound", l.name)));
                }
            }
        }
        Ok(())
    }

    /// A parameter's type mentions no name bound by a later parameter of
    /// the same function (Note [Scope violations]). Runs with the
    /// parameters out of scope again.
    pub(crate) fn check_param_order(&self, params: &[Pat], ptys: &[Type]) -> Result<(), Diag> {
        let mut later: Vec<Name> = Vec::new();
        for (p, t) in params.iter().zip(ptys).rev() {
            for n in &later {
                if self.lookup_local(n).is_none() && self.subst.mentions_name(t, n) {
                    return Err(Diag::new(
                        p.span,
                        format!(
                            "The type of this parameter would mention \"{n}\", a later parameter, which is not in scope here (scope-violation)."
                        ),
                    )
                    .help("annotate the parameter's type"));
                }
            }
            pat_names(p, &mut later);
        }
        Ok(())
    }
}

/// A local function's name for messages (a size binder has none).
fn display_fun(n: &Name) -> &str {
    if &**n == SIZE_BINDER {
        "the size binding"
    } else {
        n
    }
}

/// Whether `t` has `n` in an array size (also inside a size expression)
/// outside function types.
fn outside_functions(t: &Type, n: &Name) -> bool {
    super::unify::mentions_size_in(t, n, false)
}

impl Checker {
    /// A size binder `let [n] p = e` reads `n` from the shape of `e`: `n`
    /// must be in an array size of `p`'s type outside function types (Note
    /// [Constructive size use]; `let [n] (f: [n]bool -> [n]bool) = g` is an
    /// error).
    pub(crate) fn check_size_binder(&self, type_params: &[TypeParam], pty: &Type) -> Result<(), Diag> {
        let t = self.subst.resolve(pty);
        for tp in type_params {
            if let TypeParam::Size { name, span } = tp {
                // A size expression (`[n+1]`) may still be inferred from
                // the value's: only sizes inside function types are never.
                if !outside_functions(&t, name) {
                    return Err(Diag::new(
                        *span,
                        format!(
                            "Cannot bind [{name}]: it is not the size of an array (outside function types) in the pattern, so no value gives it."
                        ),
                    )
                    .help(format!("use it as an array size, e.g. `(xs: [{name}]i32)`")));
                }
            }
        }
        Ok(())
    }
}

// Note [Loop-variant sizes]
// The sizes of a loop parameter may change from one iteration to the
// next (reference, "Unknown sizes": `loop xs = [1] for i < n do xs ++
// xs`). As in Futhark, each size of a loop parameter that is not
// annotated starts as a fresh size variable while the body is checked
// (an annotated `[]` stays untracked). After the body, per size:
// * the body's result has the same size (or the body bound the variable
//   to it), or the initial value's size: it is invariant, and the
//   initial value must have it;
// * else it is loop-variant: the initial value may have any size there
//   (the same for positions the body made equal: "Initial loop values do
//   not have expected type."), and the loop's result has a fresh
//   existential (Note [Existential sizes]). A variant size may not have
//   come into the type of anything bound outside the loop ("Loop-variant
//   size has escaped", error index `loop-variant-escape`);
// * a size the body equated with an existential made inside the body
//   (`zip (filter p ys) xs`) would have to be known before the iteration
//   that makes it: an error.
// A body size that is `Unknown` while nothing fixed the parameter's size
// variable is variant: the untracked size stands for one of Futhark's
// existentials (a call's existential result), and the
// checker tracks every operation that keeps a size. Where the body fixed
// the variable and gives back `Unknown`, or the body bound the variable to an
// outer size yet returns another one, the result size is `Unknown` (Note
// [Static size checking]: lenient where unsure).

// Note [Existential results]
// A size in a function's result that names a local of its body (`def f x
// = let y = x + 1 in replicate y 0`) is existential: `f` has the type
// `i64 -> ?[y].[y]i32`, and "each application of the function gives a
// fresh size" (reference, "Size types"), so `zip (f a) (f b)` is an error
// even where `a == b`. The scheme of such a `def` keeps, beside its type
// with `Unknown` for those sizes, one where each is named
// (`existential_ty`); `instantiate` makes the names fresh rigid
// existentials (Note [Existential sizes]), equal only to themselves. Such
// a size comes from a `let` in the body (`leave_let_scope` turns a size
// named by a name the `let` binds into a fresh existential, as Futhark
// does when the type leaves the name's scope), from an existential of
// the body (a range, an `if`), or from a declared existential result
// (`: ?[m].[m]i32`, whose `m` the body's type does not fix: the scheme
// names it from the declaration). Only sizes of arrays outside function
// types are read off the result: a function carries no size that a caller
// could read, so an existential size of a function's parameter in the
// result that no such array has ("used non-constructively", glossary) is
// an error, "Cannot generalise" (returntype-error4): no argument could be
// given for that parameter. (One in a function's result is fine: each call
// of that function gives it afresh, unscoping.fut.) A constant (a `def` without
// parameters) is computed once, and keeps `Unknown`.

/// The result type `t` of a function with each dimension that mentions a
/// name outside `scope` (outside function types) replaced by a name from
/// `fresh`, the same for equal dimensions (also inside function types);
/// the names are pushed to `names`, each with its dimension to `seen`. See
/// Note [Existential results].
pub(crate) fn name_existential_results(
    t: &Type,
    scope: &[Name],
    names: &mut Vec<Name>,
    seen: &mut Vec<(Size, Name)>,
    fresh: &mut dyn FnMut() -> Name,
) -> Type {
    let named = map_shape(t, &mut |d| {
        if !d.any_leaf(&mut |l| matches!(l, Size::Var(n) if !scope.contains(n))) {
            return d.clone();
        }
        if let Some((_, n)) = seen.iter().find(|(e, _)| e == d) {
            return Size::Var(n.clone());
        }
        let n = fresh();
        names.push(n.clone());
        seen.push((d.clone(), n.clone()));
        Size::Var(n)
    });
    // The same sizes inside function types (`([m]i64, [m]bool -> t)`).
    map_function_dims(&named, false, &mut |d| match seen.iter().find(|(e, _)| e == d) {
        Some((_, n)) => Size::Var(n.clone()),
        None => d.clone(),
    })
}

/// Replace every dimension (whole) inside function types of `t`
/// (`inside`: `t` itself is inside one).
fn map_function_dims(t: &Type, inside: bool, f: &mut dyn FnMut(&Size) -> Size) -> Type {
    use std::rc::Rc;
    match t {
        Type::Array { elem, shape, unique } => Type::Array {
            elem: Rc::new(map_function_dims(elem, inside, f)),
            shape: if inside {
                shape.iter().map(&mut *f).collect()
            } else {
                shape.clone()
            },
            unique: *unique,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| map_function_dims(t, inside, f)).collect()),
        Type::Record(fs) => Type::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), map_function_dims(t, inside, f)))
                .collect(),
        ),
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| map_function_dims(t, inside, f)).collect()))
                .collect(),
        ),
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name: param_name.clone(),
            param: Rc::new(map_function_dims(param, true, f)),
            ret: Rc::new(map_function_dims(ret, true, f)),
        },
        t => t.clone(),
    }
}

/// A dimension inside a function parameter's type in a function's result
/// type `t` that mentions a name outside `scope` and is not the size of an array
/// outside function types there (`named`, by `name_existential_results`):
/// no caller could know it (See Note [Existential results]).
pub(crate) fn nonconstructive_result_size(t: &Type, scope: &[Name], named: &[Size]) -> Option<Size> {
    let mut found = None;
    each_function_dim(t, false, &mut |d| {
        if found.is_none() && d.any_leaf(&mut |l| matches!(l, Size::Var(n) if !scope.contains(n))) && !named.contains(d)
        {
            found = Some(d.clone());
        }
    });
    found
}

/// Each dimension of `t` that lies inside a function type's parameter
/// (`inside`: `t` itself does). A function's result may have existential
/// sizes: each call gives fresh ones.
fn each_function_dim(t: &Type, inside: bool, f: &mut dyn FnMut(&Size)) {
    match t {
        Type::Array { elem, shape, .. } => {
            if inside {
                shape.iter().for_each(&mut *f);
            }
            each_function_dim(elem, inside, f);
        }
        Type::Tuple(ts) => ts.iter().for_each(|t| each_function_dim(t, inside, f)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| each_function_dim(t, inside, f)),
        Type::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| each_function_dim(t, inside, f))),
        Type::Arrow { param, ret, .. } => {
            each_function_dim(param, true, f);
            each_function_dim(ret, inside, f);
        }
        Type::Prim(_) | Type::Param(_) | Type::Var(_) => {}
    }
}

/// Replace every dimension (whole, not leaf by leaf) of a type, in order.
pub(crate) fn map_shape(t: &Type, f: &mut dyn FnMut(&Size) -> Size) -> Type {
    match t {
        Type::Array { elem, shape, unique } => {
            let shape = shape.iter().map(&mut *f).collect();
            Type::Array {
                elem: std::rc::Rc::new(map_shape(elem, f)),
                shape,
                unique: *unique,
            }
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| map_shape(t, f)).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), map_shape(t, f))).collect()),
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| map_shape(t, f)).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// The dimensions of `t`, in `map_shape`'s order.
pub(crate) fn dims_of(t: &Type) -> Vec<Size> {
    let mut out = Vec::new();
    map_shape(t, &mut |d| {
        out.push(d.clone());
        d.clone()
    });
    out
}

/// For each dimension of `p` (in `map_shape`'s order), the dimension of
/// `b` at the same place, or `Unknown` where the structures differ.
pub(crate) fn matching_dims(p: &Type, b: &Type, out: &mut Vec<Size>) {
    match (p, b) {
        (
            Type::Array {
                elem: pe, shape: ps, ..
            },
            Type::Array {
                elem: be, shape: bs, ..
            },
        ) if ps.len() == bs.len() => {
            out.extend(bs.iter().cloned());
            matching_dims(pe, be, out)
        }
        (Type::Tuple(ps), Type::Tuple(bs)) if ps.len() == bs.len() => {
            ps.iter().zip(bs).for_each(|(p, b)| matching_dims(p, b, out))
        }
        (Type::Record(ps), Type::Record(bs))
            if ps.len() == bs.len() && ps.iter().zip(bs).all(|((m, _), (n, _))| m == n) =>
        {
            ps.iter().zip(bs).for_each(|((_, p), (_, b))| matching_dims(p, b, out))
        }
        (Type::Sum(ps), Type::Sum(bs))
            if ps.len() == bs.len() && ps.iter().zip(bs).all(|((m, x), (n, y))| m == n && x.len() == y.len()) =>
        {
            for ((_, xs), (_, ys)) in ps.iter().zip(bs) {
                xs.iter().zip(ys).for_each(|(p, b)| matching_dims(p, b, out))
            }
        }
        _ => out.extend(dims_of(p).into_iter().map(|_| Size::Unknown)),
    }
}

/// What became of one unannotated loop parameter size (Note [Loop-variant
/// sizes]).
enum LoopDim {
    /// Annotated: kept, and checked against the body by unification.
    Annotated(Size),
    /// Not tracked on one side: `Unknown` in the result.
    Untracked,
    /// The same in every iteration: this size.
    Invariant(Size),
    /// Changes: the size variable's binding (an unbound variable, else
    /// an outer size the body fixed it to).
    Variant(Size),
}

impl Checker {
    /// The type of a loop whose parameters have type `pat_t0` (resolved
    /// before the body), whose initial sizes are `init_dims`, body type `bt` and initial value type `it`; `mark`
    /// and `ex_mark` are the numbers of locals and existentials before the
    /// loop (Note [Loop-variant sizes]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn loop_result(
        &mut self,
        pat_t0: &Type,
        init_dims: &[Size],
        bt: &Type,
        it: &Type,
        mark: usize,
        ex_mark: usize,
        pat_span: Span,
        init_span: Span,
        body_span: Span,
    ) -> Result<Type, Diag> {
        // The structure and the annotated sizes, as before.
        let pdims = dims_of(pat_t0);
        let is_var = |d: &Size| matches!(d, Size::Infer(_));
        let shape_t = map_shape(pat_t0, &mut |d| {
            if is_var(d) {
                Size::Unknown
            } else {
                d.clone()
            }
        });
        self.subst.unify_explained(&shape_t, bt, body_span, |s, help| {
            Diag::new(
                body_span,
                format!(
                    "the loop body must have the type of the loop parameters: expected `{}`, found `{}`",
                    s.show(&shape_t),
                    s.show(bt)
                ),
            )
            .help(help)
        })?;
        let mut bdims = Vec::new();
        matching_dims(pat_t0, &self.subst.resolve(bt), &mut bdims);
        let mut kinds = Vec::new();
        for (i, (p, b)) in pdims.iter().zip(&bdims).enumerate() {
            if !is_var(p) {
                kinds.push(if *p == Size::Unknown {
                    LoopDim::Untracked
                } else {
                    LoopDim::Annotated(p.clone())
                });
                continue;
            }
            let r = self.subst.resolve_size(p);
            let b = self.subst.resolve_size(b);
            if let Some(e) = self.subst.existentials[ex_mark..]
                .iter()
                .find(|(n, _)| r.any_leaf(&mut |l| matches!(l, Size::Var(m) if m == n)))
            {
                return Err(Diag::new(
                    pat_span,
                    format!(
                        "The size of a loop parameter would be \"{}\" ({}), which is bound inside the loop body.",
                        e.0, e.1
                    ),
                )
                .help("the sizes of the loop parameters must be known before each iteration; coerce the value with `:>` to the parameter's size"));
            }
            kinds.push(if b == Size::Unknown && matches!(r, Size::Infer(_)) {
                // Nothing fixed the parameter's size, and the body's is
                // not tracked: it stands for an existential of Futhark's
                // (a slice, a concatenation), never the parameter's own.
                LoopDim::Variant(r)
            } else if r == Size::Unknown || b == Size::Unknown {
                LoopDim::Untracked
            } else if r.folded() == b.folded() {
                LoopDim::Invariant(r)
            } else if init_dims.get(i).map(|s| self.subst.resolve_size(s).folded()) == Some(b.folded()) {
                // The body gives back the initial value's size.
                LoopDim::Invariant(r)
            } else {
                LoopDim::Variant(r)
            });
        }
        // A variant size (an unbound variable) in the type of something
        // bound outside the loop.
        for k in &kinds {
            if let LoopDim::Variant(Size::Infer(v)) = k {
                for l in &self.locals[..mark] {
                    let mut vs = Vec::new();
                    self.subst.unbound_size_vars(&l.ty, &mut vs);
                    if vs.contains(v) {
                        return Err(Diag::new(
                            pat_span,
                            format!(
                                "Loop-variant size has escaped: the type of \"{}\" would mention a size of this loop parameter, which changes in every iteration. [loop-variant-escape]",
                                l.name
                            ),
                        )
                        .help(format!("annotate the sizes of `{}` and of the function parameters involved", l.name)));
                    }
                }
            }
        }
        // The initial value: any size where the size varies (the same
        // where the body made two sizes equal).
        let mut fresh: Vec<(Size, Size)> = Vec::new();
        let mut i = 0;
        let init_t = map_shape(pat_t0, &mut |_| {
            let k = kinds.get(i);
            i += 1;
            match k {
                Some(LoopDim::Annotated(d)) | Some(LoopDim::Invariant(d)) => d.clone(),
                Some(LoopDim::Variant(r)) => match fresh.iter().find(|(s, _)| s == r) {
                    Some((_, w)) => w.clone(),
                    None => {
                        let w = self.subst.fresh_size_for(None);
                        fresh.push((r.clone(), w.clone()));
                        w
                    }
                },
                Some(LoopDim::Untracked) | None => Size::Unknown,
            }
        });
        self.subst.unify_explained(&init_t, it, init_span, |s, help| {
            Diag::new(
                init_span,
                format!(
                    "Initial loop values do not have expected type. Expected `{}`, found `{}`.",
                    s.show(&init_t),
                    s.show(it)
                ),
            )
            .help(help)
        })?;
        // The result: a fresh existential per variant size.
        let mut exts: Vec<(Size, Size)> = Vec::new();
        let mut result_dims = Vec::new();
        for k in &kinds {
            result_dims.push(match k {
                LoopDim::Annotated(d) | LoopDim::Invariant(d) => self.subst.resolve_size(d),
                LoopDim::Untracked => Size::Unknown,
                LoopDim::Variant(r) => match self.subst.resolve_size(r) {
                    Size::Infer(v) => match exts.iter().find(|(s, _)| *s == Size::Infer(v)) {
                        Some((_, e)) => e.clone(),
                        None => {
                            let e = self.fresh_existential("the size of a loop result that changes in the loop".into());
                            self.subst.set_size(v, e.clone());
                            exts.push((Size::Infer(v), e.clone()));
                            e
                        }
                    },
                    _ => Size::Unknown,
                },
            });
        }
        let mut i = 0;
        Ok(map_shape(pat_t0, &mut |_| {
            let d = result_dims.get(i).cloned().unwrap_or(Size::Unknown);
            i += 1;
            d
        }))
    }
}

// Note [Ambiguous size binders]
// A size binder `let [n] p = e` reads `n` from the shape of `e` (Note
// [Size binders] in the parser). Where that shape's size at `n`'s place is
// a size variable that nothing has bound by the end of the definition
// (`let [n][m] (xss: [n][m]i64) = []`: the empty array's rows have no
// size), no value gives `n`: "Ambiguous size "m"." A size variable of the
// definition's own parameters or result is not one: it becomes a size
// parameter (or existential) of the definition. An `Unknown` size is not
// one either: it stands for a size known at run time.

/// A size binder's size parameters, its pattern's type and the bound
/// value's.
type SizeBinder = (Vec<(Name, Span)>, Type, Type);

impl Checker {
    /// The size binders of a definition's body, checked once the whole
    /// definition is (Note [Ambiguous size binders]); `own` are the types
    /// of the definition's parameters and result.
    pub(crate) fn check_ambiguous_size_binders(&self, body: &mut Exp, own: &[&Type]) -> Result<(), Diag> {
        let mut binders: Vec<SizeBinder> = Vec::new();
        super::zonk::walk_exp(
            body,
            &mut |e| {
                if let ExpKind::LetFun {
                    name,
                    type_params,
                    params,
                    body,
                    ..
                } = &e.kind
                {
                    let arg = match &body.kind {
                        ExpKind::Apply(_, args) if args.len() == 1 => args[0].ty.clone(),
                        _ => None,
                    };
                    if let (true, Some(pt), Some(at)) =
                        (&**name == SIZE_BINDER, params.first().and_then(|p| p.ty.clone()), arg)
                    {
                        let names = type_params
                            .iter()
                            .filter_map(|tp| match tp {
                                TypeParam::Size { name, span } => Some((name.clone(), *span)),
                                TypeParam::Type { .. } => None,
                            })
                            .collect();
                        binders.push((names, pt, at));
                    }
                }
                Ok(())
            },
            &mut |_| {},
        )?;
        if binders.is_empty() {
            return Ok(());
        }
        let mut own_vars = Vec::new();
        for t in own {
            self.subst.unbound_size_vars(t, &mut own_vars);
        }
        for (names, pt, at) in binders {
            let pt = self.subst.resolve(&pt);
            let pdims = dims_of(&pt);
            let mut adims = Vec::new();
            matching_dims(&pt, &self.subst.resolve(&at), &mut adims);
            for (n, span) in names {
                let mut given = pdims
                    .iter()
                    .zip(&adims)
                    .filter(|(p, _)| matches!(p, Size::Var(m) if *m == n))
                    .map(|(_, a)| self.subst.resolve_size(a))
                    .peekable();
                let ambiguous =
                    given.peek().is_some() && given.all(|a| matches!(a, Size::Infer(v) if !own_vars.contains(&v)));
                if ambiguous {
                    return Err(Diag::new(span, format!("Ambiguous size \"{n}\".")).help(format!(
                        "nothing gives the size `{n}` of the bound value (an empty array's rows have no size): annotate the value, e.g. `[] : [0][3]i64`"
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Call `f` on every size name of `te` (`[n]`, and the names in `[n+1]`)
/// that no name bound inside `te` shadows, with where it is written;
/// `bound` holds those in scope.
pub(crate) fn each_size_name(te: &mut TypeExp, bound: &mut Vec<Name>, f: &mut dyn FnMut(&mut QualName, Span)) {
    fn size(d: &mut SizeExp, bound: &[Name], f: &mut dyn FnMut(&mut QualName, Span)) {
        let free = |qn: &QualName| !qn.quals.is_empty() || !bound.contains(&qn.name);
        match d {
            SizeExp::Name(qn, span) if free(qn) => f(qn, *span),
            SizeExp::Exp(e, _) => {
                // The walk cannot fail: the visitor returns no error.
                let _ = super::zonk::walk_exp(
                    e,
                    &mut |x| {
                        let span = x.span;
                        if let ExpKind::Var(v) = &mut x.kind {
                            if free(&v.name) {
                                f(&mut v.name, span);
                            }
                        }
                        Ok(())
                    },
                    &mut |_| {},
                );
            }
            _ => {}
        }
    }
    match &mut te.kind {
        TypeExpKind::Var(_) => {}
        TypeExpKind::Tuple(ts) => ts.iter_mut().for_each(|t| each_size_name(t, bound, f)),
        TypeExpKind::Record(fs) => fs.iter_mut().for_each(|(_, _, t)| each_size_name(t, bound, f)),
        TypeExpKind::Array(d, t) => {
            size(d, bound, f);
            each_size_name(t, bound, f);
        }
        TypeExpKind::Unique(t) => each_size_name(t, bound, f),
        TypeExpKind::Existential(names, t) => {
            let mark = bound.len();
            bound.extend(names.iter().map(|(n, _)| n.clone()));
            each_size_name(t, bound, f);
            bound.truncate(mark);
        }
        TypeExpKind::Arrow(name, a, b) => {
            each_size_name(a, bound, f);
            let mark = bound.len();
            bound.extend(name.iter().cloned());
            each_size_name(b, bound, f);
            bound.truncate(mark);
        }
        TypeExpKind::Apply(h, args) => {
            each_size_name(h, bound, f);
            for a in args {
                match a {
                    TypeArgExp::Type(t) => each_size_name(t, bound, f),
                    TypeArgExp::Size(d, _) => size(d, bound, f),
                }
            }
        }
        TypeExpKind::Sum(cs) => cs
            .iter_mut()
            .for_each(|(_, ts)| ts.iter_mut().for_each(|t| each_size_name(t, bound, f))),
    }
}
