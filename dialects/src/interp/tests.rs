//! The ops on IR written by hand, including those the internaliser does
//! not emit (`redomap`, `scanomap`, streams), and the entry convention.

use super::run_func;
use futmlir_values::{parse_values, Value};

/// Runs function `f` of the IR `text` on the values written in `args`;
/// the results as text, one a line, or the rendered error.
fn run(text: &str, f: &str, args: &str) -> Result<String, String> {
    let mut ctx = crate::context();
    let m = ctx.parse_str("test.mlir", text).expect("the IR parses");
    let args = parse_values(args).expect("the arguments parse");
    run_func(&ctx, m, f, args)
        .map(|vs| vs.iter().map(Value::to_string).collect::<Vec<_>>().join("\n"))
        .map_err(|e| e.render())
}

const FUSED: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  %zero = "soac.constant"() {value = 0.0 : f32} : () -> f32
  %rm:2 = "soac.redomap"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }, {
  ^bb0(%x: f32):
    %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
    "soac.yield"(%y, %y) : (f32, f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> (f32, !fut.array<[%n]f32>)
  %sm:2 = "soac.scanomap"(%n, %zero, %xs) ({
  ^bb0(%a: f32, %b: f32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
    "soac.yield"(%c) : (f32) -> ()
  }, {
  ^bb0(%x: f32):
    %y = "soac.unop"(%x) {kind = "neg"} : (f32) -> f32
    "soac.yield"(%x, %y) : (f32, f32) -> ()
  }) : (i64, f32, !fut.array<[%n]f32>) -> (!fut.array<[%n]f32>, !fut.array<[%n]f32>)
  "soac.return"(%rm#0, %rm#1, %sm#0, %sm#1) : (f32, !fut.array<[%n]f32>, !fut.array<[%n]f32>, !fut.array<[%n]f32>) -> ()
}) {sym_name = "fused", function_type = (i64, !fut.array<[?]f32>) -> (f32, !fut.array<[?]f32>, !fut.array<[?]f32>, !fut.array<[?]f32>)} : () -> ()
"#;

#[test]
fn redomap_and_scanomap() {
    assert_eq!(
        run(FUSED, "fused", "[1f32, 2f32, 3f32]").unwrap(),
        "14.0f32\n[1.0f32, 4.0f32, 9.0f32]\n[1.0f32, 3.0f32, 6.0f32]\n[-1.0f32, -2.0f32, -3.0f32]"
    );
    assert_eq!(
        run(FUSED, "fused", "empty([0]f32)").unwrap(),
        "0.0f32\nempty([0]f32)\nempty([0]f32)\nempty([0]f32)"
    );
}

const STREAMS: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]i32>):
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %s:2 = "soac.stream_seq"(%n, %zero, %xs) ({
  ^bb0(%c: i64, %acc: i32, %chunk: !fut.array<[%c]i32>):
    %t = "soac.reduce"(%c, %zero, %chunk) ({
    ^bb0(%a: i32, %b: i32):
      %d = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
      "soac.yield"(%d) : (i32) -> ()
    }) : (i64, i32, !fut.array<[%c]i32>) -> i32
    %acc2 = "soac.binop"(%acc, %t) {kind = "add"} : (i32, i32) -> i32
    %r = "soac.rotate"(%chunk, %c) : (!fut.array<[%c]i32>, i64) -> !fut.array<[%c]i32>
    "soac.yield"(%acc2, %r) : (i32, !fut.array<[%c]i32>) -> ()
  }) {num_accs = 1 : i64} : (i64, i32, !fut.array<[%n]i32>) -> (i32, !fut.array<[%n]i32>)
  %p = "soac.stream_par"(%n, %zero, %xs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "max"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%c: i64, %acc: i32, %chunk: !fut.array<[%c]i32>):
    %m = "soac.reduce"(%c, %acc, %chunk) ({
    ^bb0(%a: i32, %b: i32):
      %d = "soac.binop"(%a, %b) {kind = "max"} : (i32, i32) -> i32
      "soac.yield"(%d) : (i32) -> ()
    }) : (i64, i32, !fut.array<[%c]i32>) -> i32
    "soac.yield"(%m) : (i32) -> ()
  }) {order = "disorder"} : (i64, i32, !fut.array<[%n]i32>) -> i32
  "soac.return"(%s#0, %s#1, %p) : (i32, !fut.array<[%n]i32>, i32) -> ()
}) {sym_name = "streams", function_type = (i64, !fut.array<[?]i32>) -> (i32, !fut.array<[?]i32>, i32)} : () -> ()
"#;

#[test]
fn streams_take_one_chunk() {
    assert_eq!(
        run(STREAMS, "streams", "[3, 9, 4]").unwrap(),
        "16i32\n[3i32, 9i32, 4i32]\n9i32"
    );
}

const WRITES: &str = r#"
"soac.func"() ({
^bb0(%n: i64, %k: i64, %xs: !fut.array<[%n]i64>, %vs: !fut.array<[%n]i32>, %dest: !fut.array<[%k]i32>):
  %p:4 = "soac.partition"(%n, %xs) ({
  ^bb0(%x: i64):
    "soac.yield"(%x) : (i64) -> ()
  }) {k = 3 : i64} : (i64, !fut.array<[%n]i64>) -> (i64, i64, i64, !fut.array<[%n]i64>)
  %s = "soac.scatter"(%n, %xs, %vs, %dest) ({
  ^bb0(%i: i64, %v: i32):
    "soac.yield"(%i, %v) : (i64, i32) -> ()
  }) : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i32>, !fut.array<[%k]i32>) -> !fut.array<[%k]i32>
  %zero = "soac.constant"() {value = 0 : i32} : () -> i32
  %h = "soac.hist"(%n, %k, %s, %zero, %xs, %vs) ({
  ^bb0(%a: i32, %b: i32):
    %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
    "soac.yield"(%c) : (i32) -> ()
  }, {
  ^bb0(%i: i64, %v: i32):
    "soac.yield"(%i, %v) : (i64, i32) -> ()
  }) : (i64, i64, !fut.array<[%k]i32>, i32, !fut.array<[%n]i64>, !fut.array<[%n]i32>) -> !fut.array<[%k]i32>
  "soac.return"(%p#0, %p#1, %p#2, %p#3, %s, %h) : (i64, i64, i64, !fut.array<[%n]i64>, !fut.array<[%k]i32>, !fut.array<[%k]i32>) -> ()
}) {sym_name = "writes", function_type = (i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>, !fut.array<[?]i32>) -> (i64, i64, i64, !fut.array<[?]i64>, !fut.array<[?]i32>, !fut.array<[?]i32>)} : () -> ()
"#;

#[test]
fn partition_scatter_hist() {
    // Classes outside 0..k go last, in order; out-of-range writes and
    // buckets are ignored; the last of duplicate writes wins.
    assert_eq!(
        run(
            WRITES,
            "writes",
            "[5i64, 0i64, 2i64, 1i64, 0i64, -1i64, 2i64] [1, 2, 3, 4, 5, 6, 7] [0, 0, 0]"
        )
        .unwrap(),
        "2i64\n1i64\n2i64\n[0i64, 0i64, 1i64, 2i64, 2i64, 5i64, -1i64]\n[5i32, 4i32, 7i32]\n[12i32, 8i32, 17i32]"
    );
}

const SHAPES: &str = r#"
"soac.func"() ({
^bb0(%a: i64, %b: i64, %m: !fut.array<[%a][%b]i32>, %c: !fut.array<[%a][1]i32>):
  %one = "soac.constant"() {value = 1 : i64} : () -> i64
  %m1 = "soac.constant"() {value = -1 : i64} : () -> i64
  %r = "soac.rotate"(%m, %one, %m1) : (!fut.array<[%a][%b]i32>, i64, i64) -> !fut.array<[%a][%b]i32>
  %w = "soac.binop"(%b, %one) {kind = "add"} : (i64, i64) -> i64
  %cc = "soac.concat"(%w, %m, %c) {dim = 1 : i64} : (i64, !fut.array<[%a][%b]i32>, !fut.array<[%a][1]i32>) -> !fut.array<[%a][%w]i32>
  %flat = "soac.reshape"(%m, %one, %a, %b) : (!fut.array<[%a][%b]i32>, i64, i64, i64) -> !fut.array<[1][%a][%b]i32>
  %t = "soac.rearrange"(%flat) {perm = [2, 0, 1]} : (!fut.array<[1][%a][%b]i32>) -> !fut.array<[%b][1][%a]i32>
  %four = "soac.constant"() {value = 4 : i64} : () -> i64
  %s0 = "soac.constant"() {value = 250 : ui8} : () -> ui8
  %s1 = "soac.constant"() {value = 3 : ui8} : () -> ui8
  %is = "soac.iota"(%four, %s0, %s1) : (i64, ui8, ui8) -> !fut.array<[%four]ui8>
  %str = "soac.constant"() {value = "hi"} : () -> !fut.array<[2]ui8>
  %two = "soac.constant"() {value = 2 : i64} : () -> i64
  %sl = "soac.slice"(%m, %one, %one, %one, %two, %b, %m1) : (!fut.array<[%a][%b]i32>, i64, i64, i64, i64, i64, i64) -> !fut.array<[%one][%b]i32>
  "soac.return"(%r, %cc, %t, %is, %str, %sl) : (!fut.array<[%a][%b]i32>, !fut.array<[%a][%w]i32>, !fut.array<[%b][1][%a]i32>, !fut.array<[%four]ui8>, !fut.array<[2]ui8>, !fut.array<[%one][%b]i32>) -> ()
}) {sym_name = "shapes", function_type = (i64, i64, !fut.array<[?][?]i32>, !fut.array<[?][1]i32>) -> (!fut.array<[?][?]i32>, !fut.array<[?][?]i32>, !fut.array<[?][1][?]i32>, !fut.array<[?]ui8>, !fut.array<[2]ui8>, !fut.array<[?][?]i32>)} : () -> ()
"#;

#[test]
fn shape_operations() {
    assert_eq!(
        run(SHAPES, "shapes", "[[1, 2, 3], [4, 5, 6]] [[7], [8]]").unwrap(),
        "[[6i32, 4i32, 5i32], [3i32, 1i32, 2i32]]\n\
         [[1i32, 2i32, 3i32, 7i32], [4i32, 5i32, 6i32, 8i32]]\n\
         [[[1i32, 4i32]], [[2i32, 5i32]], [[3i32, 6i32]]]\n\
         [250u8, 253u8, 0u8, 3u8]\n\
         [104u8, 105u8]\n\
         [[6i32, 5i32, 4i32]]"
    );
    // Sizes named alike must agree; so must constant sizes.
    let e = run(SHAPES, "shapes", "[[1, 2, 3], [4, 5, 6]] [[7]]").unwrap_err();
    assert!(
        e.contains("argument 2: size 1 where another argument gives the size 2"),
        "{e}"
    );
    let e = run(SHAPES, "shapes", "[[1, 2, 3], [4, 5, 6]] [[7, 8], [8, 9]]").unwrap_err();
    assert!(e.contains("size 2 where the type requires 1"), "{e}");
    let e = run(SHAPES, "shapes", "[[1, 2, 3], [4, 5, 6]] [[7], [8]] 1").unwrap_err();
    assert!(e.contains("argument 1: expected i64, got [2][3]i32"), "{e}");
}

const CONTROL: &str = r#"
"soac.func"() ({
^bb0(%x: i64):
  %r = "soac.apply"(%x) {callee = @twice} : (i64) -> i64
  %c = "soac.cmpop"(%r, %x) {kind = "gt"} : (i64, i64) -> i1
  "soac.assert"(%c) {message = "must grow"} : (i1) -> ()
  %w:2 = "soac.loop"(%c, %r) ({
  ^bb0(%go: i1, %y: i64):
    %z = "soac.apply"(%y) {callee = @twice} : (i64) -> i64
    %h = "soac.constant"() {value = 100 : i64} : () -> i64
    %more = "soac.cmpop"(%z, %h) {kind = "lt"} : (i64, i64) -> i1
    "soac.yield"(%more, %z) : (i1, i64) -> ()
  }) {form = "while"} : (i1, i64) -> (i1, i64)
  "soac.return"(%w#1) : (i64) -> ()
}) {sym_name = "grow", function_type = (i64) -> i64} : () -> ()
"soac.func"() ({
^bb0(%x: i64):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i64, i64) -> i64
  "soac.return"(%y) : (i64) -> ()
}) {sym_name = "twice", function_type = (i64) -> i64} : () -> ()
"#;

#[test]
fn calls_loops_asserts() {
    assert_eq!(run(CONTROL, "grow", "3i64").unwrap(), "192i64");
    // A failing assertion is an error at the assert, with its message.
    assert_eq!(
        run(CONTROL, "grow", "-3i64").unwrap_err(),
        "test.mlir:6:3: error: must grow"
    );
    assert!(run(CONTROL, "nope", "").unwrap_err().contains("no function `nope`"));
}

#[test]
fn malformed_ir_is_an_error() {
    // A map yielding a scalar where the lambda should take a row; an
    // unknown callee; a binop on mismatched kinds.
    let text = r#"
"soac.func"() ({
^bb0(%x: i64):
  %r = "soac.apply"(%x) {callee = @missing} : (i64) -> i64
  "soac.return"(%r) : (i64) -> ()
}) {sym_name = "f", function_type = (i64) -> i64} : () -> ()
"#;
    assert!(run(text, "f", "1i64").unwrap_err().contains("no function `missing`"));
    let text = r#"
"soac.func"() ({
^bb0(%x: f32):
  %r = "soac.binop"(%x, %x) {kind = "shl"} : (f32, f32) -> f32
  "soac.return"(%r) : (f32) -> ()
}) {sym_name = "f", function_type = (f32) -> f32} : () -> ()
"#;
    assert!(run(text, "f", "1f32")
        .unwrap_err()
        .contains("binop `shl` does not apply to f32"));
}
