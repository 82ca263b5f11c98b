//! The lit-style IR test runner: every `tests/ir/**/*.mlir` file, and every
//! Futhark program `tests/ir/**/*.fut` (internalisation tests).
//!
//! Directives (in `//` comments; `--` comments in `.fut` files):
//! - `RUN: futmlir opt %s ... | futmlir opt - ...` — a pipeline of futmlir
//!   invocations (`%s` is the test file; `not` in front of the first command
//!   expects failure; a trailing `2>&1` on a stage merges its stderr).
//! - `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` —
//!   matched against the last stage's output of every RUN line, as
//!   substrings of lines with runs of blanks treated as one space.
//! - `EXACT-OUTPUT` — the output must equal the file `<test>.out`;
//!   `FUTMLIR_BLESS=1 cargo test` rewrites those files.
//! - `expected-error` comments are checked by `futmlir opt --verify-diagnostics`.

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

#[derive(Debug)]
enum Check {
    Plain(String),
    Next(String),
    Same(String),
    Not(String),
    Label(String),
}

fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Applies the CHECK lines to `output`; the first mismatch is the error.
fn check(output: &str, checks: &[Check]) -> Result<(), String> {
    let lines: Vec<String> = output.lines().map(norm).collect();
    let mut pos = 0usize; // first line not yet consumed
    let mut last: Option<usize> = None;
    let mut nots: Vec<&str> = Vec::new();
    let find = |from: usize, pat: &str| (from..lines.len()).find(|&i| lines[i].contains(pat));
    let check_nots = |nots: &mut Vec<&str>, from: usize, to: usize| -> Result<(), String> {
        for n in nots.drain(..) {
            if let Some(i) = (from..to).find(|&i| lines[i].contains(n)) {
                return Err(format!("CHECK-NOT: '{n}' found on output line {}: {}", i + 1, lines[i]));
            }
        }
        Ok(())
    };
    for c in checks {
        match c {
            Check::Plain(p) | Check::Label(p) => {
                let p = norm(p);
                let Some(i) = find(pos, &p) else {
                    return Err(format!("CHECK: '{p}' not found after output line {pos}"));
                };
                check_nots(&mut nots, pos, i)?;
                pos = i + 1;
                last = Some(i);
            }
            Check::Next(p) => {
                let p = norm(p);
                if pos >= lines.len() || !lines[pos].contains(&p) {
                    let got = lines.get(pos).map(String::as_str).unwrap_or("<end of output>");
                    return Err(format!("CHECK-NEXT: '{p}' not on output line {}: {got}", pos + 1));
                }
                check_nots(&mut nots, pos, pos)?;
                last = Some(pos);
                pos += 1;
            }
            Check::Same(p) => {
                let p = norm(p);
                match last {
                    Some(i) if lines[i].contains(&p) => {}
                    _ => return Err(format!("CHECK-SAME: '{p}' not on the previously matched line")),
                }
            }
            Check::Not(p) => nots.push(p.as_str()),
        }
    }
    check_nots(&mut nots, pos, lines.len())
}

fn run_file(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut runs: Vec<String> = Vec::new();
    let mut checks = Vec::new();
    let mut exact = false;
    let mut continuing = false;
    // Futhark programs carry the directives in `--` comments.
    let comment = if path.extension().is_some_and(|e| e == "fut") {
        "--"
    } else {
        "//"
    };
    for l in text.lines() {
        let Some(c) = l.trim_start().strip_prefix(comment) else {
            continue;
        };
        let c = c.trim();
        if continuing {
            let last = runs.last_mut().expect("continuation follows a RUN line");
            continuing = c.ends_with('\\');
            last.push(' ');
            last.push_str(c.trim_end_matches('\\'));
            continue;
        }
        if let Some(r) = c.strip_prefix("RUN:") {
            continuing = r.trim_end().ends_with('\\');
            runs.push(r.trim().trim_end_matches('\\').to_string());
        } else if let Some(p) = c.strip_prefix("CHECK-NEXT:") {
            checks.push(Check::Next(p.trim().into()));
        } else if let Some(p) = c.strip_prefix("CHECK-SAME:") {
            checks.push(Check::Same(p.trim().into()));
        } else if let Some(p) = c.strip_prefix("CHECK-NOT:") {
            checks.push(Check::Not(p.trim().into()));
        } else if let Some(p) = c.strip_prefix("CHECK-LABEL:") {
            checks.push(Check::Label(p.trim().into()));
        } else if let Some(p) = c.strip_prefix("CHECK:") {
            checks.push(Check::Plain(p.trim().into()));
        } else if c == "EXACT-OUTPUT" {
            exact = true;
        }
    }
    if runs.is_empty() {
        return Err("no RUN line".into());
    }
    let bless = std::env::var_os("FUTMLIR_BLESS").is_some();
    for (i, r) in runs.iter().enumerate() {
        let out = run_line(r, path).map_err(|e| format!("RUN #{}: {e}", i + 1))?;
        check(&out, &checks).map_err(|e| format!("RUN #{}: {e}\n--- output ---\n{out}", i + 1))?;
        if exact && i == 0 {
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
        match run_file(f) {
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
mod checker {
    use super::*;

    #[test]
    fn check_directives() {
        let out = "a b\nc   d\ne\nf\n";
        assert!(check(out, &[Check::Plain("a".into()), Check::Next("c d".into())]).is_ok());
        assert!(check(out, &[Check::Plain("a".into()), Check::Next("e".into())]).is_err());
        assert!(check(out, &[Check::Plain("a".into()), Check::Same("b".into())]).is_ok());
        assert!(check(out, &[Check::Plain("c".into()), Check::Same("b".into())]).is_err());
        assert!(check(
            out,
            &[
                Check::Plain("a".into()),
                Check::Not("e".into()),
                Check::Plain("f".into())
            ]
        )
        .is_err());
        assert!(check(
            out,
            &[
                Check::Plain("e".into()),
                Check::Not("c".into()),
                Check::Plain("f".into())
            ]
        )
        .is_ok());
        assert!(check(out, &[Check::Plain("e".into()), Check::Plain("a".into())]).is_err());
        assert!(check(out, &[Check::Not("zzz".into())]).is_ok());
        assert!(check(out, &[Check::Label("e".into()), Check::Not("f".into())]).is_err());
    }

    #[test]
    fn words_and_stages() {
        assert_eq!(
            words("futmlir opt '--pass-pipeline=a{x=1 y=2}' %s"),
            vec!["futmlir", "opt", "--pass-pipeline=a{x=1 y=2}", "%s"]
        );
        assert_eq!(stages("a '|' b | c").len(), 2);
    }
}
