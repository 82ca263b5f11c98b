//! The Futhark program suite: `futmlir test tests/programs` must pass every
//! case, interpreted and compiled for the CPU.

use std::process::Command;

#[test]
fn program_suite_passes_in_the_interpreter() {
    suite("interp", 400);
}

/// Every program built into an executable for the CPU (cases with a
/// feature the compiled backends lack are counted as skipped, with the
/// reason, and must stay few).
#[test]
fn program_suite_passes_compiled_for_the_cpu() {
    suite("cpu", 700);
}

fn suite(backend: &str, at_least: usize) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", &format!("--backend={backend}")])
        .arg(&root)
        .output()
        .expect("run futmlir test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stdout.lines().last().unwrap_or("");
    println!("{summary}");
    assert!(out.status.success(), "futmlir test failed:\n{stdout}\n{stderr}");
    // Guard against a silently empty run.
    let passed: usize = summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(passed >= at_least, "only {passed} cases ran: {summary}");
}
