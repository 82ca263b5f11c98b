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
    for sub in ["run", "build", "bench", "dataset"] {
        let out = futmlir().args([sub, "x.fut"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{sub}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("not implemented yet"), "{sub}: {err}");
    }
}

/// A fresh directory of Futhark programs for one test.
fn program_dir(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("futmlir-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (f, text) in files {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn test_without_specs_or_with_disabled_blocks_passes() {
    let dir = program_dir(
        "test-skip",
        &[
            ("plain.fut", "-- no test block here\nlet main (x: i32) = x\n"),
            (
                "sub/off.fut",
                "-- ==\n-- tags { disable }\n-- input { 1 } output { 1 }\n-- input { 2 } output { 2 }\nlet main (x: i32) = x\n",
            ),
            ("sub/only_no_interp.fut", "-- ==\n-- tags { no_interp }\n-- input { 1 }\nlet main (x: i32) = x\n"),
            ("notes.txt", "-- ==\n-- bogus\n"),
        ],
    );
    let out = futmlir().arg("test").arg(&dir).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout, "0 passed, 0 failed, 3 skipped\n");
    let out = futmlir()
        .arg("test")
        .arg("-v")
        .arg(dir.join("sub/off.fut"))
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("off.fut:3: entry main: skipped (tag disable)"),
        "{stdout}"
    );
    let out = futmlir()
        .args(["test", "--filter", "plain"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "0 passed, 0 failed, 0 skipped\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_reports_a_malformed_spec_as_a_failure() {
    let dir = program_dir(
        "test-bad-spec",
        &[("bad.fut", "let x = 1\n-- ==\n-- input { 1\nlet main = 1\n")],
    );
    let out = futmlir().arg("test").arg(&dir).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("bad.fut:3: malformed test spec: unclosed"), "{stdout}");
    assert!(stdout.ends_with("0 passed, 1 failed, 0 skipped\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_usage_errors_exit_2() {
    let out = futmlir().args(["test", "/nonexistent/dir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error: /nonexistent/dir: "), "{err}");
    for backend in ["cpu", "cuda"] {
        let out = futmlir()
            .args(["test", "--backend", backend, "x.fut"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{backend}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(&format!("backend {backend} is not available yet")),
            "{err}"
        );
    }
    let out = futmlir().args(["test", "--backend=opencl", "x.fut"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = futmlir().args(["test", "--filter", "(", "x.fut"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("bad --filter"));
    let out = futmlir().arg("test").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
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
