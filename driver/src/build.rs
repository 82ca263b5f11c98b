//! `futmlir build`: compile a Futhark program to an executable, or print
//! one of its stages (`--emit`).
//!
//! One pass pipeline from the soac level to the executable
//! (`pipelines::compile` for the target, or `--pass-pipeline`), checked
//! against the passes' levels and cut where `--emit` stops: the passes
//! on futmlir's IR, then the conversions below imp (`imp-to-mlir`,
//! `mlir-to-ptx`, `mlir-to-llvm`, `llvm-to-object`, `object-to-exe`; Note [Passes
//! below imp]), whose artifact says what to print or where the
//! executable went.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_codegen::below_imp::Lowered;
use futmlir_dialects::ir::{Context, PrintOptions};
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
    #[arg(long = "gpu-arch", default_value = pipelines::DEFAULT_CHIP)]
    gpu_arch: String,
    /// Link against the runtime's shared library
    /// (`libfutmlir_runtime_cuda.so`), to be found beside the executable
    /// when it runs, instead of statically.
    #[arg(long)]
    shared_runtime: bool,
    /// Build the program's C library instead of an executable: `OUT.so`
    /// (the runtime linked in), its header `OUT.h` and manifest `OUT.json`,
    /// where OUT is `-o` (Futhark's C API, `c-api.rst`).
    #[arg(long, conflicts_with = "shared_runtime")]
    library: bool,
    #[command(flatten)]
    flags: PassFlags,
}

/// What `--dump-pass-pipeline` prints: the `--pass-pipeline` given,
/// parsed and printed with every option (or its parse error), or the
/// default for the target.
pub fn pipeline_text(flags: &PassFlags, gpu: Option<&str>, output: Product) -> String {
    let text = flags.pass_pipeline.clone().unwrap_or_else(|| output.pipeline(gpu));
    match Pipeline::parse(&text) {
        Ok(p) => p.to_string(),
        Err(e) => format!("{:?}", e.to_report(&text)),
    }
}

/// What the default pipeline ends in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// An executable, with the runtime linked in statically, or
    /// (`shared_runtime`) found beside it when it runs.
    Exe { shared_runtime: bool },
    /// The program's C library (`--library`).
    Library,
}

impl Product {
    /// The default pipeline for `gpu` (the CUDA chip, or the CPU).
    pub fn pipeline(self, gpu: Option<&str>) -> String {
        match self {
            Product::Exe { shared_runtime } => pipelines::compile(gpu, shared_runtime),
            Product::Library => pipelines::library(gpu),
        }
    }
}

impl BuildArgs {
    fn output_kind(&self) -> Product {
        if self.library {
            Product::Library
        } else {
            Product::Exe {
                shared_runtime: self.shared_runtime,
            }
        }
    }
}

/// The chip to compile kernels for, on the CUDA target.
fn gpu_chip(a: &BuildArgs) -> Option<&str> {
    (a.target == Target::Cuda).then_some(a.gpu_arch.as_str())
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
        eprintln!("{}", pipeline_text(&a.flags, gpu_chip(&a), a.output_kind()));
        return ExitCode::SUCCESS;
    }
    let out = a.output.clone().unwrap_or_else(|| a.program.with_extension(""));
    let gpu = gpu_chip(&a);
    match build_with(&a.program, a.emit, gpu, &out, a.output_kind(), None, &a.flags) {
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

/// Compiles `program` for the CPU, or for the CUDA target when `gpu` names
/// the chip; returns the text of a stage for `emit` other than `Exe`,
/// otherwise writes the executable to `out`, linked with the runtime's
/// shared library found beside it when it runs or statically (`output`),
/// or the C library `out.so` with `out.h` and `out.json`, and the kernels'
/// PTX also to `ptx_out`. Errors are rendered
/// diagnostics. With the pass manager's flags: `--pass-pipeline`
/// (default [`pipelines::compile`] for the target), checked against the
/// levels from soac (a `.fut` program internalised) to the executable,
/// and cut at the level `--emit` names (Note [Pass levels], Note [Passes
/// below imp]); the dumps, checks and timing the flags ask for.
pub fn build_with(
    program: &Path,
    emit: Emit,
    gpu: Option<&str>,
    out: &Path,
    output: Product,
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
            let text = output.pipeline(gpu);
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
    let never = |level: &str| {
        format!(
            "error: the program is never at the {level} level here (the input's level, then the pass pipeline's), so --emit={level} has nothing to print"
        )
    };
    let pipeline = match (emit, emit_level(emit)) {
        (_, Some(level)) => pipeline.up_to_level(&start, level).ok_or_else(|| never(level.name()))?,
        (Emit::Ptx, _) => pipeline.up_to_pass("mlir-to-ptx").ok_or_else(|| {
            "error: the pass pipeline has no `mlir-to-ptx`, so --emit=ptx has nothing to print".to_string()
        })?,
        (Emit::Mlir, _) => pipeline.up_to_writer(Level::Mlir).ok_or_else(|| never("mlir"))?,
        (Emit::Llvm, _) => pipeline.up_to_writer(Level::Llvm).ok_or_else(|| never("llvm"))?,
        _ if end != [Level::Exe] => {
            let names: Vec<&str> = end.iter().map(|l| l.name()).collect();
            return Err(format!(
                "error: the pass pipeline ends at the {} level, but an executable is what `object-to-exe` makes: end it with the conversions below imp (`{}`; `futmlir build --dump-pass-pipeline` prints the whole default)",
                names.join(" or "),
                match gpu {
                    Some(chip) => pipelines::exe_cuda(chip),
                    None => pipelines::EXE_CPU.to_string(),
                }
            ));
        }
        _ => pipeline,
    };
    let print = PrintOptions {
        generic: flags.print_op_generic,
        locations: false,
    };
    let rules = flags.rule_book()?;
    let mut pm = PassManager::new(pipeline, flags.instrumentation(print), rules);
    if emit == Emit::Exe {
        pm.artifact = Lowered::to(out.to_path_buf());
    }
    let ran = pm.run(&mut ctx, module).map_err(|ds| render(&ctx, &ds));
    if flags.timing {
        eprint!("{}", pm.timing().report());
    }
    ran?;
    if emit_level(emit).is_some() {
        return Ok(Some(ctx.print_op(module, print)));
    }
    let lowered = Lowered::take(&mut pm.artifact).ok_or("error: the pass pipeline made nothing below imp")?;
    match emit {
        Emit::Mlir => {
            let mlir = lowered.mlir.ok_or("error: the pass pipeline made no MLIR")?;
            let device = match &mlir.device {
                Some(d) => format!("// The kernels:\n{d}"),
                None => String::new(),
            };
            Ok(Some(format!(
                "{}// The program descriptor, added after the conversion to LLVM:\n{}{device}",
                mlir.text, mlir.descriptor
            )))
        }
        Emit::Ptx => match lowered.ptx {
            Some(ptx) => Ok(Some(ptx)),
            None => Err("error: the program has no kernels, so there is no PTX".to_string()),
        },
        Emit::Llvm => lowered
            .llvm
            .map(Some)
            .ok_or("error: the pass pipeline made no LLVM IR".to_string()),
        _ => {
            if let (Some(p), Some(ptx)) = (ptx_out, &lowered.ptx) {
                std::fs::write(p, ptx).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            }
            Ok(None)
        }
    }
}

fn render(ctx: &Context, ds: &[futmlir_dialects::ir::Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{:?}", d.to_report(ctx)))
        .collect::<Vec<_>>()
        .join("\n")
}
