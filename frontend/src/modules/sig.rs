//! Module types (signatures): resolving a signature expression in a scope,
//! and matching a module against a signature (Note [Sealing] in
//! `modules`).

use std::rc::Rc;

use futmlir_dialects::ir::FastMap;

use super::{lookup_struct, rename, Elab, Env, Functor, Module, TypeEnt, ValEnt};
use crate::check::sizes::each_size_name;
use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::*;
use crate::types::PrimType;

/// The first qualifier of a type name that refers to a type the
/// signature itself declares: `%sig.t`, `%sig.N.t` (for the module spec
/// `N`). Matching replaces it by the matched module's type.
pub(crate) const SIG_LOCAL: &str = "%sig";

/// The first qualifier of a size name that refers to a value the
/// signature itself declares (`%sigval.k` for `val k: i64` and `type t =
/// [k]i32`). Matching replaces it by the matched module's value. See Note
/// [Sizes naming a value spec].
pub(crate) const SIG_LOCAL_VAL: &str = "%sigval";

// Note [Sizes naming a value spec]
// A size in a module type may name a value the module type declares
// before it (`val k: i64  type k_ints = ints [k]`, reference "Size
// types": a size is any `i64` expression in scope). Resolving the
// signature makes such a name a `%sigval` path, as the signature's own
// types are `%sig` paths; matching a module replaces it by the flat name
// of the module's value (`subst`), and assuming a functor parameter by the
// stand-in's. The checker then compares a transparent type spec with the
// module's definition naming that constant (See Note [Sizes from
// constants in type specifications] in `check::seal`), so `type k_ints =
// ints [2]` does not implement `type k_ints = ints [k]`, as in Futhark.

/// A resolved signature: type names outside it are flat names, its own
/// types are [`SIG_LOCAL`] paths.
#[derive(Clone)]
pub(crate) struct Sig {
    pub items: Vec<SpecItem>,
    /// A parametric module type `(p: s) -> t` (then `items` is empty): a
    /// functor stand-in (`Functor::assumed`) with `s`, `t` and the scope.
    pub functor: Option<Rc<Functor>>,
}

#[derive(Clone)]
pub(crate) enum SpecItem {
    Type {
        name: Name,
        params: Vec<TypeParam>,
        def: Option<TypeExp>,
        span: Span,
        liftedness: Liftedness,
    },
    Val {
        name: Name,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
        span: Span,
    },
    Mod {
        name: Name,
        sig: Sig,
    },
}

/// The types and module specs declared so far at one nesting level.
struct Level {
    path: Vec<Name>,
    types: Vec<Name>,
    /// The value specs (See Note [Sizes naming a value spec]).
    vals: Vec<Name>,
    mods: Vec<(Name, Vec<Name>)>,
}

/// Call `f` on every type name of `te`.
fn each_type_name(te: &mut TypeExp, f: &mut dyn FnMut(&mut QualName)) {
    match &mut te.kind {
        TypeExpKind::Var(qn) => f(qn),
        TypeExpKind::Tuple(ts) => ts.iter_mut().for_each(|t| each_type_name(t, f)),
        TypeExpKind::Record(fs) => fs.iter_mut().for_each(|(_, _, t)| each_type_name(t, f)),
        TypeExpKind::Array(_, t) | TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => each_type_name(t, f),
        TypeExpKind::Arrow(_, a, b) => {
            each_type_name(a, f);
            each_type_name(b, f);
        }
        TypeExpKind::Apply(h, args) => {
            each_type_name(h, f);
            for a in args {
                if let TypeArgExp::Type(t) = a {
                    each_type_name(t, f);
                }
            }
        }
        TypeExpKind::Sum(cs) => cs
            .iter_mut()
            .for_each(|(_, ts)| ts.iter_mut().for_each(|t| each_type_name(t, f))),
    }
}

/// The map key of a `%sigval` size name (See Note [Sizes naming a value
/// spec]); `None` for any other name.
fn local_val_key(qn: &QualName) -> Option<String> {
    if qn.quals.first().is_none_or(|q| &**q != SIG_LOCAL_VAL) {
        return None;
    }
    let mut key = String::from(SIG_LOCAL_VAL);
    for q in &qn.quals[1..] {
        key.push('.');
        key.push_str(q);
    }
    key.push('.');
    key.push_str(&qn.name);
    Some(key)
}

fn local_val_qn(path: &[Name], name: &Name) -> QualName {
    let mut quals: Vec<Name> = vec![Rc::from(SIG_LOCAL_VAL)];
    quals.extend(path.iter().cloned());
    QualName {
        quals,
        name: name.clone(),
    }
}

fn local_qn(path: &[Name], name: &Name) -> QualName {
    let mut quals: Vec<Name> = vec![Rc::from(SIG_LOCAL)];
    quals.extend(path.iter().cloned());
    QualName {
        quals,
        name: name.clone(),
    }
}

/// A type in a spec: the signature's own types become [`SIG_LOCAL`]
/// paths, the others flat names.
fn spec_type(te: &TypeExp, env: &Env, levels: &[Level], tparams: &[TypeParam]) -> Result<TypeExp, Diag> {
    let mut te = te.clone();
    let is_tparam = |n: &Name| tparams.iter().any(|p| p.name() == n);
    // A module type is checked where it is declared, used or not: a name
    // that is no type in scope is an error there (issue2113, and
    // issue2114's `type t = t`, whose `t` is not yet declared).
    let mut unknown = None;
    each_type_name(&mut te, &mut |qn| {
        if qn.quals.is_empty() {
            if is_tparam(&qn.name) {
                return;
            }
            if let Some(l) = levels.iter().rev().find(|l| l.types.contains(&qn.name)) {
                *qn = local_qn(&l.path, &qn.name);
            } else if PrimType::from_name(&qn.name).is_none() && !env.types.contains_key(&qn.name) {
                unknown.get_or_insert_with(|| qn.name.clone());
            }
        } else if qn.quals.len() == 1 {
            let m = &qn.quals[0];
            let found = levels.iter().rev().find_map(|l| {
                l.mods
                    .iter()
                    .rev()
                    .find(|(n, ts)| n == m && ts.contains(&qn.name))
                    .map(|_| l)
            });
            if let Some(l) = found {
                let mut path = l.path.clone();
                path.push(m.clone());
                *qn = local_qn(&path, &qn.name);
            }
        }
    });
    if let Some(n) = unknown {
        return Err(Diag::new(te.span, format!("Unknown type \"{n}\"")));
    }
    // See Note [Sizes naming a value spec].
    let mut bound: Vec<Name> = tparams.iter().map(|p| p.name().clone()).collect();
    each_size_name(&mut te, &mut bound, &mut |qn, _| {
        if !qn.quals.is_empty() {
            return;
        }
        if let Some(l) = levels.iter().rev().find(|l| l.vals.contains(&qn.name)) {
            *qn = local_val_qn(&l.path, &qn.name);
        }
    });
    rename::type_exp(&mut te, env, tparams)?;
    Ok(te)
}

/// Put `path` after the [`SIG_LOCAL`] of every local type name: the
/// items of a signature used as the module spec at `path`.
fn reroot(items: &mut [SpecItem], path: &[Name]) {
    if path.is_empty() {
        return;
    }
    let fix = &mut |qn: &mut QualName| {
        if qn
            .quals
            .first()
            .is_some_and(|q| &**q == SIG_LOCAL || &**q == SIG_LOCAL_VAL)
        {
            let rest: Vec<Name> = qn.quals[1..].to_vec();
            qn.quals.truncate(1);
            qn.quals.extend(path.iter().cloned());
            qn.quals.extend(rest);
        }
    };
    for it in items {
        match it {
            SpecItem::Type { def: Some(t), .. } => {
                each_type_name(t, fix);
                each_size_name(t, &mut Vec::new(), &mut |qn, _| fix(qn));
            }
            SpecItem::Type { def: None, .. } => {}
            SpecItem::Val { ty, .. } => {
                each_type_name(ty, fix);
                each_size_name(ty, &mut Vec::new(), &mut |qn, _| fix(qn));
            }
            SpecItem::Mod { sig, .. } => reroot(&mut sig.items, path),
        }
    }
}

fn type_names(items: &[SpecItem]) -> Vec<Name> {
    items
        .iter()
        .filter_map(|i| match i {
            SpecItem::Type { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Resolve a signature expression in `env`.
pub(super) fn resolve(el: &mut Elab<'_>, se: &SigExp, env: &Env) -> Result<Rc<Sig>, Diag> {
    match &se.kind {
        SigExpKind::Var(qn) => {
            let found = if qn.quals.is_empty() {
                env.sigs.get(&qn.name).cloned()
            } else {
                lookup_struct(env, &qn.quals, se.span)?.sigs.get(&qn.name).cloned()
            };
            found.ok_or_else(|| Diag::new(se.span, format!("unknown module type `{qn}`")))
        }
        SigExpKind::Specs(specs) => {
            let mut levels = vec![Level {
                path: Vec::new(),
                types: Vec::new(),
                vals: Vec::new(),
                mods: Vec::new(),
            }];
            let mut items = Vec::new();
            specs_into(el, specs, env, &mut levels, &mut items)?;
            Ok(Rc::new(Sig { items, functor: None }))
        }
        SigExpKind::Arrow(param, a, b) => {
            let name = param.clone().unwrap_or_else(|| Rc::from("%arg"));
            let f = Functor {
                params: vec![ModParam {
                    name,
                    sig: (**a).clone(),
                    span: a.span,
                }],
                result: Some((**b).clone()),
                body: ModExp {
                    kind: ModExpKind::Struct(Vec::new()),
                    span: se.span,
                },
                env: env.clone(),
                assumed: true,
                sealed: None,
            };
            // Resolve the parameter now, for its errors.
            resolve(el, a, env)?;
            Ok(Rc::new(Sig {
                items: Vec::new(),
                functor: Some(Rc::new(f)),
            }))
        }
        SigExpKind::With(base, qn, params, te) => {
            let mut s = (*resolve(el, base, env)?).clone();
            if s.functor.is_some() {
                return Err(Diag::new(se.span, "`with` refines the module type of a structure only"));
            }
            let mut te = te.clone();
            rename::type_exp(&mut te, env, params)?;
            refine(&mut s.items, &qn.quals, qn, params, te, se.span)?;
            Ok(Rc::new(s))
        }
    }
}

/// `with path.name params = te`
fn refine(
    items: &mut [SpecItem],
    path: &[Name],
    qn: &QualName,
    params: &[TypeParam],
    te: TypeExp,
    span: Span,
) -> Result<(), Diag> {
    if let Some((first, rest)) = path.split_first() {
        for it in items.iter_mut() {
            if let SpecItem::Mod { name, sig } = it {
                if name == first {
                    return refine(&mut sig.items, rest, qn, params, te, span);
                }
            }
        }
        return Err(Diag::new(span, format!("unknown type `{qn}` in the module type")));
    }
    for it in items.iter_mut() {
        if let SpecItem::Type {
            name, params: ps, def, ..
        } = it
        {
            if *name == qn.name {
                if def.is_some() {
                    return Err(Diag::new(
                        span,
                        format!("type `{qn}` is already defined in the module type"),
                    ));
                }
                if ps.len() != params.len() {
                    return Err(Diag::new(
                        span,
                        format!(
                            "expected {} parameter(s) for type `{qn}` in `with`, found {}",
                            ps.len(),
                            params.len()
                        ),
                    ));
                }
                // A refinement may not narrow the type: each parameter
                // stays of its kind and at least as lifted (`with t 'a`
                // for `type t '^a` would no longer take functions).
                for (sp, rp) in ps.iter().zip(params) {
                    let narrows = match (sp, rp) {
                        (TypeParam::Size { .. }, TypeParam::Size { .. }) => false,
                        (TypeParam::Type { liftedness: a, .. }, TypeParam::Type { liftedness: b, .. }) => b < a,
                        _ => true,
                    };
                    if narrows {
                        return Err(Diag::new(
                            span,
                            format!(
                                "Cannot refine a type `{qn}{}` with a type `{qn}{}`: parameter `{rp}` does not take what `{sp}` takes",
                                show_type_params(ps),
                                show_type_params(params)
                            ),
                        ));
                    }
                }
                *ps = params.to_vec();
                *def = Some(te);
                return Ok(());
            }
        }
    }
    Err(Diag::new(span, format!("unknown type `{qn}` in the module type")))
}

fn specs_into(
    el: &mut Elab<'_>,
    specs: &[Spec],
    env: &Env,
    levels: &mut Vec<Level>,
    items: &mut Vec<SpecItem>,
) -> Result<(), Diag> {
    for spec in specs {
        match spec {
            Spec::Type {
                name,
                params,
                def,
                span,
                liftedness,
                ..
            } => {
                super::no_duplicate_type_params(params)?;
                let def = match def {
                    Some(t) => Some(spec_type(t, env, levels, params)?),
                    None => None,
                };
                items.push(SpecItem::Type {
                    name: name.clone(),
                    params: params.clone(),
                    def,
                    span: *span,
                    liftedness: *liftedness,
                });
                if let Some(l) = levels.last_mut() {
                    l.types.push(name.clone());
                }
            }
            Spec::Val {
                name,
                type_params,
                ty,
                span,
                ..
            } => {
                let ty = spec_type(ty, env, levels, type_params)?;
                if let Some(l) = levels.last_mut() {
                    l.vals.push(name.clone());
                }
                items.push(SpecItem::Val {
                    name: name.clone(),
                    type_params: type_params.clone(),
                    ty,
                    span: *span,
                });
            }
            Spec::Module { name, sig, .. } => {
                let mut path = levels.last().map(|l| l.path.clone()).unwrap_or_default();
                path.push(name.clone());
                let inner = match &sig.kind {
                    SigExpKind::Specs(ss) => {
                        levels.push(Level {
                            path,
                            types: Vec::new(),
                            vals: Vec::new(),
                            mods: Vec::new(),
                        });
                        let mut v = Vec::new();
                        let r = specs_into(el, ss, env, levels, &mut v);
                        levels.pop();
                        r?;
                        v
                    }
                    _ => {
                        // `with` refinements are applied after rerooting:
                        // their types may name the types this signature
                        // declared before (`type int_t  module bits:
                        // integral with t = int_t`), which are local to
                        // this level, not to the module spec.
                        let mut refinements = Vec::new();
                        let mut base = sig;
                        while let SigExpKind::With(b, qn, params, te) = &base.kind {
                            refinements.push((qn, params, te, base.span));
                            base = b;
                        }
                        let s = resolve(el, base, env)?;
                        if s.functor.is_some() {
                            if let Some((_, _, _, span)) = refinements.first() {
                                return Err(Diag::new(*span, "`with` refines the module type of a structure only"));
                            }
                            // A parametric module spec: its types are
                            // resolved where the module type was written.
                            items.push(SpecItem::Mod {
                                name: name.clone(),
                                sig: (*s).clone(),
                            });
                            continue;
                        }
                        let mut v = s.items.clone();
                        reroot(&mut v, &path);
                        for (qn, params, te, span) in refinements.into_iter().rev() {
                            let te = spec_type(te, env, levels, params)?;
                            refine(&mut v, &qn.quals, qn, params, te, span)?;
                        }
                        v
                    }
                };
                if let Some(l) = levels.last_mut() {
                    l.mods.push((name.clone(), type_names(&inner)));
                }
                items.push(SpecItem::Mod {
                    name: name.clone(),
                    sig: Sig {
                        items: inner,
                        functor: None,
                    },
                });
            }
            Spec::Include(se, _) => {
                // As for a module spec, `with` refinements may name the
                // types this signature declared before (`type cell
                // include has_cell with cell = cell`): they are resolved
                // at this level, after rerooting.
                let mut refinements = Vec::new();
                let mut base = se;
                while let SigExpKind::With(b, qn, params, te) = &base.kind {
                    refinements.push((qn, params, te, base.span));
                    base = b;
                }
                let s = resolve(el, base, env)?;
                if s.functor.is_some() {
                    return Err(Diag::new(se.span, "expected the module type of a structure to include"));
                }
                let mut v = s.items.clone();
                let path = levels.last().map(|l| l.path.clone()).unwrap_or_default();
                reroot(&mut v, &path);
                for (qn, params, te, span) in refinements.into_iter().rev() {
                    let te = spec_type(te, env, levels, params)?;
                    refine(&mut v, &qn.quals, qn, params, te, span)?;
                }
                // A type declared again by an inclusion: Futhark warns.
                let before = type_names(items);
                for t in type_names(&v).iter().filter(|t| before.contains(t)) {
                    let shown = t.rsplit('.').next().unwrap_or(t);
                    crate::diag::warn(Diag::new(se.span, format!("Inclusion shadows type `{shown}`.")));
                }
                if let Some(l) = levels.last_mut() {
                    l.types.extend(type_names(&v));
                    for it in &v {
                        if let SpecItem::Mod { name, sig } = it {
                            l.mods.push((name.clone(), type_names(&sig.items)));
                        }
                    }
                }
                items.extend(v);
            }
        }
    }
    Ok(())
}

/// What matching has found so far: for each local type path (`t`,
/// `N.t`), the flat name of the module's type and of the type the view
/// shows.
#[derive(Default)]
struct MatchState {
    conc: FastMap<String, Name>,
    view: FastMap<String, Name>,
    items: Vec<SealItem>,
}

fn subst(te: &TypeExp, map: &FastMap<String, Name>) -> TypeExp {
    let mut te = te.clone();
    each_type_name(&mut te, &mut |qn| {
        if qn.quals.first().is_some_and(|q| &**q == SIG_LOCAL) {
            let mut key = String::new();
            for q in &qn.quals[1..] {
                key.push_str(q);
                key.push('.');
            }
            key.push_str(&qn.name);
            if let Some(f) = map.get(&key) {
                *qn = QualName::unqual(f.clone());
            }
        }
    });
    // See Note [Sizes naming a value spec].
    each_size_name(&mut te, &mut Vec::new(), &mut |qn, _| {
        if let Some(f) = local_val_key(qn).and_then(|k| map.get(&k)) {
            *qn = QualName::unqual(f.clone());
        }
    });
    te
}

/// The module `m` seen through `sig`: sealed (abstract types made opaque,
/// under names starting with `seal`) for an ascription, as it is for a
/// functor argument (`seal` is `None`). `mspan` is the module, `sspan`
/// the signature (or the functor parameter).
pub(super) fn matches(
    el: &mut Elab<'_>,
    m: &Env,
    sig: &Sig,
    seal: Option<&str>,
    mspan: Span,
    sspan: Span,
) -> Result<Rc<Env>, Diag> {
    let mut st = MatchState::default();
    let view = match_items(el, m, &sig.items, "", seal, &mut st, mspan, sspan)?;
    // The names are only shown in messages: those of a functor spec's
    // parameter or result are qualified by the spec's path.
    if let Some(spec) = el.spec_paths.last() {
        for item in &mut st.items {
            if let SealItem::TypeEq { name, .. } | SealItem::Val { name, .. } = item {
                *name = format!("{spec}{name}").into();
            }
        }
    }
    el.out.push(Dec::Seal(Seal { items: st.items }));
    Ok(Rc::new(view))
}

fn params_as_args(params: &[TypeParam]) -> Vec<TypeArgExp> {
    params
        .iter()
        .map(|p| match p {
            TypeParam::Size { name, span } => {
                TypeArgExp::Size(SizeExp::Name(QualName::unqual(name.clone()), *span), *span)
            }
            TypeParam::Type { name, span, .. } => TypeArgExp::Type(TypeExp {
                kind: TypeExpKind::Var(QualName::unqual(name.clone())),
                span: *span,
            }),
        })
        .collect()
}

fn type_app(flat: &Name, params: &[TypeParam], span: Span) -> TypeExp {
    let head = TypeExp {
        kind: TypeExpKind::Var(QualName::unqual(flat.clone())),
        span,
    };
    if params.is_empty() {
        head
    } else {
        TypeExp {
            kind: TypeExpKind::Apply(Box::new(head), params_as_args(params)),
            span,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn match_items(
    el: &mut Elab<'_>,
    m: &Env,
    items: &[SpecItem],
    path: &str,
    seal: Option<&str>,
    st: &mut MatchState,
    mspan: Span,
    sspan: Span,
) -> Result<Env, Diag> {
    let mut view = Env::default();
    for it in items {
        match it {
            SpecItem::Type {
                name,
                params,
                def,
                span,
                liftedness,
            } => {
                let Some(te) = m.types.get(name) else {
                    return Err(Diag::new(
                        mspan,
                        format!("the module is missing type `{path}{name}`, required by its module type"),
                    )
                    .note(*span, "specified here")
                    .note(sspan, "the module type"));
                };
                let kinds = |ps: &[TypeParam]| -> Vec<bool> {
                    ps.iter().map(|p| matches!(p, TypeParam::Size { .. })).collect()
                };
                if kinds(&te.params) != kinds(params) {
                    return Err(Diag::new(
                        te.span,
                        format!(
                            "Module defines type {path}{name}{}, but module type requires type {path}{name}{}",
                            show_type_params(&te.params),
                            show_type_params(params)
                        ),
                    )
                    .note(*span, "specified here")
                    .help(format!(
                        "the type does not match its specification: it has {} parameter(s), the specification {}",
                        te.params.len(),
                        params.len()
                    )));
                }
                // A type may implement a specification at least as
                // lifted as it is declared (`type` for `type^`, not the
                // other way round).
                if te.liftedness > *liftedness {
                    return Err(Diag::new(
                        te.span,
                        format!(
                            "Module defines type{} {path}{name}{}, but module type requires the {} type{} {path}{name}{}",
                            lift_mark(te.liftedness),
                            show_type_params(&te.params),
                            lift_adjective(*liftedness),
                            lift_mark(*liftedness),
                            show_type_params(params)
                        ),
                    )
                    .note(*span, "specified here")
                    .help(format!(
                        "a {} type cannot implement a {} one",
                        lift_adjective(te.liftedness),
                        lift_adjective(*liftedness)
                    )));
                }
                let key = format!("{path}{name}");
                let have = type_app(&te.flat, params, te.span);
                st.conc.insert(key.clone(), te.flat.clone());
                match def {
                    Some(d) => {
                        st.items.push(SealItem::TypeEq {
                            name: key.clone().into(),
                            params: params.clone(),
                            have,
                            want: subst(d, &st.conc),
                            have_span: te.span,
                            spec_span: *span,
                        });
                        st.view.insert(key, te.flat.clone());
                        view.types.insert(name.clone(), te.clone());
                    }
                    None => match seal {
                        Some(prefix) => {
                            let abs = el.flat_name(prefix, name, false);
                            st.items.push(SealItem::Abstract {
                                name: abs.clone(),
                                params: params.clone(),
                                def: have,
                                liftedness: *liftedness,
                            });
                            st.view.insert(key, abs.clone());
                            view.types.insert(
                                name.clone(),
                                TypeEnt {
                                    flat: abs,
                                    params: params.clone(),
                                    span: te.span,
                                    liftedness: *liftedness,
                                },
                            );
                        }
                        None => {
                            st.view.insert(key, te.flat.clone());
                            view.types.insert(name.clone(), te.clone());
                        }
                    },
                }
            }
            SpecItem::Val {
                name,
                type_params,
                ty,
                span,
            } => {
                let Some(v) = m.vals.get(name) else {
                    return Err(Diag::new(
                        mspan,
                        format!("the module is missing value `{path}{name}`, required by its module type"),
                    )
                    .note(*span, "specified here")
                    .note(sspan, "the module type"));
                };
                let concrete = subst(ty, &st.conc);
                let sealed = subst(ty, &st.view);
                // A built-in has no definition to rename: it keeps its
                // name where the signature hides nothing of its type (the
                // numeric modules, `module i32: integral with t = i32`).
                // The two types come from the same spec, so they print
                // alike exactly where they are the same.
                let keep = v.builtin && format!("{concrete:?}") == format!("{sealed:?}");
                let alias = seal.filter(|_| !keep).map(|p| el.flat_name(p, name, false));
                st.items.push(SealItem::Val {
                    name: format!("{path}{name}").into(),
                    target: v.flat.clone(),
                    alias: alias.clone(),
                    type_params: type_params.clone(),
                    concrete,
                    sealed,
                    have_span: v.span,
                    spec_span: *span,
                });
                // See Note [Sizes naming a value spec].
                let key = format!("{SIG_LOCAL_VAL}.{path}{name}");
                st.conc.insert(key.clone(), v.flat.clone());
                st.view.insert(key, alias.clone().unwrap_or_else(|| v.flat.clone()));
                view.vals.insert(
                    name.clone(),
                    ValEnt {
                        flat: alias.unwrap_or_else(|| v.flat.clone()),
                        span: v.span,
                        builtin: keep,
                    },
                );
            }
            SpecItem::Mod { name, sig } if sig.functor.is_some() => {
                let (Some(Module::Functor(f)), Some(fsig)) = (m.mods.get(name), &sig.functor) else {
                    return Err(Diag::new(
                        mspan,
                        format!("the module is missing parametric module `{path}{name}`, required by its module type"),
                    )
                    .note(sspan, "the module type"));
                };
                let f = f.clone();
                el.spec_paths.push(format!("{path}{name}."));
                let checked = el.check_functor_arg(&f, fsig, mspan, sspan, &format!("{path}{name}."), mspan.file);
                el.spec_paths.pop();
                checked?;
                // Sealing: the functor's applications are sealed with the
                // spec's result.
                let f = match seal {
                    Some(_) if fsig.params.len() == 1 => Rc::new(Functor {
                        params: f.params.clone(),
                        result: f.result.clone(),
                        body: f.body.clone(),
                        env: f.env.clone(),
                        assumed: f.assumed,
                        sealed: Some(fsig.clone()),
                    }),
                    _ => f,
                };
                view.mods.insert(name.clone(), Module::Functor(f));
            }
            SpecItem::Mod { name, sig } => {
                let Some(Module::Struct(sub)) = m.mods.get(name) else {
                    return Err(Diag::new(
                        mspan,
                        format!("the module is missing module `{path}{name}`, required by its module type"),
                    )
                    .note(sspan, "the module type"));
                };
                let sub = sub.clone();
                let inner_path = format!("{path}{name}.");
                let inner_seal = seal.map(|p| format!("{p}{name}."));
                let v = match_items(
                    el,
                    &sub,
                    &sig.items,
                    &inner_path,
                    inner_seal.as_deref(),
                    st,
                    mspan,
                    sspan,
                )?;
                view.mods.insert(name.clone(), Module::Struct(Rc::new(v)));
            }
        }
    }
    Ok(view)
}

/// A stand-in for a functor parameter of module type `sig` (a structure,
/// or a functor stand-in for a parametric module type).
pub(super) fn assume_module(el: &mut Elab<'_>, sig: &Sig, prefix: &str) -> Result<Module, Diag> {
    match &sig.functor {
        Some(f) => Ok(Module::Functor(f.clone())),
        None => Ok(Module::Struct(assume(el, sig, prefix)?)),
    }
}

/// A stand-in for a functor parameter of module type `sig`, named under
/// `prefix`: its abstract types are opaque types, the types the module
/// type defines are those definitions, and its values are assumed to
/// have their specs' types (Note [Sealing]).
pub(super) fn assume(el: &mut Elab<'_>, sig: &Sig, prefix: &str) -> Result<Rc<Env>, Diag> {
    let mut view = FastMap::default();
    Ok(Rc::new(assume_items(el, &sig.items, "", prefix, &mut view)))
}

fn assume_items(
    el: &mut Elab<'_>,
    items: &[SpecItem],
    path: &str,
    prefix: &str,
    map: &mut FastMap<String, Name>,
) -> Env {
    let mut env = Env::default();
    for it in items {
        match it {
            SpecItem::Type {
                name,
                params,
                def,
                span,
                liftedness,
            } => {
                let flat = el.flat_name(prefix, name, false);
                match def {
                    Some(d) => el.out.push(Dec::Type(TypeBind {
                        name: flat.clone(),
                        name_span: *span,
                        params: params.clone(),
                        liftedness: Liftedness::Lifted,
                        def: subst(d, map),
                        span: *span,
                    })),
                    None => el.out.push(Dec::Seal(Seal {
                        items: vec![SealItem::Abstract {
                            name: flat.clone(),
                            params: params.clone(),
                            def: TypeExp {
                                kind: TypeExpKind::Tuple(Vec::new()),
                                span: *span,
                            },
                            liftedness: *liftedness,
                        }],
                    })),
                }
                map.insert(format!("{path}{name}"), flat.clone());
                env.types.insert(
                    name.clone(),
                    TypeEnt {
                        flat,
                        params: params.clone(),
                        span: *span,
                        liftedness: *liftedness,
                    },
                );
            }
            SpecItem::Val {
                name,
                type_params,
                ty,
                span,
            } => {
                let flat = el.flat_name(prefix, name, false);
                el.out.push(Dec::Seal(Seal {
                    items: vec![SealItem::Assume {
                        name: flat.clone(),
                        type_params: type_params.clone(),
                        ty: subst(ty, map),
                    }],
                }));
                // See Note [Sizes naming a value spec].
                map.insert(format!("{SIG_LOCAL_VAL}.{path}{name}"), flat.clone());
                env.vals.insert(
                    name.clone(),
                    ValEnt {
                        flat,
                        span: *span,
                        builtin: false,
                    },
                );
            }
            SpecItem::Mod { name, sig } if sig.functor.is_some() => {
                if let Some(f) = &sig.functor {
                    env.mods.insert(name.clone(), Module::Functor(f.clone()));
                }
            }
            SpecItem::Mod { name, sig } => {
                let inner = assume_items(
                    el,
                    &sig.items,
                    &format!("{path}{name}."),
                    &format!("{prefix}{name}."),
                    map,
                );
                env.mods.insert(name.clone(), Module::Struct(Rc::new(inner)));
            }
        }
    }
    env
}

/// The mark after `type` for a liftedness (`~`, `^`).
fn lift_mark(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "",
        Liftedness::SizeLifted => "~",
        Liftedness::Lifted => "^",
    }
}

/// Futhark's word for a liftedness.
fn lift_adjective(l: Liftedness) -> &'static str {
    match l {
        Liftedness::Unlifted => "non-lifted",
        Liftedness::SizeLifted => "size-lifted",
        Liftedness::Lifted => "lifted",
    }
}
