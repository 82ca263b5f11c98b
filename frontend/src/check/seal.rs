//! The checker's half of the module system: the [`Seal`] declarations
//! that module elaboration (`crate::modules`) leaves where a module meets
//! a signature, abstract types, and making abstract types concrete again
//! once the program has been checked (Note [Abstract types]).
//!
//! Note [Abstract types]: an abstract type `t` of a signature that seals
//! a module is, to the checker, a rigid type `Type::Param` named after the
//! sealed module's type (`M.t`), which no source type parameter can be
//! named (source names have no dots). Outside the module nothing unifies
//! with it but itself, so `M.t` cannot be used as the `i32` behind it.
//! The module's own definitions were checked before sealing, at the
//! concrete type. After the whole program is checked, [`Checker::concretise`]
//! replaces every abstract type in the typed trees by the type behind it,
//! so the interpreter and internalisation see the concrete types only.
//! An abstract type with type parameters (`type t 'a`) cannot be a rigid
//! name, which has no arguments: it is a sum type with one constructor,
//! [`ABSTRACT_MARK`] and the type's name, whose payload is the arguments
//! (no source constructor has that name; unification compares the
//! arguments). Size parameters (`type arr [n]`) are arguments too, each a
//! witness `[n]()` after the type arguments: so `m.arr [n]` has the size
//! `n` (a size parameter can be bound from it, and unification compares
//! it), and the type behind it gets it back when made concrete.

use std::rc::Rc;

use super::{unify, zonk, Checked, Checker, Local, Scheme, TypeAbbr};
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::{PrimType, Size, Type, ABSTRACT_MARK};

// Note [Sizes from constants in type specifications]
// A size naming a top-level constant is unknown to the checker (Note
// [Sizes from constants] in `check`), which would let `type k_ints = ints
// [2]` implement the specification `type k_ints = ints [k]` (with `val k:
// i64`, See Note [Sizes naming a value spec] in `modules::sig`). Futhark
// compares the two types' sizes as written, and a constant's name is not
// the number it is bound to; so where a transparent type specification is
// compared with the module's type, a size naming a constant is that name
// (a rigid size). The module's own abbreviation was checked before, with
// unknown sizes for its constants, so it agrees with any name.

impl Checker {
    pub(super) fn check_seal(&mut self, seal: &Seal, id: GlobalId) -> Result<(), Diag> {
        for item in &seal.items {
            match item {
                SealItem::Abstract {
                    name,
                    params,
                    def,
                    liftedness,
                } => {
                    let concrete = self.with_params(params, |ck| ck.type_of(def))?;
                    super::sizes::check_abstract_sizes(name, params, &self.subst.resolve(&concrete))?;
                    let (mut tparams, mut sparams): (Vec<Name>, Vec<Name>) = (Vec::new(), Vec::new());
                    for p in params {
                        match p {
                            TypeParam::Type { name, .. } => tparams.push(name.clone()),
                            TypeParam::Size { name, .. } => sparams.push(name.clone()),
                        }
                    }
                    // Sizes of the module's own (`[k]` of `def k = 2`)
                    // are not known outside it.
                    let concrete = unify::map_sizes(&concrete, &mut |n| {
                        if sparams.contains(n) {
                            Size::Var(n.clone())
                        } else {
                            Size::Unknown
                        }
                    });
                    let ty = if tparams.is_empty() && sparams.is_empty() {
                        Type::Param(name.clone())
                    } else {
                        // See Note [Abstract types]: the size arguments
                        // follow the type arguments, as witnesses `[n]()`.
                        let args = tparams
                            .iter()
                            .map(|p| Type::Param(p.clone()))
                            .chain(sparams.iter().map(|n| Type::unit().array_of(Size::Var(n.clone()))))
                            .collect();
                        Type::Sum(vec![(format!("{ABSTRACT_MARK}{name}").into(), args)])
                    };
                    if tparams.is_empty() && sparams.is_empty() {
                        let l = if concrete.has_function() {
                            Liftedness::Lifted
                        } else {
                            *liftedness
                        };
                        if l > Liftedness::Unlifted {
                            self.subst.abstract_liftedness.push((name.clone(), l));
                        }
                    }
                    self.abstract_types.insert(name.clone(), (tparams, sparams, concrete));
                    self.types.insert(
                        name.clone(),
                        Rc::new(TypeAbbr {
                            params: params.clone(),
                            // Abstract types count as unlifted (Note
                            // [Liftedness]).
                            liftedness: Liftedness::Unlifted,
                            ty,
                        }),
                    );
                }
                SealItem::TypeEq {
                    name,
                    params,
                    have,
                    want,
                    have_span,
                    spec_span,
                } => {
                    // See Note [Sizes from constants in type specifications].
                    self.constant_sizes_named = true;
                    let types = self.with_params(params, |ck| Ok((ck.type_of(have)?, ck.type_of(want)?)));
                    self.constant_sizes_named = false;
                    let (h, w) = types?;
                    if self.subst.unify(&w, &h, *have_span).is_err() {
                        // A constant's flat name (`m.impl.k`) is shown as
                        // the specification wrote it (`k`).
                        let w = unify::map_sizes(&self.subst.resolve(&w), &mut |n| {
                            Size::Var(n.rsplit('.').next().map_or_else(|| n.clone(), Name::from))
                        });
                        self.errors.push(
                            Diag::new(
                                *have_span,
                                format!(
                                    "Module defines type {name}{ps} = {}, but module type requires type {name}{ps} = {}",
                                    self.subst.show(&h),
                                    self.subst.show(&w),
                                    ps = show_type_params(params),
                                ),
                            )
                            .note(*spec_span, "specified here")
                            .help("the type does not match its specification"),
                        );
                    }
                }
                SealItem::Assume { name, type_params, ty } => {
                    super::consume::record_unique_spec_params(self, name, ty);
                    let s = self.spec_scheme(type_params, ty)?;
                    self.globals.insert(name.clone(), (id, Rc::new(s)));
                }
                SealItem::Val {
                    name,
                    target,
                    alias,
                    type_params,
                    concrete,
                    sealed,
                    have_span,
                    spec_span,
                } => {
                    // A member of a built-in module (`f32.sqrt`), or a
                    // definition that failed to check (its error is
                    // reported already).
                    let (id, scheme) = match self.lookup_global(target) {
                        Some((id, s)) => (Some(id), s),
                        None => match self.lookup_builtin(target) {
                            Some(s) => (None, s),
                            None => continue,
                        },
                    };
                    // Unified with the spec's type parameters in scope: a
                    // definition whose `'a` is unlifted does not match a
                    // spec's `'^a`.
                    let (want, have, ok) = self.with_params(type_params, |ck| {
                        let want = ck.type_of(concrete)?;
                        let have = ck.instantiate(&scheme, target, *have_span);
                        let ok = ck.subst.unify(&want, &have, *have_span).is_ok();
                        Ok((want, have, ok))
                    })?;
                    if !ok {
                        // Reported; the alias is still bound, at the spec's
                        // type, so that uses of it do not add errors.
                        let d = Diag::new(
                            *have_span,
                            format!(
                                "Module type specifies val {name}{} : {}, but module provides val {name} : {}",
                                show_type_params(type_params),
                                self.subst.show(&want),
                                self.subst.show(&have)
                            ),
                        )
                        .note(*spec_span, "specified here")
                        .help("the value does not match its specification");
                        let d = super::default_notes(self, target, d);
                        self.errors.push(d);
                    }
                    if ok && alias.is_some() {
                        if let Some(d) = self.top_level_size_lifted(name, type_params, sealed, *have_span, *spec_span) {
                            self.errors.push(d);
                        }
                    }
                    if let Some(alias) = alias {
                        super::consume::record_unique_spec_params(self, alias, sealed);
                    }
                    match (alias, id) {
                        (Some(alias), Some(id)) => {
                            let s = self.spec_scheme(type_params, sealed)?;
                            self.globals.insert(alias.clone(), (id, Rc::new(s)));
                        }
                        (Some(alias), None) => {
                            let s = self.spec_scheme(type_params, sealed)?;
                            self.add_builtin_alias(alias.clone(), target.clone(), s);
                        }
                        (None, _) => {}
                    }
                }
            }
        }
        Ok(())
    }

    // Note [Size-lifted types at the top level]
    // The reference forbids ascription "when a type substitution of
    // size-lifted types occurs in a size appearing at the top level": a
    // value spec (`val empty : dict`) whose type, outside any function
    // arrow, is an abstract size-lifted type that the module defines
    // with a size it does not know (`type~ dict = []bool`). Such a
    // value would have an existential size that is bound nowhere (a
    // function's result may have one: it is bound by each call, as in
    // `val mk : () -> dict`). Sizes the module defines itself (`[k]` of
    // its `def k`) are unknown outside it too (`check_seal`).

    /// The error for a value spec `name : sealed` whose type has a
    /// size-lifted type at its top level (See Note [Size-lifted types at
    /// the top level]).
    fn top_level_size_lifted(
        &mut self,
        name: &Name,
        type_params: &[TypeParam],
        sealed: &TypeExp,
        have_span: Span,
        spec_span: Span,
    ) -> Option<Diag> {
        // The spec's type was checked where the spec was (`concrete` is
        // the same type expression with the module's types).
        let sealed_ty = self.with_params(type_params, |ck| ck.type_of(sealed)).ok()?;
        let mut found = None;
        outside_arrows(&sealed_ty, &mut |t| {
            let Type::Param(abs) = t else { return };
            let lifted = self
                .subst
                .abstract_liftedness
                .iter()
                .any(|(n, l)| n == abs && *l > Liftedness::Unlifted);
            if let Some((_, _, concrete)) = self.abstract_types.get(abs).filter(|_| lifted) {
                let mut unknown = false;
                outside_arrows(concrete, &mut |c| {
                    if let Type::Array { shape, .. } = c {
                        unknown |= shape.contains(&Size::Unknown);
                    }
                });
                if unknown && found.is_none() {
                    found = Some((abs.clone(), concrete.clone()));
                }
            }
        });
        found.map(|(abs, concrete)| {
            let abs = crate::types::user_name(&abs).into_owned();
            Diag::new(
                have_span,
                format!(
                    "Cannot ascribe val {name} : {}: the size-lifted type {abs} is `{concrete}`, whose size would appear at the top level of \"{name}\"'s type",
                    self.subst.show(&sealed_ty)
                ),
            )
            .note(spec_span, "specified here")
            .help("a size-lifted type may have sizes the module does not state only where they are bound, as in a function's result")
        })
    }

    /// Run `f` with the size parameters of `params` in scope as `i64`
    /// names and its type parameters rigid.
    fn with_params<T>(
        &mut self,
        params: &[TypeParam],
        f: impl FnOnce(&mut Checker) -> Result<T, Diag>,
    ) -> Result<T, Diag> {
        let saved = std::mem::take(&mut self.subst.rigid);
        let mark = self.locals.len();
        for p in params {
            match p {
                TypeParam::Size { name, .. } => self.locals.push(Local {
                    name: name.clone(),
                    ty: Type::Prim(PrimType::I64),
                    scheme: None,
                }),
                TypeParam::Type { name, liftedness, .. } => self.subst.rigid.push((name.clone(), *liftedness)),
            }
        }
        let r = f(self);
        self.locals.truncate(mark);
        self.subst.rigid = saved;
        r
    }

    /// The scheme of a `val` spec.
    fn spec_scheme(&mut self, params: &[TypeParam], te: &TypeExp) -> Result<Scheme, Diag> {
        let ty = self.with_params(params, |ck| ck.type_of(te))?;
        let (mut type_params, mut size_params) = (Vec::new(), Vec::new());
        for p in params {
            match p {
                TypeParam::Size { name, .. } => size_params.push(name.clone()),
                TypeParam::Type { name, liftedness, .. } => type_params.push((name.clone(), *liftedness)),
            }
        }
        Ok(Scheme {
            type_params,
            size_params,
            ty,
            existential_ty: None,
        })
    }

    /// `t` with its abstract types replaced by the types behind them
    /// (which may mention other abstract types: `depth` bounds that).
    fn concrete(&self, t: &Type, depth: u32) -> Type {
        let go = |t: &Type| self.concrete(t, depth);
        match t {
            Type::Param(n) if depth < 64 => match self.abstract_types.get(n) {
                Some((_, _, c)) => self.concrete(c, depth + 1),
                None => t.clone(),
            },
            Type::Sum(cs) if depth < 64 && cs.len() == 1 && cs[0].0.starts_with(ABSTRACT_MARK) => {
                let name = &cs[0].0[ABSTRACT_MARK.len_utf8()..];
                match self.abstract_types.get(name) {
                    Some((ps, ss, c)) => {
                        let args: Vec<Type> = cs[0].1.iter().map(go).collect();
                        let inst = unify::subst_params(c, &|n| {
                            ps.iter().position(|p| p == n).and_then(|i| args.get(i).cloned())
                        });
                        // The size witnesses `[d]()` after the type
                        // arguments give the size parameters.
                        let sizes: Vec<Size> = args[ps.len().min(args.len())..]
                            .iter()
                            .map(|w| match w {
                                Type::Array { shape, .. } => shape.first().cloned().unwrap_or(Size::Unknown),
                                _ => Size::Unknown,
                            })
                            .collect();
                        let inst = unify::map_sizes(&inst, &mut |n| match ss.iter().position(|s| s == n) {
                            Some(i) => sizes.get(i).cloned().unwrap_or(Size::Unknown),
                            None => Size::Var(n.clone()),
                        });
                        self.concrete(&inst, depth + 1)
                    }
                    None => t.clone(),
                }
            }
            Type::Prim(_) | Type::Param(_) | Type::Var(_) => t.clone(),
            Type::Array { elem, shape, unique } => {
                let mut r = go(elem);
                for d in shape.iter().rev() {
                    r = r.array_of(d.clone());
                }
                if let Type::Array { unique: u, .. } = &mut r {
                    *u = *unique;
                }
                r
            }
            Type::Tuple(ts) => Type::Tuple(ts.iter().map(go).collect()),
            Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), go(t))).collect()),
            Type::Arrow { param_name, param, ret } => Type::Arrow {
                param_name: param_name.clone(),
                param: Rc::new(go(param)),
                ret: Rc::new(go(ret)),
            },
            Type::Sum(cs) => Type::Sum(
                cs.iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(go).collect()))
                    .collect(),
            ),
        }
    }

    /// Replace the abstract types in every typed tree by the types behind
    /// them (Note [Abstract types]).
    pub(super) fn concretise(&self, checked: &mut Checked) {
        if self.abstract_types.is_empty() {
            return;
        }
        let conc = |t: &Type| self.concrete(t, 0);
        let fix_pat = &mut |p: &mut Pat| {
            if let Some(t) = &p.ty {
                p.ty = Some(conc(t));
            }
        };
        for prog in &mut checked.programs {
            for dec in &mut prog.decs {
                let mut d = dec;
                while let Dec::Local(inner, _) = d {
                    d = inner;
                }
                let Dec::Val(vb) = d else { continue };
                for p in &mut vb.params {
                    zonk::walk_pat(p, fix_pat);
                }
                let _ = zonk::walk_exp(
                    &mut vb.body,
                    &mut |e| {
                        if let Some(t) = &e.ty {
                            e.ty = Some(conc(t));
                        }
                        Ok(())
                    },
                    fix_pat,
                );
            }
        }
        for e in &mut checked.entries {
            e.params = e.params.iter().map(conc).collect();
            e.ret = conc(&e.ret);
        }
    }
}

/// Call `f` on `t` and each type it is made of, not looking into function
/// types (See Note [Size-lifted types at the top level]).
fn outside_arrows(t: &Type, f: &mut impl FnMut(&Type)) {
    f(t);
    match t {
        Type::Array { elem, .. } => outside_arrows(elem, f),
        Type::Tuple(ts) => ts.iter().for_each(|t| outside_arrows(t, f)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| outside_arrows(t, f)),
        Type::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| outside_arrows(t, f))),
        Type::Prim(_) | Type::Param(_) | Type::Var(_) | Type::Arrow { .. } => {}
    }
}
