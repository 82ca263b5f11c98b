//! Futhark's text value format.
//!
//! Reading: scalars `1i32`, `-3i8`, `255u8`, `0x1Fi32`, `0b101u8`, `1.5f32`,
//! `2f64`, `1e3f32`, `true`, `f32.nan`, `-f64.inf`, with `_` allowed between
//! digits. An integer without a suffix is an `i32`, a number with a `.` or an
//! exponent and no suffix an `f64`. Hexadecimal and binary literals give the
//! bit pattern, so `0xFFi8` is `-1i8`; a decimal literal, or a hexadecimal
//! one with a `-`, must fit its type as a number.
//! Arrays `[1, 2, 3]` (elements of one type and, nested, one shape) and
//! `empty([0]i32)`, `empty([2][0]f32)` (at least one dimension zero).
//! Whitespace and `--` line comments separate values.
//!
//! Printing is what `futhark run` prints (its values go through Haskell's
//! `show`): integers and booleans as `1i32`, `-3i64`, `255u8`, `true`;
//! arrays `[1i32, 2i32]`, nested `[[1i32], [2i32]]`, and, when any dimension
//! is zero, `empty([0][3]i32)`.
//!
//! Floats (the rule of Haskell's `show` for `Float`/`Double`): take the
//! shortest decimal digits `d1 d2 ... dn` that read back as the same value,
//! with `x = 0.d1...dn * 10^e`. If `0 <= e <= 7`, that is
//! `0.1 <= |x| < 10^7`, print positional notation with at least one digit on
//! each side of the point (`0.1`, `1.0`, `3.25`, `1234567.0`); otherwise
//! print `d1.d2...dn` (`d1.0` for one digit) followed by `e` and the
//! exponent `e - 1` (`1.0e-2`, `1.0e7`, `1.5e-45`). Zero is `0.0`, negative
//! zero `-0.0`. Then the suffix: `3.25f32`, `1.0e10f64`. Non-finite values
//! are `f32.nan`, `f32.inf`, `-f32.inf`. An `f16` is widened to `f32` and
//! printed with the shortest `f32` digits, as Futhark does (`0.1f16` prints
//! `9.9975586e-2f16`). Rust's shortest digits (`{:e}`) pick, like Haskell's,
//! the candidate closest to the exact value.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use super::{binary, f16, Array, ArrayData, PrimValue, Value, ValueError};
use crate::PrimType;

/// Reads the values of a text-format input.
pub fn parse_values(text: &str) -> Result<Vec<Value>, ValueError> {
    read_all(text.as_bytes(), false)
}

/// Reads values until the end of `input`; with `binary`, a value starting
/// with `b` is in the binary format.
pub(crate) fn read_all(input: &[u8], binary: bool) -> Result<Vec<Value>, ValueError> {
    match read_until_error(input, binary) {
        (values, None) => Ok(values),
        (_, Some(e)) => Err(e),
    }
}

/// Like [`read_all`], but returns the values read before the first error
/// along with it.
pub(crate) fn read_until_error(input: &[u8], binary: bool) -> (Vec<Value>, Option<ValueError>) {
    let mut p = Parser {
        input,
        pos: 0,
        unsuffixed: false,
    };
    let mut values = Vec::new();
    loop {
        p.skip_space();
        let value = match p.peek() {
            None => return (values, None),
            Some(b'b') if binary => binary::read_binary_value(input, &mut p.pos),
            Some(_) => p.value(0),
        };
        match value {
            Ok(v) => values.push(v),
            Err(e) => return (values, Some(e)),
        }
    }
}

/// Arrays nested deeper than this are refused (the parser recurses).
const MAX_DEPTH: usize = 200;

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
    /// Whether the last value read had no type suffix anywhere (`1`,
    /// `[1, 2]`): its type is only the default, and an array whose other
    /// elements have a suffix gives it theirs (`[0x93u8, 0xb8]`).
    unsuffixed: bool,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

impl<'a> Parser<'a> {
    fn err(&self, at: usize, message: impl Into<String>) -> ValueError {
        ValueError::at(self.input, at, message)
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.input.get(self.pos + k).copied()
    }

    fn rest(&self) -> &'a [u8] {
        &self.input[self.pos..]
    }

    /// A short quotation of the input at `at` for messages.
    fn found(&self, at: usize) -> String {
        match self.input.get(at..) {
            None | Some([]) => "end of input".to_string(),
            Some(rest) => {
                let sign = (rest[0] == b'-') as usize;
                let word = rest[sign..]
                    .iter()
                    .position(|&b| !is_word_byte(b))
                    .unwrap_or(rest.len() - sign);
                let end = (sign + word).clamp(1, 20);
                format!("`{}`", String::from_utf8_lossy(&rest[..end]))
            }
        }
    }

    fn skip_space(&mut self) {
        loop {
            match self.peek() {
                Some(b) if b.is_ascii_whitespace() => self.pos += 1,
                Some(b'-') if self.peek_at(1) == Some(b'-') => {
                    while let Some(b) = self.peek() {
                        if b == b'\n' {
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), ValueError> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(self.pos, format!("expected {what}, found {}", self.found(self.pos))))
        }
    }

    /// One value; the parser is at its first byte.
    fn value(&mut self, depth: usize) -> Result<Value, ValueError> {
        match self.peek() {
            Some(b'[') => self.array(depth),
            Some(b'e')
                if self.rest().starts_with(b"empty") && !self.rest().get(5).is_some_and(|&b| is_word_byte(b)) =>
            {
                self.unsuffixed = false;
                self.empty()
            }
            _ => Ok(Value::Prim(self.scalar()?)),
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, ValueError> {
        let open = self.pos;
        if depth >= MAX_DEPTH {
            return Err(self.err(open, format!("arrays nested more than {MAX_DEPTH} deep")));
        }
        self.pos += 1;
        self.skip_space();
        if self.peek() == Some(b']') {
            return Err(self.err(open, "empty array `[]` has no element type; write e.g. `empty([0]i32)`"));
        }
        // The first element fixes the element type and the inner shape.
        let mut inner: Vec<usize> = Vec::new();
        let mut data: Option<ArrayData> = None;
        let mut first_type = PrimType::Bool;
        let mut all_unsuffixed = true;
        let mut n = 0usize;
        loop {
            self.skip_space();
            let at = self.pos;
            if self.peek().is_none() {
                return Err(self.err(at, "unclosed `[`: expected a value, found end of input"));
            }
            let mut v = self.value(depth + 1)?;
            let mut t = v.elem_type();
            if data.is_some() && t != first_type {
                // An unsuffixed element takes the suffixed ones' type.
                if self.unsuffixed {
                    if let Some(w) = retype_unsuffixed(&v, first_type) {
                        v = w;
                        t = first_type;
                    }
                } else if all_unsuffixed {
                    let d = data.take().expect("checked above");
                    let shape: Vec<usize> = std::iter::once(n).chain(inner.iter().copied()).collect();
                    let before = Value::Array(Array { shape, data: d });
                    match retype_unsuffixed(&before, t) {
                        Some(Value::Array(a)) => {
                            data = Some(a.data);
                            first_type = t;
                        }
                        _ => {
                            let Value::Array(a) = before else {
                                unreachable!("built as an array")
                            };
                            data = Some(a.data);
                        }
                    }
                }
            }
            all_unsuffixed &= self.unsuffixed;
            match &mut data {
                None => {
                    first_type = t;
                    inner = v.shape().to_vec();
                    data = Some(match v {
                        Value::Prim(p) => {
                            let mut d = ArrayData::new(t);
                            d.push(p);
                            d
                        }
                        Value::Array(a) => a.data,
                    });
                }
                Some(d) => {
                    if v.rank() != inner.len() {
                        return Err(self.irregular(at, &inner, v.shape()));
                    }
                    if t != first_type {
                        return Err(self.err(at, format!("array elements have different types: {first_type} and {t}")));
                    }
                    if v.shape() != inner.as_slice() {
                        return Err(self.irregular(at, &inner, v.shape()));
                    }
                    match v {
                        Value::Prim(p) => d.push(p),
                        Value::Array(mut a) => d.append(&mut a.data),
                    };
                }
            }
            n += 1;
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(self.err(self.pos, format!("expected `,` or `]`, found {}", self.found(self.pos))));
                }
            }
        }
        self.unsuffixed = all_unsuffixed;
        let mut shape = Vec::with_capacity(inner.len() + 1);
        shape.push(n);
        shape.extend(inner);
        Ok(Value::Array(Array {
            shape,
            data: data.expect("an array literal has a first element"),
        }))
    }

    fn irregular(&self, at: usize, first: &[usize], this: &[usize]) -> ValueError {
        let show = |s: &[usize]| {
            if s.is_empty() {
                "a scalar".to_string()
            } else {
                s.iter().map(|d| format!("[{d}]")).collect()
            }
        };
        self.err(
            at,
            format!("irregular array: elements of shape {} and {}", show(first), show(this)),
        )
    }

    /// `empty([d1]...[dn]t)`.
    fn empty(&mut self) -> Result<Value, ValueError> {
        let start = self.pos;
        self.pos += "empty".len();
        self.expect(b'(', "`(` after `empty`")?;
        let mut shape = Vec::new();
        loop {
            self.skip_space();
            if self.peek() != Some(b'[') {
                break;
            }
            self.pos += 1;
            self.skip_space();
            let at = self.pos;
            let digits_end = self
                .rest()
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(self.rest().len());
            if digits_end == 0 {
                return Err(self.err(at, format!("expected a dimension, found {}", self.found(at))));
            }
            let text = std::str::from_utf8(&self.rest()[..digits_end]).expect("ASCII digits");
            let d: usize = text
                .parse()
                .map_err(|_| self.err(at, format!("dimension {text} is too large")))?;
            self.pos += digits_end;
            self.expect(b']', "`]`")?;
            shape.push(d);
        }
        if shape.is_empty() {
            return Err(self.err(
                self.pos,
                format!("expected `[` in `empty(...)`, found {}", self.found(self.pos)),
            ));
        }
        let at = self.pos;
        let word_end = self
            .rest()
            .iter()
            .position(|&b| !is_word_byte(b))
            .unwrap_or(self.rest().len());
        let word = String::from_utf8_lossy(&self.rest()[..word_end]).into_owned();
        let Some(t) = PrimType::from_name(&word) else {
            return Err(self.err(at, format!("expected an element type, found {}", self.found(at))));
        };
        self.pos += word_end;
        self.expect(b')', "`)`")?;
        if !shape.contains(&0) {
            let dims: String = shape.iter().map(|d| format!("[{d}]")).collect();
            return Err(self.err(
                start,
                format!("empty({dims}{t}) has no zero dimension; an empty array needs one"),
            ));
        }
        Ok(Value::Array(Array {
            shape,
            data: ArrayData::new(t),
        }))
    }

    fn scalar(&mut self) -> Result<PrimValue, ValueError> {
        let start = self.pos;
        let neg = self.peek() == Some(b'-');
        if neg {
            self.pos += 1;
        }
        self.unsuffixed = false;
        match self.peek() {
            Some(b) if b.is_ascii_alphabetic() => self.word(start, neg),
            Some(b) if b.is_ascii_digit() => self.number(start, neg),
            _ => Err(self.err(start, format!("expected a value, found {}", self.found(start)))),
        }
    }

    /// `true`, `false`, `f32.nan`, `f64.inf`, ... (after an optional `-`).
    fn word(&mut self, start: usize, neg: bool) -> Result<PrimValue, ValueError> {
        let end = self
            .rest()
            .iter()
            .position(|&b| !is_word_byte(b))
            .unwrap_or(self.rest().len());
        let word = &self.rest()[..end];
        let v = match word {
            b"true" if !neg => PrimValue::Bool(true),
            b"false" if !neg => PrimValue::Bool(false),
            b"f16.nan" => PrimValue::F16(f16::f32_to_f16(f32::NAN)),
            b"f32.nan" => PrimValue::F32(f32::NAN),
            b"f64.nan" => PrimValue::F64(f64::NAN),
            b"f16.inf" => PrimValue::F16(f16::f32_to_f16(if neg { f32::NEG_INFINITY } else { f32::INFINITY })),
            b"f32.inf" => PrimValue::F32(if neg { f32::NEG_INFINITY } else { f32::INFINITY }),
            b"f64.inf" => PrimValue::F64(if neg { f64::NEG_INFINITY } else { f64::INFINITY }),
            _ => return Err(self.err(start, format!("expected a value, found {}", self.found(start)))),
        };
        self.pos += end;
        Ok(v)
    }

    /// A numeric literal with an optional type suffix (after an optional
    /// `-`).
    fn number(&mut self, start: usize, neg: bool) -> Result<PrimValue, ValueError> {
        let radix = match (self.peek(), self.peek_at(1)) {
            (Some(b'0'), Some(b'x' | b'X')) => 16,
            (Some(b'0'), Some(b'b' | b'B')) => 2,
            _ => 10,
        };
        let mut fractional = false;
        if radix != 10 {
            self.pos += 2;
        }
        // The digits (with `_`, and for decimals `.` and an exponent) are
        // the contiguous bytes body_start..body_end.
        let body_start = self.pos;
        if radix != 10 {
            while self.peek().is_some_and(|b| b == b'_' || (b as char).is_digit(radix)) {
                self.pos += 1;
            }
        } else {
            self.decimal_digits();
            if self.peek() == Some(b'.') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
                fractional = true;
                self.pos += 1;
                self.decimal_digits();
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                let sign = matches!(self.peek_at(1), Some(b'+' | b'-')) as usize;
                if self.peek_at(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                    fractional = true;
                    self.pos += 1 + sign;
                    self.decimal_digits();
                }
            }
        }
        let body = std::str::from_utf8(&self.input[body_start..self.pos]).expect("ASCII digits");
        let digits: Cow<str> = if body.contains('_') {
            Cow::Owned(body.replace('_', ""))
        } else {
            Cow::Borrowed(body)
        };
        let suffix_at = self.pos;
        let suffix_len = self
            .rest()
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(self.rest().len());
        self.pos += suffix_len;
        let suffix = std::str::from_utf8(&self.input[suffix_at..self.pos]).expect("ASCII suffix");
        let end = self.pos;
        let literal = || String::from_utf8_lossy(&self.input[start..end]).into_owned();
        if digits.is_empty() {
            return Err(self.err(start, format!("literal `{}` has no digits", literal())));
        }
        if self.peek().is_some_and(is_word_byte) {
            return Err(self.err(end, format!("unexpected {} after {}", self.found(end), literal())));
        }
        self.unsuffixed = suffix.is_empty();
        let t = match suffix {
            "" if fractional => PrimType::F64,
            "" => PrimType::I32,
            _ => match PrimType::from_name(suffix) {
                Some(t) if t != PrimType::Bool => t,
                _ => {
                    return Err(self.err(suffix_at, format!("unknown type suffix `{suffix}` in {}", literal())));
                }
            },
        };
        if t.is_float() {
            if radix != 10 {
                return Err(self.err(start, format!("{}: a float literal must be decimal", literal())));
            }
            // Negation is exact, so parsing the magnitude rounds the same.
            let malformed = || self.err(start, format!("malformed float literal {}", literal()));
            return Ok(match t {
                PrimType::F32 => {
                    let x: f32 = digits.parse().map_err(|_| malformed())?;
                    PrimValue::F32(if neg { -x } else { x })
                }
                _ => {
                    let x: f64 = digits.parse().map_err(|_| malformed())?;
                    let x = if neg { -x } else { x };
                    if t == PrimType::F16 {
                        PrimValue::F16(f16::f64_to_f16(x))
                    } else {
                        PrimValue::F64(x)
                    }
                }
            });
        }
        if fractional {
            return Err(self.err(
                start,
                format!("{}: an integer type for a fractional literal", literal()),
            ));
        }
        let too_big = || self.err(start, format!("{} does not fit in {t}", literal()));
        let mag = u128::from_str_radix(&digits, radix).map_err(|_| too_big())?;
        let bits = t.bits();
        // A literal without a `-` is a bit pattern, up to 2^bits - 1 for
        // every integer type (`0xFFi8` and `255i8` are `-1i8`, as Futhark
        // reads them); one with a `-` must fit as a number, except that an
        // unsigned one wraps (`-1u16` is 65535, as Futhark's value reader
        // and the diku-dk sorts' tests have it).
        let v: i128 = if neg && !t.is_signed() {
            if mag >> bits != 0 {
                return Err(too_big());
            }
            ((1i128 << bits) - mag as i128) & ((1i128 << bits) - 1)
        } else if !neg && (radix != 10 || !suffix.is_empty()) {
            if mag >> bits != 0 {
                return Err(too_big());
            }
            let m = mag as i128;
            if t.is_signed() && m >> (bits - 1) != 0 {
                m - (1i128 << bits)
            } else {
                m
            }
        } else {
            let m = i128::try_from(mag).map_err(|_| too_big())?;
            let v = if neg { -m } else { m };
            let (lo, hi) = int_range(t);
            if v < lo || v > hi {
                return Err(too_big());
            }
            v
        };
        Ok(int_value(t, v))
    }

    fn decimal_digits(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_digit() || b == b'_') {
            self.pos += 1;
        }
    }
}

/// `v`, read without type suffixes (so of type `i32` or `f64`), as a
/// value of element type `t`: an integer literal may be of any numeric
/// type it fits, a fractional one of any float type. `None` when it
/// cannot.
fn retype_unsuffixed(v: &Value, t: PrimType) -> Option<Value> {
    let retype = |p: PrimValue| -> Option<PrimValue> {
        match p {
            PrimValue::I32(x) if t.is_float() => Some(float_value(t, x as f64)),
            PrimValue::I32(x) => {
                let (lo, hi) = int_range(t);
                (lo..=hi).contains(&(x as i128)).then(|| int_value(t, x as i128))
            }
            PrimValue::F64(x) if t.is_float() => Some(float_value(t, x)),
            _ => None,
        }
    };
    match v {
        Value::Prim(p) => retype(*p).map(Value::Prim),
        Value::Array(a) => {
            let mut data = ArrayData::with_capacity(t, a.data.len());
            for i in 0..a.data.len() {
                data.push(retype(a.data.get(i)?)?);
            }
            Some(Value::Array(Array {
                shape: a.shape.clone(),
                data,
            }))
        }
    }
}

fn float_value(t: PrimType, x: f64) -> PrimValue {
    match t {
        PrimType::F16 => PrimValue::F16(f16::f64_to_f16(x)),
        PrimType::F32 => PrimValue::F32(x as f32),
        _ => PrimValue::F64(x),
    }
}

/// The inclusive range of an integer type.
pub(crate) fn int_range(t: PrimType) -> (i128, i128) {
    if t.is_signed() {
        (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1)
    } else {
        (0, (1i128 << t.bits()) - 1)
    }
}

/// `v` (in the range of the integer type `t`) as a value of `t`.
pub(crate) fn int_value(t: PrimType, v: i128) -> PrimValue {
    match t {
        PrimType::I8 => PrimValue::I8(v as i8),
        PrimType::I16 => PrimValue::I16(v as i16),
        PrimType::I32 => PrimValue::I32(v as i32),
        PrimType::I64 => PrimValue::I64(v as i64),
        PrimType::U8 => PrimValue::U8(v as u8),
        PrimType::U16 => PrimValue::U16(v as u16),
        PrimType::U32 => PrimValue::U32(v as u32),
        PrimType::U64 => PrimValue::U64(v as u64),
        _ => unreachable!("int_value of {t}"),
    }
}

/// Haskell's `show` layout of shortest digits `digits` (no point, no
/// leading zero) for `0.digits * 10^e`.
fn layout(neg: bool, digits: &str, e: i32) -> String {
    let mut s = String::with_capacity(digits.len() + 8);
    if neg {
        s.push('-');
    }
    if (0..=7).contains(&e) {
        let e = e as usize;
        if e == 0 {
            s.push_str("0.");
            s.push_str(digits);
        } else if digits.len() <= e {
            s.push_str(digits);
            s.extend(std::iter::repeat_n('0', e - digits.len()));
            s.push_str(".0");
        } else {
            s.push_str(&digits[..e]);
            s.push('.');
            s.push_str(&digits[e..]);
        }
    } else {
        s.push_str(&digits[..1]);
        s.push('.');
        s.push_str(if digits.len() > 1 { &digits[1..] } else { "0" });
        let _ = write!(s, "e{}", e - 1);
    }
    s
}

/// Splits Rust's shortest `{:e}` form of a positive finite number
/// (`1.2345e-7`) into its digits and Haskell's exponent.
fn shortest(sci: &str) -> (String, i32) {
    let (mant, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let digits: String = mant.chars().filter(|&c| c != '.').collect();
    (digits, exp.parse::<i32>().expect("`{:e}` exponent") + 1)
}

/// `x` as Futhark prints an `f32`, without the suffix (`0.1`, `1.0e-2`).
/// Not for NaN or infinities.
pub fn format_f32(x: f32) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let (digits, e) = shortest(&format!("{:e}", x.abs()));
    layout(x < 0.0, &digits, e)
}

/// `x` as Futhark prints an `f64`, without the suffix.
pub fn format_f64(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    let (digits, e) = shortest(&format!("{:e}", x.abs()));
    layout(x < 0.0, &digits, e)
}

fn write_float(f: &mut fmt::Formatter<'_>, x: f64, body: String, t: &str) -> fmt::Result {
    if x.is_nan() {
        write!(f, "{t}.nan")
    } else if x.is_infinite() {
        write!(f, "{}{t}.inf", if x < 0.0 { "-" } else { "" })
    } else {
        write!(f, "{body}{t}")
    }
}

impl fmt::Display for PrimValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PrimValue::I8(x) => write!(f, "{x}i8"),
            PrimValue::I16(x) => write!(f, "{x}i16"),
            PrimValue::I32(x) => write!(f, "{x}i32"),
            PrimValue::I64(x) => write!(f, "{x}i64"),
            PrimValue::U8(x) => write!(f, "{x}u8"),
            PrimValue::U16(x) => write!(f, "{x}u16"),
            PrimValue::U32(x) => write!(f, "{x}u32"),
            PrimValue::U64(x) => write!(f, "{x}u64"),
            PrimValue::Bool(x) => write!(f, "{x}"),
            PrimValue::F16(h) => {
                let x = f16::f16_to_f32(h);
                let body = if x.is_finite() { format_f32(x) } else { String::new() };
                write_float(f, x as f64, body, "f16")
            }
            PrimValue::F32(x) => {
                let body = if x.is_finite() { format_f32(x) } else { String::new() };
                write_float(f, x as f64, body, "f32")
            }
            PrimValue::F64(x) => {
                let body = if x.is_finite() { format_f64(x) } else { String::new() };
                write_float(f, x, body, "f64")
            }
        }
    }
}

/// Prints the elements `data[offset..]` of the sub-array of shape `shape`.
fn write_nested(f: &mut fmt::Formatter<'_>, shape: &[usize], data: &ArrayData, offset: usize) -> fmt::Result {
    let Some((&n, inner)) = shape.split_first() else {
        return match data.get(offset) {
            Some(x) => write!(f, "{x}"),
            None => f.write_str("<missing element>"),
        };
    };
    let Some(stride) = inner.iter().try_fold(1usize, |n, &d| n.checked_mul(d)) else {
        return f.write_str("<malformed array>");
    };
    f.write_char('[')?;
    for i in 0..n {
        if i > 0 {
            f.write_str(", ")?;
        }
        if inner.is_empty() {
            // The common innermost case, without the recursion.
            match data.get(offset + i) {
                Some(x) => write!(f, "{x}")?,
                None => f.write_str("<missing element>")?,
            }
        } else {
            write_nested(f, inner, data, offset + i * stride)?;
        }
    }
    f.write_char(']')
}

impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.shape.contains(&0) {
            f.write_str("empty(")?;
            for d in &self.shape {
                write!(f, "[{d}]")?;
            }
            return write!(f, "{})", self.elem_type());
        }
        write_nested(f, &self.shape, &self.data, 0)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Prim(p) => write!(f, "{p}"),
            Value::Array(a) => write!(f, "{a}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(s: &str) -> Value {
        let vs = parse_values(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(vs.len(), 1, "{s}");
        vs.into_iter().next().unwrap()
    }

    fn prim(s: &str) -> PrimValue {
        match one(s) {
            Value::Prim(p) => p,
            v => panic!("{s}: not a scalar: {v:?}"),
        }
    }

    fn err(s: &str) -> ValueError {
        match parse_values(s) {
            Ok(v) => panic!("{s}: expected an error, got {v:?}"),
            Err(e) => e,
        }
    }

    fn round_trip(s: &str) {
        let v = one(s);
        assert_eq!(v.to_string(), s, "printing {v:?}");
        let again = one(&v.to_string());
        assert_eq!(format!("{again:?}"), format!("{v:?}"), "{s}");
    }

    #[test]
    fn integers_with_suffixes() {
        assert_eq!(prim("1i32"), PrimValue::I32(1));
        assert_eq!(prim("-3i8"), PrimValue::I8(-3));
        assert_eq!(prim("255u8"), PrimValue::U8(255));
        assert_eq!(prim("-128i8"), PrimValue::I8(-128));
        assert_eq!(prim("127i8"), PrimValue::I8(127));
        assert_eq!(prim("65535u16"), PrimValue::U16(65535));
        assert_eq!(prim("-32768i16"), PrimValue::I16(-32768));
        assert_eq!(prim("4294967295u32"), PrimValue::U32(u32::MAX));
        assert_eq!(prim("-9223372036854775808i64"), PrimValue::I64(i64::MIN));
        assert_eq!(prim("18446744073709551615u64"), PrimValue::U64(u64::MAX));
        assert_eq!(prim("1_000_000i64"), PrimValue::I64(1_000_000));
        assert_eq!(prim("0x1Fi32"), PrimValue::I32(31));
        assert_eq!(prim("0xffu8"), PrimValue::U8(255));
        assert_eq!(prim("0xFFi8"), PrimValue::I8(-1));
        assert_eq!(prim("0x8000_0000i32"), PrimValue::I32(i32::MIN));
        assert_eq!(prim("0b101u8"), PrimValue::U8(5));
        assert_eq!(prim("-0x10i32"), PrimValue::I32(-16));
        // No suffix: i32.
        assert_eq!(prim("42"), PrimValue::I32(42));
        assert_eq!(prim("-7"), PrimValue::I32(-7));
        assert_eq!(prim("0x10"), PrimValue::I32(16));
    }

    #[test]
    fn floats_and_bools() {
        assert_eq!(prim("1.5f32"), PrimValue::F32(1.5));
        assert_eq!(prim("2f64"), PrimValue::F64(2.0));
        assert_eq!(prim("1e3f32"), PrimValue::F32(1000.0));
        assert_eq!(prim("1E-2f64"), PrimValue::F64(0.01));
        assert_eq!(prim("2.5e+2f32"), PrimValue::F32(250.0));
        assert_eq!(prim("-0.5f64"), PrimValue::F64(-0.5));
        assert_eq!(prim("3i64"), PrimValue::I64(3));
        assert_eq!(prim("1.5"), PrimValue::F64(1.5));
        assert_eq!(prim("1e3"), PrimValue::F64(1000.0));
        assert_eq!(prim("1_000.25f64"), PrimValue::F64(1000.25));
        assert_eq!(prim("0.1f16"), PrimValue::F16(0x2e66));
        assert_eq!(prim("1f16"), PrimValue::F16(0x3c00));
        assert_eq!(prim("true"), PrimValue::Bool(true));
        assert_eq!(prim("false"), PrimValue::Bool(false));
        assert_eq!(prim("f32.inf"), PrimValue::F32(f32::INFINITY));
        assert_eq!(prim("-f32.inf"), PrimValue::F32(f32::NEG_INFINITY));
        assert_eq!(prim("f64.inf"), PrimValue::F64(f64::INFINITY));
        assert_eq!(prim("-f16.inf"), PrimValue::F16(0xfc00));
        assert!(matches!(prim("f32.nan"), PrimValue::F32(x) if x.is_nan()));
        assert!(matches!(prim("f64.nan"), PrimValue::F64(x) if x.is_nan()));
        assert!(matches!(prim("f16.nan"), PrimValue::F16(x) if f16::is_nan(x)));
        // f32 literals round once, from the decimal.
        assert_eq!(prim("16777217f32"), PrimValue::F32(16777216.0));
        assert_eq!(prim("0.1f32"), PrimValue::F32(0.1));
    }

    #[test]
    fn arrays() {
        let v = one("[1, 2, 3]");
        assert_eq!(
            v,
            Value::Array(Array {
                shape: vec![3],
                data: ArrayData::I32(vec![1, 2, 3])
            })
        );
        let v = one("[[1f32, 2f32], [3f32, 4f32], [5f32, 6f32]]");
        assert_eq!(v.shape(), &[3, 2]);
        assert_eq!(v.elem_type(), PrimType::F32);
        assert_eq!(v.get_flat(3), Some(PrimValue::F32(4.0)));
        let v = one(" [ [ true ] ,[false] ] ");
        assert_eq!(v.shape(), &[2, 1]);
        let v = one("[[[1u8]], [[2u8]]]");
        assert_eq!(v.shape(), &[2, 1, 1]);
        let v = one("empty([0]i32)");
        assert_eq!(v.shape(), &[0]);
        assert_eq!(v.elem_type(), PrimType::I32);
        let v = one("empty([2][0]f32)");
        assert_eq!(v.shape(), &[2, 0]);
        let v = one("empty( [0] [3] bool )");
        assert_eq!(v.shape(), &[0, 3]);
        // Empty arrays as elements.
        let v = one("[empty([0]i64), empty([0]i64)]");
        assert_eq!(v.shape(), &[2, 0]);
        assert_eq!(v.to_string(), "empty([2][0]i64)");
    }

    #[test]
    fn whitespace_and_comments_between_values() {
        let vs = parse_values("-- a comment\n1i32 -- another\n  [2i8,\n 3i8]\t-- x\n\n true--end").unwrap();
        assert_eq!(
            vs,
            vec![
                Value::Prim(PrimValue::I32(1)),
                Value::Array(Array {
                    shape: vec![2],
                    data: ArrayData::I8(vec![2, 3])
                }),
                Value::Prim(PrimValue::Bool(true)),
            ]
        );
        assert_eq!(parse_values("").unwrap(), vec![]);
        assert_eq!(parse_values("  -- only a comment").unwrap(), vec![]);
        // Values may touch where the grammar allows.
        assert_eq!(parse_values("[1][2]").unwrap().len(), 2);
    }

    #[test]
    fn unsuffixed_elements_take_the_suffixed_ones_type() {
        let one = |t: &str| parse_values(t).unwrap().remove(0);
        assert_eq!(one("[0x93u8, 0xb8, 255]"), one("[147u8, 184u8, 255u8]"));
        assert_eq!(one("[1, 2, 3i64]"), one("[1i64, 2i64, 3i64]"));
        assert_eq!(one("[[1, 2], [3f32, 4.5]]"), one("[[1f32, 2f32], [3f32, 4.5f32]]"));
        assert_eq!(one("[1.5, 2f32]"), one("[1.5f32, 2f32]"));
        // Only where the unsuffixed literal fits the type.
        assert!(parse_values("[1u8, 300]").is_err());
        assert!(parse_values("[1.5, 2i32]").is_err());
        assert!(parse_values("[1i32, 2i64]").is_err());
    }

    #[test]
    fn error_messages() {
        let e = err("[1i32, 2f32]");
        assert_eq!(e.message, "array elements have different types: i32 and f32");
        assert_eq!((e.offset, e.line, e.col), (7, 1, 8));
        assert!(err("[[1, 2], [3]]").message.starts_with("irregular array"));
        assert!(err("[[1, 2], 3]").message.starts_with("irregular array"));
        assert!(err("[1, [2]]").message.starts_with("irregular array"));
        assert_eq!(
            err("[[1f32], [2i32]]").message,
            "array elements have different types: f32 and i32"
        );
        let e = err("1i32\n  300u8");
        assert_eq!(e.message, "300u8 does not fit in u8");
        assert_eq!((e.line, e.col), (2, 3));
        // A negative unsigned literal wraps, as Futhark reads it.
        assert_eq!(prim("-1u8"), PrimValue::U8(255));
        assert_eq!(prim("-0u8"), PrimValue::U8(0));
        assert_eq!(err("-256u8").message, "-256u8 does not fit in u8");
        // Without a `-`, a literal is a bit pattern of its type, as Futhark
        // reads it.
        assert_eq!(prim("128i8"), PrimValue::I8(-128));
        assert_eq!(prim("255u8"), PrimValue::U8(255));
        assert_eq!(err("256i8").message, "256i8 does not fit in i8");
        assert_eq!(err("-129i8").message, "-129i8 does not fit in i8");
        assert_eq!(err("0x100u8").message, "0x100u8 does not fit in u8");
        assert_eq!(prim("-0x80u8"), PrimValue::U8(128));
        assert_eq!(err("-0x81i8").message, "-0x81i8 does not fit in i8");
        assert_eq!(prim("-0x80i8"), PrimValue::I8(-128));
        assert!(err("3000000000").message.contains("does not fit in i32"));
        assert!(err("999999999999999999999999999999999999999999i64")
            .message
            .contains("does not fit"));
        assert!(err("1.5i32").message.contains("integer type for a fractional literal"));
        assert!(err("1x32").message.contains("unknown type suffix `x32`"));
        assert!(err("1bool").message.contains("unknown type suffix `bool`"));
        assert!(err("0x").message.contains("no digits"));
        assert!(err("[]").message.contains("empty array `[]`"));
        assert!(err("[1, 2").message.contains("expected `,` or `]`"));
        assert!(err("[1,").message.contains("unclosed"));
        assert!(err("[1 2]").message.contains("expected `,` or `]`"));
        assert!(err("empty([2][3]i32)").message.contains("no zero dimension"));
        assert!(err("empty(i32)").message.contains("expected `[`"));
        assert!(err("empty([0]i33)").message.contains("expected an element type"));
        assert!(err("empty([x]i32)").message.contains("expected a dimension"));
        assert!(err("empty([0]i32").message.contains("expected `)`"));
        assert!(err("empty([99999999999999999999999]i32)").message.contains("too large"));
        assert!(err("empty").message.contains("expected `(`"));
        assert!(err("nan").message.contains("expected a value, found `nan`"));
        assert_eq!(err("-true").message, "expected a value, found `-true`");
        assert!(err("f32.nun").message.contains("expected a value"));
        assert!(err("@").message.contains("expected a value, found `@`"));
        assert!(err("-").message.contains("expected a value, found `-`"));
        assert!(err("1i32x").message.contains("unknown type suffix"));
        assert!(err("1.5.3").message.contains("unexpected"));
        assert!(err("0x1.8p3f32").message.contains("unexpected"));
        assert!(err("b").message.contains("expected a value, found `b`"));
        assert!(err(&"[".repeat(1000)).message.contains("nested more than"));
        let e = err("1\n2\n[1,\n  x]");
        assert_eq!((e.line, e.col, e.offset), (4, 3, 10));
        assert_eq!(e.to_string(), "4:3: expected a value, found `x`");
    }

    #[test]
    fn prints_integers_bools_arrays() {
        for s in [
            "1i32",
            "-3i64",
            "255u8",
            "-128i8",
            "65535u16",
            "-32768i16",
            "4294967295u32",
            "18446744073709551615u64",
            "-9223372036854775808i64",
            "true",
            "false",
            "[1i32, 2i32, 3i32]",
            "[[1i32, 2i32], [3i32, 4i32]]",
            "[[[true]], [[false]]]",
            "empty([0]i32)",
            "empty([0][3]i32)",
            "empty([3][0]i32)",
            "empty([2][0][4]f16)",
            "[f32.nan, f32.inf, -f32.inf]",
            "[1.0f32, -0.0f32]",
        ] {
            round_trip(s);
        }
        assert_eq!(one("[1,2,  3]").to_string(), "[1i32, 2i32, 3i32]");
        assert_eq!(one("empty([0]f64)").to_string(), "empty([0]f64)");
    }

    #[test]
    fn float_printing_follows_haskell_show() {
        let f32s: [(f32, &str); 20] = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (3.25, "3.25"),
            (-1.5, "-1.5"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (0.5, "0.5"),
            (0.01, "1.0e-2"),
            (0.015, "1.5e-2"),
            (0.099999994, "9.9999994e-2"),
            (10.0, "10.0"),
            (100.0, "100.0"),
            (1234567.0, "1234567.0"),
            (9999999.0, "9999999.0"),
            (1.0e7, "1.0e7"),
            (12345678.0, "1.2345678e7"),
            (1.0e10, "1.0e10"),
            (f32::MAX, "3.4028235e38"),
            (f32::MIN_POSITIVE, "1.1754944e-38"),
            (1.0e-45, "1.0e-45"),
        ];
        for (x, s) in f32s {
            assert_eq!(format_f32(x), s, "{x:e}");
            assert_eq!(PrimValue::F32(x).to_string(), format!("{s}f32"));
        }
        let f64s: [(f64, &str); 8] = [
            (1.0, "1.0"),
            (0.1, "0.1"),
            (0.3, "0.3"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e100, "1.0e100"),
            (5e-324, "5.0e-324"),
            (123.456, "123.456"),
            (-2.5e-3, "-2.5e-3"),
        ];
        for (x, s) in f64s {
            assert_eq!(format_f64(x), s, "{x:e}");
            assert_eq!(PrimValue::F64(x).to_string(), format!("{s}f64"));
        }
        assert_eq!(PrimValue::F64(f64::NAN).to_string(), "f64.nan");
        assert_eq!(PrimValue::F64(f64::NEG_INFINITY).to_string(), "-f64.inf");
        assert_eq!(PrimValue::F32(f32::INFINITY).to_string(), "f32.inf");
        // f16 prints through f32.
        assert_eq!(PrimValue::F16(0x3c00).to_string(), "1.0f16");
        assert_eq!(PrimValue::F16(0x2e66).to_string(), "9.9975586e-2f16");
        assert_eq!(PrimValue::F16(0x7bff).to_string(), "65504.0f16");
        assert_eq!(PrimValue::F16(0x0001).to_string(), "5.9604645e-8f16");
        assert_eq!(PrimValue::F16(0xfc00).to_string(), "-f16.inf");
        assert_eq!(PrimValue::F16(0x7e00).to_string(), "f16.nan");
    }

    #[test]
    fn floats_round_trip_through_text() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = f64::from_bits(s);
            let y = f32::from_bits(s as u32);
            let h = (s >> 32) as u16;
            for v in [PrimValue::F64(x), PrimValue::F32(y), PrimValue::F16(h)] {
                let back = prim(&v.to_string());
                let same = match (v, back) {
                    (PrimValue::F64(a), PrimValue::F64(b)) => a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan(),
                    (PrimValue::F32(a), PrimValue::F32(b)) => a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan(),
                    (PrimValue::F16(a), PrimValue::F16(b)) => a == b || f16::is_nan(a) && f16::is_nan(b),
                    _ => false,
                };
                assert!(same, "{v:?} printed {v} read back as {back:?}");
            }
        }
    }

    #[test]
    fn every_type_round_trips() {
        for t in PrimType::ALL {
            let s = match t {
                PrimType::Bool => "[true, false]".to_string(),
                t if t.is_float() => format!("[1.5{t}, -2.0{t}]"),
                t if t.is_signed() => format!("[1{t}, -2{t}]"),
                t => format!("[1{t}, 2{t}]"),
            };
            round_trip(&s);
            round_trip(&format!("empty([0]{t})"));
        }
    }
}
