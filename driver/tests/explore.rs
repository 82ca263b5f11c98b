//! `futmlir explore`: orderings built, checked and timed on the CPU; the
//! JSON it writes; an ordering the level check refuses; a bundle run by
//! futmlir-check's library with timing and read back by `--report`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use futmlir_checker::{check_bundle_timed, Options};

/// A dot product with a small dataset and a random one (no `output`: the
/// interpreter is the reference).
const DOT: &str = "-- ==\n\
    -- input { [1f32, 2f32, 3f32] [4f32, 5f32, 6f32] } output { 32f32 }\n\
    -- random input { [1000]f32 [1000]f32 }\n\
    def main (xs: []f32) (ys: []f32): f32 = reduce (+) 0 (map2 (*) xs ys)\n";

/// A fresh folder for one test, holding the program.
fn scratch(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("futmlir-explore-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prog = dir.join("dot.fut");
    std::fs::write(&prog, DOT).unwrap();
    (dir, prog)
}

fn futmlir(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(args)
        .output()
        .expect("run futmlir")
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The table's rows: the lines after the header (`#  compile s ...`).
fn rows(out: &Output) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("# "))
        .skip(1)
        .take_while(|l| !l.starts_with("wrote "))
        .map(str::to_string)
        .collect()
}

fn json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"))
}

#[test]
fn every_ordering_is_built_checked_and_timed() {
    let (dir, prog) = scratch("all");
    let json_file = dir.join("out.json");
    let out = futmlir(&[
        "explore",
        prog.to_str().unwrap(),
        "--passes=soac-fuse,soac-simplify",
        "--subsets",
        "-r",
        "2",
        "--json",
        json_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let rows = rows(&out);
    // The default pipeline, then 1 + 2 + 2 orderings of the subsets.
    assert_eq!(rows.len(), 6, "{}", text(&out));
    assert!(rows.iter().all(|r| r.contains(" ok ")), "{}", text(&out));
    let doc = json(&json_file);
    let orderings = doc["orderings"].as_array().unwrap();
    assert_eq!(orderings.len(), 6);
    assert_eq!(doc["datasets"].as_array().unwrap().len(), 2);
    let kernels = |o: &serde_json::Value| o["kernels"].as_u64().unwrap();
    for o in orderings {
        assert_eq!(o["result"], "ok", "{o}");
        assert!(o["compile_s"].as_f64().unwrap() > 0.0, "{o}");
        for d in o["datasets"].as_array().unwrap() {
            assert_eq!(d["runtimes"].as_array().unwrap().len(), 2, "{d}");
            assert_eq!(d["result"], "ok", "{d}");
        }
    }
    // Fused, the dot product is one kernel; without `soac-fuse` the map
    // and the reduction are one each.
    let by_ordering = |passes: &[&str]| {
        orderings
            .iter()
            .find(|o| o["label"] != "default" && o["ordering"] == serde_json::json!(passes))
            .unwrap_or_else(|| panic!("no ordering {passes:?}"))
    };
    assert_eq!(kernels(&orderings[0]), 1);
    assert_eq!(kernels(by_ordering(&["soac-fuse", "soac-simplify"])), 1);
    assert_eq!(kernels(by_ordering(&["soac-simplify"])), 2);
    assert_eq!(kernels(by_ordering(&[])), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_ordering_against_the_levels_is_reported_not_run() {
    let (dir, prog) = scratch("levels");
    let json_file = dir.join("out.json");
    let out = futmlir(&[
        "explore",
        prog.to_str().unwrap(),
        "--passes=segop-cpu-locality,segop-to-mem",
        "-r",
        "1",
        "--json",
        json_file.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let rows = rows(&out);
    assert_eq!(rows.len(), 3, "{}", text(&out));
    assert!(
        rows[1].contains(" ok ") && rows[1].ends_with("segop-cpu-locality,segop-to-mem"),
        "{}",
        text(&out)
    );
    assert!(
        rows[2].contains("invalid (level)") && rows[2].ends_with("segop-to-mem,segop-cpu-locality"),
        "{}",
        text(&out)
    );
    let doc = json(&json_file);
    let bad = &doc["orderings"][2];
    assert_eq!(bad["result"], "invalid (level)");
    assert!(
        bad["message"]
            .as_str()
            .unwrap()
            .contains("pass 'segop-cpu-locality' works on"),
        "{bad}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_explorations_are_refused() {
    let (dir, prog) = scratch("refused");
    let prog = prog.to_str().unwrap();
    let out = futmlir(&["explore", prog, "--passes=soac-fusee"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("did you mean 'soac-fuse'"), "{}", text(&out));
    let out = futmlir(&[
        "explore",
        prog,
        "--passes=soac-fuse,soac-simplify,soac-inline,ir-dce,ir-cse,soac-unstream,soac-partition",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("5040 orderings, more than the 720"),
        "{}",
        text(&out)
    );
    let out = futmlir(&["explore", prog]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--passes names the passes to move"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--bundle` on the CPU, run as a GPU machine would run a CUDA bundle:
/// futmlir-check times every case, `--report` reads the times back, and
/// a wrong expected output shows as `wrong`.
#[test]
fn a_bundle_is_timed_by_the_checker_and_reported() {
    let (dir, prog) = scratch("bundle");
    let bundle = dir.join("bundle");
    let out = futmlir(&[
        "explore",
        prog.to_str().unwrap(),
        "--passes=soac-fuse,soac-simplify",
        "--bundle",
        bundle.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(rows(&out).len(), 3, "{}", text(&out));
    for f in [
        "p000",
        "p001",
        "p002",
        "cases.d0.in",
        "cases.d1.out",
        "manifest.tsv",
        "explore.tsv",
    ] {
        assert!(bundle.join(f).exists(), "no {f}");
    }
    // The random dataset travels as its seed and types; the checker
    // draws the same values (or the interpreter's results would differ).
    assert_eq!(
        std::fs::read_to_string(bundle.join("cases.d1.random")).unwrap(),
        "3\n[1000]f32\n[1000]f32\n"
    );
    assert!(!bundle.join("cases.d1.in").exists());
    let report = |times_name: &str| {
        let times = dir.join(times_name);
        let opts = Options {
            runs: Some(3),
            ..Options::default()
        };
        let mut log = Vec::new();
        let (sum, records) = check_bundle_timed(&bundle, &opts, &mut log).unwrap();
        let lines: String = records.iter().map(|r| r.tsv_line() + "\n").collect();
        std::fs::write(&times, lines).unwrap();
        let json_file = dir.join(format!("{times_name}.json"));
        let out = futmlir(&[
            "explore",
            "--report",
            bundle.to_str().unwrap(),
            times.to_str().unwrap(),
            "--json",
            json_file.to_str().unwrap(),
        ]);
        (sum, records, out, json(&json_file))
    };
    let (sum, records, out, doc) = report("times.tsv");
    assert_eq!((sum.passed, sum.failed), (6, 0), "{}", text(&out));
    assert!(records.iter().all(|r| r.runtimes.len() == 3), "{records:?}");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(rows(&out).len(), 3, "{}", text(&out));
    for o in doc["orderings"].as_array().unwrap() {
        assert_eq!(o["result"], "ok", "{o}");
        assert_eq!(o["datasets"][1]["runtimes"].as_array().unwrap().len(), 3, "{o}");
    }

    // The interpreter's results went into the bundle: others fail.
    std::fs::copy(bundle.join("cases.d0.out"), bundle.join("cases.d1.out")).unwrap();
    let (sum, _, out, doc) = report("wrong.tsv");
    assert_eq!((sum.passed, sum.failed), (3, 3), "{}", text(&out));
    assert!(!out.status.success());
    assert!(rows(&out).iter().all(|r| r.contains(" wrong ")), "{}", text(&out));
    assert_eq!(doc["orderings"][1]["datasets"][1]["result"], "wrong");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--reference=default` in a bundle: a case without an `output` is
/// compared on the machine that runs the bundle with the default
/// pipeline's executable (`like:p000`), not with results computed here.
#[test]
fn a_bundle_compares_with_the_default_build_where_it_runs() {
    let (dir, prog) = scratch("like");
    let bundle = dir.join("bundle");
    let out = futmlir(&[
        "explore",
        prog.to_str().unwrap(),
        "--passes=soac-fuse,soac-simplify",
        "--reference=default",
        "--bundle",
        bundle.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(!bundle.join("cases.d1.out").exists(), "the reference ran here");
    let manifest = std::fs::read_to_string(bundle.join("manifest.tsv")).unwrap();
    let kinds: Vec<(&str, &str, &str)> = manifest
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f[2], f[3])
        })
        .collect();
    assert!(kinds.contains(&("p000", "cases.d0", "output")), "{manifest}");
    assert!(kinds.contains(&("p000", "cases.d1", "none")), "{manifest}");
    assert!(kinds.contains(&("p001", "cases.d1", "like:p000")), "{manifest}");
    assert!(kinds.contains(&("p002", "cases.d1", "like:p000")), "{manifest}");
    let check = || {
        let mut log = Vec::new();
        let (sum, records) = check_bundle_timed(&bundle, &Options::default(), &mut log).unwrap();
        (sum, records, String::from_utf8_lossy(&log).to_string())
    };
    let (sum, _, log) = check();
    assert_eq!((sum.passed, sum.failed), (6, 0), "{log}");

    // A reference that gives other results: the orderings compared with
    // it fail, those with an `output` of their own do not.
    let p000 = bundle.join("p000");
    std::fs::write(&p000, "#!/bin/sh\ncat >/dev/null\necho 7f32\n").unwrap();
    let (sum, records, log) = check();
    let failed: Vec<(&str, &str)> = records
        .iter()
        .filter(|r| r.status.starts_with("failed"))
        .map(|r| (r.prog.as_str(), r.case.as_str()))
        .collect();
    assert_eq!(
        failed,
        [("p000", "cases.d0"), ("p001", "cases.d1"), ("p002", "cases.d1")],
        "{log}"
    );
    assert_eq!(sum.passed, 3, "{log}");
    assert!(log.contains("expected 7"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
