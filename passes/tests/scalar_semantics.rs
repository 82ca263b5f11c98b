//! One scalar semantics: the reference interpreter (Futhark's operators and
//! prelude functions), the soac interpreter's op kinds
//! (`futmlir_dialects::interp::scalar`) and constant folding
//! (`futmlir_passes::egraph::fold`) compute the same value, bit for bit, on
//! the cases where two implementations used to exist side by side:
//! wrap-around, floored and truncating division, out-of-range shifts, f16
//! rounding, float to integer saturation, NaN. Each case also states the
//! value all of them must give (`futmlir_values::scalar`'s documented
//! semantics). Folding has no conversions (a folded term has no result
//! type to convert to), so conversions compare the two interpreters.

use egg::{EGraph, RecExpr, SymbolLang};
use futmlir_dialects::interp::scalar;
use futmlir_dialects::ir::Scalar;
use futmlir_frontend::check;
use futmlir_frontend::interp::{run_entry, RunOptions};
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::values::f16::f64_to_f16;
use futmlir_frontend::values::scalar::{as_f64, as_i128, bit_pattern};
use futmlir_frontend::values::{PrimType, PrimValue, Value};
use futmlir_passes::egraph::fold::ConstFold;
use PrimValue::*;

/// An operation as each side names it.
enum Op {
    /// A Futhark infix operator (`/`) or a prelude function of the
    /// operands' module (`max` for `f32.max`), and the `soac.binop` or
    /// `soac.cmpop` kind.
    Binary {
        futhark: &'static str,
        kind: &'static str,
        infix: bool,
    },
    /// A prelude function of the operand's module (`abs` for `i8.abs`) and
    /// the `soac.unop` kind.
    Unary { futhark: &'static str, kind: &'static str },
    /// `to.f x` for the module `to` and function `f`, and the
    /// `soac.convop` kind.
    Convert {
        to: PrimType,
        futhark: &'static str,
        kind: &'static str,
    },
}

struct Case {
    op: Op,
    args: Vec<PrimValue>,
    want: PrimValue,
}

fn bin(futhark: &'static str, kind: &'static str, a: PrimValue, b: PrimValue, want: PrimValue) -> Case {
    let infix = !futhark.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    Case {
        op: Op::Binary { futhark, kind, infix },
        args: vec![a, b],
        want,
    }
}

fn un(futhark: &'static str, kind: &'static str, a: PrimValue, want: PrimValue) -> Case {
    Case {
        op: Op::Unary { futhark, kind },
        args: vec![a],
        want,
    }
}

fn conv(to: PrimType, futhark: &'static str, kind: &'static str, a: PrimValue, want: PrimValue) -> Case {
    Case {
        op: Op::Convert { to, futhark, kind },
        args: vec![a],
        want,
    }
}

fn h(x: f64) -> PrimValue {
    F16(f64_to_f16(x))
}

fn cases() -> Vec<Case> {
    let nan32 = F32(f32::NAN);
    vec![
        // Wrap-around: the one quotient that overflows, and + * **.
        bin("/", "div", I8(-128), I8(-1), I8(-128)),
        bin("%%", "rem", I8(-128), I8(-1), I8(0)),
        bin("+", "add", U8(250), U8(10), U8(4)),
        bin("*", "mul", I64(i64::MAX), I64(2), I64(-2)),
        bin("**", "pow", I32(2), I32(31), I32(i32::MIN)),
        bin("**", "pow", U8(2), U8(9), U8(0)),
        // Floored `/` and `%` against truncating `%%` on negative operands.
        bin("/", "div", I32(-7), I32(2), I32(-4)),
        bin("%", "mod", I32(-7), I32(2), I32(1)),
        bin("%", "mod", I32(7), I32(-2), I32(-1)),
        bin("%%", "rem", I32(-7), I32(2), I32(-1)),
        bin("/", "div", U8(200), U8(7), U8(28)),
        // Shifts by amounts outside 0..bits (Note [Integer semantics]).
        bin("<<", "shl", I32(1), I32(40), I32(0)),
        bin(">>", "shr", I32(-1), I32(40), I32(-1)),
        bin(">>", "shr", I8(-8), I8(-1), I8(-1)),
        bin(">>", "shr", I8(8), I8(-1), I8(0)),
        bin("<<", "shl", U8(1), U8(8), U8(0)),
        bin(">>>", "ushr", I8(-8), I8(1), I8(124)),
        bin(">>>", "ushr", I16(-1), I16(16), I16(0)),
        // Comparisons: unsigned order, NaN unordered.
        bin("<", "lt", U8(1), U8(200), Bool(true)),
        bin("<", "lt", I8(-1), I8(1), Bool(true)),
        bin("==", "eq", nan32, nan32, Bool(false)),
        bin("!=", "ne", nan32, nan32, Bool(true)),
        // Floats: fmod, NaN-ignoring max/min, f16 computed in f32 and
        // rounded to nearest, ties to even (1 + 2^-11 is halfway).
        bin("%", "mod", F64(-7.5), F64(2.0), F64(-1.5)),
        bin("max", "max", nan32, F32(1.0), F32(1.0)),
        bin("min", "min", F64(2.0), F64(f64::NAN), F64(2.0)),
        bin("+", "add", h(1.0), h(2f64.powi(-11)), F16(0x3c00)),
        bin("+", "add", h(1.0), h(3.0 * 2f64.powi(-11)), F16(0x3c02)),
        bin("/", "div", h(1.0), h(3.0), F16(0x3555)),
        bin("*", "mul", h(256.0), h(256.0), F16(0x7c00)),
        bin("mul_hi", "mul_hi", U64(u64::MAX), U64(u64::MAX), U64(u64::MAX - 1)),
        bin("atan2", "atan2", F64(0.0), F64(-1.0), F64(std::f64::consts::PI)),
        // Unary: wrapping abs and negation, sgn, rounding half to even,
        // the special functions.
        un("abs", "abs", I8(-128), I8(-128)),
        un("neg", "neg", U32(1), U32(u32::MAX)),
        un("sgn", "signum", F64(-3.0), F64(-1.0)),
        un("sgn", "signum", I8(-3), I8(-1)),
        un("round", "round", F64(2.5), F64(2.0)),
        un("round", "round", F32(3.5), F32(4.0)),
        un("sqrt", "sqrt", h(2.0), F16(0x3da8)),
        un("lgamma", "lgamma", F64(3.0), F64(2f64.ln())),
        un("gamma", "gamma", F64(5.0), F64(24.0)),
        un("erf", "erf", F32(0.0), F32(0.0)),
        // Conversions (Note [Conversions]): saturation, NaN to 0, low bits,
        // extension by the source's signedness, rounding to f16 and f32.
        conv(PrimType::I32, "f64", "fptosi", F64(1e10), I32(i32::MAX)),
        conv(PrimType::I32, "f64", "fptosi", F64(-1e10), I32(i32::MIN)),
        conv(PrimType::I64, "f64", "fptosi", F64(f64::NAN), I64(0)),
        conv(PrimType::U8, "f32", "fptoui", F32(-2.7), U8(0)),
        conv(PrimType::I32, "f32", "fptosi", F32(-2.75), I32(-2)),
        conv(PrimType::U8, "i32", "trunc", I32(300), U8(44)),
        conv(PrimType::I32, "i8", "sext", I8(-1), I32(-1)),
        conv(PrimType::I32, "u8", "zext", U8(255), I32(255)),
        conv(PrimType::U64, "i8", "sext", I8(-1), U64(u64::MAX)),
        conv(PrimType::F16, "f64", "fpconv", F64(1.0 + 2f64.powi(-11)), F16(0x3c00)),
        conv(PrimType::F16, "f64", "fpconv", F64(65520.0), F16(0x7c00)),
        conv(PrimType::F32, "i64", "sitofp", I64(16_777_217), F32(16_777_216.0)),
        conv(
            PrimType::F64,
            "u64",
            "uitofp",
            U64(u64::MAX),
            F64(1.8446744073709552e19),
        ),
    ]
}

/// A value compared bit for bit, with its type (so -0.0 is not 0.0 and a
/// NaN is equal to itself).
fn exact(p: PrimValue) -> (PrimType, u64) {
    (p.prim_type(), bit_pattern(p))
}

/// The Futhark program with one entry point per case, `e0`, `e1`, ...
fn program(cases: &[Case]) -> String {
    let mut text = String::new();
    for (i, c) in cases.iter().enumerate() {
        let t = c.args[0].prim_type().name();
        let body = match c.op {
            Op::Binary {
                futhark, infix: true, ..
            } => format!("(x: {t}) (y: {t}) = x {futhark} y"),
            Op::Binary { futhark, .. } => format!("(x: {t}) (y: {t}) = {t}.{futhark} x y"),
            Op::Unary { futhark, .. } => format!("(x: {t}) = {t}.{futhark} x"),
            Op::Convert { to, futhark, .. } => format!("(x: {t}) = {}.{futhark} x", to.name()),
        };
        text.push_str(&format!("entry e{i} {body}\n"));
    }
    text
}

/// The literal leaf of a fold term (`-128i8`, `0.5f64`, `NaNf32`).
fn leaf(p: PrimValue) -> String {
    let t = p.prim_type().name();
    match (as_i128(p), as_f64(p)) {
        (Some(v), _) => format!("{v}{t}"),
        (_, Some(x)) => format!("{x:?}{t}"),
        _ => p.to_string(),
    }
}

/// What constant folding makes of `(kind a b ...)`.
fn fold(kind: &str, args: &[PrimValue]) -> Option<PrimValue> {
    let leaves: Vec<String> = args.iter().map(|&a| leaf(a)).collect();
    let term: RecExpr<SymbolLang> = format!("({kind} {})", leaves.join(" ")).parse().ok()?;
    let mut g: EGraph<SymbolLang, ConstFold> = EGraph::default();
    let root = g.add_expr(&term);
    g.rebuild();
    g[root].data
}

#[test]
fn interpreters_and_folding_compute_the_same_scalars() {
    let cases = cases();
    let text = program(&cases);
    let mut sm = SourceMap::default();
    let file = sm.add("scalar_semantics.fut", text.clone());
    let checked =
        check::check_file(&mut sm, file).unwrap_or_else(|ds| panic!("the cases type-check: {}", ds[0].to_plain(&sm)));
    for (i, c) in cases.iter().enumerate() {
        let entry = format!("e{i}");
        let args: Vec<Value> = c.args.iter().map(|&a| Value::Prim(a)).collect();
        let reference = match run_entry(&checked, &entry, args, &RunOptions::default())
            .and_then(|r| r.values(&entry))
            .map_err(|e| e.render(&sm))
            .as_deref()
        {
            Ok([Value::Prim(p)]) => *p,
            other => panic!("case {i}: the reference interpreter gives {other:?}"),
        };
        let (ir, folded) = match (&c.op, c.args.as_slice()) {
            (Op::Binary { kind, .. }, &[a, b]) => {
                let ir = scalar::binop(kind, a, b).or_else(|_| scalar::cmpop(kind, a, b).map(Bool));
                (ir, Some(fold(kind, &c.args)))
            }
            (Op::Unary { kind, .. }, &[a]) => (scalar::unop(kind, a), Some(fold(kind, &c.args))),
            (Op::Convert { to, kind, .. }, &[a]) => (scalar::convop(kind, a, Scalar::of_prim(*to)), None),
            _ => unreachable!("every case has its operation's arity"),
        };
        let ir = ir.unwrap_or_else(|e| panic!("case {i}: the soac interpreter fails: {e}"));
        let what = format!("case {i} ({})", text.lines().nth(i).unwrap_or_default());
        assert_eq!(exact(reference), exact(c.want), "{what}: reference {reference:?}");
        assert_eq!(exact(ir), exact(c.want), "{what}: soac interpreter {ir:?}");
        if let Some(folded) = folded {
            let folded = folded.unwrap_or_else(|| panic!("{what}: does not fold"));
            assert_eq!(exact(folded), exact(c.want), "{what}: folding {folded:?}");
        }
    }
}
