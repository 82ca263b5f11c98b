//! The reference interpreter: evaluates the checked AST directly. It is what
//! `futmlir run` and `futmlir test --backend=interp` execute, and the
//! reference the compiled backends are compared against.
//!
//! - [`value`]: runtime values (Note [Value representation]);
//! - [`eval`]: expressions, patterns, application, indexing, loops;
//! - [`free`]: the free variables a closure captures;
//! - [`builtins`]: the built-in functions of `check::builtins`, mapped to
//!   the one scalar semantics, [`crate::values::scalar`] (which also holds
//!   Note [Integer semantics] and Note [Conversions]); `eval` maps the
//!   operators (`+`, `//`, `>>>`) to it with [`BinOp::from_name`](crate::values::scalar::BinOp::from_name);
//! - [`cost`]: work and span under the parallel cost model;
//! - [`ad`]: the scalar ops of automatic differentiation, one chain-rule
//!   table for both modes (Note [One chain-rule table]);
//! - [`dual`]: `jvp2`, forward-mode AD by dual numbers (Note [Dual
//!   numbers]);
//! - [`tape`]: `vjp2`, reverse-mode AD by a tape (Note [Reverse mode]),
//!   and `with_vjp`'s custom adjoints on it (Note [Custom adjoints]).
//!
//! The entry point is [`run_entry`]. Evaluation never panics: a failure of
//! the program (an index out of bounds, a division by zero, a failed
//! assertion or size coercion) is a [`RuntimeError`] at the span of the
//! expression, and an inconsistency in the checked tree is a
//! `RuntimeError` whose message starts with "internal error".

#[macro_use]
mod value;
mod ad;
mod builtins;
mod cost;
mod dual;
mod eval;
mod free;
mod tape;
pub(crate) use free::free_vars;
#[cfg(test)]
mod tests;

use crate::check::Checked;
use crate::span::{SourceMap, Span};
use crate::types::{Size, Type};
use crate::values;

use eval::Interp;
use value::{external_type, from_external, shape_str, to_external, Value};

#[derive(Clone, Copy, Default)]
pub struct RunOptions<'s> {
    /// Count work and span (see [`cost`]).
    pub cost: bool,
    /// Where `trace x` reports: the span of the application and `x` in
    /// Futhark's value syntax. `None`: nowhere (`trace x` is just `x`).
    pub trace: Option<TraceSink<'s>>,
}

/// Receives what `trace` reports (see [`RunOptions::trace`]).
pub type TraceSink<'s> = &'s dyn Fn(Span, &str);

impl std::fmt::Debug for RunOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunOptions")
            .field("cost", &self.cost)
            .field("trace", &self.trace.is_some())
            .finish()
    }
}

/// Work and span of a run under the parallel cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    pub work: u64,
    pub span: u64,
}

#[derive(Debug)]
pub struct RunResult {
    /// One per result (a tuple result type gives several).
    pub results: Vec<EntryResult>,
    pub cost: Option<Cost>,
}

/// One result of an entry point.
#[derive(Debug)]
pub enum EntryResult {
    /// A scalar or an array of scalars, in Futhark's value formats.
    Value(values::Value),
    /// A value of an opaque type (a record, a sum type, an array of
    /// tuples...), which Futhark's value formats cannot hold: its type, and
    /// the text `futhark run` prints for it (`#some 3i32`).
    Opaque { ty: Type, text: String },
}

impl RunResult {
    /// The results as external values; an opaque one is an error (it
    /// cannot be compared with a test's expected output or written in
    /// binary).
    pub fn values(self, entry: &str) -> Result<Vec<values::Value>, RuntimeError> {
        self.results
            .into_iter()
            .map(|r| match r {
                EntryResult::Value(v) => Ok(v),
                EntryResult::Opaque { ty, text } => Err(RuntimeError::plain(format!(
                    "the result of entry point `{entry}` has type {ty}, which is opaque: {text}"
                ))),
            })
            .collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub span: Option<Span>,
    pub message: String,
    /// The message ends with the source text of `span` (a failed
    /// `assert`'s condition: `Assertion is false: x > 0`), which only the
    /// renderer, holding the source, can write.
    pub quotes_span: bool,
}

impl RuntimeError {
    fn plain(message: impl Into<String>) -> RuntimeError {
        RuntimeError {
            span: None,
            message: message.into(),
            quotes_span: false,
        }
    }

    /// `Error: message (file:line:col)`: the text a compiled program prints
    /// for the same error (runtime-cuda's `Error: ` line; the location is
    /// the assertion's), which Futhark's tests match.
    pub fn render(&self, sm: &SourceMap) -> String {
        match self.span {
            Some(span) if self.quotes_span => {
                format!("Error: {}: {} ({})", self.message, sm.snippet(span), sm.describe(span))
            }
            Some(span) => format!("Error: {} ({})", self.message, sm.describe(span)),
            None => format!("Error: {}", self.message),
        }
    }
}

impl std::fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Run entry point `entry` of a checked program on external arguments.
pub fn run_entry(
    checked: &Checked,
    entry: &str,
    args: Vec<values::Value>,
    opts: &RunOptions<'_>,
) -> Result<RunResult, RuntimeError> {
    let Some(ent) = checked.entries.iter().find(|e| &*e.name == entry) else {
        let names: Vec<&str> = checked.entries.iter().map(|e| &*e.name).collect();
        return Err(RuntimeError::plain(format!(
            "no entry point `{entry}`; entry points: {}",
            names.join(", ")
        )));
    };
    // See Note [Tuple parameters of entry points].
    let flat_params: Vec<Type> = ent.params.iter().flat_map(tuple_components).collect();
    let grouped = args.len() != ent.params.len() && args.len() == flat_params.len();
    check_entry_args(&ent.name, if grouped { &flat_params } else { &ent.params }, &args)?;
    let mut interp = Interp::new(checked, opts.cost, opts.trace);
    let vb = interp.valbind(ent.id, Span::default()).map_err(|e| *e)?;
    let param_sizes = if grouped {
        Vec::new()
    } else {
        named_i64_params(&vb.params, &args)
    };
    check_size_expressions(&mut interp, &ent.params, &args, &param_sizes)?;
    // The result type's sizes may also be the arguments' sizes (`def main
    // [n] (xs: [n]i32) : [0][n]i32`).
    let mut ret_sizes = param_sizes.clone();
    if !grouped {
        for (t, a) in ent.params.iter().zip(&args) {
            if let (Type::Array { shape, .. }, values::Value::Array(arr)) = (t, a) {
                for (d, have) in shape.iter().zip(&arr.shape) {
                    if let Size::Var(n) = d {
                        ret_sizes.push((n.clone(), *have as i64));
                    }
                }
            }
        }
    }
    let mut flat = args.into_iter().map(from_external);
    let vals: Vec<Value<'_>> = if grouped {
        ent.params.iter().map(|t| regroup(t, &mut flat)).collect()
    } else {
        flat.collect()
    };
    let result = if vb.params.is_empty() {
        interp.global_value(ent.id, vb.span)
    } else {
        interp.call_global(vb, vals, vb.span)
    }
    .map_err(|e| *e)?;
    // An empty array built in polymorphic code does not know its inner
    // sizes; the result type gives them, with the parameters' values
    // (`def main x : [][x]i32`).
    let ret = with_param_sizes(&ent.ret, &ret_sizes);
    let external = |v: &Value<'_>, t: &Type| match to_external(v, t) {
        Ok(x) => Ok(EntryResult::Value(x)),
        Err(()) => match value::pretty(v, t) {
            Some(text) => Ok(EntryResult::Opaque { ty: t.clone(), text }),
            None => Err(RuntimeError::plain(format!(
                "the result of entry point `{entry}` has type {t}, which cannot be printed"
            ))),
        },
    };
    let results = match (&ret, result) {
        (Type::Tuple(ts), Value::Tuple(vs)) if ts.len() == vs.len() => ts
            .iter()
            .zip(vs.iter())
            .map(|(t, v)| external(v, t))
            .collect::<Result<Vec<_>, _>>()?,
        (t, v) => vec![external(&v, t)?],
    };
    Ok(RunResult {
        results,
        cost: opts.cost.then_some(Cost {
            work: interp.work,
            span: interp.span,
        }),
    })
}

// Note [Tuple parameters of entry points]
// An external value is a scalar or an array, so an entry point's parameter
// of tuple type (`entry is_sorted (k: i64, xs: []i64)`) cannot be given
// one. A `script input` that calls an entry point returning a tuple
// (`mk_input 8 10000`, as the diku-dk sorts' tests do) gives its
// components as separate values, which Futhark's test runner packs into
// the opaque tuple the next entry point takes. Here, when the arguments
// are exactly as many as the tuple parameters' components (in order,
// tuples nested in tuples flattened), they are packed back into tuples.

/// The types of the values a parameter of type `t` takes, tuples
/// flattened (see Note [Tuple parameters of entry points]).
fn tuple_components(t: &Type) -> Vec<Type> {
    match t {
        Type::Tuple(ts) if !ts.is_empty() => ts.iter().flat_map(tuple_components).collect(),
        _ => vec![t.clone()],
    }
}

/// The value of a parameter of type `t` from the next values of `flat`
/// (see [`tuple_components`]); the count was checked.
fn regroup<'a>(t: &Type, flat: &mut impl Iterator<Item = Value<'a>>) -> Value<'a> {
    match t {
        Type::Tuple(ts) if !ts.is_empty() => {
            Value::Tuple(std::rc::Rc::new(ts.iter().map(|t| regroup(t, flat)).collect()))
        }
        _ => flat.next().unwrap_or_else(Value::unit),
    }
}

/// The `i64` parameters of an entry point bound by a name (`(x: i64)`),
/// with their arguments' values.
fn named_i64_params(
    params: &[crate::syntax::ast::Pat],
    args: &[values::Value],
) -> Vec<(crate::syntax::ast::Name, i64)> {
    use crate::syntax::ast::PatKind;
    fn name(p: &crate::syntax::ast::Pat) -> Option<&crate::syntax::ast::Name> {
        match &p.kind {
            PatKind::Id(n) => Some(n),
            PatKind::Ascribe(p, _) => name(p),
            _ => None,
        }
    }
    params
        .iter()
        .zip(args)
        .filter_map(|(p, a)| match (name(p), a) {
            (Some(n), values::Value::Prim(values::PrimValue::I64(v))) => Some((n.clone(), *v)),
            _ => None,
        })
        .collect()
}

/// Note [Entry arguments] in internalise: a parameter whose declared
/// dimension is an expression of `i64` parameters (`(n: i64) (xs: [n +
/// 1]i32)`) takes an argument of exactly that size; the compiled
/// programs check it with the same message.
fn check_size_expressions(
    interp: &mut Interp<'_>,
    params: &[Type],
    args: &[values::Value],
    sizes: &[(crate::syntax::ast::Name, i64)],
) -> Result<(), RuntimeError> {
    for (k, (t, arg)) in params.iter().zip(args).enumerate() {
        let Type::Array { shape, .. } = t else { continue };
        let (_, have) = external_type(arg);
        for (d, (s, &h)) in shape.iter().zip(&have).enumerate() {
            if !matches!(s, Size::Expr(_) | Size::Term(_)) {
                continue;
            }
            // The parameters' values as constants; a term (`[three]`,
            // `[n/2]`) is evaluated by the interpreter (Note [Size terms]
            // in `types`).
            let s = s.map_leaves(&mut |l| match l {
                Size::Var(n) => sizes
                    .iter()
                    .find(|(m, _)| m == n)
                    .map_or_else(|| l.clone(), |(_, v)| Size::Const(*v)),
                l => l.clone(),
            });
            let Some(want) = interp.size_value(&s) else {
                continue;
            };
            if want != h as i64 {
                return Err(RuntimeError::plain(format!(
                    "invalid size: argument {} of the entry point has size {h} in dimension {}, but its type requires {want}",
                    k + 1,
                    d + 1
                )));
            }
        }
    }
    Ok(())
}

/// `t` with the sizes that `sizes` gives values written as constants.
fn with_param_sizes(t: &Type, sizes: &[(crate::syntax::ast::Name, i64)]) -> Type {
    if sizes.is_empty() {
        return t.clone();
    }
    match t {
        Type::Array { elem, shape, unique } => Type::Array {
            elem: elem.clone(),
            shape: shape
                .iter()
                .map(|d| {
                    d.eval(&mut |n| sizes.iter().find(|(m, _)| m == n).map(|(_, v)| *v))
                        .map_or_else(|| d.clone(), Size::Const)
                })
                .collect(),
            unique: *unique,
        },
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(|t| with_param_sizes(t, sizes)).collect()),
        _ => t.clone(),
    }
}

/// `[3]f32`
fn external_type_str(v: &values::Value) -> String {
    let (t, shape) = external_type(v);
    format!("{}{t}", shape_str(&shape))
}

/// Arguments must match the entry point's parameter types: count, element
/// type, rank, constant sizes, and sizes named alike must agree.
fn check_entry_args(name: &str, params: &[Type], args: &[values::Value]) -> Result<(), RuntimeError> {
    if args.len() != params.len() {
        return Err(RuntimeError::plain(format!(
            "entry point `{}` takes {} argument{}, got {}",
            name,
            params.len(),
            if params.len() == 1 { "" } else { "s" },
            args.len()
        )));
    }
    let mut sizes: Vec<(&str, usize, usize)> = Vec::new();
    for (i, (arg, ty)) in args.iter().zip(params).enumerate() {
        let (t, shape) = external_type(arg);
        let (elem, dims) = match ty {
            Type::Prim(p) => (Some(*p), &[][..]),
            Type::Array { elem, shape, .. } => (elem.prim(), &shape[..]),
            _ => (None, &[][..]),
        };
        let Some(elem) = elem else {
            return Err(RuntimeError::plain(format!(
                "entry point argument {}: parameter type {ty} is opaque and cannot be given from outside",
                i + 1
            )));
        };
        if elem != t || dims.len() != shape.len() {
            return Err(RuntimeError::plain(format!(
                "entry point argument {}: expected {ty}, got {}",
                i + 1,
                external_type_str(arg)
            )));
        }
        for (d, have) in dims.iter().zip(&shape) {
            match d {
                Size::Const(c) if *c != *have as i64 => {
                    return Err(RuntimeError::plain(format!(
                        "entry point argument {}: expected {ty}, got {} (size mismatch)",
                        i + 1,
                        external_type_str(arg)
                    )));
                }
                Size::Var(n) => match sizes.iter().find(|(m, _, _)| *m == &**n) {
                    Some((_, want, j)) if want != have => {
                        return Err(RuntimeError::plain(format!(
                            "entry point argument {}: size `{n}` is {have} here but {want} in argument {}",
                            i + 1,
                            j + 1
                        )));
                    }
                    Some(_) => {}
                    None => sizes.push((n, *have, i)),
                },
                _ => {}
            }
        }
    }
    Ok(())
}
