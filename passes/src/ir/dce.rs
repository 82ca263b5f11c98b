//! `ir-dce`: erase side-effect-free ops whose results are unused.

use futmlir_dialects::ir::{BlockId, Context, Diagnostic, OpId};

use crate::pass::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "ir-dce",
    description: "Dead-code elimination: erase pure ops (and their regions) whose results are unused",
    options: &[OptionSpec {
        name: "max-iters",
        kind: OptionKind::UInt,
        default: "8",
        help: "most sweeps over the IR; a sweep that erases nothing ends the pass early",
    }],
    reads: Level::ALL,
    writes: None,
    create: &|o: &Options, _| {
        Box::new(Dce {
            max_iters: o.uint("max-iters"),
        })
    },
};

struct Dce {
    max_iters: u64,
}

impl Pass for Dce {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        for _ in 0..self.max_iters {
            if !sweep_op(ctx, op) {
                break;
            }
        }
        Ok(())
    }
}

/// One sweep over the regions of `op`; true if anything was erased.
fn sweep_op(ctx: &mut Context, op: OpId) -> bool {
    let mut changed = false;
    for r in ctx.regions(op).to_vec() {
        for b in ctx.blocks(r).to_vec() {
            changed |= sweep_block(ctx, b);
        }
    }
    changed
}

/// Walks the block backwards so that a chain of dead ops goes in one sweep.
fn sweep_block(ctx: &mut Context, b: BlockId) -> bool {
    let mut changed = false;
    let mut cur = ctx.last_op(b);
    while let Some(o) = cur {
        cur = ctx.prev_op(o);
        changed |= sweep_op(ctx, o);
        if super::is_pure(ctx, o) && ctx.results(o).all(|r| !ctx.has_uses(r)) {
            ctx.erase_op(o);
            changed = true;
        }
    }
    changed
}
