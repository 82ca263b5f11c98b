//! `futmlir build --library` end to end: `tests/library/prog.fut` built
//! into `prog.so`, `prog.a`, `prog.h` and `prog.json` for the CPU, then
//! used from a C program (`tests/library/main.c`, compiled with `cc`
//! against the header, linked with either library) and from Python through ctypes (`tests/library/ctypes_test.py`;
//! skipped with a notice where there is no `python3`). Also: the manifest,
//! the CUDA target's library (built here; a context on a machine without
//! a GPU must report why rather than crash), and names the library cannot
//! give.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("driver/ is in the repository")
}

/// A fresh directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("futmlir-library-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tests/library/prog.fut` copied into `dir` and built there as a
/// library with `-o prog` for `target`.
fn build_library(dir: &Path, target: &str) {
    std::fs::copy(repo().join("tests/library/prog.fut"), dir.join("prog.fut")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args([
            "build",
            "--library",
            &format!("--target={target}"),
            "-o",
            "prog",
            "prog.fut",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for f in ["prog.so", "prog.a", "prog.h", "prog.json"] {
        assert!(dir.join(f).exists(), "{f} was not written");
    }
}

/// The shared library, found beside the program through its rpath.
const SHARED: &[&str] = &["./prog.so", "-Wl,-rpath,$ORIGIN"];

/// The static library and the system libraries it needs (README).
const STATIC: &[&str] = &["prog.a", "-lpthread", "-ldl", "-lm", "-lgcc_s", "-lutil", "-lrt"];

/// Compiles the C file `source` in `dir` against `prog.h` and the library
/// (`link`: [`SHARED`] or [`STATIC`]) and runs it: its exit status, stdout
/// and stderr.
fn compile_and_run(dir: &Path, source: &Path, link: &[&str]) -> (Option<i32>, String, String) {
    let cc = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I."])
        .arg(source)
        .args(["-o", "main"])
        .args(link)
        .current_dir(dir)
        .output()
        .expect("cc runs");
    assert!(
        cc.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(dir.join("main"))
        .current_dir(dir)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stdout).into_owned(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
    )
}

/// The C program: arrays in and out (1-d and 2-d), two scalar results,
/// records (new, through entry points, project, store and restore, one
/// holding an array), a sum type (each constructor made, through entry
/// points, its variant read and its payload taken apart; destructing
/// with the wrong constructor refused), a failing assertion and NULL
/// arguments (error codes and messages; the context goes on working).
#[test]
fn c_program() {
    let dir = test_dir("c");
    build_library(&dir, "cpu");
    let (status, stdout, stderr) = compile_and_run(&dir, &repo().join("tests/library/main.c"), SHARED);
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, C_PROGRAM_OUTPUT);
    assert!(stderr.is_empty(), "{stderr}");
}

/// What `tests/library/main.c` prints: the error messages it reads, then
/// OK.
const C_PROGRAM_OUTPUT: &str = "error: the value of shape is made with circle, not poly\n\
     error: Assertion is false: (i < length xs) (prog.fut:20:51)\n\
     error: entry point checked: input 1 is NULL\n\
     error: entry point checked: output 1 is NULL\n\
     OK\n";

/// Arrays of records from C (`tests/library/arrays.c`): an entry point's
/// result indexed, out of bounds refused, `zip` of two arrays, `set`,
/// `new` from elements and a field projected, each checked through what
/// entry points compute from it.
#[test]
fn opaque_arrays() {
    let dir = test_dir("arrays");
    std::fs::copy(repo().join("tests/library/arrays.fut"), dir.join("arrays.fut")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--library", "-o", "arrays", "arrays.fut"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (status, stdout, stderr) = compile_and_run(
        &dir,
        &repo().join("tests/library/arrays.c"),
        &["./arrays.so", "-Wl,-rpath,$ORIGIN"],
    );
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(
        stdout,
        "shape 3\nps[1].x 2\nps[3] fails 1\nsumx swapped 60\nsumx after set 7\nsumy of two 40\nys 20 20 30\n"
    );
    // The manifest lists the array of records with its operations.
    let manifest = std::fs::read_to_string(dir.join("arrays.json")).unwrap();
    assert!(
        manifest.contains("\"record_array\": {\"rank\": 1, \"elemtype\": \"point\"")
            && manifest.contains("\"zip\": \"futhark_zip_opaque_arr1d_point\""),
        "{manifest}"
    );
}

/// The same C program linked with the static library `prog.a`.
#[test]
fn c_program_static() {
    let dir = test_dir("static");
    build_library(&dir, "cpu");
    let (status, stdout, stderr) = compile_and_run(&dir, &repo().join("tests/library/main.c"), STATIC);
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(stdout, C_PROGRAM_OUTPUT);
    assert!(stderr.is_empty(), "{stderr}");
}

/// Python with ctypes only: a record holding an array taken through two
/// entry points, its fields read back, a failing assertion; the library
/// loaded by its path from another folder, with no environment set.
#[test]
fn python_ctypes() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("python_ctypes: skipped: no python3");
        return;
    }
    let dir = test_dir("python");
    build_library(&dir, "cpu");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = Command::new("python3")
        .arg(repo().join("tests/library/ctypes_test.py"))
        .arg(dir.join("prog.so"))
        .current_dir(&elsewhere)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "OK\n");
}

/// The manifest: entry points with their C functions and types, arrays
/// with their operations, records with fields and projections; every
/// function it names is in the header and exported by the library.
#[test]
fn manifest() {
    let dir = test_dir("manifest");
    build_library(&dir, "cpu");
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("prog.json")).unwrap()).unwrap();
    assert_eq!(m["backend"], "c");
    let weigh = &m["entry_points"]["weigh"];
    assert_eq!(weigh["cfun"], "futhark_entry_weigh");
    assert_eq!(weigh["inputs"][0]["type"], "cloud");
    assert_eq!(weigh["inputs"][0]["unique"], false);
    assert_eq!(weigh["outputs"][0]["type"], "cloud");
    let sums = &m["entry_points"]["sum_and_max"]["outputs"];
    assert_eq!(sums.as_array().unwrap().len(), 2);
    assert_eq!(sums[1]["type"], "i32");
    let arr = &m["types"]["[][]i64"];
    assert_eq!(arr["kind"], "array");
    assert_eq!(arr["rank"], 2);
    assert_eq!(arr["elemtype"], "i64");
    assert_eq!(arr["ctype"], "struct futhark_i64_2d *");
    assert_eq!(arr["ops"]["new"], "futhark_new_i64_2d");
    let cloud = &m["types"]["cloud"];
    assert_eq!(cloud["kind"], "opaque");
    assert_eq!(cloud["ctype"], "struct futhark_opaque_cloud *");
    assert_eq!(cloud["ops"]["free"], "futhark_free_opaque_cloud");
    assert_eq!(cloud["record"]["new"], "futhark_new_opaque_cloud");
    let fields = cloud["record"]["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 2);
    assert_eq!(fields[0]["name"], "pts");
    assert_eq!(fields[0]["type"], "[]f32");
    assert_eq!(fields[0]["project"], "futhark_project_opaque_cloud_pts");
    let stats = &m["types"]["{mean: f64, n: i64}"];
    assert_eq!(stats["ctype"], "struct futhark_opaque_hbf4f6d15 *");
    let shape = &m["types"]["shape"]["sum"];
    assert_eq!(shape["variant"], "futhark_variant_opaque_shape");
    let variants = shape["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3);
    assert_eq!(variants[2]["name"], "poly");
    assert_eq!(variants[2]["payload"], serde_json::json!(["[]f32", "i32"]));
    assert_eq!(variants[2]["construct"], "futhark_new_opaque_shape_poly");
    assert_eq!(variants[2]["destruct"], "futhark_destruct_opaque_shape_poly");

    // Every function the manifest names, declared and exported.
    let header = std::fs::read_to_string(dir.join("prog.h")).unwrap();
    let nm = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(dir.join("prog.so"))
        .output();
    let exported: Option<Vec<String>> = nm.ok().filter(|o| o.status.success()).map(|o| {
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
            .collect()
    });
    let mut names: Vec<String> = Vec::new();
    for e in m["entry_points"].as_object().unwrap().values() {
        names.push(e["cfun"].as_str().unwrap().to_string());
    }
    for t in m["types"].as_object().unwrap().values() {
        names.extend(
            t["ops"]
                .as_object()
                .unwrap()
                .values()
                .map(|f| f.as_str().unwrap().to_string()),
        );
        if let Some(sum) = t.get("sum") {
            names.push(sum["variant"].as_str().unwrap().to_string());
            for v in sum["variants"].as_array().unwrap() {
                names.push(v["construct"].as_str().unwrap().to_string());
                names.push(v["destruct"].as_str().unwrap().to_string());
            }
        }
        if let Some(r) = t.get("record") {
            names.push(r["new"].as_str().unwrap().to_string());
            for f in r["fields"].as_array().unwrap() {
                names.push(f["project"].as_str().unwrap().to_string());
            }
        }
    }
    for name in &names {
        assert!(header.contains(&format!("{name}(")), "{name} is not declared in prog.h");
        if let Some(exported) = &exported {
            assert!(exported.contains(name), "{name} is not exported by prog.so");
        }
    }
    // Only the API is exported: not the runtime's or the program's own
    // functions.
    if let Some(exported) = &exported {
        let others: Vec<&String> = exported.iter().filter(|n| !n.starts_with("futhark_")).collect();
        assert!(others.is_empty(), "prog.so exports {others:?}");
        assert!(
            !exported.iter().any(|n| n == "futhark_weigh"),
            "the entry's own function is exported"
        );
    }
}

/// The CUDA target builds a library too (no GPU is needed to build); a
/// context made without a GPU reports why through
/// `futhark_context_get_error`, and with one the entry point runs.
#[test]
fn cuda_library() {
    let dir = test_dir("cuda");
    build_library(&dir, "cuda");
    assert!(std::fs::read_to_string(dir.join("prog.h"))
        .unwrap()
        .contains("#define FUTHARK_BACKEND_cuda\n"));
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("prog.json")).unwrap()).unwrap();
    assert_eq!(m["backend"], "cuda");
    let source = dir.join("cuda.c");
    std::fs::write(
        &source,
        r#"#include <stdio.h>
#include <stdlib.h>
#include "prog.h"
int main(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  struct futhark_context *ctx = futhark_context_new(cfg);
  char *err = futhark_context_get_error(ctx);
  if (err != NULL) {
    printf("no device: %s\n", err);
    free(err);
    /* A context that did not start refuses work with a message. */
    float x = 1;
    if (futhark_new_f32_1d(ctx, &x, 1) != NULL) return 1;
    err = futhark_context_get_error(ctx);
    if (err == NULL) return 1;
    free(err);
  } else {
    float xs[] = {1, 2};
    struct futhark_f32_1d *in = futhark_new_f32_1d(ctx, xs, 2), *out = NULL;
    if (futhark_entry_scale(ctx, &out, 3.0f, in) != 0) return 1;
    if (futhark_values_f32_1d(ctx, out, xs) != 0 || xs[1] != 6.0f) return 1;
    futhark_free_f32_1d(ctx, in);
    futhark_free_f32_1d(ctx, out);
    printf("ran\n");
  }
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  return 0;
}
"#,
    )
    .unwrap();
    let (status, stdout, stderr) = compile_and_run(&dir, &source, SHARED);
    assert_eq!(status, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout == "ran\n" || (stdout.starts_with("no device: ") && stdout.contains("CUDA")),
        "{stdout}"
    );
}

/// Names the C library cannot give are build errors that say what to do.
#[test]
fn names_it_cannot_give() {
    let dir = test_dir("names");
    std::fs::write(dir.join("bad.fut"), "entry context_new (x: i32) : i32 = x + 1\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--library", "-o", "bad", "bad.fut"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("entry point context_new is named like the C API's function futhark_context_new"),
        "{err}"
    );
}
