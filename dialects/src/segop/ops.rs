//! The op definitions of the `segop` dialect.

use super::verify as v;
use crate::ir::{OpDef, Traits};
use crate::soac::verify as core;

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: "segop.segmap",
            summary: "A parallel map over a d-dimensional segment space.",
            description: r#"Attribute `level`: "thread" (one thread per point) or "group" (one
workgroup per point, the body using the group's threads). Operands: the
space's i64 sizes `s1..sd`; the body takes the `d` indices and yields
values `t`, giving results `[s1]..[sd]t`. Inputs are read from above.
With attribute `writes = k` (a scatter): operands `(s1..sd, dests...)`;
the body yields `k` i64 indices then `k` rows, written in place into the
destinations (an index out of bounds is ignored); the results are the
destinations. Attribute `tile = [rows, cols, k]` (set by `segop-tile`,
on a segmap of at least two dimensions whose body holds a reduction of
rows, not with `writes`): on the GPU, the body's reduction runs tiled,
as a `segred`'s with `tile`.

```mlir
%ys = "segop.segmap"(%n) ({
^bb0(%i: i64):
  %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
  "segop.yield"(%x) : (f32) -> ()
}) {level = "thread"} : (i64) -> !fut.array<[%n]f32>
```"#,
            traits: Traits::NONE,
            verify: v::segmap,
        },
        OpDef {
            name: "segop.segred",
            summary: "A segmented reduction over the innermost dimension of the space.",
            description: r#"Operands `(s1..sd, nes...)`. Region 0 is the body (the `d` indices ->
`k` values to reduce, then `l` mapped values); region 1 the operator on
`k` values. Results: `k` arrays `[s1]..[s(d-1)]t` (scalars when `d = 1`),
then `l` arrays `[s1]..[sd]t`. Unit attribute `commutative` is allowed.
Attribute `tile = [rows, cols, k]` (set by `segop-tile`; at least three
dimensions): on the GPU, a group of 16x16 threads computes a block of
[16*rows][16*cols] of the last two parallel dimensions, staging `k` steps
of the reduction of the inputs in shared memory at a time.

```mlir
%s = "segop.segred"(%n, %zero) ({
^bb0(%i: i64):
  %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
  "segop.yield"(%x) : (f32) -> ()
}, {
^bb0(%a: f32, %b: f32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (f32, f32) -> f32
  "segop.yield"(%c) : (f32) -> ()
}) {level = "thread"} : (i64, f32) -> f32
```"#,
            traits: Traits::NONE,
            verify: v::segred,
        },
        OpDef {
            name: "segop.segscan",
            summary: "A segmented inclusive scan over the innermost dimension.",
            description: r#"Like `segop.segred`, but the first `k` results are full arrays
`[s1]..[sd]t` of prefixes.

```mlir
%ps = "segop.segscan"(%n, %zero) ({
^bb0(%i: i64):
  %x = "soac.index"(%xs, %i) : (!fut.array<[%n]i32>, i64) -> i32
  "segop.yield"(%x) : (i32) -> ()
}, {
^bb0(%a: i32, %b: i32):
  %c = "soac.binop"(%a, %b) {kind = "add"} : (i32, i32) -> i32
  "segop.yield"(%c) : (i32) -> ()
}) {level = "thread"} : (i64, i32) -> !fut.array<[%n]i32>
```"#,
            traits: Traits::NONE,
            verify: v::segscan,
        },
        OpDef {
            name: "segop.seghist",
            summary: "A segmented generalised histogram.",
            description: r#"Operands `(s1..sd, w, dests..., nes...)`: `k` destinations of outer
size `w`. Region 0 is the body (the indices -> an i64 bucket and `k`
values); region 1 the operator on `k` values. Results: the updated
destinations.

```mlir
%h = "segop.seghist"(%n, %w, %dest, %zero) ({
^bb0(%i: i64):
  %b = "soac.index"(%is, %i) : (!fut.array<[%n]i64>, i64) -> i64
  "segop.yield"(%b, %one) : (i64, i32) -> ()
}, {
^bb0(%a: i32, %c: i32):
  %s = "soac.binop"(%a, %c) {kind = "add"} : (i32, i32) -> i32
  "segop.yield"(%s) : (i32) -> ()
}) {level = "thread"} : (i64, i64, !fut.array<[%w]i32>, i32) -> !fut.array<[%w]i32>
```"#,
            traits: Traits::NONE,
            verify: v::seghist,
        },
        OpDef {
            name: "segop.filter",
            summary: "Keeps the points of a one-dimensional space that pass a test, in order.",
            description: r#"Operand: the size `n`. The body takes the index and yields a bool
(whether to keep the point) then `k` values `t`. Results: the i64 number
`c` of points kept, then `k` arrays `[n]t` whose first `c` rows are the
kept points' values, in order (the other rows are undefined).

```mlir
%c, %ys = "segop.filter"(%n) ({
^bb0(%i: i64):
  %x = "soac.index"(%xs, %i) : (!fut.array<[%n]f32>, i64) -> f32
  %keep = "soac.cmpop"(%x, %half) {kind = "gt"} : (f32, f32) -> i1
  "segop.yield"(%keep, %x) : (i1, f32) -> ()
}) {level = "thread"} : (i64) -> (i64, !fut.array<[%n]f32>)
```"#,
            traits: Traits::NONE,
            verify: v::filter,
        },
        OpDef {
            name: "segop.if_threshold",
            summary: "Multi-versioned code: picks a version by a tunable threshold.",
            description: r#"Operand: the i64 parallelism of the first version. Attribute
`threshold`: the name of the run-time tunable threshold; the first region
runs when the parallelism is at least the threshold, the second
otherwise (thesis ch. 9, incremental flattening).

```mlir
%r = "segop.if_threshold"(%par) ({
  "segop.yield"(%a) : (f32) -> ()
}, {
  "segop.yield"(%b) : (f32) -> ()
}) {threshold = "main.suff_outer_par_0"} : (i64) -> f32
```"#,
            traits: Traits::NONE,
            verify: v::if_threshold,
        },
        OpDef {
            name: "segop.manifest",
            summary: "Copies an array into a layout with permuted dimensions.",
            description: r#"Attribute `perm`: the order of the dimensions in memory, outermost
first. The type is unchanged; only the layout is, so that kernels read
memory coalesced (thesis 9.3).

```mlir
%t = "segop.manifest"(%m) {perm = [1, 0]} : (!fut.array<[%a][%b]f32>) -> !fut.array<[%a][%b]f32>
```"#,
            traits: Traits::PURE,
            verify: v::manifest,
        },
        OpDef {
            name: "segop.yield",
            summary: "Ends a segop body, operator or branch.",
            description: r#"```mlir
"segop.yield"(%x) : (f32) -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: core::yield_,
        },
    ]
}
