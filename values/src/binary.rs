//! Futhark's binary value format. One value is:
//!
//! - the byte `b`;
//! - the format version, the byte 2;
//! - the rank, one byte (0 for a scalar);
//! - the element type, four bytes, right-aligned with spaces: `"  i8"`,
//!   `" i16"`, `" i32"`, `" i64"`, `"  u8"`, `" u16"`, `" u32"`, `" u64"`,
//!   `" f16"`, `" f32"`, `" f64"`, `"bool"`;
//! - `rank` dimensions, each a little-endian `u64`;
//! - the elements, row-major, little-endian (`bool` one byte, 0 or 1; any
//!   non-zero byte reads as `true`).

use super::{Array, ArrayData, PrimValue, Value, ValueError};
use crate::PrimType;

pub const BINARY_VERSION: u8 = 2;

/// The four-byte type name of `t` in the binary format.
pub fn binary_type_name(t: PrimType) -> &'static [u8; 4] {
    match t {
        PrimType::I8 => b"  i8",
        PrimType::I16 => b" i16",
        PrimType::I32 => b" i32",
        PrimType::I64 => b" i64",
        PrimType::U8 => b"  u8",
        PrimType::U16 => b" u16",
        PrimType::U32 => b" u32",
        PrimType::U64 => b" u64",
        PrimType::F16 => b" f16",
        PrimType::F32 => b" f32",
        PrimType::F64 => b" f64",
        PrimType::Bool => b"bool",
    }
}

/// Bytes per element.
fn elem_size(t: PrimType) -> usize {
    t.bits() as usize / 8
}

fn write_prim(p: &PrimValue, out: &mut Vec<u8>) {
    match *p {
        PrimValue::I8(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::I16(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::I32(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::I64(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::U8(x) => out.push(x),
        PrimValue::U16(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::U32(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::U64(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::F16(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::F32(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::F64(x) => out.extend_from_slice(&x.to_le_bytes()),
        PrimValue::Bool(x) => out.push(x as u8),
    }
}

macro_rules! write_le {
    ($v:expr, $out:expr) => {
        for x in $v {
            $out.extend_from_slice(&x.to_le_bytes());
        }
    };
}

/// Appends `v` in the binary format.
///
/// # Panics
///
/// If the value's rank exceeds 255, which the format cannot express.
pub fn write_binary(v: &Value, out: &mut Vec<u8>) {
    let shape = v.shape();
    let rank = u8::try_from(shape.len()).expect("the binary format allows rank 255 at most");
    out.push(b'b');
    out.push(BINARY_VERSION);
    out.push(rank);
    out.extend_from_slice(binary_type_name(v.elem_type()));
    for &d in shape {
        out.extend_from_slice(&(d as u64).to_le_bytes());
    }
    match v {
        Value::Prim(p) => write_prim(p, out),
        Value::Array(a) => {
            out.reserve(a.data.len() * elem_size(a.elem_type()));
            match &a.data {
                ArrayData::I8(v) => write_le!(v, out),
                ArrayData::I16(v) => write_le!(v, out),
                ArrayData::I32(v) => write_le!(v, out),
                ArrayData::I64(v) => write_le!(v, out),
                ArrayData::U8(v) => out.extend_from_slice(v),
                ArrayData::U16(v) => write_le!(v, out),
                ArrayData::U32(v) => write_le!(v, out),
                ArrayData::U64(v) => write_le!(v, out),
                ArrayData::F16(v) => write_le!(v, out),
                ArrayData::F32(v) => write_le!(v, out),
                ArrayData::F64(v) => write_le!(v, out),
                ArrayData::Bool(v) => out.extend(v.iter().map(|&b| b as u8)),
            }
        }
    }
}

/// All of `values`, one after the other, in the binary format.
pub fn write_binary_values(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        write_binary(v, &mut out);
    }
    out
}

fn decode<const N: usize, T>(bytes: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| f(c.try_into().expect("chunks_exact gives N bytes")))
        .collect()
}

/// Reads one binary value of `input` starting at `*pos` (at its `b`) and
/// moves `*pos` past it. Errors are located in `input`.
pub fn read_binary_value(input: &[u8], pos: &mut usize) -> Result<Value, ValueError> {
    let start = *pos;
    let err = |at: usize, msg: String| ValueError::at(input, at, msg);
    let header_end = start + 7;
    if input.len() < header_end {
        return Err(err(
            start,
            format!(
                "truncated binary value: the header needs 7 bytes, {} left",
                input.len() - start
            ),
        ));
    }
    if input[start] != b'b' {
        return Err(err(start, "a binary value starts with `b`".to_string()));
    }
    let version = input[start + 1];
    if version != BINARY_VERSION {
        return Err(err(
            start + 1,
            format!("unsupported binary format version {version} (expected {BINARY_VERSION})"),
        ));
    }
    let rank = input[start + 2] as usize;
    let name = &input[start + 3..header_end];
    let Some(t) = PrimType::ALL.into_iter().find(|&t| binary_type_name(t) == name) else {
        return Err(err(
            start + 3,
            format!("unknown element type \"{}\" in binary value", name.escape_ascii()),
        ));
    };
    let dims_end = header_end + rank * 8;
    if input.len() < dims_end {
        return Err(err(
            header_end,
            format!(
                "truncated binary value: {rank} dimensions need {} bytes, {} left",
                rank * 8,
                input.len() - header_end
            ),
        ));
    }
    let mut shape = Vec::with_capacity(rank);
    let mut count = 1usize;
    for i in 0..rank {
        let at = header_end + i * 8;
        let d = u64::from_le_bytes(input[at..at + 8].try_into().expect("8 bytes"));
        let d = usize::try_from(d).map_err(|_| err(at, format!("dimension {d} is too large")))?;
        count = count.saturating_mul(d);
        shape.push(d);
    }
    let left = input.len() - dims_end;
    let size = elem_size(t);
    let needed = count.checked_mul(size).filter(|&n| n <= left).ok_or_else(|| {
        let dims: String = shape.iter().map(|d| format!("[{d}]")).collect();
        err(
            dims_end,
            format!("truncated binary value: {dims}{t} needs more data than the {left} bytes left"),
        )
    })?;
    let bytes = &input[dims_end..dims_end + needed];
    *pos = dims_end + needed;
    let data = match t {
        PrimType::I8 => ArrayData::I8(bytes.iter().map(|&b| b as i8).collect()),
        PrimType::I16 => ArrayData::I16(decode(bytes, i16::from_le_bytes)),
        PrimType::I32 => ArrayData::I32(decode(bytes, i32::from_le_bytes)),
        PrimType::I64 => ArrayData::I64(decode(bytes, i64::from_le_bytes)),
        PrimType::U8 => ArrayData::U8(bytes.to_vec()),
        PrimType::U16 => ArrayData::U16(decode(bytes, u16::from_le_bytes)),
        PrimType::U32 => ArrayData::U32(decode(bytes, u32::from_le_bytes)),
        PrimType::U64 => ArrayData::U64(decode(bytes, u64::from_le_bytes)),
        PrimType::F16 => ArrayData::F16(decode(bytes, u16::from_le_bytes)),
        PrimType::F32 => ArrayData::F32(decode(bytes, f32::from_le_bytes)),
        PrimType::F64 => ArrayData::F64(decode(bytes, f64::from_le_bytes)),
        PrimType::Bool => ArrayData::Bool(bytes.iter().map(|&b| b != 0).collect()),
    };
    if rank == 0 {
        return Ok(Value::Prim(data.get(0).expect("a scalar has one element")));
    }
    Ok(Value::Array(Array { shape, data }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{read_values, text};

    fn sample(t: PrimType, i: usize) -> PrimValue {
        let k = i as i64 * 37 - 50;
        match t {
            PrimType::I8 => PrimValue::I8(k as i8),
            PrimType::I16 => PrimValue::I16((k * 1000) as i16),
            PrimType::I32 => PrimValue::I32((k * 100_000) as i32),
            PrimType::I64 => PrimValue::I64(k * 10_000_000_000),
            PrimType::U8 => PrimValue::U8(k as u8),
            PrimType::U16 => PrimValue::U16((k * 1000) as u16),
            PrimType::U32 => PrimValue::U32((k * 100_000) as u32),
            PrimType::U64 => PrimValue::U64((k * 10_000_000_000) as u64),
            PrimType::F16 => PrimValue::F16(crate::f16::f32_to_f16(k as f32 / 8.0)),
            PrimType::F32 => PrimValue::F32(k as f32 / 3.0),
            PrimType::F64 => PrimValue::F64(k as f64 / 7.0),
            PrimType::Bool => PrimValue::Bool(i.is_multiple_of(3)),
        }
    }

    fn value(t: PrimType, shape: &[usize]) -> Value {
        if shape.is_empty() {
            return Value::Prim(sample(t, 5));
        }
        let n: usize = shape.iter().product();
        let mut data = ArrayData::new(t);
        for i in 0..n {
            assert!(data.push(sample(t, i)));
        }
        Value::Array(Array::new(shape.to_vec(), data).unwrap())
    }

    #[test]
    fn round_trip_every_type_and_rank() {
        let shapes: [&[usize]; 7] = [&[], &[4], &[0], &[2, 3], &[3, 0], &[2, 1, 3], &[0, 2, 2]];
        for t in PrimType::ALL {
            for shape in shapes {
                let v = value(t, shape);
                let mut bytes = Vec::new();
                write_binary(&v, &mut bytes);
                let n: usize = shape.iter().product();
                assert_eq!(bytes.len(), 7 + 8 * shape.len() + n * elem_size(t));
                let mut pos = 0;
                let back = read_binary_value(&bytes, &mut pos).unwrap();
                assert_eq!(pos, bytes.len());
                assert_eq!(back, v, "{t} {shape:?}");
                assert_eq!(read_values(&bytes).unwrap(), vec![v.clone()]);
            }
        }
    }

    #[test]
    fn exact_layout() {
        let v = Value::Array(Array {
            shape: vec![2],
            data: ArrayData::I32(vec![1, -2]),
        });
        let mut bytes = Vec::new();
        write_binary(&v, &mut bytes);
        assert_eq!(
            bytes,
            b"b\x02\x01 i32\x02\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\xfe\xff\xff\xff"
        );
        let mut bytes = Vec::new();
        write_binary(&Value::Prim(PrimValue::Bool(true)), &mut bytes);
        assert_eq!(bytes, b"b\x02\x00bool\x01");
        let mut bytes = Vec::new();
        write_binary(&Value::Prim(PrimValue::U8(7)), &mut bytes);
        assert_eq!(bytes, b"b\x02\x00  u8\x07");
        let mut bytes = Vec::new();
        write_binary(&Value::Prim(PrimValue::F16(0x3c00)), &mut bytes);
        assert_eq!(bytes, b"b\x02\x00 f16\x00\x3c");
    }

    #[test]
    fn mixed_text_and_binary() {
        let mut input = b"1i32 -- text first\n".to_vec();
        write_binary(&Value::Prim(PrimValue::F64(2.5)), &mut input);
        input.extend_from_slice(b"\n[true, false]  ");
        write_binary(&value(PrimType::I16, &[2, 2]), &mut input);
        write_binary(&value(PrimType::U8, &[3]), &mut input);
        input.extend_from_slice(b"empty([0]f32)");
        let vs = read_values(&input).unwrap();
        let shown: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
        assert_eq!(
            shown,
            [
                "1i32",
                "2.5f64",
                "[true, false]",
                "[[15536i16, -13000i16], [24000i16, -4536i16]]",
                "[206u8, 243u8, 24u8]",
                "empty([0]f32)"
            ]
        );
        // Text-only parsing does not take binary values.
        assert!(text::parse_values("1 b").is_err());
    }

    fn read_err(bytes: &[u8]) -> ValueError {
        match read_values(bytes) {
            Ok(v) => panic!("{bytes:?}: expected an error, got {v:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn bad_binary_input() {
        let mut good = Vec::new();
        write_binary(&value(PrimType::F32, &[2, 3]), &mut good);
        // Every truncation is an error, never a panic.
        for n in 1..good.len() {
            let e = read_err(&good[..n]);
            assert!(e.message.contains("truncated"), "{n}: {}", e.message);
        }
        let e = read_err(b"b\x01\x00 i32\x00\x00\x00\x00");
        assert_eq!(e.message, "unsupported binary format version 1 (expected 2)");
        assert_eq!(e.offset, 1);
        let e = read_err(b"b\x02\x00 i33\x00\x00\x00\x00");
        assert_eq!(e.message, "unknown element type \" i33\" in binary value");
        let e = read_err(b"b\x02\x00\x00\xffxy\x00\x00\x00\x00");
        assert!(e.message.contains("unknown element type"), "{}", e.message);
        // Dimensions whose product overflows.
        let mut huge = b"b\x02\x02 i64".to_vec();
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        huge.extend_from_slice(&[0; 16]);
        assert!(read_err(&huge).message.contains("truncated"));
        // A product that fits but exceeds the input, times the element size.
        let mut big = b"b\x02\x01 f64".to_vec();
        big.extend_from_slice(&(1u64 << 61).to_le_bytes());
        assert!(read_err(&big).message.contains("truncated"));
        // A zero dimension next to a huge one is fine: no data.
        let mut empty = b"b\x02\x02bool".to_vec();
        empty.extend_from_slice(&0u64.to_le_bytes());
        empty.extend_from_slice(&u64::MAX.to_le_bytes());
        let v = read_values(&empty);
        if usize::BITS == 64 {
            let v = v.unwrap();
            assert_eq!(v[0].shape(), &[0, usize::MAX]);
            assert_eq!(v[0].to_string(), format!("empty([0][{}]bool)", usize::MAX));
        }
        // Errors after text report the line.
        let e = read_err(b"1\n2\n b\x02");
        assert_eq!((e.line, e.col), (3, 2));
    }
}
