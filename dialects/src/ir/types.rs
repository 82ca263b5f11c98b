//! Types: Futhark's scalar types, arrays with symbolic sizes, tuples,
//! functions, records, memory blocks, and opaque dialect types.
//!
//! Types are interned in the [`Context`](super::Context); a [`Type`] is a
//! 4-byte handle and two types are equal exactly when their handles are.
//! MLIR counterpart: `mlir::Type` / `TypeStorage`.

use futmlir_values::PrimType;

use super::{Symbol, Value};

/// An interned type handle.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Type(pub(crate) u32);

/// The scalar (primitive) types of Futhark.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Scalar {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
}

impl Scalar {
    pub const ALL: [Scalar; 12] = [
        Scalar::I8,
        Scalar::I16,
        Scalar::I32,
        Scalar::I64,
        Scalar::U8,
        Scalar::U16,
        Scalar::U32,
        Scalar::U64,
        Scalar::F16,
        Scalar::F32,
        Scalar::F64,
        Scalar::Bool,
    ];

    /// The Futhark spelling (`u32`, `bool`), used by the pretty form.
    pub fn futhark_name(self) -> &'static str {
        match self {
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::U8 => "u8",
            Scalar::U16 => "u16",
            Scalar::U32 => "u32",
            Scalar::U64 => "u64",
            Scalar::F16 => "f16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::Bool => "bool",
        }
    }

    /// The MLIR builtin spelling (`ui32`, `i1`), used by the generic form.
    pub fn mlir_name(self) -> &'static str {
        match self {
            Scalar::U8 => "ui8",
            Scalar::U16 => "ui16",
            Scalar::U32 => "ui32",
            Scalar::U64 => "ui64",
            Scalar::Bool => "i1",
            s => s.futhark_name(),
        }
    }

    /// Parses either spelling.
    pub fn from_name(s: &str) -> Option<Scalar> {
        Some(match s {
            "i8" => Scalar::I8,
            "i16" => Scalar::I16,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "u8" | "ui8" => Scalar::U8,
            "u16" | "ui16" => Scalar::U16,
            "u32" | "ui32" => Scalar::U32,
            "u64" | "ui64" => Scalar::U64,
            "f16" => Scalar::F16,
            "f32" => Scalar::F32,
            "f64" => Scalar::F64,
            "bool" | "i1" => Scalar::Bool,
            _ => return None,
        })
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }
    pub fn is_signed_int(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    pub fn is_unsigned_int(self) -> bool {
        matches!(self, Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::U64)
    }
    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }
    /// Width in bits (`bool` counts as 1).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::I8 | Scalar::U8 => 8,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 16,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 64,
        }
    }

    /// The same type in the value formats' enum, which the scalar
    /// semantics (`futmlir_values::scalar`) computes with.
    pub fn prim_type(self) -> PrimType {
        match self {
            Scalar::I8 => PrimType::I8,
            Scalar::I16 => PrimType::I16,
            Scalar::I32 => PrimType::I32,
            Scalar::I64 => PrimType::I64,
            Scalar::U8 => PrimType::U8,
            Scalar::U16 => PrimType::U16,
            Scalar::U32 => PrimType::U32,
            Scalar::U64 => PrimType::U64,
            Scalar::F16 => PrimType::F16,
            Scalar::F32 => PrimType::F32,
            Scalar::F64 => PrimType::F64,
            Scalar::Bool => PrimType::Bool,
        }
    }

    /// The IR scalar type of a primitive type (the inverse of
    /// [`Scalar::prim_type`]).
    pub fn of_prim(p: PrimType) -> Scalar {
        match p {
            PrimType::I8 => Scalar::I8,
            PrimType::I16 => Scalar::I16,
            PrimType::I32 => Scalar::I32,
            PrimType::I64 => Scalar::I64,
            PrimType::U8 => Scalar::U8,
            PrimType::U16 => Scalar::U16,
            PrimType::U32 => Scalar::U32,
            PrimType::U64 => Scalar::U64,
            PrimType::F16 => Scalar::F16,
            PrimType::F32 => Scalar::F32,
            PrimType::F64 => Scalar::F64,
            PrimType::Bool => Scalar::Bool,
        }
    }
}

/// One dimension of an array type: a constant, an SSA size value in scope,
/// or unknown (`?`, an existential size not yet named).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Dim {
    Const(u64),
    Value(Value),
    Unknown,
}

/// The address space of a memory block (`mem` dialect).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MemSpace {
    Host,
    Device,
    Shared,
}

impl MemSpace {
    pub fn name(self) -> &'static str {
        match self {
            MemSpace::Host => "host",
            MemSpace::Device => "device",
            MemSpace::Shared => "shared",
        }
    }
    pub fn from_name(s: &str) -> Option<MemSpace> {
        [MemSpace::Host, MemSpace::Device, MemSpace::Shared]
            .into_iter()
            .find(|m| m.name() == s)
    }
}

/// The structure of a type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeKind {
    Scalar(Scalar),
    /// `!fut.array<[%n][10]f32>`; the element type is never an array.
    Array {
        elem: Type,
        shape: Vec<Dim>,
    },
    /// `tuple<i32, f32>` (only the `source` dialect has tuples).
    Tuple(Vec<Type>),
    /// `(i32, f32) -> i64`.
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `!source.record<{x: i32, y: f32}>`, fields sorted by name.
    Record(Vec<(Symbol, Type)>),
    /// `!mem.block<device>`.
    Mem(MemSpace),
    /// Any other dialect type, kept as text: `!source.sum<...>`.
    Opaque {
        dialect: Symbol,
        name: Symbol,
        body: Option<Symbol>,
    },
}

#[cfg(test)]
mod tests {
    use super::Scalar;

    #[test]
    fn scalar_names_read_back() {
        for s in Scalar::ALL {
            assert_eq!(Scalar::from_name(s.futhark_name()), Some(s));
            assert_eq!(Scalar::from_name(s.mlir_name()), Some(s));
        }
        assert_eq!(Scalar::from_name("i128"), None);
        assert_eq!(Scalar::from_name(""), None);
    }
}
