//! The `imp` dialect: imperative code, host part and kernel bodies.
//!
//! Host functions (`imp.func`) allocate (`mem.alloc`) and launch kernels
//! (`imp.launch`; the runtime moves entry points' values between host
//! and device); kernels
//! (`imp.kernel`) index by thread and block, synchronise with barriers and
//! use shared memory and atomics; kernel code (a kernel's body, a device
//! function) allocates only a thread's own blocks (`mem.alloc` with the
//! `thread` attribute), where memory expansion cannot serve. Loops and
//! conditionals are structured.
//! Scalar arithmetic is `soac`'s. This level lowers to upstream MLIR.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: their verifiers.

pub mod ops;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "imp",
        summary: "Imperative host code and GPU kernels.",
        ops: ops::ops(),
    }
}
