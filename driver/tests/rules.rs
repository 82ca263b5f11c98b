//! The built-in rule files are read at run time (Note [Rule files at run
//! time]): from `--rules-dir`, else `FUTMLIR_RULES_DIR`, else the source
//! tree's `rewrite-rules/`, else the copy compiled in.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn futmlir() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_futmlir"));
    c.env_remove("FUTMLIR_RULES_DIR");
    c
}

const PROGRAM: &str = "def main (xs: []i32) = map (\\x -> x * 2) xs\n";

/// A rule set the built-in files do not have.
const STRENGTH: &str = "ruleset strength\nrule mul-two (mul ?x 2i32) => (add ?x ?x)\nschedule\nstrength 4\n";

/// A fresh folder with `prog.fut` and a `rules/` folder holding the
/// built-in rule files plus `extra` files.
fn setup(name: &str, extra: &[(&str, &str)]) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("futmlir-rules-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = dir.join("rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(dir.join("prog.fut"), PROGRAM).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rewrite-rules");
    for f in ["simplify.rules", "fusion.rules"] {
        std::fs::copy(source.join(f), rules.join(f)).unwrap();
    }
    for (f, text) in extra {
        std::fs::write(rules.join(f), text).unwrap();
    }
    (dir.join("prog.fut"), rules)
}

/// `futmlir opt` running the `strength` rule set, with `--rules-dir` and
/// `FUTMLIR_RULES_DIR` if given.
fn strength(prog: &Path, flag: Option<&Path>, env: Option<&Path>) -> Output {
    let mut cmd = futmlir();
    cmd.arg("opt")
        .arg(prog)
        .arg("--pass-pipeline=soac-rewrite{rules=strength}");
    if let Some(dir) = flag {
        cmd.arg("--rules-dir").arg(dir);
    }
    if let Some(dir) = env {
        cmd.env("FUTMLIR_RULES_DIR", dir);
    }
    cmd.output().unwrap()
}

fn texts(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_strength_ran(out: &Output) {
    let (stdout, stderr) = texts(out);
    assert!(out.status.success(), "{stderr}");
    assert!(!stdout.contains("kind = \"mul\""), "{stdout}");
    assert!(stdout.contains("kind = \"add\""), "{stdout}");
}

#[test]
fn a_rule_file_dropped_in_the_folder_is_read() {
    let (prog, rules) = setup("folder", &[("strength.rules", STRENGTH)]);
    // The default folder has no `strength` set.
    let out = strength(&prog, None, None);
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("unknown rule set"), "{stderr}");
    // The flag, and the environment variable, name the folder that has it.
    assert_strength_ran(&strength(&prog, Some(&rules), None));
    assert_strength_ran(&strength(&prog, None, Some(&rules)));
    // The flag comes first.
    assert_strength_ran(&strength(&prog, Some(&rules), Some(Path::new("/nonexistent/rules"))));
}

#[test]
fn build_reads_the_folder_too() {
    let (prog, rules) = setup("build", &[("broken.rules", "ruleset b\nrule r (mul ?x) => ?x\n")]);
    let out = futmlir()
        .arg("build")
        .arg(&prog)
        .arg("--emit=soac")
        .arg("--rules-dir")
        .arg(&rules)
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("broken.rules:2:"),
        "the file, line and column:\n{stderr}"
    );
    // Without the broken file, the same folder builds.
    std::fs::remove_file(rules.join("broken.rules")).unwrap();
    let out = futmlir()
        .arg("build")
        .arg(&prog)
        .arg("--emit=soac")
        .arg("--rules-dir")
        .arg(&rules)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", texts(&out).1);
}

#[test]
fn a_missing_folder_is_an_error_naming_where_it_was_named() {
    let (prog, _) = setup("missing", &[]);
    let out = strength(&prog, None, Some(Path::new("/nonexistent/rules")));
    let (_, stderr) = texts(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot read the rule folder /nonexistent/rules") && stderr.contains("FUTMLIR_RULES_DIR"),
        "{stderr}"
    );
}
