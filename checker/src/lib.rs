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

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use futmlir_values::{compare_values, read_values, write_binary_values, Value};

/// The cases of a bundle that passed, failed and were skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// Runs every case of the bundle in `dir`, printing to `out` one line per
/// failing case (every case with `verbose`) and then the totals; `Err`:
/// the bundle cannot be read (no manifest, a malformed line).
pub fn check_bundle(dir: &Path, verbose: bool, out: &mut dyn Write) -> Result<Summary, String> {
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv"))
        .map_err(|e| format!("cannot read {}/manifest.tsv: {e}", dir.display()))?;
    let mut sum = Summary::default();
    for line in manifest.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [prog, entry, case, kind, what] = f[..] else {
            return Err(format!("malformed manifest line: {line}"));
        };
        if kind == "fail" {
            sum.failed += 1;
            let _ = writeln!(out, "{what}");
            continue;
        }
        if kind == "skip" {
            sum.skipped += 1;
            if verbose {
                let _ = writeln!(out, "{what} (skipped)");
            }
            continue;
        }
        match run_case(dir, prog, entry, case, kind) {
            Ok(()) => {
                sum.passed += 1;
                if verbose {
                    let _ = writeln!(out, "{what}: entry {entry}: ok");
                }
            }
            Err(e) => {
                sum.failed += 1;
                let _ = writeln!(out, "{what}: entry {entry}: {}", e.replace('\n', "\n  "));
            }
        }
    }
    let _ = writeln!(
        out,
        "{} passed, {} failed, {} skipped",
        sum.passed, sum.failed, sum.skipped
    );
    Ok(sum)
}

/// Runs entry point `entry` of executable `prog` of the bundle on `input`
/// (binary values): its exit status, stdout and stderr.
fn run_exe(dir: &Path, prog: &str, entry: &str, input: &[u8]) -> Result<std::process::Output, String> {
    let exe = dir.join(prog);
    let mut child = Command::new(&exe)
        .args(["-e", entry, "-b"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    // A program may fail before it reads its input: a broken pipe here is
    // not the error to report.
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    child
        .wait_with_output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))
}

/// The input of case `case`: its values, or its script's value with the
/// entry points it applies run by `prog`.
fn case_input(dir: &Path, prog: &str, case: &str) -> Result<Vec<u8>, String> {
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
        let out = run_exe(dir, prog, f, &write_binary_values(&args))?;
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

fn run_case(dir: &Path, prog: &str, entry: &str, case: &str, kind: &str) -> Result<(), String> {
    let input = case_input(dir, prog, case)?;
    let out = run_exe(dir, prog, entry, &input)?;
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
