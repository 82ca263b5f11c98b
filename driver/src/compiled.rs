//! The compiled backends of `futmlir test` (`cpu`, and `cuda` on a machine
//! with a GPU): each program is built into an
//! executable (in a temporary folder) and each case runs it with the
//! arguments on stdin in the binary value format, reading the results
//! back in that format.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use futmlir_frontend::values::{self, Value};

use crate::build::{build, Emit};
use crate::test::{Backend, Compiled};

/// The prefix of a compile error that means "this backend cannot compile
/// this program yet" (the runner counts such cases as skipped).
pub const UNSUPPORTED: &str = "the compiled backends do not support";

/// Executables for this machine's CPU (`gpu: None`) or, on a machine with
/// an NVIDIA GPU, for CUDA (`gpu`: the chip).
pub struct ExeBackend {
    pub gpu: Option<String>,
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
        let dir = tempfile::tempdir().map_err(|e| format!("cannot make a temporary folder: {e}"))?;
        let exe = dir.path().join("program");
        build(path, Emit::Exe, self.gpu.as_deref(), &exe)?;
        Ok(Box::new(Executable { _dir: dir, exe }))
    }
}

struct Executable {
    _dir: tempfile::TempDir,
    exe: std::path::PathBuf,
}

impl Compiled for Executable {
    fn run(&self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        let mut child = Command::new(&self.exe)
            .args(["-e", entry, "-b"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        let input = values::write_binary_values(&args);
        // A program may fail before it reads its input: a broken pipe here
        // is not the error to report.
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&input);
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("cannot run {}: {e}", self.exe.display()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let err = err.trim();
            return Err(err.strip_prefix("Error: ").unwrap_or(err).to_string());
        }
        values::read_values(&out.stdout).map_err(|e| format!("the executable printed malformed results: {e}"))
    }
}
