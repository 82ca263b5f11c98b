//! The `mem` dialect: explicit memory.
//!
//! The host's fresh arrays live in memory blocks
//! (`!mem.block<host|device|shared>`): `mem.alloc` makes one and
//! `mem.bind` puts an array in it (at an element offset, for the parts of
//! a concat), `mem.place` makes an array as a row of another, and
//! `mem.expand` gives an array that each thread of a kernel makes one
//! block for all the threads (Note [The mem level] in
//! `lowering/src/segop_to_mem.rs`). Views (index, slice, rearrange) are
//! still the `soac` ops, whose index functions `segop-to-imp` computes.
//! Scalar and SOAC-level array ops are still `soac` and `segop` ops.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: their verifiers.

pub mod ops;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "mem",
        summary: "Explicit memory blocks: allocation, binding arrays to blocks, placement in rows, expansion.",
        ops: ops::ops(),
    }
}
