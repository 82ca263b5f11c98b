//! `futmlir-check DIR [-v] [-j N] [--shard I/N] [--timeout SECS] [--runs N
//! --times FILE]`: runs
//! the cases of a bundle that `futmlir test --backend=cuda --bundle DIR`
//! wrote (see `driver/src/bundle.rs` and this crate's library, which does
//! the work). Prints one line per failing case as it fails (every case
//! with `-v`), then `N passed, N failed, N skipped`; exits 1 if a case
//! failed, 2 if the bundle cannot be read or the options are wrong.
//! `-j N` runs N cases at once; `--shard I/N` runs every N-th case from
//! the I-th (0 ≤ I < N); a case is killed after `--timeout` seconds
//! (default 120). See Note [Checking a bundle on the device].
//! `--runs N` times each case (N counted runs), and `--times FILE` writes
//! every case's status and runtimes there, one a line, for `futmlir
//! explore --report` (Note [Timing in a bundle]).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use futmlir_checker::Options;

const USAGE: &str = "usage: futmlir-check DIR [-v] [-j N] [--shard I/N] [--timeout SECS] [--runs N] [--times FILE]";

/// The bundle, how to run it, and where to write the case records.
fn parse(args: &[String]) -> Result<(String, Options, Option<String>), String> {
    let mut opts = Options::default();
    let mut dir = None;
    let mut times = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (a.as_str(), None),
        };
        let mut value = |what: &str| {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("option {flag} takes {what}"))
        };
        match flag {
            "-v" => opts.verbose = true,
            "-j" | "--jobs" => {
                let v = value("a number")?;
                opts.jobs = v
                    .parse()
                    .ok()
                    .filter(|&j| j > 0)
                    .ok_or_else(|| format!("option {flag}: `{v}` is not a positive number"))?;
            }
            "--shard" => {
                let v = value("I/N")?;
                let shard = v
                    .split_once('/')
                    .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
                    .filter(|&(i, n)| i < n);
                opts.shard = Some(shard.ok_or_else(|| format!("option --shard: `{v}` is not I/N with 0 <= I < N"))?);
            }
            "--timeout" => {
                let v = value("a number of seconds")?;
                let secs: u64 = v
                    .parse()
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| format!("option --timeout: `{v}` is not a positive number of seconds"))?;
                opts.timeout = Duration::from_secs(secs);
            }
            "--runs" => {
                let v = value("a number")?;
                let runs = v
                    .parse()
                    .ok()
                    .filter(|&r| r > 0)
                    .ok_or_else(|| format!("option --runs: `{v}` is not a positive number"))?;
                opts.runs = Some(runs);
            }
            "--times" => times = Some(value("a file")?),
            f if f.starts_with('-') => return Err(format!("unknown option {f}")),
            _ if dir.is_some() => return Err(format!("unexpected argument `{a}`")),
            _ => dir = Some(a.clone()),
        }
    }
    Ok((dir.ok_or("no bundle directory given")?, opts, times))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, opts, times) = match parse(&args) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let checked = futmlir_checker::check_bundle_timed(Path::new(&dir), &opts, &mut std::io::stdout());
    if let (Ok((_, records)), Some(file)) = (&checked, &times) {
        let text: String = records.iter().map(|r| r.tsv_line() + "\n").collect();
        if let Err(e) = std::fs::write(file, text) {
            eprintln!("error: cannot write {file}: {e}");
            return ExitCode::from(2);
        }
    }
    match checked.map(|(sum, _)| sum) {
        Ok(sum) if sum.failed > 0 => ExitCode::FAILURE,
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
