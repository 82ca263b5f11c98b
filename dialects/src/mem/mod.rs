//! The `mem` dialect: explicit memory.
//!
//! Every array lives in a memory block (`!mem.block<host|device|shared>`)
//! and is reached through an LMAD index function ([`types`]); allocations
//! are explicit, per-thread allocations in kernels are expanded
//! (`mem.expand`), and loops may carry memory blocks and double-buffer them.
//! Scalar and SOAC-level array ops are still `soac` and `segop` ops.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`types`]: the LMAD attribute.
//! - [`verify`]: their verifiers.

pub mod ops;
pub mod types;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "mem",
        summary: "Explicit memory blocks, LMAD index functions, expansion and double buffering.",
        ops: ops::ops(),
    }
}
