//! The `segop` dialect: flat parallel kernels after moderate flattening
//! (thesis ch. 8-9).
//!
//! Segmented ops (`segmap`, `segred`, `segscan`, `seghist`) run a body at
//! each point of a segment space, at thread or group level; `if_threshold`
//! multi-versions code on a tunable threshold; `manifest` fixes a layout for
//! coalescing. Scalar and array ops inside bodies are `soac` ops.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: their verifiers.

pub mod ops;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "segop",
        summary: "Flat segmented parallel operations at thread or group level.",
        ops: ops::ops(),
    }
}
