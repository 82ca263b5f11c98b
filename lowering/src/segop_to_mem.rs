//! `segop-to-mem`: from segop to mem, the allocations of the
//! host code made explicit.
//!
//! **Note [The mem level].** After this pass, every fresh array the host
//! code makes — a segop's results, `iota`, `replicate`, `copy`,
//! `manifest`, `concat`, `rotate`, an array constant — has its memory
//! block allocated by a `mem.alloc` just before the op that makes it,
//! and a `mem.bind(block, array)` just after it says that the array
//! lives there (row-major from the block's start). The byte size is
//! computed from the result's type: the product of its sizes and the
//! element's bytes (a `segop.filter`'s results from its input's size,
//! the most it may keep). Passes of the mem level see and change the
//! blocks: `mem-short-circuit` (`short_circuit.rs`) binds the parts of a
//! concat into the concat's block at offsets and places an update's new
//! row in the row (`mem.place`), and `mem-reuse` (`reuse.rs`) gives an
//! allocation a dead block of the same size. `segop-to-imp` then writes each bound result
//! into its block instead of allocating one.
//!
//! What stays implicit, made by `segop-to-imp` while it translates: the
//! views (index, slice, rearrange, and reshape of a row-major array
//! change only the LMAD: Note [Arrays as LMADs]), the copy a reshape of
//! a strided array needs, the temporaries of the GPU algorithms (a
//! reduction's partial results, a scan's look-back state), the copies of
//! an entry point's results, and the arrays threads make inside kernels
//! (memory expansion). An op whose result sizes are only known after it
//! runs (an existential size of its own) keeps its implicit allocation.

use futmlir_dialects::ir::{BlockId, Builder, Context, Diagnostic, Dim, OpId, Scalar, TypeKind, Value};
use futmlir_passes::{Level, Options, Pass, PassInfo};

use futmlir_passes::mem::{array_elem, byte_size, host_functions, host_regions};

use crate::segop_to_imp::array_dims;

pub const INFO: PassInfo = PassInfo {
    name: "segop-to-mem",
    description: "segop to mem: a mem.alloc and mem.bind for every fresh array of the host code (Note [The mem level])",
    options: &[],
    reads: &[Level::Segop],
    writes: Some(Level::Mem),
    create: &|_: &Options, _| Box::new(ExplicitAllocations),
};

struct ExplicitAllocations;

impl Pass for ExplicitAllocations {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        for f in host_functions(ctx, module) {
            let body = ctx.blocks(ctx.regions(f)[0])[0];
            host_block(ctx, body);
        }
        Ok(())
    }
}

fn host_block(ctx: &mut Context, b: BlockId) {
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    for o in ops {
        for inner in host_regions(ctx, o) {
            host_block(ctx, inner);
        }
        let loc = ctx.location(o);
        // `o` has results, so it is not its block's terminator: the binds
        // go before the op after it.
        let Some(next) = ctx.next_op(o) else { continue };
        for (k, dims, elem) in fresh_results(ctx, o) {
            let mut bld = Builder::before(ctx, o);
            bld.location = loc;
            let bytes = byte_size(&mut bld, &dims, elem);
            let bt = bld
                .ctx
                .intern_type(TypeKind::Mem(futmlir_dialects::ir::MemSpace::Device));
            let space = bld.ctx.string_attr("device");
            let alloc = bld.op("mem.alloc", &[bytes], &[bt], &[("space", space)], vec![]);
            let m = ctx.result(alloc, 0);
            let r = ctx.result(o, k);
            let mut bld = Builder::before(ctx, next);
            bld.location = loc;
            bld.op("mem.bind", &[m, r], &[], &[], vec![]);
        }
    }
}

/// The results of `op` that are fresh arrays with sizes known before it
/// runs: their positions, sizes and element types.
/// (The sizes are constants or host values, never `Dim::Unknown`.)
fn fresh_results(ctx: &Context, op: OpId) -> Vec<(usize, Vec<Dim>, Scalar)> {
    let name = ctx.op_name(op);
    let results: Vec<Value> = ctx.results(op).collect();
    let candidates: Vec<usize> = match name {
        "soac.iota" | "soac.replicate" | "soac.copy" | "segop.manifest" | "soac.concat" | "soac.rotate" => vec![0],
        "soac.constant" => vec![0],
        "segop.segmap" if ctx.attr(op, "writes").is_some() => vec![],
        "segop.segmap" | "segop.segred" | "segop.segscan" => (0..results.len()).collect(),
        "segop.filter" => (1..results.len()).collect(),
        _ => vec![],
    };
    let mut out = Vec::new();
    for k in candidates {
        let t = ctx.value_type(results[k]);
        let Some((elem, _)) = array_elem(ctx, t) else { continue };
        let mut dims = array_dims(ctx, t);
        if name == "segop.filter" {
            // At most the input's size.
            if let Some(d) = dims.first_mut() {
                *d = Dim::Value(ctx.operands(op)[0]);
            }
        }
        let known = dims.iter().all(|&d| match d {
            Dim::Const(_) => true,
            Dim::Value(v) => ctx.defining_op(v) != Some(op),
            Dim::Unknown => false,
        });
        if known {
            out.push((k, dims, elem));
        }
    }
    out
}
