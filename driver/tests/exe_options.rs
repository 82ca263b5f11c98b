//! The executables' options (Futhark's `futhark-c(1)` and
//! `futhark-cuda(1)`, EXECUTABLE OPTIONS) end to end on CPU executables:
//! tuning files, `-L`, `-P`, `-D`, `--cache-file`, `-d`, the CUDA
//! `--default-*` options, `--dump-ptx`/`--load-ptx` (refused on the CPU),
//! the messages for bad options; the server's `report` and
//! `pause_profiling`, and the C library's `futhark_context_config_set_*`.
//!
//! The CUDA side: a CUDA executable is built here and `--dump-ptx`
//! checked (it needs no GPU). `cuda_cache_file_device_and_profile` runs
//! it, and skips with a notice where no CUDA device can be used (this
//! build machine): the cache file written and then loaded, a corrupt one
//! ignored, `-d`, and `-P` naming the kernels can only be checked on a
//! machine with a GPU.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("futmlir-exeopts-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The test program: a sum, and an entry point with a map and a sum.
const PROGRAM: &str = "entry main (xs: []f32) = f32.sum xs\n\
                       entry twice (xs: []f32): []f32 = map (*2) xs\n";

/// `PROGRAM` built in `dir` for `target` as `prog`.
fn build(dir: &Path, target: &str) -> PathBuf {
    std::fs::write(dir.join("prog.fut"), PROGRAM).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", &format!("--target={target}"), "-o", "prog", "prog.fut"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    dir.join("prog")
}

/// Runs `exe args` in `dir` with `stdin`.
fn run(exe: &Path, dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // An executable that stops before reading its input closes the pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Exit 1 and `Error: MESSAGE` on stderr, no panic.
fn assert_error(out: &Output, message: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {err}");
    assert_eq!(err, format!("Error: {message}\n"));
}

const INPUT: &str = "[1f32, 2f32, 3f32]";

/// Each bad command line gets a message that names what is wrong.
#[test]
fn bad_options_say_what_is_wrong() {
    let dir = test_dir("bad");
    let exe = build(&dir, "cpu");
    for (args, message) in [
        (&["--tuning=x"][..], "cannot read tuning file x: No such file or directory (os error 2)"),
        (&["--frob=1"], "unknown option --frob (see --help)"),
        (&["--frob"], "unknown option --frob (see --help)"),
        (&["-Lq"], "unknown option -q (see --help)"),
        (&["--log=yes"], "option --log takes no value"),
        (&["-P", "--profile=1"], "option --profile takes no value"),
        (&["--tuning"], "option --tuning needs a value"),
        (&["--cache-file"], "option --cache-file needs a value"),
        (&["-d"], "option -d needs a value"),
        (&["--default-threshold=-3"], "option --default-threshold needs a positive integer, not `-3`"),
        (
            &["--dump-cuda=k.cu"],
            "option --dump-cuda is not supported: futmlir compiles kernels to PTX itself, so there is no CUDA C source or NVRTC (see --dump-ptx and --load-ptx)",
        ),
        (
            &["--nvrtc-option", "-O3"],
            "option --nvrtc-option is not supported: futmlir compiles kernels to PTX itself, so there is no CUDA C source or NVRTC (see --dump-ptx and --load-ptx)",
        ),
    ] {
        assert_error(&run(&exe, &dir, args, INPUT), message);
    }
    let out = run(&exe, &dir, &["--default-thread-block-size=128"], INPUT);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("only 256 is accepted"),
        "{}",
        text(&out.stderr)
    );
    // The CUDA options that need PTX are refused on a CPU program.
    assert_error(
        &run(&exe, &dir, &["--dump-ptx=k.ptx"], INPUT),
        "--dump-ptx: this program was compiled for the CPU (futmlir build --target=cpu), so it has no PTX",
    );
    assert!(!dir.join("k.ptx").exists());
    assert_error(
        &run(&exe, &dir, &["--load-ptx=k.ptx"], INPUT),
        "--load-ptx: this program was compiled for the CPU, which runs no PTX",
    );
    // --help names the new options and the parameters.
    let out = run(&exe, &dir, &["--help"], "");
    let help = text(&out.stdout);
    assert!(out.status.success());
    for option in [
        "--tuning FILE",
        "-L, --log",
        "-P, --profile",
        "-D, --debugging",
        "--cache-file FILE",
        "-d, --device DEVICE",
        "--default-num-thread-blocks",
        "--default-threshold",
        "--default-thread-block-size",
        "--default-tile-size",
        "--dump-ptx FILE",
        "--load-ptx FILE",
        "reduce_groups (grid_size, default 4096)",
    ] {
        assert!(help.contains(option), "--help lacks {option}:\n{help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tuning file sets the parameters it names (seen in `-L`'s line of
/// parameters), in order with `--param` and the class defaults; a bad
/// line is an error naming the file and the line.
#[test]
fn tuning_files_set_parameters() {
    let dir = test_dir("tuning");
    let exe = build(&dir, "cpu");
    std::fs::write(dir.join("prog.fut.tuning"), "reduce_groups=128\nsegred_group_min=16\n").unwrap();
    let params_line = |args: &[&str]| {
        let out = run(&exe, &dir, args, INPUT);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "6.0f32\n");
        let err = text(&out.stderr);
        err.lines()
            .find_map(|l| l.strip_prefix("[futmlir] tuning parameters: ").map(String::from))
            .unwrap_or_else(|| panic!("no parameters in the log:\n{err}"))
    };
    assert_eq!(
        params_line(&["-L"]),
        "reduce_groups=4096, segred_group_min=256, tile_min_blocks=16"
    );
    assert_eq!(
        params_line(&["-L", "--tuning", "prog.fut.tuning"]),
        "reduce_groups=128, segred_group_min=16, tile_min_blocks=16"
    );
    assert_eq!(
        params_line(&["--tuning=prog.fut.tuning", "--param", "reduce_groups=7", "-L"]),
        "reduce_groups=7, segred_group_min=16, tile_min_blocks=16"
    );
    assert_eq!(
        params_line(&["-L", "--default-threshold=9", "--default-num-thread-blocks", "33"]),
        "reduce_groups=33, segred_group_min=9, tile_min_blocks=9"
    );
    assert_eq!(
        params_line(&["-L", "--default-num-groups=12", "--default-tile-size=16"]),
        "reduce_groups=12, segred_group_min=256, tile_min_blocks=16"
    );
    std::fs::write(dir.join("bad.tuning"), "reduce_groups=128\n\nsegred_group_min=zero\n").unwrap();
    assert_error(
        &run(&exe, &dir, &["--tuning", "bad.tuning"], INPUT),
        "bad.tuning:3: parameter segred_group_min needs a positive integer, not `zero`",
    );
    std::fs::write(dir.join("bad.tuning"), "frob=1\n").unwrap();
    assert_error(
        &run(&exe, &dir, &["--tuning", "bad.tuning"], INPUT),
        "bad.tuning:1: unknown parameter `frob` (the parameters are: reduce_groups, segred_group_min, tile_min_blocks)",
    );
    // The server takes them too.
    let out = run(&exe, &dir, &["--server", "--tuning=bad.tuning"], "");
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-L` logs the context, the pool's growth and each call; results are
/// unchanged and nothing is logged without it.
#[test]
fn log_lines() {
    let dir = test_dir("log");
    let exe = build(&dir, "cpu");
    let out = run(&exe, &dir, &["-L", "-r", "2"], INPUT);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "6.0f32\n");
    let err = text(&out.stderr);
    assert!(err.lines().all(|l| l.starts_with("[futmlir] ")), "{err}");
    assert!(err.contains("[futmlir] context on the CPU\n"), "{err}");
    assert!(
        err.contains("[futmlir] memory pool: 12 bytes asked for, 256 taken from the host"),
        "{err}"
    );
    assert_eq!(err.matches("[futmlir] calling entry point main\n").count(), 2, "{err}");
    assert_eq!(
        err.matches("[futmlir] entry point main returned after ").count(),
        2,
        "{err}"
    );
    // -d and --cache-file are accepted on the CPU, and the log says they
    // change nothing.
    let out = run(&exe, &dir, &["-L", "-d", "#3", "--cache-file", "c.bin"], INPUT);
    assert_eq!(text(&out.stdout), "6.0f32\n");
    let err = text(&out.stderr);
    assert!(err.contains("-d is ignored: the CPU target has one device"), "{err}");
    assert!(err.contains("--cache-file is unused"), "{err}");
    assert!(!dir.join("c.bin").exists());
    let out = run(&exe, &dir, &[], INPUT);
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rows of a `-P` table: name, count, total, mean.
fn profile_rows(err: &str) -> Vec<(String, usize)> {
    let mut lines = err.lines().skip_while(|l| !l.starts_with("Event "));
    assert_eq!(
        lines.next().map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec!["Event", "Count", "Total", "(us)", "Mean", "(us)"]),
        "{err}"
    );
    lines
        .filter(|l| !l.contains(" events "))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let n = words.len();
            assert!(n >= 4, "{l}");
            let total: f64 = words[n - 2].parse().unwrap();
            let mean: f64 = words[n - 1].parse().unwrap();
            let count: usize = words[n - 3].parse().unwrap();
            assert!((total / count as f64 - mean).abs() < 0.1 + total * 1e-3, "{l}");
            (words[..n - 3].join(" "), count)
        })
        .collect()
}

/// `-P`: a table at the end with a row per event name (entry points and
/// copies on the CPU), counted right; `-D` gives the log and the table.
#[test]
fn profile_table() {
    let dir = test_dir("profile");
    let exe = build(&dir, "cpu");
    let out = run(&exe, &dir, &["-P", "-r", "3", "-e", "twice"], INPUT);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "[2.0f32, 4.0f32, 6.0f32]\n");
    let rows = profile_rows(&text(&out.stderr));
    let count = |name: &str| rows.iter().find(|r| r.0 == name).map(|r| r.1);
    assert_eq!(count("entry twice"), Some(3), "{rows:?}");
    // The argument is uploaded once and copied for each run; the result
    // is read back after the last.
    assert_eq!(count("copy_host_to_dev"), Some(1), "{rows:?}");
    assert_eq!(count("copy_dev_to_dev").map(|c| c >= 3), Some(true), "{rows:?}");
    assert_eq!(count("copy_dev_to_host"), Some(1), "{rows:?}");
    let out = run(&exe, &dir, &["-D"], INPUT);
    assert_eq!(text(&out.stdout), "6.0f32\n");
    let err = text(&out.stderr);
    assert!(err.contains("[futmlir] calling entry point main"), "{err}");
    assert_eq!(
        profile_rows(&err).iter().find(|r| r.0 == "entry main").map(|r| r.1),
        Some(1)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The server's `report` holds the events of `-P` as Futhark's JSON, and
/// `pause_profiling` stops recording until `unpause_profiling`; without
/// `-P` there are no events.
#[test]
fn server_report_and_pause() {
    let dir = test_dir("server");
    let exe = build(&dir, "cpu");
    std::fs::write(dir.join("xs.txt"), INPUT).unwrap();
    let script = "restore xs.txt xs []f32\n\
                  call main a xs\nreport\n\
                  pause_profiling\ncall main b xs\nreport\n\
                  unpause_profiling\ncall main c xs\nreport\n";
    let reports = |args: &[&str]| -> Vec<String> {
        let out = run(&exe, &dir, args, script);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .filter(|l| l.starts_with('{'))
            .map(String::from)
            .collect()
    };
    let r = reports(&["--server", "-P"]);
    assert_eq!(r.len(), 3, "{r:?}");
    let calls: Vec<usize> = r
        .iter()
        .map(|j| j.matches("{\"name\":\"entry main\",\"start\":").count())
        .collect();
    assert_eq!(calls, [1, 1, 2], "{r:?}");
    for j in &r {
        assert!(
            j.starts_with("{\"memory\":{\"default\":") && j.contains("\"events\":[{"),
            "{j}"
        );
        assert!(j.contains(",\"end\":") && j.contains(",\"details\":\""), "{j}");
    }
    let r = reports(&["--server"]);
    assert!(r.iter().all(|j| j.ends_with(",\"events\":[]}")), "{r:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The C library's `futhark_context_config_set_profiling` and
/// `_set_logging` take effect, and `futhark_context_pause_profiling`
/// pauses: seen in `futhark_context_report` and on stderr.
#[test]
fn c_library_profiling_and_logging() {
    let dir = test_dir("library");
    std::fs::write(dir.join("prog.fut"), PROGRAM).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--library", "--target=cpu", "-o", "prog", "prog.fut"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let c = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"
static int calls(struct futhark_context *ctx) {
  char *r = futhark_context_report(ctx);
  int n = 0;
  for (char *p = r; (p = strstr(p, "\"entry main\"")) != NULL; p++) n++;
  free(r);
  return n;
}
int main(int argc, char **argv) {
  (void) argv;
  struct futhark_context_config *cfg = futhark_context_config_new();
  if (argc == 1) { futhark_context_config_set_profiling(cfg, 1); futhark_context_config_set_logging(cfg, 1); }
  futhark_context_config_set_cache_file(cfg, "unused.cache");
  struct futhark_context *ctx = futhark_context_new(cfg);
  float data[3] = {1, 2, 3}, out = 0;
  struct futhark_f32_1d *xs = futhark_new_f32_1d(ctx, data, 3);
  futhark_entry_main(ctx, &out, xs);
  int a = calls(ctx);
  futhark_context_pause_profiling(ctx);
  futhark_entry_main(ctx, &out, xs);
  int b = calls(ctx);
  futhark_context_unpause_profiling(ctx);
  futhark_entry_main(ctx, &out, xs);
  printf("%g %d %d %d\n", out, a, b, calls(ctx));
  futhark_free_f32_1d(ctx, xs);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  return 0;
}
"#;
    std::fs::write(dir.join("main.c"), c).unwrap();
    let cc = Command::new("cc")
        .args([
            "-std=c99",
            "-Wall",
            "-Werror",
            "-I.",
            "main.c",
            "-o",
            "main",
            "./prog.so",
            "-Wl,-rpath,$ORIGIN",
        ])
        .current_dir(&dir)
        .output()
        .expect("cc runs");
    assert!(cc.status.success(), "{}", text(&cc.stderr));
    let main = |args: &[&str]| {
        Command::new(dir.join("main"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let out = main(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "6 1 1 2\n");
    let err = text(&out.stderr);
    assert_eq!(err.matches("[futmlir] calling entry point main").count(), 3, "{err}");
    // Without them: no events, no log.
    let out = main(&["quiet"]);
    assert_eq!(text(&out.stdout), "6 0 0 0\n");
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A CUDA executable, built without a GPU: `--dump-ptx` writes its PTX and
/// exits 0 without reading stdin or starting CUDA; the CUDA library's
/// header has the GPU configuration functions.
#[test]
fn cuda_dump_ptx() {
    let dir = test_dir("dump");
    let exe = build(&dir, "cuda");
    let out = run(&exe, &dir, &["--dump-ptx", "prog.ptx"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ptx = std::fs::read_to_string(dir.join("prog.ptx")).unwrap();
    assert!(ptx.contains(".version") && ptx.contains(".entry"), "{ptx}");
    let out = run(&exe, &dir, &["--dump-ptx", "no/such/dir/prog.ptx"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("Error: --dump-ptx: cannot write no/such/dir/prog.ptx"));
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--library", "--target=cuda", "-o", "lib", "prog.fut"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let header = std::fs::read_to_string(dir.join("lib.h")).unwrap();
    for f in [
        "void futhark_context_config_set_device(struct futhark_context_config *cfg, const char *s);",
        "void futhark_context_config_load_ptx_from(struct futhark_context_config *cfg, const char *path);",
        "void futhark_context_config_set_default_thread_block_size(struct futhark_context_config *cfg, int num);",
        "void futhark_context_config_set_default_group_size(struct futhark_context_config *cfg, int num);",
        "void futhark_context_config_set_default_grid_size(struct futhark_context_config *cfg, int num);",
        "void futhark_context_config_set_default_num_groups(struct futhark_context_config *cfg, int num);",
        "void futhark_context_config_set_default_tile_size(struct futhark_context_config *cfg, int num);",
    ] {
        assert!(header.contains(f), "lib.h lacks {f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a GPU: `--cache-file` written on the first start and loaded on the
/// second (`-L` says which), a corrupt cache ignored with the right
/// answer, `--load-ptx` of the dumped PTX, `-d`, and `-P` rows naming
/// the kernels. Skips with a notice where no CUDA device can be used.
#[test]
fn cuda_cache_file_device_and_profile() {
    let dir = test_dir("cuda");
    let exe = build(&dir, "cuda");
    let probe = run(&exe, &dir, &[], INPUT);
    if !probe.status.success() {
        let err = text(&probe.stderr);
        assert!(
            err.contains("CUDA"),
            "a CUDA executable failed for another reason: {err}"
        );
        eprintln!(
            "cuda_cache_file_device_and_profile: skipped: no usable CUDA device ({})",
            err.trim()
        );
        return;
    }
    assert_eq!(text(&probe.stdout), "6.0f32\n");
    let with_cache = |extra: &[&str]| {
        let mut args = vec!["-L", "--cache-file", "prog.cache"];
        args.extend_from_slice(extra);
        let out = run(&exe, &dir, &args, INPUT);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "6.0f32\n");
        text(&out.stderr)
    };
    let first = with_cache(&[]);
    assert!(first.contains("module written to cache file prog.cache"), "{first}");
    let second = with_cache(&[]);
    assert!(second.contains("module loaded from cache file prog.cache"), "{second}");
    let mut bytes = std::fs::read(dir.join("prog.cache")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(dir.join("prog.cache"), &bytes).unwrap();
    let damaged = with_cache(&[]);
    assert!(damaged.contains("not used: its image is damaged"), "{damaged}");
    std::fs::write(dir.join("prog.cache"), b"garbage").unwrap();
    assert!(with_cache(&[]).contains("not used"));
    assert!(with_cache(&[]).contains("module loaded from cache file"));
    // -d: by number, by name, and none.
    let log = with_cache(&["-d", "#0"]);
    assert!(log.contains("using CUDA device #0: "), "{log}");
    let out = run(&exe, &dir, &["-d", "#99"], INPUT);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("there is no CUDA device number 99"));
    let out = run(&exe, &dir, &["-d", "no such device name"], INPUT);
    assert!(text(&out.stderr).contains("no CUDA device's name contains `no such device name`"));
    // --load-ptx of the dumped PTX gives the same answer.
    assert!(run(&exe, &dir, &["--dump-ptx=p.ptx"], "").status.success());
    let out = run(&exe, &dir, &["--load-ptx=p.ptx"], INPUT);
    assert_eq!(text(&out.stdout), "6.0f32\n", "{}", text(&out.stderr));
    // -P names the kernels (k0, k1, ...) and times copies; -D too, after
    // waiting for each kernel.
    for flag in ["-P", "-D"] {
        let out = run(&exe, &dir, &[flag, "-r", "2"], INPUT);
        assert_eq!(text(&out.stdout), "6.0f32\n");
        let rows = profile_rows(&text(&out.stderr));
        assert!(rows.iter().any(|r| r.0.starts_with('k') && r.1 >= 2), "{rows:?}");
        assert!(rows.iter().any(|r| r.0 == "copy_host_to_dev"), "{rows:?}");
        assert!(rows.iter().any(|r| r.0 == "entry main" && r.1 == 2), "{rows:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
