//! `futmlir test --backend=cuda --bundle DIR`: build the test programs for
//! a GPU machine that has no Rust toolchain.
//!
//! Each program with test cases becomes an executable `DIR/pN` linked
//! against `DIR/libfutmlir_runtime_cuda.so` (so the bundle stays small:
//! the runtime once, then tens of kilobytes a program); each case gets its
//! input `DIR/pN.cK.in` and what it must give, `DIR/pN.cK.out` (values;
//! an `auto output` is computed here by the interpreter) or
//! `DIR/pN.cK.err` (a regular expression); `DIR/pN.ptx` is its kernels'
//! PTX. `DIR/manifest.tsv` lists the
//! cases, one a line: program, entry, case, kind (`output`, `error`,
//! `none`, `skip`, or `fail` when the program does not compile), and
//! where the case is (`path:line`) or why it is skipped or failed. `futmlir-check DIR` (crate `checker`) runs them there.

use std::fmt::Write as _;
use std::path::Path;

use futmlir_frontend::testspec::{parse_test_spec, Expected, OutputSpec};
use futmlir_frontend::values;

use crate::build::{build_linked, Emit};
use crate::test::{block_skip, case_skip, Backend, FrontendValues, InterpBackend, Runner, ValueLib};

/// Fills `dir` with the programs' executables and cases; returns the
/// number of cases written, skipped and failed (not compiled).
pub fn bundle(programs: &[std::path::PathBuf], dir: &Path, chip: &str) -> Result<(usize, usize, usize), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let runtime = futmlir_lowering::codegen::find_runtime_shared()?;
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
            .filter(|(b, c)| block_skip(b, "cuda").is_none() && case_skip(c, "cuda").is_none())
            .collect();
        if cases.is_empty() {
            continue;
        }
        let name = format!("p{pi}");
        let exe = dir.join(&name);
        let ptx = dir.join(format!("{name}.ptx"));
        let compiled = build_linked(path, Emit::Exe, Some(chip), &exe, true, Some(&ptx));
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
                let args = match runner.inputs(src_dir, case, None) {
                    Ok(a) => a,
                    Err(e) => {
                        line("skip", &format!("{here}: {e}"));
                        skipped += 1;
                        continue;
                    }
                };
                let write = |ext: &str, bytes: &[u8]| {
                    std::fs::write(dir.join(format!("{case_name}.{ext}")), bytes)
                        .map_err(|e| format!("cannot write the bundle: {e}"))
                };
                write("in", &values::write_binary_values(&args))?;
                let expected = match &case.expected {
                    Expected::Output(OutputSpec::Inline(t)) => Some(FrontendValues.parse_text(t)),
                    Expected::Output(OutputSpec::File(f)) => Some(runner.read_file(src_dir, f)),
                    Expected::Auto => Some(
                        reference
                            .get_or_init(|| interp.compile(path))
                            .as_ref()
                            .map_err(Clone::clone)
                            .and_then(|p| p.run(entry, args.clone())),
                    ),
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
