//! Forward-mode automatic differentiation in the interpreter: `jvp2` by
//! dual numbers. See Note [Dual numbers].

use std::rc::Rc;

use crate::span::Span;

use super::ad::{bottom, bottom_r, data_of, is_number, zero_of};
use super::eval::{err, internal, R};
use super::value::{Array, Data, SumValue, Value};

// Note [Dual numbers]
// ~~~~~~~~~~~~~~~~~~~
// `jvp2 f x x'` (the prelude's `jvp`, `jmp` and `jmp2` are built on it)
// runs `f` once on dual numbers: every number of `x` becomes a
// `Value::Dual` holding the number (the primal) and its tangent from `x'`;
// every primitive op on a dual computes its primal and, by the chain rule,
// its tangent (`d(a*b) = a'*b + a*b'`, `d(sin a) = cos a * a'`, ...: the
// partials of ad.rs, Note [One chain-rule table]). As in Futhark, integers are
// differentiated too, in their own arithmetic (`jvp (\x -> x*x) 3i32 1`
// is 6; bit operations have tangent zero), and booleans carry no
// tangent: their part of `x'` is ignored, and their part of the result's
// tangent is `false`. Comparisons, indexing, sizes and control flow look
// at the primal only, so a loop, an `if` or an in-place update carries
// duals through like any other value, and a number the function does not
// depend on has tangent zero.
//
// Each `jvp2` call gets a fresh tag, larger than the tag of every call it
// runs inside (`vjp2` calls take theirs from the same counter), and its
// duals carry it. A dual's primal and tangent are values of the calls
// outside it (numbers of smaller tags, or plain numbers),
// so nested `jvp`s nest duals: an op on duals of different tags works on
// the larger tag, treating the other operand as a constant of that call
// (its tangent zero), which keeps the perturbations of different calls
// apart (`jvp (\x -> jvp (\y -> x*y) 1 1) 2 1` is 1, not 2). When `f`
// returns, the call takes apart the duals of its own tag.
//
// Arrays of duals are `Data::Boxed` (see Note [Value representation]);
// writing a dual (or a tracked number of `vjp2`) into a typed array boxes
// it.

/// A number with a tangent, of the `jvp2` call `tag` (Note [Dual numbers]).
pub struct Dual<'a> {
    pub tag: u32,
    pub primal: Value<'a>,
    pub tangent: Value<'a>,
}

/// The dual number of call `tag` with `primal` and `tangent`.
pub(super) fn dual<'a>(tag: u32, primal: Value<'a>, tangent: Value<'a>) -> Value<'a> {
    Value::Dual(Rc::new(Dual { tag, primal, tangent }))
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
