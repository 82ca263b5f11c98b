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

use crate::ir::{AttrKind, Context, Dialect, OpId};

/// How many (index, value) pairs a `soac.scatter` writes into each of its
/// destinations per row: its attribute `num_writes`, or one each. (The
/// verifier checks the attribute; a malformed one reads as one each.)
pub fn scatter_writes(ctx: &Context, op: OpId) -> Vec<usize> {
    let k = ctx.num_results(op);
    let given = ctx.attr(op, "num_writes").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::Array(xs) => xs
            .iter()
            .map(|&x| match ctx.attr_kind(x) {
                AttrKind::Int { bits, .. } => usize::try_from(*bits).ok(),
                _ => None,
            })
            .collect::<Option<Vec<usize>>>(),
        _ => None,
    });
    match given {
        Some(ws) if ws.len() == k => ws,
        _ => vec![1; k],
    }
}

pub fn dialect() -> Dialect {
    Dialect {
        name: "soac",
        summary: "First-order, tuple-free core language with SOACs and explicit sizes.",
        ops: ops::ops(),
    }
}
