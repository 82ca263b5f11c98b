//! The soac interpreter never panics, whatever the IR: the internalised
//! programs of `tests/programs`, printed, mutated (op names, attribute
//! values, constants and operands swapped) and parsed back without
//! verification, run on their test inputs; every run must return, with
//! values or a `SoacError`.

use futmlir_frontend::values::generate::Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use futmlir_dialects::interp::run_func;
use futmlir_dialects::ir::PrintOptions;
use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::testspec::{parse_test_spec, InputSpec};
use futmlir_frontend::values::{self, Value};

/// A program's IR text, and its entry points with their inline inputs.
struct Subject {
    name: String,
    ir: String,
    runs: Vec<(String, Vec<Value>)>,
}

fn subject(path: &Path) -> Option<Subject> {
    let text = std::fs::read_to_string(path).ok()?;
    let blocks = parse_test_spec(&text).ok()?;
    let mut runs = Vec::new();
    for b in &blocks {
        for c in &b.cases {
            if let InputSpec::Inline(t) = &c.input {
                if let Ok(vs) = values::parse_values(t) {
                    for e in &b.entries {
                        runs.push((e.clone(), vs.clone()));
                    }
                }
            }
        }
    }
    if runs.is_empty() {
        return None;
    }
    let mut sm = SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    let checked = check::check_file(&mut sm, file).ok()?;
    let mut ctx = futmlir_dialects::context();
    let module = internalise(&checked, &sm, &mut ctx).ok()?;
    let ir = ctx.print_op(module, PrintOptions::default());
    // A mutant of a while loop could run forever.
    if ir.contains("\"while\"") {
        return None;
    }
    Some(Subject {
        name: path.display().to_string(),
        ir,
        runs,
    })
}

const SWAPS: &[&[&str]] = &[
    &[
        "soac.map(",
        "soac.filter(",
        "soac.reduce(",
        "soac.scan(",
        "soac.partition(",
        "soac.scatter(",
        "soac.stream_seq(",
    ],
    &[
        "soac.redomap(",
        "soac.scanomap(",
        "soac.stream_par(",
        "soac.hist(",
        "soac.if(",
    ],
    &[
        "soac.index(",
        "soac.slice(",
        "soac.update(",
        "soac.rotate(",
        "soac.reshape(",
        "soac.concat(",
        "soac.size(",
        "soac.copy(",
        "soac.rearrange(",
        "soac.iota(",
        "soac.replicate(",
    ],
    &[
        "soac.binop(",
        "soac.cmpop(",
        "soac.unop(",
        "soac.convop(",
        "soac.select(",
        "soac.assert(",
        "soac.apply(",
    ],
    &["soac.yield(", "soac.return("],
    &[
        "\"add\"",
        "\"div\"",
        "\"shl\"",
        "\"and\"",
        "\"pow\"",
        "\"lt\"",
        "\"neg\"",
        "\"sqrt\"",
        "\"trunc\"",
    ],
    &["kind", "form", "dim", "perm", "value", "callee", "k", "message"],
    &["= 0 :", "= 1 :", "= 2 :", "= -1 :", "= 7 :"],
    &["%0", "%1", "%2", "%3", "%4", "%5", "%6", "%7", "%8"],
    &["i64", "i32", "f32", "i1", "u8"],
];

fn mutate(rng: &mut Rng, text: &str) -> Option<String> {
    let group = SWAPS[rng.index(SWAPS.len())];
    let from = group[rng.index(group.len())];
    let to = group[rng.index(group.len())];
    let hits: Vec<usize> = text
        .match_indices(from)
        .map(|(i, _)| i)
        .filter(|&i| {
            // Whole tokens only (`%1` is not the start of `%12`).
            let after = text[i + from.len()..].chars().next();
            !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .collect();
    if hits.is_empty() || from == to {
        return None;
    }
    let at = hits[rng.index(hits.len())];
    Some(format!("{}{}{}", &text[..at], to, &text[at + from.len()..]))
}

fn robust() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let subjects: Vec<Subject> = files.iter().filter_map(|f| subject(f)).collect();
    let mut rng = Rng::new(5);
    let (mut parsed, mut ran, mut failed) = (0, 0, 0);
    let mut panics = Vec::new();
    for _ in 0..3000 {
        let s = &subjects[rng.index(subjects.len())];
        let mut ir = s.ir.clone();
        for _ in 0..1 + rng.index(4) {
            if let Some(t) = mutate(&mut rng, &ir) {
                ir = t;
            }
        }
        let mut ctx = futmlir_dialects::context();
        let Ok(module) = ctx.parse_str("mutant", &ir) else {
            continue;
        };
        parsed += 1;
        let (entry, args) = &s.runs[rng.index(s.runs.len())];
        match catch_unwind(AssertUnwindSafe(|| run_func(&ctx, module, entry, args.clone()))) {
            Ok(Ok(_)) => ran += 1,
            Ok(Err(_)) => failed += 1,
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panics.push(format!("{} (entry {entry}): {msg}\n{ir}", s.name));
            }
        }
    }
    eprintln!("soac interpreter on mutated IR: {parsed} mutants parsed, {ran} ran, {failed} failed cleanly");
    for p in panics.iter().take(3) {
        eprintln!("PANIC {p}\n");
    }
    assert!(
        panics.is_empty(),
        "{} mutant(s) made the soac interpreter panic",
        panics.len()
    );
}

#[test]
fn soac_interpreter_never_panics() {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(robust)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
