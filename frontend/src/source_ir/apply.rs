//! Application: calls of the user's top-level functions (with their size
//! arguments), of the prelude's functions and the built-ins by name, and
//! of function values; partial application and sections (Note [Function
//! values]); the built-ins that are one scalar op or a SOAC call.

use futmlir_dialects::ir::{AttrKind, Dim, Scalar, Type as IrType, TypeKind, Value};
use futmlir_dialects::source::verify::SOACS;

use super::types::arrow;
use super::{internal, unsupported, Binding, DResult, Emitter, Scope};
use crate::check::builtins::{self, ScalarOp};
use crate::internalise::values::{prim, scalar};
use crate::syntax::ast::{Exp, GlobalId, Name, Pat, Resolved, TypeParam, ValBind, Var};
use crate::types::{PrimType, Size, Type};

/// What an application calls.
#[derive(Clone)]
pub(crate) enum Callee {
    /// A function value (a lambda, a parameter, a local function).
    Value(Value),
    /// A top-level function of the user's program, a `source.func`.
    User(GlobalId),
    /// A function of the prelude, called by name.
    Prelude(GlobalId),
    /// A built-in, by its canonical name (`+`, `map`, `f32.sqrt`).
    Builtin(Name),
}

impl<'a, 'c> Emitter<'a, 'c> {
    /// What name `v` calls, used at source type `use_ty` (which
    /// instantiates a polymorphic local function).
    pub fn callee(&mut self, sc: &Scope<'a>, v: &Var, use_ty: &Type) -> DResult<Callee> {
        match &v.res {
            Some(Resolved::Local) => match sc.lookup(&v.name.name) {
                Some(Binding::Value(x)) => Ok(Callee::Value(*x)),
                Some(Binding::PolyFun(f)) => {
                    let f = f.clone();
                    Ok(Callee::Value(self.instantiate(sc, &f, use_ty)?))
                }
                Some(Binding::Unknown) | None => Err(internal(self.span, &format!("an unbound variable `{}`", v.name))),
            },
            Some(Resolved::Global(id)) if self.is_user(*id) => Ok(Callee::User(*id)),
            Some(Resolved::Global(id)) => Ok(Callee::Prelude(*id)),
            Some(Resolved::Builtin(n)) => Ok(Callee::Builtin(n.clone())),
            None => Err(internal(self.span, "an unresolved name")),
        }
    }

    /// The number of arguments one call of `c` takes.
    fn arity(&self, c: &Callee) -> DResult<usize> {
        match c {
            Callee::Value(f) => self
                .function_parts(self.value_type(*f))
                .map(|(inputs, _)| inputs.len())
                .filter(|&k| k > 0)
                .ok_or_else(|| internal(self.span, "an application of a value that is not a function")),
            Callee::User(id) | Callee::Prelude(id) => Ok(self.valbind(*id)?.params.len()),
            // At the source level the implicit sizes of `split` and
            // `unflatten` stay in the types; they are not arguments.
            Callee::Builtin(n) => builtins::arity(n)
                .map(|k| k - builtins::implicit_size_count(n))
                .ok_or_else(|| unsupported(self.span, &format!("the built-in `{n}`"))),
        }
    }

    /// Apply `callee` to `args`; `ret` is the IR type of the result.
    /// Fewer arguments than a call takes give a function value taking the
    /// rest; more apply the call's result to the rest (Note [Function
    /// values]).
    pub fn apply(&mut self, callee: Callee, mut args: Vec<Value>, ret: IrType) -> DResult<Value> {
        if let Callee::Value(f) = callee {
            if args.is_empty() {
                return Ok(f);
            }
        }
        let k = self.arity(&callee)?;
        if args.len() < k {
            let res = self.function_result(ret)?;
            return self.wrapper(ret, move |s, params| {
                args.extend(params);
                s.apply(callee, args, res)
            });
        }
        let rest = args.split_off(k);
        if rest.is_empty() {
            return self.call(&callee, args, ret);
        }
        let step = self.curried(&rest, ret);
        let f = self.call(&callee, args, step)?;
        self.apply(Callee::Value(f), rest, ret)
    }

    /// The type of a function that takes `args` and gives `ret`, uncurried
    /// (Note [Function values]).
    fn curried(&mut self, args: &[Value], ret: IrType) -> IrType {
        let mut inputs: Vec<IrType> = args.iter().map(|&v| self.value_type(v)).collect();
        let results = match self.function_parts(ret) {
            Some((more, results)) => {
                inputs.extend(more);
                results
            }
            None => vec![ret],
        };
        self.ctx.intern_type(TypeKind::Function { inputs, results })
    }

    /// One call of `callee` with as many arguments as it takes.
    fn call(&mut self, callee: &Callee, args: Vec<Value>, ret: IrType) -> DResult<Value> {
        match callee {
            Callee::Value(f) => {
                let mut ops = vec![*f];
                ops.extend(args);
                Ok(self.op1("source.apply", &ops, ret, &[]))
            }
            Callee::User(id) => {
                let vb = self.valbind(*id)?;
                let mut ops = self.size_arguments(vb, &args)?;
                ops.extend(args);
                let sym = self.symbol(*id)?;
                Ok(self.apply_named(&sym, &ops, ret))
            }
            Callee::Prelude(id) => {
                let vb = self.valbind(*id)?;
                Ok(self.apply_named(&vb.name, &args, ret))
            }
            Callee::Builtin(n) => self.builtin(n, args, ret),
        }
    }

    /// `source.apply {callee = @name}`.
    fn apply_named(&mut self, name: &str, args: &[Value], ret: IrType) -> Value {
        let s = self.ctx.sym(name);
        let c = self.ctx.intern_attr(AttrKind::SymbolRef(s));
        self.op1("source.apply", args, ret, &[("callee", c)])
    }

    /// The one result of function type `ft` (an uncurried source arrow).
    fn function_result(&self, ft: IrType) -> DResult<IrType> {
        match self.function_parts(ft) {
            Some((_, results)) if results.len() == 1 => Ok(results[0]),
            _ => Err(internal(self.span, "a function value whose type is not a source arrow")),
        }
    }

    /// A `source.lambda` of function type `ft` whose body `body` makes of
    /// its arguments.
    pub fn wrapper(
        &mut self,
        ft: IrType,
        body: impl FnOnce(&mut Self, Vec<Value>) -> DResult<Value>,
    ) -> DResult<Value> {
        let (inputs, _) = self
            .function_parts(ft)
            .ok_or_else(|| internal(self.span, "a function value whose type is not a function"))?;
        let r = self.region(&inputs, |s, args| Ok(vec![body(s, args)?]))?;
        let op = self.op("source.lambda", &[], &[ft], &[], vec![r]);
        Ok(self.ctx.result(op, 0))
    }

    /// `(op)`, `(x op)`, `(op y)` (`\x -> x op y`), `(x op y)`.
    pub fn section(
        &mut self,
        sc: &Scope<'a>,
        e: &'a Exp,
        op: &Var,
        left: Option<&'a Exp>,
        right: Option<&'a Exp>,
    ) -> DResult<Value> {
        let et = self.source_type(e)?;
        let t = self.ty(sc, e)?;
        match (left, right) {
            (None, None) => {
                let c = self.callee(sc, op, et)?;
                self.apply(c, Vec::new(), t)
            }
            (Some(l), None) => {
                let c = self.callee(sc, op, &arrow(vec![self.source_type(l)?.clone()], et.clone()))?;
                let a = self.exp(sc, l)?;
                self.apply(c, vec![a], t)
            }
            (None, Some(r)) => {
                let Type::Arrow { param, ret, .. } = et else {
                    return Err(internal(e.span, "a section whose type is not a function"));
                };
                let use_ty = arrow(vec![(**param).clone(), self.source_type(r)?.clone()], (**ret).clone());
                let c = self.callee(sc, op, &use_ty)?;
                let b = self.exp(sc, r)?;
                let res = self.function_result(t)?;
                self.wrapper(t, move |s, args| {
                    // The section's type is an arrow: one input at least.
                    let mut all = vec![args[0], b];
                    all.extend(&args[1..]);
                    s.apply(c, all, res)
                })
            }
            (Some(l), Some(r)) => {
                let use_ty = arrow(
                    vec![self.source_type(l)?.clone(), self.source_type(r)?.clone()],
                    et.clone(),
                );
                let c = self.callee(sc, op, &use_ty)?;
                let a = self.exp(sc, l)?;
                let b = self.exp(sc, r)?;
                self.apply(c, vec![a, b], t)
            }
        }
    }

    // ----- size arguments ------------------------------------------------

    /// The size arguments of a call of top-level function `vb` (Note
    /// [Source functions]).
    fn size_arguments(&mut self, vb: &'a ValBind, args: &[Value]) -> DResult<Vec<Value>> {
        let mut out = Vec::new();
        for tp in &vb.type_params {
            if let TypeParam::Size { name, .. } = tp {
                out.push(self.size_argument(&vb.params, args, name)?);
            }
        }
        Ok(out)
    }

    /// The value of size parameter `n` of a function with parameters
    /// `params` applied to `args`: read from the first argument whose
    /// parameter type mentions it (outside the elements of an array).
    pub fn size_argument(&mut self, params: &[Pat], args: &[Value], n: &Name) -> DResult<Value> {
        for (p, &a) in params.iter().zip(args) {
            if let Some((path, j)) = p.ty.as_ref().and_then(|t| size_path(t, n)) {
                let mut v = a;
                for f in &path {
                    v = self.project(v, f)?;
                }
                return self.size_of(v, j);
            }
        }
        Err(unsupported(
            self.span,
            &format!("a size parameter `{n}` that no parameter type mentions"),
        ))
    }

    /// Dimension `j` of array `v`: the value or constant its type names,
    /// or `source.size`.
    pub fn size_of(&mut self, v: Value, j: usize) -> DResult<Value> {
        match self.dims(self.value_type(v)).get(j).copied() {
            Some(Dim::Value(x)) => Ok(x),
            Some(Dim::Const(c)) => Ok(self.const_i64(c as i64)),
            Some(Dim::Unknown) => {
                let i64t = self.ctx.scalar(Scalar::I64);
                let a = self.ctx.int_attr(j as i64, Scalar::I64);
                Ok(self.op1("source.size", &[v], i64t, &[("dim", a)]))
            }
            None => Err(internal(self.span, "the size of a missing dimension")),
        }
    }

    // ----- built-ins -----------------------------------------------------

    /// A call of built-in `name` with all its arguments (Note [Source
    /// functions]).
    pub(super) fn builtin(&mut self, name: &str, args: Vec<Value>, ret: IrType) -> DResult<Value> {
        let (module, f) = match name
            .split_once('.')
            .and_then(|(m, f)| Some((PrimType::from_name(m)?, f)))
        {
            Some((t, f)) => (Some(t), f),
            None => (None, name),
        };
        if let (Some(t), true) = (module, args.is_empty()) {
            if let Some(c) = builtins::numeric_constant(t, f) {
                return Ok(self.numeric_constant(t, c));
            }
        }
        let operand = args
            .first()
            .and_then(|&a| self.ctx.as_scalar(self.value_type(a)))
            .map(prim);
        if let Some(t) = module.or(operand) {
            if let Some(op) = builtins::scalar_op(f, t) {
                if let Some(v) = self.scalar_op(op, t, &args, ret) {
                    return Ok(v);
                }
            }
        }
        let soac = SOACS.iter().copied().find(|s| *s == name);
        if let Some(soac) = soac {
            let a = self.ctx.string_attr(soac);
            return Ok(self.op1("source.soac_call", &args, ret, &[("soac", a)]));
        }
        Ok(self.apply_named(name, &args, ret))
    }

    /// `op` on operands of type `t` with result type `ret`, when the types
    /// are the ones the op takes.
    fn scalar_op(&mut self, op: ScalarOp, t: PrimType, args: &[Value], ret: IrType) -> Option<Value> {
        let st = self.ctx.scalar(scalar(t));
        let bool_t = self.ctx.scalar(Scalar::Bool);
        if args.iter().any(|&a| self.value_type(a) != st) {
            return None;
        }
        match (op, args) {
            (ScalarOp::Binary(k), &[a, b]) if ret == st => Some(self.binop(k, a, b)),
            (ScalarOp::Compare(k), &[a, b]) if ret == bool_t => Some(self.cmpop(k, a, b)),
            (ScalarOp::Unary(k), &[a]) if ret == st => Some(self.unop(k, a)),
            _ => None,
        }
    }

    /// An intrinsic float constant (`f32.inf`).
    fn numeric_constant(&mut self, t: PrimType, x: f64) -> Value {
        let (attr, ty) = self.float_attr(x, scalar(t));
        self.op1("source.constant", &[], ty, &[("value", attr)])
    }
}

/// Where size `n` occurs in type `t` outside array elements: the
/// components to project (`0`, `1`, ... or field names) and the dimension.
fn size_path(t: &Type, n: &str) -> Option<(Vec<Name>, usize)> {
    let inside = |k: Name, t: &Type| {
        size_path(t, n).map(|(mut path, j)| {
            path.insert(0, k);
            (path, j)
        })
    };
    match t {
        Type::Array { shape, .. } => shape
            .iter()
            .position(|s| matches!(s, Size::Var(m) if &**m == n))
            .map(|j| (Vec::new(), j)),
        Type::Tuple(ts) => ts.iter().enumerate().find_map(|(i, t)| inside(i.to_string().into(), t)),
        Type::Record(fs) => fs.iter().find_map(|(k, t)| inside(k.clone(), t)),
        _ => None,
    }
}
