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
use futmlir_frontend::check::{self, Checked};
use futmlir_frontend::diag::Diag;
use futmlir_frontend::span::SourceMap;
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
    /// Build a server-mode executable (`--server`, `server-protocol.rst`).
    /// Every futmlir executable serves the protocol when run with
    /// `--server`, so this builds the same executable as without it.
    #[arg(long)]
    server: bool,
    /// Ignore `#[unsafe]` in the program: every safety check stays.
    #[arg(long)]
    safe: bool,
    /// Make this top-level function an entry point too (may be given
    /// several times).
    #[arg(long = "entry-point", value_name = "NAME")]
    entry_points: Vec<String>,
    /// Print what the compiler does on stderr: each stage and pass as it
    /// ends, with its wall time.
    #[arg(short = 'v', long)]
    verbose: bool,
    /// Print no warnings.
    #[arg(short = 'W', conflicts_with = "werror")]
    no_warnings: bool,
    /// Treat warnings as errors.
    #[arg(long = "Werror")]
    werror: bool,
    #[command(flatten)]
    flags: PassFlags,
}

/// `futmlir check`: type-check a program and print its warnings, as
/// `futhark check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The `.fut` program.
    program: PathBuf,
    /// Print no warnings.
    #[arg(short = 'w', conflicts_with = "werror")]
    no_warnings: bool,
    /// Treat warnings as errors.
    #[arg(long = "Werror")]
    werror: bool,
}

/// `futmlir check`: exit 0 when the program type-checks (and, with
/// `--Werror`, has no warnings).
pub fn check_main(a: CheckArgs) -> ExitCode {
    let options = Options {
        pretty: true,
        warnings: Warnings::from_flags(a.no_warnings, a.werror),
        ..Options::default()
    };
    match check(&a.program, &options) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// What the frontend is asked, and how a build reports: `futmlir build`'s
/// options, or the plain defaults of the other tools ([`build_with`]).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `--safe` (`internalise::Options::safe`).
    pub safe: bool,
    /// `--entry-point`: more entry points.
    pub entry_points: Vec<String>,
    /// Errors and warnings with the source's snippet (miette), rather than
    /// plain `file:line:col: error: ...` lines.
    pub pretty: bool,
    /// What to do with the program's warnings.
    pub warnings: Warnings,
    /// `-v`: a line per stage and pass on stderr.
    pub verbose: bool,
}

/// What a build does with the program's warnings (Note [Warnings] in the
/// frontend's `diag`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Warnings {
    /// Not printed (the tools that do not show them: `test` matches them
    /// itself).
    #[default]
    Quiet,
    /// Printed on stderr.
    Print,
    /// Printed, and the build fails if there is one (`--Werror`).
    Error,
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

impl Warnings {
    /// From `-W`/`-w` (none printed) and `--Werror`.
    fn from_flags(quiet: bool, werror: bool) -> Warnings {
        match (quiet, werror) {
            (true, _) => Warnings::Quiet,
            (false, true) => Warnings::Error,
            (false, false) => Warnings::Print,
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
    let options = Options {
        safe: a.safe,
        entry_points: a.entry_points.clone(),
        pretty: true,
        warnings: Warnings::from_flags(a.no_warnings, a.werror),
        verbose: a.verbose,
    };
    match build_options(&a.program, a.emit, gpu, &out, a.output_kind(), None, &a.flags, &options) {
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
    build_options(program, emit, gpu, out, output, ptx_out, flags, &Options::default())
}

/// [`build_with`], with the frontend's options and the way to report
/// (`futmlir build`'s `--safe`, `--entry-point`, `-v`, `-W`, `--Werror`
/// and snippets).
#[allow(clippy::too_many_arguments)]
pub fn build_options(
    program: &Path,
    emit: Emit,
    gpu: Option<&str>,
    out: &Path,
    output: Product,
    ptx_out: Option<&Path>,
    flags: &PassFlags,
    options: &Options,
) -> Result<Option<String>, String> {
    let started = std::time::Instant::now();
    let stage = |what: &str| {
        if options.verbose {
            eprintln!("[{:8.3} s] {what}", started.elapsed().as_secs_f64());
        }
    };
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
        let (sm, checked) = check(program, options)?;
        stage(&format!("checked {}", program.display()));
        let internalised = futmlir_frontend::internalise::internalise_with(
            &checked,
            &sm,
            &mut ctx,
            futmlir_frontend::internalise::Options { safe: options.safe },
        );
        let m = internalised.map_err(|d| {
            if options.pretty {
                format!("{:?}", d.to_report(&sm))
            } else {
                d.to_plain(&sm)
            }
        })?;
        stage("internalised to the soac level");
        (m, vec![Level::Soac])
    };
    if ir_input {
        stage(&format!("read and verified {}", program.display()));
    }
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
    let mut instrumentation = flags.instrumentation(print);
    instrumentation.progress = options.verbose;
    let mut pm = PassManager::new(pipeline, instrumentation, rules);
    if emit == Emit::Exe {
        pm.artifact = Lowered::to(out.to_path_buf());
    }
    let ran = pm.run(&mut ctx, module).map_err(|ds| render(&ctx, &ds));
    if flags.timing {
        eprint!("{}", pm.timing().report());
    }
    ran?;
    stage("ran the pass pipeline");
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

/// Reads and checks `program`: its errors rendered as `options` says, its
/// warnings printed (or not, or fatal), and every `--entry-point` found.
fn check(program: &Path, options: &Options) -> Result<(SourceMap, Checked), String> {
    let text =
        std::fs::read_to_string(program).map_err(|e| format!("error: cannot read {}: {e}", program.display()))?;
    let mut sm = SourceMap::default();
    let file = sm.add(program.display().to_string(), text);
    let show = |d: &Diag, sm: &SourceMap, warning: bool| match (options.pretty, warning) {
        (true, false) => format!("{:?}", d.to_report(sm)),
        (true, true) => format!("{:?}", d.to_warning_report(sm)),
        (false, false) => d.to_plain(sm),
        (false, true) => d.to_plain_warning(sm),
    };
    let checked = check::check_file_entries(&mut sm, file, &options.entry_points)
        .map_err(|ds| ds.iter().map(|d| show(d, &sm, false)).collect::<Vec<_>>().join("\n"))?;
    if options.warnings != Warnings::Quiet {
        for w in &checked.warnings {
            eprintln!("{}", show(w, &sm, true));
        }
    }
    if options.warnings == Warnings::Error && !checked.warnings.is_empty() {
        let n = checked.warnings.len();
        return Err(format!(
            "error: {n} warning{}, which --Werror makes errors",
            if n == 1 { "" } else { "s" }
        ));
    }
    for name in &options.entry_points {
        if !checked.entries.iter().any(|e| &*e.name == name.as_str()) {
            return Err(format!(
                "error: --entry-point {name}: the program has no top-level function `{name}`"
            ));
        }
    }
    Ok((sm, checked))
}

fn render(ctx: &Context, ds: &[futmlir_dialects::ir::Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{:?}", d.to_report(ctx)))
        .collect::<Vec<_>>()
        .join("\n")
}
