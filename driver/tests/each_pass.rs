//! `futmlir test --each-pass` on a slice of the test programs (memory
//! blocks, an in-place row update, loops that carry arrays): every
//! case passes at every position of the CPU pipeline (Note [Checking
//! each pass] in driver/src/each_pass.rs). CI runs this slice; the
//! whole of `tests/programs` takes 44 minutes in a release build and is
//! run in sessions (2026-11-27: 1,334 cases at each of the 18 positions,
//! none failed). A pass
//! that miscompiles is convicted in driver/tests/plugins.rs.

use std::path::Path;
use std::process::Command;

#[test]
fn every_position_of_the_cpu_pipeline_keeps_the_results() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", "--backend=cpu", "--each-pass"])
        .arg("--filter=memory/|inplace/row_update|loops/(carried_arrays|growing|in_map)")
        .arg(root.join("memory"))
        .arg(root.join("inplace"))
        .arg(root.join("loops"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("position"))
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    // Every pass above imp is a position, from the input to imp-free-early.
    assert!(rows.len() >= 15, "{stdout}");
    assert_eq!(rows[0][..2], ["k0", "input"], "{stdout}");
    for pass in [
        "soac-to-segop",
        "segop-to-mem",
        "mem-reuse",
        "segop-to-imp",
        "imp-carried-memory",
        "imp-free-early",
    ] {
        assert!(rows.iter().any(|r| r[1] == pass), "no position for {pass}:\n{stdout}");
    }
    let passed: Vec<usize> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert!(passed[0] >= 8, "{stdout}");
    assert!(passed.iter().all(|&p| p == passed[0]), "{stdout}");
    assert!(rows.iter().all(|r| r[4] == "0"), "{stdout}");
}
