//! Builds hand-written C programs (`tests/c/`) against the static library,
//! as `futmlir build` links generated code, and runs them: the command
//! line, values in and out, timing, and the error messages and exit
//! statuses of `ABI.md`.
//!
//! The static library is the one cargo built for this test run: the test
//! executable is `<target>/<profile>/deps/c_programs-<hash>`, and `cargo
//! test` leaves the library beside it as
//! `deps/libfutmlir_runtime_cuda-<hash>.a`; the newest such file, or
//! `<target>/<profile>/libfutmlir_runtime_cuda.a` (from `cargo build`) if
//! that is newer, is used. `FUTMLIR_RUNTIME_LIB` overrides the path; when
//! none is found, `cargo build -p futmlir-runtime-cuda` builds it. The C compiler is `$CC`,
//! else the first of `clang-22`, `clang`, `cc` that runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use futmlir_values::{parse_values, read_values, write_binary, Value};

const LIB: &str = "libfutmlir_runtime_cuda.a";

/// The newest `libfutmlir_runtime_cuda*.a` directly in any of `dirs`.
fn newest_lib_in(dirs: &[&Path]) -> Option<PathBuf> {
    dirs.iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("libfutmlir_runtime_cuda") && name.ends_with(".a")
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
}

fn static_lib() -> PathBuf {
    if let Some(p) = std::env::var_os("FUTMLIR_RUNTIME_LIB") {
        return PathBuf::from(p);
    }
    // `cargo test` builds the library (both crate types) before this test
    // runs, into `deps/` under a hashed name, without updating the copy in
    // the profile's folder that `cargo build` leaves: the newest of them
    // all is the current one.
    let exe = std::env::current_exe().expect("the test executable's path");
    let deps = exe.parent().expect("deps/");
    let profile = deps.parent().expect("the profile's folder");
    if let Some(p) = newest_lib_in(&[profile, deps]) {
        return p;
    }
    // Not built alongside this test: build it.
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| profile.parent().unwrap().to_path_buf(), PathBuf::from);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-p", "futmlir-runtime-cuda", "--lib", "--target-dir"])
        .arg(&target_dir)
        .status()
        .expect("running cargo build");
    assert!(status.success(), "cargo build -p futmlir-runtime-cuda failed");
    let built = target_dir.join("debug").join(LIB);
    assert!(built.is_file(), "no {} after cargo build", built.display());
    built
}

fn c_compiler() -> String {
    if let Ok(cc) = std::env::var("CC") {
        return cc;
    }
    for cc in ["clang-22", "clang", "cc"] {
        let ok = Command::new(cc)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return cc.to_string();
        }
    }
    panic!("no C compiler: set CC, or install clang")
}

/// Compiles `tests/c/{name}.c` with the static library into an executable.
fn build(name: &str) -> PathBuf {
    let src_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("futrt-c");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let lib = static_lib();
    let out = Command::new(c_compiler())
        .args(["-O1", "-Wall", "-I"])
        .arg(&src_dir)
        .arg(src_dir.join(format!("{name}.c")))
        .arg(&lib)
        .args(futmlir_runtime_cuda::LINK_ARGS)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("running the C compiler");
    assert!(
        out.status.success(),
        "compiling {name}.c with {} failed:\n{}",
        lib.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn cpu_program() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build("cpu"))
}

fn run_exe(exe: &Path, args: &[&str], stdin: &[u8], envs: &[(&str, &str)]) -> Output {
    use std::io::Write;
    let mut child = Command::new(exe)
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting the test program");
    // The program may exit before reading everything (a bad option).
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

fn run(args: &[&str], stdin: &str) -> Output {
    run_exe(cpu_program(), args, stdin.as_bytes(), &[])
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs and expects success; returns stdout.
fn ok(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "{args:?} failed ({}): {}",
        out.status,
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "");
    text(&out.stdout)
}

/// Runs and expects exit status 1 with nothing on stdout; returns stderr.
fn fails(args: &[&str], stdin: &str) -> String {
    let out = run(args, stdin);
    assert_eq!(out.status.code(), Some(1), "{args:?}: stderr {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "", "{args:?}");
    let err = text(&out.stderr);
    assert!(err.starts_with("Error: "), "{err}");
    err
}

const MAIN_IN: &str = "[1, 2, 3] [[1.5f32, 2f32], [3f32, 4f32]]";
const MAIN_OUT: &str = "6i32\n[[3.0f32, 4.0f32], [6.0f32, 8.0f32]]\n";

#[test]
fn text_input() {
    assert_eq!(ok(&[], MAIN_IN), MAIN_OUT);
    assert_eq!(
        ok(&["-e", "main"], "-- a comment\n[5, -5]\n[[0f32]]"),
        "0i32\n[[0.0f32]]\n"
    );
    assert_eq!(ok(&[], "empty([0]i32) empty([0][4]f32)"), "0i32\nempty([0][4]f32)\n");
}

#[test]
fn binary_and_mixed_input() {
    let values = parse_values(MAIN_IN).unwrap();
    let mut all_binary = Vec::new();
    for v in &values {
        write_binary(v, &mut all_binary);
    }
    let out = run_exe(cpu_program(), &[], &all_binary, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), MAIN_OUT);
    // Binary first value, text second.
    let mut mixed = Vec::new();
    write_binary(&values[0], &mut mixed);
    mixed.extend_from_slice(b"\n[[1.5f32, 2f32], [3f32, 4f32]]\n");
    let out = run_exe(cpu_program(), &[], &mixed, &[]);
    assert_eq!(text(&out.stdout), MAIN_OUT);
}

#[test]
fn binary_and_no_output() {
    let out = run(&["-b"], MAIN_IN);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = parse_values(MAIN_OUT).unwrap();
    let mut bytes = Vec::new();
    for v in &expected {
        write_binary(v, &mut bytes);
    }
    assert_eq!(out.stdout, bytes);
    assert_eq!(read_values(&out.stdout).unwrap(), expected);
    assert_eq!(ok(&["-n"], MAIN_IN), "");
    assert_eq!(ok(&["-b", "-n"], MAIN_IN), "");
}

#[test]
fn runs_and_timing() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("futrt-c");
    std::fs::create_dir_all(&dir).unwrap();
    let times = dir.join("times.txt");
    let t = times.to_str().unwrap();
    assert_eq!(ok(&["-r", "3", "-t", t], MAIN_IN), MAIN_OUT);
    let lines: Vec<u64> = std::fs::read_to_string(&times)
        .unwrap()
        .lines()
        .map(|l| l.parse().expect("microseconds"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(ok(&["--runs=2", &format!("--write-runtime-to={t}"), "-n"], MAIN_IN), "");
    assert_eq!(std::fs::read_to_string(&times).unwrap().lines().count(), 2);
    // Many runs reuse the pool's blocks (and must not run out of anything).
    assert_eq!(ok(&["-r", "200"], MAIN_IN), MAIN_OUT);
}

#[test]
fn every_element_type() {
    let input = "1.5f16 true [1u8, 255u8] [[true, false], [false, true]] 18446744073709551615u64 \
                 empty([2][0][3]f64) -128i8 [-1i16, 300i16]";
    let expected: String = parse_values(input)
        .unwrap()
        .iter()
        .map(|v: &Value| format!("{v}\n"))
        .collect();
    assert_eq!(ok(&["-e", "types"], input), expected);
    assert!(expected.starts_with("1.5f16\ntrue\n[1u8, 255u8]\n"), "{expected}");
    let out = run(&["-e", "types", "-b"], input);
    assert_eq!(read_values(&out.stdout).unwrap(), parse_values(input).unwrap());
    let input = "f16.nan false empty([0]u8) [[true]] 0u64 [[[1.0f64, -0.0f64]]] 0i8 empty([0]i16)";
    let expected: String = parse_values(input).unwrap().iter().map(|v| format!("{v}\n")).collect();
    assert_eq!(ok(&["-e", "types"], input), expected);
}

#[test]
fn memory_pool() {
    assert_eq!(ok(&["-e", "pool"], ""), "true\ntrue\ntrue\n");
    let err = fails(&["-e", "double_free"], "");
    assert!(
        err.contains("is not memory from futrt_alloc, or it was freed already"),
        "{err}"
    );
}

#[test]
fn help() {
    let out = ok(&["--help"], "");
    assert!(out.contains("Usage: "), "{out}");
    assert!(out.contains("Entry points: main, fails, buffer_error"), "{out}");
    assert!(ok(&["-h"], "").contains("--entry-point"));
}

#[test]
fn input_errors() {
    assert_eq!(
        fails(&[], "[1, 2]"),
        "Error: entry point main takes 2 arguments, but 1 value was given on stdin\n"
    );
    assert_eq!(
        fails(&[], "[1] [[1f32]] 3"),
        "Error: entry point main takes 2 arguments, but 3 values were given on stdin\n"
    );
    assert_eq!(
        fails(&[], "[1, 2] [1, 2]"),
        "Error: entry point main: argument 2 has type [][]f32, but a value of type [2]i32 was given\n"
    );
    assert_eq!(
        fails(&[], "[1i64] [[1f32]]"),
        "Error: entry point main: argument 1 has type []i32, but a value of type [1]i64 was given\n"
    );
    let err = fails(&[], "[1, 2]\n[[1f32, 2f32], [3f32");
    assert!(
        err.starts_with("Error: entry point main: argument 2 is malformed: line 2, column "),
        "{err}"
    );
    let err = fails(&[], "[1, 2] [[1f32]] [1,");
    assert!(err.contains("value 3 on stdin (of 2 arguments) is malformed"), "{err}");
    let err = fails(&[], "[1, 2] [[1f32], [2f32, 3f32]]");
    assert!(err.contains("argument 2 is malformed"), "{err}");
    let mut truncated = Vec::new();
    write_binary(&parse_values("[1, 2, 3]").unwrap()[0], &mut truncated);
    truncated.truncate(truncated.len() - 2);
    let out = run_exe(cpu_program(), &[], &truncated, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("argument 1 is malformed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn command_line_errors() {
    assert_eq!(
        fails(&["-e", "nope"], MAIN_IN),
        "Error: unknown entry point `nope`; the entry points are: main, fails, buffer_error, launch, silent, \
         alias, types, pool, double_free, pair\n"
    );
    assert_eq!(fails(&["-x"], MAIN_IN), "Error: unknown option -x (see --help)\n");
    assert_eq!(
        fails(&["--frob"], MAIN_IN),
        "Error: unknown option --frob (see --help)\n"
    );
    assert!(fails(&["-r", "0"], MAIN_IN).contains("positive number of runs"));
    assert!(fails(&["-e"], MAIN_IN).contains("option -e needs a value"));
    assert!(fails(&["-t", "/nonexistent/folder/times"], MAIN_IN).contains("cannot create /nonexistent/folder/times"));
}

#[test]
fn entry_point_errors() {
    assert_eq!(ok(&["-e", "fails"], "1i64 3i64"), "true\n");
    assert_eq!(
        fails(&["-e", "fails"], "5i64 3i64"),
        "Error: value 5 is out of range [0, 3).\n  at prog.fut:3:7-12\n"
    );
    assert_eq!(
        fails(&["-e", "fails", "-r", "2"], "-1i64 3i64"),
        "Error: value -1 is out of range [0, 3).\n  at prog.fut:3:7-12\n"
    );
    assert_eq!(
        fails(&["-e", "buffer_error"], "7i64"),
        "Error: Index [7] out of bounds for array of shape [3].\n"
    );
    assert!(fails(&["-e", "launch"], "").starts_with("Error: kernel launch on the CPU target"));
    assert_eq!(
        fails(&["-e", "silent"], ""),
        "Error: entry point silent failed (it returned 1) without recording an error\n"
    );
    assert!(fails(&["-e", "alias"], "[1, 2]").contains("result 1 is the memory of argument 1"));
}

/// An entry point whose interface groups its two results into one value
/// of the tuple type `(i64, i64)`: the executable prints it as Futhark's
/// do, and the server holds it as one variable whose fields `project`
/// takes.
#[test]
fn opaque_results() {
    assert_eq!(ok(&["-e", "pair"], "1i64 2i64"), "#<opaque (i64, i64)>\n");
    let dir = std::env::temp_dir().join(format!("futrt-opaque-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("in.txt");
    std::fs::write(&input, "1i64 2i64").unwrap();
    let script = format!(
        "restore {} a i64 b i64\ncall pair p a b\ntype p\nfields \"(i64, i64)\"\nproject x p 0\ntype x\nproject y p 2\n",
        input.display()
    );
    // The time of the call varies.
    let out: String = ok(&["--server"], &script)
        .lines()
        .map(|l| {
            if l.starts_with("runtime: ") {
                "runtime: T\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert_eq!(
        out,
        "%%% OK\n%%% OK\nruntime: T\n%%% OK\n(i64, i64)\n%%% OK\n0 i64\n1 i64\n%%% OK\n%%% OK\ni64\n%%% OK\n%%% FAILURE\ntype (i64, i64) has no field 2\n%%% OK\n"
    );
}

/// The CUDA program: without a driver or GPU, a clean error; with one, the
/// kernel's results and errors.
#[test]
fn cuda_program() {
    let exe = build("cuda");
    let out = run_exe(&exe, &[], b"[1, 2, 3]", &[]);
    let err = text(&out.stderr);
    if !out.status.success() {
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.starts_with("Error: "), "{err}");
        assert!(
            err.contains("no CUDA driver") || err.contains("no CUDA device") || err.contains("cuInit"),
            "{err}"
        );
        eprintln!(
            "cuda_program: no usable GPU here, checked the error only: {}",
            err.trim()
        );
        return;
    }
    assert_eq!(text(&out.stdout), "[2i32, 3i32, 4i32]\n", "{err}");
    let big: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
    let out = run_exe(&exe, &["-r", "3"], format!("[{}]", big.join(", ")).as_bytes(), &[]);
    let expected: Vec<String> = (1..1001).map(|i| format!("{i}i32")).collect();
    assert_eq!(text(&out.stdout), format!("[{}]\n", expected.join(", ")));
    let out = run_exe(&exe, &[], b"[1, -2, 3]", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "Error: Index [1] out of bounds for array of shape [3].\n"
    );
    let out = run_exe(&exe, &["-e", "bad_kernel"], b"", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no kernel number 5"),
        "{}",
        text(&out.stderr)
    );
    let out = run_exe(&exe, &[], b"[1]", &[("FUTRT_TEST_BAD_PTX", "1")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("Error: cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"),
        "{}",
        text(&out.stderr)
    );
}
