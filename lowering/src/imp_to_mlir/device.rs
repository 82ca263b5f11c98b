//! The CUDA target: kernels in a `gpu.module`, and the host side of
//! launches and of reads and writes of device memory.
//!
//! A kernel is a `gpu.func` with the `kernel` attribute inside the
//! `gpu.module @futmlir_kernels` (with its `#nvvm.target`), its body in
//! `scf`/`arith`/`math` like host code, thread indices as
//! `nvvm.read.ptx.sreg.*` and barriers as `nvvm.barrier0`. MLIR's
//! `convert-gpu-to-nvvm` turns `math` ops into calls of CUDA's libdevice,
//! linked in when `codegen::find_libdevice` finds it; without libdevice
//! the `math` ops go to LLVM intrinsics, and only those LLVM's NVPTX back
//! end selects itself ([`KERNEL_MATH`]) are accepted, the others refused
//! with a diagnostic. Float functions `math` lacks (`hypot`, `gamma`,
//! `lgamma`) are libdevice calls (`Emitter::libm_call`). Every kernel takes the runtime's error buffer first;
//! a failed assertion writes its message number and arguments there and
//! ends the thread (`nvvm.exit`). Booleans cross the launch as bytes.

use std::fmt::Write as _;

use futmlir_dialects::ir::{OpId, OpView, Scalar, TypeKind, Value};

use super::{memory_type, mlir_type, scalar_type, Emitter, R};

/// The `math` ops NVPTX selects without libdevice.
pub(crate) const KERNEL_MATH: &[&str] = &[
    "math.sqrt",
    "math.absf",
    "math.floor",
    "math.ceil",
    "math.trunc",
    "math.roundeven",
    "math.fma",
    "math.copysign",
];

pub(super) fn kernel(e: &mut Emitter, k: OpId) -> R<()> {
    let ctx = e.ctx;
    let name = OpView { ctx, op: k }.string_attr("sym_name").unwrap_or("k").to_string();
    let body = ctx.blocks(ctx.regions(k)[0])[0];
    let params = ctx.block_args(body).to_vec();
    let mut sig = vec!["%err: !llvm.ptr".to_string()];
    let mut bools = Vec::new();
    for &p in &params {
        let n = e.bind(p);
        if e.ctx.as_scalar(e.ctx.value_type(p)) == Some(Scalar::Bool) {
            sig.push(format!("{n}_byte: i8"));
            bools.push(n);
        } else {
            sig.push(format!("{n}: {}", e.ty(p)));
        }
    }
    let saved_out = std::mem::take(&mut e.out);
    let saved_indent = std::mem::replace(&mut e.indent, 6);
    e.in_kernel = true;
    let block = (OpView { ctx, op: k })
        .int_array_attr("block_size")
        .ok()
        .and_then(|b| b.first().copied());
    let mut attrs = Vec::new();
    if let Some(b) = block {
        attrs.push(format!("nvvm.maxntid = array<i32: {b}, 1, 1>"));
    }
    if let Ok(m) = (OpView { ctx, op: k }).int_attr("min_blocks") {
        attrs.push(format!("nvvm.minctasm = {m} : i32"));
    }
    let attrs = if attrs.is_empty() {
        String::new()
    } else {
        format!(" attributes {{{}}}", attrs.join(", "))
    };
    let _ = writeln!(e.out, "    gpu.func @{name}({}) kernel{attrs} {{", sig.join(", "));
    for n in bools {
        e.line(&format!("{n} = arith.trunci {n}_byte : i8 to i1"));
    }
    let r = e.block_body(body, "gpu.return");
    e.out.push_str("    }\n");
    e.in_kernel = false;
    e.indent = saved_indent;
    let text = std::mem::replace(&mut e.out, saved_out);
    r?;
    if let Some(op) = e.kernel_math.take() {
        return Err(e.fail(
            k,
            format!(
                "`{op}` in a GPU kernel needs CUDA's libdevice, which was not found: set FUTMLIR_LIBDEVICE to libdevice.10.bc (CUDA's nvvm/libdevice folder; `scripts/fetch-ptxas.sh` fetches it)"
            ),
        ));
    }
    e.device.push_str(&text);
    e.kernels.push(name);
    Ok(())
}

/// The device version of a function that kernels call (Note [Functions
/// at the imp level] in `segop_to_imp/call.rs`): a `func.func` of the
/// device module taking the error buffer first, its body kernel code.
pub(super) fn device_func(e: &mut Emitter, f: OpId) -> R<()> {
    let ctx = e.ctx;
    let name = OpView { ctx, op: f }.string_attr("sym_name").unwrap_or("f").to_string();
    let body = ctx.blocks(ctx.regions(f)[0])[0];
    let mut sig = vec!["%err: !llvm.ptr".to_string()];
    for &p in ctx.block_args(body) {
        let n = e.bind(p);
        sig.push(format!("{n}: {}", e.ty(p)));
    }
    let results = super::function_results(ctx, f);
    let saved_out = std::mem::take(&mut e.out);
    let saved_indent = std::mem::replace(&mut e.indent, 6);
    e.in_kernel = true;
    let _ = writeln!(
        e.out,
        "    func.func @futfn_{}({}) -> ({}) {{",
        super::symbol(&name),
        sig.join(", "),
        results.join(", ")
    );
    let r = e.block_body(body, "func.return");
    e.out.push_str("    }\n");
    e.in_kernel = false;
    e.indent = saved_indent;
    let text = std::mem::replace(&mut e.out, saved_out);
    r?;
    if let Some(op) = e.kernel_math.take() {
        return Err(e.fail(
            f,
            format!(
                "`{op}` in a GPU kernel needs CUDA's libdevice, which was not found: set FUTMLIR_LIBDEVICE to libdevice.10.bc (CUDA's nvvm/libdevice folder; `scripts/fetch-ptxas.sh` fetches it)"
            ),
        ));
    }
    e.device.push_str(&text);
    Ok(())
}

/// The device module: shared-memory globals and the kernels.
pub(super) fn module_text(e: &Emitter) -> String {
    let mut s = String::from("module attributes {gpu.container_module} {\n  gpu.module @futmlir_kernels {\n");
    for g in e.shared.iter().chain(&e.device_decls) {
        let _ = writeln!(s, "    {g}");
    }
    s.push_str(&e.device);
    s.push_str("  }\n}\n");
    s
}

/// Ops that exist only inside kernels.
pub(super) fn kernel_op(e: &mut Emitter, o: OpId) -> R<()> {
    let ctx = e.ctx;
    if !e.in_kernel {
        return Err(e.fail(o, format!("`{}` outside a kernel", ctx.op_name(o))));
    }
    let ops = ctx.operands(o).to_vec();
    let results: Vec<Value> = ctx.results(o).collect();
    match ctx.op_name(o) {
        name @ ("imp.thread_id" | "imp.block_id" | "imp.block_dim" | "imp.grid_dim") => {
            let dim = OpView { ctx, op: o }.int_attr("dim").unwrap_or(0);
            let axis = ["x", "y", "z"][dim.clamp(0, 2) as usize];
            let reg = match name {
                "imp.thread_id" => "tid",
                "imp.block_id" => "ctaid",
                "imp.block_dim" => "ntid",
                _ => "nctaid",
            };
            let r = e.tmp(&format!("nvvm.read.ptx.sreg.{reg}.{axis} : i32"));
            e.def(results[0], &format!("arith.extui {r} : i32 to i64"));
        }
        "imp.barrier" => e.line("nvvm.barrier0"),
        "imp.fence" => e.line("nvvm.memory.barrier #nvvm.mem_scope<gpu>"),
        "imp.shared_alloc" => {
            let bytes = constant_of(e, ops[0])
                .ok_or_else(|| e.fail(o, "the compiled backends need a constant size for shared memory"))?;
            let g = format!("futrt_shared_{}", e.shared.len());
            e.shared.push(format!(
                "llvm.mlir.global internal @{g}() {{addr_space = 3 : i32, alignment = 16 : i64}} : !llvm.array<{bytes} x i8>"
            ));
            e.def(results[0], &format!("llvm.mlir.addressof @{g} : !llvm.ptr<3>"));
        }
        "imp.atomic" => {
            let kind = OpView { ctx, op: o }.string_attr("kind").unwrap_or("add").to_string();
            let s = e.scalar_of(ops[2]);
            let op = match (kind.as_str(), s.is_float(), s.is_signed_int()) {
                ("add", true, _) => "fadd",
                ("add", false, _) => "add",
                ("min", false, true) => "min",
                ("min", false, false) => "umin",
                ("max", false, true) => "max",
                ("max", false, false) => "umax",
                ("and", false, _) => "_and",
                ("or", false, _) => "_or",
                ("xor", false, _) => "_xor",
                _ => return Err(e.fail(o, format!("the compiled backends do not support atomic `{kind}` yet"))),
            };
            let p = e.gep(ops[0], ops[1], s);
            let x = e.name(ops[2]);
            let pt = e.ty(ops[0]);
            e.def(
                results[0],
                &format!("llvm.atomicrmw {op} {p}, {x} monotonic : {pt}, {}", scalar_type(s)),
            );
        }
        "imp.shuffle" => {
            let kind = match (OpView { ctx, op: o }).string_attr("kind").unwrap_or("down") {
                "xor" => "bfly",
                _ => "down",
            };
            let s = e.scalar_of(ops[0]);
            let x = e.name(ops[0]);
            let off = e.name(ops[1]);
            let off = e.tmp(&format!("arith.trunci {off} : i64 to i32"));
            let r = shuffle(e, kind, s, &x, &off);
            e.alias(results[0], &r);
        }
        other => return Err(e.fail(o, format!("`{other}` in a kernel"))),
    }
    Ok(())
}

/// A warp shuffle (`nvvm.shfl.sync` of kind `kind`, all lanes) of `x` of
/// type `s` by `off` (an i32); returns the shuffled value's name. The
/// hardware moves 32 bits: narrower values are widened, 64-bit ones go
/// in two halves.
fn shuffle(e: &mut Emitter, kind: &str, s: Scalar, x: &str, off: &str) -> String {
    let mask = e.tmp("llvm.mlir.constant(-1 : i32) : i32");
    let clamp = e.tmp("llvm.mlir.constant(31 : i32) : i32");
    let word = |e: &mut Emitter, w: &str| {
        e.tmp(&format!(
            "nvvm.shfl.sync {kind} {mask}, {w}, {off}, {clamp} : i32 -> i32"
        ))
    };
    match s {
        Scalar::I32 | Scalar::U32 => word(e, x),
        Scalar::F32 => {
            let w = e.tmp(&format!("arith.bitcast {x} : f32 to i32"));
            let r = word(e, &w);
            e.tmp(&format!("arith.bitcast {r} : i32 to f32"))
        }
        Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 | Scalar::Bool | Scalar::F16 => {
            let t = scalar_type(s);
            let (int_t, v) = if s == Scalar::F16 {
                ("i16", e.tmp(&format!("arith.bitcast {x} : f16 to i16")))
            } else {
                (t, x.to_string())
            };
            let w = e.tmp(&format!("arith.extui {v} : {int_t} to i32"));
            let r = word(e, &w);
            let r = e.tmp(&format!("arith.trunci {r} : i32 to {int_t}"));
            if s == Scalar::F16 {
                e.tmp(&format!("arith.bitcast {r} : i16 to f16"))
            } else {
                r
            }
        }
        Scalar::I64 | Scalar::U64 | Scalar::F64 => {
            let v = if s == Scalar::F64 {
                e.tmp(&format!("arith.bitcast {x} : f64 to i64"))
            } else {
                x.to_string()
            };
            let c32 = e.tmp("arith.constant 32 : i64");
            let lo = e.tmp(&format!("arith.trunci {v} : i64 to i32"));
            let hi = e.tmp(&format!("arith.shrui {v}, {c32} : i64"));
            let hi = e.tmp(&format!("arith.trunci {hi} : i64 to i32"));
            let lo = word(e, &lo);
            let hi = word(e, &hi);
            let lo = e.tmp(&format!("arith.extui {lo} : i32 to i64"));
            let hi = e.tmp(&format!("arith.extui {hi} : i32 to i64"));
            let hi = e.tmp(&format!("arith.shli {hi}, {c32} : i64"));
            let r = e.tmp(&format!("arith.ori {hi}, {lo} : i64"));
            if s == Scalar::F64 {
                e.tmp(&format!("arith.bitcast {r} : i64 to f64"))
            } else {
                r
            }
        }
    }
}

/// The value of `v` if a `soac.constant` defines it.
fn constant_of(e: &Emitter, v: Value) -> Option<i64> {
    let d = e.ctx.defining_op(v)?;
    if e.ctx.op_name(d) != "soac.constant" {
        return None;
    }
    OpView { ctx: e.ctx, op: d }.int_attr("value").ok()
}

/// A failed assertion in a kernel: the first failing thread records the
/// message number (plus one) and the arguments in the error buffer; the
/// thread ends.
pub(super) fn kernel_assert(e: &mut Emitter, o: OpId) -> R<()> {
    let k = e.message_number(o);
    let ops = e.ctx.operands(o).to_vec();
    let c = e.name(ops[0]);
    e.line(&format!("scf.if {c} {{"));
    e.line("} else {");
    e.indent += 2;
    let args: Vec<String> = ops[1..].iter().map(|&a| e.name(a)).collect();
    report_and_exit(e, k, &args);
    e.indent -= 2;
    e.line("}");
    Ok(())
}

/// The failing thread's side of a run-time error in a kernel: the first
/// thread to fail records message number `k` (plus one) and `args`
/// (i64s) in the error buffer, which the host reads at its next wait
/// (`Cuda::sync` in the runtime); the thread ends.
fn report_and_exit(e: &mut Emitter, k: usize, args: &[String]) {
    let z = e.tmp("llvm.mlir.constant(0 : i64) : i64");
    let code = e.tmp(&format!("llvm.mlir.constant({} : i64) : i64", k + 1));
    let r = e.tmp(&format!(
        "llvm.cmpxchg %err, {z}, {code} acq_rel monotonic : !llvm.ptr, i64"
    ));
    let won = e.tmp(&format!("llvm.extractvalue {r}[1] : !llvm.struct<(i64, i1)>"));
    e.line(&format!("scf.if {won} {{"));
    e.indent += 2;
    for (j, x) in args.iter().enumerate() {
        let p = e.tmp(&format!(
            "llvm.getelementptr %err[{}] : (!llvm.ptr) -> !llvm.ptr, i64",
            j + 1
        ));
        e.line(&format!("llvm.store {x}, {p} : i64, !llvm.ptr"));
    }
    e.indent -= 2;
    e.line("}");
    e.line("nvvm.exit");
}

/// The device global in which the runtime stores the device heap's size
/// (`runtime-cuda/ABI.md`), for the message of a failed thread
/// allocation. Its presence also tells the runtime that the program
/// allocates in threads, so that it sets the heap's size.
pub(crate) const HEAP_BYTES_GLOBAL: &str = "futrt_heap_bytes";

/// The device global whose presence tells the runtime that device
/// functions call themselves (through others or not), so that it gives
/// each thread a larger stack (Note [The device heap] in the runtime's
/// `cuda.rs`).
pub(crate) const RECURSIVE_GLOBAL: &str = "futrt_recursive";

/// Whether some device function of the module (of body `body`) can call
/// itself: a cycle in the calls between device functions.
pub(super) fn recursive_device_functions(
    ctx: &futmlir_dialects::ir::Context,
    body: futmlir_dialects::ir::BlockId,
) -> bool {
    use std::collections::HashMap;
    let mut calls: HashMap<String, Vec<String>> = HashMap::new();
    for f in ctx.block_ops(body) {
        if ctx.op_name(f) != "imp.func" || ctx.attr(f, "device").is_none() {
            continue;
        }
        let name = OpView { ctx, op: f }.string_attr("sym_name").unwrap_or("").to_string();
        let mut callees = Vec::new();
        ctx.walk(f, &mut |o| {
            if ctx.op_name(o) == "imp.call" {
                if let Some(c) = crate::segop_to_imp::callee(ctx, o) {
                    callees.push(c);
                }
            }
        });
        calls.insert(name, callees);
    }
    // A function reaches itself: a search from each one.
    calls.keys().any(|start| {
        let mut seen = std::collections::HashSet::new();
        let mut work: Vec<&String> = calls[start].iter().collect();
        while let Some(f) = work.pop() {
            if f == start {
                return true;
            }
            if seen.insert(f) {
                work.extend(calls.get(f).into_iter().flatten());
            }
        }
        false
    })
}

/// The message of a thread allocation that failed: the bytes asked for
/// and the heap's size.
pub(crate) const HEAP_EXHAUSTED: &str = "a GPU thread could not allocate {0} bytes: the device heap ({1} bytes) is exhausted (set FUTMLIR_DEVICE_HEAP to a larger size in bytes)";

/// `mem.alloc {thread}` in kernel code (Note [Thread allocations] in
/// `segop_to_imp`): CUDA's device `malloc`, which PTX calls as a system
/// call that the driver's JIT resolves. A NULL block of a non-zero size
/// (the heap is full) is a run-time error through the error buffer.
pub(super) fn thread_alloc(e: &mut Emitter, o: OpId) -> R<()> {
    let ctx = e.ctx;
    let bytes = e.name(ctx.operands(o)[0]);
    e.device_decls.insert("llvm.func @malloc(i64) -> !llvm.ptr".into());
    e.device_decls.insert(format!(
        "llvm.mlir.global external @{HEAP_BYTES_GLOBAL}(0 : i64) {{addr_space = 1 : i32, alignment = 8 : i64}} : i64"
    ));
    let p = e.tmp(&format!("llvm.call @malloc({bytes}) : (i64) -> !llvm.ptr"));
    e.alias(ctx.result(o, 0), &p);
    let null = e.tmp("llvm.mlir.zero : !llvm.ptr");
    let is_null = e.tmp(&format!("llvm.icmp \"eq\" {p}, {null} : !llvm.ptr"));
    let zero = e.tmp("arith.constant 0 : i64");
    let some = e.tmp(&format!("arith.cmpi ne, {bytes}, {zero} : i64"));
    let failed = e.tmp(&format!("arith.andi {is_null}, {some} : i1"));
    e.line(&format!("scf.if {failed} {{"));
    e.indent += 2;
    let g = e.tmp(&format!("llvm.mlir.addressof @{HEAP_BYTES_GLOBAL} : !llvm.ptr<1>"));
    let heap = e.tmp(&format!("llvm.load {g} : !llvm.ptr<1> -> i64"));
    let k = e.message_text(HEAP_EXHAUSTED);
    report_and_exit(e, k, &[bytes, heap]);
    e.indent -= 2;
    e.line("}");
    Ok(())
}

/// `mem.free` in kernel code: of a block the thread allocated, by CUDA's
/// device `free`.
pub(super) fn thread_free(e: &mut Emitter, o: OpId) {
    let m = e.name(e.ctx.operands(o)[0]);
    e.device_decls.insert("llvm.func @free(!llvm.ptr)".into());
    e.line(&format!("llvm.call @free({m}) : (!llvm.ptr) -> ()"));
}

/// Host code reading or writing one element of device memory: through
/// the runtime, after waiting for the kernels (which may have failed).
pub(super) fn host_access(e: &mut Emitter, o: OpId) -> R<()> {
    let ctx = e.ctx;
    let ops = ctx.operands(o).to_vec();
    let load = ctx.op_name(o) == "imp.load";
    let s = if load {
        e.scalar_of(ctx.result(o, 0))
    } else {
        e.scalar_of(ops[2])
    };
    let mt = memory_type(s);
    let bytes = super::super::segop_to_imp::elem_bytes(s);
    let scratch = e.entry_alloca("i64");
    let (m, i) = (e.name(ops[0]), e.name(ops[1]));
    let size = e.tmp(&format!("arith.constant {bytes} : i64"));
    let off = e.tmp(&format!("arith.muli {i}, {size} : i64"));
    if load {
        e.line("llvm.call @futrt_sync(%ctx) : (!llvm.ptr) -> i32");
        e.line(&format!(
            "llvm.call @futrt_read(%ctx, {scratch}, {m}, {off}, {size}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> ()"
        ));
        let r = ctx.result(o, 0);
        if s == Scalar::Bool {
            let b = e.tmp(&format!("llvm.load {scratch} : !llvm.ptr -> i8"));
            e.def(r, &format!("arith.trunci {b} : i8 to i1"));
        } else {
            e.def(r, &format!("llvm.load {scratch} : !llvm.ptr -> {mt}"));
        }
    } else {
        let mut x = e.name(ops[2]);
        if s == Scalar::Bool {
            x = e.tmp(&format!("arith.extui {x} : i1 to i8"));
        }
        e.line(&format!("llvm.store {x}, {scratch} : {mt}, !llvm.ptr"));
        e.line(&format!(
            "llvm.call @futrt_write(%ctx, {m}, {off}, {scratch}, {size}) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> ()"
        ));
    }
    Ok(())
}

/// `imp.launch`: the arguments (the error buffer first) in entry-block
/// slots, an array of pointers to them, and `futrt_launch`.
pub(super) fn launch(e: &mut Emitter, o: OpId) -> R<()> {
    let ctx = e.ctx;
    if e.in_kernel || !e.gpu {
        return Err(e.fail(o, "a kernel launch outside host code of the CUDA target"));
    }
    let ops = ctx.operands(o).to_vec();
    let callee = match ctx.attr(o, "callee").map(|a| ctx.attr_kind(a)) {
        Some(futmlir_dialects::ir::AttrKind::SymbolRef(s)) => ctx.str(*s).to_string(),
        _ => return Err(e.fail(o, "imp.launch without a callee")),
    };
    let k = e
        .kernels
        .iter()
        .position(|n| *n == callee)
        .ok_or_else(|| e.fail(o, format!("no kernel `{callee}`")))?;
    let args = &ops[6..];
    let n = args.len() + 1;
    let slots = e.entry_alloca(&format!("!llvm.array<{n} x i64>"));
    let ptrs = e.entry_alloca(&format!("!llvm.array<{n} x ptr>"));
    let err = e.tmp("llvm.call @futrt_error_buffer(%ctx) : (!llvm.ptr) -> !llvm.ptr");
    let mut values = vec![(err, "!llvm.ptr".to_string())];
    for &a in args {
        let t = ctx.value_type(a);
        let mut x = e.name(a);
        let mut ty = mlir_type(ctx, t);
        if matches!(ctx.type_kind(t), TypeKind::Scalar(Scalar::Bool)) {
            x = e.tmp(&format!("arith.extui {x} : i1 to i8"));
            ty = "i8".into();
        }
        values.push((x, ty));
    }
    for (j, (x, ty)) in values.iter().enumerate() {
        let slot = e.tmp(&format!(
            "llvm.getelementptr {slots}[{j}] : (!llvm.ptr) -> !llvm.ptr, i64"
        ));
        e.line(&format!("llvm.store {x}, {slot} : {ty}, !llvm.ptr"));
        let p = e.tmp(&format!(
            "llvm.getelementptr {ptrs}[{j}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
        ));
        e.line(&format!("llvm.store {slot}, {p} : !llvm.ptr, !llvm.ptr"));
    }
    let dims: Vec<String> = ops[..6].iter().map(|&v| e.name(v)).collect();
    let kc = e.tmp(&format!("llvm.mlir.constant({k} : i32) : i32"));
    let shared = e.tmp("llvm.mlir.constant(0 : i64) : i64");
    e.line(&format!(
        "llvm.call @futrt_launch(%ctx, {kc}, {}, {shared}, {ptrs}) : (!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> i32",
        dims.join(", ")
    ));
    Ok(())
}
