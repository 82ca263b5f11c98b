//! A bundle (`futmlir test --bundle`, driver/src/bundle.rs) built for the
//! CPU and run by futmlir-check's library, as a GPU machine runs a CUDA
//! bundle: the machinery is the same but for the build, so CI tests it
//! without a GPU. In particular `script input` cases, which the checker
//! evaluates by running the bundle's executable.

use std::path::{Path, PathBuf};
use std::process::Command;

use std::time::Duration;

use futmlir_checker::{check_bundle, Options, Summary};

fn cpu_bundle(name: &str, programs: &[&str]) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let dir = std::env::temp_dir().join(format!("futmlir-bundle-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", "--backend=cpu", "--bundle"])
        .arg(&dir)
        .args(programs.iter().map(|p| root.join(p)))
        .output()
        .expect("run futmlir test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

fn check(dir: &Path) -> (Summary, String) {
    check_with(
        dir,
        &Options {
            verbose: true,
            ..Options::default()
        },
    )
}

fn check_with(dir: &Path, opts: &Options) -> (Summary, String) {
    let mut out = Vec::new();
    let sum = check_bundle(dir, opts, &mut out).expect("a readable bundle");
    (sum, String::from_utf8_lossy(&out).into_owned())
}

#[test]
fn script_input_cases_run_in_a_bundle() {
    let dir = cpu_bundle(
        "script",
        &["data_files/script_input.fut", "data_files/sum_from_file.fut"],
    );
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    assert!(!manifest.contains("\tskip\t"), "{manifest}");
    // The script and the file `$loaddata` names travel; no input values.
    assert!(dir.join("p0.c0.total.script").exists());
    assert!(dir.join("p0.c0.total.file0").exists());
    assert!(!dir.join("p0.c0.total.in").exists());
    let (sum, log) = check(&dir);
    assert_eq!(
        sum,
        Summary {
            passed: 5,
            failed: 0,
            skipped: 0
        },
        "{log}"
    );

    // A wrong expected output fails the case.
    std::fs::copy(dir.join("p0.c0.total.out"), dir.join("p0.c1.total.out")).unwrap();
    let (sum, log) = check(&dir);
    assert_eq!((sum.passed, sum.failed), (4, 1), "{log}");
    assert!(log.contains("script_input.fut:10: entry total: "), "{log}");

    // The script is evaluated there: another script gives another input.
    std::fs::copy(dir.join("p0.c2.total.out"), dir.join("p0.c1.total.out")).unwrap();
    std::fs::write(dir.join("p0.c1.total.script"), "(scale 1i32 (iota_i32 4i64), 7i32)").unwrap();
    let (sum, log) = check(&dir);
    assert_eq!((sum.passed, sum.failed), (5, 0), "{log}");

    // An entry point the program lacks is a failure of the case, with
    // the executable's message.
    std::fs::write(dir.join("p0.c1.total.script"), "nope 1i32").unwrap();
    let (sum, log) = check(&dir);
    assert_eq!((sum.passed, sum.failed), (4, 1), "{log}");
    assert!(log.contains("entry point `nope`"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-j`, `--shard` and `--timeout` (Note [Checking a bundle on the
/// device]): the shards of a bundle split its cases between them, in
/// parallel or not the totals are the same, and a case that does not end
/// is killed and fails, while the others still run.
#[test]
fn shards_jobs_and_timeouts() {
    let hang = std::env::temp_dir().join(format!("futmlir-bundle-hang-{}.fut", std::process::id()));
    std::fs::write(
        &hang,
        "-- ==\n-- input { 1i64 }\n-- output { 1i64 }\n\
         entry main (x: i64) = x\n\n\
         -- ==\n-- entry: forever\n-- input { 1i64 }\n-- output { 1i64 }\n\
         entry forever (x: i64) = loop y = x while y > 0 do y\n",
    )
    .unwrap();
    let dir = cpu_bundle(
        "shards",
        &[
            "data_files/script_input.fut",
            "data_files/sum_from_file.fut",
            hang.to_str().unwrap(),
        ],
    );
    let timeout = Duration::from_secs(2);
    let (all, log) = check_with(
        &dir,
        &Options {
            jobs: 3,
            timeout,
            ..Options::default()
        },
    );
    assert_eq!(
        all,
        Summary {
            passed: 6,
            failed: 1,
            skipped: 0
        },
        "{log}"
    );
    assert!(log.contains("entry forever: timed out after 2 s"), "{log}");
    let mut total = Summary::default();
    for i in 0..3 {
        let (sum, log) = check_with(
            &dir,
            &Options {
                shard: Some((i, 3)),
                timeout,
                ..Options::default()
            },
        );
        assert!(sum.passed + sum.failed + sum.skipped > 0, "shard {i} is empty: {log}");
        total.passed += sum.passed;
        total.failed += sum.failed;
        total.skipped += sum.skipped;
    }
    assert_eq!(total, all);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&hang);
}

/// The binary's options: bad ones are refused with the usage, exit 2.
#[test]
fn checker_options_are_checked() {
    let exe = Path::new(env!("CARGO_BIN_EXE_futmlir")).with_file_name("futmlir-check");
    if !exe.exists() {
        eprintln!("skipped: {} is not built", exe.display());
        return;
    }
    for args in [
        &["-j", "0", "d"][..],
        &["--shard", "3/3", "d"],
        &["--timeout=x", "d"],
        &["--bogus", "d"],
        &["--runs", "0", "d"],
        &["d", "--times"],
        &[],
    ] {
        let out = Command::new(&exe).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("usage: futmlir-check"), "{args:?}: {err}");
    }
}
