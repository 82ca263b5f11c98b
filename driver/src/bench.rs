//! `futmlir bench`: time entry points on the datasets of their `-- ==`
//! blocks, following `futhark bench`'s manual page
//! (`futhark-docs/man/futhark-bench.rst`).
//!
//! Each program with something to time is compiled once by the backend
//! (`--skip-compilation`: the executable `futmlir build` left beside it is
//! used as it is); a program that does not compile aborts the whole run,
//! as `futhark bench` does. Each dataset then runs by the methodology of
//! Note [Benchmark methodology]. Executables time themselves (the
//! runtime's `-r N -t FILE`: the entry point's call and the wait for the
//! device, not reading the input) and report their peak memory
//! (`--memory-report`); the interpreter is timed in this process around
//! its evaluation, which only says how fast the reference interpreter is.
//! A case with an `output` also checks the results of a run.
//!
//! Left out, as `futhark bench` does: blocks with `error:`; cases with a
//! tag of `--exclude-case` (always `nobench`, `disable` and
//! `no_BACKEND`; a block's tags are its cases' too), cases that expect a
//! run-time error, and `compiled` inputs on the interpreter. Cases marked
//! `notest` run here (big datasets that `futmlir test` leaves out).
//!
//! Output: per entry point a header, `prog.fut:ENTRY (no tuning file):`
//! (`prog.fut` alone for `main`), then per dataset its name (see
//! [`dataset_name`]) and `MEANμs (95% CI: [LOW, HIGH])`; a progress bar on
//! stderr while a dataset runs, when stderr is a terminal. A dataset that
//! fails (a run-time error, a wrong result, `--timeout`) prints its error
//! on stderr and the others still run; the exit status is then 1.
//! `--json FILE` writes Futhark's document (Note [Futhark's bench JSON]).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use regex::Regex;

use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, TestBlock, TestCase};
use futmlir_frontend::values::{self, Value};

use crate::compiled::{ExeBackend, Executable};
use crate::passflags::PassFlags;
use crate::test::{
    collect_programs, Backend, BackendKind, Compiled, FrontendValues, InterpBackend, Runner, Timed, ValueLib,
};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Programs (`.fut` files) and directories (searched recursively for
    /// `.fut` files).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The backend to time.
    #[arg(long, value_enum, default_value = "cpu")]
    backend: BackendKind,
    /// Runs of the initial phase (at least; it also runs for at least
    /// half a second).
    #[arg(short = 'r', long = "runs", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Only this entry point (default: the entry points of each block).
    #[arg(short = 'e', long = "entry-point", value_name = "NAME")]
    entry_point: Option<String>,
    /// After each dataset's measured runs, one more run with profiling
    /// (the executable's `-P`, through its server), whose report goes in
    /// the `--json` file as the dataset's `profile` (Note [Profiling
    /// benchmarks]).
    #[arg(long, requires = "json")]
    profile: bool,
    /// Also write the results to FILE as JSON (`futhark bench --json`'s
    /// document).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Do not run the cases with this tag (repeatable); cases tagged
    /// `nobench`, `disable` or `no_BACKEND` never run.
    #[arg(long = "exclude-case", value_name = "TAG")]
    exclude_case: Vec<String>,
    #[command(flatten)]
    exec: crate::compiled::ExecFlags,
    /// Stop a dataset whose runs take longer than this many seconds in
    /// all (negative: no limit); it counts as failed.
    #[arg(long, value_name = "SECONDS", default_value_t = -1, allow_negative_numbers = true)]
    timeout: i64,
    /// Do not compile: run the executable beside each program (`prog`
    /// for `prog.fut`, as `futmlir build` names it).
    #[arg(long)]
    skip_compilation: bool,
    /// Only the initial phase: exactly the runs `-r` asks for when they
    /// take half a second or more.
    #[arg(long)]
    no_convergence_phase: bool,
    /// The longest the convergence phase runs for a dataset.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    convergence_max_seconds: f64,
    /// Leave out the programs whose path this regular expression matches
    /// (repeatable).
    #[arg(long, value_name = "REGEX")]
    ignore_files: Vec<String>,
    /// Read the test blocks from FILE (the `-- ==` syntax without the
    /// `--` comment prefixes) instead of from the programs.
    #[arg(long, value_name = "FILE")]
    spec_file: Option<PathBuf>,
    /// Pass this option to the compiler (one of `futmlir build`'s pass
    /// flags below; repeatable).
    #[arg(long = "pass-compiler-option", value_name = "OPT", allow_hyphen_values = true)]
    pass_compiler_option: Vec<String>,
    /// Say what runs (`-vv`: also each batch of runs).
    #[arg(short = 'v', long = "verbose", action = clap::ArgAction::Count)]
    verbose: u8,
    /// How many programs' datasets are read or generated at once while
    /// the programs compile (default: the number of cores).
    #[arg(long, value_name = "NUM", value_parser = clap::value_parser!(u32).range(1..))]
    concurrency: Option<u32>,
    /// The GPU to build for (`--backend=cuda`).
    #[arg(long = "gpu-arch", default_value = futmlir_passes::pipelines::DEFAULT_CHIP)]
    gpu_arch: String,
    /// How the compiled backends compile (`futmlir build`'s flags).
    #[command(flatten)]
    flags: PassFlags,
}

/// `--pass-compiler-option`s, read as `futmlir build`'s pass flags.
#[derive(Parser)]
#[command(no_binary_name = true)]
struct CompilerOptions {
    #[command(flatten)]
    flags: PassFlags,
}

/// The mean, the relative standard deviation (sample) and the minimum and
/// maximum relative to the mean, of runtimes.
pub(crate) fn statistics(runtimes: &[f64]) -> (f64, f64, f64, f64) {
    let n = runtimes.len().max(1) as f64;
    let mean = runtimes.iter().sum::<f64>() / n;
    let var = runtimes.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let rel = |t: f64| if mean > 0.0 { t / mean } else { 0.0 };
    let min = runtimes.iter().copied().fold(f64::INFINITY, f64::min);
    let max = runtimes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, rel(var.sqrt()), rel(min - mean), rel(max - mean))
}

/// The two-sided 97.5% quantile of Student's t distribution with `df`
/// degrees of freedom (the normal distribution's from 31 on).
fn t_quantile(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.960)
}

/// The mean of `runtimes` and the 95% confidence interval of the mean
/// (Student's t, cut at 0; one run: the interval is the run).
pub(crate) fn confidence_interval(runtimes: &[f64]) -> (f64, f64, f64) {
    let (mean, rsd, ..) = statistics(runtimes);
    if runtimes.len() < 2 {
        return (mean, mean, mean);
    }
    let half = t_quantile(runtimes.len() - 1) * rsd * mean / (runtimes.len() as f64).sqrt();
    // Runtimes are not negative, nor is their mean (and `-0.0` would
    // print as such).
    let lo = mean - half;
    (mean, if lo <= 0.0 { 0.0 } else { lo }, mean + half)
}

// Note [Benchmark methodology]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `futhark bench`'s manual: one warm-up run that is discarded; an initial
// phase of `-r` runs, or runs for at least half a second, whichever takes
// longer; if those are not yet good enough, a convergence phase that runs
// more until they are, or until `--convergence-max-seconds`.
//
// Runs happen in batches: an executable runs `-r K+1` times in one
// process and the first run of each process is discarded (a fresh process
// has cold caches, page faults on its first allocations, and on a GPU its
// first launches load the module), so the warm-up run is each batch's
// first. The first batch is the warm-up plus `-r` runs; more batches
// follow until half a second has passed since the first started, each
// sized by the wall-clock time a run has cost so far to fill what is
// missing (at most eight times the runs so far, so one slow start does
// not plan a huge batch).
//
// "Good enough" is a 95% confidence interval of the mean (Student's t)
// whose half-width is at most 1% of the mean ([`CONVERGED`]), or at most
// a microsecond: runtimes are whole microseconds, and a dataset that runs
// in a few of them could not get a tighter interval however long it ran. Futhark
// decides with a bootstrap and autocorrelation; the t interval is the
// textbook one and needs no resampling. The convergence phase sizes each
// batch by the runs the interval needs at the spread seen so far (at most
// doubling the runs, so a noisy start does not commit to a huge batch) and
// by the time left at the wall-clock cost of a run so far (process starts
// and warm-up runs included), and stops when the interval is good enough or no run
// fits before the limit; the result is then what was measured, converged
// or not. `--no-convergence-phase` stops after the initial phase.
//
// `--timeout` is for all runs of a dataset together: every batch gets the
// time left until the deadline and is killed when it passes; the dataset
// then fails with "timed out" and the next one starts. The convergence
// phase plans to end by nine tenths of the timeout, so that a batch
// slower than planned does not turn a measured dataset into a timeout.
// The interpreter cannot be stopped mid-run: its deadline is checked
// after each batch.

/// The half-width of the 95% confidence interval, relative to the mean,
/// at which the convergence phase stops (Note [Benchmark methodology]).
const CONVERGED: f64 = 0.01;

/// The wall-clock time, in seconds, that the initial phase runs for at
/// least.
const INITIAL_PHASE_SECONDS: f64 = 0.5;

/// The most runs of one batch (a run's time takes a line of the timing
/// file and a number here).
const MAX_BATCH: usize = 100_000;

/// Whether `runtimes` are good enough (Note [Benchmark methodology]).
fn converged(runtimes: &[f64]) -> bool {
    let (mean, lo, _) = confidence_interval(runtimes);
    runtimes.len() >= 2 && (mean - lo <= CONVERGED * mean || mean - lo <= 1.0)
}

/// How many runs in all the interval needs at the spread of `runtimes`.
fn runs_needed(runtimes: &[f64]) -> usize {
    let (_, rsd, ..) = statistics(runtimes);
    ((1.96 * rsd / CONVERGED).powi(2).ceil() as usize).max(2)
}

/// `s`, at most `n` characters: longer ones end in `...` (dataset names in
/// the report, as Futhark shortens them).
fn at_most_chars(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        s.chars().take(n - 3).chain("...".chars()).collect()
    } else {
        s.to_string()
    }
}

/// A progress bar `width` cells wide, `fraction` (0 to 1) full, in
/// eighths of a cell.
fn progress_bar(fraction: f64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (fraction.clamp(0.0, 1.0) * (width * 8) as f64).round() as usize;
    let mut bar: String = "█".repeat(eighths / 8);
    if eighths / 8 < width {
        bar.push(PARTS[eighths % 8]);
        bar.push_str(&" ".repeat(width - eighths / 8 - 1));
    }
    format!("|{bar}|")
}

/// The line of a measured dataset: its name padded to `pad`, the mean
/// and the 95% confidence interval, as `futhark bench` prints them.
fn report_line(name: &str, pad: usize, runtimes: &[f64]) -> String {
    let (mean, lo, hi) = confidence_interval(runtimes);
    format!(
        "{}{mean:10.0}μs (95% CI: [{lo:10.1}, {hi:10.1}])",
        padded_name(name, pad)
    )
}

/// `NAME: ` and spaces up to `pad` characters of name (the name cut at
/// 40), as `futhark bench` lines up its datasets.
fn padded_name(name: &str, pad: usize) -> String {
    let name = at_most_chars(name, 40);
    let spaces = " ".repeat(pad.saturating_sub(name.chars().count()));
    format!("{name}: {spaces}")
}

/// The tags that leave a case out: `nobench`, `disable`, `no_BACKEND` and
/// those of `--exclude-case`.
pub(crate) fn excluded_tags(backend: &str, extra: &[String]) -> Vec<String> {
    let mut tags = vec!["nobench".to_string(), "disable".to_string(), format!("no_{backend}")];
    tags.extend(extra.iter().cloned());
    tags
}

/// Whether `futmlir bench` leaves a case of `block` out (see the module
/// doc).
fn case_skipped(block: &TestBlock, case: &TestCase, backend: &str, excluded: &[String]) -> bool {
    let nobench = case.nobench.then_some("nobench");
    let mut tags = block.tags.iter().chain(&case.tags).map(String::as_str).chain(nobench);
    tags.any(|t| excluded.iter().any(|e| e == t))
        || matches!(case.expected, Expected::Error(_))
        || (case.compiled && backend == "interp")
}

/// The datasets `futmlir bench` runs of a program's blocks for `backend`
/// (see the module doc), in order: (entry, case, the case's index in its
/// block).
pub(crate) fn plan<'b>(
    blocks: &'b [TestBlock],
    backend: &str,
    entry_point: Option<&str>,
    excluded: &[String],
) -> Vec<(&'b str, &'b TestCase, usize)> {
    let mut plan = Vec::new();
    for block in blocks.iter().filter(|b| b.compile_error.is_none()) {
        for (index, case) in block.cases.iter().enumerate() {
            if case_skipped(block, case, backend, excluded) {
                continue;
            }
            for entry in &block.entries {
                if entry_point.is_none_or(|e| e == entry) {
                    plan.push((entry.as_str(), case, index));
                }
            }
        }
    }
    plan
}

/// A dataset's name as `futhark bench` gives it: the case's `"name"`;
/// else the file of an `input @ file` (without `.gz`); the types of a
/// `random input`; the expression of a `script input`; for values,
/// `#I ("VALUES")` with I the case's index in its block and the values
/// (`args`, else the text as written) cut at 50 characters.
pub(crate) fn dataset_name(case: &TestCase, index: usize, args: Option<&[Value]>) -> String {
    if let Some(name) = &case.name {
        return name.clone();
    }
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    match &case.input {
        InputSpec::File(f) => {
            let f = f.display().to_string();
            f.strip_suffix(".gz").map_or(f.clone(), str::to_string)
        }
        InputSpec::Random(specs) => specs.join(" "),
        InputSpec::Script(src) => one_line(src),
        InputSpec::Inline(text) => {
            let shown = match args {
                Some(vs) => vs.iter().map(Value::to_string).collect::<Vec<_>>().join(" "),
                None => one_line(text),
            };
            let shown = if shown.chars().count() > 50 {
                shown.chars().take(50).chain("...".chars()).collect()
            } else {
                shown
            };
            format!("#{index} (\"{}\")", shown.lines().collect::<Vec<_>>().join(" "))
        }
    }
}

/// The name and arguments of a case (`index`: its index in its block);
/// `Err`: (the name, why). A script input is an error here: nothing runs.
pub(crate) fn dataset(
    runner: &Runner,
    dir: &Path,
    case: &TestCase,
    index: usize,
) -> Result<(String, Vec<Value>), (String, String)> {
    let args = runner
        .inputs(dir, case, None)
        .map_err(|e| (dataset_name(case, index, None), e))?;
    Ok((dataset_name(case, index, Some(&args)), args))
}

/// Times `runs` runs of `entry` on `args`, after a warm-up run (page
/// faults, caches, the device's first launches) that is not counted;
/// checks the last run's results against `expected`, if given.
pub(crate) fn time(
    program: &dyn Compiled,
    entry: &str,
    args: &[Value],
    runs: usize,
    expected: Option<&[Value]>,
) -> Result<Timed, String> {
    let mut timed = program
        .bench(entry, args, runs + 1, expected.is_some())
        .map_err(|e| format!("run-time error: {e}"))?;
    if timed.runtimes.len() != runs + 1 {
        return Err(format!("{} runtimes for {} runs", timed.runtimes.len(), runs + 1));
    }
    timed.runtimes.remove(0);
    if let (Some(want), Some(got)) = (expected, &timed.results) {
        FrontendValues
            .compare(want, got)
            .map_err(|e| format!("wrong result: {e}"))?;
    }
    Ok(timed)
}

/// The backend's name in `no_BACKEND` tags.
fn backend_name(kind: BackendKind) -> &'static str {
    match kind {
        BackendKind::Interp => "interp",
        BackendKind::Cpu => "cpu",
        BackendKind::Cuda => "cuda",
    }
}

/// A runner for reading datasets: inputs and expected outputs only, so
/// the backend is never used.
fn data_runner() -> Runner<'static> {
    Runner {
        backend: &InterpBackend,
        reference: None,
        values: &FrontendValues,
        verbose: false,
        cases_only: false,
    }
}

/// A program to time: its path, its blocks and what runs of them.
struct Program {
    path: PathBuf,
    blocks: Vec<TestBlock>,
}

impl Program {
    fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// A dataset's arguments (`None`: made when it runs) and expected
/// results.
type DatasetValues = (Option<Vec<Value>>, Option<Vec<Value>>);

/// A program's target (`None`: skipped) and datasets, ready to run.
type Prepared = (Option<Target>, Vec<Dataset>);

/// A dataset read ahead of its runs (`--concurrency`).
struct Dataset {
    entry: String,
    name: String,
    /// The arguments (`None`: a script input, which calls the program and
    /// is made when the dataset runs) and the expected results.
    data: Result<DatasetValues, String>,
    /// The case, for a script input.
    case: TestCase,
}

/// Reads the datasets of a program's plan.
fn read_datasets(program: &Program, backend: &str, a: &BenchArgs) -> Vec<Dataset> {
    let runner = data_runner();
    let excluded = excluded_tags(backend, &a.exclude_case);
    plan(&program.blocks, backend, a.entry_point.as_deref(), &excluded)
        .into_iter()
        .map(|(entry, case, index)| {
            let args = match case.input {
                InputSpec::Script(_) => Ok(None),
                _ => runner.inputs(program.dir(), case, None).map(Some),
            };
            let name = dataset_name(case, index, args.as_ref().ok().and_then(|a| a.as_deref()));
            let data = args.and_then(|args| Ok((args, runner.expected_output(program.dir(), case)?)));
            Dataset {
                entry: entry.to_string(),
                name,
                data,
                case: case.clone(),
            }
        })
        .collect()
}

/// How a program runs.
enum Target {
    Exe(Executable),
    Interp(Box<dyn Compiled>),
}

impl Target {
    fn compiled(&self) -> &dyn Compiled {
        match self {
            Target::Exe(e) => e,
            Target::Interp(p) => &**p,
        }
    }
}

/// What a dataset's runs measured.
#[derive(Default)]
struct Measurement {
    /// Microseconds per run.
    runtimes: Vec<f64>,
    /// The most memory the program held, per memory space.
    bytes: BTreeMap<String, u64>,
    /// What the program wrote on stderr (its last batch's).
    stderr: String,
    /// `--profile`: the report (JSON) of a run with profiling.
    profile: Option<String>,
}

/// One batch of runs (Note [Benchmark methodology]), the warm-up run left
/// out.
struct Batch {
    runtimes: Vec<f64>,
    results: Option<Vec<Value>>,
    peak: Option<u64>,
    stderr: String,
}

/// How a process ended, if it did not succeed.
enum Failed {
    TimedOut,
    Error(String),
}

/// The runtime's `--memory-report` line, taken out of `stderr`: the peak
/// bytes and the rest of the text.
fn take_memory_report(stderr: &str) -> (Option<u64>, String) {
    let mut peak = None;
    let mut rest = String::new();
    for line in stderr.split_inclusive('\n') {
        let bytes = line
            .trim_end()
            .strip_prefix("Peak memory usage: ")
            .and_then(|l| l.strip_suffix(" bytes"))
            .and_then(|n| n.parse().ok());
        match bytes {
            Some(n) => peak = Some(n),
            None => rest.push_str(line),
        }
    }
    (peak, rest)
}

/// Runs `cmd` with stdin from `stdin` until it ends or `deadline` passes
/// (then it is killed): its stdout and stderr.
fn run_until(mut cmd: Command, stdin: std::fs::File, deadline: Option<Instant>) -> Result<(Vec<u8>, String), Failed> {
    let shown = format!("{:?}", cmd.get_program());
    let mut child = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failed::Error(format!("cannot run {shown}: {e}")))?;
    // Drained on threads so that a chatty program never blocks on a full
    // pipe while this thread waits for the deadline.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Failed::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(Failed::Error(format!("waiting for {shown}: {e}"))),
        }
    };
    let out = out.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    if status.success() {
        return Ok((out, err));
    }
    use std::os::unix::process::ExitStatusExt;
    let err = err.trim();
    Err(Failed::Error(match status.signal() {
        Some(sig) => format!("killed by signal {sig}{}{err}", if err.is_empty() { "" } else { ": " }),
        None => err.to_string(),
    }))
}

/// The options of a run that do not depend on the dataset.
struct RunOptions {
    /// `--tuning FILE`, `--cache-file FILE` and the `--pass-option`s.
    extra: Vec<String>,
    runner: Option<String>,
    verbose: u8,
    /// `--profile`.
    profile: bool,
}

/// One dataset of one entry point, ready to run.
struct Job<'a> {
    entry: &'a str,
    args: &'a [Value],
    /// The arguments in the binary format, for executables.
    input: Option<PathBuf>,
}

fn batch(
    target: &Target,
    job: &Job,
    runs: usize,
    results: bool,
    deadline: Option<Instant>,
    opts: &RunOptions,
) -> Result<Batch, Failed> {
    let exe = match target {
        Target::Exe(exe) => exe,
        Target::Interp(program) => {
            let timed = program
                .bench(job.entry, job.args, runs + 1, results)
                .map_err(Failed::Error)?;
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Failed::TimedOut);
            }
            return Ok(Batch {
                runtimes: timed.runtimes[1..].to_vec(),
                results: timed.results,
                peak: None,
                stderr: timed.stderr,
            });
        }
    };
    let times = exe.scratch().join("runtimes.txt");
    let input = job.input.as_deref().unwrap_or(Path::new("/dev/null"));
    let stdin =
        std::fs::File::open(input).map_err(|e| Failed::Error(format!("cannot read {}: {e}", input.display())))?;
    let mut cmd = match &opts.runner {
        Some(runner) => {
            let mut c = Command::new(runner);
            c.arg(exe.path());
            c
        }
        None => Command::new(exe.path()),
    };
    let count = (runs + 1).to_string();
    cmd.args(["-e", job.entry, "-r", &count, "-t"])
        .arg(&times)
        .arg(if results { "-b" } else { "-n" })
        .arg("--memory-report")
        .args(&opts.extra);
    if opts.verbose > 0 {
        eprintln!("running {cmd:?}");
    }
    let (stdout, stderr) = run_until(cmd, stdin, deadline)?;
    let text =
        std::fs::read_to_string(&times).map_err(|e| Failed::Error(format!("cannot read {}: {e}", times.display())))?;
    let runtimes: Vec<f64> = text
        .split_whitespace()
        .map(|t| {
            t.parse()
                .map_err(|_| Failed::Error(format!("malformed runtime `{t}` in {}", times.display())))
        })
        .collect::<Result<_, _>>()?;
    if runtimes.len() != runs + 1 {
        return Err(Failed::Error(format!(
            "{} runtimes for {} runs",
            runtimes.len(),
            runs + 1
        )));
    }
    let results = if results {
        let values = values::read_values(&stdout)
            .map_err(|e| Failed::Error(format!("the executable printed malformed results: {e}")))?;
        Some(values)
    } else {
        None
    };
    let (peak, stderr) = take_memory_report(&stderr);
    Ok(Batch {
        runtimes: runtimes[1..].to_vec(),
        results,
        peak,
        stderr,
    })
}

/// The settings of the methodology (Note [Benchmark methodology]).
struct Methodology {
    runs: usize,
    convergence: bool,
    convergence_max: Duration,
    timeout: Option<Duration>,
    /// The memory space the runtime's peak is reported under.
    space: &'static str,
}

/// Shows a progress bar on stderr while a dataset runs (when stderr is a
/// terminal).
struct Progress<'a> {
    name: &'a str,
    shown: bool,
}

impl Progress<'_> {
    fn update(&mut self, fraction: f64, runs: usize) {
        if self.shown {
            eprint!(
                "\r{}: {} {runs} runs\x1b[K",
                at_most_chars(self.name, 40),
                progress_bar(fraction, 10)
            );
        }
    }
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

/// Runs a dataset by Note [Benchmark methodology].
fn measure(
    target: &Target,
    job: &Job,
    expected: Option<&[Value]>,
    m: &Methodology,
    opts: &RunOptions,
    progress: &mut Progress,
) -> Result<Measurement, String> {
    let start = Instant::now();
    let deadline = m.timeout.map(|t| start + t);
    let timed_out = || match m.timeout {
        Some(t) => format!("timed out after {} s", t.as_secs()),
        None => "timed out".to_string(),
    };
    let mut measured = Measurement::default();
    let add = |measured: &mut Measurement, b: Batch| {
        measured.runtimes.extend(b.runtimes);
        if let Some(peak) = b.peak {
            let most = measured.bytes.entry(m.space.to_string()).or_insert(0);
            *most = (*most).max(peak);
        }
        measured.stderr = b.stderr;
    };
    let run = |runs: usize, results: bool| {
        batch(target, job, runs, results, deadline, opts).map_err(|f| match f {
            Failed::TimedOut => timed_out(),
            Failed::Error(e) => format!("run-time error: {e}"),
        })
    };
    progress.update(0.0, 0);
    let first = run(m.runs, expected.is_some())?;
    if let (Some(want), Some(got)) = (expected, &first.results) {
        FrontendValues
            .compare(want, got)
            .map_err(|e| format!("wrong result: {e}"))?;
    }
    add(&mut measured, first);
    // The initial phase's half second, of wall-clock time: each batch is
    // sized by the time a run has cost so far, process start included.
    let half_second = Duration::from_secs_f64(INITIAL_PHASE_SECONDS);
    loop {
        let elapsed = start.elapsed();
        if elapsed >= half_second {
            break;
        }
        let n = measured.runtimes.len();
        progress.update(elapsed.as_secs_f64() / INITIAL_PHASE_SECONDS, n);
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(timed_out());
        }
        let per_run = elapsed.as_secs_f64() / n as f64;
        let more = ((INITIAL_PHASE_SECONDS - elapsed.as_secs_f64()) / per_run.max(1e-7)).ceil();
        let b = run((more.clamp(1.0, n.max(10) as f64 * 8.0) as usize).min(MAX_BATCH), false)?;
        add(&mut measured, b);
    }
    if m.convergence {
        let end = Instant::now() + m.convergence_max;
        // A tenth of the timeout is left as a margin for a batch that
        // takes longer than planned.
        let end = m.timeout.map_or(end, |t| end.min(start + t.mul_f64(0.9)));
        while !converged(&measured.runtimes) {
            let n = measured.runtimes.len();
            let now = Instant::now();
            // What a run costs in wall-clock time, process starts and
            // discarded runs included: what the time left buys.
            let per_run = now.duration_since(start).as_secs_f64() / n as f64;
            let fit = (end.saturating_duration_since(now).as_secs_f64() / per_run.max(1e-7)) as usize;
            // Each batch also spends a warm-up run.
            if fit < 2 {
                break;
            }
            let wanted = runs_needed(&measured.runtimes).saturating_sub(n).clamp(1, n.max(10));
            let elapsed = now.duration_since(start).as_secs_f64();
            progress.update(elapsed / (elapsed + end.duration_since(now).as_secs_f64()), n);
            let b = run(wanted.min(fit - 1).min(MAX_BATCH), false)?;
            if opts.verbose > 1 {
                let (_, lo, hi) = confidence_interval(&measured.runtimes);
                eprintln!("{n} runs so far, 95% CI [{lo:.1}, {hi:.1}]");
            }
            add(&mut measured, b);
        }
    }
    Ok(measured)
}

/// The key of an entry point's results: the program's path, with
/// `:ENTRY` unless the entry point is `main`.
fn program_key(path: &Path, entry: &str) -> String {
    if entry == "main" {
        path.display().to_string()
    } else {
        format!("{}:{entry}", path.display())
    }
}

/// A dataset's outcome: measured, or why not.
type DataResult = Result<Measurement, String>;

/// `s` as a JSON string literal.
pub(crate) fn json_string(s: &str) -> String {
    let mut j = String::with_capacity(s.len() + 2);
    j.push('"');
    for c in s.chars() {
        match c {
            '"' => j.push_str("\\\""),
            '\\' => j.push_str("\\\\"),
            '\n' => j.push_str("\\n"),
            '\r' => j.push_str("\\r"),
            '\t' => j.push_str("\\t"),
            c if (c as u32) < 0x20 => j.push_str(&format!("\\u{:04x}", c as u32)),
            c => j.push(c),
        }
    }
    j.push('"');
    j
}

/// This machine's name (Linux's, else `$HOSTNAME`, else `unknown`).
pub(crate) fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

// Note [Futhark's bench JSON]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `futhark bench --json` writes its results with Haskell's aeson, from
// `Futhark.Bench`'s instances: an object keyed by program (the path as
// given, `:ENTRY` appended unless the entry point is `main`), each
// `{"datasets": {...}}` keyed by dataset name; a measured dataset is
// `{"bytes": {SPACE: PEAK}, "runtimes": [µs, ...], "stderr": TEXT}` and a
// failed one is its error message, a string. aeson encodes objects built
// as values with their keys in order and without whitespace, so this
// writes the same bytes: BTreeMaps (Rust's `str` order is Unicode code
// point order, as `Text`'s), no spaces, integers for microseconds, and
// aeson's string escapes. Tools that read Futhark's files (`futhark
// benchcmp`, plotting scripts) read these. The bytes are the runtime's
// peak (`--memory-report`) under the space Futhark names: `default` on the
// CPU, `device` on the GPU; the interpreter reports none (`{}`).

/// The `--json` document (Note [Futhark's bench JSON]).
fn json_document(results: &BTreeMap<String, BTreeMap<String, DataResult>>) -> String {
    let mut doc = String::from("{");
    for (i, (program, datasets)) in results.iter().enumerate() {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!("{}:{{\"datasets\":{{", json_string(program)));
        for (j, (name, result)) in datasets.iter().enumerate() {
            if j > 0 {
                doc.push(',');
            }
            doc.push_str(&json_string(name));
            doc.push(':');
            match result {
                Err(e) => doc.push_str(&json_string(e)),
                Ok(m) => {
                    let bytes: Vec<String> = m.bytes.iter().map(|(s, b)| format!("{}:{b}", json_string(s))).collect();
                    let runtimes: Vec<String> = m.runtimes.iter().map(|t| format!("{t:.0}")).collect();
                    let profile = match &m.profile {
                        Some(p) => format!("\"profile\":{p},"),
                        None => String::new(),
                    };
                    doc.push_str(&format!(
                        "{{\"bytes\":{{{}}},{profile}\"runtimes\":[{}],\"stderr\":{}}}",
                        bytes.join(","),
                        runtimes.join(","),
                        json_string(&m.stderr)
                    ));
                }
            }
        }
        doc.push_str("}}");
    }
    doc.push('}');
    doc
}

/// Reads the test blocks of `path` (or of `--spec-file`, whose lines have
/// no `--` prefixes).
fn read_blocks(path: &Path, spec_file: Option<&Path>) -> Result<Vec<TestBlock>, String> {
    let source = spec_file.unwrap_or(path);
    let text = std::fs::read_to_string(source).map_err(|e| format!("{}: cannot read: {e}", source.display()))?;
    let text = match spec_file {
        Some(_) => text.lines().map(|l| format!("-- {l}\n")).collect(),
        None => text,
    };
    parse_test_spec(&text).map_err(|e| format!("{}:{}: malformed test spec: {}", source.display(), e.line, e.message))
}

/// Prepares the programs' targets: compiles them (or finds their
/// executables), on this thread, one after another (MLIR's and LLVM's
/// registries are process-wide and not safe to fill from several threads),
/// while `--concurrency` threads read their datasets. `Err`: the first
/// compile error, which aborts the run.
fn prepare(programs: &[Program], a: &BenchArgs, flags: &PassFlags) -> Result<Vec<Prepared>, String> {
    let backend = backend_name(a.backend);
    let threads = a.concurrency.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let next = std::sync::atomic::AtomicUsize::new(0);
    let read: Vec<std::sync::Mutex<Vec<Dataset>>> = programs.iter().map(|_| Default::default()).collect();
    let targets = std::thread::scope(|scope| {
        for _ in 0..threads.min(programs.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(p) = programs.get(i) else { break };
                let datasets = read_datasets(p, backend, a);
                if let Ok(mut slot) = read[i].lock() {
                    *slot = datasets;
                }
            });
        }
        programs
            .iter()
            .map(|p| compile(p, a, flags))
            .collect::<Result<Vec<_>, String>>()
    })?;
    Ok(targets
        .into_iter()
        .zip(read)
        .map(|(t, d)| (t, d.into_inner().unwrap_or_default()))
        .collect())
}

/// The target of one program; `None`: the compiled backends do not
/// support it yet (it is skipped, and says so).
fn compile(p: &Program, a: &BenchArgs, flags: &PassFlags) -> Result<Option<Target>, String> {
    let shown = p.path.display();
    let compiled = match a.backend {
        BackendKind::Interp => InterpBackend.compile(&p.path).map(Target::Interp),
        _ if a.skip_compilation => {
            let exe = p.path.with_extension("");
            if !exe.is_file() {
                return Err(format!(
                    "{shown}: no executable {} to run (--skip-compilation)",
                    exe.display()
                ));
            }
            Executable::at(exe).map(Target::Exe)
        }
        kind => {
            if a.verbose > 0 {
                eprintln!("Compiling {shown}...");
            }
            let backend = ExeBackend {
                gpu: (kind == BackendKind::Cuda).then(|| a.gpu_arch.clone()),
                flags: flags.clone(),
                // bench passes its executables' options itself.
                exec: Default::default(),
            };
            backend.compile_exe(&p.path).map(Target::Exe)
        }
    };
    match compiled {
        Ok(t) => Ok(Some(t)),
        Err(msg) => match crate::compiled::unsupported(&msg) {
            Some(why) => {
                println!("{shown}: skipped ({why})");
                Ok(None)
            }
            None => Err(format!("{shown}: compilation failed:\n{msg}")),
        },
    }
}

pub fn main(a: BenchArgs) -> ExitCode {
    let flags = if a.pass_compiler_option.is_empty() {
        a.flags.clone()
    } else if let Some(flag) = a.flags.given() {
        eprintln!("error: give compile flags ({flag}) directly or with --pass-compiler-option, not both");
        return ExitCode::from(2);
    } else {
        match CompilerOptions::try_parse_from(&a.pass_compiler_option) {
            Ok(o) => o.flags,
            Err(e) => {
                eprintln!("error: --pass-compiler-option: {}", e.render().to_string().trim());
                return ExitCode::from(2);
            }
        }
    };
    let ignore = match a
        .ignore_files
        .iter()
        .map(|r| Regex::new(r))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: bad --ignore-files: {e}");
            return ExitCode::from(2);
        }
    };
    let paths = match collect_programs(&a.paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(code) = a.backend.prepare(&a.gpu_arch, &flags) {
        return code;
    }
    let backend = backend_name(a.backend);
    let mut ok = true;
    let mut programs = Vec::new();
    for path in paths {
        if ignore.iter().any(|r| r.is_match(&path.display().to_string())) {
            continue;
        }
        match read_blocks(&path, a.spec_file.as_deref()) {
            Ok(blocks) => {
                let excluded = excluded_tags(backend, &a.exclude_case);
                // A program with no dataset is not even compiled.
                if !plan(&blocks, backend, a.entry_point.as_deref(), &excluded).is_empty() {
                    programs.push(Program { path, blocks });
                }
            }
            Err(e) => {
                eprintln!("{e}");
                ok = false;
            }
        }
    }
    let prepared = match prepare(&programs, &a, &flags) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let methodology = Methodology {
        runs: a.runs as usize,
        convergence: !a.no_convergence_phase,
        convergence_max: Duration::from_secs_f64(a.convergence_max_seconds.max(0.0)),
        timeout: u64::try_from(a.timeout).ok().map(Duration::from_secs),
        space: if a.backend == BackendKind::Cuda {
            "device"
        } else {
            "default"
        },
    };
    let mut results: BTreeMap<String, BTreeMap<String, DataResult>> = BTreeMap::new();
    for (program, (target, datasets)) in programs.iter().zip(&prepared) {
        let Some(target) = target else { continue };
        let exec = a.exec.exec_options();
        let tuning = exec.tuning_file(&program.path);
        let extra = exec
            .options_for(&program.path)
            .iter()
            .map(|o| o.to_string_lossy().into_owned())
            .collect();
        let opts = RunOptions {
            extra,
            runner: exec.runner.clone(),
            verbose: a.verbose,
            profile: a.profile,
        };
        let mut entries: Vec<&str> = Vec::new();
        for d in datasets {
            if !entries.contains(&d.entry.as_str()) {
                entries.push(&d.entry);
            }
        }
        for entry in entries {
            let key = program_key(&program.path, entry);
            let tuning_desc = match &tuning {
                Some(t) => format!("using {}", t.file_name().map_or(t.as_os_str(), |f| f).to_string_lossy()),
                None => "no tuning file".to_string(),
            };
            println!("\n{key} ({tuning_desc}):");
            let mine: Vec<&Dataset> = datasets.iter().filter(|d| d.entry == entry).collect();
            let pad = mine
                .iter()
                .map(|d| at_most_chars(&d.name, 40).chars().count())
                .max()
                .unwrap_or(0);
            let entry_results = results.entry(key.clone()).or_default();
            for d in mine {
                let mut progress = Progress {
                    name: &d.name,
                    shown: std::io::stderr().is_terminal() && a.verbose == 0,
                };
                let outcome = run_dataset(program, target, d, &methodology, &opts, &mut progress);
                progress.clear();
                match &outcome {
                    Ok(m) => println!("{}", report_line(&d.name, pad, &m.runtimes)),
                    Err(e) => {
                        ok = false;
                        println!("{}failed", padded_name(&d.name, pad));
                        eprintln!("{key} dataset {} (line {}): {e}", d.name, d.case.line);
                    }
                }
                let _ = std::io::stdout().flush();
                entry_results.insert(d.name.clone(), outcome);
            }
        }
    }
    if let Some(file) = &a.json {
        if let Err(e) = std::fs::write(file, json_document(&results)) {
            eprintln!("error: cannot write {}: {e}", file.display());
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Makes a dataset's arguments (a script input calls the program),
/// writes them for an executable, and measures it.
fn run_dataset(
    program: &Program,
    target: &Target,
    d: &Dataset,
    m: &Methodology,
    opts: &RunOptions,
    progress: &mut Progress,
) -> Result<Measurement, String> {
    let (args, expected) = d.data.as_ref().map_err(|e| e.clone())?;
    let made;
    let args = match args {
        Some(args) => args,
        None => {
            made = data_runner().inputs(program.dir(), &d.case, Some(target.compiled()))?;
            &made
        }
    };
    let input = match target {
        Target::Exe(exe) => {
            let file = exe.scratch().join("input.bin");
            std::fs::write(&file, values::write_binary_values(args))
                .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            Some(file)
        }
        Target::Interp(_) => None,
    };
    let job = Job {
        entry: &d.entry,
        args,
        input,
    };
    let mut measured = measure(target, &job, expected.as_deref(), m, opts, progress)?;
    if opts.profile {
        let (Target::Exe(exe), Some(input)) = (target, &job.input) else {
            return Err("--profile needs a compiled backend".to_string());
        };
        measured.profile = Some(profile_report(exe, job.entry, input, opts)?);
    }
    Ok(measured)
}

// Note [Profiling benchmarks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As `futhark bench --profile`, the profile comes from one more run after
// the measured ones, so that profiling costs the measurements nothing:
// the executable runs as a server with `-P`, restores the dataset's
// arguments (types from `inputs`), calls the entry point once and answers
// `report`, the JSON of `futhark_context_report` (the memory and the
// profiling events: kernels, copies, calls), which the `--json` file
// keeps under the dataset's `profile` (the bytes as given).

/// The profiling report of one run of `entry` on the arguments in the
/// binary file `input` (Note [Profiling benchmarks]).
fn profile_report(exe: &Executable, entry: &str, input: &Path, opts: &RunOptions) -> Result<String, String> {
    use std::io::{BufRead, BufReader};
    let fail = |e: String| format!("--profile: {e}");
    let mut cmd = match &opts.runner {
        Some(r) => {
            let mut c = Command::new(r);
            c.arg(exe.path());
            c
        }
        None => Command::new(exe.path()),
    };
    let mut child = cmd
        .args(&opts.extra)
        .args(["--server", "-P"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| fail(format!("cannot run {}: {e}", exe.path().display())))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut lines = BufReader::new(child.stdout.take().ok_or("no stdout")?).lines();
    // The lines of one answer, up to `%%% OK`; a failure's message.
    let mut answer = || -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        let mut failed = false;
        for line in lines.by_ref() {
            let line = line.map_err(|e| e.to_string())?;
            match line.as_str() {
                "%%% OK" if failed => return Err(out.join("\n")),
                "%%% OK" => return Ok(out),
                "%%% FAILURE" => failed = true,
                _ => out.push(line),
            }
        }
        Err("the server ended before answering".to_string())
    };
    let mut session = || -> Result<String, String> {
        answer()?;
        let mut ask = |command: String| -> Result<Vec<String>, String> {
            writeln!(stdin, "{command}").map_err(|e| e.to_string())?;
            answer()
        };
        let types = ask(format!("inputs {entry}"))?;
        let outputs = ask(format!("outputs {entry}"))?.len();
        let ins: Vec<String> = (0..types.len()).map(|k| format!("in{k}")).collect();
        let restore: Vec<String> = ins
            .iter()
            .zip(&types)
            .map(|(v, t)| format!("{v} \"{}\"", t.trim_start_matches('*')))
            .collect();
        ask(format!("restore \"{}\" {}", input.display(), restore.join(" ")))?;
        let outs: Vec<String> = (0..outputs).map(|k| format!("out{k}")).collect();
        ask(format!("call {entry} {} {}", outs.join(" "), ins.join(" ")))?;
        Ok(ask("report".to_string())?.join("\n"))
    };
    let report = session();
    drop(stdin);
    let _ = child.wait();
    report.map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confidence_intervals_and_convergence() {
        let (mean, lo, hi) = confidence_interval(&[90.0, 100.0, 110.0]);
        // t(2) = 4.303, s = 10, n = 3.
        let half = 4.303 * 10.0 / 3f64.sqrt();
        assert_eq!(mean, 100.0);
        assert!((lo - (100.0 - half)).abs() < 1e-9 && (hi - (100.0 + half)).abs() < 1e-9);
        assert_eq!(confidence_interval(&[5.0]), (5.0, 5.0, 5.0));
        let (_, lo, _) = confidence_interval(&[0.0, 0.0, 0.0, 1.0]);
        assert!(lo == 0.0 && lo.is_sign_positive(), "{lo}");
        assert!(!converged(&[90.0, 100.0, 110.0]));
        assert!(converged(&[100.0, 100.0, 100.5, 99.5]));
        // Within a microsecond: as good as whole microseconds get.
        assert!(converged(&[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]));
        assert_eq!(runs_needed(&[100.0, 100.0]), 2);
        assert!(runs_needed(&[90.0, 100.0, 110.0]) > 300);
    }

    #[test]
    fn report_lines_and_progress_bars() {
        assert_eq!(
            report_line("#0 (\"1i32\")", 12, &[90.0, 100.0, 110.0]),
            "#0 (\"1i32\"):         100μs (95% CI: [      75.2,      124.8])"
        );
        let long = "x".repeat(45);
        assert!(report_line(&long, 40, &[1.0]).starts_with(&format!("{}...: ", "x".repeat(37))));
        assert_eq!(progress_bar(0.0, 4), "|    |");
        assert_eq!(progress_bar(0.5, 4), "|██  |");
        assert_eq!(progress_bar(0.5625, 4), "|██▎ |");
        assert_eq!(progress_bar(1.0, 4), "|████|");
    }

    #[test]
    fn memory_reports_leave_stderr() {
        assert_eq!(
            take_memory_report("warn\nPeak memory usage: 512 bytes\n"),
            (Some(512), "warn\n".to_string())
        );
        assert_eq!(take_memory_report("x"), (None, "x".to_string()));
    }

    #[test]
    fn json_document_is_futharks_bytes() {
        let measured = Measurement {
            runtimes: vec![10.0, 12.0],
            bytes: BTreeMap::from([("default".to_string(), 512)]),
            stderr: "a\"b\n".to_string(),
            profile: None,
        };
        let results = BTreeMap::from([
            (
                "p.fut:f".to_string(),
                BTreeMap::from([("#1 (\"2i32\")".to_string(), Err("timed out after 1 s".to_string()))]),
            ),
            (
                "p.fut".to_string(),
                BTreeMap::from([("d.in".to_string(), Ok(measured))]),
            ),
        ]);
        assert_eq!(
            json_document(&results),
            concat!(
                r#"{"p.fut":{"datasets":{"d.in":{"bytes":{"default":512},"runtimes":[10,12],"stderr":"a\"b\n"}}},"#,
                r##""p.fut:f":{"datasets":{"#1 (\"2i32\")":"timed out after 1 s"}}}"##
            )
        );
        assert_eq!(program_key(Path::new("a/p.fut"), "main"), "a/p.fut");
        assert_eq!(program_key(Path::new("a/p.fut"), "f"), "a/p.fut:f");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\te\u{1}é"), "\"a\\\"b\\\\c\\nd\\te\\u0001é\"");
    }

    #[test]
    fn dataset_names_are_futharks() {
        let spec = "-- ==\n-- input { 1 [2, 3] }\n-- \"big\" input { 1 }\n-- input @ d/x.in.gz\n\
                    -- random input { [10]f32 i64 }\n-- input { [1000000000, 1000000000, 1000000000, 1000000000] }\n\
                    -- script input { mk   3i64 }\n";
        let blocks = parse_test_spec(spec).unwrap();
        let names: Vec<String> = blocks[0]
            .cases
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let args = match &c.input {
                    InputSpec::Inline(t) => Some(values::parse_values(t).unwrap()),
                    _ => None,
                };
                dataset_name(c, i, args.as_deref())
            })
            .collect();
        assert_eq!(
            names,
            [
                "#0 (\"1i32 [2i32, 3i32]\")",
                "big",
                "d/x.in",
                "[10]f32 i64",
                "#4 (\"[1000000000i32, 1000000000i32, 1000000000i32, 1000...\")",
                "mk 3i64",
            ]
        );
    }

    #[test]
    fn excluded_tags_leave_cases_out() {
        let spec = "-- ==\n-- entry: main f\n-- input { 1 }\n-- slow input { 2 }\n-- nobench input { 3 }\n\
                    -- input { 4 } error: x\n-- no_cpu input { 5 }\n-- compiled input { 6 }\n\
                    -- ==\n-- tags { disable }\n-- input { 7 }\n";
        let blocks = parse_test_spec(spec).unwrap();
        let lines = |backend: &str, extra: &[String], entry: Option<&str>| -> Vec<(String, usize)> {
            plan(&blocks, backend, entry, &excluded_tags(backend, extra))
                .into_iter()
                .map(|(e, _, i)| (e.to_string(), i))
                .collect()
        };
        let both = |is: &[usize]| -> Vec<(String, usize)> {
            is.iter()
                .flat_map(|&i| [("main".to_string(), i), ("f".to_string(), i)])
                .collect()
        };
        assert_eq!(lines("cpu", &[], None), both(&[0, 1, 5]));
        assert_eq!(lines("cpu", &["slow".to_string()], None), both(&[0, 5]));
        assert_eq!(lines("interp", &[], None), both(&[0, 1, 4]));
        assert_eq!(
            lines("cpu", &[], Some("f")),
            [("f".to_string(), 0), ("f".to_string(), 1), ("f".to_string(), 5)]
        );
    }
}
