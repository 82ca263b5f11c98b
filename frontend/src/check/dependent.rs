//! Size-dependent function types passed to higher-order functions
//! (reference, "Higher-order functions" under "Size types").
//!
//! Note [Dependent function types]
//! A function whose result size is named after one of its parameters,
//! `(k: i64) -> [k]i64` (`iota`), or whose later parameter is, `(n: i64)
//! -> [n]i32 -> i32`, has a type that depends on the argument's value. As
//! a function value (passed, not applied) that size is not known: Futhark
//! treats it as bound by the arrow, and it may not escape into a type
//! variable's instantiation as a size that every call shares. So where
//! unification meets two arrows, a size named after a parameter is
//! replaced in the rest of the arrow by a fresh existential (`?kdN`, Note
//! [Existential sizes]), one for both arrows where both name their
//! parameter, so that `(n: i64) -> [n]t` and `(m: i64) -> [m]t` agree.
//! Being rigid, it agrees with no other named or constant size (as the
//! bound name does not in Futhark). Then:
//! While the rest of the two arrows is unified, the size is bound by
//! them (`Subst::arrow_bound`), and
//! * an unlifted type parameter (`map`'s `'b`) may not be instantiated
//!   with a type that has such a size (`map iota ns` would build an
//!   irregular array): "Cannot apply "map" to "iota"";
//! * nor may a size variable (a size parameter instantiated outside the
//!   arrows: `h iota` for `def h [m] (f: i64 -> [m]i64)`): "Sizes do not
//!   match", as Futhark's unifier does not bind a size variable to a bound
//!   name;
//! * a lifted one may (`n |> iota`), but the size may not then appear in
//!   a parameter of a function in the application's result type
//!   (`compose iota`, whose next parameter would be `[?kd]i64 -> c`;
//!   `uncurry f` for `f (n: i64) (m: i64) (b: [n][m]bool)`): "Existential
//!   size would appear in function parameter of return type". A value of
//!   that parameter type could never be built.
//!
//! Afterwards it is an ordinary existential (`n |> iota` has a size of
//! its own, which `map (\_ -> xs) ys` may use for `xs = n |> iota`); like
//! the others it becomes `Unknown` at the end of the declaration.

use std::rc::Rc;

use super::unify::{map_sizes, mentions_size, LiftLimit, LiftSite, Mismatch, Subst};
use crate::syntax::ast::{Liftedness, Name};
use crate::types::{Size, SizeVar, Type};

/// Whether a size name is an existential made for a parameter-dependent
/// size (Note [Dependent function types]).
pub fn is_dependent(n: &str) -> bool {
    n.starts_with("?kd")
}

impl Subst {
    /// The results `r1`, `r2` of two arrows being unified, with sizes
    /// named after their parameters `n1`, `n2` replaced by one fresh
    /// existential (Note [Dependent function types]).
    pub(super) fn dependent_results(
        &mut self,
        n1: &Option<Name>,
        r1: &Rc<Type>,
        n2: &Option<Name>,
        r2: &Rc<Type>,
    ) -> (Rc<Type>, Rc<Type>, Option<Name>) {
        let dep1 = n1.as_ref().filter(|n| mentions_size(r1, n));
        let dep2 = n2.as_ref().filter(|n| mentions_size(r2, n));
        if dep1.is_none() && dep2.is_none() {
            return (r1.clone(), r2.clone(), None);
        }
        let param = dep2.or(dep1).map(|n| n.to_string()).unwrap_or_default();
        let fresh: Name = format!("?kd{}", self.existentials.len()).into();
        self.existentials.push((
            fresh.clone(),
            format!("the size named after parameter \"{param}\" of a function value, which depends on its argument"),
        ));
        // Both names stand for the argument, so both become the fresh size.
        let rename = |n: &Option<Name>, r: &Rc<Type>| match n {
            Some(n) => Rc::new(map_sizes(r, &mut |m| {
                if m == n {
                    Size::Var(fresh.clone())
                } else {
                    Size::Var(m.clone())
                }
            })),
            None => r.clone(),
        };
        (rename(n1, r1), rename(n2, r2), Some(fresh.clone()))
    }

    /// A size variable (a size parameter instantiated outside the arrows
    /// being unified) is not bound to a size of their parameters: it
    /// would differ from call to call (Note [Dependent function types]).
    pub(super) fn check_arrow_bound(&self, v: SizeVar, d: &Size) -> Result<(), Mismatch> {
        if self.arrow_bound.is_empty() || !self.mentions_arrow_bound(d) {
            return Ok(());
        }
        Err(Mismatch::Sizes(
            format!(
                "Sizes \"{}\" and \"{}\" do not match",
                self.describe_size(&Size::Infer(v)),
                d.spaced_text()
            ),
            "the second is named after a parameter of the function argument, so it differs from call to call".into(),
        ))
    }

    fn mentions_arrow_bound(&self, d: &Size) -> bool {
        d.any_leaf(&mut |l| matches!(l, Size::Var(n) if self.arrow_bound.contains(n)))
    }

    /// The first size in `t` that is a name `is_dep` accepts, following
    /// type and size variables; with `params_only`, only sizes inside a
    /// function's parameter count.
    pub(crate) fn find_dependent(&self, t: &Type, params_only: bool, is_dep: &dyn Fn(&str) -> bool) -> Option<Name> {
        self.dependent_in(t, !params_only, is_dep)
    }

    /// `find_dependent`, where `here` says whether sizes at this position
    /// count (they do inside a function's parameter).
    fn dependent_in(&self, t: &Type, here: bool, is_dep: &dyn Fn(&str) -> bool) -> Option<Name> {
        match self.shallow_ref(t) {
            Type::Array { elem, shape, .. } => {
                if here {
                    for d in shape {
                        let mut found = None;
                        self.resolve_size(d).any_leaf(&mut |l| match l {
                            Size::Var(n) if is_dep(n) => {
                                found = Some(n.clone());
                                true
                            }
                            _ => false,
                        });
                        if found.is_some() {
                            return found;
                        }
                    }
                }
                self.dependent_in(elem, here, is_dep)
            }
            Type::Tuple(ts) => ts.iter().find_map(|t| self.dependent_in(t, here, is_dep)),
            Type::Record(fs) => fs.iter().find_map(|(_, t)| self.dependent_in(t, here, is_dep)),
            Type::Sum(cs) => cs
                .iter()
                .find_map(|(_, ts)| ts.iter().find_map(|t| self.dependent_in(t, here, is_dep))),
            Type::Arrow { param, ret, .. } => self
                .dependent_in(param, true, is_dep)
                .or_else(|| self.dependent_in(ret, here, is_dep)),
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => None,
        }
    }

    /// An unlifted type parameter is not instantiated with a type that
    /// has a parameter-dependent size (Note [Dependent function types]).
    pub(super) fn check_dependent_instance(&self, l: &LiftLimit, t: &Type) -> Result<(), Mismatch> {
        let LiftSite::TypeParam { param, of } = &l.site else {
            return Ok(());
        };
        if l.level != Liftedness::Unlifted {
            return Ok(());
        }
        // Only while the arrows are unified: afterwards the size is an
        // ordinary existential (`let xs = n |> iota in map (\_ -> xs) ys`).
        if self.arrow_bound.is_empty() {
            return Ok(());
        }
        match self.find_dependent(t, false, &|n| self.arrow_bound.iter().any(|m| &**m == n)) {
            None => Ok(()),
            Some(_) => Err(Mismatch::Sizes(
                format!(
                    "Type variable \"{param}\" of \"{of}\" cannot be instantiated with type containing anonymous sizes: `{}`",
                    self.show(t)
                ),
                format!(
                    "a size in the function argument's type is named after its parameter, so it differs from call to call; \
                     the unlifted \"{param}\" needs one size for all its values"
                ),
            )),
        }
    }
}

impl super::Checker {
    /// The number of existentials made so far: those made after it by an
    /// argument's unification are that argument's.
    pub(crate) fn existential_mark(&self) -> usize {
        self.subst.existentials.len()
    }

    /// The parameter-dependent sizes that the unification of an argument
    /// made (since `mark`).
    pub(crate) fn dependent_since(&self, mark: usize) -> Vec<Name> {
        self.subst.existentials[mark..]
            .iter()
            .filter(|(n, _)| is_dependent(n))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// After an application: a parameter-dependent size that the `i`th
    /// argument brought in (`sizes`) appears in no parameter of the
    /// application's remaining type, `later` (the parameters after the
    /// argument's) then `result` (Note [Dependent function types]).
    /// Returns the message's detail: the parameter type it appears in.
    pub(crate) fn dependent_escape(&self, sizes: &[Name], later: &[Type], result: &Type) -> Option<(String, String)> {
        // A size that the final result has outside function types is read
        // from that value, and a function parameter may then have it
        // (types/ext8.fut: `uncurry f` for `f (n: i64) (m: i64) :
        // ([n][m](), [n][m]bool -> bool)`).
        let mut fin = result;
        while let Type::Arrow { ret, .. } = self.subst.shallow_ref(fin) {
            fin = ret;
        }
        let is_dep = |n: &str| sizes.iter().any(|m| &**m == n) && !self.witnessed(fin, n);
        let (n, t) = later
            .iter()
            .find_map(|p| self.subst.find_dependent(p, false, &is_dep).map(|n| (n, p)))
            .or_else(|| self.subst.find_dependent(result, true, &is_dep).map(|n| (n, result)))?;
        let origin = self
            .subst
            .existentials
            .iter()
            .find(|(m, _)| *m == n)
            .map_or("an existential size", |(_, o)| o.as_str());
        Some((
            format!(
                "Existential size would appear in function parameter of return type: `{}`",
                self.subst.show(t)
            ),
            format!(
                "\"{n}\" is {origin}. This is usually because a higher-order function is used with a functional argument \
                 whose result size is named after its parameter, and that type is then the parameter of another function argument"
            ),
        ))
    }

    /// Whether `t` has the size `n` as an array size outside function
    /// types (Note [Constructive size use]).
    fn witnessed(&self, t: &Type, n: &str) -> bool {
        match self.subst.shallow_ref(t) {
            Type::Array { elem, shape, .. } => {
                shape.iter().any(|d| {
                    self.subst
                        .resolve_size(d)
                        .any_leaf(&mut |l| matches!(l, Size::Var(m) if &**m == n))
                }) || self.witnessed(elem, n)
            }
            Type::Tuple(ts) => ts.iter().any(|t| self.witnessed(t, n)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.witnessed(t, n)),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| self.witnessed(t, n))),
            Type::Arrow { .. } | Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
        }
    }
}
