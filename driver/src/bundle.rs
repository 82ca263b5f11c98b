//! `futmlir test --backend=cuda --bundle DIR`: build the test programs for
//! a GPU machine that has no Rust toolchain.
//!
//! Each program with test cases becomes an executable `DIR/pN` linked
//! against `DIR/libfutmlir_runtime_cuda.so` (so the bundle stays small:
//! the runtime once, then tens of kilobytes a program); each case gets its
//! input `DIR/pN.cK.ENTRY.in` (values) and what it must give,
//! `DIR/pN.cK.ENTRY.out` (values; an `auto output` is computed here by the
//! interpreter) or `DIR/pN.cK.ENTRY.err` (a regular expression);
//! `DIR/pN.ptx` is its kernels' PTX. A `script input` case has, instead
//! of `.in`, `DIR/pN.cK.ENTRY.script`, the FutharkScript text, which
//! `futmlir-check` evaluates there with the entry points it applies run
//! by `pN` itself (the results of one program's entry points feed
//! another, as on the CPU); the files its `$loaddata` and `$loadbytes`
//! name (the test's folder is not on that machine) are copied to
//! `DIR/pN.cK.ENTRY.fileJ`, J numbering the distinct names in order of
//! appearance (`futmlir_script::files_named`). `DIR/manifest.tsv` lists
//! the cases, one a line: program, entry, case, kind (`output`, `error`,
//! `none`, `skip`, or `fail` when the program does not compile), and
//! where the case is (`path:line`) or why it is skipped or failed. (A
//! script case's line is like any other's: a checker older than script
//! bundles reports it failed, for want of its `.in`.) `futmlir-check
//! DIR` (crate `checker`) runs them there.
//!
//! `--backend=cpu --bundle DIR` builds the same bundle for this machine's
//! CPU (no PTX), so that the bundle and `futmlir-check` can be tested
//! where there is no GPU (driver/tests/bundle.rs).

use std::path::Path;

use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, OutputSpec};
use futmlir_frontend::values;

use crate::build::{build_with, Emit, Product};
use crate::passflags::PassFlags;
use crate::test::{block_skip, case_skip, Backend, FrontendValues, InterpBackend, Runner, ValueLib};

/// Fills `dir` with the programs' executables and cases, built for the GPU
/// `gpu` (the chip) or, with `None`, for the CPU; returns the number of
/// cases written, skipped and failed (not compiled).
pub fn bundle(
    programs: &[std::path::PathBuf],
    dir: &Path,
    gpu: Option<&str>,
    flags: &PassFlags,
) -> Result<(usize, usize, usize), String> {
    let backend = if gpu.is_some() { "cuda" } else { "cpu" };
    prepare(dir)?;
    let mut manifest = String::new();
    let (mut written, mut skipped, mut failed) = (0, 0, 0);
    for (pi, path) in programs.iter().enumerate() {
        let name = format!("p{pi}");
        let exe = dir.join(&name);
        let ptx = gpu.map(|_| dir.join(format!("{name}.ptx")));
        let compile = || {
            build_with(
                path,
                Emit::Exe,
                gpu,
                &exe,
                Product::Exe { shared_runtime: true },
                ptx.as_deref(),
                flags,
            )
            .map(|_| ())
        };
        let Some(lines) = program_cases(path, &name, dir, backend, false, compile)? else {
            continue;
        };
        for l in &lines {
            match l.kind {
                "skip" => skipped += 1,
                "fail" => failed += 1,
                _ => written += 1,
            }
            manifest.push_str(&l.manifest_line(&name));
        }
    }
    write_manifest(dir, &manifest)?;
    Ok((written, skipped, failed))
}

/// Makes the bundle folder and copies the runtime's shared library into
/// it.
pub(crate) fn prepare(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let runtime = futmlir_codegen::codegen::find_runtime_shared()?;
    std::fs::copy(&runtime, dir.join("libfutmlir_runtime_cuda.so"))
        .map_err(|e| format!("cannot copy {}: {e}", runtime.display()))?;
    Ok(())
}

pub(crate) fn write_manifest(dir: &Path, manifest: &str) -> Result<(), String> {
    std::fs::write(dir.join("manifest.tsv"), manifest).map_err(|e| format!("cannot write the manifest: {e}"))
}

/// A case of a bundle, one line of its manifest but for the program.
#[derive(Clone)]
pub(crate) struct CaseLine {
    pub entry: String,
    /// The stem of the case's files (`pN.cK.ENTRY`).
    pub case: String,
    /// `output`, `error`, `none`, `skip` or `fail`.
    pub kind: &'static str,
    /// Where the case is (`path:line`), and why it is skipped or failed.
    pub what: String,
    /// Where the case is (`path:line`).
    pub here: String,
}

impl CaseLine {
    /// The manifest line of this case run by program `prog`.
    pub fn manifest_line(&self, prog: &str) -> String {
        format!("{prog}\t{}\t{}\t{}\t{}\n", self.entry, self.case, self.kind, self.what)
    }

    /// This case for a program that did not compile (`error`: the
    /// rendered error): a feature the backends lack is a skip, any
    /// other error a failure; a case skipped anyway stays skipped.
    pub fn not_compiled(&self, error: &str) -> CaseLine {
        let here = &self.here;
        let (kind, what) = match error.lines().find(|l| l.contains(crate::compiled::UNSUPPORTED)) {
            _ if self.kind == "skip" => ("skip", self.what.clone()),
            Some(why) => (
                "skip",
                format!("{here}: {}", why.trim().trim_start_matches(['x', ' ', '×'])),
            ),
            None => {
                let first = error.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                ("fail", format!("{here}: compilation failed: {first}"))
            }
        };
        CaseLine {
            kind,
            what,
            ..self.clone()
        }
    }
}

/// The cases of the program at `path` for `backend`: `None` when it has
/// none; otherwise `compile` runs, and, if it succeeds, each case's files
/// are written under the name `NAME.cK.ENTRY` (see the module doc) and
/// its manifest line returned; if it fails, each case is a skip or a
/// failure ([`CaseLine::not_compiled`]). `none_reference`: a case with no
/// expected output gets the interpreter's results too, as an `auto
/// output` does (`futmlir explore`'s bundles check every dataset).
pub(crate) fn program_cases(
    path: &Path,
    name: &str,
    dir: &Path,
    backend: &str,
    none_reference: bool,
    compile: impl FnOnce() -> Result<(), String>,
) -> Result<Option<Vec<CaseLine>>, String> {
    let interp = InterpBackend;
    let runner = Runner {
        backend: &interp,
        reference: None,
        values: &FrontendValues,
        verbose: false,
        cases_only: false,
    };
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let Ok(blocks) = parse_test_spec(&text) else {
        return Ok(None);
    };
    let cases: Vec<_> = blocks
        .iter()
        .flat_map(|b| b.cases.iter().map(move |c| (b, c)))
        .filter(|(b, c)| block_skip(b, backend).is_none() && case_skip(c, backend).is_none())
        .collect();
    if cases.is_empty() {
        return Ok(None);
    }
    let compiled = compile();
    let src_dir = path.parent().unwrap_or(Path::new("."));
    let reference = std::cell::OnceCell::new();
    let mut lines = Vec::new();
    for (ci, (block, case)) in cases.into_iter().enumerate() {
        for entry in &block.entries {
            let here = format!("{}:{}", path.display(), case.line);
            let case_name = format!("{name}.c{ci}.{entry}");
            let case_line = |kind: &'static str, what: &str| CaseLine {
                entry: entry.clone(),
                case: case_name.clone(),
                kind,
                what: what.to_string(),
                here: here.clone(),
            };
            if let Err(e) = &compiled {
                lines.push(case_line("output", &here).not_compiled(e));
                continue;
            }
            let mut line = |kind: &'static str, what: &str| lines.push(case_line(kind, what));
            let write = |ext: &str, bytes: &[u8]| {
                std::fs::write(dir.join(format!("{case_name}.{ext}")), bytes)
                    .map_err(|e| format!("cannot write the bundle: {e}"))
            };
            let reference_program = || {
                reference
                    .get_or_init(|| interp.compile(path))
                    .as_ref()
                    .map_err(Clone::clone)
            };
            let by_reference =
                matches!(case.expected, Expected::Auto) || (none_reference && matches!(case.expected, Expected::None));
            // A script is evaluated where the case runs, calling the
            // executable (see the module comment); here only for an
            // `auto output`, whose reference run needs the arguments.
            let input = match &case.input {
                InputSpec::Script(src) => script_files(src, src_dir).and_then(|files| {
                    let args = if by_reference {
                        runner.inputs(src_dir, case, Some(&**reference_program()?))?
                    } else {
                        Vec::new()
                    };
                    Ok((Some((src, files)), args))
                }),
                _ => runner.inputs(src_dir, case, None).map(|args| (None, args)),
            };
            let (script, args) = match input {
                Ok(x) => x,
                Err(e) => {
                    line("skip", &format!("{here}: {e}"));
                    continue;
                }
            };
            match script {
                Some((src, files)) => {
                    for (j, bytes) in files.iter().enumerate() {
                        write(&format!("file{j}"), bytes)?;
                    }
                    write("script", src.as_bytes())?;
                }
                None => write("in", &values::write_binary_values(&args))?,
            }
            let expected = match &case.expected {
                Expected::Output(OutputSpec::Inline(t)) => Some(FrontendValues.parse_text(t)),
                Expected::Output(OutputSpec::File(f)) => Some(runner.read_file(src_dir, f)),
                Expected::Error(re) => {
                    write("err", re.as_bytes())?;
                    line("error", &here);
                    continue;
                }
                _ if by_reference => Some(reference_program().and_then(|p| p.run(entry, args.clone()))),
                _ => None,
            };
            match expected {
                Some(Ok(vs)) => {
                    write("out", &values::write_binary_values(&vs))?;
                    line("output", &here);
                }
                Some(Err(e)) => line(
                    "skip",
                    &format!("{here}: no expected output: {}", e.lines().next().unwrap_or("")),
                ),
                None => line("none", &here),
            }
        }
    }
    Ok(Some(lines))
}

/// The contents of the files a script's builtins name, in the order of
/// `futmlir_script::files_named`; `src_dir`: the test file's folder, which
/// the names are relative to.
fn script_files(src: &str, src_dir: &Path) -> Result<Vec<Vec<u8>>, String> {
    let names = futmlir_script::files_named(src).map_err(|e| format!("bad script input: {e}"))?;
    names
        .iter()
        .map(|f| {
            let path = src_dir.join(f);
            std::fs::read(&path).map_err(|e| format!("script input: cannot read {}: {e}", path.display()))
        })
        .collect()
}
