//! Print → parse → print is the identity, in both forms.

use futmlir_dialects::ir::{Context, PrintOptions};

const SAMPLE: &str = r#"
"builtin.module"() ({
  %0 = "test.const"() {value = 10 : i64} : () -> i64
  %1:2 = "test.pair"(%0) {flags = [1 : i32, "s", @f, unit, {a = true}], f = 1.5 : f32, nan = 0x7FC00000 : f32, u = 18446744073709551615 : ui64} : (i64) -> (!fut.array<[%0][3]f32>, ui8)
  "test.region"(%1#0) ({
  ^bb0(%2: f32, %3: i1):
    %4 = "test.use"(%2, %0) : (f32, i64) -> !fut.array<[?]tuple<i32, f16>>
    "test.yield"(%4) : (!fut.array<[?]tuple<i32, f16>>) -> ()
  }, {
  ^bb0:
  }) {ty = (i32, (i32) -> i32) -> ((f32) -> f32), o = #mem.lmad<offset = 0, dims = [(n : 1)]>} : (!fut.array<[%0][3]f32>) -> ()
  %5 = "test.mem"() : () -> !mem.block<device>
  %6 = "test.fwd"(%5) : (!mem.block<device>) -> !source.record<{x: i32, y: !source.sum<#a | #b>}>
}) : () -> ()
"#;

fn roundtrip(opts: PrintOptions) {
    let mut ctx = Context::default();
    ctx.allow_unregistered = true;
    let m = ctx
        .parse_str("sample.mlir", SAMPLE)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(&ctx)));
    let a = ctx.print_op(m, opts);
    let m2 = ctx
        .parse_str("a.mlir", &a)
        .unwrap_or_else(|d| panic!("{}\n{a}", d.to_plain(&ctx)));
    let b = ctx.print_op(m2, opts);
    assert_eq!(a, b);
    ctx.verify(m2).unwrap_or_else(|e| panic!("{}", e[0].to_plain(&ctx)));
}

#[test]
fn generic_roundtrip() {
    roundtrip(PrintOptions::generic());
}

#[test]
fn pretty_roundtrip() {
    roundtrip(PrintOptions::default());
}

#[test]
fn forward_reference_parses_but_does_not_verify() {
    let mut ctx = Context::default();
    ctx.allow_unregistered = true;
    let text = "%0 = \"t.a\"(%1) : (i32) -> i32\n%1 = \"t.b\"() : () -> i32\n";
    let m = ctx
        .parse_str("f.mlir", text)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(&ctx)));
    let errs = ctx.verify(m).unwrap_err();
    assert_eq!(
        errs[0].to_plain(&ctx),
        "f.mlir:1:1: error: 't.a' op operand #0 does not dominate this use"
    );
}

#[test]
fn undefined_value_is_an_error() {
    let mut ctx = Context::default();
    ctx.allow_unregistered = true;
    let d = ctx
        .parse_str("f.mlir", "%0 = \"t.a\"(%9) : (i32) -> i32\n")
        .unwrap_err();
    assert_eq!(d.to_plain(&ctx), "f.mlir:1:12: error: use of undefined value '%9'");
}

/// The generic form names sizes by definition number, so text whose SSA
/// values were renamed (as `mlir-opt` renames them) means the same IR
/// (Note [Sizes in types across mlir-opt]).
#[test]
fn sizes_by_definition_number_survive_renaming() {
    const PRINTED: &str = r#""builtin.module"() ({
  %0 = "t.n"() : () -> i64
  %1:2 = "t.pair"(%0) : (i64) -> (i64, !fut.array<[$0]f32>)
  "t.region"(%1#0) ({
  ^bb0(%2: i64, %3: !fut.array<[$2][$1#0]f32>):
    %4 = "t.use"(%3) : (!fut.array<[$2][$1#0]f32>) -> !fut.array<[$0][$2]i32>
  }) : (i64) -> ()
  %5 = "t.after"(%1#1) : (!fut.array<[$0]f32>) -> !fut.array<[$1#0]f32>
}) : () -> ()
"#;
    // As mlir-opt prints it: values renumbered, block arguments `%argN`,
    // `%0` now the pair and `%1` the op after the region. By name, `$0`
    // would be read as the pair's results and `$2` would be undefined.
    const RENAMED: &str = r#"module {
  %5 = "t.n"() : () -> i64
  %0:2 = "t.pair"(%5) : (i64) -> (i64, !fut.array<[$0]f32>)
  "t.region"(%0#0) ({
  ^bb0(%arg0: i64, %arg1: !fut.array<[$2][$1#0]f32>):
    %1 = "t.use"(%arg1) : (!fut.array<[$2][$1#0]f32>) -> !fut.array<[$0][$2]i32>
  }) : (i64) -> ()
  %1 = "t.after"(%0#1) : (!fut.array<[$0]f32>) -> !fut.array<[$1#0]f32>
}
"#;
    let mut ctx = Context::default();
    ctx.allow_unregistered = true;
    let m = ctx
        .parse_str("renamed.mlir", RENAMED)
        .unwrap_or_else(|d| panic!("{}", d.to_plain(&ctx)));
    ctx.verify(m).unwrap_or_else(|e| panic!("{}", e[0].to_plain(&ctx)));
    assert_eq!(ctx.print_op(m, PrintOptions::generic()), PRINTED);
    // The pretty form keeps SSA names in types.
    let pretty = ctx.print_op(m, PrintOptions::default());
    assert!(pretty.contains("^bb0(%2: i64, %3: [%2][%1#0]f32):"), "{pretty}");
}
