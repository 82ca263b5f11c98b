//! The IR types of source types (Note [Source sizes] in the module
//! documentation), type variables, and small queries on IR types.

use futmlir_dialects::ir::{Dim, Scalar, Type as IrType, TypeKind};

use super::{internal, Binding, DResult, Emitter, Scope};
use crate::internalise::values::{scalar, subst_type};
use crate::syntax::ast::Name;
use crate::types::{Size, Type};

impl<'a, 'c> Emitter<'a, 'c> {
    /// The IR type of source type `t` in scope `sc`: the scope's type
    /// parameters instantiated, arrows uncurried (Note [Function values]),
    /// sizes named by the values in scope (Note [Source sizes]).
    pub fn ir_type(&mut self, sc: &Scope<'a>, t: &Type) -> DResult<IrType> {
        let t = subst_type(t, &sc.ts);
        self.lower(sc, &t, &mut Vec::new())
    }

    /// `bound`: the parameter names of the enclosing arrows, which shadow
    /// the scope's names (`(n: i64) -> [n]i32` is `(i64) -> [?]i32`).
    fn lower(&mut self, sc: &Scope<'a>, t: &Type, bound: &mut Vec<Name>) -> DResult<IrType> {
        Ok(match t {
            Type::Prim(p) => self.ctx.scalar(scalar(*p)),
            Type::Array { elem, shape, .. } => {
                let e = self.lower(sc, elem, bound)?;
                let dims = shape.iter().map(|s| self.dim(sc, s, bound)).collect();
                self.array_of(e, dims)
            }
            Type::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.lower(sc, t, bound)).collect::<DResult<_>>()?;
                self.ctx.intern_type(TypeKind::Tuple(ts))
            }
            Type::Record(fs) => {
                let mut out = Vec::new();
                for (n, t) in fs {
                    let t = self.lower(sc, t, bound)?;
                    out.push((self.ctx.sym(n), t));
                }
                // Sorted by name, as the checker sorts them.
                let ctx = &*self.ctx;
                out.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
                self.ctx.intern_type(TypeKind::Record(out))
            }
            Type::Arrow { .. } => {
                let mark = bound.len();
                let mut inputs = Vec::new();
                let mut cur = t;
                while let Type::Arrow { param_name, param, ret } = cur {
                    inputs.push(self.lower(sc, param, bound)?);
                    if let Some(n) = param_name {
                        bound.push(n.clone());
                    }
                    cur = ret;
                }
                let r = self.lower(sc, cur, bound);
                bound.truncate(mark);
                let results = vec![r?];
                self.ctx.intern_type(TypeKind::Function { inputs, results })
            }
            Type::Param(n) => self.tyvar(n),
            Type::Var(_) => return Err(internal(self.span, "a type left unresolved by the checker")),
            Type::Sum(_) => {
                // Opaque at this level: the type as written (`#none | #some i32`).
                let dialect = self.ctx.sym("source");
                let name = self.ctx.sym("sum");
                let body = Some(self.ctx.sym(&format!("\"{t}\"")));
                self.ctx.intern_type(TypeKind::Opaque { dialect, name, body })
            }
        })
    }

    fn dim(&self, sc: &Scope<'a>, s: &Size, bound: &[Name]) -> Dim {
        match s {
            Size::Const(c) => Dim::Const((*c).max(0) as u64),
            Size::Var(n) if !bound.contains(n) => match sc.lookup(n) {
                Some(Binding::Value(v)) if self.ctx.as_scalar(self.ctx.value_type(*v)) == Some(Scalar::I64) => {
                    Dim::Value(*v)
                }
                _ => Dim::Unknown,
            },
            _ => Dim::Unknown,
        }
    }

    /// `!source.tyvar<"n">`, the type parameter `n` (Note [Type variables]
    /// in the dialect).
    pub fn tyvar(&mut self, n: &str) -> IrType {
        let dialect = self.ctx.sym("source");
        let name = self.ctx.sym("tyvar");
        let body = Some(self.ctx.sym(&format!("\"{n}\"")));
        self.ctx.intern_type(TypeKind::Opaque { dialect, name, body })
    }

    /// `[dims]elem` (`elem` itself when there are none; the dimensions of
    /// an array `elem` follow `dims`).
    pub fn array_of(&mut self, elem: IrType, mut dims: Vec<Dim>) -> IrType {
        if dims.is_empty() {
            return elem;
        }
        let elem = match self.ctx.type_kind(elem) {
            TypeKind::Array { elem: e, shape } => {
                dims.extend(shape.iter().copied());
                *e
            }
            _ => elem,
        };
        self.ctx.intern_type(TypeKind::Array { elem, shape: dims })
    }

    pub fn dims(&self, t: IrType) -> Vec<Dim> {
        match self.ctx.type_kind(t) {
            TypeKind::Array { shape, .. } => shape.clone(),
            _ => Vec::new(),
        }
    }

    /// The type after `k` indices into array type `t`.
    pub fn drop_dims(&mut self, t: IrType, k: usize) -> IrType {
        match self.ctx.type_kind(t).clone() {
            TypeKind::Array { elem, shape } => {
                let rest = shape.get(k..).unwrap_or_default().to_vec();
                self.array_of(elem, rest)
            }
            _ => t,
        }
    }

    /// The inputs and results of a function type.
    pub fn function_parts(&self, t: IrType) -> Option<(Vec<IrType>, Vec<IrType>)> {
        match self.ctx.type_kind(t) {
            TypeKind::Function { inputs, results } => Some((inputs.clone(), results.clone())),
            _ => None,
        }
    }

    /// Whether `a` and `b` differ in their sizes at most.
    pub fn same_but_sizes(&mut self, a: IrType, b: IrType) -> bool {
        let any = |_| Dim::Unknown;
        self.map_dims(a, &any) == self.map_dims(b, &any)
    }

    /// `t` with every size an SSA value names made `?`, at any depth
    /// (function signatures, where no value is in scope).
    pub fn existential(&mut self, t: IrType) -> IrType {
        self.map_dims(t, &|d| if let Dim::Value(_) = d { Dim::Unknown } else { d })
    }

    /// `t` with each size `d`, at any depth, made `f(d)`.
    fn map_dims(&mut self, t: IrType, f: &dyn Fn(Dim) -> Dim) -> IrType {
        match self.ctx.type_kind(t).clone() {
            TypeKind::Array { elem, shape } => {
                let elem = self.map_dims(elem, f);
                let shape = shape.into_iter().map(f).collect();
                self.ctx.intern_type(TypeKind::Array { elem, shape })
            }
            TypeKind::Tuple(ts) => {
                let ts = ts.into_iter().map(|t| self.map_dims(t, f)).collect();
                self.ctx.intern_type(TypeKind::Tuple(ts))
            }
            TypeKind::Record(fs) => {
                let fs = fs.into_iter().map(|(k, t)| (k, self.map_dims(t, f))).collect();
                self.ctx.intern_type(TypeKind::Record(fs))
            }
            TypeKind::Function { inputs, results } => {
                let inputs = inputs.into_iter().map(|t| self.map_dims(t, f)).collect();
                let results = results.into_iter().map(|t| self.map_dims(t, f)).collect();
                self.ctx.intern_type(TypeKind::Function { inputs, results })
            }
            TypeKind::Scalar(_) | TypeKind::Mem(_) | TypeKind::Opaque { .. } => t,
        }
    }
}

/// The type parameters occurring in `t`, added to `out` once each.
pub fn type_params_of(t: &Type, out: &mut Vec<Name>) {
    match t {
        Type::Param(n) => {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        Type::Prim(_) | Type::Var(_) => {}
        Type::Array { elem, .. } => type_params_of(elem, out),
        Type::Tuple(ts) => ts.iter().for_each(|t| type_params_of(t, out)),
        Type::Record(fs) => fs.iter().for_each(|(_, t)| type_params_of(t, out)),
        Type::Arrow { param, ret, .. } => {
            type_params_of(param, out);
            type_params_of(ret, out);
        }
        Type::Sum(cs) => cs.iter().flat_map(|(_, ts)| ts).for_each(|t| type_params_of(t, out)),
    }
}

/// The source function type `p1 -> ... -> pk -> ret`.
pub fn arrow(params: Vec<Type>, ret: Type) -> Type {
    params.into_iter().rev().fold(ret, |r, p| Type::Arrow {
        param_name: None,
        param: std::rc::Rc::new(p),
        ret: std::rc::Rc::new(r),
    })
}
