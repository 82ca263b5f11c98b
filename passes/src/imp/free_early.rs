//! `imp-free-early`: frees each memory block right after its last use.
//!
//! **Note [Early frees].** `segop-to-imp` frees a block (`mem.free`) at
//! the end of the region that allocated it. This pass moves each such
//! free up, in the same block, to just after the last op that uses the
//! block (an op whose nested regions use it counts as a use), so that
//! the runtime's pool can hand the memory to a later allocation of the
//! same region: a chain of temporaries `a -> b -> c` then needs two
//! live blocks instead of three. A free stays where it is when the
//! block may live on under another name: when a use yields or returns
//! it, or makes a memory block of it (a `soac.select` of blocks, a loop
//! carrying it). Frees are stream-ordered on the GPU (kernels run in the
//! order they are launched), so a block freed right after the launch of
//! the last kernel that reads it is not reused before that kernel ends.

use std::collections::HashMap;

use crate::{Level, Options, Pass, PassInfo};
use futmlir_dialects::ir::{BlockId, Context, Diagnostic, OpId, TypeKind};

pub const INFO: PassInfo = PassInfo {
    name: "imp-free-early",
    description: "Move each mem.free to just after the last use of its block (Note [Early frees])",
    options: &[],
    reads: &[Level::Imp],
    writes: None,
    create: &|_: &Options, _| Box::new(FreeEarly),
};

struct FreeEarly;

impl Pass for FreeEarly {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let mut frees = Vec::new();
        ctx.walk(module, &mut |o| {
            if ctx.op_name(o) == "mem.free" {
                frees.push(o);
            }
        });
        let mut positions: HashMap<BlockId, HashMap<OpId, usize>> = HashMap::new();
        for f in frees {
            free_early(ctx, f, &mut positions);
        }
        Ok(())
    }
}

/// Whether the block `op` uses may outlive `op` under another name.
pub(crate) fn passes_on(ctx: &Context, op: OpId) -> bool {
    matches!(
        ctx.op_name(op),
        "imp.yield" | "imp.return" | "mem.yield" | "soac.yield" | "soac.return"
    ) || ctx
        .results(op)
        .any(|r| matches!(ctx.type_kind(ctx.value_type(r)), TypeKind::Mem(_)))
}

/// The op of block `b` that is `op` or has it inside.
pub(crate) fn ancestor_in(ctx: &Context, op: OpId, b: BlockId) -> Option<OpId> {
    let mut cur = op;
    loop {
        if ctx.parent_block(cur) == Some(b) {
            return Some(cur);
        }
        cur = ctx.parent_op(cur)?;
    }
}

fn free_early(ctx: &mut Context, free: OpId, positions: &mut HashMap<BlockId, HashMap<OpId, usize>>) {
    let Some(&m) = ctx.operands(free).first() else { return };
    let Some(alloc) = ctx.defining_op(m) else { return };
    let Some(b) = ctx.parent_block(free) else { return };
    if ctx.op_name(alloc) != "mem.alloc" || ctx.parent_block(alloc) != Some(b) {
        return;
    }
    let pos = positions.entry(b).or_insert_with(|| {
        let mut p = HashMap::new();
        let mut cur = ctx.first_op(b);
        while let Some(o) = cur {
            p.insert(o, p.len());
            cur = ctx.next_op(o);
        }
        p
    });
    let mut last = alloc;
    for u in ctx.uses(m) {
        if u.op == free {
            continue;
        }
        if passes_on(ctx, u.op) {
            return;
        }
        let Some(top) = ancestor_in(ctx, u.op, b) else { return };
        if pos.get(&top) > pos.get(&last) {
            last = top;
        }
    }
    // Moving a free up keeps the other ops' order, so the positions of
    // the ops the other frees compare stay right.
    if let Some(next) = ctx.next_op(last) {
        if next != free && pos.get(&last) < pos.get(&free) {
            ctx.move_op_before(free, next);
        }
    }
}
