//! Runs the cases of a bundle that `futmlir test --backend=cuda --bundle
//! DIR` (or `--backend=cpu`, to test the bundle machinery without a GPU)
//! wrote (see `driver/src/bundle.rs`), and compares the results as
//! `futmlir test` does (Futhark's float tolerance; error messages
//! against a regular expression). The binary `futmlir-check` is a thin
//! wrapper; the driver's tests call [`check_bundle`] directly.
//!
//! A case's input is `pN.cK.ENTRY.in` (values), or `CASE.random` (the
//! types of a `random input`, drawn here: [`random_input`]), or, for a
//! `script input`,
//! `pN.cK.ENTRY.script`: the FutharkScript expression, evaluated here
//! (crate `futmlir-script`) with each entry point it applies run by the
//! program's executable, and the files its `$loaddata`/`$loadbytes`
//! name read from `pN.cK.ENTRY.fileJ` (J: the name's place among the
//! distinct names, `futmlir_script::files_named`).
//!
//! A case's kind (the manifest's fourth column) says what it must give:
//! `output` the values of `CASE.out`, `error` a failure matching the
//! regular expression in `pN.cK.ENTRY.err`, `none` just a successful run,
//! and `like:PROG` the results of the bundle's program `PROG` on the same
//! input, run here once per input (`futmlir explore`'s reference on the
//! device: Note [Explore bundles] in driver/src/explore/mod.rs).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futmlir_values::{compare_values, read_values, write_binary_values, Value};

/// The cases of a bundle that passed, failed and were skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// How [`check_bundle`] runs a bundle.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Print every case, not only the failing ones.
    pub verbose: bool,
    /// Cases run at once (each in its own process).
    pub jobs: usize,
    /// `Some((i, n))`: run only the cases whose manifest line number `l`
    /// (from 0) has `l % n == i`, so that `n` calls share a bundle.
    pub shard: Option<(usize, usize)>,
    /// A case still running after this long is killed and fails.
    pub timeout: Duration,
    /// Time each case: `Some(n)` runs its entry point `n` times in one
    /// process, after a warm-up run that is not counted, with the
    /// runtime's own timing (`-r`, `-t`; see [`check_bundle_timed`]).
    pub runs: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            verbose: false,
            jobs: 1,
            shard: None,
            timeout: Duration::from_secs(120),
            runs: None,
        }
    }
}

/// Runs the cases of the bundle in `dir` (those of `opts.shard`), printing
/// to `out` one line per failing case as it fails (every case with
/// `verbose`) and then the totals; `Err`: the bundle cannot be read (no
/// manifest, a malformed line). With `jobs > 1` the lines come in the
/// order the cases finish. See Note [Checking a bundle on the device].
pub fn check_bundle(dir: &Path, opts: &Options, out: &mut (dyn Write + Send)) -> Result<Summary, String> {
    check_bundle_timed(dir, opts, out).map(|(sum, _)| sum)
}

/// What became of one case of the manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseRecord {
    /// Its manifest line (from 0).
    pub line: usize,
    pub prog: String,
    pub entry: String,
    pub case: String,
    /// `ok`, `skipped`, or `failed: ` and the first line of why.
    pub status: String,
    /// With [`Options::runs`], each counted run's time in microseconds
    /// (empty for a case that did not run, or when not timed).
    pub runtimes: Vec<f64>,
}

impl CaseRecord {
    /// The record as a line of `--times FILE`: prog, entry, case,
    /// status and the runtimes (space-separated), tab-separated.
    pub fn tsv_line(&self) -> String {
        let times: Vec<String> = self.runtimes.iter().map(|t| t.to_string()).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.prog,
            self.entry,
            self.case,
            self.status.replace(['\t', '\n'], " "),
            times.join(" ")
        )
    }
}

/// [`check_bundle`], also returning a record of every case run (in
/// manifest order), with its runtimes when [`Options::runs`] asks for
/// them (`futmlir explore`'s bundles; Note [Timing in a bundle]).
pub fn check_bundle_timed(
    dir: &Path,
    opts: &Options,
    out: &mut (dyn Write + Send),
) -> Result<(Summary, Vec<CaseRecord>), String> {
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .map_err(|e| format!("cannot read {}/manifest.tsv: {e}", dir.display()))?;
    let mut lines = Vec::new();
    for (l, line) in manifest.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let [prog, entry, case, kind, what] = f[..] else {
            return Err(format!("malformed manifest line: {line}"));
        };
        if opts.shard.is_none_or(|(i, n)| l % n == i) {
            lines.push((l, [prog, entry, case, kind, what]));
        }
    }
    let references = References::default();
    let next = AtomicUsize::new(0);
    let state = Mutex::new((Summary::default(), Vec::new(), out));
    // Each case ends here: counted, recorded, and its line (if any)
    // written and flushed at once, so that a call cut short by the
    // device's time limit still shows what ran.
    let finish = |i: usize, outcome: Outcome, status: String, runtimes: Vec<f64>, line: Option<String>| {
        let (l, [prog, entry, case, ..]) = lines[i];
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        match outcome {
            Outcome::Passed => state.0.passed += 1,
            Outcome::Failed => state.0.failed += 1,
            Outcome::Skipped => state.0.skipped += 1,
        }
        state.1.push(CaseRecord {
            line: l,
            prog: prog.to_string(),
            entry: entry.to_string(),
            case: case.to_string(),
            status,
            runtimes,
        });
        if let Some(line) = line {
            let _ = writeln!(state.2, "{line}");
            let _ = state.2.flush();
        }
    };
    // A line on stderr every half minute, so that a long run shows how
    // far it got even when no case fails.
    let started = Instant::now();
    let last_progress = Mutex::new(Instant::now());
    let progress = || {
        let mut last = last_progress.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= Duration::from_secs(30) {
            *last = Instant::now();
            let state = state.lock().unwrap_or_else(|e| e.into_inner());
            let Summary {
                passed,
                failed,
                skipped,
            } = state.0;
            eprintln!(
                "futmlir-check: {} of {} cases done ({passed} passed, {failed} failed, {skipped} skipped) in {} s",
                passed + failed + skipped,
                lines.len(),
                started.elapsed().as_secs()
            );
        }
    };
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(_, [prog, entry, case, kind, what])) = lines.get(i) else {
            break;
        };
        match kind {
            "fail" => finish(
                i,
                Outcome::Failed,
                format!("failed: {what}"),
                Vec::new(),
                Some(what.to_string()),
            ),
            "skip" => finish(
                i,
                Outcome::Skipped,
                "skipped".to_string(),
                Vec::new(),
                opts.verbose.then(|| format!("{what} (skipped)")),
            ),
            _ => match run_case(dir, prog, entry, case, kind, opts, &references) {
                Ok(runtimes) => finish(
                    i,
                    Outcome::Passed,
                    "ok".to_string(),
                    runtimes,
                    opts.verbose.then(|| format!("{what}: entry {entry}: ok")),
                ),
                Err(e) => finish(
                    i,
                    Outcome::Failed,
                    format!("failed: {}", e.lines().next().unwrap_or("")),
                    Vec::new(),
                    Some(format!("{what}: entry {entry}: {}", e.replace('\n', "\n  "))),
                ),
            },
        }
        progress();
    };
    std::thread::scope(|s| {
        for _ in 1..opts.jobs.max(1) {
            s.spawn(work);
        }
        work();
    });
    let (sum, mut records, out) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(
        out,
        "{} passed, {} failed, {} skipped",
        sum.passed, sum.failed, sum.skipped
    );
    records.sort_by_key(|r| r.line);
    Ok((sum, records))
}

// Note [Timing in a bundle]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// `futmlir explore --target=cuda --bundle DIR` builds every ordering for
// a GPU machine, which has no Rust and no futmlir: the orderings must be
// timed there, and the times brought back. `--runs N` makes each case's
// run the timed one, as `futmlir bench` runs an executable: `-r N+1 -t
// FILE` (the runtime times the entry point's call and the wait for the
// device, not reading the input), the first run a warm-up that is not
// counted, the results of the last run checked as usual. `--times FILE`
// writes one line per case (`CaseRecord::tsv_line`), which `futmlir
// explore --report DIR FILE` reads back into the table.

// Note [Checking a bundle on the device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A bundle is run on a GPU machine that is lent for minutes at a time,
// with a limit per command. Each case is a process of its own, and a CUDA
// process spends about half a second starting its context, so a bundle
// of thousands of cases is dominated by start-up: `-j N` runs N cases at
// once (the GPU time-slices their contexts). `--shard i/n` splits a bundle
// between calls without copying it. A case is killed after `--timeout`
// seconds, so that one hung kernel cannot eat the call, and every line is
// printed when its case ends, so a call cut short still tells what ran.

enum Outcome {
    Passed,
    Failed,
    Skipped,
}

/// Runs entry point `entry` of executable `prog` of the bundle on `input`
/// (binary values): its exit status, stdout and stderr. Killed after
/// `timeout`.
fn run_exe(
    dir: &Path,
    prog: &str,
    entry: &str,
    input: &[u8],
    timeout: Duration,
    timing: Option<(usize, &Path)>,
) -> Result<std::process::Output, String> {
    let exe = dir.join(prog);
    let mut command = Command::new(&exe);
    command.args(["-e", entry, "-b"]);
    if let Some((runs, file)) = timing {
        command.arg("-r").arg(runs.to_string()).arg("-t").arg(file);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let (Some(mut stdin), Some(mut stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(format!("cannot run {}: no pipes", exe.display()));
    };
    let started = Instant::now();
    std::thread::scope(|s| {
        // A program may fail before it reads its input: a broken pipe here
        // is not the error to report.
        s.spawn(move || {
            let _ = stdin.write_all(input);
        });
        let out = s.spawn(move || {
            let mut v = Vec::new();
            let _ = stdout.read_to_end(&mut v);
            v
        });
        let err = s.spawn(move || {
            let mut v = Vec::new();
            let _ = stderr.read_to_end(&mut v);
            v
        });
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if started.elapsed() > timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(format!("timed out after {} s", timeout.as_secs()));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => break Err(format!("cannot run {}: {e}", exe.display())),
            }
        }?;
        Ok(std::process::Output {
            status,
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
        })
    })
}

/// The input of case `case`: its values, or its script's value with the
/// entry points it applies run by `prog`.
fn case_input(dir: &Path, prog: &str, case: &str, timeout: Duration) -> Result<Vec<u8>, String> {
    let random = dir.join(format!("{case}.random"));
    if random.exists() {
        let text = std::fs::read_to_string(&random).map_err(|e| format!("cannot read {}: {e}", random.display()))?;
        return random_input(&text).map(|args| write_binary_values(&args));
    }
    let script = dir.join(format!("{case}.script"));
    if !script.exists() {
        return std::fs::read(dir.join(format!("{case}.in"))).map_err(|e| format!("no input: {e}"));
    }
    let src = std::fs::read_to_string(&script).map_err(|e| format!("cannot read {}: {e}", script.display()))?;
    let files = futmlir_script::files_named(&src).map_err(|e| format!("bad script input: {e}"))?;
    let load = |name: &str| {
        let j = files
            .iter()
            .position(|f| f == name)
            .ok_or_else(|| format!("the bundle has no file `{name}`"))?;
        let path = dir.join(format!("{case}.file{j}"));
        std::fs::read(&path).map_err(|e| format!("cannot read {} (`{name}`): {e}", path.display()))
    };
    let call = |f: &str, args: Vec<Value>| -> Result<Vec<Value>, String> {
        let out = run_exe(dir, prog, f, &write_binary_values(&args), timeout, None)?;
        if !out.status.success() {
            return Err(format!(
                "script input: entry point `{f}`: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        read_values(&out.stdout).map_err(|e| format!("script input: entry point `{f}`: malformed results: {e}"))
    };
    let args = futmlir_script::script_input(&src, call, load).map_err(|e| format!("bad script input: {e}"))?;
    Ok(write_binary_values(&args))
}

/// A temporary file for a case's runtimes (removed when dropped).
struct TimesFile(std::path::PathBuf);

impl Drop for TimesFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs a case and checks its results; `Ok`: the counted runtimes (µs)
/// when `opts.runs` asks for them (Note [Timing in a bundle]).
/// The values of a `random input` drawn here from a `.random` file: the
/// seed on the first line, then one type a line (`[100]f32`), drawn as
/// `futmlir test` and `bench` draw them (one generator seeded with the
/// case's line, default bounds), so that a bundle of big random
/// datasets stays small (`futmlir explore` writes them).
pub fn random_input(text: &str) -> Result<Vec<Value>, String> {
    let mut lines = text.lines();
    let seed = lines
        .next()
        .and_then(|l| l.trim().parse::<u64>().ok())
        .ok_or("malformed random input: no seed on its first line")?;
    let mut rng = futmlir_values::Rng::new(seed);
    let bounds = futmlir_values::Bounds::default();
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|spec| {
            futmlir_values::generate(spec.trim(), &mut rng, &bounds)
                .map_err(|e| format!("bad random input `{spec}`: {e}"))
        })
        .collect()
}

/// The results of the `like:PROG` references, by program and case: each
/// computed by the first case that needs it (its stdout, or why it
/// failed), while the other threads wait for it.
type Reference = Arc<OnceLock<Result<Vec<u8>, String>>>;

#[derive(Default)]
struct References(Mutex<HashMap<(String, String), Reference>>);

impl References {
    /// The binary values program `reference` gives for `case`.
    fn results(
        &self,
        dir: &Path,
        reference: &str,
        entry: &str,
        case: &str,
        input: &[u8],
        timeout: Duration,
    ) -> Result<Vec<u8>, String> {
        let cell = {
            let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
            map.entry((reference.to_string(), case.to_string()))
                .or_default()
                .clone()
        };
        cell.get_or_init(|| {
            let out = run_exe(dir, reference, entry, input, timeout, None)
                .map_err(|e| format!("the reference {reference}: {e}"))?;
            if out.status.success() {
                Ok(out.stdout)
            } else {
                let stderr = String::from_utf8_lossy(&out.stderr);
                Err(format!("the reference {reference} fails: {}", stderr.trim()))
            }
        })
        .clone()
    }
}

fn run_case(
    dir: &Path,
    prog: &str,
    entry: &str,
    case: &str,
    kind: &str,
    opts: &Options,
    references: &References,
) -> Result<Vec<f64>, String> {
    let timeout = opts.timeout;
    let input = case_input(dir, prog, case, timeout)?;
    let expected = match kind.strip_prefix("like:") {
        Some(reference) => Some(references.results(dir, reference, entry, case, &input, timeout)?),
        None => None,
    };
    let times = opts.runs.filter(|_| kind != "error").map(|runs| {
        let file = std::env::temp_dir().join(format!("futmlir-check-{}-{prog}.{case}.times", std::process::id()));
        (runs, TimesFile(file))
    });
    let out = run_exe(
        dir,
        prog,
        entry,
        &input,
        timeout,
        times.as_ref().map(|(runs, f)| (runs + 1, f.0.as_path())),
    )?;
    check_results(dir, case, kind, expected.as_deref(), &out)?;
    let Some((runs, file)) = times else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(&file.0).map_err(|e| format!("cannot read the runtimes: {e}"))?;
    let mut runtimes: Vec<f64> = text
        .split_whitespace()
        .map(|t| t.parse().map_err(|_| format!("malformed runtime `{t}`")))
        .collect::<Result<_, _>>()?;
    if runtimes.len() != runs + 1 {
        return Err(format!("{} runtimes for {} runs", runtimes.len(), runs + 1));
    }
    runtimes.remove(0);
    Ok(runtimes)
}

/// Whether a run of a case did what the case expects (`reference`: the
/// results of a `like:PROG` case's program).
fn check_results(
    dir: &Path,
    case: &str,
    kind: &str,
    reference: Option<&[u8]>,
    out: &std::process::Output,
) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    match kind {
        "error" => {
            let re = std::fs::read_to_string(dir.join(format!("{case}.err"))).map_err(|e| e.to_string())?;
            let re = regex::Regex::new(&re).map_err(|e| format!("bad regular expression: {e}"))?;
            if out.status.success() {
                Err(format!(
                    "expected a run-time error matching `{re}`, but the run succeeded"
                ))
            } else if re.is_match(&stderr) {
                Ok(())
            } else {
                Err(format!("run-time error does not match `{re}`:\n{stderr}"))
            }
        }
        _ if !out.status.success() => Err(format!("run-time error: {stderr}")),
        "none" => Ok(()),
        _ => {
            let expected = match reference {
                Some(r) => r.to_vec(),
                None => std::fs::read(dir.join(format!("{case}.out"))).map_err(|e| e.to_string())?,
            };
            let expected = read_values(&expected).map_err(|e| format!("bad expected values: {e}"))?;
            let actual = read_values(&out.stdout).map_err(|e| format!("malformed results: {e}"))?;
            compare_values(&expected, &actual).map_err(|m| m.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_inputs_are_drawn_from_their_seed() {
        let a = random_input("7\n[3]i32\ni64\n").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a, random_input("7\n[3]i32\n\ni64").unwrap());
        assert_ne!(a, random_input("8\n[3]i32\ni64\n").unwrap());
        assert!(random_input("x\n[3]f32\n").unwrap_err().contains("no seed"));
        assert!(random_input("1\n[3]q32\n")
            .unwrap_err()
            .contains("bad random input `[3]q32`"));
    }
}
