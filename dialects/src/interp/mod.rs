//! An interpreter for the `soac` and `segop` dialects: runs a function of
//! a module (as the frontend's internaliser, `futmlir_frontend::internalise`,
//! emits it, or after any soac or segop pass) on external values. It is the
//! executable meaning of the dialects' op descriptions
//! (`dialects/src/soac/ops.rs`, `dialects/src/segop/ops.rs`), and lets the
//! internaliser and the passes be tested against the reference interpreter
//! (`futmlir_frontend::interp`) on the same programs and inputs
//! (`frontend/tests/soac_differential.rs`, `driver/tests/soac_passes.rs`).
//!
//! - [`scalar`]: `binop`, `cmpop`, `unop`, `ternop`, `convop`: the op kinds
//!   mapped to the one scalar semantics, [`futmlir_values::scalar`] (also
//!   the semantics of constant folding in `futmlir_passes::egraph::fold`).
//! - `value`: run-time values (flat arrays with shapes).
//! - `eval`: blocks, ops and SOACs (Note [In-place updates]).
//!
//! `cargo run -p futmlir-frontend --example soac_run FILE [ENTRY] < INPUT`
//! runs a program this way.
//!
//! Malformed IR never makes it panic: every inconsistency it meets (a
//! missing attribute, an operand of another type, an array of another
//! shape) is a [`SoacError`] at the op, as is a failing `soac.assert`
//! (with the assert's message) or an index out of bounds.
//!
//! **Note [Entry arguments].**
//! Internalisation gives a function its size parameters first — one `i64`
//! per distinct size name in its parameter types and one per anonymous
//! `[]`, in order of first appearance — then the flattened parameters,
//! whose array types name those sizes
//! (`futmlir_frontend::internalise::signature`). An entry point's
//! parameters are scalars and arrays of scalars, so
//! [`run_func`] takes just those, one value each, as the reference
//! interpreter does; the size parameters are the leading entry block
//! arguments beyond them, and each gets its value from the shape of the
//! first argument whose type mentions it. Every other mention must agree
//! (as must constant sizes, and sizes naming an earlier `i64` parameter),
//! else the run fails with a "size" error before the body runs. A caller
//! that passes all the block arguments, sizes included, gets no derived
//! sizes, only the checks.

mod eval;
pub mod scalar;
mod value;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::ir::{Context, Dim, Location, OpId, Scalar, TypeKind};

use eval::Machine;
use futmlir_values::{PrimValue, Value};
use value::Val;

/// A run that failed: the program failed (an assertion, an index out of
/// bounds) or the IR is malformed. `location` is the op's.
#[derive(Clone, Debug, PartialEq)]
pub struct SoacError {
    pub message: String,
    pub location: Location,
    /// `file:line:col` of the location, when the context has its source.
    pub position: Option<String>,
}

impl SoacError {
    fn at(ctx: &Context, op: OpId, message: impl Into<String>) -> SoacError {
        let location = ctx.location(op);
        SoacError {
            message: message.into(),
            location,
            position: position(ctx, location),
        }
    }

    fn unknown(message: impl Into<String>) -> SoacError {
        SoacError {
            message: message.into(),
            location: Location::Unknown,
            position: None,
        }
    }

    /// `file:line:col: error: message` (or `error: message` without a
    /// known location).
    pub fn render(&self) -> String {
        match &self.position {
            Some(p) => format!("{p}: error: {}", self.message),
            None => format!("error: {}", self.message),
        }
    }
}

impl fmt::Display for SoacError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for SoacError {}

/// `file:line:col` of a location.
fn position(ctx: &Context, loc: Location) -> Option<String> {
    match loc {
        Location::Span { source, start, .. } => {
            let f = ctx.source(source);
            let (l, c) = f.line_col(start);
            Some(format!("{}:{l}:{c}", f.name))
        }
        Location::FileLineCol { file, line, col } => Some(format!("{}:{line}:{col}", ctx.str(file))),
        Location::Unknown => None,
    }
}

/// Runs function `func` of `module` (a `builtin.module` of `soac.func`s)
/// on `args`: its parameters without the size parameters, which are
/// derived from the arguments' shapes (Note [Entry arguments]). Returns
/// one value per result.
pub fn run_func(ctx: &Context, module: OpId, func: &str, args: Vec<Value>) -> Result<Vec<Value>, SoacError> {
    let m = Machine::new(ctx, module)?;
    let f = m
        .func(func)
        .ok_or_else(|| SoacError::at(ctx, module, format!("no function `{func}` in the module")))?;
    let full = entry_args(&m, f, args)?;
    let results = m.call(f, full)?;
    Ok(results.into_iter().map(Val::into_external).collect())
}

/// All the block arguments of function `f`: the size parameters derived
/// from `args`, then `args` (Note [Entry arguments]).
fn entry_args(m: &Machine, f: OpId, args: Vec<Value>) -> Result<Vec<Val>, SoacError> {
    let ctx = m.ctx;
    let b = m.body(f, 0)?;
    let params = ctx.block_args(b);
    if args.len() > params.len() {
        return Err(m.fail(
            f,
            format!("the function takes {} arguments, got {}", params.len(), args.len()),
        ));
    }
    let k = params.len() - args.len();
    let mut full: Vec<Option<Val>> = vec![None; k];
    full.extend(args.into_iter().map(|a| Some(Val::from_external(a))));
    for j in 0..params.len() {
        let t = ctx.value_type(params[j]);
        let Some(v) = full[j].clone() else { continue };
        let what = if j < k {
            format!("size parameter {}", j + 1)
        } else {
            format!("argument {}", j + 1 - k)
        };
        let (elem, shape) = match ctx.type_kind(t) {
            TypeKind::Scalar(_) => (t, &[][..]),
            TypeKind::Array { elem, shape } => (*elem, &shape[..]),
            _ => {
                return Err(m.fail(
                    f,
                    format!("{what}: a parameter of a type that is not a scalar or an array"),
                ))
            }
        };
        let want = ctx.as_scalar(elem).map(Scalar::prim_type);
        if want != Some(v.elem_type()) || shape.len() != v.shape().len() {
            let expected = match want {
                Some(p) => value::shape_text(&vec![0; shape.len()], p).replace("[0]", "[]"),
                None => "a non-scalar".into(),
            };
            return Err(m.fail(f, format!("{what}: expected {expected}, got {}", v.type_text())));
        }
        for (d, &have) in shape.iter().zip(v.shape()) {
            match *d {
                Dim::Const(c) if c as usize != have => {
                    return Err(m.fail(
                        f,
                        format!("{what}: size {have} where the type requires {c} (size mismatch)"),
                    ))
                }
                Dim::Value(x) => {
                    let Some(i) = params.iter().position(|&p| p == x) else {
                        return Err(m.fail(f, format!("{what}: a size that is not a parameter")));
                    };
                    match &full[i] {
                        None => full[i] = Some(Val::Prim(PrimValue::I64(have as i64))),
                        Some(Val::Prim(PrimValue::I64(s))) if *s == have as i64 => {}
                        Some(other) => {
                            let other = match other {
                                Val::Prim(PrimValue::I64(s)) => s.to_string(),
                                Val::Prim(p) => p.to_string(),
                                Val::Arr(_) => other.type_text(),
                            };
                            return Err(m.fail(
                                f,
                                format!("{what}: size {have} where another argument gives the size {other}"),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    full.into_iter()
        .enumerate()
        .map(|(i, v)| {
            v.ok_or_else(|| {
                m.fail(
                    f,
                    format!("size parameter {} is not determined by the arguments", i + 1),
                )
            })
        })
        .collect()
}
