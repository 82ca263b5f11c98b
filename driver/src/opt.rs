//! `futmlir opt`: read IR text (or a Futhark program, `.fut`, which is
//! checked and emitted at the `source` level or internalised into the
//! `soac` dialect), run a pass pipeline, print the result.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use futmlir_dialects::ir::parse::split_input_file;
use futmlir_dialects::ir::{Context, Diagnostic, OpId, PrintOptions};
use futmlir_frontend::check;
use futmlir_frontend::internalise::internalise;
use futmlir_frontend::source_ir::emit_source;
use futmlir_frontend::span::SourceMap;
use futmlir_passes::registry::all_passes;
use futmlir_passes::{PassManager, Pipeline};

use crate::passflags::PassFlags;

/// The level a Futhark program is emitted at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    /// The `source` dialect: the typed program as written.
    Source,
    /// The `soac` dialect: internalised (first-order, monomorphic, tuple-free).
    Soac,
}

#[derive(clap::Args)]
pub struct OptArgs {
    /// The IR file (`-` or nothing for stdin), or a Futhark program (`.fut`)
    /// to emit as IR first (see `--emit`).
    file: Option<String>,
    /// The level at which a Futhark program (`.fut`) is emitted.
    #[arg(long, value_enum, value_name = "LEVEL", default_value = "soac")]
    emit: Level,
    /// Write the output here instead of stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print `loc(...)` after each op.
    #[arg(long)]
    print_debuginfo: bool,
    /// Treat each chunk between `// -----` lines as a separate input.
    #[arg(long)]
    split_input_file: bool,
    /// Check the diagnostics against `expected-error` comments instead of failing.
    #[arg(long)]
    verify_diagnostics: bool,
    /// Accept ops of dialects futmlir does not know.
    #[arg(long)]
    allow_unregistered_dialect: bool,
    /// List every pass with its description and options, then exit.
    #[arg(long)]
    list_passes: bool,
    #[command(flatten)]
    flags: PassFlags,
}

pub fn main(a: OptArgs) -> ExitCode {
    if let Err(e) = a.flags.load_plugins() {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    if a.list_passes {
        print!("{}", list_passes());
        return ExitCode::SUCCESS;
    }
    let rules = match a.flags.rule_book() {
        Ok(r) => r,
        Err(report) => {
            eprintln!("{report}");
            return ExitCode::FAILURE;
        }
    };
    let pipeline_text = a.flags.pass_pipeline.clone().unwrap_or_default();
    let pipeline = match Pipeline::parse(&pipeline_text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{:?}", e.to_report(&pipeline_text));
            return ExitCode::FAILURE;
        }
    };
    if a.flags.dump_pass_pipeline {
        eprintln!("Pass Manager with {} passes:\n{pipeline}", count_passes(&pipeline));
    }
    let (name, text) = match read_input(a.file.as_deref()) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let is_fut = a.file.as_deref().is_some_and(|f| f.ends_with(".fut"));
    let chunks = if is_fut {
        vec![text.clone()]
    } else if a.split_input_file {
        split_input_file(&text)
    } else {
        vec![text.clone()]
    };
    let print = PrintOptions {
        generic: a.flags.print_op_generic,
        locations: a.print_debuginfo,
    };
    let instrumentation = a.flags.instrumentation(print);
    let mut outputs = Vec::new();
    let mut ok = true;
    let mut pm = PassManager::new(pipeline, instrumentation, rules);
    for chunk in &chunks {
        let mut ctx = futmlir_dialects::context();
        ctx.allow_unregistered = a.allow_unregistered_dialect;
        let result = if is_fut {
            match emit_program(&mut ctx, &name, chunk, a.emit) {
                Ok(module) => run_passes(&mut ctx, module, &mut pm, print, &pipeline_text),
                Err(()) => {
                    ok = false;
                    continue;
                }
            }
        } else {
            process(&mut ctx, &name, chunk, &mut pm, print, &pipeline_text)
        };
        let diags = match result {
            Ok(out) => {
                outputs.push(out);
                Vec::new()
            }
            Err(d) => {
                ok &= !d.is_empty();
                d
            }
        };
        if a.verify_diagnostics {
            ok &= check_expected(&ctx, &name, chunk, &diags);
        } else if !diags.is_empty() {
            for d in &diags {
                eprintln!("{:?}", d.to_report(&ctx));
            }
            ok = false;
        }
    }
    if a.flags.timing {
        eprint!("{}", pm.timing().report());
    }
    if !ok {
        return ExitCode::FAILURE;
    }
    let out = outputs.join("// -----\n");
    let written = match &a.output {
        Some(p) => std::fs::write(p, out).map_err(|e| format!("cannot write {}: {e}", p.display())),
        None => std::io::stdout()
            .write_all(out.as_bytes())
            .map_err(|e| format!("cannot write output: {e}")),
    };
    if let Err(e) = written {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn process(
    ctx: &mut Context,
    name: &str,
    text: &str,
    pm: &mut PassManager,
    print: PrintOptions,
    pipeline_text: &str,
) -> Result<String, Vec<Diagnostic>> {
    let module = ctx.parse_str(name, text).map_err(|d| vec![d])?;
    run_passes(ctx, module, pm, print, pipeline_text)
}

/// Verifies `module`, checks the pipeline against its level (a caret
/// under a misplaced pass, Note [Pass levels]: `Err` with no diagnostic
/// when that report is printed), runs it, and prints the result.
fn run_passes(
    ctx: &mut Context,
    module: OpId,
    pm: &mut PassManager,
    print: PrintOptions,
    pipeline_text: &str,
) -> Result<String, Vec<Diagnostic>> {
    ctx.verify(module)?;
    match pm
        .pipeline
        .check_levels(&futmlir_passes::manager::ir_levels(ctx, module))
    {
        Err(e) => {
            eprintln!("{:?}", e.to_report(pipeline_text));
            return Err(Vec::new());
        }
        // Below imp there is no IR to print (Note [Passes below imp]).
        Ok(end) if end.iter().any(|l| !l.is_ir()) => {
            return Err(vec![Diagnostic::error(
                futmlir_dialects::ir::Location::Unknown,
                format!(
                    "the pass pipeline goes below the imp level (to {}), where there is no futmlir IR to print: `futmlir build --emit=mlir|llvm|ptx` prints those stages",
                    end[0].name()
                ),
            )]);
        }
        Ok(_) => {}
    }
    pm.run(ctx, module)?;
    Ok(ctx.print_op(module, print))
}

/// Check a Futhark program and emit it at `level` (the `source` dialect,
/// or internalised into `soac`); frontend diagnostics are printed here.
fn emit_program(ctx: &mut Context, name: &str, text: &str, level: Level) -> Result<OpId, ()> {
    let mut sm = SourceMap::default();
    let file = sm.add(name.to_string(), text.to_string());
    let checked = check::check_file(&mut sm, file).map_err(|diags| {
        for d in &diags {
            eprintln!("{:?}", d.to_report(&sm));
        }
    })?;
    let module = match level {
        Level::Source => emit_source(&checked, &sm, ctx),
        Level::Soac => internalise(&checked, &sm, ctx),
    };
    module.map_err(|d| eprintln!("{:?}", d.to_report(&sm)))
}

fn read_input(file: Option<&str>) -> Result<(String, String), String> {
    match file {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            Ok(("<stdin>".into(), s))
        }
        Some(f) => std::fs::read_to_string(f)
            .map(|s| (f.to_string(), s))
            .map_err(|e| format!("cannot read {f}: {e}")),
    }
}

/// An `expected-error` comment: the line it refers to and the text.
struct Expected {
    line: u32,
    at: u32,
    text: String,
    seen: bool,
}

fn parse_expected(chunk: &str) -> Vec<Expected> {
    let mut out = Vec::new();
    for (i, l) in chunk.lines().enumerate() {
        let Some(pos) = l.find("expected-error") else {
            continue;
        };
        let rest = &l[pos + "expected-error".len()..];
        let mut line = i as i64 + 1;
        let rest = rest.trim_start();
        let rest = if let Some(r) = rest.strip_prefix('@') {
            let end = r.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(r.len());
            if let Ok(n) = r[..end].parse::<i64>() {
                line += n;
            }
            &r[end..]
        } else {
            rest
        };
        let (Some(s), Some(e)) = (rest.find("{{"), rest.rfind("}}")) else {
            continue;
        };
        if e < s + 2 {
            continue;
        }
        out.push(Expected {
            line: line.max(0) as u32,
            at: i as u32 + 1,
            text: rest[s + 2..e].to_string(),
            seen: false,
        });
    }
    out
}

/// `--verify-diagnostics`: every produced diagnostic must be expected on its
/// line and every expected one produced. Reports mismatches; true if none.
fn check_expected(ctx: &Context, name: &str, chunk: &str, diags: &[Diagnostic]) -> bool {
    let mut expected = parse_expected(chunk);
    let mut ok = true;
    for d in diags {
        let line = d.line(ctx).unwrap_or(0);
        match expected
            .iter_mut()
            .find(|e| !e.seen && e.line == line && d.message.contains(&e.text))
        {
            Some(e) => e.seen = true,
            None => {
                eprintln!("{name}:{line}: unexpected error: {}", d.message);
                ok = false;
            }
        }
    }
    for e in expected.iter().filter(|e| !e.seen) {
        eprintln!(
            "{name}:{}: expected error \"{}\" on line {} was not produced",
            e.at, e.text, e.line
        );
        ok = false;
    }
    ok
}

fn count_passes(p: &Pipeline) -> usize {
    use futmlir_passes::pipeline::Element;
    p.elements
        .iter()
        .map(|e| match e {
            Element::Pass { .. } => 1,
            Element::Nested { pipeline, .. } => count_passes(pipeline),
        })
        .sum()
}

fn list_passes() -> String {
    let mut s = String::from("Available passes:\n");
    for p in all_passes() {
        s.push_str(&format!("  {:<24} {}\n", p.name, p.description));
        let reads: Vec<&str> = p.reads.iter().map(|l| l.name()).collect();
        let levels = match p.writes {
            _ if p.reads == futmlir_passes::Level::ALL => "any level".to_string(),
            Some(w) => format!("{} -> {}", reads.join("|"), w.name()),
            None => reads.join("|"),
        };
        s.push_str(&format!("      level: {levels}\n"));
        for o in p.options {
            s.push_str(&format!(
                "      {}=<{}>  {} (default: {})\n",
                o.name,
                o.kind.describe(),
                o.help,
                o.default
            ));
        }
    }
    s
}
