//! How source values are represented during internalisation.
//!
//! **Note [Flattened values].**
//! A source value becomes a tree [`V`] whose leaves are IR values:
//! scalars are single leaves; tuples and records are nodes (records keep
//! their fields sorted by name, the order of `Type::Record`); an array of
//! tuples or records is the same node with one array leaf per component,
//! all with the same outer sizes (thesis Figure 15). So `[n](i32, [m]f32)`
//! is `Tuple[Leaf([n]i32), Leaf([n][m]f32)]`, and `zip`/`unzip` are
//! no-ops. Functions are static: a [`V::Fun`] is a closure the internaliser
//! applies (inlines) at its call sites, so the IR is first-order.
//!
//! A value of a sum type is a [`V::Sum`]: an `i8` tag leaf and one leaf
//! per slot of its layout (Note [Sum types] in `sums`); an array of sums is
//! the same node with a tag array and slot arrays. A value of a sum type
//! that holds functions is a [`V::Known`]: static, like a function.
//!
//! Every array leaf has a type whose sizes are all known (SSA values or
//! constants): where an op gives an existential size `?` (filter, calls,
//! branches of different sizes) the internaliser names it right away with
//! `soac.size` and a reshape to the named size.

use std::collections::HashMap;
use std::rc::Rc;

use futmlir_dialects::ir::{Scalar, Value};

use super::sums::SumLayout;
use crate::syntax::ast::{Exp, GlobalId, Name, Pat, PatKind};
use crate::types::{PrimType, Size, Type};

/// An internalised value (Note [Flattened values]).
#[derive(Clone)]
pub enum V<'a> {
    Leaf(Value),
    Tuple(Vec<V<'a>>),
    Record(Vec<(Name, V<'a>)>),
    /// A value of a sum type: the tag, then the slots of the layout.
    Sum(Rc<SumLayout>, Vec<Value>),
    Fun(Rc<FunV<'a>>),
    /// A value of a sum type that holds functions (a lifted one): its
    /// constructor, known statically like a function, and its payload
    /// (Note [Sum types holding functions] in `sums`).
    Known(Name, Vec<V<'a>>),
}

impl<'a> V<'a> {
    pub fn unit() -> V<'a> {
        V::Tuple(Vec::new())
    }

    /// The IR values of the leaves, in order; `None` if a function occurs.
    pub fn leaves(&self) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        self.collect(&mut out).then_some(out)
    }

    fn collect(&self, out: &mut Vec<Value>) -> bool {
        match self {
            V::Leaf(v) => {
                out.push(*v);
                true
            }
            V::Tuple(vs) => vs.iter().all(|v| v.collect(out)),
            V::Record(fs) => fs.iter().all(|(_, v)| v.collect(out)),
            V::Sum(_, ls) => {
                out.extend_from_slice(ls);
                true
            }
            V::Fun(_) | V::Known(..) => false,
        }
    }

    /// The same tree with its leaves replaced, in order, by `new`.
    pub fn rebuild(&self, new: &mut impl Iterator<Item = Value>) -> V<'a> {
        match self {
            V::Leaf(_) => V::Leaf(new.next().expect("rebuild: as many values as leaves")),
            V::Tuple(vs) => V::Tuple(vs.iter().map(|v| v.rebuild(new)).collect()),
            V::Record(fs) => V::Record(fs.iter().map(|(n, v)| (n.clone(), v.rebuild(new))).collect()),
            V::Sum(l, ls) => V::Sum(
                l.clone(),
                ls.iter()
                    .map(|_| new.next().expect("rebuild: as many values as leaves"))
                    .collect(),
            ),
            V::Fun(_) | V::Known(..) => self.clone(),
        }
    }

    pub fn with_leaves(&self, new: Vec<Value>) -> V<'a> {
        self.rebuild(&mut new.into_iter())
    }

    pub fn as_leaf(&self) -> Option<Value> {
        match self {
            V::Leaf(v) => Some(*v),
            V::Tuple(vs) if vs.len() == 1 => vs[0].as_leaf(),
            _ => None,
        }
    }
}

/// A function value: what it is and the arguments supplied so far (with
/// their source types, which instantiate polymorphic functions).
pub struct FunV<'a> {
    pub head: Head<'a>,
    pub args: Vec<(V<'a>, Type)>,
}

#[derive(Clone)]
pub enum Head<'a> {
    /// A lambda or a local function, with the scope it was defined in.
    Closure {
        params: &'a [Pat],
        body: &'a Exp,
        scope: Scope<'a>,
        /// Size parameters `[n]` of a local function.
        size_params: Vec<Name>,
    },
    /// A top-level function.
    Global(GlobalId),
    /// A built-in function or operator, by canonical name.
    Builtin(Name),
    /// `(op arg)`: `\x -> op x arg`.
    RightSection { op: V<'a>, arg: (V<'a>, Type) },
    /// `(.a.b)`.
    Project(&'a [Name]),
}

/// The variables in scope: a persistent list, so closures capture it for
/// free.
#[derive(Clone, Default)]
pub struct Env<'a>(Option<Rc<EnvNode<'a>>>);

pub struct EnvNode<'a> {
    name: Name,
    val: V<'a>,
    next: Env<'a>,
}

impl<'a> Env<'a> {
    pub fn bind(&self, name: Name, val: V<'a>) -> Env<'a> {
        Env(Some(Rc::new(EnvNode {
            name,
            val,
            next: self.clone(),
        })))
    }
    pub fn lookup(&self, name: &str) -> Option<&V<'a>> {
        let mut cur = self.0.as_ref();
        while let Some(n) = cur {
            if &*n.name == name {
                return Some(&n.val);
            }
            cur = n.next.0.as_ref();
        }
        None
    }
}

/// Type parameters of the inlined polymorphic functions being
/// internalised, instantiated at the call site.
pub type TSubst = HashMap<Name, Type>;

/// Where an expression is internalised: its variables and the instances
/// of the type parameters its types mention.
#[derive(Clone, Default)]
pub struct Scope<'a> {
    pub env: Env<'a>,
    pub ts: Rc<TSubst>,
}

impl<'a> Scope<'a> {
    pub fn bind(&self, name: Name, val: V<'a>) -> Scope<'a> {
        Scope {
            env: self.env.bind(name, val),
            ts: self.ts.clone(),
        }
    }
}

/// The IR scalar type of a primitive type.
pub fn scalar(p: PrimType) -> Scalar {
    Scalar::of_prim(p)
}

/// The primitive type of an IR scalar type.
pub fn prim(s: Scalar) -> PrimType {
    s.prim_type()
}

/// Replace the type parameters `ts` instantiates (`[n]a` with `a = [m]i32`
/// becomes `[n][m]i32`).
pub fn subst_type(t: &Type, ts: &TSubst) -> Type {
    if ts.is_empty() {
        return t.clone();
    }
    match t {
        Type::Param(n) => ts.get(n).cloned().unwrap_or_else(|| t.clone()),
        Type::Prim(_) | Type::Var(_) => t.clone(),
        Type::Array { elem, shape, unique } => match subst_type(elem, ts) {
            Type::Array {
                elem: e2, shape: s2, ..
            } => Type::Array {
                elem: e2,
                shape: shape.iter().chain(&s2).cloned().collect(),
                unique: *unique,
            },
            e => Type::Array {
                elem: Rc::new(e),
                shape: shape.clone(),
                unique: *unique,
            },
        },
        Type::Tuple(ts2) => Type::Tuple(ts2.iter().map(|t| subst_type(t, ts)).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), subst_type(t, ts))).collect()),
        Type::Arrow { param_name, param, ret } => Type::Arrow {
            param_name: param_name.clone(),
            param: Rc::new(subst_type(param, ts)),
            ret: Rc::new(subst_type(ret, ts)),
        },
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts2)| (n.clone(), ts2.iter().map(|t| subst_type(t, ts)).collect()))
                .collect(),
        ),
    }
}

/// Whether a type parameter occurs in `t`.
pub fn has_param(t: &Type) -> bool {
    match t {
        Type::Param(_) | Type::Var(_) => true,
        Type::Prim(_) => false,
        Type::Array { elem, .. } => has_param(elem),
        Type::Tuple(ts) => ts.iter().any(has_param),
        Type::Record(fs) => fs.iter().any(|(_, t)| has_param(t)),
        Type::Arrow { param, ret, .. } => has_param(param) || has_param(ret),
        Type::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_param)),
    }
}

/// Instantiate the type parameters of `decl` (a declared type) so that it
/// matches `actual` (a type at a call site); parameters already in `ts`
/// keep their instance, and instances are concrete (no type parameters).
pub fn match_type(decl: &Type, actual: &Type, ts: &mut TSubst) {
    match_type_where(decl, actual, ts, &|_, a| !has_param(a));
}

/// As [`match_type`], binding parameter `n` to instance `a` only where
/// `bindable(n, a)`.
pub fn match_type_where(decl: &Type, actual: &Type, ts: &mut TSubst, bindable: &dyn Fn(&Name, &Type) -> bool) {
    let match_type = |d: &Type, a: &Type, ts: &mut TSubst| match_type_where(d, a, ts, bindable);
    match (decl, actual) {
        // Only the shape of the instance matters, and the sizes that mean
        // the same in the callee: the others name values of the call
        // site's scope (Note [Sizes pinned at a call]).
        (Type::Param(n), a) if !ts.contains_key(n) && bindable(n, a) => {
            ts.insert(n.clone(), erase_sizes_but(a, &scope_free));
        }
        (
            Type::Array {
                elem: de, shape: ds, ..
            },
            Type::Array {
                elem: ae, shape: as_, ..
            },
        ) => {
            if as_.len() > ds.len() {
                let inner = Type::Array {
                    elem: ae.clone(),
                    shape: as_[ds.len()..].to_vec(),
                    unique: false,
                };
                match_type(de, &inner, ts);
            } else {
                match_type(de, ae, ts);
            }
        }
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => {
            for (x, y) in a.iter().zip(b) {
                match_type(x, y, ts);
            }
        }
        (Type::Record(a), Type::Record(b)) if a.len() == b.len() => {
            for ((_, x), (_, y)) in a.iter().zip(b) {
                match_type(x, y, ts);
            }
        }
        (Type::Arrow { param: p1, ret: r1, .. }, Type::Arrow { param: p2, ret: r2, .. }) => {
            match_type(p1, p2, ts);
            match_type(r1, r2, ts);
        }
        (Type::Sum(a), Type::Sum(b)) if a.len() == b.len() => {
            for ((_, xs), (_, ys)) in a.iter().zip(b) {
                for (x, y) in xs.iter().zip(ys) {
                    match_type(x, y, ts);
                }
            }
        }
        _ => {}
    }
}

/// What [`leaf_types`] says of a type with a function in it.
pub const FUNCTION_VALUES: &str = "function-typed values here";

/// One leaf of a flattened source type: its scalar and its sizes (those of
/// the enclosing arrays first).
pub struct LeafType {
    pub scalar: Scalar,
    pub shape: Vec<Size>,
}

/// The leaves of a first-order source type, in the order of
/// [`V::leaves`]; `Err` names what cannot be flattened.
pub fn leaf_types(t: &Type) -> Result<Vec<LeafType>, &'static str> {
    let mut out = Vec::new();
    flatten(t, &[], &mut out)?;
    Ok(out)
}

fn flatten(t: &Type, outer: &[Size], out: &mut Vec<LeafType>) -> Result<(), &'static str> {
    match t {
        Type::Prim(p) => out.push(LeafType {
            scalar: scalar(*p),
            shape: outer.to_vec(),
        }),
        Type::Array { elem, shape, .. } => {
            let mut s = outer.to_vec();
            s.extend(shape.iter().cloned());
            flatten(elem, &s, out)?;
        }
        Type::Tuple(ts) => {
            for t in ts {
                flatten(t, outer, out)?;
            }
        }
        Type::Record(fs) => {
            for (_, t) in fs {
                flatten(t, outer, out)?;
            }
        }
        Type::Arrow { .. } => return Err(FUNCTION_VALUES),
        Type::Param(_) | Type::Var(_) => return Err("values of a type that is not known here"),
        Type::Sum(cs) => {
            // The tag and the slots; a slot's own sizes are not tracked
            // (Note [Sum types]).
            let layout = SumLayout::of(cs)?;
            out.push(LeafType {
                scalar: Scalar::I8,
                shape: outer.to_vec(),
            });
            for &(scalar, rank) in &layout.slots {
                let mut shape = outer.to_vec();
                shape.extend(std::iter::repeat_n(Size::Unknown, rank));
                out.push(LeafType { scalar, shape });
            }
        }
    }
    Ok(())
}

/// The tree of a first-order source type with the given leaves, in order.
pub fn structure<'a>(t: &Type, leaves: &mut impl Iterator<Item = Value>) -> V<'a> {
    match t {
        Type::Prim(_) => V::Leaf(leaves.next().expect("structure: as many values as leaves")),
        Type::Array { elem, .. } => structure(elem, leaves),
        Type::Tuple(ts) => V::Tuple(ts.iter().map(|t| structure(t, leaves)).collect()),
        Type::Record(fs) => V::Record(fs.iter().map(|(n, t)| (n.clone(), structure(t, leaves))).collect()),
        Type::Sum(cs) => match SumLayout::of(cs) {
            Ok(l) => {
                let ls = (0..=l.slots.len())
                    .map(|_| leaves.next().expect("structure: as many values as leaves"))
                    .collect();
                V::Sum(Rc::new(l), ls)
            }
            Err(_) => V::unit(),
        },
        // Not first-order: `leaf_types` rejects these first.
        _ => V::unit(),
    }
}

/// The pairs (source size, position of the leaf, dimension) a value of
/// type `t` determines: where a size name in a parameter type gets its
/// value from an argument.
pub fn size_positions(t: &Type) -> Vec<(Size, usize, usize)> {
    let mut out = Vec::new();
    if let Ok(ls) = leaf_types(t) {
        for (i, l) in ls.iter().enumerate() {
            for (j, s) in l.shape.iter().enumerate() {
                out.push((s.clone(), i, j));
            }
        }
    }
    out
}

/// The type of a parameter pattern as declared: the sizes of the parts
/// with a type annotation, unknown sizes elsewhere. (The checker does not
/// compare sizes, so inferred sizes may be wrong; see `check`.)
pub fn declared_type(p: &Pat) -> Option<Type> {
    Some(match &p.kind {
        PatKind::Ascribe(..) => p.ty.clone()?,
        PatKind::Tuple(ps) if ps.len() == 1 => declared_type(&ps[0])?,
        PatKind::Tuple(ps) => Type::Tuple(ps.iter().map(declared_type).collect::<Option<_>>()?),
        PatKind::Record(fs) => {
            let mut ts: Vec<(Name, Type)> = fs
                .iter()
                .map(|(n, _, q)| Some((n.clone(), declared_type(q)?)))
                .collect::<Option<_>>()?;
            match p.ty.as_ref()? {
                Type::Tuple(_) => {
                    ts.sort_by_key(|(n, _)| n.parse::<usize>().unwrap_or(0));
                    Type::Tuple(ts.into_iter().map(|(_, t)| t).collect())
                }
                _ => {
                    ts.sort_by(|a, b| a.0.cmp(&b.0));
                    Type::Record(ts)
                }
            }
        }
        _ => erase_sizes(p.ty.as_ref()?),
    })
}

/// `t` with every size unknown.
pub fn erase_sizes(t: &Type) -> Type {
    erase_sizes_but(t, &|_| false)
}

/// The character of a pinned size's name (Note [Sizes pinned at a call]):
/// no name in a program has it.
pub const PINNED: char = '\u{0}';

/// Whether size `d` means the same value in every scope: constants and
/// pinned names (Note [Sizes pinned at a call]).
pub fn scope_free(d: &Size) -> bool {
    !d.any_leaf(&mut |l| match l {
        Size::Const(_) => false,
        Size::Var(n) => !n.contains(PINNED),
        _ => true,
    })
}

/// `t` with every size unknown except those `keep` holds for.
pub fn erase_sizes_but(t: &Type, keep: &dyn Fn(&Size) -> bool) -> Type {
    match t {
        Type::Array { elem, shape, unique } => Type::Array {
            elem: Rc::new(erase_sizes_but(elem, keep)),
            shape: shape
                .iter()
                .map(|d| if keep(d) { d.clone() } else { Size::Unknown })
                .collect(),
            unique: *unique,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| erase_sizes_but(t, keep)).collect()),
        Type::Record(fs) => Type::Record(fs.iter().map(|(n, t)| (n.clone(), erase_sizes_but(t, keep))).collect()),
        Type::Sum(cs) => Type::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(|t| erase_sizes_but(t, keep)).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}
