//! Internalise every program under `tests/programs` that type-checks: each
//! must either give IR that passes the verifier or a clean "not supported
//! yet" diagnostic — never a panic, never IR that fails to verify.

use futmlir_frontend::values::generate::Rng;

mod common;
use std::path::Path;

use futmlir_dialects::ir::PrintOptions;
use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::span::SourceMap;

enum Outcome {
    NotChecked,
    Ok,
    Unsupported(String),
    Failed(String),
}

fn run(path: &Path) -> Outcome {
    let text = std::fs::read_to_string(path).expect("readable program");
    let mut sm = SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    let Ok(checked) = check::check_file(&mut sm, file) else {
        return Outcome::NotChecked;
    };
    let mut ctx = futmlir_dialects::context();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| internalise(&checked, &sm, &mut ctx)));
    match r {
        Err(_) => Outcome::Failed("panicked".into()),
        Ok(Err(d))
            if d.message.contains("is not supported yet")
                || d.message.contains("the compiled backends do not support") =>
        {
            Outcome::Unsupported(d.to_plain(&sm))
        }
        Ok(Err(d)) => Outcome::Failed(d.to_plain(&sm)),
        Ok(Ok(module)) => match ctx.verify(module) {
            Ok(()) => {
                // The printed IR parses back and verifies too.
                let text = ctx.print_op(module, PrintOptions::default());
                let mut ctx2 = futmlir_dialects::context();
                match ctx2.parse_str("printed", &text) {
                    Ok(m) => match ctx2.verify(m) {
                        Ok(()) => Outcome::Ok,
                        Err(ds) => Outcome::Failed(format!(
                            "the printed IR does not verify: {}\n{text}",
                            ds.iter().map(|d| d.to_plain(&ctx2)).collect::<Vec<_>>().join("\n")
                        )),
                    },
                    Err(d) => Outcome::Failed(format!("the printed IR does not parse: {}\n{text}", d.to_plain(&ctx2))),
                }
            }
            Err(ds) => Outcome::Failed(format!(
                "the IR does not verify:\n{}\n{}",
                ds.iter().map(|d| d.to_plain(&ctx)).collect::<Vec<_>>().join("\n"),
                ctx.print_op(module, PrintOptions::default())
            )),
        },
    }
}

#[test]
fn internalise_all_programs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let filter = std::env::var("FUTMLIR_INTERNALISE_FILTER").unwrap_or_default();
    let verbose = std::env::var_os("FUTMLIR_INTERNALISE_VERBOSE").is_some();
    let (mut ok, mut unsupported, mut unchecked) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    for f in files.iter().filter(|f| f.display().to_string().contains(&filter)) {
        let rel = f.strip_prefix(&root).unwrap_or(f).display().to_string();
        match run(f) {
            Outcome::NotChecked => unchecked += 1,
            Outcome::Ok => ok += 1,
            Outcome::Unsupported(m) => {
                unsupported += 1;
                if verbose {
                    eprintln!("unsupported: {rel}: {m}");
                }
                reasons.push(m.split("internalisation of ").nth(1).unwrap_or(&m).to_string());
            }
            Outcome::Failed(m) => failures.push(format!("{rel}: {m}")),
        }
    }
    reasons.sort();
    reasons.dedup();
    eprintln!(
        "internalise: {ok} verified, {unsupported} not supported yet, {} failed, {unchecked} do not type-check",
        failures.len()
    );
    for f in &failures {
        eprintln!("FAIL {f}\n");
    }
    assert!(
        failures.is_empty(),
        "{} program(s) failed to internalise",
        failures.len()
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
];

/// Replace one occurrence of a word by another of its group (the text
/// unchanged when none occurs).
fn mutate(rng: &mut Rng, text: &str) -> String {
    common::swap_token(rng, text, SWAPS).map_or_else(|| text.to_string(), |(t, _)| t)
}

/// Mutated programs that still type-check internalise to verified IR or a
/// "not supported yet" diagnostic, never a panic.
#[test]
fn internalise_mutated_programs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let texts: Vec<String> = files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    let dir = std::env::temp_dir().join(format!("futmlir-internalise-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let mut rng = Rng::new(7);
    let (mut checked, mut failures) = (0, Vec::new());
    for case in 0..800 {
        let mut text = texts[rng.index(texts.len())].clone();
        for _ in 0..1 + rng.index(3) {
            text = mutate(&mut rng, &text);
        }
        let path = dir.join(format!("case{case}.fut"));
        std::fs::write(&path, &text).expect("writable temporary file");
        match run(&path) {
            Outcome::NotChecked => {}
            Outcome::Ok | Outcome::Unsupported(_) => checked += 1,
            Outcome::Failed(m) => failures.push(format!("{m}\n--- program ---\n{text}")),
        }
        let _ = std::fs::remove_file(&path);
    }
    let _ = std::fs::remove_dir(&dir);
    eprintln!("internalise fuzz: {checked} type-checked mutants internalised cleanly");
    for f in failures.iter().take(5) {
        eprintln!("FAIL {f}\n");
    }
    assert!(
        failures.is_empty(),
        "{} mutant(s) failed to internalise",
        failures.len()
    );
}
