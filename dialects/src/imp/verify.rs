//! Verifiers of the `imp` ops.

use crate::ir::{AttrKind, MemSpace, OpView, Type, TypeKind};
use crate::soac::verify as core;

fn mem_space(v: &OpView, t: Type) -> Option<MemSpace> {
    match v.ctx.type_kind(t) {
        TypeKind::Mem(s) => Some(*s),
        _ => None,
    }
}

fn expect_block(v: &OpView, i: usize) -> Result<MemSpace, String> {
    let t = v.operand_type(i);
    mem_space(v, t).ok_or_else(|| format!("operand #{i} must be a memory block, found {}", v.show(t)))
}

fn expect_in_kernel(v: &OpView) -> Result<(), String> {
    match v.enclosing("imp.kernel") {
        Some(_) => Ok(()),
        None => Err("must be inside an 'imp.kernel'".into()),
    }
}

pub fn func(v: &OpView) -> Result<(), String> {
    core::func(v)
}

/// A kernel: like a function with no results; optional `block_size`
/// (1 to 3 positive integers) fixes the block size at compile time.
pub fn kernel(v: &OpView) -> Result<(), String> {
    core::func(v)?;
    let ft = v.type_attr("function_type")?;
    if let TypeKind::Function { results, .. } = v.ctx.type_kind(ft) {
        if !results.is_empty() {
            return Err("a kernel returns no results".into());
        }
    }
    if v.attr("block_size").is_some() {
        let bs = v.int_array_attr("block_size")?;
        if bs.is_empty() || bs.len() > 3 || bs.iter().any(|&b| b <= 0) {
            return Err(format!(
                "attribute 'block_size' must be 1 to 3 positive integers, found {bs:?}"
            ));
        }
    }
    Ok(())
}

/// `call(args...) {callee, device?}`: the operand and result types are
/// the callee's (an `imp.func` of the same `device`-ness, when the module
/// has it).
pub fn call(v: &OpView) -> Result<(), String> {
    v.expect_regions(0)?;
    let callee = v.symbol_attr("callee")?;
    let device = v.attr("device").is_some();
    let body = v.ctx.parent_op(v.op).and_then(|mut p| {
        while let Some(q) = v.ctx.parent_op(p) {
            p = q;
        }
        v.ctx.regions(p).first().and_then(|&r| v.ctx.blocks(r).first().copied())
    });
    let Some(body) = body else { return Ok(()) };
    let f = v.ctx.block_ops(body).find(|&o| {
        v.ctx.op_name(o) == "imp.func"
            && v.ctx.attr(o, "entry").is_none()
            && (v.ctx.attr(o, "device").is_some() == device)
            && matches!(v.ctx.attr(o, "sym_name").map(|a| v.ctx.attr_kind(a)), Some(AttrKind::String(s)) if v.ctx.str(*s) == callee)
    });
    let Some(f) = f else { return Ok(()) };
    if let Some(a) = v.ctx.attr(f, "function_type") {
        if let AttrKind::Type(t) = v.ctx.attr_kind(a) {
            if let TypeKind::Function { inputs, results } = v.ctx.type_kind(*t) {
                v.expect_types("argument", inputs, &v.operand_types())?;
                let found: Vec<_> = v.ctx.results(v.op).map(|r| v.ctx.value_type(r)).collect();
                v.expect_types("result", results, &found)?;
            }
        }
    }
    Ok(())
}

/// `launch(gx, gy, gz, bx, by, bz, args...) {callee}`: grid and block
/// sizes (i64) then the kernel's arguments; checked against the kernel.
pub fn launch(v: &OpView) -> Result<(), String> {
    v.expect_results(0)?;
    v.expect_regions(0)?;
    v.expect_operands_at_least(6)?;
    v.expect_i64_operands(0..6, "a grid or block size")?;
    let callee = v.symbol_attr("callee")?;
    if v.attr("shared_bytes").is_some() {
        v.int_attr("shared_bytes")?;
    }
    let Some(k) = v.lookup_symbol(callee) else {
        return Ok(());
    };
    if v.ctx.op_name(k) != "imp.kernel" {
        return Err(format!("callee '{callee}' is not an 'imp.kernel'"));
    }
    if let Some(a) = v.ctx.attr(k, "function_type") {
        if let AttrKind::Type(t) = v.ctx.attr_kind(a) {
            if let TypeKind::Function { inputs, .. } = v.ctx.type_kind(*t) {
                v.expect_types("kernel argument", inputs, &v.operand_types()[6..])?;
            }
        }
    }
    Ok(())
}

/// `for(lb, ub, step)`: one integer type; the body takes the index.
pub fn for_(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(3)?;
    v.expect_regions(1)?;
    let t = v.operand_type(0);
    if !v.is_int(t) || v.operand_type(1) != t || v.operand_type(2) != t {
        return Err("bounds and step must be integers of one type".into());
    }
    let carried: Vec<Type> = v.operand_types()[3..].to_vec();
    v.expect_types("result", &carried, &v.result_types())?;
    let mut args = vec![t];
    args.extend(&carried);
    v.expect_block_args(0, &args)?;
    v.expect_yield(0, &carried)
}

pub fn while_(v: &OpView) -> Result<(), String> {
    v.expect_regions(2)?;
    let carried: Vec<Type> = v.operand_types().to_vec();
    v.expect_types("result", &carried, &v.result_types())?;
    v.expect_block_args(0, &carried)?;
    let c = v.yielded_types(0)?;
    if c.len() != 1 || !v.is_bool(c[0]) {
        return Err("region #0 (the condition) must yield one i1".into());
    }
    v.expect_block_args(1, &carried)?;
    v.expect_yield(1, &carried)
}

/// The most arguments an assertion's message may have: the error buffer
/// holds the message number and seven values.
pub const MAX_ASSERT_ARGS: usize = 15;

pub fn assert(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(1)?;
    v.expect_results(0)?;
    v.expect_regions(0)?;
    if !v.is_bool(v.operand_type(0)) {
        return Err(format!("the condition must be i1, found {}", v.show(v.operand_type(0))));
    }
    let n = v.num_operands() - 1;
    if n > MAX_ASSERT_ARGS {
        return Err(format!("at most {MAX_ASSERT_ARGS} message arguments, found {n}"));
    }
    v.expect_i64_operands(1..n + 1, "a message argument")?;
    v.string_attr("message")?;
    Ok(())
}

pub fn load(v: &OpView) -> Result<(), String> {
    v.expect_operands(2)?;
    let width = width(v)?;
    v.expect_results(width)?;
    expect_block(v, 0)?;
    v.expect_i64_operands(1..2, "the index")?;
    let t = v.result_type(0);
    if !v.is_scalar(t) {
        return Err(format!("result must be a scalar, found {}", v.show(t)));
    }
    same_types(v, "result", &v.result_types())
}

/// `store(block, i, x...)`: writes scalar `x` at index `i` (`width`
/// scalars at `i`, `i + 1`, ...).
pub fn store(v: &OpView) -> Result<(), String> {
    let width = width(v)?;
    v.expect_operands(2 + width)?;
    v.expect_results(0)?;
    expect_block(v, 0)?;
    v.expect_i64_operands(1..2, "the index")?;
    if !v.is_scalar(v.operand_type(2)) {
        return Err(format!(
            "stored value must be a scalar, found {}",
            v.show(v.operand_type(2))
        ));
    }
    same_types(v, "stored value", &v.operand_types()[2..])
}

/// The `width` of a load or store: 1 without the attribute; otherwise 2,
/// 4 or 8 consecutive elements, at an index that is a multiple of it
/// (the block aligned to the whole access: Note [Vector accesses] in
/// `lowering/src/segop_to_imp/gpu/segmap.rs`), in kernel code only, and
/// not volatile.
fn width(v: &OpView) -> Result<usize, String> {
    if v.attr("width").is_none() {
        return Ok(1);
    }
    let w = v.int_attr("width")?;
    if ![2, 4, 8].contains(&w) {
        return Err(format!("attribute 'width' must be 2, 4 or 8, found {w}"));
    }
    if v.attr("volatile").is_some() {
        return Err("a volatile access has no 'width'".into());
    }
    expect_in_kernel(v).map_err(|_| "an access with a 'width' must be inside an 'imp.kernel'".to_string())?;
    Ok(w as usize)
}

/// Every type of `ts` (the elements of a wide access) is the first one.
fn same_types(v: &OpView, what: &str, ts: &[crate::ir::Type]) -> Result<(), String> {
    match ts.iter().find(|&&t| t != ts[0]) {
        Some(&t) => Err(format!(
            "every {what} of a wide access has one type, but found {} and {}",
            v.show(ts[0]),
            v.show(t)
        )),
        None => Ok(()),
    }
}

/// `barrier {fence}`: inside a kernel; `fence` "local" or "global".
pub fn barrier(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(0)?;
    expect_in_kernel(v)?;
    if v.attr("fence").is_some() {
        v.enum_attr("fence", &["local", "global"])?;
    }
    Ok(())
}

/// `fence`: inside a kernel.
pub fn fence(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(0)?;
    expect_in_kernel(v)
}

/// `shared_alloc(bytes)` → `!mem.block<shared>`, inside a kernel.
pub fn shared_alloc(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    v.expect_i64_operands(0..1, "the byte size")?;
    if mem_space(v, v.result_type(0)) != Some(MemSpace::Shared) {
        return Err(format!(
            "result must be !mem.block<shared>, found {}",
            v.show(v.result_type(0))
        ));
    }
    expect_in_kernel(v)
}

/// `shuffle(x, offset) {kind}` → a value of `x`'s type, inside a kernel.
pub fn shuffle(v: &OpView) -> Result<(), String> {
    v.enum_attr("kind", &["down", "xor"])?;
    v.expect_operands(2)?;
    v.expect_results(1)?;
    let t = v.operand_type(0);
    v.scalar(t)
        .ok_or_else(|| format!("value must be a scalar, found {}", v.show(t)))?;
    v.expect_i64_operands(1..2, "the offset")?;
    v.expect_type("result", t, v.result_type(0))?;
    expect_in_kernel(v)
}

pub const ATOMIC_KINDS: &[&str] = &["add", "min", "max", "and", "or", "xor", "xchg", "cas"];

/// `atomic(block, i, x) {kind}` → the old value; `cas` takes
/// `(block, i, expected, new)`.
pub fn atomic(v: &OpView) -> Result<(), String> {
    let kind = v.enum_attr("kind", ATOMIC_KINDS)?;
    v.expect_operands(if kind == "cas" { 4 } else { 3 })?;
    v.expect_results(1)?;
    let space = expect_block(v, 0)?;
    if space == MemSpace::Host {
        return Err("atomics need device or shared memory".into());
    }
    v.expect_i64_operands(1..2, "the index")?;
    let t = v.operand_type(2);
    let s = v
        .scalar(t)
        .ok_or_else(|| format!("value must be a scalar, found {}", v.show(t)))?;
    if matches!(kind, "and" | "or" | "xor") && !s.is_int() {
        return Err(format!("'{kind}' needs an integer, found {}", v.show(t)));
    }
    for i in 3..v.num_operands() {
        v.expect_type(&format!("operand #{i}"), t, v.operand_type(i))?;
    }
    v.expect_type("result", t, v.result_type(0))
}

/// `thread_id`, `block_id`, `block_dim`, `grid_dim` `{dim}` → i64, inside
/// a kernel; `dim` is 0, 1 or 2.
/// `param() {index}` → i64, in host code.
pub fn param(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(1)?;
    if v.int_attr("index")? < 0 {
        return Err("attribute 'index' must not be negative".into());
    }
    if !v.is_i64(v.result_type(0)) {
        return Err(format!("result must be i64, found {}", v.show(v.result_type(0))));
    }
    match v.enclosing("imp.kernel") {
        Some(_) => Err("must be in host code, not inside an 'imp.kernel'".into()),
        None => Ok(()),
    }
}

pub fn index_query(v: &OpView) -> Result<(), String> {
    v.expect_operands(0)?;
    v.expect_results(1)?;
    let d = v.int_attr("dim")?;
    if !(0..=2).contains(&d) {
        return Err(format!("attribute 'dim' must be 0, 1 or 2, found {d}"));
    }
    if !v.is_i64(v.result_type(0)) {
        return Err(format!("result must be i64, found {}", v.show(v.result_type(0))));
    }
    expect_in_kernel(v)
}

pub fn if_(v: &OpView) -> Result<(), String> {
    core::if_(v)
}
pub fn yield_(v: &OpView) -> Result<(), String> {
    core::yield_(v)
}
pub fn return_(v: &OpView) -> Result<(), String> {
    core::return_(v)
}
