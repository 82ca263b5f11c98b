//! Unification variables, their constraints, and unification.
//!
//! A type variable may carry constraints: a set of primitive types it must
//! be one of (literals, arithmetic operators), "no functions" (equality),
//! fields it must have (`r.x` on a type not known yet), and constructors
//! it must have (`#some 1`: a sum type with at least a constructor `#some`
//! whose payload is one integer). Binding the variable re-checks them
//! against the type it is bound to; binding it to another variable merges
//! them.
//!
//! Sizes are unified too, leniently: see Note [Static size checking] in
//! `mod.rs` for which sizes agree.

use std::rc::Rc;

use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::{Liftedness, Name};
use crate::types::{PrimType, Size, SizeOp, SizeVar, TyVar, Type, ABSTRACT_MARK};

/// A set of primitive types, one bit per `PrimType::ALL` index.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PrimSet(pub u16);

impl PrimSet {
    pub const ALL: PrimSet = PrimSet(0xfff);
    pub fn of(ts: &[PrimType]) -> PrimSet {
        PrimSet(ts.iter().fold(0, |m, t| m | bit(*t)))
    }
    pub fn ints() -> PrimSet {
        PrimSet::of(&PrimType::ALL.into_iter().filter(|t| t.is_int()).collect::<Vec<_>>())
    }
    pub fn floats() -> PrimSet {
        PrimSet::of(&[PrimType::F16, PrimType::F32, PrimType::F64])
    }
    pub fn numeric() -> PrimSet {
        PrimSet(PrimSet::ALL.0 & !bit(PrimType::Bool))
    }
    pub fn contains(self, t: PrimType) -> bool {
        self.0 & bit(t) != 0
    }
    pub fn describe(self) -> &'static str {
        if self == PrimSet::numeric() {
            "a numeric type"
        } else if self == PrimSet::ints() {
            "an integer type"
        } else if self == PrimSet::floats() {
            "a floating-point type"
        } else if self == PrimSet(PrimSet::ints().0 | bit(PrimType::Bool)) {
            "an integer type or bool"
        } else {
            "a primitive type"
        }
    }
}

fn bit(t: PrimType) -> u16 {
    1 << PrimType::ALL.iter().position(|p| *p == t).unwrap_or(0)
}

/// Why two types do not unify.
pub enum Mismatch {
    /// They differ; the message says which types.
    Plain,
    /// They differ for this reason (shown as help beside "expected, found").
    Because(String),
    /// Two sizes differ: the reason (Futhark's "Sizes "n" and "m" do not
    /// match") goes on the message's line, the remedy in the help.
    Sizes(String, String),
    /// The type breaks a liftedness limit: the message replaces "expected,
    /// found"; the span is where the limit comes from.
    Lift(String, Span),
    /// Futhark's reason why they cannot unify ("Unshared constructors:
    /// #c, #d."): it goes on the message's line.
    Reason(String),
}

impl Mismatch {
    /// The reason as help text (empty for `Plain`).
    pub fn text(self) -> String {
        match self {
            Mismatch::Plain => String::new(),
            Mismatch::Because(m) | Mismatch::Lift(m, _) | Mismatch::Reason(m) => m,
            Mismatch::Sizes(m, help) => format!("{m} {help}"),
        }
    }

    /// `d` (which says "expected X, found Y") with the reason: on the
    /// message's line where it is Futhark's, as help otherwise.
    pub fn attach(self, mut d: Diag) -> Diag {
        match self {
            Mismatch::Plain => d,
            Mismatch::Because(m) | Mismatch::Lift(m, _) => d.help(m),
            Mismatch::Reason(m) => {
                d.message = format!("{}: {m}", d.message);
                d
            }
            Mismatch::Sizes(m, help) => {
                d.message = format!("{}: {m}", d.message);
                d.help(help)
            }
        }
    }
}

/// A limit on what a type may contain, after Futhark's liftedness (Note
/// [Liftedness] in `check`): below `level`, so an `Unlifted` limit
/// excludes function types and size-lifted and lifted type parameters,
/// a `SizeLifted` limit function types and lifted type parameters.
#[derive(Clone, Debug)]
pub struct LiftLimit {
    pub level: Liftedness,
    pub site: LiftSite,
    pub span: Span,
}

/// Where a liftedness limit comes from (for the message).
#[derive(Clone, Debug)]
pub enum LiftSite {
    /// The elements of an array literal (or an array type).
    ArrayElem,
    /// The operands of `==` and `!=`.
    Compare,
    /// The result of an `if` or a `match` (the keyword).
    Branch(&'static str),
    /// A `loop` parameter.
    LoopParam,
    /// Type parameter `param` of function or type `of`.
    TypeParam { param: Name, of: Name },
}

/// The part of a type that breaks a liftedness limit.
#[derive(Clone, Debug)]
pub enum LiftCulprit {
    Function,
    Param(Name, Liftedness),
}

impl LiftLimit {
    /// The message for type `found`, in which `culprit` breaks the limit.
    pub fn message(&self, found: &str, culprit: &LiftCulprit) -> String {
        let what = match culprit {
            LiftCulprit::Function => "functions".to_string(),
            LiftCulprit::Param(n, l) => format!("values of the {} {} `{n}`", lift_word(*l), param_word(n)),
        };
        match &self.site {
            // Futhark's wording first ("Cannot create array with elements
            // of lifted type"), then which part of the type is to blame.
            LiftSite::ArrayElem => {
                let level = match culprit {
                    LiftCulprit::Function => Liftedness::Lifted,
                    LiftCulprit::Param(_, l) => *l,
                };
                let why = match culprit {
                    LiftCulprit::Function => "functional values cannot be array elements",
                    LiftCulprit::Param(..) => "array elements must have a non-lifted type",
                };
                format!(
                    "Cannot create array with elements of {} type `{found}`: {what} cannot be put in an array ({why})",
                    lift_word(level)
                )
            }
            LiftSite::Compare => {
                format!("{what} cannot be compared with `==` or `!=` (the operands have type `{found}`)")
            }
            LiftSite::Branch(kw) => match culprit {
                LiftCulprit::Function => format!(
                    "The result of `{kw}` may not be of function type: {what} cannot be returned from the branches of `{kw}` (they have type `{found}`)"
                ),
                LiftCulprit::Param(..) => {
                    format!("{what} cannot be returned from the branches of `{kw}` (they have type `{found}`)")
                }
            },
            LiftSite::LoopParam => format!("{what} cannot be loop parameters (the parameter has type `{found}`)"),
            LiftSite::TypeParam { param, of } => {
                let mark = match self.level {
                    Liftedness::Unlifted => "",
                    Liftedness::SizeLifted => "~",
                    Liftedness::Lifted => "^",
                };
                let contains = match culprit {
                    LiftCulprit::Function => "a function type (functional values need a lifted `'^` parameter)".to_string(),
                    LiftCulprit::Param(n, l) => format!("the {} {} `{n}`", lift_word(*l), param_word(n)),
                };
                format!(
                    "the {} type parameter `'{mark}{param}` of `{of}` cannot be instantiated with `{found}`, which contains {contains}",
                    lift_word(self.level)
                )
            }
        }
    }
}

/// What a `Type::Param` is: a type parameter, or an abstract type of a
/// sealed module (named `M.t`: no source name has a dot).
fn param_word(n: &Name) -> &'static str {
    if n.contains('.') {
        "abstract type"
    } else {
        "type parameter"
    }
}

pub fn lift_word(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "unlifted",
        Liftedness::SizeLifted => "size-lifted",
        Liftedness::Lifted => "lifted",
    }
}

/// What is known about an unbound type variable.
#[derive(Clone, Debug, Default)]
pub struct Constraint {
    /// Must be a primitive type in this set (and where it came from).
    pub prims: Option<(PrimSet, Span)>,
    /// Must stay below a liftedness (no functions: `==`, array elements,
    /// unlifted type parameters).
    pub lift: Option<LiftLimit>,
    /// Must be a record or tuple with these fields.
    pub fields: Vec<(Name, Type, Span)>,
    /// Must be a sum type with (at least) these constructors, each with
    /// these payload types.
    pub constrs: Vec<(Name, Vec<Type>, Span)>,
    /// A literal's default if nothing else decides the type.
    pub default: Option<PrimType>,
    /// Must support equality (the operands of `==`, where it is): no
    /// type parameters or abstract types in it. Functions are excluded by
    /// `lift`. See Note [Equality types].
    pub equality: Option<Span>,
}

// Note [Equality types]
// ~~~~~~~~~~~~~~~~~~~~~
// `==` and `!=` compare values of any type built from primitive types,
// arrays, tuples, records and sum types, but not of a type with
// functions in it (the liftedness limit of `LiftSite::Compare`) nor of a
// type parameter or an abstract type: what such a type stands for is not
// known where the comparison is checked, so Futhark says "Type a does not
// support equality". An unbound variable under `==` carries the
// `equality` constraint until it is bound; one still unbound when a
// top-level definition is generalised cannot become a type parameter, so
// the definition is rejected (inference-error7: `def add x y = x == y`).

#[derive(Clone, Default)]
pub struct Subst {
    /// The type each variable is bound to. Shared, so that following a
    /// binding (which unification does while it mutates the
    /// substitution) does not copy the type.
    bound: Vec<Option<Rc<Type>>>,
    constraints: Vec<Constraint>,
    /// Bindings of the size variables (`Size::Infer`).
    sizes: Vec<Option<Size>>,
    /// The size parameter each size variable instantiates (`n` of
    /// `unflatten`), for messages.
    size_names: Vec<Option<Name>>,
    /// The type parameters in scope (`Type::Param`), with their
    /// liftedness; a parameter not here is an abstract type.
    pub rigid: Vec<(Name, Liftedness)>,
    /// The rigid existential sizes made so far, with where each comes
    /// from (for messages). See Note [Existential sizes] in `sizes`.
    pub existentials: Vec<(Name, String)>,
    /// Whether sizes being unified now stand for size variables in
    /// Futhark's order of checking (See Note [Occurs check on sizes]).
    pub inferred_sizes: bool,
    /// The parameter-dependent sizes of the arrows being unified now
    /// (Note [Dependent function types] in `dependent`).
    pub arrow_bound: Vec<Name>,
    /// The abstract types (`Type::Param`s of sealed modules and of
    /// functor parameters, Note [Abstract types] in `seal`) that are not
    /// unlifted: as their specification says (`type~`, `type^`), or
    /// lifted where the type behind them has functions.
    pub abstract_liftedness: Vec<(Name, Liftedness)>,
    /// Per variable, the rank of union by rank (Note [Variable chains]).
    rank: Vec<u8>,
    /// What each bound variable resolves to, per `fin`, memoised until
    /// the next binding (Note [Variable chains]).
    resolved: std::cell::RefCell<futmlir_dialects::ir::FastMap<(TyVar, bool), Type>>,
}

// Note [Variable chains]
// Unifying two unbound variables binds one to the other, and a lookup
// follows such bindings to the end. `0+0+...+0` makes one variable per
// operator and unifies each with the next, so a careless choice of which
// to bind makes a chain as long as the expression, walked by every later
// lookup: quadratic (30,000 terms took a minute). Two things keep it
// linear: the variable-to-variable case is union by rank (the root of the
// shallower tree is bound to the other's, so chains stay logarithmic),
// and full resolutions (zonking resolves every node's type) are memoised
// per variable, the memo dropped whenever a type or size variable is
// bound (a resolution depends on nothing else).

impl Subst {
    /// A size variable for the size parameter `name`.
    pub fn fresh_size_for(&mut self, name: Option<Name>) -> Size {
        self.sizes.push(None);
        self.size_names.push(name);
        Size::Infer((self.sizes.len() - 1) as SizeVar)
    }

    /// Follow the bindings of size variables, also inside size
    /// expressions.
    pub fn resolve_size(&self, d: &Size) -> Size {
        d.map_leaves(&mut |l| match l {
            Size::Infer(v) => match &self.sizes[*v as usize] {
                Some(b) => self.resolve_size(b),
                None => l.clone(),
            },
            l => l.clone(),
        })
    }

    /// Whether a resolved size has an unbound size variable in it.
    pub fn is_open(d: &Size) -> bool {
        d.any_leaf(&mut |l| matches!(l, Size::Infer(_)))
    }

    /// A size for a message: resolved, its unbound size variables shown by
    /// the names of the size parameters they stand for (`n*m`).
    pub fn describe_size(&self, d: &Size) -> String {
        self.resolve_size(d)
            .map_leaves(&mut |l| match l {
                Size::Infer(v) => match &self.size_names[*v as usize] {
                    Some(n) => Size::Var(n.clone()),
                    None => l.clone(),
                },
                l => l.clone(),
            })
            .text()
    }

    /// Bind a size variable directly (generalisation, forgetting).
    pub fn set_size(&mut self, v: SizeVar, d: Size) {
        self.resolved.get_mut().clear();
        self.sizes[v as usize] = Some(d);
    }

    /// Unify two sizes (Note [Static size checking]). `Unknown` agrees
    /// with everything and binds nothing; a size variable is bound to the
    /// other side; a size expression with size variables in it (the
    /// parameter `[n*m]` of `unflatten`) binds them to the operands of an
    /// expression of the same form and agrees with nothing else; other
    /// sizes agree when their constant-folded forms are equal, or are both
    /// expressions equal as polynomials.
    fn unify_size(&mut self, a: &Size, b: &Size) -> Result<(), Mismatch> {
        let (a, b) = (self.resolve_size(a), self.resolve_size(b));
        match (&a, &b) {
            (Size::Unknown, _) | (_, Size::Unknown) => Ok(()),
            (Size::Infer(x), Size::Infer(y)) if x == y => Ok(()),
            (Size::Infer(x), _) => {
                self.check_arrow_bound(*x, &b)?;
                self.bind_size(*x, b);
                Ok(())
            }
            (_, Size::Infer(y)) => {
                self.check_arrow_bound(*y, &a)?;
                self.bind_size(*y, a);
                Ok(())
            }
            // See Note [Size terms] in `types`: the same expression binds
            // hole by hole; holes that differ, and a term against a size of
            // another form, agree (Futhark compares them syntactically and
            // would reject some).
            (Size::Term(x), Size::Term(y)) if x.key == y.key => {
                for ((_, p), (_, q)) in x.holes.iter().zip(&y.holes) {
                    let _ = self.unify_size(p, q);
                }
                Ok(())
            }
            (Size::Term(_), _) | (_, Size::Term(_)) => Ok(()),
            (Size::Expr(x), Size::Expr(y)) if x.op == y.op && (Subst::is_open(&a) || Subst::is_open(&b)) => {
                self.unify_size(&x.lhs, &y.lhs)?;
                self.unify_size(&x.rhs, &y.rhs)
            }
            _ if a.any_term() || b.any_term() => Ok(()),
            _ if Subst::is_open(&a) || Subst::is_open(&b) => {
                let (pat, other) = if Subst::is_open(&a) { (&a, &b) } else { (&b, &a) };
                Err(Mismatch::Because(format!(
                    "the size {other} does not have the form [{}] (`e :> t` coerces a size, checked at run time)",
                    self.describe_size(pat)
                )))
            }
            _ => {
                let (fa, fb) = (a.folded(), b.folded());
                // Futhark compares size expressions syntactically; two that
                // differ syntactically may be equal as polynomials (`n+m`,
                // `m+n`), so those agree.
                if fa == fb || matches!((&fa, &fb), (Size::Expr(_), Size::Expr(_))) && same_polynomial(&fa, &fb) {
                    Ok(())
                } else if let Some((x, y)) = occurs_in(&a, &b).filter(|_| self.inferred_sizes) {
                    // See Note [Occurs check on sizes].
                    Err(Mismatch::Sizes(
                        format!(
                            "Occurs check: cannot match \"{}\" with \"{}\", which contains it",
                            x.spaced_text(),
                            y.spaced_text()
                        ),
                        "a size that equals an expression over itself is circular; annotate the types to find where it comes from".into(),
                    ))
                } else {
                    let mut why = format!("Sizes \"{}\" and \"{}\" do not match", a.spaced_text(), b.spaced_text());
                    for d in [&a, &b] {
                        if let Some(origin) = self.existential_origin(d) {
                            why.push_str(&format!("; \"{}\" is {origin}", d.text()));
                        }
                    }
                    Err(Mismatch::Sizes(
                        why,
                        "`e :> t` coerces sizes (checked at run time)".into(),
                    ))
                }
            }
        }
    }

    /// Where the existential size `d` comes from, if it is one.
    pub(crate) fn existential_origin(&self, d: &Size) -> Option<&str> {
        match d {
            Size::Var(n) => self.existentials.iter().find(|(m, _)| m == n).map(|(_, o)| o.as_str()),
            _ => None,
        }
    }

    /// Bind size variable `v` to `d`, unless `d` mentions `v` (`n` against
    /// `n+m`: Futhark has no such size; we leave it unbound, to be lenient).
    fn bind_size(&mut self, v: SizeVar, d: Size) {
        if !d.any_leaf(&mut |l| *l == Size::Infer(v)) {
            self.resolved.get_mut().clear();
            self.sizes[v as usize] = Some(d);
        }
    }

    /// The unbound size variables of a type.
    pub fn unbound_size_vars(&self, t: &Type, out: &mut Vec<SizeVar>) {
        match self.shallow_ref(t) {
            Type::Array { elem, shape, .. } => {
                for d in shape {
                    self.resolve_size(d).any_leaf(&mut |l| {
                        if let Size::Infer(v) = l {
                            if !out.contains(v) {
                                out.push(*v)
                            }
                        }
                        false
                    });
                }
                self.unbound_size_vars(elem, out)
            }
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => {}
            Type::Tuple(ts) => ts.iter().for_each(|t| self.unbound_size_vars(t, out)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| self.unbound_size_vars(t, out)),
            Type::Arrow { param, ret, .. } => {
                self.unbound_size_vars(param, out);
                self.unbound_size_vars(ret, out)
            }
            Type::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| self.unbound_size_vars(t, out))),
        }
    }

    pub fn fresh(&mut self) -> Type {
        self.bound.push(None);
        self.rank.push(0);
        self.constraints.push(Constraint::default());
        Type::Var((self.bound.len() - 1) as TyVar)
    }

    pub fn fresh_constrained(&mut self, c: Constraint) -> Type {
        let t = self.fresh();
        if let Type::Var(v) = t {
            self.constraints[v as usize] = c;
        }
        t
    }

    pub fn constraint(&self, v: TyVar) -> &Constraint {
        &self.constraints[v as usize]
    }

    /// Whether `t` (resolved, and through the field and constructor
    /// constraints of its unbound variables) mentions the type parameter
    /// or the size name `n`.
    pub fn mentions_name(&self, t: &Type, n: &Name) -> bool {
        let mut seen = Vec::new();
        self.mentions_name_in(t, n, &mut seen)
    }

    fn mentions_name_in(&self, t: &Type, n: &Name, seen: &mut Vec<TyVar>) -> bool {
        match self.shallow_ref(t) {
            Type::Var(v) => {
                if seen.contains(v) {
                    return false;
                }
                seen.push(*v);
                let c = &self.constraints[*v as usize];
                c.fields.iter().any(|(_, t, _)| self.mentions_name_in(t, n, seen))
                    || c.constrs
                        .iter()
                        .any(|(_, ts, _)| ts.iter().any(|t| self.mentions_name_in(t, n, seen)))
            }
            Type::Param(p) => p == n,
            Type::Prim(_) => false,
            Type::Array { elem, shape, .. } => {
                shape.iter().any(|d| {
                    self.resolve_size(d)
                        .any_leaf(&mut |l| matches!(l, Size::Var(m) if m == n))
                }) || self.mentions_name_in(elem, n, seen)
            }
            Type::Tuple(ts) => ts.iter().any(|t| self.mentions_name_in(t, n, seen)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.mentions_name_in(t, n, seen)),
            Type::Arrow { param, ret, .. } => {
                self.mentions_name_in(param, n, seen) || self.mentions_name_in(ret, n, seen)
            }
            Type::Sum(cs) => cs
                .iter()
                .any(|(_, ts)| ts.iter().any(|t| self.mentions_name_in(t, n, seen))),
        }
    }

    /// Follow bindings at the top of a type.
    pub fn shallow(&self, t: &Type) -> Type {
        self.shallow_ref(t).clone()
    }

    /// `shallow` without cloning.
    pub fn shallow_ref<'a>(&'a self, t: &'a Type) -> &'a Type {
        let mut t = t;
        while let Type::Var(v) = t {
            match &self.bound[*v as usize] {
                Some(b) => t = b,
                None => break,
            }
        }
        t
    }

    /// Whether a function type occurs in the type (bindings followed).
    pub fn has_function(&self, t: &Type) -> bool {
        match self.shallow_ref(t) {
            Type::Arrow { .. } => true,
            Type::Array { elem, .. } => self.has_function(elem),
            Type::Tuple(ts) => ts.iter().any(|t| self.has_function(t)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.has_function(t)),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| self.has_function(t))),
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
        }
    }

    /// Apply the substitution everywhere in a type (arrays re-normalised so
    /// an element type never is an array).
    pub fn resolve(&self, t: &Type) -> Type {
        self.resolve_with(t, false)
    }

    /// `resolve` for a checked program: unbound size variables, and size
    /// expressions with one in them, become `Size::Unknown`.
    pub fn resolve_final(&self, t: &Type) -> Type {
        self.resolve_with(t, true)
    }

    fn resolve_with(&self, t: &Type, fin: bool) -> Type {
        self.resolve_changed(t, fin).unwrap_or_else(|| t.clone())
    }

    /// `resolve_final`, or `None` when the type is final already (no type
    /// variable, no size variable): zonking then leaves it as it is.
    pub fn resolve_final_changed(&self, t: &Type) -> Option<Type> {
        self.resolve_changed(t, true)
    }

    /// The resolved type, or `None` when resolving leaves `t` as it is:
    /// the parts that do not change are shared or cloned, never rebuilt
    /// (most of a checked tree's types need no change, and rebuilding
    /// them dominated zonking).
    fn resolve_changed(&self, t: &Type, fin: bool) -> Option<Type> {
        match t {
            Type::Var(v) => {
                let b = self.bound[*v as usize].as_ref()?;
                if let Some(t) = self.resolved.borrow().get(&(*v, fin)) {
                    return Some(t.clone());
                }
                let t = self.resolve_with(b, fin);
                self.resolved.borrow_mut().insert((*v, fin), t.clone());
                Some(t)
            }
            Type::Prim(_) | Type::Param(_) => None,
            Type::Array { elem, shape, unique } => {
                let e = self.resolve_changed(elem, fin);
                let has_var = |d: &Size| {
                    d.any_leaf(&mut |l| match l {
                        Size::Infer(_) => true,
                        Size::Var(n) => fin && is_existential(n),
                        _ => false,
                    })
                };
                let dims_change = shape.iter().any(has_var);
                if e.is_none() && !dims_change && !matches!(**elem, Type::Array { .. }) {
                    return None;
                }
                let mut dims: Vec<Size> = shape
                    .iter()
                    .map(|d| {
                        if !has_var(d) {
                            return d.clone();
                        }
                        let d = self.resolve_size(d);
                        if fin
                            && (Subst::is_open(&d)
                                || d.any_leaf(&mut |l| matches!(l, Size::Var(n) if is_existential(n))))
                        {
                            Size::Unknown
                        } else {
                            d
                        }
                    })
                    .collect();
                // An element type that resolves to an array adds its
                // dimensions (an element type never is an array).
                let elem = match e {
                    Some(Type::Array { elem, shape, .. }) => {
                        dims.extend(shape);
                        elem
                    }
                    Some(e) => Rc::new(e),
                    None => match &**elem {
                        Type::Array { elem, shape, .. } => {
                            dims.extend(shape.iter().cloned());
                            elem.clone()
                        }
                        _ => elem.clone(),
                    },
                };
                Some(Type::Array {
                    elem,
                    shape: dims,
                    unique: *unique,
                })
            }
            Type::Tuple(ts) => changed_elems(ts, |t| self.resolve_changed(t, fin), Clone::clone).map(Type::Tuple),
            Type::Record(fs) => changed_elems(
                fs,
                |(n, t)| self.resolve_changed(t, fin).map(|t| (n.clone(), t)),
                Clone::clone,
            )
            .map(Type::Record),
            Type::Arrow { param_name, param, ret } => {
                let (p, r) = (self.resolve_changed(param, fin), self.resolve_changed(ret, fin));
                if p.is_none() && r.is_none() {
                    return None;
                }
                Some(Type::Arrow {
                    param_name: param_name.clone(),
                    param: p.map_or_else(|| param.clone(), Rc::new),
                    ret: r.map_or_else(|| ret.clone(), Rc::new),
                })
            }
            Type::Sum(cs) => changed_elems(
                cs,
                |(n, ts)| changed_elems(ts, |t| self.resolve_changed(t, fin), Clone::clone).map(|ts| (n.clone(), ts)),
                Clone::clone,
            )
            .map(Type::Sum),
        }
    }

    fn occurs(&self, v: TyVar, t: &Type) -> bool {
        match self.shallow_ref(t) {
            Type::Var(w) => v == *w,
            Type::Prim(_) | Type::Param(_) => false,
            Type::Array { elem, .. } => self.occurs(v, elem),
            Type::Tuple(ts) => ts.iter().any(|t| self.occurs(v, t)),
            Type::Record(fs) => fs.iter().any(|(_, t)| self.occurs(v, t)),
            Type::Arrow { param, ret, .. } => self.occurs(v, param) || self.occurs(v, ret),
            Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(|t| self.occurs(v, t))),
        }
    }

    /// Unify `expected` with `found`; on failure the diagnostic at `span`
    /// says "expected type X, found Y" with both types resolved.
    pub fn unify(&mut self, expected: &Type, found: &Type, span: Span) -> Result<(), Diag> {
        self.unify_explained(expected, found, span, |s, help| {
            let d = Diag::new(
                span,
                format!("expected type `{}`, found `{}`", s.show(expected), s.show(found)),
            );
            if help.is_empty() {
                d
            } else {
                d.help(help)
            }
        })
    }

    /// `unify` for an expression whose type is declared (`e : t`, a
    /// function body under its return type): Futhark's wording, `What
    /// does not have expected type`, before futmlir's.
    pub fn unify_declared(&mut self, what: &str, expected: &Type, found: &Type, span: Span) -> Result<(), Diag> {
        self.unify_explained(expected, found, span, |s, help| {
            let d = Diag::new(
                span,
                format!(
                    "{what} does not have expected type: expected type `{}`, found `{}`",
                    s.show(expected),
                    s.show(found)
                ),
            );
            if help.is_empty() {
                d
            } else {
                d.help(help)
            }
        })
    }

    /// `unify` with the message of `explain` (given the reason as help),
    /// except where a liftedness limit is broken: that message stands.
    pub fn unify_explained(
        &mut self,
        expected: &Type,
        found: &Type,
        span: Span,
        explain: impl FnOnce(&Subst, String) -> Diag,
    ) -> Result<(), Diag> {
        match self.unify_inner(expected, found, span) {
            Ok(()) => Ok(()),
            Err(Mismatch::Lift(m, from)) if from != span => Err(Diag::new(span, m).note(from, "required here")),
            Err(Mismatch::Lift(m, _)) => Err(Diag::new(span, m)),
            Err(Mismatch::Sizes(m, help)) => {
                let mut d = explain(self, help);
                d.message = format!("{}: {m}", d.message);
                Err(d)
            }
            Err(Mismatch::Reason(m)) => {
                let mut d = explain(self, String::new());
                d.message = format!("{}: {m}", d.message);
                Err(d)
            }
            Err(m) => Err(explain(self, m.text())),
        }
    }

    /// The reason when a constraint explains the failure.
    fn unify_inner(&mut self, a: &Type, b: &Type, span: Span) -> Result<(), Mismatch> {
        // Follow bound variables, cloning only what they stand for (the
        // rest is walked by reference: cloning every subtree on the way
        // down made unification quadratic in the type's size).
        for (t, first) in [(a, true), (b, false)] {
            if let Type::Var(v) = t {
                if let Some(bt) = self.bound[*v as usize].clone() {
                    let bt = &*bt;
                    return if first {
                        self.unify_inner(bt, b, span)
                    } else {
                        self.unify_inner(a, bt, span)
                    };
                }
            }
        }
        match (a, b) {
            (Type::Var(x), Type::Var(y)) if x == y => Ok(()),
            // Union by rank (Note [Variable chains]).
            (Type::Var(x), Type::Var(y)) => {
                let (rx, ry) = (self.rank[*x as usize], self.rank[*y as usize]);
                if rx < ry {
                    self.bind(*x, b, span)
                } else {
                    self.bind(*y, a, span)?;
                    if rx == ry {
                        self.rank[*x as usize] = rx.saturating_add(1);
                    }
                    Ok(())
                }
            }
            (Type::Var(x), _) => self.bind(*x, b, span),
            (_, Type::Var(y)) => self.bind(*y, a, span),
            (Type::Prim(p), Type::Prim(q)) if p == q => Ok(()),
            (Type::Param(p), Type::Param(q)) if p == q => Ok(()),
            (
                Type::Array {
                    elem: e1, shape: s1, ..
                },
                Type::Array {
                    elem: e2, shape: s2, ..
                },
            ) => {
                if s1.len() == s2.len() {
                    self.unify_inner(e1, e2, span)?;
                } else {
                    // Different ranks: the lower-rank side's element must be
                    // a variable standing for the remaining dimensions.
                    let (short, se, long, le) = if s1.len() < s2.len() {
                        (s1, e1, s2, e2)
                    } else {
                        (s2, e2, s1, e1)
                    };
                    let rest = Type::Array {
                        elem: le.clone(),
                        shape: long[short.len()..].to_vec(),
                        unique: false,
                    };
                    self.unify_inner(se, &rest, span)?;
                }
                // Sizes last, so a message about them shows the element type.
                for (d1, d2) in s1.iter().zip(s2) {
                    self.unify_size(d1, d2)?;
                }
                Ok(())
            }
            (Type::Tuple(xs), Type::Tuple(ys)) => {
                if xs.len() != ys.len() {
                    return Err(Mismatch::Reason(format!(
                        "a tuple of {} elements cannot match one of {}",
                        xs.len(),
                        ys.len()
                    )));
                }
                for (x, y) in xs.iter().zip(ys) {
                    self.unify_inner(x, y, span)?;
                }
                Ok(())
            }
            (Type::Record(xs), Type::Record(ys))
                if xs.len() == ys.len() && xs.iter().zip(ys).all(|((n, _), (m, _))| n == m) =>
            {
                for ((_, x), (_, y)) in xs.iter().zip(ys) {
                    self.unify_inner(x, y, span)?;
                }
                Ok(())
            }
            (
                Type::Arrow {
                    param_name: n1,
                    param: p1,
                    ret: r1,
                },
                Type::Arrow {
                    param_name: n2,
                    param: p2,
                    ret: r2,
                },
            ) => {
                self.unify_inner(p1, p2, span)?;
                // A size named after the parameter depends on the argument:
                // see Note [Dependent function types].
                let (r1, r2, fresh) = self.dependent_results(n1, r1, n2, r2);
                if let Some(k) = fresh {
                    self.arrow_bound.push(k);
                    let r = self.unify_inner(&r1, &r2, span);
                    self.arrow_bound.pop();
                    return r;
                }
                self.unify_inner(&r1, &r2, span)
            }
            (Type::Sum(xs), Type::Sum(ys)) => {
                // Futhark names the constructors that only one side has.
                let unshared: Vec<String> = xs
                    .iter()
                    .filter(|(n, _)| !ys.iter().any(|(m, _)| m == n))
                    .chain(ys.iter().filter(|(m, _)| !xs.iter().any(|(n, _)| n == m)))
                    .map(|(n, _)| format!("#{n}"))
                    .collect();
                if !unshared.is_empty() {
                    let mut unshared = unshared;
                    unshared.sort();
                    return Err(Mismatch::Reason(format!(
                        "Unshared constructors: {}.",
                        unshared.join(", ")
                    )));
                }
                for ((n, a), (_, b)) in xs.iter().zip(ys) {
                    if a.len() != b.len() {
                        return Err(Mismatch::Reason(payload_count(n, a.len(), b.len())));
                    }
                    for (x, y) in a.iter().zip(b) {
                        self.unify_inner(x, y, span)?;
                    }
                }
                Ok(())
            }
            _ => Err(Mismatch::Plain),
        }
    }

    fn bind(&mut self, v: TyVar, t: &Type, span: Span) -> Result<(), Mismatch> {
        if self.occurs(v, t) {
            return Err(Mismatch::Because("this would make an infinite type".into()));
        }
        let c = std::mem::take(&mut self.constraints[v as usize]);
        // Uniqueness belongs to annotations, not to what a type variable
        // stands for: `copy (map f xs)` must not make `copy`'s parameter
        // unique.
        let stripped = if has_unique(t) { strip_unique(t) } else { t.clone() };
        self.resolved.get_mut().clear();
        self.bound[v as usize] = Some(Rc::new(stripped));
        let r = self.apply_constraint(&c, t, span);
        if r.is_err() {
            self.resolved.get_mut().clear();
            self.bound[v as usize] = None;
            self.constraints[v as usize] = c;
        }
        r
    }

    /// Check (or merge, for a variable) a constraint against a type.
    fn apply_constraint(&mut self, c: &Constraint, t: &Type, span: Span) -> Result<(), Mismatch> {
        // Most variables are bound without constraints: nothing to check,
        // nothing to merge.
        if c.prims.is_none()
            && c.lift.is_none()
            && c.fields.is_empty()
            && c.constrs.is_empty()
            && c.default.is_none()
            && c.equality.is_none()
        {
            return Ok(());
        }
        match self.shallow(t) {
            Type::Var(w) => {
                let mut wc = self.constraints[w as usize].clone();
                if let Some((set, s)) = c.prims {
                    wc.prims = Some(match wc.prims {
                        Some((other, s2)) => {
                            let both = PrimSet(set.0 & other.0);
                            if both.0 == 0 {
                                return Err(Mismatch::Because(format!(
                                    "the type must be {} and {}",
                                    set.describe(),
                                    other.describe()
                                )));
                            }
                            (both, s2)
                        }
                        None => (set, s),
                    });
                }
                if let Some(l) = &c.lift {
                    if wc.lift.as_ref().is_none_or(|w| l.level < w.level) {
                        wc.lift = Some(l.clone());
                    }
                }
                if wc.default.is_none() {
                    wc.default = c.default;
                }
                if wc.equality.is_none() {
                    wc.equality = c.equality;
                }
                let mut pending = Vec::new();
                for (n, ft, s) in &c.fields {
                    match wc.fields.iter().find(|(m, _, _)| m == n) {
                        Some((_, other, _)) => pending.push((ft.clone(), other.clone())),
                        None => wc.fields.push((n.clone(), ft.clone(), *s)),
                    }
                }
                for (n, ts, s) in &c.constrs {
                    match wc.constrs.iter().find(|(m, _, _)| m == n) {
                        Some((_, other, _)) if other.len() != ts.len() => {
                            return Err(Mismatch::Reason(payload_count(n, other.len(), ts.len())));
                        }
                        Some((_, other, _)) => pending.extend(ts.iter().cloned().zip(other.iter().cloned())),
                        None => wc.constrs.push((n.clone(), ts.clone(), *s)),
                    }
                }
                // Futhark's "Cannot unify": no type is both of two kinds.
                if !wc.constrs.is_empty() {
                    if let Some((set, _)) = wc.prims {
                        return Err(Mismatch::Reason(format!(
                            "Cannot unify a sum type with {}",
                            set.describe()
                        )));
                    }
                    if let Some((n, _, _)) = wc.fields.first() {
                        return Err(Mismatch::Reason(format!(
                            "Cannot unify a sum type with type that must be a record (with field `{n}`)"
                        )));
                    }
                }
                if let (Some((set, _)), Some((n, _, _))) = (wc.prims, wc.fields.first()) {
                    return Err(Mismatch::Reason(format!(
                        "Cannot unify {} with type that must be a record (with field `{n}`)",
                        set.describe()
                    )));
                }
                self.constraints[w as usize] = wc;
                for (x, y) in pending {
                    self.unify_inner(&x, &y, span)?;
                }
                Ok(())
            }
            other => {
                if let Some((set, _)) = c.prims {
                    match other {
                        Type::Prim(p) if set.contains(p) => {}
                        _ => return Err(Mismatch::Because(format!("the type must be {}", set.describe()))),
                    }
                }
                if let Some(l) = &c.lift {
                    self.apply_lift(l, &other)?;
                }
                if let Some(s) = c.equality {
                    self.apply_equality(s, &other)?;
                }
                for (n, ft, _) in &c.fields {
                    let have = match &other {
                        Type::Record(fs) => fs.iter().find(|(m, _)| m == n).map(|(_, t)| t.clone()),
                        Type::Tuple(ts) => n.parse::<usize>().ok().and_then(|i| ts.get(i).cloned()),
                        _ => None,
                    };
                    match have {
                        Some(h) => self.unify_inner(ft, &h, span)?,
                        None => return Err(Mismatch::Because(format!("the type has no field `{n}`"))),
                    }
                }
                for (n, ts, _) in &c.constrs {
                    let Type::Sum(cs) = &other else {
                        return Err(Mismatch::Reason(format!(
                            "Cannot unify a sum type (with constructor `#{n}`) with a non-sum type"
                        )));
                    };
                    let Some((_, have)) = cs.iter().find(|(m, _)| m == n) else {
                        return Err(Mismatch::Reason(format!(
                            "Unshared constructors: #{n}. (the sum type has no constructor `#{n}`)"
                        )));
                    };
                    if have.len() != ts.len() {
                        return Err(Mismatch::Reason(payload_count(n, have.len(), ts.len())));
                    }
                    for (x, h) in ts.iter().zip(have) {
                        self.unify_inner(x, h, span).map_err(|_| {
                            Mismatch::Because(format!(
                                "the payload of `#{n}` has type `{}` in the sum type, `{}` here",
                                self.show(h),
                                self.show(x)
                            ))
                        })?;
                    }
                }
                Ok(())
            }
        }
    }

    /// Require `t` to be a primitive type in `set`.
    pub fn require_prim(&mut self, t: &Type, set: PrimSet, span: Span, what: &str) -> Result<(), Diag> {
        let c = Constraint {
            prims: Some((set, span)),
            ..Default::default()
        };
        self.apply_constraint(&c, t, span).map_err(|_| {
            Diag::new(
                span,
                format!("expected {} {what}, found `{}`", set.describe(), self.show(t)),
            )
        })
    }

    /// Require `t` to have field `name` of type `ft`.
    pub fn require_field(&mut self, t: &Type, name: &Name, ft: &Type, span: Span) -> Result<(), Diag> {
        let c = Constraint {
            fields: vec![(name.clone(), ft.clone(), span)],
            ..Default::default()
        };
        self.apply_constraint(&c, t, span).map_err(|m| {
            let d = Diag::new(
                span,
                format!("expected a record with field `{name}`, found `{}`", self.show(t)),
            );
            m.attach(d)
        })
    }

    /// Require `t` to be a sum type with constructor `name` whose payload
    /// has the types `payload`.
    pub fn require_constr(&mut self, t: &Type, name: &Name, payload: &[Type], span: Span) -> Result<(), Diag> {
        let c = Constraint {
            constrs: vec![(name.clone(), payload.to_vec(), span)],
            ..Default::default()
        };
        self.apply_constraint(&c, t, span).map_err(|m| {
            let d = Diag::new(
                span,
                format!(
                    "expected a sum type with constructor `#{name}`, found `{}`",
                    self.show(t)
                ),
            );
            m.attach(d)
        })
    }

    /// A type for a message: resolved, with a variable that must be a sum
    /// type shown as the constructors known so far (`#some i32`), and a
    /// literal's variable as its default type.
    pub fn show(&self, t: &Type) -> String {
        self.with_constrs(&self.resolve(t), &mut Vec::new()).to_string()
    }

    fn with_constrs(&self, t: &Type, seen: &mut Vec<TyVar>) -> Type {
        match t {
            Type::Var(v) if !seen.contains(v) && !self.constraints[*v as usize].constrs.is_empty() => {
                seen.push(*v);
                let mut cs: Vec<(Name, Vec<Type>)> = self.constraints[*v as usize]
                    .constrs
                    .iter()
                    .map(|(n, ts, _)| {
                        let ts = ts.iter().map(|t| self.with_constrs(&self.resolve(t), seen)).collect();
                        (n.clone(), ts)
                    })
                    .collect();
                seen.pop();
                cs.sort_by(|a, b| a.0.cmp(&b.0));
                Type::Sum(cs)
            }
            Type::Var(v) => match self.constraints[*v as usize].default {
                Some(p) => Type::Prim(p),
                None => t.clone(),
            },
            Type::Array { elem, shape, unique } => Type::Array {
                elem: Rc::new(self.with_constrs(elem, seen)),
                shape: shape.clone(),
                unique: *unique,
            },
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| self.with_constrs(t, seen)).collect()),
            Type::Record(fs) => Type::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.with_constrs(t, seen)))
                    .collect(),
            ),
            Type::Arrow { param_name, param, ret } => Type::Arrow {
                param_name: param_name.clone(),
                param: Rc::new(self.with_constrs(param, seen)),
                ret: Rc::new(self.with_constrs(ret, seen)),
            },
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| self.with_constrs(t, seen)).collect()))
                    .collect(),
            ),
            t => t.clone(),
        }
    }

    /// The error for a variable that nothing determined but a constructor
    /// constraint: its sum type is ambiguous.
    pub fn ambiguous_sum(&self, v: TyVar) -> Option<Diag> {
        let (_, _, span) = self.constraints[v as usize].constrs.first()?;
        Some(
            Diag::new(
                *span,
                format!(
                    "Type is ambiguous: a sum type with at least the constructors `{}`",
                    self.show(&Type::Var(v))
                ),
            )
            .help("add a type annotation that says which sum type (e.g. `: #some i32 | #none`)"),
        )
    }

    /// Require `t` to stay below a liftedness limit (Note [Liftedness]
    /// in `check`); unbound variables in it inherit the limit.
    pub fn require_lift(&mut self, t: &Type, level: Liftedness, site: LiftSite, span: Span) -> Result<(), Diag> {
        let l = LiftLimit { level, site, span };
        self.apply_lift(&l, t).map_err(|m| Diag::new(span, m.text()))
    }

    /// The liftedness of type parameter `n` in scope.
    pub fn param_liftedness(&self, n: &Name) -> Liftedness {
        match self.rigid.iter().rev().find(|(m, _)| m == n) {
            Some((_, l)) => *l,
            None => self
                .abstract_liftedness
                .iter()
                .rev()
                .find(|(m, _)| m == n)
                .map_or(Liftedness::Unlifted, |(_, l)| *l),
        }
    }

    /// The part of `t` that breaks limit `level`, ignoring unbound
    /// variables.
    pub fn lift_culprit(&self, t: &Type, level: Liftedness) -> Option<LiftCulprit> {
        match self.shallow_ref(t) {
            Type::Arrow { .. } => (level < Liftedness::Lifted).then_some(LiftCulprit::Function),
            Type::Param(n) => {
                let l = self.param_liftedness(n);
                (l > level).then(|| LiftCulprit::Param(n.clone(), l))
            }
            Type::Array { elem, .. } => self.lift_culprit(elem, level),
            Type::Tuple(ts) => ts.iter().find_map(|t| self.lift_culprit(t, level)),
            Type::Record(fs) => fs.iter().find_map(|(_, t)| self.lift_culprit(t, level)),
            Type::Sum(cs) => cs
                .iter()
                .find_map(|(_, ts)| ts.iter().find_map(|t| self.lift_culprit(t, level))),
            Type::Prim(_) | Type::Var(_) => None,
        }
    }

    fn apply_equality(&mut self, span: Span, t: &Type) -> Result<(), Mismatch> {
        match self.shallow(t) {
            Type::Var(v) => {
                let c = &mut self.constraints[v as usize];
                if c.equality.is_none() {
                    c.equality = Some(span);
                }
                Ok(())
            }
            Type::Param(n) => Err(Mismatch::Reason(format!("Type {n} does not support equality."))),
            Type::Prim(_) | Type::Arrow { .. } => Ok(()),
            // An abstract type with parameters (Note [Abstract types] in
            // `seal`).
            Type::Sum(cs) if cs.len() == 1 && cs[0].0.starts_with(ABSTRACT_MARK) => Err(Mismatch::Reason(format!(
                "Type {} does not support equality.",
                &cs[0].0[ABSTRACT_MARK.len_utf8()..]
            ))),
            Type::Array { elem, .. } => self.apply_equality(span, &elem),
            Type::Tuple(ts) => ts.iter().try_for_each(|t| self.apply_equality(span, t)),
            Type::Record(fs) => fs.iter().try_for_each(|(_, t)| self.apply_equality(span, t)),
            Type::Sum(cs) => cs
                .iter()
                .try_for_each(|(_, ts)| ts.iter().try_for_each(|t| self.apply_equality(span, t))),
        }
    }

    /// Check `t` against a liftedness limit and pass the limit on to the
    /// unbound variables in it.
    fn apply_lift(&mut self, l: &LiftLimit, t: &Type) -> Result<(), Mismatch> {
        if let Some(c) = self.lift_culprit(t, l.level) {
            return Err(Mismatch::Lift(l.message(&self.show(t), &c), l.span));
        }
        self.check_dependent_instance(l, t)?;
        let mut vars = Vec::new();
        self.unbound_vars(t, &mut vars);
        for v in vars {
            let c = &mut self.constraints[v as usize];
            if c.lift.as_ref().is_none_or(|w| l.level < w.level) {
                c.lift = Some(l.clone());
            }
        }
        Ok(())
    }

    /// Bind every unbound variable in `t` that has a default (literals) or a
    /// primitive constraint to its default; returns the unbound variables
    /// that remain.
    pub fn default_vars(&mut self, t: &Type, left: &mut Vec<TyVar>) {
        // Collected first (by reference), then bound: binding a variable
        // to a primitive type leaves the others unbound, so this is the
        // walk that binds as it goes, without cloning what it follows.
        let mut vars = Vec::new();
        self.unbound_vars(t, &mut vars);
        for v in vars {
            let c = &self.constraints[v as usize];
            let d = c.default.or_else(|| {
                c.prims.map(|(set, _)| {
                    if set.contains(PrimType::I32) {
                        PrimType::I32
                    } else if set.contains(PrimType::F64) {
                        PrimType::F64
                    } else {
                        PrimType::ALL
                            .into_iter()
                            .find(|p| set.contains(*p))
                            .unwrap_or(PrimType::I32)
                    }
                })
            });
            match d {
                Some(p) => {
                    self.resolved.get_mut().clear();
                    self.bound[v as usize] = Some(Rc::new(Type::Prim(p)))
                }
                None => {
                    if !left.contains(&v) {
                        left.push(v)
                    }
                }
            }
        }
    }

    /// The unbound variables of a type.
    pub fn unbound_vars(&self, t: &Type, out: &mut Vec<TyVar>) {
        match self.shallow_ref(t) {
            Type::Var(v) => {
                if !out.contains(v) {
                    out.push(*v)
                }
            }
            Type::Prim(_) | Type::Param(_) => {}
            Type::Array { elem, .. } => self.unbound_vars(elem, out),
            Type::Tuple(ts) => ts.iter().for_each(|t| self.unbound_vars(t, out)),
            Type::Record(fs) => fs.iter().for_each(|(_, t)| self.unbound_vars(t, out)),
            Type::Arrow { param, ret, .. } => {
                self.unbound_vars(param, out);
                self.unbound_vars(ret, out)
            }
            Type::Sum(cs) => cs
                .iter()
                .for_each(|(_, ts)| ts.iter().for_each(|t| self.unbound_vars(t, out))),
        }
    }

    /// Bind a variable directly (generalisation, defaulting to unit).
    pub fn set(&mut self, v: TyVar, t: Type) {
        self.resolved.get_mut().clear();
        self.bound[v as usize] = Some(Rc::new(t));
    }
}

/// `xs` with `change` applied to each element, or `None` when it changes
/// none (`change` gives `None` for an element it leaves as it is, and
/// `keep` copies such an element once another one has changed).
fn changed_elems<T>(xs: &[T], change: impl Fn(&T) -> Option<T>, keep: impl Fn(&T) -> T) -> Option<Vec<T>> {
    let (first, new) = xs.iter().enumerate().find_map(|(i, x)| change(x).map(|n| (i, n)))?;
    let mut out = Vec::with_capacity(xs.len());
    out.extend(xs[..first].iter().map(&keep));
    out.push(new);
    out.extend(xs[first + 1..].iter().map(|x| change(x).unwrap_or_else(|| keep(x))));
    Some(out)
}

fn payload_count(c: &Name, have: usize, found: usize) -> String {
    format!(
        "the payloads of constructor `#{c}` differ in arity: {have} payload value(s) in one place, {found} in another"
    )
}

/// Replace sizes in a type: `f` gets each `Size::Var`.
pub fn map_sizes(t: &Type, f: &mut dyn FnMut(&Name) -> Size) -> Type {
    map_dims(t, &mut |d| match d {
        Size::Var(n) => f(n),
        d => d.clone(),
    })
}

/// Replace every size in a type, operand by operand inside size
/// expressions (without following type variables).
pub fn map_dims(t: &Type, f: &mut dyn FnMut(&Size) -> Size) -> Type {
    match t {
        Type::Array { elem, shape, unique } => Type::Array {
            elem: Rc::new(map_dims(elem, f)),
            shape: shape.iter().map(|d| d.map_leaves(f)).collect(),
            unique: *unique,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| map_dims(t, f)).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), map_dims(t, f))).collect()),
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name: param_name.clone(),
            param: Rc::new(map_dims(param, f)),
            ret: Rc::new(map_dims(ret, f)),
        },
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| map_dims(t, f)).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// Every size of a type as `Unknown` (apply to a resolved type).
pub fn erase_sizes(t: &Type) -> Type {
    map_dims(t, &mut |_| Size::Unknown)
}

pub(crate) fn mentions_size(t: &Type, n: &Name) -> bool {
    mentions_size_in(t, n, true)
}

/// Whether `t` has `n` in an array size (also inside a size expression),
/// looking into function types only `through_functions`.
pub(crate) fn mentions_size_in(t: &Type, n: &Name, through_functions: bool) -> bool {
    let inner = |t: &Type| mentions_size_in(t, n, through_functions);
    match t {
        Type::Array { elem, shape, .. } => {
            shape
                .iter()
                .any(|d| d.any_leaf(&mut |l| matches!(l, Size::Var(m) if m == n)))
                || inner(elem)
        }
        Type::Tuple(ts) => ts.iter().any(inner),
        Type::Record(fs) => fs.iter().any(|(_, t)| inner(t)),
        Type::Arrow { param, ret, .. } => through_functions && (inner(param) || inner(ret)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(inner)),
        Type::Prim(_) | Type::Param(_) | Type::Var(_) => false,
    }
}

// Note [Occurs check on sizes]
// Futhark reports an equation between a size variable and a compound size
// that contains it as an occurs check (error index, "Occurs check"): no
// size is the solution of such an equation. Between rigid sizes (`[n]`
// and `[n+1]`) it says the sizes "do not match". The checker checks a
// lambda argument after the other arguments, with its parameters' types
// taken from them (`ap (\xs -> xs ++ xs) arr` with `ap 'a (f: a -> a) (x:
// a)` gives `xs` the rigid size of `arr`), where Futhark infers the
// lambda first, its unannotated parameters with size variables: there,
// the lambda's `[d] -> [d+d]` against `a -> a` is an occurs check. So
// while such a lambda's type is unified with its parameter
// (`Subst::inferred_sizes`), a name against an expression that contains
// it is reported as an occurs check.

/// `(x, e)` where one of `a`, `b` is a name `x` and the other a size
/// expression `e` that mentions it.
fn occurs_in<'s>(a: &'s Size, b: &'s Size) -> Option<(&'s Size, &'s Size)> {
    let mentions = |e: &Size, x: &Size| matches!(e, Size::Expr(_)) && e.any_leaf(&mut |l| l == x);
    match (a, b) {
        (Size::Var(_), _) if mentions(b, a) => Some((a, b)),
        (_, Size::Var(_)) if mentions(a, b) => Some((b, a)),
        _ => None,
    }
}

/// A size as a polynomial: each monomial (its names, sorted) with its
/// coefficient; `None` where it overflows.
type Polynomial = std::collections::BTreeMap<Vec<Name>, i128>;

fn polynomial(d: &Size) -> Option<Polynomial> {
    let mut p = Polynomial::new();
    match d {
        Size::Const(c) => {
            p.insert(Vec::new(), *c as i128);
        }
        Size::Var(n) => {
            p.insert(vec![n.clone()], 1);
        }
        Size::Expr(e) => {
            let (a, b) = (polynomial(&e.lhs)?, polynomial(&e.rhs)?);
            match e.op {
                SizeOp::Add | SizeOp::Sub => {
                    let sign = if e.op == SizeOp::Sub { -1 } else { 1 };
                    p = a;
                    for (m, c) in b {
                        let x = p.entry(m).or_insert(0);
                        *x = x.checked_add(c.checked_mul(sign)?)?;
                    }
                }
                SizeOp::Mul => {
                    for (m1, c1) in &a {
                        for (m2, c2) in &b {
                            let mut m: Vec<Name> = m1.iter().chain(m2).cloned().collect();
                            m.sort();
                            let x = p.entry(m).or_insert(0);
                            *x = x.checked_add(c1.checked_mul(*c2)?)?;
                        }
                    }
                }
            }
        }
        // A term is a monomial of its own (its text names it).
        Size::Term(_) => {
            p.insert(vec![format!("({})", d.text()).into()], 1);
        }
        Size::Unknown | Size::Infer(_) => return None,
    }
    p.retain(|_, c| *c != 0);
    Some(p)
}

/// Whether two size expressions are equal as polynomials (`n+m` and
/// `m+n`), or cannot be compared so (then they agree, to be lenient: Note
/// [Static size checking]). Futhark compares sizes syntactically, so two
/// that differ as polynomials differ there too.
fn same_polynomial(a: &Size, b: &Size) -> bool {
    match (polynomial(a), polynomial(b)) {
        (Some(p), Some(q)) => p == q,
        _ => true,
    }
}

/// Whether a size name is a rigid existential size of the checker (Note
/// [Existential sizes] in `sizes`): no source name starts with `?`.
pub fn is_existential(n: &str) -> bool {
    n.starts_with("?k")
}

/// Replace type parameters by types.
pub fn subst_params(t: &Type, f: &dyn Fn(&Name) -> Option<Type>) -> Type {
    match t {
        Type::Param(n) => f(n).unwrap_or_else(|| t.clone()),
        Type::Array { elem, shape, unique } => {
            let e = subst_params(elem, f);
            let mut r = e;
            for d in shape.iter().rev() {
                r = r.array_of(d.clone());
            }
            if let Type::Array { unique: u, .. } = &mut r {
                *u = *unique;
            }
            r
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| subst_params(t, f)).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), subst_params(t, f))).collect()),
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name: param_name.clone(),
            param: Rc::new(subst_params(param, f)),
            ret: Rc::new(subst_params(ret, f)),
        },
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| subst_params(t, f)).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// [`subst_params`] and then [`map_sizes`], in one walk: type parameters
/// replaced by `types`, size names by `sizes`. The types `types` gives
/// are not walked for sizes (instantiation gives fresh type variables).
pub fn instantiate_params(t: &Type, types: &dyn Fn(&Name) -> Option<Type>, sizes: &dyn Fn(&Name) -> Size) -> Type {
    let inst = |t: &Type| instantiate_params(t, types, sizes);
    match t {
        Type::Param(n) => types(n).unwrap_or_else(|| t.clone()),
        Type::Array { elem, shape, unique } => {
            let mut dims: Vec<Size> = shape
                .iter()
                .map(|d| {
                    d.map_leaves(&mut |l| match l {
                        Size::Var(n) => sizes(n),
                        l => l.clone(),
                    })
                })
                .collect();
            let elem = match inst(elem) {
                Type::Array { elem, shape, .. } => {
                    dims.extend(shape);
                    elem
                }
                e => Rc::new(e),
            };
            Type::Array {
                elem,
                shape: dims,
                unique: *unique,
            }
        }
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(inst).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), inst(t))).collect()),
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name: param_name.clone(),
            param: Rc::new(inst(param)),
            ret: Rc::new(inst(ret)),
        },
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(inst).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// Whether [`strip_unique`] changes `t` (most types have no mark: a copy
/// is cheaper than the rebuilt type).
fn has_unique(t: &Type) -> bool {
    match t {
        Type::Array { elem, unique, .. } => *unique || has_unique(elem),
        Type::Tuple(ts) => ts.iter().any(has_unique),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_unique(t)),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_unique)),
        _ => false,
    }
}

/// The type without any uniqueness marks.
pub fn strip_unique(t: &Type) -> Type {
    match t {
        Type::Array { elem, shape, .. } => Type::Array {
            elem: Rc::new(strip_unique(elem)),
            shape: shape.clone(),
            unique: false,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(strip_unique).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), strip_unique(t))).collect()),
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(strip_unique).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest chain of variable-to-variable bindings.
    fn longest_chain(s: &Subst) -> usize {
        (0..s.bound.len())
            .map(|v| {
                let (mut t, mut k) = (Type::Var(v as TyVar), 0);
                while let Type::Var(w) = t {
                    match &s.bound[w as usize] {
                        Some(b) => {
                            t = (**b).clone();
                            k += 1;
                        }
                        None => break,
                    }
                }
                k
            })
            .max()
            .unwrap_or(0)
    }

    /// Unifying each new variable with the previous one, in either order
    /// (`0+0+...`, nested either way), keeps chains logarithmic (Note
    /// [Variable chains]): a chain as long as the expression made every
    /// lookup linear and checking quadratic.
    #[test]
    fn variable_chains_stay_short() {
        let span = Span::default();
        for newest_first in [false, true] {
            let mut s = Subst::default();
            let vars: Vec<Type> = (0..4096).map(|_| s.fresh()).collect();
            for w in vars.windows(2) {
                let (a, b) = if newest_first { (&w[1], &w[0]) } else { (&w[0], &w[1]) };
                s.unify(a, b, span).expect("variables unify");
            }
            assert!(longest_chain(&s) <= 13, "chain of {}", longest_chain(&s));
            // And they all stand for one type.
            s.unify(&vars[17], &Type::Prim(PrimType::I32), span).expect("binds");
            assert!(vars.iter().all(|v| s.resolve(v) == Type::Prim(PrimType::I32)));
        }
    }
}
