//! `futmlir build`'s options as Futhark's compilers have them
//! (`futhark-c.rst`): warnings (`-W`, `--Werror`), errors with snippets,
//! `-v`, `--safe`, `--entry-point`, `--server`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

/// A fresh directory for one test, removed when it ends.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("futmlir-build-options-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn build(prog: &Path, args: &[&str]) -> Output {
    futmlir().arg("build").args(args).arg(prog).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs an executable with `input` on stdin.
fn run(exe: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

const WARNS: &str = "def main (xs: [][]i32) (ys: [][]i32) = xs == ys\n";

#[test]
fn warnings_are_printed_silenced_or_fatal() {
    let d = Dir::new("warnings");
    let p = d.file("w.fut", WARNS);
    let out = d.0.join("w");
    let o = build(&p, &["--emit=soac"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("Comparing arrays with \"==\" is deprecated"), "{e}");
    assert!(e.contains("xs == ys"), "the warning shows the source: {e}");
    let o = build(&p, &["--emit=soac", "-W"]);
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    let o = build(&p, &["--Werror", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("1 warning, which --Werror makes errors"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists(), "no executable after --Werror failed");
    // A program without warnings builds under --Werror, silently.
    let q = d.file("q.fut", "def main (x: i32) = x + 1\n");
    let o = build(&q, &["--Werror", "--emit=soac"]);
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn errors_show_the_source() {
    let d = Dir::new("errors");
    let p = d.file("e.fut", "def main (x: i32) : bool =\n  x + true\n");
    let o = build(&p, &["--emit=soac"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.contains("e.fut:2:"), "{e}");
    assert!(e.contains("x + true"), "the snippet: {e}");
}

#[test]
fn verbose_names_each_stage_and_pass() {
    let d = Dir::new("verbose");
    let p = d.file("v.fut", "def main (xs: []f32) = f32.sum (map (*2) xs)\n");
    let o = build(&p, &["-v", "-o", d.0.join("v").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    for stage in [
        "checked",
        "internalised",
        "soac-fuse",
        "object-to-exe",
        "ran the pass pipeline",
    ] {
        assert!(e.contains(stage), "{stage} in {e}");
    }
    let o = build(&p, &["--emit=soac"]);
    assert!(stderr(&o).is_empty(), "quiet without -v: {}", stderr(&o));
}

#[test]
fn safe_keeps_the_checks_that_unsafe_removes() {
    let d = Dir::new("safe");
    let p = d.file("s.fut", "def main (xs: []i32) (i: i64) = #[unsafe] xs[i]\n");
    let exe = d.0.join("s");
    let o = build(&p, &["--safe", "-o", exe.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = run(&exe, &[], "[1, 2, 3] 7i64");
    assert_eq!(r.status.code(), Some(1), "{}", stderr(&r));
    assert!(stderr(&r).contains("out of bounds"), "{}", stderr(&r));
    let r = run(&exe, &[], "[1, 2, 3] 2i64");
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "3i32");
}

#[test]
fn entry_point_adds_an_entry_and_server_builds() {
    let d = Dir::new("entry");
    let p = d.file("e.fut", "def inc (x: i32) = x + 1\ndef main (x: i32) = x * 2\n");
    let exe = d.0.join("e");
    let o = build(&p, &["--entry-point", "inc", "--server", "-o", exe.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = run(&exe, &["-e", "inc"], "41");
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "42i32", "{}", stderr(&r));
    let r = run(&exe, &[], "21");
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "42i32", "{}", stderr(&r));
    let o = build(&p, &["--entry-point", "nope", "--emit=soac"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--entry-point nope: the program has no top-level function `nope`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_type_checks_and_warns() {
    let d = Dir::new("check");
    let p = d.file("w.fut", WARNS);
    let o = futmlir().arg("check").arg(&p).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("is deprecated"), "{}", stderr(&o));
    let o = futmlir().args(["check", "-w"]).arg(&p).output().unwrap();
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
    let o = futmlir().args(["check", "--Werror"]).arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let bad = d.file("bad.fut", "def main (x: i32) : bool = x\n");
    let o = futmlir().arg("check").arg(&bad).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bad.fut:1:"), "{}", stderr(&o));
}

/// `futmlir test` checks `warning:` lines against the warnings (`^$`:
/// none), with any backend.
#[test]
fn test_matches_warning_blocks() {
    let d = Dir::new("warning-blocks");
    d.file("w.fut", &format!("-- ==\n-- warning: deprecated\n{WARNS}"));
    d.file("none.fut", "-- ==\n-- warning: ^$\ndef main (x: i32) = x + 1\n");
    d.file("wrong.fut", &format!("-- ==\n-- warning: ^$\n{WARNS}"));
    d.file(
        "missing.fut",
        "-- ==\n-- warning: Safety check\ndef main (x: i32) = x + 1\n",
    );
    for backend in ["interp", "cpu"] {
        let o = futmlir()
            .args(["test", &format!("--backend={backend}")])
            .arg(&d.0)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(out.contains("2 passed, 2 failed"), "{out}");
        assert!(out.contains("the warnings do not match `^$`"), "{out}");
        assert!(
            out.contains("expected a warning matching `Safety check`, but there are none"),
            "{out}"
        );
    }
}
