//! Verifiers of the `soac` ops. The scalar, function and array-indexing
//! verifiers are also used by the other dialects' ops of the same shape.

use crate::ir::{AttrKind, Dim, OpView, Scalar, TypeKind};

// ----- functions -------------------------------------------------------------

/// A function: `sym_name`, `function_type`, one region whose entry block
/// takes the inputs and whose terminator returns the results.
pub fn func(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(0)?;
    v.expect_regions(1)?;
    v.string_attr("sym_name")?;
    let ft = v.type_attr("function_type")?;
    let TypeKind::Function { inputs, results } = v.ctx.type_kind(ft) else {
        return Err("attribute 'function_type' must be a function type".into());
    };
    v.expect_block_args(0, inputs)?;
    // The first `size_params` parameters are the sizes of the others (an
    // entry point's shapes): there are no more of them than parameters,
    // and each is an i64.
    if v.attr("size_params").is_some() {
        let k = v.int_attr("size_params")?;
        if k < 0 || k as usize > inputs.len() {
            return Err(format!(
                "attribute 'size_params' is {k}, but the function has {} parameters",
                inputs.len()
            ));
        }
        if let Some(t) = inputs[..k as usize]
            .iter()
            .find(|&&t| v.ctx.as_scalar(t) != Some(crate::ir::Scalar::I64))
        {
            return Err(format!(
                "the first {k} parameters are sizes ('size_params') and must be i64, not {}",
                v.ctx.type_to_string(*t)
            ));
        }
    }
    let returned = v.yielded_types(0)?;
    v.expect_types("returned value", results, &returned)
}

/// `return` must sit directly in a function; the function checks the types.
pub fn return_(v: &OpView) -> Result<(), String> {
    v.expect_results(0)?;
    let parent = v.ctx.parent_op(v.op).map(|p| v.ctx.op_name(p));
    match parent {
        Some(p) if p.ends_with(".func") || p.ends_with(".kernel") => Ok(()),
        _ => Err("must be nested directly in a function".into()),
    }
}

/// `yield` ends a region of a structured op, which checks the types.
pub fn yield_(v: &OpView) -> Result<(), String> {
    v.expect_results(0)?;
    let parent = v.ctx.parent_op(v.op).map(|p| v.ctx.op_name(p));
    match parent {
        Some(p) if !p.ends_with(".func") && p != "builtin.module" => Ok(()),
        _ => Err("must end a region of a structured op, not a function or module".into()),
    }
}

/// A call of the function named by `callee`; checked against its type
/// when the callee is in the enclosing symbol table.
pub fn apply(v: &OpView) -> Result<(), String> {
    v.expect_regions(0)?;
    let callee = v.symbol_attr("callee")?;
    let Some(f) = v.lookup_symbol(callee) else {
        return Ok(());
    };
    let Some(ft) = v.ctx.attr(f, "function_type") else {
        return Ok(());
    };
    if let AttrKind::Type(t) = v.ctx.attr_kind(ft) {
        if let TypeKind::Function { inputs, results } = v.ctx.type_kind(*t) {
            v.expect_types("argument", inputs, &v.operand_types())?;
            v.expect_types("result", results, &v.result_types())?;
        }
    }
    Ok(())
}

// ----- scalars ---------------------------------------------------------------

/// A constant: the `value` attribute's type is the result type.
pub fn constant(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(1)?;
    v.expect_regions(0)?;
    let rt = v.result_type(0);
    let ok = match v.expect_attr("value")? {
        AttrKind::Int { ty, .. } | AttrKind::Float { ty, .. } => *ty == rt,
        AttrKind::Bool(_) => v.is_bool(rt),
        // Array and string literals are typed by the result.
        AttrKind::Array(_) | AttrKind::String(_) => v.is_array(rt),
        _ => false,
    };
    if !ok {
        return Err(format!(
            "attribute 'value' does not have the result type {}",
            v.show(rt)
        ));
    }
    Ok(())
}

pub const BINOP_KINDS: &[&str] = &[
    "add", "sub", "mul", "div", "mod", "rem", "pow", "min", "max", "and", "or", "xor", "shl", "shr", "ushr", "mul_hi",
    "atan2", "hypot", "copysign",
];
pub const UNOP_KINDS: &[&str] = &[
    "neg", "not", "abs", "signum", "sqrt", "exp", "log", "sin", "cos", "tan", "floor", "ceil", "round", "popc", "clz",
    "cbrt", "log2", "log10", "log1p", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "gamma", "lgamma", "erf", "erfc",
];
pub const TERNOP_KINDS: &[&str] = &["fma", "mad"];
pub const CMPOP_KINDS: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge"];

/// Whether `binop`/`cmpop` `kind` on operands of type `t` gives the same
/// for its operands swapped (what CSE may treat as equal). Float `min` and
/// `max` are left out: `min(-0.0, 0.0)` may depend on the order.
pub fn commutative(kind: &str, t: Scalar) -> bool {
    match kind {
        "add" | "mul" | "eq" | "ne" => true,
        "and" | "or" | "xor" | "min" | "max" => !t.is_float(),
        _ => false,
    }
}
pub const CONVOP_KINDS: &[&str] = &[
    "zext", "sext", "trunc", "fpconv", "fptoui", "fptosi", "uitofp", "sitofp", "itob", "btoi", "bitcast",
];

fn scalar_operand(v: &OpView, i: usize) -> Result<Scalar, String> {
    let t = v.operand_type(i);
    v.scalar(t)
        .ok_or_else(|| format!("operand #{i} must be a scalar, found {}", v.show(t)))
}

/// `binop {kind}`: two operands of one scalar type, a result of that type.
pub fn binop(v: &OpView) -> Result<(), String> {
    v.expect_operands(2)?;
    v.expect_results(1)?;
    let kind = v.enum_attr("kind", BINOP_KINDS)?;
    let s = scalar_operand(v, 0)?;
    if v.operand_type(1) != v.operand_type(0) || v.result_type(0) != v.operand_type(0) {
        return Err(format!(
            "expects operands and result of one type, found ({}, {}) -> {}",
            v.show(v.operand_type(0)),
            v.show(v.operand_type(1)),
            v.show(v.result_type(0))
        ));
    }
    let ok = match kind {
        "and" | "or" | "xor" => s.is_int() || s == Scalar::Bool,
        "shl" | "shr" | "ushr" | "rem" | "mul_hi" => s.is_int(),
        "atan2" | "hypot" | "copysign" => s.is_float(),
        _ => s != Scalar::Bool,
    };
    if !ok {
        return Err(format!("'{kind}' does not apply to {}", s.futhark_name()));
    }
    Ok(())
}

/// `unop {kind}`: one scalar operand, a result of the same type.
pub fn unop(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let kind = v.enum_attr("kind", UNOP_KINDS)?;
    let s = scalar_operand(v, 0)?;
    if v.result_type(0) != v.operand_type(0) {
        return Err(format!(
            "expects the result type to be the operand type {}",
            v.show(v.operand_type(0))
        ));
    }
    let ok = match kind {
        "not" => s.is_int() || s == Scalar::Bool,
        "neg" | "abs" | "signum" => s != Scalar::Bool,
        "popc" | "clz" => s.is_int(),
        _ => s.is_float(),
    };
    if !ok {
        return Err(format!("'{kind}' does not apply to {}", s.futhark_name()));
    }
    Ok(())
}

/// `ternop {kind}`: three operands of one float type, a result of that
/// type.
pub fn ternop(v: &OpView) -> Result<(), String> {
    v.expect_operands(3)?;
    v.expect_results(1)?;
    let kind = v.enum_attr("kind", TERNOP_KINDS)?;
    let s = scalar_operand(v, 0)?;
    let t = v.operand_type(0);
    if v.operand_type(1) != t || v.operand_type(2) != t || v.result_type(0) != t {
        return Err(format!(
            "expects operands and result of one type, found ({}, {}, {}) -> {}",
            v.show(t),
            v.show(v.operand_type(1)),
            v.show(v.operand_type(2)),
            v.show(v.result_type(0))
        ));
    }
    if !s.is_float() {
        return Err(format!("'{kind}' does not apply to {}", s.futhark_name()));
    }
    Ok(())
}

/// `cmpop {kind}`: two operands of one scalar type, an `i1` result.
pub fn cmpop(v: &OpView) -> Result<(), String> {
    v.expect_operands(2)?;
    v.expect_results(1)?;
    v.enum_attr("kind", CMPOP_KINDS)?;
    scalar_operand(v, 0)?;
    if v.operand_type(1) != v.operand_type(0) {
        return Err("expects both operands to have one type".into());
    }
    if !v.is_bool(v.result_type(0)) {
        return Err(format!("result must be i1, found {}", v.show(v.result_type(0))));
    }
    Ok(())
}

/// `convop {kind}`: one scalar to another, as the kind allows.
pub fn convop(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let kind = v.enum_attr("kind", CONVOP_KINDS)?;
    let from = scalar_operand(v, 0)?;
    let rt = v.result_type(0);
    let to = v
        .scalar(rt)
        .ok_or_else(|| format!("result must be a scalar, found {}", v.show(rt)))?;
    let ok = match kind {
        "zext" | "sext" => from.is_int() && to.is_int() && to.bits() >= from.bits(),
        "trunc" => from.is_int() && to.is_int() && to.bits() <= from.bits(),
        "fpconv" => from.is_float() && to.is_float(),
        "fptoui" | "fptosi" => from.is_float() && to.is_int(),
        "uitofp" | "sitofp" => from.is_int() && to.is_float(),
        "itob" => from.is_int() && to == Scalar::Bool,
        "btoi" => from == Scalar::Bool && to.is_int(),
        _ => from.bits() == to.bits(),
    };
    if !ok {
        return Err(format!(
            "'{kind}' cannot convert {} to {}",
            from.futhark_name(),
            to.futhark_name()
        ));
    }
    Ok(())
}

/// `select(c, a, b)`: `c : i1`, `a`, `b` and the result of one type.
pub fn select(v: &OpView) -> Result<(), String> {
    v.expect_operands(3)?;
    v.expect_results(1)?;
    if !v.is_bool(v.operand_type(0)) {
        return Err(format!("condition must be i1, found {}", v.show(v.operand_type(0))));
    }
    v.expect_type("operand #2", v.operand_type(1), v.operand_type(2))?;
    v.expect_type("result", v.operand_type(1), v.result_type(0))
}

/// `assert(c) {message}`.
pub fn assert(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(1)?;
    v.expect_results(0)?;
    if !v.is_bool(v.operand_type(0)) {
        return Err("condition must be i1".into());
    }
    let n = v.num_operands();
    if n > 1 + crate::imp::verify::MAX_ASSERT_ARGS {
        return Err(format!(
            "at most {} message arguments, found {}",
            crate::imp::verify::MAX_ASSERT_ARGS,
            n - 1
        ));
    }
    v.expect_i64_operands(1..n, "a message argument")?;
    v.string_attr("message")?;
    Ok(())
}

// ----- control flow ----------------------------------------------------------

/// `jvp(xs..., dxs...)`: `k` arguments and `k` tangents of the same types;
/// the region takes `k` arguments of those types and yields `m` values;
/// the results are `m` values of the yielded types and `m` tangents.
pub fn jvp(v: &OpView) -> Result<(), String> {
    v.expect_regions(1)?;
    let ots = v.operand_types();
    if !ots.len().is_multiple_of(2) {
        return Err(format!(
            "expects as many tangents as arguments, found {} operands",
            ots.len()
        ));
    }
    let k = ots.len() / 2;
    v.expect_types("tangents", &ots[..k], &ots[k..])?;
    v.expect_block_args(0, &ots[..k])?;
    let ys = v.yielded_types(0)?;
    v.expect_results(2 * ys.len())?;
    let rts = v.result_types();
    v.expect_types("tangent results", &rts[..ys.len()], &rts[ys.len()..])?;
    Ok(())
}

/// `vjp(xs..., dys...)`: `k` arguments (the region's block arguments)
/// and a cotangent of each of the `m` values the region yields; results:
/// the `m` values and the `k` adjoints of the arguments.
pub fn vjp(v: &OpView) -> Result<(), String> {
    v.expect_regions(1)?;
    let ots = v.operand_types();
    let k = v.single_block_args(0)?.len();
    if ots.len() < k {
        return Err(format!(
            "expects {k} arguments and their cotangents, found {} operands",
            ots.len()
        ));
    }
    v.expect_block_args(0, &ots[..k])?;
    let ys = v.yielded_types(0)?;
    if ots.len() != k + ys.len() {
        return Err(format!(
            "expects {k} arguments and {} cotangents, found {} operands",
            ys.len(),
            ots.len()
        ));
    }
    v.expect_results(ys.len() + k)?;
    let rts = v.result_types();
    // The results' types, not the yields': sizes the function computes are
    // existential outside it.
    v.expect_types("cotangents", &rts[..ys.len()], &ots[k..])?;
    v.expect_types("adjoint results", &ots[..k], &rts[ys.len()..])?;
    Ok(())
}

/// `with_vjp(xs...)`: region 0 takes the arguments and yields the `m`
/// results; region 1 takes the results and their cotangents and yields
/// the arguments' adjoints.
pub fn with_vjp(v: &OpView) -> Result<(), String> {
    v.expect_regions(2)?;
    let ots = v.operand_types();
    v.expect_block_args(0, &ots)?;
    let ys = v.yielded_types(0)?;
    v.expect_results(ys.len())?;
    let rts = v.result_types();
    let mut both = rts.clone();
    both.extend(&rts);
    v.expect_block_args(1, &both)?;
    v.expect_yield(1, &ots)?;
    Ok(())
}

/// `if(c)`: two regions without arguments, each yielding the result types.
pub fn if_(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_regions(2)?;
    if !v.is_bool(v.operand_type(0)) {
        return Err(format!("condition must be i1, found {}", v.show(v.operand_type(0))));
    }
    branches(v)
}

/// The two regions of a two-way branch: no arguments, each yielding the
/// result types.
pub fn branches(v: &OpView) -> Result<(), String> {
    let rts = v.result_types();
    for r in 0..2 {
        v.expect_block_args(r, &[])?;
        v.expect_yield(r, &rts)?;
    }
    Ok(())
}

/// `loop {form}`. For `"for"`: operands `(n, inits...)`, block arguments
/// `(i: i64, merge...)`. For `"while"`: operands `(inits...)` whose first is
/// the `i1` condition, block arguments `(merge...)`. The body yields the
/// next merge values; the results have the merge types.
pub fn loop_(v: &OpView) -> Result<(), String> {
    loop_with_forms(v, &["for", "while"])
}

pub fn loop_with_forms(v: &OpView, forms: &[&str]) -> Result<(), String> {
    v.expect_regions(1)?;
    let form = v.enum_attr("form", forms)?;
    let ots = v.operand_types();
    let (index, inits) = match form {
        "while" => {
            v.expect_operands_at_least(1)?;
            if !v.is_bool(ots[0]) {
                return Err(format!(
                    "a while loop's first merge value is its i1 condition, found {}",
                    v.show(ots[0])
                ));
            }
            (None, &ots[..])
        }
        "for_in" => {
            v.expect_operands_at_least(1)?;
            let xs = ots[0];
            let args = v.single_block_args(0)?;
            match args.first() {
                Some(&row) if v.is_row_of(xs, row) => {}
                _ => return Err("a for-in loop's first block argument must be a row of its array".into()),
            }
            (Some(args[0]), &ots[1..])
        }
        _ => {
            v.expect_operands_at_least(1)?;
            if !v.is_int(ots[0]) {
                return Err(format!(
                    "a for loop's bound must be an integer, found {}",
                    v.show(ots[0])
                ));
            }
            (Some(ots[0]), &ots[1..])
        }
    };
    let mut expected: Vec<_> = index.into_iter().collect();
    expected.extend_from_slice(inits);
    v.expect_block_args(0, &expected)?;
    // The body yields the merge parameters' types, which may leave a
    // size unknown that the initial values know (a size that changes
    // from one iteration to the next: `loop ys = xs for i < k do ys ++
    // ys`).
    let params = v.single_block_args(0)?;
    v.expect_yield(0, &params[params.len() - inits.len()..])?;
    v.expect_types("result", inits, &v.result_types())
}

// ----- SOACs -----------------------------------------------------------------

/// Checks operands `range` are arrays of outer size `operand(0)`.
fn expect_inputs(v: &OpView, range: std::ops::Range<usize>) -> Result<(), String> {
    let n = v.operand(0);
    for i in range {
        v.expect_outer_size(&format!("operand #{i}"), v.operand_type(i), n)?;
    }
    Ok(())
}

/// Checks the leading i64 size operand.
fn size_operand(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(1)?;
    v.expect_i64_operands(0..1, "the outer size")
}

/// Checks region `r`'s block arguments are the rows of operands `range`,
/// after the `lead` leading argument types.
fn expect_row_args(
    v: &OpView,
    r: usize,
    lead: &[crate::ir::Type],
    range: std::ops::Range<usize>,
) -> Result<(), String> {
    let args = v.single_block_args(r)?;
    let want = lead.len() + range.len();
    if args.len() != want {
        return Err(format!(
            "region #{r} expects {want} block arguments, found {}",
            args.len()
        ));
    }
    v.expect_types(&format!("region #{r} argument"), lead, &args[..lead.len()])?;
    for (k, i) in range.enumerate() {
        let a = args[lead.len() + k];
        if !v.is_row_of(v.operand_type(i), a) {
            return Err(format!(
                "region #{r} argument #{} has type {}, but operand #{i} has rows of another type",
                lead.len() + k,
                v.show(a)
            ));
        }
    }
    Ok(())
}

/// Checks result `i` is an array `[n]t`.
fn expect_mapped_result(v: &OpView, i: usize, t: crate::ir::Type) -> Result<(), String> {
    let rt = v.result_type(i);
    if !v.is_array_of(rt, &[Dim::Value(v.operand(0))], t) {
        return Err(format!(
            "result #{i} has type {}, expected an array of outer size n of {}",
            v.show(rt),
            v.show(t)
        ));
    }
    Ok(())
}

/// Checks region `r` is an associative operator on `ts`: `2k` arguments
/// (`ts` twice), yielding `ts`.
fn expect_operator(v: &OpView, r: usize, ts: &[crate::ir::Type]) -> Result<(), String> {
    let mut args = ts.to_vec();
    args.extend_from_slice(ts);
    v.expect_block_args(r, &args)?;
    v.expect_yield(r, ts)
}

/// The number `k` of an operator region's values (half its arguments).
fn operator_arity(v: &OpView, r: usize) -> Result<usize, String> {
    let args = v.single_block_args(r)?;
    if args.len() % 2 != 0 {
        return Err(format!(
            "region #{r} (the operator) must have an even number of block arguments, found {}",
            args.len()
        ));
    }
    Ok(args.len() / 2)
}

/// `map(n, xs...)`: the lambda maps rows of `xs` to the result rows.
pub fn map(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let m = v.num_operands();
    expect_inputs(v, 1..m)?;
    expect_row_args(v, 0, &[], 1..m)?;
    let ys = v.yielded_types(0)?;
    v.expect_results(ys.len())?;
    for (i, &t) in ys.iter().enumerate() {
        expect_mapped_result(v, i, t)?;
    }
    Ok(())
}

/// `reduce(n, nes..., xs...)` and `scan`: `k` = number of results.
fn reduce_or_scan(v: &OpView, scan: bool) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let k = v.num_results();
    if k == 0 {
        return Err("expects at least 1 result".into());
    }
    v.expect_operands(1 + 2 * k)?;
    expect_inputs(v, 1 + k..1 + 2 * k)?;
    let ts: Vec<_> = (0..k).map(|i| v.operand_type(1 + i)).collect();
    for (i, &t) in ts.iter().enumerate() {
        if !v.is_row_of(v.operand_type(1 + k + i), t) {
            return Err(format!(
                "neutral element #{i} has type {}, but the array's rows have another type",
                v.show(t)
            ));
        }
    }
    expect_operator(v, 0, &ts)?;
    for (i, &t) in ts.iter().enumerate() {
        if scan {
            expect_mapped_result(v, i, t)?;
        } else {
            v.expect_type(&format!("result #{i}"), t, v.result_type(i))?;
        }
    }
    Ok(())
}

pub fn reduce(v: &OpView) -> Result<(), String> {
    reduce_or_scan(v, false)
}
pub fn scan(v: &OpView) -> Result<(), String> {
    reduce_or_scan(v, true)
}

/// `redomap(n, nes..., xs...)` / `scanomap`: region 0 the operator on `k`
/// values, region 1 the map lambda yielding `k` values to combine and `l`
/// mapped values; results `k` reduced (or scanned) then `l` mapped arrays.
fn redomap_or_scanomap(v: &OpView, scan: bool) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(2)?;
    let k = operator_arity(v, 0)?;
    v.expect_operands_at_least(1 + k)?;
    let m = v.num_operands();
    let ts: Vec<_> = (0..k).map(|i| v.operand_type(1 + i)).collect();
    expect_operator(v, 0, &ts)?;
    expect_inputs(v, 1 + k..m)?;
    expect_row_args(v, 1, &[], 1 + k..m)?;
    let ys = v.yielded_types(1)?;
    if ys.len() < k {
        return Err(format!(
            "region #1 (the map lambda) must yield at least {k} values, found {}",
            ys.len()
        ));
    }
    v.expect_types("region #1 yield", &ts, &ys[..k])?;
    v.expect_results(ys.len())?;
    for (i, &t) in ys.iter().enumerate() {
        if i < k && !scan {
            v.expect_type(&format!("result #{i}"), t, v.result_type(i))?;
        } else {
            expect_mapped_result(v, i, t)?;
        }
    }
    Ok(())
}

pub fn redomap(v: &OpView) -> Result<(), String> {
    redomap_or_scanomap(v, false)
}
pub fn scanomap(v: &OpView) -> Result<(), String> {
    redomap_or_scanomap(v, true)
}

/// `screma(n, scan_nes..., red_nes..., xs...)`: Futhark's screma of scans
/// and reductions with a post-lambda. Region 0 the scan operator on `k`
/// values, region 1 the reduction operator on `r` values (no arguments
/// when `r` is 0), region 2 the pre-lambda yielding `k` values to scan,
/// `r` to reduce and `l` more, region 3 the post-lambda taking the `k`
/// scanned and the `l` values of one row and yielding the rows of the
/// mapped results. Results: `r` reduced values, then `[n]t` arrays, one
/// per post yield.
pub fn screma(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(4)?;
    let k = operator_arity(v, 0)?;
    let r = operator_arity(v, 1)?;
    v.expect_operands_at_least(1 + k + r)?;
    let m = v.num_operands();
    let scans: Vec<_> = (0..k).map(|i| v.operand_type(1 + i)).collect();
    let reds: Vec<_> = (0..r).map(|i| v.operand_type(1 + k + i)).collect();
    expect_operator(v, 0, &scans)?;
    expect_operator(v, 1, &reds)?;
    expect_inputs(v, 1 + k + r..m)?;
    expect_row_args(v, 2, &[], 1 + k + r..m)?;
    let pre = v.yielded_types(2)?;
    if pre.len() < k + r {
        return Err(format!(
            "region #2 (the pre-lambda) must yield at least {} values, found {}",
            k + r,
            pre.len()
        ));
    }
    v.expect_types("region #2 yield", &scans, &pre[..k])?;
    v.expect_types("region #2 yield", &reds, &pre[k..k + r])?;
    let mut post_args = pre[..k].to_vec();
    post_args.extend_from_slice(&pre[k + r..]);
    v.expect_block_args(3, &post_args)?;
    let post = v.yielded_types(3)?;
    v.expect_results(r + post.len())?;
    for (i, &t) in reds.iter().enumerate() {
        v.expect_type(&format!("result #{i}"), t, v.result_type(i))?;
    }
    for (i, &t) in post.iter().enumerate() {
        expect_mapped_result(v, r + i, t)?;
    }
    Ok(())
}

/// `scatter(n, xs..., dests...)`: `k` = number of results = number of
/// destinations; the lambda maps rows of `xs` to `k` i64 indices then `k`
/// values, each a row of its destination.
pub fn scatter(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let k = v.num_results();
    v.expect_operands_at_least(1 + k)?;
    let m = v.num_operands() - k;
    expect_inputs(v, 1..m)?;
    expect_row_args(v, 0, &[], 1..m)?;
    if v.attr("num_writes").is_none() {
        return writes(v, m, k);
    }
    let ws = v.int_array_attr("num_writes")?;
    if ws.len() != k || ws.iter().any(|&w| w < 1) {
        return Err(format!(
            "attribute 'num_writes' must give a positive count for each of the {k} destinations, found {ws:?}"
        ));
    }
    // All the indices (each destination's in turn), then all the values.
    let total: i64 = ws.iter().sum();
    let ys = v.yielded_types(0)?;
    if ys.len() as i64 != 2 * total {
        return Err(format!(
            "region #0 must yield {total} indices and {total} values, found {} values",
            ys.len()
        ));
    }
    let total = total as usize;
    let mut slot = 0;
    for (j, &w) in ws.iter().enumerate() {
        let dest = v.operand_type(m + j);
        for _ in 0..w {
            if !v.is_i64(ys[slot]) {
                return Err(format!("region #0 yield #{slot} (an index) must be i64"));
            }
            if !v.is_row_of(dest, ys[total + slot]) {
                return Err(format!(
                    "region #0 yield #{} has type {}, but destination #{j} has rows of another type",
                    total + slot,
                    v.show(ys[total + slot])
                ));
            }
            slot += 1;
        }
    }
    Ok(())
}

/// In-place writes (scatter, a segmap with `writes`): region 0 yields `k`
/// i64 indices then `k` rows of the destinations, operands `first..`;
/// the results are the destinations.
pub fn writes(v: &OpView, first: usize, k: usize) -> Result<(), String> {
    let ys = v.yielded_types(0)?;
    if ys.len() != 2 * k {
        return Err(format!(
            "region #0 must yield {k} indices and {k} values, found {} values",
            ys.len()
        ));
    }
    for i in 0..k {
        let dest = v.operand_type(first + i);
        if !v.is_i64(ys[i]) {
            return Err(format!("region #0 yield #{i} (an index) must be i64"));
        }
        if !v.is_row_of(dest, ys[k + i]) {
            return Err(format!(
                "region #0 yield #{} has type {}, but destination #{i} has rows of another type",
                k + i,
                v.show(ys[k + i])
            ));
        }
        v.expect_type(&format!("result #{i}"), dest, v.result_type(i))?;
    }
    Ok(())
}

/// `hist(n, w, dests..., nes..., xs...)`: region 0 the operator on `k`
/// values, region 1 maps rows of `xs` to an i64 bucket and `k` values;
/// `k` destinations of outer size `w` are the results.
pub fn hist(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(2)?;
    let k = operator_arity(v, 0)?;
    v.expect_results(k)?;
    v.expect_operands_at_least(2 + 2 * k)?;
    v.expect_i64_operands(1..2, "the histogram size")?;
    let w = v.operand(1);
    let m = v.num_operands();
    let ts: Vec<_> = (0..k).map(|i| v.operand_type(2 + k + i)).collect();
    for (i, &t) in ts.iter().enumerate() {
        let dest = v.operand_type(2 + i);
        v.expect_outer_size(&format!("destination #{i}"), dest, w)?;
        if !v.is_row_of(dest, t) {
            return Err(format!(
                "neutral element #{i} has type {}, but destination #{i} has rows of another type",
                v.show(t)
            ));
        }
        v.expect_type(&format!("result #{i}"), dest, v.result_type(i))?;
    }
    expect_operator(v, 0, &ts)?;
    expect_inputs(v, 2 + 2 * k..m)?;
    expect_row_args(v, 1, &[], 2 + 2 * k..m)?;
    let i64t = v.operand_type(0);
    let mut want = vec![i64t];
    want.extend_from_slice(&ts);
    v.expect_yield(1, &want)
}

/// The lambda of an accumulator stream, region `r`: the accumulator
/// (operand `first`'s type) and rows of operands `first + 1 + skip..`, and
/// yields the accumulator; the result is `dest`'s type.
fn acc_lambda(v: &OpView, r: usize, first: usize, skip: usize) -> Result<(), String> {
    v.expect_results(1)?;
    v.expect_operands_at_least(first + 1 + skip)?;
    let dest = v.operand_type(first);
    if v.array_parts(dest).is_none() {
        return Err(format!(
            "the destination (operand #{first}) must be an array, found {}",
            v.show(dest)
        ));
    }
    expect_inputs(v, first + 1 + skip..v.num_operands())?;
    expect_row_args(v, r, &[dest], first + 1 + skip..v.num_operands())?;
    v.expect_yield(r, &[dest])?;
    v.expect_type("result", dest, v.result_type(0))
}

/// `scatter_stream(n, dest, bs...)`: See Note [Accumulator ops].
pub fn scatter_stream(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    acc_lambda(v, 0, 1, 0)
}

/// `hist_stream(n, dest, ne, bs...)`: an operator on rows of `dest` with
/// neutral element `ne`, then the lambda of `scatter_stream`.
pub fn hist_stream(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(2)?;
    acc_lambda(v, 1, 1, 1)?;
    let ne = v.operand_type(2);
    if !v.is_row_of(v.operand_type(1), ne) {
        return Err(format!(
            "the neutral element has type {}, but the destination has rows of another type",
            v.show(ne)
        ));
    }
    expect_operator(v, 0, &[ne])
}

/// `acc_write(acc, i, v)`: `v` a row of the accumulator `acc`; the result
/// is the accumulator.
pub fn acc_write(v: &OpView) -> Result<(), String> {
    v.expect_operands(3)?;
    v.expect_results(1)?;
    v.expect_i64_operands(1..2, "an index")?;
    let acc = v.operand_type(0);
    if !v.is_row_of(acc, v.operand_type(2)) {
        return Err(format!(
            "the value has type {}, but the accumulator {} has rows of another type",
            v.show(v.operand_type(2)),
            v.show(acc)
        ));
    }
    v.expect_type("result", acc, v.result_type(0))
}

/// Whether arrays `a` and `b` have rows of one type (outer sizes aside).
pub fn same_rows(v: &OpView, a: crate::ir::Type, b: crate::ir::Type) -> bool {
    v.array_parts(a)
        .zip(v.array_parts(b))
        .is_some_and(|((ea, sa), (eb, sb))| {
            sa.len() == sb.len()
                && v.compatible(ea, eb)
                && sa[1..].iter().zip(&sb[1..]).all(|(p, q)| v.dims_agree(*p, *q))
        })
}

/// The stream lambda: block arguments `(c: i64, accs..., chunks...)` where
/// each chunk is `[c]` rows of an input; yields `accs...` then per-chunk
/// arrays `[c]t`; results `accs...` then arrays `[n]t`. `fold` is the
/// region index of the lambda, `k` the number of accumulators.
fn stream_lambda(v: &OpView, fold: usize, k: usize) -> Result<(), String> {
    let m = v.num_operands();
    let accs: Vec<_> = (0..k).map(|i| v.operand_type(1 + i)).collect();
    expect_inputs(v, 1 + k..m)?;
    let args = v.single_block_args(fold)?;
    if args.len() != 1 + m - 1 {
        return Err(format!(
            "region #{fold} expects {} block arguments (chunk size, accumulators, chunks), found {}",
            m,
            args.len()
        ));
    }
    if !v.is_i64(args[0]) {
        return Err(format!("region #{fold} argument #0 (the chunk size) must be i64"));
    }
    v.expect_types(&format!("region #{fold} argument"), &accs, &args[1..1 + k])?;
    let region = v.regions()[fold];
    let c = v.ctx.block_args(v.ctx.blocks(region)[0])[0];
    for i in 1 + k..m {
        let a = args[i];
        let x = v.operand_type(i);
        let ok = v.outer_dim(a).is_some_and(|d| v.dim_is(d, c));
        if !ok || !same_rows(v, a, x) {
            return Err(format!(
                "region #{fold} argument #{i} has type {}, expected a chunk of operand #{i} of the chunk size",
                v.show(a)
            ));
        }
    }
    let ys = v.yielded_types(fold)?;
    if ys.len() < k {
        return Err(format!(
            "region #{fold} must yield at least {k} values, found {}",
            ys.len()
        ));
    }
    v.expect_types(&format!("region #{fold} yield"), &accs, &ys[..k])?;
    v.expect_results(ys.len())?;
    for (i, &t) in accs.iter().enumerate() {
        v.expect_type(&format!("result #{i}"), t, v.result_type(i))?;
    }
    for (i, &y) in ys.iter().enumerate().skip(k) {
        let Some((e, shape)) = v.array_parts(y) else {
            return Err(format!("region #{fold} yield #{i} must be a chunk array"));
        };
        let rt = v.result_type(i);
        let ok = v.array_parts(rt).is_some_and(|(re, rs)| {
            rs.len() == shape.len()
                && v.compatible(re, e)
                && v.dim_is(rs[0], v.operand(0))
                && rs[1..].iter().zip(&shape[1..]).all(|(p, q)| v.dims_agree(*p, *q))
        });
        if !ok {
            return Err(format!(
                "result #{i} has type {}, expected the chunks of yield #{i} concatenated to size n",
                v.show(rt)
            ));
        }
    }
    Ok(())
}

/// `stream_seq(n, accs..., xs...) {num_accs}`.
pub fn stream_seq(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let k = v.int_attr("num_accs")?;
    if k < 0 || 1 + k as usize > v.num_operands() {
        return Err(format!(
            "attribute 'num_accs' is {k}, but there are {} operands after the size",
            v.num_operands() - 1
        ));
    }
    stream_lambda(v, 0, k as usize)
}

/// `stream_par(n, accs..., xs...)`: region 0 combines per-chunk
/// accumulators, region 1 is the chunk lambda.
pub fn stream_par(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(2)?;
    let k = operator_arity(v, 0)?;
    v.expect_operands_at_least(1 + k)?;
    let ts: Vec<_> = (0..k).map(|i| v.operand_type(1 + i)).collect();
    expect_operator(v, 0, &ts)?;
    if v.attr("order").is_some() {
        v.enum_attr("order", &["in_order", "disorder"])?;
    }
    stream_lambda(v, 1, k)
}

/// `filter(n, xs...)`: the predicate maps rows to `i1`; results are the
/// kept rows, of an outer size not known statically.
pub fn filter(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let m = v.num_operands();
    expect_inputs(v, 1..m)?;
    expect_row_args(v, 0, &[], 1..m)?;
    let ys = v.yielded_types(0)?;
    if ys.len() != 1 || !v.is_bool(ys[0]) {
        return Err("region #0 (the predicate) must yield one i1".into());
    }
    v.expect_results(m - 1)?;
    for i in 1..m {
        let x = v.operand_type(i);
        let r = v.result_type(i - 1);
        if !same_rows(v, x, r) {
            return Err(format!(
                "result #{} has type {}, expected rows of operand #{i}",
                i - 1,
                v.show(r)
            ));
        }
    }
    Ok(())
}

/// `partition(n, xs...) {k}`: the lambda maps rows to an i64 class in
/// `0..k`; results are `k` i64 class sizes, then the permuted arrays.
pub fn partition(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_regions(1)?;
    let k = v.int_attr("k")?;
    if k < 1 {
        return Err(format!("attribute 'k' must be at least 1, found {k}"));
    }
    let k = k as usize;
    let m = v.num_operands();
    expect_inputs(v, 1..m)?;
    expect_row_args(v, 0, &[], 1..m)?;
    let ys = v.yielded_types(0)?;
    if ys.len() != 1 || !v.is_i64(ys[0]) {
        return Err("region #0 must yield one i64 class".into());
    }
    v.expect_results(k + m - 1)?;
    for i in 0..k {
        if !v.is_i64(v.result_type(i)) {
            return Err(format!("result #{i} (a class size) must be i64"));
        }
    }
    for i in 1..m {
        v.expect_type(
            &format!("result #{}", k + i - 1),
            v.operand_type(i),
            v.result_type(k + i - 1),
        )?;
    }
    Ok(())
}

// ----- array construction and shape ------------------------------------------

/// `iota(n)` → `[n]i64`, or `iota(n, start, stride)` → `[n]t`.
pub fn iota(v: &OpView) -> Result<(), String> {
    size_operand(v)?;
    v.expect_results(1)?;
    let elem = match v.num_operands() {
        1 => v.operand_type(0),
        3 => {
            let t = v.operand_type(1);
            if !v.is_int(t) || v.operand_type(2) != t {
                return Err("start and stride must be integers of one type".into());
            }
            t
        }
        n => return Err(format!("expects 1 or 3 operands, found {n}")),
    };
    expect_mapped_result(v, 0, elem)
}

/// `replicate(n, x)` → `[n]t` where `x : t`.
pub fn replicate(v: &OpView) -> Result<(), String> {
    v.expect_operands(2)?;
    v.expect_results(1)?;
    size_operand(v)?;
    expect_mapped_result(v, 0, v.operand_type(1))
}

fn expect_array(v: &OpView, i: usize) -> Result<(crate::ir::Type, Vec<Dim>), String> {
    let t = v.operand_type(i);
    v.array_parts(t)
        .map(|(e, s)| (e, s.to_vec()))
        .ok_or_else(|| format!("operand #{i} must be an array, found {}", v.show(t)))
}

/// `reshape(xs, d...)`: the result has the operand sizes as its shape.
pub fn reshape(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(2)?;
    v.expect_results(1)?;
    let (elem, _) = expect_array(v, 0)?;
    v.expect_i64_operands(1..v.num_operands(), "a new size")?;
    let dims: Vec<Dim> = (1..v.num_operands()).map(|i| Dim::Value(v.operand(i))).collect();
    if !v.is_array_of(v.result_type(0), &dims, elem) {
        return Err(format!(
            "result has type {}, expected the shape given by the size operands",
            v.show(v.result_type(0))
        ));
    }
    Ok(())
}

/// Checks `perm` is a permutation of `0..rank`.
pub fn expect_permutation(perm: &[i64], rank: usize) -> Result<(), String> {
    let mut seen = vec![false; rank];
    for &p in perm {
        if p < 0 || p as usize >= rank || std::mem::replace(&mut seen[p as usize], true) {
            return Err(format!(
                "attribute 'perm' must be a permutation of 0..{rank}, found {perm:?}"
            ));
        }
    }
    if perm.len() != rank {
        return Err(format!(
            "attribute 'perm' must be a permutation of 0..{rank}, found {perm:?}"
        ));
    }
    Ok(())
}

/// `rearrange(xs) {perm}`: result dimension `i` is operand dimension `perm[i]`.
pub fn rearrange(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    let (elem, shape) = expect_array(v, 0)?;
    let perm = v.int_array_attr("perm")?;
    expect_permutation(&perm, shape.len())?;
    let dims: Vec<Dim> = perm.iter().map(|&p| shape[p as usize]).collect();
    if !v.is_array_of(v.result_type(0), &dims, elem) {
        return Err(format!(
            "result has type {}, expected the operand's dimensions permuted",
            v.show(v.result_type(0))
        ));
    }
    Ok(())
}

/// `concat(w, xs...) {dim}`: arrays agreeing except in dimension `dim`
/// (default 0); the result has size `w` there.
pub fn concat(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(2)?;
    v.expect_results(1)?;
    v.expect_i64_operands(0..1, "the result size")?;
    let d = match v.attr("dim") {
        Some(_) => v.int_attr("dim")?,
        None => 0,
    };
    let (elem, shape) = expect_array(v, 1)?;
    if d < 0 || d as usize >= shape.len() {
        return Err(format!("attribute 'dim' is {d}, out of range for rank {}", shape.len()));
    }
    let d = d as usize;
    let agree_except = |s1: &[Dim], s2: &[Dim]| {
        s1.len() == s2.len()
            && s1
                .iter()
                .zip(s2)
                .enumerate()
                .all(|(j, (a, b))| j == d || v.dims_agree(*a, *b))
    };
    for i in 2..v.num_operands() {
        let (e, s) = expect_array(v, i)?;
        if !v.compatible(e, elem) || !agree_except(&s, &shape) {
            return Err(format!(
                "operand #{i} has type {}, which does not agree with operand #1 outside dimension {d}",
                v.show(v.operand_type(i))
            ));
        }
    }
    let rt = v.result_type(0);
    let ok = v
        .array_parts(rt)
        .is_some_and(|(re, rs)| v.compatible(re, elem) && agree_except(rs, &shape) && v.dim_is(rs[d], v.operand(0)));
    if !ok {
        return Err(format!(
            "result has type {}, expected the operands' type with size w in dimension {d}",
            v.show(rt)
        ));
    }
    Ok(())
}

/// `rotate(xs, r...)`: one i64 offset per dimension; same type out.
pub fn rotate(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(1)?;
    v.expect_results(1)?;
    let (_, shape) = expect_array(v, 0)?;
    v.expect_operands(1 + shape.len())?;
    v.expect_i64_operands(1..v.num_operands(), "an offset")?;
    v.expect_type("result", v.operand_type(0), v.result_type(0))
}

/// `size(xs) {dim}`: the i64 size of dimension `dim` (default 0) of `xs`.
pub fn size(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    v.expect_regions(0)?;
    let (_, shape) = expect_array(v, 0)?;
    let d = match v.attr("dim") {
        Some(_) => v.int_attr("dim")?,
        None => 0,
    };
    if d < 0 || d as usize >= shape.len() {
        return Err(format!("attribute 'dim' is {d}, out of range for rank {}", shape.len()));
    }
    if !v.is_i64(v.result_type(0)) {
        return Err(format!("result must be i64, found {}", v.show(v.result_type(0))));
    }
    Ok(())
}

/// `copy(xs)`: a fresh array of the same type.
pub fn copy(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    expect_array(v, 0)?;
    v.expect_type("result", v.operand_type(0), v.result_type(0))
}

/// The type of `xs` indexed by `k` indices: its row `k` levels down.
fn indexed_ok(v: &OpView, arr: crate::ir::Type, k: usize, t: crate::ir::Type) -> Result<(), String> {
    let (elem, shape) = v
        .array_parts(arr)
        .ok_or_else(|| format!("operand #0 must be an array, found {}", v.show(arr)))?;
    if k == 0 || k > shape.len() {
        return Err(format!(
            "expects 1 to {} indices for an array of rank {}, found {k}",
            shape.len(),
            shape.len()
        ));
    }
    if !v.is_array_of(arr, &shape[..k], t) || (k == shape.len() && !v.compatible(t, elem)) {
        return Err(format!(
            "indexed value has type {}, expected the array's element after {k} indices",
            v.show(t)
        ));
    }
    Ok(())
}

/// `index(xs, i...)`: the element or sub-array at the i64 indices.
pub fn index(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(2)?;
    v.expect_results(1)?;
    v.expect_i64_operands(1..v.num_operands(), "an index")?;
    indexed_ok(v, v.operand_type(0), v.num_operands() - 1, v.result_type(0))
}

/// `update(xs, i..., x)`: `xs with [i...] = x`, same type out.
pub fn update(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(3)?;
    v.expect_results(1)?;
    let n = v.num_operands();
    v.expect_i64_operands(1..n - 1, "an index")?;
    indexed_ok(v, v.operand_type(0), n - 2, v.operand_type(n - 1))?;
    v.expect_type("result", v.operand_type(0), v.result_type(0))
}

/// `slice(xs, (offset, length, stride)...)`: one i64 triple for each of
/// the first `k` dimensions; the result has the lengths as those sizes.
pub fn slice(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(4)?;
    v.expect_results(1)?;
    let (elem, shape) = expect_array(v, 0)?;
    let n = v.num_operands() - 1;
    if !n.is_multiple_of(3) || n / 3 > shape.len() {
        return Err(format!(
            "expects an (offset, length, stride) triple for each of at most {} dimensions, found {n} operands after the array",
            shape.len()
        ));
    }
    v.expect_i64_operands(1..v.num_operands(), "a slice bound")?;
    let k = n / 3;
    let mut dims: Vec<Dim> = (0..k).map(|j| Dim::Value(v.operand(2 + 3 * j))).collect();
    dims.extend_from_slice(&shape[k..]);
    if !v.is_array_of(v.result_type(0), &dims, elem) {
        return Err(format!(
            "result has type {}, expected the slice lengths as its leading sizes",
            v.show(v.result_type(0))
        ));
    }
    Ok(())
}
