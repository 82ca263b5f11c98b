//! Runs the cases of a bundle that `futmlir test --backend=cuda --bundle
//! DIR` (or `--backend=cpu`, to test the bundle machinery without a GPU)
//! wrote (see `driver/src/bundle.rs`), and compares the results as
//! `futmlir test` does (Futhark's float tolerance; error messages
//! against a regular expression). The binary `futmlir-check` is a thin
//! wrapper; the driver's tests call [`check_bundle`] directly.
//!
//! A case's input is `pN.cK.ENTRY.in` (values), or, for a `script input`,
//! `pN.cK.ENTRY.script`: the FutharkScript expression, evaluated here
//! (crate `futmlir-script`) with each entry point it applies run by the
//! program's executable, and the files its `$loaddata`/`$loadbytes`
//! name read from `pN.cK.ENTRY.fileJ` (J: the name's place among the
//! distinct names, `futmlir_script::files_named`).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            verbose: false,
            jobs: 1,
            shard: None,
            timeout: Duration::from_secs(120),
        }
    }
}

/// Runs the cases of the bundle in `dir` (those of `opts.shard`), printing
/// to `out` one line per failing case as it fails (every case with
/// `verbose`) and then the totals; `Err`: the bundle cannot be read (no
/// manifest, a malformed line). With `jobs > 1` the lines come in the
/// order the cases finish. See Note [Checking a bundle on the device].
pub fn check_bundle(dir: &Path, opts: &Options, out: &mut (dyn Write + Send)) -> Result<Summary, String> {
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .map_err(|e| format!("cannot read {}/manifest.tsv: {e}", dir.display()))?;
    let mut cases = Vec::new();
    for (l, line) in manifest.lines().enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        let [prog, entry, case, kind, what] = f[..] else {
            return Err(format!("malformed manifest line: {line}"));
        };
        if opts.shard.is_none_or(|(i, n)| l % n == i) {
            cases.push([prog, entry, case, kind, what]);
        }
    }
    let next = AtomicUsize::new(0);
    let state = Mutex::new((Summary::default(), out));
    // One line per case, written and flushed as the case ends, so that a
    // call cut short by the device's time limit still shows what ran.
    let report = |outcome: Outcome, line: Option<String>| {
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        match outcome {
            Outcome::Passed => state.0.passed += 1,
            Outcome::Failed => state.0.failed += 1,
            Outcome::Skipped => state.0.skipped += 1,
        }
        if let Some(line) = line {
            let _ = writeln!(state.1, "{line}");
            let _ = state.1.flush();
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
                cases.len(),
                started.elapsed().as_secs()
            );
        }
    };
    let work = || {
        while let Some(&[prog, entry, case, kind, what]) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
            match kind {
                "fail" => report(Outcome::Failed, Some(what.to_string())),
                "skip" => report(Outcome::Skipped, opts.verbose.then(|| format!("{what} (skipped)"))),
                _ => match run_case(dir, prog, entry, case, kind, opts.timeout) {
                    Ok(()) => report(
                        Outcome::Passed,
                        opts.verbose.then(|| format!("{what}: entry {entry}: ok")),
                    ),
                    Err(e) => report(
                        Outcome::Failed,
                        Some(format!("{what}: entry {entry}: {}", e.replace('\n', "\n  "))),
                    ),
                },
            }
            progress();
        }
    };
    std::thread::scope(|s| {
        for _ in 1..opts.jobs.max(1) {
            s.spawn(work);
        }
        work();
    });
    let (sum, out) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(
        out,
        "{} passed, {} failed, {} skipped",
        sum.passed, sum.failed, sum.skipped
    );
    Ok(sum)
}

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
) -> Result<std::process::Output, String> {
    let exe = dir.join(prog);
    let mut child = Command::new(&exe)
        .args(["-e", entry, "-b"])
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
        let out = run_exe(dir, prog, f, &write_binary_values(&args), timeout)?;
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

fn run_case(dir: &Path, prog: &str, entry: &str, case: &str, kind: &str, timeout: Duration) -> Result<(), String> {
    let input = case_input(dir, prog, case, timeout)?;
    let out = run_exe(dir, prog, entry, &input, timeout)?;
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
            let expected = std::fs::read(dir.join(format!("{case}.out"))).map_err(|e| e.to_string())?;
            let expected = read_values(&expected).map_err(|e| format!("bad expected values: {e}"))?;
            let actual = read_values(&out.stdout).map_err(|e| format!("malformed results: {e}"))?;
            compare_values(&expected, &actual).map_err(|m| m.to_string())
        }
    }
}
