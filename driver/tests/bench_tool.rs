//! `futmlir bench` and `futmlir dataset` end to end, against their manual
//! pages (`futhark-docs/man/futhark-bench.rst`, `futhark-dataset.rst`):
//! the `--json` document read back, the options, and the order of
//! `dataset`'s options.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

/// A fresh folder of files for one test, removed when it ends.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str, files: &[(&str, &[u8])]) -> Dir {
        let dir = std::env::temp_dir().join(format!("futmlir-bench-tool-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (f, bytes) in files {
            std::fs::write(dir.join(f), bytes).unwrap();
        }
        Dir(dir)
    }
    fn path(&self, f: &str) -> PathBuf {
        self.0.join(f)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn bench(args: &[&str], programs: &[&Path]) -> Output {
    futmlir().arg("bench").args(args).args(programs).output().unwrap()
}

fn read_json(path: &Path) -> (String, Json) {
    let raw = std::fs::read_to_string(path).unwrap();
    let doc = serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{e}: {raw}"));
    (raw, doc)
}

/// `printf '[1i32, 2i32]\n' | gzip -n`.
const GZIPPED: &[u8] = &[
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x8b, 0x36, 0xcc, 0x34, 0x36, 0xd2, 0x51, 0x30, 0x02,
    0x92, 0xb1, 0x5c, 0x00, 0x40, 0x9c, 0x64, 0x50, 0x0d, 0x00, 0x00, 0x00,
];

const PROGRAM: &str = "\
-- ==
-- entry: main twice
-- input { [1, 2, 3] }
-- random input { [100]i32 }
-- \"given name\" input { [4] }
-- input @ data.in.gz
-- nobench input { [0] }
-- input { [1] } error: never
-- slow input { [5, 5] }
-- ==
-- tags { nobench }
-- input { [9] }
-- ==
-- script input { mk 3i64 }
entry main (xs: []i32): i32 = reduce (+) 0 xs
entry twice (xs: []i32): i32 = 2 * reduce (+) 0 xs
entry mk (n: i64): []i32 = map i32.i64 (iota n)
";

/// The `--json` document is `futhark bench`'s: keyed by program (with
/// `:ENTRY` but for `main`), then `datasets`, then Futhark's dataset
/// names, each `{"bytes": {SPACE: N}, "runtimes": [...], "stderr": ...}`,
/// compact with sorted keys; `.gz` inputs and `script input`s run;
/// `nobench`, error cases and `--exclude-case` tags are left out.
#[test]
fn json_document_and_dataset_names_are_futharks() {
    let dir = Dir::new("json", &[("prog.fut", PROGRAM.as_bytes()), ("data.in.gz", GZIPPED)]);
    let prog = dir.path("prog.fut");
    let json = dir.path("out.json");
    let json_arg = format!("--json={}", json.display());
    let args = [
        "--backend=cpu",
        "-r",
        "3",
        "--no-convergence-phase",
        "--exclude-case=slow",
        &json_arg,
    ];
    let out = bench(&args, &[&prog]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let (raw, doc) = read_json(&json);
    assert!(!raw.contains(": ") && !raw.contains('\n'), "compact: {raw}");
    let shown = prog.display().to_string();
    let programs: Vec<&String> = doc.as_object().unwrap().keys().collect();
    let twice = format!("{shown}:twice");
    assert_eq!(programs, [&shown, &twice]);
    let main_sets = doc[&shown].as_object().unwrap();
    assert_eq!(main_sets.keys().collect::<Vec<_>>(), ["datasets"]);
    let names: Vec<&String> = main_sets["datasets"].as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        [
            "#0 (\"[1i32, 2i32, 3i32]\")",
            "[100]i32",
            "data.in",
            "given name",
            "mk 3i64"
        ],
        "{raw}"
    );
    for (name, d) in main_sets["datasets"].as_object().unwrap() {
        let fields: Vec<&String> = d.as_object().unwrap_or_else(|| panic!("{name}: {d}")).keys().collect();
        assert_eq!(fields, ["bytes", "runtimes", "stderr"], "{name}");
        let runtimes = d["runtimes"].as_array().unwrap();
        assert!(runtimes.len() >= 3, "{name}: {d}");
        assert!(runtimes.iter().all(|t| t.is_u64()), "{name}: {d}");
        assert!(d["bytes"]["default"].as_u64().unwrap() > 0, "{name}: {d}");
        assert!(d["stderr"].is_string(), "{name}: {d}");
    }
    // Keys in order in the file itself, as aeson writes them.
    let at = |k: &str| raw.find(k).unwrap();
    assert!(
        at("\"bytes\"") < at("\"runtimes\"") && at("\"runtimes\"") < at("\"stderr\""),
        "{raw}"
    );
    assert_eq!(doc[&twice]["datasets"].as_object().unwrap().len(), 4, "{raw}");
    // The report: a header per entry point, a line per dataset.
    assert!(stdout.contains(&format!("\n{shown} (no tuning file):\n")), "{stdout}");
    assert!(stdout.contains(&format!("\n{twice} (no tuning file):\n")), "{stdout}");
    let line = regex::Regex::new(r"^(.+): +\d+μs \(95% CI: \[ *-?\d+\.\d, *\d+\.\d\]\)$").unwrap();
    let measured: Vec<String> = stdout
        .lines()
        .filter_map(|l| line.captures(l).map(|c| c[1].trim_end().to_string()))
        .collect();
    assert_eq!(measured.len(), 9, "{stdout}");
    assert!(measured.contains(&"given name".to_string()), "{stdout}");
    // Without the exclusion, the `slow` case runs too.
    let out = bench(
        &[
            "--backend=cpu",
            "-r",
            "1",
            "--no-convergence-phase",
            "-e",
            "main",
            &json_arg,
        ],
        &[&prog],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (raw, doc) = read_json(&json);
    assert!(doc[&shown]["datasets"]["#6 (\"[5i32, 5i32]\")"].is_object(), "{raw}");
    assert!(doc.get(&twice).is_none(), "{raw}");
}

/// A failing dataset (a wrong result, a timeout) prints its error and the
/// others still run; `--json` is written, with the error as the
/// dataset's value, and the exit status is 1.
#[test]
fn failures_and_timeouts_continue_and_fail_the_run() {
    let program = "\
-- ==
-- input { 100000000000i64 } output { 0i64 }
-- input { 1i64 } output { 5i64 }
-- input { 2i64 } output { 1i64 }
def main (n: i64): i64 =
  let (s, _) = loop (s, i) = (0i64, 0i64) while i < n do ((s * 31 + i) % 1000003, i + 1)
  in s
";
    let dir = Dir::new("timeout", &[("spin.fut", program.as_bytes())]);
    let prog = dir.path("spin.fut");
    let json = dir.path("out.json");
    let json_arg = format!("--json={}", json.display());
    let start = std::time::Instant::now();
    let args = [
        "--backend=cpu",
        "-r",
        "2",
        "--timeout=2",
        "--pass-compiler-option=--timing",
        &json_arg,
    ];
    let out = bench(&args, &[&prog]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(start.elapsed().as_secs() < 60, "the timeout did not stop the run");
    assert!(
        stderr.contains("dataset #0 (\"100000000000i64\") (line 2): timed out after 2 s"),
        "{stderr}"
    );
    assert!(
        stderr.contains("dataset #1 (\"1i64\") (line 3): wrong result"),
        "{stderr}"
    );
    // `--pass-compiler-option=--timing` reached the compiler: its table.
    assert!(stderr.contains("llvm-to-object"), "{stderr}");
    let (raw, doc) = read_json(&json);
    let sets = &doc[prog.display().to_string()]["datasets"];
    assert_eq!(sets["#0 (\"100000000000i64\")"], "timed out after 2 s", "{raw}");
    assert!(
        sets["#1 (\"1i64\")"].as_str().unwrap().starts_with("wrong result"),
        "{raw}"
    );
    assert!(sets["#2 (\"2i64\")"]["runtimes"].is_array(), "{raw}");
}

/// A program that does not compile aborts the run before anything runs.
#[test]
fn compile_failure_aborts() {
    let dir = Dir::new(
        "abort",
        &[
            (
                "a_bad.fut",
                b"-- ==\n-- input { 1 }\ndef main (x: i32): i32 = x + true\n",
            ),
            (
                "b_good.fut",
                b"-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32): i32 = x + 1\n",
            ),
        ],
    );
    let json = dir.path("out.json");
    let out = bench(&["-r", "1", &format!("--json={}", json.display())], &[&dir.0]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("a_bad.fut: compilation failed:"),
        "{}",
        text(&out.stderr)
    );
    assert!(!text(&out.stdout).contains("μs"), "{}", text(&out.stdout));
    assert!(!json.exists());
    for args in [
        &["bench", "-r", "0", "x.fut"][..],
        &["bench", "--backend=opencl", "x.fut"],
        &["bench"],
        &["bench", "--frob", "x.fut"],
        &["bench", "--ignore-files=(", "x.fut"],
        &["bench", "--pass-compiler-option=--frob", "x.fut"],
        &["bench", "--pass-compiler-option=--timing", "--timing", "x.fut"],
    ] {
        let out = futmlir().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let both = ["bench", "--pass-compiler-option=--timing", "--timing", "x.fut"];
    let err = text(&futmlir().args(both).output().unwrap().stderr);
    assert!(
        err.contains("directly or with --pass-compiler-option, not both"),
        "{err}"
    );
}

/// `--skip-compilation` runs the executable beside the program (here one
/// whose source does not even compile); `--runner` gets the executable and
/// its options, among them `--tuning` (a `prog.fut.tuning` that exists,
/// unless `--no-tuning`), `--cache-file` and the `--pass-option`s.
#[test]
fn skip_compilation_runner_tuning_and_pass_options() {
    let good = "-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32): i32 = x + 1\n";
    let runner = "#!/bin/bash\necho \"$@\" >> \"$(dirname \"$0\")/log\"\nexe=$1; shift; keep=()\n\
                  while [ $# -gt 0 ]; do case \"$1\" in --tuning=*|--cache-file=*|--extra) shift;; \
                  *) keep+=(\"$1\"); shift;; esac; done\nexec \"$exe\" \"${keep[@]}\"\n";
    let dir = Dir::new(
        "skip",
        &[
            ("good.fut", good.as_bytes()),
            ("prog.fut", good.replace("x + 1", "x + true").as_bytes()),
            ("prog.fut.tuning", b"main.segred_group_size_0=128\n"),
            ("runner.sh", runner.as_bytes()),
        ],
    );
    let out = futmlir().arg("build").arg(dir.path("good.fut")).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::rename(dir.path("good"), dir.path("prog")).unwrap();
    let sh = dir.path("runner.sh");
    let status = Command::new("chmod").arg("+x").arg(&sh).status().unwrap();
    assert!(status.success());
    let prog = dir.path("prog.fut");
    let runner_arg = format!("--runner={}", sh.display());
    let common = ["-r", "1", "--no-convergence-phase", "--skip-compilation", &runner_arg];
    let out = bench(
        &[&common[..], &["--cache-extension=cache", "--pass-option=--extra"]].concat(),
        &[&prog],
    );
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stdout).contains("(using prog.fut.tuning):"),
        "{}",
        text(&out.stdout)
    );
    let log = std::fs::read_to_string(dir.path("log")).unwrap();
    let first = log.lines().next().unwrap();
    let d = dir.0.display();
    assert!(first.starts_with(&format!("{d}/prog -e main -r ")), "{first}");
    assert!(
        first.contains(&format!(
            "--tuning={d}/prog.fut.tuning --cache-file={d}/prog.fut.cache --extra"
        )),
        "{first}"
    );
    std::fs::remove_file(dir.path("log")).unwrap();
    let out = bench(&[&common[..], &["--no-tuning"]].concat(), &[&prog]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("(no tuning file):"), "{}", text(&out.stdout));
    assert!(!std::fs::read_to_string(dir.path("log")).unwrap().contains("--tuning"));
    // No executable to skip to.
    std::fs::remove_file(dir.path("prog")).unwrap();
    let out = bench(&common, &[&prog]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no executable"), "{}", text(&out.stderr));
}

/// `--spec-file` replaces the programs' blocks; `--ignore-files` leaves
/// programs out (on the interpreter, which compiles nothing).
#[test]
fn spec_file_and_ignore_files() {
    let dir = Dir::new(
        "spec",
        &[
            (
                "inc.fut",
                b"-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32): i32 = x + 1\n",
            ),
            (
                "spec.txt",
                b"==\ninput { 41 } output { 42 }\n\ninput { 1 } output { 2 }\n",
            ),
            (
                "skipped.fut",
                b"-- ==\n-- input { 1 } output { 2 }\ndef main (x: i32): i32 = x\n",
            ),
        ],
    );
    let json = dir.path("out.json");
    let json_arg = format!("--json={}", json.display());
    let spec_arg = format!("--spec-file={}", dir.path("spec.txt").display());
    let args = [
        "--backend=interp",
        "-r",
        "1",
        "--no-convergence-phase",
        "--ignore-files=skip",
        &spec_arg,
        &json_arg,
    ];
    let out = bench(&args, &[&dir.0]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (raw, doc) = read_json(&json);
    let programs: Vec<&String> = doc.as_object().unwrap().keys().collect();
    assert_eq!(programs, [&dir.path("inc.fut").display().to_string()], "{raw}");
    let names: Vec<&String> = doc[programs[0]]["datasets"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["#0 (\"41i32\")", "#1 (\"1i32\")"], "{raw}");
    // The interpreter has no memory report.
    assert_eq!(
        doc[programs[0]]["datasets"]["#1 (\"1i32\")"]["bytes"],
        serde_json::json!({})
    );
}

fn dataset(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = futmlir()
        .arg("dataset")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn dataset_types_and_literal_values() {
    let out = dataset(&["-t", "-g", "[3][2]f32", "-g", "7u8", "-g", "[1,2]"], b"");
    assert_eq!(text(&out.stdout), "[3][2]f32\nu8\n[2]i32\n", "{}", text(&out.stderr));
    let out = dataset(&["-t"], b"1i64 [[1f64], [2f64]] b\x02\x00 i32\x05\x00\x00\x00");
    assert_eq!(text(&out.stdout), "i64\n[2][1]f64\ni32\n", "{}", text(&out.stderr));
    let out = dataset(&["-g", "42i32", "-g", "[true, false]"], b"");
    assert_eq!(text(&out.stdout), "42i32\n[true, false]\n");
    // A gzipped file on stdin.
    let out = dataset(&[], GZIPPED);
    assert_eq!(text(&out.stdout), "[1i32, 2i32]\n", "{}", text(&out.stderr));
    let out = dataset(&["-g", "[2]q32"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("neither a type"), "{}", text(&out.stderr));
}

/// `-b`/`--text` and `--T-bounds` apply to the `-g`s after them.
#[test]
fn dataset_options_apply_in_order() {
    let out = dataset(&["-g", "1i32", "-b", "-g", "2i32", "--text", "-g", "3i32"], b"");
    let mut want = b"1i32\n".to_vec();
    want.extend(b"b\x02\x00 i32\x02\x00\x00\x00");
    want.extend(b"3i32\n");
    assert_eq!(out.stdout, want, "{}", text(&out.stdout));
    // Without `-g`, the last format given is stdin's values' (a format
    // flag's default once sorted after the given ones).
    assert_eq!(dataset(&["-b"], b"2i32").stdout, b"b\x02\x00 i32\x02\x00\x00\x00");
    assert_eq!(dataset(&["-b", "--text"], b"2i32").stdout, b"2i32\n");
    let out = dataset(&["-g", "[40]u8", "--u8-bounds=7:7", "-g", "[40]u8"], b"");
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_ne!(
        lines[0],
        format!("[{}7u8]", "7u8, ".repeat(39)),
        "bounds applied before they were given"
    );
    assert_eq!(lines[1], format!("[{}7u8]", "7u8, ".repeat(39)));
}

/// `--profile`: each dataset's `profile` in the JSON is the report of one
/// more run with profiling (the server's `report`), whose events count
/// the entry point's call; it needs `--json`.
#[test]
fn profile_goes_in_the_json() {
    let program = "-- ==\n-- input { [1f32, 2f32, 3f32] }\nentry main (xs: []f32) = f32.sum (map (*2) xs)\n";
    let dir = Dir::new("profile", &[("p.fut", program.as_bytes())]);
    let json = dir.path("p.json");
    let json_arg = format!("--json={}", json.display());
    let out = bench(
        &["-r", "1", "--no-convergence-phase", "--profile", &json_arg],
        &[&dir.path("p.fut")],
    );
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let (raw, doc) = read_json(&json);
    let datasets = doc.as_object().unwrap().values().next().unwrap()["datasets"]
        .as_object()
        .unwrap();
    let profile = &datasets.values().next().unwrap()["profile"];
    let events = profile["events"].as_array().unwrap_or_else(|| panic!("{raw}"));
    assert!(
        events
            .iter()
            .any(|e| e["name"].as_str().is_some_and(|n| n.contains("main"))),
        "{raw}"
    );
    let out = bench(&["--profile"], &[&dir.path("p.fut")]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
