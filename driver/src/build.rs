//! `futmlir build`: compile a Futhark program to an executable, or print
//! one of its stages (`--emit`).
//!
//! The stages: the soac pipeline and kernel extraction
//! (`pipelines::KERNELS`), the mem level (`pipelines::MEM`),
//! `segop-to-imp`, `imp_to_mlir`, MLIR's
//! conversions to LLVM (`codegen::HOST_PIPELINE`), LLVM's optimisation
//! and object emission, and linking with the runtime.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_dialects::ir::{Context, OpId, PrintOptions};
use futmlir_lowering::{codegen, imp_to_mlir};
use futmlir_passes::{Instrumentation, PassManager, Pipeline};

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    Cpu,
    Cuda,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    Soac,
    Segop,
    Mem,
    Imp,
    Mlir,
    Llvm,
    Ptx,
    Exe,
}

#[derive(clap::Args)]
pub struct BuildArgs {
    /// The `.fut` program.
    program: PathBuf,
    /// What to produce code for.
    #[arg(long, value_enum, default_value = "cpu")]
    target: Target,
    /// The executable (default: the program's name without `.fut`).
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// Print a stage instead of building the executable.
    #[arg(long, value_enum, default_value = "exe")]
    emit: Emit,
    /// The GPU to generate code for (cuda target).
    #[arg(long = "gpu-arch", default_value = "sm_90")]
    gpu_arch: String,
    /// Link against the runtime's shared library
    /// (`libfutmlir_runtime_cuda.so`), to be found beside the executable
    /// when it runs, instead of statically.
    #[arg(long)]
    shared_runtime: bool,
}

pub fn main(a: BuildArgs) -> ExitCode {
    if a.emit == Emit::Ptx && a.target != Target::Cuda {
        eprintln!("error: --emit=ptx needs --target=cuda");
        return ExitCode::FAILURE;
    }
    let out = a.output.clone().unwrap_or_else(|| a.program.with_extension(""));
    let gpu = (a.target == Target::Cuda).then_some(a.gpu_arch.as_str());
    match build_linked(&a.program, a.emit, gpu, &out, a.shared_runtime, None) {
        Ok(Some(text)) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Ok(None) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Compiles `program` for the CPU, or for the CUDA target when `gpu` names
/// the chip; returns the text of a stage for `emit` other than `Exe`,
/// otherwise writes the executable to `out`. Errors are rendered
/// diagnostics.
pub fn build(program: &Path, emit: Emit, gpu: Option<&str>, out: &Path) -> Result<Option<String>, String> {
    build_linked(program, emit, gpu, out, false, None)
}

/// [`build`], with the runtime linked as a shared library found beside the
/// executable (`dynamic`) instead of statically, and the kernels' PTX
/// also written to `ptx_out`.
pub fn build_linked(
    program: &Path,
    emit: Emit,
    gpu: Option<&str>,
    out: &Path,
    dynamic: bool,
    ptx_out: Option<&Path>,
) -> Result<Option<String>, String> {
    let (sm, checked) = crate::run::load_plain(program)?;
    let mut ctx = futmlir_dialects::context();
    let module = futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx).map_err(|d| d.to_plain(&sm))?;
    let stage = |ctx: &mut Context, pipeline: &str| -> Result<(), String> {
        let p = Pipeline::parse(pipeline).map_err(|e| e.message)?;
        PassManager::new(p, Instrumentation::default())
            .run(ctx, module)
            .map_err(|ds| render(ctx, &ds))
    };
    let print = |ctx: &Context, m: OpId| Ok(Some(ctx.print_op(m, PrintOptions::default())));
    stage(
        &mut ctx,
        match gpu {
            Some(_) => futmlir_passes::pipelines::SOAC_CUDA,
            None => futmlir_passes::pipelines::SOAC,
        },
    )?;
    if emit == Emit::Soac {
        return print(&ctx, module);
    }
    stage(&mut ctx, futmlir_passes::pipelines::TO_KERNELS)?;
    if gpu.is_none() {
        stage(&mut ctx, futmlir_passes::pipelines::CPU_KERNELS)?;
    }
    if emit == Emit::Segop {
        return print(&ctx, module);
    }
    stage(&mut ctx, futmlir_passes::pipelines::MEM)?;
    if emit == Emit::Mem {
        return print(&ctx, module);
    }
    let target = if gpu.is_some() { "cuda" } else { "cpu" };
    stage(
        &mut ctx,
        &format!("segop-to-imp{{target={target}}},imp-carried-memory,imp-free-early"),
    )?;
    if emit == Emit::Imp {
        return print(&ctx, module);
    }
    let libdevice = match gpu {
        Some(_) => codegen::find_libdevice()?,
        None => None,
    };
    let mut mlir =
        imp_to_mlir::emit_module(&ctx, module, gpu.is_some(), libdevice.is_some()).map_err(|d| render(&ctx, &[d]))?;
    if emit == Emit::Mlir {
        let device = match &mlir.device {
            Some(d) => format!("// The kernels:\n{d}"),
            None => String::new(),
        };
        return Ok(Some(format!(
            "{}// The program descriptor, added after the conversion to LLVM:\n{}{device}",
            mlir.text, mlir.descriptor
        )));
    }
    if let (Some(chip), Some(device)) = (gpu, &mlir.device) {
        let ptx = codegen::device_ptx(device, chip, libdevice.as_deref())?;
        if emit == Emit::Ptx {
            return Ok(Some(ptx));
        }
        if let Some(p) = ptx_out {
            std::fs::write(p, &ptx).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        mlir.descriptor.push_str(&imp_to_mlir::ptx_global(&ptx));
    }
    let ir = codegen::mlir_to_llvm_ir(&mlir.text, codegen::HOST_PIPELINE, &mlir.descriptor)?;
    if emit == Emit::Llvm {
        return Ok(Some(ir));
    }
    let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let obj = dir.path().join("program.o");
    codegen::host_object(&ir, &obj)?;
    codegen::link(&obj, out, dynamic)?;
    Ok(None)
}

fn render(ctx: &Context, ds: &[futmlir_dialects::ir::Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{:?}", d.to_report(ctx)))
        .collect::<Vec<_>>()
        .join("\n")
}
