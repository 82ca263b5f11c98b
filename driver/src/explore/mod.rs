//! `futmlir explore`: try orderings of some passes inside the default
//! pipeline, and see what each gives.
//!
//! `futmlir explore prog.fut --passes=a,b,c` builds the program once per
//! ordering of the named passes (Note [Orderings in the pipeline]), the
//! default pipeline first, and for each: the compile time, the kernels
//! and SOACs left after kernel extraction (Note [What explore counts]),
//! and, on every dataset of the program's `-- ==` blocks that `futmlir
//! bench` would run, the mean runtime of `-r N` runs (the runtime's own
//! timing, after a warm-up run; [`crate::bench::time`]) and whether the
//! results match the reference's: the case's `output` when it has one,
//! else the interpreter's (`--reference=interp`, the default), the
//! default pipeline's executable for this machine's CPU
//! (`--reference=default`, for datasets too big for the interpreter), or
//! none (`--reference=none`: `ran`). A row is printed as its ordering
//! finishes; `--json FILE` writes them all.
//!
//! `--bundle DIR` (with `--target=cuda`, or `cpu` to test it) builds the
//! orderings into a bundle for `futmlir-check` instead of running them
//! (Note [Explore bundles]); `futmlir explore --report DIR TIMES` reads
//! what `futmlir-check DIR --runs N --times TIMES` wrote back into the
//! table.

mod orderings;
mod table;

use std::cell::OnceCell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use futmlir_frontend::testspec::{parse_test_spec, InputSpec};
use futmlir_frontend::values::{self, Value};
use futmlir_passes::pipeline::Element;
use futmlir_passes::{pipelines, Instrumentation, Level, PassManager, Pipeline};

use crate::bench::{host_name, json_string};
use crate::build::{build_with, Emit, Product, Target};
use crate::bundle::CaseLine;
use crate::compiled::ExeBackend;
use crate::passflags::PassFlags;
use crate::test::{Backend, Compiled, FrontendValues, InterpBackend, Runner};
use orderings::Orderings;
use table::{Build, Cell, Outcome, Row};

#[derive(clap::Args)]
pub struct ExploreArgs {
    /// The program (`.fut`, with `-- ==` blocks); with `--report`, the
    /// bundle's folder.
    #[arg(value_name = "PROGRAM")]
    program: PathBuf,
    /// With `--report`: the file `futmlir-check --times` wrote.
    #[arg(value_name = "TIMES")]
    times: Option<PathBuf>,
    /// The passes that move, e.g. `soac-fuse,soac-simplify` (Note
    /// [Orderings in the pipeline] in explore/orderings.rs).
    #[arg(long, value_name = "PASSES")]
    passes: Option<String>,
    /// What to build for.
    #[arg(long, value_enum, default_value = "cpu")]
    target: Target,
    /// `all` orderings, or `random:N` of them.
    #[arg(long, default_value = "all", value_name = "all|random:N")]
    orderings: Orderings,
    /// The seed of `--orderings=random:N`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also every subset of the passes (in every order), the empty one
    /// included.
    #[arg(long)]
    subsets: bool,
    /// Timed runs per dataset.
    #[arg(short = 'r', long = "runs", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// What a dataset without an `output` is compared with.
    #[arg(long, value_enum, default_value = "interp")]
    reference: Reference,
    /// Also write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Build the orderings into this folder for `futmlir-check` instead of
    /// running them (Note [Explore bundles]).
    #[arg(long, value_name = "DIR")]
    bundle: Option<PathBuf>,
    /// Print the table of a bundle's run: `futmlir explore --report DIR
    /// TIMES`.
    #[arg(long)]
    report: bool,
    /// The GPU to build for (`--target=cuda`).
    #[arg(long = "gpu-arch", default_value = pipelines::DEFAULT_CHIP)]
    gpu_arch: String,
    /// How to compile (`futmlir build`'s flags; `--pass-pipeline` is the
    /// base pipeline the orderings go into).
    #[command(flatten)]
    flags: PassFlags,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Reference {
    Interp,
    Default,
    None,
}

impl Reference {
    fn name(self) -> &'static str {
        match self {
            Reference::Interp => "interp",
            Reference::Default => "default",
            Reference::None => "none",
        }
    }
}

// Note [Explore bundles]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A CUDA exploration is built here and run on a GPU machine, as `futmlir
// test --bundle` is (driver/src/bundle.rs): every ordering that passes
// the level check becomes the executable `DIR/pNNN` (`p000` the default
// pipeline), linked with the runtime's shared library. The datasets are
// written once, `DIR/cases.dK.in` (or, for a `random input`,
// `DIR/cases.dK.random`, its seed and types: futmlir-check draws the
// same values there, so 800 MB of random floats cost 30 bytes), with the
// reference's results in
// `DIR/cases.dK.out` (computed here, as for a local run; without one the
// case only has to run). With `--reference=default` the reference runs
// there instead: such a case is `like:p000` in the manifest, and
// futmlir-check compares each ordering's results with p000's on the same
// input (a CPU run here may round differently from the GPU's), and `DIR/manifest.tsv` has a line per ordering
// and dataset, naming the shared case files, so that `futmlir-check DIR`
// checks every ordering's results. `DIR/explore.tsv` keeps what the
// report needs: the datasets' names, each ordering's number, passes,
// pipeline, compile time (here) and counts, or why it was not built.
// There:
//
//     futmlir-check DIR --runs 5 --times times.tsv
//
// times every case (Note [Timing in a bundle] in checker/src/lib.rs),
// and back here `futmlir explore --report DIR times.tsv [--json F]`
// prints the table. `--target=cpu --bundle` builds the same for this
// machine's CPU, which is how the tests check it.

/// The manifest kind of a case whose results must equal the default
/// pipeline's (`p000`) on the same input, run there (Note [Explore
/// bundles]; futmlir-check's `like:PROG`).
const LIKE_DEFAULT: &str = "like:p000";

/// A dataset of the program: an entry point and its arguments.
struct Dataset {
    entry: String,
    /// `ENTRY #N (TYPES)`, or `ENTRY FILE` for an `input @ FILE`.
    name: String,
    /// Where its case is (`path:line`).
    here: String,
    args: Vec<Value>,
    /// A `random input`'s seed and types, which a bundle carries instead
    /// of the values (`futmlir_checker::random_input` draws them again).
    random: Option<(u64, Vec<String>)>,
    /// The case's own `output`, if it has one.
    expected: Option<Vec<Value>>,
}

/// One ordering to try: its label, the moved passes in order, the
/// whole pipeline.
struct Candidate {
    label: String,
    ordering: Vec<String>,
    pipeline: Pipeline,
}

struct Explorer<'a> {
    path: &'a Path,
    gpu: Option<&'a str>,
    flags: &'a PassFlags,
    runs: usize,
    reference: Reference,
    datasets: Vec<Dataset>,
    /// Each dataset's reference results, computed when first needed.
    references: Vec<OnceCell<Result<Option<Vec<Value>>, String>>>,
    /// The program that computes the references.
    reference_program: OnceCell<Result<Box<dyn Compiled>, String>>,
    /// The rule book of the counting runs (the builds read their own).
    rules: std::sync::Arc<futmlir_passes::egraph::RuleBook>,
}

impl Explorer<'_> {
    /// The results dataset `i` must give: its `output`, or the
    /// reference's (`None`: nothing to compare with).
    fn reference_of(&self, i: usize) -> Result<Option<&[Value]>, String> {
        let d = &self.datasets[i];
        if let Some(e) = &d.expected {
            return Ok(Some(e));
        }
        let r = self.references[i].get_or_init(|| {
            let program = match self.reference {
                Reference::None => return Ok(None),
                Reference::Interp => self.reference_program.get_or_init(|| InterpBackend.compile(self.path)),
                Reference::Default => self.reference_program.get_or_init(|| {
                    ExeBackend {
                        gpu: None,
                        flags: PassFlags {
                            pass_pipeline: None,
                            ..self.flags.clone()
                        },
                        exec: Default::default(),
                    }
                    .compile(self.path)
                }),
            };
            let program = program
                .as_ref()
                .map_err(|e| format!("the reference does not compile: {e}"))?;
            program
                .run(&d.entry, d.args.clone())
                .map(Some)
                .map_err(|e| format!("the reference fails: {e}"))
        });
        r.as_ref().map(|o| o.as_deref()).map_err(Clone::clone)
    }

    /// The flags that build `pipeline`.
    fn flags_for(&self, pipeline: &Pipeline) -> PassFlags {
        PassFlags {
            pass_pipeline: Some(pipeline.to_string()),
            ..self.flags.clone()
        }
    }

    /// Whether `pipeline` passes the level check from the soac level to
    /// an executable; `Err`: why not.
    fn check_levels(pipeline: &Pipeline) -> Result<(), String> {
        match pipeline.check_levels(&[Level::Soac]) {
            Err(e) => Err(e.message),
            Ok(end) if end != [Level::Exe] => Err("the pipeline does not end with an executable".to_string()),
            Ok(_) => Ok(()),
        }
    }

    /// The kernels and SOACs after the pipeline's segop part (Note [What
    /// explore counts]); `None` when that part does not run.
    fn counts(&self, pipeline: &Pipeline) -> Option<(usize, usize)> {
        let prefix = pipeline.up_to_level(&[Level::Soac], Level::Segop)?;
        let (sm, checked) = crate::run::load_plain(self.path).ok()?;
        let mut ctx = futmlir_dialects::context();
        let module = futmlir_frontend::internalise::internalise(&checked, &sm, &mut ctx).ok()?;
        PassManager::new(prefix, Instrumentation::default(), self.rules.clone())
            .run(&mut ctx, module)
            .ok()?;
        Some(crate::structure::kernels_and_soacs(&ctx, module))
    }

    /// The row of an ordering before it is built: with its counts, or
    /// `invalid (level)` when the level check refuses it.
    fn checked_row(&self, c: &Candidate) -> Row {
        let mut row = Row {
            label: c.label.clone(),
            ordering: c.ordering.clone(),
            pipeline: c.pipeline.to_string(),
            build: Build::Built(0.0),
            counts: None,
            cells: Vec::new(),
        };
        if let Err(why) = Self::check_levels(&c.pipeline) {
            row.build = Build::InvalidLevel(why);
            return row;
        }
        row.counts = self.counts(&c.pipeline);
        row
    }

    /// Builds and runs one ordering here.
    fn run(&self, c: &Candidate) -> Row {
        let mut row = self.checked_row(c);
        if matches!(row.build, Build::InvalidLevel(_)) {
            return row;
        }
        let backend = ExeBackend {
            gpu: self.gpu.map(str::to_string),
            flags: self.flags_for(&c.pipeline),
            exec: Default::default(),
        };
        let start = Instant::now();
        let program = match backend.compile(self.path) {
            Ok(p) => p,
            Err(e) => {
                row.build = Build::Failed(first_line(&e));
                return row;
            }
        };
        row.build = Build::Built(start.elapsed().as_secs_f64());
        for (i, d) in self.datasets.iter().enumerate() {
            let cell = match self.reference_of(i) {
                Err(e) => Cell::failed(e),
                Ok(expected) => match crate::bench::time(&*program, &d.entry, &d.args, self.runs, expected) {
                    Ok(timed) => Cell {
                        runtimes: timed.runtimes,
                        outcome: if expected.is_some() { Outcome::Ok } else { Outcome::Ran },
                    },
                    Err(e) => match e.strip_prefix("wrong result: ") {
                        Some(m) => Cell {
                            runtimes: Vec::new(),
                            outcome: Outcome::Wrong(m.to_string()),
                        },
                        None => Cell::failed(first_line(&e)),
                    },
                },
            };
            row.cells.push(cell);
        }
        row
    }

    /// Builds every ordering into the bundle `dir` (Note [Explore
    /// bundles]), printing a row per ordering; the rows (not run).
    fn bundle(&self, dir: &Path, candidates: &[Candidate], meta: &[(&str, String)]) -> Result<Vec<Row>, String> {
        crate::bundle::prepare(dir)?;
        let write = |name: &str, bytes: &[u8]| {
            std::fs::write(dir.join(name), bytes).map_err(|e| format!("cannot write the bundle: {e}"))
        };
        let mut tsv = String::from("# futmlir explore bundle (Note [Explore bundles] in driver/src/explore/mod.rs)\n");
        for (k, v) in meta {
            tsv.push_str(&format!("meta\t{k}\t{v}\n"));
        }
        let mut cases = Vec::new();
        for (i, d) in self.datasets.iter().enumerate() {
            let case = format!("cases.d{i}");
            match &d.random {
                Some((seed, specs)) => write(
                    &format!("{case}.random"),
                    format!("{seed}\n{}\n", specs.join("\n")).as_bytes(),
                )?,
                None => write(&format!("{case}.in"), &values::write_binary_values(&d.args))?,
            }
            // The default build is the reference of a case without an
            // `output`: on the GPU, not here, where a CPU run may round
            // differently (a sequential f32 sum of 10^8 numbers stops
            // growing at 2^24; the GPU's tree of partial sums does not).
            let on_device = d.expected.is_none() && self.reference == Reference::Default;
            let reference = if on_device { Ok(None) } else { self.reference_of(i) };
            let (kind, what) = match reference {
                _ if on_device => (LIKE_DEFAULT, d.here.clone()),
                Ok(Some(vs)) => {
                    write(&format!("{case}.out"), &values::write_binary_values(vs))?;
                    ("output", d.here.clone())
                }
                Ok(None) => ("none", d.here.clone()),
                Err(e) => ("skip", format!("{}: {}", d.here, first_line(&e))),
            };
            tsv.push_str(&format!("dataset\t{case}\t{}\t{kind}\t{}\n", d.entry, d.name));
            cases.push(CaseLine {
                entry: d.entry.clone(),
                case,
                kind,
                what,
                here: d.here.clone(),
            });
        }
        let mut manifest = String::new();
        let mut rows = Vec::new();
        println!("{}", table::header(&self.dataset_names()));
        for (k, c) in candidates.iter().enumerate() {
            let prog = format!("p{k:03}");
            let mut row = self.checked_row(c);
            if !matches!(row.build, Build::InvalidLevel(_)) {
                let exe = dir.join(&prog);
                let ptx = self.gpu.map(|_| dir.join(format!("{prog}.ptx")));
                let start = Instant::now();
                let built = build_with(
                    self.path,
                    Emit::Exe,
                    self.gpu,
                    &exe,
                    Product::Exe { shared_runtime: true },
                    ptx.as_deref(),
                    &self.flags_for(&c.pipeline),
                );
                match built {
                    Ok(_) => {
                        row.build = Build::Built(start.elapsed().as_secs_f64());
                        row.cells = vec![
                            Cell {
                                runtimes: Vec::new(),
                                outcome: Outcome::NotRun,
                            };
                            cases.len()
                        ];
                        for l in &cases {
                            // The reference itself only has to run.
                            let l = match l.kind {
                                LIKE_DEFAULT if k == 0 => &CaseLine {
                                    kind: "none",
                                    ..l.clone()
                                },
                                _ => l,
                            };
                            manifest.push_str(&l.manifest_line(&prog));
                        }
                    }
                    Err(e) => {
                        row.build = Build::Failed(first_line(&e));
                        cases
                            .iter()
                            .for_each(|l| manifest.push_str(&l.not_compiled(&e).manifest_line(&prog)));
                    }
                }
            }
            tsv.push_str(&row_tsv(&prog, &row));
            println!("{}", table::line(&row, self.datasets.len()));
            rows.push(row);
        }
        crate::bundle::write_manifest(dir, &manifest)?;
        write("explore.tsv", tsv.as_bytes())?;
        Ok(rows)
    }

    fn dataset_names(&self) -> Vec<String> {
        self.datasets.iter().map(|d| d.name.clone()).collect()
    }
}

/// The first non-empty line of a message.
fn first_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .to_string()
}

/// Text with no tabs or line breaks, for a field of a TSV line.
fn field(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// An ordering's line of `explore.tsv`: `row`, the program, the label,
/// the passes, the build (`built SECS`, `invalid MESSAGE`, `failed
/// MESSAGE`), the kernels and SOACs (`-` when not counted), the pipeline.
fn row_tsv(prog: &str, row: &Row) -> String {
    let build = match &row.build {
        Build::Built(s) => format!("built {s}"),
        Build::InvalidLevel(m) => format!("invalid {}", field(m)),
        Build::Failed(m) => format!("failed {}", field(m)),
    };
    let (k, s) = match row.counts {
        Some((k, s)) => (k.to_string(), s.to_string()),
        None => ("-".to_string(), "-".to_string()),
    };
    format!(
        "row\t{prog}\t{}\t{}\t{build}\t{k}\t{s}\t{}\n",
        row.label,
        row.ordering.join(","),
        row.pipeline
    )
}

/// The orderings to try, the default pipeline first (Note [Orderings in
/// the pipeline]).
fn candidates(base: &Pipeline, moved: &[Element], which: Orderings, subsets: bool, seed: u64) -> Vec<Candidate> {
    let name = |e: &Element| match e {
        Element::Pass { info, .. } => info.name.to_string(),
        Element::Nested { anchor, .. } => anchor.clone(),
    };
    let orders = match which {
        Orderings::All => orderings::all(moved.len(), subsets),
        Orderings::Random(n) => orderings::random(moved.len(), subsets, n, seed),
    };
    let mut out = vec![Candidate {
        label: "default".to_string(),
        ordering: Vec::new(),
        pipeline: base.clone(),
    }];
    let mut seen: Vec<String> = Vec::new();
    for order in orders {
        let pipeline = orderings::splice(base, moved, &order);
        let text = pipeline.to_string();
        // A pass named twice gives the same ordering twice.
        if seen.contains(&text) {
            continue;
        }
        seen.push(text);
        out.push(Candidate {
            label: (out.len()).to_string(),
            ordering: order.iter().map(|&i| name(&moved[i])).collect(),
            pipeline,
        });
    }
    out
}

/// The datasets of the program: those `futmlir bench` runs, with their
/// own expected outputs.
fn datasets(path: &Path, backend: &str) -> Result<Vec<Dataset>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let blocks = parse_test_spec(&text)
        .map_err(|e| format!("{}:{}: malformed test spec: {}", path.display(), e.line, e.message))?;
    let runner = Runner {
        backend: &InterpBackend,
        reference: None,
        values: &FrontendValues,
        verbose: false,
        cases_only: false,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    crate::bench::plan(&blocks, backend, None, &crate::bench::excluded_tags(backend, &[]))
        .into_iter()
        .map(|(entry, case, n)| {
            let here = format!("{}:{}", path.display(), case.line);
            let (name, args) =
                crate::bench::dataset(&runner, dir, case, n).map_err(|(d, e)| format!("{here}: dataset {d}: {e}"))?;
            let expected = runner.expected_output(dir, case).map_err(|e| format!("{here}: {e}"))?;
            // The seed `Runner::inputs` draws a random input with.
            let random = match &case.input {
                InputSpec::Random(specs) => Some((case.line as u64, specs.clone())),
                _ => None,
            };
            Ok(Dataset {
                random,
                entry: entry.to_string(),
                name: format!("{entry} {name}"),
                here,
                args,
                expected,
            })
        })
        .collect()
}

pub fn main(a: ExploreArgs) -> ExitCode {
    if a.report {
        return report(&a);
    }
    match explore(&a) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

/// Runs an exploration; `Ok(false)`: an ordering that passed the level
/// check failed to build, failed or gave wrong results.
fn explore(a: &ExploreArgs) -> Result<bool, String> {
    let Some(spec) = &a.passes else {
        return Err("error: --passes names the passes to move (e.g. --passes=soac-fuse,soac-simplify)".to_string());
    };
    if a.times.is_some() {
        return Err("error: a second path (TIMES) goes with --report".to_string());
    }
    // Plugins first: `--passes` may name their passes.
    a.flags.load_plugins()?;
    let gpu = (a.target == Target::Cuda).then_some(a.gpu_arch.as_str());
    let base_text = a
        .flags
        .pass_pipeline
        .clone()
        .unwrap_or_else(|| pipelines::compile(gpu, a.bundle.is_some()));
    let base = Pipeline::parse(&base_text).map_err(|e| format!("{:?}", e.to_report(&base_text)))?;
    let moved = orderings::moved_passes(spec, &base)?;
    let total = orderings::count(moved.len(), a.subsets);
    if a.orderings == Orderings::All && total > orderings::MAX_ORDERINGS {
        return Err(format!(
            "error: {} passes have {} orderings{}, more than the {} that --orderings=all tries: name fewer passes, or use --orderings=random:N",
            moved.len(),
            if total == usize::MAX { "too many".to_string() } else { total.to_string() },
            if a.subsets { " with their subsets" } else { "" },
            orderings::MAX_ORDERINGS
        ));
    }
    let candidates = candidates(&base, &moved, a.orderings, a.subsets, a.seed);
    if a.flags.dump_pass_pipeline {
        for c in &candidates {
            eprintln!("{}: {}", c.label, c.pipeline);
        }
        return Ok(true);
    }
    let rules = a.flags.rule_book()?;
    if a.bundle.is_none() && a.target == Target::Cuda && !Path::new("/dev/nvidiactl").exists() {
        eprintln!("warning: no NVIDIA GPU here; --target=cuda runs the orderings here unless --bundle DIR is given");
    }
    let backend = if gpu.is_some() { "cuda" } else { "cpu" };
    let datasets = datasets(&a.program, backend)?;
    if datasets.is_empty() {
        return Err(format!(
            "error: {} has no dataset to run (no `-- ==` block with an input that `futmlir bench` runs)",
            a.program.display()
        ));
    }
    let explorer = Explorer {
        path: &a.program,
        gpu,
        flags: &a.flags,
        runs: a.runs as usize,
        reference: a.reference,
        references: datasets.iter().map(|_| OnceCell::new()).collect(),
        datasets,
        reference_program: OnceCell::new(),
        rules,
    };
    let flags: Vec<String> = std::env::args().skip(1).map(|f| json_string(&f)).collect();
    let meta = vec![
        ("host", json_string(&host_name())),
        ("version", json_string(env!("CARGO_PKG_VERSION"))),
        ("program", json_string(&a.program.display().to_string())),
        ("target", json_string(backend)),
        ("passes", json_string(spec)),
        ("runs", a.runs.to_string()),
        ("reference", json_string(a.reference.name())),
        ("flags", format!("[{}]", flags.join(", "))),
    ];
    let rows = match &a.bundle {
        Some(dir) => {
            let rows = explorer.bundle(dir, &candidates, &meta)?;
            let built = rows.iter().filter(|r| matches!(r.build, Build::Built(_))).count();
            let (dir, runs) = (dir.display(), a.runs);
            println!(
                "wrote {built} orderings to {dir}; run `futmlir-check {dir} --runs {runs} --times times.tsv` there, then `futmlir explore --report {dir} times.tsv`"
            );
            rows
        }
        None => {
            println!("{}", table::header(&explorer.dataset_names()));
            let mut rows = Vec::new();
            for c in &candidates {
                let row = explorer.run(c);
                println!("{}", table::line(&row, explorer.datasets.len()));
                let _ = std::io::stdout().flush();
                rows.push(row);
            }
            rows
        }
    };
    if let Some(file) = &a.json {
        std::fs::write(file, table::json(&meta, &explorer.dataset_names(), &rows))
            .map_err(|e| format!("error: cannot write {}: {e}", file.display()))?;
    }
    Ok(rows
        .iter()
        .all(|r| matches!(r.result().as_str(), "ok" | "ran" | "built" | "invalid (level)")))
}

/// `futmlir explore --report DIR TIMES`: the table of a bundle's run.
fn report(a: &ExploreArgs) -> ExitCode {
    let Some(times) = &a.times else {
        eprintln!("error: --report takes the bundle's folder and the file `futmlir-check --times` wrote");
        return ExitCode::from(2);
    };
    match read_report(&a.program, times) {
        Ok((meta, names, rows)) => {
            println!("{}", table::header(&names));
            for r in &rows {
                println!("{}", table::line(r, names.len()));
            }
            if let Some(file) = &a.json {
                let meta: Vec<(&str, String)> = meta.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                if let Err(e) = std::fs::write(file, table::json(&meta, &names, &rows)) {
                    eprintln!("error: cannot write {}: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            }
            if rows
                .iter()
                .all(|r| matches!(r.result().as_str(), "ok" | "ran" | "invalid (level)"))
            {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

type Report = (Vec<(String, String)>, Vec<String>, Vec<Row>);

/// The metadata, dataset names and rows of a bundle (`DIR/explore.tsv`)
/// with the cases' records from `times` (`futmlir-check --times`).
fn read_report(dir: &Path, times: &Path) -> Result<Report, String> {
    let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()));
    let tsv = read(&dir.join("explore.tsv"))?;
    let records = read(times)?;
    // (prog, case) -> (status, runtimes).
    let mut ran = std::collections::HashMap::new();
    for line in records.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let [prog, _entry, case, status, runtimes] = f[..] else {
            return Err(format!("{}: malformed line: {line}", times.display()));
        };
        let runtimes = runtimes
            .split_whitespace()
            .map(|t| {
                t.parse::<f64>()
                    .map_err(|_| format!("{}: malformed runtime `{t}`", times.display()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        ran.insert((prog.to_string(), case.to_string()), (status.to_string(), runtimes));
    }
    let (mut meta, mut cases, mut rows) = (Vec::new(), Vec::new(), Vec::new());
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let bad = || format!("{}/explore.tsv: malformed line: {line}", dir.display());
        match f[..] {
            ["meta", k, v] => meta.push((k.to_string(), v.to_string())),
            ["dataset", case, _entry, kind, name] => cases.push((case, kind, name.to_string())),
            ["row", prog, label, ordering, build, k, s, pipeline] => {
                let build = match build.split_once(' ') {
                    Some(("built", secs)) => Build::Built(secs.parse().map_err(|_| bad())?),
                    Some(("invalid", m)) => Build::InvalidLevel(m.to_string()),
                    Some(("failed", m)) => Build::Failed(m.to_string()),
                    _ => return Err(bad()),
                };
                let counts = k.parse().ok().zip(s.parse().ok());
                let cells = match build {
                    Build::Built(_) => cases
                        .iter()
                        .map(|(case, kind, _)| match ran.get(&(prog.to_string(), case.to_string())) {
                            None => Cell::failed("not run".to_string()),
                            Some((status, runtimes)) => Cell {
                                runtimes: runtimes.clone(),
                                outcome: record_outcome(status, kind),
                            },
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                rows.push(Row {
                    label: label.to_string(),
                    ordering: ordering
                        .split(',')
                        .filter(|p| !p.is_empty())
                        .map(str::to_string)
                        .collect(),
                    pipeline: pipeline.to_string(),
                    build,
                    counts,
                    cells,
                });
            }
            _ => return Err(bad()),
        }
    }
    let names = cases.into_iter().map(|(_, _, n)| n).collect();
    Ok((meta, names, rows))
}

/// The outcome of a case from futmlir-check's status (`ok`, `skipped`,
/// `failed: WHY`) and the case's kind: a failure that is not a failed
/// run is a difference in the results.
fn record_outcome(status: &str, kind: &str) -> Outcome {
    match status.strip_prefix("failed: ") {
        None if status == "ok" && (kind == "output" || kind == LIKE_DEFAULT) => Outcome::Ok,
        None if status == "ok" => Outcome::Ran,
        None => Outcome::Failed(status.to_string()),
        Some(why) => {
            let run_failed = [
                "run-time error",
                "timed out",
                "cannot run",
                "malformed",
                "no input",
                "killed",
            ]
            .iter()
            .any(|p| why.starts_with(p))
                || why.contains("compilation failed");
            if run_failed {
                Outcome::Failed(why.to_string())
            } else {
                Outcome::Wrong(why.to_string())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_statuses_become_outcomes() {
        assert_eq!(record_outcome("ok", "output"), Outcome::Ok);
        assert_eq!(record_outcome("ok", "none"), Outcome::Ran);
        assert_eq!(
            record_outcome("failed: value 0: expected 1i32, got 2i32", "output"),
            Outcome::Wrong("value 0: expected 1i32, got 2i32".into())
        );
        assert_eq!(
            record_outcome("failed: run-time error: Error: oops", "output"),
            Outcome::Failed("run-time error: Error: oops".into())
        );
        assert_eq!(record_outcome("skipped", "skip"), Outcome::Failed("skipped".into()));
    }
}
