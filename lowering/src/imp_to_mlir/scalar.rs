//! Scalar ops (`soac.constant`, `binop`, `cmpop`, `unop`, `convop`,
//! `select`, `ternop`) as `arith` and `math`, with the soac
//! interpreter's semantics.

use futmlir_dialects::ir::{AttrKind, OpId, OpView, Scalar, Value};

use super::{scalar_type, Emitter, R};

pub(super) fn op(e: &mut Emitter, o: OpId, name: &str, ops: &[Value], result: Value) -> R<()> {
    let ctx = e.ctx;
    let kind = OpView { ctx, op: o }.string_attr("kind").unwrap_or("").to_string();
    let rs = e.scalar_of(result);
    let rt = scalar_type(rs);
    let n: Vec<String> = ops.iter().map(|&v| e.name(v)).collect();
    let unsupported =
        |e: &Emitter, what: &str| Err(e.fail(o, format!("the compiled backends do not support {what} yet")));
    let rhs = match name {
        "soac.constant" => {
            let a = ctx.attr(o, "value").map(|a| ctx.attr_kind(a).clone());
            match a {
                Some(AttrKind::Bool(b)) => format!("arith.constant {b}"),
                Some(AttrKind::Int { bits, .. }) if rs == Scalar::Bool => format!("arith.constant {}", bits != 0),
                Some(AttrKind::Int { bits, .. }) => format!("arith.constant {} : {rt}", truncate(bits, rs)),
                Some(AttrKind::Float { bits, .. }) => {
                    let x = f64::from_bits(bits);
                    let hex = match rs {
                        Scalar::F64 => format!("0x{:016X}", x.to_bits()),
                        Scalar::F32 => format!("0x{:08X}", (x as f32).to_bits()),
                        _ => format!("0x{:04X}", futmlir_values::f16::f64_to_f16(x)),
                    };
                    format!("arith.constant {hex} : {rt}")
                }
                _ => return unsupported(e, "this constant"),
            }
        }
        // Also of memory blocks (pointers).
        "soac.select" => format!("arith.select {}, {}, {} : {}", n[0], n[1], n[2], e.ty(result)),
        "soac.binop" => return binop(e, o, &kind, &n, e.scalar_of(ops[0]), result),
        "soac.cmpop" => {
            let s = e.scalar_of(ops[0]);
            let t = scalar_type(s);
            if s.is_float() {
                let p = match kind.as_str() {
                    "eq" => "oeq",
                    "ne" => "une",
                    "lt" => "olt",
                    "le" => "ole",
                    "gt" => "ogt",
                    _ => "oge",
                };
                format!("arith.cmpf {p}, {}, {} : {t}", n[0], n[1])
            } else {
                let signed = s.is_signed_int();
                let p = match (kind.as_str(), signed) {
                    ("eq", _) => "eq",
                    ("ne", _) => "ne",
                    ("lt", true) => "slt",
                    ("le", true) => "sle",
                    ("gt", true) => "sgt",
                    ("ge", true) => "sge",
                    ("lt", false) => "ult",
                    ("le", false) => "ule",
                    ("gt", false) => "ugt",
                    _ => "uge",
                };
                format!("arith.cmpi {p}, {}, {} : {t}", n[0], n[1])
            }
        }
        "soac.unop" => return unop(e, o, &kind, &n[0], rs, result),
        "soac.convop" => return convop(e, o, &kind, &n[0], e.scalar_of(ops[0]), rs, result),
        "soac.ternop" => match kind.as_str() {
            "fma" => format!("math.fma {}, {}, {} : {rt}", n[0], n[1], n[2]),
            _ => {
                let p = e.tmp(&format!("arith.mulf {}, {} : {rt}", n[0], n[1]));
                format!("arith.addf {p}, {} : {rt}", n[2])
            }
        },
        _ => return unsupported(e, name),
    };
    e.def(result, &rhs);
    Ok(())
}

/// The two's complement value of `bits` in the width of `s`, as a signed
/// decimal (MLIR's integer attributes are signless).
fn truncate(bits: i64, s: Scalar) -> i64 {
    match s.bits() {
        8 => bits as i8 as i64,
        16 => bits as i16 as i64,
        32 => bits as i32 as i64,
        _ => bits,
    }
}

// **Note [Multiply-adds in kernels].** In kernel code, float `add`,
// `sub` and `mul` carry MLIR's `contract` flag, so that NVPTX fuses a
// multiplication and the addition of its product into one `fma` (one
// rounding instead of two), as the reference compiler's CUDA code does
// (NVRTC compiles with `--fmad=true` by default). Without it the PTX has
// `mul.rn` and `add.rn`, which ptxas may not fuse: a tiled matrix
// multiplication then ran at half the arithmetic rate (Note [Block
// tiling]). Results may differ from the interpreter's in the last bits,
// within the tolerance `futmlir test` compares floats with. Host code
// (and the CPU target) keeps the interpreter's two roundings.
fn binop(e: &mut Emitter, o: OpId, kind: &str, n: &[String], s: Scalar, result: Value) -> R<()> {
    let t = scalar_type(s);
    let (a, b) = (&n[0], &n[1]);
    let simple = |op: &str| format!("{op} {a}, {b} : {t}");
    // Note [Multiply-adds in kernels].
    let contract = if e.gpu && e.in_kernel {
        " fastmath<contract>"
    } else {
        ""
    };
    let contracting = |op: &str| format!("{op} {a}, {b}{contract} : {t}");
    let rhs = if s.is_float() {
        match kind {
            "add" => contracting("arith.addf"),
            "sub" => contracting("arith.subf"),
            "mul" => contracting("arith.mulf"),
            "div" => simple("arith.divf"),
            "mod" => simple("arith.remf"),
            "pow" => simple("math.powf"),
            "min" => simple("arith.minnumf"),
            "max" => simple("arith.maxnumf"),
            "atan2" => simple("math.atan2"),
            "copysign" => simple("math.copysign"),
            "hypot" => e.libm_call("hypot", n, s),
            _ => {
                return Err(e.fail(
                    o,
                    format!("the compiled backends do not support the float operation `{kind}` yet"),
                ))
            }
        }
    } else if s == Scalar::Bool {
        match kind {
            "and" | "min" => simple("arith.andi"),
            "or" | "max" => simple("arith.ori"),
            "xor" => simple("arith.xori"),
            _ => return Err(e.fail(o, format!("`{kind}` on booleans"))),
        }
    } else {
        let signed = s.is_signed_int();
        let bits = s.bits();
        match kind {
            "add" => simple("arith.addi"),
            "sub" => simple("arith.subi"),
            "mul" => simple("arith.muli"),
            "div" if signed => {
                // See Note [Signed division overflow].
                let (m1, safe) = safe_divisor(e, b, t);
                let q = e.tmp(&format!("arith.floordivsi {a}, {safe} : {t}"));
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                let neg = e.tmp(&format!("arith.subi {z}, {a} : {t}"));
                format!("arith.select {m1}, {neg}, {q} : {t}")
            }
            "div" => simple("arith.divui"),
            "rem" if signed => {
                // See Note [Signed division overflow].
                let (m1, safe) = safe_divisor(e, b, t);
                let r = e.tmp(&format!("arith.remsi {a}, {safe} : {t}"));
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                format!("arith.select {m1}, {z}, {r} : {t}")
            }
            "rem" => simple("arith.remui"),
            "mod" if !signed => simple("arith.remui"),
            "mod" => {
                // r = a rem b; r + b when r is not zero and has b's opposite sign.
                // See Note [Signed division overflow]: a rem -1 is 0.
                let (_, safe) = safe_divisor(e, b, t);
                let r = e.tmp(&format!("arith.remsi {a}, {safe} : {t}"));
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                let nz = e.tmp(&format!("arith.cmpi ne, {r}, {z} : {t}"));
                let rn = e.tmp(&format!("arith.cmpi slt, {r}, {z} : {t}"));
                let bn = e.tmp(&format!("arith.cmpi slt, {b}, {z} : {t}"));
                let diff = e.tmp(&format!("arith.xori {rn}, {bn} : i1"));
                let fix = e.tmp(&format!("arith.andi {nz}, {diff} : i1"));
                let rb = e.tmp(&format!("arith.addi {r}, {b} : {t}"));
                format!("arith.select {fix}, {rb}, {r} : {t}")
            }
            "pow" => return int_pow(e, a, b, t, result),
            "min" if signed => simple("arith.minsi"),
            "min" => simple("arith.minui"),
            "max" if signed => simple("arith.maxsi"),
            "max" => simple("arith.maxui"),
            "and" => simple("arith.andi"),
            "or" => simple("arith.ori"),
            "xor" => simple("arith.xori"),
            "shl" | "shr" | "ushr" => {
                let w = e.tmp(&format!("arith.constant {bits} : {t}"));
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                let lo = e.tmp(&format!("arith.cmpi sge, {b}, {z} : {t}"));
                let hi = e.tmp(&format!("arith.cmpi slt, {b}, {w} : {t}"));
                let ok = e.tmp(&format!("arith.andi {lo}, {hi} : i1"));
                let (op, fallback) = match kind {
                    "shl" => ("arith.shli", z.clone()),
                    "shr" if signed => {
                        let m = e.tmp(&format!("arith.constant -1 : {t}"));
                        let neg = e.tmp(&format!("arith.cmpi slt, {a}, {z} : {t}"));
                        let f = e.tmp(&format!("arith.select {neg}, {m}, {z} : {t}"));
                        ("arith.shrsi", f)
                    }
                    _ => ("arith.shrui", z.clone()),
                };
                let safe_b = e.tmp(&format!("arith.select {ok}, {b}, {z} : {t}"));
                let sh = e.tmp(&format!("{op} {a}, {safe_b} : {t}"));
                format!("arith.select {ok}, {sh}, {fallback} : {t}")
            }
            "mul_hi" => {
                let wide = format!("i{}", 2 * bits);
                let ext = if signed { "arith.extsi" } else { "arith.extui" };
                let x = e.tmp(&format!("{ext} {a} : {t} to {wide}"));
                let y = e.tmp(&format!("{ext} {b} : {t} to {wide}"));
                let p = e.tmp(&format!("arith.muli {x}, {y} : {wide}"));
                let k = e.tmp(&format!("arith.constant {bits} : {wide}"));
                let h = e.tmp(&format!("arith.shrui {p}, {k} : {wide}"));
                format!("arith.trunci {h} : {wide} to {t}")
            }
            _ => {
                return Err(e.fail(
                    o,
                    format!("the compiled backends do not support the integer operation `{kind}` yet"),
                ))
            }
        }
    };
    e.def(result, &rhs);
    Ok(())
}

fn unop(e: &mut Emitter, o: OpId, kind: &str, a: &str, s: Scalar, result: Value) -> R<()> {
    let t = scalar_type(s);
    let rhs = if s == Scalar::Bool {
        let one = e.tmp("arith.constant true");
        format!("arith.xori {a}, {one} : i1")
    } else if s.is_float() {
        match kind {
            "neg" => format!("arith.negf {a} : {t}"),
            "abs" => format!("math.absf {a} : {t}"),
            "signum" => {
                let z = e.tmp(&format!("arith.constant 0.0 : {t}"));
                let one = e.tmp(&format!("arith.constant 1.0 : {t}"));
                let m = e.tmp(&format!("arith.constant -1.0 : {t}"));
                let gt = e.tmp(&format!("arith.cmpf ogt, {a}, {z} : {t}"));
                let lt = e.tmp(&format!("arith.cmpf olt, {a}, {z} : {t}"));
                let x = e.tmp(&format!("arith.select {lt}, {m}, {a} : {t}"));
                format!("arith.select {gt}, {one}, {x} : {t}")
            }
            "round" => format!("math.roundeven {a} : {t}"),
            "recip" => {
                let one = e.tmp(&format!("arith.constant 1.0 : {t}"));
                format!("arith.divf {one}, {a} : {t}")
            }
            "sqrt" | "exp" | "log" | "sin" | "cos" | "tan" | "floor" | "ceil" | "trunc" | "acos" | "asin" | "atan"
            | "acosh" | "asinh" | "atanh" | "cosh" | "sinh" | "tanh" | "cbrt" | "erf" | "erfc" | "log10" | "log1p"
            | "log2" => format!("math.{kind} {a} : {t}"),
            "gamma" => e.libm_call("tgamma", &[a.to_string()], s),
            "lgamma" => e.libm_call("lgamma", &[a.to_string()], s),
            _ => {
                return Err(e.fail(
                    o,
                    format!("the compiled backends do not support the float function `{kind}` yet"),
                ))
            }
        }
    } else {
        match kind {
            "neg" => {
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                format!("arith.subi {z}, {a} : {t}")
            }
            "not" => {
                let m = e.tmp(&format!("arith.constant -1 : {t}"));
                format!("arith.xori {a}, {m} : {t}")
            }
            // `max(a, 0 - a)` (the minimum wraps to itself, as
            // `math.absi` does): `math.absi` has no lowering in the
            // kernels' pipeline when libdevice takes the `math` ops.
            "abs" if s.is_signed_int() => {
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                let n = e.tmp(&format!("arith.subi {z}, {a} : {t}"));
                format!("arith.maxsi {a}, {n} : {t}")
            }
            "abs" => return copy(e, a, t, result),
            "signum" => {
                let z = e.tmp(&format!("arith.constant 0 : {t}"));
                let gt = e.tmp(&format!(
                    "arith.cmpi {}, {a}, {z} : {t}",
                    if s.is_signed_int() { "sgt" } else { "ugt" }
                ));
                let lt = e.tmp(&format!("arith.cmpi slt, {a}, {z} : {t}"));
                let lt = if s.is_signed_int() {
                    lt
                } else {
                    e.tmp("arith.constant false")
                };
                let g = e.tmp(&format!("arith.extui {gt} : i1 to {t}"));
                let l = e.tmp(&format!("arith.extui {lt} : i1 to {t}"));
                format!("arith.subi {g}, {l} : {t}")
            }
            // LLVM's intrinsics directly: kernels linked with libdevice
            // get no `math`-to-LLVM conversion, and libdevice has no
            // counterpart of `math.ctpop`/`math.ctlz`.
            "popc" => format!("\"llvm.intr.ctpop\"({a}) : ({t}) -> {t}"),
            "clz" => format!("\"llvm.intr.ctlz\"({a}) <{{is_zero_poison = false}}> : ({t}) -> {t}"),
            _ => {
                return Err(e.fail(
                    o,
                    format!("the compiled backends do not support the integer function `{kind}` yet"),
                ))
            }
        }
    };
    e.def(result, &rhs);
    Ok(())
}

// Note [Signed division overflow]
// `INT_MIN / -1` overflows: LLVM makes it poison and x86 traps (SIGFPE).
// Futhark's integers wrap, so the quotient is `INT_MIN` (`0 - a`) and
// the remainder 0, as in the interpreters. Division by -1 is therefore
// done as division by 1 and the result replaced: `-a` for the quotient,
// 0 for the remainder (and for `mod`, whose remainder is then 0 too).
// Division by zero is checked before (the internaliser's assertion).

/// Whether the divisor `b` is -1, and a divisor that is 1 where `b` is -1
/// (Note [Signed division overflow]).
fn safe_divisor(e: &mut Emitter, b: &str, t: &str) -> (String, String) {
    let m1 = e.tmp(&format!("arith.constant -1 : {t}"));
    let one = e.tmp(&format!("arith.constant 1 : {t}"));
    let is_m1 = e.tmp(&format!("arith.cmpi eq, {b}, {m1} : {t}"));
    let safe = e.tmp(&format!("arith.select {is_m1}, {one}, {b} : {t}"));
    (is_m1, safe)
}

/// Integer `a ** b` by repeated squaring, wrapping (the interpreters'
/// semantics). A negative exponent is checked before (the internaliser's
/// assertion); here it gives 1. A loop rather than `math.ipowi`, which
/// kernels cannot lower (MLIR expands it into functions of a `builtin`
/// module only).
fn int_pow(e: &mut Emitter, a: &str, b: &str, t: &str, result: Value) -> R<()> {
    let one = e.tmp(&format!("arith.constant 1 : {t}"));
    let z = e.tmp(&format!("arith.constant 0 : {t}"));
    let (acc, base, ex) = (e.fresh(), e.fresh(), e.fresh());
    let r = e.fresh();
    e.line(&format!(
        "{r}:3 = scf.while ({acc} = {one}, {base} = {a}, {ex} = {b}) : ({t}, {t}, {t}) -> ({t}, {t}, {t}) {{"
    ));
    e.indent += 2;
    let c = e.tmp(&format!("arith.cmpi sgt, {ex}, {z} : {t}"));
    e.line(&format!("scf.condition({c}) {acc}, {base}, {ex} : {t}, {t}, {t}"));
    e.indent -= 2;
    let (acc2, base2, ex2) = (e.fresh(), e.fresh(), e.fresh());
    e.line(&format!("}} do {{\n^bb0({acc2}: {t}, {base2}: {t}, {ex2}: {t}):"));
    e.indent += 2;
    let bit = e.tmp(&format!("arith.andi {ex2}, {one} : {t}"));
    let odd = e.tmp(&format!("arith.cmpi ne, {bit}, {z} : {t}"));
    let m = e.tmp(&format!("arith.muli {acc2}, {base2} : {t}"));
    let acc3 = e.tmp(&format!("arith.select {odd}, {m}, {acc2} : {t}"));
    let ex3 = e.tmp(&format!("arith.shrui {ex2}, {one} : {t}"));
    let base3 = e.tmp(&format!("arith.muli {base2}, {base2} : {t}"));
    e.line(&format!("scf.yield {acc3}, {base3}, {ex3} : {t}, {t}, {t}"));
    e.indent -= 2;
    e.line("}");
    e.def(result, &format!("arith.addi {r}#0, {z} : {t}"));
    Ok(())
}

/// `result` is `a` (an op that changes nothing).
fn copy(e: &mut Emitter, a: &str, t: &str, result: Value) -> R<()> {
    let z = e.tmp(&format!("arith.constant 0 : {t}"));
    e.def(result, &format!("arith.addi {a}, {z} : {t}"));
    Ok(())
}

fn convop(e: &mut Emitter, o: OpId, kind: &str, a: &str, from: Scalar, to: Scalar, result: Value) -> R<()> {
    let (ft, tt) = (scalar_type(from), scalar_type(to));
    let int_resize = |e: &mut Emitter, signed: bool| -> String {
        let (fb, tb) = (from.bits(), to.bits());
        if tb > fb {
            format!(
                "{} {a} : {ft} to {tt}",
                if signed { "arith.extsi" } else { "arith.extui" }
            )
        } else if tb < fb {
            format!("arith.trunci {a} : {ft} to {tt}")
        } else {
            let z = e.tmp(&format!("arith.constant 0 : {tt}"));
            format!("arith.addi {a}, {z} : {tt}")
        }
    };
    let rhs = match kind {
        "zext" => int_resize(e, false),
        "sext" => int_resize(e, true),
        "trunc" => int_resize(e, from.is_signed_int()),
        "fpconv" if to.bits() > from.bits() => format!("arith.extf {a} : {ft} to {tt}"),
        "fpconv" if to.bits() < from.bits() => format!("arith.truncf {a} : {ft} to {tt}"),
        "fpconv" => return copy_float(e, a, tt, result),
        "fptosi" | "fptoui" => return float_to_int(e, a, from, to, kind == "fptosi", result),
        "sitofp" => format!("arith.sitofp {a} : {ft} to {tt}"),
        "uitofp" => format!("arith.uitofp {a} : {ft} to {tt}"),
        "itob" => {
            let z = e.tmp(&format!("arith.constant 0 : {ft}"));
            format!("arith.cmpi ne, {a}, {z} : {ft}")
        }
        "btoi" => format!("arith.extui {a} : i1 to {tt}"),
        "bitcast" if ft == tt => return copy(e, a, tt, result),
        "bitcast" => format!("arith.bitcast {a} : {ft} to {tt}"),
        _ => {
            return Err(e.fail(
                o,
                format!("the compiled backends do not support the conversion `{kind}` yet"),
            ))
        }
    };
    e.def(result, &rhs);
    Ok(())
}

/// **Note [Float to integer conversion].**
/// LLVM's `fptosi`/`fptoui` give poison for NaN and for values out of the
/// integer type's range (and C, Futhark's reference backend, leaves them
/// undefined). The interpreters saturate, as Rust's `as` does: NaN is 0, a
/// value below the range is the type's minimum, one above it the maximum
/// (`u8.f64 300` is 255, `i32.f64 -inf` is i32's minimum). Compiled code
/// does the same with selects around the conversion, so every backend
/// agrees. Half floats are widened to f32 first (exactly), where the
/// range bounds are representable.
fn float_to_int(e: &mut Emitter, a: &str, from: Scalar, to: Scalar, signed: bool, result: Value) -> R<()> {
    let (a, from) = if from == Scalar::F16 {
        (e.tmp(&format!("arith.extf {a} : f16 to f32")), Scalar::F32)
    } else {
        (a.to_string(), from)
    };
    let (ft, tt) = (scalar_type(from), scalar_type(to));
    let bits = to.bits();
    // The range: [lo, hi) as floats (powers of two, exact), and the
    // integer bounds it saturates to.
    let (lo, hi, min, max) = if signed {
        let h = 2f64.powi(bits as i32 - 1);
        (
            -h,
            h,
            format!("-{}", 1u128 << (bits - 1)),
            ((1u128 << (bits - 1)) - 1).to_string(),
        )
    } else {
        (
            0.0,
            2f64.powi(bits as i32),
            "0".to_string(),
            ((1u128 << bits) - 1).to_string(),
        )
    };
    let conv = if signed { "arith.fptosi" } else { "arith.fptoui" };
    let r0 = e.tmp(&format!("{conv} {a} : {ft} to {tt}"));
    let hi_f = e.tmp(&format!("arith.constant {hi:?} : {ft}"));
    let lo_f = e.tmp(&format!("arith.constant {lo:?} : {ft}"));
    let above = e.tmp(&format!("arith.cmpf oge, {a}, {hi_f} : {ft}"));
    // Unsigned: anything that truncates to below 0 (x <= -1) saturates.
    let below = if signed {
        e.tmp(&format!("arith.cmpf olt, {a}, {lo_f} : {ft}"))
    } else {
        let m1 = e.tmp(&format!("arith.constant -1.0 : {ft}"));
        e.tmp(&format!("arith.cmpf ole, {a}, {m1} : {ft}"))
    };
    let nan = e.tmp(&format!("arith.cmpf uno, {a}, {a} : {ft}"));
    // Integer constants in MLIR are written signed.
    let max_v = if signed || bits == 1 { max } else { "-1".to_string() };
    let max_c = e.tmp(&format!("arith.constant {max_v} : {tt}"));
    let min_c = e.tmp(&format!("arith.constant {min} : {tt}"));
    let zero = e.tmp(&format!("arith.constant 0 : {tt}"));
    let r1 = e.tmp(&format!("arith.select {above}, {max_c}, {r0} : {tt}"));
    let r2 = e.tmp(&format!("arith.select {below}, {min_c}, {r1} : {tt}"));
    e.def(result, &format!("arith.select {nan}, {zero}, {r2} : {tt}"));
    Ok(())
}

fn copy_float(e: &mut Emitter, a: &str, t: &str, result: Value) -> R<()> {
    let z = e.tmp(&format!("arith.constant -0.0 : {t}"));
    e.def(result, &format!("arith.addf {a}, {z} : {t}"));
    Ok(())
}
