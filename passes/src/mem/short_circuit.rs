//! `mem-short-circuit`: arrays made directly in the memory of the array
//! they are copied into (the parts of a `concat`, the new row of an
//! in-place update).
//!
//! **Note [Short-circuiting].** A `concat` copies its parts into a block
//! of its own; when a part is a fresh array that nothing else reads, the
//! op that makes it can write it at its place in the concat's block, and
//! the copy goes (Futhark's array short-circuiting; seed 003). At the mem level (Note [The mem level] in `segop_to_mem.rs`) a
//! part `p`, result of an op `P`, is placed when:
//!
//! 1. the concat is along the outer dimension (the parts then fill
//!    consecutive row-major ranges of its block) and `P` is an op of the
//!    concat's own block, before it;
//! 2. `p` has its own block (`mem.alloc` + `mem.bind`) that holds nothing
//!    else, and `p` has no use but the concat (once) and that bind: no
//!    one reads `p` after the concat has been made, so `p` living inside
//!    the concat's result is never observed;
//! 3. the concat's block and the part's offset can be computed before the
//!    first placed part's op: the allocation's byte size and its scalar
//!    computation (pure ops) move up there, and every size the offsets
//!    need is defined before it.
//!
//! Then `p`'s bind becomes `mem.bind(%concat_block, %p, %offset)` (the
//! element offset of `p`'s first row), `p`'s own allocation goes, and the
//! concat gets the unit attribute `short_circuit`: `segop-to-imp` writes
//! `P`'s result at that offset and does not copy a part that is in the
//! concat's block already (a part whose op did not write into its bound
//! block, if any, is still copied). The concat's block is fresh, so no
//! op between the parts and the concat reads or writes it, and the parts
//! occupy disjoint ranges of it: no live ranges or index functions
//! overlap.
//!
//! An in-place update `dst with [i...] = v` copies `v` into a row of
//! `dst`. When `v` is a fresh array of an op `P` of the update's block
//! with no other use, `P` can make it in that row: `mem.place(dst, i...,
//! v)` replaces `v`'s block, and the update (marked `short_circuit`)
//! copies nothing. `dst` is consumed by the update, so nothing reads it
//! after; the conditions are on what runs before: the indices and `dst`
//! are defined before `P`, no op between `P` and the update touches
//! `dst`, and `P` reads `dst` (or a row of it taken before `P`) only
//! where that is safe while it writes row `i`: elements of other rows
//! (a leading index provably different: `i - 1` beside `i`), or, in a
//! `segmap` over the row, the element its own thread writes (read before
//! the thread's write). So the Needleman-Wunsch step `xss with [i] =
//! map2 f xss[i-1] xss[i]` in a loop writes its new row in place, where
//! it made a row and copied it. `segop-to-imp` honours a placement in a
//! row-major `dst` (else it allocates and copies as before). `stats=true`
//! prints what was placed.

use crate::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};
use futmlir_dialects::ir::{
    AttrKind, BlockId, Builder, Context, Diagnostic, Dim, OpId, OpView, Scalar, TypeKind, Value,
};

use crate::mem::{binding, host_functions, host_regions};

pub const INFO: PassInfo = PassInfo {
    name: "mem-short-circuit",
    description: "mem level: the parts of a concat, and the new row of an in-place update, are made where they are copied to, and not copied (Note [Short-circuiting])",
    options: &[OptionSpec {
        name: "stats",
        kind: OptionKind::Bool,
        default: "false",
        help: "print each concat short-circuited and how many of its parts were placed (to stderr)",
    }],
    reads: &[Level::Mem],
    writes: None,
    create: &|o: &Options, _| Box::new(ShortCircuit { stats: o.bool("stats") }),
};

struct ShortCircuit {
    stats: bool,
}

impl Pass for ShortCircuit {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let (mut concats, mut parts, mut updates) = (0, 0, 0);
        for f in host_functions(ctx, module) {
            let body = ctx.blocks(ctx.regions(f)[0])[0];
            let name = OpView { ctx, op: f }.string_attr("sym_name").unwrap_or("?").to_string();
            for done in in_block(ctx, body) {
                let line = match done {
                    Done::Concat(n, of) => {
                        concats += 1;
                        parts += n;
                        format!("a concat of {of} parts makes {n} of them in its own block")
                    }
                    Done::Update => {
                        updates += 1;
                        "an in-place update's new row is made in place".to_string()
                    }
                };
                if self.stats {
                    eprintln!("mem-short-circuit: @{name}: {line}");
                }
            }
        }
        if self.stats {
            eprintln!(
                "mem-short-circuit: {concats} concats, {parts} parts and {updates} updated rows made in place (their copies removed)"
            );
        }
        Ok(())
    }
}

/// What was short-circuited.
enum Done {
    /// A concat: its parts placed, and all its parts.
    Concat(usize, usize),
    /// An in-place update's new row.
    Update,
}

/// Short-circuits the concats and updates of host block `b` and the
/// blocks nested in it.
fn in_block(ctx: &mut Context, b: BlockId) -> Vec<Done> {
    let mut done = Vec::new();
    let ops: Vec<OpId> = ctx.block_ops(b).collect();
    for o in ops {
        for inner in host_regions(ctx, o) {
            done.extend(in_block(ctx, inner));
        }
        if ctx.op_name(o) == "soac.concat" {
            if let Some(n) = concat(ctx, b, o) {
                done.push(Done::Concat(n, ctx.operands(o).len() - 1));
            }
        }
        if ctx.op_name(o) == "soac.update" && update(ctx, b, o).is_some() {
            done.push(Done::Update);
        }
    }
    done
}

/// A part of a concat that can be made in place: its index among the
/// parts, the array, the op that makes it, its bind and its allocation.
struct Part {
    index: usize,
    array: Value,
    maker: OpId,
    bind: OpId,
    alloc: OpId,
}

/// Short-circuits concat `c` of block `b` (Note [Short-circuiting]): the
/// number of parts placed, `None` when none is.
fn concat(ctx: &mut Context, b: BlockId, c: OpId) -> Option<usize> {
    if (OpView { ctx, op: c }).int_attr("dim").ok()? != 0 {
        return None;
    }
    let result = ctx.result(c, 0);
    let bind_c = binding(ctx, result)?;
    if ctx.operands(bind_c).len() != 2 {
        return None;
    }
    let block = ctx.operands(bind_c)[0];
    let alloc_c = ctx.defining_op(block).filter(|&a| ctx.op_name(a) == "mem.alloc")?;
    if ctx.parent_block(alloc_c) != Some(b) {
        return None;
    }
    let pos = positions(ctx, b);
    let all: Vec<Value> = ctx.operands(c)[1..].to_vec();
    let parts: Vec<Part> = all
        .iter()
        .enumerate()
        .filter_map(|(index, &array)| placeable(ctx, b, c, &all, index, array))
        .collect();
    let first = parts.iter().map(|p| p.maker).min_by_key(|m| pos[m])?;
    let before_first = |ctx: &Context, v: Value| defined_before(ctx, b, &pos, pos[&first], v);
    // The sizes the offsets need: the parts' outer sizes and the rows'.
    let dims = |ctx: &Context, v: Value| match ctx.type_kind(ctx.value_type(v)) {
        TypeKind::Array { shape, .. } => Some(shape.clone()),
        _ => None,
    };
    let rows = dims(ctx, result)?;
    let mut needed: Vec<Dim> = rows[1..].to_vec();
    let last = parts.iter().map(|p| p.index).max()?;
    for &p in &all[..last] {
        needed.push(*dims(ctx, p)?.first()?);
    }
    for d in &needed {
        match d {
            Dim::Value(v) if !before_first(ctx, *v) => return None,
            Dim::Unknown => return None,
            _ => {}
        }
    }
    let slice = hoistable(ctx, b, &pos, alloc_c, &before_first)?;
    for op in slice {
        ctx.move_op_before(op, first);
    }
    // The offsets, in elements: each part's first row times a row's size.
    let loc = ctx.location(c);
    let mut bld = Builder::before(ctx, first);
    bld.location = loc;
    let i64t = bld.ctx.scalar(Scalar::I64);
    let mut konst = |bld: &mut Builder, k: u64| {
        let a = bld.ctx.int_attr(k as i64, Scalar::I64);
        let op = bld.op("soac.constant", &[], &[i64t], &[("value", a)], vec![]);
        bld.ctx.result(op, 0)
    };
    let size = |bld: &mut Builder, konst: &mut dyn FnMut(&mut Builder, u64) -> Value, d: Dim| match d {
        Dim::Value(v) => v,
        Dim::Const(k) => konst(bld, k),
        Dim::Unknown => unreachable!("refused above"),
    };
    let binop = |bld: &mut Builder, kind: &str, x: Value, y: Value| {
        let k = bld.ctx.string_attr(kind);
        let op = bld.op("soac.binop", &[x, y], &[i64t], &[("kind", k)], vec![]);
        bld.ctx.result(op, 0)
    };
    let mut row = konst(&mut bld, 1);
    for &d in &rows[1..] {
        let s = size(&mut bld, &mut konst, d);
        row = binop(&mut bld, "mul", row, s);
    }
    let mut at = konst(&mut bld, 0);
    let mut offsets = Vec::new();
    // Part k's offset needs the outer sizes of the parts before it only
    // (those checked above), not the last placed part's own.
    for (k, &p) in all.iter().enumerate().take(last + 1) {
        offsets.push(binop(&mut bld, "mul", at, row));
        if k < last {
            let outer = dims(&*bld.ctx, p)?[0];
            let s = size(&mut bld, &mut konst, outer);
            at = binop(&mut bld, "add", at, s);
        }
    }
    for p in &parts {
        let loc = ctx.location(p.bind);
        let mut bld = Builder::before(ctx, p.bind);
        bld.location = loc;
        bld.op("mem.bind", &[block, p.array, offsets[p.index]], &[], &[], vec![]);
        ctx.erase_op(p.bind);
        ctx.erase_op(p.alloc);
    }
    let unit = ctx.intern_attr(AttrKind::Unit);
    let name = ctx.sym("short_circuit");
    ctx.set_attr(c, name, unit);
    Some(parts.len())
}

/// Part `index` of concat `c` (whose parts are `all`), if it can be made
/// in place (conditions 1 and 2 of Note [Short-circuiting]).
fn placeable(ctx: &Context, b: BlockId, c: OpId, all: &[Value], index: usize, array: Value) -> Option<Part> {
    if all.iter().filter(|&&x| x == array).count() != 1 {
        return None;
    }
    let maker = ctx.defining_op(array)?;
    if ctx.parent_block(maker) != Some(b) || maker == c {
        return None;
    }
    let bind = binding(ctx, array)?;
    if ctx.operands(bind).len() != 2 {
        return None;
    }
    let own = ctx.operands(bind)[0];
    let alloc = ctx.defining_op(own).filter(|&a| ctx.op_name(a) == "mem.alloc")?;
    if ctx.uses(own).len() != 1 {
        return None;
    }
    let uses = ctx.uses(array);
    let only_concat_and_bind = uses.len() == 2 && uses.iter().all(|u| u.op == c || u.op == bind);
    only_concat_and_bind.then_some(Part {
        index,
        array,
        maker,
        bind,
        alloc,
    })
}

/// The ops of block `b` to move up with allocation `alloc` (and `alloc`),
/// in their order: those its byte size is computed by that are not
/// already before the first placed part (`before_first`). `None` when
/// one of them is not a pure scalar op, or lies in another block.
fn hoistable(
    ctx: &Context,
    b: BlockId,
    pos: &std::collections::HashMap<OpId, usize>,
    alloc: OpId,
    before_first: &dyn Fn(&Context, Value) -> bool,
) -> Option<Vec<OpId>> {
    let mut slice = vec![alloc];
    let mut work: Vec<Value> = ctx.operands(alloc).to_vec();
    while let Some(v) = work.pop() {
        if before_first(ctx, v) {
            continue;
        }
        let d = ctx.defining_op(v)?;
        if slice.contains(&d) {
            continue;
        }
        let pure = matches!(
            ctx.op_name(d),
            "soac.constant" | "soac.binop" | "soac.cmpop" | "soac.unop" | "soac.convop" | "soac.select"
        );
        if !pure || ctx.parent_block(d) != Some(b) || !ctx.regions(d).is_empty() {
            return None;
        }
        slice.push(d);
        work.extend(ctx.operands(d).iter().copied());
    }
    slice.sort_by_key(|o| pos[o]);
    Some(slice)
}

/// Short-circuits in-place update `u` of block `b`, `dst[i...] = v` with
/// `v` made by an op `P` of `b` (Note [Short-circuiting]): `P` makes `v`
/// in `dst`'s row, and the update copies nothing. `None` when it may
/// not: `v` has another use, an index is computed after `P`, or `P` or
/// an op between it and `u` may read what `P` writes (see [`safe_read`]).
fn update(ctx: &mut Context, b: BlockId, u: OpId) -> Option<()> {
    let ops = ctx.operands(u).to_vec();
    let (dst, v) = (ops[0], *ops.last()?);
    let idx = &ops[1..ops.len() - 1];
    crate::mem::array_elem(ctx, ctx.value_type(v))?;
    let maker = ctx.defining_op(v)?;
    if ctx.parent_block(maker) != Some(b) {
        return None;
    }
    let pos = positions(ctx, b);
    let (at, end) = (pos[&maker], *pos.get(&u)?);
    let before = |v: Value| defined_before(ctx, b, &pos, at, v);
    if !before(dst) || !idx.iter().all(|&i| before(i)) {
        return None;
    }
    // `v`'s own block, if the mem level gave it one, holds nothing else.
    let bind = binding(ctx, v);
    let alloc = match bind {
        Some(bind) => {
            let own = ctx.operands(bind)[0];
            let alloc = ctx.defining_op(own).filter(|&a| ctx.op_name(a) == "mem.alloc")?;
            (ctx.operands(bind).len() == 2 && ctx.uses(own).len() == 1).then_some(alloc)?;
            Some(alloc)
        }
        None => None,
    };
    let uses = ctx.uses(v);
    if !uses.iter().all(|x| x.op == u || Some(x.op) == bind) || uses.iter().filter(|x| x.op == u).count() != 1 {
        return None;
    }
    // The arrays made in `b` before `P` that may share `dst`'s memory: a
    // row of it (`soac.index` with fewer indices than its rank), whose
    // reads are checked as reads of `dst` at that row, and any other
    // array an op makes from `dst` or such an array (a slice, a
    // rearrangement, ...: `None`, which `P` must not read at all).
    let mut views: Vec<(Value, Option<Vec<Value>>)> = vec![(dst, Some(Vec::new()))];
    for &o in ctx.block_ops(b).collect::<Vec<_>>()[..at].iter() {
        let os = ctx.operands(o).to_vec();
        let mut uses_view = os.iter().any(|v| views.iter().any(|(a, _)| a == v));
        ctx.walk(o, &mut |x| {
            uses_view |= ctx.operands(x).iter().any(|v| views.iter().any(|(a, _)| a == v))
        });
        if !uses_view {
            continue;
        }
        let row = (ctx.op_name(o) == "soac.index" && os.first() == Some(&dst)).then(|| os[1..].to_vec());
        for r in ctx.results(o).collect::<Vec<_>>() {
            if crate::mem::array_elem(ctx, ctx.value_type(r)).is_some() {
                views.push((r, row.clone()));
            }
        }
    }
    let alias = |v: Value| views.iter().find(|(a, _)| *a == v).map(|(_, pre)| pre.clone());
    // `P` reads only elements no other thread writes; the ops after it
    // (up to `u`) do not touch `dst`.
    let threads: Vec<Value> = match ctx.op_name(maker) {
        "segop.segmap" => ctx
            .regions(maker)
            .first()
            .and_then(|&r| ctx.blocks(r).first())
            .map(|&bb| ctx.block_args(bb).to_vec())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut ok = true;
    let mut check = |o: OpId| {
        for (k, &x) in ctx.operands(o).iter().enumerate() {
            if let Some(view) = alias(x) {
                ok &= k == 0
                    && ctx.op_name(o) == "soac.index"
                    && view.is_some_and(|pre| safe_read(ctx, &pre, &ctx.operands(o)[1..], idx, &threads));
            }
        }
    };
    check(maker);
    ctx.walk(maker, &mut |o| check(o));
    for &o in ctx.block_ops(b).collect::<Vec<_>>()[at + 1..end].iter() {
        let mut touches = false;
        let mut see = |o: OpId| touches |= ctx.operands(o).iter().any(|&x| alias(x).is_some());
        see(o);
        ctx.walk(o, &mut |o| see(o));
        ok &= !touches;
    }
    if !ok {
        return None;
    }
    let next = ctx.next_op(maker)?;
    let loc = ctx.location(u);
    let mut bld = Builder::before(ctx, next);
    bld.location = loc;
    let mut operands = vec![dst];
    operands.extend_from_slice(idx);
    operands.push(v);
    bld.op("mem.place", &operands, &[], &[], vec![]);
    if let Some(bind) = bind {
        ctx.erase_op(bind);
    }
    if let Some(alloc) = alloc {
        ctx.erase_op(alloc);
    }
    let unit = ctx.intern_attr(AttrKind::Unit);
    let name = ctx.sym("short_circuit");
    ctx.set_attr(u, name, unit);
    Some(())
}

/// Whether `P` may read `dst[pre..., rest...]` while it writes its
/// result `r` into `dst[idx...]` (thread `t...` writing `r[t...]`): the
/// element is in another row (a leading index provably differs: another
/// constant, or the same value plus or minus a nonzero constant), or it
/// is the one element the reading thread itself writes (the same row,
/// and the thread's own indices: read before its write).
fn safe_read(ctx: &Context, pre: &[Value], rest: &[Value], idx: &[Value], threads: &[Value]) -> bool {
    let full: Vec<Value> = pre.iter().chain(rest).copied().collect();
    if full.iter().zip(idx).any(|(&a, &b)| differ(ctx, a, b)) {
        return true;
    }
    full.len() == idx.len() + threads.len() && full[..idx.len()] == *idx && full[idx.len()..] == *threads
}

/// Whether i64 values `a` and `b` are provably different: two different
/// constants, or one the other plus or minus a nonzero constant.
fn differ(ctx: &Context, a: Value, b: Value) -> bool {
    let konst = |v: Value| {
        let d = ctx.defining_op(v).filter(|&d| ctx.op_name(d) == "soac.constant")?;
        (OpView { ctx, op: d }).int_attr("value").ok()
    };
    // `v` as `base + k` with a constant `k`.
    let offset = |v: Value| -> (Value, i64) {
        let Some(d) = ctx.defining_op(v).filter(|&d| ctx.op_name(d) == "soac.binop") else {
            return (v, 0);
        };
        let os = ctx.operands(d);
        match ((OpView { ctx, op: d }).string_attr("kind"), konst(os[0]), konst(os[1])) {
            (Ok("add"), Some(k), None) => (os[1], k),
            (Ok("add"), None, Some(k)) => (os[0], k),
            (Ok("sub"), None, Some(k)) => (os[0], k.wrapping_neg()),
            _ => (v, 0),
        }
    };
    if let (Some(x), Some(y)) = (konst(a), konst(b)) {
        return x != y;
    }
    let ((ba, ka), (bb, kb)) = (offset(a), offset(b));
    ba == bb && ka != kb
}

/// The position of each op of block `b`.
fn positions(ctx: &Context, b: BlockId) -> std::collections::HashMap<OpId, usize> {
    ctx.block_ops(b).enumerate().map(|(i, o)| (o, i)).collect()
}

/// Whether `v` is available before the op at position `at` of block `b`:
/// a block argument, a value of an enclosing block, or the result of an
/// earlier op of `b`.
fn defined_before(
    ctx: &Context,
    b: BlockId,
    pos: &std::collections::HashMap<OpId, usize>,
    at: usize,
    v: Value,
) -> bool {
    match ctx.defining_op(v) {
        None => true,
        Some(d) => ctx.parent_block(d) != Some(b) || pos.get(&d).is_some_and(|&p| p < at),
    }
}
