//! The server's array commands on arrays of records and of primitive
//! types (`server-protocol.rst`, "Array Commands"): `shape`, `rank`,
//! `elemtype`, `index`, `set`, `new_array`, `zip`, `unzip`, and
//! `attributes`, each checked through the values that entry points
//! compute from what they made.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PROGRAM: &str = "\
type point = {x: f32, y: f32}

#[prop]
entry mk (xs: []f32) (ys: []f32) : []point = map2 (\\x y -> {x, y}) xs ys

entry sumx (ps: []point) : f32 = f32.sum (map (.x) ps)

entry sumy (ps: []point) : f32 = f32.sum (map (.y) ps)

entry rows (ps: [][]point) : []f32 = map (\\r -> f32.sum (map (\\p -> p.x * p.y) r)) ps
";

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("futmlir-server-arrays-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn build(d: &Path) -> PathBuf {
    std::fs::write(d.join("arr.fut"), PROGRAM).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "-o", "arr", "arr.fut"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    d.join("arr")
}

/// The answers of a session, one entry per command: its printed lines,
/// or `FAILURE: message`. `runtime:` lines are dropped.
fn session(exe: &Path, d: &Path, commands: &[&str]) -> Vec<String> {
    let mut child = Command::new(exe)
        .arg("--server")
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(commands.join("\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut answers = Vec::new();
    let mut current = Vec::new();
    let mut failed = false;
    for line in text.lines() {
        match line {
            "%%% OK" => {
                let body = current.join("\n");
                answers.push(if failed { format!("FAILURE: {body}") } else { body });
                current.clear();
                failed = false;
            }
            "%%% FAILURE" => failed = true,
            l if l.starts_with("runtime: ") => {}
            l => current.push(l.to_string()),
        }
    }
    // The first `%%% OK` is the server's greeting.
    assert_eq!(answers.first().map(String::as_str), Some(""), "{text}");
    answers.remove(0);
    assert_eq!(answers.len(), commands.len(), "{text}");
    answers
}

/// A scalar written by `store` in the binary format, read back.
fn stored_f32(d: &Path, file: &str) -> f32 {
    let b = std::fs::read(d.join(file)).unwrap();
    // `b`, version, rank 0, ` f32`, then the value.
    assert_eq!(&b[..7], b"b\x02\x00 f32", "{b:?}");
    f32::from_le_bytes(b[7..11].try_into().unwrap())
}

#[test]
fn arrays_of_records() {
    let d = dir("records");
    let exe = build(&d);
    std::fs::write(d.join("xs.in"), "[1f32, 2f32, 3f32]").unwrap();
    std::fs::write(d.join("ys.in"), "[10f32, 20f32, 30f32]").unwrap();
    let commands = [
        "restore xs.in xs []f32",
        "restore ys.in ys []f32",
        "call mk ps xs ys",
        "attributes mk",
        "attributes sumx",
        "shape ps",
        "rank []point",
        "elemtype []point",
        "rank [][]point",
        "index p ps 1",
        "type p",
        "project px p x",
        "store px.out px",
        // unzip, then zip with the fields swapped: x is now ys.
        "unzip ps a b",
        "type a",
        "zip swapped []point b a",
        "call sumx s1 swapped",
        "store s1.out s1",
        // set element 0 to element 1: x sums to 2 + 2 + 3.
        "set ps p 0",
        "call sumx s2 ps",
        "store s2.out s2",
        "new_array two []point 2 p p",
        "call sumy s3 two",
        "store s3.out s3",
        "new_array grid [][]point 1 2 p p",
        "call rows r grid",
        "index r0 r 0",
        "store r0.out r0",
        "new_array none []point 0",
        "shape none",
        // Errors leave the server running.
        "index q ps 3",
        "set ps a 0",
        "new_array bad []point 2 p",
        "zip z []point a",
        "zip z []f32 a",
        "new_array fs []f32 2 px px",
        "shape fs",
        "index f fs 1",
        "store f.out f",
    ];
    let answers = session(&exe, &d, &commands);
    let answer = |c: &str| answers[commands.iter().position(|x| *x == c).unwrap()].as_str();
    assert_eq!(answer("attributes mk"), "prop");
    assert_eq!(answer("attributes sumx"), "");
    assert_eq!(answer("shape ps"), "3");
    assert_eq!(answer("rank []point"), "1");
    assert_eq!(answer("elemtype []point"), "point");
    assert_eq!(answer("rank [][]point"), "2");
    assert_eq!(answer("type p"), "point");
    assert_eq!(answer("type a"), "[]f32");
    assert_eq!(answer("shape none"), "0");
    assert_eq!(answer("shape fs"), "2");
    assert_eq!(
        answer("index q ps 3"),
        "FAILURE: Index [3] out of bounds for array of shape [3]."
    );
    assert!(
        answer("set ps a 0").starts_with("FAILURE: the elements of ps have type point"),
        "{answers:?}"
    );
    assert!(
        answer("new_array bad []point 2 p")
            .starts_with("FAILURE: an array of shape [2] has 2 element(s), but 1 were given"),
        "{answers:?}"
    );
    assert!(
        answer("zip z []point a").starts_with("FAILURE: the records of []point have 2 field(s)"),
        "{answers:?}"
    );
    assert_eq!(answer("zip z []f32 a"), "FAILURE: Not an array of records: []f32");
    assert_eq!(stored_f32(&d, "px.out"), 2.0);
    assert_eq!(stored_f32(&d, "s1.out"), 60.0);
    assert_eq!(stored_f32(&d, "s2.out"), 7.0);
    assert_eq!(stored_f32(&d, "s3.out"), 40.0);
    // One row of two points (2, 20): 2 * 20 twice.
    assert_eq!(stored_f32(&d, "r0.out"), 80.0);
    assert_eq!(stored_f32(&d, "f.out"), 2.0);
    let _ = std::fs::remove_dir_all(&d);
}
