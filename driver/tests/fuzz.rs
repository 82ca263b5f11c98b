//! A bounded, fixed-seed run of `futmlir fuzz` (random programs, the
//! interpreter against the CPU backend): any disagreement, crash, or
//! program the interpreter rejects fails the test, with the reproducers
//! named in the output. Longer runs are by hand (README, "Fuzzing").

use std::process::Command;

#[test]
fn fuzz_fixed_seed_agrees_with_the_interpreter() {
    let out_dir = std::env::temp_dir().join(format!("futmlir-fuzz-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    // 100 programs of 3 entry points, 2 argument sets each: about 600
    // cases, each program compiled once (about a minute in a debug build).
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args([
            "fuzz",
            "--seed",
            "1",
            "--count",
            "100",
            "--backend",
            "cpu",
            "--shrink",
            "20",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .expect("run futmlir fuzz");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    let mut repros = String::new();
    if let Ok(rd) = std::fs::read_dir(&out_dir) {
        for e in rd.flatten() {
            repros.push_str(&std::fs::read_to_string(e.path()).unwrap_or_default());
            repros.push('\n');
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(
        out.status.success(),
        "futmlir fuzz found disagreements:\n{stdout}\n{stderr}\n{repros}"
    );
    assert!(stdout.contains("100 programs"), "{stdout}");
}
