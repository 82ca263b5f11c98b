//! Passes on the `mem` level (segop IR whose arrays live in explicit
//! blocks: `mem.alloc`, `mem.bind`), and the queries they share with the
//! conversions into and out of it (`segop-to-mem`, `segop-to-imp` in the
//! lowering crate).

pub mod expand;
pub mod reuse;
pub mod short_circuit;

use futmlir_dialects::ir::{BlockId, Builder, Context, Dim, OpId, Scalar, Type, TypeKind, Value};

/// The module's `soac.func`s.
pub fn host_functions(ctx: &Context, module: OpId) -> Vec<OpId> {
    let body = ctx.blocks(ctx.regions(module)[0])[0];
    ctx.block_ops(body).filter(|&o| ctx.op_name(o) == "soac.func").collect()
}

/// The host-level blocks nested in `op`: the regions of the control ops
/// that run on the host (not segop bodies or SOAC lambdas).
pub fn host_regions(ctx: &Context, op: OpId) -> Vec<BlockId> {
    match ctx.op_name(op) {
        "soac.if" | "soac.loop" | "segop.if_threshold" => {
            ctx.regions(op).iter().flat_map(|&r| ctx.blocks(r).to_vec()).collect()
        }
        _ => Vec::new(),
    }
}

/// The `mem.bind` that says where the array `v` lives, if any.
pub fn binding(ctx: &Context, v: Value) -> Option<OpId> {
    ctx.uses(v)
        .iter()
        .find(|u| u.index == 1 && ctx.op_name(u.op) == "mem.bind")
        .map(|u| u.op)
}

/// The `mem.place` that makes the array `v` as a row of another, if any.
pub fn placement(ctx: &Context, v: Value) -> Option<OpId> {
    ctx.uses(v)
        .iter()
        .find(|u| ctx.op_name(u.op) == "mem.place" && u.index as usize + 1 == ctx.operands(u.op).len())
        .map(|u| u.op)
}

/// The element type and rank of an array type; `None` for a scalar.
pub fn array_elem(ctx: &Context, t: Type) -> Option<(Scalar, usize)> {
    match ctx.type_kind(t) {
        TypeKind::Array { elem, shape } => Some((ctx.as_scalar(*elem).unwrap_or(Scalar::I8), shape.len())),
        _ => None,
    }
}

/// The bytes of one element of type `s` (a `bool` takes a byte).
pub fn elem_bytes(s: Scalar) -> i64 {
    match s {
        Scalar::Bool => 1,
        s => (s.bits() / 8) as i64,
    }
}

/// The bytes of an array of `sizes` and `elem`, computed before the
/// builder's point: the constant factors folded, then one `mul` per size
/// value.
pub fn byte_size(b: &mut Builder, sizes: &[Dim], elem: Scalar) -> Value {
    let i64t = b.ctx.scalar(Scalar::I64);
    let mut c = elem_bytes(elem) as u64;
    for s in sizes {
        if let Dim::Const(k) = s {
            c = c.saturating_mul(*k);
        }
    }
    let a = b.ctx.int_attr(c.min(i64::MAX as u64) as i64, Scalar::I64);
    let k = b.op("soac.constant", &[], &[i64t], &[("value", a)], vec![]);
    let mut acc = b.ctx.result(k, 0);
    for s in sizes {
        if let Dim::Value(v) = *s {
            acc = saturating_mul(b, acc, v);
        }
    }
    acc
}

/// **Note [Byte sizes saturate].**
/// A byte size is a product of sizes and an element size, which wraps
/// around for absurd sizes (`iota (2**61)` of 8-byte elements is 2**64
/// bytes: 0), and the program would then write past a small block. Byte
/// sizes are therefore multiplied saturating at `i64::MAX`, which no
/// allocation can satisfy, so the runtime reports that the memory is
/// not there instead of the program corrupting it. Sizes are never
/// negative here (the ops that make arrays check that).
///
/// `a * b` for `a, b >= 0`, or `i64::MAX` where it overflows (`a > MAX /
/// b`, dividing by 1 where `b` is 0).
pub fn saturating_mul(b: &mut Builder, a: Value, x: Value) -> Value {
    let i64t = b.ctx.scalar(Scalar::I64);
    let bool_t = b.ctx.scalar(Scalar::Bool);
    let constant = |b: &mut Builder, v: i64| {
        let a = b.ctx.int_attr(v, Scalar::I64);
        let k = b.op("soac.constant", &[], &[i64t], &[("value", a)], vec![]);
        b.ctx.result(k, 0)
    };
    let (zero, one, max) = (constant(b, 0), constant(b, 1), constant(b, i64::MAX));
    let op = |b: &mut Builder, name: &str, kind: Option<&str>, args: &[Value], t| {
        let attrs: Vec<(&str, futmlir_dialects::ir::Attr)> =
            kind.map(|k| ("kind", b.ctx.string_attr(k))).into_iter().collect();
        let o = b.op(name, args, &[t], &attrs, vec![]);
        b.ctx.result(o, 0)
    };
    let is_zero = op(b, "soac.cmpop", Some("eq"), &[x, zero], bool_t);
    let d = op(b, "soac.select", None, &[is_zero, one, x], i64t);
    let q = op(b, "soac.binop", Some("div"), &[max, d], i64t);
    let over = op(b, "soac.cmpop", Some("gt"), &[a, q], bool_t);
    let p = op(b, "soac.binop", Some("mul"), &[a, x], i64t);
    op(b, "soac.select", None, &[over, max, p], i64t)
}

/// **Note [Virtual arrays].**
/// Inside a kernel, an `iota` or `replicate` read only by the SOACs the
/// thread runs (`map (\j -> ...) (iota k)`, `reduce (+) 0 (iota k)`) is
/// not made: it would need memory per thread, of a size the host may not
/// know. The SOAC computes the row it reads instead: `start + i*step`
/// for an iota, the value for a replicate. (Their size checks are
/// `soac.assert`s of their own, kept.)
pub fn virtual_array(ctx: &Context, o: OpId) -> bool {
    let name = ctx.op_name(o);
    if !matches!(name, "soac.iota" | "soac.replicate") {
        return false;
    }
    let r = ctx.result(o, 0);
    !ctx.uses(r).is_empty() && only_read(ctx, r, false)
}

/// Whether every use of array `r` reads it: as an input of a SOAC, or
/// (`index`) by `soac.index` and `soac.size`. (Not consumed, and not
/// through a view that might be.)
pub fn only_read(ctx: &Context, r: Value, index: bool) -> bool {
    ctx.uses(r).iter().all(|u| {
        // Where the mem level put it says nothing of how it is read.
        if ctx.op_name(u.op) == "mem.bind" {
            return true;
        }
        let first_input = match ctx.op_name(u.op) {
            "soac.index" | "soac.size" if index => return u.index == 0,
            "soac.map" | "soac.filter" => 1,
            "soac.reduce" | "soac.scan" => 1 + ctx.results(u.op).count(),
            "soac.redomap" | "soac.scanomap" => 1 + ctx.block_args(ctx.blocks(ctx.regions(u.op)[0])[0]).len() / 2,
            _ => return false,
        };
        u.index as usize >= first_input
    })
}
