//! `futmlir run`: check a Futhark program and interpret one entry point,
//! reading arguments from stdin (Futhark's text or binary value format)
//! and printing the results like `futhark run`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_frontend::check::{self, Checked};
use futmlir_frontend::interp::{self, EntryResult, RunOptions};
use futmlir_frontend::span::SourceMap;
use futmlir_frontend::values;

#[derive(clap::Args)]
pub struct RunArgs {
    /// The `.fut` program.
    program: PathBuf,
    /// The entry point to run.
    #[arg(short = 'e', long = "entry-point", default_value = "main")]
    entry: String,
    /// Print results in Futhark's binary value format.
    #[arg(short = 'b', long = "binary-output")]
    binary: bool,
    /// Also print the work and span of the run (parallel cost model) on
    /// stderr.
    #[arg(long)]
    cost: bool,
}

/// Read and check a program; on failure print the diagnostics and return
/// the exit code.
pub fn load(path: &Path, sm: &mut SourceMap) -> Result<Checked, ExitCode> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return Err(ExitCode::FAILURE);
        }
    };
    let file = sm.add(path.display().to_string(), text);
    check::check_file(sm, file).map_err(|diags| {
        for d in &diags {
            eprintln!("{:?}", d.to_report(sm));
        }
        ExitCode::FAILURE
    })
}

/// Check a program and return its diagnostics as plain text (for `futmlir
/// test`, which matches them against `error:` regexes).
pub fn load_plain(path: &Path) -> Result<(SourceMap, Checked), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut sm = SourceMap::default();
    let file = sm.add(path.display().to_string(), text);
    match check::check_file(&mut sm, file) {
        Ok(c) => Ok((sm, c)),
        Err(diags) => Err(diags.iter().map(|d| d.to_plain(&sm)).collect::<Vec<_>>().join("\n")),
    }
}

pub fn main(args: RunArgs) -> ExitCode {
    let mut sm = SourceMap::default();
    let checked = match load(&args.program, &mut sm) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("error: cannot read stdin: {e}");
        return ExitCode::FAILURE;
    }
    let inputs = match values::read_values(&input) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: invalid input on stdin: {e}");
            return ExitCode::FAILURE;
        }
    };
    // `trace x` prints `x` on stderr as it is evaluated, like `futhark run`.
    let trace = |span, value: &str| eprintln!("Trace at {}: {value}", sm.describe_range(span));
    let opts = RunOptions {
        cost: args.cost,
        trace: Some(&trace),
    };
    let result = match interp::run_entry(&checked, &args.entry, inputs, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", e.render(&sm));
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for r in &result.results {
        let r = match r {
            EntryResult::Value(v) if args.binary => {
                let mut buf = Vec::new();
                values::binary::write_binary(v, &mut buf);
                out.write_all(&buf)
            }
            EntryResult::Value(v) => writeln!(out, "{v}"),
            // Like `futhark run`: an opaque value is shown as source text;
            // the binary format has no way to hold it.
            EntryResult::Opaque { ty, .. } if args.binary => {
                eprintln!("error: a result of type {ty} is opaque and has no binary form");
                return ExitCode::FAILURE;
            }
            EntryResult::Opaque { text, .. } => writeln!(out, "{text}"),
        };
        if r.is_err() {
            return ExitCode::FAILURE;
        }
    }
    if let Some(c) = result.cost {
        eprintln!("work: {}", c.work);
        eprintln!("span: {}", c.span);
    }
    ExitCode::SUCCESS
}
