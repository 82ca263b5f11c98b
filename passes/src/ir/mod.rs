//! Passes that work on ops of any dialect, through op traits.

pub mod cse;
pub mod dce;
pub mod op_stats;
pub mod strip_locations;

use futmlir_dialects::ir::{Context, OpId, Traits};

/// Whether `op` is known to have no side effects (registered and PURE).
pub fn is_pure(ctx: &Context, op: OpId) -> bool {
    ctx.op_def(op).is_some_and(|d| d.traits.contains(Traits::PURE))
}
