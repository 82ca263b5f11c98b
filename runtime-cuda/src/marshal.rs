//! Values to and from the bytes of the target's memory: elements
//! contiguous, row-major, in the machine's byte order; `f16` as its IEEE
//! bits, `bool` one byte (0 or 1; any other byte reads as `true`).

use futmlir_values::{Array, ArrayData, PrimType, PrimValue, Value};

/// Bytes per element.
pub fn elem_size(t: PrimType) -> usize {
    t.bits() as usize / 8
}

macro_rules! ne_bytes {
    ($v:expr, $out:expr) => {
        for x in $v {
            $out.extend_from_slice(&x.to_ne_bytes());
        }
    };
}

/// The bytes of a scalar.
fn prim_bytes(p: &PrimValue, out: &mut Vec<u8>) {
    match *p {
        PrimValue::I8(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::I16(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::I32(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::I64(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::U8(x) => out.push(x),
        PrimValue::U16(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::U32(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::U64(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::F16(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::F32(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::F64(x) => out.extend_from_slice(&x.to_ne_bytes()),
        PrimValue::Bool(x) => out.push(x as u8),
    }
}

/// The elements of `v` as the target stores them.
pub fn to_bytes(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    match v {
        Value::Prim(p) => prim_bytes(p, &mut out),
        Value::Array(a) => {
            out.reserve(a.data.len() * elem_size(a.elem_type()));
            match &a.data {
                ArrayData::I8(v) => ne_bytes!(v, out),
                ArrayData::I16(v) => ne_bytes!(v, out),
                ArrayData::I32(v) => ne_bytes!(v, out),
                ArrayData::I64(v) => ne_bytes!(v, out),
                ArrayData::U8(v) => out.extend_from_slice(v),
                ArrayData::U16(v) => ne_bytes!(v, out),
                ArrayData::U32(v) => ne_bytes!(v, out),
                ArrayData::U64(v) => ne_bytes!(v, out),
                ArrayData::F16(v) => ne_bytes!(v, out),
                ArrayData::F32(v) => ne_bytes!(v, out),
                ArrayData::F64(v) => ne_bytes!(v, out),
                ArrayData::Bool(v) => out.extend(v.iter().map(|&b| b as u8)),
            }
        }
    }
    out
}

fn decode<const N: usize, T>(bytes: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    bytes
        .chunks_exact(N)
        .map(|c| {
            let mut a = [0; N];
            a.copy_from_slice(c);
            f(a)
        })
        .collect()
}

/// The elements of type `t` in `bytes` (a whole number of them).
fn data(t: PrimType, bytes: &[u8]) -> ArrayData {
    match t {
        PrimType::I8 => ArrayData::I8(decode(bytes, i8::from_ne_bytes)),
        PrimType::I16 => ArrayData::I16(decode(bytes, i16::from_ne_bytes)),
        PrimType::I32 => ArrayData::I32(decode(bytes, i32::from_ne_bytes)),
        PrimType::I64 => ArrayData::I64(decode(bytes, i64::from_ne_bytes)),
        PrimType::U8 => ArrayData::U8(bytes.to_vec()),
        PrimType::U16 => ArrayData::U16(decode(bytes, u16::from_ne_bytes)),
        PrimType::U32 => ArrayData::U32(decode(bytes, u32::from_ne_bytes)),
        PrimType::U64 => ArrayData::U64(decode(bytes, u64::from_ne_bytes)),
        PrimType::F16 => ArrayData::F16(decode(bytes, u16::from_ne_bytes)),
        PrimType::F32 => ArrayData::F32(decode(bytes, f32::from_ne_bytes)),
        PrimType::F64 => ArrayData::F64(decode(bytes, f64::from_ne_bytes)),
        PrimType::Bool => ArrayData::Bool(bytes.iter().map(|&b| b != 0).collect()),
    }
}

/// The value of type `t` and shape `shape` (empty: a scalar) in `bytes`,
/// which must hold exactly its elements.
pub fn from_bytes(t: PrimType, shape: Vec<usize>, bytes: &[u8]) -> Result<Value, String> {
    let data = data(t, bytes);
    if shape.is_empty() {
        return match data.get(0) {
            Some(p) if bytes.len() == elem_size(t) => Ok(Value::Prim(p)),
            _ => Err(format!("a {t} needs {} bytes, {} given", elem_size(t), bytes.len())),
        };
    }
    let n = data.len();
    let elems_ok = n * elem_size(t) == bytes.len();
    let dims = shape.iter().map(|d| format!("[{d}]")).collect::<String>();
    match Array::new(shape, data) {
        Some(a) if elems_ok => Ok(Value::Array(a)),
        _ => Err(format!("{} bytes are not the elements of a {dims}{t}", bytes.len())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futmlir_values::parse_values;

    #[test]
    fn every_type_round_trips() {
        let text = "[1i8, -2i8] [3i16] [-4i32, 5i32] [[6i64], [7i64]] [8u8] [9u16] [10u32] [11u64] \
                    [1.5f16, -0.0f16] [2.25f32] [[3.5f64, f64.nan]] [true, false] empty([0][3]i32) \
                    -1i8 7u16 2.5f16 1.0f32 -3.0f64 true 4i64";
        for v in parse_values(text).unwrap() {
            let bytes = to_bytes(&v);
            let back = from_bytes(v.elem_type(), v.shape().to_vec(), &bytes).unwrap();
            // NaN != NaN: compare the printed forms.
            assert_eq!(back.to_string(), v.to_string());
        }
    }

    #[test]
    fn layout_and_errors() {
        let v = &parse_values("[[1i32, 2i32], [3i32, 4i32]]").unwrap()[0];
        let bytes = to_bytes(v);
        assert_eq!(&bytes[4..8], &2i32.to_ne_bytes());
        assert_eq!(to_bytes(&parse_values("[true, false]").unwrap()[0]), [1, 0]);
        assert_eq!(
            from_bytes(PrimType::Bool, vec![2], &[0, 7]).unwrap().to_string(),
            "[false, true]"
        );
        assert!(from_bytes(PrimType::I32, vec![3], &bytes).is_err());
        assert!(from_bytes(PrimType::I32, vec![], &[1, 2]).is_err());
        assert!(from_bytes(PrimType::I32, vec![1], &[1, 2, 3, 4, 5]).is_err());
        assert_eq!(
            from_bytes(PrimType::U8, vec![0, 3], &[]).unwrap().to_string(),
            "empty([0][3]u8)"
        );
    }
}
