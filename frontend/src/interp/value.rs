//! Runtime values of the interpreter.
//!
//! See Note [Value representation].

use std::fmt;
use std::rc::Rc;

use crate::syntax::ast::{Exp, Name, Pat, TypeParam, ValBind};
use crate::types::{PrimType, Size, Type};
use crate::values::{self, ArrayData, PrimValue};

use super::builtins::Builtin;
use super::dual::Dual;
use super::tape::Tracked;
use crate::values::scalar;

// Note [Value representation]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A `Value` is 16 bytes: a tag and one 8-byte word. A scalar is stored
// unboxed as its bits in that word (one variant per primitive type; see
// `Value::prim` and `Value::as_prim`); everything else is one
// reference-counted pointer, so copying a value never copies an array.
// Every variant holding exactly one pointer-sized field makes rustc pass a
// `Value` in two registers: values flow between the evaluator's functions
// without a round trip through memory, whose mixed-width stores (a tag byte,
// then a payload) would stall the wide reload on every hand-off (the
// difference is a third of the time of scalar code).
//
// An array is regular and stored flat in row-major order: a shape (every
// dimension) and one `Data` vector. Arrays whose elements are scalars use a
// typed vector (`Data::I32(Vec<i32>)`, ...). Arrays whose innermost elements
// are tuples, records, sum values or functions use `Data::Boxed(Vec<Value>)`,
// one value per innermost element (an array of tuples is an array of tuple
// values; a tuple may hold arrays). A sum value is its constructor's name
// and its payload, boxed as a tuple is (this interpreter is the reference:
// the tag-and-slots representation is the internaliser's business). Row `i` of an array is the slice `i*r..(i+1)*r` of
// the data, `r` the product of the other dimensions; taking a row of a
// multi-dimensional array copies it.
//
// An empty array built without knowing its element type (a `map` over an
// empty array reached through a partial application) is `Boxed` with no
// elements; every operation accepts such an array where a typed one is
// expected, and the entry point's result type fixes the type when it is
// printed. A non-empty array of scalars is never `Boxed`, except an array
// holding dual numbers (Note [Dual numbers] in dual.rs) or tracked numbers
// (Note [Reverse mode] in tape.rs): writing one into a typed array boxes
// it, and a boxed array then takes plain scalars too.
//
// In-place updates (`with`, `scatter`, ...) go through `Rc::make_mut`: the
// array is updated where it lies when the value holds the only reference,
// and copied first otherwise. The evaluator moves a variable out of its
// environment where the source program consumes it (see Note [Consumption]
// in eval.rs), so a unique array normally has a reference count of one.

pub type Sym<'a> = &'a str;

#[derive(Clone)]
pub enum Value<'a> {
    I8(u64),
    I16(u64),
    I32(u64),
    I64(u64),
    U8(u64),
    U16(u64),
    U32(u64),
    U64(u64),
    /// IEEE half-precision bits.
    F16(u64),
    F32(u64),
    F64(u64),
    /// 0 or 1.
    Bool(u64),
    Array(Rc<Array<'a>>),
    /// Tuples of two or more elements, and the unit `()`.
    Tuple(Rc<Vec<Value<'a>>>),
    /// Fields sorted by name.
    Record(Rc<Vec<(Sym<'a>, Value<'a>)>>),
    /// A value of a sum type: a constructor and its payload.
    Sum(Rc<SumValue<'a>>),
    Fun(Rc<Fun<'a>>),
    /// A number with a tangent, inside `jvp2` (Note [Dual numbers]).
    Dual(Rc<Dual<'a>>),
    /// A number on a tape, inside `vjp2` (Note [Reverse mode]).
    Tracked(Rc<Tracked<'a>>),
}

/// `#c v1 v2`: the constructor's name (from the checked tree) and its
/// payload.
pub struct SumValue<'a> {
    pub constr: Sym<'a>,
    pub payload: Vec<Value<'a>>,
}

impl<'a> Value<'a> {
    pub fn unit() -> Value<'a> {
        Value::Tuple(Rc::new(Vec::new()))
    }
    pub fn bool(b: bool) -> Value<'a> {
        Value::Bool(b as u64)
    }
    pub fn i64(v: i64) -> Value<'a> {
        Value::I64(v as u64)
    }
    /// A scalar value.
    #[inline(always)]
    pub fn prim(p: PrimValue) -> Value<'a> {
        match p {
            PrimValue::I8(x) => Value::I8(x as u64),
            PrimValue::I16(x) => Value::I16(x as u64),
            PrimValue::I32(x) => Value::I32(x as u64),
            PrimValue::I64(x) => Value::I64(x as u64),
            PrimValue::U8(x) => Value::U8(x as u64),
            PrimValue::U16(x) => Value::U16(x as u64),
            PrimValue::U32(x) => Value::U32(x as u64),
            PrimValue::U64(x) => Value::U64(x),
            PrimValue::F16(x) => Value::F16(x as u64),
            PrimValue::F32(x) => Value::F32(x.to_bits() as u64),
            PrimValue::F64(x) => Value::F64(x.to_bits()),
            PrimValue::Bool(x) => Value::Bool(x as u64),
        }
    }
    /// The scalar, if this is one.
    #[inline(always)]
    pub fn as_prim(&self) -> Option<PrimValue> {
        Some(match *self {
            Value::I8(b) => PrimValue::I8(b as i8),
            Value::I16(b) => PrimValue::I16(b as i16),
            Value::I32(b) => PrimValue::I32(b as i32),
            Value::I64(b) => PrimValue::I64(b as i64),
            Value::U8(b) => PrimValue::U8(b as u8),
            Value::U16(b) => PrimValue::U16(b as u16),
            Value::U32(b) => PrimValue::U32(b as u32),
            Value::U64(b) => PrimValue::U64(b),
            Value::F16(b) => PrimValue::F16(b as u16),
            Value::F32(b) => PrimValue::F32(f32::from_bits(b as u32)),
            Value::F64(b) => PrimValue::F64(f64::from_bits(b)),
            Value::Bool(b) => PrimValue::Bool(b != 0),
            _ => return None,
        })
    }
    pub fn array(a: Array<'a>) -> Value<'a> {
        Value::Array(Rc::new(a))
    }
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Array(_) => "an array",
            Value::Tuple(_) => "a tuple",
            Value::Record(_) => "a record",
            Value::Sum(_) => "a sum value",
            Value::Fun(_) => "a function",
            Value::Dual(_) => "a dual number",
            Value::Tracked(_) => "a tracked number",
            _ => "a scalar",
        }
    }
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.as_prim() {
            return write!(f, "{p:?}");
        }
        match self {
            Value::Array(a) => write!(f, "array{}", shape_str(&a.shape)),
            Value::Tuple(vs) => f.debug_list().entries(vs.iter()).finish(),
            Value::Record(fs) => f.debug_map().entries(fs.iter().map(|(n, v)| (n, v))).finish(),
            Value::Sum(s) => {
                write!(f, "#{}", s.constr)?;
                for v in &s.payload {
                    write!(f, " {v:?}")?;
                }
                Ok(())
            }
            Value::Dual(d) => write!(f, "dual{}({:?}, {:?})", d.tag, d.primal, d.tangent),
            Value::Tracked(t) => write!(f, "tracked{}({:?}, node {})", t.tag, t.primal, t.node),
            _ => write!(f, "<function>"),
        }
    }
}

/// `[3][4]`
pub fn shape_str(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

// ---------------------------------------------------------------------------
// Flat array storage.

#[derive(Clone)]
pub enum Data<'a> {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    /// IEEE half-precision bits.
    F16(Vec<u16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Bool(Vec<bool>),
    Boxed(Vec<Value<'a>>),
}

/// `$e` with `$v` bound to the vector of any variant.
macro_rules! for_data {
    ($d:expr; $v:ident => $e:expr) => {
        match $d {
            Data::I8($v) => $e,
            Data::I16($v) => $e,
            Data::I32($v) => $e,
            Data::I64($v) => $e,
            Data::U8($v) => $e,
            Data::U16($v) => $e,
            Data::U32($v) => $e,
            Data::U64($v) => $e,
            Data::F16($v) => $e,
            Data::F32($v) => $e,
            Data::F64($v) => $e,
            Data::Bool($v) => $e,
            Data::Boxed($v) => $e,
        }
    };
}

/// A `Data` of the same variant, its vector computed by `$e`.
macro_rules! map_data {
    ($d:expr; $v:ident => $e:expr) => {
        match $d {
            Data::I8($v) => Data::I8($e),
            Data::I16($v) => Data::I16($e),
            Data::I32($v) => Data::I32($e),
            Data::I64($v) => Data::I64($e),
            Data::U8($v) => Data::U8($e),
            Data::U16($v) => Data::U16($e),
            Data::U32($v) => Data::U32($e),
            Data::U64($v) => Data::U64($e),
            Data::F16($v) => Data::F16($e),
            Data::F32($v) => Data::F32($e),
            Data::F64($v) => Data::F64($e),
            Data::Bool($v) => Data::Bool($e),
            Data::Boxed($v) => Data::Boxed($e),
        }
    };
}

/// `$e` with `$x`, `$y` bound to the vectors of two `Data` of the same
/// variant; `$f` otherwise.
macro_rules! zip_data {
    ($a:expr, $b:expr; $x:ident, $y:ident => $e:expr; else $f:expr) => {
        match ($a, $b) {
            (Data::I8($x), Data::I8($y)) => $e,
            (Data::I16($x), Data::I16($y)) => $e,
            (Data::I32($x), Data::I32($y)) => $e,
            (Data::I64($x), Data::I64($y)) => $e,
            (Data::U8($x), Data::U8($y)) => $e,
            (Data::U16($x), Data::U16($y)) => $e,
            (Data::U32($x), Data::U32($y)) => $e,
            (Data::U64($x), Data::U64($y)) => $e,
            (Data::F16($x), Data::F16($y)) => $e,
            (Data::F32($x), Data::F32($y)) => $e,
            (Data::F64($x), Data::F64($y)) => $e,
            (Data::Bool($x), Data::Bool($y)) => $e,
            (Data::Boxed($x), Data::Boxed($y)) => $e,
            _ => $f,
        }
    };
}

impl<'a> Data<'a> {
    pub fn len(&self) -> usize {
        for_data!(self; v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An empty vector of scalars of type `t`.
    pub fn of_prim(t: PrimType, cap: usize) -> Data<'a> {
        match t {
            PrimType::I8 => Data::I8(Vec::with_capacity(cap)),
            PrimType::I16 => Data::I16(Vec::with_capacity(cap)),
            PrimType::I32 => Data::I32(Vec::with_capacity(cap)),
            PrimType::I64 => Data::I64(Vec::with_capacity(cap)),
            PrimType::U8 => Data::U8(Vec::with_capacity(cap)),
            PrimType::U16 => Data::U16(Vec::with_capacity(cap)),
            PrimType::U32 => Data::U32(Vec::with_capacity(cap)),
            PrimType::U64 => Data::U64(Vec::with_capacity(cap)),
            PrimType::F16 => Data::F16(Vec::with_capacity(cap)),
            PrimType::F32 => Data::F32(Vec::with_capacity(cap)),
            PrimType::F64 => Data::F64(Vec::with_capacity(cap)),
            PrimType::Bool => Data::Bool(Vec::with_capacity(cap)),
        }
    }

    /// `n` copies of a scalar.
    pub fn splat(p: PrimValue, n: usize) -> Data<'a> {
        match p {
            PrimValue::I8(x) => Data::I8(vec![x; n]),
            PrimValue::I16(x) => Data::I16(vec![x; n]),
            PrimValue::I32(x) => Data::I32(vec![x; n]),
            PrimValue::I64(x) => Data::I64(vec![x; n]),
            PrimValue::U8(x) => Data::U8(vec![x; n]),
            PrimValue::U16(x) => Data::U16(vec![x; n]),
            PrimValue::U32(x) => Data::U32(vec![x; n]),
            PrimValue::U64(x) => Data::U64(vec![x; n]),
            PrimValue::F16(x) => Data::F16(vec![x; n]),
            PrimValue::F32(x) => Data::F32(vec![x; n]),
            PrimValue::F64(x) => Data::F64(vec![x; n]),
            PrimValue::Bool(x) => Data::Bool(vec![x; n]),
        }
    }

    /// Element `i` (`i < len`).
    #[inline]
    pub fn get(&self, i: usize) -> Value<'a> {
        match self {
            Data::I8(v) => Value::prim(PrimValue::I8(v[i])),
            Data::I16(v) => Value::prim(PrimValue::I16(v[i])),
            Data::I32(v) => Value::prim(PrimValue::I32(v[i])),
            Data::I64(v) => Value::prim(PrimValue::I64(v[i])),
            Data::U8(v) => Value::prim(PrimValue::U8(v[i])),
            Data::U16(v) => Value::prim(PrimValue::U16(v[i])),
            Data::U32(v) => Value::prim(PrimValue::U32(v[i])),
            Data::U64(v) => Value::prim(PrimValue::U64(v[i])),
            Data::F16(v) => Value::prim(PrimValue::F16(v[i])),
            Data::F32(v) => Value::prim(PrimValue::F32(v[i])),
            Data::F64(v) => Value::prim(PrimValue::F64(v[i])),
            Data::Bool(v) => Value::prim(PrimValue::Bool(v[i])),
            Data::Boxed(v) => v[i].clone(),
        }
    }

    /// Element `i` of a scalar array (`i < len`).
    #[inline]
    pub fn get_prim(&self, i: usize) -> Option<PrimValue> {
        self.get(i).as_prim()
    }

    /// Overwrite element `i` (`i < len`); false if the value does not fit.
    #[inline]
    pub fn set(&mut self, i: usize, x: Value<'a>) -> bool {
        if let Some(p) = x.as_prim() {
            if self.set_prim(i, p) {
                return true;
            }
        }
        if super::ad::is_ad(&x) {
            self.box_scalars();
        }
        match (self, x) {
            (_, Value::Array(_)) => false,
            (Data::Boxed(v), x) => {
                v[i] = x;
                true
            }
            _ => false,
        }
    }

    #[inline]
    fn set_prim(&mut self, i: usize, p: PrimValue) -> bool {
        match (self, p) {
            (Data::I8(v), PrimValue::I8(x)) => v[i] = x,
            (Data::I16(v), PrimValue::I16(x)) => v[i] = x,
            (Data::I32(v), PrimValue::I32(x)) => v[i] = x,
            (Data::I64(v), PrimValue::I64(x)) => v[i] = x,
            (Data::U8(v), PrimValue::U8(x)) => v[i] = x,
            (Data::U16(v), PrimValue::U16(x)) => v[i] = x,
            (Data::U32(v), PrimValue::U32(x)) => v[i] = x,
            (Data::U64(v), PrimValue::U64(x)) => v[i] = x,
            (Data::F16(v), PrimValue::F16(x)) => v[i] = x,
            (Data::F32(v), PrimValue::F32(x)) => v[i] = x,
            (Data::F64(v), PrimValue::F64(x)) => v[i] = x,
            (Data::Bool(v), PrimValue::Bool(x)) => v[i] = x,
            _ => return false,
        }
        true
    }

    /// Append a scalar; false if it does not fit.
    #[inline(always)]
    pub fn push_prim(&mut self, p: PrimValue) -> bool {
        match (self, p) {
            (Data::I8(v), PrimValue::I8(x)) => v.push(x),
            (Data::I16(v), PrimValue::I16(x)) => v.push(x),
            (Data::I32(v), PrimValue::I32(x)) => v.push(x),
            (Data::I64(v), PrimValue::I64(x)) => v.push(x),
            (Data::U8(v), PrimValue::U8(x)) => v.push(x),
            (Data::U16(v), PrimValue::U16(x)) => v.push(x),
            (Data::U32(v), PrimValue::U32(x)) => v.push(x),
            (Data::U64(v), PrimValue::U64(x)) => v.push(x),
            (Data::F16(v), PrimValue::F16(x)) => v.push(x),
            (Data::F32(v), PrimValue::F32(x)) => v.push(x),
            (Data::F64(v), PrimValue::F64(x)) => v.push(x),
            (Data::Bool(v), PrimValue::Bool(x)) => v.push(x),
            _ => return false,
        }
        true
    }

    /// A typed vector as a `Boxed` one, to hold dual or tracked numbers
    /// (Note [Dual numbers], Note [Reverse mode]).
    pub fn box_scalars(&mut self) {
        if !matches!(self, Data::Boxed(_)) {
            *self = Data::Boxed((0..self.len()).map(|i| self.get(i)).collect());
        }
    }

    /// Whether one of the vectors is `Boxed` and the other typed: then both
    /// hold scalars, some of them dual numbers (a non-empty boxed vector
    /// of plain scalars exists only beside those).
    fn mixed(&self, src: &Data<'a>) -> bool {
        matches!(self, Data::Boxed(_)) != matches!(src, Data::Boxed(_))
    }

    /// Elements `lo..hi` as a new vector.
    pub fn slice(&self, lo: usize, hi: usize) -> Data<'a> {
        map_data!(self; v => v[lo..hi].to_vec())
    }

    /// An empty vector of the same variant.
    pub fn empty_like(&self, cap: usize) -> Data<'a> {
        map_data!(self; _v => Vec::with_capacity(cap))
    }

    /// Append `src[lo..hi]`; false if the variants differ (an empty `Boxed`
    /// vector adopts the variant of `src`).
    pub fn extend_from(&mut self, src: &Data<'a>, lo: usize, hi: usize) -> bool {
        if lo == hi {
            return true;
        }
        if let Data::Boxed(v) = self {
            if v.is_empty() && !matches!(src, Data::Boxed(_)) {
                *self = src.empty_like(hi - lo);
            }
        }
        if self.mixed(src) {
            self.box_scalars();
            if let Data::Boxed(v) = self {
                v.extend((lo..hi).map(|i| src.get(i)));
            }
            return true;
        }
        zip_data!(self, src; d, s => { d.extend_from_slice(&s[lo..hi]); true }; else false)
    }

    /// Overwrite `self[dst..dst+n]` with `src[src_lo..src_lo+n]`; false if
    /// the variants differ.
    pub fn write(&mut self, dst: usize, src: &Data<'a>, src_lo: usize, n: usize) -> bool {
        if n == 0 {
            return true;
        }
        if self.mixed(src) {
            self.box_scalars();
            if let Data::Boxed(v) = self {
                for k in 0..n {
                    v[dst + k] = src.get(src_lo + k);
                }
            }
            return true;
        }
        zip_data!(self, src; d, s => { d[dst..dst + n].clone_from_slice(&s[src_lo..src_lo + n]); true }; else false)
    }

    /// The elements at the given positions, each followed by the `block - 1`
    /// elements after it.
    pub fn gather(&self, starts: &[usize], block: usize) -> Data<'a> {
        map_data!(self; v => {
            let mut out = Vec::with_capacity(starts.len() * block);
            for &s in starts {
                out.extend_from_slice(&v[s..s + block]);
            }
            out
        })
    }
}

/// A regular array: `shape.iter().product() == data.len()`, rank ≥ 1.
#[derive(Clone)]
pub struct Array<'a> {
    pub shape: Vec<usize>,
    pub data: Data<'a>,
}

impl<'a> Array<'a> {
    pub fn new(shape: Vec<usize>, data: Data<'a>) -> Array<'a> {
        Array { shape, data }
    }

    /// The length of the outer dimension.
    #[inline]
    pub fn outer(&self) -> usize {
        self.shape.first().copied().unwrap_or(0)
    }

    /// The number of elements in one row.
    #[inline]
    pub fn row_len(&self) -> usize {
        self.shape.iter().skip(1).product()
    }

    /// Row `i` (`i < outer`): an element, or a copied sub-array.
    #[inline]
    pub fn row(&self, i: usize) -> Value<'a> {
        if self.shape.len() <= 1 {
            return self.data.get(i);
        }
        let r = self.row_len();
        Value::array(Array::new(
            self.shape[1..].to_vec(),
            self.data.slice(i * r, (i + 1) * r),
        ))
    }

    /// Overwrite row `i` (`i < outer`) with a value of the row's shape.
    pub fn set_row(&mut self, i: usize, v: Value<'a>) -> Result<(), String> {
        let row = self.shape.get(1..).unwrap_or(&[]).to_vec();
        self.set_block(i * self.row_len(), &row, v)
    }

    /// Overwrite the elements from flat position `at` with `v`, which must
    /// have shape `shape` (a scalar when `shape` is empty).
    pub fn set_block(&mut self, at: usize, shape: &[usize], v: Value<'a>) -> Result<(), String> {
        if shape.is_empty() {
            if let Value::Array(a) = &v {
                return Err(format!(
                    "cannot store an array of shape {} as an element",
                    shape_str(&a.shape)
                ));
            }
            return if self.data.set(at, v) {
                Ok(())
            } else {
                Err("internal error: element of the wrong type".into())
            };
        }
        let Value::Array(a) = v else {
            return Err(format!(
                "expected an array of shape {}, got {}",
                shape_str(shape),
                v.kind()
            ));
        };
        if a.shape != shape {
            return Err(format!(
                "value of shape {} does not fit the size of the destination {}",
                shape_str(&a.shape),
                shape_str(shape)
            ));
        }
        if self.data.write(at, &a.data, 0, a.data.len()) {
            Ok(())
        } else {
            Err("internal error: array of the wrong element type".into())
        }
    }

    /// The rows at the given indices (each `< outer`), as a new array.
    pub fn take_rows(&self, rows: &[usize]) -> Array<'a> {
        let r = self.row_len();
        let starts: Vec<usize> = rows.iter().map(|&i| i * r).collect();
        let mut shape = self.shape.clone();
        shape[0] = rows.len();
        Array::new(shape, self.data.gather(&starts, r))
    }
}

/// Collects rows (scalars, arrays of one shape, or other values) into an
/// array; see Note [Value representation].
pub struct Builder<'a> {
    data: Option<Data<'a>>,
    row: Vec<usize>,
    n: usize,
    cap: usize,
}

impl<'a> Builder<'a> {
    pub fn new(cap: usize) -> Builder<'a> {
        Builder {
            data: None,
            row: Vec::new(),
            n: 0,
            cap,
        }
    }

    #[inline]
    pub fn push(&mut self, v: Value<'a>) -> Result<(), String> {
        if let (Some(p), Some(d)) = (v.as_prim(), &mut self.data) {
            if d.push_prim(p) {
                self.n += 1;
                return Ok(());
            }
        }
        self.push_slow(v)
    }

    fn push_slow(&mut self, v: Value<'a>) -> Result<(), String> {
        if let Some(p) = v.as_prim() {
            return self.push_prim_slow(p);
        }
        match v {
            Value::Array(a) => match &mut self.data {
                Some(d) => {
                    if a.shape != self.row {
                        return Err(format!(
                            "array rows differ in size: {} and {}",
                            shape_str(&self.row),
                            shape_str(&a.shape)
                        ));
                    }
                    if !d.extend_from(&a.data, 0, a.data.len()) {
                        return Err("internal error: array elements of different types".into());
                    }
                }
                None => {
                    self.row = a.shape.clone();
                    // Reserve at most 2^28 elements up front (the vector grows
                    // as needed beyond).
                    let mut d = a.data.empty_like(self.cap.saturating_mul(a.data.len()).min(1 << 28));
                    d.extend_from(&a.data, 0, a.data.len());
                    self.data = Some(d);
                }
            },
            v => match &mut self.data {
                Some(Data::Boxed(d)) if self.row.is_empty() => d.push(v),
                Some(d) if self.row.is_empty() && super::ad::is_ad(&v) => {
                    d.box_scalars();
                    if let Data::Boxed(d) = d {
                        d.push(v);
                    }
                }
                Some(_) => return Err("internal error: array elements of different types".into()),
                None => {
                    let mut d = Vec::with_capacity(self.cap);
                    d.push(v);
                    self.data = Some(Data::Boxed(d));
                }
            },
        }
        self.n += 1;
        Ok(())
    }

    fn push_prim_slow(&mut self, p: PrimValue) -> Result<(), String> {
        match &mut self.data {
            Some(Data::Boxed(d)) if self.row.is_empty() && !d.is_empty() => d.push(Value::prim(p)),
            Some(d) => {
                if !d.push_prim(p) {
                    return Err("internal error: array elements of different types".into());
                }
            }
            None => {
                let mut d = Data::of_prim(p.prim_type(), self.cap);
                d.push_prim(p);
                self.data = Some(d);
            }
        }
        self.n += 1;
        Ok(())
    }

    /// The array, or `None` when nothing was pushed (the caller knows the
    /// element type, if anyone does).
    pub fn finish(self) -> Option<Array<'a>> {
        let data = self.data?;
        let mut shape = Vec::with_capacity(self.row.len() + 1);
        shape.push(self.n);
        shape.extend_from_slice(&self.row);
        Some(Array::new(shape, data))
    }
}

// ---------------------------------------------------------------------------
// Functions.

pub enum Fun<'a> {
    /// A lambda or a local function (`let f x = ...`), with the variables of
    /// its defining scope.
    Closure(Closure<'a>),
    /// A top-level function.
    Global(&'a ValBind),
    Builtin(Builtin),
    /// A function applied to fewer arguments than it takes.
    Partial(Rc<Fun<'a>>, Vec<Value<'a>>),
    /// `(op v)`: `\x -> op x v`.
    RightSection(Rc<Fun<'a>>, Value<'a>),
    /// `(.a.b)`
    Project(&'a [Name]),
}

pub struct Closure<'a> {
    pub type_params: &'a [TypeParam],
    pub params: &'a [Pat],
    pub body: &'a Exp,
    pub env: Option<Rc<Captured<'a>>>,
}

/// The values of a closure's free variables (see free.rs).
pub struct Captured<'a> {
    pub vars: Vec<(Sym<'a>, Option<Value<'a>>)>,
}

impl<'a> Fun<'a> {
    pub fn arity(&self) -> usize {
        match self {
            Fun::Closure(c) => c.params.len(),
            Fun::Global(vb) => vb.params.len(),
            Fun::Builtin(b) => b.arity(),
            Fun::Partial(f, args) => f.arity().saturating_sub(args.len()),
            Fun::RightSection(..) | Fun::Project(_) => 1,
        }
    }
}

// ---------------------------------------------------------------------------
// Equality.

impl PartialEq for Value<'_> {
    fn eq(&self, other: &Self) -> bool {
        value_eq(self, other) == Some(true)
    }
}

/// Structural equality (IEEE on floats); `None` when functions are compared.
pub fn value_eq<'a>(a: &Value<'a>, b: &Value<'a>) -> Option<bool> {
    if let (Some(x), Some(y)) = (a.as_prim(), b.as_prim()) {
        return Some(scalar::prim_eq(x, y));
    }
    if super::ad::is_ad(a) || super::ad::is_ad(b) {
        let (x, y) = (super::ad::bottom(a)?, super::ad::bottom(b)?);
        return Some(scalar::prim_eq(x, y));
    }
    Some(match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            if x.shape != y.shape {
                return Some(false);
            }
            if x.data.is_empty() && y.data.is_empty() {
                return Some(true);
            }
            match (&x.data, &y.data) {
                (Data::F16(p), Data::F16(q)) => p
                    .iter()
                    .zip(q)
                    .all(|(u, v)| scalar::prim_eq(PrimValue::F16(*u), PrimValue::F16(*v))),
                (Data::Boxed(p), Data::Boxed(q)) => {
                    for (u, v) in p.iter().zip(q) {
                        if !value_eq(u, v)? {
                            return Some(false);
                        }
                    }
                    true
                }
                (p, q) => zip_data!(p, q; u, v => u == v; else false),
            }
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for (u, v) in x.iter().zip(y.iter()) {
                if !value_eq(u, v)? {
                    return Some(false);
                }
            }
            true
        }
        (Value::Record(x), Value::Record(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            for ((n, u), (m, v)) in x.iter().zip(y.iter()) {
                if n != m || !value_eq(u, v)? {
                    return Some(false);
                }
            }
            true
        }
        (Value::Sum(x), Value::Sum(y)) => {
            if x.constr != y.constr || x.payload.len() != y.payload.len() {
                return Some(false);
            }
            for (u, v) in x.payload.iter().zip(&y.payload) {
                if !value_eq(u, v)? {
                    return Some(false);
                }
            }
            true
        }
        (Value::Fun(_), _) | (_, Value::Fun(_)) => return None,
        _ => false,
    })
}

// ---------------------------------------------------------------------------
// External values.

pub fn from_external<'a>(v: values::Value) -> Value<'a> {
    match v {
        values::Value::Prim(p) => Value::prim(p),
        values::Value::Array(a) => {
            let data = match a.data {
                ArrayData::I8(v) => Data::I8(v),
                ArrayData::I16(v) => Data::I16(v),
                ArrayData::I32(v) => Data::I32(v),
                ArrayData::I64(v) => Data::I64(v),
                ArrayData::U8(v) => Data::U8(v),
                ArrayData::U16(v) => Data::U16(v),
                ArrayData::U32(v) => Data::U32(v),
                ArrayData::U64(v) => Data::U64(v),
                ArrayData::F16(v) => Data::F16(v),
                ArrayData::F32(v) => Data::F32(v),
                ArrayData::F64(v) => Data::F64(v),
                ArrayData::Bool(v) => Data::Bool(v),
            };
            let shape = if a.shape.is_empty() { vec![data.len()] } else { a.shape };
            Value::array(Array::new(shape, data))
        }
    }
}

/// The scalar type and rank of an external value.
pub fn external_type(v: &values::Value) -> (PrimType, Vec<usize>) {
    match v {
        values::Value::Prim(p) => (p.prim_type(), Vec::new()),
        values::Value::Array(a) => {
            let t = match &a.data {
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
            };
            (t, a.shape.clone())
        }
    }
}

/// Convert a result back to an external value, guided by its type; `Err`
/// when the value is not a scalar or an array of scalars.
pub fn to_external(v: &Value<'_>, ty: &Type) -> Result<values::Value, ()> {
    if let Some(p) = v.as_prim() {
        return Ok(values::Value::Prim(p));
    }
    match v {
        Value::Array(a) => {
            let data = match &a.data {
                Data::I8(v) => ArrayData::I8(v.clone()),
                Data::I16(v) => ArrayData::I16(v.clone()),
                Data::I32(v) => ArrayData::I32(v.clone()),
                Data::I64(v) => ArrayData::I64(v.clone()),
                Data::U8(v) => ArrayData::U8(v.clone()),
                Data::U16(v) => ArrayData::U16(v.clone()),
                Data::U32(v) => ArrayData::U32(v.clone()),
                Data::U64(v) => ArrayData::U64(v.clone()),
                Data::F16(v) => ArrayData::F16(v.clone()),
                Data::F32(v) => ArrayData::F32(v.clone()),
                Data::F64(v) => ArrayData::F64(v.clone()),
                Data::Bool(v) => ArrayData::Bool(v.clone()),
                Data::Boxed(v) => {
                    // Only an empty array of unknown element type; the type
                    // says what it is.
                    let Type::Array { elem, shape, .. } = ty else {
                        return Err(());
                    };
                    let (Some(t), true) = (elem.prim(), v.is_empty()) else {
                        return Err(());
                    };
                    let mut dims = a.shape.clone();
                    for d in shape.iter().skip(dims.len()) {
                        dims.push(match d {
                            Size::Const(k) => (*k).max(0) as usize,
                            _ => 0,
                        });
                    }
                    return Ok(values::Value::Array(values::Array {
                        shape: dims,
                        data: empty_external(t),
                    }));
                }
            };
            Ok(values::Value::Array(values::Array {
                shape: a.shape.clone(),
                data,
            }))
        }
        _ => Err(()),
    }
}

fn empty_external(t: PrimType) -> ArrayData {
    match t {
        PrimType::I8 => ArrayData::I8(Vec::new()),
        PrimType::I16 => ArrayData::I16(Vec::new()),
        PrimType::I32 => ArrayData::I32(Vec::new()),
        PrimType::I64 => ArrayData::I64(Vec::new()),
        PrimType::U8 => ArrayData::U8(Vec::new()),
        PrimType::U16 => ArrayData::U16(Vec::new()),
        PrimType::U32 => ArrayData::U32(Vec::new()),
        PrimType::U64 => ArrayData::U64(Vec::new()),
        PrimType::F16 => ArrayData::F16(Vec::new()),
        PrimType::F32 => ArrayData::F32(Vec::new()),
        PrimType::F64 => ArrayData::F64(Vec::new()),
        PrimType::Bool => ArrayData::Bool(Vec::new()),
    }
}

/// A value as `trace` reports it: Futhark's value syntax for scalars and
/// arrays, `(a, b)` for tuples, `{a = x}` for records, `#<fun>` for
/// functions. `ty` is the value's type when known (it gives the element
/// type of an empty array).
pub fn trace_text(v: &Value<'_>, ty: Option<&Type>) -> String {
    if let Some(p) = v.as_prim() {
        return p.to_string();
    }
    let part = |i: usize| match ty {
        Some(Type::Tuple(ts)) => ts.get(i),
        _ => None,
    };
    match v {
        Value::Array(a) => {
            if let Ok(x) = to_external(v, ty.unwrap_or(&Type::unit())) {
                return x.to_string();
            }
            // An array of tuples or records: element by element.
            let row = ty.and_then(Type::row);
            let rows: Vec<String> = (0..a.outer()).map(|i| trace_text(&a.row(i), row.as_ref())).collect();
            format!("[{}]", rows.join(", "))
        }
        Value::Tuple(vs) => {
            let parts: Vec<String> = vs.iter().enumerate().map(|(i, x)| trace_text(x, part(i))).collect();
            format!("({})", parts.join(", "))
        }
        Value::Record(fs) => {
            let field_ty = |n: &str| match ty {
                Some(Type::Record(fts)) => fts.iter().find(|(m, _)| &**m == n).map(|(_, t)| t),
                _ => None,
            };
            let parts: Vec<String> = fs
                .iter()
                .map(|(n, x)| format!("{n} = {}", trace_text(x, field_ty(n))))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        _ => "#<fun>".to_string(),
    }
}

/// A value of an opaque type (a record, a sum, an array of either, a
/// tuple inside an array) as `futhark run` prints it: `#some 3i32`,
/// `{x = 1i32, y = 2.0f64}`, `[#none, #some 1i32]`, `(1i32, true)`; a
/// payload that is a sum value is parenthesised (`#some (#none)`).
/// `None` for a function.
pub fn pretty(v: &Value<'_>, ty: &Type) -> Option<String> {
    let mut out = String::new();
    pretty_into(v, ty, false, &mut out)?;
    Some(out)
}

fn pretty_into(v: &Value<'_>, ty: &Type, nested: bool, out: &mut String) -> Option<()> {
    if let Some(p) = v.as_prim() {
        out.push_str(&values::Value::Prim(p).to_string());
        return Some(());
    }
    match v {
        Value::Array(a) => {
            if let Ok(x) = to_external(v, ty) {
                out.push_str(&x.to_string());
                return Some(());
            }
            let (Type::Array { elem, .. }, Data::Boxed(xs)) = (ty, &a.data) else {
                return None;
            };
            if xs.is_empty() {
                let e = match &**elem {
                    Type::Sum(_) => format!("({elem})"),
                    _ => elem.to_string(),
                };
                out.push_str(&format!("empty({}{e})", shape_str(&a.shape)));
                return Some(());
            }
            pretty_rows(xs, &a.shape, elem, out)
        }
        Value::Tuple(vs) => {
            let Type::Tuple(ts) = ty else { return None };
            out.push('(');
            for (i, (x, t)) in vs.iter().zip(ts).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                pretty_into(x, t, false, out)?;
            }
            out.push(')');
            Some(())
        }
        Value::Record(fs) => {
            let Type::Record(ts) = ty else { return None };
            out.push('{');
            for (i, ((n, x), (_, t))) in fs.iter().zip(ts).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(n);
                out.push_str(" = ");
                pretty_into(x, t, false, out)?;
            }
            out.push('}');
            Some(())
        }
        Value::Sum(s) => {
            let Type::Sum(cs) = ty else { return None };
            let (_, ts) = cs.iter().find(|(c, _)| **c == *s.constr)?;
            if nested {
                out.push('(');
            }
            out.push('#');
            out.push_str(s.constr);
            for (x, t) in s.payload.iter().zip(ts) {
                out.push(' ');
                pretty_into(x, t, true, out)?;
            }
            if nested {
                out.push(')');
            }
            Some(())
        }
        _ => None,
    }
}

/// The rows of a boxed array of shape `shape`, row-major: `[[a, b], [c, d]]`.
fn pretty_rows(xs: &[Value<'_>], shape: &[usize], elem: &Type, out: &mut String) -> Option<()> {
    let (&n, inner) = shape.split_first()?;
    let r: usize = inner.iter().product();
    out.push('[');
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        if inner.is_empty() {
            pretty_into(xs.get(i)?, elem, false, out)?;
        } else {
            pretty_rows(xs.get(i * r..(i + 1) * r)?, inner, elem, out)?;
        }
    }
    out.push(']');
    Some(())
}
