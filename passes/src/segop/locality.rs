//! `segop-cpu-locality`: on the CPU, a segop whose body reads a
//! transposed view of an array from outside reads a row-major copy of
//! it instead (Note [Transposed views on the CPU]).

use crate::{Level, Options, Pass, PassInfo};
use futmlir_dialects::ir::{AttrKind, Builder, Context, Diagnostic, OpId, Scalar, Value};

pub const INFO: PassInfo = PassInfo {
    name: "segop-cpu-locality",
    description: "Give segops that read a transposed view of an outer array a row-major copy of it \
                  (the CPU target: Note [Transposed views on the CPU])",
    options: &[],
    reads: &[Level::Segop],
    writes: None,
    create: &|_: &Options, _| Box::new(CpuLocality),
};

// Note [Transposed views on the CPU]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `soac.rearrange` is a view: `transpose b` reads `b` with its strides
// swapped. On the CPU a segop runs as nested loops in one thread, its
// last dimension (and the sequential loops of its body) innermost. Matrix
// multiplication written the natural way,
//
//     map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a
//
// reads `(transpose b)[j][k]` with `k` innermost: `b[k][j]`, one row of
// `b` apart at each step, so every read touches a new cache line, and
// for rows of 4 KiB or more a new page: with `b` of [4011][1011]f32 the
// loop ran at ~10 ns per element. A row-major copy of the view, made
// once before the segop, turns those reads into a contiguous walk; the
// copy costs one pass over the array, which a segop that reads the view
// (inside its parallel dimensions) repays many times over.
//
// Only views whose last dimension is not the source's last are copied
// (a view whose rows are contiguous gains nothing), and only where the
// segop reads a view defined outside it: a view made per thread is the
// thread's own business. The GPU target does not run this pass: there,
// consecutive threads take consecutive `j`, and `b[k][j]` is the
// coalesced read that a copy would break.

struct CpuLocality;

const SEGOPS: &[&str] = &["segop.segmap", "segop.segred", "segop.segscan", "segop.seghist"];

impl Pass for CpuLocality {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let mut outer = Vec::new();
        ctx.walk(module, &mut |o| {
            if SEGOPS.contains(&ctx.op_name(o)) && !inside_segop(ctx, o) {
                outer.push(o);
            }
        });
        for s in outer {
            for (v, rank) in strided_views_read(ctx, s) {
                let t = ctx.value_type(v);
                let i64t = ctx.scalar(Scalar::I64);
                let ids: Vec<_> = (0..rank)
                    .map(|d| {
                        ctx.intern_attr(AttrKind::Int {
                            bits: d as i64,
                            ty: i64t,
                        })
                    })
                    .collect();
                let perm = ctx.intern_attr(AttrKind::Array(ids));
                let copy = Builder::before(ctx, s).op("segop.manifest", &[v], &[t], &[("perm", perm)], Vec::new());
                let cv = ctx.result(copy, 0);
                let inside: Vec<_> = ctx
                    .uses(v)
                    .iter()
                    .filter(|u| ctx.is_ancestor(s, u.op))
                    .copied()
                    .collect();
                for u in inside {
                    ctx.set_operand(u.op, u.index as usize, cv);
                }
            }
        }
        Ok(())
    }
}

fn inside_segop(ctx: &Context, mut op: OpId) -> bool {
    while let Some(p) = ctx.parent_op(op) {
        if SEGOPS.contains(&ctx.op_name(p)) {
            return true;
        }
        op = p;
    }
    false
}

/// The transposed views from outside segop `s` that its body reads, in
/// the order first read, with their ranks.
fn strided_views_read(ctx: &Context, s: OpId) -> Vec<(Value, usize)> {
    let mut views: Vec<(Value, usize)> = Vec::new();
    ctx.walk(s, &mut |o| {
        if o == s {
            return;
        }
        for &v in ctx.operands(o) {
            let Some(d) = ctx.defining_op(v) else { continue };
            if ctx.op_name(d) != "soac.rearrange" || ctx.is_ancestor(s, d) || views.iter().any(|&(w, _)| w == v) {
                continue;
            }
            if let Some(rank) = last_dim_moved(ctx, d) {
                views.push((v, rank));
            }
        }
    });
    views
}

/// The rank of rearrange `d` if it puts a dimension other than its
/// source's last last (its rows are not contiguous).
fn last_dim_moved(ctx: &Context, d: OpId) -> Option<usize> {
    let AttrKind::Array(xs) = ctx.attr_kind(ctx.attr(d, "perm")?) else {
        return None;
    };
    let n = xs.len();
    match ctx.attr_kind(*xs.last()?) {
        AttrKind::Int { bits, .. } if *bits as usize != n - 1 => Some(n),
        _ => None,
    }
}
