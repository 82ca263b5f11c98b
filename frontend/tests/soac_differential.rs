//! Differential test of internalisation: every test case of the programs
//! under `tests/programs` and `frontend/tests/soac_differential` (programs
//! written for this test, mostly inputs without expected outputs) runs on
//! the reference interpreter (over the checked AST) and on the `soac`
//! interpreter (over the internalised IR), and the results must agree
//! (`values::compare_values`, Futhark's float tolerance).
//!
//! - Cases that expect an output (`output`, `auto output`, or none) agree
//!   when both runs give the same values (empty arrays up to their inner
//!   sizes, see [`agree`]), or both fail.
//! - Cases that expect a run-time error agree when the `soac` run fails too
//!   (with any message).
//! - Programs whose internalisation says "not supported yet" are skipped,
//!   case by case, and counted.
//! - [`ALLOWED`] lists known disagreements, each with its reason; they are
//!   counted and printed, not failed.
//!
//! `FUTMLIR_DIFF_FILTER=substring` runs only the programs whose path
//! contains it; `FUTMLIR_DIFF_VERBOSE=1` prints every skipped program;
//! `FUTMLIR_DIFF_ROOT=dir` takes the programs from another folder.

use std::path::{Path, PathBuf};

use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::interp::{run_entry, RunOptions};
use futmlir_frontend::soac_interp::run_func;
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, TestCase};
use futmlir_frontend::values::{self, compare_values, Value};

/// Known disagreements: (program path under its root folder, entry point,
/// why). A listed case is run and reported, but does not fail the test.
const ALLOWED: &[(&str, &str, &str)] = &[];

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "fut") {
            out.push(p);
        }
    }
}

fn inputs(dir: &Path, case: &TestCase) -> Result<Vec<Value>, String> {
    match &case.input {
        InputSpec::Inline(text) => values::parse_values(text).map_err(|e| e.to_string()),
        InputSpec::File(f) => {
            let full = dir.join(f);
            let bytes = std::fs::read(&full).map_err(|e| format!("cannot read {}: {e}", full.display()))?;
            values::read_values(&bytes).map_err(|e| format!("{}: {e}", full.display()))
        }
        InputSpec::Random(specs) => {
            let mut rng = values::Rng::new(case.line as u64);
            let bounds = values::Bounds::default();
            specs
                .iter()
                .map(|s| values::generate(s, &mut rng, &bounds).map_err(|e| e.to_string()))
                .collect()
        }
        InputSpec::Script(_) => Err("script input".into()),
    }
}

/// Whether the reference's values `a` agree with the soac interpreter's
/// `b`: `compare_values`, except that two empty arrays of one element type
/// and rank agree whatever their inner sizes. The reference interpreter
/// takes the inner sizes of an empty result from its type, and uses 0
/// where the type's size is not a variable in scope (`map (map f) m` for
/// an `m : [0][3]i32` gives `[0][0]`); the IR has every size explicit, so
/// the soac interpreter gives `[0][3]` as Futhark does. Such values are
/// counted in `empty_shapes`.
fn agree(a: &[Value], b: &[Value], empty_shapes: &mut usize) -> Result<(), String> {
    if a.len() != b.len() {
        return compare_values(a, b).map_err(|m| m.to_string());
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if let Err(m) = compare_values(std::slice::from_ref(x), std::slice::from_ref(y)) {
            let empty = |v: &Value| v.shape().contains(&0);
            if empty(x) && empty(y) && x.rank() == y.rank() && x.elem_type() == y.elem_type() {
                *empty_shapes += 1;
                continue;
            }
            return Err(m.to_string().replacen("value 0", &format!("value {i}"), 1));
        }
    }
    Ok(())
}

fn show(r: &Result<Vec<Value>, String>) -> String {
    match r {
        Ok(vs) => {
            let text = values::values_to_text(vs);
            if text.len() > 2000 {
                format!("{}... ({} bytes)", &text[..2000], text.len())
            } else {
                text.trim_end().to_string()
            }
        }
        Err(e) => format!("error: {e}"),
    }
}

#[derive(Default)]
struct Counts {
    agreed: usize,
    /// Of the agreed cases: those where both runs failed, and those where
    /// the program was expected to fail.
    both_failed: usize,
    expected_failures: usize,
    /// Values that agree only up to the inner sizes of empty arrays (see
    /// [`agree`]).
    empty_shapes: usize,
    disagreed: Vec<String>,
    allowed: Vec<String>,
    skipped: usize,
    skip_reasons: Vec<String>,
}

fn run_program(root: &Path, path: &Path, verbose: bool, counts: &mut Counts) {
    let rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
    let text = std::fs::read_to_string(path).expect("readable program");
    let Ok(blocks) = parse_test_spec(&text) else { return };
    let cases: Vec<(&TestCase, &str)> = blocks
        .iter()
        .filter(|b| !b.tags.iter().any(|t| t == "disable"))
        .flat_map(|b| {
            b.cases
                .iter()
                .filter(|c| !c.notest && !matches!(c.input, InputSpec::Script(_)))
                .flat_map(|c| b.entries.iter().map(move |e| (c, e.as_str())))
        })
        .collect();
    if cases.is_empty() {
        return;
    }
    let mut sm = SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    let checked = match check::check_file(&mut sm, file) {
        Ok(c) => c,
        Err(ds) => {
            // Programs that do not type-check have no cases to run.
            if verbose {
                let first = ds.first().map(|d| d.to_plain(&sm)).unwrap_or_default();
                eprintln!("does not type-check: {rel}: {first}");
            }
            return;
        }
    };
    let mut ctx = futmlir_dialects::context();
    let module = match internalise(&checked, &sm, &mut ctx) {
        Ok(m) => m,
        Err(d) if d.message.contains("is not supported yet") => {
            counts.skipped += cases.len();
            let why = d.to_plain(&sm);
            if verbose {
                eprintln!("skipped: {rel}: {why}");
            }
            counts
                .skip_reasons
                .push(format!("{rel}: {}", why.lines().next().unwrap_or("")));
            return;
        }
        Err(d) => {
            counts
                .disagreed
                .push(format!("{rel}: internalisation failed: {}", d.to_plain(&sm)));
            return;
        }
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    for (case, entry) in cases {
        let what = format!("{rel}:{} entry `{entry}`", case.line);
        let args = match inputs(dir, case) {
            Ok(a) => a,
            Err(e) => {
                counts.disagreed.push(format!("{what}: bad input: {e}"));
                continue;
            }
        };
        let input_text = show(&Ok(args.clone()));
        let soac = run_func(&ctx, module, entry, args.clone()).map_err(|e| e.render());
        let verdict = match &case.expected {
            Expected::Error(_) => match &soac {
                Err(e) => {
                    if verbose {
                        eprintln!("failed as expected: {what}: {e}");
                    }
                    counts.expected_failures += 1;
                    Ok(())
                }
                Ok(_) => Err(format!(
                    "the program should fail, but the soac interpreter gives:\n  {}",
                    show(&soac)
                )),
            },
            _ => {
                let reference = run_entry(&checked, entry, args, &RunOptions::default())
                    .map(|r| r.values)
                    .map_err(|e| e.render(&sm));
                match (&reference, &soac) {
                    (Ok(a), Ok(b)) => agree(a, b, &mut counts.empty_shapes),
                    (Err(_), Err(_)) => {
                        counts.both_failed += 1;
                        if verbose {
                            eprintln!("both failed: {what}: {}", show(&soac));
                        }
                        Ok(())
                    }
                    _ => Err("one run failed".into()),
                }
                .map_err(|m| {
                    format!(
                        "{m}\n  reference: {}\n  soac:      {}",
                        show(&reference).replace('\n', "\n    "),
                        show(&soac).replace('\n', "\n    ")
                    )
                })
            }
        };
        match verdict {
            Ok(()) => counts.agreed += 1,
            Err(m) => {
                let report = format!("{what}\n  input: {}\n  {m}", input_text.replace('\n', " "));
                if let Some((_, _, why)) = ALLOWED.iter().find(|(p, e, _)| *p == rel && *e == entry) {
                    counts.allowed.push(format!("{report}\n  allowed: {why}"));
                } else {
                    counts.disagreed.push(report);
                }
            }
        }
    }
}

fn differential() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = match std::env::var_os("FUTMLIR_DIFF_ROOT") {
        Some(r) => vec![PathBuf::from(r)],
        None => vec![here.join("../tests/programs"), here.join("tests/soac_differential")],
    };
    let filter = std::env::var("FUTMLIR_DIFF_FILTER").unwrap_or_default();
    let verbose = std::env::var_os("FUTMLIR_DIFF_VERBOSE").is_some();
    let mut counts = Counts::default();
    for root in &roots {
        let mut files = Vec::new();
        collect(root, &mut files);
        for f in files.iter().filter(|f| f.display().to_string().contains(&filter)) {
            run_program(root, f, verbose, &mut counts);
        }
    }
    for a in &counts.allowed {
        eprintln!("ALLOWED {a}\n");
    }
    for d in &counts.disagreed {
        eprintln!("DISAGREE {d}\n");
    }
    eprintln!(
        "soac differential: {} agreed ({} expected run-time errors, {} other cases where both fail, {} empty \
         arrays whose inner sizes only the soac interpreter knows), {} disagreed, {} allowed disagreements, \
         {} skipped (internalisation not supported yet, {} programs)",
        counts.agreed,
        counts.expected_failures,
        counts.both_failed,
        counts.empty_shapes,
        counts.disagreed.len(),
        counts.allowed.len(),
        counts.skipped,
        counts.skip_reasons.len()
    );
    assert!(
        counts.disagreed.is_empty(),
        "{} case(s) disagree between the reference and the soac interpreter",
        counts.disagreed.len()
    );
}

#[test]
fn soac_interpreter_agrees_with_reference() {
    // Both interpreters recurse over the program; give them room.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(differential)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
