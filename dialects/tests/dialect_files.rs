//! Runs the per-dialect IR files under `tests/ir/<dialect>/` until the
//! lit-style harness exists: `ops.mlir` must verify and round-trip in both
//! printed forms (and its generic form must be accepted by upstream
//! `mlir-opt`); each `invalid.mlir` case must produce its expected errors.

use std::path::{Path, PathBuf};
use std::process::Command;

use futmlir_dialects::ir::{Context, Diagnostic, PrintOptions};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn dialect_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/ir");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", root.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The chunks of a file split on `// -----` lines, each with the 1-based
/// line number of its first line in the file. Each chunk starts with empty
/// lines in place of the lines before it, so that locations in it are
/// locations in the file.
fn split(text: &str) -> Vec<(usize, String)> {
    let mut chunks = vec![(1, String::new())];
    for (i, line) in text.lines().enumerate() {
        if line.trim_end() == "// -----" {
            chunks.push((i + 2, "\n".repeat(i + 1)));
        } else {
            let c = &mut chunks.last_mut().expect("starts with one chunk").1;
            c.push_str(line);
            c.push('\n');
        }
    }
    chunks
}

fn plain(ctx: &Context, ds: &[Diagnostic]) -> String {
    ds.iter()
        .map(|d| d.to_plain(ctx))
        .collect::<Vec<_>>()
        .join("\n")
}

fn roundtrip(ctx: &mut Context, name: &str, text: &str, opts: PrintOptions) -> String {
    let m = ctx
        .parse_str(name, text)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(ctx)));
    ctx.verify(m)
        .unwrap_or_else(|e| panic!("{}", plain(ctx, &e)));
    let a = ctx.print_op(m, opts);
    let m2 = ctx
        .parse_str(&format!("{name} (printed)"), &a)
        .unwrap_or_else(|d| panic!("{}\n{a}", d.to_plain(ctx)));
    ctx.verify(m2)
        .unwrap_or_else(|e| panic!("{}\n{a}", plain(ctx, &e)));
    let b = ctx.print_op(m2, opts);
    assert_eq!(a, b, "{name}: printing is not stable across a parse");
    a
}

#[test]
fn ops_files_verify_and_round_trip() {
    let mut checked = 0;
    let mut generic_all = Vec::new();
    for dir in dialect_dirs() {
        let path = dir.join("ops.mlir");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut generic_chunks = Vec::new();
        for (_, chunk) in split(&text) {
            let name = path.display().to_string();
            let mut ctx = futmlir_dialects::context();
            let g = roundtrip(&mut ctx, &name, &chunk, PrintOptions::generic());
            roundtrip(&mut ctx, &name, &chunk, PrintOptions::default());
            generic_chunks.push(g);
            checked += 1;
        }
        generic_all.push((path, generic_chunks.join("// -----\n")));
    }
    assert!(checked > 0, "no ops.mlir files found");
    if !Path::new(MLIR_OPT).exists() {
        println!("note: {MLIR_OPT} not found; skipping the upstream syntax check");
        return;
    }
    for (path, text) in generic_all {
        let tmp = std::env::temp_dir().join(format!(
            "futmlir-{}-{}.mlir",
            std::process::id(),
            path.parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .unwrap_or("x")
        ));
        std::fs::write(&tmp, &text).expect("write temporary file");
        let out = Command::new(MLIR_OPT)
            .args(["--allow-unregistered-dialect", "--split-input-file"])
            .arg(&tmp)
            .output()
            .expect("run mlir-opt");
        let _ = std::fs::remove_file(&tmp);
        assert!(
            out.status.success(),
            "mlir-opt rejects the generic form of {}:\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `expected-error @+N {{text}}` lines of a chunk: (target line, text),
/// lines 1-based within the chunk.
fn expectations(chunk: &str) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for (i, line) in chunk.lines().enumerate() {
        let Some(p) = line.find("expected-error") else {
            continue;
        };
        let rest = &line[p + "expected-error".len()..];
        let mut target = i as i64 + 1;
        let rest = rest.trim_start();
        let rest = if let Some(r) = rest.strip_prefix('@') {
            let end = r.find(|c: char| c.is_whitespace()).unwrap_or(r.len());
            let off: i64 = r[..end]
                .trim_start_matches('+')
                .parse()
                .unwrap_or_else(|_| panic!("bad offset in: {line}"));
            target += off;
            &r[end..]
        } else {
            rest
        };
        let s = rest
            .find("{{")
            .unwrap_or_else(|| panic!("no {{{{ in: {line}"));
        let e = rest
            .rfind("}}")
            .unwrap_or_else(|| panic!("no }}}} in: {line}"));
        out.push((target, rest[s + 2..e].to_string()));
    }
    out
}

#[test]
fn invalid_files_give_expected_errors() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for dir in dialect_dirs() {
        let path = dir.join("invalid.mlir");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (first, chunk) in split(&text) {
            let expected = expectations(&chunk);
            if expected.is_empty() {
                continue;
            }
            let name = path.display().to_string();
            let mut ctx = futmlir_dialects::context();
            let errors: Vec<Diagnostic> = match ctx.parse_str(&name, &chunk) {
                Err(d) => vec![d],
                Ok(m) => ctx.verify(m).err().unwrap_or_default(),
            };
            for (line, msg) in &expected {
                let found = errors.iter().any(|d| {
                    d.message.contains(msg.as_str()) && d.line(&ctx).map(i64::from) == Some(*line)
                });
                if !found {
                    failures.push(format!(
                        "{name}:{line}: expected error '{msg}' not produced (case at line {first}); got:\n  {}",
                        plain(&ctx, &errors).replace('\n', "\n  ")
                    ));
                }
            }
            for d in &errors {
                let line = d.line(&ctx).map(i64::from);
                if !expected
                    .iter()
                    .any(|(l, m)| Some(*l) == line && d.message.contains(m.as_str()))
                {
                    failures.push(format!("unexpected error: {}", d.to_plain(&ctx)));
                }
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0, "no invalid.mlir cases found");
}
