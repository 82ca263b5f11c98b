//! Reverse-mode automatic differentiation in the interpreter: `vjp2` by a
//! tape of tracked numbers. See Note [Reverse mode].

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::span::Span;

use super::ad::{self, bottom, bottom_r, data_of, is_number, zero_of, Partial};
use super::eval::{err, internal, R};
use super::value::{Array, Data, Fun, SumValue, Value};

// Note [Reverse mode]
// ~~~~~~~~~~~~~~~~~~~
// `vjp2 f x y'` (the prelude's `vjp`, `mjp` and `mjp2` are built on it)
// runs `f` once on tracked numbers: every number of `x` becomes a
// `Value::Tracked` holding the number (the primal), a node of a tape that
// belongs to this call, and the call's tag. The leaves of the tape are
// `x`'s numbers; every primitive op on a tracked number computes its
// primal and appends a node to the tape that names the nodes of its
// tracked operands with the partial derivative of the result with respect
// to each (the table of ad.rs, Note [One chain-rule table], shared with
// forward mode). The partials are interpreter values computed by the same
// generic arithmetic, so they are themselves numbers of the AD calls
// outside this one, and stay differentiable for them.
//
// When `f` returns, the return sweep gives each node of the result the
// cotangent of its place in `y'` (summed where a node appears more than
// once), then walks the tape from the last node to the first, adding each
// node's adjoint, through the transpose of each partial, to the adjoints of
// its operands' nodes (`sweep`). The adjoint of `x` is read at its leaves:
// zero where a number was never used. As with `jvp2` (Note [Dual
// numbers]), integers are differentiated in their own arithmetic (`vjp
// (\x -> x*y) x 2` is `2*y`, wrapping), booleans are not tracked and their
// adjoint is `false`, and comparisons, indexing, sizes and control flow
// look at the primal only, so loops, `if`, in-place updates and the SOACs
// need nothing of their own: the tape records the scalar ops that ran.
//
// Tags come from the counter of `jvp2`: a call's tag is larger than the
// tag of every call it runs inside, and an op works on the largest tag of
// its operands, treating the others as constants. So `vjp` of `vjp`,
// `jvp` of `vjp` (forward over reverse: a Hessian-vector product) and
// `vjp` of `jvp` nest without perturbation confusion: in
// `vjp (\x -> vjp (\y -> x*y) 1 1) 2 1` the inner sweep computes the
// adjoint of `y` as `1*x`, an op of the outer call on the outer tape, and
// the outer sweep differentiates that: the result is 1. The sweep of an
// inner call runs while the outer call's `f` runs, so the outer tape
// records it like any other ops.
//
// Arrays of tracked numbers are `Data::Boxed`, as arrays of duals are.

/// A number on the tape of the `vjp2` call `tag` (Note [Reverse mode]).
pub struct Tracked<'a> {
    pub tag: u32,
    pub primal: Value<'a>,
    /// Its node on `tape`.
    pub node: usize,
    pub tape: Rc<Tape<'a>>,
}

/// The tape of one `vjp2` call: for each node, the nodes of the operands
/// it was computed from, with the partial derivative of the node with
/// respect to each. A leaf (a number of `x`) has none.
#[derive(Default)]
pub struct Tape<'a> {
    nodes: RefCell<Vec<Vec<(usize, Partial<'a>)>>>,
    /// The `with_vjp` calls, by the first node of their result (Note
    /// [Custom adjoints]).
    customs: RefCell<HashMap<usize, Custom<'a>>>,
}

// Note [Custom adjoints]
// ~~~~~~~~~~~~~~~~~~~~~~
// `with_vjp f f' x` is `f x`, whose adjoint is `f' (f x) y'` instead of
// what the return sweep would find in `f`. Where the innermost AD call
// that `x` takes part in is a `vjp2` (its numbers tracked on a tape), `f`
// runs on `x` without that call's tracking, its result's numbers become
// new leaves of the tape, and the tape remembers (`Custom`) the call at
// the first of those nodes. Nodes are numbered in order, so when the
// return sweep reaches that node, every use of the result has been swept
// and its adjoint `y'` is complete: the sweep calls `f' y y'` and adds the
// result to the adjoint of `x`. Where the innermost call is a `jvp2`, or
// there is none, `with_vjp f f' x` is just `f x` (forward mode
// differentiates `f`).

/// A `with_vjp f f' x` call on a tape (Note [Custom adjoints]).
pub struct Custom<'a> {
    /// `f'`.
    pub adjoint: Rc<Fun<'a>>,
    /// `f x`, and the same with its numbers on the tape.
    pub y: Value<'a>,
    pub y_tracked: Value<'a>,
    /// `x`, tracked.
    pub x: Value<'a>,
}

impl<'a> Tape<'a> {
    /// The number of nodes so far.
    pub fn len(&self) -> usize {
        self.nodes.borrow().len()
    }

    /// Remember `with_vjp` call `c`, whose result's first node is `first`.
    pub fn add_custom(&self, first: usize, c: Custom<'a>) {
        self.customs.borrow_mut().insert(first, c);
    }
}

/// The tag and tape of the innermost AD call whose numbers `v` holds, when
/// that call is a `vjp2` (Note [Custom adjoints]).
pub fn innermost<'a>(v: &Value<'a>) -> Option<(u32, Rc<Tape<'a>>)> {
    fn walk<'a>(v: &Value<'a>, best: &mut (u32, Option<Rc<Tape<'a>>>)) {
        match v {
            Value::Tracked(t) if t.tag > best.0 => *best = (t.tag, Some(t.tape.clone())),
            Value::Dual(d) if d.tag > best.0 => *best = (d.tag, None),
            Value::Array(a) => {
                if let Data::Boxed(vs) = &a.data {
                    for x in vs.iter() {
                        walk(x, best);
                    }
                }
            }
            Value::Tuple(xs) => xs.iter().for_each(|x| walk(x, best)),
            Value::Record(xs) => xs.iter().for_each(|(_, x)| walk(x, best)),
            Value::Sum(s) => s.payload.iter().for_each(|x| walk(x, best)),
            _ => {}
        }
    }
    let mut best = (0, None);
    walk(v, &mut best);
    best.1.map(|t| (best.0, t))
}

/// A new node on `tape`, of call `tag`, computed from `parents`.
pub(super) fn record<'a>(
    tag: u32,
    tape: &Rc<Tape<'a>>,
    primal: Value<'a>,
    parents: Vec<(usize, Partial<'a>)>,
) -> Value<'a> {
    let node = {
        let mut nodes = tape.nodes.borrow_mut();
        nodes.push(parents);
        nodes.len() - 1
    };
    Value::Tracked(Rc::new(Tracked {
        tag,
        primal,
        node,
        tape: tape.clone(),
    }))
}

/// `x` with each of its numbers a leaf of `tape`.
pub fn seed<'a>(x: Value<'a>, tag: u32, tape: &Rc<Tape<'a>>, span: Span) -> R<Value<'a>> {
    if is_number(&x) {
        return Ok(record(tag, tape, x, Vec::new()));
    }
    if bottom(&x).is_some() {
        return Ok(x);
    }
    match x {
        Value::Array(a) => {
            if matches!(a.data, Data::Bool(_)) {
                return Ok(Value::Array(a));
            }
            let vs = (0..a.data.len()).map(|i| seed(a.data.get(i), tag, tape, span));
            let data = Data::Boxed(vs.collect::<R<_>>()?);
            Ok(Value::array(Array::new(a.shape.clone(), data)))
        }
        Value::Tuple(xs) => {
            let vs = xs.iter().map(|x| seed(x.clone(), tag, tape, span));
            Ok(Value::Tuple(Rc::new(vs.collect::<R<_>>()?)))
        }
        Value::Record(xs) => {
            let vs = xs.iter().map(|(n, x)| Ok((*n, seed(x.clone(), tag, tape, span)?)));
            Ok(Value::Record(Rc::new(vs.collect::<R<_>>()?)))
        }
        Value::Sum(s) => {
            let vs = s.payload.iter().map(|x| seed(x.clone(), tag, tape, span));
            Ok(Value::Sum(Rc::new(SumValue {
                constr: s.constr,
                payload: vs.collect::<R<_>>()?,
            })))
        }
        Value::Fun(_) => err(span, "vjp: an argument of function type is not supported"),
        x => internal(span, format!("vjp: unexpected argument {}", x.kind())),
    }
}

/// The adjoints of the nodes of one `vjp2` call during its return sweep.
struct Adjoints<'a> {
    tag: u32,
    adj: Vec<Option<Value<'a>>>,
    span: Span,
}

impl<'a> Adjoints<'a> {
    fn add(&mut self, node: usize, a: Value<'a>) -> R<()> {
        let sum = match self.adj[node].take() {
            Some(s) => ad::add(s, a, self.span)?,
            None => a,
        };
        self.adj[node] = Some(sum);
        Ok(())
    }

    /// The primal of `f`'s result `r`, giving each of its nodes the
    /// cotangent of its place in `yt`.
    fn seed_result(&mut self, r: Value<'a>, yt: Value<'a>) -> R<Value<'a>> {
        let span = self.span;
        let mismatch = || err(span, "vjp: the cotangent does not have the shape of the result");
        if bottom(&r).is_some() {
            if bottom(&yt).is_none() {
                return mismatch();
            }
            return match r {
                Value::Tracked(t) if t.tag == self.tag => {
                    self.add(t.node, yt)?;
                    Ok(t.primal.clone())
                }
                r => Ok(r),
            };
        }
        match (r, yt) {
            (Value::Array(a), Value::Array(at)) => {
                if a.shape != at.shape {
                    return mismatch();
                }
                let Data::Boxed(vs) = &a.data else {
                    return Ok(Value::Array(a));
                };
                let mut ps = Vec::with_capacity(vs.len());
                for (i, v) in vs.iter().enumerate() {
                    ps.push(self.seed_result(v.clone(), at.data.get(i))?);
                }
                Ok(Value::array(Array::new(a.shape.clone(), data_of(ps))))
            }
            (Value::Tuple(xs), Value::Tuple(ts)) if xs.len() == ts.len() => {
                let vs = xs
                    .iter()
                    .zip(ts.iter())
                    .map(|(x, t)| self.seed_result(x.clone(), t.clone()));
                Ok(Value::Tuple(Rc::new(vs.collect::<R<_>>()?)))
            }
            (Value::Record(xs), Value::Record(ts)) if xs.len() == ts.len() => {
                let vs = xs
                    .iter()
                    .zip(ts.iter())
                    .map(|((n, x), (_, t))| Ok((*n, self.seed_result(x.clone(), t.clone())?)));
                Ok(Value::Record(Rc::new(vs.collect::<R<_>>()?)))
            }
            (Value::Sum(x), Value::Sum(t)) => {
                // A cotangent of another constructor gives none: the
                // choice of constructor is not continuous (Futhark's
                // documentation).
                let same = x.constr == t.constr && x.payload.len() == t.payload.len();
                let mut payload = Vec::with_capacity(x.payload.len());
                for (i, v) in x.payload.iter().enumerate() {
                    payload.push(match t.payload.get(i) {
                        Some(t) if same => self.seed_result(v.clone(), t.clone())?,
                        _ => strip(v.clone(), self.tag),
                    });
                }
                Ok(Value::Sum(Rc::new(SumValue {
                    constr: x.constr,
                    payload,
                })))
            }
            (Value::Fun(_), _) => err(span, "vjp: a result of function type is not supported"),
            _ => mismatch(),
        }
    }

    /// The adjoint of the seeded argument `x`, read at its leaves.
    fn read(&self, x: &Value<'a>) -> R<Value<'a>> {
        let span = self.span;
        match x {
            Value::Tracked(t) if t.tag == self.tag => match &self.adj[t.node] {
                Some(a) => Ok(a.clone()),
                None => Ok(zero_of(bottom_r(x, span)?)),
            },
            x if bottom(x).is_some() => Ok(zero_of(bottom_r(x, span)?)),
            Value::Array(a) => {
                let vs = (0..a.data.len()).map(|i| self.read(&a.data.get(i)));
                let vs: Vec<Value<'a>> = vs.collect::<R<_>>()?;
                let data = if vs.is_empty() {
                    a.data.empty_like(0)
                } else {
                    data_of(vs)
                };
                Ok(Value::array(Array::new(a.shape.clone(), data)))
            }
            Value::Tuple(xs) => Ok(Value::Tuple(Rc::new(
                xs.iter().map(|x| self.read(x)).collect::<R<_>>()?,
            ))),
            Value::Record(xs) => {
                let vs = xs.iter().map(|(n, x)| Ok((*n, self.read(x)?)));
                Ok(Value::Record(Rc::new(vs.collect::<R<_>>()?)))
            }
            Value::Sum(s) => Ok(Value::Sum(Rc::new(SumValue {
                constr: s.constr,
                payload: s.payload.iter().map(|x| self.read(x)).collect::<R<_>>()?,
            }))),
            x => internal(span, format!("vjp: unexpected argument {}", x.kind())),
        }
    }
}

/// `v` without the tracked numbers of call `tag` (their primals instead).
pub fn strip<'a>(v: Value<'a>, tag: u32) -> Value<'a> {
    match v {
        Value::Tracked(t) if t.tag == tag => t.primal.clone(),
        Value::Array(a) => match &a.data {
            Data::Boxed(vs) => {
                let ps = vs.iter().map(|v| strip(v.clone(), tag)).collect();
                Value::array(Array::new(a.shape.clone(), data_of(ps)))
            }
            _ => Value::Array(a),
        },
        Value::Tuple(xs) => Value::Tuple(Rc::new(xs.iter().map(|x| strip(x.clone(), tag)).collect())),
        Value::Record(xs) => Value::Record(Rc::new(xs.iter().map(|(n, x)| (*n, strip(x.clone(), tag))).collect())),
        Value::Sum(s) => Value::Sum(Rc::new(SumValue {
            constr: s.constr,
            payload: s.payload.iter().map(|x| strip(x.clone(), tag)).collect(),
        })),
        v => v,
    }
}

/// The return sweep of the `vjp2` call `tag` whose argument, seeded, was
/// `x` and whose function returned `r`, with the cotangent `yt`: the
/// primal result and the adjoint of `x` (Note [Reverse mode]).
/// Applying a `with_vjp`'s adjoint function to its two arguments (Note
/// [Custom adjoints]).
pub type CallAdjoint<'a, 'f> = dyn FnMut(&Rc<Fun<'a>>, Value<'a>, Value<'a>) -> R<Value<'a>> + 'f;

/// `call` applies a `with_vjp`'s adjoint function to its two arguments
/// (Note [Custom adjoints]).
#[allow(clippy::too_many_arguments)]
pub fn sweep<'a>(
    x: &Value<'a>,
    r: Value<'a>,
    yt: Value<'a>,
    tag: u32,
    tape: &Tape<'a>,
    span: Span,
    call: &mut CallAdjoint<'a, '_>,
) -> R<(Value<'a>, Value<'a>)> {
    let nodes = std::mem::take(&mut *tape.nodes.borrow_mut());
    let mut customs = std::mem::take(&mut *tape.customs.borrow_mut());
    let mut adjoints = Adjoints {
        tag,
        adj: vec![None; nodes.len()],
        span,
    };
    let primal = adjoints.seed_result(r, yt)?;
    for (i, parents) in nodes.iter().enumerate().rev() {
        if let Some(c) = customs.remove(&i) {
            let ybar = adjoints.read(&c.y_tracked)?;
            let xbar = call(&c.adjoint, c.y, ybar)?;
            adjoints.seed_result(c.x, xbar)?;
        }
        let Some(a) = adjoints.adj[i].clone() else {
            continue;
        };
        for (p, d) in parents {
            adjoints.add(*p, d.transpose(a.clone(), span)?)?;
        }
    }
    Ok((primal, adjoints.read(x)?))
}
