//! Pattern matching, checked once a definition's types are known:
//! exhaustiveness and redundancy of `match`, irrefutability of every other
//! pattern, and the range of literal patterns.
//!
//! Note [Pattern matching]: a pattern is reduced to a tree of
//! constructors ([`Deconstructed`]): the one constructor of a tuple or
//! record (its fields in the type's order), a constructor of a sum type,
//! `true`/`false`, or a numeric literal; names, wildcards and type
//! annotations match everything. The constructors of a bool, tuple,
//! record or sum type can be listed; numbers (and arrays, functions, type
//! parameters) have too many to list, so only a wildcard covers them.
//!
//! The algorithm is the usefulness check of Maranget ("Warnings for
//! pattern matching", JFP 2007): a row of patterns is *useful* against a
//! matrix of rows when some value matches it and no row of the matrix.
//! A case of a `match` is redundant when it is not useful against the
//! cases before it; a `match` is exhaustive when a wildcard is not useful
//! against all its cases. The exhaustiveness search builds the value that
//! is not matched (a *witness*), which the error shows: "unmatched case
//! `#some (#b _)`".
//!
//! Futhark allows constructor patterns outside `match` (`let (#only x) =
//! v`) when they cannot fail, that is, when the type has that constructor
//! only; a pattern that can fail anywhere but in a `match` case is an
//! error, with the value it does not match.

use crate::diag::Diag;
use crate::span::Span;
use crate::syntax::ast::{Exp, ExpKind, Literal, LoopForm, Name, Pat, PatKind, TypeParam, ValBind};
use crate::syntax::visit;
use crate::types::{PrimType, Type};

/// A constructor of a type, as far as matching is concerned.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Con {
    /// The only constructor of a tuple or record type.
    Product,
    /// A constructor of a sum type: its index among the sorted
    /// constructors.
    Variant(usize),
    Bool(bool),
    /// An integer literal, wrapped to the width of its type.
    Int(i128),
    /// A floating-point literal (its `f64` bits, `-0.0` as `0.0`).
    Float(u64),
}

/// A pattern reduced to what matching depends on.
#[derive(Clone, Debug)]
enum Deconstructed {
    Wild,
    Con(Con, Vec<Deconstructed>),
}

use Deconstructed::{Con as DCon, Wild};

/// The constructors of `t`, if they can be listed.
fn constructors(t: &Type) -> Option<Vec<Con>> {
    match t {
        Type::Tuple(_) | Type::Record(_) => Some(vec![Con::Product]),
        Type::Sum(cs) => Some((0..cs.len()).map(Con::Variant).collect()),
        Type::Prim(PrimType::Bool) => Some(vec![Con::Bool(false), Con::Bool(true)]),
        _ => None,
    }
}

/// The types of the fields of constructor `c` of `t`.
fn fields(t: &Type, c: Con) -> Vec<Type> {
    match (t, c) {
        (Type::Tuple(ts), Con::Product) => ts.clone(),
        (Type::Record(fs), Con::Product) => fs.iter().map(|(_, t)| t.clone()).collect(),
        (Type::Sum(cs), Con::Variant(i)) => cs.get(i).map(|(_, ts)| ts.clone()).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The value of a literal pattern as a constructor of type `t`.
fn literal(lit: &Literal, negated: bool, t: &Type) -> Option<Con> {
    let p = t.prim()?;
    let sign = if negated { -1 } else { 1 };
    match lit {
        Literal::Bool(b) => Some(Con::Bool(*b)),
        Literal::Int { value, .. } if p.is_float() => Some(float(sign as f64 * *value as f64)),
        Literal::Float { value, .. } => Some(float(sign as f64 * *value)),
        Literal::Int { value, .. } => {
            let v = i128::try_from(*value).ok()? * sign;
            let m = 1i128 << p.bits();
            let mut w = v.rem_euclid(m);
            if p.is_signed() && w >= m / 2 {
                w -= m;
            }
            Some(Con::Int(w))
        }
        Literal::String(_) => None,
    }
}

fn float(x: f64) -> Con {
    Con::Float(if x == 0.0 { 0 } else { x.to_bits() })
}

/// A pattern of type `t` as a constructor tree.
fn deconstruct(p: &Pat, t: &Type) -> Deconstructed {
    match (&p.kind, t) {
        (PatKind::Id(_) | PatKind::Wildcard, _) => Wild,
        (PatKind::Ascribe(q, _), _) => deconstruct(q, t),
        (PatKind::Tuple(ps), _) if ps.len() == 1 => deconstruct(&ps[0], t),
        (PatKind::Tuple(ps), Type::Tuple(ts)) if ps.len() == ts.len() => DCon(
            Con::Product,
            ps.iter().zip(ts).map(|(q, t)| deconstruct(q, t)).collect(),
        ),
        (PatKind::Record(fs), Type::Record(tfs)) => DCon(
            Con::Product,
            tfs.iter()
                .map(|(n, ft)| match fs.iter().find(|(m, _, _)| m == n) {
                    Some((_, _, q)) => deconstruct(q, ft),
                    None => Wild,
                })
                .collect(),
        ),
        (PatKind::Record(fs), Type::Tuple(ts)) => DCon(
            Con::Product,
            ts.iter()
                .enumerate()
                .map(|(i, ft)| match fs.iter().find(|(m, _, _)| **m == *i.to_string()) {
                    Some((_, _, q)) => deconstruct(q, ft),
                    None => Wild,
                })
                .collect(),
        ),
        (PatKind::Lit { lit, negated }, _) => match literal(lit, *negated, t) {
            Some(c) => DCon(c, Vec::new()),
            None => Wild,
        },
        (PatKind::Constr(c, ps), Type::Sum(cs)) => match cs.iter().position(|(n, _)| n == c) {
            Some(i) => DCon(
                Con::Variant(i),
                ps.iter().zip(&cs[i].1).map(|(q, t)| deconstruct(q, t)).collect(),
            ),
            None => Wild,
        },
        // The checker gave the pattern this type: nothing else occurs.
        _ => Wild,
    }
}

type Row = Vec<Deconstructed>;

/// The rows whose first pattern matches constructor `c` (of `arity`
/// fields), with that pattern replaced by its fields.
fn specialise(rows: &[Row], c: Con, arity: usize) -> Vec<Row> {
    rows.iter()
        .filter_map(|r| {
            let (head, rest) = r.split_first()?;
            let mut out = match head {
                Wild => vec![Wild; arity],
                DCon(d, args) if *d == c => args.clone(),
                DCon(..) => return None,
            };
            out.extend(rest.iter().cloned());
            Some(out)
        })
        .collect()
}

/// The rows whose first pattern is a wildcard, without it.
fn default_rows(rows: &[Row]) -> Vec<Row> {
    rows.iter()
        .filter_map(|r| match r.split_first() {
            Some((Wild, rest)) => Some(rest.to_vec()),
            _ => None,
        })
        .collect()
}

/// The constructors in the first column of `rows`, in order of appearance.
fn heads(rows: &[Row]) -> Vec<Con> {
    let mut out = Vec::new();
    for r in rows {
        if let Some(DCon(c, _)) = r.first() {
            if !out.contains(c) {
                out.push(*c);
            }
        }
    }
    out
}

/// All constructors of `t` when `hs` has every one of them.
fn complete(t: &Type, hs: &[Con]) -> Option<Vec<Con>> {
    let all = constructors(t)?;
    all.iter().all(|c| hs.contains(c)).then_some(all)
}

/// Whether some value of types `tys` matches `q` but none of `rows`.
fn useful(rows: &[Row], q: &[Deconstructed], tys: &[Type]) -> bool {
    let (Some((q0, qs)), Some((t0, ts))) = (q.split_first(), tys.split_first()) else {
        return rows.is_empty();
    };
    let with_fields = |c: Con, args: Vec<Deconstructed>| {
        let fs = fields(t0, c);
        let mut q2 = args;
        q2.extend(qs.iter().cloned());
        let mut t2 = fs;
        t2.extend(ts.iter().cloned());
        (q2, t2)
    };
    match q0 {
        DCon(c, args) => {
            let (q2, t2) = with_fields(*c, args.clone());
            useful(&specialise(rows, *c, args.len()), &q2, &t2)
        }
        Wild => match complete(t0, &heads(rows)) {
            Some(all) => all.into_iter().any(|c| {
                let n = fields(t0, c).len();
                let (q2, t2) = with_fields(c, vec![Wild; n]);
                useful(&specialise(rows, c, n), &q2, &t2)
            }),
            None => useful(&default_rows(rows), qs, ts),
        },
    }
}

/// A value of types `tys` that no row matches (a witness), if there is
/// one.
fn missing(rows: &[Row], tys: &[Type]) -> Option<Row> {
    let Some((t0, ts)) = tys.split_first() else {
        return rows.is_empty().then(Vec::new);
    };
    let hs = heads(rows);
    if let Some(all) = complete(t0, &hs) {
        for c in all {
            let fs = fields(t0, c);
            let n = fs.len();
            let mut t2 = fs;
            t2.extend(ts.iter().cloned());
            if let Some(mut w) = missing(&specialise(rows, c, n), &t2) {
                let rest = w.split_off(n);
                let mut out = vec![DCon(c, w)];
                out.extend(rest);
                return Some(out);
            }
        }
        return None;
    }
    let rest = missing(&default_rows(rows), ts)?;
    let head = if hs.is_empty() {
        Wild
    } else {
        match constructors(t0) {
            // A constructor no row mentions.
            Some(all) => match all.into_iter().find(|c| !hs.contains(c)) {
                Some(c) => DCon(c, vec![Wild; fields(t0, c).len()]),
                None => Wild,
            },
            // A number no row mentions.
            None => {
                let is_float = t0.prim().is_some_and(PrimType::is_float);
                (0..=hs.len() as i128)
                    .map(|k| if is_float { float(k as f64) } else { Con::Int(k) })
                    .find(|c| !hs.contains(c))
                    .map_or(Wild, |c| DCon(c, Vec::new()))
            }
        }
    };
    let mut out = vec![head];
    out.extend(rest);
    Some(out)
}

/// A witness of type `t` as source text: `#some (#b _)`, `(0, _)`,
/// `{x = true, y = _}`.
fn show(w: &Deconstructed, t: &Type, nested: bool) -> String {
    let DCon(c, args) = w else {
        return "_".into();
    };
    match (c, t) {
        (Con::Bool(b), _) => b.to_string(),
        (Con::Int(i), _) => i.to_string(),
        (Con::Float(bits), _) => format!("{:?}", f64::from_bits(*bits)),
        (Con::Product, Type::Tuple(ts)) => {
            let parts: Vec<String> = args.iter().zip(ts).map(|(a, t)| show(a, t, false)).collect();
            format!("({})", parts.join(", "))
        }
        (Con::Product, Type::Record(fs)) => {
            let parts: Vec<String> = args
                .iter()
                .zip(fs)
                .map(|(a, (n, t))| format!("{n} = {}", show(a, t, false)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        (Con::Variant(i), Type::Sum(cs)) => {
            let Some((n, ts)) = cs.get(*i) else { return "_".into() };
            let mut s = format!("#{n}");
            for (a, t) in args.iter().zip(ts) {
                s.push(' ');
                s.push_str(&show(a, t, true));
            }
            if nested && !args.is_empty() {
                format!("({s})")
            } else {
                s
            }
        }
        _ => "_".into(),
    }
}

/// Whether a pattern can fail on a value of its type at all (it has a
/// literal or a constructor somewhere).
fn has_refutable_part(p: &Pat) -> bool {
    match &p.kind {
        PatKind::Id(_) | PatKind::Wildcard => false,
        PatKind::Lit { .. } | PatKind::Constr(..) => true,
        PatKind::Ascribe(q, _) => has_refutable_part(q),
        PatKind::Tuple(ps) => ps.iter().any(has_refutable_part),
        PatKind::Record(fs) => fs.iter().any(|(_, _, q)| has_refutable_part(q)),
    }
}

/// Literal patterns must fit their type (as literal expressions do:
/// suffixed ones wrap).
fn check_literals(p: &Pat) -> Result<(), Diag> {
    match &p.kind {
        PatKind::Lit {
            lit: Literal::Int { value, suffix: None },
            negated,
        } => match &p.ty {
            Some(Type::Prim(t)) => super::zonk::check_int_literal(*value, *t, *negated, p.span),
            _ => Ok(()),
        },
        PatKind::Id(_) | PatKind::Wildcard | PatKind::Lit { .. } => Ok(()),
        PatKind::Ascribe(q, _) => check_literals(q),
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().try_for_each(check_literals),
        PatKind::Record(fs) => fs.iter().try_for_each(|(_, _, q)| check_literals(q)),
    }
}

/// A pattern outside `match` must match every value of its type.
fn irrefutable(p: &Pat) -> Result<(), Diag> {
    check_literals(p)?;
    if !has_refutable_part(p) {
        return Ok(());
    }
    let Some(t) = &p.ty else { return Ok(()) };
    let rows = vec![vec![deconstruct(p, t)]];
    match missing(&rows, std::slice::from_ref(t)) {
        Some(w) => Err(Diag::new(
            p.span,
            format!(
                "Refutable pattern not allowed here: it does not match `{}`",
                show(&w[0], t, false)
            ),
        )
        .help("only the cases of `match` may fail to match; match on the value instead")),
        None => Ok(()),
    }
}

/// Exhaustiveness and redundancy of `match x case p1 -> ... case pn -> ...`.
fn check_match(x: &Exp, cases: &[(Pat, Exp)], span: Span) -> Result<(), Diag> {
    let Some(t) = &x.ty else { return Ok(()) };
    let tys = std::slice::from_ref(t);
    let mut rows: Vec<Row> = Vec::new();
    for (p, _) in cases {
        check_literals(p)?;
        let row = vec![deconstruct(p, t)];
        if !useful(&rows, &row, tys) {
            // The first case from which on the earlier ones cover it.
            let j = (0..rows.len()).find(|&j| !useful(&rows[..=j], &row, tys)).unwrap_or(0);
            let alone = !useful(&rows[j..=j], &row, tys);
            let note = if alone {
                "this earlier case matches every value it matches"
            } else {
                "this earlier case, with the ones before it, matches every value it matches"
            };
            return Err(Diag::new(
                p.span,
                "this case is unreachable: earlier cases match every value it matches",
            )
            .note(cases[j].0.span, note));
        }
        rows.push(row);
    }
    if let Some(w) = missing(&rows, tys) {
        return Err(Diag::new(
            span,
            format!("Unmatched cases in match expression: `{}`", show(&w[0], t, false)),
        )
        .help("add a case for it, or a last case `case _ -> ...`"));
    }
    Ok(())
}

/// The names a pattern binds, with where.
fn pat_names<'p>(p: &'p Pat, out: &mut Vec<(&'p Name, Span)>) {
    match &p.kind {
        PatKind::Id(n) => out.push((n, p.span)),
        PatKind::Wildcard | PatKind::Lit { .. } => {}
        PatKind::Ascribe(q, _) => pat_names(q, out),
        PatKind::Tuple(ps) | PatKind::Constr(_, ps) => ps.iter().for_each(|q| pat_names(q, out)),
        PatKind::Record(fs) => fs.iter().for_each(|(_, _, q)| pat_names(q, out)),
    }
}

/// No name is bound twice by one binding construct (the parameters of a
/// function with its size parameters, or one pattern): Futhark rejects
/// `def f (x: i32) (x: i32)` and `let (y, y) = ...` rather than letting
/// the later one shadow.
fn distinct(names: &[(&Name, Span)], what: &str) -> Result<(), Diag> {
    // A name the checker gave a binder stands for the one written (Note
    // [Shadowed size names]).
    let source = super::shadow::source_name;
    for (i, (n, s)) in names.iter().enumerate() {
        let n = source(n);
        if let Some((_, first)) = names[..i].iter().find(|(m, _)| source(m) == n) {
            return Err(
                Diag::new(*s, format!("{what} \"{n}\" also bound earlier in the same binding"))
                    .note(*first, "first bound here"),
            );
        }
    }
    Ok(())
}

/// Type parameters of a definition are distinct.
pub fn distinct_type_params(tps: &[TypeParam], what: &str) -> Result<(), Diag> {
    let names: Vec<(&Name, Span)> = tps
        .iter()
        .filter_map(|tp| match tp {
            TypeParam::Type { name, span, .. } => Some((name, *span)),
            TypeParam::Size { .. } => None,
        })
        .collect();
    distinct(&names, what)
}

/// Check the patterns of a checked definition (types resolved).
pub fn check_valbind(vb: &ValBind) -> Result<(), Diag> {
    let mut names: Vec<(&Name, Span)> = vb
        .type_params
        .iter()
        .filter_map(|tp| match tp {
            TypeParam::Size { name, span } => Some((name, *span)),
            TypeParam::Type { .. } => None,
        })
        .collect();
    for p in &vb.params {
        pat_names(p, &mut names);
    }
    distinct(&names, "Variable")?;
    distinct_type_params(&vb.type_params, "Type parameter")?;
    for p in &vb.params {
        irrefutable(p)?;
    }
    let mut stack = vec![&vb.body];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExpKind::Let { pat, .. } => {
                let mut names = Vec::new();
                pat_names(pat, &mut names);
                distinct(&names, "Variable")?;
                irrefutable(pat)?
            }
            ExpKind::LetFun {
                params, type_params, ..
            } => {
                let mut names = Vec::new();
                params.iter().for_each(|p| pat_names(p, &mut names));
                distinct(&names, "Variable")?;
                distinct_type_params(type_params, "Type parameter")?;
                params.iter().try_for_each(irrefutable)?
            }
            ExpKind::Lambda { params, .. } => {
                let mut names = Vec::new();
                params.iter().for_each(|p| pat_names(p, &mut names));
                distinct(&names, "Variable")?;
                params.iter().try_for_each(irrefutable)?
            }
            ExpKind::Loop { pat, form, .. } => {
                let mut names = Vec::new();
                pat_names(pat, &mut names);
                distinct(&names, "Variable")?;
                irrefutable(pat)?;
                if let LoopForm::ForIn(p, _) = &**form {
                    irrefutable(p)?;
                }
            }
            ExpKind::Match(x, cases) => check_match(x, cases, e.span)?,
            _ => {}
        }
        // The children go on the stack in reverse, so they are visited in
        // source order.
        let first = stack.len();
        visit::children(e, &mut |c| stack.push(c));
        stack[first..].reverse();
    }
    Ok(())
}
