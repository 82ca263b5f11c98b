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

use std::fmt::Write as _;
use std::path::Path;

use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, OutputSpec};
use futmlir_frontend::values;

use crate::build::{build_with, Emit};
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
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let runtime = futmlir_codegen::codegen::find_runtime_shared()?;
    std::fs::copy(&runtime, dir.join("libfutmlir_runtime_cuda.so"))
        .map_err(|e| format!("cannot copy {}: {e}", runtime.display()))?;
    let interp = InterpBackend;
    let runner = Runner {
        backend: &interp,
        reference: None,
        values: &FrontendValues,
        verbose: false,
    };
    let mut manifest = String::new();
    let (mut written, mut skipped, mut failed) = (0, 0, 0);
    for (pi, path) in programs.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Ok(blocks) = parse_test_spec(&text) else { continue };
        let cases: Vec<_> = blocks
            .iter()
            .flat_map(|b| b.cases.iter().map(move |c| (b, c)))
            .filter(|(b, c)| block_skip(b, backend).is_none() && case_skip(c, backend).is_none())
            .collect();
        if cases.is_empty() {
            continue;
        }
        let name = format!("p{pi}");
        let exe = dir.join(&name);
        let ptx = gpu.map(|_| dir.join(format!("{name}.ptx")));
        let compiled = build_with(path, Emit::Exe, gpu, &exe, true, ptx.as_deref(), flags);
        let src_dir = path.parent().unwrap_or(Path::new("."));
        let reference = std::cell::OnceCell::new();
        for (ci, (block, case)) in cases.into_iter().enumerate() {
            for entry in &block.entries {
                let here = format!("{}:{}", path.display(), case.line);
                let case_name = format!("{name}.c{ci}.{entry}");
                let mut line = |kind: &str, what: &str| {
                    let _ = writeln!(manifest, "{name}\t{entry}\t{case_name}\t{kind}\t{what}");
                };
                if let Err(e) = &compiled {
                    // A feature the backends lack is a skip; any other
                    // compile error is a failure of the case.
                    match e.lines().find(|l| l.contains(crate::compiled::UNSUPPORTED)) {
                        Some(why) => {
                            line(
                                "skip",
                                &format!("{here}: {}", why.trim().trim_start_matches(['x', ' ', '×'])),
                            );
                            skipped += 1;
                        }
                        None => {
                            let first = e.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
                            line("fail", &format!("{here}: compilation failed: {first}"));
                            failed += 1;
                        }
                    }
                    continue;
                }
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
                // A script is evaluated where the case runs, calling the
                // executable (see the module comment); here only for an
                // `auto output`, whose reference run needs the arguments.
                let input = match &case.input {
                    InputSpec::Script(src) => script_files(src, src_dir).and_then(|files| {
                        let args = match case.expected {
                            Expected::Auto => runner.inputs(src_dir, case, Some(&**reference_program()?))?,
                            _ => Vec::new(),
                        };
                        Ok((Some((src, files)), args))
                    }),
                    _ => runner.inputs(src_dir, case, None).map(|args| (None, args)),
                };
                let (script, args) = match input {
                    Ok(x) => x,
                    Err(e) => {
                        line("skip", &format!("{here}: {e}"));
                        skipped += 1;
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
                    Expected::Auto => Some(reference_program().and_then(|p| p.run(entry, args.clone()))),
                    Expected::Error(re) => {
                        write("err", re.as_bytes())?;
                        line("error", &here);
                        written += 1;
                        continue;
                    }
                    Expected::None => None,
                };
                match expected {
                    Some(Ok(vs)) => {
                        write("out", &values::write_binary_values(&vs))?;
                        line("output", &here);
                    }
                    Some(Err(e)) => {
                        line(
                            "skip",
                            &format!("{here}: no expected output: {}", e.lines().next().unwrap_or("")),
                        );
                        skipped += 1;
                        continue;
                    }
                    None => line("none", &here),
                }
                written += 1;
            }
        }
    }
    std::fs::write(dir.join("manifest.tsv"), manifest).map_err(|e| format!("cannot write the manifest: {e}"))?;
    Ok((written, skipped, failed))
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
