//! Differential test of the soac passes: every test case of the programs
//! under `tests/programs` runs on the `soac` interpreter over the
//! internalised IR before and after a pipeline of soac passes, and the
//! results must be the same (equal values, or both runs fail). The IR must
//! verify after the pipeline (the default soac pipeline,
//! `futmlir_passes::pipelines::SOAC`). `FUTMLIR_PASSES_PIPELINE` replaces
//! it; `FUTMLIR_DIFF_FILTER=substring` runs only matching programs.

use std::path::Path;

use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::soac_interp::run_func;
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::testspec::{parse_test_spec, InputSpec};
use futmlir_frontend::values::{self, compare_values, Value};
use futmlir_passes::{Instrumentation, PassManager, Pipeline};

const PIPELINE: &str = futmlir_passes::pipelines::SOAC;

fn inputs(dir: &Path, input: &InputSpec, line: usize) -> Option<Vec<Value>> {
    match input {
        InputSpec::Inline(text) => values::parse_values(text).ok(),
        InputSpec::File(f) => values::read_values(&std::fs::read(dir.join(f)).ok()?).ok(),
        InputSpec::Random(specs) => {
            let mut rng = values::Rng::new(line as u64);
            let bounds = values::Bounds::default();
            specs
                .iter()
                .map(|s| values::generate(s, &mut rng, &bounds).ok())
                .collect()
        }
        InputSpec::Script(_) => None,
    }
}

fn same(a: &Result<Vec<Value>, String>, b: &Result<Vec<Value>, String>) -> bool {
    match (a, b) {
        (Ok(x), Ok(y)) => compare_values(x, y).is_ok(),
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

fn run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let pipeline_text = std::env::var("FUTMLIR_PASSES_PIPELINE").unwrap_or_else(|_| PIPELINE.to_string());
    let filter = std::env::var("FUTMLIR_DIFF_FILTER").unwrap_or_default();
    let files = futmlir_frontend::testspec::fut_files(&root).expect("the test programs are readable");
    let (mut programs, mut cases, mut failures) = (0, 0, Vec::new());
    for path in files.iter().filter(|p| p.display().to_string().contains(&filter)) {
        let text = std::fs::read_to_string(path).expect("test programs are readable");
        let Ok(blocks) = parse_test_spec(&text) else { continue };
        let mut sm = SourceMap::default();
        let file = sm.add(path.display().to_string(), text);
        let Ok(checked) = check::check_file(&mut sm, file) else {
            continue;
        };
        let mut ctx = futmlir_dialects::context();
        let Ok(module) = internalise(&checked, &sm, &mut ctx) else {
            continue;
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let runs: Vec<(String, Vec<Value>)> = blocks
            .iter()
            .filter(|b| !b.tags.iter().any(|t| t == "disable"))
            .flat_map(|b| {
                b.cases
                    .iter()
                    .flat_map(move |c| b.entries.iter().map(move |e| (c, e.clone())))
            })
            .filter_map(|(c, e)| Some((e, inputs(dir, &c.input, c.line)?)))
            .collect();
        if runs.is_empty() {
            continue;
        }
        let before: Vec<_> = runs
            .iter()
            .map(|(e, args)| run_func(&ctx, module, e, args.clone()).map_err(|x| x.render()))
            .collect();
        let pipeline = Pipeline::parse(&pipeline_text).unwrap_or_else(|e| panic!("bad pipeline: {}", e.message));
        let instrumentation = Instrumentation {
            verify_each: true,
            ..Instrumentation::default()
        };
        let rel = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        if let Err(ds) = PassManager::new(pipeline, instrumentation).run(&mut ctx, module) {
            failures.push(format!("{rel}: the pipeline failed: {}", ds[0].message));
            continue;
        }
        programs += 1;
        for ((entry, args), b) in runs.into_iter().zip(before) {
            cases += 1;
            let after = run_func(&ctx, module, &entry, args).map_err(|x| x.render());
            if !same(&b, &after) {
                failures.push(format!("{rel} entry `{entry}`:\n  before: {b:?}\n  after:  {after:?}"));
            }
        }
    }
    eprintln!(
        "soac passes `{pipeline_text}`: {programs} programs, {cases} cases, {} differ",
        failures.len()
    );
    assert!(programs > 100 || !filter.is_empty(), "too few programs ran: {programs}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn soac_passes_keep_results() {
    // Internalisation and the interpreters recurse on the program's nesting.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}
