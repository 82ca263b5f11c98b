//! The op definitions of the `imp` dialect.

use super::verify as v;
use crate::ir::{OpDef, Traits};

pub fn ops() -> Vec<OpDef> {
    vec![
        OpDef {
            name: "imp.func",
            summary: "A function: an entry point, or one that `imp.call` calls.",
            description: r#"Attributes `sym_name` and `function_type`; one region taking the inputs
and ending in `imp.return`. `entry` marks an entry point (the runtime
calls it); `device` a function whose body is kernel code, called from
kernels (a function called from both has a host version and a device
version, `NAME$device`: a module's symbols are unique).

```mlir
"imp.func"() ({
^bb0(%n: i64):
  "imp.return"() : () -> ()
}) {sym_name = "main", function_type = (i64) -> ()} : () -> ()
```"#,
            traits: Traits::ISOLATED_FROM_ABOVE,
            verify: v::func,
        },
        OpDef {
            name: "imp.kernel",
            summary: "A GPU kernel: a function run by every thread of a grid.",
            description: r#"Attributes `sym_name`, `function_type` (no results) and optionally
`block_size` (1 to 3 integers fixed at compile time: the most threads
a block has, which the code generator may rely on) and `min_blocks`
(blocks a multiprocessor should fit at once, which caps the registers
a thread may use). Isolated from above: it sees only its arguments.

```mlir
"imp.kernel"() ({
^bb0(%m: !mem.block<device>, %n: i64):
  %t = "imp.thread_id"() {dim = 0 : i64} : () -> i64
  "imp.return"() : () -> ()
}) {sym_name = "k0", function_type = (!mem.block<device>, i64) -> (), block_size = [256]} : () -> ()
```"#,
            traits: Traits::ISOLATED_FROM_ABOVE,
            verify: v::kernel,
        },
        OpDef {
            name: "imp.launch",
            summary: "Launches a kernel on a grid.",
            description: r#"Operands `(gx, gy, gz, bx, by, bz, args...)`: grid and block sizes,
then the kernel's arguments. Attribute `callee`; optional `shared_bytes`
of dynamic shared memory.

```mlir
"imp.launch"(%g, %one, %one, %b, %one, %one, %m, %n) {callee = @k0} : (i64, i64, i64, i64, i64, i64, !mem.block<device>, i64) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::launch,
        },
        OpDef {
            name: "imp.call",
            summary: "Calls an imp function that is not an entry point.",
            description: r#"Attribute `callee`, and `device` where the call is in kernel code (it
calls the device version of the function, itself marked `device`).
Operands and results are the function's: scalars as themselves, an
array argument as its block, offset, and a size and a stride per
dimension; an array result as a fresh block the caller owns and its
sizes (Note [Functions at the imp level] in `segop_to_imp/call.rs`).

```mlir
%r = "imp.call"(%x, %y) {callee = @f} : (i32, i32) -> i32
```"#,
            traits: Traits::NONE,
            verify: v::call,
        },
        OpDef {
            name: "imp.for",
            summary: "A counted loop, with values carried from one iteration to the next.",
            description: r#"Operands `(lb, ub, step, inits...)`; `lb`, `ub` and `step` of one integer
type. The body takes the index and the carried values and yields the next
carried values; the results are the last ones (the inits when the loop
runs no iteration). Like `scf.for`.

```mlir
%s = "imp.for"(%lb, %ub, %step, %zero) ({
^bb0(%i: i64, %acc: i64):
  %a = "soac.binop"(%acc, %i) {kind = "add"} : (i64, i64) -> i64
  "imp.yield"(%a) : (i64) -> ()
}) : (i64, i64, i64, i64) -> i64
```"#,
            traits: Traits::NONE,
            verify: v::for_,
        },
        OpDef {
            name: "imp.while",
            summary: "A loop while a condition holds, with carried values.",
            description: r#"Operands: the initial carried values. Region 0 takes the carried values
and yields the i1 condition, checked before each iteration; region 1
takes them and yields the next ones. The results are the carried values
when the condition fails.

```mlir
%r = "imp.while"(%x0) ({
^bb0(%x: i32):
  %c = "soac.cmpop"(%x, %ten) {kind = "lt"} : (i32, i32) -> i1
  "imp.yield"(%c) : (i1) -> ()
}, {
^bb0(%x: i32):
  %y = "soac.binop"(%x, %x) {kind = "add"} : (i32, i32) -> i32
  "imp.yield"(%y) : (i32) -> ()
}) : (i32) -> i32
```"#,
            traits: Traits::NONE,
            verify: v::while_,
        },
        OpDef {
            name: "imp.if",
            summary: "A conditional; regions yield the result types (often none).",
            description: r#"```mlir
"imp.if"(%c) ({
  "imp.yield"() : () -> ()
}, {
  "imp.yield"() : () -> ()
}) : (i1) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::if_,
        },
        OpDef {
            name: "imp.load",
            summary: "Reads a scalar from a memory block at an element index.",
            description: r#"Unit attribute `volatile`: the read goes to memory every time, past
the thread's caches (a flag another block sets, read in a loop).
Attribute `width` (2, 4 or 8; kernel code): the elements at `%i`, `%i +
1`, ... in one access, `%i` a multiple of the width and the block
aligned to it (Note [Vector accesses]).

```mlir
%x = "imp.load"(%m, %i) : (!mem.block<device>, i64) -> f32
%f = "imp.load"(%flags, %i) {volatile} : (!mem.block<device>, i64) -> i32
%a:4 = "imp.load"(%m, %i) {width = 4 : i64} : (!mem.block<device>, i64) -> (f32, f32, f32, f32)
```"#,
            traits: Traits::NONE,
            verify: v::load,
        },
        OpDef {
            name: "imp.store",
            summary: "Writes a scalar to a memory block at an element index.",
            description: r#"Unit attribute `volatile` and attribute `width`: as for `imp.load`.

```mlir
"imp.store"(%m, %i, %x) : (!mem.block<device>, i64, f32) -> ()
"imp.store"(%m, %i, %a, %b, %c, %d) {width = 4 : i64} : (!mem.block<device>, i64, f32, f32, f32, f32) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::store,
        },
        OpDef {
            name: "imp.barrier",
            summary: "Synchronises the threads of a block.",
            description: r#"Inside a kernel. Optional attribute `fence`: "local" (shared memory) or
"global".

```mlir
"imp.barrier"() {fence = "local"} : () -> ()
```"#,
            traits: Traits::NONE,
            verify: v::barrier,
        },
        OpDef {
            name: "imp.fence",
            summary: "Orders the thread's memory accesses for the whole device.",
            description: r#"Inside a kernel. The thread's writes before the fence are seen by every
thread of the device before its writes after it (and its reads after
it are not done before its reads before it). No barrier: other threads
do not wait.

```mlir
"imp.fence"() : () -> ()
```"#,
            traits: Traits::NONE,
            verify: v::fence,
        },
        OpDef {
            name: "imp.shared_alloc",
            summary: "Allocates shared memory for a block, inside a kernel.",
            description: r#"```mlir
%s = "imp.shared_alloc"(%bytes) : (i64) -> !mem.block<shared>
```"#,
            traits: Traits::NONE,
            verify: v::shared_alloc,
        },
        OpDef {
            name: "imp.atomic",
            summary: "An atomic read-modify-write; returns the old value.",
            description: r#"Attribute `kind`: add, min, max, and, or, xor, xchg, or cas (which takes
the expected and the new value).

```mlir
%old = "imp.atomic"(%m, %i, %x) {kind = "add"} : (!mem.block<device>, i64, i32) -> i32
```"#,
            traits: Traits::NONE,
            verify: v::atomic,
        },
        OpDef {
            name: "imp.shuffle",
            summary: "Reads a value of another thread of the warp (inside a kernel).",
            description: r#"Attribute `kind`: `down` (the value of lane `lane + offset`, or the
thread's own when that is past the warp) or `xor` (lane `lane ^ offset`).
Every thread of the warp must execute it together. Any scalar type.

```mlir
%y = "imp.shuffle"(%x, %offset) {kind = "down"} : (f32, i64) -> f32
```"#,
            traits: Traits::NONE,
            verify: v::shuffle,
        },
        OpDef {
            name: "imp.param",
            summary: "A tuning parameter's value, read at run time (host code).",
            description: r#"Attribute `index`: the parameter's number in the runtime's table
(`runtime-cuda/src/params.rs`; `--param NAME=VALUE` sets it).

```mlir
%g = "imp.param"() {index = 0 : i64} : () -> i64
```"#,
            traits: Traits::NONE,
            verify: v::param,
        },
        OpDef {
            name: "imp.thread_id",
            summary: "The thread's index in its block along `dim`.",
            description: r#"```mlir
%t = "imp.thread_id"() {dim = 0 : i64} : () -> i64
```"#,
            traits: Traits::PURE,
            verify: v::index_query,
        },
        OpDef {
            name: "imp.block_id",
            summary: "The block's index in the grid along `dim`.",
            description: r#"```mlir
%b = "imp.block_id"() {dim = 0 : i64} : () -> i64
```"#,
            traits: Traits::PURE,
            verify: v::index_query,
        },
        OpDef {
            name: "imp.block_dim",
            summary: "The number of threads per block along `dim`.",
            description: r#"```mlir
%n = "imp.block_dim"() {dim = 0 : i64} : () -> i64
```"#,
            traits: Traits::PURE,
            verify: v::index_query,
        },
        OpDef {
            name: "imp.grid_dim",
            summary: "The number of blocks in the grid along `dim`.",
            description: r#"```mlir
%g = "imp.grid_dim"() {dim = 0 : i64} : () -> i64
```"#,
            traits: Traits::PURE,
            verify: v::index_query,
        },
        OpDef {
            name: "imp.assert",
            summary: "Stops the program with a message unless a condition holds.",
            description: r#"Operands `(cond, args...)`: the i1 condition, then i64 values that the
attribute `message` refers to as `{0}`, `{1}`, ... (at most 15). In host
code the program reports the message and exits; in a kernel the thread
records the message in the error buffer and stops, and the host reports
it at the next synchronisation.

```mlir
"imp.assert"(%ok, %i, %n) {message = "Index [{0}] out of bounds for array of shape [{1}]."} : (i1, i64, i64) -> ()
```"#,
            traits: Traits::NONE,
            verify: v::assert,
        },
        OpDef {
            name: "imp.yield",
            summary: "Ends a loop body, condition or branch.",
            description: r#"```mlir
"imp.yield"() : () -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: v::yield_,
        },
        OpDef {
            name: "imp.return",
            summary: "Returns from a host function or kernel.",
            description: r#"```mlir
"imp.return"() : () -> ()
```"#,
            traits: Traits::TERMINATOR,
            verify: v::return_,
        },
    ]
}
