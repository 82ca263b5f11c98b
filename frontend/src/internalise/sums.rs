//! Sum types: their representation, constructors, `match`, equality.
//!
//! **Note [Sum types].**
//! A value of a sum type is a tag and the payload components of every
//! constructor, as in Futhark ("How Futhark represents values at
//! runtime"): the tag is an `i8`, the index of the constructor among the
//! constructors sorted by name (`#none | #some i32`: `#none` is 0,
//! `#some` 1). The payload of each constructor is flattened into leaves
//! (Note [Flattened values]), and the leaves go into *slots* shared between
//! constructors: a leaf takes the first slot of its scalar type and rank
//! that the same constructor does not use yet. So `#a i32 | #b i32 | #c f32`
//! is `(i8, i32, f32)`: `#a` and `#b` share the `i32` slot. Sizes play no
//! part in the sharing (`#a [n]i32 | #b [m]i32` has one `[]i32` slot), so
//! that every occurrence of a sum type, whatever sizes it names, has the
//! same layout ([`SumLayout::of`]); a slot's sizes are those of the value
//! in it, and are not tracked statically (a function's parameter of a sum
//! type gets an unnamed size for each dimension of a slot).
//!
//! A slot the constructor does not use holds a *blank*: zero (`false` for
//! `bool`, tag 0 for a nested sum) and, for an array slot, an array of
//! zeros whose sizes are those of the first payload component assigned to
//! the slot in the type of the constructor expression, where they are
//! constants or sizes in scope, and 0 otherwise. Blanks are never read as
//! payloads: `match` tests the tag before it binds a payload, and equality
//! compares only the payload of the constructor the tags agree on.
//!
//! An array of sums is a tag array and one array per slot, all of one
//! outer size, like an array of tuples. Arrays must be regular, so an
//! array of sums whose elements hold payload arrays of different sizes in
//! one slot (or a payload array next to a blank of another size: `map`
//! giving `#a xs` for some rows and `#b` for others where the size of `xs`
//! is not known where `#b` is built) fails at run time with a size error,
//! where the reference interpreter, which boxes each element, does not.
//! Sums of scalars (and payload arrays of sizes the types name) have no
//! such problem.
//!
//! `match x case p1 -> e1 case p2 -> e2 ...` is a chain of `soac.if`s:
//! the condition of a case is the conjunction of the tag and literal
//! comparisons its pattern makes (none for a name or wildcard); the last
//! case needs no condition, as the checker made the `match` exhaustive.
//!
//! **Note [Sum types holding functions].**
//! A sum type with a function in a payload (`#apply (i32 -> i32) |
//! #const i32`) is lifted, so, like a function, none of its values comes
//! out of a branch, a loop or an array (the checker's liftedness rules):
//! every value of it is made by a constructor the internaliser sees. It
//! is a [`V::Known`] then, the constructor and the payload as values, and
//! `match` picks its case at compile time: a case whose constructor
//! differs is skipped, one whose constructor agrees has only the
//! payload's tests (literals, nested sums) at run time. A last case that
//! cannot match is dead code (the earlier tests cover every run): it
//! fails like a typed hole.

use std::rc::Rc;

use futmlir_dialects::ir::{Dim, Scalar, Value};

use super::values::{leaf_types, structure, Scope, FUNCTION_VALUES, V};
use super::{internal, unsupported, DResult, Internaliser};
use crate::span::Span;
use crate::syntax::ast::{Exp, Name, Pat, PatKind};
use crate::types::{Size, Type};

/// Whether `v` has a [`V::Known`] in it (outside functions).
fn has_known(v: &V) -> bool {
    match v {
        V::Known(..) => true,
        V::Tuple(vs) => vs.iter().any(has_known),
        V::Record(fs) => fs.iter().any(|(_, v)| has_known(v)),
        _ => false,
    }
}

/// How the values of one sum type are laid out (Note [Sum types]).
pub struct SumLayout {
    /// The constructors, sorted by name (a tag is an index), with their
    /// payload types.
    pub constrs: Vec<(Name, Vec<Type>)>,
    /// Each slot's scalar type and rank.
    pub slots: Vec<(Scalar, usize)>,
    /// The sizes of the first payload component assigned to each slot
    /// (for blanks).
    shapes: Vec<Vec<Size>>,
    /// For each constructor, the slot of each leaf of its payload.
    pub uses: Vec<Vec<usize>>,
}

impl SumLayout {
    /// The layout of the sum type with constructors `cs` (sorted by name,
    /// as `Type::Sum` keeps them); `Err` names what cannot be flattened.
    pub fn of(cs: &[(Name, Vec<Type>)]) -> Result<SumLayout, &'static str> {
        if cs.len() > 256 {
            return Err("sum types with more than 256 constructors");
        }
        let mut l = SumLayout {
            constrs: cs.to_vec(),
            slots: Vec::new(),
            shapes: Vec::new(),
            uses: Vec::new(),
        };
        for (_, ts) in cs {
            let mut mine: Vec<usize> = Vec::new();
            for t in ts {
                for lt in leaf_types(t)? {
                    let key = (lt.scalar, lt.shape.len());
                    let free = (0..l.slots.len()).find(|j| l.slots[*j] == key && !mine.contains(j));
                    let j = match free {
                        Some(j) => j,
                        None => {
                            l.slots.push(key);
                            l.shapes.push(lt.shape);
                            l.slots.len() - 1
                        }
                    };
                    mine.push(j);
                }
            }
            l.uses.push(mine);
        }
        Ok(l)
    }

    /// The tag of constructor `c`.
    pub fn tag(&self, c: &str) -> Option<usize> {
        self.constrs.iter().position(|(n, _)| &**n == c)
    }

    /// The payload of constructor `i` from the slots of a value (the
    /// leaves after the tag).
    fn payload<'a>(&self, i: usize, slots: &[Value]) -> Option<Vec<V<'a>>> {
        let leaves: Vec<Value> = self
            .uses
            .get(i)?
            .iter()
            .map(|&j| slots.get(j).copied())
            .collect::<Option<_>>()?;
        let mut it = leaves.into_iter();
        Some(self.constrs[i].1.iter().map(|t| structure(t, &mut it)).collect())
    }
}

impl<'a, 'c> Internaliser<'a, 'c> {
    /// `#c e1 e2 ...` of sum type `t`: the tag, the payload in its slots,
    /// blanks in the others.
    pub fn constr(&mut self, sc: &Scope<'a>, c: &Name, args: &'a [Exp], t: &Type, span: Span) -> DResult<V<'a>> {
        let Type::Sum(cs) = t else {
            return Err(internal(span, "a constructor whose type is not a sum type"));
        };
        let layout = match SumLayout::of(cs) {
            Ok(l) => l,
            Err(FUNCTION_VALUES) => {
                let mut payload = Vec::new();
                for a in args {
                    payload.push(self.exp(sc, a)?);
                }
                return Ok(V::Known(c.clone(), payload));
            }
            Err(w) => return Err(unsupported(span, &format!("sum types holding {w}"))),
        };
        let i = layout
            .tag(c)
            .ok_or_else(|| internal(span, &format!("a constructor `#{c}` its type does not have")))?;
        let mut leaves = Vec::new();
        for a in args {
            let v = self.exp(sc, a)?;
            leaves.extend(
                v.leaves()
                    .ok_or_else(|| unsupported(a.span, "sum types holding functions"))?,
            );
        }
        if leaves.len() != layout.uses[i].len() {
            return Err(internal(span, "a payload that does not have the constructor's type"));
        }
        let mut slots: Vec<Option<Value>> = vec![None; layout.slots.len()];
        for (l, &j) in leaves.into_iter().zip(&layout.uses[i]) {
            slots[j] = Some(l);
        }
        let mut out = vec![self.const_int(i as i64, Scalar::I8)];
        for (j, s) in slots.into_iter().enumerate() {
            out.push(match s {
                Some(v) => v,
                None => {
                    let dims = self.dims_of_sizes(sc, &layout.shapes[j]);
                    self.zeros(layout.slots[j].0, dims)?
                }
            });
        }
        Ok(V::Sum(Rc::new(layout), out))
    }

    /// `match x case ...` (Note [Sum types]).
    pub fn match_(&mut self, sc: &Scope<'a>, x: &'a Exp, cases: &'a [(Pat, Exp)], span: Span) -> DResult<V<'a>> {
        let v = self.exp(sc, x)?;
        self.cases(sc, &v, cases, span)
    }

    fn cases(&mut self, sc: &Scope<'a>, v: &V<'a>, cases: &'a [(Pat, Exp)], span: Span) -> DResult<V<'a>> {
        let Some(((p, body), rest)) = cases.split_first() else {
            return Err(internal(span, "a `match` without cases"));
        };
        // The last case needs no test, unless a static value may not fit it.
        let conds = if rest.is_empty() && !has_known(v) {
            Some(Vec::new())
        } else {
            self.pat_conds(sc, p, v)?
        };
        let conds = match conds {
            Some(c) if rest.is_empty() => {
                // The run-time tests of a last case always hold.
                drop(c);
                Vec::new()
            }
            Some(c) => c,
            None if rest.is_empty() => return self.dead_case(sc, body),
            None => return self.cases(sc, v, rest, span),
        };
        match self.and_all(conds) {
            None => {
                let sc2 = self.bind_pat(sc, p, v.clone())?;
                self.exp(&sc2, body)
            }
            Some(c) => self.if_(
                c,
                |s| {
                    let sc2 = s.bind_pat(sc, p, v.clone())?;
                    s.exp(&sc2, body)
                },
                |s| s.cases(sc, v, rest, span),
                span,
            ),
        }
    }

    /// A case that cannot match (Note [Sum types holding functions]): a
    /// run-time error, and zeros of the case's type.
    fn dead_case(&mut self, sc: &Scope<'a>, body: &'a Exp) -> DResult<V<'a>> {
        self.failing_value(
            sc,
            body,
            "internal error: a `match` of a known constructor had no case for it",
        )
    }

    /// The tests a value must pass to match a pattern (each a `bool`);
    /// `None` when it cannot match (a known constructor that differs).
    fn pat_conds(&mut self, sc: &Scope<'a>, p: &Pat, v: &V<'a>) -> DResult<Option<Vec<Value>>> {
        match &p.kind {
            PatKind::Id(_) | PatKind::Wildcard => Ok(Some(Vec::new())),
            PatKind::Ascribe(q, _) => self.pat_conds(sc, q, v),
            PatKind::Tuple(ps) if ps.len() == 1 => self.pat_conds(sc, &ps[0], v),
            PatKind::Tuple(ps) => match v {
                V::Tuple(vs) if vs.len() == ps.len() => self.all_conds(sc, ps.iter().zip(vs)),
                _ => Err(internal(p.span, "a tuple pattern for a value that is not a tuple")),
            },
            PatKind::Record(fs) => {
                let mut xs = Vec::new();
                for (n, s, _) in fs {
                    xs.push(super::exp::project(v, n, *s)?);
                }
                self.all_conds(sc, fs.iter().map(|(_, _, q)| q).zip(&xs))
            }
            PatKind::Lit { lit, negated } => {
                let x = v
                    .as_leaf()
                    .ok_or_else(|| internal(p.span, "a literal pattern for a value that is not a scalar"))?;
                let t =
                    p.ty.as_ref()
                        .map(|t| super::values::subst_type(t, &sc.ts))
                        .ok_or_else(|| internal(p.span, "a pattern without a type"))?;
                let k = self
                    .literal(lit, &t, *negated, p.span)?
                    .as_leaf()
                    .ok_or_else(|| internal(p.span, "a literal that is not a scalar"))?;
                Ok(Some(vec![self.cmpop("eq", x, k)]))
            }
            PatKind::Constr(c, ps) => {
                if let V::Known(k, payload) = v {
                    if k != c {
                        return Ok(None);
                    }
                    return self.all_conds(sc, ps.iter().zip(payload));
                }
                let V::Sum(l, ls) = v else {
                    return Err(internal(p.span, "a constructor pattern for a value that is not a sum"));
                };
                let i = l
                    .tag(c)
                    .ok_or_else(|| internal(p.span, &format!("a constructor `#{c}` the type does not have")))?;
                let want = self.const_int(i as i64, Scalar::I8);
                let mut out = vec![self.cmpop("eq", ls[0], want)];
                let payload = l
                    .payload(i, &ls[1..])
                    .ok_or_else(|| internal(p.span, "a sum value that does not fit its layout"))?;
                Ok(self.all_conds(sc, ps.iter().zip(&payload))?.map(|more| {
                    out.extend(more);
                    out
                }))
            }
        }
    }

    /// The tests of several patterns against their values, all together.
    fn all_conds<'p>(
        &mut self,
        sc: &Scope<'a>,
        pairs: impl Iterator<Item = (&'p Pat, &'p V<'a>)>,
    ) -> DResult<Option<Vec<Value>>>
    where
        'a: 'p,
    {
        let mut out = Vec::new();
        for (q, x) in pairs {
            match self.pat_conds(sc, q, x)? {
                Some(c) => out.extend(c),
                None => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// Bind the payload of a constructor pattern (the tag was tested).
    pub fn bind_constr(&mut self, sc: &Scope<'a>, p: &Pat, ps: &[Pat], c: &str, v: V<'a>) -> DResult<Scope<'a>> {
        let payload = match v {
            V::Known(k, payload) if &*k == c => payload,
            V::Known(..) => return Err(internal(p.span, "a constructor pattern for another known constructor")),
            V::Sum(l, ls) => l
                .tag(c)
                .and_then(|i| l.payload(i, &ls[1..]))
                .ok_or_else(|| internal(p.span, "a sum value that does not fit its layout"))?,
            _ => return Err(internal(p.span, "a constructor pattern for a value that is not a sum")),
        };
        let mut sc = sc.clone();
        for (q, x) in ps.iter().zip(payload) {
            sc = self.bind_pat(&sc, q, x)?;
        }
        Ok(sc)
    }

    /// Equality of two sum values (not arrays of them): the same tag, and
    /// equal payloads of the constructor the tag names (blanks are not
    /// compared).
    pub fn sum_equal(&mut self, l: &SumLayout, a: &[Value], b: &[Value], span: Span) -> DResult<Value> {
        let mut conds = vec![self.cmpop("eq", a[0], b[0])];
        for i in 0..l.constrs.len() {
            if l.uses[i].is_empty() {
                continue;
            }
            let (Some(pa), Some(pb)) = (l.payload(i, &a[1..]), l.payload(i, &b[1..])) else {
                return Err(internal(span, "a sum value that does not fit its layout"));
            };
            let mut eqs = Vec::new();
            for (x, y) in pa.iter().zip(&pb) {
                eqs.push(self.equal(x, y, span)?);
            }
            let Some(same) = self.and_all(eqs) else { continue };
            let tag = self.const_int(i as i64, Scalar::I8);
            let is_i = self.cmpop("eq", a[0], tag);
            let other = self.unop("not", is_i);
            conds.push(self.binop("or", other, same));
        }
        Ok(self.and_all(conds).expect("the tag comparison is there"))
    }

    /// The dimensions sizes in a type stand for here: constants, sizes in
    /// scope, and 0 for the others.
    pub fn dims_of_sizes(&mut self, sc: &Scope<'a>, shape: &[Size]) -> Vec<Dim> {
        shape
            .iter()
            .map(|s| match self.size_dim(sc, s) {
                Some(Dim::Unknown) | None => Dim::Const(0),
                Some(d) => d,
            })
            .collect()
    }

    /// An array of zeros of the given dimensions (a scalar zero without).
    pub fn zeros(&mut self, s: Scalar, dims: Vec<Dim>) -> DResult<Value> {
        let mut x = self.zero(s);
        for d in dims.into_iter().rev() {
            let nv = self.dim_value(d)?;
            let xt = self.ctx.value_type(x);
            let mut ds = vec![d];
            ds.extend(self.dims(x));
            let rt = self.with_dims(xt, ds);
            x = self.op1("soac.replicate", &[nv, x], rt, &[]);
        }
        Ok(x)
    }
}
