//! Differential test of the soac passes: every test case of the programs
//! under `tests/programs` runs on the `soac` interpreter over the
//! internalised IR before and after a pipeline of soac passes, and the
//! results must be the same (equal values, or both runs fail). The IR must
//! verify after the pipeline (the default soac pipeline,
//! `futmlir_passes::pipelines::SOAC`). `FUTMLIR_PASSES_PIPELINE` replaces
//! it; `FUTMLIR_DIFF_FILTER=substring` runs only matching programs.
//! Programs that use `jvp` are compared from after `soac-jvp` on (the
//! soac interpreter has no `soac.jvp`).

use std::path::Path;

use futmlir_dialects::interp::run_func;
use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::testspec::{parse_test_spec, InputSpec};
use futmlir_frontend::values::{self, compare_values, Value};
use futmlir_passes::egraph::RuleBook;
use futmlir_passes::{Instrumentation, PassManager, Pipeline};

/// The rule files compiled into futmlir, for every pipeline here.
fn rules() -> std::sync::Arc<RuleBook> {
    std::sync::Arc::new(RuleBook::embedded())
}

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

fn run(default_pipeline: &str) {
    futmlir_codegen::register_passes();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let pipeline_text = std::env::var("FUTMLIR_PASSES_PIPELINE").unwrap_or_else(|_| default_pipeline.to_string());
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
        let rel = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        // The soac interpreter has no `soac.jvp` or `soac.vjp`: the
        // reference run is the IR after `soac-jvp` and `soac-vjp` (which
        // `futmlir test` checks against the reference interpreter,
        // tests/programs/ad), after `soac-inline` (as in the pipelines:
        // `soac-vjp` differentiates no calls).
        let mut ad = false;
        ctx.walk(module, &mut |o| ad |= matches!(ctx.op_name(o), "soac.jvp" | "soac.vjp"));
        if ad {
            let p = Pipeline::parse("soac-inline,soac-jvp,soac-vjp").expect("the AD passes parse");
            let verify = Instrumentation {
                verify_each: true,
                ..Instrumentation::default()
            };
            if let Err(ds) = PassManager::new(p, verify, rules()).run(&mut ctx, module) {
                failures.push(format!("{rel}: the AD passes failed: {}", ds[0].message));
                continue;
            }
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
        if let Err(ds) = PassManager::new(pipeline, instrumentation, rules()).run(&mut ctx, module) {
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

/// Runs `run` with the pipeline on a big stack: internalisation and the
/// interpreters recurse on the program's nesting.
fn run_on_big_stack(pipeline: String) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(&pipeline))
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn soac_passes_keep_results() {
    run_on_big_stack(PIPELINE.to_string());
}

/// The pipeline `futmlir build` runs for a target, up to the segop level
/// (where `--emit=segop` prints).
fn to_segop(cuda: bool) -> String {
    futmlir_codegen::register_passes();
    Pipeline::parse(&futmlir_passes::pipelines::compile(
        cuda.then_some(futmlir_passes::pipelines::DEFAULT_CHIP),
        false,
    ))
    .expect("the default pipeline parses")
    .up_to_level(&[futmlir_passes::Level::Soac], futmlir_passes::Level::Segop)
    .expect("it reaches the segop level")
    .to_string()
}

/// Kernel extraction, as `futmlir build --target=cpu` runs it: the
/// interpreter runs the segops sequentially, and the results must not
/// change.
#[test]
fn kernel_extraction_keeps_results() {
    run_on_big_stack(to_segop(false));
}

/// The same for the CUDA target's pipeline (its soac stage keeps fewer
/// calls, and no CPU locality pass).
#[test]
fn kernel_extraction_for_cuda_keeps_results() {
    run_on_big_stack(to_segop(true));
}

/// Parallel streams (which no source construct makes: written here by
/// hand) fuse with maps, reductions and each other, and the results stay
/// the same on the interpreter.
const STREAM_PAR: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %two = "soac.constant"() {value = 2 : i32} : () -> i32
  %ys = "soac.map"(%n, %xs) ({
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %two) {kind = "mul"} : (i32, i32) -> i32
    "soac.yield"(%y) : (i32) -> ()
  }) : (i64, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
  %s:2 = "soac.stream_par"(%n, %zero, %ys) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%k: i64, %acc: i32, %chunk: !fut.array<[%k]i32>):
    %t = "soac.reduce"(%k, %zero, %chunk) ({
    ^bb0(%a: i32, %b: i32):
      %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
      "soac.yield"(%c) : (i32) -> ()
    }) : (i64, i32, !fut.array<[%k]i32>) -> i32
    %acc2 = "soac.binop"(%acc, %t) {kind = "add"} : (i32, i32) -> i32
    %sq = "soac.map"(%k, %chunk) ({
    ^bb0(%x: i32):
      %y = "soac.binop"(%x, %x) {kind = "mul"} : (i32, i32) -> i32
      "soac.yield"(%y) : (i32) -> ()
    }) : (i64, !fut.array<[%k]i32>) -> !fut.array<[%k]i32>
    "soac.yield"(%acc2, %sq) : (i32, !fut.array<[%k]i32>) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> (i32, !fut.array<[%n]i32>)
  %m:2 = "soac.redomap"(%n, %zero, %s#1) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "max"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%x: i32):
    %y = "soac.binop"(%x, %two) {kind = "sub"} : (i32, i32) -> i32
    "soac.yield"(%y, %y) : (i32, i32) -> ()
  }) : (i64, i32, !fut.array<[%n]i32>) -> (i32, !fut.array<[%n]i32>)
  "soac.return"(%s#0, %m#0, %m#1) : (i32, i32, !fut.array<[%n]i32>) -> ()
}) {sym_name = "main", function_type = (i64, !fut.array<[?]i32>) -> (i32, i32, !fut.array<[?]i32>)} : () -> ()
"#;

#[test]
fn parallel_streams_fuse_and_keep_results() {
    let mut ctx = futmlir_dialects::context();
    let module = ctx.parse_str("stream_par.mlir", STREAM_PAR).expect("the IR parses");
    let args = futmlir_frontend::values::parse_values("[1, -2, 3, 4, 0, 7, -5]").expect("values");
    let before = run_func(&ctx, module, "main", args.clone()).map_err(|e| e.render());
    let pipeline = Pipeline::parse("soac-fuse").expect("pipeline");
    let instrumentation = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    PassManager::new(pipeline, instrumentation, rules())
        .run(&mut ctx, module)
        .unwrap_or_else(|ds| panic!("soac-fuse failed: {}", ds[0].message));
    // The map, the stream and the redomap are one stream at the top.
    let func = ctx.first_op(ctx.blocks(ctx.regions(module)[0])[0]).expect("a function");
    let body = ctx.blocks(ctx.regions(func)[0])[0];
    let top: Vec<String> = ctx.block_ops(body).map(|o| ctx.op_name(o).to_string()).collect();
    assert_eq!(
        top.iter().filter(|n| n.as_str() == "soac.stream_par").count(),
        1,
        "{top:?}"
    );
    assert!(!top.iter().any(|n| n == "soac.map" || n == "soac.redomap"), "{top:?}");
    let after = run_func(&ctx, module, "main", args).map_err(|e| e.render());
    assert!(before.is_ok(), "{before:?}");
    assert!(same(&before, &after), "before: {before:?}\nafter: {after:?}");
}

/// A partition into three classes (no source construct makes more than
/// two), with classes outside `0..3` that go last: `soac-partition` keeps
/// the results, on rows and on no rows.
const PARTITION3: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i64>):
  %p:4 = "soac.partition"(%n, %xs) ({
  ^bb0(%x: i64):
    "soac.yield"(%x) : (i64) -> ()
  }) {k = 3 : i64} : (i64, !fut.array<[%n]i64>) -> (i64, i64, i64, !fut.array<[%n]i64>)
  "soac.return"(%p#0, %p#1, %p#2, %p#3) : (i64, i64, i64, !fut.array<[%n]i64>) -> ()
}) {sym_name = "main", function_type = (i64, !fut.array<[?]i64>) -> (i64, i64, i64, !fut.array<[?]i64>)} : () -> ()
"#;

#[test]
fn partition_into_three_classes_keeps_results() {
    let cases = [
        (
            "[2i64, -1i64, 0i64, 5i64, 1i64, 2i64, 3i64, 0i64, -7i64]",
            "2i64 1i64 2i64 [0i64, 0i64, 1i64, 2i64, 2i64, -1i64, 5i64, 3i64, -7i64]",
        ),
        ("[9i64, -2i64]", "0i64 0i64 0i64 [9i64, -2i64]"),
        ("empty([0]i64)", "0i64 0i64 0i64 empty([0]i64)"),
    ];
    let mut ctx = futmlir_dialects::context();
    let module = ctx.parse_str("partition3.mlir", PARTITION3).expect("the IR parses");
    let before: Vec<_> = cases
        .iter()
        .map(|(i, _)| run_func(&ctx, module, "main", values::parse_values(i).expect("values")).map_err(|e| e.render()))
        .collect();
    let instrumentation = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    PassManager::new(
        Pipeline::parse("soac-partition").expect("pipeline"),
        instrumentation,
        rules(),
    )
    .run(&mut ctx, module)
    .unwrap_or_else(|ds| panic!("soac-partition failed: {}", ds[0].message));
    let mut names = Vec::new();
    ctx.walk(module, &mut |o| names.push(ctx.op_name(o).to_string()));
    assert!(!names.iter().any(|n| n == "soac.partition"), "{names:?}");
    assert!(names.iter().any(|n| n == "soac.scatter"), "{names:?}");
    for ((input, expected), b) in cases.iter().zip(before) {
        let expected = Ok(values::parse_values(expected).expect("values"));
        let after =
            run_func(&ctx, module, "main", values::parse_values(input).expect("values")).map_err(|e| e.render());
        assert!(same(&expected, &b), "{input}: the interpreter before: {b:?}");
        assert!(same(&expected, &after), "{input}: after soac-partition: {after:?}");
    }
}
