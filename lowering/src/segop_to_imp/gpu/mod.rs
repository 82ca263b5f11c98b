//! The CUDA target: segops as kernels (Note [Segops on the GPU]), one
//! file per segop kind, as Futhark's ImpGen has them:
//! - [`launch`](mod@launch): building and launching a kernel (its
//!   parameters found after its body is built), the thread's ids,
//!   [`par_for`] (a kernel with one thread per point, for segmaps with
//!   `writes`, atomic histograms and the array ops that fill memory),
//!   unravelling a flat index, the block size and the runtime's tuning
//!   parameters;
//! - [`group`](mod@group): what a group of threads does together, for
//!   several kinds: shared arrays, warp and group reductions, the
//!   group's scan, broadcasts, and staging rounds of the input in shared
//!   memory (Note [Batched loads]);
//! - [`segmap`](mod@segmap): a map's kernel, several points per thread
//!   when they give scalars;
//! - [`segred`](mod@segred): reductions over one dimension (two kernels,
//!   [`reduce`]) and segmented ones with a group per segment for long
//!   segments ([`long_segments`]), reading in order where the operator
//!   is not commutative (Note [Index parts]);
//! - [`segscan`](mod@segscan): the single-pass scan ([`scan`], Note
//!   [Single-pass scan]);
//! - [`seghist`](mod@seghist): which operators have an atomic
//!   ([`atomic_kind`]), and histograms in shared memory;
//! - [`filter`](mod@filter): the filter, as the scan of its flags;
//! - [`columns`](mod@columns): a segred that `segop-coalesce` has reduce
//!   by columns (Note [Column reductions] in
//!   `futmlir_passes::segop::coalesce`);
//! - [`tile`](mod@tile): a segred that `segop-tile` tiled (Note [Block
//!   tiling] in `futmlir_passes::segop::tile`).
//!
//! This file holds what several kinds share: the combining operator of a
//! reduction or scan ([`Op`]) and the points' closure types. Which
//! algorithm a segop gets (and the CPU's loops) is `segops.rs`'s choice.
//!
//! **Note [Segops on the GPU].**
//! At host level, each parallel loop nest becomes an `imp.kernel` (added
//! to the module) and an `imp.launch` of it:
//! - a segmap, a scatter, a histogram with an atomic operator (and many
//!   or unknown buckets), and the array ops that fill memory (copies, iota,
//!   replicate, ...): one
//!   thread per point of the space, blocks of [`BLOCK`](launch::BLOCK)
//!   threads, the flat thread index unravelled into the space's indices;
//! - a segmented reduction or scan: one thread per segment, which runs
//!   the segment sequentially;
//! - a reduction over one dimension (thesis 4.5): a fixed number of
//!   groups whose threads each reduce a chunk sequentially — strided,
//!   so reads are coalesced, when the operator is commutative;
//!   contiguous otherwise, read in rounds through shared memory so that
//!   each sector is read whole (`ordered_chunks` in
//!   [`segred`](mod@segred)) — then combine, in the
//!   order of the operands, by warp shuffles and then across the warps in
//!   shared memory ([`group_reduce`](group::group_reduce)); a second
//!   kernel of one group reduces the groups' results;
//! - a scan over one dimension: one kernel that reads the input once
//!   (decoupled look-back, Note [Single-pass scan]), after a small one
//!   that clears its flags;
//! - a histogram with an atomic operator and at most [`SHARED_BUCKETS`]
//!   buckets (a constant): a sub-histogram in shared memory per group,
//!   added to the result with global atomics;
//! - a histogram whose operator has no atomic: one thread in all.
//! - a filter (`segop.filter`) of one dimension: the scan of its 0/1
//!   flags, whose kernel writes each kept point's values at its
//!   place instead of storing the prefixes ([`filter`](filter::filter)).
//!
//! A kernel's parameters are the host values its body uses, found after
//! the body is built (`analysis::reads`). Code inside a kernel (and the
//! SOACs left in a segop's body) is sequential, per thread.

use futmlir_dialects::ir::{BlockId, Scalar, Value};

use super::{Rep, Tr, R};

mod columns;
mod filter;
mod group;
mod launch;
mod seghist;
mod segmap;
mod segred;
mod segscan;
mod tile;

pub(crate) use columns::column_reduce;
pub(crate) use filter::filter;
pub(crate) use launch::{global_id, launch, par_for, unravel};
pub(crate) use seghist::{atomic_kind, shared_hist, SHARED_BUCKETS};
pub(crate) use segmap::{segmap, WIDE_BODY_OPS};
pub(crate) use segred::{long_segments, reduce};
pub(crate) use segscan::scan;
pub(crate) use tile::{tiled_enough, tiled_kernel};

/// A point of a map: its results, computed without writing anything.
pub(crate) type MapPoint<'b> = dyn FnMut(&mut Tr, &[Value]) -> R<Vec<Rep>> + 'b;
/// Writes a point's results.
pub(crate) type MapWrite<'b> = dyn FnMut(&mut Tr, &[Value], &[Rep]) + 'b;

/// The combining operator of a reduction or scan.
pub(crate) struct Op<'a> {
    pub block: BlockId,
    pub nes: &'a [Value],
    pub elems: Vec<Scalar>,
    pub commutative: bool,
    /// Which operands are the point's index itself, which a reduction
    /// in order need not stage (Note [Index parts]).
    pub index_parts: Vec<bool>,
}

impl Op<'_> {
    /// The element types of the operands a reduction in order stages
    /// (all but the index parts).
    fn staged(&self) -> Vec<Scalar> {
        self.elems
            .iter()
            .zip(&self.index_parts)
            .filter(|&(_, &ix)| !ix)
            .map(|(&e, _)| e)
            .collect()
    }
}

/// `op` applied to the values `a` (its left operands) and `b`.
fn apply(tr: &mut Tr, op: &Op, a: &[Value], b: &[Value]) -> R<Vec<Value>> {
    let mut args: Vec<Rep> = a.iter().map(|&v| Rep::Scalar(v)).collect();
    args.extend(b.iter().map(|&v| Rep::Scalar(v)));
    tr.block(op.block, &args)?
        .into_iter()
        .map(|r| match r {
            Rep::Scalar(v) => Ok(v),
            Rep::Array(_) => Err(tr.unsupported("reductions and scans of arrays")),
        })
        .collect()
}

/// `x` converted to `to` by the `soac.convop` of kind `kind`.
fn convert(tr: &mut Tr, kind: &str, x: Value, to: Scalar) -> Value {
    let t = tr.ty(to);
    let kind = tr.ctx.string_attr(kind);
    tr.emit1("soac.convop", &[x], t, &[("kind", kind)])
}
