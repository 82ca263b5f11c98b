//! `futmlir bench`: time entry points on the datasets of their `-- ==`
//! blocks, with `futhark bench`'s conventions.
//!
//! Each program is compiled once by the backend of `futmlir test`
//! ([`crate::test::Backend`]); each dataset (a case's input) runs `-r N`
//! times per entry point of its block, after one warm-up run that is not
//! counted. Executables time themselves (the
//! runtime's `-r N -t FILE`: the entry point's call and the wait for the
//! device, not reading the input); the interpreter is timed in this
//! process around its evaluation, which only says how fast the reference
//! interpreter is. A case with an `output` also checks the last run's
//! results.
//!
//! Skipped as `futhark bench` does: blocks with `error:` or the tags
//! `disable`, `nobench` or `no_BACKEND`; cases marked `nobench`, cases that
//! expect a run-time error, `script` inputs, and `compiled` inputs on the
//! interpreter. Cases marked `notest` run here (big datasets that
//! `futmlir test` leaves out).
//!
//! Output: per dataset `prog.fut:ENTRY dataset NAME: MEANμs (RSD: R; min:
//! -N%; max: +N%)` (NAME: `#I (TYPES)`, or the file of an `input @ file`).
//! Errors (a program that does not compile, a failed run, a wrong result)
//! go to stderr and make the exit status 1; the other programs still run.
//! `--json FILE` writes Futhark's shape, `{"prog.fut:ENTRY": {"datasets":
//! {NAME: {"runtimes": [µs ...], "bytes": 0, "stderr": ""}}}}`, with the
//! run's host, version, backend and flags under the key `"futmlir"`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use futmlir_frontend::testspec::{parse_test_spec, Expected, InputSpec, TestBlock, TestCase};
use futmlir_frontend::values::Value;

use crate::test::{
    block_skip_tagged, collect_programs, Backend, BackendKind, Compiled, FrontendValues, Runner, Timed, ValueLib,
};

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Programs (`.fut` files) and directories (searched recursively for
    /// `.fut` files).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The backend to time.
    #[arg(long, value_enum, default_value = "cpu")]
    backend: BackendKind,
    /// Runs per dataset.
    #[arg(short = 'r', long = "runs", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Only this entry point (default: the entry points of each block).
    #[arg(short = 'e', long = "entry-point", value_name = "NAME")]
    entry_point: Option<String>,
    /// Also write the runtimes to FILE as JSON (Futhark's shape).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// The GPU to build for (`--backend=cuda`).
    #[arg(long = "gpu-arch", default_value = futmlir_passes::pipelines::DEFAULT_CHIP)]
    gpu_arch: String,
    /// How the compiled backends compile (`futmlir build`'s flags).
    #[command(flatten)]
    flags: crate::passflags::PassFlags,
}

/// One dataset's runs of one entry point.
struct Measured {
    /// `prog.fut:ENTRY`.
    key: String,
    dataset: String,
    timed: Timed,
}

/// The mean, the relative standard deviation (sample) and the minimum and
/// maximum relative to the mean, of runtimes.
pub(crate) fn statistics(runtimes: &[f64]) -> (f64, f64, f64, f64) {
    let n = runtimes.len().max(1) as f64;
    let mean = runtimes.iter().sum::<f64>() / n;
    let var = runtimes.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let rel = |t: f64| if mean > 0.0 { t / mean } else { 0.0 };
    let min = runtimes.iter().copied().fold(f64::INFINITY, f64::min);
    let max = runtimes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, rel(var.sqrt()), rel(min - mean), rel(max - mean))
}

fn report_line(m: &Measured) -> String {
    let (mean, rsd, min, max) = statistics(&m.timed.runtimes);
    format!(
        "{} dataset {}: {mean:>8.0}μs (RSD: {rsd:.3}; min: {:+.0}%; max: {:+.0}%)",
        m.key,
        m.dataset,
        min * 100.0,
        max * 100.0
    )
}

/// Whether `futmlir bench` leaves a case out (see the module doc).
fn case_skipped(case: &TestCase, backend: &str) -> bool {
    case.nobench
        || matches!(case.expected, Expected::Error(_))
        || matches!(case.input, InputSpec::Script(_))
        || (case.compiled && backend == "interp")
}

/// The datasets `futmlir bench` runs of a program's blocks for `backend`
/// (see the module doc), in order: (entry, case, the dataset's number
/// among the entry's).
pub(crate) fn plan<'b>(
    blocks: &'b [TestBlock],
    backend: &str,
    entry_point: Option<&str>,
) -> Vec<(&'b str, &'b TestCase, usize)> {
    let mut plan: Vec<(&str, &TestCase, usize)> = Vec::new();
    for block in blocks {
        if block.compile_error.is_some() || block_skip_tagged(block, backend, "nobench").is_some() {
            continue;
        }
        for case in block.cases.iter().filter(|c| !case_skipped(c, backend)) {
            for entry in &block.entries {
                if entry_point.is_none_or(|e| e == entry) {
                    let n = plan.iter().filter(|(e, ..)| e == entry).count();
                    plan.push((entry, case, n));
                }
            }
        }
    }
    plan
}

/// The name and arguments of dataset number `n` of an entry point
/// (`#N (TYPES)`, or the file of an `input @ file`); `Err`: (the name so
/// far, why). The plan has no script inputs, so nothing runs.
pub(crate) fn dataset(
    runner: &Runner,
    dir: &Path,
    case: &TestCase,
    n: usize,
) -> Result<(String, Vec<Value>), (String, String)> {
    let args = runner.inputs(dir, case, None).map_err(|e| (format!("#{n}"), e))?;
    let name = match &case.input {
        InputSpec::File(f) => f.display().to_string(),
        _ => {
            let types: Vec<String> = args.iter().map(|v| v.type_name()).collect();
            format!("#{n} ({})", types.join(" "))
        }
    };
    Ok((name, args))
}

/// Times `runs` runs of `entry` on `args`, after a warm-up run (page
/// faults, caches, the device's first launches) that is not counted;
/// checks the last run's results against `expected`, if given.
pub(crate) fn time(
    program: &dyn Compiled,
    entry: &str,
    args: &[Value],
    runs: usize,
    expected: Option<&[Value]>,
) -> Result<Timed, String> {
    let mut timed = program
        .bench(entry, args, runs + 1, expected.is_some())
        .map_err(|e| format!("run-time error: {e}"))?;
    if timed.runtimes.len() != runs + 1 {
        return Err(format!("{} runtimes for {} runs", timed.runtimes.len(), runs + 1));
    }
    timed.runtimes.remove(0);
    if let (Some(want), Some(got)) = (expected, &timed.results) {
        FrontendValues
            .compare(want, got)
            .map_err(|e| format!("wrong result: {e}"))?;
    }
    Ok(timed)
}

struct Bench<'a> {
    backend: &'a dyn Backend,
    runs: usize,
    entry_point: Option<&'a str>,
}

impl Bench<'_> {
    /// Times the datasets of one program, appending to `measured`; prints
    /// a line per dataset to `out` and errors to `err`. `false`: something
    /// failed.
    fn program(&self, path: &Path, measured: &mut Vec<Measured>, out: &mut dyn Write, err: &mut dyn Write) -> bool {
        let shown = path.display();
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "{shown}: cannot read the program: {e}");
                return false;
            }
        };
        let blocks = match parse_test_spec(&text) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(err, "{shown}:{}: malformed test spec: {}", e.line, e.message);
                return false;
            }
        };
        let plan = plan(&blocks, self.backend.name(), self.entry_point);
        if plan.is_empty() {
            return true;
        }
        let program = match self.backend.compile(path) {
            Ok(p) => p,
            Err(msg) => {
                if let Some(why) = crate::compiled::unsupported(&msg) {
                    let _ = writeln!(out, "{shown}: skipped ({why})");
                    return true;
                }
                let _ = writeln!(err, "{shown}: compilation failed:\n{msg}");
                return false;
            }
        };
        let runner = Runner {
            backend: self.backend,
            reference: None,
            values: &FrontendValues,
            verbose: false,
            cases_only: false,
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut ok = true;
        for (entry, case, n) in plan {
            let key = format!("{shown}:{entry}");
            let run = || -> Result<Measured, (String, String)> {
                let (dataset, args) = dataset(&runner, dir, case, n)?;
                let fail = |e: String| (dataset.clone(), e);
                let expected = runner.expected_output(dir, case).map_err(fail)?;
                let timed = time(&*program, entry, &args, self.runs, expected.as_deref()).map_err(fail)?;
                Ok(Measured {
                    key: key.clone(),
                    dataset,
                    timed,
                })
            };
            match run() {
                Ok(m) => {
                    let _ = writeln!(out, "{}", report_line(&m));
                    measured.push(m);
                }
                Err((dataset, e)) => {
                    ok = false;
                    let _ = writeln!(err, "{key} dataset {dataset} (line {}): {e}", case.line);
                }
            }
        }
        ok
    }
}

/// `s` as a JSON string literal.
pub(crate) fn json_string(s: &str) -> String {
    let mut j = String::with_capacity(s.len() + 2);
    j.push('"');
    for c in s.chars() {
        match c {
            '"' => j.push_str("\\\""),
            '\\' => j.push_str("\\\\"),
            '\n' => j.push_str("\\n"),
            '\r' => j.push_str("\\r"),
            '\t' => j.push_str("\\t"),
            c if (c as u32) < 0x20 => j.push_str(&format!("\\u{:04x}", c as u32)),
            c => j.push(c),
        }
    }
    j.push('"');
    j
}

/// This machine's name (Linux's, else `$HOSTNAME`, else `unknown`).
pub(crate) fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The JSON document of a run (see the module doc); `meta`: the
/// `"futmlir"` object's fields, already JSON values.
fn json_document(meta: &[(&str, String)], measured: &[Measured]) -> String {
    let fields: Vec<String> = meta.iter().map(|(k, v)| format!("{}: {v}", json_string(k))).collect();
    let mut doc = format!("{{\n  \"futmlir\": {{{}}}", fields.join(", "));
    // Programs in the order they ran, each entry's datasets together.
    let mut keys: Vec<&str> = Vec::new();
    for m in measured {
        if !keys.contains(&m.key.as_str()) {
            keys.push(&m.key);
        }
    }
    for key in keys {
        let datasets: Vec<String> = measured
            .iter()
            .filter(|m| m.key == key)
            .map(|m| {
                let runtimes: Vec<String> = m.timed.runtimes.iter().map(|t| t.to_string()).collect();
                format!(
                    "      {}: {{\"runtimes\": [{}], \"bytes\": 0, \"stderr\": {}}}",
                    json_string(&m.dataset),
                    runtimes.join(", "),
                    json_string(&m.timed.stderr)
                )
            })
            .collect();
        doc.push_str(&format!(
            ",\n  {}: {{\n    \"datasets\": {{\n{}\n    }}\n  }}",
            json_string(key),
            datasets.join(",\n")
        ));
    }
    doc.push_str("\n}\n");
    doc
}

pub fn main(a: BenchArgs) -> ExitCode {
    let programs = match collect_programs(&a.paths) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(code) = a.backend.prepare(&a.gpu_arch, &a.flags) {
        return code;
    }
    let backend = a.backend.backend(&a.gpu_arch, &a.flags);
    let bench = Bench {
        backend: &*backend,
        runs: a.runs as usize,
        entry_point: a.entry_point.as_deref(),
    };
    let mut measured = Vec::new();
    let mut ok = true;
    for p in &programs {
        let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr().lock());
        ok &= bench.program(p, &mut measured, &mut out, &mut err);
    }
    if let Some(file) = &a.json {
        let flags: Vec<String> = std::env::args().skip(1).map(|f| json_string(&f)).collect();
        let mut meta = vec![
            ("host", json_string(&host_name())),
            ("version", json_string(env!("CARGO_PKG_VERSION"))),
            ("backend", json_string(backend.name())),
            ("runs", a.runs.to_string()),
            ("flags", format!("[{}]", flags.join(", "))),
        ];
        if a.backend == BackendKind::Cuda {
            meta.push(("gpu_arch", json_string(&a.gpu_arch)));
        }
        if let Err(e) = std::fs::write(file, json_document(&meta, &measured)) {
            eprintln!("error: cannot write {}: {e}", file.display());
            ok = false;
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_runtimes() {
        let (mean, rsd, min, max) = statistics(&[90.0, 100.0, 110.0]);
        assert_eq!(mean, 100.0);
        assert!((rsd - 0.1).abs() < 1e-12, "{rsd}");
        assert!((min + 0.1).abs() < 1e-12 && (max - 0.1).abs() < 1e-12, "{min} {max}");
        assert_eq!(statistics(&[5.0]), (5.0, 0.0, 0.0, 0.0));
        let m = Measured {
            key: "p.fut:main".into(),
            dataset: "#0 ([3]f32)".into(),
            timed: Timed {
                runtimes: vec![90.0, 100.0, 110.0],
                ..Timed::default()
            },
        };
        assert_eq!(
            report_line(&m),
            "p.fut:main dataset #0 ([3]f32):      100μs (RSD: 0.100; min: -10%; max: +10%)"
        );
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nd\te\u{1}é"), "\"a\\\"b\\\\c\\nd\\te\\u0001é\"");
    }

    #[test]
    fn json_document_keeps_futharks_shape() {
        let m = |key: &str, dataset: &str, t: f64| Measured {
            key: key.into(),
            dataset: dataset.into(),
            timed: Timed {
                runtimes: vec![t, t + 1.0],
                results: None,
                stderr: "warn\n".into(),
            },
        };
        let doc = json_document(
            &[("backend", json_string("cpu")), ("runs", "2".into())],
            &[
                m("a.fut:main", "#0 (i32)", 1.0),
                m("b.fut:f", "d.in", 3.0),
                m("a.fut:main", "#1 (i32)", 5.0),
            ],
        );
        assert_eq!(
            doc,
            concat!(
                "{\n  \"futmlir\": {\"backend\": \"cpu\", \"runs\": 2},\n",
                "  \"a.fut:main\": {\n    \"datasets\": {\n",
                "      \"#0 (i32)\": {\"runtimes\": [1, 2], \"bytes\": 0, \"stderr\": \"warn\\n\"},\n",
                "      \"#1 (i32)\": {\"runtimes\": [5, 6], \"bytes\": 0, \"stderr\": \"warn\\n\"}\n",
                "    }\n  },\n",
                "  \"b.fut:f\": {\n    \"datasets\": {\n",
                "      \"d.in\": {\"runtimes\": [3, 4], \"bytes\": 0, \"stderr\": \"warn\\n\"}\n",
                "    }\n  }\n}\n"
            )
        );
    }
}
