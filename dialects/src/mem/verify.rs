//! Verifiers of the `mem` ops.

use crate::ir::{AttrKind, MemSpace, OpView, TypeKind};

fn mem_space(v: &OpView, t: crate::ir::Type) -> Option<MemSpace> {
    match v.ctx.type_kind(t) {
        TypeKind::Mem(s) => Some(*s),
        _ => None,
    }
}

fn expect_block(v: &OpView, what: &str, t: crate::ir::Type) -> Result<MemSpace, String> {
    mem_space(v, t).ok_or_else(|| format!("{what} must be a memory block, found {}", v.show(t)))
}

/// `alloc(bytes) {space}` → `!mem.block<space>`.
pub fn alloc(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    v.expect_i64_operands(0..1, "the byte size")?;
    let space = v.enum_attr("space", &["host", "device", "shared"])?;
    let rs = expect_block(v, "result", v.result_type(0))?;
    if rs.name() != space {
        return Err(format!(
            "result is a block in {} memory, but attribute 'space' is \"{space}\"",
            rs.name()
        ));
    }
    let thread = match v.attr("thread").map(|a| v.ctx.attr_kind(a)) {
        None => false,
        Some(AttrKind::Unit) => true,
        Some(_) => return Err("attribute 'thread' must be a unit attribute".into()),
    };
    if thread && space != "device" {
        return Err(format!(
            "a thread's block is device memory, but attribute 'space' is \"{space}\""
        ));
    }
    match (thread, in_kernel_code(v)) {
        (true, false) => {
            Err("a thread's block (attribute 'thread') outside kernel code (an imp.kernel or a device imp.func)".into())
        }
        (false, true) => Err("kernel code allocates only a thread's own blocks (attribute 'thread')".into()),
        _ => Ok(()),
    }
}

/// Whether the op is kernel code: inside an `imp.kernel`, or a device
/// `imp.func` (one with the `device` attribute).
fn in_kernel_code(v: &OpView) -> bool {
    let mut cur = v.op;
    while let Some(p) = v.ctx.parent_op(cur) {
        match v.ctx.op_name(p) {
            "imp.kernel" => return true,
            "imp.func" => return v.ctx.attr(p, "device").is_some(),
            _ => cur = p,
        }
    }
    false
}

/// `free(block)`.
pub fn free(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(0)?;
    expect_block(v, "operand", v.operand_type(0)).map(|_| ())
}

/// `bind(block, array[, offset])`: the array, an op's result, lives in
/// the block, row-major from element `offset` (i64; default 0).
pub fn bind(v: &OpView) -> Result<(), String> {
    if !(2..=3).contains(&v.num_operands()) {
        return Err(format!(
            "expects 2 operands (block, array) or 3 (block, array, offset), found {}",
            v.num_operands()
        ));
    }
    v.expect_results(0)?;
    v.expect_i64_operands(2..v.num_operands(), "the element offset")?;
    expect_block(v, "operand #0", v.operand_type(0))?;
    let t = v.operand_type(1);
    if !v.is_array(t) {
        return Err(format!("operand #1 must be an array, found {}", v.show(t)));
    }
    if v.ctx.defining_op(v.operand(1)).is_none() {
        return Err("operand #1 must be the result of an op (a fresh array), not a block argument".into());
    }
    Ok(())
}

/// `place(dst, i..., array)`: the array, an op's result, is made as
/// `dst[i...]`.
pub fn place(v: &OpView) -> Result<(), String> {
    v.expect_operands_at_least(3)?;
    v.expect_results(0)?;
    let n = v.num_operands();
    let (dst, arr) = (v.operand_type(0), v.operand_type(n - 1));
    if !v.is_array(dst) || !v.is_array(arr) {
        return Err(format!(
            "operands #0 and #{} must be arrays, found {} and {}",
            n - 1,
            v.show(dst),
            v.show(arr)
        ));
    }
    v.expect_i64_operands(1..n - 1, "an index")?;
    if v.rank(dst) != v.rank(arr) + (n - 2) {
        return Err(format!(
            "a row of a rank-{} array indexed {} times has rank {}, but the placed array has rank {}",
            v.rank(dst),
            n - 2,
            v.rank(dst) - (n - 2).min(v.rank(dst)),
            v.rank(arr)
        ));
    }
    if v.ctx.defining_op(v.operand(n - 1)).is_none() {
        return Err(format!(
            "operand #{} must be the result of an op (a fresh array), not a block argument",
            n - 1
        ));
    }
    Ok(())
}

/// `expand(bytes, threads) {layout}` → a block with `threads` copies of a
/// thread-private allocation of `bytes`, hoisted out of a kernel.
pub fn expand(v: &OpView) -> Result<(), String> {
    v.expect_operands(1)?;
    v.expect_results(1)?;
    v.expect_i64_operands(0..1, "the bytes of one thread's part")?;
    v.enum_attr("layout", &["contiguous", "interleaved"])?;
    let s = expect_block(v, "result", v.result_type(0))?;
    if s != MemSpace::Device {
        return Err(format!("expanded memory must be in device memory, found {}", s.name()));
    }
    let r = v.ctx.result(v.op, 0);
    for u in v.ctx.uses(r) {
        let in_segop = {
            let mut cur = u.op;
            let mut found = false;
            while let Some(p) = v.ctx.parent_op(cur) {
                if v.ctx.op_name(p).starts_with("segop.") {
                    found = true;
                    break;
                }
                cur = p;
            }
            found
        };
        if v.ctx.op_name(u.op) != "mem.bind" || u.index != 0 || !in_segop {
            return Err(format!(
                "an expanded block is only bound to arrays of a segop's threads (mem.bind in a segop's body), but '{}' uses it",
                v.ctx.op_name(u.op)
            ));
        }
    }
    Ok(())
}
