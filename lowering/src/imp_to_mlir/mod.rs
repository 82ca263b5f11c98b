//! `imp` → upstream MLIR, as text that `codegen` parses with melior.
//!
//! Host code uses `func`, `scf` (imp's loops and branches are
//! structured), `arith`, `math` and `llvm` (pointers: a memory block is
//! an `!llvm.ptr`, loads and stores go through `llvm.getelementptr`).
//! Each entry point gives:
//! - `@futhark_<name>`: the imp function, taking the runtime context
//!   first;
//! - `@futrt_entry_<name>`: the runtime's calling convention
//!   (`runtime-cuda/ABI.md`), unpacking the argument pointers, calling
//!   the function and storing the results;
//! - and the program descriptor `@futmlir_program` with `main`, which
//!   calls `futrt_main`.
//!
//! A function that `imp.call` calls (Note [Functions at the imp level] in
//! `segop_to_imp/call.rs`) gives `@futfn_<name>`, taking the runtime
//! context first; its device version (imp symbol `<name>$device`) is a
//! `func.func` `@futfn_<name>$24device` in the `gpu.module`, taking the
//! kernels' error buffer first.
//!
//! Memory holds a `bool` as one byte; in registers it is an `i1`.
//! Scalar semantics follow the one scalar semantics of the interpreters
//! (`values/src/scalar/`, reached from the soac op kinds through
//! `dialects/src/interp/scalar.rs`): integer `div`/`mod` round towards negative
//! infinity for signed types, shifts by at least the width give 0 (or
//! -1 for a negative value shifted right), float `min`/`max` ignore a
//! NaN operand.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use futmlir_dialects::ir::{AttrKind, BlockId, Context, Diagnostic, OpId, OpView, Scalar, Type, TypeKind, Value};

mod device;
mod scalar;

/// The MLIR module of an imp module, and the messages its assertions
/// refer to by number.
pub struct Emitted {
    /// The module of functions.
    pub text: String,
    /// The program descriptor and `main`, in the LLVM dialect: they take
    /// the entry functions' addresses, so they join the module after its
    /// conversion to the LLVM dialect. `@futrt_ptx` is left to define
    /// (see [`ptx_global`]) on the CUDA target.
    pub descriptor: String,
    /// The CUDA target's kernels: a `gpu.module` (see `device`).
    pub device: Option<String>,
    /// The entry points as the descriptor describes them (the C library's
    /// header is generated from them).
    pub entries: Vec<EntryInfo>,
}

/// Emits the MLIR of an imp module; `gpu`: the CUDA target (kernels in a
/// device module, host access to device memory through the runtime);
/// `libdevice`: CUDA's libdevice will be linked into the kernels, so they
/// may use every float function (without it, only those NVPTX selects
/// itself, [`device::KERNEL_MATH`]).
pub fn emit_module(ctx: &Context, module: OpId, gpu: bool, libdevice: bool) -> Result<Emitted, Diagnostic> {
    let mut e = Emitter {
        ctx,
        out: String::new(),
        names: HashMap::new(),
        next: 0,
        messages: Vec::new(),
        indent: 2,
        gpu,
        in_kernel: false,
        entry_allocas: Vec::new(),
        shared: Vec::new(),
        kernels: Vec::new(),
        device: String::new(),
        kernel_math: None,
        libdevice,
        host_decls: BTreeSet::new(),
        device_decls: BTreeSet::new(),
    };
    let body = ctx.blocks(ctx.regions(module)[0])[0];
    let mut entries = Vec::new();
    e.out.push_str("module {\n");
    e.out.push_str(RUNTIME_DECLS);
    // Kernels first: launches refer to them by number.
    for f in ctx.block_ops(body) {
        if ctx.op_name(f) == "imp.kernel" {
            device::kernel(&mut e, f)?;
        }
        if ctx.op_name(f) == "imp.func" && ctx.attr(f, "device").is_some() {
            if !gpu {
                return Err(Diagnostic::error(
                    ctx.location(f),
                    "imp-to-mlir: a device function on the CPU target",
                ));
            }
            device::device_func(&mut e, f)?;
        }
    }
    for f in ctx.block_ops(body) {
        match ctx.op_name(f) {
            "imp.func" if ctx.attr(f, "device").is_some() => {}
            "imp.func" if ctx.attr(f, "entry").is_none() => e.internal_func(f)?,
            "imp.func" => entries.push(e.func(f)?),
            "imp.kernel" if gpu => {}
            other => {
                return Err(Diagnostic::error(
                    ctx.location(f),
                    format!("imp-to-mlir: a module of imp.funcs was expected, found `{other}`"),
                ))
            }
        }
    }
    if gpu && device::recursive_device_functions(ctx, body) {
        e.device_decls.insert(format!(
            "llvm.mlir.global external @{}(0 : i64) {{addr_space = 1 : i32, alignment = 8 : i64}} : i64",
            device::RECURSIVE_GLOBAL
        ));
    }
    for d in std::mem::take(&mut e.host_decls) {
        let _ = writeln!(e.out, "  {d}");
    }
    e.out.push_str("}\n");
    let text = std::mem::take(&mut e.out);
    e.descriptor(&entries);
    let device = gpu.then(|| device::module_text(&e));
    Ok(Emitted {
        text,
        descriptor: e.out,
        device,
        entries,
    })
}

const RUNTIME_DECLS: &str = r#"  llvm.func @futrt_alloc(!llvm.ptr, i64) -> !llvm.ptr
  llvm.func @futrt_free(!llvm.ptr, !llvm.ptr)
  llvm.func @futrt_fail(!llvm.ptr, i32, i64, !llvm.ptr) -> i32
  llvm.func @futrt_main(i32, !llvm.ptr, !llvm.ptr) -> i32
  llvm.func @futrt_read(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64)
  llvm.func @futrt_write(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64)
  llvm.func @futrt_launch(!llvm.ptr, i32, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> i32
  llvm.func @futrt_sync(!llvm.ptr) -> i32
  llvm.func @futrt_error_buffer(!llvm.ptr) -> !llvm.ptr
  llvm.func @futrt_param(!llvm.ptr, i32) -> i64
"#;

/// What the descriptor needs to know about one entry point.
pub struct EntryInfo {
    pub name: String,
    /// The components' types as `(element code, rank)` pairs, flattened
    /// (`runtime-cuda/ABI.md`).
    pub in_types: Vec<i64>,
    pub out_types: Vec<i64>,
    /// Note [Entry point interfaces] in the frontend; empty when the
    /// function has none (IR written by hand).
    pub interface: String,
}

pub(crate) struct Emitter<'c> {
    pub ctx: &'c Context,
    pub out: String,
    names: HashMap<Value, String>,
    next: usize,
    messages: Vec<String>,
    indent: usize,
    /// The CUDA target.
    pub gpu: bool,
    /// Emitting a kernel's body.
    pub in_kernel: bool,
    /// `llvm.alloca`s for the current host function's entry block (loops
    /// must not grow the stack).
    pub entry_allocas: Vec<String>,
    /// Shared-memory globals of the device module.
    pub shared: Vec<String>,
    /// The kernels' names, in launch-number order.
    pub kernels: Vec<String>,
    /// The kernels' text.
    pub device: String,
    /// A `math` op in a kernel that NVPTX cannot select without libdevice.
    pub kernel_math: Option<String>,
    /// libdevice will be linked into the kernels.
    pub libdevice: bool,
    /// Declarations of the C maths library functions host code calls.
    pub host_decls: BTreeSet<String>,
    /// Declarations of the libdevice functions kernels call.
    pub device_decls: BTreeSet<String>,
}

/// The MLIR type of an imp value type.
pub(crate) fn mlir_type(ctx: &Context, t: Type) -> String {
    match ctx.type_kind(t) {
        TypeKind::Scalar(s) => scalar_type(*s).to_string(),
        TypeKind::Mem(futmlir_dialects::ir::MemSpace::Shared) => "!llvm.ptr<3>".to_string(),
        TypeKind::Mem(_) => "!llvm.ptr".to_string(),
        _ => "<unsupported type>".to_string(),
    }
}

pub(crate) fn scalar_type(s: Scalar) -> &'static str {
    match s {
        Scalar::I8 | Scalar::U8 => "i8",
        Scalar::I16 | Scalar::U16 => "i16",
        Scalar::I32 | Scalar::U32 => "i32",
        Scalar::I64 | Scalar::U64 => "i64",
        Scalar::F16 => "f16",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
        Scalar::Bool => "i1",
    }
}

/// The type a scalar has in memory (a bool is a byte).
pub(crate) fn memory_type(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "i8",
        s => scalar_type(s),
    }
}

type R<T> = Result<T, Diagnostic>;

impl<'c> Emitter<'c> {
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    pub fn bind(&mut self, v: Value) -> String {
        self.next += 1;
        let n = format!("%v{}", self.next);
        self.names.insert(v, n.clone());
        n
    }

    /// Names `v` by an already emitted value `name`.
    pub fn alias(&mut self, v: Value, name: &str) {
        self.names.insert(v, name.to_string());
    }

    pub fn name(&self, v: Value) -> String {
        self.names.get(&v).cloned().unwrap_or_else(|| "%undefined".into())
    }

    pub fn ty(&self, v: Value) -> String {
        mlir_type(self.ctx, self.ctx.value_type(v))
    }

    pub fn scalar_of(&self, v: Value) -> Scalar {
        self.ctx.as_scalar(self.ctx.value_type(v)).unwrap_or(Scalar::I64)
    }

    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push(' ');
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// Notes a `math` op in a kernel that the GPU cannot run yet.
    fn check_kernel_math(&mut self, rhs: &str) {
        let op = rhs.split_whitespace().next().unwrap_or("");
        if self.in_kernel && !self.libdevice && op.starts_with("math.") && !device::KERNEL_MATH.contains(&op) {
            self.kernel_math.get_or_insert_with(|| op.to_string());
        }
    }

    /// A call of a float function that MLIR's `math` dialect lacks: the C
    /// maths library's `base` (`hypotf` for f32, `hypot` for f64) in host
    /// code, libdevice's `__nv_` one in kernels. `f16` goes through f32.
    pub fn libm_call(&mut self, base: &str, args: &[String], s: Scalar) -> String {
        let (t, suffix) = match s {
            Scalar::F64 => ("f64", ""),
            _ => ("f32", "f"),
        };
        let args: Vec<String> = if s == Scalar::F16 {
            args.iter()
                .map(|a| self.tmp(&format!("arith.extf {a} : f16 to f32")))
                .collect()
        } else {
            args.to_vec()
        };
        let name = if self.in_kernel {
            if !self.libdevice {
                self.kernel_math.get_or_insert_with(|| base.to_string());
            }
            format!("__nv_{base}{suffix}")
        } else {
            format!("{base}{suffix}")
        };
        let sig = vec![t; args.len()].join(", ");
        let decl = format!("llvm.func @{name}({sig}) -> {t}");
        if self.in_kernel {
            self.device_decls.insert(decl);
        } else {
            self.host_decls.insert(decl);
        }
        let call = format!("llvm.call @{name}({}) : ({sig}) -> {t}", args.join(", "));
        if s == Scalar::F16 {
            let r = self.tmp(&call);
            format!("arith.truncf {r} : f32 to f16")
        } else {
            call
        }
    }

    /// Emits `rhs` as a new value named for `v`.
    pub fn def(&mut self, v: Value, rhs: &str) {
        self.check_kernel_math(rhs);
        let n = self.bind(v);
        self.line(&format!("{n} = {rhs}"));
    }

    /// Emits `rhs` as a temporary and returns its name.
    pub fn tmp(&mut self, rhs: &str) -> String {
        self.check_kernel_math(rhs);
        let n = self.fresh();
        self.line(&format!("{n} = {rhs}"));
        n
    }

    pub fn fail(&self, op: OpId, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.ctx.location(op), msg.into())
    }

    fn func(&mut self, f: OpId) -> R<EntryInfo> {
        let ctx = self.ctx;
        let view = OpView { ctx, op: f };
        let name = view.string_attr("sym_name").unwrap_or("main").to_string();
        let in_types = view.int_array_attr("in_types").unwrap_or_default();
        let out_types = view.int_array_attr("out_types").unwrap_or_default();
        let body = ctx.blocks(ctx.regions(f)[0])[0];
        let params = ctx.block_args(body).to_vec();
        let result_types: Vec<String> = match ctx.attr(f, "function_type").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Type(t)) => match ctx.type_kind(*t) {
                TypeKind::Function { results, .. } => results.iter().map(|&t| mlir_type(ctx, t)).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let mut sig = vec!["%ctx: !llvm.ptr".to_string()];
        for &p in &params {
            let n = self.bind(p);
            sig.push(format!("{n}: {}", self.ty(p)));
        }
        let _ = writeln!(
            self.out,
            "  func.func @futhark_{}({}) -> ({}) {{",
            symbol(&name),
            sig.join(", "),
            result_types.join(", ")
        );
        self.func_body(body)?;
        // An uncallable entry point's wrapper only returns: the runtime
        // never calls it (Note [Uncallable entry points] in
        // `segop_to_imp::entry`).
        if ctx.attr(f, "uncallable").is_some() {
            self.wrapper(&name, &params, &[], &[], &result_types);
        } else {
            self.wrapper(&name, &params, &in_types, &out_types, &result_types);
        }
        let interface = view.string_attr("interface").unwrap_or_default().to_string();
        Ok(EntryInfo {
            name,
            in_types,
            out_types,
            interface,
        })
    }

    /// The body of the `func.func` whose header was just written, with
    /// the allocas its body asked for at its start.
    fn func_body(&mut self, body: BlockId) -> R<()> {
        self.indent = 4;
        let header_end = self.out.len();
        self.block_body(body, "func.return")?;
        self.out.push_str("  }\n");
        let allocas: String = std::mem::take(&mut self.entry_allocas)
            .iter()
            .map(|a| format!("    {a}\n"))
            .collect();
        self.out.insert_str(header_end, &allocas);
        Ok(())
    }

    /// A function that `imp.call` calls (Note [Functions at the imp
    /// level] in `segop_to_imp/call.rs`): `@futfn_<name>`, taking the
    /// runtime context first.
    fn internal_func(&mut self, f: OpId) -> R<()> {
        let ctx = self.ctx;
        let name = OpView { ctx, op: f }.string_attr("sym_name").unwrap_or("f").to_string();
        let body = ctx.blocks(ctx.regions(f)[0])[0];
        let mut sig = vec!["%ctx: !llvm.ptr".to_string()];
        for &p in ctx.block_args(body) {
            let n = self.bind(p);
            sig.push(format!("{n}: {}", self.ty(p)));
        }
        let results = function_results(ctx, f);
        let _ = writeln!(
            self.out,
            "  func.func @futfn_{}({}) -> ({}) {{",
            symbol(&name),
            sig.join(", "),
            results.join(", ")
        );
        self.func_body(body)?;
        Ok(())
    }

    /// `imp.call`: the host version takes the runtime context first, the
    /// device version the error buffer (Note [Functions at the imp level]
    /// in `segop_to_imp/call.rs`).
    fn call(&mut self, o: OpId) -> R<()> {
        let ctx = self.ctx;
        let name = match ctx.attr(o, "callee").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::SymbolRef(s)) | Some(AttrKind::String(s)) => ctx.str(*s).to_string(),
            _ => return Err(self.fail(o, "imp.call without a callee")),
        };
        let first = if self.in_kernel { "%err" } else { "%ctx" };
        let mut args = vec![first.to_string()];
        let mut tys = vec!["!llvm.ptr".to_string()];
        for &a in ctx.operands(o) {
            args.push(self.name(a));
            tys.push(self.ty(a));
        }
        let results: Vec<Value> = ctx.results(o).collect();
        let rtys: Vec<String> = results.iter().map(|&r| mlir_type(ctx, ctx.value_type(r))).collect();
        let lhs = self.result_names(&results);
        self.line(&format!(
            "{lhs}func.call @futfn_{}({}) : ({}) -> ({})",
            symbol(&name),
            args.join(", "),
            tys.join(", "),
            rtys.join(", ")
        ));
        Ok(())
    }

    /// The ops of `b`; its terminator becomes `term` (`scf.yield`,
    /// `func.return`).
    pub fn block_body(&mut self, b: BlockId, term: &str) -> R<()> {
        for o in self.ctx.block_ops(b).collect::<Vec<_>>() {
            match self.ctx.op_name(o) {
                "imp.yield" | "imp.return" => {
                    let vs = self.ctx.operands(o).to_vec();
                    if self.gpu && !self.in_kernel && self.ctx.op_name(o) == "imp.return" {
                        // Kernels still running may fail: wait and check.
                        self.line("llvm.call @futrt_sync(%ctx) : (!llvm.ptr) -> i32");
                    }
                    if vs.is_empty() {
                        self.line(term);
                    } else {
                        let names: Vec<String> = vs.iter().map(|&v| self.name(v)).collect();
                        let tys: Vec<String> = vs.iter().map(|&v| self.ty(v)).collect();
                        self.line(&format!("{term} {} : {}", names.join(", "), tys.join(", ")));
                    }
                }
                _ => self.op(o)?,
            }
        }
        Ok(())
    }

    pub fn op(&mut self, o: OpId) -> R<()> {
        let ctx = self.ctx;
        let name = ctx.op_name(o);
        let ops = ctx.operands(o).to_vec();
        let results: Vec<Value> = ctx.results(o).collect();
        match name {
            "soac.constant" | "soac.binop" | "soac.cmpop" | "soac.unop" | "soac.convop" | "soac.select"
            | "soac.ternop" => scalar::op(self, o, name, &ops, results[0])?,
            "mem.alloc" if self.in_kernel && ctx.attr(o, "thread").is_some() => device::thread_alloc(self, o)?,
            "mem.alloc" if self.in_kernel => {
                return Err(self.fail(o, "an allocation in a GPU kernel that is not a thread's own"))
            }
            "mem.free" if self.in_kernel => device::thread_free(self, o),
            "mem.free" => {
                let m = self.name(ops[0]);
                self.line(&format!(
                    "llvm.call @futrt_free(%ctx, {m}) : (!llvm.ptr, !llvm.ptr) -> ()"
                ));
            }
            "mem.alloc" => {
                let bytes = self.name(ops[0]);
                self.def(
                    results[0],
                    &format!("llvm.call @futrt_alloc(%ctx, {bytes}) : (!llvm.ptr, i64) -> !llvm.ptr"),
                );
            }
            "imp.param" => {
                let k = OpView { ctx: self.ctx, op: o }.int_attr("index").unwrap_or(0);
                let c = self.tmp(&format!("llvm.mlir.constant({k} : i32) : i32"));
                self.def(
                    results[0],
                    &format!("llvm.call @futrt_param(%ctx, {c}) : (!llvm.ptr, i32) -> i64"),
                );
            }
            "imp.load" | "imp.store" if self.host_device_access(ops[0]) => device::host_access(self, o)?,
            "imp.launch" => device::launch(self, o)?,
            "imp.call" => self.call(o)?,
            "imp.thread_id" | "imp.block_id" | "imp.block_dim" | "imp.grid_dim" | "imp.barrier" | "imp.fence"
            | "imp.shared_alloc" | "imp.atomic" | "imp.shuffle" => device::kernel_op(self, o)?,
            "imp.assert" if self.in_kernel => device::kernel_assert(self, o)?,
            "imp.load" | "imp.store" if ctx.attr(o, "width").is_some() => self.wide_access(o),
            "imp.load" => {
                let s = self.scalar_of(results[0]);
                let p = self.gep(ops[0], ops[1], s);
                let pt = self.ty(ops[0]);
                let mt = memory_type(s);
                let vol = volatile(ctx, o);
                let al = alignment(s);
                if s == Scalar::Bool {
                    let b = self.tmp(&format!("llvm.load {vol}{p} {al} : {pt} -> i8"));
                    self.def(results[0], &format!("arith.trunci {b} : i8 to i1"));
                } else {
                    self.def(results[0], &format!("llvm.load {vol}{p} {al} : {pt} -> {mt}"));
                }
            }
            "imp.store" => {
                let s = self.scalar_of(ops[2]);
                let p = self.gep(ops[0], ops[1], s);
                let pt = self.ty(ops[0]);
                let mut x = self.name(ops[2]);
                if s == Scalar::Bool {
                    x = self.tmp(&format!("arith.extui {x} : i1 to i8"));
                }
                let vol = volatile(ctx, o);
                let al = alignment(s);
                self.line(&format!("llvm.store {vol}{x}, {p} {al} : {}, {pt}", memory_type(s)));
            }
            "imp.for" => {
                let (lb, ub, step) = (self.name(ops[0]), self.name(ops[1]), self.name(ops[2]));
                let it = self.ty(ops[0]);
                let b = ctx.blocks(ctx.regions(o)[0])[0];
                let args = ctx.block_args(b).to_vec();
                let i = self.bind(args[0]);
                let carried: Vec<String> = args[1..]
                    .iter()
                    .zip(&ops[3..])
                    .map(|(&a, &init)| {
                        let init = self.name(init);
                        let n = self.bind(a);
                        format!("{n} = {init}")
                    })
                    .collect();
                let res = self.result_names(&results);
                let tys: Vec<String> = results.iter().map(|&r| self.ty(r)).collect();
                let iter = if carried.is_empty() {
                    String::new()
                } else {
                    format!(" iter_args({}) -> ({})", carried.join(", "), tys.join(", "))
                };
                self.line(&format!("{res}scf.for {i} = {lb} to {ub} step {step}{iter} : {it} {{"));
                self.nested(b, "scf.yield")?;
                self.line("}");
            }
            "imp.while" => {
                let regions = ctx.regions(o).to_vec();
                let (cb, bb) = (ctx.blocks(regions[0])[0], ctx.blocks(regions[1])[0]);
                let tys: Vec<String> = ops.iter().map(|&v| self.ty(v)).collect();
                let cargs = ctx.block_args(cb).to_vec();
                let inits: Vec<String> = cargs
                    .iter()
                    .zip(&ops)
                    .map(|(&a, &init)| {
                        let init = self.name(init);
                        let n = self.bind(a);
                        format!("{n} = {init}")
                    })
                    .collect();
                let res = self.result_names(&results);
                self.line(&format!(
                    "{res}scf.while ({}) : ({}) -> ({}) {{",
                    inits.join(", "),
                    tys.join(", "),
                    tys.join(", ")
                ));
                self.indent += 2;
                for c in ctx.block_ops(cb).collect::<Vec<_>>() {
                    if ctx.op_name(c) == "imp.yield" {
                        let cond = self.name(ctx.operands(c)[0]);
                        let names: Vec<String> = cargs.iter().map(|&a| self.name(a)).collect();
                        if names.is_empty() {
                            self.line(&format!("scf.condition({cond})"));
                        } else {
                            self.line(&format!(
                                "scf.condition({cond}) {} : {}",
                                names.join(", "),
                                tys.join(", ")
                            ));
                        }
                    } else {
                        self.op(c)?;
                    }
                }
                self.indent -= 2;
                let bargs = ctx.block_args(bb).to_vec();
                let params: Vec<String> = bargs
                    .iter()
                    .map(|&a| {
                        let n = self.bind(a);
                        format!("{n}: {}", self.ty(a))
                    })
                    .collect();
                self.line(&format!(
                    "}} do {{\n{}^bb0({}):",
                    " ".repeat(self.indent),
                    params.join(", ")
                ));
                self.nested(bb, "scf.yield")?;
                self.line("}");
            }
            "imp.if" => {
                let regions = ctx.regions(o).to_vec();
                let c = self.name(ops[0]);
                let res = self.result_names(&results);
                let tys: Vec<String> = results.iter().map(|&r| self.ty(r)).collect();
                let rt = if tys.is_empty() {
                    String::new()
                } else {
                    format!(" -> ({})", tys.join(", "))
                };
                self.line(&format!("{res}scf.if {c}{rt} {{"));
                self.nested(ctx.blocks(regions[0])[0], "scf.yield")?;
                self.line("} else {");
                self.nested(ctx.blocks(regions[1])[0], "scf.yield")?;
                self.line("}");
            }
            "imp.assert" => {
                let k = self.message_number(o);
                let c = self.name(ops[0]);
                self.line(&format!("scf.if {c} {{"));
                self.line("} else {");
                self.indent += 2;
                let n = ops.len() - 1;
                let buf = self.entry_alloca(&format!("!llvm.array<{} x i64>", n.max(1)));
                for (j, &a) in ops[1..].iter().enumerate() {
                    let p = self.tmp(&format!(
                        "llvm.getelementptr {buf}[{j}] : (!llvm.ptr) -> !llvm.ptr, i64"
                    ));
                    let x = self.name(a);
                    self.line(&format!("llvm.store {x}, {p} : i64, !llvm.ptr"));
                }
                let kc = self.tmp(&format!("llvm.mlir.constant({k} : i32) : i32"));
                let nc = self.tmp(&format!("llvm.mlir.constant({n} : i64) : i64"));
                self.tmp(&format!(
                    "llvm.call @futrt_fail(%ctx, {kc}, {nc}, {buf}) : (!llvm.ptr, i32, i64, !llvm.ptr) -> i32"
                ));
                self.indent -= 2;
                self.line("}");
            }
            other => {
                return Err(self.fail(
                    o,
                    format!("the compiled backends do not support `{other}` yet (imp-to-mlir)"),
                ))
            }
        }
        Ok(())
    }

    /// The number of the message of assertion `o` in the message table.
    pub fn message_number(&mut self, o: OpId) -> usize {
        let msg = OpView { ctx: self.ctx, op: o }
            .string_attr("message")
            .unwrap_or("assertion failed")
            .to_string();
        self.message_text(&msg)
    }

    /// The number of message `msg` (a template whose `{k}` are the
    /// arguments), added to the program's messages if new.
    pub fn message_text(&mut self, msg: &str) -> usize {
        match self.messages.iter().position(|m| m == msg) {
            Some(k) => k,
            None => {
                self.messages.push(msg.to_string());
                self.messages.len() - 1
            }
        }
    }

    /// An `llvm.alloca` of one `ty` in the function's entry block.
    pub fn entry_alloca(&mut self, ty: &str) -> String {
        let n = self.fresh();
        self.entry_allocas
            .push(format!("{n}_one = llvm.mlir.constant(1 : i64) : i64"));
        self.entry_allocas
            .push(format!("{n} = llvm.alloca {n}_one x {ty} : (i64) -> !llvm.ptr"));
        n
    }

    /// Host code on the GPU target touching device memory.
    fn host_device_access(&self, mem: Value) -> bool {
        self.gpu
            && !self.in_kernel
            && matches!(
                self.ctx.type_kind(self.ctx.value_type(mem)),
                TypeKind::Mem(futmlir_dialects::ir::MemSpace::Device)
            )
    }

    pub fn nested(&mut self, b: BlockId, term: &str) -> R<()> {
        self.indent += 2;
        let r = self.block_body(b, term);
        self.indent -= 2;
        r
    }

    /// `%a, %b = ` for an op's results (empty when there are none).
    pub fn result_names(&mut self, results: &[Value]) -> String {
        if results.is_empty() {
            return String::new();
        }
        let names: Vec<String> = results.iter().map(|&r| self.bind(r)).collect();
        format!("{} = ", names.join(", "))
    }

    /// The address of element `idx` of block `mem` holding `s`s.
    /// A load or store of `width` consecutive elements: one access of an
    /// LLVM vector, aligned to its whole size (Note [Vector accesses] in
    /// `segop_to_imp/gpu/segmap.rs`), its elements taken apart or put
    /// together.
    fn wide_access(&mut self, o: OpId) {
        let ctx = self.ctx;
        let ops = ctx.operands(o).to_vec();
        let results: Vec<Value> = ctx.results(o).collect();
        let w = OpView { ctx, op: o }.int_attr("width").unwrap_or(1);
        let load = ctx.op_name(o) == "imp.load";
        let s = if load {
            self.scalar_of(results[0])
        } else {
            self.scalar_of(ops[2])
        };
        let p = self.gep(ops[0], ops[1], s);
        let pt = self.ty(ops[0]);
        let mt = memory_type(s);
        let vt = format!("vector<{w}x{mt}>");
        let al = format!("{{alignment = {} : i64}}", w * super::segop_to_imp::elem_bytes(s));
        if load {
            let v = self.tmp(&format!("llvm.load {p} {al} : {pt} -> {vt}"));
            for (k, &r) in results.iter().enumerate() {
                let c = self.tmp(&format!("llvm.mlir.constant({k} : i32) : i32"));
                if s == Scalar::Bool {
                    let b = self.tmp(&format!("llvm.extractelement {v}[{c} : i32] : {vt}"));
                    self.def(r, &format!("arith.trunci {b} : i8 to i1"));
                } else {
                    self.def(r, &format!("llvm.extractelement {v}[{c} : i32] : {vt}"));
                }
            }
        } else {
            let mut v = self.tmp(&format!("llvm.mlir.poison : {vt}"));
            for (k, &x) in ops[2..].iter().enumerate() {
                let mut x = self.name(x);
                if s == Scalar::Bool {
                    x = self.tmp(&format!("arith.extui {x} : i1 to i8"));
                }
                let c = self.tmp(&format!("llvm.mlir.constant({k} : i32) : i32"));
                v = self.tmp(&format!("llvm.insertelement {x}, {v}[{c} : i32] : {vt}"));
            }
            self.line(&format!("llvm.store {v}, {p} {al} : {vt}, {pt}"));
        }
    }

    pub fn gep(&mut self, mem: Value, idx: Value, s: Scalar) -> String {
        let (m, i) = (self.name(mem), self.name(idx));
        let pt = self.ty(mem);
        self.tmp(&format!(
            "llvm.getelementptr {m}[{i}] : ({pt}, i64) -> {pt}, {}",
            memory_type(s)
        ))
    }

    /// `@futrt_entry_<name>(ctx, outs, ins) -> i32`: the runtime's
    /// calling convention around `@futhark_<name>`.
    fn wrapper(&mut self, name: &str, params: &[Value], in_types: &[i64], out_types: &[i64], results: &[String]) {
        let _ = writeln!(
            self.out,
            "  func.func @futrt_entry_{}(%ctx: !llvm.ptr, %outs: !llvm.ptr, %ins: !llvm.ptr) -> i32 {{",
            symbol(name)
        );
        self.indent = 4;
        let mut args = vec!["%ctx".to_string()];
        let mut arg_types = vec!["!llvm.ptr".to_string()];
        let mut pi = 0;
        for (j, d) in in_types.chunks(2).enumerate() {
            let (elem, rank) = (Scalar::ALL[d[0] as usize], d[1] as usize);
            let slot = self.tmp(&format!(
                "llvm.getelementptr %ins[{j}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
            ));
            let p = self.tmp(&format!("llvm.load {slot} : !llvm.ptr -> !llvm.ptr"));
            if rank == 0 {
                let mt = memory_type(elem);
                let mut x = self.tmp(&format!("llvm.load {p} : !llvm.ptr -> {mt}"));
                if elem == Scalar::Bool {
                    x = self.tmp(&format!("arith.trunci {x} : i8 to i1"));
                }
                args.push(x);
                arg_types.push(scalar_type(elem).to_string());
            } else {
                let m = self.tmp(&format!("llvm.load {p} : !llvm.ptr -> !llvm.ptr"));
                args.push(m);
                arg_types.push("!llvm.ptr".into());
                for k in 0..rank {
                    let q = self.tmp(&format!(
                        "llvm.getelementptr {p}[{}] : (!llvm.ptr) -> !llvm.ptr, i64",
                        k + 1
                    ));
                    args.push(self.tmp(&format!("llvm.load {q} : !llvm.ptr -> i64")));
                    arg_types.push("i64".into());
                }
            }
            pi += 1 + rank.min(1) * rank;
        }
        debug_assert_eq!(pi, params.len());
        let call = format!(
            "func.call @futhark_{}({}) : ({}) -> ({})",
            symbol(name),
            args.join(", "),
            arg_types.join(", "),
            results.join(", ")
        );
        let rs: Vec<String> = if results.is_empty() {
            self.line(&call);
            Vec::new()
        } else {
            let base = self.fresh();
            self.line(&format!("{base}:{} = {call}", results.len()));
            (0..results.len()).map(|k| format!("{base}#{k}")).collect()
        };
        let mut ri = 0;
        for (j, d) in out_types.chunks(2).enumerate() {
            let (elem, rank) = (Scalar::ALL[d[0] as usize], d[1] as usize);
            let slot = self.tmp(&format!(
                "llvm.getelementptr %outs[{j}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
            ));
            let p = self.tmp(&format!("llvm.load {slot} : !llvm.ptr -> !llvm.ptr"));
            if rank == 0 {
                let mut x = rs[ri].clone();
                if elem == Scalar::Bool {
                    x = self.tmp(&format!("arith.extui {x} : i1 to i8"));
                }
                self.line(&format!("llvm.store {x}, {p} : {}, !llvm.ptr", memory_type(elem)));
                ri += 1;
            } else {
                self.line(&format!("llvm.store {}, {p} : !llvm.ptr, !llvm.ptr", rs[ri]));
                for k in 0..rank {
                    let q = self.tmp(&format!(
                        "llvm.getelementptr {p}[{}] : (!llvm.ptr) -> !llvm.ptr, i64",
                        k + 1
                    ));
                    self.line(&format!("llvm.store {}, {q} : i64, !llvm.ptr", rs[ri + 1 + k]));
                }
                ri += 1 + rank;
            }
        }
        let z = self.tmp("arith.constant 0 : i32");
        self.line(&format!("func.return {z} : i32"));
        self.out.push_str("  }\n");
    }

    /// The program descriptor and `main` (`runtime-cuda/ABI.md`).
    fn descriptor(&mut self, entries: &[EntryInfo]) {
        let mut g = String::new();
        let entry_t = "!llvm.struct<(ptr, i64, ptr, i64, ptr, ptr, ptr)>";
        for (k, e) in entries.iter().enumerate() {
            global_string(&mut g, &format!("futrt_name_{k}"), &e.name);
            global_string(&mut g, &format!("futrt_interface_{k}"), &e.interface);
            global_ints(&mut g, &format!("futrt_in_{k}"), &e.in_types);
            global_ints(&mut g, &format!("futrt_out_{k}"), &e.out_types);
        }
        // The entries.
        let n = entries.len();
        let _ = writeln!(
            g,
            "  llvm.mlir.global internal constant @futrt_entries() {{addr_space = 0 : i32}} : !llvm.array<{n} x {entry_t}> {{"
        );
        let _ = writeln!(g, "    %a0 = llvm.mlir.undef : !llvm.array<{n} x {entry_t}>");
        let mut acc = "%a0".to_string();
        for (k, e) in entries.iter().enumerate() {
            let _ = writeln!(g, "    %n{k} = llvm.mlir.addressof @futrt_name_{k} : !llvm.ptr");
            let _ = writeln!(
                g,
                "    %ni{k} = llvm.mlir.constant({} : i64) : i64",
                e.in_types.len() / 2
            );
            let _ = writeln!(
                g,
                "    %no{k} = llvm.mlir.constant({} : i64) : i64",
                e.out_types.len() / 2
            );
            let _ = writeln!(g, "    %i{k} = llvm.mlir.addressof @futrt_in_{k} : !llvm.ptr");
            let _ = writeln!(g, "    %o{k} = llvm.mlir.addressof @futrt_out_{k} : !llvm.ptr");
            let _ = writeln!(
                g,
                "    %f{k} = llvm.mlir.addressof @futrt_entry_{} : !llvm.ptr",
                symbol(&e.name)
            );
            let _ = writeln!(g, "    %t{k} = llvm.mlir.addressof @futrt_interface_{k} : !llvm.ptr");
            for (field, v) in [("n", 0), ("ni", 1), ("i", 2), ("no", 3), ("o", 4), ("f", 5), ("t", 6)] {
                let next = format!("%a{k}_{v}");
                let _ = writeln!(
                    g,
                    "    {next} = llvm.insertvalue %{field}{k}, {acc}[{k}, {v}] : !llvm.array<{n} x {entry_t}>"
                );
                acc = next;
            }
        }
        let _ = writeln!(g, "    llvm.return {acc} : !llvm.array<{n} x {entry_t}>\n  }}");
        // The kernels' names and the messages: arrays of strings.
        if self.gpu {
            string_array(&mut g, "futrt_kernels", "futrt_kname", &self.kernels);
        }
        string_array(&mut g, "futrt_messages", "futrt_msg", &self.messages);
        let m = self.messages.len();
        // The program: version, entries, ptx, kernels, messages.
        let prog_t = "!llvm.struct<(i64, i64, ptr, ptr, i64, ptr, i64, ptr)>";
        let _ = writeln!(
            g,
            "  llvm.mlir.global external constant @futmlir_program() {{addr_space = 0 : i32}} : {prog_t} {{"
        );
        let fields = [
            "llvm.mlir.constant(2 : i64) : i64".to_string(),
            format!("llvm.mlir.constant({n} : i64) : i64"),
            "llvm.mlir.addressof @futrt_entries : !llvm.ptr".to_string(),
            if self.gpu {
                "llvm.mlir.addressof @futrt_ptx : !llvm.ptr".to_string()
            } else {
                "llvm.mlir.zero : !llvm.ptr".to_string()
            },
            format!("llvm.mlir.constant({} : i64) : i64", self.kernels.len()),
            if self.gpu {
                "llvm.mlir.addressof @futrt_kernels : !llvm.ptr".to_string()
            } else {
                "llvm.mlir.zero : !llvm.ptr".to_string()
            },
            format!("llvm.mlir.constant({m} : i64) : i64"),
            "llvm.mlir.addressof @futrt_messages : !llvm.ptr".to_string(),
        ];
        let _ = writeln!(g, "    %s = llvm.mlir.undef : {prog_t}");
        let mut acc = "%s".to_string();
        for (k, f) in fields.iter().enumerate() {
            let _ = writeln!(g, "    %x{k} = {f}");
            let _ = writeln!(g, "    %s{k} = llvm.insertvalue %x{k}, {acc}[{k}] : {prog_t}");
            acc = format!("%s{k}");
        }
        let _ = writeln!(g, "    llvm.return {acc} : {prog_t}\n  }}");
        g.push_str(
            "  llvm.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {\n    %p = llvm.mlir.addressof @futmlir_program : !llvm.ptr\n    %r = llvm.call @futrt_main(%argc, %argv, %p) : (i32, !llvm.ptr, !llvm.ptr) -> i32\n    llvm.return %r : i32\n  }\n",
        );
        self.out.push_str(&g);
    }
}

/// The PTX of the kernels as the global `@futrt_ptx` the descriptor
/// refers to.
pub fn ptx_global(ptx: &str) -> String {
    let mut g = String::new();
    global_string(&mut g, "futrt_ptx", ptx);
    g
}

/// The strings `items` as globals `@<prefix>_<k>`, and `@<name>`, the
/// array of their addresses.
fn string_array(g: &mut String, name: &str, prefix: &str, items: &[String]) {
    for (k, s) in items.iter().enumerate() {
        global_string(g, &format!("{prefix}_{k}"), s);
    }
    let n = items.len();
    let _ = writeln!(
        g,
        "  llvm.mlir.global internal constant @{name}() {{addr_space = 0 : i32}} : !llvm.array<{n} x ptr> {{"
    );
    let _ = writeln!(g, "    %a = llvm.mlir.undef : !llvm.array<{n} x ptr>");
    let mut acc = "%a".to_string();
    for k in 0..n {
        let _ = writeln!(g, "    %p{k} = llvm.mlir.addressof @{prefix}_{k} : !llvm.ptr");
        let _ = writeln!(
            g,
            "    %a{k} = llvm.insertvalue %p{k}, {acc}[{k}] : !llvm.array<{n} x ptr>"
        );
        acc = format!("%a{k}");
    }
    let _ = writeln!(g, "    llvm.return {acc} : !llvm.array<{n} x ptr>\n  }}");
}

/// A NUL-terminated string constant.
fn global_string(g: &mut String, name: &str, s: &str) {
    let mut esc = String::new();
    for b in s.bytes().chain(std::iter::once(0)) {
        if b.is_ascii_alphanumeric() || b == b' ' {
            esc.push(b as char);
        } else {
            let _ = write!(esc, "\\{b:02X}");
        }
    }
    let _ = writeln!(
        g,
        "  llvm.mlir.global private constant @{name}(\"{esc}\") {{addr_space = 0 : i32}} : !llvm.array<{} x i8>",
        s.len() + 1
    );
}

/// An array of i32 (the `futrt_type` pairs), at least one element long.
fn global_ints(g: &mut String, name: &str, xs: &[i64]) {
    let mut xs: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    if xs.is_empty() {
        xs.push("0".into());
    }
    let _ = writeln!(
        g,
        "  llvm.mlir.global private constant @{name}(dense<[{}]> : tensor<{}xi32>) {{addr_space = 0 : i32}} : !llvm.array<{} x i32>",
        xs.join(", "),
        xs.len(),
        xs.len()
    );
}

/// `"volatile "` for an `imp.load` or `imp.store` with the `volatile`
/// attribute (LLVM's volatile access: PTX `ld.volatile`/`st.volatile`,
/// which bypass the L1 cache); empty otherwise.
fn volatile(ctx: &Context, o: OpId) -> &'static str {
    if ctx.attr(o, "volatile").is_some() {
        "volatile "
    } else {
        ""
    }
}

/// The alignment attribute of a load or store of a `s`: its size (every
/// block is allocated aligned, and elements sit at multiples of their
/// size). Without it LLVM takes the alignment from the module's data
/// layout, which for the device module gives i64 4 bytes: NVPTX then
/// splits each 64-bit access in two (and a volatile one is no longer one
/// access).
fn alignment(s: Scalar) -> String {
    format!("{{alignment = {} : i64}}", super::segop_to_imp::elem_bytes(s))
}

/// The MLIR types of the results of function `f`.
pub(crate) fn function_results(ctx: &Context, f: OpId) -> Vec<String> {
    match ctx.attr(f, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => match ctx.type_kind(*t) {
            TypeKind::Function { results, .. } => results.iter().map(|&t| mlir_type(ctx, t)).collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// `name` as the tail of an MLIR symbol: Futhark names may have primes
/// (`f'`), which a bare MLIR identifier may not; each character outside
/// `[A-Za-z0-9_]` is written `$` and its code in hex (`f$27`), which no
/// Futhark name can clash with (`$` is not a Futhark name character).
pub(crate) fn symbol(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else {
            out.push_str(&format!("${:x}", c as u32));
        }
    }
    out
}
