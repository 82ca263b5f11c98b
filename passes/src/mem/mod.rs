//! Passes on the `mem` level (segop IR whose arrays live in explicit
//! blocks: `mem.alloc`, `mem.bind`), and the queries they share with the
//! conversions into and out of it (`segop-to-mem`, `segop-to-imp` in the
//! lowering crate).

pub mod reuse;
pub mod short_circuit;

use futmlir_dialects::ir::{BlockId, Context, OpId, Scalar, Type, TypeKind, Value};

/// The module's `soac.func`s.
pub fn host_functions(ctx: &Context, module: OpId) -> Vec<OpId> {
    let body = ctx.blocks(ctx.regions(module)[0])[0];
    ctx.block_ops(body).filter(|&o| ctx.op_name(o) == "soac.func").collect()
}

/// The host-level blocks nested in `op`: the regions of the control ops
/// that run on the host (not segop bodies or SOAC lambdas).
pub fn host_regions(ctx: &Context, op: OpId) -> Vec<BlockId> {
    match ctx.op_name(op) {
        "soac.if" | "soac.loop" | "segop.if_threshold" => {
            ctx.regions(op).iter().flat_map(|&r| ctx.blocks(r).to_vec()).collect()
        }
        _ => Vec::new(),
    }
}

/// The `mem.bind` that says where the array `v` lives, if any.
pub fn binding(ctx: &Context, v: Value) -> Option<OpId> {
    ctx.uses(v)
        .iter()
        .find(|u| u.index == 1 && ctx.op_name(u.op) == "mem.bind")
        .map(|u| u.op)
}

/// The `mem.place` that makes the array `v` as a row of another, if any.
pub fn placement(ctx: &Context, v: Value) -> Option<OpId> {
    ctx.uses(v)
        .iter()
        .find(|u| ctx.op_name(u.op) == "mem.place" && u.index as usize + 1 == ctx.operands(u.op).len())
        .map(|u| u.op)
}

/// The element type and rank of an array type; `None` for a scalar.
pub fn array_elem(ctx: &Context, t: Type) -> Option<(Scalar, usize)> {
    match ctx.type_kind(t) {
        TypeKind::Array { elem, shape } => Some((ctx.as_scalar(*elem).unwrap_or(Scalar::I8), shape.len())),
        _ => None,
    }
}
