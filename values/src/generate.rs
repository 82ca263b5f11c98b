//! Random values, as `futhark dataset -g` makes them.
//!
//! A spec is a type with constant dimensions: `i32`, `[10]bool`,
//! `[1000][3]f32`. Elements are drawn uniformly and independently, row-major,
//! from a [`Rng`]: integers from the whole range of their type, floats from
//! `[0, 1]`, booleans with probability 1/2 each (the defaults of
//! `futhark dataset`), unless [`Bounds`] narrows a type to `lo:hi`
//! (inclusive). Floats are `lo + (hi - lo) * u` for a uniform `u` in
//! `[0, 1)` with 53 random bits, then rounded to the element type (so they
//! lie within the bounds rounded to that type).
//!
//! The same seed, bounds and specs give the same values on every machine.

use super::text::{int_range, int_value};
use super::{f16, Array, ArrayData, PrimValue, Value, ValueError};
use crate::PrimType;

/// SplitMix64: a 64-bit state advanced by a Weyl sequence and mixed; fast,
/// passes BigCrush, and every seed (0 included) is fine.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index into a collection of `n` elements (0 when `n` is 0,
    /// so callers need not guard empty collections).
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n.max(1) as u64) as usize
    }

    /// Uniform in `0..n` (`n > 0`), without modulo bias (Lemire's
    /// multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "Rng::below(0)");
        let threshold = n.wrapping_neg() % n; // (2^64 - n) mod n
        loop {
            let m = self.next_u64() as u128 * n as u128;
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// Uniform in `lo..=hi` (`lo <= hi`, at most 2^64 values apart).
    pub fn int_in(&mut self, lo: i128, hi: i128) -> i128 {
        let span = (hi - lo) as u128 + 1;
        let k = if span > u64::MAX as u128 {
            self.next_u64()
        } else {
            self.below(span as u64)
        };
        lo + k as i128
    }

    /// Uniform in `[0, 1)`, a multiple of 2^-53.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi]` (finite, `lo <= hi`).
    pub fn float_in(&mut self, lo: f64, hi: f64) -> f64 {
        let u = self.unit();
        // This form does not overflow when `hi - lo` would.
        (lo * (1.0 - u) + hi * u).clamp(lo, hi)
    }
}

/// Where values of one type are drawn from (inclusive).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Range {
    Int { lo: i128, hi: i128 },
    Float { lo: f64, hi: f64 },
    Bool,
}

/// The range of every element type.
#[derive(Clone, Debug, PartialEq)]
pub struct Bounds {
    ranges: [Range; 12],
}

fn type_index(t: PrimType) -> usize {
    PrimType::ALL
        .iter()
        .position(|&u| u == t)
        .expect("every type is in ALL")
}

/// The largest finite value of a float type.
fn float_max(t: PrimType) -> f64 {
    match t {
        PrimType::F16 => 65504.0,
        PrimType::F32 => f32::MAX as f64,
        _ => f64::MAX,
    }
}

impl Default for Bounds {
    /// `futhark dataset`'s defaults: integers over their whole range, floats
    /// in `[0, 1]`.
    fn default() -> Bounds {
        let ranges = PrimType::ALL.map(|t| {
            if t.is_int() {
                let (lo, hi) = int_range(t);
                Range::Int { lo, hi }
            } else if t.is_float() {
                Range::Float { lo: 0.0, hi: 1.0 }
            } else {
                Range::Bool
            }
        });
        Bounds { ranges }
    }
}

impl Bounds {
    pub fn get(&self, t: PrimType) -> Range {
        self.ranges[type_index(t)]
    }

    /// Sets the bounds of `t` from `lo:hi` (inclusive), e.g. `-10:10`,
    /// `0.5:2e3`. The error's offset is into `spec`.
    pub fn set(&mut self, t: PrimType, spec: &str) -> Result<(), ValueError> {
        let err = |at: usize, msg: String| ValueError::at(spec.as_bytes(), at, msg);
        let Some((lo, hi)) = spec.split_once(':') else {
            return Err(err(0, format!("bounds for {t} must be `lo:hi`, got `{spec}`")));
        };
        let hi_at = lo.len() + 1;
        let range = if t.is_int() {
            let (min, max) = int_range(t);
            let parse = |s: &str, at: usize| {
                let n: i128 = s
                    .trim()
                    .parse()
                    .map_err(|_| err(at, format!("`{}` is not an integer", s.trim())))?;
                if n < min || n > max {
                    return Err(err(at, format!("{n} is outside the range of {t}")));
                }
                Ok(n)
            };
            let (lo, hi) = (parse(lo, 0)?, parse(hi, hi_at)?);
            if lo > hi {
                return Err(err(0, format!("empty bounds {lo}:{hi} for {t}")));
            }
            Range::Int { lo, hi }
        } else if t.is_float() {
            let parse = |s: &str, at: usize| {
                let x: f64 = s
                    .trim()
                    .parse()
                    .map_err(|_| err(at, format!("`{}` is not a number", s.trim())))?;
                if !x.is_finite() || x.abs() > float_max(t) {
                    return Err(err(at, format!("{} is outside the finite range of {t}", s.trim())));
                }
                Ok(x)
            };
            let (lo, hi) = (parse(lo, 0)?, parse(hi, hi_at)?);
            if lo > hi {
                return Err(err(0, format!("empty bounds {lo}:{hi} for {t}")));
            }
            Range::Float { lo, hi }
        } else {
            return Err(err(0, format!("{t} values have no bounds")));
        };
        self.ranges[type_index(t)] = range;
        Ok(())
    }
}

/// A parsed generator spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenSpec {
    pub shape: Vec<usize>,
    pub elem: PrimType,
}

/// Parses `[d1]...[dn]t` (spaces allowed between the parts).
pub fn parse_gen_spec(spec: &str) -> Result<GenSpec, ValueError> {
    let bytes = spec.as_bytes();
    let err = |at: usize, msg: String| ValueError::at(bytes, at, msg);
    let skip = |mut i: usize| {
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut i = skip(0);
    let mut shape = Vec::new();
    while bytes.get(i) == Some(&b'[') {
        i = skip(i + 1);
        let start = i;
        while bytes.get(i).is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_') {
            i += 1;
        }
        let dim = &spec[start..i];
        let digits = dim.replace('_', "");
        if dim.is_empty() {
            return Err(err(start, "expected a dimension after `[`".to_string()));
        }
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(start, format!("dimension `{dim}` is not a number")));
        }
        let d: usize = digits
            .parse()
            .map_err(|_| err(start, format!("dimension {dim} is too large")))?;
        i = skip(i);
        if bytes.get(i) != Some(&b']') {
            return Err(err(i, "expected `]`".to_string()));
        }
        i = skip(i + 1);
        shape.push(d);
    }
    let name = spec[i..].trim_end();
    let Some(elem) = PrimType::from_name(name) else {
        let msg = if name.is_empty() {
            "expected an element type".to_string()
        } else {
            format!("unknown element type `{name}`")
        };
        return Err(err(i, msg));
    };
    Ok(GenSpec { shape, elem })
}

fn random_prim(t: PrimType, range: Range, rng: &mut Rng) -> PrimValue {
    match range {
        Range::Int { lo, hi } => int_value(t, rng.int_in(lo, hi)),
        Range::Bool => PrimValue::Bool(rng.next_u64() >> 63 == 1),
        Range::Float { lo, hi } => {
            let x = rng.float_in(lo, hi);
            match t {
                // Rounding is monotone, so the result stays within the
                // bounds rounded to the element type.
                PrimType::F16 => PrimValue::F16(f16::f64_to_f16(x)),
                PrimType::F32 => PrimValue::F32(x as f32),
                _ => PrimValue::F64(x),
            }
        }
    }
}

/// A random value of type `spec` (see the module documentation).
pub fn generate(spec: &str, rng: &mut Rng, bounds: &Bounds) -> Result<Value, ValueError> {
    // A constant (`2i64`, `10`, `1.5f32`) stands for itself
    // (futhark-test(1)).
    let t = spec.trim_start();
    if t.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let mut vs = crate::text::parse_values(spec)?;
        return match (vs.pop(), vs.is_empty()) {
            (Some(v @ Value::Prim(_)), true) => Ok(v),
            _ => Err(ValueError::at(
                spec.as_bytes(),
                0,
                format!("`{spec}` is not one constant"),
            )),
        };
    }
    let GenSpec { shape, elem } = parse_gen_spec(spec)?;
    let range = bounds.get(elem);
    if shape.is_empty() {
        return Ok(Value::Prim(random_prim(elem, range, rng)));
    }
    let too_big = || ValueError::at(spec.as_bytes(), 0, format!("`{}` has too many elements", spec.trim()));
    let n = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .filter(|&n| {
            n.checked_mul(elem.bits() as usize / 8)
                .is_some_and(|b| b <= isize::MAX as usize)
        })
        .ok_or_else(too_big)?;
    let mut data = ArrayData::try_with_capacity(elem, n).map_err(|_| too_big())?;
    for _ in 0..n {
        data.push(random_prim(elem, range, rng));
    }
    Ok(Value::Array(Array { shape, data }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen(spec: &str, seed: u64, bounds: &Bounds) -> Value {
        generate(spec, &mut Rng::new(seed), bounds).unwrap_or_else(|e| panic!("{spec}: {e}"))
    }

    fn elements(v: &Value) -> Vec<PrimValue> {
        (0..).map_while(|i| v.get_flat(i)).collect()
    }

    #[test]
    fn specs() {
        assert_eq!(
            parse_gen_spec("[1000][3]f32").unwrap(),
            GenSpec {
                shape: vec![1000, 3],
                elem: PrimType::F32
            }
        );
        assert_eq!(parse_gen_spec("i32").unwrap().shape, Vec::<usize>::new());
        assert_eq!(parse_gen_spec(" [ 10 ] bool ").unwrap().shape, vec![10]);
        assert_eq!(parse_gen_spec("[1_000]u8").unwrap().shape, vec![1000]);
        assert_eq!(parse_gen_spec("[0][5]f16").unwrap().shape, vec![0, 5]);
        let e = parse_gen_spec("[n]f32").unwrap_err();
        assert_eq!((e.message.as_str(), e.col), ("dimension `n` is not a number", 2));
        assert_eq!(
            parse_gen_spec("[]f32").unwrap_err().message,
            "expected a dimension after `[`"
        );
        assert_eq!(
            parse_gen_spec("[3f32").unwrap_err().message,
            "dimension `3f32` is not a number"
        );
        assert_eq!(parse_gen_spec("[3 f32").unwrap_err().message, "expected `]`");
        assert_eq!(
            parse_gen_spec("[3]f33").unwrap_err().message,
            "unknown element type `f33`"
        );
        assert_eq!(parse_gen_spec("[3]").unwrap_err().message, "expected an element type");
        assert_eq!(parse_gen_spec("").unwrap_err().message, "expected an element type");
        assert_eq!(
            parse_gen_spec("[-1]i32").unwrap_err().message,
            "expected a dimension after `[`"
        );
        assert!(parse_gen_spec("[99999999999999999999999]i32")
            .unwrap_err()
            .message
            .contains("too large"));
        assert!(parse_gen_spec("[2]i32 junk")
            .unwrap_err()
            .message
            .contains("unknown element type"));
    }

    #[test]
    fn shapes_and_types() {
        let b = Bounds::default();
        for t in PrimType::ALL {
            let v = gen(&format!("[4][3]{t}"), 1, &b);
            assert_eq!(v.shape(), &[4, 3]);
            assert_eq!(v.elem_type(), t);
            let s = gen(t.name(), 1, &b);
            assert!(matches!(s, Value::Prim(p) if p.prim_type() == t));
            let e = gen(&format!("[0][3]{t}"), 1, &b);
            assert_eq!(e.to_string(), format!("empty([0][3]{t})"));
        }
    }

    #[test]
    fn constants_stand_for_themselves() {
        let b = Bounds::default();
        assert_eq!(gen("2i64", 1, &b), Value::Prim(PrimValue::I64(2)));
        assert_eq!(gen("10", 7, &b), Value::Prim(PrimValue::I32(10)));
        assert_eq!(gen("-1.5f32", 7, &b), Value::Prim(PrimValue::F32(-1.5)));
        let mut rng = Rng::new(1);
        assert!(generate("1 2", &mut rng, &b).is_err());
    }

    #[test]
    fn deterministic_per_seed() {
        let b = Bounds::default();
        assert_eq!(gen("[100]i64", 7, &b), gen("[100]i64", 7, &b));
        assert_ne!(gen("[100]i64", 7, &b), gen("[100]i64", 8, &b));
        // A fixed stream: these numbers must not change between versions.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        let mut r = Rng::new(1);
        assert_eq!(r.next_u64(), 0x910a_2dec_8902_5cc1);
        // One rng over several specs continues its stream.
        let mut r = Rng::new(3);
        let a = generate("[5]u32", &mut r, &b).unwrap();
        let c = generate("[5]u32", &mut r, &b).unwrap();
        assert_ne!(a, c);
        let mut r = Rng::new(3);
        let ac = generate("[10]u32", &mut r, &b).unwrap();
        assert_eq!(elements(&ac), [elements(&a), elements(&c)].concat());
    }

    #[test]
    fn default_ranges() {
        let b = Bounds::default();
        for t in [PrimType::F16, PrimType::F32, PrimType::F64] {
            for x in elements(&gen(&format!("[2000]{t}"), 5, &b)) {
                let x = x.to_f64();
                assert!((0.0..=1.0).contains(&x), "{t}: {x}");
            }
        }
        // Integers cover the whole range: negative and large values appear.
        let v = elements(&gen("[2000]i64", 5, &b));
        assert!(v.iter().any(|x| x.to_f64() < -1e18));
        assert!(v.iter().any(|x| x.to_f64() > 1e18));
        let v = elements(&gen("[2000]u8", 5, &b));
        let mut seen = [false; 256];
        for x in v {
            seen[x.to_f64() as usize] = true;
        }
        assert!(seen.iter().filter(|&&s| s).count() > 240);
        let v = elements(&gen("[2000]bool", 5, &b));
        let trues = v.iter().filter(|x| **x == PrimValue::Bool(true)).count();
        assert!((800..1200).contains(&trues), "{trues}");
    }

    #[test]
    fn custom_bounds() {
        let mut b = Bounds::default();
        b.set(PrimType::I32, "-10:10").unwrap();
        b.set(PrimType::U8, "3:3").unwrap();
        b.set(PrimType::F32, "-2.5:-1").unwrap();
        b.set(PrimType::F64, "100:1e3").unwrap();
        b.set(PrimType::I64, "-9223372036854775808:9223372036854775807")
            .unwrap();
        b.set(PrimType::U64, "0:18446744073709551615").unwrap();
        b.set(PrimType::I8, "-128:-127").unwrap();
        let v = elements(&gen("[5000]i32", 9, &b));
        assert!(v.iter().all(|x| (-10.0..=10.0).contains(&x.to_f64())));
        assert!(v.contains(&PrimValue::I32(-10)) && v.contains(&PrimValue::I32(10)));
        assert!(elements(&gen("[50]u8", 9, &b)).iter().all(|&x| x == PrimValue::U8(3)));
        let v = elements(&gen("[100]i8", 9, &b));
        assert!(v.contains(&PrimValue::I8(-128)) && v.contains(&PrimValue::I8(-127)));
        assert!(v.iter().all(|x| x.to_f64() <= -127.0));
        for x in elements(&gen("[1000]f32", 9, &b)) {
            assert!((-2.5..=-1.0).contains(&x.to_f64()), "{x}");
        }
        for x in elements(&gen("[1000]f64", 9, &b)) {
            assert!((100.0..=1000.0).contains(&x.to_f64()), "{x}");
        }
        // Other types keep their defaults.
        assert_eq!(b.get(PrimType::I16), Range::Int { lo: -32768, hi: 32767 });
        assert_eq!(b.get(PrimType::F16), Range::Float { lo: 0.0, hi: 1.0 });
        // Extreme float bounds do not overflow.
        b.set(PrimType::F64, "-1.7e308:1.7e308").unwrap();
        assert!(elements(&gen("[100]f64", 9, &b)).iter().all(|x| x.to_f64().is_finite()));
        b.set(PrimType::F16, "-65504:65504").unwrap();
        assert!(elements(&gen("[100]f16", 9, &b)).iter().all(|x| x.to_f64().is_finite()));
    }

    #[test]
    fn bad_bounds() {
        let mut b = Bounds::default();
        let msg = |b: &mut Bounds, t, s| b.set(t, s).unwrap_err().message;
        assert_eq!(
            msg(&mut b, PrimType::I32, "5"),
            "bounds for i32 must be `lo:hi`, got `5`"
        );
        assert_eq!(msg(&mut b, PrimType::I32, "x:5"), "`x` is not an integer");
        assert_eq!(msg(&mut b, PrimType::I32, "1:2.5"), "`2.5` is not an integer");
        assert_eq!(msg(&mut b, PrimType::U8, "-1:5"), "-1 is outside the range of u8");
        assert_eq!(msg(&mut b, PrimType::I8, "0:128"), "128 is outside the range of i8");
        assert_eq!(msg(&mut b, PrimType::I32, "5:1"), "empty bounds 5:1 for i32");
        assert_eq!(msg(&mut b, PrimType::F32, "1:0"), "empty bounds 1:0 for f32");
        assert_eq!(
            msg(&mut b, PrimType::F32, "0:inf"),
            "inf is outside the finite range of f32"
        );
        assert_eq!(
            msg(&mut b, PrimType::F32, "0:1e39"),
            "1e39 is outside the finite range of f32"
        );
        assert_eq!(
            msg(&mut b, PrimType::F16, "0:70000"),
            "70000 is outside the finite range of f16"
        );
        assert_eq!(
            msg(&mut b, PrimType::F64, "nan:1"),
            "nan is outside the finite range of f64"
        );
        assert_eq!(msg(&mut b, PrimType::F64, "a:1"), "`a` is not a number");
        assert_eq!(msg(&mut b, PrimType::Bool, "0:1"), "bool values have no bounds");
        // Failed sets change nothing.
        assert_eq!(b, Bounds::default());
    }

    #[test]
    fn too_many_elements_is_an_error() {
        let b = Bounds::default();
        let e = generate("[4294967296][4294967296][2]f64", &mut Rng::new(1), &b).unwrap_err();
        assert!(e.message.contains("too many elements"), "{e}");
        let e = generate("[2305843009213693952]f64", &mut Rng::new(1), &b).unwrap_err();
        assert!(e.message.contains("too many elements"), "{e}");
    }

    #[test]
    fn below_is_unbiased_enough() {
        let mut r = Rng::new(42);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[r.below(3) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
        assert_eq!(r.int_in(5, 5), 5);
        assert!((0.0..1.0).contains(&r.unit()));
    }
}
