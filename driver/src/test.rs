//! `futmlir test`: run the `-- ==` test blocks of Futhark programs.
//!
//! Each program is compiled once by a [`Backend`]; each case of each block
//! runs once per entry point of its block (one `(entry, case)` pair is one
//! counted case). `random input` cases with `auto output` compare the
//! backend under test with a reference backend (the interpreter). Each
//! `structure` block is one more counted case (see [`crate::structure`]),
//! and so is each property of a `property:` line (see
//! [`crate::property`]). The options follow futhark-test(1); [`Selection`]
//! holds those that choose what runs.
//!
//! Output: one line per failing case, `path:LINE: entry E: reason`
//! (continuation lines indented), passing and skipped cases too with `-v`,
//! a program's lines together as soon as it is done (programs are tested
//! on several threads, Note [Concurrent tests] in
//! driver/src/test_pool.rs), then `N passed, N failed, N skipped`. Exit
//! status 1 if a case failed.

use std::cell::OnceCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_frontend::testspec::{
    fut_files, parse_test_spec, Expected, InputSpec, OutputSpec, Structure, TestBlock, TestCase,
};
use futmlir_frontend::values::{self, Value};
use regex::Regex;

use crate::compiled::ExecOptions;
use crate::passflags::PassFlags;

#[derive(clap::Args)]
pub struct TestArgs {
    /// Programs (`.fut` files) and directories (searched recursively for
    /// `.fut` files).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The backend under test (default: `interp`, or `cpu` with `-c`).
    #[arg(long, value_enum)]
    backend: Option<BackendKind>,
    /// Test compiled code (`--backend=cpu` unless `--backend` names
    /// another compiled backend).
    #[arg(short = 'c', conflicts_with = "interpret")]
    compiled: bool,
    /// Test with the interpreter (`--backend=interp`).
    #[arg(short = 'i')]
    interpret: bool,
    /// Compile the programs (with the backend under test), but do not run
    /// them: one counted case per program, and the compile-time `error:`
    /// blocks.
    #[arg(short = 'C', group = "stage")]
    compile_only: bool,
    /// Type-check the programs, but do not run them.
    #[arg(short = 't', group = "stage")]
    typecheck_only: bool,
    /// Pass the programs through the frontend (type checking and
    /// internalisation to the soac IR), but do not run them.
    #[arg(short = 'I', group = "stage")]
    frontend_only: bool,
    /// Run only the `structure` blocks (without it they run with the
    /// cases).
    #[arg(short = 's', group = "stage")]
    structure_only: bool,
    /// How many programs to compile and run at once (default: the
    /// machine's cores).
    #[arg(long, value_name = "NUM")]
    concurrency: Option<std::num::NonZeroUsize>,
    /// Only run the cases and properties of entry points with this name.
    #[arg(long, value_name = "NAME")]
    entry_point: Option<String>,
    /// The seed of the random candidates of property tests (default: one
    /// drawn from the clock, printed with each counterexample).
    #[arg(long, value_name = "INT")]
    seed: Option<u64>,
    /// Do not run blocks or cases with this tag (may be given several
    /// times); `notest`, `disable` and `no_BACKEND` are always excluded.
    #[arg(long, value_name = "TAG")]
    exclude: Vec<String>,
    #[command(flatten)]
    exec: crate::compiled::ExecFlags,
    /// Pass an option to the compiler (one of `futmlir build`'s pass
    /// flags below, e.g. `--pass-compiler-option=--timing`; may be given
    /// several times).
    #[arg(long, value_name = "OPT", allow_hyphen_values = true)]
    pass_compiler_option: Vec<String>,
    /// No live status line: a plain status line on stderr about once a
    /// minute (also when stderr is not a terminal).
    #[arg(long)]
    no_terminal: bool,
    /// Seconds between the plain status lines of `--no-terminal`.
    #[arg(long, value_name = "SECS", default_value_t = 60, hide = true)]
    status_interval: u64,
    /// Only the programs whose path this regular expression matches.
    #[arg(long, value_name = "REGEX")]
    filter: Option<String>,
    /// Print passing and skipped cases too.
    #[arg(short, long)]
    verbose: bool,
    /// With `--backend=cuda`: build the programs and write their cases
    /// into this folder, to run on a GPU machine without Rust with
    /// `futmlir-check` (see scripts/cuda-test.sh), instead of running them
    /// here (which needs a GPU here). With `--backend=cpu`: the same
    /// bundle for this machine's CPU (to test the bundle itself).
    #[arg(long, value_name = "DIR")]
    bundle: Option<PathBuf>,
    /// Run the cases once per pass of the compile pipeline: on the IR
    /// after each pass, finished into an executable by the conversions
    /// alone, so that a wrong result names the pass that made it (Note
    /// [Checking each pass] in driver/src/each_pass.rs). With
    /// `--backend=cuda --bundle DIR`: a bundle per pass, `DIR/kNN-PASS`.
    #[arg(long)]
    each_pass: bool,
    /// The GPU to build for (`--backend=cuda`).
    #[arg(long = "gpu-arch", default_value = futmlir_passes::pipelines::DEFAULT_CHIP)]
    gpu_arch: String,
    /// How the compiled backends compile (`futmlir build`'s flags).
    #[command(flatten)]
    flags: PassFlags,
}

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum BackendKind {
    Interp,
    Cpu,
    Cuda,
}

impl BackendKind {
    /// The name in `no_NAME` tags.
    fn name(self) -> &'static str {
        match self {
            BackendKind::Interp => "interp",
            BackendKind::Cpu => "cpu",
            BackendKind::Cuda => "cuda",
        }
    }

    /// The backend of this kind (`gpu_arch`: the chip, for cuda), the
    /// compiled ones compiling with `flags`.
    pub(crate) fn backend(self, gpu_arch: &str, flags: &PassFlags) -> Box<dyn Backend> {
        self.backend_with(gpu_arch, flags, &ExecOptions::default())
    }

    /// [`BackendKind::backend`], the compiled ones running their
    /// executables as `exec` says.
    pub(crate) fn backend_with(self, gpu_arch: &str, flags: &PassFlags, exec: &ExecOptions) -> Box<dyn Backend> {
        let gpu = match self {
            BackendKind::Interp => return Box::new(InterpBackend),
            BackendKind::Cpu => None,
            BackendKind::Cuda => Some(gpu_arch.to_string()),
        };
        Box::new(crate::compiled::ExeBackend {
            gpu,
            flags: flags.clone(),
            exec: exec.clone(),
        })
    }

    /// Checks the compile flags for this backend and does what they ask
    /// before anything compiles (Note [Compile flags on every command]):
    /// `Err(code)` to exit with.
    pub(crate) fn prepare(self, gpu_arch: &str, flags: &PassFlags) -> Result<(), ExitCode> {
        if self == BackendKind::Interp {
            if let Some(flag) = flags.given() {
                eprintln!("error: {flag} applies to the compiled backends (--backend=cpu or cuda): the interpreter runs the checked program");
                return Err(ExitCode::from(2));
            }
            return Ok(());
        }
        // Plugins first: the pipeline may name their passes.
        if let Err(e) = flags.load_plugins() {
            eprintln!("{e}");
            return Err(ExitCode::from(2));
        }
        if flags.dump_pass_pipeline {
            let gpu = (self == BackendKind::Cuda).then_some(gpu_arch);
            eprintln!(
                "{}",
                crate::build::pipeline_text(flags, gpu, crate::build::Product::Exe { shared_runtime: false })
            );
            return Err(ExitCode::SUCCESS);
        }
        // The rule files are read again for each program (one book per
        // compile); a bad one is reported once, here.
        if let Err(report) = flags.rule_book() {
            eprintln!("{report}");
            return Err(ExitCode::from(2));
        }
        Ok(())
    }
}

/// A way to compile and run programs.
pub trait Backend {
    /// The name in `no_NAME` tags (`interp`, `cuda`).
    fn name(&self) -> &str;
    /// Compile the program at `path`; `Err`: the rendered compile error.
    fn compile(&self, path: &Path) -> Result<Box<dyn Compiled>, String>;
}

/// A compiled program.
pub trait Compiled {
    /// Run entry point `entry`; `Err`: the rendered run-time error.
    fn run(&self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String>;
    /// Run entry point `entry` `runs` times on `args`, timing each run
    /// (`futmlir bench`); the last run's results too when `results`.
    /// By default the time of [`Compiled::run`] in this process (copying
    /// the arguments is not timed).
    fn bench(&self, entry: &str, args: &[Value], runs: usize, results: bool) -> Result<Timed, String> {
        let mut timed = Timed::default();
        for run in 1..=runs {
            let args = args.to_vec();
            let start = std::time::Instant::now();
            let values = self.run(entry, args)?;
            timed.runtimes.push((start.elapsed().as_secs_f64() * 1e6).round());
            if results && run == runs {
                timed.results = Some(values);
            }
        }
        Ok(timed)
    }
}

/// The runs of one entry point on one dataset.
#[derive(Default)]
pub struct Timed {
    /// Each run's time in microseconds.
    pub runtimes: Vec<f64>,
    /// The last run's results, when asked for.
    pub results: Option<Vec<Value>>,
    /// What the program wrote on stderr.
    pub stderr: String,
}

/// The reference interpreter (not wired yet).
pub struct InterpBackend;

impl Backend for InterpBackend {
    fn name(&self) -> &str {
        "interp"
    }
    fn compile(&self, path: &Path) -> Result<Box<dyn Compiled>, String> {
        let (sm, checked) = crate::run::load_plain(path)?;
        Ok(Box::new(InterpProgram { sm, checked }))
    }
}

/// `-t` and `-I`: the program through the frontend only (type checking,
/// and with `internalise` internalisation to the soac IR), for a backend
/// named `name` (its `no_NAME` tags apply). What it gives runs in the
/// interpreter.
pub struct FrontendBackend {
    pub name: &'static str,
    pub internalise: bool,
}

impl Backend for FrontendBackend {
    fn name(&self) -> &str {
        self.name
    }
    fn compile(&self, path: &Path) -> Result<Box<dyn Compiled>, String> {
        let (sm, checked) = crate::run::load_plain(path)?;
        if self.internalise {
            let mut ctx = futmlir_dialects::context();
            futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx).map_err(|d| d.to_plain(&sm))?;
        }
        Ok(Box::new(InterpProgram { sm, checked }))
    }
}

/// A checked program, run by the reference interpreter.
struct InterpProgram {
    sm: futmlir_frontend::span::SourceMap,
    checked: futmlir_frontend::check::Checked,
}

impl Compiled for InterpProgram {
    fn run(&self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        let opts = futmlir_frontend::interp::RunOptions::default();
        futmlir_frontend::interp::run_entry(&self.checked, entry, args, &opts)
            .and_then(|r| r.values(entry))
            .map_err(|e| e.render(&self.sm))
    }
}

/// What the runner needs from the value library.
pub trait ValueLib {
    /// Values in the text format (`input { ... }`).
    fn parse_text(&self, text: &str) -> Result<Vec<Value>, String>;
    /// The values of a data file: any mix of text and binary values.
    fn read(&self, bytes: &[u8]) -> Result<Vec<Value>, String>;
    /// `Err`: the first difference, rendered
    /// (`value 0 at [3]: expected 4i32, got 5i32`).
    fn compare(&self, expected: &[Value], actual: &[Value]) -> Result<(), String>;
    /// The arguments of a `random input`, one per spec (`[100]f32`), drawn
    /// from a generator seeded with `seed`.
    fn generate(&self, specs: &[String], seed: u64) -> Result<Vec<Value>, String>;
}

/// [`ValueLib`] over `futmlir_frontend::values`.
pub struct FrontendValues;

impl ValueLib for FrontendValues {
    fn parse_text(&self, text: &str) -> Result<Vec<Value>, String> {
        values::parse_values(text).map_err(|e| e.to_string())
    }
    fn read(&self, bytes: &[u8]) -> Result<Vec<Value>, String> {
        values::read_values(bytes).map_err(|e| e.to_string())
    }
    fn compare(&self, expected: &[Value], actual: &[Value]) -> Result<(), String> {
        values::compare_values(expected, actual).map_err(|m| m.to_string())
    }
    fn generate(&self, specs: &[String], seed: u64) -> Result<Vec<Value>, String> {
        let mut rng = values::Rng::new(seed);
        let bounds = values::Bounds::default();
        specs
            .iter()
            .map(|s| values::generate(s, &mut rng, &bounds).map_err(|e| e.to_string()))
            .collect()
    }
}

#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl std::ops::AddAssign for Summary {
    fn add_assign(&mut self, o: Summary) {
        self.passed += o.passed;
        self.failed += o.failed;
        self.skipped += o.skipped;
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        )
    }
}

pub struct Runner<'a> {
    pub backend: &'a dyn Backend,
    /// Computes the expected results of `auto output` cases; `None`: the
    /// backend under test is the reference (its runs need only succeed).
    pub reference: Option<&'a dyn Backend>,
    pub values: &'a dyn ValueLib,
    pub verbose: bool,
    /// Run only the cases: no `structure` blocks, whose counts do not
    /// depend on the backend (`--each-pass` runs a program many times).
    pub cases_only: bool,
}

/// One program's results, written as they come.
struct Report<'w> {
    out: &'w mut dyn Write,
    path: String,
    verbose: bool,
    summary: Summary,
}

impl Report<'_> {
    fn line(&mut self, line: usize, entry: Option<&str>, text: &str) {
        let mut head = format!("{}:{line}: ", self.path);
        if let Some(e) = entry {
            head.push_str(&format!("entry {e}: "));
        }
        let mut lines = text.lines();
        let _ = writeln!(self.out, "{head}{}", lines.next().unwrap_or(""));
        for l in lines {
            let _ = writeln!(self.out, "  {l}");
        }
    }
    fn pass(&mut self, line: usize, entry: Option<&str>) {
        self.summary.passed += 1;
        if self.verbose {
            self.line(line, entry, "passed");
        }
    }
    fn fail(&mut self, line: usize, entry: Option<&str>, reason: &str) {
        self.summary.failed += 1;
        self.line(line, entry, reason);
    }
    fn skip(&mut self, line: usize, entry: Option<&str>, why: &str) {
        self.summary.skipped += 1;
        if self.verbose {
            self.line(line, entry, &format!("skipped ({why})"));
        }
    }
    fn outcome(&mut self, line: usize, entry: Option<&str>, r: Result<(), String>) {
        match r {
            Ok(()) => self.pass(line, entry),
            Err(reason) => self.fail(line, entry, &reason),
        }
    }
}

/// One step of a program's run.
enum Item<'a> {
    Skip(usize, Option<&'a str>, String),
    /// A block's `error:` (its line and regex).
    CompileError(usize, &'a str),
    /// A block's `warning:` (its line and regex): the compiler's warnings
    /// must match it (`^$`: there are none).
    Warning(usize, &'a str),
    Case(&'a TestCase, &'a str),
    /// The program must compile (`-C`, `-t`, `-I`; the line of the first
    /// case that would run).
    Compiles(usize),
    /// A `structure` block (its line): op counts after the soac pipeline.
    Structure(usize, &'a Structure),
    /// A property of a `property:` line (its line and name).
    Property(usize, &'a str),
}

/// Which parts of the test blocks `futmlir test` runs: its `--exclude`,
/// `--entry-point`, `-C`/`-t`/`-I` and `-s`.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Blocks and cases with one of these tags are skipped (besides
    /// `notest`, `disable` and `no_BACKEND`).
    pub exclude: Vec<String>,
    /// Only the cases of this entry point (the others are not counted).
    pub entry_point: Option<String>,
    pub only: Only,
    /// The seed of property tests' candidates.
    pub seed: u64,
}

/// The kinds of checks a run makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Only {
    /// Compile-time `error:` blocks, the cases, properties and `structure`
    /// blocks.
    #[default]
    Everything,
    /// Compile-time `error:` blocks, and that the program compiles if a
    /// case would run (one counted case per program).
    Compile,
    /// `structure` blocks.
    Structure,
}

/// Why `futmlir test` does not run a block, if it does not.
pub(crate) fn block_skip(block: &TestBlock, backend: &str) -> Option<String> {
    block_skip_tagged(block, backend, "notest")
}

/// Why a block is not run, if it is not: tag `disable`, `no_BACKEND` or
/// `excluded` (`notest` for `futmlir test`, `nobench` for `futmlir bench`,
/// as Futhark's tools do).
pub(crate) fn block_skip_tagged(block: &TestBlock, backend: &str, excluded: &str) -> Option<String> {
    let no_backend = format!("no_{backend}");
    block
        .tags
        .iter()
        .find(|t| *t == "disable" || *t == excluded || **t == no_backend)
        .map(|t| format!("tag {t}"))
}

/// Why a case is not run, if it is not.
pub(crate) fn case_skip(case: &TestCase, backend: &str) -> Option<&'static str> {
    if case.notest {
        Some("notest")
    } else if case.tags.iter().any(|t| t.strip_prefix("no_") == Some(backend)) {
        Some("tagged no_BACKEND")
    } else if case.compiled && backend == "interp" {
        Some("compiled input")
    } else {
        None
    }
}

/// The first of `tags` that `--exclude` names, as a reason to skip.
fn excluded(tags: &[String], sel: &Selection) -> Option<String> {
    tags.iter()
        .find(|t| sel.exclude.contains(t))
        .map(|t| format!("tag {t} excluded"))
}

impl Runner<'_> {
    /// Run the test blocks of one program; a program without blocks counts
    /// nothing and prints nothing.
    pub fn run_program(&self, path: &Path, out: &mut dyn Write) -> Summary {
        self.run_selected(path, out, &Selection::default())
    }

    /// [`Runner::run_program`], running what `sel` selects.
    pub fn run_selected(&self, path: &Path, out: &mut dyn Write, sel: &Selection) -> Summary {
        let mut rep = Report {
            out,
            path: path.display().to_string(),
            verbose: self.verbose,
            summary: Summary::default(),
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                rep.fail(1, None, &format!("cannot read the program: {e}"));
                return rep.summary;
            }
        };
        let blocks = match parse_test_spec(&text) {
            Ok(b) => b,
            Err(e) => {
                rep.fail(e.line, None, &format!("malformed test spec: {}", e.message));
                return rep.summary;
            }
        };
        let plan = self.plan(&blocks, sel);
        if plan.iter().all(|i| matches!(i, Item::Skip(..))) {
            for item in plan {
                if let Item::Skip(line, entry, why) = item {
                    rep.skip(line, entry, &why);
                }
            }
            return rep.summary;
        }
        // Compiled on first use: `structure` blocks do not need it.
        let program = OnceCell::new();
        // The warnings, checked for once for every `warning:` line.
        let warnings = OnceCell::new();
        let program = || program.get_or_init(|| self.backend.compile(path));
        let reference = OnceCell::new();
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut compile_error_shown = false;
        for item in plan {
            match item {
                Item::Skip(line, entry, why) => rep.skip(line, entry, &why),
                Item::CompileError(line, re) => rep.outcome(line, None, check_compile_error(re, program())),
                Item::Warning(line, re) => rep.outcome(
                    line,
                    None,
                    check_warnings(re, warnings.get_or_init(|| warnings_of(path))),
                ),
                Item::Structure(line, st) => match crate::structure::check(path, st) {
                    Ok(Some(why)) => rep.skip(line, None, &why),
                    r => rep.outcome(line, None, r.map(|_| ())),
                },
                Item::Property(line, name) => match program() {
                    Ok(p) => rep.outcome(line, Some(name), crate::property::check(path, &**p, name, sel.seed)),
                    Err(msg) => match crate::compiled::unsupported(msg) {
                        Some(why) => rep.skip(line, Some(name), why),
                        None => rep.fail(line, Some(name), &format!("compilation failed:\n{msg}")),
                    },
                },
                Item::Compiles(line) => match program() {
                    Ok(_) => rep.pass(line, None),
                    Err(msg) => match crate::compiled::unsupported(msg) {
                        Some(why) => rep.skip(line, None, why),
                        None => rep.fail(line, None, &format!("compilation failed:\n{msg}")),
                    },
                },
                Item::Case(case, entry) => {
                    let program = program();
                    if let Err(msg) = program {
                        if let Some(why) = crate::compiled::unsupported(msg) {
                            rep.skip(case.line, Some(entry), why);
                            continue;
                        }
                    }
                    let r = match program {
                        Ok(p) => self.run_case(dir, path, &**p, &reference, entry, case),
                        Err(msg) if !compile_error_shown => {
                            compile_error_shown = true;
                            Err(format!("compilation failed:\n{msg}"))
                        }
                        Err(_) => Err("compilation failed (see above)".to_string()),
                    };
                    rep.outcome(case.line, Some(entry), r);
                }
            }
        }
        rep.summary
    }

    /// What to do for a program's blocks, in source order.
    fn plan<'b>(&self, blocks: &'b [TestBlock], sel: &Selection) -> Vec<Item<'b>> {
        let backend = self.backend.name();
        let mut plan = Vec::new();
        let mut compiles = None;
        for block in blocks {
            let block_why = block_skip(block, backend).or_else(|| excluded(&block.tags, sel));
            if let Some(re) = block.compile_error.as_deref().filter(|_| sel.only != Only::Structure) {
                plan.push(match &block_why {
                    Some(why) => Item::Skip(block.line, None, why.clone()),
                    None => Item::CompileError(block.line, re),
                });
            }
            for re in block.warnings.iter().filter(|_| sel.only != Only::Structure) {
                plan.push(match &block_why {
                    Some(why) => Item::Skip(block.line, None, why.clone()),
                    None => Item::Warning(block.line, re),
                });
            }
            let structure = !self.cases_only && sel.only != Only::Compile;
            for st in block.structure.iter().filter(|_| structure) {
                plan.push(match &block_why {
                    Some(why) => Item::Skip(st.line, None, why.clone()),
                    None => Item::Structure(st.line, st),
                });
            }
            if sel.only == Only::Structure {
                continue;
            }
            let properties = block
                .properties
                .iter()
                .filter(|(name, _)| sel.entry_point.as_ref().is_none_or(|only| only == name));
            for (name, line) in properties {
                match (&block_why, sel.only) {
                    (None, Only::Compile) => {
                        compiles.get_or_insert(*line);
                    }
                    (Some(_), Only::Compile) => {}
                    (Some(why), _) => plan.push(Item::Skip(*line, Some(name), why.clone())),
                    (None, _) => plan.push(Item::Property(*line, name)),
                }
            }
            for case in &block.cases {
                let why = block_why
                    .clone()
                    .or_else(|| case_skip(case, backend).map(str::to_string))
                    .or_else(|| excluded(&case.tags, sel));
                let entries = block
                    .entries
                    .iter()
                    .filter(|e| sel.entry_point.as_ref().is_none_or(|only| only == *e));
                for entry in entries {
                    match (&why, sel.only) {
                        (None, Only::Compile) => {
                            compiles.get_or_insert(case.line);
                        }
                        // `-C` counts the program, not its cases.
                        (Some(_), Only::Compile) => {}
                        (Some(why), _) => plan.push(Item::Skip(case.line, Some(entry), why.clone())),
                        (None, _) => plan.push(Item::Case(case, entry)),
                    }
                }
            }
        }
        plan.extend(compiles.map(Item::Compiles));
        plan
    }

    /// The arguments of a case; a `script input` calls entry points of
    /// `program` (none: the caller cannot run the program, an error).
    pub(crate) fn inputs(
        &self,
        dir: &Path,
        case: &TestCase,
        program: Option<&dyn Compiled>,
    ) -> Result<Vec<Value>, String> {
        match &case.input {
            InputSpec::Inline(text) => self.values.parse_text(text).map_err(|e| format!("bad input: {e}")),
            InputSpec::File(f) => self.read_file(dir, f).map_err(|e| format!("bad input: {e}")),
            InputSpec::Random(specs) => self
                .values
                .generate(specs, case.line as u64)
                .map_err(|e| format!("bad random input: {e}")),
            InputSpec::Script(src) => {
                let Some(program) = program else {
                    return Err("script input needs the program run here (not in a bundle)".to_string());
                };
                let mut call = |f: &str, args: Vec<Value>| {
                    program
                        .run(f, args)
                        .map_err(|e| format!("script input: entry point `{f}`: {e}"))
                };
                let load = |f: &str| {
                    let path = dir.join(f);
                    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
                };
                futmlir_script::script_input(src, &mut call, load).map_err(|e| format!("bad script input: {e}"))
            }
        }
    }

    pub(crate) fn read_file(&self, dir: &Path, file: &Path) -> Result<Vec<Value>, String> {
        let full = dir.join(file);
        let bytes = std::fs::read(&full).map_err(|e| format!("cannot read {}: {e}", full.display()))?;
        self.values.read(&bytes).map_err(|e| format!("{}: {e}", full.display()))
    }

    /// The values of an `output { ... }` or `output @ file` (`None` for
    /// other expectations).
    pub(crate) fn expected_output(&self, dir: &Path, case: &TestCase) -> Result<Option<Vec<Value>>, String> {
        let values = match &case.expected {
            Expected::Output(OutputSpec::Inline(text)) => self.values.parse_text(text),
            Expected::Output(OutputSpec::File(f)) => self.read_file(dir, f),
            _ => return Ok(None),
        };
        values.map(Some).map_err(|e| format!("bad expected output: {e}"))
    }

    fn run_case(
        &self,
        dir: &Path,
        path: &Path,
        program: &dyn Compiled,
        reference: &OnceCell<Result<Box<dyn Compiled>, String>>,
        entry: &str,
        case: &TestCase,
    ) -> Result<(), String> {
        let args = self.inputs(dir, case, Some(program))?;
        let expected = self.expected_output(dir, case)?;
        let ref_args = match (&case.expected, self.reference) {
            (Expected::Auto, Some(_)) => Some(args.clone()),
            _ => None,
        };
        let result = program.run(entry, args);
        match &case.expected {
            Expected::Output(_) => {
                let actual = result.map_err(|e| format!("run-time error: {e}"))?;
                self.values.compare(&expected.unwrap_or_default(), &actual)
            }
            Expected::Error(re) => {
                let re = Regex::new(re).map_err(|e| format!("bad regular expression after `error:`: {e}"))?;
                match result {
                    Ok(_) => Err(format!(
                        "expected a run-time error matching `{re}`, but the run succeeded"
                    )),
                    Err(msg) if re.is_match(&msg) => Ok(()),
                    Err(msg) => Err(format!("run-time error does not match `{re}`:\n{msg}")),
                }
            }
            Expected::None => result.map(|_| ()).map_err(|e| format!("run-time error: {e}")),
            Expected::Auto => {
                let actual = result.map_err(|e| format!("run-time error: {e}"))?;
                let (Some(backend), Some(args)) = (self.reference, ref_args) else {
                    return Ok(());
                };
                let name = backend.name();
                let refprog = reference
                    .get_or_init(|| backend.compile(path))
                    .as_ref()
                    .map_err(|e| format!("reference backend {name} failed to compile the program:\n{e}"))?;
                let expected = refprog
                    .run(entry, args)
                    .map_err(|e| format!("reference backend {name}: run-time error: {e}"))?;
                self.values
                    .compare(&expected, &actual)
                    .map_err(|m| format!("differs from {name}: {m}"))
            }
        }
    }
}

fn check_compile_error(re: &str, program: &Result<Box<dyn Compiled>, String>) -> Result<(), String> {
    let re = Regex::new(re).map_err(|e| format!("bad regular expression after `error:`: {e}"))?;
    match program {
        Ok(_) => Err(format!(
            "expected a compile error matching `{re}`, but compilation succeeded"
        )),
        Err(msg) if re.is_match(msg) => Ok(()),
        Err(msg) => Err(format!("compile error does not match `{re}`:\n{msg}")),
    }
}

/// The warnings of the program at `path` (Note [Warnings] in the
/// frontend's `diag`), one plain line each; `Err`: its check's errors.
fn warnings_of(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the program: {e}"))?;
    let mut sm = futmlir_frontend::span::SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    match futmlir_frontend::check::check_file(&mut sm, file) {
        Ok(checked) => Ok(checked
            .warnings
            .iter()
            .map(|w| w.to_plain_warning(&sm))
            .collect::<Vec<_>>()
            .join("\n")),
        Err(ds) => Err(ds.iter().map(|d| d.to_plain(&sm)).collect::<Vec<_>>().join("\n")),
    }
}

/// Whether `warnings` ([`warnings_of`]) match the regex of a `warning:`
/// line, as `futhark test` checks them; an empty text matches `^$`.
fn check_warnings(re: &str, warnings: &Result<String, String>) -> Result<(), String> {
    let re = Regex::new(re).map_err(|e| format!("bad regular expression after `warning:`: {e}"))?;
    let warnings = warnings
        .as_ref()
        .map_err(|e| format!("expected warnings matching `{re}`, but the program does not type-check:\n{e}"))?;
    if re.is_match(warnings) {
        Ok(())
    } else if warnings.is_empty() {
        Err(format!("expected a warning matching `{re}`, but there are none"))
    } else {
        Err(format!("the warnings do not match `{re}`:\n{warnings}"))
    }
}

/// The programs named by `paths`: files as given, directories searched
/// recursively for `.fut` files (sorted).
pub fn collect_programs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut programs = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            programs.extend(fut_files(p).map_err(|e| format!("{}: {e}", p.display()))?);
        } else {
            programs.push(p.clone());
        }
    }
    Ok(programs)
}

/// A seed from the clock (for property tests without `--seed`).
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

impl TestArgs {
    /// The backend under test: `--backend`, `-c` (a compiled one) or `-i`.
    fn backend_kind(&self) -> Result<BackendKind, String> {
        match (self.backend, self.compiled, self.interpret) {
            (Some(BackendKind::Interp), true, _) => {
                Err("-c asks for a compiled backend, but --backend=interp".to_string())
            }
            (Some(k), _, true) if k != BackendKind::Interp => {
                Err(format!("-i asks for the interpreter, but --backend={}", k.name()))
            }
            (_, _, true) => Ok(BackendKind::Interp),
            (Some(k), _, _) => Ok(k),
            (None, true, _) => Ok(BackendKind::Cpu),
            (None, false, false) => Ok(BackendKind::Interp),
        }
    }

    /// `-C`, `-t`, `-I` or `-s`, if one is given.
    fn stage_flag(&self) -> Option<&'static str> {
        [
            (self.compile_only, "-C"),
            (self.typecheck_only, "-t"),
            (self.frontend_only, "-I"),
            (self.structure_only, "-s"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }

    /// The first option for the executables given, if any (the
    /// interpreter refuses them).
    fn exec_option_given(&self) -> Option<&'static str> {
        [
            (!self.exec.pass_option.is_empty(), "--pass-option"),
            (self.exec.runner.is_some(), "--runner"),
            (self.exec.cache_extension.is_some(), "--cache-extension"),
        ]
        .into_iter()
        .find_map(|(given, name)| given.then_some(name))
    }
}

/// `--pass-compiler-option`s, read as `futmlir build`'s pass flags.
#[derive(clap::Parser)]
#[command(name = "--pass-compiler-option", no_binary_name = true, disable_help_flag = true)]
struct CompilerOptions {
    #[command(flatten)]
    flags: PassFlags,
}

/// `flags` with the `--pass-compiler-option`s `options` added: a flag
/// given there wins over the same flag of the command line, and lists
/// (`--rules`, `--load-pass-plugin`) are joined. (Parsing the options
/// into `flags` with clap's `update_from` would reset every flag they do
/// not name.)
fn with_compiler_options(flags: &PassFlags, options: &[String]) -> Result<PassFlags, String> {
    use clap::Parser;
    let given = CompilerOptions::try_parse_from(options).map_err(|e| {
        let text = e.render().to_string();
        let first = text.lines().next().unwrap_or_default();
        format!("bad --pass-compiler-option: {}", first.trim_start_matches("error: "))
    })?;
    let PassFlags {
        pass_pipeline,
        dump_pass_pipeline,
        rules,
        rules_dir,
        load_pass_plugin,
        print_ir_after_all,
        print_ir_after_change,
        print_ir_tree_dir,
        verify_each,
        roundtrip_each,
        timing,
        print_op_generic,
    } = given.flags;
    let f = flags.clone();
    Ok(PassFlags {
        pass_pipeline: pass_pipeline.or(f.pass_pipeline),
        dump_pass_pipeline: dump_pass_pipeline || f.dump_pass_pipeline,
        rules: [f.rules, rules].concat(),
        rules_dir: rules_dir.or(f.rules_dir),
        load_pass_plugin: [f.load_pass_plugin, load_pass_plugin].concat(),
        print_ir_after_all: print_ir_after_all || f.print_ir_after_all,
        print_ir_after_change: print_ir_after_change || f.print_ir_after_change,
        print_ir_tree_dir: print_ir_tree_dir.or(f.print_ir_tree_dir),
        verify_each: verify_each.or(f.verify_each),
        roundtrip_each: roundtrip_each.or(f.roundtrip_each),
        timing: timing || f.timing,
        print_op_generic: print_op_generic || f.print_op_generic,
    })
}

pub fn main(a: TestArgs) -> ExitCode {
    let usage_error = |e: &str| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    let kind = match a.backend_kind() {
        Ok(k) => k,
        Err(e) => return usage_error(&e),
    };
    let flags = match with_compiler_options(&a.flags, &a.pass_compiler_option) {
        Ok(f) => f,
        Err(e) => return usage_error(&e),
    };
    let filter = match a.filter.as_deref().map(Regex::new).transpose() {
        Ok(f) => f,
        Err(e) => return usage_error(&format!("bad --filter: {e}")),
    };
    let programs: Vec<PathBuf> = match collect_programs(&a.paths) {
        Ok(p) => p
            .into_iter()
            .filter(|p| filter.as_ref().is_none_or(|f| f.is_match(&p.display().to_string())))
            .collect(),
        Err(e) => return usage_error(&e),
    };
    if let Some(stage) = a.stage_flag() {
        if a.each_pass || a.bundle.is_some() {
            return usage_error(&format!("{stage} cannot be combined with --each-pass or --bundle"));
        }
    }
    if kind == BackendKind::Interp {
        if let Some(option) = a.exec_option_given() {
            return usage_error(&format!(
                "{option} applies to the compiled backends' executables (-c, --backend=cpu or cuda)"
            ));
        }
    }
    if let Err(code) = kind.prepare(&a.gpu_arch, &flags) {
        return code;
    }
    if a.each_pass {
        return each_pass(&a, kind, &flags, &programs);
    }
    if let Some(dir) = &a.bundle {
        let gpu = match kind {
            BackendKind::Cuda => Some(a.gpu_arch.as_str()),
            BackendKind::Cpu => None,
            BackendKind::Interp => {
                return usage_error("--bundle needs a compiled backend (--backend=cuda, or cpu)");
            }
        };
        return write_bundle(&programs, dir, gpu, &flags);
    }
    let selection = Selection {
        exclude: a.exclude.clone(),
        entry_point: a.entry_point.clone(),
        seed: a.seed.unwrap_or_else(clock_seed),
        only: if a.structure_only {
            Only::Structure
        } else if a.stage_flag().is_some() {
            Only::Compile
        } else {
            Only::Everything
        },
    };
    let exec = a.exec.exec_options();
    let make_backend = || -> Box<dyn Backend> {
        if a.typecheck_only || a.frontend_only {
            Box::new(FrontendBackend {
                name: kind.name(),
                internalise: a.frontend_only,
            })
        } else {
            kind.backend_with(&a.gpu_arch, &flags, &exec)
        }
    };
    let make_worker = || {
        let backend = make_backend();
        let selection = &selection;
        move |path: &Path| {
            let runner = Runner {
                backend: &*backend,
                reference: (kind != BackendKind::Interp).then_some(&InterpBackend as &dyn Backend),
                values: &FrontendValues,
                verbose: a.verbose,
                cases_only: false,
            };
            let mut report = Vec::new();
            let summary = runner.run_selected(path, &mut report, selection);
            (summary, report)
        }
    };
    let concurrency = a
        .concurrency
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, std::num::NonZeroUsize::get);
    use std::io::IsTerminal;
    let live = !a.no_terminal && std::io::stderr().is_terminal();
    let interval = std::time::Duration::from_secs(a.status_interval);
    let mut status = crate::test_pool::Status::new(programs.len(), live, interval);
    let mut out = std::io::stdout();
    let total = match crate::test_pool::run_concurrently(&programs, concurrency, &make_worker, &mut status, &mut out) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let _ = writeln!(out, "{total}");
    if total.failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes the bundle of `programs` to `dir` (`--bundle`).
fn write_bundle(programs: &[PathBuf], dir: &Path, gpu: Option<&str>, flags: &PassFlags) -> ExitCode {
    match crate::bundle::bundle(programs, dir, gpu, flags) {
        Ok((n, skipped, failed)) => {
            println!(
                "{n} cases written to {}, {skipped} skipped, {failed} failed to compile",
                dir.display()
            );
            if failed > 0 {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `--each-pass` (Note [Checking each pass]): every program's cases at
/// every position of the pipeline, a program's failures printed under
/// the position they come from, and a table of the positions' totals.
fn each_pass(a: &TestArgs, kind: BackendKind, flags: &PassFlags, programs: &[PathBuf]) -> ExitCode {
    let gpu = match kind {
        BackendKind::Cuda => Some(a.gpu_arch.as_str()),
        BackendKind::Cpu => None,
        BackendKind::Interp => {
            eprintln!("error: --each-pass needs a compiled backend (--backend=cpu, or cuda with --bundle)");
            return ExitCode::from(2);
        }
    };
    let positions = match crate::each_pass::positions(flags, gpu, a.bundle.is_some()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let flags_at = |p: &crate::each_pass::Position| PassFlags {
        pass_pipeline: Some(p.pipeline.clone()),
        ..flags.clone()
    };
    if let Some(dir) = &a.bundle {
        let mut code = ExitCode::SUCCESS;
        for p in &positions {
            println!("{}:", p.label());
            if write_bundle(programs, &dir.join(p.folder()), gpu, &flags_at(p)) != ExitCode::SUCCESS {
                code = ExitCode::FAILURE;
            }
        }
        println!(
            "run `for d in {}/k*/; do futmlir-check $d; done` on the GPU machine",
            dir.display()
        );
        return code;
    }
    if gpu.is_some() {
        eprintln!("error: --each-pass with --backend=cuda needs --bundle DIR (a bundle per pass, for a GPU machine)");
        return ExitCode::from(2);
    }
    let interp = InterpBackend;
    let backends: Vec<Box<dyn Backend>> = positions
        .iter()
        .map(|p| kind.backend_with(&a.gpu_arch, &flags_at(p), &a.exec.exec_options()))
        .collect();
    let mut totals = vec![Summary::default(); positions.len()];
    let mut out = std::io::stdout().lock();
    for path in programs {
        for ((p, backend), total) in positions.iter().zip(&backends).zip(&mut totals) {
            let runner = Runner {
                backend: &**backend,
                reference: Some(&interp),
                values: &FrontendValues,
                verbose: a.verbose,
                cases_only: true,
            };
            let mut lines = Vec::new();
            let s = runner.run_program(path, &mut lines);
            if !lines.is_empty() {
                let _ = writeln!(out, "after {}:", p.label());
                let _ = out.write_all(&lines);
            }
            *total += s;
        }
    }
    let _ = writeln!(
        out,
        "\n{:<40} {:>8} {:>8} {:>8}",
        "position", "passed", "failed", "skipped"
    );
    for (p, t) in positions.iter().zip(&totals) {
        let _ = writeln!(
            out,
            "{:<40} {:>8} {:>8} {:>8}",
            p.label(),
            t.passed,
            t.failed,
            t.skipped
        );
    }
    if totals.iter().any(|t| t.failed > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use futmlir_frontend::values::{Array, ArrayData, PrimValue};

    use super::*;

    /// Programs of a toy language: the source's `compile error: MSG` line
    /// fails compilation; entries: `main` returns its arguments, `inc`
    /// adds 1 to i32 scalars, `shapes` returns the outer size of each array
    /// argument, `fail` fails, `add` (the reference's `main`) returns its
    /// arguments plus `offset`.
    struct Fake {
        name: &'static str,
        /// Added to i32 results of `main` (a reference that disagrees).
        offset: i32,
        compiles: Cell<usize>,
    }

    fn fake(name: &'static str) -> Fake {
        Fake {
            name,
            offset: 0,
            compiles: Cell::new(0),
        }
    }

    struct FakeProgram {
        offset: i32,
    }

    impl Backend for Fake {
        fn name(&self) -> &str {
            self.name
        }
        fn compile(&self, path: &Path) -> Result<Box<dyn Compiled>, String> {
            self.compiles.set(self.compiles.get() + 1);
            let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
            if let Some(l) = src.lines().find_map(|l| l.strip_prefix("compile error: ")) {
                return Err(format!("Error at {}:\n{l}", path.display()));
            }
            Ok(Box::new(FakeProgram { offset: self.offset }))
        }
    }

    fn add_i32(v: Value, k: i32) -> Value {
        match v {
            Value::Prim(PrimValue::I32(x)) => Value::Prim(PrimValue::I32(x + k)),
            Value::Array(Array {
                shape,
                data: ArrayData::I32(xs),
            }) => Value::Array(Array {
                shape,
                data: ArrayData::I32(xs.into_iter().map(|x| x + k).collect()),
            }),
            v => v,
        }
    }

    impl Compiled for FakeProgram {
        fn run(&self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
            match entry {
                "main" => Ok(args.into_iter().map(|v| add_i32(v, self.offset)).collect()),
                "inc" => Ok(args.into_iter().map(|v| add_i32(v, 1)).collect()),
                "shapes" => Ok(args
                    .iter()
                    .map(|v| match v {
                        Value::Array(a) => Value::Prim(PrimValue::I64(a.shape[0] as i64)),
                        Value::Prim(_) => Value::Prim(PrimValue::I64(0)),
                    })
                    .collect()),
                "fail" => Err("Error: index 7 out of bounds for array of shape [3].\nBacktrace: ...".to_string()),
                _ => Err(format!("no entry point `{entry}`")),
            }
        }
    }

    /// A fresh directory for one test.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let d = std::env::temp_dir().join(format!("futmlir-testrun-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&d);
            std::fs::create_dir_all(&d).unwrap();
            TempDir(d)
        }
        fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
            let p = self.0.join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, contents).unwrap();
            p
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn run_with(backend: &Fake, reference: Option<&Fake>, verbose: bool, path: &Path) -> (Summary, String) {
        let runner = Runner {
            backend,
            reference: reference.map(|r| r as &dyn Backend),
            values: &FrontendValues,
            verbose,
            cases_only: false,
        };
        let mut out = Vec::new();
        let s = runner.run_program(path, &mut out);
        (s, String::from_utf8(out).unwrap())
    }

    /// Runs `src` as `prog.fut` on the fake backend named `interp`.
    fn run_src(name: &str, src: &str) -> (Summary, String) {
        let dir = TempDir::new(name);
        let p = dir.write("prog.fut", src);
        let (s, out) = run_with(&fake("interp"), None, false, &p);
        (s, out.replace(&dir.0.display().to_string(), "DIR"))
    }

    fn sum(passed: usize, failed: usize, skipped: usize) -> Summary {
        Summary {
            passed,
            failed,
            skipped,
        }
    }

    #[test]
    fn passing_cases_print_nothing() {
        let (s, out) = run_src(
            "pass",
            "-- ==\n-- input { 1i32 [1i32, 2i32] } output { 1i32 [1i32, 2i32] }\n-- input { 3 } output { 3 }\nlet main x = x\n",
        );
        assert_eq!(s, sum(2, 0, 0));
        assert_eq!(out, "");
        assert_eq!(s.to_string(), "2 passed, 0 failed, 0 skipped");
    }

    #[test]
    fn verbose_prints_passing_and_skipped_cases() {
        let dir = TempDir::new("verbose");
        let p = dir.write(
            "prog.fut",
            "-- ==\n-- input { 1 } output { 1 }\n-- notest input { 2 }\n",
        );
        let (s, out) = run_with(&fake("interp"), None, true, &p);
        assert_eq!(s, sum(1, 0, 1));
        let d = p.display();
        assert_eq!(
            out,
            format!("{d}:2: entry main: passed\n{d}:3: entry main: skipped (notest)\n")
        );
    }

    #[test]
    fn failing_output_names_the_first_difference() {
        let (s, out) = run_src(
            "mismatch",
            "-- ==\n-- input { 1i32 }\n-- output { 1i32 }\n-- input { [1i32, 2i32, 3i32, 5i32] }\n-- output { [1i32, 2i32, 3i32, 4i32] }\n",
        );
        assert_eq!(s, sum(1, 1, 0));
        assert_eq!(
            out,
            "DIR/prog.fut:4: entry main: value 0 at [3]: expected 4i32, got 5i32\n"
        );
    }

    #[test]
    fn expected_runtime_errors() {
        let (s, out) = run_src(
            "rterr",
            concat!(
                "-- ==\n-- entry: fail\n",
                "-- input { 1 } error: index \\d+ out of bounds\n",
                "-- input { 2 } error: division by zero\n",
                "-- input { 3 } output { 3 }\n",
                "-- input { 4 } error: [\n",
                "-- ==\n-- input { 5 } error: anything\n",
            ),
        );
        assert_eq!(s, sum(1, 4, 0));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "DIR/prog.fut:4: entry fail: run-time error does not match `division by zero`:"
        );
        assert_eq!(lines[1], "  Error: index 7 out of bounds for array of shape [3].");
        assert_eq!(lines[2], "  Backtrace: ...");
        assert_eq!(
            lines[3],
            "DIR/prog.fut:5: entry fail: run-time error: Error: index 7 out of bounds for array of shape [3]."
        );
        assert!(
            lines[5].starts_with("DIR/prog.fut:6: entry fail: bad regular expression"),
            "{out}"
        );
        assert_eq!(
            lines.last().unwrap(),
            &"DIR/prog.fut:8: entry main: expected a run-time error matching `anything`, but the run succeeded"
        );
    }

    #[test]
    fn expected_compile_errors() {
        let (s, out) = run_src(
            "cerr",
            "-- ==\n-- error: Cannot unify\ncompile error: Cannot unify i32 with bool\n",
        );
        assert_eq!((s, out.as_str()), (sum(1, 0, 0), ""));
        let (s, out) = run_src(
            "cerr2",
            "-- ==\n-- error: Cannot unify\ncompile error: Unknown name x\n",
        );
        assert_eq!(s, sum(0, 1, 0));
        assert_eq!(
            out,
            "DIR/prog.fut:1: compile error does not match `Cannot unify`:\n  Error at DIR/prog.fut:\n  Unknown name x\n"
        );
        let (s, out) = run_src("cerr3", "-- ==\n-- error: Cannot unify\nlet main = 1\n");
        assert_eq!(s, sum(0, 1, 0));
        assert_eq!(
            out,
            "DIR/prog.fut:1: expected a compile error matching `Cannot unify`, but compilation succeeded\n"
        );
    }

    #[test]
    fn unexpected_compile_error_fails_every_case_once() {
        let (s, out) = run_src(
            "cfail",
            "-- ==\n-- entry: main inc\n-- input { 1 } output { 1 }\n-- input { 2 }\ncompile error: oops\n",
        );
        assert_eq!(s, sum(0, 4, 0));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            vec![
                "DIR/prog.fut:3: entry main: compilation failed:",
                "  Error at DIR/prog.fut:",
                "  oops",
                "DIR/prog.fut:3: entry inc: compilation failed (see above)",
                "DIR/prog.fut:4: entry main: compilation failed (see above)",
                "DIR/prog.fut:4: entry inc: compilation failed (see above)",
            ]
        );
    }

    #[test]
    fn every_entry_runs_every_case() {
        let (s, out) = run_src("entries", "-- ==\n-- entry: main inc\n-- input { 1 } output { 2 }\n");
        assert_eq!(s, sum(1, 1, 0));
        assert_eq!(out, "DIR/prog.fut:3: entry main: value 0: expected 2i32, got 1i32\n");
        let (s, out) = run_src("noentry", "-- ==\n-- entry: nope\n-- input { 1 }\n");
        assert_eq!(s, sum(0, 1, 0));
        assert_eq!(
            out,
            "DIR/prog.fut:3: entry nope: run-time error: no entry point `nope`\n"
        );
    }

    /// Futhark's binary format: `b`, version 2, rank, type, dims, data.
    fn binary_i32(shape: &[u64], data: &[i32]) -> Vec<u8> {
        let mut b = vec![b'b', 2, shape.len() as u8];
        b.extend_from_slice(b" i32");
        for d in shape {
            b.extend_from_slice(&d.to_le_bytes());
        }
        for x in data {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    #[test]
    fn file_inputs_and_outputs_relative_to_the_program() {
        let dir = TempDir::new("files");
        dir.write("sub/data/a.in", "1i32 [4i32, 5i32]\n");
        let mut mixed = b"7i32\n".to_vec();
        mixed.extend(binary_i32(&[2, 2], &[1, 2, 3, 4]));
        dir.write("sub/data/b.in", mixed);
        dir.write("sub/data/b.out", binary_i32(&[], &[8]));
        let p = dir.write(
            "sub/prog.fut",
            concat!(
                "-- ==\n",
                "-- input @ data/a.in output { 1i32 [4i32, 5i32] }\n",
                "-- input @ data/b.in output { 7i32 [[1i32, 2i32], [3i32, 4i32]] }\n",
                "-- ==\n-- entry: inc\n",
                "-- input { 7i32 } output @ data/b.out\n",
                "-- input @ data/missing.in output { 1 }\n",
            ),
        );
        let (s, out) = run_with(&fake("interp"), None, false, &p);
        assert_eq!(s, sum(3, 1, 0), "{out}");
        let missing = dir.0.join("sub/data/missing.in");
        assert!(
            out.starts_with(&format!(
                "{}:7: entry inc: bad input: cannot read {}: ",
                p.display(),
                missing.display()
            )),
            "{out}"
        );
    }

    #[test]
    fn tags_and_modifiers_skip() {
        let src = concat!(
            "-- ==\n-- tags { disable }\n-- input { 1 } output { 2 }\n-- input { 1 }\n",
            "-- ==\n-- tags { no_interp }\n-- entry: main inc\n-- input { 1 } output { 2 }\n",
            "-- ==\n-- tags { no_foo }\n-- compiled input { 1 } output { 2 }\n-- notest input { 1 }\n",
            "-- input { 1 } output { 1 }\n",
            "-- ==\n-- tags { disable }\n-- error: x\n",
            "-- ==\n-- tags { no_cuda }\n-- input { 1 } output { 1 }\n",
        );
        let (s, out) = run_src("tags", src);
        assert_eq!(s, sum(2, 0, 7));
        assert_eq!(out, "");
        // Another backend: `compiled` cases and `no_interp` blocks run,
        // `no_cuda` blocks are skipped.
        let dir = TempDir::new("tags2");
        let p = dir.write("prog.fut", src);
        let (s, out) = run_with(&fake("cuda"), None, false, &p);
        assert_eq!(s, sum(2, 2, 5), "{out}");
        let d = p.display();
        assert_eq!(
            out,
            format!("{d}:8: entry main: value 0: expected 2i32, got 1i32\n{d}:11: entry main: value 0: expected 2i32, got 1i32\n")
        );
    }

    #[test]
    fn notest_blocks_and_cases_are_for_bench_only() {
        let (s, out) = run_src(
            "notest",
            "-- ==\n-- input { 1 } output { 1 }\n-- notest input { 2 } output { 3 }\n-- ==\n-- tags { notest }\n-- input { 1 } output { 2 }\n-- ==\n-- tags { nobench }\n-- input { 4 } output { 4 }\n",
        );
        assert_eq!((s, out.as_str()), (sum(2, 0, 2), ""));
    }

    #[test]
    fn nothing_to_run_means_no_compilation() {
        let dir = TempDir::new("lazy");
        let p = dir.write(
            "prog.fut",
            "-- ==\n-- tags { disable }\n-- input { 1 }\ncompile error: x\n",
        );
        let b = fake("interp");
        let (s, out) = run_with(&b, None, false, &p);
        assert_eq!((s, out.as_str(), b.compiles.get()), (sum(0, 0, 1), "", 0));
    }

    #[test]
    fn random_input_with_auto_output() {
        let src = concat!(
            "-- ==\n-- random input { [100]f32 [10][2]i32 i64 } auto output\n",
            "-- ==\n-- entry: shapes\n-- random input { [100]f32 [10][2]i32 } output { 100i64 10i64 }\n",
        );
        // The interpreter is its own reference: the run only has to succeed.
        let (s, out) = run_src("random", src);
        assert_eq!((s, out.as_str()), (sum(2, 0, 0), ""));
        // Another backend is compared with the reference, compiled once.
        let dir = TempDir::new("random2");
        let p = dir.write("prog.fut", format!("{src}-- random input {{ [3]i32 }} auto output\n"));
        let reference = fake("interp");
        let (s, out) = run_with(&fake("cuda"), Some(&reference), false, &p);
        assert_eq!((s, out.as_str(), reference.compiles.get()), (sum(3, 0, 0), "", 1));
        let wrong = Fake {
            offset: 1,
            ..fake("interp")
        };
        let (s, out) = run_with(&fake("cuda"), Some(&wrong), false, &p);
        assert_eq!(s, sum(2, 1, 0));
        assert!(
            out.starts_with(&format!(
                "{}:2: entry main: differs from interp: value 1: 20 of 20 elements differ\n    at [0][0]: expected ",
                p.display()
            )),
            "{out}"
        );
        let bad = dir.write("bad.fut", "-- ==\n-- random input { [3]q32 }\n");
        let (s, out) = run_with(&fake("interp"), None, false, &bad);
        assert_eq!(s, sum(0, 1, 0));
        assert!(out.contains(":2: entry main: bad random input: "), "{out}");
    }

    #[test]
    fn malformed_spec_and_no_spec() {
        let (s, out) = run_src("malformed", "let x = 1\n-- ==\n-- input { 1\n");
        assert_eq!(s, sum(0, 1, 0));
        assert_eq!(out, "DIR/prog.fut:3: malformed test spec: unclosed `{` after `input`\n");
        let (s, out) = run_src("nospec", "-- no tests here\nlet main = 1\n");
        assert_eq!((s, out.as_str()), (sum(0, 0, 0), ""));
    }

    #[test]
    fn bad_inline_values_fail_the_case() {
        let (s, out) = run_src(
            "badvals",
            "-- ==\n-- input { [1i32, } output { 1 }\n-- input { 1 } output { 1q }\n",
        );
        assert_eq!(s, sum(0, 2, 0));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("DIR/prog.fut:2: entry main: bad input: "), "{out}");
        assert!(
            lines[1].starts_with("DIR/prog.fut:3: entry main: bad expected output: "),
            "{out}"
        );
    }

    #[test]
    fn programs_are_collected_recursively_and_sorted() {
        let dir = TempDir::new("collect");
        for f in ["b.fut", "a/z.fut", "a/c.fut", "notes.txt", "a/deeper/x.fut"] {
            dir.write(f, "");
        }
        let single = dir.0.join("notes.txt");
        let got = collect_programs(&[dir.0.clone(), single.clone()]).unwrap();
        let want: Vec<PathBuf> = ["a/c.fut", "a/deeper/x.fut", "a/z.fut", "b.fut"]
            .iter()
            .map(|f| dir.0.join(f))
            .chain([single])
            .collect();
        assert_eq!(got, want);
        let e = collect_programs(&[dir.0.join("nope")]).unwrap_err();
        assert!(e.contains("nope"), "{e}");
    }

    #[test]
    fn summaries_add_up() {
        let mut t = sum(1, 2, 3);
        t += sum(10, 20, 30);
        assert_eq!(t.to_string(), "11 passed, 22 failed, 33 skipped");
    }
}
