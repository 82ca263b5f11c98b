//! `futmlir fuzz`: random-program differential testing. Each program,
//! well-typed by construction (`gen`), runs through the interpreter (the
//! reference) and a compiled backend on random arguments; a disagreement,
//! an error on one side only, a panic, a signal, or a compile error on a
//! program the interpreter accepts is a finding, shrunk (`shrink`) and
//! saved as a test program that reproduces it.
//!
//! `futmlir fuzz --seed S --count N [--backend cpu] [--out DIR]` is
//! deterministic: program `i` of seed `S` is always the same, with the
//! same arguments. `--write-tests DIR` also saves every program with the
//! interpreter's results as `-- ==` cases, to run on another backend
//! (`futmlir test --backend=cuda --bundle B DIR` for a GPU machine).

mod gen;
mod shrink;

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use futmlir_frontend::values::{self, Value};

use crate::compiled::unsupported;
use crate::test::{Backend, BackendKind, Compiled, InterpBackend};
use gen::{Gen, Program};

#[derive(clap::Args)]
pub struct FuzzArgs {
    /// The seed: the same seed gives the same programs and arguments.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many programs to generate.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// Stop after this many seconds, even before `--count` programs.
    #[arg(long, value_name = "SECONDS")]
    seconds: Option<u64>,
    /// The backend compared with the interpreter.
    #[arg(long, value_enum, default_value = "cpu")]
    backend: BackendKind,
    /// The GPU to build for (`--backend=cuda`).
    #[arg(long = "gpu-arch", default_value = "sm_90")]
    gpu_arch: String,
    /// Where reproducers of findings go.
    #[arg(long, value_name = "DIR", default_value = "fuzz-findings")]
    out: PathBuf,
    /// Also write every program, with the interpreter's results as its
    /// test cases, into this folder.
    #[arg(long, value_name = "DIR")]
    write_tests: Option<PathBuf>,
    /// Entry points per program (each is compiled once for all of them).
    #[arg(long, default_value_t = 3)]
    entries: usize,
    /// How deep expressions nest.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Argument sets per entry point.
    #[arg(long, default_value_t = 2)]
    inputs: usize,
    /// At most this many compiles to shrink one finding (0: no shrinking).
    #[arg(long, default_value_t = 60)]
    shrink: usize,
    /// Only program `I` of the seed (to reproduce one finding).
    #[arg(long, value_name = "I")]
    program: Option<usize>,
    /// A program (its compile and all its cases on both sides, before
    /// shrinking) that takes longer than this is a hang: it is saved
    /// unshrunk and the run stops (Note [Hangs]).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    timeout: u64,
    /// Print each program's outcome.
    #[arg(short, long)]
    verbose: bool,
}

// Note [Hangs]
// ~~~~~~~~~~~~
// A hang (the compiler looping, the interpreter or an executable never
// finishing) would stop a fuzzing run without a word. The interpreter and
// the compiler run in this process and cannot be interrupted, so a
// watchdog thread watches the program being checked: once it has taken
// longer than `--timeout`, the watchdog saves it (unshrunk: shrinking
// would need the same watchdog for every try) as `hang-SEED-I.fut`,
// kills this process's children (an executable that does not end), prints
// the summary line and exits with failure. Generated programs are small
// and their loops are bounded by a size or a constant below 4, so a
// program that runs for minutes is a bug of its own.

/// The program the watchdog of Note [Hangs] watches.
struct Watched {
    index: usize,
    since: Instant,
    /// Its reproducer's path and text.
    path: PathBuf,
    text: String,
}

/// Starts the watchdog of Note [Hangs]; the main loop sets the program
/// being checked (or `None` while it shrinks or writes).
fn watchdog(
    timeout: Duration,
    summary: std::sync::Arc<std::sync::Mutex<String>>,
) -> std::sync::Arc<std::sync::Mutex<Option<Watched>>> {
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None::<Watched>));
    let watched = slot.clone();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let guard = watched.lock().unwrap_or_else(|e| e.into_inner());
        let Some(w) = guard.as_ref() else { continue };
        if w.since.elapsed() < timeout {
            continue;
        }
        let _ = std::fs::write(&w.path, &w.text);
        // An executable that hangs would outlive us.
        let _ = std::process::Command::new("pkill")
            .args(["-KILL", "-P", &std::process::id().to_string()])
            .status();
        println!(
            "program {}: HANG: still running after {} s ({})",
            w.index,
            timeout.as_secs(),
            w.path.display()
        );
        println!("{}", summary.lock().unwrap_or_else(|e| e.into_inner()));
        std::process::exit(1);
    });
    slot
}

/// What one side gave.
#[derive(Clone, Debug)]
enum Outcome {
    Values(Vec<Value>),
    Error(String),
    Panic(String),
}

impl Outcome {
    fn summary(&self) -> String {
        let s = match self {
            Outcome::Values(vs) => vs.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" "),
            Outcome::Error(e) => format!("error: {}", e.lines().next().unwrap_or("")),
            Outcome::Panic(e) => format!("panic: {}", e.lines().next().unwrap_or("")),
        };
        let s: String = s.chars().take(300).collect();
        s.replace('\n', " ")
    }
}

/// The class of a finding (a shrunk program must keep it).
fn classify(reference: &Outcome, tested: &Outcome) -> Option<&'static str> {
    match (reference, tested) {
        (Outcome::Panic(_), _) => Some("interp-panic"),
        (_, Outcome::Panic(_)) => Some("panic"),
        (_, Outcome::Error(e)) if e.starts_with(SIGNAL) => Some("signal"),
        (Outcome::Values(a), Outcome::Values(b)) => values::compare_values(a, b).err().map(|_| "mismatch"),
        (Outcome::Values(_), Outcome::Error(_)) => Some("backend-error"),
        (Outcome::Error(_), Outcome::Values(_)) => Some("interp-error"),
        (Outcome::Error(_), Outcome::Error(_)) => None,
    }
}

/// How [`crate::compiled`] reports an executable killed by a signal.
const SIGNAL: &str = "killed by signal";

fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, Outcome> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(x)) => Ok(x),
        Ok(Err(e)) => Err(Outcome::Error(e)),
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(Outcome::Panic(msg))
        }
    }
}

fn run(c: &dyn Compiled, entry: &str, args: &[Value]) -> Outcome {
    match guarded(|| c.run(entry, args.to_vec())) {
        Ok(vs) => Outcome::Values(vs),
        Err(o) => o,
    }
}

/// One entry point's arguments: as text (for reproducers) and parsed.
#[derive(Clone)]
struct Case {
    entry: String,
    text: Vec<String>,
    args: Vec<Value>,
}

struct Finding {
    class: &'static str,
    /// `None`: the program did not compile.
    case: Option<Case>,
    reference: Outcome,
    tested: Outcome,
}

/// What checking one program gave.
enum Checked {
    /// The interpreter rejected it: a generator (or type checker) bug.
    Rejected(String),
    /// The backend does not support a feature it uses.
    Unsupported(String),
    Done {
        findings: Vec<Finding>,
        cases: usize,
        /// Each case with the interpreter's outcome.
        results: Vec<(Case, Outcome)>,
    },
}

struct Fuzzer {
    backend: Box<dyn Backend>,
    dir: tempfile::TempDir,
}

impl Fuzzer {
    fn write(&self, prog: &Program) -> Result<PathBuf, String> {
        let path = self.dir.path().join("fuzz.fut");
        std::fs::write(&path, prog.text()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// Compiles `prog` both ways and runs `cases`.
    fn check(&self, prog: &Program, cases: &[Case]) -> Checked {
        let path = match self.write(prog) {
            Ok(p) => p,
            Err(e) => return Checked::Rejected(e),
        };
        let reference = match guarded(|| InterpBackend.compile(&path)) {
            Ok(c) => c,
            Err(Outcome::Panic(p)) => {
                return Checked::Done {
                    findings: vec![Finding {
                        class: "interp-panic",
                        case: None,
                        reference: Outcome::Panic(p),
                        tested: Outcome::Values(Vec::new()),
                    }],
                    cases: 0,
                    results: Vec::new(),
                }
            }
            Err(o) => return Checked::Rejected(o.summary()),
        };
        let tested = match guarded(|| self.backend.compile(&path)) {
            Ok(c) => Some(c),
            Err(Outcome::Error(e)) if unsupported(&e).is_some() => {
                return Checked::Unsupported(unsupported(&e).unwrap_or_default().to_string())
            }
            Err(o) => {
                let class = if matches!(o, Outcome::Panic(_)) {
                    "panic"
                } else {
                    "compile-error"
                };
                // The interpreter's results make the reproducer's cases.
                let results = cases
                    .iter()
                    .map(|c| (c.clone(), run(&*reference, &c.entry, &c.args)))
                    .collect();
                return Checked::Done {
                    findings: vec![Finding {
                        class,
                        case: None,
                        reference: Outcome::Values(Vec::new()),
                        tested: o,
                    }],
                    cases: 0,
                    results,
                };
            }
        };
        let mut findings = Vec::new();
        let mut results = Vec::new();
        for case in cases {
            let r = run(&*reference, &case.entry, &case.args);
            if let Some(t) = &tested {
                let o = run(&**t, &case.entry, &case.args);
                if let Some(class) = classify(&r, &o) {
                    findings.push(Finding {
                        class,
                        case: Some(case.clone()),
                        reference: r.clone(),
                        tested: o,
                    });
                }
            }
            results.push((case.clone(), r));
        }
        Checked::Done {
            findings,
            cases: cases.len(),
            results,
        }
    }

    /// Whether `prog` still shows a finding of `class` (on `case`).
    fn still(&self, prog: &Program, class: &str, case: Option<&Case>) -> bool {
        let cases: Vec<Case> = case.into_iter().cloned().collect();
        match self.check(prog, &cases) {
            Checked::Done { findings, .. } => findings.iter().any(|f| f.class == class),
            _ => false,
        }
    }
}

/// The cases of `prog`: `per_entry` argument sets for each entry point.
fn cases(g: &mut Gen, prog: &Program, per_entry: usize) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for e in &prog.entries {
        for _ in 0..per_entry {
            let text = g.inputs(e);
            let args = values::parse_values(&text.join(" ")).map_err(|err| format!("{}: {err}", text.join(" ")))?;
            out.push(Case {
                entry: e.name.clone(),
                text,
                args,
            });
        }
    }
    Ok(out)
}

/// A test program: `prog` with a `-- ==` block per case (expected: the
/// interpreter's outcome), after `header` comment lines.
fn test_program(prog: &Program, header: &[String], cases: &[(Case, Outcome)]) -> String {
    let mut s = String::new();
    for h in header {
        s.push_str(&format!("-- {h}\n"));
    }
    if !cases.is_empty() {
        s.push_str("-- ==\n");
    }
    let mut last_entry = None;
    for (c, o) in cases {
        if last_entry != Some(&c.entry) {
            if last_entry.is_some() {
                s.push_str("-- ==\n");
            }
            s.push_str(&format!("-- entry: {}\n", c.entry));
            last_entry = Some(&c.entry);
        }
        s.push_str(&format!("-- input {{ {} }}\n", c.text.join(" ")));
        match o {
            Outcome::Values(vs) => {
                let vs: Vec<String> = vs.iter().map(|v| v.to_string()).collect();
                s.push_str(&format!("-- output {{ {} }}\n", vs.join(" ")));
            }
            Outcome::Error(_) | Outcome::Panic(_) => s.push_str("-- error:\n"),
        }
    }
    s.push_str(&prog.text());
    s
}

pub fn main(a: FuzzArgs) -> ExitCode {
    // A pass that makes invalid IR is a finding (a compile error), not a
    // program to skip as unsupported when a later pass trips over it:
    // every pass's output is verified, in a release build too.
    if std::env::var_os("FUTMLIR_VERIFY_EACH").is_none() {
        std::env::set_var("FUTMLIR_VERIFY_EACH", "1");
    }
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot make a temporary folder: {e}");
            return ExitCode::FAILURE;
        }
    };
    let fuzzer = Fuzzer {
        backend: a.backend.backend(&a.gpu_arch, &crate::passflags::PassFlags::default()),
        dir,
    };
    for d in std::iter::once(&a.out).chain(a.write_tests.as_ref()) {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("error: cannot make {}: {e}", d.display());
            return ExitCode::FAILURE;
        }
    }
    let start = Instant::now();
    let deadline = a.seconds.map(|s| start + Duration::from_secs(s));
    let summary = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let watched = watchdog(Duration::from_secs(a.timeout.max(1)), summary.clone());
    let (mut programs, mut ran, mut unsupported_n, mut rejected, mut found) = (0, 0, 0, 0, 0);
    let mut stdout = std::io::stdout();
    let range = match a.program {
        Some(i) => i..i + 1,
        None => 0..a.count,
    };
    for i in range {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        programs += 1;
        // Program `i` does not depend on the others (so one can be
        // regenerated alone).
        let mut g = Gen::new(a.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i as u64));
        let helpers = (0..g.rng.below(3))
            .map(|k| g.helper(format!("h{k}"), a.depth.min(3)))
            .collect();
        let prog = Program {
            helpers,
            entries: (0..a.entries).map(|k| g.entry(format!("e{k}"), a.depth)).collect(),
        };
        let cs = match cases(&mut g, &prog, a.inputs) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("program {i}: the generator made malformed arguments: {e}");
                rejected += 1;
                continue;
            }
        };
        let header = vec![format!("futmlir fuzz --seed {} (program {i})", a.seed)];
        *summary.lock().unwrap_or_else(|e| e.into_inner()) = format!(
            "{programs} programs (the last one hung), {ran} cases compared with the interpreter on {}, {unsupported_n} skipped as unsupported, {rejected} rejected by the interpreter, {} findings ({:.0} s)",
            fuzzer.backend.name(),
            found + 1,
            start.elapsed().as_secs_f64()
        );
        let mut h = header.clone();
        h.push(format!(
            "finding: hang (over {} s on the interpreter or {})",
            a.timeout,
            fuzzer.backend.name()
        ));
        *watched.lock().unwrap_or_else(|e| e.into_inner()) = Some(Watched {
            index: i,
            since: Instant::now(),
            path: a.out.join(format!("hang-{}-{i}.fut", a.seed)),
            text: test_program(&prog, &h, &[]),
        });
        let checked = fuzzer.check(&prog, &cs);
        *watched.lock().unwrap_or_else(|e| e.into_inner()) = None;
        match checked {
            Checked::Rejected(e) => {
                rejected += 1;
                let path = a.out.join(format!("rejected-{}-{i}.fut", a.seed));
                let mut h = header.clone();
                h.push(format!("the interpreter rejects this program: {e}"));
                let _ = std::fs::write(&path, test_program(&prog, &h, &[]));
                let _ = writeln!(stdout, "program {i}: REJECTED by the interpreter ({})", path.display());
            }
            Checked::Unsupported(why) => {
                unsupported_n += 1;
                if a.verbose {
                    let _ = writeln!(stdout, "program {i}: skipped: {why}");
                }
            }
            Checked::Done {
                findings,
                cases,
                results,
            } => {
                ran += cases;
                if let Some(w) = &a.write_tests {
                    let _ = std::fs::write(
                        w.join(format!("fuzz-{}-{i}.fut", a.seed)),
                        test_program(&prog, &header, &results),
                    );
                }
                if findings.is_empty() && a.verbose {
                    let _ = writeln!(stdout, "program {i}: {cases} cases agree");
                }
                // One reproducer per class and program.
                let mut seen: Vec<&str> = Vec::new();
                for f in findings {
                    if seen.contains(&f.class) {
                        continue;
                    }
                    seen.push(f.class);
                    found += 1;
                    let path = save(&fuzzer, &a, i, (&prog, &cs), &f, &header);
                    let _ = writeln!(
                        stdout,
                        "program {i}: {}{}: {} ({})",
                        f.class.to_uppercase(),
                        f.case
                            .as_ref()
                            .map(|c| format!(" in entry {}", c.entry))
                            .unwrap_or_default(),
                        f.tested.summary(),
                        path.display()
                    );
                }
            }
        }
    }
    let _ = writeln!(
        stdout,
        "{programs} programs, {ran} cases compared with the interpreter on {}, {unsupported_n} skipped as unsupported, {rejected} rejected by the interpreter, {found} findings ({:.0} s)",
        fuzzer.backend.name(),
        start.elapsed().as_secs_f64()
    );
    if found > 0 || rejected > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Shrinks a finding and writes its reproducer; returns its path.
fn save(
    fuzzer: &Fuzzer,
    a: &FuzzArgs,
    i: usize,
    (prog, all_cases): (&Program, &[Case]),
    f: &Finding,
    header: &[String],
) -> PathBuf {
    let entry = f.case.as_ref().map(|c| c.entry.clone());
    let small = if a.shrink > 0 {
        let mut interesting = |p: &Program| fuzzer.still(p, f.class, f.case.as_ref());
        match &entry {
            Some(e) => shrink::shrink(prog, e, a.shrink, &mut interesting),
            None => {
                // A compile error: any one entry point that keeps it.
                let mut best = prog.clone();
                for k in &prog.entries {
                    let only = Program {
                        helpers: prog.helpers.clone(),
                        entries: vec![k.clone()],
                    };
                    if interesting(&only) {
                        best = shrink::shrink(&only, &k.name, a.shrink, &mut interesting);
                        break;
                    }
                }
                best
            }
        }
    } else {
        prog.clone()
    };
    // The shrunk program's own outcomes (a compile error: on the cases of
    // the entry points left).
    let cases: Vec<Case> = match &f.case {
        Some(c) => vec![c.clone()],
        None => all_cases
            .iter()
            .filter(|c| small.entries.iter().any(|e| e.name == c.entry))
            .cloned()
            .collect(),
    };
    let (reference, tested, results) = match fuzzer.check(&small, &cases) {
        Checked::Done { findings, results, .. } => match findings.into_iter().find(|g| g.class == f.class) {
            Some(g) => (g.reference, g.tested, results),
            None => (f.reference.clone(), f.tested.clone(), results),
        },
        _ => (f.reference.clone(), f.tested.clone(), Vec::new()),
    };
    let mut h = header.to_vec();
    h.push(format!("finding: {}", f.class));
    h.push(format!("interp: {}", reference.summary()));
    h.push(format!("{}: {}", fuzzer.backend.name(), tested.summary()));
    let path: PathBuf = Path::new(&a.out).join(format!("{}-{}-{i}.fut", f.class, a.seed));
    let _ = std::fs::write(&path, test_program(&small, &h, &results));
    path
}
