//! The op definitions of the `mem` dialect.

use super::verify as v;
use crate::ir::{OpDef, Traits};

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: "mem.alloc",
            summary: "Allocates a memory block of a byte size in a space.",
            description: r#"Attribute `space`: "host", "device" or "shared", the space of the
result type. Optional unit attribute `thread` (space "device" only): in
kernel code (a kernel's body or a device function), the block is the
running GPU thread's own, taken from the device heap (CUDA's `malloc`
in the thread) and given back by `mem.free` in the same thread. Kernel
code allocates this way only where memory expansion cannot (Note
[Thread allocations] in `segop_to_imp`); a thread whose allocation
fails reports the error through the kernels' error buffer and ends.

```mlir
%m = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
%t = "mem.alloc"(%bytes) {space = "device", thread} : (i64) -> !mem.block<device>
```"#,
            traits: Traits::NONE,
            verify: v::alloc,
        },
        OpDef {
            name: "mem.free",
            summary: "Releases a memory block.",
            description: r#"```mlir
"mem.free"(%m) : (!mem.block<device>) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::free,
        },
        OpDef {
            name: "mem.bind",
            summary: "Places an op's fresh array result in a memory block.",
            description: r#"Operands `(block, array)` or `(block, array, offset)`: the array, a
result of the op just before (`segop-to-mem` puts it there), is stored
in the block, row-major from element `offset` (an i64; 0 when absent:
the LMAD `offset: offset, dims: [(n1, n2*...*nr), ..., (nr, 1)]`); the
op writes its result there instead of allocating. A block may hold
several arrays at different offsets: `mem-short-circuit` places the
parts of a `concat` in the concat's own block, at their places.

```mlir
%m = "mem.alloc"(%bytes) {space = "device"} : (i64) -> !mem.block<device>
%ys = "soac.iota"(%n) : (i64) -> !fut.array<[%n]i64>
"mem.bind"(%m, %ys) : (!mem.block<device>, !fut.array<[%n]i64>) -> ()
%zs = "soac.iota"(%k) : (i64) -> !fut.array<[%k]i64>
"mem.bind"(%m, %zs, %n) : (!mem.block<device>, !fut.array<[%k]i64>, i64) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::bind,
        },
        OpDef {
            name: "mem.place",
            summary: "Makes an op's fresh array result in place, as a row of another array.",
            description: r#"Operands `(dst, i1, ..., ik, array)`: the array, a result of the op just
before, is stored where `dst[i1, ..., ik]` is (it has that row's shape),
in `dst`'s memory with `dst`'s index function: the op writes its result
there instead of allocating. `mem-short-circuit` places the new row of
an in-place update (`soac.update(dst, i..., array)`, which then copies
nothing) when the op making it reads no element of `dst` that another
thread writes (Note [Short-circuiting]).

```mlir
%row = "segop.segmap"(%m) ({ ... }) : (i64) -> !fut.array<[%m]f32>
"mem.place"(%xss, %i, %row) : (!fut.array<[%n][%m]f32>, i64, !fut.array<[%m]f32>) -> ()
%yss = "soac.update"(%xss, %i, %row) {short_circuit} : (!fut.array<[%n][%m]f32>, i64, !fut.array<[%m]f32>) -> !fut.array<[%n][%m]f32>
```"#,
            traits: Traits::NONE,
            verify: v::place,
        },
        OpDef {
            name: "mem.expand",
            summary: "Memory expansion: one block for an array that each thread of a kernel makes.",
            description: r#"Operand `(bytes)`: one thread's part. The block holds a part for
each thread of the kernel of the segop whose body binds arrays to it
(`mem.bind`, which may only be there); `segop-to-imp` allocates it before
the launch, for the launch's threads, and frees it after. Attribute
`layout`: "contiguous" (thread `t`'s part at `t*bytes`, row-major) or
"interleaved" (element `j` of thread `t` at `j*threads + t`, coalesced).
Made by the `mem-expand` pass (Note [Memory expansion at the mem level]).

```mlir
%m = "mem.expand"(%bytes) {layout = "interleaved"} : (i64) -> !mem.block<device>
%ys = "segop.segmap"(%n) ({
^bb0(%i: i64):
  %row = "soac.iota"(%k) : (i64) -> !fut.array<[%k]i64>
  "mem.bind"(%m, %row) : (!mem.block<device>, !fut.array<[%k]i64>) -> ()
  ...
```"#,
            traits: Traits::NONE,
            verify: v::expand,
        },
    ]
}
