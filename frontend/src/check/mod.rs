//! The type checker.
//!
//! After a successful check, the trees in [`Checked::programs`] satisfy:
//! 1. every `Exp::ty` and `Pat::ty` is `Some`, with no `Type::Var` left
//!    (unconstrained literals defaulted: integers to `i32`, floats to `f64`);
//!    inside a polymorphic function a type may be `Type::Param`;
//! 2. every `Var::res` (also in `BinOp::op`, `OpSection::op`,
//!    `RecordField::Implicit`) is `Some`;
//! 3. `r.x.y` written as a name chain on a value is rewritten to `Project`;
//!    a qualified name left as `Var` is a builtin (`i32.sum`);
//! 4. a literal's type is `Exp::ty` (an integer literal may have a float
//!    type: `let x: f32 = 1`).

use crate::syntax::ast::{GlobalId, Name, Program};
use crate::types::Type;

pub mod builtins;

/// A checked compilation: the prelude (program 0) and the user's program
/// (program 1), and the entry points of the user's program.
pub struct Checked {
    pub programs: Vec<Program>,
    pub entries: Vec<Entry>,
}

/// An entry point: `entry f ...` in the main file, or `def main`.
pub struct Entry {
    pub name: Name,
    pub id: GlobalId,
    /// Parameter types, one per parameter pattern.
    pub params: Vec<Type>,
    /// The return type; a tuple returns several values.
    pub ret: Type,
}
