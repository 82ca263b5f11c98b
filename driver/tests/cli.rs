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

/// A fresh directory of Futhark programs for one test, removed when the
/// test ends (also when it fails).
fn program_dir(name: &str, files: &[(&str, &str)]) -> ProgramDir {
    let dir = std::env::temp_dir().join(format!("futmlir-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (f, text) in files {
        let p = dir.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    ProgramDir(dir)
}

struct ProgramDir(std::path::PathBuf);

impl std::ops::Deref for ProgramDir {
    type Target = std::path::PathBuf;
    fn deref(&self) -> &std::path::PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for ProgramDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for ProgramDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for ProgramDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
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
fn test_checks_structure_blocks() {
    // After fusion the map and the reduce are one redomap.
    let src = "-- ==\n-- structure { Screma 1 /Redomap 1 Reduce 1 }\n-- structure { Screma one }\n\
               def main (xs: []i32): i32 = reduce (+) 0 (map (* 2) xs)\n";
    let dir = program_dir("test-structure", &[("s.fut", src)]);
    let out = futmlir().arg("test").arg(&dir).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("s.fut:2: structure: expected 1 Reduce, found 0"),
        "{stdout}"
    );
    assert!(
        stdout.contains("s.fut:3: malformed structure block: expected a count after `Screma`, found `one`"),
        "{stdout}"
    );
    assert!(stdout.ends_with("0 passed, 2 failed, 0 skipped\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_usage_errors_exit_2() {
    let out = futmlir().args(["test", "/nonexistent/dir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("error: /nonexistent/dir: "), "{err}");
    let out = futmlir().args(["test", "--backend", "cuda", "x.fut"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("x.fut"), "{err}");
    let out = futmlir().args(["test", "--backend=opencl", "x.fut"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = futmlir().args(["test", "--filter", "(", "x.fut"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("bad --filter"));
    let out = futmlir().arg("test").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

// `futmlir bench`'s own tests are in bench_tool.rs.

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
fn opt_emits_a_program_at_the_level_asked_for() {
    let dir = program_dir("emit", &[("prog.fut", "entry main (xs: []i32) = map (+ 1) xs\n")]);
    let prog = dir.join("prog.fut");
    let emit = |level: Option<&str>| {
        let mut cmd = futmlir();
        cmd.arg("opt").arg(&prog);
        if let Some(l) = level {
            cmd.arg(format!("--emit={l}"));
        }
        cmd.output().unwrap()
    };
    let out = emit(Some("source"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("source.func() {sym_name = \"main\""), "{text}");
    assert!(text.contains("source.soac_call("), "{text}");
    assert!(!text.contains("soac.map"), "{text}");
    // The default is the soac level.
    for level in [None, Some("soac")] {
        let out = emit(level);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("soac.map("), "{level:?}: {text}");
        assert!(!text.contains("source."), "{level:?}: {text}");
    }
    let out = emit(Some("segop"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("invalid value 'segop' for '--emit <LEVEL>'"), "{err}");
    assert!(err.contains("[possible values: source, soac]"), "{err}");
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

fn dataset(args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = futmlir()
        .arg("dataset")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn dataset_generates_values() {
    let out = dataset(&["-g", "[3][2]i32", "-g", "f64", "-g", "[0][2]bool", "-s", "7"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("[[") && lines[0].ends_with("i32]]"), "{text}");
    assert!(lines[1].ends_with("f64"), "{text}");
    assert_eq!(lines[2], "empty([0][2]bool)");
    // Same seed, same values; another seed, others.
    let again = dataset(&["-g", "[3][2]i32", "-g", "f64", "-g", "[0][2]bool", "-s", "7"], b"");
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    let other = dataset(&["-g", "[3][2]i32", "-g", "f64", "-g", "[0][2]bool", "-s", "8"], b"");
    assert_ne!(String::from_utf8(other.stdout).unwrap(), text);
}

#[test]
fn dataset_bounds_and_binary() {
    // Bounds apply to the `-g`s after them.
    let out = dataset(
        &[
            "--i8-bounds=-3:-2",
            "-g",
            "[100]i8",
            "--f32-bounds",
            "-1:-0.5",
            "-g",
            "[50]f32",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    for x in first.trim_matches(['[', ']']).split(", ") {
        assert!(x == "-3i8" || x == "-2i8", "{x}");
    }
    for x in text.lines().nth(1).unwrap().trim_matches(['[', ']']).split(", ") {
        let v: f32 = x.strip_suffix("f32").unwrap().parse().unwrap();
        assert!((-1.0..=-0.5).contains(&v), "{x}");
    }
    // Binary: header bytes, and converting back to text gives the same values.
    let bin = dataset(
        &[
            "-b",
            "--i8-bounds=-3:-2",
            "-g",
            "[100]i8",
            "--f32-bounds",
            "-1:-0.5",
            "-g",
            "[50]f32",
        ],
        b"",
    );
    assert!(bin.status.success());
    assert_eq!(&bin.stdout[..7], b"b\x02\x01  i8");
    assert_eq!(bin.stdout.len(), 7 + 8 + 100 + 7 + 8 + 200);
    let back = dataset(&[], &bin.stdout);
    assert!(back.status.success(), "{}", String::from_utf8_lossy(&back.stderr));
    assert_eq!(String::from_utf8(back.stdout).unwrap(), text);
    // Text to binary.
    let conv = dataset(&["-b"], b"1i32 -- one\n[true]");
    assert_eq!(
        conv.stdout,
        b"b\x02\x00 i32\x01\x00\x00\x00b\x02\x01bool\x01\x00\x00\x00\x00\x00\x00\x00\x01"
    );
}

#[test]
fn dataset_errors_exit_1() {
    for (args, msg) in [
        (&["-g", "[n]f32"][..], "dimension `n` is not a number"),
        (&["-g", "[3]f33"][..], "unknown element type `f33`"),
        (&["-g", "i32", "--i32-bounds=5:1"][..], "empty bounds 5:1 for i32"),
        (&["-g", "u8", "--u8-bounds=0:256"][..], "256 is outside the range of u8"),
        (&["-g", "[4294967296][4294967296][4]i32"][..], "too many elements"),
    ] {
        let out = dataset(args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let out = dataset(&[], b"[1i32, 2f32]");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("<stdin>:1:8: array elements have different types: i32 and f32"),
        "{err}"
    );
    let out = dataset(&[], b"b\x02\x01 i32\xff\xff\xff\xff\xff\xff\xff\xff");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("truncated"));
}

fn run_prog(name: &str, src: &str, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    let dir = program_dir(name, &[("p.fut", src)]);
    let mut child = futmlir()
        .arg("run")
        .arg(dir.join("p.fut"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn run_interprets_an_entry_point() {
    let src =
        "def main (xs: []i32) (k: i32): (i32, []i32) = (i32.sum xs, map (* k) xs)\nentry other (x: f32) = x / 0\n";
    let out = run_prog("run_ok", src, &[], b"[1, 2, 3] 2");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "6i32\n[2i32, 4i32, 6i32]\n");
    let out = run_prog("run_entry", src, &["-e", "other"], b"1f32");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "f32.inf\n");
    // Binary output: `b`, version 2, rank 0, type " i32", 6.
    let out = run_prog("run_bin", src, &["-b"], b"[1, 2, 3] 2");
    assert_eq!(&out.stdout[..12], b"b\x02\x00 i32\x06\x00\x00\x00b");
    let out = run_prog("run_cost", src, &["--cost"], b"[1, 2, 3] 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("work: ") && err.contains("span: "), "{err}");
}

#[test]
fn run_prints_traces_on_stderr() {
    let src = "def main (xs: []i32) =\n  let ys = map (\\x -> trace (x * 2)) xs\n  in (trace (ys, {a = true})).0\n";
    let out = run_prog("run_trace", src, &[], b"[1, 2]");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[2i32, 4i32]\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let traces: Vec<&str> = err
        .lines()
        .map(|l| l.split_once("p.fut:").map_or(l, |(_, r)| r))
        .collect();
    assert_eq!(
        traces,
        // Futhark's locations: the end column is just past the span.
        ["2:23-36: 2i32", "2:23-36: 4i32", "3:6-30: ([2i32, 4i32], {a = true})"],
        "{err}"
    );
    assert!(err.lines().all(|l| l.starts_with("Trace at ")), "{err}");
}

#[test]
fn run_prints_opaque_results_as_futhark_run_does() {
    let src = "type opt 'a = #some a | #none\n\
               entry main (x: i32): (opt i32, i32) = (if x > 0 then #some x else #none, x)\n\
               entry many (x: i32): [2]{a: opt (opt bool), b: (f32, #e)} =\n  \
               [{a = #some (#some true), b = (1, #e)}, {a = #none, b = (f32.i32 x, #e)}]\n";
    let out = run_prog("run_sum", src, &[], b"3");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "#some 3i32\n3i32\n");
    let out = run_prog("run_sum_none", src, &[], b"-3");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "#none\n-3i32\n");
    let out = run_prog("run_sum_nested", src, &["-e", "many"], b"2");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[{a = #some (#some true), b = (1.0f32, #e)}, {a = #none, b = (2.0f32, #e)}]\n"
    );
    // The binary format has no form for them.
    let out = run_prog("run_sum_bin", src, &["-b"], b"3");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("opaque"));
}

#[test]
fn run_errors_exit_1_with_a_location() {
    let src = "def main (xs: []i32) (i: i64): i32 = xs[i]\n";
    let out = run_prog("run_oob", src, &[], b"[1, 2, 3] 7i64");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("Error: Index [7] out of bounds for array of shape [3]. (") && err.contains("p.fut:1:38)"),
        "{err}"
    );
    // Wrong input type, malformed input, unknown entry, type error.
    for (stdin, args, want) in [
        (&b"[1.0, 2.0] 1i64"[..], &[][..], "expected"),
        (b"[1, 2", &[], "invalid input"),
        (b"[1] 0i64", &["-e", "nope"], "no entry point"),
    ] {
        let out = run_prog("run_bad", src, args, stdin);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{want}: {err}");
    }
    let out = run_prog("run_type", "def main (x: i32): bool = x + 1\n", &[], b"1");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expected type `bool`, found `i32`"), "{err}");
}

/// `dir/prog.fut` built for the CPU as `dir/prog`.
fn build_cpu(dir: &std::path::Path) -> std::path::PathBuf {
    let exe = dir.join("prog");
    let out = futmlir()
        .args(["build", "--target=cpu", "-o"])
        .arg(&exe)
        .arg(dir.join("prog.fut"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// `futmlir build` makes an executable that follows Futhark's conventions:
/// values on stdin, results on stdout, `-e`, `-b`, `-r`/`-t`, and errors
/// (a failed bounds check, a wrong argument) with exit status 1.
#[test]
fn build_makes_an_executable_that_runs() {
    let dir = program_dir(
        "build_exe",
        &[(
            "prog.fut",
            "entry main (xs: []f32) (i: i64): (f32, []f32) = (reduce (+) 0 xs + xs[i], map (\\x -> x * 2 + 1) xs)\n\
             entry count (n: i64): i64 = i64.sum (map (\\i -> i % 3) (iota n))\n",
        )],
    );
    let exe = build_cpu(&dir);
    let run = |args: &[&str], input: &str| run_exe(&exe, args, input);
    let (code, out, _) = run(&[], "[1f32, 2f32, 3f32] 1i64");
    assert_eq!(code, Some(0));
    assert_eq!(out, "8.0f32\n[3.0f32, 5.0f32, 7.0f32]\n");
    let (code, out, _) = run(&["-e", "count"], "10i64");
    assert_eq!((code, out.as_str()), (Some(0), "9i64\n"));
    let timing = dir.join("times");
    let (code, _, _) = run(
        &["-e", "count", "-r", "3", "-n", "-t", timing.to_str().unwrap()],
        "1000i64",
    );
    assert_eq!(code, Some(0));
    assert_eq!(std::fs::read_to_string(&timing).unwrap().lines().count(), 3);
    let (code, _, err) = run(&[], "[1f32, 2f32] 5i64");
    assert_eq!(code, Some(1));
    assert!(err.contains("out of bounds"), "{err}");
    let (code, _, err) = run(&[], "[1, 2] 0i64");
    assert_eq!(code, Some(1));
    assert!(err.contains("argument 1"), "{err}");
}

/// Runs the executable `exe` with `args` and `input` on stdin: its exit
/// code, stdout and stderr.
fn run_exe(exe: &std::path::Path, args: &[&str], input: &str) -> (Option<i32>, String, String) {
    use std::io::Write;
    let mut child = Command::new(exe)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Each stage of the backend can be printed.
#[test]
fn build_emits_each_stage() {
    let dir = program_dir(
        "build_emit",
        &[("p.fut", "def main (xs: []i32): []i32 = scan (+) 0 xs\n")],
    );
    for (stage, marker) in [
        ("soac", "soac.scan"),
        ("segop", "segop.segscan"),
        ("mem", "mem.bind"),
        ("imp", "imp.for"),
        ("mlir", "scf.for"),
        ("llvm", "define"),
    ] {
        let out = futmlir()
            .args(["build", &format!("--emit={stage}")])
            .arg(dir.join("p.fut"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{stage}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(marker), "{stage}: no {marker} in\n{text}");
    }
}

/// `futmlir build --target=cuda --emit=ptx` of `dir/p.fut`.
fn cuda_ptx(dir: &std::path::Path) -> std::process::Output {
    futmlir()
        .args(["build", "--target=cuda", "--emit=ptx"])
        .arg(dir.join("p.fut"))
        .output()
        .unwrap()
}

/// `--target=cuda`: PTX for sm_90 with one kernel per parallel loop; the
/// executable links, and without a GPU it says so and exits 1.
#[test]
fn build_for_cuda() {
    let dir = program_dir(
        "build_cuda",
        &[(
            "p.fut",
            "def main (xs: []f32): f32 = reduce (+) 0 (map (\\x -> x * x) xs)\n",
        )],
    );
    let out = cuda_ptx(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ptx = String::from_utf8_lossy(&out.stdout);
    assert!(ptx.contains(".target sm_90"), "{ptx}");
    assert_eq!(ptx.matches(".entry k").count(), 2, "a reduction is two kernels:\n{ptx}");
    assert!(ptx.contains("bar.sync"), "{ptx}");
    let exe = dir.join("p");
    let out = futmlir()
        .args(["build", "--target=cuda", "-o"])
        .arg(&exe)
        .arg(dir.join("p.fut"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(&exe).stdin(std::process::Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    // Without a GPU (CI): a clear error. With one: no input is an error too.
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.starts_with("Error: "), "{err}");
}

/// Maths functions in kernels go to CUDA's libdevice, linked into the
/// PTX when it is found (scripts/fetch-ptxas.sh unpacks it into
/// target/ptxas); without it they are refused with a diagnostic saying
/// where to get it; a `FUTMLIR_LIBDEVICE` that names no file is an error.
#[test]
fn kernel_maths_uses_libdevice() {
    let dir = program_dir(
        "build_libdevice",
        &[(
            "p.fut",
            "def main (xs: []f32): []f32 = map (\\x -> f32.exp x + f32.hypot x 2 + f32.gamma x) xs\n",
        )],
    );
    let out = cuda_ptx(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.success() {
        let ptx = String::from_utf8_lossy(&out.stdout);
        assert!(!ptx.contains(".extern"), "libdevice was not linked in:\n{ptx}");
        assert!(ptx.contains("ex2.approx"), "no exp in\n{ptx}");
    } else {
        assert!(err.contains("needs CUDA's libdevice"), "{err}");
    }
    let out = futmlir()
        .env("FUTMLIR_LIBDEVICE", dir.join("missing.bc"))
        .args(["build", "--target=cuda", "--emit=ptx"])
        .arg(dir.join("p.fut"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("FUTMLIR_LIBDEVICE names") && err.contains("not a file"),
        "{err}"
    );
}

/// An array made by a GPU thread whose size a loop carries from one
/// iteration to the next has no host bound (Note [Size bounds]), so no
/// memory expansion: the thread allocates it itself (Note [Thread
/// allocations]) and frees it in the same loop body, while the arrays of
/// sizes the host knows stay expanded (allocated on the host).
#[test]
fn loop_carried_thread_sizes_are_thread_allocations_for_cuda() {
    let dir = program_dir(
        "build_carried_size",
        &[(
            "p.fut",
            "def main (ns: []i64) =\n  map (\\n -> (loop (m, acc) = (n, 0) for i < 3 do (m + 1, acc + i64.sum (scan (+) 0 (iota m)))).1) ns\n",
        )],
    );
    let out = futmlir()
        .args(["build", "--target=cuda", "--emit=imp"])
        .arg(dir.join("p.fut"))
        .output()
        .unwrap();
    let imp = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let kernel = imp
        .split("imp.kernel")
        .find(|k| k.contains("thread}"))
        .unwrap_or_else(|| panic!("no kernel allocates in its threads:\n{imp}"));
    let alloc = kernel
        .lines()
        .find(|l| l.contains("mem.alloc") && l.contains("thread}"))
        .expect("a thread allocation");
    let block = alloc.trim().split(' ').next().unwrap();
    assert!(
        kernel.contains(&format!("mem.free({block})")),
        "{block} is not freed in its kernel:\n{kernel}"
    );
}

/// Futhark's own tests that need GPU threads to allocate (a recursive
/// function making arrays in a kernel, a call in a kernel returning an
/// array, an array growing in a loop in a kernel) build for CUDA, with
/// the device `malloc` in their PTX, and ptxas accepts the PTX where
/// ptxas is found (`FUTMLIR_PTXAS`, or the copy scripts/fetch-ptxas.sh
/// unpacks into target/ptxas); the Futhark tests are in ../shared.
#[test]
fn futhark_tests_with_thread_allocations_build_for_cuda() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tests = root.join("../shared/futhark-tests");
    if !tests.is_dir() {
        println!("{} is missing: not checked", tests.display());
        return;
    }
    let ptxas = std::env::var_os("FUTMLIR_PTXAS")
        .map(std::path::PathBuf::from)
        .or_else(|| Some(root.join("target/ptxas/nvidia/cuda_nvcc/bin/ptxas")).filter(|p| p.is_file()));
    let dir = program_dir("thread_allocs_ptx", &[]);
    std::fs::create_dir_all(&dir).unwrap();
    // (program, whose device functions recurse)
    for (prog, recursive) in [
        ("higher-order-functions/recursion4.fut", true),
        ("quicksort.fut", true),
        ("shapes/lambda-return.fut", false),
    ] {
        let out = futmlir()
            .args(["build", "--target=cuda", "--emit=ptx"])
            .arg(tests.join(prog))
            .output()
            .unwrap();
        assert!(out.status.success(), "{prog}: {}", String::from_utf8_lossy(&out.stderr));
        let ptx = String::from_utf8_lossy(&out.stdout);
        assert!(
            ptx.contains("malloc") && ptx.contains("futrt_heap_bytes"),
            "{prog}:\n{ptx}"
        );
        assert_eq!(ptx.contains("futrt_recursive"), recursive, "{prog}");
        let Some(ptxas) = &ptxas else {
            println!("no ptxas: the PTX of {prog} is not checked");
            continue;
        };
        let file = dir.join("p.ptx");
        std::fs::write(&file, ptx.as_bytes()).unwrap();
        let out = Command::new(ptxas)
            .args(["-arch=sm_90", "-o", "/dev/null"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "ptxas rejects the PTX of {prog}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Executables list their tuning parameters (`--print-params`) and take
/// new values for them (`--param NAME=VALUE`); a bad name or value is an
/// error with exit 1.
#[test]
fn executables_take_tuning_parameters() {
    let dir = program_dir(
        "build_params",
        &[("p.fut", "def main (xs: []i32): i32 = reduce (+) 0 xs\n")],
    );
    let exe = dir.join("p");
    let out = futmlir()
        .arg("build")
        .arg("-o")
        .arg(&exe)
        .arg(dir.join("p.fut"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = |args: &[&str]| {
        let mut child = Command::new(&exe)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        // An executable that stops before reading its input (after
        // `--print-params`, or at a bad parameter) closes the pipe first.
        let _ = child.stdin.take().unwrap().write_all(b"[1, 2, 3]");
        child.wait_with_output().unwrap()
    };
    let out = run(&["--print-params"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    // Futhark's format: one `NAME (CLASS)` a line.
    assert_eq!(
        text,
        "reduce_groups (grid_size)\nsegred_group_min (threshold)\ntile_min_blocks (threshold)\n"
    );
    let out = run(&["--param", "reduce_groups=2"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "6i32");
    for (bad, says) in [("reduce_groups=0", "positive"), ("nope=1", "unknown parameter `nope`")] {
        let out = run(&["--param", bad]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(says), "{err}");
    }
}

/// An entry point returning a value of a sum type (or a record) prints
/// it as Futhark's executables do, `#<opaque TYPE>`, not its components
/// as if they were results, and refuses `-b` (no binary form); one taking
/// such a value is refused (exit 1, saying why: no value of it can be
/// read); the program's other entry points run.
#[test]
fn executables_print_opaque_results_and_refuse_opaque_parameters() {
    let dir = program_dir(
        "build_opaque",
        &[(
            "p.fut",
            "type opt = #some i32 | #none\n\
             entry wrap (x: i32): opt = if x > 0 then #some x else #none\n\
             entry unwrap (o: opt): i32 = match o case #some x -> x case #none -> 0\n\
             entry main (x: i32): i32 = unwrap (wrap x) + 1\n\
             entry both (x: i32): ([]i32, opt, i32) = ([x, x], wrap x, x + 1)\n",
        )],
    );
    let out = futmlir()
        .arg("build")
        .arg("-o")
        .arg(dir.join("p"))
        .arg(dir.join("p.fut"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let run = |args: &[&str]| {
        let mut child = std::process::Command::new(dir.join("p"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The executable may refuse the entry point and exit before it
        // reads its input: a broken pipe here is not a failure.
        let _ = std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"3");
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, err) = run(&["-e", "wrap"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(stdout, "#<opaque opt>\n");
    let (code, stdout, err) = run(&["-e", "wrap", "-b"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        err.contains("entry point wrap: a result is of the opaque type `opt`, which has no binary form (-b)"),
        "{err}"
    );
    let (code, _, err) = run(&["-e", "unwrap"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "entry point unwrap: a parameter is of the opaque type `opt`, whose values cannot be read from stdin"
        ),
        "{err}"
    );
    // Each result in its place among the others.
    let (code, stdout, err) = run(&["-e", "both"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(stdout, "[3i32, 3i32]\n#<opaque opt>\n4i32\n");
    let (code, stdout, err) = run(&["-e", "main"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(stdout.trim(), "4i32");
}

/// A loop that makes a new array each iteration holds two arrays at a
/// time, not one per iteration (Note [Carried blocks]): the executable's
/// `--memory-report` peak for 200 iterations over 10^5 f32 (400 KB each)
/// stays under 8 arrays, where keeping every iteration's would be 200.
#[test]
fn loops_free_the_arrays_they_carry() {
    let dir = program_dir(
        "carried_memory",
        &[(
            "prog.fut",
            "def main (n: i64) (xs: []f32): f32 =\n\
             \x20 let ys = loop xs for i < n do map (+1) (reverse xs)\n\
             \x20 let zs = loop zs = xs for i < n do if i % 2 == 0 then map (*2) zs else map (/2) zs\n\
             \x20 in ys[17] + zs[99999]\n",
        )],
    );
    let exe = build_cpu(&dir);
    let mut input = b"200i64 ".to_vec();
    input.extend(b"b\x02\x01 f32");
    input.extend(100_000u64.to_le_bytes());
    for _ in 0..100_000 {
        input.extend(1.0f32.to_le_bytes());
    }
    use std::io::Write;
    let mut child = Command::new(&exe)
        .arg("--memory-report")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // ys: 1 + 200 = 201 everywhere; zs: back to 1 after an even count.
    assert_eq!(String::from_utf8_lossy(&o.stdout), "202.0f32\n");
    let peak: usize = err
        .trim()
        .strip_prefix("Peak memory usage: ")
        .and_then(|s| s.strip_suffix(" bytes"))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no memory report in {err}"));
    assert!(peak < 8 * 400_000, "peak {peak} bytes");
}

/// A function called from host code and from a kernel has a host and a
/// device version in the imp IR of the CUDA target, under distinct
/// symbols: futmlir's verifier (which wants a module's symbols unique)
/// and upstream `mlir-opt` take `--emit=imp`'s output (in the generic
/// form, its dialects unregistered there).
#[test]
fn emit_imp_with_host_and_device_versions_is_valid_upstream_mlir() {
    let program =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs/calls/host_and_device_versions.fut");
    let out = futmlir()
        .args(["build", "--target=cuda", "--emit=imp"])
        .arg(&program)
        .output()
        .unwrap();
    let imp = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(imp.contains("sym_name = \"twice\""), "{imp}");
    assert!(imp.contains("sym_name = \"twice$device\""), "{imp}");
    assert!(imp.contains("{callee = @twice$device, device}"), "{imp}");

    let mut ctx = futmlir_dialects::context();
    let m = ctx
        .parse_str("imp", &imp)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(&ctx)));
    if let Err(ds) = ctx.verify(m) {
        panic!("{}", ds.iter().map(|d| d.to_plain(&ctx)).collect::<Vec<_>>().join("\n"));
    }
    let generic = ctx.print_op(m, futmlir_dialects::ir::PrintOptions::generic());
    let mlir_opt = "/usr/lib/llvm-22/bin/mlir-opt";
    assert!(
        std::path::Path::new(mlir_opt).exists(),
        "{mlir_opt} not found: run scripts/install-deps.sh (mlir-22-tools)"
    );
    let file = std::env::temp_dir().join(format!("futmlir-cli-imp-{}.mlir", std::process::id()));
    std::fs::write(&file, generic).unwrap();
    let out = Command::new(mlir_opt)
        .arg("--allow-unregistered-dialect")
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "mlir-opt rejects it:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A pass given IR of a level it does not read is refused before anything
/// runs, with a caret under it (Note [Pass levels]); a fitting pipeline
/// across the conversions runs.
#[test]
fn opt_refuses_a_pass_at_the_wrong_level() {
    let dir = program_dir("levels", &[("p.fut", "def main (xs: []i32) = map (+ 1) xs\n")]);
    let p = dir.join("p.fut");
    let out = futmlir()
        .args(["opt", "--pass-pipeline=soac-fuse,segop-to-imp{target=cpu}"])
        .arg(&p)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains(
            "pass 'segop-to-imp' works on segop or mem IR, but the IR is at the soac level here (after 'soac-fuse')"
        ),
        "{err}"
    );
    assert!(err.contains("soac-to-segop (soac -> segop)"), "{err}");
    let out = futmlir()
        .args([
            "opt",
            "--pass-pipeline=soac-fuse,soac-to-segop,segop-to-mem,segop-to-imp{target=cpu},imp-free-early,ir-dce",
        ])
        .arg(&p)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("imp.func"), "{text}");
    let imp = dir.join("p.imp.mlir");
    std::fs::write(&imp, text.as_bytes()).unwrap();
    let out = futmlir()
        .args(["opt", "--pass-pipeline=soac-simplify"])
        .arg(&imp)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("the pass belongs earlier in the pipeline"), "{err}");
}

/// `futmlir build --dump-pass-pipeline` prints the pipeline that builds
/// the default executable, byte for byte; a reordered pipeline builds a
/// working one; one that stops short of imp is refused.
#[test]
fn build_takes_the_pass_pipeline() {
    let dir = program_dir(
        "build_pipeline",
        &[("p.fut", "def main (xs: []i32) = reduce (+) 0 (map (* 2) xs)\n")],
    );
    let p = dir.join("p.fut");
    let dump = futmlir()
        .args(["build", "--dump-pass-pipeline"])
        .arg(&p)
        .output()
        .unwrap();
    assert!(dump.status.success());
    let pipeline = String::from_utf8_lossy(&dump.stderr).trim().to_string();
    assert!(
        pipeline.starts_with("soac-inline") && pipeline.ends_with("llvm-to-object,object-to-exe{shared-runtime=false}"),
        "{pipeline}"
    );
    let build = |out: &str, extra: &[&str]| {
        let o = futmlir()
            .arg("build")
            .arg(&p)
            .arg("-o")
            .arg(dir.join(out))
            .args(extra)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(dir.join(out)).unwrap()
    };
    let default = build("a", &[]);
    let dumped = build("b", &[&format!("--pass-pipeline={pipeline}")]);
    assert!(default == dumped, "the dumped pipeline builds another executable");
    // soac-fuse after soac-to-segop: refused before anything runs.
    let o = futmlir()
        .arg("build")
        .arg(&p)
        .arg("--pass-pipeline=soac-to-segop,soac-fuse,segop-to-imp{target=cpu}")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("pass 'soac-fuse' works on soac IR"));
    const BELOW_IMP: &str = "imp-to-mlir,mlir-to-llvm,llvm-to-object,object-to-exe";
    build(
        "c",
        &[&format!(
            "--pass-pipeline=soac-inline,soac-to-segop,soac-simplify,segop-to-mem,segop-to-imp{{target=cpu}},{BELOW_IMP}"
        )],
    );
    assert_eq!(run_exe(&dir.join("c"), &[], "[1, 2, 3]").1.trim(), "12i32");
    // Below imp, MLIR's own pipeline is an option: one that converts
    // nothing to the LLVM dialect fails in MLIR, with its message.
    let failing = |pipeline: &str, expected: &str| {
        let o = futmlir()
            .arg("build")
            .arg(&p)
            .arg("-o")
            .arg(dir.join("d"))
            .arg(format!("--pass-pipeline={pipeline}"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(expected), "{pipeline}: {err}");
    };
    let to_imp = "soac-inline,soac-to-segop,segop-to-mem,segop-to-imp{target=cpu}";
    failing(
        &format!("{to_imp},imp-to-mlir,mlir-to-llvm{{pipeline=\"builtin.module(canonicalize)\"}},llvm-to-object,object-to-exe"),
        "pass 'mlir-to-llvm' failed",
    );
    failing("soac-inline,soac-to-segop", "ends at the segop level");
    failing(
        &format!("{to_imp},imp-to-mlir,mlir-to-llvm,object-to-exe"),
        "pass 'object-to-exe' works on object IR",
    );
    failing(&format!("{to_imp},imp-to-mlir"), "ends at the mlir level");
    // CUDA kernels need their PTX before the host module is translated.
    let o = futmlir()
        .arg("build")
        .arg(&p)
        .args(["--target=cuda", "-o"])
        .arg(dir.join("e"))
        .arg("--pass-pipeline=soac-inline,soac-to-segop,segop-to-mem,segop-to-imp{target=cuda},imp-to-mlir{target=cuda},mlir-to-llvm,llvm-to-object,object-to-exe")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("kernels but no PTX: run `mlir-to-ptx`"),
        "{err}"
    );
    // `--emit` below imp stops where its stage is made.
    let emit = |what: &str| {
        let o = futmlir()
            .arg("build")
            .arg(&p)
            .arg(format!("--emit={what}"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(emit("mlir").contains("func.func"));
    assert!(emit("llvm").contains("define "));
    // `futmlir opt` prints IR: it refuses a pipeline that leaves it.
    let o = futmlir()
        .arg("opt")
        .arg(&p)
        .arg(format!("--pass-pipeline={to_imp},imp-to-mlir"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("goes below the imp level"), "{err}");
}

/// `futmlir build` continues from IR that `--emit` printed at each level
/// (Note [IR in at every level]), and the executable gives the same
/// result.
#[test]
fn build_continues_from_ir_at_every_level() {
    let dir = program_dir(
        "build_ir",
        &[("p.fut", "def main (xs: []i32) = scan (+) 0 (map (* 3) xs)\n")],
    );
    let p = dir.join("p.fut");
    for level in ["soac", "segop", "mem", "imp"] {
        let o = futmlir()
            .args(["build", &format!("--emit={level}")])
            .arg(&p)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ir = dir.join(format!("p.{level}.mlir"));
        std::fs::write(&ir, &o.stdout).unwrap();
        let exe = dir.join(format!("p_{level}"));
        let o = futmlir().arg("build").arg(&ir).arg("-o").arg(&exe).output().unwrap();
        assert!(o.status.success(), "{level}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            run_exe(&exe, &[], "[1, 2, 3]").1.trim(),
            "[3i32, 9i32, 18i32]",
            "{level}"
        );
    }
    // Imp IR cannot be printed at the soac level.
    let o = futmlir()
        .args(["build", "--emit=soac"])
        .arg(dir.join("p.imp.mlir"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("never at the soac level"));
}

/// `futmlir test` and `futmlir bench` take `build`'s compile flags and
/// compile every program with them (Note [Compile flags on every
/// command]); the interpreter, which compiles nothing, refuses them.
#[test]
fn test_and_bench_take_the_compile_flags() {
    let dir = program_dir(
        "test_flags",
        &[(
            "t.fut",
            "-- ==\n-- input { [1, 2, 3] } output { 12 }\ndef main (xs: []i32) = reduce (+) 0 (map (* 2) xs)\n",
        )],
    );
    let t = dir.join("t.fut");
    let run = |args: &[&str]| {
        let o = futmlir().args(args).arg(&t).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // A reordered pipeline (no fusion, no simplification) still passes.
    let reordered = "--pass-pipeline=soac-inline,soac-to-segop,segop-to-mem,segop-to-imp{target=cpu},imp-to-mlir,mlir-to-llvm,llvm-to-object,object-to-exe";
    let (code, out, err) = run(&["test", "--backend=cpu", reordered]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
    // A pipeline that makes no executable fails the case, saying why.
    let (code, out, _) = run(&["test", "--backend=cpu", "--pass-pipeline=soac-inline"]);
    assert_eq!(code, Some(1));
    assert!(out.contains("ends at the soac level"), "{out}");
    // --timing times each program's passes, the link included.
    let (code, out, err) = run(&["bench", "--backend=cpu", "-r", "1", "--timing", reordered]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("llvm-to-object") && err.contains("object-to-exe"), "{err}");
    // The pipeline a command would use, as `build` prints it.
    let (code, _, err) = run(&["test", "--backend=cpu", "--dump-pass-pipeline"]);
    assert_eq!(code, Some(0));
    assert!(err.trim().ends_with("object-to-exe{shared-runtime=false}"), "{err}");
    let (code, _, err) = run(&["test", "--backend=interp", "--timing"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--timing applies to the compiled backends"), "{err}");
}
