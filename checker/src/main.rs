//! `futmlir-check DIR [-v]`: runs the cases of a bundle that `futmlir test
//! --backend=cuda --bundle DIR` wrote (see `driver/src/bundle.rs`) and
//! compares the results as `futmlir test` does (Futhark's float
//! tolerance; error messages against a regular expression). Prints one
//! line per failing case (every case with `-v`), then `N passed, N
//! failed, N skipped`; exits 1 if a case failed.

use std::io::Write;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use futmlir_values::{compare_values, read_values};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let Some(dir) = args.iter().find(|a| !a.starts_with('-')) else {
        eprintln!("usage: futmlir-check DIR [-v]");
        return ExitCode::from(2);
    };
    let dir = Path::new(dir);
    let manifest = match std::fs::read_to_string(dir.join("manifest.tsv")) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: cannot read {}/manifest.tsv: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for line in manifest.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [prog, entry, case, kind, what] = f[..] else {
            eprintln!("error: malformed manifest line: {line}");
            return ExitCode::from(2);
        };
        if kind == "fail" {
            failed += 1;
            println!("{what}");
            continue;
        }
        if kind == "skip" {
            skipped += 1;
            if verbose {
                println!("{what} (skipped)");
            }
            continue;
        }
        match run_case(dir, prog, entry, case, kind) {
            Ok(()) => {
                passed += 1;
                if verbose {
                    println!("{what}: entry {entry}: ok");
                }
            }
            Err(e) => {
                failed += 1;
                println!("{what}: entry {entry}: {}", e.replace('\n', "\n  "));
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn run_case(dir: &Path, prog: &str, entry: &str, case: &str, kind: &str) -> Result<(), String> {
    let input = std::fs::read(dir.join(format!("{case}.in"))).map_err(|e| format!("no input: {e}"))?;
    let exe = dir.join(prog);
    let mut child = Command::new(&exe)
        .args(["-e", entry, "-b"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(&input);
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
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
