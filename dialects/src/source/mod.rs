//! The `source` dialect: the typed program as written.
//!
//! Modules are resolved, but tuples, records, sum types (opaque
//! `!source.sum<...>` types), polymorphic functions (type variables are
//! opaque `!source.tyvar<"a">` types; Note [Type variables] in
//! [`verify`]), higher-order functions (`lambda`, `apply` of function
//! values) and calls of the prelude's SOACs (`soac_call`) are still
//! present. `futmlir_frontend::source_ir` emits it from a checked
//! program; internalisation lowers the checked program to `soac`.
//!
//! - [`ops`]: the op definitions, each with an example.
//! - [`verify`]: verifiers of the ops not shared with `soac`.

pub mod ops;
pub mod verify;

use crate::ir::Dialect;

pub fn dialect() -> Dialect {
    Dialect {
        name: "source",
        summary: "The typed source program: tuples, records, sum types, higher-order functions.",
        ops: ops::ops(),
    }
}
