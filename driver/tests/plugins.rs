//! Pass plugins (`--load-pass-plugin`): the example plugin
//! (examples/plugin-count-maps) in `opt` and `build` pipelines, and the
//! messages for libraries that are not plugins or plugins that misbehave
//! (tests/plugins/faults). Both plugins are dev-dependencies of the
//! driver, so Cargo builds their shared libraries into this test's
//! `deps` folder before it runs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

/// The shared library of the plugin crate `name`, built beside this test.
fn plugin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let deps = exe.parent().expect("the test lives in a folder");
    let file = format!("{}{name}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    let path = deps.join(&file);
    assert!(path.exists(), "{} was not built", path.display());
    path
}

fn count_maps() -> PathBuf {
    plugin("futmlir_plugin_count_maps")
}

fn faults() -> PathBuf {
    plugin("futmlir_plugin_faults")
}

/// `x * 2` in integer and float code, for `soac-double-to-add`.
const PROGRAM: &str = "def main (xs: []i32) (ys: []f32) = (map (\\x -> x * 2 + 1) xs, map (\\y -> 2 * y) ys)\n";

/// A fresh folder holding [`PROGRAM`] as `prog.fut` (one per call: the
/// tests run at once).
fn program_dir(name: &str) -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("futmlir-plugins-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("prog.fut"), PROGRAM).unwrap();
    dir
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The `soac.binop` lines of `ir` with `kind`, and whether each has one
/// operand twice (`%5 = soac.binop(%4, %4) {kind = "add"}`).
fn binops(ir: &str, kind: &str) -> Vec<(String, bool)> {
    let marker = format!("{{kind = \"{kind}\"}}");
    ir.lines()
        .filter(|l| l.contains("soac.binop(") && l.contains(&marker))
        .map(|l| {
            let args = l
                .split("soac.binop(")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap_or("");
            let ops: Vec<&str> = args.split(", ").collect();
            (l.trim().to_string(), ops.len() == 2 && ops[0] == ops[1])
        })
        .collect()
}

/// Checks that `soac-double-to-add` and `soac-count-maps{attribute=attr}`
/// ran on the soac IR of [`PROGRAM`].
fn assert_rewritten(ir: &str, attr: &str) {
    assert!(binops(ir, "mul").is_empty(), "a `* 2` is left:\n{ir}");
    let doubled: Vec<_> = binops(ir, "add").into_iter().filter(|(_, same)| *same).collect();
    assert_eq!(doubled.len(), 2, "one `x + x` per map:\n{ir}");
    assert!(doubled.iter().any(|(l, _)| l.contains("(i32, i32)")), "{ir}");
    assert!(doubled.iter().any(|(l, _)| l.contains("(f32, f32)")), "{ir}");
    assert!(ir.contains(&format!("{attr} = 2 : i64")), "two maps counted:\n{ir}");
}

#[test]
fn plugin_passes_are_listed() {
    let out = futmlir()
        .arg("opt")
        .arg("--load-pass-plugin")
        .arg(count_maps())
        .arg("--list-passes")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("  soac-count-maps "), "{stdout}");
    assert!(stdout.contains("      attribute=<string>"), "{stdout}");
    assert!(stdout.contains("  soac-double-to-add "), "{stdout}");
    // Without the flag they are not there.
    let out = futmlir().arg("opt").arg("--list-passes").output().unwrap();
    assert!(!text(&out).0.contains("soac-count-maps"));
}

#[test]
fn opt_runs_plugin_passes_in_any_pipeline() {
    let dir = program_dir("opt");
    let prog = dir.join("prog.fut");
    // At the top level, with an option, and the same plugin named twice
    // (loading it again is a no-op).
    let out = futmlir()
        .arg("opt")
        .arg(&prog)
        .arg("--load-pass-plugin")
        .arg(count_maps())
        .arg("--load-pass-plugin")
        .arg(count_maps())
        .arg("--pass-pipeline=soac-inline,soac-simplify,soac-count-maps{attribute=nmaps},soac-double-to-add")
        .arg("--verify-each")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_rewritten(&stdout, "nmaps");
    // Nested on the functions: the op keeps its place for the next pass.
    let out = futmlir()
        .arg("opt")
        .arg(&prog)
        .arg("--load-pass-plugin")
        .arg(count_maps())
        .arg("--pass-pipeline=soac-inline,soac-simplify,soac.func(soac-double-to-add,soac-count-maps)")
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_rewritten(&stdout, "maps");
    // Without the pass, the program keeps its `* 2`.
    let out = futmlir()
        .arg("opt")
        .arg(&prog)
        .arg("--pass-pipeline=soac-inline,soac-simplify")
        .output()
        .unwrap();
    assert_eq!(binops(&text(&out).0, "mul").len(), 2);
}

#[test]
fn plugin_passes_meet_the_level_check() {
    let dir = program_dir("levels");
    let out = futmlir()
        .arg("opt")
        .arg(dir.join("prog.fut"))
        .arg("--load-pass-plugin")
        .arg(count_maps())
        .arg("--pass-pipeline=soac-inline,soac-to-segop,soac-count-maps")
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("pass 'soac-count-maps' works on soac IR, but the IR is at the segop level here"),
        "{stderr}"
    );
}

#[test]
fn build_runs_plugin_passes_in_the_default_pipeline() {
    let dir = program_dir("build");
    let prog = dir.join("prog.fut");
    let out = futmlir()
        .arg("build")
        .arg(&prog)
        .arg("--dump-pass-pipeline")
        .output()
        .unwrap();
    let default = text(&out).1.trim().to_string();
    assert!(default.contains(",soac-unstream"), "{default}");
    // The plugin's passes after the soac-level simplification, before
    // the kernels are made.
    let pipeline = default.replacen(",soac-unstream", ",soac-double-to-add,soac-count-maps,soac-unstream", 1);
    let build = |extra: &[&str]| {
        futmlir()
            .arg("build")
            .arg(&prog)
            .arg("--load-pass-plugin")
            .arg(count_maps())
            .arg(format!("--pass-pipeline={pipeline}"))
            .args(extra)
            .output()
            .unwrap()
    };
    let out = build(&["--emit=soac"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_rewritten(&stdout, "maps");
    // The executable built with the plugin's passes gives the results of
    // the one built without.
    let input = "[1, 2, 3] [0.5f32, 1.5f32, -4f32]\n";
    let expected = "[3i32, 5i32, 7i32]\n[1.0f32, 3.0f32, -8.0f32]\n";
    for (exe, with_plugin) in [(dir.join("with-plugin"), true), (dir.join("default"), false)] {
        let out = if with_plugin {
            build(&["-o", exe.to_str().unwrap()])
        } else {
            futmlir().arg("build").arg(&prog).arg("-o").arg(&exe).output().unwrap()
        };
        assert!(out.status.success(), "{}", text(&out).1);
        assert_eq!(run(&exe, input), expected, "built with the plugin: {with_plugin}");
    }
}

fn run(exe: &Path, input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out).1);
    text(&out).0
}

/// Runs `futmlir opt` on [`PROGRAM`] with `plugin` and `pipeline`; it must
/// fail with exit code 1 (not a panic's 101); returns stderr.
fn opt_error(plugin: &Path, pipeline: &str, env: &[(&str, &str)]) -> String {
    let dir = program_dir("errors");
    let out = futmlir()
        .arg("opt")
        .arg(dir.join("prog.fut"))
        .arg("--load-pass-plugin")
        .arg(plugin)
        .arg(format!("--pass-pipeline={pipeline}"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    stderr
}

#[test]
fn libraries_that_are_not_plugins_are_refused() {
    let e = opt_error(Path::new("/nonexistent/libplugin.so"), "", &[]);
    assert!(
        e.contains("cannot load pass plugin /nonexistent/libplugin.so: No such file"),
        "{e}"
    );
    let dir = program_dir("not-a-library");
    let e = opt_error(&dir.join("prog.fut"), "", &[]);
    assert!(e.contains("cannot load pass plugin") && e.contains("prog.fut"), "{e}");
    // A shared library that exports no plugin: this process's libc.
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let libc = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| p.contains("/libc.so") || p.contains("/libc-"))
        .expect("the test links libc");
    let e = opt_error(Path::new(libc), "", &[]);
    assert!(
        e.contains("it is not a futmlir pass plugin: it exports no `futmlir_pass_plugin_info`"),
        "{e}"
    );
}

#[test]
fn a_plugin_of_another_abi_version_is_refused() {
    let e = opt_error(&faults(), "ir-fail", &[("FUTMLIR_FAULTS_PLUGIN_ABI", "999")]);
    assert!(
        e.contains(&format!(
            "it was built for plugin ABI version 999, but this futmlir speaks version {}",
            futmlir_plugin_abi_version()
        )),
        "{e}"
    );
}

/// The ABI version, as `futmlir-plugin-abi` (a dependency of the plugins,
/// not of this test) says it in its source.
fn futmlir_plugin_abi_version() -> u32 {
    let src = include_str!("../../plugin-abi/src/lib.rs");
    src.lines()
        .find_map(|l| l.strip_prefix("pub const ABI_VERSION: u32 = "))
        .and_then(|v| v.trim_end_matches(';').parse().ok())
        .expect("ABI_VERSION in plugin-abi/src/lib.rs")
}

#[test]
fn plugin_passes_that_fail_are_reported() {
    let e = opt_error(&faults(), "soac-inline,ir-fail", &[]);
    assert!(e.contains("pass 'ir-fail' failed: ir-fail fails on purpose"), "{e}");
    let e = opt_error(&faults(), "ir-garbage", &[]);
    assert!(e.contains("pass 'ir-garbage' failed: its output does not parse"), "{e}");
    assert!(e.contains("output of plugin pass ir-garbage"), "{e}");
    let e = opt_error(&faults(), "ir-panic", &[]);
    assert!(
        e.contains("pass 'ir-panic' failed: the pass panicked: ir-panic panics on purpose"),
        "{e}"
    );
}

/// `futmlir test --each-pass` convicts the pass that miscompiles: with
/// `ir-miscompile` (additions become subtractions) placed after
/// `mem-reuse`, the positions before it pass and it and every later
/// one fail (Note [Checking each pass]).
#[test]
fn each_pass_names_the_pass_that_miscompiles() {
    let dir = program_dir("each-pass");
    let spec = format!("-- ==\n-- input {{ [1, 2] [1f32] }} output {{ [3, 5] [2f32] }}\n{PROGRAM}");
    std::fs::write(dir.join("prog.fut"), spec).unwrap();
    let out = futmlir()
        .args(["build", "--dump-pass-pipeline"])
        .arg(dir.join("prog.fut"))
        .output()
        .unwrap();
    let default = text(&out).1.trim().to_string();
    assert!(default.contains(",mem-reuse,"), "{default}");
    let broken = default.replacen(",mem-reuse,", ",mem-reuse,ir-miscompile,", 1);
    let out = futmlir()
        .args(["test", "--backend=cpu", "--each-pass", "--load-pass-plugin"])
        .arg(faults())
        .arg(format!("--pass-pipeline={broken}"))
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    // The table: `kN PASS (LEVEL)  passed failed skipped`.
    let rows: Vec<(String, usize, usize)> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("position"))
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[1].to_string(), f[3].parse().unwrap(), f[4].parse().unwrap())
        })
        .collect();
    let at = rows
        .iter()
        .position(|r| r.0 == "ir-miscompile")
        .expect("a row for the plugin pass");
    assert_eq!(rows[at - 1].0, "mem-reuse", "{stdout}");
    assert!(rows.len() > at + 3, "the imp-level positions follow:\n{stdout}");
    for (k, (pass, passed, failed)) in rows.iter().enumerate() {
        let expected = if k < at { (1, 0) } else { (0, 1) };
        assert_eq!((*passed, *failed), expected, "position {k} ({pass}):\n{stdout}");
    }
    assert!(
        stdout.contains(&format!("after k{at} ir-miscompile (mem):")),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
