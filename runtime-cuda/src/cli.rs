//! The executable's command line (Futhark's conventions):
//!
//! ```text
//! prog [-e ENTRY] [-r RUNS] [-t FILE] [-b] [-n] [--param NAME=VALUE]...
//!      [--memory-report] [--print-params] [--help]
//! prog --server [--param NAME=VALUE]...
//! ```
//!
//! Short options may be grouped and take their value attached or as the
//! next argument (`-bn`, `-emain`, `-e main`); the long spellings
//! `--entry-point`, `--runs`, `--write-runtime-to`, `--binary-output`,
//! `--no-print-result` take theirs after `=` or as the next argument.

use std::path::PathBuf;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Text,
    Binary,
    Nothing,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub entry: String,
    pub runs: usize,
    pub timing_file: Option<PathBuf>,
    pub output: Output,
    /// The tuning parameters' values (`crate::params`).
    pub params: Vec<i64>,
    /// `--memory-report`: print the peak memory use on stderr at the end.
    pub memory_report: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Run(Options),
    /// `--server`: the server protocol on stdin and stdout, with these
    /// tuning parameters' values (the options of a run are accepted and
    /// have no effect, as in Futhark's server executables).
    Server(Vec<i64>),
    Help,
    PrintParams,
}

/// The options and what they do, for `--help`.
const OPTIONS: &str = "\
Options:
  -e, --entry-point ENTRY   run the entry point ENTRY (default: main)
  -r, --runs RUNS           run it RUNS times (default: 1); the last run's results are printed
  -t, --write-runtime-to FILE
                            write the time of each run in microseconds to FILE, one a line
  -b, --binary-output       print the results in Futhark's binary value format
  -n, --no-print-result     print no results
      --param NAME=VALUE    set a tuning parameter (repeatable)
      --memory-report       print the most memory the program held at once (stderr)
      --print-params        list the tuning parameters and their defaults
      --server              serve Futhark's server protocol on stdin and stdout
  -h, --help                print this help

The arguments are read from stdin, in Futhark's text or binary value format.";

/// The `--help` text.
pub fn usage(prog: &str, entries: &[&str]) -> String {
    format!(
        "Usage: {prog} [OPTIONS] < ARGUMENTS\n\n{OPTIONS}\n\nEntry points: {}\n",
        entries.join(", ")
    )
}

/// An option that takes a value.
#[derive(Copy, Clone)]
enum Valued {
    Entry,
    Runs,
    TimingFile,
    Param,
}

fn set(opts: &mut Options, which: Valued, value: String) -> Result<(), String> {
    match which {
        Valued::Entry => opts.entry = value,
        Valued::Runs => {
            opts.runs = value
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("-r needs a positive number of runs, not `{value}`"))?
        }
        Valued::TimingFile => opts.timing_file = Some(PathBuf::from(value)),
        Valued::Param => crate::params::set(&mut opts.params, &value)?,
    }
    Ok(())
}

fn short_valued(c: char) -> Option<Valued> {
    match c {
        'e' => Some(Valued::Entry),
        'r' => Some(Valued::Runs),
        't' => Some(Valued::TimingFile),
        _ => None,
    }
}

fn long_valued(name: &str) -> Option<Valued> {
    match name {
        "entry-point" => Some(Valued::Entry),
        "runs" => Some(Valued::Runs),
        "write-runtime-to" => Some(Valued::TimingFile),
        "param" => Some(Valued::Param),
        _ => None,
    }
}

/// Parses the arguments after the program's name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut opts = Options {
        entry: "main".into(),
        runs: 1,
        timing_file: None,
        output: Output::Text,
        params: crate::params::defaults(),
        memory_report: false,
    };
    let mut no_print = false;
    let mut server = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            if let Some(which) = long_valued(name) {
                let value = match attached {
                    Some(v) => v,
                    None => args
                        .next()
                        .ok_or_else(|| format!("option --{name} needs a value"))?
                        .clone(),
                };
                set(&mut opts, which, value)?;
                continue;
            }
            if attached.is_some() {
                return Err(format!("option --{name} takes no value"));
            }
            match name {
                "binary-output" => opts.output = Output::Binary,
                "no-print-result" => no_print = true,
                "memory-report" => opts.memory_report = true,
                "server" => server = true,
                "help" => return Ok(Command::Help),
                "print-params" => return Ok(Command::PrintParams),
                _ => return Err(format!("unknown option {arg} (see --help)")),
            }
        } else if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
            for (i, c) in shorts.char_indices() {
                if let Some(which) = short_valued(c) {
                    let rest = &shorts[i + c.len_utf8()..];
                    let value = if rest.is_empty() {
                        args.next().ok_or_else(|| format!("option -{c} needs a value"))?.clone()
                    } else {
                        rest.to_string()
                    };
                    set(&mut opts, which, value)?;
                    break;
                }
                match c {
                    'b' => opts.output = Output::Binary,
                    'n' => no_print = true,
                    'h' => return Ok(Command::Help),
                    _ => return Err(format!("unknown option -{c} (see --help)")),
                }
            }
        } else {
            return Err(format!(
                "unexpected argument `{arg}`: the arguments of the entry point are read from stdin"
            ));
        }
    }
    if server {
        return Ok(Command::Server(opts.params));
    }
    if no_print {
        opts.output = Output::Nothing;
    }
    Ok(Command::Run(opts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&args)? {
            Command::Run(o) => Ok(o),
            Command::Help => Err("help".into()),
            Command::PrintParams => Err("params".into()),
            Command::Server(_) => Err("server".into()),
        }
    }

    #[test]
    fn options() {
        let o = run(&[]).unwrap();
        assert_eq!(
            (o.entry.as_str(), o.runs, o.output, o.timing_file),
            ("main", 1, Output::Text, None)
        );
        let o = run(&["-e", "f", "-r", "3", "-t", "times", "-b"]).unwrap();
        assert_eq!((o.entry.as_str(), o.runs, o.output), ("f", 3, Output::Binary));
        assert_eq!(o.timing_file, Some(PathBuf::from("times")));
        let o = run(&["-eg", "-r7", "-bn", "--runs=2", "--entry-point", "h"]).unwrap();
        assert_eq!((o.entry.as_str(), o.runs, o.output), ("h", 2, Output::Nothing));
        let o = run(&["--write-runtime-to=t.txt", "--binary-output", "--entry-point=x"]).unwrap();
        assert_eq!(o.timing_file, Some(PathBuf::from("t.txt")));
        assert_eq!((o.entry.as_str(), o.output), ("x", Output::Binary));
        assert_eq!(run(&["-n", "-b"]).unwrap().output, Output::Nothing);
        assert_eq!(run(&["-bh"]).unwrap_err(), "help");
        assert_eq!(run(&["--help"]).unwrap_err(), "help");
        assert_eq!(run(&["--print-params"]).unwrap_err(), "params");
        assert!(run(&["--memory-report"]).unwrap().memory_report);
        assert!(!run(&[]).unwrap().memory_report);
        let o = run(&["--param", "reduce_groups=8", "--param=segred_group_min=1"]).unwrap();
        assert_eq!(o.params, vec![8, 1]);
        assert!(run(&["--param", "x=1"]).unwrap_err().contains("unknown parameter"));
        assert_eq!(run(&["--server"]).unwrap_err(), "server");
        let args: Vec<String> = ["--server", "--param=reduce_groups=16"].map(String::from).to_vec();
        assert_eq!(parse(&args).unwrap(), Command::Server(vec![16, 256]));
    }

    #[test]
    fn errors() {
        assert_eq!(run(&["-x"]).unwrap_err(), "unknown option -x (see --help)");
        assert_eq!(run(&["--frob"]).unwrap_err(), "unknown option --frob (see --help)");
        assert_eq!(run(&["-e"]).unwrap_err(), "option -e needs a value");
        assert_eq!(run(&["--runs"]).unwrap_err(), "option --runs needs a value");
        assert!(run(&["-r", "0"]).unwrap_err().contains("positive"));
        assert!(run(&["-r", "x"]).unwrap_err().contains("`x`"));
        assert_eq!(run(&["--help=1"]).unwrap_err(), "option --help takes no value");
        assert!(run(&["input.txt"]).unwrap_err().contains("stdin"));
        assert!(run(&["-"]).unwrap_err().contains("unexpected argument `-`"));
        assert!(usage("prog", &["main", "f"]).contains("Entry points: main, f"));
    }
}
