//! `soac.binop`, `cmpop`, `unop`, `ternop` and `convop` (the op
//! descriptions in `dialects/src/soac/ops.rs`): the mapping from an op's
//! `kind` and the IR's [`Scalar`] types to the one scalar semantics,
//! [`futmlir_values::scalar`], which says what each operation computes
//! (wrap-around, floored `div`/`mod`, out-of-range shifts, f16 rounding,
//! saturating conversions). Constant folding (`futmlir_passes::egraph::fold`)
//! calls these functions too, so a folded program computes what the
//! interpreted one does.
//!
//! The kinds and their Futhark spellings: `div` and `mod` are `/` and `%`
//! (floored), `rem` is `%%` (truncating); `ushr` is `>>>`; `and`, `or`,
//! `xor` are bitwise on integers and logical on bools; `min`/`max` also
//! apply to bools. `popc` and `clz` give a value of the operand's type (the
//! prelude's give an i32). A convop's kind names the conversion its operand
//! and result types already fix (`sext`, `fptoui`, `bitcast`, ...); the kind
//! only decides which operand types it accepts.

use futmlir_values::scalar::{self as sem, BinOp, BitCount, FloatBin, FloatUn, PrimError};
use futmlir_values::PrimValue;

use crate::ir::Scalar;

/// The IR scalar type of a value.
pub fn scalar_of(p: PrimValue) -> Scalar {
    Scalar::of_prim(p.prim_type())
}

/// The arithmetic and bitwise `binop` kinds that are Futhark operators.
fn binop_kind(kind: &str) -> Option<BinOp> {
    Some(match kind {
        "add" => BinOp::Add,
        "sub" => BinOp::Sub,
        "mul" => BinOp::Mul,
        "div" => BinOp::Div,
        "mod" => BinOp::Mod,
        "rem" => BinOp::Rem,
        "pow" => BinOp::Pow,
        "and" => BinOp::BitAnd,
        "or" => BinOp::BitOr,
        "xor" => BinOp::Xor,
        "shl" => BinOp::Shl,
        "shr" => BinOp::Shr,
        "ushr" => BinOp::UShr,
        _ => return None,
    })
}

/// The `cmpop` kinds.
fn cmpop_kind(kind: &str) -> Option<BinOp> {
    Some(match kind {
        "eq" => BinOp::Eq,
        "ne" => BinOp::Neq,
        "lt" => BinOp::Lt,
        "le" => BinOp::Le,
        "gt" => BinOp::Gt,
        "ge" => BinOp::Ge,
        _ => return None,
    })
}

/// The message of a failed operation: the semantics' own for a program
/// error (division by zero), `bad` for operands the kind does not apply to.
fn failure(e: PrimError, bad: impl FnOnce() -> String) -> String {
    match e {
        PrimError::DivisionByZero => "division by zero".into(),
        PrimError::NegativeExponent => "negative exponent".into(),
        PrimError::Type => bad(),
    }
}

/// `soac.binop {kind}`.
pub fn binop(kind: &str, a: PrimValue, b: PrimValue) -> Result<PrimValue, String> {
    let bad = || {
        format!(
            "binop `{kind}` does not apply to {} and {}",
            a.prim_type().name(),
            b.prim_type().name()
        )
    };
    let r = if let Some(op) = binop_kind(kind) {
        sem::binop(op, a, b)
    } else if let Some(f) = FloatBin::from_name(kind) {
        sem::float_bin(f, a, b)
    } else {
        match kind {
            "min" | "max" => sem::max_min(kind == "max", a, b),
            "mul_hi" => sem::mul_hi(a, b, None),
            _ => return Err(bad()),
        }
    };
    r.map_err(|e| failure(e, bad))
}

/// `soac.cmpop {kind}`.
pub fn cmpop(kind: &str, a: PrimValue, b: PrimValue) -> Result<bool, String> {
    if a.prim_type() != b.prim_type() {
        return Err(format!(
            "cmpop of different types {} and {}",
            a.prim_type().name(),
            b.prim_type().name()
        ));
    }
    let op = cmpop_kind(kind).ok_or_else(|| format!("unknown cmpop `{kind}`"))?;
    match sem::binop(op, a, b) {
        Ok(PrimValue::Bool(r)) => Ok(r),
        _ => Err(format!("cmpop `{kind}` does not apply to {}", a.prim_type().name())),
    }
}

/// `soac.unop {kind}`.
pub fn unop(kind: &str, a: PrimValue) -> Result<PrimValue, String> {
    let bad = || format!("unop `{kind}` does not apply to {}", a.prim_type().name());
    // popc and clz keep the operand's type: the count fits every width.
    let count = |which| sem::bit_count(which, a).map(|n| sem::convert(n, a.prim_type()));
    let r = match kind {
        "neg" => sem::neg(a),
        "not" => sem::not(a),
        "abs" => sem::abs(a),
        "signum" => sem::sgn(a),
        "popc" => count(BitCount::Popc),
        "clz" => count(BitCount::Clz),
        _ => match FloatUn::from_name(kind) {
            Some(f) => sem::float_un(f, a),
            None => return Err(bad()),
        },
    };
    r.map_err(|_| bad())
}

/// `soac.ternop {kind}`: `fma` and `mad` on floats.
pub fn ternop(kind: &str, a: PrimValue, b: PrimValue, c: PrimValue) -> Result<PrimValue, String> {
    let fused = match kind {
        "fma" => true,
        "mad" => false,
        _ => return Err(format!("unknown ternop `{kind}`")),
    };
    sem::fma(fused, a, b, c).map_err(|_| {
        format!(
            "ternop `{kind}` does not apply to {}, {} and {}",
            a.prim_type().name(),
            b.prim_type().name(),
            c.prim_type().name()
        )
    })
}

/// `soac.convop {kind}` of `a` to type `to`.
pub fn convop(kind: &str, a: PrimValue, to: Scalar) -> Result<PrimValue, String> {
    let from = scalar_of(a);
    let bad = || {
        format!(
            "convop `{kind}` cannot convert {} to {}",
            from.prim_type().name(),
            to.prim_type().name()
        )
    };
    let t = to.prim_type();
    let accepts = match kind {
        "zext" | "sext" | "trunc" => from.is_int() && to.is_int(),
        "fpconv" => from.is_float() && to.is_float(),
        "fptoui" | "fptosi" => from.is_float() && to.is_int(),
        "uitofp" | "sitofp" => from.is_int() && to.is_float(),
        "itob" => from.is_int() && to == Scalar::Bool,
        "btoi" => from == Scalar::Bool && to.is_int(),
        // The IR's widths, where a bool is 1 bit wide.
        "bitcast" => from.bits() == to.bits(),
        _ => false,
    };
    if !accepts {
        return Err(bad());
    }
    match kind {
        // Read the operand with the extension's signedness; the conversion
        // then keeps the value (or, narrowing, its low bits).
        "zext" | "sext" => sem::with_signedness(a, kind == "sext")
            .map(|v| sem::convert(v, t))
            .ok_or_else(bad),
        "bitcast" => Ok(sem::from_bit_pattern(t, sem::bit_pattern(a))),
        _ => Ok(sem::convert(a, t)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrimValue::*;

    #[test]
    fn integer_division_rounding() {
        assert_eq!(binop("div", I32(-7), I32(2)), Ok(I32(-4)));
        assert_eq!(binop("mod", I32(-7), I32(2)), Ok(I32(1)));
        assert_eq!(binop("rem", I32(-7), I32(2)), Ok(I32(-1)));
        assert_eq!(binop("mod", I32(7), I32(-2)), Ok(I32(-1)));
        assert_eq!(binop("div", I32(i32::MIN), I32(-1)), Ok(I32(i32::MIN)));
        assert_eq!(binop("div", U8(200), U8(7)), Ok(U8(28)));
        assert!(binop("div", I64(1), I64(0)).is_err());
    }

    #[test]
    fn wrapping_and_shifts() {
        assert_eq!(binop("add", U8(250), U8(10)), Ok(U8(4)));
        assert_eq!(binop("mul", U64(u64::MAX), U64(u64::MAX)), Ok(U64(1)));
        assert_eq!(binop("pow", I32(3), I32(4)), Ok(I32(81)));
        assert_eq!(binop("shr", I8(-8), I8(1)), Ok(I8(-4)));
        assert_eq!(binop("ushr", I8(-8), I8(1)), Ok(I8(124)));
        assert_eq!(binop("shl", I32(1), I32(40)), Ok(I32(0)));
        assert_eq!(binop("shr", I32(-1), I32(40)), Ok(I32(-1)));
        assert_eq!(unop("clz", U32(1)), Ok(U32(31)));
        assert_eq!(unop("popc", I8(-1)), Ok(I8(8)));
        assert_eq!(unop("abs", I8(-128)), Ok(I8(-128)));
    }

    #[test]
    fn conversions() {
        assert_eq!(convop("sext", I8(-1), Scalar::I32), Ok(I32(-1)));
        assert_eq!(convop("zext", U8(255), Scalar::I32), Ok(I32(255)));
        assert_eq!(convop("trunc", I32(300), Scalar::U8), Ok(U8(44)));
        assert_eq!(convop("bitcast", I32(-1), Scalar::U32), Ok(U32(u32::MAX)));
        assert_eq!(convop("bitcast", F32(1.0), Scalar::U32), Ok(U32(0x3f80_0000)));
        assert_eq!(convop("fptosi", F64(-2.7), Scalar::I32), Ok(I32(-2)));
        assert_eq!(convop("fptoui", F64(-2.7), Scalar::U8), Ok(U8(0)));
        assert_eq!(convop("itob", I32(2), Scalar::Bool), Ok(Bool(true)));
    }

    #[test]
    fn math_functions_are_the_reference_interpreters() {
        assert_eq!(unop("cbrt", F64(27.0)), Ok(F64(3.0)));
        assert_eq!(unop("log2", F32(8.0)), Ok(F32(3.0)));
        assert_eq!(unop("gamma", F64(5.0)), Ok(F64(24.0)));
        assert!(unop("lgamma", I32(1)).is_err());
        assert_eq!(binop("atan2", F64(0.0), F64(-1.0)), Ok(F64(std::f64::consts::PI)));
        assert_eq!(binop("hypot", F32(3.0), F32(4.0)), Ok(F32(5.0)));
        assert_eq!(binop("copysign", F64(2.0), F64(-0.0)), Ok(F64(-2.0)));
        assert_eq!(binop("mul_hi", U64(u64::MAX), U64(u64::MAX)), Ok(U64(u64::MAX - 1)));
        assert_eq!(binop("mul_hi", I8(-1), I8(1)), Ok(I8(-1)));
        assert!(binop("mul_hi", F32(1.0), F32(1.0)).is_err());
        // a*b = 1 - 2^-60 rounds to 1: only fma keeps the difference.
        let (a, b) = (F64(1.0 + 2f64.powi(-30)), F64(1.0 - 2f64.powi(-30)));
        assert_eq!(ternop("fma", a, b, F64(-1.0)), Ok(F64(-(2f64.powi(-60)))));
        assert_eq!(ternop("mad", a, b, F64(-1.0)), Ok(F64(0.0)));
        assert!(ternop("fma", I32(1), I32(1), I32(1)).is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(unop("round", F64(2.5)), Ok(F64(2.0)));
        assert_eq!(binop("max", F32(f32::NAN), F32(1.0)), Ok(F32(1.0)));
        assert_eq!(cmpop("ne", F32(f32::NAN), F32(f32::NAN)), Ok(true));
        assert_eq!(cmpop("eq", F32(f32::NAN), F32(f32::NAN)), Ok(false));
        assert_eq!(binop("mod", F64(-7.0), F64(2.0)), Ok(F64(-1.0)));
    }
}
