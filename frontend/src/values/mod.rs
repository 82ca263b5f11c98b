//! External values: what `futmlir run` reads from stdin and prints, what
//! test blocks compare, what `futmlir dataset` generates. Scalars and
//! regular arrays of scalars (any rank), in Futhark's text and binary value
//! formats.
//!
//! - [`text`]: reading and printing the text format (`[1i32, 2i32]`,
//!   `empty([0][3]f32)`, `f32.nan`, `-f64.inf`, `true`).
//! - [`binary`]: the binary format (`b`, version 2, rank, 4-byte type name,
//!   u64 dimensions, little-endian data).
//! - [`read_values`] reads any mix of the two from one input.
//! - [`compare`]: equality with Futhark's float tolerance.
//! - [`generate`]: random values for `futmlir dataset` and `random input`.

use crate::types::PrimType;

/// One scalar. `F16` holds the IEEE half-precision bits.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum PrimValue {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(u16),
    F32(f32),
    F64(f64),
    Bool(bool),
}

/// The elements of an array, flat, row-major.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<u16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
}

/// A regular array: `shape.iter().product() == data.len()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    pub shape: Vec<usize>,
    pub data: ArrayData,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Prim(PrimValue),
    Array(Array),
}
