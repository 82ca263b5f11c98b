//! The op definitions of the `source` dialect.

use super::verify as v;
use crate::ir::{OpDef, Traits};
use crate::soac::verify as core;

const PURE: Traits = Traits::PURE;
const NONE: Traits = Traits::NONE;

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: "source.func",
            summary: "A function as written, possibly higher-order.",
            description: r#"Attributes `sym_name` (string) and `function_type`; one region whose
entry block takes the inputs and ends in `source.return`. Optional: the
unit attribute `entry` (an entry point) and `type_params`, the names of
the type parameters of a polymorphic function, which its types spell
`!source.tyvar<"a">`; a `source.apply` of it may instantiate them.

```mlir
"source.func"() ({
^bb0(%p: tuple<i32, f32>):
  "source.return"(%p) : (tuple<i32, f32>) -> ()
}) {sym_name = "id", function_type = (tuple<i32, f32>) -> tuple<i32, f32>} : () -> ()
"source.func"() ({
^bb0(%x: !source.tyvar<"a">):
  "source.return"(%x) : (!source.tyvar<"a">) -> ()
}) {sym_name = "poly_id", function_type = (!source.tyvar<"a">) -> !source.tyvar<"a">, type_params = ["a"]} : () -> ()
```"#,
            traits: Traits::ISOLATED_FROM_ABOVE,
            verify: v::func,
        },
        OpDef {
            name: "source.return",
            summary: "Returns from the enclosing function.",
            description: r#"```mlir
"source.return"(%x) : (i32) -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: core::return_,
        },
        OpDef {
            name: "source.yield",
            summary: "Ends a lambda, branch, case or loop body.",
            description: r#"```mlir
"source.yield"(%x) : (i32) -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: core::yield_,
        },
        OpDef {
            name: "source.constant",
            summary: "A literal.",
            description: r#"Attribute `value`, of the result type.

```mlir
%c = "source.constant"() {value = 2 : i32} : () -> i32
```"#,
            traits: PURE,
            verify: core::constant,
        },
        OpDef {
            name: "source.binop",
            summary: "A binary operator on scalars.",
            description: r#"Attribute `kind` as for `soac.binop`.

```mlir
%z = "source.binop"(%x, %y) {kind = "mul"} : (f32, f32) -> f32
```"#,
            traits: PURE,
            verify: core::binop,
        },
        OpDef {
            name: "source.unop",
            summary: "A unary operator or math function on a scalar.",
            description: r#"Attribute `kind` as for `soac.unop`.

```mlir
%y = "source.unop"(%x) {kind = "neg"} : (i32) -> i32
```"#,
            traits: PURE,
            verify: core::unop,
        },
        OpDef {
            name: "source.cmpop",
            summary: "A comparison of scalars.",
            description: r#"Attribute `kind` as for `soac.cmpop`.

```mlir
%b = "source.cmpop"(%x, %y) {kind = "le"} : (i32, i32) -> i1
```"#,
            traits: PURE,
            verify: core::cmpop,
        },
        OpDef {
            name: "source.if",
            summary: "`if c then a else b`.",
            description: r#"```mlir
%r = "source.if"(%c) ({
  "source.yield"(%x) : (i32) -> ()
}, {
  "source.yield"(%y) : (i32) -> ()
}) : (i1) -> i32
```"#,
            traits: NONE,
            verify: core::if_,
        },
        OpDef {
            name: "source.constr",
            summary: "A value of a sum type: a constructor applied to its payload (`#some x`).",
            description: r##"Attribute `constructor`: the constructor's name without `#`. The
operands are the payload; the result is a `!source.sum` whose text names
the constructor.

```mlir
%s = "source.constr"(%x) {constructor = "some"} : (i32) -> !source.sum<"#none | #some i32">
```"##,
            traits: PURE,
            verify: v::constr,
        },
        OpDef {
            name: "source.match",
            summary: "Pattern matching on a sum type or other value.",
            description: r##"Attribute `patterns`: one pattern (a string) per region, tried in
order. Each region's block arguments are the values its pattern binds,
and it yields the result types.

```mlir
%r = "source.match"(%s) ({
^bb0(%x: i32):
  "source.yield"(%x) : (i32) -> ()
}, {
  "source.yield"(%zero) : (i32) -> ()
}) {patterns = ["#some x", "#none"]} : (!source.sum<"#some i32 | #none">) -> i32
```"##,
            traits: NONE,
            verify: v::match_,
        },
        OpDef {
            name: "source.loop",
            summary: "Futhark's `loop`, in for, for-in or while form.",
            description: r#"Attribute `form`: `"for"` (operands `(n, inits...)`, block arguments
`(i, merge...)`), `"for_in"` (operands `(xs, inits...)`, block arguments
`(x, merge...)` with `x` a row of `xs`), or `"while"` (the first merge
value is the i1 condition). The body yields the next merge values.

```mlir
%r = "source.loop"(%xs, %zero) ({
^bb0(%x: i32, %acc: i32):
  %a = "source.binop"(%acc, %x) {kind = "add"} : (i32, i32) -> i32
  "source.yield"(%a) : (i32) -> ()
}) {form = "for_in"} : (!fut.array<[%n]i32>, i32) -> i32
```"#,
            traits: NONE,
            verify: v::loop_,
        },
        OpDef {
            name: "source.apply",
            summary: "Applies a named function or a function value.",
            description: r#"With attribute `callee`, calls that function on all operands;
without, operand #0 is a function value applied to the rest. A callee
with `type_params` is called at an instance of its type: each type
variable stands for one type throughout the call. A callee that is not
in the module (a function of the prelude, a built-in such as
`@"f32.atan2"`) is not checked.

```mlir
%y = "source.apply"(%f, %x) : ((i32) -> i32, i32) -> i32
%z = "source.apply"(%x) {callee = @poly_id} : (i32) -> i32
```"#,
            traits: NONE,
            verify: v::apply,
        },
        OpDef {
            name: "source.lambda",
            summary: "An anonymous function; may use values from outside.",
            description: r#"The result is the function value; the region takes its inputs and
yields its results.

```mlir
%f = "source.lambda"() ({
^bb0(%x: i32):
  %y = "source.binop"(%x, %k) {kind = "add"} : (i32, i32) -> i32
  "source.yield"(%y) : (i32) -> ()
}) : () -> ((i32) -> i32)
```"#,
            traits: PURE,
            verify: v::lambda,
        },
        OpDef {
            name: "source.tuple",
            summary: "Builds a tuple.",
            description: r#"```mlir
%t = "source.tuple"(%x, %y) : (i32, f32) -> tuple<i32, f32>
```"#,
            traits: PURE,
            verify: v::tuple,
        },
        OpDef {
            name: "source.tuple_get",
            summary: "Projects a tuple component (`t.0`).",
            description: r#"Attribute `index`.

```mlir
%x = "source.tuple_get"(%t) {index = 0 : i64} : (tuple<i32, f32>) -> i32
```"#,
            traits: PURE,
            verify: v::tuple_get,
        },
        OpDef {
            name: "source.record",
            summary: "Builds a record.",
            description: r#"Attribute `fields`: the field names, in operand order.

```mlir
%r = "source.record"(%x, %y) {fields = ["x", "y"]} : (i32, f32) -> !source.record<{x: i32, y: f32}>
```"#,
            traits: PURE,
            verify: v::record,
        },
        OpDef {
            name: "source.record_get",
            summary: "Projects a record field (`r.x`).",
            description: r#"Attribute `field`.

```mlir
%x = "source.record_get"(%r) {field = "x"} : (!source.record<{x: i32, y: f32}>) -> i32
```"#,
            traits: PURE,
            verify: v::record_get,
        },
        OpDef {
            name: "source.record_update",
            summary: "A record with one field replaced (`r with x = v`).",
            description: r#"Attribute `field`.

```mlir
%s = "source.record_update"(%r, %v) {field = "x"} : (!source.record<{x: i32, y: f32}>, i32) -> !source.record<{x: i32, y: f32}>
```"#,
            traits: PURE,
            verify: v::record_update,
        },
        OpDef {
            name: "source.array_lit",
            summary: "An array literal `[a, b, c]`.",
            description: r#"```mlir
%xs = "source.array_lit"(%a, %b) : (i32, i32) -> !fut.array<[2]i32>
```"#,
            traits: PURE,
            verify: v::array_lit,
        },
        OpDef {
            name: "source.index",
            summary: "Indexes an array (`xs[i]`).",
            description: r#"```mlir
%x = "source.index"(%xs, %i) : (!fut.array<[%n]i32>, i64) -> i32
```"#,
            traits: PURE,
            verify: core::index,
        },
        OpDef {
            name: "source.slice",
            summary: "Slices an array (`xs[a:b:s]`).",
            description: r#"Operands `(xs, (offset, length, stride)...)`, as for `soac.slice`.

```mlir
%s = "source.slice"(%xs, %o, %l, %st) : (!fut.array<[%n]i32>, i64, i64, i64) -> !fut.array<[%l]i32>
```"#,
            traits: PURE,
            verify: core::slice,
        },
        OpDef {
            name: "source.update",
            summary: "In-place update `xs with [i] = x`.",
            description: r#"```mlir
%ys = "source.update"(%xs, %i, %x) : (!fut.array<[%n]i32>, i64, i32) -> !fut.array<[%n]i32>
```"#,
            traits: NONE,
            verify: core::update,
        },
        OpDef {
            name: "source.soac_call",
            summary: "A call of a SOAC from the prelude with function arguments.",
            description: r#"Attribute `soac`: map, reduce, reduce_comm, scan, filter, partition,
scatter, hist, reduce_by_index, stream_seq, stream_par. Function
arguments are function-typed operands (often `source.lambda` results);
every SOAC but `scatter` (`(dest, is, vs)`) takes at least one.
`map` is checked against its function's type; `reduce` and `scan` take
`(op, ne, xs)`.

```mlir
%ys = "source.soac_call"(%f, %xs) {soac = "map"} : ((i32) -> f32, !fut.array<[%n]i32>) -> !fut.array<[%n]f32>
```"#,
            traits: NONE,
            verify: v::soac_call,
        },
        OpDef {
            name: "source.size",
            summary: "The size of one dimension of an array.",
            description: r#"Attribute `dim` (default 0), as for `soac.size`. Binds the size
parameters of a local function from its arguments, and the size
arguments of a call where the argument's type leaves them unknown.

```mlir
%n = "source.size"(%xs) {dim = 0 : i64} : (!fut.array<[?]i32>) -> i64
```"#,
            traits: PURE,
            verify: core::size,
        },
        OpDef {
            name: "source.coerce",
            summary: "A size coercion `e :> t`.",
            description: r#"The operand with the sizes of the result type, which differs from the
operand's type in sizes only; a size that disagrees fails at run time.

```mlir
%ys = "source.coerce"(%xs) : (!fut.array<[?]i32>) -> !fut.array<[%n]i32>
```"#,
            traits: PURE,
            verify: v::coerce,
        },
        OpDef {
            name: "source.range",
            summary: "A range `a..b`, `a..<b`, `a..>b`, or with a second element `a..s..b`.",
            description: r#"Operands `(start, end)` or `(start, second, end)` of one integer
type, where `second - start` is the stride; attribute `kind`:
`"inclusive"` (`..`), `"up_to_exclusive"` (`..<`) or `"down_to_exclusive"`
(`..>`). The result is a one-dimensional array of the operand type; an
invalid range fails at run time.

```mlir
%r = "source.range"(%a, %b) {kind = "up_to_exclusive"} : (i64, i64) -> !fut.array<[?]i64>
```"#,
            traits: PURE,
            verify: v::range,
        },
        OpDef {
            name: "source.hole",
            summary: "`???`: a typed hole, a run-time error when evaluated.",
            description: r#"Its result has whatever type the context wanted; evaluating it stops
the program with the message.

```mlir
%x = "source.hole"() {message = "a typed hole (`???`) was evaluated"} : () -> i32
```"#,
            traits: NONE,
            verify: v::hole,
        },
        OpDef {
            name: "source.assert",
            summary: "`assert c e`: fails the program with a message unless `c` holds.",
            description: r#"The value of `e` is computed by the ops after it.

```mlir
"source.assert"(%ok) {message = "Assertion is false: x > 0"} : (i1) -> ()
```"#,
            traits: NONE,
            verify: core::assert,
        },
    ]
}
