//! Forward-mode automatic differentiation in the interpreter: `jvp2` by
//! dual numbers. See Note [Dual numbers].

use std::rc::Rc;

use crate::span::Span;
use crate::types::PrimType;
use crate::values::scalar::{self, BinOp, FloatBin, FloatUn};
use crate::values::PrimValue;

use super::eval::{err, internal, R};
use super::value::{Array, Data, SumValue, Value};

// Note [Dual numbers]
// ~~~~~~~~~~~~~~~~~~~
// `jvp2 f x x'` (the prelude's `jvp`, `jmp` and `jmp2` are built on it)
// runs `f` once on dual numbers: every number of `x` becomes a
// `Value::Dual` holding the number (the primal) and its tangent from `x'`;
// every primitive op on a dual computes its primal and, by the chain rule,
// its tangent (`bin`, `float_un`, ... below: `d(a*b) = a'*b + a*b'`,
// `d(sin a) = cos a * a'`, ...). As in Futhark, integers are
// differentiated too, in their own arithmetic (`jvp (\x -> x*x) 3i32 1`
// is 6; bit operations have tangent zero), and booleans carry no
// tangent: their part of `x'` is ignored, and their part of the result's
// tangent is `false`. Comparisons, indexing, sizes and control flow look
// at the primal only, so a loop, an `if` or an in-place update carries
// duals through like any other value, and a number the function does not
// depend on has tangent zero.
//
// Each `jvp2` call gets a fresh tag, larger than the tag of every call it
// runs inside, and its duals carry it. A dual's primal and tangent are
// values of the calls outside it (duals of smaller tags, or plain numbers),
// so nested `jvp`s nest duals: an op on duals of different tags works on
// the larger tag, treating the other operand as a constant of that call
// (its tangent zero), which keeps the perturbations of different calls
// apart (`jvp (\x -> jvp (\y -> x*y) 1 1) 2 1` is 1, not 2). When `f`
// returns, the call takes apart the duals of its own tag.
//
// Arrays of duals are `Data::Boxed` (see Note [Value representation]);
// writing a dual into a typed array boxes it.

/// A number with a tangent, of the `jvp2` call `tag` (Note [Dual numbers]).
pub struct Dual<'a> {
    pub tag: u32,
    pub primal: Value<'a>,
    pub tangent: Value<'a>,
}

fn dual<'a>(tag: u32, primal: Value<'a>, tangent: Value<'a>) -> Value<'a> {
    Value::Dual(Rc::new(Dual { tag, primal, tangent }))
}

/// The tag of `v`, 0 for anything but a dual.
pub fn tag_of(v: &Value<'_>) -> u32 {
    match v {
        Value::Dual(d) => d.tag,
        _ => 0,
    }
}

/// The plain scalar at the bottom of nested duals.
pub fn bottom(v: &Value<'_>) -> Option<PrimValue> {
    match v {
        Value::Dual(d) => bottom(&d.primal),
        v => v.as_prim(),
    }
}

fn bottom_r(v: &Value<'_>, span: Span) -> R<PrimValue> {
    match bottom(v) {
        Some(p) => Ok(p),
        None => internal(span, format!("expected a scalar, got {}", v.kind())),
    }
}

/// The constant `x` of `v`'s type.
fn konst<'a>(v: &Value<'a>, x: f64, span: Span) -> R<Value<'a>> {
    let t = bottom_r(v, span)?.prim_type();
    Ok(Value::prim(scalar::from_f64(t, x)))
}

/// `v` as the primal and tangent of call `tag`: a dual of another call is
/// a constant of this one.
fn split<'a>(v: &Value<'a>, tag: u32, span: Span) -> R<(Value<'a>, Value<'a>)> {
    match v {
        Value::Dual(d) if d.tag == tag => Ok((d.primal.clone(), d.tangent.clone())),
        v => Ok((v.clone(), konst(v, 0.0, span)?)),
    }
}

/// A tangent known to be zero (a plain zero), whose term can be left out:
/// `x ** 2` at `x = -1` has no `log x` term, which would be NaN.
fn is_zero(v: &Value<'_>) -> bool {
    v.as_prim().is_some_and(|p| p.to_f64() == 0.0)
}

/// Whether `v` is an integer, plain or dual.
fn is_int(v: &Value<'_>) -> bool {
    bottom(v).is_some_and(|p| p.prim_type().is_int())
}

fn prim_r<'a>(r: Result<PrimValue, scalar::PrimError>, what: &str, span: Span) -> R<Value<'a>> {
    match r {
        Ok(p) => Ok(Value::prim(p)),
        Err(e) => err(span, e.message(what)),
    }
}

fn add<'a>(a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    bin(BinOp::Add, a, b, span)
}
fn sub<'a>(a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    bin(BinOp::Sub, a, b, span)
}
fn mul<'a>(a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    bin(BinOp::Mul, a, b, span)
}
fn div<'a>(a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    bin(BinOp::Div, a, b, span)
}

/// A built-in operator on scalars of which at least one may be a dual.
pub fn bin<'a>(op: BinOp, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
        return prim_r(scalar::binop(op, x, y), op.name(), span);
    }
    use BinOp::*;
    if matches!(op, Eq | Neq | Lt | Le | Gt | Ge) {
        let (x, y) = (bottom_r(&a, span)?, bottom_r(&b, span)?);
        return prim_r(scalar::binop(op, x, y), op.name(), span);
    }
    let tag = tag_of(&a).max(tag_of(&b));
    let (ap, at) = split(&a, tag, span)?;
    let (bp, bt) = split(&b, tag, span)?;
    let p = bin(op, ap.clone(), bp.clone(), span)?;
    let t = match op {
        Add => add(at, bt, span)?,
        Sub => sub(at, bt, span)?,
        Mul => add(mul(at, bp, span)?, mul(ap, bt, span)?, span)?,
        // (a'b - ab')/b² = (a' - (a/b) b')/b
        Div | Quot if is_int(&p) => {
            let num = sub(mul(at, bp.clone(), span)?, mul(ap, bt, span)?, span)?;
            div(num, mul(bp.clone(), bp, span)?, span)?
        }
        Div => div(sub(at, mul(p.clone(), bt, span)?, span)?, bp, span)?,
        // a ** b: b a^(b-1) a' + a^b log(a) b', where a term is 0 when
        // its factor b (or a) is: `0 ** b` has no `log 0` and `a ** 0` no
        // `a ** -1` (Futhark's `0 ** 1` has tangent 1, `0 ** 0` tangent
        // 0). Integers have no `log`: their tangent is the first term.
        Pow => {
            let zero = |v: &Value<'a>| bottom(v).is_some_and(|q| q.to_f64() == 0.0);
            let mut t = konst(&p, 0.0, span)?;
            if !is_zero(&at) && !zero(&bp) {
                let one = konst(&bp, 1.0, span)?;
                let d = mul(bp.clone(), bin(Pow, ap.clone(), sub(bp, one, span)?, span)?, span)?;
                t = add(t, mul(d, at, span)?, span)?;
            }
            if !is_zero(&bt) && !is_int(&p) && !zero(&ap) {
                let d = mul(p.clone(), float_un(FloatUn::Log, ap, span)?, span)?;
                t = add(t, mul(d, bt, span)?, span)?;
            }
            t
        }
        // a mod b = a - q b for the integral quotient q = (a - a mod b)/b.
        Mod | Rem => {
            let q = div(sub(ap, p.clone(), span)?, bp, span)?;
            sub(at, mul(q, bt, span)?, span)?
        }
        // Integral division of floats is piecewise constant, and so are
        // the bit operations.
        Quot | BitAnd | BitOr | Xor | Shl | Shr | UShr => konst(&p, 0.0, span)?,
        _ => return internal(span, format!("`{}` on a number with a tangent", op.name())),
    };
    Ok(dual(tag, p, t))
}

/// The derivative of `f` at `p`, where `f p` is `r`.
fn un_derivative<'a>(f: FloatUn, p: Value<'a>, r: &Value<'a>, span: Span) -> R<Value<'a>> {
    use FloatUn::*;
    let ty = bottom_r(&p, span)?.prim_type();
    let c = |x: f64| -> R<Value<'a>> { Ok(Value::prim(scalar::from_f64(ty, x))) };
    let sq = |x: Value<'a>| mul(x.clone(), x, span);
    Ok(match f {
        Sqrt => div(c(1.0)?, mul(c(2.0)?, r.clone(), span)?, span)?,
        Cbrt => div(c(1.0)?, mul(c(3.0)?, sq(r.clone())?, span)?, span)?,
        Exp => r.clone(),
        Log => div(c(1.0)?, p, span)?,
        Log2 => div(c(1.0)?, mul(p, c(std::f64::consts::LN_2)?, span)?, span)?,
        Log10 => div(c(1.0)?, mul(p, c(std::f64::consts::LN_10)?, span)?, span)?,
        Log1p => div(c(1.0)?, add(c(1.0)?, p, span)?, span)?,
        Sin => float_un(Cos, p, span)?,
        Cos => neg(float_un(Sin, p, span)?, span)?,
        Tan => add(c(1.0)?, sq(r.clone())?, span)?,
        Asin => div(c(1.0)?, float_un(Sqrt, sub(c(1.0)?, sq(p)?, span)?, span)?, span)?,
        Acos => neg(
            div(c(1.0)?, float_un(Sqrt, sub(c(1.0)?, sq(p)?, span)?, span)?, span)?,
            span,
        )?,
        Atan => div(c(1.0)?, add(c(1.0)?, sq(p)?, span)?, span)?,
        Sinh => float_un(Cosh, p, span)?,
        Cosh => float_un(Sinh, p, span)?,
        Tanh => sub(c(1.0)?, sq(r.clone())?, span)?,
        Asinh => div(c(1.0)?, float_un(Sqrt, add(sq(p)?, c(1.0)?, span)?, span)?, span)?,
        Acosh => div(c(1.0)?, float_un(Sqrt, sub(sq(p)?, c(1.0)?, span)?, span)?, span)?,
        Atanh => div(c(1.0)?, sub(c(1.0)?, sq(p)?, span)?, span)?,
        // erf' = 2/√π e^(-x²)
        Erf | Erfc => {
            let k = if f == Erf { 2.0 } else { -2.0 } / std::f64::consts::PI.sqrt();
            mul(c(k)?, float_un(Exp, neg(sq(p)?, span)?, span)?, span)?
        }
        Floor | Ceil | Round => c(0.0)?,
        Gamma | Lgamma => return err(span, format!("jvp: the derivative of `{f:?}` is not supported")),
    })
}

/// Float function `f` of a scalar that may be a dual.
pub fn float_un<'a>(f: FloatUn, a: Value<'a>, span: Span) -> R<Value<'a>> {
    if let Some(x) = a.as_prim() {
        return prim_r(scalar::float_un(f, x), &format!("{f:?}"), span);
    }
    let tag = tag_of(&a);
    let (p, t) = split(&a, tag, span)?;
    let r = float_un(f, p.clone(), span)?;
    let d = un_derivative(f, p, &r, span)?;
    Ok(dual(tag, r, mul(d, t, span)?))
}

/// Float function `f` of two scalars, either of which may be a dual.
pub fn float_bin<'a>(f: FloatBin, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
        return prim_r(scalar::float_bin(f, x, y), &format!("{f:?}"), span);
    }
    let tag = tag_of(&a).max(tag_of(&b));
    let (ap, at) = split(&a, tag, span)?;
    let (bp, bt) = split(&b, tag, span)?;
    let r = float_bin(f, ap.clone(), bp.clone(), span)?;
    let t = match f {
        // atan2(y, x)' = (x y' - y x')/(x² + y²)
        FloatBin::Atan2 => {
            let num = sub(mul(bp.clone(), at, span)?, mul(ap.clone(), bt, span)?, span)?;
            let den = add(mul(ap.clone(), ap, span)?, mul(bp.clone(), bp, span)?, span)?;
            div(num, den, span)?
        }
        // hypot(a, b)' = (a a' + b b')/hypot(a, b)
        FloatBin::Hypot => {
            let num = add(mul(ap, at, span)?, mul(bp, bt, span)?, span)?;
            div(num, r.clone(), span)?
        }
        // copysign(a, b) is ±a, its sign piecewise constant in b.
        FloatBin::Copysign => {
            let negative = |v: &Value<'a>| bottom_r(v, span).map(|p| p.to_f64().is_sign_negative());
            let same = negative(&ap)? == negative(&r)?;
            if same {
                at
            } else {
                neg(at, span)?
            }
        }
    };
    Ok(dual(tag, r, t))
}

/// `-a`.
pub fn neg<'a>(a: Value<'a>, span: Span) -> R<Value<'a>> {
    match a {
        Value::Dual(d) => Ok(dual(d.tag, neg(d.primal.clone(), span)?, neg(d.tangent.clone(), span)?)),
        a => prim_r(scalar::neg(bottom_r(&a, span)?), "neg", span),
    }
}

/// `abs a`: `a` or `-a`, by the sign of the primal.
pub fn abs<'a>(a: Value<'a>, span: Span) -> R<Value<'a>> {
    if bottom_r(&a, span)?.to_f64() < 0.0 {
        neg(a, span)
    } else {
        Ok(a)
    }
}

/// `max a b` or `min a b`: one of the operands, by their primals.
pub fn max_min<'a>(is_max: bool, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    let (x, y) = (bottom_r(&a, span)?, bottom_r(&b, span)?);
    let m = match scalar::max_min(is_max, x, y) {
        Ok(m) => m,
        Err(e) => return err(span, e.message("max")),
    };
    // NaN handling follows the scalar op: pick the operand it picked.
    Ok(
        if scalar::prim_eq(m, x) || (m.to_f64().is_nan() && x.to_f64().is_nan()) {
            a
        } else {
            b
        },
    )
}

/// `fma a b c` (or `mad`): `a*b + c` on duals.
pub fn fma<'a>(a: Value<'a>, b: Value<'a>, c: Value<'a>, span: Span) -> R<Value<'a>> {
    add(mul(a, b, span)?, c, span)
}

/// Conversion of a scalar that may be a dual: to a number type, of both
/// parts; to `bool`, of the primal.
pub fn convert<'a>(a: Value<'a>, to: PrimType) -> Value<'a> {
    match a {
        Value::Dual(d) if to != PrimType::Bool => {
            dual(d.tag, convert(d.primal.clone(), to), convert(d.tangent.clone(), to))
        }
        a => match bottom(&a) {
            Some(p) => Value::prim(scalar::convert(p, to)),
            None => a,
        },
    }
}

/// Whether `v` is a number (not a boolean), plain or dual.
fn is_number(v: &Value<'_>) -> bool {
    bottom(v).is_some_and(|p| p.prim_type() != PrimType::Bool)
}

/// `x` with the tangent `xt` of call `tag` on each of its numbers.
pub fn seed<'a>(x: Value<'a>, xt: Value<'a>, tag: u32, span: Span) -> R<Value<'a>> {
    if is_number(&x) {
        return Ok(dual(tag, x, xt));
    }
    if bottom(&x).is_some() {
        return Ok(x);
    }
    let mismatch = || err(span, "jvp: the tangent does not have the shape of the argument");
    match (x, xt) {
        (Value::Array(a), Value::Array(at)) => {
            if a.shape != at.shape {
                return mismatch();
            }
            if matches!(a.data, Data::Bool(_)) {
                return Ok(Value::Array(a));
            }
            let n = a.data.len();
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                out.push(seed(a.data.get(i), at.data.get(i), tag, span)?);
            }
            Ok(Value::array(Array::new(a.shape.clone(), Data::Boxed(out))))
        }
        (Value::Tuple(xs), Value::Tuple(ts)) if xs.len() == ts.len() => {
            let vs = xs
                .iter()
                .zip(ts.iter())
                .map(|(x, t)| seed(x.clone(), t.clone(), tag, span));
            Ok(Value::Tuple(Rc::new(vs.collect::<R<_>>()?)))
        }
        (Value::Record(xs), Value::Record(ts)) if xs.len() == ts.len() => {
            let vs = xs
                .iter()
                .zip(ts.iter())
                .map(|((n, x), (_, t))| Ok((*n, seed(x.clone(), t.clone(), tag, span)?)));
            Ok(Value::Record(Rc::new(vs.collect::<R<_>>()?)))
        }
        (Value::Sum(x), Value::Sum(t)) if x.constr == t.constr && x.payload.len() == t.payload.len() => {
            let vs = x
                .payload
                .iter()
                .zip(&t.payload)
                .map(|(x, t)| seed(x.clone(), t.clone(), tag, span));
            Ok(Value::Sum(Rc::new(SumValue {
                constr: x.constr,
                payload: vs.collect::<R<_>>()?,
            })))
        }
        // A sum value of another constructor has no tangent (Futhark's
        // documentation: the choice of constructor is not continuous).
        (x @ Value::Sum(_), _) => Ok(x),
        (Value::Fun(_), _) => err(span, "jvp: an argument of function type is not supported"),
        _ => mismatch(),
    }
}

/// The zero tangent of a scalar: 0 of its type, or `false`.
fn zero_of<'a>(p: PrimValue) -> Value<'a> {
    Value::prim(match p.prim_type() {
        PrimType::Bool => PrimValue::Bool(false),
        t => scalar::from_i128(t, 0),
    })
}

/// A flat vector of innermost elements, typed where they are scalars of
/// one type (see Note [Value representation]).
fn data_of<'a>(vs: Vec<Value<'a>>) -> Data<'a> {
    if let Some(p) = vs.first().and_then(|v| v.as_prim()) {
        let mut d = Data::of_prim(p.prim_type(), vs.len());
        if vs.iter().all(|v| v.as_prim().is_some_and(|q| d.push_prim(q))) {
            return d;
        }
    }
    Data::Boxed(vs)
}

/// The primal and the tangent of call `tag` of `f`'s result `r`.
pub fn unseed<'a>(r: Value<'a>, tag: u32, span: Span) -> R<(Value<'a>, Value<'a>)> {
    match r {
        Value::Dual(d) if d.tag == tag => Ok((d.primal.clone(), d.tangent.clone())),
        r if bottom(&r).is_some() => {
            let z = zero_of(bottom_r(&r, span)?);
            Ok((r, z))
        }
        Value::Array(a) => match &a.data {
            Data::Boxed(vs) => {
                let (mut ps, mut ts) = (Vec::with_capacity(vs.len()), Vec::with_capacity(vs.len()));
                for v in vs {
                    let (p, t) = unseed(v.clone(), tag, span)?;
                    ps.push(p);
                    ts.push(t);
                }
                let shape = a.shape.clone();
                Ok((
                    Value::array(Array::new(shape.clone(), data_of(ps))),
                    Value::array(Array::new(shape, data_of(ts))),
                ))
            }
            d => {
                let zeros = match d.get_prim(0) {
                    Some(p) => Data::splat(bottom_r(&zero_of(p), span)?, d.len()),
                    None => d.empty_like(0),
                };
                let t = Value::array(Array::new(a.shape.clone(), zeros));
                Ok((Value::Array(a), t))
            }
        },
        Value::Tuple(xs) => {
            let (mut ps, mut ts) = (Vec::new(), Vec::new());
            for x in xs.iter() {
                let (p, t) = unseed(x.clone(), tag, span)?;
                ps.push(p);
                ts.push(t);
            }
            Ok((Value::Tuple(Rc::new(ps)), Value::Tuple(Rc::new(ts))))
        }
        Value::Record(xs) => {
            let (mut ps, mut ts) = (Vec::new(), Vec::new());
            for (n, x) in xs.iter() {
                let (p, t) = unseed(x.clone(), tag, span)?;
                ps.push((*n, p));
                ts.push((*n, t));
            }
            Ok((Value::Record(Rc::new(ps)), Value::Record(Rc::new(ts))))
        }
        Value::Sum(s) => {
            let (mut ps, mut ts) = (Vec::new(), Vec::new());
            for x in &s.payload {
                let (p, t) = unseed(x.clone(), tag, span)?;
                ps.push(p);
                ts.push(t);
            }
            let sum = |payload| {
                Value::Sum(Rc::new(SumValue {
                    constr: s.constr,
                    payload,
                }))
            };
            Ok((sum(ps), sum(ts)))
        }
        Value::Fun(_) => err(span, "jvp: a result of function type is not supported"),
        r => internal(span, format!("jvp: unexpected result {}", r.kind())),
    }
}
