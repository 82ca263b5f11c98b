//! Emit every program under `tests/programs` that type-checks as
//! `source`-dialect IR: each must give IR that passes the verifier and
//! prints, parses and prints again to the same text (generic and pretty
//! forms), or a clean "not supported yet" diagnostic — never a panic,
//! never IR that fails to verify.

mod common;

use std::path::Path;

use futmlir_dialects::ir::{Context, OpId, PrintOptions};
use futmlir_frontend::check;
use futmlir_frontend::source_ir::emit_source;
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::values::generate::Rng;

enum Outcome {
    NotChecked,
    /// Verified and round-tripped: the generic form.
    Ok(String),
    Unsupported(String),
    Failed(String),
}

/// Print `module` in the form `opts`, parse and verify the text, print it
/// again: the two texts must agree.
fn round_trip(ctx: &Context, module: OpId, opts: PrintOptions) -> Result<(), String> {
    let text = ctx.print_op(module, opts);
    let mut ctx2 = futmlir_dialects::context();
    let m = ctx2
        .parse_str("printed", &text)
        .map_err(|d| format!("the printed IR does not parse: {}\n{text}", d.to_plain(&ctx2)))?;
    ctx2.verify(m).map_err(|ds| {
        format!(
            "the printed IR does not verify: {}\n{text}",
            ds.iter().map(|d| d.to_plain(&ctx2)).collect::<Vec<_>>().join("\n")
        )
    })?;
    let again = ctx2.print_op(m, opts);
    if again != text {
        return Err(format!(
            "printing is not stable across a parse (generic: {}):\n{text}\n--- printed again ---\n{again}",
            opts.generic
        ));
    }
    Ok(())
}

fn run(path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path).expect("readable program");
    let mut sm = SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    let Ok(checked) = check::check_file(&mut sm, file) else {
        return Outcome::NotChecked;
    };
    let mut ctx = futmlir_dialects::context();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| emit_source(&checked, &sm, &mut ctx)));
    match r {
        Err(_) => Outcome::Failed("panicked".into()),
        Ok(Err(d)) if d.message.contains("as source IR is not supported yet") => Outcome::Unsupported(d.to_plain(&sm)),
        Ok(Err(d)) => Outcome::Failed(d.to_plain(&sm)),
        Ok(Ok(module)) => {
            if let Err(ds) = ctx.verify(module) {
                return Outcome::Failed(format!(
                    "the IR does not verify:\n{}\n{}",
                    ds.iter().map(|d| d.to_plain(&ctx)).collect::<Vec<_>>().join("\n"),
                    ctx.print_op(module, PrintOptions::default())
                ));
            }
            for opts in [PrintOptions::generic(), PrintOptions::default()] {
                if let Err(m) = round_trip(&ctx, module, opts) {
                    return Outcome::Failed(m);
                }
            }
            Outcome::Ok(ctx.print_op(module, PrintOptions::generic()))
        }
    }
}

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// Emit the programs under `dir` (relative to this crate), adding the
/// generic form of every module that verified to `generic`; returns the
/// failures.
fn emit_dir(dir: &str, generic: &mut Vec<String>) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let filter = std::env::var("FUTMLIR_SOURCE_FILTER").unwrap_or_default();
    let verbose = std::env::var_os("FUTMLIR_SOURCE_VERBOSE").is_some();
    let (mut ok, mut unsupported, mut unchecked) = (0, 0, 0);
    let mut failures = Vec::new();
    for f in files.iter().filter(|f| f.display().to_string().contains(&filter)) {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        match run(f) {
            Outcome::NotChecked => unchecked += 1,
            Outcome::Ok(text) => {
                ok += 1;
                generic.push(text);
            }
            Outcome::Unsupported(m) => {
                unsupported += 1;
                if verbose {
                    eprintln!("unsupported: {rel}: {m}");
                }
            }
            Outcome::Failed(m) => failures.push(format!("{rel}: {m}")),
        }
    }
    eprintln!(
        "source IR of {dir}: {ok} emitted and verified, {unsupported} not supported yet, {} failed, {unchecked} do not type-check",
        failures.len()
    );
    failures
}

/// The programs of `tests/programs` (and those of the differential
/// tests); upstream `mlir-opt` must accept the generic form too.
#[test]
fn emit_all_programs_as_source_ir() {
    let mut generic = Vec::new();
    let mut failures = Vec::new();
    for dir in ["../tests/programs", "tests/soac_differential"] {
        failures.extend(emit_dir(dir, &mut generic));
    }
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} program(s) failed to emit", failures.len());
    assert!(
        Path::new(MLIR_OPT).exists(),
        "{MLIR_OPT} not found: run scripts/install-deps.sh (mlir-22-tools) so the generic syntax can be checked upstream"
    );
    let tmp = std::env::temp_dir().join(format!("futmlir-source-programs-{}.mlir", std::process::id()));
    std::fs::write(&tmp, generic.join("// -----\n")).expect("write temporary file");
    let out = std::process::Command::new(MLIR_OPT)
        .args(["--allow-unregistered-dialect", "--split-input-file"])
        .arg(&tmp)
        .output()
        .expect("run mlir-opt");
    let _ = std::fs::remove_file(&tmp);
    assert!(
        out.status.success(),
        "mlir-opt rejects the generic form of emitted source IR:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Words that keep a program well-typed more often than random bytes do.
const SWAPS: &[&[&str]] = &[
    &["+", "-", "*", "max"],
    &["<", "<=", ">", ">=", "==", "!="],
    &["map", "filter"],
    &["reduce", "scan"],
    &["0", "1", "2", "7"],
    &["xs", "ys"],
    &["i32", "i64", "f32"],
    &["true", "false"],
    &[":", "0:", ":1", "::-1"],
];

/// Mutated programs that still type-check emit verified IR or a "not
/// supported yet" diagnostic, never a panic.
#[test]
fn emit_mutated_programs_as_source_ir() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let texts: Vec<String> = files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    let dir = std::env::temp_dir().join(format!("futmlir-source-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut rng = Rng::new(11);
    let (mut checked, mut failures) = (0, Vec::new());
    for case in 0..800 {
        let mut text = texts[rng.index(texts.len())].clone();
        for _ in 0..1 + rng.index(3) {
            if let Some((t, _)) = common::swap_token(&mut rng, &text, SWAPS) {
                text = t;
            }
        }
        let path = dir.join(format!("case{case}.fut"));
        std::fs::write(&path, &text).expect("writable temporary file");
        match run(&path) {
            Outcome::NotChecked => {}
            Outcome::Ok(_) | Outcome::Unsupported(_) => checked += 1,
            Outcome::Failed(m) => failures.push(format!("{m}\n--- program ---\n{text}")),
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir(&dir);
    eprintln!("source IR fuzz: {checked} type-checked mutants emitted cleanly");
    for f in failures.iter().take(5) {
        eprintln!("FAIL {f}\n");
    }
    assert!(failures.is_empty(), "{} mutant(s) failed to emit", failures.len());
}
