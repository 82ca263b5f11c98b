//! The Futhark program suite: `futmlir test --backend=interp tests/programs`
//! must pass every case.

use std::process::Command;

#[test]
fn program_suite_passes_in_the_interpreter() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", "--backend=interp"])
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
    assert!(passed >= 400, "only {passed} cases ran: {summary}");
}
