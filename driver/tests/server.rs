//! `prog --server` end to end: an executable built from
//! `tests/server/prog.fut` driven through stdin and stdout with a scripted
//! session, and by Futhark's own Python client (`tests/server/client_test.py`,
//! in a virtual environment under `target/` with `futhark-server` installed
//! by pip; skipped with a notice where Python, venv or pip are missing).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("driver/ is in the repository")
}

/// A fresh directory for one test.
fn test_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("futmlir-server-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tests/server/prog.fut` copied into `dir` (so that messages name it
/// `prog.fut`) and built there for the CPU.
fn build_prog(dir: &Path) -> PathBuf {
    let exe = dir.join("prog");
    std::fs::copy(repo().join("tests/server/prog.fut"), dir.join("prog.fut")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--target=cpu", "-o", "prog", "prog.fut"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    exe
}

/// Runs `exe --server` on the commands `script` (all sent at once, then
/// stdin closed): the exit status and stdout.
fn serve(exe: &Path, dir: &Path, script: &str) -> (Option<i32>, String) {
    let mut child = Command::new(exe)
        .arg("--server")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `runtime: N` lines hold times, which vary: `runtime: T`.
fn without_times(transcript: &str) -> String {
    transcript
        .lines()
        .map(|l| match l.strip_prefix("runtime: ") {
            Some(t) if t.parse::<u64>().is_ok() => "runtime: T".to_string(),
            _ => l.to_string(),
        })
        .map(|l| l + "\n")
        .collect()
}

/// Futhark's binary format of a 1-d `i64` array (`b`, version 2, rank 1,
/// ` i64`, the dimension, the elements; little-endian).
fn binary_i64s(xs: &[i64]) -> Vec<u8> {
    let mut b = b"b\x02\x01 i64".to_vec();
    b.extend_from_slice(&(xs.len() as u64).to_le_bytes());
    for x in xs {
        b.extend_from_slice(&x.to_le_bytes());
    }
    b
}

/// A whole session: every command the server has, answers checked
/// line by line, including failures that leave the server running.
#[test]
fn scripted_session() {
    let dir = test_dir("session");
    let exe = build_prog(&dir);
    std::fs::write(dir.join("is.bin"), binary_i64s(&[10, 20, 30])).unwrap();
    std::fs::write(dir.join("k.txt"), "2i64 [[1, 2], [3, 4], [5, 6]]").unwrap();
    std::fs::write(dir.join("bad.txt"), "[1, 2").unwrap();
    let script = "\
entry_points
inputs row_sums
outputs row_sums
output negate
restore is.bin is []i64
restore k.txt i i64 xss [][]i32
type xss
shape xss
call pick p is i
call row_sums sums n xss
store out.bin p sums n
call pick p2 is p
call pick p is i
call pick q is xss
free p
rename is \"renamed is\"
call pick p \"renamed is\" i
free is
restore bad.txt b []i32
restore k.txt a i32 b [][]i32
restore k.txt c i64
types
kind [][]i32
kind f16
kind \"{x: i32}\"
rank [][]i32
elemtype [][]i32
set_tuning_param reduce_groups 8
set_tuning_param reduce_groups -1
set_tuning_param nope 1
tuning_params pick
tuning_param_class segred_group_min
pause_profiling
unpause_profiling
clear
report
new r {a:i32} i
fields {a:i32}
call nope x
call wrap o i
zip z rec i
frobnicate
store \"no such dir/x\" p

free p sums n i xss \"renamed is\"
type p
";
    let (code, out) = serve(&exe, &dir, script);
    assert_eq!(code, Some(0), "{out}");
    let expected = "\
%%% OK
scale
total
pick
row_sums
negate
wrap
unwrap
pack
unpack
nest
outer
%%% OK
[][]i32
%%% OK
*[]i32
i64
%%% OK
bool
*[]u8
%%% OK
%%% OK
%%% OK
[][]i32
%%% OK
3
2
%%% OK
runtime: T
%%% OK
runtime: T
%%% OK
%%% OK
%%% FAILURE
Index [30] out of bounds for array of shape [3]. (prog.fut:10:40)
%%% OK
%%% FAILURE
Variable already exists: p
%%% OK
%%% FAILURE
entry point pick: input 2 has type i64, but variable xss has type [][]i32
%%% OK
%%% OK
%%% OK
runtime: T
%%% OK
%%% FAILURE
Unknown variable: is
%%% OK
%%% FAILURE
bad.txt: value 1 is malformed: line 1, column 6: expected `,` or `]`, found end of input
%%% OK
%%% FAILURE
variable a has type i32, but the value in k.txt has type i64
%%% OK
%%% FAILURE
k.txt holds 2 value(s), but 1 variable(s) were named
%%% OK
[]f32
[]i64
[][]i32
[]i32
[]u8
opt
rec
(i32, bool)
{inner: {a: []i32, b: f32}, t: (i32, bool)}
{a: []i32, b: f32}
%%% OK
array
%%% OK
primitive
%%% OK
%%% FAILURE
Unknown type: {x: i32}
%%% OK
2
%%% OK
i32
%%% OK
%%% OK
%%% FAILURE
parameter reduce_groups needs a positive integer, not `-1`
%%% OK
%%% FAILURE
unknown parameter `nope` (the parameters are: reduce_groups, segred_group_min, tile_min_blocks)
%%% OK
reduce_groups grid_size
segred_group_min threshold
tile_min_blocks threshold
%%% OK
threshold
%%% OK
%%% OK
%%% OK
%%% OK
";
    let got = without_times(&out);
    assert!(got.starts_with(expected), "transcript:\n{got}");
    let rest: Vec<&str> = got[expected.len()..].lines().collect();
    // `report`: a JSON object with the peak memory.
    assert!(rest[0].starts_with("{\"memory\":{\"default\":"), "{}", rest[0]);
    let failures = [
        "Unknown type: {a:i32}",
        "Unknown type: {a:i32}",
        "Unknown entry point: nope",
        "entry point wrap: input 1 has type i32, but variable i has type i64",
        "Not an array type: rec",
        "Unknown command: frobnicate",
    ];
    let mut expected_rest = vec!["%%% OK"];
    for f in failures {
        expected_rest.extend(["%%% FAILURE", f, "%%% OK"]);
    }
    assert_eq!(
        rest[1..1 + expected_rest.len()],
        expected_rest[..],
        "transcript:\n{got}"
    );
    let tail = &rest[1 + expected_rest.len()..];
    // `store` into a missing directory fails; the empty line is a command
    // that does nothing; `free` frees all six; `type p` finds none.
    assert_eq!(tail[0], "%%% FAILURE");
    assert!(tail[1].starts_with("Failed to write no such dir/x: "), "{}", tail[1]);
    assert_eq!(
        tail[2..],
        [
            "%%% OK",
            "%%% OK",
            "%%% OK",
            "%%% FAILURE",
            "Unknown variable: p",
            "%%% OK"
        ]
    );

    // `store out.bin p sums n`: 30i64, [3i32, 7i32, 11i32], 3i64 in the
    // binary format.
    let mut want = b"b\x02\x00 i64".to_vec();
    want.extend_from_slice(&30i64.to_le_bytes());
    want.extend_from_slice(b"b\x02\x01 i32");
    want.extend_from_slice(&3u64.to_le_bytes());
    for x in [3i32, 7, 11] {
        want.extend_from_slice(&x.to_le_bytes());
    }
    want.extend_from_slice(b"b\x02\x00 i64");
    want.extend_from_slice(&3i64.to_le_bytes());
    assert_eq!(std::fs::read(dir.join("out.bin")).unwrap(), want);
}

/// Opaque values: records built by entry points and by `new`, taken
/// apart by `project` and by entry points, nested records and tuples, a
/// sum type passed between entry points and built and taken apart by
/// `construct` and `destruct`, `store`/`restore` of a record,
/// and the failures (a wrong field, a wrong type) that leave the server
/// running. Every answer is checked.
#[test]
fn opaque_session() {
    let dir = test_dir("opaque");
    let exe = build_prog(&dir);
    std::fs::write(dir.join("in.txt"), "[1, 2, 3] 2.5f32 7i32 true").unwrap();
    let script = "\
restore in.txt xs []i32 s f32 k i32 t bool
inputs unpack
outputs pack
inputs nest
outputs nest
kind rec
kind opt
kind \"(i32, bool)\"
fields rec
fields \"{inner: {a: []i32, b: f32}, t: (i32, bool)}\"
fields \"(i32, bool)\"
fields opt
fields []i32
call pack r xs s
type r
call unpack ys y r
store out1.bin ys y
project a r a
project b r b
project c r c
store out2.bin a b
new kt \"(i32, bool)\" k t
new bad \"(i32, bool)\" t k
new short rec a
new r2 rec a b
call nest n r2 kt
type n
project inner n inner
type inner
project t2 n t
call unpack z z2 inner
call outer o1 o2 n
store out3.bin o1 o2
call outer o3 o4 r
store rec.bin r
restore rec.bin r3 rec
call unpack w w2 r3
store out4.bin w w2
restore in.txt bad1 rec bad2 bool
call wrap sum k
type sum
call unwrap u sum
store out5.bin u
project x sum a
variants opt
variant sum
destruct sum d
construct none opt none
variant none
call unwrap u2 none
construct bad2 opt some t
construct bad3 opt maybe k
destruct none e
variants rec
store out6.bin d u2
shape r
free r r2 n inner t2 sum kt none
type r
";
    let (code, out) = serve(&exe, &dir, script);
    assert_eq!(code, Some(0), "{out}");
    let expected = "\
%%% OK
%%% OK
rec
%%% OK
*rec
%%% OK
rec
(i32, bool)
%%% OK
*{inner: {a: []i32, b: f32}, t: (i32, bool)}
%%% OK
record
%%% OK
sum
%%% OK
record
%%% OK
a []i32
b f32
%%% OK
inner {a: []i32, b: f32}
t (i32, bool)
%%% OK
0 i32
1 bool
%%% OK
%%% FAILURE
Not a record type: opt
%%% OK
%%% FAILURE
Not a record type: []i32
%%% OK
runtime: T
%%% OK
rec
%%% OK
runtime: T
%%% OK
%%% OK
%%% OK
%%% OK
%%% FAILURE
type rec has no field c
%%% OK
%%% OK
%%% OK
%%% FAILURE
field 0 of (i32, bool) has type i32, but variable t has type bool
%%% OK
%%% FAILURE
type rec has 2 field(s), but 1 variable(s) were given
%%% OK
%%% OK
runtime: T
%%% OK
{inner: {a: []i32, b: f32}, t: (i32, bool)}
%%% OK
%%% OK
{a: []i32, b: f32}
%%% OK
%%% OK
%%% FAILURE
entry point unpack: input 1 has type rec, but variable inner has type {a: []i32, b: f32}
%%% OK
runtime: T
%%% OK
%%% OK
%%% FAILURE
entry point outer: input 1 has type {inner: {a: []i32, b: f32}, t: (i32, bool)}, but variable r has type rec
%%% OK
%%% OK
%%% OK
runtime: T
%%% OK
%%% OK
%%% FAILURE
in.txt holds 4 value(s), but the 2 variable(s) named take 3 (a value of an opaque type is one value per component)
%%% OK
runtime: T
%%% OK
opt
%%% OK
runtime: T
%%% OK
%%% OK
%%% FAILURE
Not a record type: opt
%%% OK
none
some
- i32
%%% OK
some
%%% OK
%%% OK
%%% OK
none
%%% OK
runtime: T
%%% OK
%%% FAILURE
payload 1 of variant some has type i32, but variable t has type bool
%%% OK
%%% FAILURE
type opt has no variant maybe
%%% OK
%%% FAILURE
variable none holds variant none with 0 payload value(s), but 1 variable(s) were given
%%% OK
%%% FAILURE
Not a sum type: rec
%%% OK
%%% OK
%%% FAILURE
Not an array type: rec
%%% OK
%%% OK
%%% FAILURE
Unknown variable: r
%%% OK
";
    assert_eq!(without_times(&out), expected);
    let values = |file: &str| std::fs::read(dir.join(file)).unwrap();
    // unpack (pack [1, 2, 3] 2.5) = ([2, 3, 4], 5.0)
    assert_eq!(values("out1.bin"), [binary_i32s(&[2, 3, 4]), binary_f32(5.0)].concat());
    // The fields of `r`, projected.
    assert_eq!(values("out2.bin"), [binary_i32s(&[1, 2, 3]), binary_f32(2.5)].concat());
    // outer {inner = {a = [1, 2, 3], b = 2.5}, t = (7, true)} = (6 + 7, 2.5)
    assert_eq!(values("out3.bin"), [binary_i32(13), binary_f32(2.5)].concat());
    // A stored record is its components; restored, it is `r` again.
    assert_eq!(values("rec.bin"), [binary_i32s(&[1, 2, 3]), binary_f32(2.5)].concat());
    assert_eq!(values("out4.bin"), [binary_i32s(&[2, 3, 4]), binary_f32(5.0)].concat());
    // unwrap (wrap 7) = 7
    assert_eq!(values("out5.bin"), binary_i32(7));
    // `destruct` of `wrap 7` gives 7; `unwrap` of a `#none` that
    // `construct` made gives -1.
    assert_eq!(values("out6.bin"), [binary_i32(7), binary_i32(-1)].concat());
}

/// Futhark's binary format of an `i32` scalar.
fn binary_i32(x: i32) -> Vec<u8> {
    [b"b\x02\x00 i32".to_vec(), x.to_le_bytes().to_vec()].concat()
}

/// Futhark's binary format of an `f32` scalar.
fn binary_f32(x: f32) -> Vec<u8> {
    [b"b\x02\x00 f32".to_vec(), x.to_le_bytes().to_vec()].concat()
}

/// Futhark's binary format of a 1-d `i32` array.
fn binary_i32s(xs: &[i32]) -> Vec<u8> {
    let mut b = b"b\x02\x01 i32".to_vec();
    b.extend_from_slice(&(xs.len() as u64).to_le_bytes());
    for x in xs {
        b.extend_from_slice(&x.to_le_bytes());
    }
    b
}

/// An entry point of opaque types that the compiled backends cannot
/// translate (an array of `()` has no components to give its size) does
/// not stop the program from building: it is listed, and calling it is
/// refused, saying why, by the executable and by the server, while the
/// other entry points run (Note [Uncallable entry points]).
#[test]
fn uncallable_entry_point() {
    let dir = test_dir("uncallable");
    std::fs::write(
        dir.join("u.fut"),
        "type t = ()\nentry units (x: []t): i32 = 0\nentry inc (x: i32): i32 = x + 1\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_futmlir"))
        .args(["build", "--target=cpu", "-o", "u", "u.fut"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let why =
        "the compiled backends do not support an entry point whose size parameter 1 no argument's shape gives yet";
    let run = Command::new(dir.join("u"))
        .args(["-e", "units"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        format!("Error: entry point units cannot be called: {why}\n")
    );
    std::fs::write(dir.join("x.txt"), "4i32").unwrap();
    let (code, out) = serve(
        &dir.join("u"),
        &dir,
        "entry_points\ninputs units\ncall units o x\nrestore x.txt x i32\ncall inc y x\nstore y.bin y\n",
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        without_times(&out),
        format!(
            "%%% OK\nunits\ninc\n%%% OK\n[]t\n%%% OK\n%%% FAILURE\nentry point units cannot be called: {why}\n%%% OK\n%%% OK\nruntime: T\n%%% OK\n%%% OK\n"
        )
    );
    assert_eq!(std::fs::read(dir.join("y.bin")).unwrap(), binary_i32(5));
}

/// The server starts with `%%% OK`, ends at the end of stdin with status
/// 0, and takes `--param`.
#[test]
fn starts_and_ends() {
    let dir = test_dir("start");
    let exe = build_prog(&dir);
    let (code, out) = serve(&exe, &dir, "");
    assert_eq!((code, out.as_str()), (Some(0), "%%% OK\n"));
    let out = Command::new(&exe)
        .args(["--server", "--param", "bogus=1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown parameter `bogus`"));
    assert!(out.stdout.is_empty());
}

/// The virtual environment `target/pyenv` with `futhark-server` installed,
/// made on first use; `None`, with the reason, where it cannot be had.
fn python_with_client() -> Result<PathBuf, String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is target/tmp");
    let venv = target.join("pyenv");
    let python = venv.join("bin/python");
    let has_client = |p: &Path| {
        Command::new(p)
            .args(["-c", "import futhark_server"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if has_client(&python) {
        return Ok(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .map_err(|e| format!("no python3 ({e})"))?;
    if !made.status.success() {
        return Err(format!(
            "python3 -m venv failed: {}",
            String::from_utf8_lossy(&made.stderr).trim()
        ));
    }
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "-q", "futhark-server"])
        .output()
        .map_err(|e| format!("no pip in the virtual environment ({e})"))?;
    if !pip.status.success() || !has_client(&python) {
        return Err(format!(
            "pip install futhark-server failed: {}",
            String::from_utf8_lossy(&pip.stderr).trim()
        ));
    }
    Ok(python)
}

/// Futhark's Python client drives the server end to end.
#[test]
fn futhark_server_python_client() {
    let python = match python_with_client() {
        Ok(p) => p,
        Err(why) => {
            eprintln!("futhark_server_python_client: skipped: {why}");
            return;
        }
    };
    let dir = test_dir("python");
    let exe = build_prog(&dir);
    let out = Command::new(python)
        .arg(repo().join("tests/server/client_test.py"))
        .arg(&exe)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("futhark_server client test passed"), "{stdout}");
}
