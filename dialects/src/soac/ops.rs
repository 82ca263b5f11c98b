//! The op definitions of the `soac` dialect.

use super::verify as v;
use crate::ir::{OpDef, Traits};

const PURE: Traits = Traits::PURE;
const NONE: Traits = Traits::NONE;

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: "soac.func",
            summary: "A first-order, monomorphic function.",
            description: r#"Attributes `sym_name` (string) and `function_type`; one region whose
entry block takes the inputs and ends in `soac.return` of the results.
Sizes in `function_type` are constants or `?` (attributes cannot name SSA
values); the entry block may refine them with size parameters.

```mlir
"soac.func"() ({
^bb0(%n: i64, %xs: !fut.array<[%n]f32>):
  "soac.return"(%xs) : (!fut.array<[%n]f32>) -> ()
}) {sym_name = "id", function_type = (i64, !fut.array<[?]f32>) -> !fut.array<[?]f32>} : () -> ()
```"#,
            traits: Traits::ISOLATED_FROM_ABOVE,
            verify: v::func,
        },
        OpDef {
            name: "soac.return",
            summary: "Returns from the enclosing function.",
            description: r#"The enclosing function checks the values against its result types.

```mlir
"soac.return"(%x) : (f32) -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: v::return_,
        },
        OpDef {
            name: "soac.yield",
            summary: "Ends a lambda or branch, yielding its values.",
            description: r#"The enclosing structured op (map, if, loop, ...) checks the types.

```mlir
"soac.yield"(%y) : (f32) -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: v::yield_,
        },
        OpDef {
            name: "soac.apply",
            summary: "Calls a function by name.",
            description: r#"Attribute `callee` (a symbol); operands and results must match the
callee's `function_type` when it is in the enclosing module.

```mlir
%r = "soac.apply"(%n, %xs) {callee = @id} : (i64, !fut.array<[%n]f32>) -> !fut.array<[?]f32>
```"#,
            traits: NONE,
            verify: v::apply,
        },
        OpDef {
            name: "soac.constant",
            summary: "A scalar constant.",
            description: r#"Attribute `value`, of the result type.

```mlir
%c = "soac.constant"() {value = 1.5 : f32} : () -> f32
```"#,
            traits: PURE,
            verify: v::constant,
        },
        OpDef {
            name: "soac.binop",
            summary: "A binary scalar operation; also used by segop, mem and imp.",
            description: r#"Attribute `kind`: add, sub, mul, div, mod, rem, pow, min, max, and, or,
xor, shl, shr, ushr, mul_hi (integers: the high half of the double-width
product, Futhark's `mul_hi`), and the float functions atan2, hypot,
copysign. Operands and result share one scalar type; the signedness of the
type selects signed or unsigned semantics. On integers, div and mod round
towards negative infinity (Futhark's `/` and `%`), rem towards zero
(`%%`).

```mlir
%z = "soac.binop"(%x, %y) {kind = "add"} : (i32, i32) -> i32
```"#,
            traits: PURE,
            verify: v::binop,
        },
        OpDef {
            name: "soac.cmpop",
            summary: "A scalar comparison yielding i1.",
            description: r#"Attribute `kind`: eq, ne, lt, le, gt, ge.

```mlir
%b = "soac.cmpop"(%x, %y) {kind = "lt"} : (f32, f32) -> i1
```"#,
            traits: PURE,
            verify: v::cmpop,
        },
        OpDef {
            name: "soac.unop",
            summary: "A unary scalar operation.",
            description: r#"Attribute `kind`: neg, not, abs, signum, popc, clz, and the float
functions sqrt, cbrt, exp, log, log2, log10, log1p, sin, cos, tan, asin,
acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, gamma, lgamma, erf,
erfc, floor, ceil, round (half to even), with the semantics of Futhark's
`f32.sqrt` and so on.

```mlir
%y = "soac.unop"(%x) {kind = "sqrt"} : (f64) -> f64
```"#,
            traits: PURE,
            verify: v::unop,
        },
        OpDef {
            name: "soac.ternop",
            summary: "A ternary float operation: fused and unfused multiply-add.",
            description: r#"Attribute `kind`: fma (`a*b+c` with one rounding, Futhark's `fma`) and
mad (`a*b+c`, Futhark's `mad`: the product and the sum are rounded
separately). f16 is computed in f64 and rounded to f16 at the end.
Operands and result share one float type. (Futhark's `lerp` and `mad_hi`
are binops: `v0 + (v1-v0)*t` and `mul_hi` then `add`.)

```mlir
%r = "soac.ternop"(%a, %b, %c) {kind = "fma"} : (f32, f32, f32) -> f32
```"#,
            traits: PURE,
            verify: v::ternop,
        },
        OpDef {
            name: "soac.convop",
            summary: "A conversion between scalar types.",
            description: r#"Attribute `kind`: zext, sext, trunc, fpconv, fptoui, fptosi, uitofp,
sitofp, itob, btoi, bitcast (same width).

```mlir
%y = "soac.convop"(%x) {kind = "sitofp"} : (i32) -> f32
```"#,
            traits: PURE,
            verify: v::convop,
        },
        OpDef {
            name: "soac.select",
            summary: "Chooses between two values of one type.",
            description: r#"```mlir
%r = "soac.select"(%c, %x, %y) : (i1, f32, f32) -> f32
```"#,
            traits: PURE,
            verify: v::select,
        },
        OpDef {
            name: "soac.map",
            summary: "Applies a lambda to the rows of arrays of outer size n.",
            description: r#"Operands `(n, xs...)`; each `xs` has outer size `n`. The lambda's
arguments are one row of each array; each yielded value of type `t`
gives a result `[n]t`.

```mlir
%ys = "soac.map"(%n, %xs) ({
^bb0(%x: f32):
  %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
  "soac.yield"(%y) : (f32) -> ()
}) : (i64, !fut.array<[%n]f32>) -> !fut.array<[%n]f32>
```"#,
            traits: PURE,
            verify: v::map,
        },
        OpDef {
            name: "soac.reduce",
            summary: "Reduces arrays with an associative operator and neutral elements.",
            description: r#"Operands `(n, nes..., xs...)` with `k` neutral elements and `k` arrays,
`k` the number of results. The operator takes `2k` arguments (two
values of each type) and yields `k`. Unit attribute `commutative` allows
reordering.

```mlir
%s = "soac.reduce"(%n, %zero, %xs) ({
^bb0(%a: f32, %b: f32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
  "soac.yield"(%c) : (f32) -> ()
}) {commutative} : (i64, f32, !fut.array<[%n]f32>) -> f32
```"#,
            traits: PURE,
            verify: v::reduce,
        },
        OpDef {
            name: "soac.scan",
            summary: "Inclusive prefix scan with an associative operator.",
            description: r#"Like `soac.reduce`, but each result is the array `[n]t` of prefixes.

```mlir
%ps = "soac.scan"(%n, %zero, %xs) ({
^bb0(%a: i32, %b: i32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
  "soac.yield"(%c) : (i32) -> ()
}) : (i64, i32, !fut.array<[%n]i32>) -> !fut.array<[%n]i32>
```"#,
            traits: PURE,
            verify: v::scan,
        },
        OpDef {
            name: "soac.redomap",
            summary: "A map fused with a reduction of some of its results (thesis 5.1).",
            description: r#"Operands `(n, nes..., xs...)`. Region 0 is the reduction operator on
`k` values (`2k` arguments); region 1 maps rows of `xs` to `k` values to
reduce followed by `l` values mapped out. Results: `k` reduced values,
then `l` arrays `[n]t`.

```mlir
%s, %ys = "soac.redomap"(%n, %zero, %xs) ({
^bb0(%a: f32, %b: f32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
  "soac.yield"(%c) : (f32) -> ()
}, {
^bb0(%x: f32):
  %y = "soac.binop"(%x, %x) {kind = "mul"} : (f32, f32) -> f32
  "soac.yield"(%y, %y) : (f32, f32) -> ()
}) : (i64, f32, !fut.array<[%n]f32>) -> (f32, !fut.array<[%n]f32>)
```"#,
            traits: PURE,
            verify: v::redomap,
        },
        OpDef {
            name: "soac.scanomap",
            summary: "A map fused with a scan of some of its results.",
            description: r#"Like `soac.redomap`, but the first `k` results are the scanned arrays
`[n]t`.

```mlir
%ps = "soac.scanomap"(%n, %zero, %xs) ({
^bb0(%a: i64, %b: i64):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (i64, i64) -> i64
  "soac.yield"(%c) : (i64) -> ()
}, {
^bb0(%x: i64):
  "soac.yield"(%x) : (i64) -> ()
}) : (i64, i64, !fut.array<[%n]i64>) -> !fut.array<[%n]i64>
```"#,
            traits: PURE,
            verify: v::scanomap,
        },
        OpDef {
            name: "soac.screma",
            summary: "Scans and reductions of a map, with a post-lambda on the scanned rows (Futhark's screma).",
            description: r#"Operands `(n, scan_nes..., red_nes..., xs...)`. Region 0 is the scan
operator on `k` values, region 1 the reduction operator on `r` values
(a block of no arguments yielding nothing when `r` is 0); region 2, the
pre-lambda, maps rows of `xs` to `k` values to scan, `r` to reduce and
`l` more; region 3, the post-lambda, takes the `k` scanned values (row
`i` of the inclusive scans) and the `l` values of one row and yields the
rows of the mapped results. Results: the `r` reduced values, then one
`[n]t` per post yield. Fusion makes it from a scan and a map of its
results, and a reduction beside it (See Note [Post-lambda fusion] in
passes/src/soac/fuse.rs): the scanned and pre-mapped arrays need not
exist unless the post-lambda yields them.

```mlir
%ps, %ds = "soac.screma"(%n, %zero, %xs) ({
^bb0(%a: f64, %b: f64):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (f64, f64) -> f64
  "soac.yield"(%c) : (f64) -> ()
}, {
^bb0:
  "soac.yield"() : () -> ()
}, {
^bb0(%x: f64):
  "soac.yield"(%x) : (f64) -> ()
}, {
^bb0(%s: f64):
  %d = "soac.binop"(%s, %s) {kind = "add"} : (f64, f64) -> f64
  "soac.yield"(%s, %d) : (f64, f64) -> ()
}) : (i64, f64, !fut.array<[%n]f64>) -> (!fut.array<[%n]f64>, !fut.array<[%n]f64>)
```"#,
            traits: PURE,
            verify: v::screma,
        },
        OpDef {
            name: "soac.scatter",
            summary: "Writes values to computed indices of destination arrays.",
            description: r#"Operands `(n, xs..., dests...)` with `k` destinations, `k` the number
of results. The lambda maps rows of `xs` to `k` i64 indices then `k`
values (rows of the destinations). Out-of-bounds writes are ignored.
The destinations are consumed; the results have their types. Optional
attribute `num_writes` (one positive count per destination, Futhark's
scatter in a screma writing several pairs per row): the lambda yields
each destination's indices in turn, `w_0 + ... + w_{k-1}` in all, then
the values in the same order. Which of two writes to one index wins is
unspecified.

```mlir
%r = "soac.scatter"(%n, %is, %vs, %dest) ({
^bb0(%i: i64, %x: f32):
  "soac.yield"(%i, %x) : (i64, f32) -> ()
}) : (i64, !fut.array<[%n]i64>, !fut.array<[%n]f32>, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
%r2 = "soac.scatter"(%n, %is, %js, %vs, %dest) ({
^bb0(%i: i64, %j: i64, %x: f32):
  "soac.yield"(%i, %j, %x, %x) : (i64, i64, f32, f32) -> ()
}) {num_writes = [2]} : (i64, !fut.array<[%n]i64>, !fut.array<[%n]i64>, !fut.array<[%n]f32>, !fut.array<[%m]f32>) -> !fut.array<[%m]f32>
```"#,
            traits: NONE,
            verify: v::scatter,
        },
        OpDef {
            name: "soac.hist",
            summary: "Generalised histogram: reduce values into buckets.",
            description: r#"Operands `(n, w, dests..., nes..., xs...)`: `k` destinations of outer
size `w`, `k` neutral elements. Region 0 is the operator on `k` values;
region 1 maps rows of `xs` to an i64 bucket then `k` values.
Out-of-range buckets are ignored. Results: the updated destinations.

```mlir
%h = "soac.hist"(%n, %w, %dest, %zero, %is) ({
^bb0(%a: i32, %b: i32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
  "soac.yield"(%c) : (i32) -> ()
}, {
^bb0(%i: i64):
  "soac.yield"(%i, %one) : (i64, i32) -> ()
}) : (i64, i64, !fut.array<[%w]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%w]i32>
```"#,
            traits: NONE,
            verify: v::hist,
        },
        OpDef {
            name: "soac.scatter_stream",
            summary: "Writes into an accumulator from every row of the inputs (Futhark's `scatter_stream`).",
            description: r#"Operands `(n, dest, bs...)`. The lambda takes the accumulator (typed as
`dest`) and rows of `bs`, and yields the accumulator after its
`soac.acc_write`s; it runs for every row, in parallel and in no
particular order, and all runs write into the one accumulator. The
result is `dest` (consumed) after every write; which of two writes to
one index wins is unspecified. A pass makes one (with `soac.acc_write`
in its lambda) to scatter a varying number of values per row, as
reverse-mode AD does for the adjoints of free arrays. See Note
[Accumulator ops] in `soac/mod.rs`.

```mlir
%r = "soac.scatter_stream"(%n, %dest, %is) ({
^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %acc2 = "soac.acc_write"(%acc, %i, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
  "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
}) : (i64, !fut.array<[%m]i32>, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
```"#,
            traits: NONE,
            verify: v::scatter_stream,
        },
        OpDef {
            name: "soac.hist_stream",
            summary: "Combines into an accumulator from every row of the inputs (Futhark's `hist_stream`).",
            description: r#"Operands `(n, dest, ne, bs...)`; region 0 is the operator (associative and
commutative, neutral element `ne`) on two rows of `dest`, region 1 the
lambda of `soac.scatter_stream`, whose `soac.acc_write acc i v` sets
`dest[i]` to `op(dest[i], v)`. The result is `dest` (consumed) after
every write.

```mlir
%h = "soac.hist_stream"(%n, %dest, %zero, %is) ({
^bb0(%a: i32, %b: i32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
  "soac.yield"(%c) : (i32) -> ()
}, {
^bb0(%acc: !fut.array<[%m]i32>, %i: i64):
  %one = "soac.constant"() {value = 1 : i32} : () -> i32
  %acc2 = "soac.acc_write"(%acc, %i, %one) : (!fut.array<[%m]i32>, i64, i32) -> !fut.array<[%m]i32>
  "soac.yield"(%acc2) : (!fut.array<[%m]i32>) -> ()
}) : (i64, !fut.array<[%m]i32>, i32, !fut.array<[%n]i64>) -> !fut.array<[%m]i32>
```"#,
            traits: NONE,
            verify: v::hist_stream,
        },
        OpDef {
            name: "soac.acc_write",
            summary: "Writes a row into an accumulator, consuming it (Futhark's `acc_write`).",
            description: r#"Operands `(acc, i, v)`: `acc` is the accumulator of the enclosing
`soac.scatter_stream` or `soac.hist_stream` (its lambda's first argument,
or what a write, loop or branch made of it), `v` a row of it. Sets row
`i` to `v` (scatter) or to `op(acc[i], v)` (hist); an index out of bounds
is ignored. The result is the accumulator, the only thing the write
makes: it must be used, or the write is lost.

```mlir
%acc2 = "soac.acc_write"(%acc, %i, %v) : (!fut.array<[%m]f32>, i64, f32) -> !fut.array<[%m]f32>
```"#,
            traits: NONE,
            verify: v::acc_write,
        },
        OpDef {
            name: "soac.stream_seq",
            summary: "Processes arrays in sequential chunks with accumulators.",
            description: r#"Operands `(n, accs..., xs...)`; attribute `num_accs` says how many
operands after `n` are accumulators. The lambda takes the chunk size
`c : i64`, the accumulators and `[c]`-chunks of `xs`; it yields the new
accumulators and per-chunk arrays `[c]t`. Results: the final
accumulators, then the chunk arrays concatenated (`[n]t`).

```mlir
%s = "soac.stream_seq"(%n, %zero, %xs) ({
^bb0(%c: i64, %acc: f32, %chunk: !fut.array<[%c]f32>):
  "soac.yield"(%acc) : (f32) -> ()
}) {num_accs = 1 : i64} : (i64, f32, !fut.array<[%n]f32>) -> f32
```"#,
            traits: PURE,
            verify: v::stream_seq,
        },
        OpDef {
            name: "soac.stream_par",
            summary: "Processes arrays in chunks in parallel, combining accumulators.",
            description: r#"Operands `(n, accs..., xs...)`. Region 0 combines two accumulator
tuples (`2k` arguments); region 1 is the chunk lambda as in
`soac.stream_seq`. Optional attribute `order`: "in_order" or "disorder".

```mlir
%s = "soac.stream_par"(%n, %zero, %xs) ({
^bb0(%a: f32, %b: f32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
  "soac.yield"(%c) : (f32) -> ()
}, {
^bb0(%c: i64, %acc: f32, %chunk: !fut.array<[%c]f32>):
  "soac.yield"(%acc) : (f32) -> ()
}) {order = "disorder"} : (i64, f32, !fut.array<[%n]f32>) -> f32
```"#,
            traits: PURE,
            verify: v::stream_par,
        },
        OpDef {
            name: "soac.filter",
            summary: "Keeps the rows for which a predicate holds.",
            description: r#"Operands `(n, xs...)`; the predicate maps rows to i1. Each result holds
the kept rows of one input; its outer size is existential (`?`).

```mlir
%ys = "soac.filter"(%n, %xs) ({
^bb0(%x: i32):
  %b = "soac.cmpop"(%x, %x) {kind = "eq"} : (i32, i32) -> i1
  "soac.yield"(%b) : (i1) -> ()
}) : (i64, !fut.array<[%n]i32>) -> !fut.array<[?]i32>
```"#,
            traits: PURE,
            verify: v::filter,
        },
        OpDef {
            name: "soac.partition",
            summary: "Stably partitions rows into k classes.",
            description: r#"Attribute `k`; operands `(n, xs...)`; the lambda maps rows to an i64
class in `0..k` (others go last). Results: `k` i64 class sizes, then the
permuted arrays.

```mlir
%sz:3 = "soac.partition"(%n, %xs) ({
^bb0(%x: i64):
  "soac.yield"(%x) : (i64) -> ()
}) {k = 2 : i64} : (i64, !fut.array<[%n]i64>) -> (i64, i64, !fut.array<[%n]i64>)
```"#,
            traits: PURE,
            verify: v::partition,
        },
        OpDef {
            name: "soac.iota",
            summary: "The array [start, start+stride, ...] of n elements.",
            description: r#"Operands `(n)` giving `[n]i64` from 0 by 1, or `(n, start, stride)` of
an integer type `t` giving `[n]t`.

```mlir
%is = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
```"#,
            traits: PURE,
            verify: v::iota,
        },
        OpDef {
            name: "soac.replicate",
            summary: "An array of n copies of a value.",
            description: r#"```mlir
%zs = "soac.replicate"(%n, %zero) : (i64, f32) -> !fut.array<[%n]f32>
```"#,
            traits: PURE,
            verify: v::replicate,
        },
        OpDef {
            name: "soac.reshape",
            summary: "Gives an array a new shape with the same number of elements.",
            description: r#"Operands `(xs, d...)`: the new sizes, one per result dimension.

```mlir
%m = "soac.reshape"(%xs, %a, %b) : (!fut.array<[%n]f32>, i64, i64) -> !fut.array<[%a][%b]f32>
```"#,
            traits: PURE,
            verify: v::reshape,
        },
        OpDef {
            name: "soac.rearrange",
            summary: "Permutes the dimensions of an array.",
            description: r#"Attribute `perm`: result dimension `i` is operand dimension `perm[i]`.

```mlir
%t = "soac.rearrange"(%m) {perm = [1, 0]} : (!fut.array<[%a][%b]f32>) -> !fut.array<[%b][%a]f32>
```"#,
            traits: PURE,
            verify: v::rearrange,
        },
        OpDef {
            name: "soac.concat",
            summary: "Concatenates arrays along a dimension.",
            description: r#"Operands `(w, xs...)`, `w` the result size in dimension `dim`
(attribute, default 0); the arrays agree in every other dimension.

```mlir
%zs = "soac.concat"(%w, %xs, %ys) {dim = 0 : i64} : (i64, !fut.array<[%n]f32>, !fut.array<[%m]f32>) -> !fut.array<[%w]f32>
```"#,
            traits: PURE,
            verify: v::concat,
        },
        OpDef {
            name: "soac.rotate",
            summary: "Rotates an array by an offset in each dimension.",
            description: r#"```mlir
%r = "soac.rotate"(%xs, %k) : (!fut.array<[%n]f32>, i64) -> !fut.array<[%n]f32>
```"#,
            traits: PURE,
            verify: v::rotate,
        },
        OpDef {
            name: "soac.index",
            summary: "Indexes an array: an element, or a sub-array with fewer indices.",
            description: r#"```mlir
%x = "soac.index"(%m, %i, %j) : (!fut.array<[%a][%b]f32>, i64, i64) -> f32
```"#,
            traits: PURE,
            verify: v::index,
        },
        OpDef {
            name: "soac.update",
            summary: "In-place update `xs with [i] = x`; consumes the array.",
            description: r#"Operands `(xs, i..., x)`.

```mlir
%ys = "soac.update"(%xs, %i, %x) : (!fut.array<[%n]f32>, i64, f32) -> !fut.array<[%n]f32>
```"#,
            traits: NONE,
            verify: v::update,
        },
        OpDef {
            name: "soac.slice",
            summary: "A strided slice of the leading dimensions of an array.",
            description: r#"Operands `(xs, (offset, length, stride)...)`: one i64 triple per sliced
dimension; the result's sizes there are the lengths.

```mlir
%s = "soac.slice"(%xs, %o, %l, %st) : (!fut.array<[%n]f32>, i64, i64, i64) -> !fut.array<[%l]f32>
```"#,
            traits: PURE,
            verify: v::slice,
        },
        OpDef {
            name: "soac.size",
            summary: "The size of one dimension of an array.",
            description: r#"Attribute `dim` (default 0). Names a size that the array's type leaves
existential (`?`), such as the outer size of a `soac.filter` result or of
an array returned by `soac.apply`.

```mlir
%k = "soac.size"(%ys) {dim = 0 : i64} : (!fut.array<[?]i64>) -> i64
```"#,
            traits: PURE,
            verify: v::size,
        },
        OpDef {
            name: "soac.copy",
            summary: "A fresh copy of an array.",
            description: r#"```mlir
%ys = "soac.copy"(%xs) : (!fut.array<[%n]f32>) -> !fut.array<[%n]f32>
```"#,
            traits: PURE,
            verify: v::copy,
        },
        OpDef {
            name: "soac.loop",
            summary: "A sequential loop with merge parameters.",
            description: r#"Attribute `form`. `"for"`: operands `(n, inits...)`, block arguments
`(i, merge...)` with `i` of `n`'s integer type. `"while"`: operands
`(inits...)` whose first is the i1 condition checked before each
iteration, block arguments `(merge...)`. The body yields the next merge
values; the results are the final ones.

```mlir
%r = "soac.loop"(%n, %zero) ({
^bb0(%i: i64, %acc: i64):
  %a = "soac.binop"(%acc, %i) {kind = "add"} : (i64, i64) -> i64
  "soac.yield"(%a) : (i64) -> ()
}) {form = "for"} : (i64, i64) -> i64
```"#,
            traits: NONE,
            verify: v::loop_,
        },
        OpDef {
            name: "soac.jvp",
            summary: "Forward-mode AD: a function's results and their tangents (Futhark's `jvp2`).",
            description: r#"Operands `(xs..., dxs...)`: `k` arguments and a tangent of each (of the
same types). The region is the function: it takes the `k` arguments
and yields `m` values. Results: the `m` values and their tangents in
the direction `dxs`. Made by internalisation from `jvp2 f x x'`;
`soac-jvp` replaces it by the tangent program (Note [Forward-mode AD]
in passes/src/soac/jvp.rs).

```mlir
%y, %dy = "soac.jvp"(%x, %dx) ({
^bb0(%a: f32):
  %b = "soac.unop"(%a) {kind = "sin"} : (f32) -> f32
  "soac.yield"(%b) : (f32) -> ()
}) : (f32, f32) -> (f32, f32)
```"#,
            traits: NONE,
            verify: v::jvp,
        },
        OpDef {
            name: "soac.vjp",
            summary: "Reverse-mode AD: a function's results and the adjoints of its arguments (Futhark's `vjp2`).",
            description: r#"Operands `(xs..., dys...)`: the `k` arguments and a cotangent of each
of the `m` values the region yields. The region is the function: it
takes the `k` arguments and yields `m` values. Results: the `m` values
and the adjoints of the `k` arguments for the cotangents `dys`. Made by
internalisation from `vjp2 f x y'`; `soac-vjp` replaces it by the
adjoint program (Note [Reverse-mode AD] in passes/src/soac/vjp.rs).

```mlir
%y, %dx = "soac.vjp"(%x, %dy) ({
^bb0(%a: f32):
  %b = "soac.unop"(%a) {kind = "sin"} : (f32) -> f32
  "soac.yield"(%b) : (f32) -> ()
}) : (f32, f32) -> (f32, f32)
```"#,
            traits: NONE,
            verify: v::vjp,
        },
        OpDef {
            name: "soac.with_vjp",
            summary: "A function with a custom adjoint (Futhark's `with_vjp`).",
            description: r#"Operands `xs...`: the arguments. Region 0 is the function `f`: it takes
the arguments and yields `m` values, the results. Region 1 is the
adjoint `f'`: it takes the `m` results and their `m` cotangents and
yields the arguments' adjoints. Outside reverse-mode AD the op is `f`;
`soac-vjp` uses `f'` for its adjoint, and replaces the others by `f`
(Note [Reverse-mode AD] in passes/src/soac/vjp.rs).

```mlir
%y = "soac.with_vjp"(%x) ({
^bb0(%a: f32):
  %r = "soac.unop"(%a) {kind = "round"} : (f32) -> f32
  "soac.yield"(%r) : (f32) -> ()
}, {
^bb0(%r: f32, %dr: f32):
  "soac.yield"(%dr) : (f32) -> ()
}) : (f32) -> f32
```"#,
            traits: NONE,
            verify: v::with_vjp,
        },
        OpDef {
            name: "soac.if",
            summary: "Chooses one of two regions on an i1 condition.",
            description: r#"Both regions take no arguments and yield the result types.

```mlir
%r = "soac.if"(%c) ({
  "soac.yield"(%x) : (f32) -> ()
}, {
  "soac.yield"(%y) : (f32) -> ()
}) : (i1) -> f32
```"#,
            traits: NONE,
            verify: v::if_,
        },
        OpDef {
            name: "soac.assert",
            summary: "Fails the program with a message unless the condition holds.",
            description: r#"Operands: the i1 condition, then up to seven i64 values. With values,
the message is a template: `{k}` is the `k`-th value, `{{` and `}}` are
braces; without, it is taken as it is.

```mlir
"soac.assert"(%ok) {message = "index out of bounds"} : (i1) -> ()
"soac.assert"(%ok, %i, %n) {message = "Index [{0}] out of bounds for array of shape [{1}]."} : (i1, i64, i64) -> ()
```"#,
            traits: NONE,
            verify: v::assert,
        },
    ]
}
