//! The lit-style IR test runner: every `tests/ir/**/*.mlir` file, and every
//! Futhark program `tests/ir/**/*.fut` (internalisation, source-emission and
//! `futmlir build` tests). `FUTMLIR_LIT_FILTER=soac` runs the files whose
//! path contains `soac`.
//!
//! Directives (in `//` comments; `--` comments in `.fut` files):
//! - `RUN: futmlir opt %s ... | futmlir opt - ...` — a pipeline of futmlir
//!   invocations (`%s` is the test file, `%S` its folder; `not` in front of
//!   the first command expects failure; a trailing `2>&1` on a stage merges
//!   its stderr). Any subcommand may run; `futmlir build %s --emit=LEVEL`
//!   prints a level of a `.fut` program (a `build` stage must say
//!   `--emit=` a text level or `--dump-pass-pipeline`: the harness checks
//!   text, not executables). A RUN line ending in `\` goes on on the next
//!   (which says `RUN:` again, as in LLVM lit).
//! - `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` —
//!   matched against the last stage's output of every RUN line, as in LLVM
//!   FileCheck: literal text is a substring of a line with runs of blanks
//!   treated as one space; `{{regex}}` matches a regex; `[[NAME:regex]]`
//!   binds NAME to what the regex matched and `[[NAME]]` on a later CHECK
//!   line matches that text again, so tests need not pin SSA numbers:
//!   `CHECK: [[X:%[0-9]+]] = segop.segmap` ... `CHECK: soac.return([[X]])`.
//!   CHECK-SAME matches after the previous match on its line. What differs
//!   from FileCheck is in Note [FileCheck patterns] (`lit/filecheck.rs`).
//!   A pattern error (an unclosed `[[` or `{{`, a bad regex, an undefined
//!   variable) fails the file with its line.
//! - `AUTOCHECK` — the CHECK lines right after it are generated from the
//!   first RUN line's output by `FUTMLIR_BLESS=1 cargo test -p futmlir
//!   --test lit`, with SSA numbers as captures (Note [AUTOCHECK] in
//!   `lit/autocheck.rs`).
//! - `EXACT-OUTPUT` — the output must equal the file `<test>.out`;
//!   `FUTMLIR_BLESS=1` rewrites those files.
//! - `expected-error` comments are checked by `futmlir opt --verify-diagnostics`.
//!
//! A failure names the file and line of the CHECK, its pattern, the
//! variables bound so far and the output lines it searched.

#[path = "lit/autocheck.rs"]
mod autocheck;
#[path = "lit/filecheck.rs"]
mod filecheck;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "mlir" || e == "fut") {
            out.push(p);
        }
    }
}

/// Splits a command line into words, honouring single and double quotes.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Splits on `|` outside quotes.
fn stages(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '|' => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().expect("starts non-empty").push(c);
    }
    out
}

/// Whether `futmlir build` with these arguments prints text instead of
/// writing an executable (into the test's working folder).
fn build_prints_text(args: &[String]) -> bool {
    let mut emit = None;
    for (i, a) in args.iter().enumerate() {
        if a == "--dump-pass-pipeline" {
            return true;
        }
        if let Some(level) = a.strip_prefix("--emit=") {
            emit = Some(level.to_string());
        } else if a == "--emit" {
            emit = args.get(i + 1).cloned();
        }
    }
    emit.is_some_and(|l| l != "exe")
}

fn run_line(line: &str, file: &Path) -> Result<String, String> {
    let mut input: Option<Vec<u8>> = None;
    let mut expect_fail = false;
    for (i, stage) in stages(line).iter().enumerate() {
        let mut w = words(stage);
        if i == 0 && w.first().is_some_and(|x| x == "not") {
            expect_fail = true;
            w.remove(0);
        }
        let merge = w.last().is_some_and(|x| x == "2>&1");
        if merge {
            w.pop();
        }
        if w.first().map(String::as_str) != Some("futmlir") {
            return Err(format!("RUN stage must start with `futmlir`: {stage}"));
        }
        if w.get(1).is_some_and(|c| c == "build") && !build_prints_text(&w[2..]) {
            return Err(format!(
                "`futmlir build` in a RUN line needs `--emit=LEVEL` (a text level) or `--dump-pass-pipeline`: {stage}"
            ));
        }
        let args: Vec<String> = w[1..]
            .iter()
            .map(|a| {
                let dir = file.parent().map_or(String::new(), |d| d.display().to_string());
                a.replace("%S", &dir).replace("%s", &file.display().to_string())
            })
            .collect();
        let mut child = Command::new(env!("CARGO_BIN_EXE_futmlir"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start futmlir: {e}"))?;
        let data = input.take().unwrap_or_default();
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        let _ = writer.join();
        let failed = !out.status.success();
        let last = i + 1 == stages(line).len();
        if failed && !(expect_fail && last) {
            return Err(format!(
                "`{}` exited with {}:\n{}",
                stage.trim(),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        if last && expect_fail && !failed {
            return Err(format!("`{}` was expected to fail but succeeded", stage.trim()));
        }
        let mut o = out.stdout;
        if merge {
            o.extend_from_slice(&out.stderr);
        }
        input = Some(o);
    }
    Ok(String::from_utf8_lossy(&input.unwrap_or_default()).into_owned())
}

/// The directives of one test file.
struct TestFile {
    runs: Vec<String>,
    checks: Vec<filecheck::Check>,
    exact: bool,
    autocheck: bool,
}

fn parse_test(text: &str, comment: &str, shown: &str) -> Result<TestFile, String> {
    let mut runs: Vec<String> = Vec::new();
    let mut raw_checks = Vec::new();
    let mut exact = false;
    let mut autocheck = false;
    let mut continuing = false;
    for (n, l) in text.lines().enumerate() {
        let Some(c) = l.trim_start().strip_prefix(comment) else {
            continue;
        };
        let c = c.trim();
        if continuing {
            // As in LLVM lit, the next line says `RUN:` again; a line
            // without it goes on too.
            let c = c.strip_prefix("RUN:").map_or(c, str::trim);
            let last = runs.last_mut().expect("continuation follows a RUN line");
            continuing = c.ends_with('\\');
            last.push(' ');
            last.push_str(c.trim_end_matches('\\').trim());
            continue;
        }
        if let Some(r) = c.strip_prefix("RUN:") {
            continuing = r.trim_end().ends_with('\\');
            runs.push(r.trim().trim_end_matches('\\').trim().to_string());
        } else if let Some((kind, pattern)) = filecheck::parse_directive(c) {
            raw_checks.push((kind, pattern.to_string(), n + 1));
        } else if c == "EXACT-OUTPUT" {
            exact = true;
        } else if c == "AUTOCHECK" {
            autocheck = true;
        }
    }
    let checks = filecheck::compile(&raw_checks).map_err(|(line, e)| format!("{shown}:{line}: pattern error: {e}"))?;
    Ok(TestFile {
        runs,
        checks,
        exact,
        autocheck,
    })
}

/// Runs one test file; `shown` is its name in messages.
fn run_file(path: &Path, shown: &str) -> Result<(), String> {
    let mut text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    // Futhark programs carry the directives in `--` comments.
    let comment = if path.extension().is_some_and(|e| e == "fut") {
        "--"
    } else {
        "//"
    };
    let bless = std::env::var_os("FUTMLIR_BLESS").is_some();
    let mut test = parse_test(&text, comment, shown)?;
    if test.runs.is_empty() {
        return Err("no RUN line".into());
    }
    if bless && test.autocheck {
        // See Note [AUTOCHECK].
        let out = run_line(&test.runs[0], path).map_err(|e| format!("RUN #1: {e}"))?;
        let checks = autocheck::generate_checks(&out);
        if let Some(new) = autocheck::splice(&text, comment, &checks) {
            std::fs::write(path, &new).map_err(|e| e.to_string())?;
            text = new;
            test = parse_test(&text, comment, shown)?;
        }
    }
    for (i, r) in test.runs.iter().enumerate() {
        let out = run_line(r, path).map_err(|e| format!("RUN #{}: {e}", i + 1))?;
        filecheck::check(&out, &test.checks).map_err(|f| {
            let hint = if test.autocheck {
                "\n(the CHECK lines after AUTOCHECK are generated: FUTMLIR_BLESS=1 regenerates them)"
            } else {
                ""
            };
            format!("RUN #{}: {}{hint}", i + 1, f.render(shown, &out))
        })?;
        if test.exact && i == 0 {
            let expected_path = PathBuf::from(format!("{}.out", path.display()));
            if bless {
                std::fs::write(&expected_path, &out).map_err(|e| e.to_string())?;
            } else {
                let expected = std::fs::read_to_string(&expected_path).map_err(|e| {
                    format!(
                        "cannot read {} ({e}); run with FUTMLIR_BLESS=1 to create it",
                        expected_path.display()
                    )
                })?;
                if expected != out {
                    return Err(format!(
                        "output differs from {} (FUTMLIR_BLESS=1 rewrites it)\n--- expected ---\n{expected}--- got ---\n{out}",
                        expected_path.display()
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn lit_ir_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ir");
    let mut files = Vec::new();
    collect(&root, &mut files);
    assert!(!files.is_empty(), "no tests found under {}", root.display());
    let filter = std::env::var("FUTMLIR_LIT_FILTER").unwrap_or_default();
    let (mut passed, mut failed) = (0, 0);
    for f in files.iter().filter(|f| f.display().to_string().contains(&filter)) {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        match run_file(f, &format!("tests/ir/{rel}")) {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                eprintln!("FAIL: {rel}\n{e}\n");
            }
        }
    }
    eprintln!("lit: {passed} passed, {failed} failed");
    assert_eq!(failed, 0, "{failed} lit test file(s) failed");
}

#[cfg(test)]
mod run_lines {
    use super::*;

    #[test]
    fn words_and_stages() {
        assert_eq!(
            words("futmlir opt '--pass-pipeline=a{x=1 y=2}' %s"),
            vec!["futmlir", "opt", "--pass-pipeline=a{x=1 y=2}", "%s"]
        );
        assert_eq!(stages("a '|' b | c").len(), 2);
    }

    #[test]
    fn build_stages_must_print_text() {
        let args = |s: &str| words(s);
        assert!(build_prints_text(&args("%s --emit=mlir")));
        assert!(build_prints_text(&args("%s --emit segop --target=cuda")));
        assert!(build_prints_text(&args("%s --dump-pass-pipeline")));
        assert!(!build_prints_text(&args("%s")));
        assert!(!build_prints_text(&args("%s --emit=exe -o prog")));
        let err = run_line("futmlir build %s", Path::new("x.fut")).expect_err("no --emit");
        assert!(err.contains("--emit=LEVEL"), "{err}");
    }

    #[test]
    fn directives_and_pattern_errors() {
        let test = parse_test(
            "// RUN: futmlir opt %s \\\n// RUN:   --verify-each\n// AUTOCHECK\n// CHECK: [[X:%[0-9]+]] = a\n// CHECK-NEXT: b([[X]])\n",
            "//",
            "t.mlir",
        )
        .expect("the directives parse");
        assert_eq!(test.runs, vec!["futmlir opt %s --verify-each"]);
        assert!(test.autocheck && !test.exact);
        assert_eq!(test.checks.len(), 2);
        let err = parse_test(
            "-- RUN: futmlir opt %s\n-- CHECK: a\n-- CHECK: b([[X]])\n",
            "--",
            "t.fut",
        )
        .err()
        .expect("X is undefined");
        assert!(
            err.starts_with("t.fut:3: pattern error: CHECK: undefined variable"),
            "{err}"
        );
    }
}
