//! The LLVM-linked end of the compile: MLIR's conversions (melior), LLVM
//! IR, PTX, the host object (inkwell) and the link with the runtime, as
//! the passes below imp (Note [Passes below imp] in the passes crate).
//! - [`codegen`]: the calls into MLIR and LLVM, and the runtime's
//!   libraries and the linker;
//! - [`below_imp`]: the passes `imp-to-mlir` (the lowering crate's
//!   `imp_to_mlir`), `mlir-to-ptx`, `mlir-to-llvm`, `llvm-to-object` and
//!   `object-to-exe` (or `object-to-library`), registered with [`register_passes`] (which also
//!   registers the lowering crate's conversions);
//! - [`toolchain`] proves the toolchain is linked: it asks MLIR (through
//!   melior) and LLVM (through inkwell) who they are.

pub mod below_imp;
pub mod codegen;

/// Adds every conversion of the compile to the pass registry: the
/// lowering crate's, from soac to imp, and the passes below imp.
pub fn register_passes() {
    futmlir_lowering::register_passes();
    static PASSES: &[futmlir_passes::PassInfo] = &[
        below_imp::IMP_TO_MLIR,
        below_imp::MLIR_TO_PTX,
        below_imp::MLIR_TO_LLVM,
        below_imp::LLVM_TO_OBJECT,
        below_imp::OBJECT_TO_EXE,
        below_imp::OBJECT_TO_LIBRARY,
    ];
    futmlir_passes::registry::register(PASSES);
}

use melior::dialect::DialectRegistry;
use melior::ir::operation::OperationLike;
use melior::ir::Module;
use melior::utility::register_all_dialects;
use melior::Context;

/// What the linked MLIR and LLVM report about themselves.
pub struct Toolchain {
    pub llvm_version: (u32, u32, u32),
    pub mlir_dialects: usize,
    /// Whether MLIR parsed and verified a small `func` module.
    pub mlir_works: bool,
}

pub fn toolchain() -> Toolchain {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let module = Module::parse(&context, "func.func @f(%x: i32) -> i32 { return %x : i32 }");
    Toolchain {
        llvm_version: inkwell::support::get_llvm_version(),
        mlir_dialects: context.registered_dialect_count(),
        mlir_works: module.is_some_and(|m| m.as_operation().verify()),
    }
}

impl std::fmt::Display for Toolchain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (a, b, c) = self.llvm_version;
        writeln!(f, "LLVM {a}.{b}.{c} (linked through inkwell 0.11)")?;
        write!(
            f,
            "MLIR {a}.{b}.{c} (linked through melior 0.27; {} dialects registered; self-check {})",
            self.mlir_dialects,
            if self.mlir_works { "passed" } else { "FAILED" }
        )
    }
}

#[cfg(test)]
mod tests {
    use futmlir_passes::{pipelines, Level, Pipeline};

    /// Each target's whole compile goes from the soac level to the
    /// executable through passes that read what the ones before leave,
    /// and every IR level can be printed (Note [Pass levels], Note
    /// [Passes below imp]).
    #[test]
    fn the_compile_pipelines_go_from_soac_to_the_executable() {
        super::register_passes();
        for gpu in [None, Some(pipelines::DEFAULT_CHIP)] {
            for shared in [false, true] {
                let p = Pipeline::parse(&pipelines::compile(gpu, shared)).expect("parses");
                assert_eq!(p.check_levels(&[Level::Soac]), Ok(vec![Level::Exe]));
                for level in [Level::Soac, Level::Segop, Level::Mem, Level::Imp] {
                    assert!(p.up_to_level(&[Level::Soac], level).is_some(), "{level:?}");
                }
                let to_imp = Pipeline::parse(&pipelines::to_imp(gpu.is_some())).expect("parses");
                assert_eq!(p.up_to_level(&[Level::Soac], Level::Imp), Some(to_imp));
                // `--emit=mlir` stops after `imp-to-mlir`, `--emit=llvm`
                // after `mlir-to-llvm`; the PTX only on the CUDA target.
                let mlir = p.up_to_writer(Level::Mlir).expect("makes MLIR");
                assert!(mlir.to_string().ends_with(&format!(
                    "imp-to-mlir{{target={}}}",
                    if gpu.is_some() { "cuda" } else { "cpu" }
                )));
                assert!(p.up_to_writer(Level::Llvm).is_some());
                assert_eq!(p.up_to_pass("mlir-to-ptx").is_some(), gpu.is_some());
                assert_eq!(p.to_string().contains("shared-runtime=true"), shared);
                // The text parses back to the same pipeline.
                assert_eq!(Pipeline::parse(&p.to_string()).expect("parses back"), p);
            }
        }
    }
}
