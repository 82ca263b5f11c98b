//! The Futhark program suite: `futmlir test tests/programs` must pass every
//! case, interpreted and compiled for the CPU.

use std::process::Command;

#[test]
fn program_suite_passes_in_the_interpreter() {
    suite("interp", 400);
}

/// Every program built into an executable for the CPU (cases with a
/// feature the compiled backends lack are counted as skipped, with the
/// reason, and must stay few).
#[test]
fn program_suite_passes_compiled_for_the_cpu() {
    suite("cpu", 700);
}

fn suite(backend: &str, at_least: usize) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", &format!("--backend={backend}")])
        .arg(&root)
        .output()
        .expect("run futmlir test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stdout.lines().last().unwrap_or("");
    println!("{summary}");
    assert!(out.status.success(), "futmlir test failed:\n{stdout}\n{stderr}");
    // Guard against a silently empty run.
    let passed: usize = summary.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(passed >= at_least, "only {passed} cases ran: {summary}");
}

/// Every program built for CUDA (MLIR's NVVM path and LLVM's NVPTX back
/// end, which verify what they are given) into a bundle of executables and
/// cases for a GPU machine; few cases may be skipped as unsupported.
#[test]
fn program_suite_builds_for_cuda() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/programs");
    let dir = std::env::temp_dir().join(format!("futmlir-cuda-bundle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["test", "--backend=cuda", "--bundle"])
        .arg(&dir)
        .arg(&root)
        .output()
        .expect("run futmlir test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `N cases written to DIR, M skipped, 0 failed to compile`
    let words: Vec<&str> = stdout.split_whitespace().collect();
    let written: usize = words.first().and_then(|n| n.parse().ok()).unwrap_or(0);
    let skipped: usize = words
        .iter()
        .rev()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    println!("{}", stdout.trim());
    assert!(written >= 580 && skipped <= 20, "{stdout}");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).unwrap();
    assert_eq!(manifest.lines().count(), written + skipped);
    assert!(dir.join("libfutmlir_runtime_cuda.so").exists());
    check_ptx_with_ptxas(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `ptxas` (from `FUTMLIR_PTXAS`, which scripts/test.sh sets when it
/// could fetch CUDA's `nvidia-cuda-nvcc` wheel) on every program's PTX.
/// Without it, MLIR and LLVM's verification of what they made is the check.
fn check_ptx_with_ptxas(dir: &std::path::Path) {
    let Some(ptxas) = std::env::var_os("FUTMLIR_PTXAS") else {
        println!("FUTMLIR_PTXAS is not set: the PTX is not checked with ptxas");
        return;
    };
    let mut checked = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "ptx") {
            let out = Command::new(&ptxas)
                .args(["-arch=sm_90", "-o", "/dev/null"])
                .arg(&p)
                .output()
                .expect("run ptxas");
            assert!(
                out.status.success(),
                "ptxas rejects {}:\n{}",
                p.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            checked += 1;
        }
    }
    println!("ptxas accepted the PTX of {checked} programs");
    assert!(checked >= 300, "only {checked} PTX files");
}
