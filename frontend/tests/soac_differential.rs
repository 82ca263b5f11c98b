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
//!   case by case, and counted; so are programs that use `jvp` or `vjp`,
//!   whose `soac.jvp` and `soac.vjp` only the passes `soac-jvp` and
//!   `soac-vjp` make runnable (a later crate:
//!   `futmlir test --backend=cpu` and `--each-pass` compare those with the
//!   reference interpreter, on random inputs too, `tests/programs/ad`).
//! - Cases whose reference result is opaque (a record or a sum value,
//!   which only `futmlir run` prints) are not compared, and counted.
//! - [`ALLOWED`] lists known disagreements, each with its reason; they are
//!   counted and printed, not failed.
//!
//! Two more tests run the programs differently: mutants of them on the
//! inputs of their cases, and their entry points on random inputs.
//!
//! `FUTMLIR_DIFF_FILTER=substring` runs only the programs whose path
//! contains it; `FUTMLIR_DIFF_VERBOSE=1` also prints the skipped programs,
//! those that do not type-check, and every case where a run failed;
//! `FUTMLIR_DIFF_ROOT=dir` takes the programs from another folder;
//! `FUTMLIR_DIFF_MUTANTS=n` sets the number of mutants (default 3000).

use futmlir_frontend::values::generate::Rng;

mod common;
use std::path::{Path, PathBuf};

use futmlir_dialects::interp::run_func;
use futmlir_frontend::check;
use futmlir_frontend::check::Checked;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::interp::{run_entry, EntryResult, RunOptions};
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, TestCase};
use futmlir_frontend::types::{PrimType, Size, Type};
use futmlir_frontend::values::{self, compare_values, Value};

/// Known disagreements: (program path under its root folder, entry point,
/// why). A listed case is run and reported, but does not fail the test.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "assert/unsafe_removes_assertions.fut",
        "inside",
        "#[unsafe] removes assertions from compiled code only (its cases are `compiled`)",
    ),
    (
        // A mutant (`width 1 3`) given arguments of other sizes.
        "sizes/param_in_size_expression.fut",
        "main",
        "a point-free entry point whose parameters' sizes are fixed by constants of a partial \
         application: the reference interpreter checks the arguments against them, compiled \
         code does not yet (a missing check of ill-sized input, not a different result)",
    ),
];

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

/// The reference interpreter's results; `Ok(None)` when one is opaque (a
/// record, a sum value, an array of tuples): the soac interpreter returns
/// its representation (Note [Flattened values]), which has no external
/// form to compare with.
fn reference(checked: &Checked, entry: &str, args: Vec<Value>, sm: &SourceMap) -> Result<Option<Vec<Value>>, String> {
    let r = run_entry(checked, entry, args, &RunOptions::default()).map_err(|e| e.render(sm))?;
    if r.results.iter().any(|x| matches!(x, EntryResult::Opaque { .. })) {
        return Ok(None);
    }
    r.values(entry).map(Some).map_err(|e| e.render(sm))
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
    /// Programs that type-check.
    programs: usize,
    agreed: usize,
    /// Of the agreed cases: those where both runs failed, and those where
    /// the program was expected to fail.
    both_failed: usize,
    expected_failures: usize,
    /// Values that agree only up to the inner sizes of empty arrays (see
    /// [`agree`]).
    empty_shapes: usize,
    /// Cases whose reference result is opaque (not compared).
    opaque: usize,
    disagreed: Vec<String>,
    allowed: Vec<String>,
    skipped: usize,
    skip_reasons: Vec<String>,
}

/// How a program is run: as written, checking the expectations of its
/// cases, or as a mutant, whose cases only compare the two interpreters
/// (`note` says what was mutated).
#[derive(Clone, Copy)]
enum Mode<'a> {
    Program,
    Mutant { note: &'a str },
}

fn run_program(root: &Path, path: &Path, text: String, mode: Mode, verbose: bool, counts: &mut Counts) {
    let mut rel = path.strip_prefix(root).unwrap_or(path).display().to_string();
    if let Mode::Mutant { note } = mode {
        rel = format!("{rel} (mutant: {note})");
    }
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
            if verbose && matches!(mode, Mode::Program) {
                let first = ds.first().map(|d| d.to_plain(&sm)).unwrap_or_default();
                eprintln!("does not type-check: {rel}: {first}");
            }
            return;
        }
    };
    counts.programs += 1;
    let mut ctx = futmlir_dialects::context();
    let module = match internalise(&checked, &sm, &mut ctx) {
        Ok(m) => match ad_op(&ctx, m) {
            Some(which) => {
                counts.skipped += cases.len();
                counts
                    .skip_reasons
                    .push(format!("{rel}: soac.{which} (run after soac-{which})"));
                return;
            }
            None => m,
        },
        Err(d)
            if d.message.contains("is not supported yet")
                || d.message.contains("the compiled backends do not support") =>
        {
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
            Err(_) if matches!(mode, Mode::Mutant { .. }) => continue,
            Err(e) => {
                counts.disagreed.push(format!("{what}: bad input: {e}"));
                continue;
            }
        };
        let input_text = show(&Ok(args.clone()));
        let soac = run_func(&ctx, module, entry, args.clone()).map_err(|e| e.render());
        let verdict = match (&case.expected, mode) {
            (Expected::Error(_), Mode::Program) => match &soac {
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
                let reference = match reference(&checked, entry, args, &sm) {
                    Ok(None) => {
                        counts.opaque += 1;
                        continue;
                    }
                    Ok(Some(vs)) => Ok(vs),
                    Err(e) => Err(e),
                };
                match (&reference, &soac) {
                    (Ok(a), Ok(b)) => agree(a, b, &mut counts.empty_shapes),
                    (Err(_), Err(_)) => {
                        counts.both_failed += 1;
                        if verbose {
                            eprintln!(
                                "both failed: {what}:\n  reference: {}\n  soac:      {}",
                                show(&reference),
                                show(&soac)
                            );
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
                let base = path.strip_prefix(root).unwrap_or(path).display().to_string();
                if let Some((_, _, why)) = ALLOWED.iter().find(|(p, e, _)| *p == base && *e == entry) {
                    counts.allowed.push(format!("{report}\n  allowed: {why}"));
                } else {
                    counts.disagreed.push(report);
                }
            }
        }
    }
}

/// Prints the counts and the disagreements; fails on any disagreement.
fn report(what: &str, counts: &Counts) {
    for a in &counts.allowed {
        eprintln!("ALLOWED {a}\n");
    }
    for d in &counts.disagreed {
        eprintln!("DISAGREE {d}\n");
    }
    eprintln!(
        "{what}: {} programs; {} cases agreed ({} expected run-time errors, {} other cases where both fail, {} \
         empty arrays whose inner sizes only the soac interpreter knows), {} not compared (opaque results), \
         {} disagreed, {} allowed disagreements, {} skipped (internalisation not supported yet, {} programs)",
        counts.programs,
        counts.agreed,
        counts.expected_failures,
        counts.both_failed,
        counts.empty_shapes,
        counts.opaque,
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

/// The programs of the test's folders: (root, program).
fn programs() -> Vec<(PathBuf, PathBuf)> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = match std::env::var_os("FUTMLIR_DIFF_ROOT") {
        Some(r) => vec![PathBuf::from(r)],
        None => vec![here.join("../tests/programs"), here.join("tests/soac_differential")],
    };
    let filter = std::env::var("FUTMLIR_DIFF_FILTER").unwrap_or_default();
    let mut out = Vec::new();
    for root in roots {
        let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
        out.extend(
            files
                .into_iter()
                .filter(|f| f.display().to_string().contains(&filter))
                .map(|f| (root.clone(), f)),
        );
    }
    out
}

fn differential() {
    let verbose = std::env::var_os("FUTMLIR_DIFF_VERBOSE").is_some();
    let mut counts = Counts::default();
    for (root, f) in programs() {
        let text = std::fs::read_to_string(&f).expect("readable program");
        run_program(&root, &f, text, Mode::Program, verbose, &mut counts);
    }
    report("soac differential", &counts);
}

/// Runs `f` on a thread with room for both interpreters' recursion.
fn with_big_stack(f: fn()) {
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn soac_interpreter_agrees_with_reference() {
    with_big_stack(differential);
}

/// Groups of tokens that replace one another in mutants.
const SWAPS: &[&[&str]] = &[
    &["+", "-", "*", "/", "%", "//", "%%"],
    &["<", "<=", ">", ">=", "==", "!="],
    &["&", "|", "^", "<<", ">>", ">>>"],
    &["&&", "||"],
    &["max", "min"],
    &["reduce", "scan"],
    &["0", "1", "2", "3", "7"],
    &["i8", "i32", "i64", "u8", "u32", "f32", "f64"],
    &["true", "false"],
    &["xs", "ys"],
    &["transpose", "reverse"],
];

fn mutate(rng: &mut Rng, text: &str) -> Option<(String, String)> {
    common::swap_token(rng, text, SWAPS)
}

/// The first `soac.jvp` or `soac.vjp` of `module`, which the soac
/// interpreter does not run (the passes `soac-jvp` and `soac-vjp` replace
/// them).
fn ad_op(ctx: &futmlir_dialects::ir::Context, module: futmlir_dialects::ir::OpId) -> Option<&'static str> {
    let mut found = None;
    ctx.walk(module, &mut |o| {
        if found.is_none() {
            found = match ctx.op_name(o) {
                "soac.jvp" => Some("jvp"),
                "soac.vjp" => Some("vjp"),
                _ => None,
            };
        }
    });
    found
}

fn mutants() {
    let verbose = std::env::var_os("FUTMLIR_DIFF_VERBOSE").is_some();
    let count: usize = std::env::var("FUTMLIR_DIFF_MUTANTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3000);
    // Programs with a `while` loop are left out: a mutant could loop
    // forever in both interpreters.
    let progs: Vec<(PathBuf, PathBuf, String)> = programs()
        .into_iter()
        .filter_map(|(r, f)| {
            let text = std::fs::read_to_string(&f).ok()?;
            (text.contains("-- ==") && !text.contains("while")).then_some((r, f, text))
        })
        .collect();
    let mut rng = Rng::new(20);
    let mut counts = Counts::default();
    for _ in 0..count {
        let (root, path, text) = &progs[rng.index(progs.len())];
        let mut text = text.clone();
        let mut notes = Vec::new();
        for _ in 0..1 + rng.index(2) {
            if let Some((t, n)) = mutate(&mut rng, &text) {
                text = t;
                notes.push(n);
            }
        }
        if notes.is_empty() {
            continue;
        }
        let note = notes.join(", ");
        run_program(root, path, text, Mode::Mutant { note: &note }, verbose, &mut counts);
    }
    report("soac differential on mutants", &counts);
}

/// Mutants of the programs (operators, constants, types swapped) that
/// still type-check: both interpreters run the original cases' inputs and
/// must agree (both fail, or give the same values).
#[test]
fn soac_interpreter_agrees_on_mutants() {
    with_big_stack(mutants);
}

/// Random arguments for an entry point: sizes in `0..=5` (one per size
/// name), integers in `-10..=10` (`0..=20` unsigned), floats in
/// `[-10, 10]`. `None` when a parameter is not a scalar or an array of
/// scalars.
fn random_args(params: &[Type], rng: &mut Rng, vrng: &mut values::Rng, bounds: &values::Bounds) -> Option<Vec<Value>> {
    let mut named: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::new();
    for t in params {
        let spec = match t {
            Type::Prim(p) => p.name().to_string(),
            Type::Array { elem, shape, .. } => {
                let mut s = String::new();
                for d in shape {
                    let n = match d {
                        Size::Const(c) => (*c).max(0) as usize,
                        Size::Var(v) => match named.iter().find(|(m, _)| m == &v.to_string()) {
                            Some((_, n)) => *n,
                            None => {
                                let n = rng.index(6);
                                named.push((v.to_string(), n));
                                n
                            }
                        },
                        Size::Unknown | Size::Infer(_) | Size::Expr(_) | Size::Term(_) => rng.index(6),
                    };
                    s.push_str(&format!("[{n}]"));
                }
                s.push_str(elem.prim()?.name());
                s
            }
            _ => return None,
        };
        out.push(values::generate(&spec, vrng, bounds).ok()?);
    }
    Some(out)
}

fn random_inputs() {
    let verbose = std::env::var_os("FUTMLIR_DIFF_VERBOSE").is_some();
    let mut bounds = values::Bounds::default();
    for t in PrimType::ALL {
        let r = if t.is_unsigned() {
            "0:20"
        } else if t == PrimType::Bool {
            continue;
        } else {
            "-10:10"
        };
        bounds.set(t, r).expect("valid bounds");
    }
    let mut counts = Counts::default();
    let mut rng = Rng::new(3);
    let mut vrng = values::Rng::new(3);
    for (root, path) in programs() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // A `while` loop might not end on an arbitrary input.
        if text.contains("while") {
            continue;
        }
        let rel = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let mut sm = SourceMap::default();
        let file = sm.add(path.display().to_string(), text);
        let Ok(checked) = check::check_file(&mut sm, file) else {
            continue;
        };
        let mut ctx = futmlir_dialects::context();
        let Ok(module) = internalise(&checked, &sm, &mut ctx) else {
            continue;
        };
        if ad_op(&ctx, module).is_some() {
            continue;
        }
        counts.programs += 1;
        for ent in &checked.entries {
            if ALLOWED.iter().any(|(p, e, _)| *p == rel && **e == *ent.name) {
                continue;
            }
            for _ in 0..4 {
                let Some(args) = random_args(&ent.params, &mut rng, &mut vrng, &bounds) else {
                    break;
                };
                let entry = ent.name.to_string();
                let what = format!("{rel} entry `{entry}` (random input)");
                let input_text = show(&Ok(args.clone()));
                let soac = run_func(&ctx, module, &entry, args.clone()).map_err(|e| e.render());
                let reference = match reference(&checked, &entry, args, &sm) {
                    Ok(None) => {
                        counts.opaque += 1;
                        continue;
                    }
                    Ok(Some(vs)) => Ok(vs),
                    Err(e) => Err(e),
                };
                let verdict = match (&reference, &soac) {
                    (Ok(a), Ok(b)) => agree(a, b, &mut counts.empty_shapes),
                    (Err(_), Err(_)) => {
                        counts.both_failed += 1;
                        if verbose {
                            eprintln!(
                                "both failed: {what}:\n  reference: {}\n  soac:      {}",
                                show(&reference),
                                show(&soac)
                            );
                        }
                        Ok(())
                    }
                    _ => Err("one run failed".into()),
                };
                match verdict {
                    Ok(()) => counts.agreed += 1,
                    Err(m) => counts.disagreed.push(format!(
                        "{what}\n  input: {}\n  {m}\n  reference: {}\n  soac:      {}",
                        input_text.replace('\n', " "),
                        show(&reference).replace('\n', "\n    "),
                        show(&soac).replace('\n', "\n    ")
                    )),
                }
            }
        }
    }
    report("soac differential on random inputs", &counts);
}

/// The entry points of the programs on random inputs of their parameter
/// types: both interpreters must agree.
#[test]
fn soac_interpreter_agrees_on_random_inputs() {
    with_big_stack(random_inputs);
}
