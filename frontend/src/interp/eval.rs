//! Evaluation of expressions, patterns and function application.
//!
//! The environment is one stack of `(name, value)` pairs: a `let` pushes,
//! leaving the scope truncates, a call starts a new frame at the top of the
//! stack. Lookups scan the current frame from the top, then the variables
//! the running closure captured. Names are `&str` borrowed from the checked
//! tree, so binding a variable copies no string.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use crate::check::{builtins, context_sizes, Checked};
use crate::span::Span;
use crate::syntax::ast::{
    Dec, DimIndex, Exp, ExpKind, GlobalId, Literal, LoopForm, Name, Pat, PatKind, RangeEnd, RecordField, Resolved,
    TypeParam, ValBind, Var,
};
use crate::types::{PrimType, Size, Type};

use super::builtins::Builtin;
use super::free;
use super::value::{shape_str, value_eq, Array, Builder, Captured, Closure, Data, Fun, SumValue, Sym, Value};
use super::{RuntimeError, TraceSink};
use crate::values::scalar::{self, BinOp};

// Note [Consumption]
// ~~~~~~~~~~~~~~~~~~
// Futhark's uniqueness types guarantee that a variable passed where a unique
// (`*t`) parameter is expected, or updated with `with` / `let x[i] = ...`,
// is not used afterwards. The evaluator exploits that: such a variable, if
// it lives in the current frame, is moved out of the environment instead of
// copied, so the array it holds keeps a reference count of one and
// `Rc::make_mut` updates it in place. The slot is left empty; reading it
// later (which the checker forbids) gives an "internal error" rather than a
// wrong value. Variables captured by a closure are never moved (a lambda
// cannot consume its free variables).

pub(crate) type R<T> = Result<T, Box<RuntimeError>>;

pub(crate) fn error(span: Span, message: impl Into<String>) -> Box<RuntimeError> {
    Box::new(RuntimeError {
        span: Some(span),
        message: message.into(),
        quotes_span: false,
    })
}

pub(crate) fn err<T>(span: Span, message: impl Into<String>) -> R<T> {
    Err(error(span, message))
}

pub(crate) fn internal<T>(span: Span, message: impl std::fmt::Display) -> R<T> {
    Err(error(span, format!("internal error: {message}")))
}

/// How much native stack the evaluator may use before it reports an error
/// instead of overflowing: 1 MiB on spawned threads (Rust gives them 2 MiB,
/// test threads included), 4 MiB on the main thread of a Unix process
/// (8 MiB by default).
fn stack_budget() -> usize {
    if cfg!(unix) && std::thread::current().name() == Some("main") {
        4 << 20
    } else {
        1 << 20
    }
}

enum GlobalSlot<'a> {
    Todo,
    Busy,
    Done(Value<'a>),
}

/// Hashes the address of a name in the checked tree.
#[derive(Default)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ *b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        let x = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

/// An evaluated index: `i` or `a:b:s` with parts left out.
#[derive(Clone, Copy)]
pub(crate) enum Ix {
    Fix(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
}

/// An index resolved against a dimension.
#[derive(Clone, Copy)]
pub(crate) enum DimSel {
    Fix(usize),
    Range { start: usize, count: usize, stride: i64 },
}

/// Saved frame of the caller.
pub(crate) struct Frame<'a> {
    base: usize,
    captured: Option<Rc<Captured<'a>>>,
}

pub(crate) struct Interp<'a> {
    pub checked: &'a Checked,
    stack: Vec<(Sym<'a>, Option<Value<'a>>)>,
    /// Start of the current frame in `stack`.
    base: usize,
    /// The captured variables of the running closure.
    captured: Option<Rc<Captured<'a>>>,
    globals: Vec<Vec<GlobalSlot<'a>>>,
    builtins: HashMap<usize, Builtin, BuildHasherDefault<AddrHasher>>,
    /// Whether a function (by the address of its parameters) has size
    /// parameters that its arguments do not determine (Note [Size
    /// parameters from the context] in `check::context_sizes`).
    context_sized: HashMap<usize, bool, BuildHasherDefault<AddrHasher>>,
    /// Free variables of each lambda and local function, by body address.
    free_vars: HashMap<usize, Rc<[&'a str]>, BuildHasherDefault<AddrHasher>>,
    /// Whether work and span are counted (see cost.rs).
    pub cost: bool,
    /// Where `trace` reports.
    pub trace: Option<TraceSink<'a>>,
    pub work: u64,
    pub span: u64,
    /// The tag of the latest `jvp2` or `vjp2` call (Note [One chain-rule
    /// table]).
    pub ad_tag: u32,
    /// The accumulator streams running, innermost last: the operator of
    /// each `hist_stream`, `None` for a `scatter_stream` (Note
    /// [Accumulators in the interpreter] in `builtins`).
    pub(crate) acc_ops: Vec<Option<Rc<Fun<'a>>>>,
    stack_base: usize,
    stack_budget: usize,
}

/// Name equality without a call to `memcmp` (names are short).
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && (a.as_ptr() == b.as_ptr() || a.iter().zip(b).all(|(x, y)| x == y))
}

impl<'a> Interp<'a> {
    pub fn new(checked: &'a Checked, cost: bool, trace: Option<TraceSink<'a>>) -> Interp<'a> {
        let probe = 0u8;
        Interp {
            checked,
            stack: Vec::with_capacity(256),
            base: 0,
            captured: None,
            globals: checked
                .programs
                .iter()
                .map(|p| p.decs.iter().map(|_| GlobalSlot::Todo).collect())
                .collect(),
            builtins: HashMap::default(),
            context_sized: HashMap::default(),
            free_vars: HashMap::default(),
            cost,
            trace,
            work: 0,
            span: 0,
            ad_tag: 0,
            acc_ops: Vec::new(),
            stack_base: std::ptr::addr_of!(probe) as usize,
            stack_budget: stack_budget(),
        }
    }

    #[inline]
    fn check_stack(&self, span: Span) -> R<()> {
        let probe = 0u8;
        let here = std::ptr::addr_of!(probe) as usize;
        if self.stack_base.abs_diff(here) > self.stack_budget {
            return err(span, "evaluation nested too deeply (the interpreter ran out of stack)");
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Environment.

    pub(crate) fn enter(&mut self, env: Option<Rc<Captured<'a>>>) -> Frame<'a> {
        let saved = Frame {
            base: self.base,
            captured: std::mem::replace(&mut self.captured, env),
        };
        self.base = self.stack.len();
        saved
    }

    pub(crate) fn leave(&mut self, saved: Frame<'a>) {
        self.stack.truncate(self.base);
        self.base = saved.base;
        self.captured = saved.captured;
    }

    pub(crate) fn push_var(&mut self, name: Sym<'a>, v: Value<'a>) {
        self.stack.push((name, Some(v)));
    }

    /// The value of a variable, if it is bound.
    pub(crate) fn lookup_opt(&self, name: &str) -> Option<&Value<'a>> {
        for (n, v) in self.stack[self.base..].iter().rev() {
            if same_name(n, name) {
                return v.as_ref();
            }
        }
        let cap = self.captured.as_deref()?;
        cap.vars
            .iter()
            .rev()
            .find(|(n, _)| same_name(n, name))
            .and_then(|(_, v)| v.as_ref())
    }

    #[inline(always)]
    fn lookup(&self, name: &str, span: Span) -> R<Value<'a>> {
        for (n, v) in self.stack[self.base..].iter().rev() {
            if same_name(n, name) {
                return match v {
                    Some(v) => Ok(v.clone()),
                    None => internal(span, format!("`{name}` is used after it was consumed")),
                };
            }
        }
        self.lookup_captured(name, span)
    }

    #[inline(never)]
    fn lookup_captured(&self, name: &str, span: Span) -> R<Value<'a>> {
        match self.lookup_opt(name) {
            Some(v) => Ok(v.clone()),
            None => internal(span, format!("unbound variable `{name}`")),
        }
    }

    /// Move a variable of the current frame out of the environment (see
    /// Note [Consumption]).
    fn take_local(&mut self, name: &str) -> Option<Value<'a>> {
        let base = self.base;
        for (n, v) in self.stack[base..].iter_mut().rev() {
            if same_name(n, name) {
                return v.take();
            }
        }
        None
    }

    /// The values of the free variables of `\params -> body` now.
    fn capture(&mut self, type_params: &'a [TypeParam], params: &'a [Pat], body: &'a Exp) -> Option<Rc<Captured<'a>>> {
        let key = body as *const Exp as usize;
        let names = match self.free_vars.get(&key) {
            Some(n) => n.clone(),
            None => {
                let n: Rc<[&'a str]> = free::free_vars(type_params, params, body).into();
                self.free_vars.insert(key, n.clone());
                n
            }
        };
        if names.is_empty() {
            return None;
        }
        let vars = names
            .iter()
            .filter_map(|n| self.lookup_opt(n).map(|v| (*n, Some(v.clone()))))
            .collect();
        Some(Rc::new(Captured { vars }))
    }

    // -----------------------------------------------------------------------
    // Globals and built-ins.

    pub(crate) fn valbind(&self, id: GlobalId, span: Span) -> R<&'a ValBind> {
        let checked: &'a Checked = self.checked;
        let mut dec = checked
            .programs
            .get(id.program as usize)
            .and_then(|p| p.decs.get(id.dec as usize));
        while let Some(Dec::Local(d, _)) = dec {
            dec = Some(&**d);
        }
        match dec {
            Some(Dec::Val(vb)) => Ok(vb),
            _ => internal(
                span,
                format!("global {}:{} is not a value definition", id.program, id.dec),
            ),
        }
    }

    /// A top-level constant (evaluated once) or function.
    pub(crate) fn global_value(&mut self, id: GlobalId, span: Span) -> R<Value<'a>> {
        let (p, d) = (id.program as usize, id.dec as usize);
        match self.globals.get(p).and_then(|g| g.get(d)) {
            Some(GlobalSlot::Done(v)) => return Ok(v.clone()),
            Some(GlobalSlot::Busy) => return internal(span, "a top-level definition refers to itself"),
            Some(GlobalSlot::Todo) => {}
            None => return internal(span, "global out of range"),
        }
        let vb = self.valbind(id, span)?;
        let v = if vb.params.is_empty() {
            self.globals[p][d] = GlobalSlot::Busy;
            let saved = self.enter(None);
            let r = self.eval(&vb.body);
            self.leave(saved);
            match r {
                Ok(v) => v,
                Err(e) => {
                    self.globals[p][d] = GlobalSlot::Todo;
                    return Err(e);
                }
            }
        } else {
            Value::Fun(Rc::new(Fun::Global(vb)))
        };
        self.globals[p][d] = GlobalSlot::Done(v.clone());
        Ok(v)
    }

    pub(crate) fn builtin(&mut self, name: &'a Name, span: Span) -> R<Builtin> {
        if name.len() <= 3 {
            if let Some(op) = BinOp::from_name(name) {
                return Ok(Builtin::Op(op));
            }
        }
        let key = name.as_ptr() as usize;
        if let Some(b) = self.builtins.get(&key) {
            return Ok(*b);
        }
        match Builtin::parse(name) {
            Some(b) => {
                self.builtins.insert(key, b);
                Ok(b)
            }
            None => internal(span, format!("unknown built-in `{name}`")),
        }
    }

    /// A function value for the operator of a section or a binary operation.
    fn op_fun(&mut self, op: &'a Var, span: Span) -> R<Rc<Fun<'a>>> {
        let v = match &op.res {
            Some(Resolved::Builtin(name)) => {
                let b = self.builtin(name, span)?;
                if b.arity() == 0 {
                    self.builtin_const(b, span)?
                } else {
                    return Ok(Rc::new(Fun::Builtin(b)));
                }
            }
            Some(Resolved::Global(id)) => self.global_value(*id, span)?,
            Some(Resolved::Local) => self.lookup(&op.name.name, span)?,
            None => return internal(span, format!("unresolved name `{}`", op.name)),
        };
        match v {
            Value::Fun(f) => Ok(f),
            v => internal(span, format!("`{}` is {}, not a function", op.name, v.kind())),
        }
    }

    // -----------------------------------------------------------------------
    // Expressions.

    /// Evaluate an expression. Each kind of expression has its own
    /// function, so the frame of this one (which every nested expression
    /// adds to the native stack) stays small.
    pub(crate) fn eval(&mut self, e: &'a Exp) -> R<Value<'a>> {
        self.check_stack(e.span)?;
        match &e.kind {
            ExpKind::Lit(l) => self.eval_lit(l, e),
            ExpKind::Var(v) => self.eval_var(v, e),
            ExpKind::BinOp { op, lhs, rhs, .. } => self.eval_binop(op, lhs, rhs, e),
            ExpKind::Apply(f, args) => self.eval_apply(f, args, e),
            ExpKind::If { cond, then, els } => {
                if self.eval_bool(cond)? {
                    self.eval(then)
                } else {
                    self.eval(els)
                }
            }
            ExpKind::Let { .. } | ExpKind::LetFun { .. } | ExpKind::LetWith { .. } => self.eval_let_chain(e),
            ExpKind::Neg(x) | ExpKind::Not(x) => self.eval_unop(x, e),
            ExpKind::OpSection { op, left, right, .. } => self.eval_section(op, left.as_deref(), right.as_deref(), e),
            ExpKind::ProjectSection(path) => Ok(Value::Fun(Rc::new(Fun::Project(path)))),
            ExpKind::Hole => Err(error(e.span, "a typed hole (`???`) was evaluated")),
            ExpKind::Lambda { params, body, .. } => Ok(self.closure(&[], params, body)),
            ExpKind::Tuple(es) => self.eval_tuple(es),
            ExpKind::Record(fields) => self.eval_record(fields),
            ExpKind::ArrayLit(es) => self.eval_array_lit(es, e),
            ExpKind::Range {
                start,
                second,
                end,
                kind,
            } => self.eval_range(start, second.as_deref(), end, *kind, e),
            ExpKind::Project(x, field) => self.eval_project(x, field, e),
            ExpKind::Index(x, idx) => self.eval_index(x, idx, e),
            ExpKind::Update { array, index, value } => self.eval_update(array, index, value, e),
            ExpKind::RecordUpdate { record, path, value } => self.eval_record_update(record, path, value, e),
            ExpKind::Coerce(x, _) => self.eval_coerce(x, e),
            ExpKind::Ascript(x, _) | ExpKind::Attr(_, x) | ExpKind::OpenIn(_, x) => self.eval(x),
            ExpKind::Loop { pat, init, form, body } => self.eval_loop(pat, init.as_deref(), form, body, e.span),
            ExpKind::Assert(cond, x) => self.eval_assert(cond, x),
            ExpKind::Constr(c, es) => self.eval_constr(c, es),
            ExpKind::Match(x, cases) => self.eval_match(x, cases, e.span),
        }
    }

    #[inline(never)]
    fn eval_constr(&mut self, c: &'a Name, es: &'a [Exp]) -> R<Value<'a>> {
        let mut payload = Vec::with_capacity(es.len());
        for x in es {
            payload.push(self.eval(x)?);
        }
        Ok(Value::Sum(Rc::new(SumValue { constr: c, payload })))
    }

    /// The first case whose pattern matches (the checker made sure one
    /// does).
    #[inline(never)]
    fn eval_match(&mut self, x: &'a Exp, cases: &'a [(Pat, Exp)], span: Span) -> R<Value<'a>> {
        let v = self.eval(x)?;
        let mark = self.stack.len();
        for (p, body) in cases {
            let hit = self.match_pat(p, &v, false)?;
            if hit {
                let r = self.eval(body);
                self.stack.truncate(mark);
                return r;
            }
            self.stack.truncate(mark);
        }
        internal(span, format!("no case of the `match` matches {v:?}"))
    }

    #[inline(never)]
    fn eval_unop(&mut self, x: &'a Exp, e: &'a Exp) -> R<Value<'a>> {
        let v = self.eval(x)?;
        self.tick();
        if let (ExpKind::Neg(_), true) = (&e.kind, super::ad::is_ad(&v)) {
            return super::ad::neg(v, e.span);
        }
        let (r, what) = match (&e.kind, v.as_prim()) {
            (ExpKind::Neg(_), Some(p)) => (scalar::neg(p), "neg"),
            (ExpKind::Not(_), Some(p)) => (scalar::not(p), "!"),
            _ => return internal(e.span, format!("unary operator on {}", v.kind())),
        };
        r.map(Value::prim).map_err(|k| error(e.span, k.message(what)))
    }

    #[inline(never)]
    fn eval_section(&mut self, op: &'a Var, left: Option<&'a Exp>, right: Option<&'a Exp>, e: &'a Exp) -> R<Value<'a>> {
        let f = self.op_fun(op, e.span)?;
        match (left, right) {
            (None, None) => Ok(Value::Fun(f)),
            (Some(l), None) => {
                let v = self.eval(l)?;
                Ok(Value::Fun(Rc::new(Fun::Partial(f, vec![v]))))
            }
            (None, Some(r)) => {
                let v = self.eval(r)?;
                Ok(Value::Fun(Rc::new(Fun::RightSection(f, v))))
            }
            (Some(l), Some(r)) => {
                let a = self.eval(l)?;
                let b = self.eval(r)?;
                self.apply_fun(&f, vec![a, b], e.span)
            }
        }
    }

    /// A lambda or local function closing over the current scope.
    fn closure(&mut self, type_params: &'a [TypeParam], params: &'a [Pat], body: &'a Exp) -> Value<'a> {
        let env = self.capture(type_params, params, body);
        Value::Fun(Rc::new(Fun::Closure(Closure {
            type_params,
            params,
            body,
            env,
        })))
    }

    #[inline(never)]
    fn eval_tuple(&mut self, es: &'a [Exp]) -> R<Value<'a>> {
        let mut vs = Vec::with_capacity(es.len());
        for x in es {
            vs.push(self.eval(x)?);
        }
        Ok(Value::Tuple(Rc::new(vs)))
    }

    #[inline(never)]
    fn eval_array_lit(&mut self, es: &'a [Exp], e: &'a Exp) -> R<Value<'a>> {
        // `[] : [0][n]t` with a negative `n` is no array: the same error as
        // the soac interpreter's and the compiled code's.
        if let (true, Some(Type::Array { shape, .. })) = (es.is_empty(), e.ty.as_ref()) {
            if let Some(n) = shape.iter().skip(1).filter_map(|d| self.size_value(d)).find(|&n| n < 0) {
                return Err(error(e.span, format!("a negative size {n}")));
            }
        }
        let mut b = Builder::new(es.len());
        for x in es {
            let v = self.eval(x)?;
            b.push(v).map_err(|m| error(x.span, m))?;
        }
        Ok(self.finish_array(b, e.ty.as_ref()))
    }

    #[inline(never)]
    fn eval_project(&mut self, x: &'a Exp, field: &'a Name, e: &'a Exp) -> R<Value<'a>> {
        let v = self.eval(x)?;
        project(v, field, e.span)
    }

    #[inline(never)]
    fn eval_index(&mut self, x: &'a Exp, idx: &'a [DimIndex], e: &'a Exp) -> R<Value<'a>> {
        let v = self.eval(x)?;
        let ix = self.eval_indices(idx)?;
        self.tick();
        index_value(v, &ix, e.span)
    }

    #[inline(never)]
    fn eval_update(&mut self, array: &'a Exp, index: &'a [DimIndex], value: &'a Exp, e: &'a Exp) -> R<Value<'a>> {
        let ix = self.eval_indices(index)?;
        let v = self.eval(value)?;
        let a = self.eval_consumed(array)?;
        self.update(a, &ix, v, e.span)
    }

    #[inline(never)]
    fn eval_record_update(&mut self, record: &'a Exp, path: &'a [Name], value: &'a Exp, e: &'a Exp) -> R<Value<'a>> {
        let r = self.eval(record)?;
        let v = self.eval(value)?;
        record_set(r, path, v, e.span)
    }

    #[inline(never)]
    fn eval_coerce(&mut self, x: &'a Exp, e: &'a Exp) -> R<Value<'a>> {
        let v = self.eval(x)?;
        if let Some(t) = &e.ty {
            self.check_shape(&v, t, e.span)?;
        }
        Ok(v)
    }

    #[inline(never)]
    fn eval_assert(&mut self, cond: &'a Exp, x: &'a Exp) -> R<Value<'a>> {
        if !self.eval_bool(cond)? {
            let mut e = error(cond.span, "Assertion is false");
            e.quotes_span = true;
            return Err(e);
        }
        self.eval(x)
    }

    fn eval_bool(&mut self, e: &'a Exp) -> R<bool> {
        match self.eval(e)? {
            Value::Bool(b) => Ok(b != 0),
            v => internal(e.span, format!("expected a bool, got {}", v.kind())),
        }
    }

    /// An integer operand (index, size, count) as i64; values beyond the
    /// i64 range saturate (they are out of bounds anyway).
    pub(crate) fn eval_i64(&mut self, e: &'a Exp) -> R<i64> {
        let v = self.eval(e)?;
        as_i64(&v, e.span)
    }

    #[inline(always)]
    fn eval_lit(&self, l: &'a Literal, e: &'a Exp) -> R<Value<'a>> {
        let ty = match &e.ty {
            Some(Type::Prim(t)) => Some(*t),
            _ => None,
        };
        Ok(match l {
            Literal::Int { value, suffix } => {
                let t = ty.or(*suffix).unwrap_or(PrimType::I32);
                Value::prim(if t.is_float() {
                    scalar::from_f64(t, *value as f64)
                } else {
                    scalar::from_i128(t, *value as i128)
                })
            }
            Literal::Float { value, suffix } => {
                Value::prim(scalar::from_f64(ty.or(*suffix).unwrap_or(PrimType::F64), *value))
            }
            Literal::Bool(b) => Value::bool(*b),
            Literal::String(bytes) => Value::array(Array::new(vec![bytes.len()], Data::U8(bytes.clone()))),
        })
    }

    #[inline]
    fn eval_var(&mut self, v: &'a Var, e: &'a Exp) -> R<Value<'a>> {
        match &v.res {
            Some(Resolved::Builtin(name)) if builtins::implicit_size_count(name) > 0 => {
                return self.sized_builtin(name, e);
            }
            Some(Resolved::Global(id)) => {
                let vb = self.valbind(*id, e.span)?;
                if self.has_context_sizes(&vb.type_params, &vb.params) {
                    return self.global_with_context_sizes(*id, vb, e);
                }
            }
            _ => {}
        }
        let f = self.eval_var_res(v.res.as_ref(), &v.name.name, e.span)?;
        match &f {
            Value::Fun(c) if matches!(&**c, Fun::Closure(c) if self.has_context_sizes(c.type_params, c.params)) => {
                self.closure_with_context_sizes(f, e)
            }
            _ => Ok(f),
        }
    }

    /// Whether the function with `type_params` and `params` has size
    /// parameters that its arguments do not determine (computed once per
    /// function).
    #[inline]
    fn has_context_sizes(&mut self, type_params: &'a [TypeParam], params: &'a [Pat]) -> bool {
        if type_params.is_empty() {
            return false;
        }
        let key = type_params.as_ptr() as usize;
        *self
            .context_sized
            .entry(key)
            .or_insert_with(|| !context_sizes::context_size_params(type_params, params).is_empty())
    }

    /// The values, at the use `e`, of the size parameters of a function
    /// that its arguments do not determine (See Note [Size parameters from
    /// the context] in `check::context_sizes`); those whose value the use
    /// does not give are left out.
    fn context_sizes(
        &mut self,
        type_params: &'a [TypeParam],
        params: &'a [Pat],
        body: &'a Exp,
        e: &Exp,
    ) -> Vec<(Sym<'a>, Option<Value<'a>>)> {
        let Some(actual) = &e.ty else { return Vec::new() };
        let mut out = Vec::new();
        for n in context_sizes::context_size_params(type_params, params) {
            let Some(d) = context_sizes::size_at_use(n, params, body.ty.as_ref(), actual) else {
                continue;
            };
            if let Some(v) = self.size_value(&d) {
                out.push((&**n, Some(Value::i64(v))));
            }
        }
        out
    }

    /// A top-level definition with size parameters, at its use `e`: a
    /// function gets the sizes its arguments do not determine from the
    /// use, a constant is evaluated with them (See Note [Size parameters
    /// from the context] in `check::context_sizes`).
    #[inline(never)]
    fn global_with_context_sizes(&mut self, id: GlobalId, vb: &'a ValBind, e: &'a Exp) -> R<Value<'a>> {
        let sizes = self.context_sizes(&vb.type_params, &vb.params, &vb.body, e);
        if sizes.is_empty() {
            return self.global_value(id, e.span);
        }
        let env = Some(Rc::new(Captured { vars: sizes }));
        if vb.params.is_empty() {
            let saved = self.enter(env);
            let r = self.eval(&vb.body);
            self.leave(saved);
            return r;
        }
        Ok(Value::Fun(Rc::new(Fun::Closure(Closure {
            type_params: &vb.type_params,
            params: &vb.params,
            body: &vb.body,
            env,
        }))))
    }

    /// A local function with size parameters (`f`), at its use `e`, with
    /// the sizes its arguments do not determine bound from the use.
    #[inline(never)]
    fn closure_with_context_sizes(&mut self, f: Value<'a>, e: &'a Exp) -> R<Value<'a>> {
        let Value::Fun(rc) = &f else { return Ok(f) };
        let Fun::Closure(c) = &**rc else { return Ok(f) };
        let sizes = self.context_sizes(c.type_params, c.params, c.body, e);
        if sizes.is_empty() {
            return Ok(f);
        }
        let mut vars = c.env.as_ref().map(|cap| cap.vars.clone()).unwrap_or_default();
        vars.extend(sizes);
        Ok(Value::Fun(Rc::new(Fun::Closure(Closure {
            type_params: c.type_params,
            params: c.params,
            body: c.body,
            env: Some(Rc::new(Captured { vars })),
        }))))
    }

    /// `unflatten` or `split` at the type of its use `e`: the built-in
    /// applied to its implicit sizes (`check::builtins::implicit_sizes`).
    #[inline(never)]
    fn sized_builtin(&mut self, name: &'a Name, e: &'a Exp) -> R<Value<'a>> {
        let b = self.builtin(name, e.span)?;
        let Some(t) = &e.ty else {
            return internal(e.span, format!("`{name}` without a type"));
        };
        let mut sizes = Vec::new();
        for d in builtins::implicit_sizes(name, t) {
            match self.size_value(&d) {
                Some(n) => sizes.push(Value::i64(n)),
                // See Note [Sizes derived from the argument].
                None if d == Size::Unknown => sizes.push(Value::i64(builtins::DERIVED_SIZE)),
                None => return internal(e.span, format!("the size {d} of `{name}` has no value")),
            }
        }
        Ok(Value::Fun(Rc::new(Fun::Partial(Rc::new(Fun::Builtin(b)), sizes))))
    }

    /// The value a resolved name stands for.
    #[inline]
    fn eval_var_res(&mut self, res: Option<&'a Resolved>, name: &'a str, span: Span) -> R<Value<'a>> {
        match res {
            Some(Resolved::Local) => self.lookup(name, span),
            Some(Resolved::Global(id)) => self.global_value(*id, span),
            Some(Resolved::Builtin(b)) => {
                let b = self.builtin(b, span)?;
                if b.arity() == 0 {
                    self.builtin_const(b, span)
                } else {
                    Ok(Value::Fun(Rc::new(Fun::Builtin(b))))
                }
            }
            None => internal(span, format!("unresolved name `{name}`")),
        }
    }

    /// An operand: variables and literals are evaluated here rather than by
    /// a call to `eval` (they are the leaves of most scalar code).
    #[inline(always)]
    fn eval_operand(&mut self, e: &'a Exp) -> R<Value<'a>> {
        match &e.kind {
            ExpKind::Var(Var {
                name,
                res: Some(Resolved::Local),
            }) => self.lookup(&name.name, e.span),
            ExpKind::Lit(l) => self.eval_lit(l, e),
            _ => self.eval(e),
        }
    }

    // Inlined into `eval` in optimised builds (the hot path of scalar code);
    // out of line in debug builds, where it would bloat `eval`'s frame.
    #[cfg_attr(debug_assertions, inline(never))]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn eval_binop(&mut self, op: &'a Var, lhs: &'a Exp, rhs: &'a Exp, e: &'a Exp) -> R<Value<'a>> {
        if let Some(Resolved::Builtin(name)) = &op.res {
            if let Some(o) = BinOp::from_name(name) {
                if matches!(o, BinOp::LogAnd | BinOp::LogOr) {
                    let l = self.eval_bool(lhs)?;
                    self.tick();
                    if l == (o == BinOp::LogOr) {
                        return Ok(Value::bool(l));
                    }
                    return Ok(Value::bool(self.eval_bool(rhs)?));
                }
                let a = self.eval_operand(lhs)?;
                let b = self.eval_operand(rhs)?;
                self.tick();
                if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
                    return match scalar::binop(o, x, y) {
                        Ok(v) => Ok(Value::prim(v)),
                        Err(k) => err(e.span, k.message(o.name())),
                    };
                }
                return self.apply_binop(o, a, b, e.span);
            }
            let b = self.builtin(name, e.span)?;
            let a = self.eval(lhs)?;
            let c = self.eval(rhs)?;
            return self.call_builtin(b, vec![a, c], e.span, e.ty.as_ref());
        }
        let f = self.op_fun(op, e.span)?;
        let a = self.eval(lhs)?;
        let b = self.eval(rhs)?;
        self.apply_fun(&f, vec![a, b], e.span)
    }

    /// A built-in operator on two values: scalars, or `==`/`!=` on any
    /// values (structural).
    #[inline]
    pub(crate) fn apply_binop(&self, op: BinOp, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
        if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
            return match scalar::binop(op, x, y) {
                Ok(v) => Ok(Value::prim(v)),
                Err(k) => err(span, k.message(op.name())),
            };
        }
        match (a, b) {
            (a, b) if super::ad::is_ad(&a) || super::ad::is_ad(&b) => super::ad::bin(op, a, b, span),
            (a, b) if matches!(op, BinOp::Eq | BinOp::Neq) => match value_eq(&a, &b) {
                Some(eq) => Ok(Value::bool(eq == (op == BinOp::Eq))),
                None => internal(span, "comparing functions"),
            },
            (a, b) => internal(span, format!("`{}` on {} and {}", op.name(), a.kind(), b.kind())),
        }
    }

    /// Evaluate the arguments of an application, moving consumed variables
    /// (Note [Consumption]).
    fn eval_args(&mut self, f: &'a Exp, args: &'a [Exp]) -> R<Vec<Value<'a>>> {
        let mut vals = Vec::with_capacity(args.len());
        let mut fty = f.ty.as_ref();
        for a in args {
            let (unique, next) = match fty {
                Some(Type::Arrow { param, ret, .. }) => (param.is_unique(), Some(&**ret)),
                _ => (false, None),
            };
            fty = next;
            vals.push(if unique { self.eval_consumed(a)? } else { self.eval(a)? });
        }
        Ok(vals)
    }

    /// An expression whose value is consumed: a variable of the current
    /// frame is moved out of the environment.
    fn eval_consumed(&mut self, a: &'a Exp) -> R<Value<'a>> {
        if let ExpKind::Var(Var {
            name,
            res: Some(Resolved::Local),
        }) = &a.kind
        {
            if let Some(v) = self.take_local(&name.name) {
                return Ok(v);
            }
        }
        self.eval(a)
    }

    #[inline(never)]
    fn eval_apply(&mut self, f: &'a Exp, args: &'a [Exp], e: &'a Exp) -> R<Value<'a>> {
        let vals = self.eval_args(f, args)?;
        if let ExpKind::Var(v) = &f.kind {
            match &v.res {
                Some(Resolved::Builtin(name)) => {
                    let b = self.builtin(name, f.span)?;
                    if b.arity() == vals.len() {
                        return self.call_builtin(b, vals, e.span, e.ty.as_ref());
                    }
                }
                Some(Resolved::Global(id)) => {
                    let vb = self.valbind(*id, f.span)?;
                    if !vb.params.is_empty()
                        && vb.params.len() == vals.len()
                        && !self.has_context_sizes(&vb.type_params, &vb.params)
                    {
                        let v = self.call_global(vb, vals, e.span)?;
                        return self.empty_with_type_shape(v, e.ty.as_ref(), e.span);
                    }
                }
                _ => {}
            }
        }
        let fv = self.eval(f)?;
        let v = self.apply(fv, vals, e.span)?;
        self.empty_with_type_shape(v, e.ty.as_ref(), e.span)
    }

    /// An empty array returned by a function, with the row sizes the
    /// application's type gives it. See Note [Empty results of
    /// polymorphic functions].
    fn empty_with_type_shape(&mut self, v: Value<'a>, ty: Option<&Type>, span: Span) -> R<Value<'a>> {
        // The components of a tuple result too.
        if let (Value::Tuple(vs), Some(Type::Tuple(ts))) = (&v, ty) {
            if vs.len() == ts.len() && vs.iter().any(|x| matches!(x, Value::Array(_))) {
                let mut out = Vec::with_capacity(vs.len());
                for (x, t) in vs.iter().zip(ts) {
                    out.push(self.empty_with_type_shape(x.clone(), Some(t), span)?);
                }
                return Ok(Value::Tuple(Rc::new(out)));
            }
            return Ok(v);
        }
        let (Value::Array(a), Some(Type::Array { shape, elem, .. })) = (&v, ty) else {
            return Ok(v);
        };
        let Some(t) = elem.prim() else { return Ok(v) };
        if !a.data.is_empty() || a.shape.is_empty() || shape.len() < a.shape.len() {
            return Ok(v);
        }
        let boxed = matches!(a.data, Data::Boxed(_));
        if !boxed && shape.len() != a.shape.len() {
            return Ok(v);
        }
        let mut dims = vec![a.shape[0]];
        for (k, d) in shape.iter().enumerate().skip(1) {
            let known = match self.size_value(d) {
                // No array has a negative size: the soac interpreter and
                // compiled code fail here too.
                Some(n) if n < 0 => return Err(error(span, format!("a negative size {n}"))),
                k => k.map(|v| v as usize),
            };
            dims.push(known.or(a.shape.get(k).copied()).unwrap_or(0));
        }
        if (dims == a.shape && !boxed) || dims.iter().product::<usize>() != 0 {
            return Ok(v);
        }
        Ok(Value::array(Array::new(dims, Data::of_prim(t, 0))))
    }

    #[inline(never)]
    fn eval_record(&mut self, fields: &'a [RecordField]) -> R<Value<'a>> {
        let mut fs: Vec<(Sym<'a>, Value<'a>)> = Vec::with_capacity(fields.len());
        for f in fields {
            let (name, v) = match f {
                RecordField::Explicit(n, _, x) => (&**n, self.eval(x)?),
                RecordField::Implicit(n, sp, res) => (&**n, self.eval_var_res(res.as_ref(), n, *sp)?),
            };
            fs.retain(|(m, _)| *m != name);
            fs.push((name, v));
        }
        fs.sort_by(|a, b| a.0.cmp(b.0));
        if fs.len() >= 2 && fs.iter().all(|(n, _)| n.parse::<usize>().is_ok_and(|i| i < fs.len())) {
            // `{0 = a, 1 = b}` is the tuple `(a, b)`.
            let mut vs: Vec<(usize, Value<'a>)> = fs.into_iter().map(|(n, v)| (n.parse().unwrap_or(0), v)).collect();
            vs.sort_by_key(|(i, _)| *i);
            return Ok(Value::Tuple(Rc::new(vs.into_iter().map(|(_, v)| v).collect())));
        }
        Ok(Value::Record(Rc::new(fs)))
    }

    /// `let` chains are evaluated in a loop, not by recursion, so long
    /// function bodies do not deepen the native stack.
    #[inline(never)]
    fn eval_let_chain(&mut self, e: &'a Exp) -> R<Value<'a>> {
        let mark = self.stack.len();
        let mut cur = e;
        let r = loop {
            match &cur.kind {
                ExpKind::Let { pat, value, body } => {
                    let v = self.eval(value)?;
                    self.bind_pat(pat, v, false)?;
                    cur = body;
                }
                ExpKind::LetFun {
                    name,
                    type_params,
                    params,
                    value,
                    body,
                    ..
                } => {
                    let v = if params.is_empty() {
                        self.eval(value)?
                    } else {
                        self.closure(type_params, params, value)
                    };
                    self.push_var(name, v);
                    cur = body;
                }
                ExpKind::LetWith {
                    name,
                    index,
                    value,
                    body,
                    ..
                } => {
                    let ix = self.eval_indices(index)?;
                    let v = self.eval(value)?;
                    let a = match self.take_local(name) {
                        Some(a) => a,
                        None => self.lookup(name, cur.span)?,
                    };
                    let a = self.update(a, &ix, v, cur.span)?;
                    self.push_var(name, a);
                    cur = body;
                }
                _ => break self.eval(cur),
            }
        };
        self.stack.truncate(mark);
        r
    }

    // -----------------------------------------------------------------------
    // Patterns.

    /// Bind the variables of a pattern. Wildcards bind an unnamed slot when
    /// `keep_wild` (so the value can be reassembled by `unbind_pat`).
    pub(crate) fn bind_pat(&mut self, p: &'a Pat, v: Value<'a>, keep_wild: bool) -> R<()> {
        match &p.kind {
            PatKind::Id(n) => {
                self.stack.push((n, Some(v)));
                Ok(())
            }
            PatKind::Wildcard => {
                if keep_wild {
                    self.stack.push(("", Some(v)));
                }
                Ok(())
            }
            PatKind::Ascribe(q, _) => self.bind_pat(q, v, keep_wild),
            PatKind::Tuple(ps) => match v {
                Value::Tuple(vs) if vs.len() == ps.len() => {
                    let vs = Rc::try_unwrap(vs).unwrap_or_else(|rc| (*rc).clone());
                    for (q, x) in ps.iter().zip(vs) {
                        self.bind_pat(q, x, keep_wild)?;
                    }
                    Ok(())
                }
                v => internal(p.span, format!("tuple pattern of {} elements against {v:?}", ps.len())),
            },
            PatKind::Record(fields) => {
                for (name, _, q) in fields {
                    let x = project(v.clone(), name, q.span)?;
                    self.bind_pat(q, x, keep_wild)?;
                }
                Ok(())
            }
            // Irrefutable here (`check::patterns`): a constructor of a sum
            // type with no other.
            PatKind::Lit { .. } | PatKind::Constr(..) => {
                if self.match_pat(p, &v, keep_wild)? {
                    Ok(())
                } else {
                    internal(p.span, format!("a pattern outside `match` does not match {v:?}"))
                }
            }
        }
    }

    /// Whether `v` matches the pattern; binds its variables (and, when
    /// `keep_wild`, its wildcards) as `bind_pat` does, also when it then
    /// fails to match: the caller truncates the stack.
    fn match_pat(&mut self, p: &'a Pat, v: &Value<'a>, keep_wild: bool) -> R<bool> {
        match &p.kind {
            PatKind::Id(_) | PatKind::Wildcard => {
                self.bind_pat(p, v.clone(), keep_wild)?;
                Ok(true)
            }
            PatKind::Ascribe(q, _) => self.match_pat(q, v, keep_wild),
            PatKind::Tuple(ps) if ps.len() == 1 => self.match_pat(&ps[0], v, keep_wild),
            PatKind::Tuple(ps) => match v {
                Value::Tuple(vs) if vs.len() == ps.len() => {
                    for (q, x) in ps.iter().zip(vs.iter()) {
                        if !self.match_pat(q, x, keep_wild)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                v => internal(p.span, format!("tuple pattern of {} elements against {v:?}", ps.len())),
            },
            PatKind::Record(fields) => {
                for (name, _, q) in fields {
                    let x = project(v.clone(), name, q.span)?;
                    if !self.match_pat(q, &x, keep_wild)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            PatKind::Lit { lit, negated } => {
                let want = literal_value(lit, *negated, p.ty.as_ref());
                match (want, super::ad::bottom(v)) {
                    (Some(w), Some(x)) => Ok(scalar::prim_eq(w, x)),
                    _ => internal(p.span, format!("literal pattern against {v:?}")),
                }
            }
            PatKind::Constr(c, ps) => match v {
                Value::Sum(s) if s.payload.len() == ps.len() => {
                    if *s.constr != **c {
                        return Ok(false);
                    }
                    for (q, x) in ps.iter().zip(&s.payload) {
                        if !self.match_pat(q, x, keep_wild)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                }
                Value::Sum(_) => Ok(false),
                v => internal(p.span, format!("constructor pattern `#{c}` against {v:?}")),
            },
        }
    }

    /// Reassemble the value bound by `bind_pat(p, _, true)` from the slots
    /// starting at `*pos`, emptying them.
    fn unbind_pat(&mut self, p: &'a Pat, pos: &mut usize) -> R<Value<'a>> {
        match &p.kind {
            PatKind::Id(_) | PatKind::Wildcard => {
                let v = self.stack.get_mut(*pos).and_then(|s| s.1.take());
                *pos += 1;
                match v {
                    Some(v) => Ok(v),
                    None => internal(p.span, "loop variable consumed"),
                }
            }
            PatKind::Ascribe(q, _) => self.unbind_pat(q, pos),
            PatKind::Tuple(ps) => {
                let mut vs = Vec::with_capacity(ps.len());
                for q in ps {
                    vs.push(self.unbind_pat(q, pos)?);
                }
                Ok(Value::Tuple(Rc::new(vs)))
            }
            PatKind::Record(fields) => {
                let mut fs = Vec::with_capacity(fields.len());
                for (name, _, q) in fields {
                    fs.push((&**name, self.unbind_pat(q, pos)?));
                }
                fs.sort_by(|a, b| a.0.cmp(b.0));
                Ok(Value::Record(Rc::new(fs)))
            }
            PatKind::Constr(c, ps) => {
                let mut payload = Vec::with_capacity(ps.len());
                for q in ps {
                    payload.push(self.unbind_pat(q, pos)?);
                }
                Ok(Value::Sum(Rc::new(SumValue { constr: c, payload })))
            }
            PatKind::Lit { lit, negated } => match literal_value(lit, *negated, p.ty.as_ref()) {
                Some(x) => Ok(Value::prim(x)),
                None => internal(p.span, "a literal pattern of a non-primitive type"),
            },
        }
    }

    /// The value of `loop p for ...` without an initial value: the
    /// variables of the pattern.
    fn pat_value(&self, p: &'a Pat) -> R<Value<'a>> {
        match &p.kind {
            PatKind::Id(n) => self.lookup(n, p.span),
            PatKind::Ascribe(q, _) => self.pat_value(q),
            PatKind::Tuple(ps) => {
                let mut vs = Vec::with_capacity(ps.len());
                for q in ps {
                    vs.push(self.pat_value(q)?);
                }
                Ok(Value::Tuple(Rc::new(vs)))
            }
            PatKind::Record(fields) => {
                let mut fs = Vec::with_capacity(fields.len());
                for (name, _, q) in fields {
                    fs.push((&**name, self.pat_value(q)?));
                }
                fs.sort_by(|a, b| a.0.cmp(b.0));
                Ok(Value::Record(Rc::new(fs)))
            }
            _ => internal(
                p.span,
                "loop without an initial value has a pattern that is not a variable",
            ),
        }
    }

    /// Bind or check the sizes in a parameter's type against the argument:
    /// a size parameter of the function seen for the first time is bound to
    /// the dimension; a constant or a size already bound in this frame must
    /// equal it.
    fn bind_sizes(&mut self, type_params: &'a [TypeParam], ty: &'a Type, v: &Value<'a>, span: Span) -> R<()> {
        match (ty, v) {
            (Type::Array { shape, .. }, Value::Array(a)) => {
                for (k, d) in shape.iter().enumerate() {
                    let Some(&have) = a.shape.get(k) else { break };
                    match d {
                        Size::Const(c) => {
                            if have as i64 != *c {
                                return err(
                                    span,
                                    format!(
                                        "size mismatch: argument of shape {} where the parameter has type {ty}",
                                        shape_str(&a.shape)
                                    ),
                                );
                            }
                        }
                        Size::Var(n) => {
                            let bound = self.stack[self.base..].iter().rev().find(|(m, _)| same_name(m, n));
                            match bound {
                                Some((_, Some(v))) => {
                                    let bound = super::ad::bottom(v).and_then(scalar::as_i128);
                                    if bound.is_some() && bound != Some(have as i128) {
                                        return err(
                                            span,
                                            format!(
                                                "size mismatch: `{n}` is {} but the argument has shape {}",
                                                bound.unwrap_or(0),
                                                shape_str(&a.shape)
                                            ),
                                        );
                                    }
                                }
                                Some(_) => {}
                                None => {
                                    if type_params
                                        .iter()
                                        .any(|tp| matches!(tp, TypeParam::Size { name, .. } if **name == **n))
                                    {
                                        self.push_var(n, Value::i64(have as i64));
                                    }
                                }
                            }
                        }
                        // A size expression binds nothing; the internaliser
                        // does not check it either. `Infer` never survives
                        // checking.
                        Size::Unknown | Size::Infer(_) | Size::Expr(_) | Size::Term(_) => {}
                    }
                }
                Ok(())
            }
            (Type::Tuple(ts), Value::Tuple(vs)) => {
                for (t, x) in ts.iter().zip(vs.iter()) {
                    self.bind_sizes(type_params, t, x, span)?;
                }
                Ok(())
            }
            (Type::Record(fs), Value::Record(vs)) => {
                for (n, t) in fs {
                    if let Some((_, x)) = vs.iter().find(|(m, _)| **m == **n) {
                        self.bind_sizes(type_params, t, x, span)?;
                    }
                }
                Ok(())
            }
            (Type::Sum(cs), Value::Sum(s)) => {
                if let Some((_, ts)) = cs.iter().find(|(c, _)| **c == *s.constr) {
                    for (t, x) in ts.iter().zip(&s.payload) {
                        self.bind_sizes(type_params, t, x, span)?;
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Bind the parameters of a function in the current (new) frame.
    fn bind_params(
        &mut self,
        type_params: &'a [TypeParam],
        params: &'a [Pat],
        args: Vec<Value<'a>>,
        check_sizes: bool,
        span: Span,
    ) -> R<()> {
        for (p, v) in params.iter().zip(args) {
            if check_sizes {
                if let Some(t) = &p.ty {
                    self.bind_sizes(type_params, t, &v, span)?;
                }
            }
            self.bind_pat(p, v, false)?;
        }
        if check_sizes {
            // A size parameter that only the result's type mentions (`def
            // mat [m][n] (v: t) : [m][n]t`) takes its value from the call's
            // context, which this interpreter does not do yet.
            for tp in type_params {
                if let TypeParam::Size { name, .. } = tp {
                    if self.lookup_opt(name).is_none() {
                        return err(
                            span,
                            format!(
                                "the size parameter `{name}` is not determined by the arguments; taking it from the result's type is not supported yet"
                            ),
                        );
                    }
                }
            }
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Application.

    pub(crate) fn call_global(&mut self, vb: &'a ValBind, args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
        self.check_stack(span)?;
        let saved = self.enter(None);
        let r = match self.bind_params(&vb.type_params, &vb.params, args, true, span) {
            Ok(()) => self.eval(&vb.body),
            Err(e) => Err(e),
        };
        self.leave(saved);
        r
    }

    pub(crate) fn apply(&mut self, f: Value<'a>, args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
        match f {
            Value::Fun(f) => self.apply_fun(&f, args, span),
            v => internal(span, format!("applying {}", v.kind())),
        }
    }

    /// Curried application: too few arguments give a partial application,
    /// too many apply the result to the rest.
    pub(crate) fn apply_fun(&mut self, f: &Rc<Fun<'a>>, mut args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
        let ar = f.arity();
        if args.len() < ar {
            return Ok(Value::Fun(Rc::new(Fun::Partial(f.clone(), args))));
        }
        if args.len() > ar {
            let rest = args.split_off(ar);
            let r = self.call_exact(f, args, span)?;
            return self.apply(r, rest, span);
        }
        self.call_exact(f, args, span)
    }

    fn call_exact(&mut self, f: &Rc<Fun<'a>>, args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
        self.check_stack(span)?;
        match &**f {
            Fun::Closure(c) => {
                let saved = self.enter(c.env.clone());
                let check = !c.type_params.is_empty();
                let r = match self.bind_params(c.type_params, c.params, args, check, span) {
                    Ok(()) => self.eval(c.body),
                    Err(e) => Err(e),
                };
                self.leave(saved);
                r
            }
            Fun::Global(vb) => self.call_global(vb, args, span),
            Fun::Builtin(b) => self.call_builtin(*b, args, span, None),
            Fun::Partial(g, pre) => {
                let mut all = Vec::with_capacity(pre.len() + args.len());
                all.extend(pre.iter().cloned());
                all.extend(args);
                self.apply_fun(g, all, span)
            }
            Fun::RightSection(g, r) => {
                let mut all = args;
                all.push(r.clone());
                self.apply_fun(g, all, span)
            }
            Fun::Project(path) => {
                let Some(mut v) = args.into_iter().next() else {
                    return internal(span, "projection without an argument");
                };
                for n in path.iter() {
                    v = project(v, n, span)?;
                }
                Ok(v)
            }
        }
    }

    /// `f x`, fast for a one-parameter lambda (the body of a `map`).
    #[inline]
    pub(crate) fn call1(&mut self, f: &Rc<Fun<'a>>, x: Value<'a>, span: Span) -> R<Value<'a>> {
        if let Fun::Closure(c) = &**f {
            if c.params.len() == 1 && c.type_params.is_empty() {
                let saved = self.enter(c.env.clone());
                let p = &c.params[0];
                let bound = match &p.kind {
                    PatKind::Id(n) => {
                        self.stack.push((n, Some(x)));
                        Ok(())
                    }
                    _ => self.bind_pat(p, x, false),
                };
                let r = match bound {
                    Ok(()) => self.eval(c.body),
                    Err(e) => Err(e),
                };
                self.leave(saved);
                return r;
            }
        }
        self.apply_fun(f, vec![x], span)
    }

    /// `f x y`, fast for operators and two-parameter lambdas.
    #[inline]
    pub(crate) fn call2(&mut self, f: &Rc<Fun<'a>>, x: Value<'a>, y: Value<'a>, span: Span) -> R<Value<'a>> {
        match &**f {
            Fun::Builtin(Builtin::Op(op)) => {
                self.tick();
                return self.apply_binop(*op, x, y, span);
            }
            Fun::Closure(c) if c.params.len() == 2 && c.type_params.is_empty() => {
                let saved = self.enter(c.env.clone());
                let r = match self.bind_pat(&c.params[0], x, false) {
                    Ok(()) => match self.bind_pat(&c.params[1], y, false) {
                        Ok(()) => self.eval(c.body),
                        Err(e) => Err(e),
                    },
                    Err(e) => Err(e),
                };
                self.leave(saved);
                return r;
            }
            _ => {}
        }
        self.apply_fun(f, vec![x, y], span)
    }

    // Note [Empty results of polymorphic functions]
    // A function that builds an array of a type parameter's values (the
    // prelude's `map2`, whose `map` makes a `[n]c`) builds an empty one
    // without knowing the rows' shape: `c` is not known inside it. The
    // application's own type is (`[0][m]i64` for `map2 (\x y ->
    // replicate m 1) xs ys`), so an empty array returned by an
    // application takes its row sizes and element type from there, where
    // the sizes are known. Without this, `transpose` of such a result
    // failed and entry points returned `[0][0]` for `[0][m]` (found by
    // `futmlir fuzz`).

    // -----------------------------------------------------------------------
    // Arrays: literals, ranges, indexing, updates, shapes.

    /// An empty array of the given array type (sizes from the type where
    /// they are known, element type `Boxed` when it is not a scalar).
    pub(crate) fn empty_array(&mut self, ty: Option<&Type>) -> Array<'a> {
        match ty {
            Some(Type::Array { elem, shape, .. }) => {
                let mut dims = Vec::with_capacity(shape.len());
                dims.push(0);
                for d in shape.iter().skip(1) {
                    dims.push(self.size_value(d).unwrap_or(0).max(0) as usize);
                }
                let data = match elem.prim() {
                    Some(t) => Data::of_prim(t, 0),
                    None => {
                        dims.truncate(1);
                        Data::Boxed(Vec::new())
                    }
                };
                Array::new(dims, data)
            }
            _ => Array::new(vec![0], Data::Boxed(Vec::new())),
        }
    }

    pub(crate) fn finish_array(&mut self, b: Builder<'a>, ty: Option<&Type>) -> Value<'a> {
        match b.finish() {
            Some(a) => Value::array(a),
            None => Value::array(self.empty_array(ty)),
        }
    }

    /// The value of a size, when known.
    pub(crate) fn size_value(&mut self, d: &Size) -> Option<i64> {
        if let Some(v) = self.term_size_value(d) {
            return v;
        }
        d.eval(&mut |n| {
            self.lookup_opt(n)
                .and_then(super::ad::bottom)
                .and_then(scalar::as_i128)
                .map(|v| v as i64)
        })
    }

    /// The value of a size with a term in it (`None` for one without):
    /// the terms evaluated with their holes bound, then the arithmetic
    /// (Note [Size terms] in `types`).
    fn term_size_value(&mut self, d: &Size) -> Option<Option<i64>> {
        match d {
            Size::Term(t) => {
                let mut vars: Vec<(Sym<'a>, Option<Value<'a>>)> = Vec::new();
                for (name, (_, h)) in t.names.iter().zip(&t.holes) {
                    // A hole that is a name keeps its value's type (`n` of
                    // `i64.i32 n` is an `i32`).
                    let v = match h {
                        Size::Var(m) => self.lookup_opt(m).cloned(),
                        _ => None,
                    };
                    let v = match v {
                        Some(v) => v,
                        None => match self.size_value(h) {
                            Some(x) => Value::i64(x),
                            None => return Some(None),
                        },
                    };
                    vars.push((&**name, Some(v)));
                }
                let saved = self.enter(Some(Rc::new(Captured { vars })));
                let r = self.eval(t.exp);
                self.leave(saved);
                Some(
                    r.ok()
                        .and_then(|v| super::ad::bottom(&v))
                        .and_then(scalar::as_i128)
                        .map(|v| v as i64),
                )
            }
            Size::Expr(e) if d.any_term() => {
                let a = match self.size_value(&e.lhs) {
                    Some(a) => a,
                    None => return Some(None),
                };
                let b = match self.size_value(&e.rhs) {
                    Some(b) => b,
                    None => return Some(None),
                };
                Some(e.op.apply(a, b))
            }
            _ => None,
        }
    }

    /// `[d1]...[dk]elem` with the sizes whose values are known written as
    /// numbers, as Futhark's size-coercion message shows the type.
    fn sized_type_text(&mut self, shape: &[Size], elem: &Type) -> String {
        let dims: String = shape
            .iter()
            .map(|d| match self.size_value(d) {
                Some(v) => format!("[{v}]"),
                None => format!("[{d}]"),
            })
            .collect();
        format!("{dims}{elem}")
    }

    /// `e :> t`: the value's shape must have the sizes of `t`.
    pub(crate) fn check_shape(&mut self, v: &Value<'a>, ty: &Type, span: Span) -> R<()> {
        match (ty, v) {
            (Type::Array { shape, elem, .. }, Value::Array(a)) => {
                for (k, d) in shape.iter().enumerate() {
                    let have = a.shape.get(k).copied().unwrap_or(0) as i64;
                    if let Some(want) = self.size_value(d) {
                        if want != have {
                            return err(
                                span,
                                format!(
                                    "Value of shape {} cannot match shape of type \"{}\".",
                                    shape_str(&a.shape),
                                    self.sized_type_text(shape, elem)
                                ),
                            );
                        }
                    }
                }
                if let (Data::Boxed(xs), true) = (
                    &a.data,
                    matches!(**elem, Type::Tuple(_) | Type::Record(_) | Type::Sum(_)),
                ) {
                    for x in xs {
                        self.check_shape(x, elem, span)?;
                    }
                }
                Ok(())
            }
            (Type::Tuple(ts), Value::Tuple(vs)) => {
                for (t, x) in ts.iter().zip(vs.iter()) {
                    self.check_shape(x, t, span)?;
                }
                Ok(())
            }
            (Type::Record(fs), Value::Record(vs)) => {
                for (n, t) in fs {
                    if let Some((_, x)) = vs.iter().find(|(m, _)| **m == **n) {
                        self.check_shape(x, t, span)?;
                    }
                }
                Ok(())
            }
            (Type::Sum(cs), Value::Sum(s)) => {
                if let Some((_, ts)) = cs.iter().find(|(c, _)| **c == *s.constr) {
                    for (t, x) in ts.iter().zip(&s.payload) {
                        self.check_shape(x, t, span)?;
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    #[inline(never)]
    fn eval_range(
        &mut self,
        start: &'a Exp,
        second: Option<&'a Exp>,
        end: &'a Exp,
        kind: RangeEnd,
        e: &'a Exp,
    ) -> R<Value<'a>> {
        let s = self.eval(start)?;
        let Some(sp) = super::ad::bottom(&s) else {
            return internal(start.span, "range bound is not a scalar");
        };
        let t = sp.prim_type();
        let int = |v: &Value<'a>, span: Span| match super::ad::bottom(v) {
            Some(p) => scalar::as_i128(p).ok_or_else(|| error(span, "internal error: range bound is not an integer")),
            None => Err(error(span, "internal error: range bound is not a scalar")),
        };
        let sv = int(&s, start.span)?;
        let second = match second {
            Some(x) => {
                let v = self.eval(x)?;
                Some(int(&v, x.span)?)
            }
            None => None,
        };
        let ev = {
            let v = self.eval(end)?;
            int(&v, end.span)?
        };
        let stride = match second {
            Some(x) => x - sv,
            None if kind == RangeEnd::DownToExclusive => -1,
            None => 1,
        };
        let count = match kind {
            RangeEnd::Inclusive if stride > 0 && ev >= sv => Some((ev - sv) / stride + 1),
            RangeEnd::Inclusive if stride < 0 && ev <= sv => Some((sv - ev) / -stride + 1),
            RangeEnd::UpToExclusive if stride > 0 && ev >= sv => Some((ev - sv + stride - 1) / stride),
            RangeEnd::DownToExclusive if stride < 0 && ev <= sv => Some((sv - ev - stride - 1) / -stride),
            _ => None,
        };
        let Some(count) = count else {
            let mid = second.map(|x| format!("..{x}")).unwrap_or_default();
            let op = match kind {
                RangeEnd::Inclusive => "...",
                RangeEnd::UpToExclusive => "..<",
                RangeEnd::DownToExclusive => "..>",
            };
            return err(e.span, format!("Range {sv}{mid}{op}{ev} is invalid."));
        };
        let n = check_alloc(count, e.span)?;
        let mut data = Data::of_prim(t, n);
        let mut x = sv;
        for _ in 0..n {
            data.push_prim(scalar::from_i128(t, x));
            x += stride;
        }
        self.charge(n as u64, 1);
        Ok(Value::array(Array::new(vec![n], data)))
    }

    fn eval_indices(&mut self, idx: &'a [DimIndex]) -> R<Vec<Ix>> {
        let mut out = Vec::with_capacity(idx.len());
        for d in idx {
            out.push(match d {
                DimIndex::Fix(e) => Ix::Fix(self.eval_i64(e)?),
                DimIndex::Slice { start, end, stride } => {
                    let mut part = |x: &'a Option<Exp>| -> R<Option<i64>> {
                        match x {
                            Some(e) => Ok(Some(self.eval_i64(e)?)),
                            None => Ok(None),
                        }
                    };
                    Ix::Slice(part(start)?, part(end)?, part(stride)?)
                }
            });
        }
        Ok(out)
    }

    /// `a with [ix] = v`, in place when `a` holds the only reference.
    pub(crate) fn update(&mut self, a: Value<'a>, ix: &[Ix], v: Value<'a>, span: Span) -> R<Value<'a>> {
        let Value::Array(mut rc) = a else {
            return internal(span, format!("updating {}", a.kind()));
        };
        let sels = resolve(ix, &rc.shape).ok_or_else(|| index_error(ix, &rc.shape, span))?;
        let (starts, block, shape) = selection(&sels, &rc.shape);
        self.charge(starts.len().saturating_mul(block).max(1) as u64, 1);
        let arr = Rc::make_mut(&mut rc);
        if shape.is_empty() {
            if !arr.data.set(starts[0], v) {
                return internal(span, "element of the wrong type in an update");
            }
            return Ok(Value::Array(rc));
        }
        let Value::Array(src) = v else {
            return internal(span, format!("updating a slice with {}", v.kind()));
        };
        if src.shape != shape {
            // An empty array built without its element type (see the
            // value representation in `value.rs`) has lost its inner
            // sizes; written to an empty slice with its outer ones, it is
            // the empty array the slice expects.
            let unknown_empty = matches!(&src.data, Data::Boxed(xs) if xs.is_empty());
            if unknown_empty && shape.starts_with(&src.shape) && shape.contains(&0) {
                return Ok(Value::Array(rc));
            }
            return err(
                span,
                format!(
                    "size mismatch in update: a value of shape {} cannot be written to a slice of shape {}",
                    shape_str(&src.shape),
                    shape_str(&shape)
                ),
            );
        }
        for (k, s) in starts.iter().enumerate() {
            if !arr.data.write(*s, &src.data, k * block, block) {
                return internal(span, "array of the wrong element type in an update");
            }
        }
        Ok(Value::Array(rc))
    }

    // -----------------------------------------------------------------------
    // Loops.

    #[inline(never)]
    fn eval_loop(
        &mut self,
        pat: &'a Pat,
        init: Option<&'a Exp>,
        form: &'a LoopForm,
        body: &'a Exp,
        span: Span,
    ) -> R<Value<'a>> {
        let mut acc = match init {
            Some(e) => self.eval(e)?,
            None => self.pat_value(pat)?,
        };
        let mark = self.stack.len();
        match form {
            LoopForm::For(i, _, bound) => {
                let n = self.eval(bound)?;
                let Some(np) = super::ad::bottom(&n) else {
                    return internal(bound.span, "loop bound is not a scalar");
                };
                let t = np.prim_type();
                let count = scalar::as_i128(np).ok_or_else(|| error(bound.span, "internal error: loop bound"))?;
                let mut k: i128 = 0;
                while k < count {
                    self.bind_pat(pat, acc, false)?;
                    self.push_var(i, Value::prim(scalar::from_i128(t, k)));
                    acc = self.eval(body)?;
                    self.stack.truncate(mark);
                    k += 1;
                }
            }
            LoopForm::ForIn(p, xs) => {
                let xs = self.eval(xs)?;
                let Value::Array(xs) = xs else {
                    return internal(span, "`for ... in` over a non-array");
                };
                for r in 0..xs.outer() {
                    self.bind_pat(pat, acc, false)?;
                    self.bind_pat(p, xs.row(r), false)?;
                    acc = self.eval(body)?;
                    self.stack.truncate(mark);
                }
            }
            LoopForm::While(cond) => loop {
                self.bind_pat(pat, acc, true)?;
                if !self.eval_bool(cond)? {
                    let mut pos = mark;
                    acc = self.unbind_pat(pat, &mut pos)?;
                    self.stack.truncate(mark);
                    break;
                }
                // Wildcard slots are not needed by the body.
                acc = self.eval(body)?;
                self.stack.truncate(mark);
            },
        }
        Ok(acc)
    }
}

/// A scalar integer as i64 (saturating).
pub(crate) fn as_i64(v: &Value<'_>, span: Span) -> R<i64> {
    match super::ad::bottom(v).and_then(scalar::as_i128) {
        Some(x) => Ok(x.clamp(i64::MIN as i128, i64::MAX as i128) as i64),
        None => internal(span, format!("expected an integer, got {}", v.kind())),
    }
}

/// Refuse arrays too large to allocate (instead of aborting).
pub(crate) fn check_alloc(n: i128, span: Span) -> R<usize> {
    if n < 0 {
        return err(span, format!("negative array size {n}"));
    }
    if n > (1i128 << 32) {
        return err(span, format!("array of {n} elements is too large"));
    }
    Ok(n as usize)
}

/// Field `f` of a record, or element `f` of a tuple.
pub(crate) fn project<'a>(v: Value<'a>, f: &str, span: Span) -> R<Value<'a>> {
    match v {
        Value::Tuple(vs) => {
            let Some(i) = f.parse::<usize>().ok().filter(|i| *i < vs.len()) else {
                return internal(span, format!("tuple has no field `{f}`"));
            };
            Ok(match Rc::try_unwrap(vs) {
                Ok(mut vs) => vs.swap_remove(i),
                Err(rc) => rc[i].clone(),
            })
        }
        Value::Record(fs) => match fs.iter().find(|(n, _)| *n == f) {
            Some((_, x)) => Ok(x.clone()),
            None => internal(span, format!("record has no field `{f}`")),
        },
        v => internal(span, format!("projecting field `{f}` of {}", v.kind())),
    }
}

/// `r with a.b = v`
fn record_set<'a>(r: Value<'a>, path: &[Name], v: Value<'a>, span: Span) -> R<Value<'a>> {
    let Some((first, rest)) = path.split_first() else {
        return Ok(v);
    };
    match r {
        Value::Record(mut fs) => {
            let fsm = Rc::make_mut(&mut fs);
            let Some(slot) = fsm.iter_mut().find(|(n, _)| **n == **first) else {
                return internal(span, format!("record has no field `{first}`"));
            };
            let old = std::mem::replace(&mut slot.1, Value::unit());
            slot.1 = record_set(old, rest, v, span)?;
            Ok(Value::Record(fs))
        }
        Value::Tuple(mut vs) => {
            let n = vs.len();
            let Some(i) = first.parse::<usize>().ok().filter(|i| *i < n) else {
                return internal(span, format!("tuple has no field `{first}`"));
            };
            let vsm = Rc::make_mut(&mut vs);
            let old = std::mem::replace(&mut vsm[i], Value::unit());
            vsm[i] = record_set(old, rest, v, span)?;
            Ok(Value::Tuple(vs))
        }
        r => internal(span, format!("record update of {}", r.kind())),
    }
}

// Note [Slice bounds]
//
// A slice `i:j:s` is in bounds when the elements it selects are: for a
// positive stride `0 <= i <= j`, `i <= n` and the last selected element
// `i + (k-1)*s` below `n` (`j` itself may pass the end: `[7:9:2]` of an
// array of 8 is `[7]`, as in Futhark); for a negative stride `j <= i < n`
// and the last element at least 0. The compiled check (internalise's
// `indices`) is the same.

/// Resolve indices against a shape; `None` when out of bounds.
pub(crate) fn resolve(ix: &[Ix], shape: &[usize]) -> Option<Vec<DimSel>> {
    if ix.len() > shape.len() {
        return None;
    }
    let mut out = Vec::with_capacity(ix.len());
    for (i, d) in ix.iter().zip(shape) {
        // i128: strides and bounds are arbitrary i64s.
        let n = *d as i128;
        out.push(match *i {
            Ix::Fix(k) => {
                if !(0..n).contains(&(k as i128)) {
                    return None;
                }
                DimSel::Fix(k as usize)
            }
            Ix::Slice(s, e, st) => {
                let st = st.unwrap_or(1) as i128;
                let (s, e) = (s.map(i128::from), e.map(i128::from));
                // See Note [Slice bounds].
                if st > 0 {
                    let s = s.unwrap_or(0);
                    let e = e.unwrap_or(n);
                    let count = (e - s + st - 1) / st;
                    if !(0 <= s && s <= e && s <= n && s + (count - 1) * st < n) {
                        return None;
                    }
                    DimSel::Range {
                        start: s as usize,
                        count: count as usize,
                        stride: st as i64,
                    }
                } else if st < 0 {
                    let s = s.unwrap_or(n - 1);
                    let e = e.unwrap_or(-1);
                    let count = (s - e + (-st) - 1) / -st;
                    let nonempty_ok = e <= s && s < n && s + (count - 1) * st >= 0;
                    let empty_ok = s == e && (-1..=n).contains(&s);
                    if !(nonempty_ok || empty_ok) {
                        return None;
                    }
                    DimSel::Range {
                        start: s.max(0) as usize,
                        count: count as usize,
                        stride: st as i64,
                    }
                } else {
                    return None;
                }
            }
        });
    }
    Some(out)
}

/// The flat start of every selected block, the block length, and the shape
/// of the selection.
pub(crate) fn selection(sels: &[DimSel], shape: &[usize]) -> (Vec<usize>, usize, Vec<usize>) {
    let k = sels.len();
    let inner: usize = shape[k..].iter().product();
    let mut strides = vec![inner; k];
    for d in (0..k.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let mut out_shape: Vec<usize> = Vec::with_capacity(shape.len());
    for s in sels {
        if let DimSel::Range { count, .. } = s {
            out_shape.push(*count);
        }
    }
    out_shape.extend_from_slice(&shape[k..]);
    // A trailing contiguous range merges into the block.
    let (sels, block, first) = match sels.split_last() {
        Some((
            DimSel::Range {
                start,
                count,
                stride: 1,
            },
            rest,
        )) => (rest, inner * count, start * inner),
        _ => (sels, inner, 0),
    };
    let mut starts = vec![first];
    for (d, s) in sels.iter().enumerate() {
        match *s {
            DimSel::Fix(i) => {
                for x in starts.iter_mut() {
                    *x += i * strides[d];
                }
            }
            DimSel::Range { start, count, stride } => {
                let mut next = Vec::with_capacity(starts.len() * count);
                for &x in &starts {
                    for j in 0..count {
                        let idx = start as i64 + j as i64 * stride;
                        next.push(x + idx as usize * strides[d]);
                    }
                }
                starts = next;
            }
        }
    }
    (starts, block, out_shape)
}

fn ix_str(ix: &[Ix]) -> String {
    let parts: Vec<String> = ix
        .iter()
        .map(|i| match i {
            Ix::Fix(k) => k.to_string(),
            Ix::Slice(s, e, st) => {
                let f = |x: &Option<i64>| x.map(|v| v.to_string()).unwrap_or_default();
                match st {
                    Some(st) => format!("{}:{}:{st}", f(s), f(e)),
                    None => format!("{}:{}", f(s), f(e)),
                }
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

pub(crate) fn index_error(ix: &[Ix], shape: &[usize], span: Span) -> Box<RuntimeError> {
    error(
        span,
        format!(
            "Index {} out of bounds for array of shape {}.",
            ix_str(ix),
            shape_str(shape)
        ),
    )
}

/// `a[ix]`
pub(crate) fn index_value<'a>(v: Value<'a>, ix: &[Ix], span: Span) -> R<Value<'a>> {
    let Value::Array(a) = v else {
        return internal(span, format!("indexing {}", v.kind()));
    };
    if let ([Ix::Fix(i)], 1) = (ix, a.shape.len()) {
        if *i >= 0 && (*i as usize) < a.shape[0] {
            return Ok(a.data.get(*i as usize));
        }
        return Err(index_error(ix, &a.shape, span));
    }
    let sels = resolve(ix, &a.shape).ok_or_else(|| index_error(ix, &a.shape, span))?;
    let (starts, block, shape) = selection(&sels, &a.shape);
    if shape.is_empty() {
        return Ok(a.data.get(starts[0]));
    }
    if starts.len() == 1 && block == a.data.len() && shape == a.shape {
        return Ok(Value::Array(a));
    }
    Ok(Value::array(Array::new(shape, a.data.gather(&starts, block))))
}

/// The value of a literal pattern at its type (`-1` on `u8` is 255, as the
/// expression `-1` is).
fn literal_value(lit: &Literal, negated: bool, ty: Option<&Type>) -> Option<crate::values::PrimValue> {
    let t = ty.and_then(Type::prim);
    Some(match lit {
        Literal::Int { value, suffix } => {
            let t = t.or(*suffix).unwrap_or(PrimType::I32);
            let v = i128::try_from(*value).ok()?;
            if t.is_float() {
                scalar::from_f64(t, if negated { -(v as f64) } else { v as f64 })
            } else {
                scalar::from_i128(t, if negated { -v } else { v })
            }
        }
        Literal::Float { value, suffix } => scalar::from_f64(
            t.or(*suffix).unwrap_or(PrimType::F64),
            if negated { -value } else { *value },
        ),
        Literal::Bool(b) => crate::values::PrimValue::Bool(*b),
        Literal::String(_) => return None,
    })
}
