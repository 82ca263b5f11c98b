//! IR that went through upstream `mlir-opt` finishes the compile as if it
//! had not: `futmlir build P --emit=LEVEL --print-op-generic`, then
//! `mlir-opt --allow-unregistered-dialect`, which renames every value,
//! then `futmlir build` of its output, at every IR level (Note [Sizes in
//! types across mlir-opt], Note [IR in at every level]).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

/// `mlir-opt`: `$MLIR_OPT`, else on `PATH` (plain or with LLVM 22's
/// suffix), else where Debian's `mlir-22-tools` puts it
/// (scripts/install-deps.sh installs it).
fn find_mlir_opt() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MLIR_OPT") {
        return Some(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    ["mlir-opt", "mlir-opt-22"]
        .iter()
        .flat_map(|name| on_path.iter().map(move |dir| dir.join(name)))
        .chain([PathBuf::from("/usr/lib/llvm-22/bin/mlir-opt")])
        .find(|p| p.is_file())
}

/// Sizes of every kind: parameters (`[n]`), existential sizes of
/// multi-result ops (filter, partition), sizes of loop-carried arrays
/// and of nested maps' results.
const PROGRAM: &str = "\
def main [n] (xs: [n]f32) (k: i64) : ([]f32, f32, [n]i64, [k][n]f32, []i64) =
  let ys = filter (> 0) xs
  let s = reduce (+) 0 ys
  let zs = scan (+) 0 (map (\\x -> i64.f32 x) xs)
  let m = tabulate k (\\i -> map (\\x -> x * f32.i64 i) xs)
  let (m2, _) = loop (acc, j) = (m, 0) while j < 3 do (map (map (+ 1)) acc, j + 1)
  let (evens, _) = partition (\\i -> i % 2 == 0) (iota (n + k))
  in (ys, s, zs, m2, evens)
";

const INPUT: &str = "[1f32, -2f32, 3.5f32, 0f32, 7f32] 3i64\n";

const OUTPUT: &str = "\
[1.0f32, 3.5f32, 7.0f32]
11.5f32
[1i64, -1i64, 2i64, 2i64, 9i64]
[[3.0f32, 3.0f32, 3.0f32, 3.0f32, 3.0f32], [4.0f32, 1.0f32, 6.5f32, 3.0f32, 10.0f32], [5.0f32, -1.0f32, 10.0f32, 3.0f32, 17.0f32]]
[0i64, 2i64, 4i64, 6i64]
";

fn ok_stdout(cmd: &mut Command, what: &str) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{what}: {e}"))
}

fn run_executable(exe: &Path) -> String {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run {}: {e}", exe.display()));
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(INPUT.as_bytes())
        .expect("write the input");
    let out = child.wait_with_output().expect("wait for the program");
    assert!(
        out.status.success(),
        "{} failed:\n{}",
        exe.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// `mlir-opt --allow-unregistered-dialect [extra] input > output`.
fn through_mlir_opt(mlir_opt: &Path, input: &Path, extra: &[&str], output: &Path) {
    let text = ok_stdout(
        Command::new(mlir_opt)
            .arg("--allow-unregistered-dialect")
            .args(extra)
            .arg(input),
        &format!("mlir-opt {}", input.display()),
    );
    std::fs::write(output, text).expect("write mlir-opt's output");
}

#[test]
fn ir_through_mlir_opt_builds_the_same_program_at_every_level() {
    let Some(mlir_opt) = find_mlir_opt() else {
        eprintln!(
            "skipped: mlir-opt not found ($MLIR_OPT, PATH, /usr/lib/llvm-22/bin); scripts/install-deps.sh installs it (mlir-22-tools)"
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("futmlir-mlir-opt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make the test folder");
    let program = dir.join("p.fut");
    std::fs::write(&program, PROGRAM).expect("write the program");

    let reference = dir.join("reference");
    ok_stdout(
        futmlir().arg("build").arg(&program).arg("-o").arg(&reference),
        "build p.fut",
    );
    assert_eq!(run_executable(&reference), OUTPUT);

    for level in ["soac", "segop", "mem", "imp"] {
        let emitted = dir.join(format!("p.{level}.mlir"));
        let generic = ok_stdout(
            futmlir()
                .arg("build")
                .arg(&program)
                .arg(format!("--emit={level}"))
                .arg("--print-op-generic"),
            &format!("build --emit={level}"),
        );
        // The levels above imp keep arrays, whose sizes the generic form
        // names by definition number; that is what this test is about.
        if level != "imp" {
            assert!(generic.contains("!fut.array<[$"), "{generic}");
        }
        std::fs::write(&emitted, &generic).expect("write the emitted IR");
        let back = dir.join(format!("back.{level}.mlir"));
        through_mlir_opt(&mlir_opt, &emitted, &["--mlir-print-op-generic"], &back);
        let exe = dir.join(format!("back-{level}"));
        ok_stdout(
            futmlir().arg("build").arg(&back).arg("-o").arg(&exe),
            &format!("build of {level} IR from mlir-opt"),
        );
        assert_eq!(run_executable(&exe), OUTPUT, "{level} IR through mlir-opt");
    }

    // mlir-opt's default output: `module {` in builtin's custom form
    // around the generic ops.
    let custom = dir.join("back.custom.mlir");
    through_mlir_opt(&mlir_opt, &dir.join("p.soac.mlir"), &[], &custom);
    let text = std::fs::read_to_string(&custom).expect("read mlir-opt's output");
    assert!(text.starts_with("module {"), "{text}");
    let exe = dir.join("back-custom");
    ok_stdout(
        futmlir().arg("build").arg(&custom).arg("-o").arg(&exe),
        "build of mlir-opt's default output",
    );
    assert_eq!(
        run_executable(&exe),
        OUTPUT,
        "soac IR through mlir-opt's default output"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The CUDA target's levels (kernels, shared memory, device memory) give
/// the same PTX after a trip through mlir-opt; no GPU needed.
#[test]
fn cuda_ir_through_mlir_opt_gives_the_same_ptx() {
    let Some(mlir_opt) = find_mlir_opt() else {
        eprintln!("skipped: mlir-opt not found ($MLIR_OPT, PATH, /usr/lib/llvm-22/bin)");
        return;
    };
    let dir = std::env::temp_dir().join(format!("futmlir-mlir-opt-cuda-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("make the test folder");
    let program = dir.join("p.fut");
    std::fs::write(&program, PROGRAM).expect("write the program");
    let ptx = ok_stdout(
        futmlir()
            .arg("build")
            .arg(&program)
            .args(["--target=cuda", "--emit=ptx"]),
        "build --emit=ptx",
    );
    assert!(ptx.contains(".entry"), "{ptx}");
    for level in ["segop", "mem", "imp"] {
        let emitted = dir.join(format!("p.{level}.mlir"));
        let generic = ok_stdout(
            futmlir().arg("build").arg(&program).args([
                "--target=cuda",
                &format!("--emit={level}"),
                "--print-op-generic",
            ]),
            &format!("build --target=cuda --emit={level}"),
        );
        std::fs::write(&emitted, generic).expect("write the emitted IR");
        let back = dir.join(format!("back.{level}.mlir"));
        through_mlir_opt(&mlir_opt, &emitted, &[], &back);
        let again = ok_stdout(
            futmlir().arg("build").arg(&back).args(["--target=cuda", "--emit=ptx"]),
            &format!("build --emit=ptx of {level} IR from mlir-opt"),
        );
        assert!(again == ptx, "{level} IR through mlir-opt gives other PTX");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
