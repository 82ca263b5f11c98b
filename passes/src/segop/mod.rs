//! Passes on the `segop` dialect (kernels, after `soac-to-segop`).

use futmlir_dialects::ir::{Context, OpId, Value};

pub mod coalesce;
pub mod locality;
pub mod tile;

/// The segops whose bodies run per point (in a kernel on the GPU).
const SEGOPS: &[&str] = &[
    "segop.segmap",
    "segop.segred",
    "segop.segscan",
    "segop.seghist",
    "segop.filter",
];

/// Whether `op` is inside the body of a segop.
fn inside_segop(ctx: &Context, op: OpId) -> bool {
    let mut cur = ctx.parent_op(op);
    while let Some(p) = cur {
        if SEGOPS.contains(&ctx.op_name(p)) {
            return true;
        }
        cur = ctx.parent_op(p);
    }
    false
}

/// Whether `v` is defined inside op `s` (in one of its regions).
fn defined_inside(ctx: &Context, v: Value, s: OpId) -> bool {
    ctx.value_block(v)
        .and_then(|b| ctx.block_parent(b))
        .and_then(|r| ctx.region_parent(r))
        .is_some_and(|p| ctx.is_ancestor(s, p))
}
