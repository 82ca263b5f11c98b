//! The built-in functions: every name of `check::builtins` (GENERAL, the
//! numeric modules, OPERATORS), resolved once to a [`Builtin`] and run here.

use std::rc::Rc;

use crate::span::Span;
use crate::types::{PrimType, Type};
use crate::values::PrimValue;

use super::cost::log_steps;
use super::eval::{as_i64, check_alloc, err, error, internal, Interp, R};
use super::value::{shape_str, trace_text, Array, Builder, Data, Fun, Value};
use super::{ad, dual, tape};
use crate::values::scalar::{self, BinOp, BitCount, FloatBin, FloatUn};

/// A resolved built-in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// An operator, unqualified (`+`) or qualified (`i32.+`); the operands'
    /// values carry the type.
    Op(BinOp),
    /// `T.f`: convert from `from` to `to`.
    Conv { to: PrimType, from: PrimType },
    /// A member of numeric module `T`.
    Num(PrimType, NumFn),
    /// An unqualified function of the basis library.
    Gen(Gen),
}

/// Members of the numeric modules (besides operators and conversions).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NumFn {
    Max,
    Min,
    Abs,
    Sgn,
    Neg,
    ToI64,
    ToF64,
    /// `not`: bitwise on integers, logical on bool.
    Not,
    Popc,
    Clz,
    MulHi,
    Un(FloatUn),
    Bin(FloatBin),
    Inf,
    Nan,
    Fma,
    Mad,
    ToBits,
    FromBits,
}

// Note [Accumulators in the interpreter]
// An accumulator (Note [Accumulators] in `check::builtins`) is the array
// it writes into: `scatter_stream dest f bs` calls `f` on the rows of `bs`
// in order, threading the array through (`acc = f acc b`), which is one
// of the orders the parallel semantics allows. `acc_write acc i v` sets
// row `i` (in place where the array is not shared), or to `op acc[i] v`
// for a `hist_stream`; an index out of bounds leaves it. The operator is
// not in the array: it is on the stack `Interp::acc_ops`, pushed while a
// stream runs, and a write goes to the innermost stream running. That is
// the accumulator's own stream: an accumulator is unique, so no function
// can hold one as a free variable (consuming a free variable is an
// error), and the accumulator of an outer stream cannot reach the `f` of
// an inner one.

/// The unqualified built-ins. The number is the count of arrays (`zip4`),
/// index dimensions (`scatter_2d`) or unflattened dimensions. `map` takes
/// one array: the prelude's `map2`.. map a `zip`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Gen {
    Map,
    Reduce,
    Scan,
    Hist,
    ReduceByIndex,
    Scatter(u8),
    Filter,
    Partition,
    Zip(u8),
    Unzip(u8),
    Iota,
    Replicate,
    Concat,
    Rotate,
    Transpose,
    Flatten,
    /// Its implicit sizes come first (`check::builtins::implicit_sizes`).
    Unflatten(u8),
    /// `split` with its implicit sizes `n` and `m` first.
    Split,
    Copy,
    Trace,
    Opaque,
    /// `jvp2 f x x'` (Note [Dual numbers]).
    Jvp2,
    /// `vjp2 f x y'` (Note [Reverse mode]).
    Vjp2,
    /// `with_vjp f f' x` (Note [Custom adjoints]).
    WithVjp,
    /// `intrinsics.scatter_stream dest f bs` (Note [Accumulators in the
    /// interpreter]).
    ScatterStream,
    /// `intrinsics.hist_stream dest op ne f bs`.
    HistStream,
    /// `intrinsics.acc_write acc i v`.
    AccWrite,
}

impl Builtin {
    /// Resolve a canonical built-in name (`map`, `+`, `i32.+`, `f32.i64`).
    pub fn parse(name: &str) -> Option<Builtin> {
        if let Some(op) = BinOp::from_name(name) {
            return Some(Builtin::Op(op));
        }
        if let Some(g) = parse_general(name) {
            return Some(Builtin::Gen(g));
        }
        let (m, f) = name.split_once('.')?;
        let t = PrimType::from_name(m)?;
        if let Some(from) = PrimType::from_name(f) {
            return Some(Builtin::Conv { to: t, from });
        }
        if t == PrimType::Bool {
            return (f == "not").then_some(Builtin::Num(t, NumFn::Not));
        }
        if let Some(op) = BinOp::from_name(f) {
            let integral_only = matches!(
                op,
                BinOp::Quot
                    | BinOp::Rem
                    | BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::Xor
                    | BinOp::Shl
                    | BinOp::Shr
                    | BinOp::UShr
            );
            let ok = !matches!(op, BinOp::LogAnd | BinOp::LogOr) && (t.is_int() || !integral_only);
            return ok.then_some(Builtin::Op(op));
        }
        use NumFn::*;
        let common = match f {
            "max" => Some(Max),
            "min" => Some(Min),
            "abs" => Some(Abs),
            "sgn" => Some(Sgn),
            "neg" => Some(Neg),
            "to_i64" => Some(ToI64),
            _ => None,
        };
        if let Some(c) = common {
            return Some(Builtin::Num(t, c));
        }
        let nf = if t.is_float() {
            if let Some(u) = FloatUn::from_name(f) {
                return Some(Builtin::Num(t, Un(u)));
            }
            if let Some(b) = FloatBin::from_name(f) {
                return Some(Builtin::Num(t, Bin(b)));
            }
            match f {
                "inf" => Inf,
                "nan" => Nan,
                "fma" => Fma,
                "mad" => Mad,
                "to_bits" => ToBits,
                "to_f64" => ToF64,
                "from_bits" => FromBits,
                _ => return None,
            }
        } else {
            match f {
                "not" => Not,
                "popc" => Popc,
                "clz" => Clz,
                "mul_hi" => MulHi,
                _ => return None,
            }
        };
        Some(Builtin::Num(t, nf))
    }

    /// The number of arguments; 0 for constants (`f32.inf`).
    pub fn arity(self) -> usize {
        match self {
            Builtin::Op(_) => 2,
            Builtin::Conv { .. } => 1,
            Builtin::Num(_, f) => {
                use NumFn::*;
                match f {
                    Inf | Nan => 0,
                    Max | Min | MulHi | Bin(_) => 2,
                    Fma | Mad => 3,
                    _ => 1,
                }
            }
            Builtin::Gen(g) => match g {
                Gen::Map => 2,
                Gen::Zip(k) => k as usize,
                Gen::Reduce | Gen::Scan => 3,
                Gen::Hist | Gen::ReduceByIndex => 5,
                Gen::Scatter(_) => 3,
                Gen::Filter | Gen::Partition => 2,
                Gen::Unzip(_) => 1,
                Gen::Iota => 1,
                Gen::Replicate | Gen::Concat | Gen::Rotate => 2,
                Gen::Transpose | Gen::Flatten | Gen::Copy | Gen::Trace | Gen::Opaque => 1,
                Gen::Unflatten(k) => k as usize + 1,
                Gen::Split | Gen::Jvp2 | Gen::Vjp2 | Gen::WithVjp => 3,
                Gen::ScatterStream | Gen::AccWrite => 3,
                Gen::HistStream => 5,
            },
        }
    }
}

fn parse_general(name: &str) -> Option<Gen> {
    Some(match name {
        "map" => Gen::Map,
        "reduce" | "reduce_comm" => Gen::Reduce,
        "scan" => Gen::Scan,
        "hist" => Gen::Hist,
        "reduce_by_index" => Gen::ReduceByIndex,
        "scatter" => Gen::Scatter(1),
        "scatter_2d" => Gen::Scatter(2),
        "scatter_3d" => Gen::Scatter(3),
        "filter" => Gen::Filter,
        "partition" => Gen::Partition,
        "zip" => Gen::Zip(2),
        "zip3" => Gen::Zip(3),
        "zip4" => Gen::Zip(4),
        "zip5" => Gen::Zip(5),
        "unzip" => Gen::Unzip(2),
        "unzip3" => Gen::Unzip(3),
        "unzip4" => Gen::Unzip(4),
        "unzip5" => Gen::Unzip(5),
        "iota" => Gen::Iota,
        // `rep x` with its implicit size `n` first is `replicate n x`.
        "replicate" | "rep" => Gen::Replicate,
        "concat" | "++" => Gen::Concat,
        "rotate" => Gen::Rotate,
        "transpose" => Gen::Transpose,
        "flatten" => Gen::Flatten,
        "unflatten" => Gen::Unflatten(2),
        "unflatten_3d" => Gen::Unflatten(3),
        "unflatten_4d" => Gen::Unflatten(4),
        "split" => Gen::Split,
        "copy" => Gen::Copy,
        "trace" => Gen::Trace,
        "opaque" => Gen::Opaque,
        "jvp2" => Gen::Jvp2,
        "vjp2" => Gen::Vjp2,
        "with_vjp" => Gen::WithVjp,
        "intrinsics.scatter_stream" => Gen::ScatterStream,
        "intrinsics.hist_stream" => Gen::HistStream,
        "intrinsics.acc_write" => Gen::AccWrite,
        _ => return None,
    })
}

/// Exactly `N` arguments.
fn args_n<'a, const N: usize>(args: Vec<Value<'a>>, span: Span) -> R<[Value<'a>; N]> {
    let n = args.len();
    args.try_into().map_err(|_| {
        error(
            span,
            format!("internal error: built-in applied to {n} arguments, expected {N}"),
        )
    })
}

fn prim_arg(v: &Value<'_>, span: Span) -> R<PrimValue> {
    match v.as_prim() {
        Some(p) => Ok(p),
        None => internal(span, format!("expected a scalar, got {}", v.kind())),
    }
}

fn array_arg<'a>(v: Value<'a>, span: Span) -> R<Rc<Array<'a>>> {
    match v {
        Value::Array(a) => Ok(a),
        v => internal(span, format!("expected an array, got {}", v.kind())),
    }
}

fn fun_arg<'a>(v: Value<'a>, span: Span) -> R<Rc<Fun<'a>>> {
    match v {
        Value::Fun(f) => Ok(f),
        v => internal(span, format!("expected a function, got {}", v.kind())),
    }
}

/// The array, moved out of its `Rc` when this is the only reference.
fn owned<'a>(a: Rc<Array<'a>>) -> Array<'a> {
    Rc::try_unwrap(a).unwrap_or_else(|rc| (*rc).clone())
}

fn prim_result<'a>(r: Result<PrimValue, scalar::PrimError>, what: &str, span: Span) -> R<Value<'a>> {
    match r {
        Ok(p) => Ok(Value::prim(p)),
        Err(e) => err(span, e.message(what)),
    }
}

/// Numeric-module function `f` of type `t` on scalars some of which are
/// numbers of AD calls (Note [One chain-rule table]).
fn num_ad<'a>(t: PrimType, f: NumFn, args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
    use NumFn::*;
    let mut args = args.into_iter();
    let mut arg = || match args.next() {
        Some(a) => Ok(a),
        None => internal(span, "missing argument"),
    };
    match f {
        Max | Min => ad::max_min(f == Max, arg()?, arg()?, span),
        Abs => ad::abs(arg()?, span),
        Sgn => match ad::bottom(&arg()?) {
            Some(p) => prim_result(scalar::sgn(p), "sgn", span),
            None => internal(span, "sgn of a non-scalar"),
        },
        Neg => ad::neg(arg()?, span),
        ToI64 => ad::convert(arg()?, PrimType::I64, span),
        ToF64 => ad::convert(arg()?, PrimType::F64, span),
        Un(u) => ad::float_un(u, arg()?, span),
        Bin(b) => ad::float_bin(b, arg()?, arg()?, span),
        Fma | Mad => ad::fma(arg()?, arg()?, arg()?, span),
        ToBits => match ad::bottom(&arg()?) {
            Some(p) => prim_result(scalar::to_bits(p), "to_bits", span),
            None => internal(span, "to_bits of a non-scalar"),
        },
        _ => internal(span, format!("{t}.{f:?} of a differentiated number")),
    }
}

/// The common outer length of the arrays of a `map`/`zip`, or a size error.
fn common_len(arrays: &[Rc<Array<'_>>], what: &str, span: Span) -> R<usize> {
    let n = arrays.first().map_or(0, |a| a.outer());
    for a in arrays.iter().skip(1) {
        if a.outer() != n {
            return err(
                span,
                format!(
                    "{what}: arrays have different sizes: {} and {}",
                    shape_str(&arrays[0].shape),
                    shape_str(&a.shape)
                ),
            );
        }
    }
    Ok(n)
}

impl<'a> Interp<'a> {
    /// A built-in constant (arity 0).
    pub(crate) fn builtin_const(&mut self, b: Builtin, span: Span) -> R<Value<'a>> {
        let Builtin::Num(t, f) = b else {
            return internal(span, format!("{b:?} is not a constant"));
        };
        Ok(Value::prim(match f {
            NumFn::Inf => scalar::float_const(t, "inf"),
            NumFn::Nan => scalar::float_const(t, "nan"),
            _ => return internal(span, format!("{b:?} is not a constant")),
        }))
    }

    /// Apply a built-in to exactly `arity` arguments. `ty` is the type of
    /// the result when known (it gives the element type of an empty result).
    pub(crate) fn call_builtin(
        &mut self,
        b: Builtin,
        args: Vec<Value<'a>>,
        span: Span,
        ty: Option<&'a Type>,
    ) -> R<Value<'a>> {
        match b {
            Builtin::Op(op) => {
                let [x, y] = args_n(args, span)?;
                self.tick();
                self.apply_binop(op, x, y, span)
            }
            Builtin::Conv { to, .. } => {
                let [x] = args_n(args, span)?;
                self.tick();
                if ad::is_ad(&x) {
                    return ad::convert(x, to, span);
                }
                Ok(Value::prim(scalar::convert(prim_arg(&x, span)?, to)))
            }
            Builtin::Num(t, f) => self.call_num(t, f, args, span),
            Builtin::Gen(g) => self.call_gen(g, args, span, ty),
        }
    }

    fn call_num(&mut self, t: PrimType, f: NumFn, args: Vec<Value<'a>>, span: Span) -> R<Value<'a>> {
        use NumFn::*;
        if args.is_empty() {
            return self.builtin_const(Builtin::Num(t, f), span);
        }
        if args.iter().any(ad::is_ad) {
            self.tick();
            return num_ad(t, f, args, span);
        }
        let ps: Vec<PrimValue> = args.iter().map(|a| prim_arg(a, span)).collect::<R<_>>()?;
        self.tick();
        let p = |i: usize| {
            ps.get(i)
                .copied()
                .ok_or_else(|| error(span, "internal error: missing argument"))
        };
        let r = match f {
            Max | Min => scalar::max_min(f == Max, p(0)?, p(1)?),
            Abs => scalar::abs(p(0)?),
            Sgn => scalar::sgn(p(0)?),
            Neg => scalar::neg(p(0)?),
            ToI64 => Ok(scalar::convert(p(0)?, PrimType::I64)),
            ToF64 => Ok(scalar::convert(p(0)?, PrimType::F64)),
            Not => scalar::not(p(0)?),
            Popc => scalar::bit_count(BitCount::Popc, p(0)?),
            Clz => scalar::bit_count(BitCount::Clz, p(0)?),
            MulHi => scalar::mul_hi(p(0)?, p(1)?, None),
            Un(u) => scalar::float_un(u, p(0)?),
            Bin(b) => scalar::float_bin(b, p(0)?, p(1)?),
            Fma => scalar::fma(true, p(0)?, p(1)?, p(2)?),
            Mad => scalar::fma(false, p(0)?, p(1)?, p(2)?),
            ToBits => scalar::to_bits(p(0)?),
            FromBits => scalar::from_bits(t, p(0)?),
            Inf | Nan => return internal(span, "constant applied to arguments"),
        };
        prim_result(r, &format!("{t}.{f:?}"), span)
    }

    fn call_gen(&mut self, g: Gen, args: Vec<Value<'a>>, span: Span, ty: Option<&'a Type>) -> R<Value<'a>> {
        match g {
            Gen::Jvp2 => {
                let [f, x, xt] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                self.ad_tag += 1;
                let tag = self.ad_tag;
                let x = dual::seed(x, xt, tag, span)?;
                let r = self.call1(&f, x, span)?;
                let (p, t) = dual::unseed(r, tag, span)?;
                Ok(Value::Tuple(Rc::new(vec![p, t])))
            }
            Gen::Vjp2 => {
                let [f, x, yt] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                self.ad_tag += 1;
                let tag = self.ad_tag;
                let tape = Rc::new(tape::Tape::default());
                let x = tape::seed(x, tag, &tape, span)?;
                let r = self.call1(&f, x.clone(), span)?;
                let (p, adj) = tape::sweep(&x, r, yt, tag, &tape, span, &mut |g, a, b| self.call2(g, a, b, span))?;
                Ok(Value::Tuple(Rc::new(vec![p, adj])))
            }
            Gen::WithVjp => {
                let [f, fp, x] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                let adjoint = fun_arg(fp, span)?;
                let Some((tag, tape)) = tape::innermost(&x) else {
                    return self.call1(&f, x, span);
                };
                let y = self.call1(&f, tape::strip(x.clone(), tag), span)?;
                let first = tape.len();
                let y_tracked = tape::seed(y.clone(), tag, &tape, span)?;
                if tape.len() > first {
                    tape.add_custom(
                        first,
                        tape::Custom {
                            adjoint,
                            y,
                            y_tracked: y_tracked.clone(),
                            x,
                        },
                    );
                }
                Ok(y_tracked)
            }
            Gen::Map => {
                let [f, xs] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                let xs = array_arg(xs, span)?;
                self.map1(&f, &xs, span, ty)
            }
            Gen::Reduce => {
                let [f, ne, xs] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                let xs = array_arg(xs, span)?;
                self.reduce(&f, ne, &xs, span)
            }
            Gen::Scan => {
                let [f, ne, xs] = args_n(args, span)?;
                let f = fun_arg(f, span)?;
                let xs = array_arg(xs, span)?;
                self.scan(&f, ne, &xs, span)
            }
            Gen::Hist => {
                let [f, ne, k, is, vs] = args_n(args, span)?;
                let k = as_i64(&k, span)?;
                if k < 0 {
                    return err(span, format!("hist: negative size {k}"));
                }
                let k = check_alloc(k as i128, span)?;
                if let Value::Array(a) = &ne {
                    check_alloc(k as i128 * a.data.len() as i128, span)?;
                }
                let dest = self.replicate(k, ne);
                self.hist(dest, f, is, vs, span)
            }
            Gen::ReduceByIndex => {
                let [dest, f, _ne, is, vs] = args_n(args, span)?;
                let dest = array_arg(dest, span)?;
                self.hist(dest, f, is, vs, span)
            }
            Gen::Scatter(k) => {
                let [dest, is, vs] = args_n(args, span)?;
                self.scatter(k as usize, dest, is, vs, span)
            }
            Gen::ScatterStream => {
                let [dest, f, bs] = args_n(args, span)?;
                self.acc_stream(dest, None, f, bs, span)
            }
            Gen::HistStream => {
                let [dest, op, _ne, f, bs] = args_n(args, span)?;
                let op = fun_arg(op, span)?;
                self.acc_stream(dest, Some(op), f, bs, span)
            }
            Gen::AccWrite => {
                let [acc, i, v] = args_n(args, span)?;
                self.acc_write(acc, i, v, span)
            }
            Gen::Filter | Gen::Partition => {
                let [p, xs] = args_n(args, span)?;
                let p = fun_arg(p, span)?;
                let xs = array_arg(xs, span)?;
                let n = xs.outer();
                let (mut yes, mut no) = (Vec::new(), Vec::new());
                let mut par = self.par_begin();
                for i in 0..n {
                    self.par_elem_begin();
                    let keep = match self.call1(&p, xs.row(i), span)? {
                        Value::Bool(b) => b != 0,
                        v => return internal(span, format!("predicate returned {}", v.kind())),
                    };
                    self.par_elem_end(&mut par);
                    if keep {
                        yes.push(i)
                    } else {
                        no.push(i)
                    }
                }
                self.par_end(par, 1);
                self.charge(n as u64, log_steps(n));
                let a = Value::array(xs.take_rows(&yes));
                if g == Gen::Filter {
                    return Ok(a);
                }
                let b = Value::array(xs.take_rows(&no));
                Ok(Value::Tuple(Rc::new(vec![a, b])))
            }
            Gen::Zip(_) => {
                let arrays: Vec<Rc<Array<'a>>> = args.into_iter().map(|a| array_arg(a, span)).collect::<R<_>>()?;
                let n = common_len(&arrays, "zip", span)?;
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    out.push(Value::Tuple(Rc::new(arrays.iter().map(|a| a.row(i)).collect())));
                }
                self.charge(n as u64, 1);
                Ok(Value::array(Array::new(vec![n], Data::Boxed(out))))
            }
            Gen::Unzip(k) => {
                let [xs] = args_n(args, span)?;
                let xs = array_arg(xs, span)?;
                self.unzip(k as usize, &xs, span, ty)
            }
            Gen::Iota => {
                let [n] = args_n(args, span)?;
                let n = as_i64(&n, span)?;
                if n < 0 {
                    return err(span, format!("Range 0..1..<{n} is invalid."));
                }
                let n = check_alloc(n as i128, span)?;
                self.charge(n as u64, 1);
                Ok(Value::array(Array::new(vec![n], Data::I64((0..n as i64).collect()))))
            }
            Gen::Replicate => {
                let [n, x] = args_n(args, span)?;
                let n = as_i64(&n, span)?;
                if n < 0 {
                    return err(span, format!("replicate: negative size {n}"));
                }
                let n = check_alloc(n as i128, span)?;
                if let Value::Array(a) = &x {
                    check_alloc(n as i128 * a.data.len() as i128, span)?;
                }
                let a = self.replicate(n, x);
                self.charge(a.data.len() as u64, 1);
                Ok(Value::Array(a))
            }
            Gen::Concat => {
                let [a, b] = args_n(args, span)?;
                let (a, b) = (array_arg(a, span)?, array_arg(b, span)?);
                let (ra, rb) = (a.shape.get(1..).unwrap_or(&[]), b.shape.get(1..).unwrap_or(&[]));
                // An empty array of unknown element type has no row shape.
                let unknown =
                    |x: &Array<'_>| x.data.is_empty() && x.shape.len() == 1 && matches!(x.data, Data::Boxed(_));
                if ra != rb && !unknown(&a) && !unknown(&b) {
                    return err(
                        span,
                        format!(
                            "concatenation of arrays whose rows differ in size: {} and {}",
                            shape_str(&a.shape),
                            shape_str(&b.shape)
                        ),
                    );
                }
                if unknown(&a) {
                    return Ok(Value::Array(b));
                }
                if unknown(&b) {
                    return Ok(Value::Array(a));
                }
                let n = a.outer() + b.outer();
                let mut x = owned(a);
                if !x.data.extend_from(&b.data, 0, b.data.len()) {
                    return internal(span, "concatenation of arrays of different element types");
                }
                x.shape[0] = n;
                self.charge(x.data.len() as u64, 1);
                Ok(Value::array(x))
            }
            Gen::Rotate => {
                let [r, xs] = args_n(args, span)?;
                let r = as_i64(&r, span)?;
                let xs = array_arg(xs, span)?;
                let n = xs.outer();
                if n == 0 {
                    return Ok(Value::Array(xs));
                }
                let k = r.rem_euclid(n as i64) as usize;
                let rows: Vec<usize> = (k..n).chain(0..k).collect();
                self.charge(xs.data.len() as u64, 1);
                Ok(Value::array(xs.take_rows(&rows)))
            }
            Gen::Transpose => {
                let [xs] = args_n(args, span)?;
                let xs = array_arg(xs, span)?;
                if xs.shape.len() < 2 {
                    return internal(span, "transpose of an array of rank < 2");
                }
                let (n, m) = (xs.shape[0], xs.shape[1]);
                let block: usize = xs.shape[2..].iter().product();
                let mut starts = Vec::with_capacity(n * m);
                for j in 0..m {
                    for i in 0..n {
                        starts.push((i * m + j) * block);
                    }
                }
                let mut shape = xs.shape.clone();
                shape.swap(0, 1);
                self.charge(xs.data.len() as u64, 1);
                Ok(Value::array(Array::new(shape, xs.data.gather(&starts, block))))
            }
            Gen::Flatten => {
                let [xs] = args_n(args, span)?;
                let xs = array_arg(xs, span)?;
                let k = 2;
                if xs.shape.len() < k {
                    if xs.data.is_empty() {
                        return Ok(Value::Array(xs));
                    }
                    return internal(span, format!("flattening an array of shape {}", shape_str(&xs.shape)));
                }
                let mut a = owned(xs);
                let outer: usize = a.shape[..k].iter().product();
                a.shape.splice(0..k, [outer]);
                self.charge(a.data.len() as u64, 1);
                Ok(Value::array(a))
            }
            Gen::Unflatten(k) => {
                let mut it = args.into_iter();
                let mut dims = Vec::with_capacity(k as usize);
                for _ in 0..k {
                    dims.push(as_i64(&it.next().unwrap_or_else(Value::unit), span)?);
                }
                let xs = array_arg(it.next().unwrap_or_else(Value::unit), span)?;
                crate::check::builtins::derive_size("unflatten", &mut dims, xs.outer() as i64);
                let total = dims.iter().try_fold(1i64, |a, d| a.checked_mul(*d));
                if dims.iter().any(|d| *d < 0) || total != Some(xs.outer() as i64) {
                    let want: String = dims.iter().map(|d| format!("[{d}]")).collect();
                    return err(
                        span,
                        format!(
                            "cannot unflatten an array of size {} into shape {want}: the sizes do not match",
                            xs.outer()
                        ),
                    );
                }
                let mut a = owned(xs);
                let dims: Vec<usize> = dims.into_iter().map(|d| d as usize).collect();
                a.shape.splice(0..1.min(a.shape.len()), dims);
                self.charge(a.data.len() as u64, 1);
                Ok(Value::array(a))
            }
            Gen::Split => {
                let [n, m, xs] = args_n(args, span)?;
                let xs = array_arg(xs, span)?;
                let mut nm = [as_i64(&n, span)?, as_i64(&m, span)?];
                crate::check::builtins::derive_size("split", &mut nm, xs.outer() as i64);
                let [n, m] = nm;
                if n < 0 || m < 0 || n.checked_add(m) != Some(xs.outer() as i64) {
                    return err(
                        span,
                        format!(
                            "cannot split an array of size {} into arrays of sizes {n} and {m}: the sizes do not match",
                            xs.outer()
                        ),
                    );
                }
                let (n, total) = (n as usize, xs.outer());
                let front: Vec<usize> = (0..n).collect();
                let back: Vec<usize> = (n..total).collect();
                self.charge(xs.data.len() as u64, 1);
                let parts = vec![Value::array(xs.take_rows(&front)), Value::array(xs.take_rows(&back))];
                Ok(Value::Tuple(Rc::new(parts)))
            }
            Gen::Copy => {
                let [x] = args_n(args, span)?;
                if let Value::Array(a) = &x {
                    self.charge(a.data.len() as u64, 1);
                }
                Ok(x)
            }
            Gen::Trace => {
                let [x] = args_n(args, span)?;
                if let Some(report) = self.trace {
                    report(span, &trace_text(&x, ty));
                }
                Ok(x)
            }
            Gen::Opaque => {
                let [x] = args_n(args, span)?;
                Ok(x)
            }
        }
    }

    /// `map f xs`.
    fn map1(&mut self, f: &Rc<Fun<'a>>, xs: &Array<'a>, span: Span, ty: Option<&'a Type>) -> R<Value<'a>> {
        let n = xs.outer();
        let mut b = Builder::new(n);
        let mut par = self.par_begin();
        for i in 0..n {
            self.par_elem_begin();
            let r = self.call1(f, xs.row(i), span)?;
            self.par_elem_end(&mut par);
            b.push(r).map_err(|m| error(span, m))?;
        }
        self.par_end(par, 1);
        Ok(self.finish_array(b, ty))
    }

    fn reduce(&mut self, f: &Rc<Fun<'a>>, ne: Value<'a>, xs: &Array<'a>, span: Span) -> R<Value<'a>> {
        let n = xs.outer();
        if let (Fun::Builtin(Builtin::Op(op)), Some(ne), 1) = (&**f, ne.as_prim(), xs.shape.len()) {
            if let Some(acc) = fold_prim(*op, ne, &xs.data) {
                self.charge(n as u64, log_steps(n));
                return acc.map(Value::prim).map_err(|e| error(span, e.message(op.name())));
            }
        }
        let mut par = self.par_begin();
        let mut acc = ne;
        for i in 0..n {
            self.par_elem_begin();
            acc = self.call2(f, acc, xs.row(i), span)?;
            self.par_elem_end(&mut par);
        }
        self.par_end(par, log_steps(n));
        Ok(acc)
    }

    fn scan(&mut self, f: &Rc<Fun<'a>>, ne: Value<'a>, xs: &Array<'a>, span: Span) -> R<Value<'a>> {
        let n = xs.outer();
        if n == 0 {
            return Ok(Value::array(Array::new(xs.shape.clone(), xs.data.empty_like(0))));
        }
        let mut b = Builder::new(n);
        let mut par = self.par_begin();
        let mut acc = ne;
        for i in 0..n {
            self.par_elem_begin();
            acc = self.call2(f, acc, xs.row(i), span)?;
            self.par_elem_end(&mut par);
            b.push(acc.clone()).map_err(|m| error(span, m))?;
        }
        self.par_end(par, log_steps(n));
        Ok(self.finish_array(b, None))
    }

    /// `replicate n x`
    fn replicate(&mut self, n: usize, x: Value<'a>) -> Rc<Array<'a>> {
        if let Some(p) = x.as_prim() {
            return Rc::new(Array::new(vec![n], Data::splat(p, n)));
        }
        Rc::new(match x {
            Value::Array(a) => {
                let mut data = a.data.empty_like(n * a.data.len());
                for _ in 0..n {
                    data.extend_from(&a.data, 0, a.data.len());
                }
                let mut shape = vec![n];
                shape.extend_from_slice(&a.shape);
                Array::new(shape, data)
            }
            x => Array::new(vec![n], Data::Boxed(vec![x; n])),
        })
    }

    /// `reduce_by_index dest f _ is vs` (and `hist`, whose `dest` is a
    /// replicated neutral element): out-of-range indices are ignored.
    fn hist(
        &mut self,
        mut dest: Rc<Array<'a>>,
        f: Value<'a>,
        is: Value<'a>,
        vs: Value<'a>,
        span: Span,
    ) -> R<Value<'a>> {
        let f = fun_arg(f, span)?;
        let is = array_arg(is, span)?;
        let vs = array_arg(vs, span)?;
        let n = common_len(&[is.clone(), vs.clone()], "reduce_by_index", span)?;
        let k = dest.outer();
        let d = Rc::make_mut(&mut dest);
        let mut par = self.par_begin();
        for i in 0..n {
            let j = as_i64(&is.data.get(i), span)?;
            if j < 0 || j as usize >= k {
                continue;
            }
            let j = j as usize;
            self.par_elem_begin();
            let cur = d.row(j);
            let new = self.call2(&f, cur, vs.row(i), span)?;
            self.par_elem_end(&mut par);
            d.set_row(j, new).map_err(|m| error(span, m))?;
        }
        self.par_end(par, log_steps(n));
        Ok(Value::Array(dest))
    }

    /// `scatter_stream dest f bs` (`op` `None`) and `hist_stream dest op _
    /// f bs`: Note [Accumulators in the interpreter].
    fn acc_stream(
        &mut self,
        dest: Value<'a>,
        op: Option<Rc<Fun<'a>>>,
        f: Value<'a>,
        bs: Value<'a>,
        span: Span,
    ) -> R<Value<'a>> {
        let f = fun_arg(f, span)?;
        let bs = array_arg(bs, span)?;
        let mut acc = Value::Array(array_arg(dest, span)?);
        self.acc_ops.push(op);
        let mut par = self.par_begin();
        let mut result = Ok(());
        for i in 0..bs.outer() {
            self.par_elem_begin();
            match self.call2(&f, acc.clone(), bs.row(i), span) {
                Ok(a) => acc = a,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            self.par_elem_end(&mut par);
        }
        self.acc_ops.pop();
        result?;
        self.par_end(par, log_steps(bs.outer()));
        Ok(acc)
    }

    /// `acc_write acc i v` into the innermost running stream's
    /// accumulator (Note [Accumulators in the interpreter]).
    fn acc_write(&mut self, acc: Value<'a>, i: Value<'a>, v: Value<'a>, span: Span) -> R<Value<'a>> {
        let mut acc = array_arg(acc, span)?;
        let Some(op) = self.acc_ops.last().cloned() else {
            return internal(span, "acc_write outside scatter_stream and hist_stream");
        };
        let i = as_i64(&i, span)?;
        self.tick();
        if i < 0 || i as usize >= acc.outer() {
            return Ok(Value::Array(acc));
        }
        let i = i as usize;
        let new = match op {
            Some(op) => {
                let cur = acc.row(i);
                self.call2(&op, cur, v, span)?
            }
            None => v,
        };
        Rc::make_mut(&mut acc).set_row(i, new).map_err(|m| error(span, m))?;
        Ok(Value::Array(acc))
    }

    /// `scatter`, `scatter_2d`, `scatter_3d`: out-of-range indices are
    /// ignored.
    fn scatter(&mut self, k: usize, dest: Value<'a>, is: Value<'a>, vs: Value<'a>, span: Span) -> R<Value<'a>> {
        let mut dest = array_arg(dest, span)?;
        let is = array_arg(is, span)?;
        let vs = array_arg(vs, span)?;
        let n = common_len(&[is.clone(), vs.clone()], "scatter", span)?;
        if dest.shape.len() < k {
            return internal(span, "scatter into an array of too low rank");
        }
        let d = Rc::make_mut(&mut dest);
        let elem_shape = d.shape[k..].to_vec();
        let block: usize = elem_shape.iter().product();
        let mut idx = Vec::with_capacity(k);
        'next: for i in 0..n {
            idx.clear();
            match is.data.get(i) {
                Value::Tuple(t) if k > 1 => {
                    for x in t.iter() {
                        idx.push(as_i64(x, span)?);
                    }
                }
                v => idx.push(as_i64(&v, span)?),
            }
            if idx.len() != k {
                return internal(span, "scatter index of the wrong arity");
            }
            let mut flat = 0usize;
            for (x, dim) in idx.iter().zip(&d.shape) {
                if *x < 0 || *x as usize >= *dim {
                    continue 'next;
                }
                flat = flat * dim + *x as usize;
            }
            d.set_block(flat * block, &elem_shape, vs.row(i))
                .map_err(|m| error(span, m))?;
        }
        self.charge(n as u64, 1);
        Ok(Value::Array(dest))
    }

    fn unzip(&mut self, k: usize, xs: &Array<'a>, span: Span, ty: Option<&'a Type>) -> R<Value<'a>> {
        let total = xs.data.len();
        let mut builders: Vec<Builder<'a>> = (0..k).map(|_| Builder::new(total)).collect();
        for i in 0..total {
            let Value::Tuple(t) = xs.data.get(i) else {
                return internal(span, "unzip of an array that is not of tuples");
            };
            if t.len() != k {
                return internal(span, "unzip of tuples of the wrong size");
            }
            for (b, x) in builders.iter_mut().zip(t.iter()) {
                b.push(x.clone()).map_err(|m| error(span, m))?;
            }
        }
        self.charge(total as u64, 1);
        let tys: Vec<Option<&'a Type>> = match ty {
            Some(Type::Tuple(ts)) if ts.len() == k => ts.iter().map(Some).collect(),
            _ => vec![None; k],
        };
        let mut out = Vec::with_capacity(k);
        for (b, t) in builders.into_iter().zip(tys) {
            let v = self.finish_array(b, t);
            // Restore the outer dimensions of `xs` (the builder made one).
            let Value::Array(a) = v else {
                return internal(span, "unzip");
            };
            let mut a = owned(a);
            if total > 0 {
                let rest = a.shape.split_off(1);
                a.shape = xs.shape.clone();
                a.shape.extend(rest);
            }
            out.push(Value::array(a));
        }
        Ok(Value::Tuple(Rc::new(out)))
    }
}

/// `reduce op ne xs` over a flat scalar array, `None` if not applicable.
/// The common element types are read straight from their vectors; every
/// step is the shared semantics' `binop`.
fn fold_prim(op: BinOp, ne: PrimValue, data: &Data<'_>) -> Option<Result<PrimValue, scalar::PrimError>> {
    macro_rules! fold {
        ($v:expr, $C:ident) => {{
            let mut acc = ne;
            for &x in $v.iter() {
                match scalar::binop(op, acc, PrimValue::$C(x)) {
                    Ok(r) => acc = r,
                    Err(e) => return Some(Err(e)),
                }
            }
            Some(Ok(acc))
        }};
    }
    match data {
        Data::I32(v) => fold!(v, I32),
        Data::I64(v) => fold!(v, I64),
        Data::F32(v) => fold!(v, F32),
        Data::F64(v) => fold!(v, F64),
        Data::Boxed(v) if !v.is_empty() => None,
        _ => {
            let mut acc = ne;
            for i in 0..data.len() {
                let x = data.get_prim(i)?;
                match scalar::binop(op, acc, x) {
                    Ok(r) => acc = r,
                    Err(e) => return Some(Err(e)),
                }
            }
            Some(Ok(acc))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::builtins::{count_arrows, implicit_size_count, numeric_module, GENERAL, OPERATORS};

    /// The number of parameters of a type scheme.
    fn scheme_arity(s: &str) -> usize {
        count_arrows(s)
    }

    #[test]
    fn every_builtin_resolves_with_its_arity() {
        for (name, scheme) in GENERAL {
            let b = Builtin::parse(name).unwrap_or_else(|| panic!("{name}"));
            let arity = scheme_arity(scheme) + implicit_size_count(name);
            assert_eq!(b.arity(), arity, "{name}: {scheme}");
        }
        for t in PrimType::ALL {
            for (f, scheme) in numeric_module(t) {
                let name = format!("{t}.{f}");
                let b = Builtin::parse(&name).unwrap_or_else(|| panic!("{name}"));
                assert_eq!(b.arity(), scheme_arity(&scheme), "{name}: {scheme}");
            }
        }
        for op in OPERATORS {
            assert_eq!(Builtin::parse(op), Some(Builtin::Op(BinOp::from_name(op).unwrap())));
        }
        assert_eq!(Builtin::parse("f32.//"), None);
        assert_eq!(Builtin::parse("bool.+"), None);
        assert_eq!(Builtin::parse("nope"), None);
    }
}
