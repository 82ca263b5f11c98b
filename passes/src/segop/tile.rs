//! `segop-tile`: block and register tiling of matmul-like segmented
//! reductions for the GPU (Note [Block tiling]).

use super::{defined_inside, inside_segop};
use crate::{Level, OptionKind, OptionSpec, Options, Pass, PassInfo};
use futmlir_dialects::ir::{AttrKind, BlockId, Context, Diagnostic, Location, OpId, Scalar, TypeKind, Value};

pub const INFO: PassInfo = PassInfo {
    name: "segop-tile",
    description: "Tile matmul-like segmented reductions for the GPU: a group of 16x16 threads computes a \
                  block of the result, its inputs staged in shared memory (Note [Block tiling])",
    options: &[
        OptionSpec {
            name: "rows",
            kind: OptionKind::UInt,
            default: "4",
            help: "result rows per thread (1 to 8): a group computes 16*rows rows",
        },
        OptionSpec {
            name: "cols",
            kind: OptionKind::UInt,
            default: "8",
            help: "result columns per thread (1 to 8): a group computes 16*cols columns",
        },
        OptionSpec {
            name: "k",
            kind: OptionKind::UInt,
            default: "8",
            help: "reduction steps staged in shared memory at a time (1 to 64)",
        },
        OptionSpec {
            name: "max-body",
            kind: OptionKind::UInt,
            default: "64",
            help: "the most ops a tiled reduction's body may have (each thread computes rows*cols copies of it)",
        },
    ],
    reads: &[Level::Segop],
    writes: None,
    create: &|o: &Options, _| {
        Box::new(Tile {
            sizes: [o.uint("rows") as i64, o.uint("cols") as i64, o.uint("k") as i64],
            max_body: o.uint("max-body") as usize,
        })
    },
};

// Note [Block tiling]
// ~~~~~~~~~~~~~~~~~~~
// Matrix multiplication written the natural way,
//
//     map (\r -> map (\c -> f32.sum (map2 (*) r c)) (transpose b)) a
//
// becomes, after kernel extraction, a segred over the space (i, j, q)
// whose body reads `a[i][q]` and `bt[j][q]`: each read is invariant to
// one of the two parallel dimensions. Run with a thread per (i, j), each
// element of `a` is read by every thread of its row and each of `b` by
// every thread of its column, from global memory or its caches: the
// kernel is bound by memory traffic, far below the GPU's arithmetic.
// Tiled (thesis ch. 8; Volkov's and Futhark's register tiling), a group
// of 16x16 threads computes a block of [16*rows][16*cols] results: it
// stages, `k` steps of the reduction at a time, the block's rows of `a`
// ([16*rows][k]) and columns of `b` ([16*cols][k]) in shared memory,
// each element read from global memory once per group, and each thread
// computes `rows x cols` results in registers from `rows + cols` shared
// reads per step.
//
// This pass decides it: it gives each segop it can tile the attribute
// `tile = [rows, cols, k]`; `segop-to-imp` (for the GPU) generates the
// tiled kernel, and the CPU target ignores the attribute (it does not
// change what the segop computes). Two forms are tiled (`tiling`):
// - a segred over `outer..., i, j, q` whose body reads, at its top
//   level, at least one array from outside at exactly the indices
//   (i, q) and one at (j, q), in either order (outer indices may come
//   too: a batch). Those reads become reads of the shared tiles; the
//   body's other reads stay reads of global memory. Its operator
//   combines scalars and it has no mapped results;
// - a segmap over `outer..., i, j` whose body holds, at its top level,
//   one `redomap` or `reduce` of scalars (no mapped results; its size
//   and neutral elements from outside; its lambda using nothing else of
//   the body) whose inputs are rows of arrays from outside at (i) and at
//   (j), one-dimensional arrays from outside, or replicates of scalars
//   from outside. That is the same product followed by code on its result,
//   which kernel extraction leaves in the segmap: `f32.sum (map2 (*) r
//   c) + b`, an activation, a loss. The reduction runs tiled; the rest
//   of the body then runs once per result, with the reduction's values.
// A body (all of the segop) has at most `max-body` ops.
// The default sizes are the best of those measured on the H100 (f32
// matmul, 4096² / 1024², TFLOP/s with multiply-adds contracted, Note
// [Multiply-adds in kernels]): rows x cols x k = 4x8x8: 19.3 / 11.8;
// 4x4x8: 14.3 / 14.6; 8x4x8: 16.5 / 10.4; 4x4x16: 11.1 / 13.3; 8x8x8:
// 12.1 / 7.2 (210 registers a thread); cuBLAS: 49.5 / 27.8.
// Each thread still combines its results' terms in the order of the
// reduction, so the operator need not be commutative. The kernel checks
// every bound (the tiles' loads against the arrays' own sizes, the
// points against the space) outside the blocks wholly inside. A space
// of fewer than 16 rows or columns, or of fewer blocks of results than
// the tuning parameter `tile_min_blocks` (16), takes the untiled kernels
// (`tiled_enough` in `segop-to-imp`).

struct Tile {
    sizes: [i64; 3],
    max_body: usize,
}

/// Which parallel dimension of a tiled segop a read varies with besides
/// the reduction's: the rows (`i`) or the columns (`j`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Rows,
    Cols,
}

/// What an index of a tiled read is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ix {
    /// The segop's `k`th outer index (before the rows and columns).
    Outer(usize),
    /// The row's or the column's index.
    Side,
    /// The reduction's index.
    Reduction,
}

/// A read of an array from outside that tiling stages in shared memory
/// (Note [Block tiling]): element `array[indices]`.
#[derive(Clone, Debug)]
pub struct TiledRead {
    /// The value the read stands for in the body: a segred's
    /// `soac.index` result (an element), or the row a segmap's body takes
    /// for its reduction's input.
    pub result: Value,
    pub array: Value,
    pub side: Side,
    pub indices: Vec<Ix>,
}

/// An input of the reduction in a tiled segmap's body.
#[derive(Clone, Copy, Debug)]
pub enum Input {
    /// Read from shared memory: the `k`th of the tiling's reads.
    Tile(usize),
    /// A one-dimensional array from outside, read at the reduction's
    /// index.
    Whole(Value),
    /// A `soac.replicate` of a value from outside: that value.
    Replicated(Value),
}

/// How a segop is tiled (Note [Block tiling]).
#[derive(Clone, Debug)]
pub struct Tiling {
    pub reads: Vec<TiledRead>,
    /// For a segmap, its body's reduction (a `soac.redomap` or
    /// `soac.reduce`) and where each of its inputs comes from; `None`
    /// for a segred.
    pub reduction: Option<(OpId, Vec<Input>)>,
}

/// How segop `s` is tiled, when it can be (Note [Block tiling]) with a
/// body of at most `max_body` ops.
pub fn tiling(ctx: &Context, s: OpId, max_body: usize) -> Option<Tiling> {
    let name = ctx.op_name(s);
    if !matches!(name, "segop.segred" | "segop.segmap") || ctx.attr(s, "writes").is_some() || inside_segop(ctx, s) {
        return None;
    }
    let mut count = 0;
    ctx.walk(s, &mut |_| count += 1);
    if count > max_body {
        return None;
    }
    let body = *ctx.blocks(ctx.regions(s)[0]).first()?;
    let args = ctx.block_args(body).to_vec();
    let t = if name == "segop.segred" {
        segred_tiling(ctx, s, body, &args)?
    } else {
        segmap_tiling(ctx, s, body, &args)?
    };
    let has = |side| t.reads.iter().any(|r| r.side == side);
    (has(Side::Rows) && has(Side::Cols)).then_some(t)
}

/// The indices `idx` of a read as [`Ix`]s, given the parallel dimensions'
/// arguments `args` (outer ones, then the rows' and the columns') and
/// the reduction's `q` when the read gives an element (`None` when it
/// gives a row, whose elements are the reduction's): one of the rows'
/// or columns' index and one of the reduction's, the rest outer.
fn read_indices(idx: &[Value], args: &[Value], q: Option<Value>) -> Option<(Side, Vec<Ix>)> {
    let d = args.len();
    let (i, j) = (args[d - 2], args[d - 1]);
    let mut side = None;
    let mut out = Vec::new();
    for &x in idx {
        if Some(x) == q {
            out.push(Ix::Reduction);
        } else if (x == i || x == j) && side.is_none() {
            side = Some(if x == i { Side::Rows } else { Side::Cols });
            out.push(Ix::Side);
        } else {
            out.push(Ix::Outer(args[..d - 2].iter().position(|&a| a == x)?));
        }
    }
    if q.is_none() {
        out.push(Ix::Reduction);
    }
    let reductions = out.iter().filter(|&&x| x == Ix::Reduction).count();
    (reductions == 1).then_some((side?, out))
}

/// A segred over `outer..., i, j, q` whose body reads elements at
/// (i, q) and (j, q).
fn segred_tiling(ctx: &Context, s: OpId, body: BlockId, args: &[Value]) -> Option<Tiling> {
    let d = args.len();
    if d < 3 {
        return None;
    }
    let op = *ctx.blocks(*ctx.regions(s).get(1)?).first()?;
    if ctx.results(s).count() != ctx.block_args(op).len() / 2 || !scalar_args(ctx, op) {
        return None;
    }
    let mut reads = Vec::new();
    for o in ctx.block_ops(body) {
        if ctx.op_name(o) != "soac.index" {
            continue;
        }
        let operands = ctx.operands(o);
        let r = ctx.result(o, 0);
        if ctx.as_scalar(ctx.value_type(r)).is_none() || defined_inside(ctx, operands[0], s) {
            continue;
        }
        if let Some((side, indices)) = read_indices(&operands[1..], &args[..d - 1], Some(args[d - 1])) {
            reads.push(TiledRead {
                result: r,
                array: operands[0],
                side,
                indices,
            });
        }
    }
    Some(Tiling { reads, reduction: None })
}

/// A segmap over `outer..., i, j` whose body holds, at its top level,
/// one reduction (`soac.redomap` or `soac.reduce`, of scalars, with no
/// mapped results) over a size and from neutral elements from outside,
/// each of whose inputs is a row of an array from outside at (i) or (j)
/// or a one-dimensional array from outside.
fn segmap_tiling(ctx: &Context, s: OpId, body: BlockId, args: &[Value]) -> Option<Tiling> {
    if args.len() < 2 {
        return None;
    }
    let reductions: Vec<OpId> = ctx
        .block_ops(body)
        .filter(|&o| matches!(ctx.op_name(o), "soac.redomap" | "soac.reduce"))
        .collect();
    let [r] = reductions[..] else { return None };
    let regions = ctx.regions(r);
    let op = *ctx.blocks(regions[0]).first()?;
    let k = ctx.block_args(op).len() / 2;
    let operands = ctx.operands(r);
    if ctx.results(r).count() != k
        || !scalar_args(ctx, op)
        || operands[..1 + k].iter().any(|&v| defined_inside(ctx, v, s))
    {
        return None;
    }
    // The reduction's lambda and operator run without the rest of the
    // body: they may use only their own values and those from outside.
    let mut closed = true;
    ctx.walk(r, &mut |o| {
        if o != r {
            closed &= ctx
                .operands(o)
                .iter()
                .all(|&v| defined_inside(ctx, v, r) || !defined_inside(ctx, v, s));
        }
    });
    if !closed {
        return None;
    }
    let mut reads = Vec::new();
    let mut inputs = Vec::new();
    for &x in &operands[1 + k..] {
        if !defined_inside(ctx, x, s) {
            if !matches!(ctx.type_kind(ctx.value_type(x)), TypeKind::Array { shape, .. } if shape.len() == 1) {
                return None;
            }
            inputs.push(Input::Whole(x));
            continue;
        }
        let d = ctx.defining_op(x)?;
        let idx = ctx.operands(d);
        if ctx.op_name(d) == "soac.replicate" && idx.len() == 2 && !defined_inside(ctx, idx[1], s) {
            // A replicate of a scalar (an array's rows would not be one
            // input element each).
            ctx.as_scalar(ctx.value_type(idx[1]))?;
            inputs.push(Input::Replicated(idx[1]));
            continue;
        }
        if ctx.op_name(d) != "soac.index" || ctx.parent_block(d) != Some(body) || defined_inside(ctx, idx[0], s) {
            return None;
        }
        let (side, indices) = read_indices(&idx[1..], args, None)?;
        inputs.push(Input::Tile(reads.len()));
        reads.push(TiledRead {
            result: x,
            array: idx[0],
            side,
            indices,
        });
    }
    Some(Tiling {
        reads,
        reduction: Some((r, inputs)),
    })
}

/// Whether operator block `op`'s arguments are scalars.
fn scalar_args(ctx: &Context, op: BlockId) -> bool {
    ctx.block_args(op)
        .iter()
        .all(|&a| ctx.as_scalar(ctx.value_type(a)).is_some())
}

/// The tile sizes `[rows, cols, k]` of segop `s`, when `segop-tile`
/// tiled it.
pub fn tile_sizes(ctx: &Context, s: OpId) -> Option<[i64; 3]> {
    let AttrKind::Array(xs) = ctx.attr_kind(ctx.attr(s, "tile")?) else {
        return None;
    };
    let mut out = [0; 3];
    if xs.len() != 3 {
        return None;
    }
    for (o, &x) in out.iter_mut().zip(xs) {
        let AttrKind::Int { bits, .. } = ctx.attr_kind(x) else {
            return None;
        };
        *o = *bits;
    }
    Some(out)
}

impl Pass for Tile {
    fn run(&mut self, ctx: &mut Context, module: OpId) -> Result<(), Diagnostic> {
        let [rows, cols, k] = self.sizes;
        if !(1..=8).contains(&rows) || !(1..=8).contains(&cols) || !(1..=64).contains(&k) {
            return Err(Diagnostic::error(
                Location::Unknown,
                format!("segop-tile: rows and cols must be 1 to 8 and k 1 to 64, got rows={rows} cols={cols} k={k}"),
            ));
        }
        let mut found = Vec::new();
        ctx.walk(module, &mut |o| {
            if tiling(ctx, o, self.max_body).is_some() {
                found.push(o);
            }
        });
        let i64t = ctx.scalar(Scalar::I64);
        let ints: Vec<_> = self
            .sizes
            .iter()
            .map(|&bits| ctx.intern_attr(AttrKind::Int { bits, ty: i64t }))
            .collect();
        let attr = ctx.intern_attr(AttrKind::Array(ints));
        let key = ctx.sym("tile");
        for s in found {
            ctx.set_attr(s, key, attr);
        }
        Ok(())
    }
}
