//! The executable's command line (Futhark's conventions, `futhark-c(1)`
//! and `futhark-cuda(1)`, EXECUTABLE OPTIONS):
//!
//! ```text
//! prog [-e ENTRY] [-r RUNS] [-t FILE] [-b] [-n] [-L] [-D] [-P]
//!      [--param NAME=VALUE]... [--tuning FILE]... [--cache-file FILE] [-d DEVICE]
//!      [--default-num-thread-blocks N] [--default-threshold N] [--default-tile-size N]
//!      [--default-thread-block-size 256] [--load-ptx FILE]
//!      [--memory-report] [--print-params] [--dump-ptx FILE] [--help]
//! prog --server [the options above that configure the context]
//! ```
//!
//! Short options may be grouped and take their value attached or as the
//! next argument (`-bn`, `-emain`, `-e main`); long options take theirs
//! after `=` or as the next argument. Parameters are set in the order
//! given, so a later `--param` overrides an earlier tuning file.

use std::path::PathBuf;

use crate::settings::Settings;

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
    /// `--memory-report`: print the peak memory use on stderr at the end.
    pub memory_report: bool,
    /// The context's configuration: parameters, `-L`, `-D`, `-P`, ...
    pub settings: Settings,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Run(Options),
    /// `--server`: the server protocol on stdin and stdout, with a
    /// context of these settings (the options of a run are accepted and
    /// have no effect, as in Futhark's server executables).
    Server(Settings),
    Help,
    PrintParams,
    /// `--dump-ptx FILE`: write the program's PTX to FILE and stop.
    DumpPtx(PathBuf),
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
      --tuning FILE         set the tuning parameters of FILE's NAME=VALUE lines
      --print-params        list the tuning parameters, one `NAME (CLASS)` a line
  -L, --log                 print a log of what the program does on stderr (context, module,
                            entry point calls, memory the pool takes, kernel launches)
  -P, --profile             time every kernel launch, copy and entry point call; print a
                            table of counts and times on stderr at the end
  -D, --debugging           -L and -P, and on CUDA wait for every kernel after its launch, so
                            that an error names the kernel that caused it
      --cache-file FILE     CUDA: keep the module compiled from the PTX in FILE and load it
                            from there next time (a stale or corrupt file is ignored);
                            the CPU target compiles nothing at start-up, so it is unused there
  -d, --device DEVICE       CUDA: use the first device whose name contains DEVICE, or device
                            number K for `#K`; the CPU target has one device and ignores it
      --default-num-thread-blocks N, --default-num-groups N, --default-grid-size N
                            set every tuning parameter of class grid_size to N
      --default-threshold N set every tuning parameter of class threshold to N
      --default-thread-block-size N, --default-group-size N
                            only 256 is accepted: futmlir fixes its kernels' thread blocks at
                            256 threads when it compiles them
      --default-tile-size N accepted for Futhark's tools; no futmlir kernel is block-tiled, so
                            it changes nothing
      --dump-ptx FILE       CUDA: write the program's PTX to FILE and exit
      --load-ptx FILE       CUDA: use the PTX in FILE instead of the program's own (it must
                            define the same kernels)
      --memory-report       print the most memory the program held at once (stderr)
      --server              serve Futhark's server protocol on stdin and stdout
  -h, --help                print this help

--dump-cuda, --load-cuda and --nvrtc-option are refused: futmlir compiles
kernels to PTX itself, so there is no CUDA C source to dump, load or build.

The arguments are read from stdin, in Futhark's text or binary value format.";

/// The `--help` text.
pub fn usage(prog: &str, entries: &[&str]) -> String {
    let params: String = crate::params::PARAMS
        .iter()
        .map(|p| format!("  {} ({}, default {}): {}\n", p.name, p.class, p.default, p.about))
        .collect();
    format!(
        "Usage: {prog} [OPTIONS] < ARGUMENTS\n\n{OPTIONS}\n\nEntry points: {}\n\nTuning parameters:\n{params}",
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
    Tuning,
    CacheFile,
    Device,
    NumBlocks,
    Threshold,
    BlockSize,
    TileSize,
    DumpPtx,
    LoadPtx,
    /// `--dump-cuda`, `--load-cuda`, `--nvrtc-option`: refused.
    CudaSource,
}

/// Everything parsed so far.
struct Parsed {
    opts: Options,
    dump_ptx: Option<PathBuf>,
}

/// A positive integer, the value of option `--name`.
fn positive(name: &str, value: &str) -> Result<i64, String> {
    value
        .parse()
        .ok()
        .filter(|&n: &i64| n > 0)
        .ok_or_else(|| format!("option --{name} needs a positive integer, not `{value}`"))
}

/// The thread block size every kernel is compiled with (the lowering's
/// `segop_to_imp/gpu/launch.rs`, `BLOCK`).
const BLOCK_SIZE: i64 = 256;

/// Only [`BLOCK_SIZE`] is a valid default thread block size; `what` is
/// the option or function that asked for `size`.
pub fn check_block_size(what: &str, size: i64) -> Result<(), String> {
    if size == BLOCK_SIZE {
        Ok(())
    } else {
        Err(format!(
            "{what}={size}: futmlir fixes every kernel's thread block at {BLOCK_SIZE} threads when it compiles the program (its shared memory and warp counts depend on it), so only {BLOCK_SIZE} is accepted"
        ))
    }
}

fn set(p: &mut Parsed, which: Valued, name: &str, value: String) -> Result<(), String> {
    let opts = &mut p.opts;
    let params = &mut opts.settings.params;
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
        Valued::Param => crate::params::set(params, &value)?,
        Valued::Tuning => crate::params::load_tuning_file(params, &value)?,
        Valued::CacheFile => opts.settings.cache_file = Some(PathBuf::from(value)),
        Valued::Device => opts.settings.device = Some(value),
        Valued::NumBlocks => crate::params::set_class(params, "grid_size", positive(name, &value)?),
        Valued::Threshold => crate::params::set_class(params, "threshold", positive(name, &value)?),
        Valued::BlockSize => check_block_size(&format!("option --{name}"), positive(name, &value)?)?,
        Valued::TileSize => {
            positive(name, &value)?;
        }
        Valued::DumpPtx => p.dump_ptx = Some(PathBuf::from(value)),
        Valued::LoadPtx => opts.settings.load_ptx = Some(PathBuf::from(value)),
        Valued::CudaSource => {
            return Err(format!(
                "option --{name} is not supported: futmlir compiles kernels to PTX itself, so there is no CUDA C source or NVRTC (see --dump-ptx and --load-ptx)"
            ))
        }
    }
    Ok(())
}

fn short_valued(c: char) -> Option<Valued> {
    match c {
        'e' => Some(Valued::Entry),
        'r' => Some(Valued::Runs),
        't' => Some(Valued::TimingFile),
        'd' => Some(Valued::Device),
        _ => None,
    }
}

fn long_valued(name: &str) -> Option<Valued> {
    match name {
        "entry-point" => Some(Valued::Entry),
        "runs" => Some(Valued::Runs),
        "write-runtime-to" => Some(Valued::TimingFile),
        "param" => Some(Valued::Param),
        "tuning" => Some(Valued::Tuning),
        "cache-file" => Some(Valued::CacheFile),
        "device" => Some(Valued::Device),
        "default-num-thread-blocks" | "default-num-groups" | "default-grid-size" => Some(Valued::NumBlocks),
        "default-threshold" => Some(Valued::Threshold),
        "default-thread-block-size" | "default-group-size" => Some(Valued::BlockSize),
        "default-tile-size" => Some(Valued::TileSize),
        "dump-ptx" => Some(Valued::DumpPtx),
        "load-ptx" => Some(Valued::LoadPtx),
        "dump-cuda" | "load-cuda" | "nvrtc-option" => Some(Valued::CudaSource),
        _ => None,
    }
}

/// The long options that take no value.
const LONG_FLAGS: &[&str] = &[
    "binary-output",
    "no-print-result",
    "memory-report",
    "server",
    "help",
    "print-params",
    "log",
    "debugging",
    "profile",
];

/// Parses the arguments after the program's name.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut p = Parsed {
        opts: Options {
            entry: "main".into(),
            runs: 1,
            timing_file: None,
            output: Output::Text,
            memory_report: false,
            settings: Settings::default(),
        },
        dump_ptx: None,
    };
    let (mut no_print, mut server, mut help, mut print_params) = (false, false, false, false);
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
                set(&mut p, which, name, value)?;
                continue;
            }
            if !LONG_FLAGS.contains(&name) {
                return Err(format!("unknown option --{name} (see --help)"));
            }
            if attached.is_some() {
                return Err(format!("option --{name} takes no value"));
            }
            match name {
                "binary-output" => p.opts.output = Output::Binary,
                "no-print-result" => no_print = true,
                "memory-report" => p.opts.memory_report = true,
                "server" => server = true,
                "help" => help = true,
                "print-params" => print_params = true,
                "log" => p.opts.settings.log = true,
                "debugging" => p.opts.settings.debugging(),
                // The last of LONG_FLAGS.
                _ => p.opts.settings.profile = true,
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
                    set(&mut p, which, &c.to_string(), value)?;
                    break;
                }
                match c {
                    'b' => p.opts.output = Output::Binary,
                    'n' => no_print = true,
                    'h' => help = true,
                    'L' => p.opts.settings.log = true,
                    'D' => p.opts.settings.debugging(),
                    'P' => p.opts.settings.profile = true,
                    _ => return Err(format!("unknown option -{c} (see --help)")),
                }
            }
        } else {
            return Err(format!(
                "unexpected argument `{arg}`: the arguments of the entry point are read from stdin"
            ));
        }
    }
    // Options that end the program right away, after the others are
    // checked, so that `--help --frob` still reports `--frob`.
    if help {
        return Ok(Command::Help);
    }
    if print_params {
        return Ok(Command::PrintParams);
    }
    if let Some(path) = p.dump_ptx {
        return Ok(Command::DumpPtx(path));
    }
    if server {
        return Ok(Command::Server(p.opts.settings));
    }
    if no_print {
        p.opts.output = Output::Nothing;
    }
    Ok(Command::Run(p.opts))
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
            Command::DumpPtx(f) => Err(format!("dump {}", f.display())),
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
        assert_eq!(o.settings.params, vec![8, 1, 16]);
        assert!(run(&["--param", "x=1"]).unwrap_err().contains("unknown parameter"));
        assert_eq!(run(&["--server"]).unwrap_err(), "server");
        let args: Vec<String> = ["--server", "--param=reduce_groups=16"].map(String::from).to_vec();
        let want = Settings {
            params: vec![16, 256, 16],
            ..Settings::default()
        };
        assert_eq!(parse(&args).unwrap(), Command::Server(want));
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
        // A value given to an option that takes none, and an unknown option
        // with a value: each named as what it is.
        assert_eq!(run(&["--log=1"]).unwrap_err(), "option --log takes no value");
        assert_eq!(run(&["--frob=x"]).unwrap_err(), "unknown option --frob (see --help)");
        assert_eq!(run(&["--tuning"]).unwrap_err(), "option --tuning needs a value");
        assert_eq!(run(&["-d"]).unwrap_err(), "option -d needs a value");
        assert_eq!(run(&["-LQ"]).unwrap_err(), "unknown option -Q (see --help)");
        // Options that end the program are checked after the others.
        assert_eq!(
            run(&["--help", "--frob"]).unwrap_err(),
            "unknown option --frob (see --help)"
        );
    }

    #[test]
    fn context_options() {
        let o = run(&[]).unwrap();
        assert_eq!(o.settings, Settings::default());
        let s = run(&["-L"]).unwrap().settings;
        assert!(s.log && !s.profile && !s.debug);
        let s = run(&["--profile"]).unwrap().settings;
        assert!(s.profile && !s.log);
        let s = run(&["-D"]).unwrap().settings;
        assert!(s.debug && s.log && s.profile);
        let s = run(&["-LP"]).unwrap().settings;
        assert!(s.log && s.profile && !s.debug);
        let s = run(&["--cache-file", "c.bin", "-d", "#1", "--load-ptx=p.ptx"])
            .unwrap()
            .settings;
        assert_eq!(s.cache_file, Some(PathBuf::from("c.bin")));
        assert_eq!(
            (s.device.as_deref(), s.load_ptx),
            (Some("#1"), Some(PathBuf::from("p.ptx")))
        );
        assert_eq!(run(&["-dA100"]).unwrap().settings.device.as_deref(), Some("A100"));
        assert_eq!(
            run(&["--device=H100"]).unwrap().settings.device.as_deref(),
            Some("H100")
        );
        // The CUDA defaults set the parameters of their class.
        let s = run(&["--default-num-thread-blocks=64", "--default-threshold", "9"])
            .unwrap()
            .settings;
        assert_eq!(s.params, vec![64, 9, 9]);
        assert_eq!(
            run(&["--default-num-groups=32"]).unwrap().settings.params,
            vec![32, 256, 16]
        );
        // In order: a later --param wins over a class default.
        let s = run(&["--default-threshold=9", "--param=segred_group_min=3"])
            .unwrap()
            .settings;
        assert_eq!(s.params, vec![4096, 3, 9]);
        assert!(run(&["--default-thread-block-size=256", "--default-group-size=256"]).is_ok());
        let e = run(&["--default-thread-block-size=128"]).unwrap_err();
        assert!(e.contains("only 256 is accepted"), "{e}");
        assert!(run(&["--default-group-size=0"])
            .unwrap_err()
            .contains("positive integer"));
        assert!(run(&["--default-tile-size=16"]).is_ok());
        assert!(run(&["--default-tile-size=x"])
            .unwrap_err()
            .contains("positive integer, not `x`"));
        for refused in ["--dump-cuda=f", "--load-cuda=f", "--nvrtc-option=-O3"] {
            let e = run(&[refused]).unwrap_err();
            assert!(e.contains("is not supported") && e.contains("no CUDA C source"), "{e}");
        }
        assert_eq!(run(&["--dump-ptx", "k.ptx", "-L"]).unwrap_err(), "dump k.ptx");
        let args: Vec<String> = ["--server", "-P", "--cache-file=c"].map(String::from).to_vec();
        match parse(&args).unwrap() {
            Command::Server(s) => assert!(s.profile && s.cache_file.is_some()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tuning_files() {
        let dir = std::env::temp_dir().join(format!("futmlir-cli-tuning-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("prog.fut.tuning");
        std::fs::write(&file, "reduce_groups=128\nsegred_group_min=16\n").unwrap();
        let f = file.to_str().unwrap();
        assert_eq!(run(&["--tuning", f]).unwrap().settings.params, vec![128, 16, 16]);
        // Later settings override earlier ones, either way round.
        let o = run(&["--tuning", f, "--param=reduce_groups=5"]).unwrap();
        assert_eq!(o.settings.params, vec![5, 16, 16]);
        let o = run(&["--param=reduce_groups=5", &format!("--tuning={f}")]).unwrap();
        assert_eq!(o.settings.params, vec![128, 16, 16]);
        std::fs::write(&file, "reduce_groups=128\nbogus=1\n").unwrap();
        let e = run(&["--tuning", f]).unwrap_err();
        assert_eq!(
            e,
            format!("{f}:2: unknown parameter `bogus` (the parameters are: reduce_groups, segred_group_min, tile_min_blocks)")
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(run(&["--tuning", "/nonexistent.tuning"])
            .unwrap_err()
            .contains("cannot read tuning file"));
    }
}
