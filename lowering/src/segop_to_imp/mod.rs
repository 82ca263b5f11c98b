//! `segop-to-imp`: from kernels over values to imperative code over
//! memory (thesis ch. 10 and 11), reading the segop level or the mem
//! level (Note [The mem level] in `segop_to_mem.rs`).
//!
//! Every `soac.func` entry point becomes an `imp.func` of the same name,
//! and so does every function a kept call calls (`call.rs`, Note
//! [Functions at the imp level]); the `soac.func`s go. The conversion gives every array a memory block
//! and an index function while it translates (Note [Arrays as LMADs]):
//! a fresh array the mem level bound (`mem.bind`) goes into its block,
//! the others get one here. Segops become loops for the CPU target
//! (Note [Segops on the CPU]) and kernels for CUDA (`gpu/`, one file per
//! segop kind, Note [Segops on the GPU]); `segops.rs` picks each
//! segop's loops or GPU algorithm.
//!
//! **Note [Arrays as LMADs].**
//! An array value becomes an `Arr`: a memory block, an element offset,
//! and a `(size, stride)` pair per dimension, all i64 SSA values of the
//! imp function. Views cost nothing: indexing with fewer indices than
//! the rank, slicing and `rearrange` only change the LMAD; `reshape`
//! does too when the array is known to be row-major, and copies
//! otherwise. Arrays that cross a region boundary (the results of an
//! `imp.if`, the carried values of a loop, a segop body's yields) travel
//! as their whole LMAD — block, offset, sizes and strides — so no copy is
//! needed there. Fresh arrays (iota, replicate, copy, concat, segop
//! results) are row-major, in the block the mem level bound them to or
//! in one allocated here with `mem.alloc`. An entry point's results are
//! copied into fresh blocks unless they already are a fresh, unaliased
//! allocation (the runtime frees them; `runtime-cuda/ABI.md`). A block
//! (the mem level's or one made here) is freed (`mem.free`) at the end
//! of the region that allocated it (a function body, a loop body, a
//! branch) unless the region yields or returns it. The blocks that regions yield, and those frees where a
//! block lives on under another name, are `imp-carried-memory`'s (Note
//! [Carried blocks] in `carried.rs`).
//!
//! **Note [Segops on the CPU].**
//! A segop over `s1..sd` becomes `d` nested `imp.for` loops running its
//! body; `segred` and `segscan` carry the accumulators through the
//! innermost loop (starting from the neutral elements), `seghist`
//! combines into its destinations in place and ignores buckets out of
//! range, and a `segmap` with `writes` writes in place where the index
//! is in range. SOACs left inside segop bodies are sequential loops of
//! the same kind.

pub(crate) use futmlir_passes::mem::array_elem;
use std::collections::HashMap;

use futmlir_dialects::ir::{
    BlockId, Builder, Context, Diagnostic, Dim, InsertPoint, Location, MemSpace, OpId, OpView, RegionId, Scalar, Type,
    TypeKind, Value,
};
use futmlir_passes::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};

mod arrays;
mod bounds;
mod call;
pub(crate) use call::callee;
pub(crate) mod entry;
mod gpu;
pub(crate) mod segops;

pub const INFO: PassInfo = PassInfo {
    name: "segop-to-imp",
    description:
        "Lower segop/soac functions to imp: explicit memory with LMAD views; segops as loops (cpu) or kernels (cuda)",
    options: &[OptionSpec {
        name: "target",
        kind: OptionKind::Enum(&["cpu", "cuda"]),
        default: "cpu",
        help: "cpu: segops become loops; cuda: they become imp.kernels and launches",
    }, OptionSpec {
        name: "vector-accesses",
        kind: OptionKind::Bool,
        default: "true",
        help: "cuda: a map kernel also gets a version whose threads take four consecutive points with 16-byte reads and writes (Note [Vector accesses])",
    }],
    reads: &[Level::Segop, Level::Mem],
    writes: Some(Level::Imp),
    create: &|o: &Options, _| {
        Box::new(ToImp {
            target: Target {
                gpu: o.string("target") == "cuda",
                wide: o.bool("vector-accesses"),
            },
        })
    },
};

struct ToImp {
    target: Target,
}

/// What `segop-to-imp` translates for: the GPU (else the CPU), and
/// whether map kernels get vector accesses (Note [Vector accesses] in
/// `gpu/segmap.rs`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Target {
    pub gpu: bool,
    pub wide: bool,
}

impl Pass for ToImp {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let body = ctx.blocks(ctx.regions(module)[0])[0];
        let funcs: Vec<OpId> = ctx.block_ops(body).filter(|&o| ctx.op_name(o) == "soac.func").collect();
        for &f in &funcs {
            if ctx.attr(f, "entry").is_some() {
                entry::translate_entry(ctx, f, body, self.target)?;
            }
        }
        call::translate_callees(ctx, body, &funcs, self.target)?;
        for f in funcs {
            ctx.detach_op(f);
        }
        Ok(())
    }
}

/// Where the mem level put a result of the op being translated.
#[derive(Clone, Debug)]
pub(crate) enum Dest {
    /// `mem.bind`: a block, and the element offset there (none: 0).
    Block(Value, Option<Value>),
    /// `mem.place`: a row of another array (a view of its memory).
    Row(Arr),
    /// A thread's part of the `mem.expand` block (the op) that the
    /// array is bound to in kernel code (Note [Memory expansion at the
    /// mem level] in `passes/src/mem/expand.rs`).
    Expanded(OpId),
}

/// What a soac-level value is at the imp level.
#[derive(Clone, Debug)]
pub(crate) enum Rep {
    Scalar(Value),
    Array(Arr),
}

/// An array in memory (Note [Arrays as LMADs]).
#[derive(Clone, Debug)]
pub(crate) struct Arr {
    pub mem: Value,
    pub elem: Scalar,
    pub offset: Value,
    /// `(size, stride)` per dimension, outermost first; strides count
    /// elements.
    pub dims: Vec<(Value, Value)>,
    /// Known to be row-major: each stride the product of the sizes
    /// inside it, the last 1.
    pub row_major: bool,
    /// A whole allocation made by this function (offset 0, row-major),
    /// so an entry point may return it without a copy.
    pub fresh: bool,
}

impl Arr {
    pub fn sizes(&self) -> Vec<Value> {
        self.dims.iter().map(|d| d.0).collect()
    }
}

pub(crate) type R<T> = Result<T, Diagnostic>;

/// A loop body: gets the index and the carried values, returns the next.
pub(crate) type LoopBody<'b> = dyn FnMut(&mut Tr, Value, &[Value]) -> R<Vec<Value>> + 'b;
/// The two buffers of a carried array of a loop in a kernel, if it has
/// them (Note [Loops in kernels]).
pub(crate) type LoopBuffers = Option<(Arr, Arr)>;
/// A region body: gets the block arguments, returns the values to yield.
pub(crate) type RegionBody<'b> = dyn FnMut(&mut Tr, &[Value]) -> R<Vec<Value>> + 'b;

/// The translator of one function: the soac values' representations and
/// where imp ops go.
pub(crate) struct Tr<'a> {
    pub ctx: &'a mut Context,
    pub block: BlockId,
    pub loc: Location,
    pub map: HashMap<Value, Rep>,
    /// Constants made at the function's (or kernel's) top, reused.
    consts: HashMap<(i64, Scalar), Value>,
    top: BlockId,
    /// Segops become kernels (the CUDA target).
    pub gpu: bool,
    /// Map kernels get vector accesses where they can (Note [Vector
    /// accesses] in `gpu/segmap.rs`).
    pub wide: bool,
    /// Code goes into a kernel being built.
    pub in_kernel: bool,
    /// Where kernels go.
    pub module_body: BlockId,
    /// The host's state while a kernel is built.
    host: Option<HostState>,
    /// Ops of kernel bodies translated on the host before the kernel.
    pub hoisted: std::collections::HashSet<OpId>,
    /// Arrays of kernel bodies that are never made: the `soac.iota` or
    /// `soac.replicate` defining them, whose rows the SOACs reading them
    /// compute (Note [Virtual arrays]).
    pub virtual_arrays: HashMap<Value, OpId>,
    /// The blocks allocated in each enclosing region, innermost last:
    /// each is freed at the end of its region unless it leaves it
    /// (Note [Arrays as LMADs]).
    scopes: Vec<Vec<Value>>,
    /// Values of soac-level results computed before their ops are
    /// reached (the lanes of a vector read, Note [Vector accesses] in
    /// `gpu/segmap.rs`), in the kernel whose body is the block given:
    /// there the op is not translated, its result is this. (Not in
    /// another kernel built meanwhile, such as one computing a size
    /// bound on the host: Note [Size bounds].)
    pub preset: HashMap<Value, Value>,
    pub preset_kernel: Option<BlockId>,
    /// The blocks the mem level gave the results of the op being
    /// translated (`mem.bind`, Note [The mem level] in `segop_to_mem.rs`),
    /// by result position.
    dests: Vec<Option<Dest>>,
    /// The segops being made kernels, innermost last (Note [Size
    /// bounds]).
    segop_spaces: Vec<bounds::SegopSpace>,
    /// The sizes (soac values) whose bounds are being computed, innermost
    /// last: a size met again while its own bound is made is a cycle
    /// (Note [Size bounds]).
    bounding: Vec<Value>,
    /// The loops of kernel code being translated whose arrays a thread
    /// allocates itself: inside them every array is a thread's block
    /// (Note [Thread allocations]).
    thread_loops: usize,
}

/// What [`Tr::enter_kernel`] saves, and what memory expansion needs to
/// know of the kernel being built.
pub(crate) struct HostState {
    block: BlockId,
    top: BlockId,
    consts: HashMap<(i64, Scalar), Value>,
    /// The kernel's blocks (its body's and those of the regions in it).
    kernel_blocks: std::collections::HashSet<BlockId>,
    /// The kernel's grid (a host value) and block sizes.
    grid: Value,
    block_size: i64,
    /// The expanded allocations made for the kernel, freed after it.
    expanded: Vec<Value>,
    /// The blocks made for the kernel's `mem.expand`s, by op.
    expand_blocks: HashMap<OpId, Value>,
    /// Host bounds of the sizes of the kernel that vary between threads
    /// (Note [Size bounds]).
    bounds: HashMap<Value, Value>,
}

pub(crate) use futmlir_passes::mem::elem_bytes;

impl<'a> Tr<'a> {
    pub fn new(ctx: &'a mut Context, top: BlockId, module_body: BlockId, target: Target) -> Tr<'a> {
        Tr {
            ctx,
            block: top,
            loc: Location::Unknown,
            map: HashMap::new(),
            consts: HashMap::new(),
            top,
            gpu: target.gpu,
            wide: target.wide,
            in_kernel: false,
            module_body,
            hoisted: Default::default(),
            host: None,
            virtual_arrays: HashMap::new(),
            scopes: vec![Vec::new()],
            preset: HashMap::new(),
            preset_kernel: None,
            dests: Vec::new(),
            segop_spaces: Vec::new(),
            bounding: Vec::new(),
            thread_loops: 0,
        }
    }

    /// Ends the innermost scope: frees the blocks allocated in it that
    /// `kept` (the values leaving the scope) may not hold. A kept value
    /// may be the block itself or an alias of it: a `soac.select` of
    /// blocks, or a result of a branch or loop that yields it. Such a
    /// block is not freed here (it leaks until `imp-carried-memory` gives
    /// it an owner), so that the code is right without that pass.
    pub fn free_scope(&mut self, kept: &[Value]) {
        let mut held = std::collections::HashSet::new();
        let mut work = kept.to_vec();
        while let Some(v) = work.pop() {
            if !held.insert(v) {
                continue;
            }
            let Some(op) = self.ctx.defining_op(v) else { continue };
            match self.ctx.op_name(op) {
                "soac.select" => work.extend(self.ctx.operands(op).iter().skip(1).copied()),
                "imp.if" | "imp.for" | "imp.while" => {
                    // Any block the op takes or one of its regions yields.
                    work.extend(self.ctx.operands(op).iter().copied());
                    for &r in self.ctx.regions(op) {
                        for &b in self.ctx.blocks(r) {
                            if let Some(t) = self.ctx.block_ops(b).last() {
                                work.extend(self.ctx.operands(t).iter().copied());
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for mem in self.scopes.pop().unwrap_or_default() {
            if !held.contains(&mem) {
                self.emit("mem.free", &[mem], &[], &[], vec![]);
            }
        }
    }

    /// Host code on the GPU target: parallel loops become kernels.
    pub fn gpu_host(&self) -> bool {
        self.gpu && !self.in_kernel
    }

    /// Code now goes into kernel block `kb`, of a kernel to be launched
    /// with `grid` blocks of `block_size` threads.
    pub fn enter_kernel(&mut self, kb: BlockId, grid: Value, block_size: i64) {
        self.in_kernel = true;
        let s = HostState {
            block: std::mem::replace(&mut self.block, kb),
            top: std::mem::replace(&mut self.top, kb),
            consts: std::mem::take(&mut self.consts),
            kernel_blocks: [kb].into_iter().collect(),
            grid,
            block_size,
            expanded: Vec::new(),
            expand_blocks: HashMap::new(),
            bounds: HashMap::new(),
        };
        self.host = Some(s);
        // The thread's own blocks, freed at the end of the kernel's body
        // ([`Tr::end_kernel_body`]).
        self.scopes.push(Vec::new());
    }

    /// The end of the body of the kernel being built: frees the blocks
    /// its threads allocated at its top level (Note [Thread
    /// allocations]); `ok`: the body was built (else only the scope
    /// goes).
    pub fn end_kernel_body(&mut self, ok: bool) {
        if ok {
            self.free_scope(&[]);
        } else {
            self.scopes.pop();
        }
    }

    /// Back to host code; returns the kernel's expanded allocations.
    pub fn leave_kernel(&mut self) -> Vec<Value> {
        self.in_kernel = false;
        let Some(s) = self.host.take() else { return vec![] };
        self.block = s.block;
        self.top = s.top;
        self.consts = s.consts;
        s.expanded
    }

    /// Runs `f` with code going to the host, just before the launch of
    /// the kernel being built.
    fn on_host<T>(&mut self, f: impl FnOnce(&mut Tr) -> T) -> T {
        let Some(mut s) = self.host.take() else { return f(self) };
        std::mem::swap(&mut self.block, &mut s.block);
        std::mem::swap(&mut self.top, &mut s.top);
        std::mem::swap(&mut self.consts, &mut s.consts);
        self.in_kernel = false;
        let r = f(self);
        self.in_kernel = true;
        std::mem::swap(&mut self.block, &mut s.block);
        std::mem::swap(&mut self.top, &mut s.top);
        std::mem::swap(&mut self.consts, &mut s.consts);
        self.host = Some(s);
        r
    }

    /// Whether `v` is computed inside the kernel being built.
    fn in_kernel_body(&self, v: Value) -> bool {
        let (Some(h), Some(b)) = (&self.host, self.ctx.value_block(v)) else {
            return false;
        };
        h.kernel_blocks.contains(&b)
    }

    /// A new region of one block with arguments of `types` (noted as the
    /// kernel's when building one).
    fn new_block(&mut self, types: &[Type]) -> (RegionId, BlockId) {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, types);
        if let Some(h) = self.host.as_mut() {
            h.kernel_blocks.insert(b);
        }
        (r, b)
    }

    /// The number of kernels in the module so far (the next one's name).
    pub fn next_kernel(&self) -> usize {
        self.ctx
            .block_ops(self.module_body)
            .filter(|&o| self.ctx.op_name(o) == "imp.kernel")
            .count()
    }

    pub fn fail(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.loc, msg)
    }

    pub fn unsupported(&self, what: &str) -> Diagnostic {
        Diagnostic::error(self.loc, format!("the compiled backends do not support {what} yet"))
            .with_help("`futmlir run` interprets the program")
    }

    pub fn emit(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(&str, futmlir_dialects::ir::Attr)],
        regions: Vec<RegionId>,
    ) -> OpId {
        let mut b = Builder::at_end(self.ctx, self.block);
        b.location = self.loc;
        b.op(name, operands, results, attrs, regions)
    }

    pub fn emit1(
        &mut self,
        name: &str,
        operands: &[Value],
        result: Type,
        attrs: &[(&str, futmlir_dialects::ir::Attr)],
    ) -> Value {
        let op = self.emit(name, operands, &[result], attrs, vec![]);
        self.ctx.result(op, 0)
    }

    pub fn scalar_type_of(&self, v: Value) -> Scalar {
        self.ctx.as_scalar(self.ctx.value_type(v)).unwrap_or(Scalar::I64)
    }

    pub fn ty(&mut self, s: Scalar) -> Type {
        self.ctx.scalar(s)
    }

    pub fn block_type(&mut self) -> Type {
        self.ctx.intern_type(TypeKind::Mem(MemSpace::Device))
    }

    /// An integer constant of type `s`, made once at the function's top.
    pub fn int(&mut self, v: i64, s: Scalar) -> Value {
        if let Some(&c) = self.consts.get(&(v, s)) {
            return c;
        }
        let t = self.ctx.scalar(s);
        let a = self.ctx.int_attr(v, s);
        let first = self.ctx.first_op(self.top);
        let mut b = match first {
            Some(f) => Builder::before(self.ctx, f),
            None => Builder::at_end(self.ctx, self.top),
        };
        b.point = match first {
            Some(f) => InsertPoint::Before(f),
            None => InsertPoint::End(self.top),
        };
        let op = b.op("soac.constant", &[], &[t], &[("value", a)], vec![]);
        let c = self.ctx.result(op, 0);
        self.consts.insert((v, s), c);
        c
    }

    pub fn i64c(&mut self, v: i64) -> Value {
        self.int(v, Scalar::I64)
    }

    pub fn bin(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.ctx.value_type(a);
        let k = self.ctx.string_attr(kind);
        self.emit1("soac.binop", &[a, b], t, &[("kind", k)])
    }

    pub fn cmp(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.ty(Scalar::Bool);
        let k = self.ctx.string_attr(kind);
        self.emit1("soac.cmpop", &[a, b], t, &[("kind", k)])
    }

    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.bin("add", a, b)
    }
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        self.bin("mul", a, b)
    }

    pub fn product(&mut self, xs: &[Value]) -> Value {
        let mut p = self.i64c(1);
        for &x in xs {
            p = self.mul(p, x);
        }
        p
    }

    /// The bytes of an array of `elem` with `sizes`, saturating (Note
    /// [Byte sizes saturate] in `segop_to_mem`).
    pub fn byte_size(&mut self, sizes: &[Value], elem: Scalar) -> Value {
        let mut bytes = self.i64c(elem_bytes(elem));
        for &x in sizes {
            let mut b = Builder::at_end(self.ctx, self.block);
            b.location = self.loc;
            bytes = futmlir_passes::mem::saturating_mul(&mut b, bytes, x);
        }
        bytes
    }

    /// A fresh row-major array of the given element type and sizes; in
    /// kernel code, a thread's part of an expanded allocation
    /// ([`Tr::expand`]), or where there can be none, a block of the
    /// thread's own (Note [Thread allocations]).
    pub fn alloc_array(&mut self, elem: Scalar, sizes: &[Value]) -> R<Arr> {
        if self.in_kernel {
            if let Some(a) = self.expand(elem, sizes)? {
                return Ok(a);
            }
            return Ok(self.thread_array(elem, sizes));
        }
        let bytes = self.byte_size(sizes, elem);
        let mem = self.alloc_block(bytes);
        Ok(self.whole_block(mem, elem, sizes))
    }

    /// A device block of `bytes`, freed at the end of the current region
    /// unless the region yields it.
    fn alloc_block(&mut self, bytes: Value) -> Value {
        let bt = self.block_type();
        let space = self.ctx.string_attr("device");
        let mem = self.emit1("mem.alloc", &[bytes], bt, &[("space", space)]);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(mem);
        }
        mem
    }

    /// **Note [Thread allocations].**
    /// Memory expansion ([`Tr::expand`]) is impossible where the host
    /// cannot know how much memory the threads need: in a device
    /// function (it has no host: a recursive one may run to any depth),
    /// for sizes that vary between threads in a way the host cannot bound
    /// (Note [Size bounds]), and in a loop whose arrays change size from
    /// one iteration to the next (Note [Loops in kernels]). There, and
    /// only there (expansion, where it works, costs no allocation in the
    /// thread and is coalesced), the thread allocates its array itself:
    /// `mem.alloc {space = "device", thread}`, a block of the device heap
    /// (CUDA's `malloc` in the thread, `imp_to_mlir/device.rs`), the
    /// array row-major from its start. Such a block is freed like a
    /// host's: at the end of the region that allocated it unless the
    /// region yields or returns it, the kernel's body being a region of
    /// its own ([`Tr::end_kernel_body`]); a loop's or branch's blocks are
    /// `imp-carried-memory`'s, which runs on kernels too; a device
    /// function returns a block the calling thread then owns (Note
    /// [Functions at the imp level] in `call.rs`). A loop of kernel code
    /// whose arrays the thread allocates makes every array in its body
    /// a thread's block (`thread_loops`): an expanded one would be the
    /// same memory in every iteration, overwritten while the next
    /// iteration still reads it. An allocation that fails (the heap is
    /// full) ends the thread with a run-time error saying so. A thread's
    /// block that lives on under another name where `imp-carried-memory`
    /// cannot follow it (a `soac.select` of two arrays that a region
    /// yields) is never freed, as on the host; on the device heap it
    /// stays taken until the program ends.
    fn thread_array(&mut self, elem: Scalar, sizes: &[Value]) -> Arr {
        let bytes = self.byte_size(sizes, elem);
        let bt = self.block_type();
        let space = self.ctx.string_attr("device");
        let unit = self.ctx.intern_attr(futmlir_dialects::ir::AttrKind::Unit);
        let mem = self.emit1("mem.alloc", &[bytes], bt, &[("space", space), ("thread", unit)]);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(mem);
        }
        self.whole_block(mem, elem, sizes)
    }

    /// A row-major array of `sizes` filling `mem` from its start.
    fn whole_block(&mut self, mem: Value, elem: Scalar, sizes: &[Value]) -> Arr {
        let offset = self.i64c(0);
        let dims = self.row_major_dims(sizes);
        Arr {
            mem,
            elem,
            offset,
            dims,
            row_major: true,
            fresh: true,
        }
    }

    /// The array for result `k` of the op being translated: in the block
    /// the mem level bound it to, if any (taken: once), otherwise a fresh
    /// allocation ([`Tr::alloc_array`]).
    pub fn alloc_result(&mut self, k: usize, elem: Scalar, sizes: &[Value]) -> R<Arr> {
        match self.dests.get_mut(k).and_then(Option::take) {
            Some(Dest::Block(mem, None)) => Ok(self.whole_block(mem, elem, sizes)),
            // Part of a block that holds other arrays too, or a row of
            // another array (Note [Short-circuiting] in
            // passes/src/mem/short_circuit.rs): not an allocation of its
            // own.
            Some(Dest::Block(mem, Some(offset))) => Ok(Arr {
                offset,
                fresh: false,
                ..self.whole_block(mem, elem, sizes)
            }),
            Some(Dest::Row(a)) => Ok(a),
            Some(Dest::Expanded(e)) => match self.expand_as(e, elem, sizes)? {
                Some(a) => Ok(a),
                None => self.alloc_array(elem, sizes),
            },
            None => self.alloc_array(elem, sizes),
        }
    }

    /// Where `mem-expand` put `result`, an array of kernel code: the
    /// `mem.expand` it is bound to.
    fn expansion(&self, result: Value) -> Option<Dest> {
        let bind = futmlir_passes::mem::binding(self.ctx, result)?;
        let e = self.ctx.defining_op(self.ctx.operand(bind, 0))?;
        (self.ctx.op_name(e) == "mem.expand").then_some(Dest::Expanded(e))
    }

    /// Where the mem level put `result`: the imp block it bound it to
    /// (`mem.bind`), with the element offset there when the bind has
    /// one, or the row of another array it placed it in (`mem.place`; a
    /// row of a strided array only for a segmap, which writes each
    /// element through the LMAD: other ops may expect row-major rows).
    fn destination(&mut self, result: Value) -> R<Option<Dest>> {
        if let Some(bind) = futmlir_passes::mem::binding(self.ctx, result) {
            let operands = self.ctx.operands(bind).to_vec();
            let offset = match operands.get(2).map(|v| self.map.get(v)) {
                None => None,
                Some(Some(Rep::Scalar(o))) => Some(*o),
                Some(_) => return Ok(None),
            };
            return Ok(match self.map.get(&operands[0]) {
                Some(Rep::Scalar(m)) => Some(Dest::Block(*m, offset)),
                _ => None,
            });
        }
        let Some(place) = futmlir_passes::mem::placement(self.ctx, result) else {
            return Ok(None);
        };
        let operands = self.ctx.operands(place).to_vec();
        let Some(Rep::Array(dst)) = self.map.get(&operands[0]).cloned() else {
            return Ok(None);
        };
        // A segmap writes each element through the LMAD; other ops may
        // expect a row-major destination.
        let maker = self.ctx.defining_op(result);
        let by_element =
            maker.is_some_and(|m| self.ctx.op_name(m) == "segop.segmap" && self.ctx.attr(m, "writes").is_none());
        if !dst.row_major && !by_element {
            return Ok(None);
        }
        let idx = operands[1..operands.len() - 1]
            .iter()
            .map(|&v| self.scalar(v))
            .collect::<R<Vec<_>>>()?;
        let row = self.subarray(&dst, &idx);
        Ok(Some(Dest::Row(Arr { fresh: false, ..row })))
    }

    /// **Memory expansion** (thesis 11.2): rather than allocate in each
    /// thread (Note [Thread allocations]), an array a kernel's thread
    /// makes of sizes the host knows gets one
    /// allocation on the host, before the launch, for all the kernel's
    /// threads, freed after it. Interleaved: element `j` (row-major) of
    /// thread `t` is at `j * threads + t`, so that threads reading the
    /// same element of their arrays read adjacent words (coalesced). An
    /// allocation inside a loop of the kernel gets the same memory in
    /// every iteration, while an array of the previous one may still be
    /// live: loops in kernels carry arrays in buffers of their own (Note
    /// [Loops in kernels]). `None` where there can be no expansion: the
    /// thread then allocates (Note [Thread allocations]).
    fn expand(&mut self, elem: Scalar, sizes: &[Value]) -> R<Option<Arr>> {
        self.expand_with(elem, sizes, None)
    }

    /// The array `mem.expand` op `e` says a thread makes: its part of
    /// the block `e` has for the kernel's threads, in `e`'s layout (Note
    /// [Memory expansion at the mem level] in `passes/src/mem/expand.rs`).
    /// `None` where there is no host to allocate it on (then the thread
    /// allocates it, as [`Tr::alloc_array`] would).
    fn expand_as(&mut self, e: OpId, elem: Scalar, sizes: &[Value]) -> R<Option<Arr>> {
        let contiguous = OpView { ctx: self.ctx, op: e }.string_attr("layout").ok() == Some("contiguous");
        let Some(Rep::Scalar(bytes)) = self.map.get(&self.ctx.operand(e, 0)).cloned() else {
            return Err(self.fail("internal error: a mem.expand whose byte size is not a host value"));
        };
        self.expand_with(elem, sizes, Some((e, bytes, contiguous)))
    }

    /// Memory expansion of an array of `elem` and `sizes` ([`Tr::expand`]);
    /// `given`: the `mem.expand` that asks for it, one thread's bytes (a
    /// host value) and whether its layout is contiguous.
    fn expand_with(&mut self, elem: Scalar, sizes: &[Value], given: Option<(OpId, Value, bool)>) -> R<Option<Arr>> {
        let Some((grid, block_size)) = self.host.as_ref().map(|s| (s.grid, s.block_size)) else {
            return Ok(None);
        };
        if self.thread_loops > 0 {
            return Ok(None);
        }
        let known = given.and_then(|(e, ..)| self.host.as_ref().and_then(|s| s.expand_blocks.get(&e).copied()));
        let mem = match (known, given) {
            (Some(mem), _) => mem,
            (None, Some((e, bytes, _))) => {
                let mem = self.on_host(|tr| {
                    let bs = tr.i64c(block_size);
                    let threads = tr.mul(grid, bs);
                    let mut b = Builder::at_end(tr.ctx, tr.block);
                    b.location = tr.loc;
                    let all = futmlir_passes::mem::saturating_mul(&mut b, bytes, threads);
                    let bt = tr.block_type();
                    let space = tr.ctx.string_attr("device");
                    tr.emit1("mem.alloc", &[all], bt, &[("space", space)])
                });
                if let Some(s) = self.host.as_mut() {
                    s.expanded.push(mem);
                    s.expand_blocks.insert(e, mem);
                }
                mem
            }
            (None, None) => {
                // The sizes on the host: values of the host, constants, or bounds.
                let mut host_sizes = Vec::new();
                for &v in sizes {
                    match self.host_size(v)? {
                        Ok(h) => host_sizes.push(h),
                        Err(_) => return Ok(None),
                    }
                }
                let mem = self.on_host(|tr| {
                    let sizes: Vec<Value> = host_sizes
                        .iter()
                        .map(|s| match *s {
                            Ok(v) => v,
                            Err(c) => tr.i64c(c),
                        })
                        .collect();
                    let bs = tr.i64c(block_size);
                    let threads = tr.mul(grid, bs);
                    let mut all = sizes;
                    all.push(threads);
                    let bytes = tr.byte_size(&all, elem);
                    let bt = tr.block_type();
                    let space = tr.ctx.string_attr("device");
                    tr.emit1("mem.alloc", &[bytes], bt, &[("space", space)])
                });
                if let Some(s) = self.host.as_mut() {
                    s.expanded.push(mem);
                }
                mem
            }
        };
        let (gid, _, _) = gpu::global_id(self);
        if let Some((_, _, true)) = given {
            // Thread `t`'s array, row-major from `t` times its elements.
            let per_thread = self.product(sizes);
            let offset = self.mul(gid, per_thread);
            return Ok(Some(Arr {
                offset,
                fresh: false,
                ..self.whole_block(mem, elem, sizes)
            }));
        }
        let bs = self.i64c(block_size);
        let threads = self.mul(grid, bs);
        let mut dims = self.row_major_dims(sizes);
        for d in &mut dims {
            d.1 = self.mul(d.1, threads);
        }
        Ok(Some(Arr {
            mem,
            elem,
            offset: gid,
            dims,
            row_major: false,
            fresh: false,
        }))
    }

    /// What size `v` (a value of the kernel being built) is on the host:
    /// the host value itself (`Ok`), a constant (`Err`), or a host bound
    /// over the threads (`Ok`, Note [Size bounds]); what keeps it from
    /// being bounded otherwise.
    fn host_size(&mut self, v: Value) -> R<Result<Result<Value, i64>, String>> {
        if !self.in_kernel_body(v) {
            return Ok(Ok(Ok(v)));
        }
        let d = self
            .ctx
            .defining_op(v)
            .filter(|&d| self.ctx.op_name(d) == "soac.constant");
        if let Some(c) = d.and_then(|d| OpView { ctx: self.ctx, op: d }.int_attr("value").ok()) {
            return Ok(Ok(Err(c)));
        }
        Ok(self.size_bound(v)?.map(Ok))
    }

    /// Notes `bound` (a host value) as a bound of size `s`, a value of
    /// the kernel being built, over all threads: arrays of size `s` are
    /// then expanded to `bound` (Note [Filters in kernels]).
    pub(crate) fn note_bound(&mut self, s: Value, bound: Value) {
        if let Some(h) = self.host.as_mut() {
            h.bounds.insert(s, bound);
        }
    }

    /// The host bound of size `v` of the kernel being built, made on the
    /// host (see [`Tr::host_size`]).
    pub(crate) fn host_bound(&mut self, v: Value) -> R<Option<Value>> {
        // No expansion to bound (Note [Thread allocations]).
        if self.host.is_none() || self.thread_loops > 0 {
            return Ok(None);
        }
        Ok(match self.host_size(v)? {
            Ok(Ok(b)) => Some(b),
            Ok(Err(c)) => Some(self.on_host(|tr| tr.i64c(c))),
            Err(_) => None,
        })
    }

    pub fn row_major_dims(&mut self, sizes: &[Value]) -> Vec<(Value, Value)> {
        let mut dims = vec![(self.i64c(0), self.i64c(0)); sizes.len()];
        let mut stride = self.i64c(1);
        for k in (0..sizes.len()).rev() {
            dims[k] = (sizes[k], stride);
            if k > 0 {
                stride = self.mul(stride, sizes[k]);
            }
        }
        dims
    }

    /// The element offset of `idx` (one index per leading dimension).
    pub fn element_offset(&mut self, a: &Arr, idx: &[Value]) -> Value {
        let mut off = a.offset;
        for (k, &i) in idx.iter().enumerate() {
            let t = self.mul(i, a.dims[k].1);
            off = self.add(off, t);
        }
        off
    }

    /// `a` indexed in its leading dimensions: a smaller array (a view).
    pub fn subarray(&mut self, a: &Arr, idx: &[Value]) -> Arr {
        let offset = self.element_offset(a, idx);
        Arr {
            mem: a.mem,
            elem: a.elem,
            offset,
            dims: a.dims[idx.len()..].to_vec(),
            row_major: a.row_major,
            fresh: false,
        }
    }

    pub fn load(&mut self, a: &Arr, idx: &[Value]) -> Value {
        let off = self.element_offset(a, idx);
        let t = self.ty(a.elem);
        self.emit1("imp.load", &[a.mem, off], t, &[])
    }

    pub fn store(&mut self, a: &Arr, idx: &[Value], x: Value) {
        let off = self.element_offset(a, idx);
        self.emit("imp.store", &[a.mem, off, x], &[], &[], vec![]);
    }

    /// The `width` elements of `a` from `idx` on along its innermost
    /// dimension, in one access (Note [Vector accesses] in
    /// `gpu/segmap.rs`: the caller knows them contiguous and aligned).
    pub fn load_wide(&mut self, a: &Arr, idx: &[Value], width: usize) -> Vec<Value> {
        let off = self.element_offset(a, idx);
        let t = self.ty(a.elem);
        let w = self.ctx.int_attr(width as i64, Scalar::I64);
        let o = self.emit("imp.load", &[a.mem, off], &vec![t; width], &[("width", w)], vec![]);
        self.ctx.results(o).collect()
    }

    /// Writes `xs` at `idx` and the elements after it along the innermost
    /// dimension of `a`, in one access ([`Tr::load_wide`]).
    pub fn store_wide(&mut self, a: &Arr, idx: &[Value], xs: &[Value]) {
        let off = self.element_offset(a, idx);
        let w = self.ctx.int_attr(xs.len() as i64, Scalar::I64);
        let mut operands = vec![a.mem, off];
        operands.extend_from_slice(xs);
        self.emit("imp.store", &operands, &[], &[("width", w)], vec![]);
    }

    /// Writes `x` (a scalar, or an array of the row's shape) at `idx`.
    pub fn write(&mut self, a: &Arr, idx: &[Value], x: &Rep) {
        match x {
            Rep::Scalar(v) => self.store(a, idx, *v),
            Rep::Array(src) => {
                let dst = self.subarray(a, idx);
                self.copy_into(&dst, src);
            }
        }
    }

    /// Copies the elements of `src` into `dst` (the same shape).
    pub fn copy_into(&mut self, dst: &Arr, src: &Arr) {
        let sizes = src.sizes();
        self.nest(&sizes, &mut |tr, idx| {
            let x = tr.load(src, idx);
            tr.store(dst, idx, x);
        });
    }

    /// Runs `body` for every index of the given sizes: in parallel (a
    /// kernel) at host level on the GPU, loops otherwise.
    pub fn nest(&mut self, sizes: &[Value], body: &mut dyn FnMut(&mut Tr, &[Value])) {
        gpu::par_for(self, sizes, &mut |tr, idx| {
            body(tr, idx);
            Ok(())
        })
        .expect("a loop body without failures");
    }

    /// An `imp.for` from 0 to `n` (of `n`'s type) carrying `inits`;
    /// `body` gets the index and the carried values and returns the next.
    pub fn for_loop(&mut self, n: Value, inits: &[Value], body: &mut LoopBody) -> R<Vec<Value>> {
        let it = self.ctx.value_type(n);
        let s = self.ctx.as_scalar(it).unwrap_or(Scalar::I64);
        let (lb, step) = (self.int(0, s), self.int(1, s));
        let mut arg_types = vec![it];
        arg_types.extend(inits.iter().map(|&v| self.ctx.value_type(v)));
        let (r, b) = self.new_block(&arg_types);
        let args = self.ctx.block_args(b).to_vec();
        let saved = std::mem::replace(&mut self.block, b);
        self.scopes.push(Vec::new());
        let next = body(self, args[0], &args[1..]);
        let next = match next {
            Ok(n) => n,
            Err(e) => {
                self.scopes.pop();
                self.block = saved;
                return Err(e);
            }
        };
        self.free_scope(&next);
        self.emit("imp.yield", &next, &[], &[], vec![]);
        self.block = saved;
        let mut operands = vec![lb, n, step];
        operands.extend_from_slice(inits);
        let types: Vec<Type> = arg_types[1..].to_vec();
        let op = self.emit("imp.for", &operands, &types, &[], vec![r]);
        Ok(self.ctx.results(op).collect())
    }

    /// An `imp.while` carrying `inits`: `cond` gets the carried values
    /// and returns whether to run `body` again, which returns the next
    /// ones; the results are the values for which `cond` failed.
    pub fn while_loop(&mut self, inits: &[Value], cond: &mut RegionBody, body: &mut RegionBody) -> R<Vec<Value>> {
        let types: Vec<Type> = inits.iter().map(|&v| self.ctx.value_type(v)).collect();
        let (rc, _) = self.region(&types, cond)?;
        let (rb, _) = self.region(&types, body)?;
        let op = self.emit("imp.while", inits, &types, &[], vec![rc, rb]);
        Ok(self.ctx.results(op).collect())
    }

    /// Builds a region of one block with the given arguments whose body
    /// `f` returns the values to yield.
    pub fn region(&mut self, arg_types: &[Type], f: &mut RegionBody) -> R<(RegionId, Vec<Type>)> {
        let (r, b) = self.new_block(arg_types);
        let args = self.ctx.block_args(b).to_vec();
        let saved = std::mem::replace(&mut self.block, b);
        self.scopes.push(Vec::new());
        let out = f(self, &args);
        let ys = match out {
            Ok(ys) => ys,
            Err(e) => {
                self.scopes.pop();
                self.block = saved;
                return Err(e);
            }
        };
        self.free_scope(&ys);
        self.emit("imp.yield", &ys, &[], &[], vec![]);
        self.block = saved;
        let types = ys.iter().map(|&v| self.ctx.value_type(v)).collect();
        Ok((r, types))
    }

    pub fn if_(
        &mut self,
        cond: Value,
        then: &mut dyn FnMut(&mut Tr) -> R<Vec<Value>>,
        els: &mut dyn FnMut(&mut Tr) -> R<Vec<Value>>,
    ) -> R<Vec<Value>> {
        let (r1, types) = self.region(&[], &mut |tr, _| then(tr))?;
        let (r2, _) = self.region(&[], &mut |tr, _| els(tr))?;
        let op = self.emit("imp.if", &[cond], &types, &[], vec![r1, r2]);
        Ok(self.ctx.results(op).collect())
    }

    /// An `imp.if` whose branches are two versions of one code: `f(true)`
    /// where `cond` holds, `f(false)` where not.
    pub fn if_versions(&mut self, cond: Value, f: &mut dyn FnMut(&mut Tr, bool) -> R<Vec<Value>>) -> R<Vec<Value>> {
        // The branches are built one after the other.
        let f = std::cell::RefCell::new(f);
        self.if_(cond, &mut |tr| (f.borrow_mut())(tr, true), &mut |tr| {
            (f.borrow_mut())(tr, false)
        })
    }

    pub fn assert(&mut self, cond: Value, args: &[Value], message: &str) {
        let m = self.ctx.string_attr(message);
        let mut ops = vec![cond];
        ops.extend_from_slice(args);
        self.emit("imp.assert", &ops, &[], &[("message", m)], vec![]);
    }

    // ---- values crossing region boundaries (Note [Arrays as LMADs]) ----

    /// A representation as a flat list of imp values.
    pub fn flatten(&self, r: &Rep) -> Vec<Value> {
        match r {
            Rep::Scalar(v) => vec![*v],
            Rep::Array(a) => {
                let mut out = vec![a.mem, a.offset];
                for &(s, st) in &a.dims {
                    out.push(s);
                    out.push(st);
                }
                out
            }
        }
    }

    /// The inverse of [`Tr::flatten`] for a value of soac type `t`,
    /// taking from the front of `vals`.
    pub fn unflatten(&self, t: Type, vals: &mut std::slice::Iter<Value>, row_major: bool) -> Rep {
        match array_elem(self.ctx, t) {
            None => Rep::Scalar(*vals.next().expect("flattened value")),
            Some((elem, rank)) => {
                let mem = *vals.next().expect("block");
                let offset = *vals.next().expect("offset");
                let dims = (0..rank)
                    .map(|_| (*vals.next().expect("size"), *vals.next().expect("stride")))
                    .collect();
                Rep::Array(Arr {
                    mem,
                    elem,
                    offset,
                    dims,
                    row_major,
                    fresh: false,
                })
            }
        }
    }

    pub fn rep(&self, v: Value) -> R<Rep> {
        self.map
            .get(&v)
            .cloned()
            .ok_or_else(|| self.fail("internal error: a value used before its definition in segop-to-imp"))
    }

    pub fn scalar(&self, v: Value) -> R<Value> {
        match self.rep(v)? {
            Rep::Scalar(s) => Ok(s),
            Rep::Array(_) => Err(self.fail("internal error: an array where a scalar was expected")),
        }
    }

    pub fn array(&self, v: Value) -> R<Arr> {
        match self.rep(v)? {
            Rep::Array(a) => Ok(a),
            Rep::Scalar(_) => Err(self.fail("internal error: a scalar where an array was expected")),
        }
    }

    // ---- translation of ops ----

    /// Translates the ops of `b` (binding its arguments to `args` first)
    /// up to its terminator, and returns the terminator's operands.
    pub fn block(&mut self, b: BlockId, args: &[Rep]) -> R<Vec<Rep>> {
        for (&p, a) in self.ctx.block_args(b).to_vec().iter().zip(args) {
            self.map.insert(p, a.clone());
        }
        let ops: Vec<OpId> = self.ctx.block_ops(b).collect();
        let (last, body) = ops.split_last().expect("a block ends in a terminator");
        for &o in body {
            // Ops hoisted out of a kernel are translated already.
            if self.hoisted.contains(&o) {
                continue;
            }
            if self.in_kernel && segops::virtual_array(self.ctx, o) {
                self.virtual_arrays.insert(self.ctx.result(o, 0), o);
                continue;
            }
            self.op(o)?;
        }
        self.ctx.operands(*last).to_vec().iter().map(|&v| self.rep(v)).collect()
    }

    pub fn op(&mut self, o: OpId) -> R<()> {
        self.loc = self.ctx.location(o);
        let results: Vec<Value> = self.ctx.results(o).collect();
        if self.in_kernel
            && self.preset_kernel == Some(self.top)
            && !results.is_empty()
            && results.iter().all(|r| self.preset.contains_key(r))
        {
            for r in &results {
                let x = self.preset[r];
                self.map.insert(*r, Rep::Scalar(x));
            }
            return Ok(());
        }
        let dests = if self.in_kernel {
            results.iter().map(|&r| self.expansion(r)).collect()
        } else {
            results.iter().map(|&r| self.destination(r)).collect::<R<Vec<_>>>()?
        };
        let saved = std::mem::replace(&mut self.dests, dests);
        let out = self.translate(o, &results);
        self.dests = saved;
        for (r, v) in results.into_iter().zip(out?) {
            self.map.insert(r, v);
        }
        Ok(())
    }

    fn translate(&mut self, o: OpId, results: &[Value]) -> R<Vec<Rep>> {
        let name = self.ctx.op_name(o).to_string();
        let operands = self.ctx.operands(o).to_vec();
        let results = results.to_vec();
        Ok(match name.as_str() {
            // The mem level (Note [The mem level] in `segop_to_mem.rs`).
            // Kernel code (a device function's body) makes its arrays
            // where `alloc_result` says, never in the mem level's blocks.
            "mem.alloc" if self.in_kernel => vec![],
            "mem.alloc" => {
                let bytes = self.scalar(operands[0])?;
                vec![Rep::Scalar(self.alloc_block(bytes))]
            }
            "mem.bind" | "mem.place" => vec![],
            // Allocated when the kernel that binds arrays to it is
            // launched, for its threads ([`Tr::expand_as`]); on the CPU
            // (no kernels) the binds are not read.
            "mem.expand" => vec![],
            "soac.constant" if array_elem(self.ctx, self.ctx.value_type(results[0])).is_some() => {
                vec![Rep::Array(arrays::array_constant(self, o, results[0])?)]
            }
            "soac.constant" | "soac.binop" | "soac.cmpop" | "soac.unop" | "soac.convop" | "soac.ternop" => {
                let ins = operands.iter().map(|&v| self.scalar(v)).collect::<R<Vec<_>>>()?;
                let attrs: Vec<(String, futmlir_dialects::ir::Attr)> = self
                    .ctx
                    .attrs(o)
                    .iter()
                    .map(|&(k, a)| (self.ctx.str(k).to_string(), a))
                    .collect();
                let attrs: Vec<(&str, futmlir_dialects::ir::Attr)> =
                    attrs.iter().map(|(k, a)| (k.as_str(), *a)).collect();
                let t = self.ctx.value_type(results[0]);
                vec![Rep::Scalar(self.emit1(&name, &ins, t, &attrs))]
            }
            "soac.select" => {
                let c = self.scalar(operands[0])?;
                match (self.rep(operands[1])?, self.rep(operands[2])?) {
                    (Rep::Scalar(a), Rep::Scalar(b)) => {
                        let t = self.ctx.value_type(a);
                        vec![Rep::Scalar(self.emit1("soac.select", &[c, a, b], t, &[]))]
                    }
                    (a, b) => {
                        let t = self.ctx.value_type(results[0]);
                        vec![self.select_rep(c, t, &a, &b)?]
                    }
                }
            }
            "soac.assert" => {
                let c = self.scalar(operands[0])?;
                let args = operands[1..].iter().map(|&v| self.scalar(v)).collect::<R<Vec<_>>>()?;
                let msg = OpView { ctx: self.ctx, op: o }
                    .string_attr("message")
                    .unwrap_or("assertion failed")
                    .to_string();
                // Without values the message is literal text.
                let msg = if args.is_empty() { escape_braces(&msg) } else { msg };
                self.assert(c, &args, &msg);
                vec![]
            }
            "soac.if" => self.if_op(o, &operands, &results)?,
            "soac.loop" => self.loop_op(o, &operands, &results)?,
            "segop.if_threshold" => {
                let region = self.ctx.regions(o)[0];
                let b = self.ctx.blocks(region)[0];
                self.block(b, &[])?
            }
            "segop.manifest" => arrays::array_op(self, o, &name, &operands, &results)?,
            n if n.starts_with("segop.") => segops::segop(self, o, n, &operands, &results)?,
            "soac.map" | "soac.reduce" | "soac.redomap" | "soac.scan" | "soac.scanomap" => {
                segops::soac(self, o, &name, &operands, &results)?
            }
            "soac.filter" => segops::filter(self, o, &operands, &results)?,
            _ => arrays::array_op(self, o, &name, &operands, &results)?,
        })
    }

    /// Selects between two arrays of soac type `t` by their LMADs.
    fn select_rep(&mut self, c: Value, t: Type, a: &Rep, b: &Rep) -> R<Rep> {
        let fa = self.flatten(a);
        let fb = self.flatten(b);
        let vals: Vec<Value> = fa
            .iter()
            .zip(&fb)
            .map(|(&x, &y)| {
                let t = self.ctx.value_type(x);
                self.emit1("soac.select", &[c, x, y], t, &[])
            })
            .collect();
        Ok(self.unflatten(t, &mut vals.iter(), false))
    }

    fn if_op(&mut self, o: OpId, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
        let c = self.scalar(operands[0])?;
        let regions = self.ctx.regions(o).to_vec();
        let blocks: Vec<BlockId> = regions.iter().map(|&r| self.ctx.blocks(r)[0]).collect();
        let mut row_major = vec![true; results.len()];
        let mut branch = |tr: &mut Tr, b: BlockId| -> R<Vec<Value>> {
            let ys = tr.block(b, &[])?;
            let mut flat = Vec::new();
            for (k, y) in ys.iter().enumerate() {
                if let Rep::Array(a) = y {
                    row_major[k] &= a.row_major;
                }
                flat.extend(tr.flatten(y));
            }
            Ok(flat)
        };
        let (r1, types) = self.region(&[], &mut |tr, _| branch(tr, blocks[0]))?;
        let (r2, _) = self.region(&[], &mut |tr, _| branch(tr, blocks[1]))?;
        let op = self.emit("imp.if", &[c], &types, &[], vec![r1, r2]);
        let vals: Vec<Value> = self.ctx.results(op).collect();
        let mut it = vals.iter();
        let mut out: Vec<Rep> = results
            .iter()
            .zip(row_major)
            .map(|(&r, rm)| {
                let t = self.ctx.value_type(r);
                self.unflatten(t, &mut it, rm)
            })
            .collect();
        self.sizes_from_types(results, &mut out);
        Ok(out)
    }

    fn loop_op(&mut self, o: OpId, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
        let form = OpView { ctx: self.ctx, op: o }
            .string_attr("form")
            .unwrap_or("for")
            .to_string();
        let params = self.ctx.block_args(self.ctx.blocks(self.ctx.regions(o)[0])[0]).to_vec();
        let (inits, merge_params) = if form == "for" {
            (&operands[1..], &params[1..])
        } else {
            (operands, &params[..])
        };
        let mut flat_inits = Vec::new();
        for &v in inits {
            let r = self.rep(v)?;
            flat_inits.extend(self.flatten(&r));
        }
        let merge_types: Vec<Type> = merge_params.iter().map(|&p| self.ctx.value_type(p)).collect();
        let unflatten_all = |tr: &Tr, vals: &[Value]| -> Vec<Rep> {
            let mut it = vals.iter();
            merge_types.iter().map(|&t| tr.unflatten(t, &mut it, false)).collect()
        };
        let buffers = if self.in_kernel {
            self.loop_buffers(inits, merge_params)?
        } else {
            Some(vec![None; inits.len()])
        };
        // See Note [Thread allocations].
        let thread_loop = buffers.is_none();
        let buffers = buffers.unwrap_or_else(|| vec![None; inits.len()]);
        self.thread_loops += usize::from(thread_loop);
        let flat = self.loop_ops(o, &form, operands, &mut flat_inits, &buffers, &unflatten_all);
        self.thread_loops -= usize::from(thread_loop);
        let mut out = unflatten_all(self, &flat?);
        self.sizes_from_types(results, &mut out);
        Ok(out)
    }

    /// The `imp.for` or `imp.while` of loop `o` (of `form`), its arrays
    /// carried in `buffers` where it has them (Note [Loops in kernels]).
    fn loop_ops(
        &mut self,
        o: OpId,
        form: &str,
        operands: &[Value],
        flat_inits: &mut Vec<Value>,
        buffers: &[LoopBuffers],
        unflatten_all: &dyn Fn(&Tr, &[Value]) -> Vec<Rep>,
    ) -> R<Vec<Value>> {
        let body = self.ctx.blocks(self.ctx.regions(o)[0])[0];
        Ok(if form == "for" {
            let n = self.scalar(operands[0])?;
            self.for_loop(n, flat_inits, &mut |tr, i, carried| {
                let mut args = vec![Rep::Scalar(i)];
                let merge = with_init_sizes(unflatten_all(tr, carried), buffers);
                args.extend(merge.iter().cloned());
                let mut ys = tr.block(body, &args)?;
                tr.move_to_loop_buffers(i, buffers, &merge, &mut ys);
                Ok(ys.iter().flat_map(|y| tr.flatten(y)).collect())
            })?
        } else {
            // In a kernel, an iteration count (last) picks the buffers.
            let counted = buffers.iter().any(Option::is_some);
            if counted {
                let zero = self.i64c(0);
                flat_inits.push(zero);
            }
            let types: Vec<Type> = flat_inits.iter().map(|&v| self.ctx.value_type(v)).collect();
            // Region 0: the condition is the first merge value.
            let (cond_r, _) = self.region(&types, &mut |_, args| Ok(vec![args[0]]))?;
            let (body_r, _) = self.region(&types, &mut |tr, args| {
                let merge = with_init_sizes(unflatten_all(tr, args), buffers);
                let mut ys = tr.block(body, &merge)?;
                let mut next: Vec<Value> = Vec::new();
                if let Some(&count) = args.last().filter(|_| counted) {
                    tr.move_to_loop_buffers(count, buffers, &merge, &mut ys);
                    let one = tr.i64c(1);
                    next.push(tr.add(count, one));
                }
                let mut flat: Vec<Value> = ys.iter().flat_map(|y| tr.flatten(y)).collect();
                flat.extend(next);
                Ok(flat)
            })?;
            let op = self.emit("imp.while", flat_inits, &types, &[], vec![cond_r, body_r]);
            self.ctx.results(op).collect()
        })
    }

    /// **Note [Result sizes in kernels].**
    /// The arrays an `if` or a loop gives travel as their whole LMAD
    /// (Note [Arrays as LMADs]), so their sizes are results of the
    /// `imp.if` or `imp.for`: values no slice can follow to their source
    /// (Note [Size bounds]), even where the soac type says the size is a
    /// value known outside (`[n]`, a host size) or one of the op's own
    /// scalar results (an existential size). In a kernel, each such size
    /// is replaced by that value, so memory expansion finds the size, or
    /// the soac value computing it, whose slice it then follows.
    fn sizes_from_types(&mut self, results: &[Value], reps: &mut [Rep]) {
        if !self.in_kernel {
            return;
        }
        let mine: Vec<Option<Value>> = reps
            .iter()
            .map(|r| match r {
                Rep::Scalar(s) => Some(*s),
                Rep::Array(_) => None,
            })
            .collect();
        for (&r, rep) in results.iter().zip(reps.iter_mut()) {
            let Rep::Array(a) = rep else { continue };
            let dims = array_dims(self.ctx, self.ctx.value_type(r));
            for (d, dim) in a.dims.iter_mut().zip(dims) {
                let known = match dim {
                    Dim::Const(c) => i64::try_from(c).ok().map(|c| self.i64c(c)),
                    Dim::Value(x) => match results.iter().position(|&y| y == x) {
                        Some(j) => mine[j],
                        None => match self.map.get(&x) {
                            Some(Rep::Scalar(s)) => Some(*s),
                            _ => None,
                        },
                    },
                    Dim::Unknown => None,
                };
                if let Some(k) = known {
                    d.0 = k;
                }
            }
        }
    }

    /// **Note [Loops in kernels].**
    /// Memory expansion gives an allocation site in a kernel one block,
    /// reused each time the thread passes the site; in a loop, the array
    /// an iteration makes and carries to the next would be overwritten
    /// there. So a loop in a kernel carries each array in two expanded
    /// buffers of its own: iteration `i` copies the array it yields into
    /// buffer `i mod 2` (the one its merge parameter is not in), unless
    /// it yields the merge parameter's own memory (an in-place update).
    /// Everything else an iteration makes is then dead at its end.
    /// Buffers need sizes that do not change and that the host knows: a
    /// loop with an array whose size changes between iterations (or
    /// that has no buffers for another reason: in a device function, in
    /// a loop like it) gets none (`None`), and its thread allocates the
    /// arrays of its body itself (Note [Thread allocations]).
    fn loop_buffers(&mut self, inits: &[Value], merge_params: &[Value]) -> R<Option<Vec<LoopBuffers>>> {
        if self.host.is_none() || self.thread_loops > 0 {
            return Ok(None);
        }
        let mut arrays = Vec::new();
        for (&v, &p) in inits.iter().zip(merge_params) {
            let Rep::Array(init) = self.rep(v)? else {
                arrays.push(None);
                continue;
            };
            let t = self.ctx.value_type(p);
            let changing = array_dims(self.ctx, t).iter().any(|d| match d {
                Dim::Value(x) => merge_params.contains(x),
                Dim::Const(_) => false,
                Dim::Unknown => true,
            });
            if changing {
                return Ok(None);
            }
            arrays.push(Some(init));
        }
        let mut out = Vec::new();
        for init in arrays {
            let Some(init) = init else {
                out.push(None);
                continue;
            };
            let sizes = init.sizes();
            match (self.expand(init.elem, &sizes)?, self.expand(init.elem, &sizes)?) {
                (Some(a), Some(b)) => out.push(Some((a, b))),
                _ => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    /// The end of iteration `i` of a loop in a kernel: the yielded arrays
    /// `ys` move to the loop's buffers (Note [Loops in kernels]).
    fn move_to_loop_buffers(&mut self, i: Value, buffers: &[Option<(Arr, Arr)>], merge: &[Rep], ys: &mut [Rep]) {
        for ((buf, m), y) in buffers.iter().zip(merge).zip(ys.iter_mut()) {
            let (Some((a, b)), Rep::Array(p), Rep::Array(ya)) = (buf, m, &*y) else {
                continue;
            };
            if ya.mem == p.mem {
                continue;
            }
            let s = self.scalar_type_of(i);
            let two = self.int(2, s);
            let zero = self.int(0, s);
            let parity = self.bin("mod", i, two);
            let even = self.cmp("eq", parity, zero);
            let bt = self.block_type();
            let mem = self.emit1("soac.select", &[even, a.mem, b.mem], bt, &[]);
            let dst = Arr { mem, ..a.clone() };
            self.copy_into(&dst, ya);
            *y = Rep::Array(dst);
        }
    }
}

/// The merge parameters of a loop in a kernel with the sizes of their
/// buffers (those of the initial values: they do not change, Note [Loops
/// in kernels]), so that arrays made from them have sizes the host knows.
fn with_init_sizes(mut merge: Vec<Rep>, buffers: &[Option<(Arr, Arr)>]) -> Vec<Rep> {
    for (m, b) in merge.iter_mut().zip(buffers) {
        if let (Rep::Array(a), Some((buf, _))) = (m, b) {
            for (d, bd) in a.dims.iter_mut().zip(&buf.dims) {
                d.0 = bd.0;
            }
        }
    }
    merge
}

/// The dimensions of an array type.
pub(crate) fn array_dims(ctx: &Context, t: Type) -> Vec<Dim> {
    match ctx.type_kind(t) {
        TypeKind::Array { shape, .. } => shape.clone(),
        _ => Vec::new(),
    }
}

/// `{` and `}` mean message arguments in `imp.assert`; a literal brace is
/// doubled.
pub(crate) fn escape_braces(s: &str) -> String {
    s.replace('{', "{{").replace('}', "}}")
}
