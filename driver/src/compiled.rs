//! The compiled backends of `futmlir test` (`cpu`, and `cuda` on a machine
//! with a GPU): each program is built into an
//! executable (in a temporary folder) and each case runs it with the
//! arguments on stdin in the binary value format, reading the results
//! back in that format. `futmlir explore` runs it with the arguments in a
//! file and the runtime's own timing (`-r N -t FILE`); `futmlir bench`
//! runs the executable itself, in batches with a deadline
//! (driver/src/bench.rs).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use futmlir_frontend::values::{self, Value};

use crate::build::{build_with, Emit, Product};
use crate::test::{Backend, Compiled, Timed};

/// The prefix of a compile error that means "this backend cannot compile
/// this program yet" (the runner counts such cases as skipped).
pub const UNSUPPORTED: &str = "the compiled backends do not support";

/// The line of a compile error that says a feature is not supported yet
/// (from [`UNSUPPORTED`] on), if it says so.
pub fn unsupported(msg: &str) -> Option<&str> {
    let at = msg.find(UNSUPPORTED)?;
    msg[at..].lines().next()
}

/// Executables for this machine's CPU (`gpu: None`) or, on a machine with
/// an NVIDIA GPU, for CUDA (`gpu`: the chip).
pub struct ExeBackend {
    pub gpu: Option<String>,
    /// How to compile (`--pass-pipeline` and the other compile flags).
    pub flags: crate::passflags::PassFlags,
    /// How to run the executables.
    pub exec: ExecOptions,
}

/// How `futmlir test` runs a program's executable (its `--tuning`,
/// `--cache-extension`, `--pass-option` and `--runner`, as `futhark
/// test`'s).
#[derive(Clone, Debug, Default)]
pub struct ExecOptions {
    /// For `prog.fut`, pass `--tuning=prog.fut.EXT` if that file exists.
    pub tuning_extension: Option<String>,
    /// For `prog.fut`, pass `--cache-file=prog.fut.EXT`.
    pub cache_extension: Option<String>,
    /// Options passed to every executable, before the entry point's.
    pub options: Vec<String>,
    /// Run `RUNNER EXE OPTIONS...` instead of `EXE OPTIONS...`.
    pub runner: Option<String>,
}

/// The options of `futmlir test` and `futmlir bench` that say how the
/// executables run (futhark-test(1), futhark-bench(1)).
#[derive(clap::Args, Clone, Debug)]
pub struct ExecFlags {
    /// For a program `prog.fut`, pass `--tuning=prog.fut.EXT` to its
    /// executable if that file exists.
    #[arg(long, value_name = "EXT", default_value = "tuning")]
    pub tuning: String,
    /// Do not look for tuning files.
    #[arg(long)]
    pub no_tuning: bool,
    /// For a program `prog.fut`, pass `--cache-file=prog.fut.EXT` to its
    /// executable.
    #[arg(long, value_name = "EXT")]
    pub cache_extension: Option<String>,
    /// Pass an option to the executables (may be given several times).
    #[arg(long, value_name = "OPT", allow_hyphen_values = true)]
    pub pass_option: Vec<String>,
    /// Run the executables through PROG: `PROG EXE OPTIONS...` (an empty
    /// PROG: directly).
    #[arg(long, value_name = "PROG")]
    pub runner: Option<String>,
}

impl ExecFlags {
    /// What the flags say.
    pub fn exec_options(&self) -> ExecOptions {
        ExecOptions {
            tuning_extension: (!self.no_tuning).then(|| self.tuning.clone()),
            cache_extension: self.cache_extension.clone(),
            options: self.pass_option.clone(),
            runner: self.runner.clone().filter(|r| !r.is_empty()),
        }
    }
}

impl ExecOptions {
    /// `path` with `.EXT` added (`prog.fut.tuning`).
    fn beside(path: &Path, ext: &str) -> PathBuf {
        let mut name = path.as_os_str().to_owned();
        name.push(".");
        name.push(ext);
        PathBuf::from(name)
    }

    /// The tuning file of the program at `path`, if there is one to pass.
    pub fn tuning_file(&self, path: &Path) -> Option<PathBuf> {
        let file = Self::beside(path, self.tuning_extension.as_deref()?);
        file.is_file().then_some(file)
    }

    /// The options to run the executable of the program at `path` with.
    pub fn options_for(&self, path: &Path) -> Vec<OsString> {
        let mut options = Vec::new();
        if let Some(file) = self.tuning_file(path) {
            options.push(flag_with_path("--tuning=", &file));
        }
        if let Some(ext) = &self.cache_extension {
            options.push(flag_with_path("--cache-file=", &Self::beside(path, ext)));
        }
        options.extend(self.options.iter().map(OsString::from));
        options
    }
}

/// `FLAG=PATH` (`flag` ends with the `=`).
fn flag_with_path(flag: &str, path: &Path) -> OsString {
    let mut arg = OsString::from(flag);
    arg.push(path.as_os_str());
    arg
}

impl Backend for ExeBackend {
    fn name(&self) -> &str {
        if self.gpu.is_some() {
            "cuda"
        } else {
            "cpu"
        }
    }
    fn compile(&self, path: &Path) -> Result<Box<dyn Compiled>, String> {
        Ok(Box::new(self.compile_exe(path)?))
    }
}

impl ExeBackend {
    /// Compiles the program at `path` into an executable in a temporary
    /// folder; `Err`: the rendered compile error.
    pub fn compile_exe(&self, path: &Path) -> Result<Executable, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
        let exe = dir.path().join("program");
        build_with(
            path,
            Emit::Exe,
            self.gpu.as_deref(),
            &exe,
            Product::Exe { shared_runtime: false },
            None,
            &self.flags,
        )?;
        Ok(Executable {
            dir,
            exe,
            options: self.exec.options_for(path),
            runner: self.exec.runner.clone(),
        })
    }
}

/// An executable, run with its arguments on stdin.
pub struct Executable {
    /// A scratch folder: the executable when it was built here, and
    /// `futmlir bench`'s input and timing files.
    dir: tempfile::TempDir,
    exe: PathBuf,
    /// Given before the entry point's own options ([`ExecOptions`]).
    options: Vec<OsString>,
    /// The program that runs the executable, if not the executable itself.
    runner: Option<String>,
}

impl Executable {
    /// The executable at `exe` (built elsewhere: `futmlir bench
    /// --skip-compilation`), with a scratch folder of its own.
    pub fn at(exe: PathBuf) -> Result<Executable, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
        Ok(Executable {
            dir,
            exe,
            options: Vec::new(),
            runner: None,
        })
    }

    /// Where the executable is.
    pub fn path(&self) -> &Path {
        &self.exe
    }

    /// The scratch folder, removed with `self`.
    pub fn scratch(&self) -> &Path {
        self.dir.path()
    }

    /// Runs the executable with `flags` and the arguments on stdin;
    /// `Err`: its error message (`Error: ...`).
    fn exec(&self, flags: &[&std::ffi::OsStr], stdin: Stdio, input: Option<&[u8]>) -> Result<Output, String> {
        let mut command = match &self.runner {
            Some(runner) => {
                let mut c = Command::new(runner);
                c.arg(&self.exe);
                c
            }
            None => Command::new(&self.exe),
        };
        let program = self
            .runner
            .as_deref()
            .map_or_else(|| self.exe.display().to_string(), str::to_string);
        let mut child = command
            .args(&self.options)
            .args(flags)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {program}: {e}"))?;
        // A program may fail before it reads its input: a broken pipe here
        // is not the error to report.
        if let (Some(mut stdin), Some(input)) = (child.stdin.take(), input) {
            let _ = stdin.write_all(input);
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("cannot run {program}: {e}"))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let err = err.trim();
            // A signal is a crash, whatever the program printed before.
            use std::os::unix::process::ExitStatusExt;
            if let Some(sig) = out.status.signal() {
                return Err(format!(
                    "killed by signal {sig}{}{err}",
                    if err.is_empty() { "" } else { ": " }
                ));
            }
            return Err(err.to_string());
        }
        Ok(out)
    }
}

fn read_results(stdout: &[u8]) -> Result<Vec<Value>, String> {
    values::read_values(stdout).map_err(|e| format!("the executable printed malformed results: {e}"))
}

impl Compiled for Executable {
    fn run(&self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        let input = values::write_binary_values(&args);
        let out = self.exec(
            &["-e".as_ref(), entry.as_ref(), "-b".as_ref()],
            Stdio::piped(),
            Some(&input),
        )?;
        read_results(&out.stdout)
    }

    /// The runtime times each run itself (the entry point's call and the
    /// wait for the device; not reading the input or printing results).
    fn bench(&self, entry: &str, args: &[Value], runs: usize, results: bool) -> Result<Timed, String> {
        let input = self.dir.path().join("input.bin");
        let times = self.dir.path().join("runtimes.txt");
        std::fs::write(&input, values::write_binary_values(args))
            .map_err(|e| format!("cannot write {}: {e}", input.display()))?;
        let stdin = std::fs::File::open(&input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
        let runs = runs.to_string();
        let print = if results { "-b" } else { "-n" };
        let flags = ["-e", entry, "-r", &runs, "-t"].map(std::ffi::OsStr::new);
        let out = self.exec(
            &[&flags[..], &[times.as_os_str(), print.as_ref()]].concat(),
            stdin.into(),
            None,
        )?;
        let text = std::fs::read_to_string(&times).map_err(|e| format!("cannot read {}: {e}", times.display()))?;
        let runtimes = text
            .split_whitespace()
            .map(|t| {
                t.parse()
                    .map_err(|_| format!("malformed runtime `{t}` in {}", times.display()))
            })
            .collect::<Result<_, _>>()?;
        Ok(Timed {
            runtimes,
            results: if results {
                Some(read_results(&out.stdout)?)
            } else {
                None
            },
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}
