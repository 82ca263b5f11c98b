//! The default pipelines, spelled out top to bottom. Each is pipeline text
//! (`futmlir opt --pass-pipeline=...` takes the same), so a researcher can
//! copy one, reorder it and run it.

/// The soac level, after internalisation:
///
/// 1. `soac-inline` first: the internaliser makes a `soac.func` of every
///    first-order function it calls; inlining them (thesis 5.1) gives the
///    later passes whole entry points to simplify and fuse across calls.
/// 2. `soac-jvp`: forward-mode AD (Note [Forward-mode AD] in
///    `soac/jvp.rs`) replaces each `soac.jvp` by its tangent program,
///    after inlining, so that the functions it differentiates have no
///    calls left, and before everything else, so that the tangent
///    program is simplified and fused with the code around it;
///    `soac-vjp` likewise replaces each `soac.vjp` by its primal and
///    adjoint program (Note [Reverse-mode AD] in `soac/vjp.rs`).
/// 3. `soac-simplify`: constant folding and the algebra of the rule files
///    (`soac-rewrite`), CSE, dead code, unused results, hoisting and the
///    other structural simplifications, to a fixed point, on the inlined
///    code where arguments became constants and identities show. Dead
///    uses of a SOAC's result would keep it from fusing, and hoisting
///    moves invariant SOACs next to the ones they may fuse with.
/// 4. `soac-fuse`: vertical and horizontal fusion with the fusion rules
///    (thesis ch. 7), on code with no calls and no dead ops.
/// 5. `soac-simplify` again: fused lambdas repeat constants and compute
///    values only the other SOAC used; a stream a fusion made may now
///    simplify.
pub const SOAC: &str = "soac-inline,soac-jvp,soac-vjp,soac-simplify,soac-fuse,soac-simplify";

/// [`SOAC`] for the CUDA target: a `noinline` call in a SOAC's lambda
/// whose callee makes arrays is inlined, so that its arrays get memory
/// expansion instead of the thread's own, slower allocations (Note [Calls
/// that allocate in kernels] in `soac/inline.rs`).
pub const SOAC_CUDA: &str = "soac-inline{kernel-allocs=false},soac-jvp,soac-vjp,soac-simplify,soac-fuse,soac-simplify";

/// Down to kernels (the segop level), after [`SOAC`]:
///
/// 1. `soac-unstream{nested=true}`: every stream takes its whole input as
///    one chunk, so the SOACs in it become kernels (thesis rule E4) or,
///    inside a map, parts of the map's nest; the back ends have no
///    chunked loop for a stream, and kernel extraction does not keep one
///    in a kernel's body. `soac-simplify` removes what only mattered
///    between chunks.
/// 2. `soac-partition`: a `partition` becomes a scanomap of its classes'
///    running counts and a scatter of the rows to their places, SOACs
///    that kernel extraction knows; `soac-simplify` then cleans up what
///    the rewrite left unused (the counts of a partition whose sizes
///    nobody reads).
/// 3. `soac-to-segop` (from `futmlir-lowering`, which must have
///    registered its passes): map distribution and kernel extraction.
/// 4. `soac-simplify` again, as Futhark simplifies after kernel
///    extraction: what the kernels replaced (an `iota` whose elements a
///    segop now takes from its index space) is dead.
pub const TO_KERNELS: &str = "soac-unstream{nested=true},soac-partition,soac-simplify,soac-to-segop,soac-simplify";

/// The CPU target's passes after [`TO_KERNELS`] (from
/// `futmlir-lowering`): `segop-cpu-locality` gives segops row-major
/// copies of the transposed views they read (Note [Transposed views on
/// the CPU]).
pub const CPU_KERNELS: &str = "segop-cpu-locality";

/// The CUDA target's passes after [`TO_KERNELS`]: `segop-tile` tiles
/// matmul-like segmented reductions (Note [Block tiling]), then
/// `segop-coalesce` has those whose segments run across memory reduce
/// by columns (Note [Column reductions]).
pub const CUDA_KERNELS: &str = "segop-tile,segop-coalesce";

/// The mem level, after [`TO_KERNELS`] (both from `futmlir-lowering`):
///
/// 1. `segop-to-mem`: every fresh array of the host code gets a
///    `mem.alloc` and a `mem.bind` (Note [The mem level]).
/// 2. `mem-short-circuit`: the parts of a `concat` that nothing else
///    reads are made in the concat's block at their places, and not
///    copied (Note [Short-circuiting]).
/// 3. `mem-reuse`: an allocation takes a block of its size that is
///    dead by then (Note [Block reuse]); it needs the blocks explicit.
/// 4. `ir-dce`: the byte sizes of the allocations that went.
pub const MEM: &str = "segop-to-mem,mem-short-circuit,mem-reuse,ir-dce";

/// [`MEM`] for the CUDA target, with `mem-expand` after `mem-reuse`:
/// the arrays a kernel's threads make get one block for all the
/// kernel's threads (Note [Memory expansion at the mem level]), which
/// `mem-reuse` leaves alone (it is not a `mem.alloc` of the host).
pub const MEM_CUDA: &str = "segop-to-mem,mem-short-circuit,mem-reuse,mem-expand,ir-dce";

/// Down to the imp level, after [`MEM`], for the CPU: `segop-to-imp`
/// (kernels become loops), then the imp passes: `imp-carried-memory`
/// (loops that carry arrays swap buffers instead of copying) and
/// `imp-free-early` (blocks freed after their last use).
pub const IMP_CPU: &str = "segop-to-imp{target=cpu},imp-carried-memory,imp-free-early";

/// [`IMP_CPU`] for the CUDA target: kernels become GPU kernels.
pub const IMP_CUDA: &str = "segop-to-imp{target=cuda},imp-carried-memory,imp-free-early";

/// Below imp, for the CPU (Note [Passes below imp]; the passes are
/// the lowering crate's): the MLIR text of the imp module, MLIR's
/// conversions and the translation to LLVM IR, the host object, the
/// executable.
pub const EXE_CPU: &str = "imp-to-mlir{target=cpu},mlir-to-llvm,llvm-to-object,object-to-exe";

/// The GPU that `futmlir build --target=cuda` compiles kernels for
/// unless `--gpu-arch` says otherwise: the H100 that futmlir is tested
/// on.
pub const DEFAULT_CHIP: &str = "sm_90";

/// Below imp, for CUDA: [`EXE_CPU`] with the kernels compiled to PTX
/// for the chip, which the executable carries.
pub fn exe_cuda(chip: &str) -> String {
    format!("imp-to-mlir{{target=cuda}},mlir-to-ptx{{chip={chip}}},mlir-to-llvm,llvm-to-object,object-to-exe")
}

/// The whole compile from the soac level to the imp level for a target.
pub fn to_imp(cuda: bool) -> String {
    if cuda {
        [SOAC_CUDA, TO_KERNELS, CUDA_KERNELS, MEM_CUDA, IMP_CUDA].join(",")
    } else {
        [SOAC, TO_KERNELS, CPU_KERNELS, MEM, IMP_CPU].join(",")
    }
}

/// The whole compile, from the soac level to the executable: for the
/// CPU, or for CUDA when `gpu` names the chip; `shared_runtime`: the
/// executable finds the runtime's shared library beside it. What
/// `futmlir build`, `test`, `bench` and `structure` blocks run, and what
/// `futmlir build --dump-pass-pipeline` prints.
pub fn compile(gpu: Option<&str>, shared_runtime: bool) -> String {
    let below = match gpu {
        Some(chip) => exe_cuda(chip),
        None => EXE_CPU.to_string(),
    };
    let below = if shared_runtime {
        below.replace(",object-to-exe", ",object-to-exe{shared-runtime=true}")
    } else {
        below
    };
    format!("{},{below}", to_imp(gpu.is_some()))
}

/// The whole compile to the program's C library (`futmlir build
/// --library`): [`compile`] ending in `object-to-library` instead of
/// `object-to-exe`; the host object is the executable's.
pub fn library(gpu: Option<&str>) -> String {
    compile(gpu, false).replace(",object-to-exe", ",object-to-library")
}

#[cfg(test)]
mod tests {
    use crate::Pipeline;

    #[test]
    fn the_default_pipelines_parse() {
        let p = Pipeline::parse(super::SOAC).expect("the soac pipeline parses");
        assert_eq!(p.to_string().matches("soac-").count(), 6);
    }
}
