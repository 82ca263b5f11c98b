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
