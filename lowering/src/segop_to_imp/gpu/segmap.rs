//! The segmap at host level on the GPU (Note [Segops on the GPU]):
//! several points per thread, all computed before any is written, when
//! the points give scalars.

use futmlir_dialects::ir::{Scalar, Value};

use super::group::when;
use super::launch::{ceil_div, global_id, launch, par_for, unravel, BLOCK};
use super::{MapPoint, MapWrite};
use crate::segop_to_imp::{segops, Arr, Tr, R};

/// A segmap over `sizes` into the arrays `outs`, at host level on the
/// GPU: `point` gives a point's results, `write` writes them. Points
/// giving scalars (not arrays a thread made, whose memory the next point
/// would reuse) are computed several per thread.
pub(crate) fn segmap(
    tr: &mut Tr,
    sizes: &[Value],
    outs: &[Option<Arr>],
    point: &mut MapPoint,
    write: &mut MapWrite,
) -> R<()> {
    let scalar_points = outs.iter().flatten().all(|a| a.dims.len() == sizes.len());
    if scalar_points {
        par_for_points(tr, sizes, point, write)
    } else {
        par_for(tr, sizes, &mut |tr, at| {
            let ys = point(tr, at)?;
            write(tr, at, &ys);
            Ok(())
        })
    }
}

/// Points a thread computes in a map kernel ([`par_for_points`]).
const MAP_POINTS: i64 = 4;

/// A map over `sizes` whose points give scalars: on the GPU each thread
/// computes [`MAP_POINTS`] points, `threads` apart (so each round of
/// reads is coalesced), all before writing any, so that their reads are
/// in flight together (a write could alias a later read, so the
/// compiler would not move the reads above it). A point past the end
/// computes the last point again (no bounds test before the reads) and
/// writes nothing. Elsewhere, loops.
fn par_for_points(tr: &mut Tr, sizes: &[Value], point: &mut MapPoint, write: &mut MapWrite) -> R<()> {
    if !tr.gpu_host() || sizes.is_empty() {
        return segops::try_nest(tr, sizes, &mut |tr, idx| {
            let ys = point(tr, idx)?;
            write(tr, idx, &ys);
            Ok(())
        });
    }
    let total = tr.product(sizes);
    let per_block = tr.i64c(BLOCK * MAP_POINTS);
    let grid = ceil_div(tr, total, per_block);
    launch(tr, grid, BLOCK, &mut |tr| {
        let (gid, _, _) = global_id(tr);
        let bs = tr.i64c(BLOCK);
        let threads = tr.mul(grid, bs);
        let one = tr.i64c(1);
        let last = tr.bin("sub", total, one);
        let mut points = Vec::new();
        for j in 0..MAP_POINTS {
            let jt = tr.i64c(j);
            let off = tr.mul(jt, threads);
            let flat = tr.add(gid, off);
            let inside = tr.cmp("lt", flat, total);
            let i64t = tr.ty(Scalar::I64);
            let at = tr.emit1("soac.select", &[inside, flat, last], i64t, &[]);
            let idx = unravel(tr, at, sizes);
            let ys = point(tr, &idx)?;
            points.push((inside, idx, ys));
        }
        for (inside, idx, ys) in points {
            when(tr, inside, &mut |tr| {
                write(tr, &idx, &ys);
                Ok(())
            })?;
        }
        Ok(())
    })
}
