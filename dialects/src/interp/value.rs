//! Run-time values: scalars, and regular arrays of scalars kept flat
//! (row-major) with their shape, shared by reference counting. An array
//! is copied when it is written while shared (see Note [In-place updates]
//! in `eval`).

use std::rc::Rc;

use futmlir_values::{Array, ArrayData, PrimType, PrimValue, Value};

#[derive(Clone, Debug)]
pub enum Val {
    Prim(PrimValue),
    Arr(Rc<Array>),
}

/// Applies `$body` to the vector inside an [`ArrayData`]; it gives a new
/// vector, wrapped in the variant of `$data`.
macro_rules! each_map {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            ArrayData::I8($v) => ArrayData::I8($body),
            ArrayData::I16($v) => ArrayData::I16($body),
            ArrayData::I32($v) => ArrayData::I32($body),
            ArrayData::I64($v) => ArrayData::I64($body),
            ArrayData::U8($v) => ArrayData::U8($body),
            ArrayData::U16($v) => ArrayData::U16($body),
            ArrayData::U32($v) => ArrayData::U32($body),
            ArrayData::U64($v) => ArrayData::U64($body),
            ArrayData::F16($v) => ArrayData::F16($body),
            ArrayData::F32($v) => ArrayData::F32($body),
            ArrayData::F64($v) => ArrayData::F64($body),
            ArrayData::Bool($v) => ArrayData::Bool($body),
        }
    };
}

/// Applies `$body` to the vectors of two [`ArrayData`]s of one element
/// type; `$other` when the types differ.
macro_rules! pair {
    ($a:expr, $b:expr, $x:ident, $y:ident => $body:expr, $other:expr) => {
        match ($a, $b) {
            (ArrayData::I8($x), ArrayData::I8($y)) => $body,
            (ArrayData::I16($x), ArrayData::I16($y)) => $body,
            (ArrayData::I32($x), ArrayData::I32($y)) => $body,
            (ArrayData::I64($x), ArrayData::I64($y)) => $body,
            (ArrayData::U8($x), ArrayData::U8($y)) => $body,
            (ArrayData::U16($x), ArrayData::U16($y)) => $body,
            (ArrayData::U32($x), ArrayData::U32($y)) => $body,
            (ArrayData::U64($x), ArrayData::U64($y)) => $body,
            (ArrayData::F16($x), ArrayData::F16($y)) => $body,
            (ArrayData::F32($x), ArrayData::F32($y)) => $body,
            (ArrayData::F64($x), ArrayData::F64($y)) => $body,
            (ArrayData::Bool($x), ArrayData::Bool($y)) => $body,
            _ => $other,
        }
    };
}

pub type VResult<T> = Result<T, String>;

/// The number of elements of a shape (`None` on overflow).
pub fn elements(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// `[2][3]i32`
pub fn shape_text(shape: &[usize], t: PrimType) -> String {
    let mut s: String = shape.iter().map(|d| format!("[{d}]")).collect();
    s.push_str(t.name());
    s
}

/// Room for `n` elements of type `t`; an error instead of an abort when
/// the allocation fails.
pub fn data_with_capacity(t: PrimType, n: usize) -> VResult<ArrayData> {
    ArrayData::try_with_capacity(t, n).map_err(|_| format!("cannot allocate an array of {n} elements"))
}

/// Appends `src[lo..hi]` to `dst`.
pub fn extend_range(dst: &mut ArrayData, src: &ArrayData, lo: usize, hi: usize) -> VResult<()> {
    pair!(dst, src, d, s => {
        let part = s.get(lo..hi).ok_or("internal error: a range out of the array")?;
        d.extend_from_slice(part);
        Ok(())
    }, Err("arrays of different element types".into()))
}

/// Overwrites `dst[at..at + src.len()]` with `src`.
pub fn write_range(dst: &mut ArrayData, at: usize, src: &ArrayData) -> VResult<()> {
    pair!(dst, src, d, s => {
        let end = at.checked_add(s.len()).ok_or("index overflow")?;
        let part = d.get_mut(at..end).ok_or("internal error: a write out of the array")?;
        part.copy_from_slice(s);
        Ok(())
    }, Err("a write of another element type".into()))
}

/// Sets element `i`.
pub fn set_elem(dst: &mut ArrayData, i: usize, p: PrimValue) -> VResult<()> {
    let ok = match (dst, p) {
        (ArrayData::I8(v), PrimValue::I8(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::I16(v), PrimValue::I16(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::I32(v), PrimValue::I32(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::I64(v), PrimValue::I64(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::U8(v), PrimValue::U8(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::U16(v), PrimValue::U16(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::U32(v), PrimValue::U32(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::U64(v), PrimValue::U64(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::F16(v), PrimValue::F16(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::F32(v), PrimValue::F32(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::F64(v), PrimValue::F64(x)) => v.get_mut(i).map(|e| *e = x),
        (ArrayData::Bool(v), PrimValue::Bool(x)) => v.get_mut(i).map(|e| *e = x),
        (d, p) => {
            return Err(format!(
                "a write of a {} into an array of {}",
                p.prim_type().name(),
                d.elem_type().name()
            ))
        }
    };
    ok.ok_or_else(|| "internal error: a write out of the array".to_string())
}

/// The elements at the given flat indices, in order.
pub fn gather(src: &ArrayData, idx: &[usize]) -> VResult<ArrayData> {
    let n = src.len();
    if idx.iter().any(|&i| i >= n) {
        return Err("internal error: a gather out of the array".into());
    }
    Ok(each_map!(src, v => idx.iter().map(|&i| v[i]).collect()))
}

/// `n` copies of the elements of `src`, one after another.
pub fn repeat(src: &ArrayData, n: usize) -> VResult<ArrayData> {
    let total = src.len().checked_mul(n).ok_or("an array too large")?;
    let mut d = data_with_capacity(src.elem_type(), total)?;
    for _ in 0..n {
        extend_range(&mut d, src, 0, src.len())?;
    }
    Ok(d)
}

/// A one-element array holding `p`.
pub fn single(p: PrimValue) -> ArrayData {
    let mut d = ArrayData::with_capacity(p.prim_type(), 1);
    d.push(p);
    d
}

impl Val {
    pub fn shape(&self) -> &[usize] {
        match self {
            Val::Prim(_) => &[],
            Val::Arr(a) => &a.shape,
        }
    }

    pub fn elem_type(&self) -> PrimType {
        match self {
            Val::Prim(p) => p.prim_type(),
            Val::Arr(a) => a.data.elem_type(),
        }
    }

    /// `[3]f32`, `i64`.
    pub fn type_text(&self) -> String {
        shape_text(self.shape(), self.elem_type())
    }

    pub fn from_external(v: Value) -> Val {
        match v {
            Value::Prim(p) => Val::Prim(p),
            Value::Array(a) => Val::Arr(Rc::new(a)),
        }
    }

    pub fn into_external(self) -> Value {
        match self {
            Val::Prim(p) => Value::Prim(p),
            Val::Arr(a) => Value::Array(Rc::try_unwrap(a).unwrap_or_else(|a| (*a).clone())),
        }
    }

    /// Appends the elements to `dst`.
    pub fn append_to(&self, dst: &mut ArrayData) -> VResult<()> {
        match self {
            Val::Prim(p) => {
                if dst.push(*p) {
                    Ok(())
                } else {
                    Err(format!(
                        "a {} where a {} is expected",
                        p.prim_type().name(),
                        dst.elem_type().name()
                    ))
                }
            }
            Val::Arr(a) => extend_range(dst, &a.data, 0, a.data.len()),
        }
    }
}

/// An array value.
pub fn array(shape: Vec<usize>, data: ArrayData) -> VResult<Val> {
    match Array::new(shape, data) {
        Some(a) => Ok(Val::Arr(Rc::new(a))),
        None => Err("internal error: an array whose shape does not fit its elements".into()),
    }
}

/// The elements of a row of an array: its number of elements.
pub fn row_len(a: &Array) -> usize {
    elements(a.shape.get(1..).unwrap_or(&[])).unwrap_or(0)
}

/// Row `i` of an array (a scalar for a one-dimensional array).
pub fn row(a: &Array, i: usize) -> VResult<Val> {
    let n = a.shape.first().copied().unwrap_or(0);
    if i >= n {
        return Err(format!("index {i} out of bounds for an array of {n} rows"));
    }
    if a.shape.len() == 1 {
        return a
            .data
            .get(i)
            .map(Val::Prim)
            .ok_or_else(|| "internal error: a row out of the array".to_string());
    }
    let w = row_len(a);
    let mut d = data_with_capacity(a.data.elem_type(), w)?;
    extend_range(&mut d, &a.data, i * w, (i + 1) * w)?;
    array(a.shape[1..].to_vec(), d)
}

/// Stacks rows into an array, checking that they have one shape.
pub struct Stack {
    data: ArrayData,
    row_shape: Option<Vec<usize>>,
    rows: usize,
}

impl Stack {
    pub fn new(t: PrimType, cap: usize) -> Stack {
        Stack {
            data: ArrayData::try_with_capacity(t, cap).unwrap_or_else(|_| ArrayData::new(t)),
            row_shape: None,
            rows: 0,
        }
    }

    pub fn push(&mut self, v: &Val) -> VResult<()> {
        match &self.row_shape {
            Some(s) if s.as_slice() != v.shape() => {
                return Err(format!(
                    "rows of different shapes: {} and {}",
                    shape_text(s, self.data.elem_type()),
                    v.type_text()
                ))
            }
            Some(_) => {}
            None => self.row_shape = Some(v.shape().to_vec()),
        }
        v.append_to(&mut self.data)?;
        self.rows += 1;
        Ok(())
    }

    /// The array of the rows pushed; `empty_row` is the row shape when
    /// there are none.
    pub fn finish(self, empty_row: Vec<usize>) -> VResult<Val> {
        let mut shape = vec![self.rows];
        shape.extend(self.row_shape.unwrap_or(empty_row));
        array(shape, self.data)
    }
}
