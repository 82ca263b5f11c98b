//! Comparing expected and actual values, as `futhark test` does.
//!
//! Integers and booleans must be equal. Floats are compared with a
//! tolerance that scales with the expected value, the rule of Futhark's
//! test runner: for each value (scalar or whole array) the tolerance is
//! `tol = DEFAULT_TOLERANCE * max(1, max |e|)` over the finite expected
//! elements `e`, and an element passes when
//!
//! - both are NaN, or
//! - both are infinite with the same sign, or
//! - both are finite and `|expected - actual| <= tol`.
//!
//! So small numbers get an absolute tolerance of 0.002 and arrays of large
//! numbers 0.2% of their largest magnitude. (Futhark takes the maximum of
//! the elements themselves, not of their magnitudes; using magnitudes keeps
//! arrays of negative numbers from being compared more strictly.) `f16`
//! elements are compared as `f32`.
//!
//! Types and shapes must match exactly, and so must the number of values.
//!
//! Messages (values counted from 0, positions one index per dimension):
//! `expected 2 values, got 1`; `value 0: expected type [3]i32, got [3]f32`;
//! `value 1: expected 3i32, got 4i32` (a scalar); `value 0 at [2][1]:
//! expected 6i32, got 7i32` (one element differs); several differing
//! elements give a count and the first [`MAX_LISTED`], one a line:
//! `value 0: 3 of 6 elements differ (tolerance 0.002)` then
//! `  at [0][1]: expected 2.0f32, got 2.5f32` and so on.

use std::fmt;

use super::{PrimValue, Value};

/// The relative tolerance of `futhark test`: 0.2%.
pub const DEFAULT_TOLERANCE: f64 = 0.002;

/// At most this many differing elements are listed in a [`Mismatch`].
pub const MAX_LISTED: usize = 10;

/// One element that differs.
#[derive(Clone, Debug, PartialEq)]
pub struct ElementDiff {
    /// The index in each dimension (empty for a scalar).
    pub position: Vec<usize>,
    pub expected: PrimValue,
    pub actual: PrimValue,
}

/// Why actual values are not the expected ones.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// A different number of values.
    Count { expected: usize, actual: usize },
    /// Value `index` has another element type or shape (`[3]i32`).
    Type {
        index: usize,
        expected: String,
        actual: String,
    },
    /// Elements of value `index` differ: the first [`MAX_LISTED`] of them,
    /// how many differ in all, how many elements the value has, and the
    /// float tolerance used (if the elements are floats).
    Elements {
        index: usize,
        diffs: Vec<ElementDiff>,
        total: usize,
        elements: usize,
        tolerance: Option<f64>,
    },
}

fn position_text(p: &[usize]) -> String {
    p.iter().map(|i| format!("[{i}]")).collect()
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Count { expected, actual } => {
                let s = if *expected == 1 { "" } else { "s" };
                write!(f, "expected {expected} value{s}, got {actual}")
            }
            Mismatch::Type {
                index,
                expected,
                actual,
            } => write!(f, "value {index}: expected type {expected}, got {actual}"),
            Mismatch::Elements {
                index,
                diffs,
                total,
                elements,
                tolerance,
            } => {
                if let ([d], 1) = (diffs.as_slice(), total) {
                    let at = if d.position.is_empty() {
                        String::new()
                    } else {
                        format!(" at {}", position_text(&d.position))
                    };
                    return write!(f, "value {index}{at}: expected {}, got {}", d.expected, d.actual);
                }
                write!(f, "value {index}: {total} of {elements} elements differ")?;
                if let Some(t) = tolerance {
                    write!(f, " (tolerance {t})")?;
                }
                for d in diffs {
                    write!(
                        f,
                        "\n  at {}: expected {}, got {}",
                        position_text(&d.position),
                        d.expected,
                        d.actual
                    )?;
                }
                if *total > diffs.len() {
                    write!(f, "\n  ... and {} more", total - diffs.len())?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares with [`DEFAULT_TOLERANCE`]; the first value that differs is the
/// error.
pub fn compare_values(expected: &[Value], actual: &[Value]) -> Result<(), Mismatch> {
    compare_values_with(expected, actual, DEFAULT_TOLERANCE)
}

/// Compares with the relative float tolerance `tolerance`.
pub fn compare_values_with(expected: &[Value], actual: &[Value], tolerance: f64) -> Result<(), Mismatch> {
    if expected.len() != actual.len() {
        return Err(Mismatch::Count {
            expected: expected.len(),
            actual: actual.len(),
        });
    }
    for (index, (e, a)) in expected.iter().zip(actual).enumerate() {
        compare_one(index, e, a, tolerance)?;
    }
    Ok(())
}

/// The number of elements of a value; `None` only for a corrupt shape.
fn element_count(v: &Value) -> Option<usize> {
    v.shape().iter().try_fold(1usize, |n, &d| n.checked_mul(d))
}

fn compare_one(index: usize, e: &Value, a: &Value, tolerance: f64) -> Result<(), Mismatch> {
    let t = e.elem_type();
    if t != a.elem_type() || e.shape() != a.shape() {
        return Err(Mismatch::Type {
            index,
            expected: e.type_name(),
            actual: a.type_name(),
        });
    }
    let n = element_count(e).unwrap_or(0);
    fn elements(v: &Value, n: usize) -> impl Iterator<Item = PrimValue> + '_ {
        (0..n).map_while(move |i| v.get_flat(i))
    }
    let tol = t.is_float().then(|| {
        let max = elements(e, n)
            .map(|x| x.to_f64().abs())
            .filter(|x| x.is_finite())
            .fold(1.0f64, f64::max);
        tolerance * max
    });
    let mut diffs = Vec::new();
    let mut total = 0;
    for (i, (x, y)) in elements(e, n).zip(elements(a, n)).enumerate() {
        let same = match tol {
            Some(tol) => floats_match(x.to_f64(), y.to_f64(), tol),
            None => x == y,
        };
        if !same {
            total += 1;
            if diffs.len() < MAX_LISTED {
                diffs.push(ElementDiff {
                    position: unflatten(i, e.shape()),
                    expected: x,
                    actual: y,
                });
            }
        }
    }
    if total == 0 {
        return Ok(());
    }
    Err(Mismatch::Elements {
        index,
        diffs,
        total,
        elements: n,
        tolerance: tol,
    })
}

fn floats_match(x: f64, y: f64, tol: f64) -> bool {
    if x.is_nan() || y.is_nan() {
        return x.is_nan() && y.is_nan();
    }
    if x.is_infinite() || y.is_infinite() {
        return x == y;
    }
    (x - y).abs() <= tol
}

/// The multi-index of flat index `i` in `shape`, row-major.
fn unflatten(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut pos = vec![0; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        if d > 0 {
            pos[k] = i % d;
            i /= d;
        }
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_values;

    fn vals(s: &str) -> Vec<Value> {
        parse_values(s).unwrap()
    }

    fn cmp(e: &str, a: &str) -> Result<(), Mismatch> {
        compare_values(&vals(e), &vals(a))
    }

    fn msg(e: &str, a: &str) -> String {
        cmp(e, a).expect_err("should differ").to_string()
    }

    #[test]
    fn equal_values_match() {
        cmp("1i32 [1, 2] true empty([0][2]f32)", "1i32 [1, 2] true empty([0][2]f32)").unwrap();
        cmp("", "").unwrap();
        cmp("[f32.nan, f32.inf, -f32.inf]", "[f32.nan, f32.inf, -f32.inf]").unwrap();
        cmp("f16.nan 1.0f16", "f16.nan 1.0f16").unwrap();
    }

    #[test]
    fn counts_types_shapes() {
        assert_eq!(msg("1 2", "1"), "expected 2 values, got 1");
        assert_eq!(msg("1", ""), "expected 1 value, got 0");
        assert_eq!(
            msg("[1, 2, 3]", "[1f32, 2f32, 3f32]"),
            "value 0: expected type [3]i32, got [3]f32"
        );
        assert_eq!(
            msg("1 [1, 2]", "1 [1, 2, 3]"),
            "value 1: expected type [2]i32, got [3]i32"
        );
        assert_eq!(msg("[[1]]", "[1]"), "value 0: expected type [1][1]i32, got [1]i32");
        assert_eq!(msg("1i32", "1i64"), "value 0: expected type i32, got i64");
        assert_eq!(
            msg("empty([0][2]i32)", "empty([2][0]i32)"),
            "value 0: expected type [0][2]i32, got [2][0]i32"
        );
    }

    #[test]
    fn element_differences() {
        assert_eq!(msg("3", "4"), "value 0: expected 3i32, got 4i32");
        assert_eq!(msg("true", "false"), "value 0: expected true, got false");
        assert_eq!(
            msg("[[1, 2], [3, 4], [5, 6]]", "[[1, 2], [3, 4], [5, 7]]"),
            "value 0 at [2][1]: expected 6i32, got 7i32"
        );
        assert_eq!(
            msg("[[1, 2], [3, 4], [5, 6]]", "[[1, 0], [3, 4], [0, 6]]"),
            "value 0: 2 of 6 elements differ\n  at [0][1]: expected 2i32, got 0i32\n  at [2][0]: expected 5i32, got 0i32"
        );
        let e: String = format!("[{}]", (0..30).map(|i| i.to_string()).collect::<Vec<_>>().join(", "));
        let a = e.replace(", ", ", 1").replacen("[0", "[1", 1);
        let m = cmp(&e, &a).unwrap_err();
        let Mismatch::Elements { diffs, total, .. } = &m else {
            panic!("{m:?}")
        };
        assert_eq!((diffs.len(), *total), (MAX_LISTED, 30));
        assert!(m.to_string().ends_with("... and 20 more"), "{m}");
        // Only the first differing value is reported.
        assert!(msg("1 2 3", "1 5 6").starts_with("value 1:"));
    }

    #[test]
    fn float_tolerance() {
        // Small values: absolute tolerance 0.002.
        cmp("1.0f32", "1.0019f32").unwrap();
        cmp("0.0f64", "-0.002f64").unwrap();
        cmp("0.0f64", "0.0021f64").unwrap_err();
        cmp("1e-9f64", "1e-3f64").unwrap();
        // Large values: relative to the largest expected magnitude.
        cmp("1000.0f32", "1001.9f32").unwrap();
        cmp("1000.0f32", "1002.1f32").unwrap_err();
        cmp("-1000.0f64", "-1001.9f64").unwrap();
        // The whole array shares one tolerance.
        cmp("[1000.0f64, 0.0f64]", "[1000.0f64, 1.5f64]").unwrap();
        cmp("[1.0f64, 0.0f64]", "[1.0f64, 1.5f64]").unwrap_err();
        // Non-finite expected elements do not widen it.
        cmp("[f64.inf, 1.0f64]", "[f64.inf, 1.5f64]").unwrap_err();
        // NaN only matches NaN; infinities match the same infinity.
        cmp("f32.nan", "0.0f32").unwrap_err();
        cmp("0.0f32", "f32.nan").unwrap_err();
        cmp("f32.inf", "-f32.inf").unwrap_err();
        cmp("f32.inf", "3.4028235e38f32").unwrap_err();
        cmp("3.4028235e38f32", "f32.inf").unwrap_err();
        cmp("f16.inf", "f16.inf").unwrap();
        cmp("1.0f16", "1.001f16").unwrap();
        // A custom tolerance.
        compare_values_with(&vals("1.0f64"), &vals("1.0001f64"), 1e-5).unwrap_err();
        compare_values_with(&vals("1.0f64"), &vals("1.0001f64"), 1e-3).unwrap();
        assert_eq!(
            msg("[1.0f32, 2.0f32]", "[1.0f32, 2.5f32]"),
            "value 0 at [1]: expected 2.0f32, got 2.5f32"
        );
        assert_eq!(
            msg("[1.0f32, 2.0f32]", "[1.1f32, 2.5f32]"),
            "value 0: 2 of 2 elements differ (tolerance 0.004)\n  at [0]: expected 1.0f32, got 1.1f32\n  at [1]: expected 2.0f32, got 2.5f32"
        );
        // Integers are exact whatever their size.
        cmp("100000i32", "100001i32").unwrap_err();
        cmp("9007199254740993i64", "9007199254740992i64").unwrap_err();
    }

    #[test]
    fn positions() {
        assert_eq!(unflatten(5, &[2, 3]), vec![1, 2]);
        assert_eq!(unflatten(0, &[2, 3, 4]), vec![0, 0, 0]);
        assert_eq!(unflatten(23, &[2, 3, 4]), vec![1, 2, 3]);
        assert_eq!(unflatten(0, &[]), Vec::<usize>::new());
    }
}
