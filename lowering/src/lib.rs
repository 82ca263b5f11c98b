//! The conversions between futmlir's levels, from soac down to imp, and
//! the emission of imp as upstream MLIR text. (The passes within a level
//! are the passes crate's, in `passes/src/<dialect>/`; what links MLIR
//! and LLVM is the codegen crate's, so that this crate builds without
//! them.) Registered with [`register_passes`]:
//! - [`soac_to_segop`]: kernel extraction (`soac-to-segop`);
//! - [`segop_to_mem`]: the mem level, the host's allocations explicit
//!   (`segop-to-mem`, Note [The mem level]);
//! - [`segop_to_imp`]: imperative code over memory (the views' LMADs,
//!   the rest of the allocations), segops as loops or kernels
//!   (`segop-to-imp{target=cpu|cuda}`; the GPU algorithms one file per
//!   segop kind in `segop_to_imp/gpu/`); calls that stay calls become
//!   `imp.call`s of imp functions, with device versions for kernels
//!   (Note [Functions at the imp level]);
//! - [`imp_to_mlir`]: imp as upstream MLIR text (host code, kernels in a
//!   `gpu.module`, the runtime's program descriptor), which the codegen
//!   crate's `imp-to-mlir` pass runs (Note [Passes below imp]).
//!
//! The driver's `futmlir build` runs `pipelines::compile`, which names
//! every pass of the compile in order.

pub mod imp_to_mlir;
pub mod segop_to_imp;
pub mod segop_to_mem;
pub mod soac_to_segop;

/// Adds the conversion passes to the pass registry (the driver calls
/// this, through the codegen crate's `register_passes`, before it parses
/// a pipeline).
pub fn register_passes() {
    static PASSES: &[futmlir_passes::PassInfo] = &[soac_to_segop::INFO, segop_to_mem::INFO, segop_to_imp::INFO];
    futmlir_passes::registry::register(PASSES);
}
