//! The `soac` dialect: Futhark's core language (thesis Fig. 26/49).
//!
//! First-order, monomorphic and tuple-free: arrays of tuples are tuples of
//! arrays, and every size is explicit. Second-order array combinators
//! (SOACs) take the outer size `n : i64` as their first operand and their
//! lambdas as regions. The scalar ops (`binop`, `cmpop`, `unop`, `convop`,
//! `select`, `constant`) are shared with the lower levels, which mix them
//! into their own regions as MLIR dialects mix.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: their verifiers; the shared scalar, control-flow and
//!   indexing verifiers are used by `source` too.

pub mod ops;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "soac",
        summary: "First-order, tuple-free core language with SOACs and explicit sizes.",
        ops: ops::ops(),
    }
}
