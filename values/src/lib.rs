//! External values: what `futmlir run` reads from stdin and prints, what
//! test blocks compare, what `futmlir dataset` generates. Scalars and
//! regular arrays of scalars (any rank), in Futhark's text and binary value
//! formats. And the one scalar semantics ([`scalar`]): what an operator,
//! a numeric function or a conversion computes on primitive values.
//!
//! - [`text`]: reading and printing the text format (`[1i32, 2i32]`,
//!   `empty([0][3]f32)`, `f32.nan`, `-f64.inf`, `true`).
//! - [`binary`]: the binary format (`b`, version 2, rank, 4-byte type name,
//!   u64 dimensions, little-endian data).
//! - [`read_values`] reads any mix of the two from one input, inflating
//!   it first if it is gzipped ([`gzip`]).
//! - [`compare`]: equality with Futhark's float tolerance.
//! - [`f16`]: IEEE half-precision conversions.
//! - [`generate`]: random values for `futmlir dataset` and `random input`.
//! - [`scalar`]: the one scalar semantics (arithmetic, float functions,
//!   comparisons, conversions) of the interpreters and constant folding.

use std::fmt;

pub mod binary;
pub mod compare;
pub mod f16;
pub mod generate;
pub mod gzip;
pub mod scalar;
pub mod text;

pub use binary::{read_binary_value, write_binary, write_binary_values};
pub use compare::{compare_values, compare_values_with, Mismatch, DEFAULT_TOLERANCE};
pub use generate::{generate, parse_gen_spec, Bounds, GenSpec, Range, Rng};
pub use text::{format_f32, format_f64, parse_values};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum PrimType {
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

impl PrimType {
    pub const ALL: [PrimType; 12] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
        PrimType::F16,
        PrimType::F32,
        PrimType::F64,
        PrimType::Bool,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::I32 => "i32",
            PrimType::I64 => "i64",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
            PrimType::F16 => "f16",
            PrimType::F32 => "f32",
            PrimType::F64 => "f64",
            PrimType::Bool => "bool",
        }
    }

    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|p| p.name() == s)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64)
    }
    pub fn is_unsigned(self) -> bool {
        matches!(self, PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64)
    }
    pub fn is_int(self) -> bool {
        self.is_signed() || self.is_unsigned()
    }
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F16 | PrimType::F32 | PrimType::F64)
    }
    pub fn is_numeric(self) -> bool {
        self != PrimType::Bool
    }
    /// Width in bits (bool: 8, as in the binary value format).
    pub fn bits(self) -> u32 {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 8,
            PrimType::I16 | PrimType::U16 | PrimType::F16 => 16,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 64,
        }
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

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

/// Applies `$body` to the vector inside an [`ArrayData`], whatever its
/// element type (`$v` is bound to the vector).
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            ArrayData::I8($v) => $body,
            ArrayData::I16($v) => $body,
            ArrayData::I32($v) => $body,
            ArrayData::I64($v) => $body,
            ArrayData::U8($v) => $body,
            ArrayData::U16($v) => $body,
            ArrayData::U32($v) => $body,
            ArrayData::U64($v) => $body,
            ArrayData::F16($v) => $body,
            ArrayData::F32($v) => $body,
            ArrayData::F64($v) => $body,
            ArrayData::Bool($v) => $body,
        }
    };
}

/// A value that could not be read (or a generator spec that could not be
/// parsed): the message and where, as a byte offset and 1-based line and
/// byte column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    pub message: String,
    pub offset: usize,
    pub line: usize,
    pub col: usize,
}

impl ValueError {
    /// An error at byte `offset` of `input` (clamped to its length).
    pub fn at(input: &[u8], offset: usize, message: impl Into<String>) -> ValueError {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        ValueError {
            message: message.into(),
            offset,
            line,
            col: offset - line_start + 1,
        }
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ValueError {}

impl PrimValue {
    pub fn prim_type(&self) -> PrimType {
        match self {
            PrimValue::I8(_) => PrimType::I8,
            PrimValue::I16(_) => PrimType::I16,
            PrimValue::I32(_) => PrimType::I32,
            PrimValue::I64(_) => PrimType::I64,
            PrimValue::U8(_) => PrimType::U8,
            PrimValue::U16(_) => PrimType::U16,
            PrimValue::U32(_) => PrimType::U32,
            PrimValue::U64(_) => PrimType::U64,
            PrimValue::F16(_) => PrimType::F16,
            PrimValue::F32(_) => PrimType::F32,
            PrimValue::F64(_) => PrimType::F64,
            PrimValue::Bool(_) => PrimType::Bool,
        }
    }

    /// The value as an `f64` (exact for every type but the 64-bit integers
    /// beyond 2^53); `true` is 1.
    pub fn to_f64(&self) -> f64 {
        match *self {
            PrimValue::I8(x) => x as f64,
            PrimValue::I16(x) => x as f64,
            PrimValue::I32(x) => x as f64,
            PrimValue::I64(x) => x as f64,
            PrimValue::U8(x) => x as f64,
            PrimValue::U16(x) => x as f64,
            PrimValue::U32(x) => x as f64,
            PrimValue::U64(x) => x as f64,
            PrimValue::F16(x) => f16::f16_to_f32(x) as f64,
            PrimValue::F32(x) => x as f64,
            PrimValue::F64(x) => x,
            PrimValue::Bool(x) => x as u8 as f64,
        }
    }
}

impl ArrayData {
    /// No elements, of type `t`.
    pub fn new(t: PrimType) -> ArrayData {
        ArrayData::with_capacity(t, 0)
    }

    pub fn with_capacity(t: PrimType, n: usize) -> ArrayData {
        match t {
            PrimType::I8 => ArrayData::I8(Vec::with_capacity(n)),
            PrimType::I16 => ArrayData::I16(Vec::with_capacity(n)),
            PrimType::I32 => ArrayData::I32(Vec::with_capacity(n)),
            PrimType::I64 => ArrayData::I64(Vec::with_capacity(n)),
            PrimType::U8 => ArrayData::U8(Vec::with_capacity(n)),
            PrimType::U16 => ArrayData::U16(Vec::with_capacity(n)),
            PrimType::U32 => ArrayData::U32(Vec::with_capacity(n)),
            PrimType::U64 => ArrayData::U64(Vec::with_capacity(n)),
            PrimType::F16 => ArrayData::F16(Vec::with_capacity(n)),
            PrimType::F32 => ArrayData::F32(Vec::with_capacity(n)),
            PrimType::F64 => ArrayData::F64(Vec::with_capacity(n)),
            PrimType::Bool => ArrayData::Bool(Vec::with_capacity(n)),
        }
    }

    /// Like [`ArrayData::with_capacity`], but an allocation failure (a
    /// dimension from untrusted input) is an `Err` instead of an abort.
    pub fn try_with_capacity(t: PrimType, n: usize) -> Result<ArrayData, std::collections::TryReserveError> {
        let mut d = ArrayData::new(t);
        with_data!(&mut d, v => v.try_reserve_exact(n))?;
        Ok(d)
    }

    pub fn elem_type(&self) -> PrimType {
        match self {
            ArrayData::I8(_) => PrimType::I8,
            ArrayData::I16(_) => PrimType::I16,
            ArrayData::I32(_) => PrimType::I32,
            ArrayData::I64(_) => PrimType::I64,
            ArrayData::U8(_) => PrimType::U8,
            ArrayData::U16(_) => PrimType::U16,
            ArrayData::U32(_) => PrimType::U32,
            ArrayData::U64(_) => PrimType::U64,
            ArrayData::F16(_) => PrimType::F16,
            ArrayData::F32(_) => PrimType::F32,
            ArrayData::F64(_) => PrimType::F64,
            ArrayData::Bool(_) => PrimType::Bool,
        }
    }

    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at flat index `i`.
    pub fn get(&self, i: usize) -> Option<PrimValue> {
        Some(match self {
            ArrayData::I8(v) => PrimValue::I8(*v.get(i)?),
            ArrayData::I16(v) => PrimValue::I16(*v.get(i)?),
            ArrayData::I32(v) => PrimValue::I32(*v.get(i)?),
            ArrayData::I64(v) => PrimValue::I64(*v.get(i)?),
            ArrayData::U8(v) => PrimValue::U8(*v.get(i)?),
            ArrayData::U16(v) => PrimValue::U16(*v.get(i)?),
            ArrayData::U32(v) => PrimValue::U32(*v.get(i)?),
            ArrayData::U64(v) => PrimValue::U64(*v.get(i)?),
            ArrayData::F16(v) => PrimValue::F16(*v.get(i)?),
            ArrayData::F32(v) => PrimValue::F32(*v.get(i)?),
            ArrayData::F64(v) => PrimValue::F64(*v.get(i)?),
            ArrayData::Bool(v) => PrimValue::Bool(*v.get(i)?),
        })
    }

    /// Appends `x`; `false` (and nothing appended) when its type is not the
    /// element type.
    pub fn push(&mut self, x: PrimValue) -> bool {
        match (self, x) {
            (ArrayData::I8(v), PrimValue::I8(x)) => v.push(x),
            (ArrayData::I16(v), PrimValue::I16(x)) => v.push(x),
            (ArrayData::I32(v), PrimValue::I32(x)) => v.push(x),
            (ArrayData::I64(v), PrimValue::I64(x)) => v.push(x),
            (ArrayData::U8(v), PrimValue::U8(x)) => v.push(x),
            (ArrayData::U16(v), PrimValue::U16(x)) => v.push(x),
            (ArrayData::U32(v), PrimValue::U32(x)) => v.push(x),
            (ArrayData::U64(v), PrimValue::U64(x)) => v.push(x),
            (ArrayData::F16(v), PrimValue::F16(x)) => v.push(x),
            (ArrayData::F32(v), PrimValue::F32(x)) => v.push(x),
            (ArrayData::F64(v), PrimValue::F64(x)) => v.push(x),
            (ArrayData::Bool(v), PrimValue::Bool(x)) => v.push(x),
            _ => return false,
        }
        true
    }

    /// Appends all of `other`; `false` (and nothing appended) when the
    /// element types differ.
    pub fn append(&mut self, other: &mut ArrayData) -> bool {
        match (self, other) {
            (ArrayData::I8(v), ArrayData::I8(w)) => v.append(w),
            (ArrayData::I16(v), ArrayData::I16(w)) => v.append(w),
            (ArrayData::I32(v), ArrayData::I32(w)) => v.append(w),
            (ArrayData::I64(v), ArrayData::I64(w)) => v.append(w),
            (ArrayData::U8(v), ArrayData::U8(w)) => v.append(w),
            (ArrayData::U16(v), ArrayData::U16(w)) => v.append(w),
            (ArrayData::U32(v), ArrayData::U32(w)) => v.append(w),
            (ArrayData::U64(v), ArrayData::U64(w)) => v.append(w),
            (ArrayData::F16(v), ArrayData::F16(w)) => v.append(w),
            (ArrayData::F32(v), ArrayData::F32(w)) => v.append(w),
            (ArrayData::F64(v), ArrayData::F64(w)) => v.append(w),
            (ArrayData::Bool(v), ArrayData::Bool(w)) => v.append(w),
            _ => return false,
        }
        true
    }
}

impl Array {
    /// `None` unless the shape's product is the number of elements.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Option<Array> {
        let n = shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))?;
        (n == data.len()).then_some(Array { shape, data })
    }

    pub fn elem_type(&self) -> PrimType {
        self.data.elem_type()
    }
}

impl Value {
    /// The shape (empty for a scalar).
    pub fn shape(&self) -> &[usize] {
        match self {
            Value::Prim(_) => &[],
            Value::Array(a) => &a.shape,
        }
    }

    pub fn rank(&self) -> usize {
        self.shape().len()
    }

    pub fn elem_type(&self) -> PrimType {
        match self {
            Value::Prim(p) => p.prim_type(),
            Value::Array(a) => a.elem_type(),
        }
    }

    /// The element at flat (row-major) index `i`; a scalar has one.
    pub fn get_flat(&self, i: usize) -> Option<PrimValue> {
        match self {
            Value::Prim(p) => (i == 0).then_some(*p),
            Value::Array(a) => a.data.get(i),
        }
    }

    /// The type in source syntax: `i32`, `[3][0]f32`.
    pub fn type_name(&self) -> String {
        let mut s: String = self.shape().iter().map(|d| format!("[{d}]")).collect();
        s.push_str(self.elem_type().name());
        s
    }
}

impl From<PrimValue> for Value {
    fn from(p: PrimValue) -> Value {
        Value::Prim(p)
    }
}

/// Reads every value of `input`, any mix of the text format and the binary
/// format. Values are separated by whitespace and `--` comments; a value
/// whose first byte is `b` is binary (no text value starts with `b`). A
/// gzipped input (`data.in.gz`) is inflated first.
pub fn read_values(input: &[u8]) -> Result<Vec<Value>, ValueError> {
    if gzip::is_gzip(input) {
        return text::read_all(&gzip::gunzip(input)?, true);
    }
    text::read_all(input, true)
}

/// Like [`read_values`], but also returns the values read before the first
/// error, so that a caller can say which value is malformed (the error's
/// value is number `values.len()`, counting from 0).
pub fn read_values_partial(input: &[u8]) -> (Vec<Value>, Option<ValueError>) {
    text::read_until_error(input, true)
}

/// The values in the text format, one a line.
pub fn values_to_text(values: &[Value]) -> String {
    let mut s = String::new();
    for v in values {
        s.push_str(&v.to_string());
        s.push('\n');
    }
    s
}

/// `template` with each `{i}` replaced by `args[i]` in decimal (`{{` and
/// `}}` are braces); other text, including `{i}` with no such argument,
/// stays as it is. The messages of `soac.assert`/`imp.assert`, formatted
/// by the interpreter and by the executables' runtime alike.
pub fn format_template(template: &str, args: &[i64]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        // `{{` and `}}` are literal braces.
        if rest[at..].starts_with("{{") || rest[at..].starts_with("}}") {
            out.push_str(&rest[at..at + 1]);
            rest = &after[1..];
            continue;
        }
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let arg = (rest[at..].starts_with('{') && digits > 0 && after[digits..].starts_with('}'))
            .then(|| after[..digits].parse::<usize>().ok())
            .flatten()
            .and_then(|i| args.get(i));
        match arg {
            Some(a) => {
                out.push_str(&a.to_string());
                rest = &after[digits + 1..];
            }
            None => {
                out.push_str(&rest[at..at + 1]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        let mut d = ArrayData::new(PrimType::I16);
        assert!(d.push(PrimValue::I16(3)));
        assert!(!d.push(PrimValue::I32(3)));
        assert_eq!(d.len(), 1);
        assert!(!d.append(&mut ArrayData::U8(vec![1])));
        assert!(d.append(&mut ArrayData::I16(vec![4, 5])));
        assert_eq!(d, ArrayData::I16(vec![3, 4, 5]));
        assert_eq!(d.get(2), Some(PrimValue::I16(5)));
        assert_eq!(d.get(3), None);
        assert!(Array::new(vec![2, 2], d.clone()).is_none());
        assert!(Array::new(vec![usize::MAX, 2], d.clone()).is_none());
        let a = Array::new(vec![3, 1], d).unwrap();
        let v = Value::Array(a);
        assert_eq!(v.type_name(), "[3][1]i16");
        assert_eq!(v.rank(), 2);
        assert_eq!(Value::from(PrimValue::Bool(true)).type_name(), "bool");
        assert_eq!(Value::Prim(PrimValue::U8(1)).get_flat(1), None);
        assert_eq!(PrimValue::F16(0x3c00).to_f64(), 1.0);
        assert_eq!(PrimValue::Bool(true).to_f64(), 1.0);
        for t in PrimType::ALL {
            assert_eq!(ArrayData::new(t).elem_type(), t);
            assert_eq!(ArrayData::try_with_capacity(t, 4).unwrap().elem_type(), t);
        }
        assert!(ArrayData::try_with_capacity(PrimType::F64, usize::MAX).is_err());
        assert_eq!(
            values_to_text(&[v, Value::Prim(PrimValue::I64(-1))]),
            "[[3i16], [4i16], [5i16]]\n-1i64\n"
        );
    }

    #[test]
    fn error_positions() {
        let e = ValueError::at(b"ab\ncd\nef", 7, "x");
        assert_eq!((e.offset, e.line, e.col), (7, 3, 2));
        let e = ValueError::at(b"ab", 99, "past the end");
        assert_eq!((e.offset, e.line, e.col), (2, 1, 3));
        assert_eq!(e.to_string(), "1:3: past the end");
        // Text after a binary value.
        let mut input = Vec::new();
        binary::write_binary(&Value::Prim(PrimValue::I32(7)), &mut input);
        input.extend_from_slice(b"\n  1i32 q");
        let e = read_values(&input).unwrap_err();
        assert_eq!((e.line, e.col), (2, 8));
        assert_eq!(e.message, "expected a value, found `q`");
        let (before, e2) = read_values_partial(&input);
        assert_eq!(
            before,
            vec![Value::Prim(PrimValue::I32(7)), Value::Prim(PrimValue::I32(1))]
        );
        assert_eq!(e2, Some(e));
        assert_eq!(
            read_values_partial(b" 1u8 "),
            (vec![Value::Prim(PrimValue::U8(1))], None)
        );
    }

    /// Mutated and truncated inputs give values or errors, never panics.
    #[test]
    fn mutated_inputs_never_panic() {
        let mut seed = Vec::new();
        seed.extend_from_slice(b"[[1i8, -2i8], [3i8, 4i8]] -- c\n0x1Fu16 1.5e-3f32 f64.nan empty([0][2]bool) ");
        for v in parse_values("[1.0f16, 2.0f16] [[true], [false]] -7i64 [1u64]").unwrap() {
            binary::write_binary(&v, &mut seed);
        }
        let mut rng = generate::Rng::new(99);
        for _ in 0..3000 {
            let mut input = seed.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(input.len() as u64) as usize;
                match rng.below(3) {
                    0 => input[i] = rng.next_u64() as u8,
                    1 => input.truncate(i),
                    _ => input.insert(i, b"[]-_.e0bx,f"[rng.below(11) as usize]),
                }
                if input.is_empty() {
                    break;
                }
            }
            if let Ok(vs) = read_values(&input) {
                for v in &vs {
                    let _ = v.to_string();
                }
            }
        }
    }
}
