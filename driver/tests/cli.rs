//! The futmlir binary end to end: version, stubs, instrumentation files.

use std::process::Command;

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

#[test]
fn version_names_the_linked_mlir_and_llvm() {
    let out = futmlir().arg("--version").output().unwrap();
    assert!(out.status.success());
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("LLVM 22."), "{s}");
    assert!(s.contains("MLIR 22."), "{s}");
    assert!(s.contains("self-check passed"), "{s}");
}

#[test]
fn pending_subcommands_say_so_and_fail() {
    for sub in ["run", "build", "test", "bench", "dataset"] {
        let out = futmlir().args([sub, "x.fut"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("not implemented yet"), "{sub}: {err}");
    }
}

#[test]
fn tree_dir_gets_one_numbered_file_per_pass() {
    let dir = std::env::temp_dir().join(format!("futmlir-tree-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let input = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/dot.mlir");
    let out = futmlir()
        .args(["opt", input, "--pass-pipeline=ir-cse,ir-dce", "--print-ir-tree-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, vec!["001_ir-cse.mlir", "002_ir-dce.mlir"]);
    let after_dce = std::fs::read_to_string(dir.join("002_ir-dce.mlir")).unwrap();
    assert_eq!(after_dce, String::from_utf8(out.stdout).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_a_diagnostic_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("futmlir-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.mlir");
    std::fs::write(&f, "\"soac.constant\"() : () ->\n").unwrap();
    let out = futmlir().arg("opt").arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("expected a type, found end of input"), "{err}");
    assert!(err.contains("bad.mlir:1:26"), "{err}");
    let out = futmlir().args(["opt", "/nonexistent/x.mlir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}
