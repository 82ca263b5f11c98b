//! The scalar operations of automatic differentiation in the interpreter:
//! one chain-rule table (the partial derivatives of every primitive op,
//! [`Partial`]) used by both modes, forward (`jvp2`, dual.rs) and reverse
//! (`vjp2`, tape.rs). See Note [One chain-rule table].

use crate::span::Span;
use crate::types::PrimType;
use crate::values::scalar::{self, BinOp, FloatBin, FloatUn};
use crate::values::PrimValue;

use super::dual;
use super::eval::{err, internal, R};
use super::tape;
use super::value::{Data, Value};

// Note [One chain-rule table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A number of an AD call is either a dual number of a `jvp2` call (Note
// [Dual numbers]) or a tracked number of a `vjp2` call (Note [Reverse
// mode]). Both calls take tags from one counter, so the tags order all the
// AD calls by nesting, whatever their mode. An op on such numbers works on
// the largest tag of its operands (`lift`): it takes each operand of that
// tag apart into its primal and its tangent or tape node, treats every
// other operand as a constant of that call, computes the result's primal
// by the same op on the primals (which may be numbers of the calls outside)
// and asks the table for the partial derivative of the result with
// respect to each operand of the call: `partials_bin`, `partials_un`,
// `partials_float_bin`, `convert`. A partial is a linear map ([`Partial`]):
// usually a product with a value computed from the primals by the same
// generic arithmetic, so it is differentiable for the calls outside.
// Forward mode applies the maps to the tangents and sums them; reverse
// mode records them on the tape and applies their transposes to the
// adjoint in the return sweep.
//
// The table computes a partial only for an operand that needs one (a
// tracked number of the call, or a dual whose tangent is not a plain
// zero): `x ** 2` at `x = -1` then has no `log x` term, which would be
// NaN. Select-like ops (`max`, `min`, `abs`) return one of their operands
// and need no entry; comparisons, `sgn` and `to_bits` look at the plain
// number at the bottom only.

/// A partial derivative of an op's result with respect to one operand, as
/// the linear map it is (Note [One chain-rule table]).
pub enum Partial<'a> {
    /// The identity (`d(a+b)/da`).
    One,
    /// Negation (`d(a-b)/db`).
    Neg,
    /// The product with a value (`d(a*b)/da` is `b`).
    Scale(Value<'a>),
    /// The product with `num`, then the quotient by `den`: integer
    /// division's, rounded as Futhark's quotient rule is.
    Ratio { num: Value<'a>, den: Value<'a> },
    /// A conversion of the operand's type `from` to the result's `to`.
    Convert { from: PrimType, to: PrimType },
}

impl<'a> Partial<'a> {
    /// The map applied to a tangent of the operand (forward mode).
    pub fn apply(&self, t: Value<'a>, span: Span) -> R<Value<'a>> {
        match self {
            Partial::One => Ok(t),
            Partial::Neg => neg(t, span),
            Partial::Scale(d) => mul(t, d.clone(), span),
            Partial::Ratio { num, den } => div(mul(t, num.clone(), span)?, den.clone(), span),
            Partial::Convert { to, .. } => convert(t, *to, span),
        }
    }

    /// The transposed map applied to an adjoint of the result (reverse
    /// mode).
    pub fn transpose(&self, adj: Value<'a>, span: Span) -> R<Value<'a>> {
        match self {
            Partial::Convert { from, .. } => convert(adj, *from, span),
            p => p.apply(adj, span),
        }
    }
}

/// The tag of `v`'s AD call, 0 for anything but a dual or tracked number.
pub fn tag_of(v: &Value<'_>) -> u32 {
    match v {
        Value::Dual(d) => d.tag,
        Value::Tracked(t) => t.tag,
        _ => 0,
    }
}

/// Whether `v` is a number of an AD call (dual or tracked).
pub fn is_ad(v: &Value<'_>) -> bool {
    matches!(v, Value::Dual(_) | Value::Tracked(_))
}

/// The plain scalar at the bottom of nested dual and tracked numbers.
pub fn bottom(v: &Value<'_>) -> Option<PrimValue> {
    match v {
        Value::Dual(d) => bottom(&d.primal),
        Value::Tracked(t) => bottom(&t.primal),
        v => v.as_prim(),
    }
}

pub(super) fn bottom_r(v: &Value<'_>, span: Span) -> R<PrimValue> {
    match bottom(v) {
        Some(p) => Ok(p),
        None => internal(span, format!("expected a scalar, got {}", v.kind())),
    }
}

/// The constant `x` of `v`'s type.
pub(super) fn konst<'a>(v: &Value<'a>, x: f64, span: Span) -> R<Value<'a>> {
    let t = bottom_r(v, span)?.prim_type();
    Ok(Value::prim(scalar::from_f64(t, x)))
}

/// Whether `v` is a plain zero (a tangent whose term can be left out).
pub(super) fn is_zero(v: &Value<'_>) -> bool {
    v.as_prim().is_some_and(|p| p.to_f64() == 0.0)
}

/// Whether `v` is an integer, plain or of an AD call.
fn is_int(v: &Value<'_>) -> bool {
    bottom(v).is_some_and(|p| p.prim_type().is_int())
}

/// Whether `v` is a number (not a boolean), plain or of an AD call.
pub(super) fn is_number(v: &Value<'_>) -> bool {
    bottom(v).is_some_and(|p| p.prim_type() != PrimType::Bool)
}

/// The zero tangent or adjoint of a scalar: 0 of its type, or `false`.
pub(super) fn zero_of<'a>(p: PrimValue) -> Value<'a> {
    Value::prim(match p.prim_type() {
        PrimType::Bool => PrimValue::Bool(false),
        t => scalar::from_i128(t, 0),
    })
}

/// A flat vector of innermost elements, typed where they are scalars of
/// one type (see Note [Value representation]).
pub(super) fn data_of<'a>(vs: Vec<Value<'a>>) -> Data<'a> {
    if let Some(p) = vs.first().and_then(|v| v.as_prim()) {
        let mut d = Data::of_prim(p.prim_type(), vs.len());
        if vs.iter().all(|v| v.as_prim().is_some_and(|q| d.push_prim(q))) {
            return d;
        }
    }
    Data::Boxed(vs)
}

fn prim_r<'a>(r: Result<PrimValue, scalar::PrimError>, what: &str, span: Span) -> R<Value<'a>> {
    match r {
        Ok(p) => Ok(Value::prim(p)),
        Err(e) => err(span, e.message(what)),
    }
}

pub(super) fn add<'a>(a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
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

/// The partial derivatives of an op of the AD call of the largest tag of
/// its operands: `partials(primals, result, needed)` gives one per operand,
/// `None` where it is zero or not needed.
type Partials<'a, 'f> = &'f dyn Fn(&[Value<'a>], &Value<'a>, &[bool]) -> R<Vec<Option<Partial<'a>>>>;

/// An op on scalars at least one of which is a number of an AD call, by
/// its primal op and its partials (Note [One chain-rule table]).
fn lift<'a>(
    args: &[Value<'a>],
    span: Span,
    primal: &dyn Fn(&[Value<'a>]) -> R<Value<'a>>,
    partials: Partials<'a, '_>,
) -> R<Value<'a>> {
    let tag = args.iter().map(tag_of).max().unwrap_or(0);
    let top = args.iter().find(|a| tag_of(a) == tag);
    if tag == 0 {
        let what = top.map_or("nothing", |a| a.kind());
        return internal(span, format!("a scalar op on {what}"));
    }
    if let Some(Value::Tracked(t)) = top {
        let tape = t.tape.clone();
        let mut primals = Vec::with_capacity(args.len());
        let mut nodes = Vec::with_capacity(args.len());
        for a in args {
            match a {
                Value::Tracked(t) if t.tag == tag => {
                    primals.push(t.primal.clone());
                    nodes.push(Some(t.node));
                }
                a => {
                    primals.push(a.clone());
                    nodes.push(None);
                }
            }
        }
        let r = primal(&primals)?;
        let needed: Vec<bool> = nodes.iter().map(Option::is_some).collect();
        let ds = partials(&primals, &r, &needed)?;
        let parents = nodes.into_iter().zip(ds).filter_map(|(n, d)| Some((n?, d?))).collect();
        return Ok(tape::record(tag, &tape, r, parents));
    }
    let mut primals = Vec::with_capacity(args.len());
    let mut tangents = Vec::with_capacity(args.len());
    for a in args {
        match a {
            Value::Dual(d) if d.tag == tag => {
                primals.push(d.primal.clone());
                tangents.push(d.tangent.clone());
            }
            a => {
                primals.push(a.clone());
                tangents.push(konst(a, 0.0, span)?);
            }
        }
    }
    let r = primal(&primals)?;
    let needed: Vec<bool> = tangents.iter().map(|t| !is_zero(t)).collect();
    let ds = partials(&primals, &r, &needed)?;
    let mut t: Option<Value<'a>> = None;
    for (ti, d) in tangents.into_iter().zip(ds) {
        if let Some(d) = d {
            let term = d.apply(ti, span)?;
            t = Some(match t {
                Some(s) => add(s, term, span)?,
                None => term,
            });
        }
    }
    let t = match t {
        Some(t) => t,
        None => konst(&r, 0.0, span)?,
    };
    Ok(dual::dual(tag, r, t))
}

/// Two operands.
fn pair<'a>(ps: &[Value<'a>], span: Span) -> R<(Value<'a>, Value<'a>)> {
    match ps {
        [a, b] => Ok((a.clone(), b.clone())),
        _ => internal(span, "a binary op without two operands"),
    }
}

/// One operand.
fn single<'a>(ps: &[Value<'a>], span: Span) -> R<Value<'a>> {
    match ps {
        [a] => Ok(a.clone()),
        _ => internal(span, "a unary op without one operand"),
    }
}

/// `Some(f())` where `needed`.
fn when<'a>(needed: bool, f: impl FnOnce() -> R<Partial<'a>>) -> R<Option<Partial<'a>>> {
    if needed {
        f().map(Some)
    } else {
        Ok(None)
    }
}

/// A built-in operator on scalars of which at least one may be a number of
/// an AD call.
pub fn bin<'a>(op: BinOp, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
        return prim_r(scalar::binop(op, x, y), op.name(), span);
    }
    use BinOp::*;
    if matches!(op, Eq | Neq | Lt | Le | Gt | Ge) {
        let (x, y) = (bottom_r(&a, span)?, bottom_r(&b, span)?);
        return prim_r(scalar::binop(op, x, y), op.name(), span);
    }
    let primal = |ps: &[Value<'a>]| {
        let (x, y) = pair(ps, span)?;
        bin(op, x, y, span)
    };
    let partials = |ps: &[Value<'a>], p: &Value<'a>, need: &[bool]| partials_bin(op, ps, p, need, span);
    lift(&[a, b], span, &primal, &partials)
}

/// The partials of `a op b` (`ps` = `[a, b]`) whose result is `p`.
fn partials_bin<'a>(
    op: BinOp,
    ps: &[Value<'a>],
    p: &Value<'a>,
    need: &[bool],
    span: Span,
) -> R<Vec<Option<Partial<'a>>>> {
    use BinOp::*;
    use Partial::{One, Scale};
    let (a, b) = pair(ps, span)?;
    let (na, nb) = (need.first() == Some(&true), need.get(1) == Some(&true));
    let some = |x: Partial<'a>, y: Partial<'a>| Ok(vec![na.then_some(x), nb.then_some(y)]);
    match op {
        Add => some(One, One),
        Sub => some(One, Partial::Neg),
        Mul => some(Scale(b), Scale(a)),
        // Integers are differentiated in their own arithmetic, by the
        // quotient rule (a'b - ab')/b², each term rounded.
        Div | Quot if is_int(p) => {
            let den = mul(b.clone(), b.clone(), span)?;
            Ok(vec![
                na.then(|| Partial::Ratio {
                    num: b.clone(),
                    den: den.clone(),
                }),
                when(nb, || {
                    Ok(Partial::Ratio {
                        num: neg(a.clone(), span)?,
                        den: den.clone(),
                    })
                })?,
            ])
        }
        // d(a/b) = a'/b - (a/b) b'/b
        Div => Ok(vec![
            when(na, || Ok(Scale(div(konst(&b, 1.0, span)?, b.clone(), span)?)))?,
            when(nb, || Ok(Scale(neg(div(p.clone(), b.clone(), span)?, span)?)))?,
        ]),
        // a ** b: b a^(b-1) a' + a^b log(a) b', where a term is 0 when
        // its factor b (or a) is: `0 ** b` has no `log 0` and `a ** 0` no
        // `a ** -1` (Futhark's `0 ** 1` has tangent 1, `0 ** 0` tangent
        // 0). Integers have no `log`: their tangent is the first term.
        Pow => {
            let zero = |v: &Value<'a>| bottom(v).is_some_and(|q| q.to_f64() == 0.0);
            let da = when(na && !zero(&b), || {
                let one = konst(&b, 1.0, span)?;
                Ok(Scale(mul(
                    b.clone(),
                    bin(Pow, a.clone(), sub(b.clone(), one, span)?, span)?,
                    span,
                )?))
            })?;
            let db = when(nb && !is_int(p) && !zero(&a), || {
                Ok(Scale(mul(p.clone(), float_un(FloatUn::Log, a.clone(), span)?, span)?))
            })?;
            Ok(vec![da, db])
        }
        // a mod b = a - q b for the integral quotient q = (a - a mod b)/b.
        Mod | Rem => Ok(vec![
            na.then_some(One),
            when(nb, || {
                let q = div(sub(a.clone(), p.clone(), span)?, b.clone(), span)?;
                Ok(Scale(neg(q, span)?))
            })?,
        ]),
        // Integral division of floats is piecewise constant, and so are
        // the bit operations.
        Quot | BitAnd | BitOr | Xor | Shl | Shr | UShr => Ok(vec![None, None]),
        _ => internal(span, format!("`{}` on a differentiated number", op.name())),
    }
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
        Gamma | Lgamma => return err(span, format!("jvp and vjp: the derivative of `{f:?}` is not supported")),
    })
}

/// Float function `f` of a scalar that may be a number of an AD call.
pub fn float_un<'a>(f: FloatUn, a: Value<'a>, span: Span) -> R<Value<'a>> {
    if let Some(x) = a.as_prim() {
        return prim_r(scalar::float_un(f, x), &format!("{f:?}"), span);
    }
    let primal = |ps: &[Value<'a>]| float_un(f, single(ps, span)?, span);
    let partials = |ps: &[Value<'a>], r: &Value<'a>, need: &[bool]| {
        let p = single(ps, span)?;
        Ok(vec![when(need.first() == Some(&true), || {
            Ok(Partial::Scale(un_derivative(f, p, r, span)?))
        })?])
    };
    lift(&[a], span, &primal, &partials)
}

/// Float function `f` of two scalars, either of which may be a number of
/// an AD call.
pub fn float_bin<'a>(f: FloatBin, a: Value<'a>, b: Value<'a>, span: Span) -> R<Value<'a>> {
    if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
        return prim_r(scalar::float_bin(f, x, y), &format!("{f:?}"), span);
    }
    let primal = |ps: &[Value<'a>]| {
        let (x, y) = pair(ps, span)?;
        float_bin(f, x, y, span)
    };
    let partials = |ps: &[Value<'a>], r: &Value<'a>, need: &[bool]| partials_float_bin(f, ps, r, need, span);
    lift(&[a, b], span, &primal, &partials)
}

/// The partials of `f a b` (`ps` = `[a, b]`) whose result is `r`.
fn partials_float_bin<'a>(
    f: FloatBin,
    ps: &[Value<'a>],
    r: &Value<'a>,
    need: &[bool],
    span: Span,
) -> R<Vec<Option<Partial<'a>>>> {
    let (a, b) = pair(ps, span)?;
    let (na, nb) = (need.first() == Some(&true), need.get(1) == Some(&true));
    let scaled = |num: &Value<'a>, den: &Value<'a>| Ok(Partial::Scale(div(num.clone(), den.clone(), span)?));
    Ok(match f {
        // atan2(a, b)' = (b a' - a b')/(a² + b²)
        FloatBin::Atan2 => {
            let den = add(mul(a.clone(), a.clone(), span)?, mul(b.clone(), b.clone(), span)?, span)?;
            vec![
                when(na, || scaled(&b, &den))?,
                when(nb, || scaled(&neg(a.clone(), span)?, &den))?,
            ]
        }
        // hypot(a, b)' = (a a' + b b')/hypot(a, b)
        FloatBin::Hypot => vec![when(na, || scaled(&a, r))?, when(nb, || scaled(&b, r))?],
        // copysign(a, b) is ±a, its sign piecewise constant in b.
        FloatBin::Copysign => {
            let negative = |v: &Value<'a>| bottom_r(v, span).map(|p| p.to_f64().is_sign_negative());
            let same = negative(&a)? == negative(r)?;
            vec![na.then_some(if same { Partial::One } else { Partial::Neg }), None]
        }
    })
}

/// `-a`.
pub fn neg<'a>(a: Value<'a>, span: Span) -> R<Value<'a>> {
    if !is_ad(&a) {
        return prim_r(scalar::neg(bottom_r(&a, span)?), "neg", span);
    }
    let primal = |ps: &[Value<'a>]| neg(single(ps, span)?, span);
    let partials = |_: &[Value<'a>], _: &Value<'a>, need: &[bool]| {
        Ok(vec![need.first().is_some_and(|n| *n).then_some(Partial::Neg)])
    };
    lift(&[a], span, &primal, &partials)
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

/// `fma a b c` (or `mad`): `a*b + c`.
pub fn fma<'a>(a: Value<'a>, b: Value<'a>, c: Value<'a>, span: Span) -> R<Value<'a>> {
    add(mul(a, b, span)?, c, span)
}

/// Conversion of a scalar that may be a number of an AD call: to a number
/// type, with the partial [`Partial::Convert`]; to `bool`, of the plain
/// number at the bottom.
pub fn convert<'a>(a: Value<'a>, to: PrimType, span: Span) -> R<Value<'a>> {
    if !is_ad(&a) || to == PrimType::Bool {
        return Ok(match bottom(&a) {
            Some(p) => Value::prim(scalar::convert(p, to)),
            None => a,
        });
    }
    let from = bottom_r(&a, span)?.prim_type();
    let primal = |ps: &[Value<'a>]| convert(single(ps, span)?, to, span);
    let partials = |_: &[Value<'a>], _: &Value<'a>, need: &[bool]| {
        Ok(vec![need
            .first()
            .is_some_and(|n| *n)
            .then_some(Partial::Convert { from, to })])
    };
    lift(&[a], span, &primal, &partials)
}
