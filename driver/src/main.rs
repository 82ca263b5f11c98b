//! `futmlir`: the driver. See the README for a tour of the subcommands.

mod bench;
mod build;
mod bundle;
mod compiled;
mod dataset;
mod each_pass;
mod explore;
mod fuzz;
mod opt;
mod passflags;
mod property;
mod run;
mod structure;
mod test;
mod test_pool;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "futmlir",
    about = "A Futhark compiler built as an MLIR-style multi-dialect framework"
)]
#[command(disable_version_flag = true)]
struct Cli {
    /// Print futmlir's version and the MLIR/LLVM it links.
    #[arg(long, short = 'V')]
    version: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run a pass pipeline on IR text and print the result.
    Opt(opt::OptArgs),
    /// Interpret an entry point of a Futhark program (arguments on stdin).
    Run(run::RunArgs),
    /// Compile a Futhark program to an executable (or print a stage of it).
    Build(build::BuildArgs),
    /// Type-check a Futhark program and print its warnings.
    Check(build::CheckArgs),
    /// Run the `-- ==` test blocks of Futhark programs.
    Test(test::TestArgs),
    /// Time entry points on the datasets of their `-- ==` test blocks.
    Bench(bench::BenchArgs),
    /// Try orderings of passes inside the default pipeline: build, check
    /// and time each one.
    Explore(explore::ExploreArgs),
    /// Generate random input values, or convert values between the text and
    /// binary formats.
    Dataset(dataset::DatasetArgs),
    /// Differential testing: random programs run by the interpreter and a
    /// compiled backend, with any disagreement shrunk and saved.
    Fuzz(fuzz::FuzzArgs),
}

/// Diagnostics: long lines are not wrapped (tests match them); plain ASCII
/// without colour when stderr is not a terminal.
fn install_diagnostic_style() {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(
            miette::MietteHandlerOpts::new()
                .wrap_lines(false)
                .unicode(tty)
                .color(tty)
                .build(),
        )
    }));
}

fn main() -> ExitCode {
    futmlir_codegen::register_passes();
    // The frontend, the interpreter and the passes recurse over program
    // trees; a big stack (reserved, not committed) keeps long `let` chains
    // and deep nesting from overflowing it.
    match std::thread::Builder::new().stack_size(1 << 30).spawn(real_main) {
        Ok(h) => h.join().unwrap_or(ExitCode::FAILURE),
        Err(_) => real_main(),
    }
}

fn real_main() -> ExitCode {
    install_diagnostic_style();
    // The matches stay for `dataset`, whose options apply in order.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if cli.version {
        println!("futmlir {}", env!("CARGO_PKG_VERSION"));
        println!("{}", futmlir_codegen::toolchain());
        return ExitCode::SUCCESS;
    }
    match cli.command {
        None => {
            eprintln!("error: no subcommand given; see `futmlir --help`");
            ExitCode::from(2)
        }
        Some(Command::Opt(a)) => opt::main(a),
        Some(Command::Run(a)) => run::main(a),
        Some(Command::Build(a)) => build::main(a),
        Some(Command::Check(a)) => build::check_main(a),
        Some(Command::Test(a)) => test::main(a),
        Some(Command::Bench(a)) => bench::main(a),
        Some(Command::Explore(a)) => explore::main(a),
        Some(Command::Dataset(a)) => match matches.subcommand_matches("dataset") {
            Some(m) => dataset::main(a, m),
            None => unreachable!("clap parsed the dataset subcommand from these matches"),
        },
        Some(Command::Fuzz(a)) => fuzz::main(a),
    }
}
