//! `futmlir test`'s options, as futhark-test(1) describes them: `-c`/`-i`,
//! `-C`/`-t`/`-I`/`-s`, `--exclude`, `--entry-point`, `--concurrency`,
//! the status line, and what the executables are run with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

/// A temporary folder holding `files`.
fn programs(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// `futmlir test ARGS... PATH`: exit code, stdout, stderr.
fn test(args: &[&str], path: &Path) -> (Option<i32>, String, String) {
    let out: Output = futmlir().arg("test").args(args).arg(path).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The last line of `futmlir test`'s output: the summary.
fn summary(stdout: &str) -> &str {
    stdout.lines().last().unwrap_or_default()
}

/// Type-checks, but indexes out of bounds when run.
const OUT_OF_BOUNDS: &str = "-- ==\n-- input { [1, 2, 3] 5i64 } output { 1 }\nentry main (a: []i32) (i: i64) = a[i]\n";

#[test]
fn typecheck_and_frontend_only_do_not_run_what_compiled_runs_fail() {
    let dir = programs(&[("oob.fut", OUT_OF_BOUNDS)]);
    let (code, out, _) = test(&["-c"], dir.path());
    assert_eq!(
        (code, summary(&out)),
        (Some(1), "0 passed, 1 failed, 0 skipped"),
        "{out}"
    );
    assert!(
        out.contains("oob.fut:2: entry main: run-time error: Error: Index [5] out of bounds"),
        "{out}"
    );
    // One counted case per program: it type-checks (and internalises).
    for flag in ["-t", "-I"] {
        let (code, out, _) = test(&[flag], dir.path());
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "1 passed, 0 failed, 0 skipped\n"),
            "{flag}"
        );
    }
    // A type error fails them.
    let dir = programs(&[("bad.fut", "-- ==\n-- input { 1 }\nentry main (x: i32) = x + true\n")]);
    let (code, out, _) = test(&["-t"], dir.path());
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with(&format!(
            "{}:2: compilation failed:\n",
            dir.path().join("bad.fut").display()
        )),
        "{out}"
    );
    assert_eq!(summary(&out), "0 passed, 1 failed, 0 skipped");
}

/// A `--runner` that logs its arguments to `log`, one per line, and runs
/// the executable without the options today's executables refuse.
fn logging_runner(dir: &Path, log: &Path) -> PathBuf {
    let script = dir.join("runner.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\nprintf '%s\\n' \"$@\" >> '{}'\nexe=$1; shift; keep=()\n\
             for a in \"$@\"; do case $a in --tuning=*|--cache-file=*|--marker) ;; *) keep+=(\"$a\");; esac; done\n\
             exec \"$exe\" \"${{keep[@]}}\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn compile_only_compiles_but_does_not_run() {
    let dir = programs(&[("oob.fut", OUT_OF_BOUNDS)]);
    let log = dir.path().join("runs.log");
    let runner = logging_runner(dir.path(), &log);
    let runner = format!("--runner={}", runner.display());
    let (code, out, _) = test(&["-C", "-c", &runner], &dir.path().join("oob.fut"));
    assert_eq!((code, out.as_str()), (Some(0), "1 passed, 0 failed, 0 skipped\n"));
    assert!(!log.exists(), "-C ran the program");
    // Without -C the runner runs it (and the case fails).
    let (code, _, _) = test(&["-c", &runner], &dir.path().join("oob.fut"));
    assert_eq!(code, Some(1));
    assert!(log.exists());
    // A compile-time `error:` block is still checked.
    let dir = programs(&[("e.fut", "-- ==\n-- error: Unknown name\nentry main (x: i32) = y\n")]);
    let (code, out, _) = test(&["-C"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "1 passed, 0 failed, 0 skipped\n"));
}

#[test]
fn executables_get_tuning_cache_file_and_pass_options() {
    let dir = programs(&[(
        "p.fut",
        "-- ==\n-- input { 1 } output { 2 }\nentry main (x: i32) = x + 1\n",
    )]);
    let prog = dir.path().join("p.fut");
    std::fs::write(dir.path().join("p.fut.tuning"), "").unwrap();
    let log = dir.path().join("runs.log");
    let runner = format!("--runner={}", logging_runner(dir.path(), &log).display());
    let args = ["-c", &runner, "--cache-extension=cache", "--pass-option=--marker"];
    let (code, out, err) = test(&args, &prog);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "1 passed, 0 failed, 0 skipped\n"),
        "{err}"
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = logged.lines().collect();
    assert!(lines[0].ends_with("/program"), "{logged}");
    assert_eq!(lines[1], format!("--tuning={}.tuning", prog.display()));
    assert_eq!(lines[2], format!("--cache-file={}.cache", prog.display()));
    assert_eq!(&lines[3..], ["--marker", "-e", "main", "-b"]);
    // --no-tuning, or a tuning file that is not there: no --tuning.
    for args in [&["-c", &runner, "--no-tuning"][..], &["-c", &runner, "--tuning=other"]] {
        std::fs::remove_file(&log).unwrap();
        let (code, _, _) = test(args, &prog);
        assert_eq!(code, Some(0));
        let logged = std::fs::read_to_string(&log).unwrap();
        assert!(!logged.contains("--tuning"), "{logged}");
    }
}

#[test]
fn pass_compiler_option_reaches_the_compile() {
    let dir = programs(&[("p.fut", "-- ==\n-- input { 1 } output { 1 }\nentry main (x: i32) = x\n")]);
    let (code, _, err) = test(&["-c", "--pass-compiler-option=--timing"], dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("Total"), "no timing table: {err}");
    // The command line's own compile flags stay.
    let (code, _, err) = test(&["-c", "--timing", "--pass-compiler-option=--verify-each"], dir.path());
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("Total"), "no timing table: {err}");
    let (code, _, err) = test(&["-c", "--pass-compiler-option=--bogus"], dir.path());
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "error: bad --pass-compiler-option: unexpected argument '--bogus' found\n"
    );
    // The interpreter compiles nothing.
    let (code, _, err) = test(&["--pass-compiler-option=--timing"], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("--timing applies to the compiled backends"), "{err}");
}

#[test]
fn backend_flags_that_disagree_are_usage_errors() {
    let dir = programs(&[("p.fut", "-- ==\n-- input { 1 } output { 1 }\nentry main (x: i32) = x\n")]);
    for (args, msg) in [
        (
            &["-c", "--backend=interp"][..],
            "error: -c asks for a compiled backend, but --backend=interp\n",
        ),
        (
            &["-i", "--backend=cpu"],
            "error: -i asks for the interpreter, but --backend=cpu\n",
        ),
        (
            &["--pass-option=-x"],
            "error: --pass-option applies to the compiled backends' executables (-c, --backend=cpu or cuda)\n",
        ),
        (
            &["-t", "--each-pass", "-c"],
            "error: -t cannot be combined with --each-pass or --bundle\n",
        ),
    ] {
        let (code, out, err) = test(args, dir.path());
        assert_eq!((code, out.as_str(), err.as_str()), (Some(2), "", msg), "{args:?}");
    }
    let (code, _, err) = test(&["-c", "-i"], dir.path());
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn exclude_skips_tagged_blocks_and_cases() {
    let src = concat!(
        "-- ==\n-- tags { wip }\n-- input { 1 } output { 5 }\n",
        "-- ==\n-- slow input { 2 } output { 7 }\n-- input { 3 } output { 3 }\n",
        "entry main (x: i32) = x\n",
    );
    let dir = programs(&[("t.fut", src)]);
    let (code, out, _) = test(&[], dir.path());
    assert_eq!((code, summary(&out)), (Some(1), "1 passed, 2 failed, 0 skipped"));
    let (code, out, _) = test(&["--exclude=wip", "--exclude=slow", "-v"], dir.path());
    assert_eq!(code, Some(0), "{out}");
    let p = dir.path().join("t.fut");
    let p = p.display();
    assert_eq!(
        out,
        format!(
            "{p}:3: entry main: skipped (tag wip excluded)\n{p}:5: entry main: skipped (tag slow excluded)\n\
             {p}:6: entry main: passed\n1 passed, 0 failed, 2 skipped\n"
        )
    );
}

#[test]
fn entry_point_runs_only_that_entry() {
    let src =
        "-- ==\n-- entry: good bad\n-- input { 1 } output { 1 }\nentry good (x: i32) = x\nentry bad (x: i32) = x + 1\n";
    let dir = programs(&[("e.fut", src)]);
    let (code, out, _) = test(&[], dir.path());
    assert_eq!((code, summary(&out)), (Some(1), "1 passed, 1 failed, 0 skipped"));
    let (code, out, _) = test(&["--entry-point=good"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "1 passed, 0 failed, 0 skipped\n"));
    let (code, out, _) = test(&["--entry-point=bad"], dir.path());
    assert_eq!((code, summary(&out)), (Some(1), "0 passed, 1 failed, 0 skipped"));
}

#[test]
fn structure_only_runs_only_structure_blocks() {
    let src = "-- ==\n-- input { [1, 2] } output { 99 }\n-- structure { Screma 1 }\n\
               entry main (xs: []i32): i32 = reduce (+) 0 (map (* 2) xs)\n";
    let dir = programs(&[("s.fut", src)]);
    let (code, out, _) = test(&["-s"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "1 passed, 0 failed, 0 skipped\n"));
    let (code, out, _) = test(&[], dir.path());
    assert_eq!((code, summary(&out)), (Some(1), "1 passed, 1 failed, 0 skipped"));
}

/// Programs, some of them failing, for the concurrency tests.
fn mixed_programs() -> tempfile::TempDir {
    let mut files = Vec::new();
    for i in 0..8 {
        let expected = if i % 3 == 0 { i + 100 } else { i };
        files.push((
            format!("p{i}.fut"),
            format!(
                "-- ==\n-- input {{ {i} }} output {{ {expected} }}\n-- notest input {{ 0 }}\nentry main (x: i32) = x\n"
            ),
        ));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    programs(&files)
}

#[test]
fn concurrency_does_not_change_the_results() {
    let dir = mixed_programs();
    let mut runs = Vec::new();
    for n in ["--concurrency=1", "--concurrency=4"] {
        let (code, out, _) = test(&[n], dir.path());
        let mut lines: Vec<String> = out.lines().map(str::to_string).collect();
        let last = lines.pop().unwrap();
        lines.sort();
        runs.push((code, last, lines));
    }
    assert_eq!(runs[0], runs[1]);
    let (code, summary, failures) = &runs[0];
    assert_eq!((*code, summary.as_str()), (Some(1), "5 passed, 3 failed, 8 skipped"));
    assert_eq!(failures.len(), 3, "{failures:?}");
    assert!(
        failures[0].ends_with("p0.fut:2: entry main: value 0: expected 100i32, got 0i32"),
        "{failures:?}"
    );
    // One program, run alone, is ordered as the source.
    let (code, out, _) = test(&["--concurrency=4", "-v"], &dir.path().join("p3.fut"));
    assert_eq!(code, Some(1));
    assert!(
        out.contains(":2: entry main: value 0: expected 103i32, got 3i32\n"),
        "{out}"
    );
    assert!(out.contains(":3: entry main: skipped (notest)\n"), "{out}");
    let (code, _, err) = test(&["--concurrency=0"], dir.path());
    assert_eq!(code, Some(2), "{err}");
}

#[test]
fn no_terminal_prints_plain_status_lines() {
    let dir = mixed_programs();
    // Not a terminal, and the run is shorter than a minute: no status.
    let (_, _, err) = test(&[], dir.path());
    assert_eq!(err, "");
    let (_, _, err) = test(&["--no-terminal", "--status-interval=0", "--concurrency=2"], dir.path());
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("futmlir test: 8/8 files done, 5 passed, 3 failed so far ("),
        "{err}"
    );
    assert!(!err.contains('\r'), "{err:?}");
}

/// Run-time errors of every kind, with a regex nothing matches, so that
/// the report shows each error's text.
const RUNTIME_ERRORS: &str = concat!(
    "-- ==\n-- entry: idx idx2 slice upd divz modz asrt coerce iot repl mapidx mapdiv\n",
    "-- input { [1, 2, 3] 5i64 } error: NOTHING\n",
    "entry idx (a: []i32) (i: i64) = a[i]\n",
    "entry idx2 (a: []i32) (i: i64) = let b = unflatten (a :> [1*3]i32) in b[0, i]\n",
    "entry slice (a: []i32) (i: i64) = a[1:i]\n",
    "entry upd (a: *[]i32) (i: i64) = a with [i] = 0\n",
    "entry divz (a: []i32) (i: i64) = a[0] / i32.i64 (i - 5)\n",
    "entry modz (a: []i32) (i: i64) = i64.i32 a[0] % (i - 5)\n",
    "entry asrt (a: []i32) (i: i64) = assert (i < 3) a[0]\n",
    "entry coerce (a: []i32) (i: i64) = a :> [i]i32\n",
    "entry iot (a: []i32) (i: i64) = iota (i - 7)\n",
    "entry repl (a: []i32) (i: i64) = replicate (3 - i) a[0]\n",
    "entry mapidx (a: []i32) (i: i64) = map (\\j -> a[j + i]) (iota 2)\n",
    "entry mapdiv (a: []i32) (i: i64) = map (\\x -> x / (i32.i64 i - 5)) a\n",
);

#[test]
fn interpreter_and_executables_report_the_same_runtime_errors() {
    let dir = programs(&[("errors.fut", RUNTIME_ERRORS)]);
    let (code, interp, _) = test(&["-i"], dir.path());
    assert_eq!(
        (code, summary(&interp)),
        (Some(1), "0 passed, 12 failed, 0 skipped"),
        "{interp}"
    );
    let (code, compiled, _) = test(&["-c"], dir.path());
    assert_eq!(code, Some(1));
    assert_eq!(interp, compiled);
    for error in [
        "Error: Index [5] out of bounds for array of shape [3].",
        "Error: Index [0, 5] out of bounds for array of shape [1][3].",
        "Error: Index [1:5] out of bounds for array of shape [3].",
        "Error: division by zero",
        "Error: Assertion is false: (i < 3)",
        "Error: Value of shape [3] cannot match shape of type \"[5]i32\".",
        "Error: Range 0..1..<-2 is invalid.",
        "Error: replicate: negative size -2",
    ] {
        assert!(interp.contains(&format!("\n  {error}")), "no `{error}` in\n{interp}");
    }
}

#[test]
fn the_man_pages_error_example_passes() {
    let src = concat!(
        "-- Test simple indexing of an array.\n-- ==\n-- tags { firsttag secondtag }\n",
        "-- input { [4,3,2,1] 1i64 }\n-- output { 3 }\n-- input { [4,3,2,1] 5i64 }\n-- error: Error*\n\n",
        "let main (a: []i32) (i: i64): i32 =\n  a[i]\n",
    );
    let dir = programs(&[("index.fut", src)]);
    for backend in ["-i", "-c"] {
        let (code, out, _) = test(&[backend], dir.path());
        assert_eq!(
            (code, out.as_str()),
            (Some(0), "2 passed, 0 failed, 0 skipped\n"),
            "{backend}"
        );
    }
    // The regex is searched for anywhere in the message.
    let dir = programs(&[("index.fut", &src.replace("Error*", "of shape \\[4\\]"))]);
    let (code, out, _) = test(&["-i"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "2 passed, 0 failed, 0 skipped\n"));
}

/// futhark-test(1)'s property example, a property with a counterexample,
/// and one with its own generator and shrinker.
const PROPERTIES: &str = concat!(
    "-- ==\n-- property: reverse_involution at_most_10 small_sum\n\n",
    "#[prop]\nentry reverse_involution (xs: []i32) =\n  and (map2 (==) (reverse (reverse xs)) xs)\n\n",
    "#[prop(size(50))]\nentry at_most_10 (xs: []i32) = all (\\x -> x <= 10) xs\n\n",
    "#[prop(gen(pair), shrink(smaller), size(30))]\nentry small_sum (p: [2]i64) = p[0] + p[1] < 100\n\n",
    "entry pair (size: i64) (seed: u64) : [2]i64 = [size * 3 + i64.u64 (seed % 7), size]\n",
    "entry smaller (p: [2]i64) (r: u64) : [2]i64 =\n",
    "  if r % 2 == 0 then [p[0] - 1, p[1]] else [p[0], p[1] - 1]\n",
);

#[test]
fn properties_find_and_shrink_counterexamples() {
    let dir = programs(&[("props.fut", PROPERTIES)]);
    let (code, interp, _) = test(&["-i", "--seed=7"], dir.path());
    assert_eq!(code, Some(1));
    let lines: Vec<&str> = interp.lines().collect();
    let p = dir.path().join("props.fut");
    let p = p.display();
    // Shrunk: one element just over the bound; a pair whose sum is just
    // 100 (the shrinker makes it 99 either way).
    assert!(
        lines[0].starts_with(&format!("{p}:2: entry at_most_10: counterexample (candidate ")),
        "{interp}"
    );
    assert!(lines[0].contains(", seed 7), shrunk in "), "{interp}");
    assert_eq!(lines[1], "  [11i32]");
    assert!(
        lines[2].starts_with(&format!("{p}:2: entry small_sum: counterexample")),
        "{interp}"
    );
    let pair: Vec<i64> = lines[3]
        .trim_matches(|c| " []".contains(c))
        .split(", ")
        .map(|x| x.trim_end_matches("i64").parse().unwrap())
        .collect();
    assert_eq!(pair.iter().sum::<i64>(), 100, "{interp}");
    assert_eq!(lines[4], "1 passed, 2 failed, 0 skipped");
    // The same seed gives the same candidates, compiled too.
    let (_, again, _) = test(&["-i", "--seed=7"], dir.path());
    assert_eq!(again, interp);
    let (_, compiled, _) = test(&["-c", "--seed=7"], dir.path());
    assert_eq!(compiled, interp);
    // One property alone passes.
    let (code, out, _) = test(&["--entry-point=reverse_involution"], dir.path());
    assert_eq!((code, out.as_str()), (Some(0), "1 passed, 0 failed, 0 skipped\n"));
}

#[test]
fn properties_that_cannot_be_tested_say_why() {
    let src = concat!(
        "-- ==\n-- property: noprop tup nothere notbool\n",
        "entry noprop (xs: []i32) = true\n",
        "#[prop]\nentry tup (p: (i32, bool)) = p.1\n",
        "#[prop]\nentry notbool (x: i32) = x\n",
        "-- ==\n-- property:\n",
    );
    let dir = programs(&[("bad.fut", src)]);
    let (code, out, _) = test(&[], dir.path());
    assert_eq!(code, Some(1));
    assert!(
        out.ends_with(":9: malformed test spec: `property:` names no property\n0 passed, 1 failed, 0 skipped\n"),
        "{out}"
    );
    let dir = programs(&[("bad.fut", src.trim_end_matches("-- ==\n-- property:\n"))]);
    let (code, out, _) = test(&[], dir.path());
    assert_eq!(code, Some(1));
    let reasons: Vec<&str> = out
        .lines()
        .map(|l| l.splitn(3, ": ").nth(2).unwrap_or_default())
        .collect();
    assert_eq!(
        reasons,
        [
            "entry point `noprop` is not a property: it has no #[prop] attribute",
            "candidates of type (i32, bool) need a generator: #[prop(gen(f))] with f : i64 -> u64 -> (i32, bool)",
            "no entry point `nothere`",
            "property `notbool` must have type t -> bool",
            "",
        ]
    );
    assert_eq!(summary(&out), "0 passed, 4 failed, 0 skipped");
}
