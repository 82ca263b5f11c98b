//! `soac-vjp`'s loop strategies (Note [Loop strategies] in
//! passes/src/soac/vjp.rs): every strategy gives the gradients of the
//! loop tests (whose hand-worked values the default, `tape`, is checked
//! against in tests/programs/ad), and checkpointing holds less memory
//! than the tape for a long loop.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn futmlir() -> Command {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The CPU pipeline with `soac-vjp{loop=STRATEGY}`.
fn pipeline(strategy: &str) -> String {
    let o = futmlir()
        .args(["build", "--dump-pass-pipeline", "x.fut"])
        .output()
        .unwrap();
    let p = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert!(
        p.contains("soac-vjp{loop=tape}"),
        "the default pipeline tapes loops: {p}"
    );
    p.replace("soac-vjp{loop=tape}", &format!("soac-vjp{{loop={strategy}}}"))
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn every_strategy_gives_the_tapes_gradients() {
    for strategy in ["recompute", "checkpoint"] {
        let o = futmlir()
            .args(["test", "--backend=cpu", "--pass-pipeline", &pipeline(strategy)])
            .arg(repo().join("tests/programs/ad/vjp_loop_strategies.fut"))
            .arg(repo().join("tests/programs/ad/vjp_loops.fut"))
            .output()
            .unwrap();
        let out = text(&o);
        assert!(o.status.success(), "loop={strategy}:\n{out}");
        assert!(out.contains(" 0 failed"), "loop={strategy}:\n{out}");
    }
}

/// The peak memory `--memory-report` prints for `exe` on `input`, and
/// its result.
fn peak(exe: &Path, input: &str) -> (u64, String) {
    let mut child = Command::new(exe)
        .args(["-e", "grad", "--memory-report"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("Peak memory usage:"))
        .unwrap_or_else(|| panic!("no memory report in {err}"));
    let bytes = line.split_whitespace().nth(3).unwrap().parse().unwrap();
    (bytes, String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn checkpointing_lowers_peak_memory() {
    let dir = std::env::temp_dir().join(format!("futmlir-vjp-loops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("long.fut");
    std::fs::write(
        &prog,
        "entry grad (xs: [100]f64) (n: i64) =\n  \
         vjp (\\zs -> f64.sum (loop ys = zs for _i < n do map (\\y -> 0.999 * y + 0.001 * f64.sin y) ys)) xs 1\n",
    )
    .unwrap();
    let input = format!("[{}] 10000i64", vec!["0.5f64"; 100].join(", "));
    let mut got = Vec::new();
    for strategy in ["tape", "checkpoint"] {
        let exe = dir.join(strategy);
        let o = futmlir()
            .args(["build", "--pass-pipeline", &pipeline(strategy), "-o"])
            .arg(&exe)
            .arg(&prog)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
        got.push(peak(&exe, &input));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let ((tape, g1), (ckpt, g2)) = (&got[0], &got[1]);
    assert_eq!(g1, g2, "the same gradient");
    // The tape holds 10000 rows of 100 f64 (8 MB); checkpoints every 100
    // iterations hold 100 rows, and a segment's tape 100 more.
    assert!(*tape >= 8_000_000, "tape peak {tape}");
    assert!(*ckpt * 10 < *tape, "checkpoint peak {ckpt} vs tape {tape}");
}
