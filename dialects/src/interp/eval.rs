//! Evaluation of `soac` ops.
//!
//! Each function call has an environment from SSA values to run-time
//! values. A block runs its ops in order until its terminator (`soac.yield`
//! or `soac.return`), whose operands are the block's results. SOACs run
//! their lambdas sequentially, row by row: `reduce` and `scan` fold from
//! the left with the neutral element first, `scatter` and `hist` process
//! the rows in order (a later write to an index wins), streams take the
//! whole input as one chunk.
//!
//! Note [In-place updates].
//! Arrays are shared (`Rc`) and copied when written while shared. An op
//! takes an operand out of the environment, instead of sharing it, when
//! the op is the last use of the value: the value is defined in the op's
//! block and all its other uses are in ops before it there (or nested in
//! them), so nothing can read it afterwards. A chain of `soac.update`s
//! through loop merge parameters then writes one array in place, as the
//! program's uniqueness types promise.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use crate::ir::{Attr, AttrKind, BlockId, Context, Dim, OpId, Scalar, Symbol, Type, TypeKind, Value};

use futmlir_values::scalar::{as_i128, from_f64, from_i128};

use super::scalar::{binop, cmpop, convop, ternop, unop};
use super::value::{
    array, data_with_capacity, elements, extend_range, gather, repeat, row, row_len, set_elem, shape_text, single,
    write_range, Stack, Val,
};
use super::SoacError;
use futmlir_values::{Array, ArrayData, PrimType, PrimValue};

/// A hasher for value handles (small integers).
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0 ^ i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

pub type Env = HashMap<Value, Val, BuildHasherDefault<IdHasher>>;

type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// The ops, by name.
const OPS: &[&str] = &[
    "soac.scatter_stream",
    "soac.hist_stream",
    "soac.acc_write",
    "soac.constant",
    "soac.binop",
    "soac.cmpop",
    "soac.unop",
    "soac.ternop",
    "soac.convop",
    "soac.select",
    "soac.assert",
    "soac.apply",
    "soac.if",
    "soac.loop",
    "soac.iota",
    "soac.replicate",
    "soac.reshape",
    "soac.rearrange",
    "soac.concat",
    "soac.rotate",
    "soac.index",
    "soac.update",
    "soac.slice",
    "soac.size",
    "soac.copy",
    "soac.map",
    "soac.reduce",
    "soac.scan",
    "soac.redomap",
    "soac.scanomap",
    "soac.screma",
    "soac.scatter",
    "soac.hist",
    "soac.filter",
    "soac.partition",
    "soac.stream_seq",
    "soac.stream_par",
    "soac.yield",
    "soac.return",
    "segop.segmap",
    "segop.segred",
    "segop.segscan",
    "segop.seghist",
    "segop.filter",
    "segop.manifest",
    "segop.if_threshold",
    "segop.yield",
];

/// The attribute names the ops read, interned once (`None` when no op
/// has one).
struct Keys {
    kind: Option<Symbol>,
    form: Option<Symbol>,
    dim: Option<Symbol>,
    perm: Option<Symbol>,
    value: Option<Symbol>,
    callee: Option<Symbol>,
    k: Option<Symbol>,
    message: Option<Symbol>,
    num_accs: Option<Symbol>,
}

pub type R<T> = Result<T, SoacError>;

/// Calls nested deeper than this are an error (Futhark has no recursion;
/// malformed IR might).
const MAX_CALL_DEPTH: usize = 256;

pub struct Machine<'c> {
    pub ctx: &'c Context,
    funcs: HashMap<&'c str, OpId>,
    depth: std::cell::Cell<usize>,
    /// For each op run so far, which operands are their value's last use
    /// (Note [In-place updates]).
    last_uses: std::cell::RefCell<IdMap<OpId, Vec<bool>>>,
    /// The accumulator streams running, innermost last: the operator of a
    /// `soac.hist_stream`, `None` for a `soac.scatter_stream`. A write goes
    /// to the innermost (as in the frontend's Note [Accumulators in the
    /// interpreter]: an accumulator is unique, so no inner stream's lambda
    /// holds an outer one's).
    acc_ops: std::cell::RefCell<Vec<Option<BlockId>>>,
    /// The op names of [`OPS`], interned, to the names themselves.
    ops: IdMap<Symbol, &'static str>,
    keys: Keys,
}

impl<'c> Machine<'c> {
    /// The functions of `module` (a `builtin.module` of `soac.func`s).
    pub fn new(ctx: &'c Context, module: OpId) -> R<Machine<'c>> {
        let mut funcs = HashMap::new();
        let block = ctx
            .regions(module)
            .first()
            .and_then(|&r| ctx.blocks(r).first().copied())
            .ok_or_else(|| SoacError::at(ctx, module, "the module has no body"))?;
        for op in ctx.block_ops(block) {
            if ctx.op_name(op) != "soac.func" {
                continue;
            }
            let name = ctx.attr(op, "sym_name").and_then(|a| match ctx.attr_kind(a) {
                AttrKind::String(s) => Some(ctx.str(*s)),
                _ => None,
            });
            match name {
                Some(n) => {
                    funcs.insert(n, op);
                }
                None => return Err(SoacError::at(ctx, op, "a function without a `sym_name`")),
            }
        }
        Ok(Machine {
            ctx,
            funcs,
            depth: std::cell::Cell::new(0),
            last_uses: Default::default(),
            acc_ops: Default::default(),
            ops: OPS.iter().filter_map(|&n| Some((ctx.lookup_sym(n)?, n))).collect(),
            keys: Keys {
                kind: ctx.lookup_sym("kind"),
                form: ctx.lookup_sym("form"),
                dim: ctx.lookup_sym("dim"),
                perm: ctx.lookup_sym("perm"),
                value: ctx.lookup_sym("value"),
                callee: ctx.lookup_sym("callee"),
                k: ctx.lookup_sym("k"),
                message: ctx.lookup_sym("message"),
                num_accs: ctx.lookup_sym("num_accs"),
            },
        })
    }

    pub fn func(&self, name: &str) -> Option<OpId> {
        self.funcs.get(name).copied()
    }

    /// The name of `op` if it is one of [`OPS`], else `""`.
    fn name(&self, op: OpId) -> &'static str {
        self.ops.get(&self.ctx.op_name_sym(op)).copied().unwrap_or("")
    }

    /// Attribute `key` of `op`.
    fn attr(&self, op: OpId, key: Option<Symbol>) -> Option<Attr> {
        let key = key?;
        self.ctx.attrs(op).iter().find(|(k, _)| *k == key).map(|(_, a)| *a)
    }

    pub fn fail(&self, op: OpId, msg: impl Into<String>) -> SoacError {
        SoacError::at(self.ctx, op, msg)
    }

    // ----- functions and blocks ------------------------------------------------

    /// The entry block of region `i` of `op`.
    pub fn body(&self, op: OpId, i: usize) -> R<BlockId> {
        self.ctx
            .regions(op)
            .get(i)
            .and_then(|&r| self.ctx.blocks(r).first().copied())
            .ok_or_else(|| self.fail(op, format!("expected a region #{i} with a block")))
    }

    /// Calls function `func` (a `soac.func` op) on all its arguments.
    pub fn call(&self, func: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let depth = self.depth.get();
        if depth >= MAX_CALL_DEPTH {
            return Err(self.fail(func, "calls nested too deeply (recursion?)"));
        }
        let b = self.body(func, 0)?;
        self.depth.set(depth + 1);
        let mut env = Env::default();
        let r = self.run_block(&mut env, b, args, "soac.return");
        self.depth.set(depth);
        r
    }

    /// Binds `args` to the arguments of block `b` and runs it; the operands
    /// of its terminator (`term`) are the results.
    pub fn run_block(&self, env: &mut Env, b: BlockId, args: Vec<Val>, term: &str) -> R<Vec<Val>> {
        let ctx = self.ctx;
        let params = ctx.block_args(b);
        let owner = || {
            ctx.block_parent(b)
                .and_then(|r| ctx.region_parent(r))
                .map(|op| SoacError::at(ctx, op, ""))
                .unwrap_or_else(|| SoacError::unknown(""))
        };
        if params.len() != args.len() {
            let mut e = owner();
            e.message = format!("a block of {} arguments given {}", params.len(), args.len());
            return Err(e);
        }
        for (&p, a) in params.iter().zip(args) {
            env.insert(p, a);
        }
        let mut cur = ctx.first_op(b);
        while let Some(op) = cur {
            let name = self.name(op);
            if matches!(name, "soac.yield" | "soac.return" | "segop.yield") {
                if name != term {
                    return Err(self.fail(op, format!("`{name}` where `{term}` is expected")));
                }
                return self.operands(env, op);
            }
            self.exec(env, op)?;
            cur = ctx.next_op(op);
        }
        let mut e = owner();
        e.message = format!("a block that does not end in `{term}`");
        Err(e)
    }

    /// Runs a lambda block on `args`.
    fn lambda(&self, env: &mut Env, b: BlockId, args: Vec<Val>) -> R<Vec<Val>> {
        self.run_block(env, b, args, "soac.yield")
    }

    // ----- operands ----------------------------------------------------------

    /// The values of the operands of `op`, taken out of the environment
    /// where this is their last use (Note [In-place updates]).
    fn operands(&self, env: &mut Env, op: OpId) -> R<Vec<Val>> {
        let ctx = self.ctx;
        let mut cache = self.last_uses.borrow_mut();
        let last = cache.entry(op).or_insert_with(|| last_uses(ctx, op));
        let mut out = Vec::with_capacity(ctx.operands(op).len());
        for (&v, &last) in ctx.operands(op).iter().zip(last.iter()) {
            let x = if last {
                match env.get(&v) {
                    Some(Val::Arr(_)) => env.remove(&v),
                    Some(p) => Some(p.clone()),
                    None => None,
                }
            } else {
                env.get(&v).cloned()
            };
            out.push(x.ok_or_else(|| self.fail(op, "an operand used before it is defined"))?);
        }
        Ok(out)
    }

    fn prim(&self, op: OpId, v: &Val) -> R<PrimValue> {
        match v {
            Val::Prim(p) => Ok(*p),
            Val::Arr(_) => Err(self.fail(op, format!("expected a scalar, found an array {}", v.type_text()))),
        }
    }

    fn bool(&self, op: OpId, v: &Val) -> R<bool> {
        match v {
            Val::Prim(PrimValue::Bool(b)) => Ok(*b),
            _ => Err(self.fail(op, format!("expected a bool, found {}", v.type_text()))),
        }
    }

    /// An `i64` operand.
    fn i64(&self, op: OpId, v: &Val) -> R<i64> {
        match v {
            Val::Prim(PrimValue::I64(x)) => Ok(*x),
            _ => Err(self.fail(op, format!("expected an i64, found {}", v.type_text()))),
        }
    }

    /// A size: a non-negative `i64`.
    fn size(&self, op: OpId, v: &Val) -> R<usize> {
        let x = self.i64(op, v)?;
        usize::try_from(x).map_err(|_| self.fail(op, format!("a negative size {x}")))
    }

    fn arr<'v>(&self, op: OpId, v: &'v Val) -> R<&'v Rc<Array>> {
        match v {
            Val::Arr(a) => Ok(a),
            Val::Prim(p) => Err(self.fail(op, format!("expected an array, found a {}", p.prim_type().name()))),
        }
    }

    /// The arrays among `vs`, each of outer size `n`.
    fn inputs<'v>(&self, op: OpId, n: usize, vs: &'v [Val]) -> R<Vec<&'v Rc<Array>>> {
        let mut out = Vec::new();
        for v in vs {
            let a = self.arr(op, v)?;
            if a.shape.first() != Some(&n) {
                return Err(self.fail(
                    op,
                    format!("an input array of type {} where the outer size is {n}", v.type_text()),
                ));
            }
            out.push(a);
        }
        Ok(out)
    }

    /// Row `i` of each array.
    fn rows(&self, op: OpId, arrs: &[&Rc<Array>], i: usize) -> R<Vec<Val>> {
        arrs.iter().map(|a| row(a, i).map_err(|m| self.fail(op, m))).collect()
    }

    // ----- attributes and types ------------------------------------------------

    fn str_attr(&self, op: OpId, key: Option<Symbol>, name: &str) -> R<&'c str> {
        let ctx = self.ctx;
        match self.attr(op, key).map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::String(s)) => Ok(ctx.str(*s)),
            _ => Err(self.fail(op, format!("expected a string attribute `{name}`"))),
        }
    }

    /// An integer attribute; `default` when absent.
    fn int_attr(&self, op: OpId, key: Option<Symbol>, name: &str, default: Option<i64>) -> R<i64> {
        let ctx = self.ctx;
        match self.attr(op, key).map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Int { bits, .. }) => Ok(*bits),
            None if default.is_some() => Ok(default.unwrap_or(0)),
            _ => Err(self.fail(op, format!("expected an integer attribute `{name}`"))),
        }
    }

    fn result_types(&self, op: OpId) -> Vec<Type> {
        self.ctx.results(op).map(|r| self.ctx.value_type(r)).collect()
    }

    /// The scalar type of a scalar or array type.
    fn elem_scalar(&self, op: OpId, t: Type) -> R<Scalar> {
        match self.ctx.type_kind(t) {
            TypeKind::Scalar(s) => Ok(*s),
            TypeKind::Array { elem, .. } => self
                .ctx
                .as_scalar(*elem)
                .ok_or_else(|| self.fail(op, "an array of a non-scalar element type")),
            _ => Err(self.fail(op, "a value of a type that is neither a scalar nor an array")),
        }
    }

    /// The dimensions of type `t` from `skip` on, as far as they are known
    /// here (an unknown one counts as 0): the row shape of an empty result.
    fn known_dims(&self, env: &Env, t: Type, skip: usize) -> Vec<usize> {
        match self.ctx.type_kind(t) {
            TypeKind::Array { shape, .. } => shape
                .iter()
                .skip(skip)
                .map(|d| match d {
                    Dim::Const(c) => *c as usize,
                    Dim::Value(v) => match env.get(v) {
                        Some(Val::Prim(PrimValue::I64(x))) => (*x).max(0) as usize,
                        _ => 0,
                    },
                    Dim::Unknown => 0,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Stacks for the results `range` of `op`, arrays of `n` rows.
    fn stacks(&self, op: OpId, range: std::ops::Range<usize>, n: usize) -> R<Vec<Stack>> {
        let tys = self.result_types(op);
        tys.get(range)
            .ok_or_else(|| self.fail(op, "fewer results than the lambda yields"))?
            .iter()
            .map(|&t| Ok(Stack::new(self.elem_scalar(op, t)?.prim_type(), n)))
            .collect()
    }

    fn finish(&self, env: &Env, op: OpId, from: usize, stacks: Vec<Stack>) -> R<Vec<Val>> {
        let tys = self.result_types(op);
        stacks
            .into_iter()
            .enumerate()
            .map(|(j, s)| {
                let empty = tys
                    .get(from + j)
                    .map(|&t| self.known_dims(env, t, 1))
                    .unwrap_or_default();
                s.finish(empty).map_err(|m| self.fail(op, m))
            })
            .collect()
    }

    fn push_all(&self, op: OpId, stacks: &mut [Stack], vs: &[Val]) -> R<()> {
        if stacks.len() != vs.len() {
            return Err(self.fail(
                op,
                format!(
                    "a lambda yields {} values where {} are expected",
                    vs.len(),
                    stacks.len()
                ),
            ));
        }
        for (s, v) in stacks.iter_mut().zip(vs) {
            s.push(v).map_err(|m| self.fail(op, m))?;
        }
        Ok(())
    }

    fn expect_count(&self, op: OpId, what: &str, have: usize, want: usize) -> R<()> {
        if have != want {
            return Err(self.fail(op, format!("expected {want} {what}, found {have}")));
        }
        Ok(())
    }

    // ----- ops ---------------------------------------------------------------

    /// Runs one (non-terminator) op, binding its results.
    pub fn exec(&self, env: &mut Env, op: OpId) -> R<()> {
        let outs = self.eval(env, op)?;
        let ctx = self.ctx;
        self.expect_count(op, "results", outs.len(), ctx.num_results(op))?;
        for (r, v) in ctx.results(op).zip(outs) {
            env.insert(r, v);
        }
        Ok(())
    }

    fn eval(&self, env: &mut Env, op: OpId) -> R<Vec<Val>> {
        let ctx = self.ctx;
        let name = self.name(op);
        let args = self.operands(env, op)?;
        let nargs = args.len();
        let wrap = |r: Result<Val, String>| r.map(|v| vec![v]).map_err(|m| self.fail(op, m));
        let scalar = |r: Result<PrimValue, String>| r.map(|p| vec![Val::Prim(p)]).map_err(|m| self.fail(op, m));
        match name {
            "soac.constant" => {
                self.expect_count(op, "operands", nargs, 0)?;
                Ok(vec![self.constant(op)?])
            }
            "soac.binop" => {
                self.expect_count(op, "operands", nargs, 2)?;
                let kind = self.str_attr(op, self.keys.kind, "kind")?;
                scalar(binop(kind, self.prim(op, &args[0])?, self.prim(op, &args[1])?))
            }
            "soac.cmpop" => {
                self.expect_count(op, "operands", nargs, 2)?;
                let kind = self.str_attr(op, self.keys.kind, "kind")?;
                scalar(cmpop(kind, self.prim(op, &args[0])?, self.prim(op, &args[1])?).map(PrimValue::Bool))
            }
            "soac.unop" => {
                self.expect_count(op, "operands", nargs, 1)?;
                let kind = self.str_attr(op, self.keys.kind, "kind")?;
                scalar(unop(kind, self.prim(op, &args[0])?))
            }
            "soac.ternop" => {
                self.expect_count(op, "operands", nargs, 3)?;
                let kind = self.str_attr(op, self.keys.kind, "kind")?;
                let (a, b, c) = (
                    self.prim(op, &args[0])?,
                    self.prim(op, &args[1])?,
                    self.prim(op, &args[2])?,
                );
                scalar(ternop(kind, a, b, c))
            }
            "soac.convop" => {
                self.expect_count(op, "operands", nargs, 1)?;
                let kind = self.str_attr(op, self.keys.kind, "kind")?;
                let to = self.one_result_scalar(op)?;
                scalar(convop(kind, self.prim(op, &args[0])?, to))
            }
            "soac.select" => {
                self.expect_count(op, "operands", nargs, 3)?;
                let c = self.bool(op, &args[0])?;
                let mut it = args.into_iter().skip(1);
                let (a, b) = (it.next(), it.next());
                Ok(vec![if c { a } else { b }.ok_or_else(|| self.fail(op, "select"))?])
            }
            "soac.assert" => {
                if nargs == 0 {
                    return Err(self.fail(op, "soac.assert needs a condition"));
                }
                if self.bool(op, &args[0])? {
                    Ok(Vec::new())
                } else {
                    let msg = self
                        .str_attr(op, self.keys.message, "message")
                        .unwrap_or("assertion failed");
                    let values: Vec<i64> = args[1..]
                        .iter()
                        .map(|a| match a {
                            Val::Prim(PrimValue::I64(x)) => *x,
                            _ => 0,
                        })
                        .collect();
                    let msg = if values.is_empty() {
                        msg.to_string()
                    } else {
                        futmlir_values::format_template(msg, &values)
                    };
                    Err(self.fail(op, msg))
                }
            }
            "soac.apply" => {
                let callee = match self.attr(op, self.keys.callee).map(|a| ctx.attr_kind(a)) {
                    Some(AttrKind::SymbolRef(s)) => ctx.str(*s),
                    _ => return Err(self.fail(op, "expected a symbol attribute `callee`")),
                };
                let f = self
                    .func(callee)
                    .ok_or_else(|| self.fail(op, format!("no function `{callee}`")))?;
                self.call(f, args)
            }
            "soac.if" => {
                self.expect_count(op, "operands", nargs, 1)?;
                let c = self.bool(op, &args[0])?;
                let b = self.body(op, if c { 0 } else { 1 })?;
                self.lambda(env, b, Vec::new())
            }
            "soac.loop" => self.loop_(env, op, args),
            // Outside reverse-mode AD, a custom adjoint's function.
            "soac.with_vjp" => {
                let b = self.body(op, 0)?;
                self.lambda(env, b, args)
            }
            "soac.iota" => wrap(self.iota(&args)),
            "soac.replicate" => {
                self.expect_count(op, "operands", nargs, 2)?;
                let n = self.size(op, &args[0])?;
                let (shape, data) = match &args[1] {
                    Val::Prim(p) => (vec![n], repeat(&single(*p), n)),
                    Val::Arr(a) => {
                        let mut s = vec![n];
                        s.extend_from_slice(&a.shape);
                        (s, repeat(&a.data, n))
                    }
                };
                wrap(data.and_then(|d| array(shape, d)))
            }
            "soac.reshape" => {
                let a = self.arr(op, args.first().ok_or_else(|| self.fail(op, "reshape of nothing"))?)?;
                let shape = args[1..].iter().map(|d| self.size(op, d)).collect::<R<Vec<usize>>>()?;
                if elements(&shape) != Some(a.data.len()) {
                    return Err(self.fail(
                        op,
                        format!(
                            "cannot reshape an array of type {} to {}",
                            shape_text(&a.shape, a.data.elem_type()),
                            shape_text(&shape, a.data.elem_type())
                        ),
                    ));
                }
                wrap(array(shape, a.data.clone()))
            }
            "soac.rearrange" => {
                self.expect_count(op, "operands", nargs, 1)?;
                let perm = self.perm(op)?;
                wrap(rearrange(self.arr(op, &args[0])?, &perm))
            }
            "soac.concat" => {
                let dim = self.int_attr(op, self.keys.dim, "dim", Some(0))?;
                let w = self.size(op, args.first().ok_or_else(|| self.fail(op, "concat of nothing"))?)?;
                let arrs = args[1..].iter().map(|v| self.arr(op, v)).collect::<R<Vec<_>>>()?;
                wrap(concat(&arrs, dim, w))
            }
            "soac.rotate" => {
                let a = self.arr(op, args.first().ok_or_else(|| self.fail(op, "rotate of nothing"))?)?;
                let rs = args[1..].iter().map(|d| self.i64(op, d)).collect::<R<Vec<i64>>>()?;
                wrap(rotate(a, &rs))
            }
            "soac.index" => {
                let a = self.arr(op, args.first().ok_or_else(|| self.fail(op, "index of nothing"))?)?;
                let is = args[1..].iter().map(|d| self.i64(op, d)).collect::<R<Vec<i64>>>()?;
                wrap(index(a, &is))
            }
            "soac.update" => {
                if nargs < 3 {
                    return Err(self.fail(op, "update expects an array, indices and a value"));
                }
                let mut it = args.into_iter();
                let a = it.next().unwrap_or(Val::Prim(PrimValue::Bool(false)));
                let mut rest: Vec<Val> = it.collect();
                let x = rest.pop().unwrap_or(Val::Prim(PrimValue::Bool(false)));
                let is = rest.iter().map(|d| self.i64(op, d)).collect::<R<Vec<i64>>>()?;
                let Val::Arr(mut a) = a else {
                    return Err(self.fail(op, "update of a scalar"));
                };
                update(Rc::make_mut(&mut a), &is, &x).map_err(|m| self.fail(op, m))?;
                Ok(vec![Val::Arr(a)])
            }
            "soac.slice" => {
                let a = self.arr(op, args.first().ok_or_else(|| self.fail(op, "slice of nothing"))?)?;
                let bs = args[1..].iter().map(|d| self.i64(op, d)).collect::<R<Vec<i64>>>()?;
                wrap(slice(a, &bs))
            }
            "soac.size" => {
                self.expect_count(op, "operands", nargs, 1)?;
                let d = self.int_attr(op, self.keys.dim, "dim", Some(0))?;
                let shape = args[0].shape();
                let s = usize::try_from(d)
                    .ok()
                    .and_then(|d| shape.get(d))
                    .ok_or_else(|| self.fail(op, format!("no dimension {d} in {}", args[0].type_text())))?;
                Ok(vec![Val::Prim(PrimValue::I64(*s as i64))])
            }
            "soac.copy" => {
                self.expect_count(op, "operands", nargs, 1)?;
                Ok(args)
            }
            "soac.map" => self.map(env, op, &args),
            "soac.reduce" | "soac.scan" => self.reduce_or_scan(env, op, &args, name == "soac.scan"),
            "soac.redomap" | "soac.scanomap" => self.redomap(env, op, &args, name == "soac.scanomap"),
            "soac.screma" => self.screma(env, op, &args),
            "soac.scatter" => self.scatter(env, op, args),
            "soac.hist" => self.hist(env, op, args),
            "soac.scatter_stream" | "soac.hist_stream" => self.acc_stream(env, op, args),
            "soac.acc_write" => self.acc_write(env, op, args),
            "soac.filter" => self.filter(env, op, &args),
            "soac.partition" => self.partition(env, op, &args),
            "soac.stream_seq" | "soac.stream_par" => self.stream(env, op, args, name == "soac.stream_par"),
            "segop.segmap" | "segop.segred" | "segop.segscan" | "segop.seghist" => self.segop(env, op, args, name),
            // A layout change only: the values are the same.
            "segop.filter" => self.segfilter(env, op, &args),
            "segop.manifest" => Ok(args),
            // Both versions compute the same; the first is the parallel one.
            "segop.if_threshold" => {
                let b = self.body(op, 0)?;
                self.run_block(env, b, Vec::new(), "segop.yield")
            }
            _ => Err(self.fail(
                op,
                format!("the soac interpreter does not handle `{}`", ctx.op_name(op)),
            )),
        }
    }

    fn one_result_scalar(&self, op: OpId) -> R<Scalar> {
        let t = self.result_types(op);
        t.first()
            .and_then(|&t| self.ctx.as_scalar(t))
            .ok_or_else(|| self.fail(op, "expected one scalar result"))
    }

    /// `soac.constant`: a scalar, or an array of scalars (`Array` or
    /// `String` attribute).
    fn constant(&self, op: OpId) -> R<Val> {
        let ctx = self.ctx;
        let rt = *self
            .result_types(op)
            .first()
            .ok_or_else(|| self.fail(op, "a constant without a result"))?;
        let s = self.elem_scalar(op, rt)?.prim_type();
        let a = self
            .attr(op, self.keys.value)
            .ok_or_else(|| self.fail(op, "a constant without a `value`"))?;
        let prim = |k: &AttrKind| -> R<PrimValue> {
            match k {
                AttrKind::Int { bits, .. } => Ok(from_i128(s, *bits as i128)),
                AttrKind::Float { bits, .. } => Ok(from_f64(s, f64::from_bits(*bits))),
                AttrKind::Bool(b) => Ok(from_i128(s, *b as i128)),
                _ => Err(self.fail(op, "a constant attribute that is not a scalar")),
            }
        };
        let data = match ctx.attr_kind(a) {
            AttrKind::Array(es) => {
                let mut d = ArrayData::with_capacity(s, es.len());
                for &e in es {
                    let p = prim(ctx.attr_kind(e))?;
                    if !d.push(p) {
                        return Err(self.fail(op, "an array constant with elements of different types"));
                    }
                }
                d
            }
            AttrKind::String(sym) => {
                let mut d = ArrayData::new(s);
                for &b in ctx.str(*sym).as_bytes() {
                    d.push(from_i128(s, b as i128));
                }
                d
            }
            k => {
                return match ctx.type_kind(rt) {
                    TypeKind::Scalar(_) => Ok(Val::Prim(prim(k)?)),
                    _ => Err(self.fail(op, "a scalar constant of an array type")),
                }
            }
        };
        let rank = match ctx.type_kind(rt) {
            TypeKind::Array { shape, .. } => shape.len(),
            _ => return Err(self.fail(op, "an array constant of a scalar type")),
        };
        if rank != 1 {
            return Err(self.fail(op, "an array constant of rank other than 1"));
        }
        let n = data.len();
        array(vec![n], data).map_err(|m| self.fail(op, m))
    }

    fn perm(&self, op: OpId) -> R<Vec<usize>> {
        let ctx = self.ctx;
        let bad = || self.fail(op, "expected an array attribute `perm` of integers");
        let a = self.attr(op, self.keys.perm).ok_or_else(bad)?;
        let AttrKind::Array(es) = ctx.attr_kind(a) else {
            return Err(bad());
        };
        es.iter()
            .map(|&e| match ctx.attr_kind(e) {
                AttrKind::Int { bits, .. } if *bits >= 0 => Ok(*bits as usize),
                _ => Err(bad()),
            })
            .collect()
    }

    fn iota(&self, args: &[Val]) -> Result<Val, String> {
        let n = match args.first() {
            Some(Val::Prim(PrimValue::I64(n))) if *n >= 0 => *n as usize,
            _ => return Err("iota expects a non-negative i64 size".into()),
        };
        let (start, stride, s) = match args {
            [_] => (0i128, 1i128, PrimType::I64),
            [_, Val::Prim(a), Val::Prim(b)] => match (as_i128(*a), as_i128(*b)) {
                (Some(x), Some(y)) if a.prim_type() == b.prim_type() => (x, y, a.prim_type()),
                _ => return Err("iota expects an integer start and stride of one type".into()),
            },
            _ => return Err("iota expects (n) or (n, start, stride)".into()),
        };
        let mut d = data_with_capacity(s, n)?;
        for i in 0..n {
            d.push(from_i128(s, start.wrapping_add((i as i128).wrapping_mul(stride))));
        }
        array(vec![n], d)
    }

    fn loop_(&self, env: &mut Env, op: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let form = self.str_attr(op, self.keys.form, "form")?;
        let b = self.body(op, 0)?;
        match form {
            "for" => {
                let mut it = args.into_iter();
                let n = it.next().ok_or_else(|| self.fail(op, "a for loop without a bound"))?;
                let n = self.prim(op, &n)?;
                let bound = as_i128(n).ok_or_else(|| self.fail(op, "a for loop bound that is not an integer"))?;
                let s = n.prim_type();
                let mut merge: Vec<Val> = it.collect();
                let mut i = 0i128;
                while i < bound {
                    let mut a = Vec::with_capacity(merge.len() + 1);
                    a.push(Val::Prim(from_i128(s, i)));
                    a.extend(merge);
                    merge = self.lambda(env, b, a)?;
                    i += 1;
                }
                Ok(merge)
            }
            "while" => {
                let mut merge = args;
                loop {
                    let c = merge
                        .first()
                        .ok_or_else(|| self.fail(op, "a while loop without a condition"))?;
                    if !self.bool(op, c)? {
                        return Ok(merge);
                    }
                    merge = self.lambda(env, b, merge)?;
                }
            }
            f => Err(self.fail(op, format!("unknown loop form `{f}`"))),
        }
    }

    /// `(n, xs...)`: the size and the arrays of outer size `n`.
    fn soac_inputs<'v>(&self, op: OpId, args: &'v [Val]) -> R<(usize, &'v [Val])> {
        let (n, xs) = args
            .split_first()
            .ok_or_else(|| self.fail(op, "expected the outer size as the first operand"))?;
        Ok((self.size(op, n)?, xs))
    }

    fn map(&self, env: &mut Env, op: OpId, args: &[Val]) -> R<Vec<Val>> {
        let (n, xs) = self.soac_inputs(op, args)?;
        let arrs = self.inputs(op, n, xs)?;
        let b = self.body(op, 0)?;
        let mut stacks = self.stacks(op, 0..self.ctx.num_results(op), n)?;
        for i in 0..n {
            let rows = self.rows(op, &arrs, i)?;
            let ys = self.lambda(env, b, rows)?;
            self.push_all(op, &mut stacks, &ys)?;
        }
        self.finish(env, op, 0, stacks)
    }

    fn reduce_or_scan(&self, env: &mut Env, op: OpId, args: &[Val], scan: bool) -> R<Vec<Val>> {
        let k = self.ctx.num_results(op);
        self.expect_count(op, "operands", args.len(), 1 + 2 * k)?;
        let (n, rest) = self.soac_inputs(op, args)?;
        let (nes, xs) = rest.split_at(k);
        let arrs = self.inputs(op, n, xs)?;
        let b = self.body(op, 0)?;
        let mut acc = nes.to_vec();
        let mut stacks = if scan { self.stacks(op, 0..k, n)? } else { Vec::new() };
        for i in 0..n {
            let mut a = acc;
            a.extend(self.rows(op, &arrs, i)?);
            acc = self.lambda(env, b, a)?;
            self.expect_count(op, "values from the operator", acc.len(), k)?;
            if scan {
                self.push_all(op, &mut stacks, &acc)?;
            }
        }
        if scan {
            self.finish(env, op, 0, stacks)
        } else {
            Ok(acc)
        }
    }

    /// The number `k` of values an operator region combines.
    fn operator_arity(&self, op: OpId, region: usize) -> R<usize> {
        let b = self.body(op, region)?;
        let n = self.ctx.block_args(b).len();
        if !n.is_multiple_of(2) {
            return Err(self.fail(op, "an operator with an odd number of arguments"));
        }
        Ok(n / 2)
    }

    fn redomap(&self, env: &mut Env, op: OpId, args: &[Val], scan: bool) -> R<Vec<Val>> {
        let k = self.operator_arity(op, 0)?;
        let (n, rest) = self.soac_inputs(op, args)?;
        if rest.len() < k {
            return Err(self.fail(op, "fewer operands than neutral elements"));
        }
        let (nes, xs) = rest.split_at(k);
        let arrs = self.inputs(op, n, xs)?;
        let (red, lam) = (self.body(op, 0)?, self.body(op, 1)?);
        let mut acc = nes.to_vec();
        let mut scanned = if scan { self.stacks(op, 0..k, n)? } else { Vec::new() };
        let mut mapped = self.stacks(op, k..self.ctx.num_results(op), n)?;
        for i in 0..n {
            let ys = self.lambda(env, lam, self.rows(op, &arrs, i)?)?;
            if ys.len() < k {
                return Err(self.fail(op, "the map lambda yields fewer values than the operator takes"));
            }
            let mut a = acc;
            a.extend_from_slice(&ys[..k]);
            acc = self.lambda(env, red, a)?;
            self.expect_count(op, "values from the operator", acc.len(), k)?;
            if scan {
                self.push_all(op, &mut scanned, &acc)?;
            }
            self.push_all(op, &mut mapped, &ys[k..])?;
        }
        let mut out = if scan { self.finish(env, op, 0, scanned)? } else { acc };
        out.extend(self.finish(env, op, k, mapped)?);
        Ok(out)
    }

    /// Scans and reductions of the pre-lambda's values (regions 0 to 2);
    /// each row's scanned and other values go through the post-lambda
    /// (region 3), whose yields are the mapped results' rows.
    fn screma(&self, env: &mut Env, op: OpId, args: &[Val]) -> R<Vec<Val>> {
        let k = self.operator_arity(op, 0)?;
        let r = self.operator_arity(op, 1)?;
        let (n, rest) = self.soac_inputs(op, args)?;
        if rest.len() < k + r {
            return Err(self.fail(op, "fewer operands than neutral elements"));
        }
        let (nes, xs) = rest.split_at(k + r);
        let arrs = self.inputs(op, n, xs)?;
        let (scan, red) = (self.body(op, 0)?, self.body(op, 1)?);
        let (pre, post) = (self.body(op, 2)?, self.body(op, 3)?);
        let mut scanned = nes[..k].to_vec();
        let mut reduced = nes[k..].to_vec();
        let mut out = self.stacks(op, r..self.ctx.num_results(op), n)?;
        for i in 0..n {
            let ys = self.lambda(env, pre, self.rows(op, &arrs, i)?)?;
            if ys.len() < k + r {
                return Err(self.fail(op, "the pre-lambda yields fewer values than the operators take"));
            }
            let mut a = scanned;
            a.extend_from_slice(&ys[..k]);
            scanned = self.lambda(env, scan, a)?;
            self.expect_count(op, "values from the scan operator", scanned.len(), k)?;
            let mut a = reduced;
            a.extend_from_slice(&ys[k..k + r]);
            reduced = self.lambda(env, red, a)?;
            self.expect_count(op, "values from the reduction operator", reduced.len(), r)?;
            let mut row = scanned.clone();
            row.extend_from_slice(&ys[k + r..]);
            let zs = self.lambda(env, post, row)?;
            self.push_all(op, &mut out, &zs)?;
        }
        let mut results = reduced;
        results.extend(self.finish(env, op, r, out)?);
        Ok(results)
    }

    fn scatter(&self, env: &mut Env, op: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let k = self.ctx.num_results(op);
        if args.len() < 1 + k {
            return Err(self.fail(op, "fewer operands than destinations"));
        }
        let mut args = args;
        let dests_v = args.split_off(args.len() - k);
        let (n, xs) = self.soac_inputs(op, &args)?;
        let arrs = self.inputs(op, n, xs)?;
        let mut dests = Vec::new();
        for d in dests_v {
            match d {
                Val::Arr(a) => dests.push(a),
                Val::Prim(_) => return Err(self.fail(op, "a scatter into a scalar")),
            }
        }
        let b = self.body(op, 0)?;
        // Each destination's indices in turn, then the values likewise.
        let ws = crate::soac::scatter_writes(self.ctx, op);
        let total: usize = ws.iter().sum();
        for i in 0..n {
            let ys = self.lambda(env, b, self.rows(op, &arrs, i)?)?;
            self.expect_count(op, "values from the lambda", ys.len(), 2 * total)?;
            let mut slot = 0;
            for (dest, &w) in dests.iter_mut().zip(&ws) {
                for _ in 0..w {
                    let idx = self.i64(op, &ys[slot])?;
                    let len = dest.shape.first().copied().unwrap_or(0);
                    if idx >= 0 && (idx as usize) < len {
                        update(Rc::make_mut(dest), &[idx], &ys[total + slot]).map_err(|m| self.fail(op, m))?;
                    }
                    slot += 1;
                }
            }
        }
        Ok(dests.into_iter().map(Val::Arr).collect())
    }

    fn hist(&self, env: &mut Env, op: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let k = self.ctx.num_results(op);
        if args.len() < 2 + 2 * k {
            return Err(self.fail(op, "expected (n, w, dests..., nes..., xs...)"));
        }
        let n = self.size(op, &args[0])?;
        let w = self.size(op, &args[1])?;
        let mut args = args;
        // Take the destinations out of `args`, to write them in place.
        let mut dests = Vec::new();
        for d in args.splice(2..2 + k, []).collect::<Vec<_>>() {
            match d {
                Val::Arr(a) if a.shape.first() == Some(&w) => dests.push(a),
                d => {
                    return Err(self.fail(
                        op,
                        format!(
                            "a destination of type {} where an array of size {w} is expected",
                            d.type_text()
                        ),
                    ))
                }
            }
        }
        let xs = &args[2 + k..];
        let arrs = self.inputs(op, n, xs)?;
        let (red, lam) = (self.body(op, 0)?, self.body(op, 1)?);
        for i in 0..n {
            let ys = self.lambda(env, lam, self.rows(op, &arrs, i)?)?;
            self.add_to_bucket(env, op, red, &mut dests, &ys, "soac.yield")?;
        }
        Ok(dests.into_iter().map(Val::Arr).collect())
    }

    /// `scatter_stream(n, dest, bs...)` and `hist_stream(n, dest, ne,
    /// bs...)`: the lambda on every row in order, threading the
    /// accumulator (Note [Accumulator ops] in the soac dialect).
    fn acc_stream(&self, env: &mut Env, op: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        let hist = self.ctx.op_name(op) == "soac.hist_stream";
        let first = if hist { 3 } else { 2 };
        if args.len() < first {
            return Err(self.fail(op, "expected (n, dest, [ne,] bs...)"));
        }
        let n = self.size(op, &args[0])?;
        let mut args = args;
        let mut acc = args.remove(1);
        let arrs = self.inputs(op, n, &args[first - 1..])?;
        let lam = self.body(op, usize::from(hist))?;
        self.acc_ops
            .borrow_mut()
            .push(if hist { Some(self.body(op, 0)?) } else { None });
        let mut result = Ok(());
        for i in 0..n {
            let mut xs = vec![acc];
            match self.rows(op, &arrs, i).and_then(|rs| {
                xs.extend(rs);
                self.lambda(env, lam, xs)
            }) {
                Ok(mut ys) if ys.len() == 1 => acc = ys.remove(0),
                Ok(_) => {
                    result = Err(self.fail(op, "the lambda must yield the accumulator"));
                    acc = Val::Prim(PrimValue::Bool(false));
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    acc = Val::Prim(PrimValue::Bool(false));
                    break;
                }
            }
        }
        self.acc_ops.borrow_mut().pop();
        result?;
        Ok(vec![acc])
    }

    /// `acc_write(acc, i, v)` into the innermost running stream.
    fn acc_write(&self, env: &mut Env, op: OpId, args: Vec<Val>) -> R<Vec<Val>> {
        self.expect_count(op, "operands", args.len(), 3)?;
        let operator = match self.acc_ops.borrow().last() {
            Some(o) => *o,
            None => return Err(self.fail(op, "an accumulator write outside its stream")),
        };
        let mut it = args.into_iter();
        let (Some(Val::Arr(a)), Some(i), Some(v)) = (it.next(), it.next(), it.next()) else {
            return Err(self.fail(op, "a write to an accumulator that is no array"));
        };
        let i = self.i64(op, &i)?;
        let mut dests = [a];
        match operator {
            Some(red) => self.add_to_bucket(
                env,
                op,
                red,
                &mut dests,
                &[Val::Prim(PrimValue::I64(i)), v],
                "soac.yield",
            )?,
            None => {
                if i >= 0 && (i as usize) < dests[0].shape.first().copied().unwrap_or(0) {
                    update(Rc::make_mut(&mut dests[0]), &[i], &v).map_err(|m| self.fail(op, m))?;
                }
            }
        }
        let [a] = dests;
        Ok(vec![Val::Arr(a)])
    }

    /// One value of a histogram: `ys` is the bucket then `k` values,
    /// combined with the destinations' rows there by the operator `red`
    /// (ending in `term`); a bucket out of range is ignored.
    fn add_to_bucket(
        &self,
        env: &mut Env,
        op: OpId,
        red: BlockId,
        dests: &mut [Rc<Array>],
        ys: &[Val],
        term: &str,
    ) -> R<()> {
        let k = dests.len();
        self.expect_count(op, "values from the lambda", ys.len(), 1 + k)?;
        let bucket = self.i64(op, &ys[0])?;
        let w = dests.first().and_then(|d| d.shape.first().copied()).unwrap_or(0);
        if bucket < 0 || bucket as usize >= w {
            return Ok(());
        }
        let mut a = Vec::with_capacity(2 * k);
        for d in dests.iter() {
            a.push(row(d, bucket as usize).map_err(|m| self.fail(op, m))?);
        }
        a.extend_from_slice(&ys[1..]);
        let new = self.run_block(env, red, a, term)?;
        self.expect_count(op, "values from the operator", new.len(), k)?;
        for (d, v) in dests.iter_mut().zip(&new) {
            update(Rc::make_mut(d), &[bucket], v).map_err(|m| self.fail(op, m))?;
        }
        Ok(())
    }

    /// The segmented ops, sequentially: the body at every point of the
    /// space (row-major); `segred`/`segscan` combine along the innermost
    /// dimension, `seghist` into its destinations.
    fn segop(&self, env: &mut Env, op: OpId, args: Vec<Val>, name: &str) -> R<Vec<Val>> {
        let body = self.body(op, 0)?;
        let d = self.ctx.block_args(body).len();
        if args.len() < d {
            return Err(self.fail(op, "fewer operands than segment dimensions"));
        }
        let dims = args[..d].iter().map(|v| self.size(op, v)).collect::<R<Vec<usize>>>()?;
        let total: usize = dims.iter().product();
        let idx = |p: &[i64]| p.iter().map(|&i| Val::Prim(PrimValue::I64(i))).collect::<Vec<_>>();
        let nres = self.ctx.num_results(op);
        if name == "segop.segmap" && self.ctx.attr(op, "writes").is_some() {
            let mut dests = Vec::new();
            for v in &args[d..] {
                dests.push(self.arr(op, v)?.clone());
            }
            let k = dests.len();
            for p in seg_points(&dims) {
                let ys = self.run_block(env, body, idx(&p), "segop.yield")?;
                self.expect_count(op, "values from the body", ys.len(), 2 * k)?;
                for (j, dest) in dests.iter_mut().enumerate() {
                    let i = self.i64(op, &ys[j])?;
                    if i < 0 || i as usize >= dest.shape.first().copied().unwrap_or(0) {
                        continue;
                    }
                    update(Rc::make_mut(dest), &[i], &ys[k + j]).map_err(|m| self.fail(op, m))?;
                }
            }
            return Ok(dests.into_iter().map(Val::Arr).collect());
        }
        if name == "segop.segmap" {
            let mut stacks = self.stacks(op, 0..nres, total)?;
            for p in seg_points(&dims) {
                let ys = self.run_block(env, body, idx(&p), "segop.yield")?;
                self.push_all(op, &mut stacks, &ys)?;
            }
            return self.seg_finish(env, op, 0, stacks, &dims);
        }
        let red = self.body(op, 1)?;
        let k = self.operator_arity(op, 1)?;
        if name == "segop.seghist" {
            let w = self.size(
                op,
                args.get(d).ok_or_else(|| self.fail(op, "a seghist without a width"))?,
            )?;
            let mut dests = Vec::new();
            for v in args
                .get(d + 1..d + 1 + k)
                .ok_or_else(|| self.fail(op, "missing destinations"))?
            {
                let a = self.arr(op, v)?;
                if a.shape.first() != Some(&w) {
                    return Err(self.fail(
                        op,
                        format!(
                            "a destination of type {} where an array of size {w} is expected",
                            v.type_text()
                        ),
                    ));
                }
                dests.push(a.clone());
            }
            for p in seg_points(&dims) {
                let ys = self.run_block(env, body, idx(&p), "segop.yield")?;
                self.add_to_bucket(env, op, red, &mut dests, &ys, "segop.yield")?;
            }
            return Ok(dests.into_iter().map(Val::Arr).collect());
        }
        let scan = name == "segop.segscan";
        let nes = args
            .get(d..d + k)
            .ok_or_else(|| self.fail(op, "missing neutral elements"))?
            .to_vec();
        let inner = dims[d - 1];
        let outer: usize = dims[..d - 1].iter().product();
        let mut combined = self.stacks(op, 0..k, if scan { total } else { outer })?;
        let mut mapped = self.stacks(op, k..nres, total)?;
        let mut points = seg_points(&dims).into_iter();
        let mut last = Vec::new();
        for _ in 0..outer {
            let mut acc = nes.clone();
            for _ in 0..inner {
                let p = points
                    .next()
                    .ok_or_else(|| self.fail(op, "a segment space of the wrong size"))?;
                let ys = self.run_block(env, body, idx(&p), "segop.yield")?;
                if ys.len() < k {
                    return Err(self.fail(op, "the body yields fewer values than the operator takes"));
                }
                let mut a = acc;
                a.extend_from_slice(&ys[..k]);
                acc = self.run_block(env, red, a, "segop.yield")?;
                if scan {
                    self.push_all(op, &mut combined, &acc)?;
                }
                self.push_all(op, &mut mapped, &ys[k..])?;
            }
            if !scan {
                if d == 1 {
                    last = acc;
                } else {
                    self.push_all(op, &mut combined, &acc)?;
                }
            }
        }
        let mut out = match (scan, d) {
            (true, _) => self.seg_finish(env, op, 0, combined, &dims)?,
            (false, 1) => last,
            (false, _) => self.seg_finish(env, op, 0, combined, &dims[..d - 1])?,
        };
        out.extend(self.seg_finish(env, op, k, mapped, &dims)?);
        Ok(out)
    }

    /// `segop.filter`: the count of kept points, then arrays whose first
    /// rows are the kept points' values in order; the rows the op leaves
    /// undefined are the other points' values, in order (a stable
    /// partition), so that every row is a value of the right type.
    fn segfilter(&self, env: &mut Env, op: OpId, args: &[Val]) -> R<Vec<Val>> {
        let body = self.body(op, 0)?;
        let n = self.size(
            op,
            args.first().ok_or_else(|| self.fail(op, "a filter without a size"))?,
        )?;
        let nres = self.ctx.num_results(op);
        let mut stacks = self.stacks(op, 1..nres, n)?;
        let mut dropped = Vec::new();
        for i in 0..n {
            let ys = self.run_block(env, body, vec![Val::Prim(PrimValue::I64(i as i64))], "segop.yield")?;
            self.expect_count(op, "values from the body", ys.len(), nres)?;
            if self.bool(op, &ys[0])? {
                self.push_all(op, &mut stacks, &ys[1..])?;
            } else {
                dropped.push(ys);
            }
        }
        let kept = n - dropped.len();
        for ys in dropped {
            self.push_all(op, &mut stacks, &ys[1..])?;
        }
        let mut out = vec![Val::Prim(PrimValue::I64(kept as i64))];
        out.extend(self.seg_finish(env, op, 1, stacks, &[n])?);
        Ok(out)
    }

    /// Arrays of the rows stacked, shaped `dims` then the row's shape.
    fn seg_finish(&self, env: &Env, op: OpId, from: usize, stacks: Vec<Stack>, dims: &[usize]) -> R<Vec<Val>> {
        let tys = self.result_types(op);
        let mut out = Vec::new();
        for (j, s) in stacks.into_iter().enumerate() {
            let empty = tys
                .get(from + j)
                .map(|&t| self.known_dims(env, t, dims.len()))
                .unwrap_or_default();
            let v = s.finish(empty).map_err(|m| self.fail(op, m))?;
            let Val::Arr(a) = v else {
                return Err(self.fail(op, "a segmented result that is not an array"));
            };
            let mut shape = dims.to_vec();
            shape.extend_from_slice(&a.shape[1..]);
            let a = Rc::try_unwrap(a).unwrap_or_else(|a| (*a).clone());
            out.push(array(shape, a.data).map_err(|m| self.fail(op, m))?);
        }
        Ok(out)
    }

    /// The rows of `arrs` at `keep`, in that order, for each array.
    fn take_rows(&self, op: OpId, arrs: &[&Rc<Array>], keep: &[usize]) -> R<Vec<Val>> {
        let mut out = Vec::new();
        for a in arrs {
            let w = row_len(a);
            let total = keep
                .len()
                .checked_mul(w)
                .ok_or_else(|| self.fail(op, "an array too large"))?;
            let mut d = data_with_capacity(a.data.elem_type(), total).map_err(|m| self.fail(op, m))?;
            for &i in keep {
                extend_range(&mut d, &a.data, i * w, (i + 1) * w).map_err(|m| self.fail(op, m))?;
            }
            let mut shape = vec![keep.len()];
            shape.extend_from_slice(&a.shape[1..]);
            out.push(array(shape, d).map_err(|m| self.fail(op, m))?);
        }
        Ok(out)
    }

    fn filter(&self, env: &mut Env, op: OpId, args: &[Val]) -> R<Vec<Val>> {
        let (n, xs) = self.soac_inputs(op, args)?;
        let arrs = self.inputs(op, n, xs)?;
        let b = self.body(op, 0)?;
        let mut keep = Vec::new();
        for i in 0..n {
            let ys = self.lambda(env, b, self.rows(op, &arrs, i)?)?;
            self.expect_count(op, "values from the predicate", ys.len(), 1)?;
            if self.bool(op, &ys[0])? {
                keep.push(i);
            }
        }
        self.take_rows(op, &arrs, &keep)
    }

    fn partition(&self, env: &mut Env, op: OpId, args: &[Val]) -> R<Vec<Val>> {
        let k = self.int_attr(op, self.keys.k, "k", None)?;
        let k = usize::try_from(k).map_err(|_| self.fail(op, "a negative `k`"))?;
        let (n, xs) = self.soac_inputs(op, args)?;
        let arrs = self.inputs(op, n, xs)?;
        let b = self.body(op, 0)?;
        let mut classes: Vec<Vec<usize>> = vec![Vec::new(); k + 1];
        for i in 0..n {
            let ys = self.lambda(env, b, self.rows(op, &arrs, i)?)?;
            self.expect_count(op, "values from the lambda", ys.len(), 1)?;
            let c = self.i64(op, &ys[0])?;
            let c = usize::try_from(c).ok().filter(|&c| c < k).unwrap_or(k);
            classes[c].push(i);
        }
        let mut out: Vec<Val> = classes[..k]
            .iter()
            .map(|c| Val::Prim(PrimValue::I64(c.len() as i64)))
            .collect();
        let order: Vec<usize> = classes.concat();
        out.extend(self.take_rows(op, &arrs, &order)?);
        Ok(out)
    }

    /// Streams in chunks of [`STREAM_CHUNK`] rows (the last may be
    /// shorter), so that tests see more than one: `stream_seq` carries
    /// its accumulators from one chunk to the next; `stream_par` starts
    /// each chunk from the initial accumulators (neutral elements) and
    /// combines the chunks' with its operator, left to right. An input of
    /// at most one chunk (an empty one too) is one chunk.
    fn stream(&self, env: &mut Env, op: OpId, args: Vec<Val>, par: bool) -> R<Vec<Val>> {
        let (k, lam) = if par {
            (self.operator_arity(op, 0)?, self.body(op, 1)?)
        } else {
            let k = self.int_attr(op, self.keys.num_accs, "num_accs", None)?;
            (
                usize::try_from(k).map_err(|_| self.fail(op, "a negative `num_accs`"))?,
                self.body(op, 0)?,
            )
        };
        let (n, rest) = self.soac_inputs(op, &args)?;
        if rest.len() < k {
            return Err(self.fail(op, "fewer operands than accumulators"));
        }
        let arrs = self.inputs(op, n, &rest[k..])?;
        if n <= STREAM_CHUNK {
            let mut a = vec![Val::Prim(PrimValue::I64(n as i64))];
            a.extend_from_slice(rest);
            return self.lambda(env, lam, a);
        }
        let mut accs = rest[..k].to_vec();
        let mut chunks: Vec<Vec<Rc<Array>>> = Vec::new();
        let mut combined: Option<Vec<Val>> = None;
        for start in (0..n).step_by(STREAM_CHUNK) {
            let rows: Vec<usize> = (start..n.min(start + STREAM_CHUNK)).collect();
            let mut a = vec![Val::Prim(PrimValue::I64(rows.len() as i64))];
            a.extend(if par { rest[..k].to_vec() } else { accs });
            a.extend(self.take_rows(op, &arrs, &rows)?);
            let mut out = self.lambda(env, lam, a)?;
            if out.len() < k {
                return Err(self.fail(op, "fewer values from the chunk lambda than accumulators"));
            }
            let parts = out.split_off(k);
            accs = out;
            if par {
                combined = Some(match combined {
                    None => accs.clone(),
                    Some(prev) => {
                        let mut args = prev;
                        args.extend(accs.iter().cloned());
                        self.lambda(env, self.body(op, 0)?, args)?
                    }
                });
            }
            if chunks.is_empty() {
                chunks = vec![Vec::new(); parts.len()];
            }
            for (c, v) in chunks.iter_mut().zip(&parts) {
                c.push(self.arr(op, v)?.clone());
            }
        }
        if let Some(c) = combined {
            accs = c;
        }
        for c in chunks {
            let parts: Vec<&Rc<Array>> = c.iter().collect();
            accs.push(concat(&parts, 0, n).map_err(|m| self.fail(op, m))?);
        }
        Ok(accs)
    }
}

/// The points of a segment space of sizes `dims`, row-major (the last
/// index fastest).
fn seg_points(dims: &[usize]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for &d in dims {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..d as i64).map(move |i| {
                    let mut q = p.clone();
                    q.push(i);
                    q
                })
            })
            .collect();
    }
    out
}

/// The rows of a `stream_seq` chunk in the interpreter (Note on
/// `Interp::stream`): small, so that tests exercise the accumulators.
const STREAM_CHUNK: usize = 3;

/// Which operands of `op` are the last use of their value: the value is
/// defined in the block of `op`, and every other use is an earlier operand
/// of an op before `op` in that block, or nested in one (Note [In-place
/// updates]). A value that is several operands of `op` is last at its last
/// position; a use inside `op`'s own regions keeps it alive.
fn last_uses(ctx: &Context, op: OpId) -> Vec<bool> {
    let block = ctx.parent_block(op);
    let ops = ctx.operands(op);
    // The op of `block` that is `o` or holds it; `None` if there is none.
    let in_block = |mut o: OpId| loop {
        if ctx.parent_block(o) == block {
            return Some(o);
        }
        o = ctx.parent_op(o)?;
    };
    // Whether `a` comes before `op` in the block.
    let before = |a: OpId| {
        let mut cur = ctx.prev_op(op);
        while let Some(p) = cur {
            if p == a {
                return true;
            }
            cur = ctx.prev_op(p);
        }
        false
    };
    ops.iter()
        .enumerate()
        .map(|(i, &v)| {
            block.is_some()
                && ctx.value_block(v) == block
                && !ops[i + 1..].contains(&v)
                && ctx.uses(v).iter().all(|u| {
                    if u.op == op {
                        return true;
                    }
                    match in_block(u.op) {
                        Some(a) => a != op && before(a),
                        None => false,
                    }
                })
        })
        .collect()
}

// ----- array operations --------------------------------------------------------

/// The row-major strides of a shape.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for j in (0..shape.len().saturating_sub(1)).rev() {
        s[j] = s[j + 1] * shape[j + 1];
    }
    s
}

/// Calls `f` with every multi-index of `shape`, in row-major order.
fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize]) -> Result<(), String>) -> Result<(), String> {
    if shape.contains(&0) {
        return Ok(());
    }
    let mut ix = vec![0usize; shape.len()];
    loop {
        f(&ix)?;
        let mut j = shape.len();
        loop {
            if j == 0 {
                return Ok(());
            }
            j -= 1;
            ix[j] += 1;
            if ix[j] < shape[j] {
                break;
            }
            ix[j] = 0;
        }
    }
}

fn rearrange(a: &Array, perm: &[usize]) -> Result<Val, String> {
    let r = a.shape.len();
    let mut seen = vec![false; r];
    if perm.len() != r || perm.iter().any(|&p| p >= r || std::mem::replace(&mut seen[p], true)) {
        return Err(format!("`perm` {perm:?} is not a permutation of the {r} dimensions"));
    }
    let st = strides(&a.shape);
    let shape: Vec<usize> = perm.iter().map(|&p| a.shape[p]).collect();
    let mut idx = Vec::with_capacity(a.data.len());
    for_each_index(&shape, |ix| {
        idx.push(ix.iter().zip(perm).map(|(&i, &p)| i * st[p]).sum());
        Ok(())
    })?;
    array(shape, gather(&a.data, &idx)?)
}

fn concat(arrs: &[&Rc<Array>], dim: i64, w: usize) -> Result<Val, String> {
    let first = arrs.first().ok_or("concat of no arrays")?;
    let r = first.shape.len();
    let d = usize::try_from(dim)
        .ok()
        .filter(|&d| d < r)
        .ok_or("concat along a missing dimension")?;
    let mut total = 0usize;
    for a in arrs {
        let ok = a.shape.len() == r
            && a.data.elem_type() == first.data.elem_type()
            && (0..r).all(|j| j == d || a.shape[j] == first.shape[j]);
        if !ok {
            return Err(format!(
                "concat of arrays of types {} and {}",
                shape_text(&first.shape, first.data.elem_type()),
                shape_text(&a.shape, a.data.elem_type())
            ));
        }
        total += a.shape[d];
    }
    if total != w {
        return Err(format!("concat of arrays of total size {total} into size {w}"));
    }
    let outer = elements(&first.shape[..d]).ok_or("an array too large")?;
    let mut shape = first.shape.clone();
    shape[d] = w;
    let mut data = data_with_capacity(first.data.elem_type(), elements(&shape).ok_or("an array too large")?)?;
    for o in 0..outer {
        for a in arrs {
            let chunk = elements(&a.shape[d..]).unwrap_or(0);
            extend_range(&mut data, &a.data, o * chunk, (o + 1) * chunk)?;
        }
    }
    array(shape, data)
}

fn rotate(a: &Array, rs: &[i64]) -> Result<Val, String> {
    if rs.len() != a.shape.len() {
        return Err(format!(
            "rotate of an array of rank {} by {} offsets",
            a.shape.len(),
            rs.len()
        ));
    }
    let st = strides(&a.shape);
    let mut idx = Vec::with_capacity(a.data.len());
    for_each_index(&a.shape, |ix| {
        let mut off = 0;
        for j in 0..ix.len() {
            let n = a.shape[j] as i128;
            let src = (ix[j] as i128 + rs[j] as i128).rem_euclid(n);
            off += src as usize * st[j];
        }
        idx.push(off);
        Ok(())
    })?;
    array(a.shape.clone(), gather(&a.data, &idx)?)
}

/// The flat offset of the sub-array at indices `is`, checking bounds.
fn offset(a: &Array, is: &[i64]) -> Result<usize, String> {
    if is.len() > a.shape.len() || is.is_empty() {
        return Err(format!("{} indices into an array of rank {}", is.len(), a.shape.len()));
    }
    let st = strides(&a.shape);
    let mut off = 0;
    for (j, &i) in is.iter().enumerate() {
        if i < 0 || i as usize >= a.shape[j] {
            let ix: Vec<String> = is.iter().map(|i| i.to_string()).collect();
            return Err(format!(
                "Index [{}] out of bounds for array of shape {}.",
                ix.join(", "),
                a.shape.iter().map(|d| format!("[{d}]")).collect::<String>()
            ));
        }
        off += i as usize * st[j];
    }
    Ok(off)
}

fn index(a: &Array, is: &[i64]) -> Result<Val, String> {
    let off = offset(a, is)?;
    if is.len() == a.shape.len() {
        return a
            .data
            .get(off)
            .map(Val::Prim)
            .ok_or("internal error: an index out of the array".into());
    }
    let shape = a.shape[is.len()..].to_vec();
    let n = elements(&shape).unwrap_or(0);
    let mut d = data_with_capacity(a.data.elem_type(), n)?;
    extend_range(&mut d, &a.data, off, off + n)?;
    array(shape, d)
}

/// `a with [is] = x`, in place.
fn update(a: &mut Array, is: &[i64], x: &Val) -> Result<(), String> {
    let off = offset(a, is)?;
    let want = &a.shape[is.len()..];
    if x.shape() != want || x.elem_type() != a.data.elem_type() {
        return Err(format!(
            "an update of a part of type {} with a value of type {}",
            shape_text(want, a.data.elem_type()),
            x.type_text()
        ));
    }
    match x {
        Val::Prim(p) => set_elem(&mut a.data, off, *p),
        Val::Arr(v) => write_range(&mut a.data, off, &v.data),
    }
}

/// `soac.slice` with bounds `(offset, length, stride)` per leading
/// dimension.
fn slice(a: &Array, bs: &[i64]) -> Result<Val, String> {
    if !bs.len().is_multiple_of(3) || bs.len() / 3 > a.shape.len() {
        return Err(format!(
            "{} slice bounds for an array of rank {}",
            bs.len(),
            a.shape.len()
        ));
    }
    let k = bs.len() / 3;
    let mut lens = Vec::new();
    for j in 0..k {
        let (o, l, s) = (bs[3 * j] as i128, bs[3 * j + 1] as i128, bs[3 * j + 2] as i128);
        let n = a.shape[j] as i128;
        let last = o + (l - 1) * s;
        if l < 0 || (l > 0 && !((0..n).contains(&o) && (0..n).contains(&last))) {
            return Err(format!(
                "slice {o}:{l}:{s} (offset, length, stride) out of bounds for a dimension of size {n}"
            ));
        }
        lens.push(l as usize);
    }
    let inner = elements(&a.shape[k..]).ok_or("an array too large")?;
    let st = strides(&a.shape);
    let mut shape = lens.clone();
    shape.extend_from_slice(&a.shape[k..]);
    let mut d = data_with_capacity(a.data.elem_type(), elements(&shape).ok_or("an array too large")?)?;
    for_each_index(&lens, |ix| {
        let mut off = 0i128;
        for j in 0..k {
            off += (bs[3 * j] as i128 + ix[j] as i128 * bs[3 * j + 2] as i128) * st[j] as i128;
        }
        extend_range(&mut d, &a.data, off as usize, off as usize + inner)
    })?;
    array(shape, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOOP: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i64>):
  %r = "soac.loop"(%n, %xs) ({
  ^bb0(%i: i64, %a: !fut.array<[%n]i64>):
    %x = "soac.index"(%a, %i) : (!fut.array<[%n]i64>, i64) -> i64
    %y = "soac.binop"(%x, %i) {kind = "add"} : (i64, i64) -> i64
    %b = "soac.update"(%a, %i, %y) : (!fut.array<[%n]i64>, i64, i64) -> !fut.array<[%n]i64>
    "soac.yield"(%b) : (!fut.array<[%n]i64>) -> ()
  }) {form = "for"} : (i64, !fut.array<[%n]i64>) -> !fut.array<[%n]i64>
  %m = "soac.map"(%n, %r, %r) ({
  ^bb0(%p: i64, %q: i64):
    %s = "soac.binop"(%p, %q) {kind = "mul"} : (i64, i64) -> i64
    "soac.yield"(%s) : (i64) -> ()
  }) : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i64>) -> !fut.array<[%n]i64>
  "soac.return"(%m) : (!fut.array<[%n]i64>) -> ()
}) {sym_name = "f", function_type = (i64, !fut.array<[?]i64>) -> !fut.array<[?]i64>} : () -> ()
"#;

    fn find(ctx: &Context, root: OpId, name: &str) -> Vec<OpId> {
        let mut out = Vec::new();
        ctx.walk(root, &mut |o| {
            if ctx.op_name(o) == name {
                out.push(o)
            }
        });
        out
    }

    #[test]
    fn last_uses_allow_updates_in_place() {
        let mut ctx = crate::context();
        let m = ctx.parse_str("loop", LOOP).expect("parses");
        // The index reads the merge parameter the update then consumes.
        let index = find(&ctx, m, "soac.index")[0];
        assert_eq!(last_uses(&ctx, index), vec![false, false]);
        let update = find(&ctx, m, "soac.update")[0];
        assert_eq!(last_uses(&ctx, update), vec![true, true, true]);
        let yield_ = find(&ctx, m, "soac.yield")[0];
        assert_eq!(last_uses(&ctx, yield_), vec![true]);
        // The loop consumes the parameter; the map uses its result twice
        // (the second is the last use).
        let lp = find(&ctx, m, "soac.loop")[0];
        assert_eq!(last_uses(&ctx, lp), vec![false, true]);
        let map = find(&ctx, m, "soac.map")[0];
        assert_eq!(last_uses(&ctx, map), vec![true, false, true]);
    }

    #[test]
    fn runs_a_loop_of_updates() {
        let mut ctx = crate::context();
        let m = ctx.parse_str("loop", LOOP).expect("parses");
        let xs = futmlir_values::Value::Array(Array {
            shape: vec![3],
            data: ArrayData::I64(vec![1, 2, 3]),
        });
        let r = super::super::run_func(&ctx, m, "f", vec![xs]).expect("runs");
        // [1+0, 2+1, 3+2] squared.
        assert_eq!(r[0].to_string(), "[1i64, 9i64, 25i64]");
    }
}
