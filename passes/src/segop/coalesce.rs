//! `segop-coalesce`: segmented reductions whose segments run across
//! memory (column sums) reduce by columns on the GPU (Note [Column
//! reductions]).

use super::{defined_inside, inside_segop};
use crate::{Level, Options, Pass, PassInfo};
use futmlir_dialects::ir::{AttrKind, BlockId, Context, Diagnostic, OpId, Value};

pub const INFO: PassInfo = PassInfo {
    name: "segop-coalesce",
    description: "Reduce segmented reductions whose body reads its inputs across memory by columns on the GPU: \
                  threads take consecutive segments, read coalesced (Note [Column reductions])",
    options: &[],
    reads: &[Level::Segop],
    writes: None,
    create: &|_: &Options, _| Box::new(Coalesce),
};

// Note [Column reductions]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// Column sums written the natural way, `map f32.sum (transpose xss)`,
// become a segred over (j, q) whose body reads `xss[q][j]`: segment j
// walks down column j. The GPU's segmented reductions give a segment a
// thread (consecutive threads then read consecutive columns of a row:
// coalesced, but with [10^4][10^4] only 10^4 threads) or, for long
// segments, a group (whose threads read down one column: a 32-byte
// sector for every 4 bytes used). Either way the reduction runs far below
// the copy bandwidth: 0.18 of `x.sum(0)` on the H100 (issue 25).
//
// This pass marks such a segred `coalesce = "columns"`, and
// `segop-to-imp` (GPU) gives it a kernel that reduces by columns: a group
// of 256 threads takes 32 consecutive segments (a warp reads 32
// consecutive elements of a row: one 128-byte line) and 8 lanes of rows;
// the rows are split into chunks, enough of them that the groups fill
// the GPU (the tuning parameter `reduce_groups` bounds the groups), each
// lane reduces every 8th row of its chunk, the group combines its 8 lanes
// in shared memory, and a second kernel combines each segment's chunks.
// The interchange of the loops, not a transposed copy: the input is read
// once. A segred is marked when
// - it is at host level with at least two dimensions and no mapped
//   results, and its operator combines scalars;
// - its operator may combine in any order (the attribute `commutative`,
//   or a commutative binop per operand, as a sum of pairs): the chunks
//   and lanes change the order;
// - its body reads, at its top level, an array from outside whose last
//   index is the segment's innermost index and whose other indices
//   include the reduction's (the read goes down a column), the indices
//   taken in the order of the array a `rearrange` view reads
//   (`transpose xss` read at (j, q) reads `xss[q][j]`);
// A segred `segop-tile` tiled may be marked too: where the tiled kernel
// would have too few blocks of results (`tile_min_blocks`), the column
// reduction is its other version (the gradient of k-means' centres:
// [32][16] results, each a sum over 262,144 points read down `x`'s
// columns). The CPU target ignores the attribute.

struct Coalesce;

/// Whether segred `s` reduces by columns (Note [Column reductions]).
pub fn by_columns(ctx: &Context, s: OpId) -> bool {
    if ctx.op_name(s) != "segop.segred" || ctx.attr(s, "writes").is_some() || inside_segop(ctx, s) {
        return false;
    }
    let regions = ctx.regions(s);
    let (Some(&b), Some(&o)) = (regions.first(), regions.get(1)) else {
        return false;
    };
    let (body, op) = (ctx.blocks(b)[0], ctx.blocks(o)[0]);
    let args = ctx.block_args(body).to_vec();
    let d = args.len();
    let k = ctx.block_args(op).len() / 2;
    if d < 2
        || ctx.results(s).count() != k
        || !ctx
            .block_args(op)
            .iter()
            .all(|&a| ctx.as_scalar(ctx.value_type(a)).is_some())
        || !(ctx.attr(s, "commutative").is_some() || commutative_binop(ctx, op))
    {
        return false;
    }
    let (j, q) = (args[d - 2], args[d - 1]);
    ctx.block_ops(body).any(|o| {
        if ctx.op_name(o) != "soac.index" {
            return false;
        }
        let xs = ctx.operands(o);
        if defined_inside(ctx, xs[0], s) || ctx.as_scalar(ctx.value_type(ctx.result(o, 0))).is_none() || xs.len() < 3 {
            return false;
        }
        let idx = memory_order(ctx, xs[0], xs[1..].to_vec());
        idx.last() == Some(&j) && idx[..idx.len() - 1].contains(&q)
    })
}

/// The indices `idx` of a read of `v` in the order of the dimensions of
/// the array it views through `soac.rearrange`s (the last one is the
/// contiguous one of a row-major array).
fn memory_order(ctx: &Context, mut v: Value, mut idx: Vec<Value>) -> Vec<Value> {
    while let Some(d) = ctx.defining_op(v).filter(|&d| ctx.op_name(d) == "soac.rearrange") {
        let Some(AttrKind::Array(perm)) = ctx.attr(d, "perm").map(|a| ctx.attr_kind(a)) else {
            break;
        };
        let perm: Vec<usize> = perm
            .iter()
            .filter_map(|&p| match ctx.attr_kind(p) {
                AttrKind::Int { bits, .. } => usize::try_from(*bits).ok(),
                _ => None,
            })
            .collect();
        if perm.len() != idx.len() || perm.iter().any(|&p| p >= idx.len()) {
            break;
        }
        // View dimension k is the source's dimension perm[k].
        let mut src = idx.clone();
        for (k, &p) in perm.iter().enumerate() {
            src[p] = idx[k];
        }
        idx = src;
        v = ctx.operand(d, 0);
    }
    idx
}

/// Whether operator `op` (on `k` operands) gives, for each operand `i`,
/// a commutative binop of its two arguments `i` and `k + i` alone (a sum
/// of pairs, say).
fn commutative_binop(ctx: &Context, op: BlockId) -> bool {
    let args = ctx.block_args(op);
    let k = args.len() / 2;
    let Some(ret) = ctx.last_op(op) else { return false };
    let ys = ctx.operands(ret);
    ys.len() == k
        && ctx.block_ops(op).count() == k + 1
        && ys.iter().enumerate().all(|(i, &y)| {
            let Some(bin) = ctx.defining_op(y).filter(|&b| ctx.op_name(b) == "soac.binop") else {
                return false;
            };
            let xs = ctx.operands(bin);
            (xs == [args[i], args[k + i]] || xs == [args[k + i], args[i]])
                && matches!(ctx.attr(bin, "kind").map(|a| ctx.attr_kind(a)),
                    Some(AttrKind::String(s)) if matches!(ctx.str(*s), "add" | "mul" | "min" | "max" | "and" | "or" | "xor"))
        })
}

impl Pass for Coalesce {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let mut found = Vec::new();
        ctx.walk(module, &mut |o| {
            if by_columns(ctx, o) {
                found.push(o);
            }
        });
        let attr = ctx.string_attr("columns");
        let key = ctx.sym("coalesce");
        for s in found {
            ctx.set_attr(s, key, attr);
        }
        Ok(())
    }
}
