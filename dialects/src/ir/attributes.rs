//! Attributes: compile-time constant data attached to operations.
//!
//! Interned like types; an [`Attr`] is a 4-byte handle.
//! MLIR counterpart: `mlir::Attribute`.

use super::{Symbol, Type};

/// An interned attribute handle.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Attr(pub(crate) u32);

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrKind {
    Unit,
    Bool(bool),
    /// An integer of an integer type; the bits are the value's two's
    /// complement, so `u64` values above `i64::MAX` fit.
    Int {
        bits: i64,
        ty: Type,
    },
    /// A float of a float type, kept as the bits of an `f64` so that
    /// NaN payloads and negative zero survive printing.
    Float {
        bits: u64,
        ty: Type,
    },
    String(Symbol),
    Type(Type),
    Array(Vec<Attr>),
    Dict(Vec<(Symbol, Attr)>),
    SymbolRef(Symbol),
    /// `#dialect.name<body>` kept as text.
    Opaque {
        dialect: Symbol,
        name: Symbol,
        body: Option<Symbol>,
    },
}
