//! `mem-expand`: memory expansion at the mem level (thesis 11.2).
//!
//! **Note [Memory expansion at the mem level].** A GPU thread cannot
//! allocate cheaply, so an array that each thread of a kernel makes gets
//! one block for all the kernel's threads, allocated by the host before
//! the launch and freed after it: its expansion. This pass writes that
//! decision into the IR. For each array a host-level segop's body makes
//! whose sizes the host knows (constants, or values defined outside the
//! segop), it puts before the segop
//!
//! ```mlir
//! %m = "mem.expand"(%bytes) {layout = "interleaved"} : (i64) -> !mem.block<device>
//! ```
//!
//! where `%bytes` is one thread's part, and after the op that makes the
//! array, in the body, `mem.bind(%m, %array)`. `segop-to-imp` allocates
//! `%bytes` times the kernel's threads (the launch decides how many) and
//! gives each thread its part. The layout is the pass's option:
//! `interleaved` (element `j` of thread `t` at `j * threads + t`, so that
//! threads reading the same element of their arrays read adjacent words)
//! or `contiguous` (thread `t`'s array row-major from `t * bytes`).
//!
//! The arrays it expands are made directly in the segop's body or in an
//! `if` there: by `iota`, `replicate`, `copy`, `concat`, `rotate`, an
//! array constant, or a sequential `map`, `scan` or `scanomap`, except
//! the `iota`s and `replicate`s that are never made (Note [Virtual
//! arrays]). Arrays
//! made inside a loop or a SOAC's lambda in the kernel, and arrays whose
//! sizes the threads compute, are left to `segop-to-imp`, which expands
//! them too where it can bound their sizes on the host (Note [Size
//! bounds]), gives loops their own buffers (Note [Loops in kernels]) and
//! lets threads allocate otherwise (Note [Thread allocations]): what this
//! pass does not bind is expanded as before, with the interleaved layout.
//! On the CPU, where segops run as loops of the host, `segop-to-imp`
//! ignores `mem.expand` and its binds (each array is the host's own).

use crate::mem::{array_elem, byte_size, host_functions, host_regions, virtual_array};
use crate::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};
use futmlir_dialects::ir::{BlockId, Builder, Context, Diagnostic, Dim, MemSpace, OpId, TypeKind, Value};

pub const INFO: PassInfo = PassInfo {
    name: "mem-expand",
    description: "memory expansion: an array a kernel's threads make, of sizes the host knows, gets one mem.expand block for all of them (Note [Memory expansion at the mem level])",
    options: &[
        OptionSpec {
            name: "layout",
            kind: OptionKind::Enum(&["interleaved", "contiguous"]),
            default: "interleaved",
            help: "where thread t's element j goes: interleaved (j * threads + t, coalesced) or contiguous (t * elements + j)",
        },
        OptionSpec {
            name: "stats",
            kind: OptionKind::Bool,
            default: "false",
            help: "print how many arrays of how many segops were expanded (to stderr)",
        },
    ],
    reads: &[Level::Mem],
    writes: None,
    create: &|o: &Options, _| {
        Box::new(Expand {
            layout: o.string("layout").to_string(),
            stats: o.bool("stats"),
        })
    },
};

struct Expand {
    layout: String,
    stats: bool,
}

/// Ops that make a fresh array of a kernel's thread: which results.
fn fresh(ctx: &Context, op: OpId) -> Vec<usize> {
    match ctx.op_name(op) {
        "soac.iota" | "soac.replicate" | "soac.copy" | "soac.concat" | "soac.rotate" | "soac.constant" => vec![0],
        "soac.map" | "soac.scan" | "soac.scanomap" => (0..ctx.results(op).count()).collect(),
        _ => Vec::new(),
    }
}

impl Pass for Expand {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let mut counts = (0, 0);
        for f in host_functions(ctx, module) {
            let body = ctx.blocks(ctx.regions(f)[0])[0];
            self.host_block(ctx, body, &mut counts);
        }
        if self.stats {
            eprintln!(
                "mem-expand: {} arrays of {} segops expanded ({})",
                counts.0, counts.1, self.layout
            );
        }
        Ok(())
    }
}

impl Expand {
    /// Expands the arrays of the segops in host block `b`; `counts`: the
    /// arrays and segops expanded so far.
    fn host_block(&self, ctx: &mut Context, b: BlockId, counts: &mut (usize, usize)) {
        let ops: Vec<OpId> = ctx.block_ops(b).collect();
        for o in ops {
            for inner in host_regions(ctx, o) {
                self.host_block(ctx, inner, counts);
            }
            if ctx.op_name(o).starts_with("segop.") && !ctx.regions(o).is_empty() {
                let n = self.segop(ctx, o);
                if n > 0 {
                    *counts = (counts.0 + n, counts.1 + 1);
                }
            }
        }
    }

    /// Expands the arrays segop `s`'s threads make; how many.
    fn segop(&self, ctx: &mut Context, s: OpId) -> usize {
        let mut sites = Vec::new();
        for &r in ctx.regions(s) {
            for &b in ctx.blocks(r) {
                kernel_block(ctx, b, &mut sites);
            }
        }
        let mut count = 0;
        for op in sites {
            let loc = ctx.location(op);
            for k in fresh(ctx, op) {
                let r = ctx.result(op, k);
                if crate::mem::binding(ctx, r).is_some() {
                    continue;
                }
                let t = ctx.value_type(r);
                let Some((elem, _)) = array_elem(ctx, t) else { continue };
                let dims = match ctx.type_kind(t) {
                    TypeKind::Array { shape, .. } => shape.clone(),
                    _ => continue,
                };
                let on_host = dims.iter().all(|&d| match d {
                    Dim::Const(_) => true,
                    Dim::Value(v) => !defined_inside(ctx, v, s),
                    Dim::Unknown => false,
                });
                if !on_host {
                    continue;
                }
                let mut b = Builder::before(ctx, s);
                b.location = loc;
                let bytes = byte_size(&mut b, &dims, elem);
                let bt = b.ctx.intern_type(TypeKind::Mem(MemSpace::Device));
                let layout = b.ctx.string_attr(&self.layout);
                let e = b.op("mem.expand", &[bytes], &[bt], &[("layout", layout)], vec![]);
                let m = ctx.result(e, 0);
                let next = ctx
                    .next_op(op)
                    .expect("an op with results is not its block's terminator");
                let mut b = Builder::before(ctx, next);
                b.location = loc;
                b.op("mem.bind", &[m, r], &[], &[], vec![]);
                count += 1;
            }
        }
        count
    }
}

/// The ops of a kernel's block `b`, and of the `if`s in it, that may
/// make a thread's arrays (not those in loops or SOAC lambdas: Note
/// [Memory expansion at the mem level]).
fn kernel_block(ctx: &Context, b: BlockId, out: &mut Vec<OpId>) {
    for o in ctx.block_ops(b) {
        if ctx.op_name(o) == "soac.if" {
            for &r in ctx.regions(o) {
                for &inner in ctx.blocks(r) {
                    kernel_block(ctx, inner, out);
                }
            }
        } else if !fresh(ctx, o).is_empty() && !virtual_array(ctx, o) {
            out.push(o);
        }
    }
}

/// Whether `v` is defined inside op `s` (a result of an op nested in it,
/// or an argument of one of its blocks).
fn defined_inside(ctx: &Context, v: Value, s: OpId) -> bool {
    let Some(b) = ctx.value_block(v) else { return false };
    let mut region = ctx.block_parent(b);
    while let Some(r) = region {
        let Some(p) = ctx.region_parent(r) else { return false };
        if p == s {
            return true;
        }
        region = ctx.parent_block(p).and_then(|pb| ctx.block_parent(pb));
    }
    false
}
