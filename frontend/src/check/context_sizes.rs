//! Size parameters that a use of a function instantiates from its context.
//!
//! Note [Size parameters from the context]
//! A size parameter is normally read off the size of an array argument
//! (`def f [n] (xs: [n]i32)`). The reference allows one that no array
//! parameter witnesses, used only in a function-typed parameter
//! (`def f [n] (g: [n]i32 -> i64) = n`), in the result type
//! (`def f [n] m : ([m]i32, [n]i32 -> i32)`), or in a size expression
//! (`def plus_comm [a] [b] : [a+b][b+a]()`, `def size [n] (s: [(n - 1) /
//! k + 1]u8)`, whose size is a term: Note [Size terms] in `types`): "the
//! value of the size parameter must be inferable" from the use. The
//! checker has inferred it: the type of the function at the use (`Exp::ty` of the name, after
//! zonking) has, where the definition's type has `n`, a size of the
//! caller's scope (`[3]`, `[m]`, `[k+l]`). The interpreters match the two
//! types ([`size_at_use`]), evaluate that size where the name is used, and
//! bind `n` to its value before the call; a parameter whose size the use
//! does not give either (an `Unknown` there) stays unbound and is reported
//! at the call.

use crate::syntax::ast::{Name, Pat, TypeParam};
use crate::types::{Size, Type};

/// The size parameters among `type_params` that no parameter in `params`
/// witnesses: none has it as the size of an array (outside function types
/// and size expressions), so a call cannot read it off its arguments (See
/// Note [Size parameters from the context]).
pub fn context_size_params<'a>(type_params: &'a [TypeParam], params: &[Pat]) -> Vec<&'a Name> {
    type_params
        .iter()
        .filter_map(|tp| match tp {
            TypeParam::Size { name, .. } => Some(name),
            TypeParam::Type { .. } => None,
        })
        .filter(|n| !params.iter().any(|p| p.ty.as_ref().is_some_and(|t| witnessed(t, n))))
        .collect()
}

// Note [Context sizes of a let-bound function value]
// A function value bound by `let` forgets its own size variables (Note
// [Static size checking] in `check`), except those that instantiate a
// size parameter that the called function's arguments do not give (`let
// (x, g) = f m 3 in g x` with `def f [n] m' v : ([m']i32, [n]i32 -> i32)`):
// that size is "inferable" only from the later uses (reference, "Causality
// restriction"), where `g x` fixes it, and the interpreters read it off the
// type of `f` at its use (Note [Size parameters from the context]).
// Forgotten, it would be unknown there and the call could not run.

/// Whether the function type `t` (curried) has a parameter that witnesses
/// size `n`: the size of an array in it, outside function types and size
/// expressions.
pub(crate) fn witnessed_by_params(t: &Type, n: &Name) -> bool {
    let mut t = t;
    while let Type::Arrow { param, ret, .. } = t {
        if witnessed(param, n) {
            return true;
        }
        t = ret;
    }
    false
}

/// Whether `n` is the size of an array in `t`, outside function types.
/// An array of empty tuples or records (`[n][m]()`, a type-level
/// equation) does not count: the internaliser represents it by nothing.
fn witnessed(t: &Type, n: &Name) -> bool {
    match t {
        Type::Array { elem, .. } if matches!(&**elem, Type::Tuple(ts) if ts.is_empty()) => false,
        Type::Array { elem, .. } if matches!(&**elem, Type::Record(fs) if fs.is_empty()) => false,
        Type::Array { elem, shape, .. } => {
            shape.iter().any(|d| matches!(d, Size::Var(m) if m == n)) || witnessed(elem, n)
        }
        Type::Tuple(ts) => ts.iter().any(|t| witnessed(t, n)),
        Type::Record(fs) => fs.iter().any(|(_, t)| witnessed(t, n)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| witnessed(t, n))),
        _ => false,
    }
}

/// The size that size parameter `n` of a function with parameters
/// `params` and a body of type `body_ty` stands for at a use of the
/// function at type `actual` (curried: one arrow per parameter), in the
/// terms of the use's scope; `None` where the use's type does not say.
pub fn size_at_use(n: &Name, params: &[Pat], body_ty: Option<&Type>, actual: &Type) -> Option<Size> {
    let mut act = actual;
    for p in params {
        let Type::Arrow { param, ret, .. } = act else {
            return None;
        };
        if let Some(s) = p.ty.as_ref().and_then(|pt| find(pt, param, n)) {
            return Some(s);
        }
        act = ret;
    }
    body_ty.and_then(|bt| find(bt, act, n))
}

/// Where the definition's type `dec` has `n`, the size `act` has there.
fn find(dec: &Type, act: &Type, n: &Name) -> Option<Size> {
    match (dec, act) {
        (
            Type::Array {
                elem: e1, shape: s1, ..
            },
            Type::Array {
                elem: e2, shape: s2, ..
            },
        ) => {
            // A type parameter as the element (`[n]a`) may stand for an
            // array: the shapes agree on the declared ones.
            s1.iter().zip(s2).find_map(|(d, a)| find_size(d, a, n)).or_else(|| {
                if s1.len() == s2.len() {
                    find(e1, e2, n)
                } else {
                    None
                }
            })
        }
        (Type::Tuple(ts), Type::Tuple(us)) => ts.iter().zip(us).find_map(|(t, u)| find(t, u, n)),
        (Type::Record(fs), Type::Record(gs)) => fs.iter().zip(gs).find_map(|((_, t), (_, u))| find(t, u, n)),
        (Type::Arrow { param: p1, ret: r1, .. }, Type::Arrow { param: p2, ret: r2, .. }) => {
            find(p1, p2, n).or_else(|| find(r1, r2, n))
        }
        (Type::Sum(cs), Type::Sum(ds)) => cs.iter().find_map(|(c, ts)| {
            let (_, us) = ds.iter().find(|(d, _)| d == c)?;
            ts.iter().zip(us).find_map(|(t, u)| find(t, u, n))
        }),
        _ => None,
    }
}

fn find_size(d: &Size, a: &Size, n: &Name) -> Option<Size> {
    match (d, a) {
        (_, Size::Unknown | Size::Infer(_)) => None,
        (Size::Var(m), _) if m == n => Some(a.clone()),
        (Size::Expr(x), Size::Expr(y)) if x.op == y.op => {
            find_size(&x.lhs, &y.lhs, n).or_else(|| find_size(&x.rhs, &y.rhs, n))
        }
        // The same expression: hole by hole (Note [Size terms] in `types`).
        (Size::Term(x), Size::Term(y)) if x.key == y.key => x
            .holes
            .iter()
            .zip(&y.holes)
            .find_map(|((_, p), (_, q))| find_size(p, q, n)),
        _ => None,
    }
}
