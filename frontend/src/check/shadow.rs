//! Binders that shadow a size name get a name of their own.

// Note [Shadowed size names]
// Sizes in types are names (`[n]i32`), resolved where the type is used:
// by the checker, and by the emitter and the internaliser, which look the
// name up in their scope. A binding that shadows an `i64` in scope (`def
// f [c] (xs: [c]f32) = ... loop (ys, c) = (xs, 0) ...`, or `let n = 5 in
// map (+ 1) xs` with `xs: [n]i32`) would capture the size: inside its
// scope, the type `[c]f32` of `map (+ 1) ys` would name the loop's `c`.
// Futhark's names are unique, so it cannot happen there. Here the
// shadowing binder is renamed to a name of its own, `c#1` (no source
// name has a `#`), in the tree: its pattern, and every use the checker
// resolves to it (variables, record field shorthands, `let x[i] =`, and
// size names in type annotations, through `lookup_local`). Binders that
// shadow something that cannot be a size (an array, a function) keep
// their names, so that messages name them as written; a message about a
// renamed one shows the new name (`Sizes "n#1" and "n" do not match`).

use super::Checker;
use crate::syntax::ast::Name;
use crate::types::{PrimType, Type};

/// Separates a source name from the number that makes it unique. Not an
/// identifier character.
const SHADOW_MARK: char = '#';

/// The name `n` had in the source (itself unless the checker renamed it).
pub(crate) fn source_name(n: &str) -> &str {
    n.split(SHADOW_MARK).next().unwrap_or(n)
}

impl Checker {
    /// The name a binder of `n` gets: a fresh one where `n` shadows a
    /// local that may be a size (See Note [Shadowed size names]).
    pub(crate) fn binder_name(&mut self, n: &Name) -> Name {
        // A pattern checked again keeps the name it was given.
        if n.contains(SHADOW_MARK) {
            return n.clone();
        }
        let shadows_size = self.lookup_local(n).is_some_and(|l| {
            l.scheme.is_none() && matches!(self.subst.shallow_ref(&l.ty), Type::Prim(PrimType::I64) | Type::Var(_))
        });
        if shadows_size {
            self.fresh_name(&format!("{n}{SHADOW_MARK}"))
        } else {
            n.clone()
        }
    }
}
