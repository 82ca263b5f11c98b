//! futmlir's dialects and the IR core they are built on.
//!
//! - [`ir`]: the MLIR-shaped core (context, operations, regions, values,
//!   text, verifier).
//! - [`source`], [`soac`], [`segop`], [`mem`], [`imp`]: the five levels of the
//!   pipeline (see `DESIGN.md`), each with its ops and verifiers.
//! - [`interp`]: an interpreter for the `soac` and `segop` dialects, the
//!   executable meaning of their ops; its scalar ops are the shared scalar
//!   semantics of `futmlir_values::scalar`.
//!
//! [`registry`] returns a registry holding all of them.

pub mod imp;
pub mod interp;
pub mod ir;
pub mod mem;
pub mod segop;
pub mod soac;
pub mod source;

use std::sync::Arc;

/// A registry with the builtin dialect and the five futmlir dialects.
pub fn registry() -> Arc<ir::Registry> {
    let mut r = ir::Registry::default();
    r.register(ir::builtin::dialect());
    r.register(source::dialect());
    r.register(soac::dialect());
    r.register(segop::dialect());
    r.register(mem::dialect());
    r.register(imp::dialect());
    Arc::new(r)
}

/// A fresh context that knows every futmlir dialect.
pub fn context() -> ir::Context {
    ir::Context::new(registry())
}
