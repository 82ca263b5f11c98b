//! `imp-carried-memory`: frees the memory blocks that loops and branches
//! pass on, once they are dead.
//!
//! **Note [Carried blocks].** `segop-to-imp` frees a block at the end of
//! the region that allocated it unless the region yields it (Note [Arrays
//! as LMADs]). A block a loop body allocates and yields, so that the
//! next iteration works on it, was then never freed: a loop of `k`
//! iterations that maps its array kept `k` arrays' memory until the
//! program ended. Whether the block a loop parameter holds may be freed
//! depends on the iteration: the first holds the loop's initial array,
//! which the code around the loop owns, the later ones a block the
//! previous iteration allocated. So this pass gives every memory block
//! that crosses a region boundary (a carried value of an `imp.for` or
//! `imp.while`, a result of an `imp.if`) an ownership flag, an `i1`
//! carried or returned beside it:
//!
//! - A loop's initial flags are false: the code around the loop keeps
//!   its blocks.
//! - Where a region yields a block, its flag is true when the region
//!   allocated it (`mem.alloc` in the region's block), the flag it has
//!   when it is a value of the region's own block that has one (a loop
//!   parameter, or a result of a loop or branch in the block), and false
//!   otherwise (a block from further out, or a `soac.select` of blocks).
//!   A block yielded twice has its flag at the first place only.
//! - Ownership moves in with a block of the block around a loop or
//!   branch that is its last use: as a loop's initial value (the initial
//!   flag is then the block's own), or yielded by a branch (the branch
//!   gives it its flag, and the `imp.if` also returns whether it took
//!   it; the block around frees it where no branch did). Its free from
//!   `segop-to-imp` goes.
//! - A value with a flag that its block does not yield or return, and
//!   that no op aliases (yields or returns it from a nested region, or
//!   makes another block value of it: a loop's initial value, a select),
//!   is dead after its last use in the block: there, `imp.if(flag) {
//!   mem.free }`; one that an op aliases, at the end of the block.
//!   Frees are stream-ordered on the GPU, so a free after the launch of
//!   the last kernel reading the block is safe.
//! - A block whose alias leaves its block (a select of it that the body
//!   yields) loses its free: it is kept to the end of the program. This
//!   is also what makes the frees of `segop-to-imp` safe.
//!
//! A loop that maps its array then holds two arrays' memory, not one per
//! iteration; the runtime's pool gives the freed block to the next
//! iteration's allocation. Kernels whose threads own blocks are done like
//! functions: the blocks a thread allocates itself (`mem.alloc {thread}`,
//! Note [Thread allocations] in `segop_to_imp`) or gets from a device
//! function are a loop's or branch's like a host's (a block kept to the
//! end there is kept until the program ends, on the device heap). The
//! rest of a kernel's memory is expanded (one host allocation for all
//! threads, a kernel parameter, which no flag ever owns), so kernels with
//! no block of their threads' are left alone.

use std::collections::{HashMap, HashSet};

use crate::{Level, Options, Pass, PassInfo};
use futmlir_dialects::ir::{AttrKind, BlockId, Builder, Context, Diagnostic, OpId, Scalar, TypeKind, Value};

use crate::imp::free_early::{ancestor_in, passes_on};

pub const INFO: PassInfo = PassInfo {
    name: "imp-carried-memory",
    description:
        "Free the memory blocks loops and branches pass on once dead, with ownership flags (Note [Carried blocks])",
    options: &[],
    reads: &[Level::Imp],
    writes: None,
    create: &|_: &Options, _| Box::new(CarriedMemory),
};

struct CarriedMemory;

impl Pass for CarriedMemory {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let mut funcs = Vec::new();
        ctx.walk(module, &mut |o| {
            if ctx.op_name(o) == "imp.func" || (ctx.op_name(o) == "imp.kernel" && allocates_in_threads(ctx, o)) {
                funcs.push(o);
            }
        });
        for f in funcs {
            let blocks: Vec<BlockId> = ctx
                .regions(f)
                .to_vec()
                .into_iter()
                .flat_map(|r| ctx.blocks(r).to_vec())
                .collect();
            let mut flags = Flags::default();
            for b in blocks {
                block(ctx, b, &mut flags, Yields::Nothing);
            }
        }
        Ok(())
    }
}

/// Whether kernel `k` gets blocks its threads own: ones they allocate
/// (`mem.alloc {thread}`) or that device functions return. Other
/// kernels carry only expanded blocks, which no flag ever owns, so they
/// are left as they are.
fn allocates_in_threads(ctx: &Context, k: OpId) -> bool {
    let mut found = false;
    ctx.walk(k, &mut |o| {
        found |= (ctx.op_name(o) == "mem.alloc" && ctx.attr(o, "thread").is_some())
            || (ctx.op_name(o) == "imp.call" && ctx.results(o).any(|r| is_mem(ctx, r)));
    });
    found
}

/// What a block's terminator passes on.
#[derive(Copy, Clone, PartialEq)]
enum Yields {
    /// Its values, which get flags (a loop body, a branch).
    Carried,
    /// A loop's condition: its parameters go on to the body unchanged.
    Condition,
    /// Nothing that needs flags (a function body, a region without
    /// memory results).
    Nothing,
}

fn is_mem(ctx: &Context, v: Value) -> bool {
    matches!(ctx.type_kind(ctx.value_type(v)), TypeKind::Mem(_))
}

fn constant(ctx: &mut Context, before: OpId, b: bool) -> Value {
    let t = ctx.scalar(Scalar::Bool);
    let a = ctx.intern_attr(AttrKind::Bool(b));
    let mut bl = Builder::before(ctx, before);
    let op = bl.op("soac.constant", &[], &[t], &[("value", a)], vec![]);
    ctx.result(op, 0)
}

/// The pass's state: each value's ownership flag, and the values whose
/// ownership went to a loop or a branch.
#[derive(Default)]
struct Flags {
    of: HashMap<Value, Value>,
    /// Outer values a branch being built may yield with their ownership,
    /// with their flags.
    transfer: HashMap<Value, Value>,
    transferred: HashSet<Value>,
}

/// A fresh block: a `mem.alloc`'s, or one an `imp.call` returns (the
/// caller owns it: Note [Functions at the imp level] in
/// `segop_to_imp/call.rs`).
fn is_alloc(ctx: &Context, v: Value) -> bool {
    ctx.defining_op(v).is_some_and(|d| {
        ctx.op_name(d) == "mem.alloc"
            || (ctx.op_name(d) == "imp.call" && matches!(ctx.type_kind(ctx.value_type(v)), TypeKind::Mem(_)))
    })
}

/// Whether block `b` owns `v`: a block it allocated, or a value of it
/// with a flag.
fn owned_in(ctx: &Context, flags: &Flags, v: Value, b: BlockId) -> bool {
    ctx.value_block(v) == Some(b) && (is_alloc(ctx, v) || flags.of.contains_key(&v))
}

/// `v`'s ownership flag (true for a block allocated where it is), made
/// before `at` when it is a constant.
fn own_flag(ctx: &mut Context, flags: &Flags, v: Value, at: OpId) -> Value {
    match flags.of.get(&v) {
        Some(&f) => f,
        None => constant(ctx, at, true),
    }
}

/// The `mem.free`s of `v` in block `b` (those `segop-to-imp` made).
fn frees_in(ctx: &Context, v: Value, b: BlockId) -> Vec<OpId> {
    ctx.uses(v)
        .iter()
        .map(|u| u.op)
        .filter(|&o| ctx.op_name(o) == "mem.free" && ctx.parent_block(o) == Some(b))
        .collect()
}

/// Whether every use of `v` in block `b` other than inside `op` comes
/// before `op`, and none of them passes `v` on; and, when `inside` is
/// false, none is inside `op`, while when it is true, the only ones
/// inside `op` that pass it on are the terminators of `op`'s regions.
fn last_used_by(ctx: &Context, v: Value, op: OpId, b: BlockId, inside: bool) -> bool {
    let order: HashMap<OpId, usize> = ctx.block_ops(b).enumerate().map(|(i, o)| (o, i)).collect();
    ctx.uses(v).iter().all(|u| {
        if ctx.op_name(u.op) == "mem.free" && ctx.parent_block(u.op) == Some(b) {
            return true;
        }
        let Some(top) = ancestor_in(ctx, u.op, b) else {
            return false;
        };
        if u.op == op {
            return true;
        }
        if top == op {
            let direct_yield = ctx.parent_op(u.op) == Some(op) && ctx.next_op(u.op).is_none();
            return inside && (direct_yield || !passes_on(ctx, u.op));
        }
        order.get(&top) < order.get(&op) && !passes_on(ctx, u.op)
    })
}

/// Flags for the memory values of block `b` and the blocks in it.
fn block(ctx: &mut Context, b: BlockId, flags: &mut Flags, yields: Yields) {
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    for op in ops {
        let name = ctx.op_name(op).to_string();
        let carries =
            matches!(name.as_str(), "imp.for" | "imp.while" | "imp.if") && ctx.results(op).any(|r| is_mem(ctx, r));
        if carries {
            rebuild(ctx, op, b, flags);
        } else {
            for r in ctx.regions(op).to_vec() {
                for nb in ctx.blocks(r).to_vec() {
                    block(ctx, nb, flags, Yields::Nothing);
                }
            }
        }
    }
    let Some(term) = ctx.last_op(b) else { return };
    if yields == Yields::Carried {
        extend_yield(ctx, b, term, flags);
    }
    settle(ctx, b, flags, yields);
}

/// Rebuilds the loop or branch `op` of block `b` with a flag beside each
/// of its memory results (and, for a loop, each memory parameter), and
/// does its regions. A block of `b` that `op` is the last to use goes
/// to it with its ownership: as a loop's initial value, or as a value a
/// branch yields (then `op` also says whether it took it, and `b` frees
/// it where not).
fn rebuild(ctx: &mut Context, op: OpId, b: BlockId, flags: &mut Flags) {
    let name = ctx.op_name(op).to_string();
    let results: Vec<Value> = ctx.results(op).collect();
    let mem_pos: Vec<usize> = (0..results.len()).filter(|&k| is_mem(ctx, results[k])).collect();
    let i1 = ctx.scalar(Scalar::Bool);
    let mut operands = ctx.operands(op).to_vec();
    // The carried values start after the bounds of an `imp.for`, and
    // after the index in its body.
    let (first_init, first_arg) = if name == "imp.for" { (3, 1) } else { (0, 0) };
    let mut taken: Vec<(Value, Value)> = Vec::new();
    if name != "imp.if" {
        for &k in &mem_pos {
            let v = operands[first_init + k];
            let once = operands.iter().filter(|&&o| o == v).count() == 1;
            let f = if once && owned_in(ctx, flags, v, b) && last_used_by(ctx, v, op, b, false) {
                flags.transferred.insert(v);
                for f in frees_in(ctx, v, b) {
                    ctx.erase_op(f);
                }
                own_flag(ctx, flags, v, op)
            } else {
                constant(ctx, op, false)
            };
            operands.push(f);
        }
    } else {
        // Outer blocks the branches yield, that `op` may take.
        for r in ctx.regions(op).to_vec() {
            let rb = ctx.blocks(r)[0];
            let Some(t) = ctx.last_op(rb) else { continue };
            for y in ctx.operands(t).to_vec() {
                if is_mem(ctx, y)
                    && !taken.iter().any(|&(v, _)| v == y)
                    && owned_in(ctx, flags, y, b)
                    && last_used_by(ctx, y, op, b, true)
                {
                    let f = own_flag(ctx, flags, y, op);
                    taken.push((y, f));
                }
            }
        }
    }
    let mut types: Vec<_> = results.iter().map(|&r| ctx.value_type(r)).collect();
    types.extend(mem_pos.iter().map(|_| i1));
    types.extend(taken.iter().map(|_| i1));
    let regions = ctx.take_regions(op);
    let attrs = ctx.attrs(op).to_vec();
    let loc = ctx.location(op);
    let sym = ctx.op_name_sym(op);
    // A branch may yield what `op` takes with its flag; a loop body's
    // blocks are of the iterations.
    let transfer = if name == "imp.if" {
        taken.iter().copied().collect()
    } else {
        HashMap::new()
    };
    let saved = std::mem::replace(&mut flags.transfer, transfer);
    for (j, &r) in regions.iter().enumerate() {
        let rb = ctx.blocks(r)[0];
        let yields = match name.as_str() {
            "imp.while" if j == 0 => Yields::Condition,
            _ => Yields::Carried,
        };
        if name != "imp.if" {
            let args = ctx.block_args(rb).to_vec();
            for &k in &mem_pos {
                let fa = ctx.add_block_arg(rb, i1);
                flags.of.insert(args[first_arg + k], fa);
            }
        }
        block(ctx, rb, flags, yields);
        if !taken.is_empty() {
            // Whether this branch took each of them.
            let t = ctx.last_op(rb).expect("a branch ends with its yield");
            let ys = ctx.operands(t).to_vec();
            let tooks: Vec<Value> = taken.iter().map(|&(v, _)| constant(ctx, t, ys.contains(&v))).collect();
            replace_terminator(ctx, rb, t, &tooks);
        }
    }
    flags.transfer = saved;
    let new = ctx.create_op(sym, &operands, &types, &attrs, regions, loc);
    ctx.insert_op(b, Some(op), new);
    for (k, &r) in results.iter().enumerate() {
        let nr = ctx.result(new, k);
        ctx.replace_all_uses(r, nr);
    }
    for (j, &k) in mem_pos.iter().enumerate() {
        let nr = ctx.result(new, k);
        let f = ctx.result(new, results.len() + j);
        flags.of.insert(nr, f);
    }
    ctx.erase_op(op);
    // Each block a branch may have taken is freed after `op` where none did.
    for &(v, _) in &taken {
        flags.transferred.insert(v);
        for fr in frees_in(ctx, v, b) {
            ctx.erase_op(fr);
        }
    }
    let at = ctx
        .next_op(new)
        .expect("a branch is followed by its block's terminator");
    for (j, &(v, f)) in taken.iter().enumerate() {
        let took = ctx.result(new, results.len() + mem_pos.len() + j);
        // Owned here still: `f`, unless a branch took it.
        let no = constant(ctx, at, false);
        let i1 = ctx.scalar(Scalar::Bool);
        let mut bl = Builder::before(ctx, at);
        let sel = bl.op("soac.select", &[took, no, f], &[i1], &[], vec![]);
        let owned = ctx.result(sel, 0);
        conditional_free(ctx, at, owned, v);
    }
}

/// Appends `extra` to the operands of `b`'s terminator `term`.
fn replace_terminator(ctx: &mut Context, b: BlockId, term: OpId, extra: &[Value]) {
    let mut operands = ctx.operands(term).to_vec();
    operands.extend_from_slice(extra);
    let sym = ctx.op_name_sym(term);
    let attrs = ctx.attrs(term).to_vec();
    let loc = ctx.location(term);
    let new = ctx.create_op(sym, &operands, &[], &attrs, vec![], loc);
    ctx.insert_op(b, Some(term), new);
    ctx.erase_op(term);
}

/// Appends to the terminator `term` of block `b` the flags of the memory
/// values it yields.
fn extend_yield(ctx: &mut Context, b: BlockId, term: OpId, flags: &Flags) {
    let ys = ctx.operands(term).to_vec();
    let mut extra = Vec::new();
    for (k, &y) in ys.iter().enumerate() {
        if !is_mem(ctx, y) {
            continue;
        }
        let first = !ys[..k].contains(&y);
        let f = match (flags.of.get(&y), flags.transfer.get(&y)) {
            _ if !first => constant(ctx, term, false),
            (_, Some(&f)) => f,
            (Some(&f), None) if ctx.value_block(y) == Some(b) => f,
            _ => constant(ctx, term, ctx.value_block(y) == Some(b) && is_alloc(ctx, y)),
        };
        extra.push(f);
    }
    replace_terminator(ctx, b, term, &extra);
}

/// Whether `v`, or a value of block `b` that may alias it, leaves `b`
/// through its terminator (`v` itself not counting); and whether any op
/// aliases it.
fn escapes(ctx: &Context, v: Value, b: BlockId) -> (bool, bool) {
    let term = ctx.last_op(b);
    let mut seen = vec![v];
    let mut work = vec![v];
    let mut aliased = false;
    while let Some(x) = work.pop() {
        for u in ctx.uses(x) {
            if Some(u.op) == term {
                if x != v {
                    return (true, true);
                }
                continue;
            }
            if !passes_on(ctx, u.op) {
                continue;
            }
            aliased = true;
            let Some(top) = ancestor_in(ctx, u.op, b) else {
                return (true, true);
            };
            for r in ctx.results(top) {
                if is_mem(ctx, r) && !seen.contains(&r) {
                    seen.push(r);
                    work.push(r);
                }
            }
        }
    }
    (false, aliased)
}

/// Settles the blocks block `b` owns: a block that leaves `b` under
/// another name loses its free (it is kept to the end); one that is
/// dead, and has a flag, is freed where the flag says, after its last
/// use (or at the end of `b` when an op aliases it).
fn settle(ctx: &mut Context, b: BlockId, flags: &Flags, yields: Yields) {
    let mut mine: Vec<Value> = Vec::new();
    if yields != Yields::Condition {
        mine.extend(ctx.block_args(b).iter().copied().filter(|a| flags.of.contains_key(a)));
    }
    for op in ctx.block_ops(b).collect::<Vec<_>>() {
        mine.extend(
            ctx.results(op)
                .filter(|&r| is_mem(ctx, r) && owned_in(ctx, flags, r, b)),
        );
    }
    let Some(term) = ctx.last_op(b) else { return };
    let order: HashMap<OpId, usize> = ctx.block_ops(b).enumerate().map(|(i, o)| (o, i)).collect();
    for v in mine {
        if flags.transferred.contains(&v) || ctx.operands(term).contains(&v) {
            continue;
        }
        let (escaping, aliased) = escapes(ctx, v, b);
        if escaping {
            // Kept to the end: freeing it here could free a block that
            // lives on.
            for f in frees_in(ctx, v, b) {
                ctx.erase_op(f);
            }
            continue;
        }
        let Some(&flag) = flags.of.get(&v) else {
            // A block `b` allocated keeps the free `segop-to-imp` gave it.
            continue;
        };
        let at = if aliased {
            Some(term)
        } else {
            let mut last: Option<OpId> = ctx.defining_op(v);
            for u in ctx.uses(v) {
                let top = ancestor_in(ctx, u.op, b).expect("a use in the block");
                if last.is_none_or(|l| order.get(&top) > order.get(&l)) {
                    last = Some(top);
                }
            }
            match last {
                Some(l) => ctx.next_op(l),
                None => ctx.first_op(b),
            }
        };
        if let Some(at) = at {
            conditional_free(ctx, at, flag, v);
        }
    }
}

/// `imp.if(flag) { mem.free(v) }` before `at`.
fn conditional_free(ctx: &mut Context, at: OpId, flag: Value, v: Value) {
    let mut bl = Builder::before(ctx, at);
    let r0 = bl.ctx.create_region();
    let then = bl.ctx.append_block(r0, &[]);
    let r1 = bl.ctx.create_region();
    let els = bl.ctx.append_block(r1, &[]);
    bl.op("imp.if", &[flag], &[], &[], vec![r0, r1]);
    let mut t = Builder::at_end(ctx, then);
    t.op("mem.free", &[v], &[], &[], vec![]);
    t.op("imp.yield", &[], &[], &[], vec![]);
    let mut e = Builder::at_end(ctx, els);
    e.op("imp.yield", &[], &[], &[], vec![]);
}
