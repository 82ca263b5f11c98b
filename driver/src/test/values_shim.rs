//! PLACEHOLDER, to be deleted when `futmlir_frontend::values` lands: a
//! minimal stand-in with the names and shapes of the real value library
//! (`parse_values`, `read_values`, `compare_values`/`Mismatch`, `generate`),
//! just enough for the test runner and its unit tests. Only
//! `FrontendValues` in `test.rs` calls it.

use std::fmt;

use futmlir_frontend::types::PrimType;
use futmlir_frontend::values::{Array, ArrayData, PrimValue, Value};

#[derive(Debug)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(s: impl Into<String>) -> Result<T, ValueError> {
    Err(ValueError(s.into()))
}

pub fn parse_values(text: &str) -> Result<Vec<Value>, ValueError> {
    read_values(text.as_bytes())
}

/// Text values and binary values (`b`, 2, rank, type, dims, data), mixed.
pub fn read_values(bytes: &[u8]) -> Result<Vec<Value>, ValueError> {
    let mut r = Reader { b: bytes, pos: 0 };
    let mut out = Vec::new();
    loop {
        r.skip_ws();
        if r.pos >= r.b.len() {
            return Ok(out);
        }
        if r.b[r.pos] == b'b' && r.b.get(r.pos + 1) == Some(&2) {
            out.push(r.binary()?);
        } else {
            let (t, elems, shape) = r.text()?;
            out.push(make(t, elems, shape));
        }
    }
}

fn prim_type(v: PrimValue) -> PrimType {
    match v {
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

/// A number of type `t` from an f64 (for text literals and generation).
fn prim_from(t: PrimType, x: f64) -> PrimValue {
    match t {
        PrimType::I8 => PrimValue::I8(x as i8),
        PrimType::I16 => PrimValue::I16(x as i16),
        PrimType::I32 => PrimValue::I32(x as i32),
        PrimType::I64 => PrimValue::I64(x as i64),
        PrimType::U8 => PrimValue::U8(x as u8),
        PrimType::U16 => PrimValue::U16(x as u16),
        PrimType::U32 => PrimValue::U32(x as u32),
        PrimType::U64 => PrimValue::U64(x as u64),
        PrimType::F16 => PrimValue::F16(0),
        PrimType::F32 => PrimValue::F32(x as f32),
        PrimType::F64 => PrimValue::F64(x),
        PrimType::Bool => PrimValue::Bool(x != 0.0),
    }
}

fn make(t: PrimType, elems: Vec<PrimValue>, shape: Vec<usize>) -> Value {
    if shape.is_empty() {
        return Value::Prim(elems[0]);
    }
    macro_rules! collect {
        ($ctor:ident) => {
            ArrayData::$ctor(
                elems
                    .iter()
                    .map(|e| match e {
                        PrimValue::$ctor(x) => *x,
                        _ => unreachable!(),
                    })
                    .collect(),
            )
        };
    }
    let data = match t {
        PrimType::I8 => collect!(I8),
        PrimType::I16 => collect!(I16),
        PrimType::I32 => collect!(I32),
        PrimType::I64 => collect!(I64),
        PrimType::U8 => collect!(U8),
        PrimType::U16 => collect!(U16),
        PrimType::U32 => collect!(U32),
        PrimType::U64 => collect!(U64),
        PrimType::F16 => collect!(F16),
        PrimType::F32 => collect!(F32),
        PrimType::F64 => collect!(F64),
        PrimType::Bool => collect!(Bool),
    };
    Value::Array(Array { shape, data })
}

fn elements(a: &Array) -> Vec<PrimValue> {
    match &a.data {
        ArrayData::I8(v) => v.iter().map(|x| PrimValue::I8(*x)).collect(),
        ArrayData::I16(v) => v.iter().map(|x| PrimValue::I16(*x)).collect(),
        ArrayData::I32(v) => v.iter().map(|x| PrimValue::I32(*x)).collect(),
        ArrayData::I64(v) => v.iter().map(|x| PrimValue::I64(*x)).collect(),
        ArrayData::U8(v) => v.iter().map(|x| PrimValue::U8(*x)).collect(),
        ArrayData::U16(v) => v.iter().map(|x| PrimValue::U16(*x)).collect(),
        ArrayData::U32(v) => v.iter().map(|x| PrimValue::U32(*x)).collect(),
        ArrayData::U64(v) => v.iter().map(|x| PrimValue::U64(*x)).collect(),
        ArrayData::F16(v) => v.iter().map(|x| PrimValue::F16(*x)).collect(),
        ArrayData::F32(v) => v.iter().map(|x| PrimValue::F32(*x)).collect(),
        ArrayData::F64(v) => v.iter().map(|x| PrimValue::F64(*x)).collect(),
        ArrayData::Bool(v) => v.iter().map(|x| PrimValue::Bool(*x)).collect(),
    }
}

fn elem_type(a: &Array) -> PrimType {
    match &a.data {
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

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        while self.pos < self.b.len() && (self.b[self.pos].is_ascii_whitespace() || self.b[self.pos] == b',') {
            self.pos += 1;
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], ValueError> {
        if self.pos + n > self.b.len() {
            return err("binary value: unexpected end of input");
        }
        self.pos += n;
        Ok(&self.b[self.pos - n..self.pos])
    }

    fn binary(&mut self) -> Result<Value, ValueError> {
        self.pos += 2;
        let rank = self.take(1)?[0] as usize;
        let name = String::from_utf8_lossy(self.take(4)?).trim().to_string();
        let Some(t) = PrimType::from_name(&name) else {
            return err(format!("binary value: unknown type `{name}`"));
        };
        let mut shape = Vec::new();
        for _ in 0..rank {
            shape.push(u64::from_le_bytes(self.take(8)?.try_into().unwrap()) as usize);
        }
        let n: usize = shape.iter().product();
        let w = (t.bits() / 8) as usize;
        let mut elems = Vec::with_capacity(n);
        for _ in 0..n {
            let b = self.take(w)?;
            let mut x = [0u8; 8];
            x[..w].copy_from_slice(b);
            let u = u64::from_le_bytes(x);
            elems.push(match t {
                PrimType::I8 => PrimValue::I8(u as i8),
                PrimType::I16 => PrimValue::I16(u as i16),
                PrimType::I32 => PrimValue::I32(u as i32),
                PrimType::I64 => PrimValue::I64(u as i64),
                PrimType::U8 => PrimValue::U8(u as u8),
                PrimType::U16 => PrimValue::U16(u as u16),
                PrimType::U32 => PrimValue::U32(u as u32),
                PrimType::U64 => PrimValue::U64(u),
                PrimType::F16 => PrimValue::F16(u as u16),
                PrimType::F32 => PrimValue::F32(f32::from_bits(u as u32)),
                PrimType::F64 => PrimValue::F64(f64::from_bits(u)),
                PrimType::Bool => PrimValue::Bool(u != 0),
            });
        }
        if shape.is_empty() {
            return Ok(Value::Prim(elems[0]));
        }
        Ok(make(t, elems, shape))
    }

    /// One text value: its element type, elements, and shape.
    fn text(&mut self) -> Result<(PrimType, Vec<PrimValue>, Vec<usize>), ValueError> {
        self.skip_ws();
        if self.b[self.pos..].starts_with(b"[") {
            self.pos += 1;
            let mut rows = Vec::new();
            loop {
                self.skip_ws();
                if self.b[self.pos..].starts_with(b"]") {
                    self.pos += 1;
                    break;
                }
                if self.pos >= self.b.len() {
                    return err("unclosed `[`");
                }
                rows.push(self.text()?);
            }
            let Some((t, _, inner)) = rows.first().cloned() else {
                return err("empty array literal");
            };
            let mut elems = Vec::new();
            for (rt, re, rs) in rows.iter() {
                if *rt != t || *rs != inner {
                    return err("irregular array");
                }
                elems.extend(re.iter().copied());
            }
            let mut shape = vec![rows.len()];
            shape.extend(inner);
            return Ok((t, elems, shape));
        }
        let start = self.pos;
        while self.pos < self.b.len() && !b" \t\r\n,[]".contains(&self.b[self.pos]) {
            self.pos += 1;
        }
        let word = std::str::from_utf8(&self.b[start..self.pos]).map_err(|_| ValueError("bad text".into()))?;
        match word {
            "true" => return Ok((PrimType::Bool, vec![PrimValue::Bool(true)], vec![])),
            "false" => return Ok((PrimType::Bool, vec![PrimValue::Bool(false)], vec![])),
            _ => {}
        }
        let split = word.find(['i', 'u', 'f']).unwrap_or(word.len());
        let (num, suffix) = word.split_at(split);
        let t = match suffix {
            "" if num.contains('.') => PrimType::F64,
            "" => PrimType::I32,
            s => PrimType::from_name(s).ok_or_else(|| ValueError(format!("bad value `{word}`")))?,
        };
        let x: f64 = num.parse().map_err(|_| ValueError(format!("bad value `{word}`")))?;
        Ok((t, vec![prim_from(t, x)], vec![]))
    }
}

fn show(v: PrimValue) -> String {
    match v {
        PrimValue::I8(x) => format!("{x}i8"),
        PrimValue::I16(x) => format!("{x}i16"),
        PrimValue::I32(x) => format!("{x}i32"),
        PrimValue::I64(x) => format!("{x}i64"),
        PrimValue::U8(x) => format!("{x}u8"),
        PrimValue::U16(x) => format!("{x}u16"),
        PrimValue::U32(x) => format!("{x}u32"),
        PrimValue::U64(x) => format!("{x}u64"),
        PrimValue::F16(x) => format!("f16 bits {x}"),
        PrimValue::F32(x) => format!("{x}f32"),
        PrimValue::F64(x) => format!("{x}f64"),
        PrimValue::Bool(x) => format!("{x}"),
    }
}

#[derive(Debug)]
pub struct Mismatch(String);

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn close(a: PrimValue, b: PrimValue) -> bool {
    let near = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-3 * x.abs().max(y.abs());
    match (a, b) {
        (PrimValue::F32(x), PrimValue::F32(y)) => near(x as f64, y as f64),
        (PrimValue::F64(x), PrimValue::F64(y)) => near(x, y),
        _ => a == b,
    }
}

pub fn compare_values(expected: &[Value], actual: &[Value]) -> Result<(), Mismatch> {
    if expected.len() != actual.len() {
        return Err(Mismatch(format!(
            "expected {} values, got {}",
            expected.len(),
            actual.len()
        )));
    }
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        match (e, a) {
            (Value::Prim(x), Value::Prim(y)) if prim_type(*x) == prim_type(*y) => {
                if !close(*x, *y) {
                    return Err(Mismatch(format!("value {i}: expected {}, got {}", show(*x), show(*y))));
                }
            }
            (Value::Array(x), Value::Array(y)) if elem_type(x) == elem_type(y) && x.shape == y.shape => {
                for (j, (p, q)) in elements(x).into_iter().zip(elements(y)).enumerate() {
                    if !close(p, q) {
                        let mut idx = Vec::new();
                        let mut rest = j;
                        for d in x.shape.iter().rev() {
                            idx.push(rest % d);
                            rest /= d;
                        }
                        idx.reverse();
                        let idx: Vec<String> = idx.iter().map(|k| k.to_string()).collect();
                        return Err(Mismatch(format!(
                            "value {i} at [{}]: expected {}, got {}",
                            idx.join(", "),
                            show(p),
                            show(q)
                        )));
                    }
                }
            }
            _ => return Err(Mismatch(format!("value {i}: expected {e:?}, got {a:?}"))),
        }
    }
    Ok(())
}

/// xorshift64*.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[derive(Default)]
pub struct Bounds;

/// `[100][2]f32`: ints in [0, 100), floats in [0, 1).
pub fn generate(spec: &str, rng: &mut Rng, _bounds: &Bounds) -> Result<Value, ValueError> {
    let mut shape = Vec::new();
    let mut rest = spec;
    while let Some(r) = rest.strip_prefix('[') {
        let close = r.find(']').ok_or_else(|| ValueError(format!("bad spec `{spec}`")))?;
        shape.push(
            r[..close]
                .parse()
                .map_err(|_| ValueError(format!("bad spec `{spec}`")))?,
        );
        rest = &r[close + 1..];
    }
    let t = PrimType::from_name(rest).ok_or_else(|| ValueError(format!("bad spec `{spec}`")))?;
    let n: usize = shape.iter().product();
    let elems = (0..n)
        .map(|_| {
            let u = rng.next();
            if t.is_float() {
                prim_from(t, (u >> 11) as f64 / (1u64 << 53) as f64)
            } else {
                prim_from(t, (u % 100) as f64)
            }
        })
        .collect();
    Ok(make(t, elems, shape))
}
