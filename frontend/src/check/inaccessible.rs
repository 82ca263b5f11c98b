//! Sizes a function's type cannot name (error index `inaccessible-size`).
//!
//! Note [Inaccessible sizes]
//! In a function type each parameter can be named as a whole (`(n: i64)
//! -> [n]i32`) but not taken apart: `def f (x: i64, y: i64) (A: [x]bool)`
//! would have the type `(i64, i64) -> [x]bool -> bool`, where nothing
//! binds `x`, so a caller could not know what `x` is. Futhark rejects a
//! parameter whose type refers to a name bound inside a tuple, record or
//! constructor parameter, and so does a declared return type (issue2271:
//! `def unit (s, s_d) : unit [s] [s_d]` would leave `s` free in the
//! type, to be read as whatever `s` means where `unit` is called). A size
//! of an inferred return type that the caller cannot name is not an
//! error: it is unknown to the caller (an existential). The same holds
//! for local functions and lambdas.

use super::Checker;
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::Type;

impl Checker {
    /// Check that no parameter type nor the declared return type `ret`
    /// of a function refers to a size bound inside a parameter pattern
    /// (Note [Inaccessible sizes]).
    pub(crate) fn check_inaccessible_sizes(
        &self,
        params: &[Pat],
        ptys: &[Type],
        ret: Option<&TypeExp>,
    ) -> Result<(), Diag> {
        let mut hidden: Vec<Name> = Vec::new();
        for (p, t) in params.iter().zip(ptys) {
            if super::param_name(p).is_none() {
                super::sizes::pat_names(p, &mut hidden);
            }
            // Sizes only: a type parameter may share a value's name
            // (`'a` and the `a` of `\(a, b) -> ...`).
            let t = self.subst.resolve(t);
            if let Some(n) = hidden.iter().find(|n| super::unify::mentions_size(&t, n)) {
                return Err(Diag::new(
                    p.span,
                    format!(
                        "Parameter refers to size \"{n}\" which will not be accessible to the caller, possibly because it is nested in a tuple or record. (see https://futhark.readthedocs.io/en/latest/error-index.html#inaccessible-size)"
                    ),
                )
                .help(format!(
                    "a function type names each parameter as a whole: make \"{n}\" a parameter of its own, or ascribe a type that does not mention it"
                )));
            }
        }
        // The declared type, as written: the checked one has the sizes of
        // the parameters' parts made unknown already.
        if let Some(te) = ret {
            let mut named: Vec<(Name, Span)> = Vec::new();
            super::sizes::each_size_name(&mut te.clone(), &mut Vec::new(), &mut |qn, span| {
                if qn.quals.is_empty() {
                    named.push((qn.name.clone(), span));
                }
            });
            if let Some((n, span)) = named.into_iter().find(|(n, _)| hidden.contains(n)) {
                return Err(Diag::new(
                    span,
                    format!(
                        "Return type refers to size \"{n}\" which will not be accessible to the caller, possibly because it is nested in a tuple or record. (see https://futhark.readthedocs.io/en/latest/error-index.html#inaccessible-size)"
                    ),
                )
                .help(format!(
                    "a function type names each parameter as a whole: make \"{n}\" a parameter of its own"
                )));
            }
        }
        Ok(())
    }
}
