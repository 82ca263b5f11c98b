//! What the lit harness does not check on the per-dialect `ops.mlir`
//! files: every chunk verifies, print → parse → print is the identity in
//! both printed forms, upstream `mlir-opt` accepts the generic form, and
//! what it prints reads back as the same IR (Note [Sizes in types across
//! mlir-opt]).
//! (`invalid.mlir` files run through the lit harness with
//! `--verify-diagnostics`.)

use std::path::{Path, PathBuf};
use std::process::Command;

use futmlir_dialects::ir::parse::split_input_file;
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

fn plain(ctx: &Context, ds: &[Diagnostic]) -> String {
    ds.iter().map(|d| d.to_plain(ctx)).collect::<Vec<_>>().join("\n")
}

fn roundtrip(ctx: &mut Context, name: &str, text: &str, opts: PrintOptions) -> String {
    let m = ctx
        .parse_str(name, text)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(ctx)));
    ctx.verify(m).unwrap_or_else(|e| panic!("{}", plain(ctx, &e)));
    let a = ctx.print_op(m, opts);
    let m2 = ctx
        .parse_str(&format!("{name} (printed)"), &a)
        .unwrap_or_else(|d| panic!("{}\n{a}", d.to_plain(ctx)));
    ctx.verify(m2).unwrap_or_else(|e| panic!("{}\n{a}", plain(ctx, &e)));
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
        for chunk in split_input_file(&text) {
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
    assert!(
        Path::new(MLIR_OPT).exists(),
        "{MLIR_OPT} not found: run scripts/install-deps.sh (mlir-22-tools) so the generic syntax can be checked upstream"
    );
    for (path, text) in generic_all {
        let tmp = std::env::temp_dir().join(format!(
            "futmlir-{}-{}.mlir",
            std::process::id(),
            path.parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .unwrap_or("x")
        ));
        let upstream = mlir_opt(&tmp, &text)
            .unwrap_or_else(|e| panic!("mlir-opt rejects the generic form of {}:\n{e}", path.display()));
        // mlir-opt renames values and sorts attributes, so its text is
        // compared with its own print of what futmlir read back: a size
        // read as another value would print as another `$N`.
        let mut again = Vec::new();
        for chunk in split_input_file(&upstream) {
            let mut ctx = futmlir_dialects::context();
            let name = format!("{} (through mlir-opt)", path.display());
            let m = ctx
                .parse_str(&name, &chunk)
                .unwrap_or_else(|d| panic!("{}\n{chunk}", d.to_plain(&ctx)));
            ctx.verify(m).unwrap_or_else(|e| panic!("{}\n{chunk}", plain(&ctx, &e)));
            again.push(ctx.print_op(m, PrintOptions::generic()));
        }
        let upstream_again = mlir_opt(&tmp, &again.join("// -----\n")).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_file(&tmp);
        assert_eq!(
            upstream,
            upstream_again,
            "{}: the generic form read back from mlir-opt is other IR",
            path.display()
        );
    }
}

/// `mlir-opt --allow-unregistered-dialect --split-input-file` on `text`
/// (written to `tmp`): its output, or its errors.
fn mlir_opt(tmp: &Path, text: &str) -> Result<String, String> {
    std::fs::write(tmp, text).expect("write temporary file");
    let out = Command::new(MLIR_OPT)
        .args(["--allow-unregistered-dialect", "--split-input-file"])
        .arg(tmp)
        .output()
        .expect("run mlir-opt");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
