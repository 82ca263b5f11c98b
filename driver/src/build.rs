//! `futmlir build`: compile a Futhark program to an executable, or print
//! one of its stages (`--emit`).
//!
//! The stages: one pass pipeline from the soac level to the imp level
//! (`pipelines::compile` for the target, or `--pass-pipeline`; checked
//! against the passes' levels and cut where `--emit` stops), then
//! `imp_to_mlir`, MLIR's conversions to LLVM (`codegen::HOST_PIPELINE`),
//! LLVM's optimisation and object emission, and linking with the runtime.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_dialects::ir::{Context, PrintOptions};
use futmlir_lowering::{codegen, imp_to_mlir};
use futmlir_passes::{pipelines, Level, PassManager, Pipeline};

use crate::passflags::PassFlags;

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
    #[command(flatten)]
    flags: PassFlags,
}

pub fn main(a: BuildArgs) -> ExitCode {
    if a.emit == Emit::Ptx && a.target != Target::Cuda {
        eprintln!("error: --emit=ptx needs --target=cuda");
        return ExitCode::FAILURE;
    }
    if let Err(e) = a.flags.load_plugins() {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if a.flags.dump_pass_pipeline {
        // Only the pipeline, so that `--pass-pipeline="$(futmlir build
        // --dump-pass-pipeline P 2>&1)"` builds the same executable.
        let text = a
            .flags
            .pass_pipeline
            .clone()
            .unwrap_or_else(|| pipelines::compile(a.target == Target::Cuda));
        return match Pipeline::parse(&text) {
            Ok(p) => {
                eprintln!("{p}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{:?}", e.to_report(&text));
                ExitCode::FAILURE
            }
        };
    }
    let out = a.output.clone().unwrap_or_else(|| a.program.with_extension(""));
    let gpu = (a.target == Target::Cuda).then_some(a.gpu_arch.as_str());
    match build_with(&a.program, a.emit, gpu, &out, a.shared_runtime, None, &a.flags) {
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
    build_with(program, emit, gpu, out, dynamic, ptx_out, &PassFlags::default())
}

// Note [IR in at every level]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `futmlir build prog.mlir` takes IR that `--emit` printed (or a
// researcher wrote or edited) at any level down to imp, and finishes the
// job. Its level comes from its ops (`manager::ir_levels`; the lowest
// one it may be at), and the default pipeline continues after the prefix
// that `--emit` of that level runs (`Pipeline::after_level`), so
// `--emit=L` then `build` of its output runs the whole pipeline once. A
// `--pass-pipeline` given with IR runs as given, checked against the
// IR's levels.

/// The level `emit` prints, if it is one of the pass manager's.
fn emit_level(emit: Emit) -> Option<Level> {
    match emit {
        Emit::Soac => Some(Level::Soac),
        Emit::Segop => Some(Level::Segop),
        Emit::Mem => Some(Level::Mem),
        Emit::Imp => Some(Level::Imp),
        Emit::Mlir | Emit::Llvm | Emit::Ptx | Emit::Exe => None,
    }
}

/// [`build_linked`] with the pass manager's flags: `--pass-pipeline`
/// (default [`pipelines::compile`] for the target), checked against the
/// levels from soac (a `.fut` program internalised) to imp, and cut at
/// the level `--emit` names (Note [Pass levels]); the dumps, checks and
/// timing the flags ask for.
pub fn build_with(
    program: &Path,
    emit: Emit,
    gpu: Option<&str>,
    out: &Path,
    dynamic: bool,
    ptx_out: Option<&Path>,
    flags: &PassFlags,
) -> Result<Option<String>, String> {
    // The program: a Futhark program, internalised (soac IR), or IR text
    // at any level, which continues from there (Note [IR in at every
    // level]).
    let mut ctx = futmlir_dialects::context();
    let ir_input = program.extension().is_some_and(|e| e == "mlir");
    let (module, start) = if ir_input {
        let src =
            std::fs::read_to_string(program).map_err(|e| format!("error: cannot read {}: {e}", program.display()))?;
        let m = ctx
            .parse_str(&program.display().to_string(), &src)
            .map_err(|d| render(&ctx, &[d]))?;
        ctx.verify(m).map_err(|ds| render(&ctx, &ds))?;
        (m, futmlir_passes::manager::ir_levels(&ctx, m))
    } else {
        let (sm, checked) = crate::run::load_plain(program)?;
        let m = futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx).map_err(|d| d.to_plain(&sm))?;
        (m, vec![Level::Soac])
    };
    let (text, pipeline) = match &flags.pass_pipeline {
        Some(t) => (
            t.clone(),
            Pipeline::parse(t).map_err(|e| format!("{:?}", e.to_report(t)))?,
        ),
        None => {
            let text = pipelines::compile(gpu.is_some());
            let whole = Pipeline::parse(&text).map_err(|e| format!("{:?}", e.to_report(&text)))?;
            if !ir_input {
                (text, whole)
            } else {
                let rest = whole
                    .after_level(&[Level::Soac], start[0])
                    .ok_or_else(|| format!("error: the default pipeline never gives {} IR", start[0].name()))?;
                (rest.to_string(), rest)
            }
        }
    };
    let end = pipeline
        .check_levels(&start)
        .map_err(|e| format!("{:?}", e.to_report(&text)))?;
    let pipeline = match emit_level(emit) {
        Some(level) => pipeline.up_to_level(&start, level).ok_or_else(|| {
            format!(
                "error: the IR is never at the {} level here (the input's level, then the pass pipeline's), so --emit={} has nothing to print",
                level.name(),
                level.name()
            )
        })?,
        None if end != [Level::Imp] => {
            let names: Vec<&str> = end.iter().map(|l| l.name()).collect();
            return Err(format!(
                "error: the pass pipeline ends at the {} level, but an executable is built from imp IR: end it with the conversions (`futmlir build --dump-pass-pipeline` prints the default)",
                names.join(" or ")
            ));
        }
        None => pipeline,
    };
    let rules = flags.rule_book()?;
    let mut pm = PassManager::new(pipeline, flags.instrumentation(PrintOptions::default()), rules);
    let ran = pm.run(&mut ctx, module).map_err(|ds| render(&ctx, &ds));
    if flags.timing {
        eprint!("{}", pm.timing().report());
    }
    ran?;
    if emit_level(emit).is_some() {
        return Ok(Some(ctx.print_op(module, PrintOptions::default())));
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
