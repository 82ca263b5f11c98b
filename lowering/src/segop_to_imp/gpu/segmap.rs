//! The segmap at host level on the GPU (Note [Segops on the GPU]):
//! several points per thread, all computed before any is written, when
//! the points give scalars.

use futmlir_dialects::ir::{Scalar, Value};

use super::group::when;
use super::launch::{ceil_div, global_id, launch, par_for, unravel, BLOCK};
use super::{MapPoint, MapWrite};
use crate::segop_to_imp::{segops, Arr, Rep, Tr, R};

/// A segmap over `sizes` into the arrays `outs`, at host level on the
/// GPU: `point` gives a point's results, `write` writes them. Points
/// giving scalars (not arrays a thread made, whose memory the next point
/// would reuse) are computed several per thread; `reads`: the body's
/// reads of whole arrays at the point itself (the soac result of each
/// `soac.index` and its array), which may become vector reads, or `None`
/// where the kernel should not have the vector accesses' version (Note
/// [Vector accesses]).
pub(crate) fn segmap(
    tr: &mut Tr,
    sizes: &[Value],
    outs: &[Option<Arr>],
    reads: Option<&[(Value, Arr)]>,
    point: &mut MapPoint,
    write: &mut MapWrite,
) -> R<()> {
    let scalar_points = outs.iter().flatten().all(|a| a.dims.len() == sizes.len());
    if scalar_points {
        par_for_points(tr, sizes, outs, reads, point, write)
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

/// **Note [Vector accesses].**
/// A GPU reaches its copy bandwidth only with 16-byte accesses: on an
/// H200, a kernel copying one `f32` per thread moves 128 MB in 52 µs, one
/// copying a `float4` per thread in 34.6 µs (a device-to-device
/// `cudaMemcpy`: 34.8 µs). So a map kernel whose points give scalars has
/// a second way to run, chosen in the kernel by a test that is the same
/// for all its threads: thread `t` computes the [`MAP_POINTS`] points
/// `4t .. 4t+3` of the flattened space, which lie in one row when the
/// innermost size is a multiple of 4. Each array the body reads at the
/// point itself (`soac.index(xs, i, j)`, the indices being the segmap's
/// own, of an array whose shape is the segmap's space, so the read is in
/// bounds) is read for the four points in one access (`imp.load {width
/// = 4}`), the points' bodies taking their lanes ([`Tr::preset`]); the
/// results are written four at a time (`imp.store {width = 4}`). Those
/// accesses need the four elements contiguous and aligned to the whole
/// access: the test requires every such array (and every result array)
/// to have an innermost stride of 1 and an offset and outer strides
/// that are multiples of 4 (blocks are aligned to 256 bytes: ABI.md).
/// Otherwise the threads take their points `threads` apart, as before.
/// Other reads stay scalar reads, which the neighbouring threads' make
/// coalesced in the cache. A body of more than [`WIDE_BODY_OPS`] ops
/// gets only the strided way (the wide way doubles the kernel's code).
pub(crate) const WIDE_BODY_OPS: usize = 400;

/// A map over `sizes` whose points give scalars: on the GPU each thread
/// computes [`MAP_POINTS`] points, all before writing any, so that their
/// reads are in flight together (a write could alias a later read, so the
/// compiler would not move the reads above it): four consecutive points
/// with vector accesses where it can (Note [Vector accesses]), else
/// points `threads` apart (so each round of reads is coalesced), a point
/// past the end computing the last point again (no bounds test before the
/// reads) and writing nothing. Elsewhere, loops.
fn par_for_points(
    tr: &mut Tr,
    sizes: &[Value],
    outs: &[Option<Arr>],
    reads: Option<&[(Value, Arr)]>,
    point: &mut MapPoint,
    write: &mut MapWrite,
) -> R<()> {
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
        let Some(reads) = reads else {
            return strided_points(tr, sizes, total, grid, gid, point, write);
        };
        let ok = wide_ok(tr, sizes, outs, reads);
        // Both versions translate the body, one at a time, each from the
        // values known before it: what one version's translation mapped
        // (a value it computes, or one it only looks up afterwards) is
        // not defined in the other's region.
        let point = std::cell::RefCell::new(&mut *point);
        let before = tr.map.clone();
        tr.if_(
            ok,
            &mut |tr| {
                wide_points(tr, sizes, total, gid, outs, reads, &mut **point.borrow_mut())?;
                Ok(vec![])
            },
            &mut |tr| {
                tr.map = before.clone();
                strided_points(tr, sizes, total, grid, gid, &mut **point.borrow_mut(), write)?;
                Ok(vec![])
            },
        )?;
        Ok(())
    })
}

/// The strided points of thread `gid` ([`par_for_points`]).
fn strided_points(
    tr: &mut Tr,
    sizes: &[Value],
    total: Value,
    grid: Value,
    gid: Value,
    point: &mut MapPoint,
    write: &mut MapWrite,
) -> R<()> {
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
}

/// Whether the four consecutive points of a thread lie in one row and
/// the wide accesses of `outs` and `reads` are contiguous and aligned
/// (Note [Vector accesses]).
fn wide_ok(tr: &mut Tr, sizes: &[Value], outs: &[Option<Arr>], reads: &[(Value, Arr)]) -> Value {
    let three = tr.i64c(MAP_POINTS - 1);
    let zero = tr.i64c(0);
    let one = tr.i64c(1);
    let aligned = |tr: &mut Tr, x: Value| {
        let low = tr.bin("and", x, three);
        tr.cmp("eq", low, zero)
    };
    let inner = *sizes.last().expect("a map has a dimension");
    let mut ok = aligned(tr, inner);
    for a in outs.iter().flatten().chain(reads.iter().map(|(_, a)| a)) {
        let (inner_dims, outer_dims) = a.dims.split_last().expect("an array of the space's rank");
        let unit = tr.cmp("eq", inner_dims.1, one);
        ok = tr.bin("and", ok, unit);
        let at = aligned(tr, a.offset);
        ok = tr.bin("and", ok, at);
        for d in outer_dims {
            let s = aligned(tr, d.1);
            ok = tr.bin("and", ok, s);
        }
    }
    ok
}

/// The four consecutive points of thread `gid`, with vector reads and
/// writes (Note [Vector accesses]).
fn wide_points(
    tr: &mut Tr,
    sizes: &[Value],
    total: Value,
    gid: Value,
    outs: &[Option<Arr>],
    reads: &[(Value, Arr)],
    point: &mut MapPoint,
) -> R<()> {
    let width = MAP_POINTS as usize;
    let four = tr.i64c(MAP_POINTS);
    let first = tr.mul(gid, four);
    // The innermost size is a multiple of 4, so is the total: the four
    // points are inside when the first is.
    let inside = tr.cmp("lt", first, total);
    when(tr, inside, &mut |tr| {
        let at = unravel(tr, first, sizes);
        let lanes: Vec<Vec<Value>> = reads.iter().map(|(_, a)| tr.load_wide(a, &at, width)).collect();
        let mut points = Vec::new();
        for k in 0..width {
            let mut idx = at.clone();
            let last = idx.len() - 1;
            let kc = tr.i64c(k as i64);
            idx[last] = tr.add(at[last], kc);
            for ((r, _), l) in reads.iter().zip(&lanes) {
                tr.preset.insert(*r, l[k]);
            }
            tr.preset_kernel = Some(tr.top);
            let ys = point(tr, &idx);
            tr.preset_kernel = None;
            for (r, _) in reads {
                tr.preset.remove(r);
            }
            points.push(ys?);
        }
        for (j, a) in outs.iter().enumerate() {
            let Some(a) = a else { continue };
            let xs = points
                .iter()
                .map(|ys| match ys[j] {
                    Rep::Scalar(x) => Ok(x),
                    Rep::Array(_) => Err(tr.fail("internal error: a wide map point that gives an array")),
                })
                .collect::<R<Vec<Value>>>()?;
            tr.store_wide(a, &at, &xs);
        }
        Ok(())
    })
}
