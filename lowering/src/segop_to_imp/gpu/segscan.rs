//! The segscan over one dimension on the GPU: one kernel reading its
//! input once, with a decoupled look-back across tiles (Note
//! [Single-pass scan]). The filter is this scan with another write
//! ([`scan_with`]).

use futmlir_dialects::ir::{AttrKind, Scalar, Type, Value};

use super::group::{
    block_scan, broadcast, fitting_items, padded, stage_round, staging, warp_reduce, when, STAGING_BYTES, WARP,
};
use super::launch::{ceil_div, global_id, launch, launch_with, par_for, BLOCK};
use super::{apply, convert, Op};
use crate::segop_to_imp::{elem_bytes, Arr, Tr, R};

/// [`Point`](super::segred::Point) for scans, run twice per index: told
/// whether this is the first time (when it writes the mapped results).
pub(crate) type ScanPoint<'b> = dyn FnMut(&mut Tr, Value, bool) -> R<Vec<Value>> + 'b;

/// Elements a thread scans per tile in a scan (Note [Single-pass scan]),
/// at most: [`fitting_items`] gives fewer to wide elements (the filter's
/// i64 counts get 16). The i32 scan ran in 425 µs with 16 and 355 with
/// 32 on the H100 (10^8 elements).
const SCAN_ITEMS: i64 = 32;

/// Loads a thread of a single-pass scan has in flight while it stages
/// its tile (Note [Batched loads]).
const SCAN_BATCH: i64 = 32;

/// The blocks per multiprocessor a single-pass scan asks for (the
/// register cap that gives): the more tiles in flight, the more of the
/// look-back's latency is hidden, but the fewer registers a thread has.
/// Measured on the H100 (10^8 elements, [`SCAN_ITEMS`] 32): the i32 scan
/// ran in 355 µs asking for 5, 366 for 4 and 398 for 3; the filter (16
/// i64 counts a thread, of which 6 blocks fit in shared memory) in 691
/// µs for 6 and 686 for 8, against 770 with 8 counts a thread.
const SCAN_MIN_BLOCKS: i64 = 5;
const FILTER_MIN_BLOCKS: i64 = 6;

/// An inclusive scan of `n` values into `outs` (Note [Segops on the GPU]).
/// `point` is run twice per index (the first time it also writes mapped
/// results; `first` says which).
pub(crate) fn scan(tr: &mut Tr, n: Value, op: &Op, point: &mut ScanPoint, outs: &[Arr]) -> R<()> {
    let mut store = |tr: &mut Tr, i: Value, ys: &[Value]| -> R<()> {
        for (o, &v) in outs.iter().zip(ys) {
            tr.store(o, &[i], v);
        }
        Ok(())
    };
    scan_with(tr, n, op, point, &mut store, false)
}

/// The shared memory a block may have without asking the driver for
/// more.
const SHARED_BYTES: i64 = 48 * 1024;
/// Shared memory the single-pass scan's kernel uses besides its staging
/// buffers and the block scan's array: broadcasts and the look-back's
/// values (a few words per operand).
const SHARED_SLACK: i64 = 2048;

// **Note [Wide scan operators].** The single-pass scan's kernel holds a
// tile's staging buffers and the block scan's array of BLOCK values of
// every operand in shared memory, within the 48 KiB a block has: its
// elements per thread are as many as fit beside the block scan's array.
// An operator too wide for even one (more than about 90 bytes of
// operands: 23 `f32`s, such as the Jacobians of a 4-wide operator that
// reverse-mode AD scans, Note [Reverse-mode AD]) gets one thread that
// scans in order: slow, but ptxas rejected the kernel before ("uses too
// much shared data": `ad/vjp_scan_ops.fut`, CI's CUDA build of the
// program suite).

/// A scan in one thread, in order (Note [Wide scan operators]).
fn sequential_scan(tr: &mut Tr, n: Value, op: &Op, point: &mut ScanPoint, write: &mut ScanWrite) -> R<()> {
    let one = tr.i64c(1);
    launch(tr, one, 1, &mut |tr| {
        let nes = op.nes.to_vec();
        tr.for_loop(n, &nes, &mut |tr, i, acc| {
            let ys = point(tr, i, true)?;
            let new = apply(tr, op, acc, &ys)?;
            write(tr, i, &new)?;
            Ok(new)
        })?;
        Ok(())
    })
}

/// What a scan does with the prefixes `ys` at index `i`.
type ScanWrite<'b> = dyn FnMut(&mut Tr, Value, &[Value]) -> R<()> + 'b;

/// [`scan`], giving each index's prefixes to `write` instead of storing
/// them.
///
/// **Note [Single-pass scan].** One kernel, one read of the input and
/// one write of the output (decoupled look-back, after Merrill and
/// Garland): block `b` takes tile `t` (a counter bumped atomically, so
/// tiles are taken in the order blocks start and a block only waits on
/// blocks that run) of [`BLOCK`] × `k` elements, reads it coalesced
/// into shared memory, and scans it there (each thread its `k`
/// consecutive elements, then the threads' totals by [`block_scan`]).
/// Thread 0 then publishes the tile's total with flag `A` (aggregate)
/// and walks back over the tiles before it, combining their totals
/// (earlier on the left), until one has flag `P`: its inclusive prefix
/// ends the walk. It publishes the tile's inclusive prefix with `P`, and
/// the block adds its exclusive prefix to its elements and writes them
/// coalesced. Values are written before their flag with a device fence
/// between, and read after it with a fence between; flags and values
/// are read volatile (past the L1 cache). A first, small kernel clears
/// the flags and the counter.
pub(super) fn scan_with(
    tr: &mut Tr,
    n: Value,
    op: &Op,
    point: &mut ScanPoint,
    write: &mut ScanWrite,
    counts: bool,
) -> R<()> {
    // Note [Wide scan operators].
    let bytes: i64 = op.elems.iter().map(|&e| elem_bytes(e)).sum();
    let budget = (SHARED_BYTES - BLOCK * bytes - SHARED_SLACK).min(STAGING_BYTES);
    let Some(k) = (budget > 0)
        .then(|| fitting_items(&op.elems, SCAN_ITEMS, budget))
        .flatten()
    else {
        return sequential_scan(tr, n, op, point, write);
    };
    let items = tr.i64c(k);
    let per_tile = tr.i64c(BLOCK * k);
    let tiles = ceil_div(tr, n, per_tile);
    let one = tr.i64c(1);
    let tiles = tr.bin("max", tiles, one);
    let lb = LookBack::new(tr, op, tiles, counts)?;
    let counter = tr.alloc_array(Scalar::I64, &[one])?;
    par_for(tr, &[tiles], &mut |tr, idx| {
        let empty = lb.empty(tr);
        tr.store(&lb.status, idx, empty);
        let zero = tr.i64c(0);
        let first = tr.cmp("eq", idx[0], zero);
        when(tr, first, &mut |tr| {
            tr.store(&counter, &[zero], zero);
            Ok(())
        })?;
        Ok(())
    })?;
    let local = tr.ctx.string_attr("local");
    let min_blocks = if counts { FILTER_MIN_BLOCKS } else { SCAN_MIN_BLOCKS };
    launch_with(tr, tiles, BLOCK, Some(min_blocks), &mut |tr| {
        let (_, tid, _) = global_id(tr);
        let zero = tr.i64c(0);
        let is0 = tr.cmp("eq", tid, zero);
        let tile = broadcast(tr, is0, is0, &[Scalar::I64], &mut |tr| {
            let one = tr.i64c(1);
            let off = tr.element_offset(&counter, &[zero]);
            let add = tr.ctx.string_attr("add");
            let i64t = tr.ty(Scalar::I64);
            Ok(vec![tr.emit1(
                "imp.atomic",
                &[counter.mem, off, one],
                i64t,
                &[("kind", add)],
            )])
        })?[0];
        let tile_start = tr.mul(tile, per_tile);
        let tile_end = tr.add(tile_start, per_tile);
        let tile_end = tr.bin("min", tile_end, n);
        let bs = tr.i64c(BLOCK);
        let stage = staging(tr, &op.elems, k);
        // Element `e` of the tile: its index and whether it is in the
        // input.
        let at = |tr: &mut Tr, e: Value| -> (Value, Value) {
            let i = tr.add(tile_start, e);
            (i, tr.cmp("lt", i, tile_end))
        };
        let span = tr.bin("sub", tile_end, tile_start);
        let full = tr.cmp("eq", span, per_tile);
        stage_round(
            tr,
            full,
            (k, SCAN_BATCH, tid),
            &stage,
            &mut |tr, e| at(tr, e),
            &mut |tr, i| point(tr, i, true),
            Some(op.nes),
        )?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        // This thread's elements, scanned in place.
        let mine = tr.mul(tid, items);
        let nes = op.nes.to_vec();
        let own = rewrite_run(tr, &stage, mine, items, &nes, true, &mut |tr, acc, x| {
            apply(tr, op, acc, x)
        })?;
        let (before, total) = block_scan(tr, op, tid, &own)?;
        let warp_size = tr.i64c(WARP);
        let warp0 = tr.cmp("lt", tid, warp_size);
        let exclusive = broadcast(tr, warp0, is0, &op.elems, &mut |tr| {
            look_back(tr, op, &lb, tile, tid, &total)
        })?;
        let prefix = apply(tr, op, &exclusive, &before)?;
        rewrite_run(tr, &stage, mine, items, &prefix, false, &mut |tr, prefix, x| {
            apply(tr, op, prefix, x)
        })?;
        tr.emit("imp.barrier", &[], &[], &[("fence", local)], vec![]);
        tr.for_loop(items, &[], &mut |tr, j, _| {
            let e = tr.mul(j, bs);
            let e = tr.add(e, tid);
            let (i, ok) = at(tr, e);
            let e = padded(tr, e);
            let y: Vec<Value> = stage
                .iter()
                .map(|&(m, t)| tr.emit1("imp.load", &[m, e], t, &[]))
                .collect();
            when(tr, ok, &mut |tr| write(tr, i, &y))?;
            Ok(vec![])
        })?;
        Ok(())
    })
}

/// A function of two lists of values (as [`apply`] is).
type Combiner<'b> = dyn FnMut(&mut Tr, &[Value], &[Value]) -> R<Vec<Value>> + 'b;

/// Replaces the `items` staged elements from `mine` on (a thread's run
/// in a staging buffer) by `f(carried, element)`, the carried value
/// starting at `inits` and, when `carry`, becoming each new element (an
/// in-place scan; otherwise it stays); returns the last carried value.
fn rewrite_run(
    tr: &mut Tr,
    stage: &[(Value, Type)],
    mine: Value,
    items: Value,
    inits: &[Value],
    carry: bool,
    f: &mut Combiner,
) -> R<Vec<Value>> {
    tr.for_loop(items, inits, &mut |tr, j, carried| {
        let e = tr.add(mine, j);
        let e = padded(tr, e);
        let x: Vec<Value> = stage
            .iter()
            .map(|&(m, t)| tr.emit1("imp.load", &[m, e], t, &[]))
            .collect();
        let y = f(tr, carried, &x)?;
        for (&(m, _), &v) in stage.iter().zip(&y) {
            tr.emit("imp.store", &[m, e, v], &[], &[], vec![]);
        }
        Ok(if carry { y } else { carried.to_vec() })
    })
}

/// A look-back flag: the tile's total is published.
const FLAG_TOTAL: i64 = 1;
/// A look-back flag: the tile's inclusive prefix is published.
const FLAG_PREFIX: i64 = 2;

/// The look-back state of a single-pass scan (Note [Single-pass scan]),
/// one element per tile in `status`: either an i32 flag, the values
/// being in `totals` or `prefixes` by the flag; or, `packed`, the flag
/// shifted left by `shift` bits and the one value's bits below it, in
/// one i64 (one store publishes both, so no fences are needed).
struct LookBack {
    status: Arr,
    packed: Option<i64>,
    totals: Vec<Arr>,
    prefixes: Vec<Arr>,
}

/// Elements whose bits fit below a flag in an i64 ([`LookBack`]).
fn packable(e: Scalar) -> bool {
    matches!(
        e,
        Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::U8 | Scalar::U16 | Scalar::U32 | Scalar::F32
    )
}

impl LookBack {
    /// The look-back arrays for `tiles` tiles of a scan with `op`;
    /// `counts`: the operator is (+) on i64 values below 2^62.
    fn new(tr: &mut Tr, op: &Op, tiles: Value, counts: bool) -> R<LookBack> {
        let packed = if counts {
            Some(62)
        } else if op.elems.len() == 1 && packable(op.elems[0]) {
            Some(32)
        } else {
            None
        };
        let status = tr.alloc_array(if packed.is_some() { Scalar::I64 } else { Scalar::I32 }, &[tiles])?;
        let mut arrays = || -> R<Vec<Arr>> {
            if packed.is_some() {
                return Ok(Vec::new());
            }
            op.elems.iter().map(|&e| tr.alloc_array(e, &[tiles])).collect()
        };
        let totals = arrays()?;
        let prefixes = arrays()?;
        Ok(LookBack {
            status,
            packed,
            totals,
            prefixes,
        })
    }

    /// The status meaning "no value yet" (0).
    fn empty(&self, tr: &mut Tr) -> Value {
        tr.int(0, self.status.elem)
    }

    /// A status with flag `flag` and no value.
    fn flag_only(&self, tr: &mut Tr, flag: i64) -> Value {
        tr.int(flag << self.packed.unwrap_or(0), self.status.elem)
    }

    /// The flag (an i32) of status `st`.
    fn flag(&self, tr: &mut Tr, st: Value) -> Value {
        match self.packed {
            Some(shift) => {
                let sh = tr.i64c(shift);
                let f = tr.bin("ushr", st, sh);
                convert(tr, "trunc", f, Scalar::I32)
            }
            None => st,
        }
    }

    /// Publishes `vals` for `tile` with flag `flag`.
    fn publish(&self, tr: &mut Tr, tile: Value, vals: &[Value], flag: i64) {
        let word = match self.packed {
            Some(shift) => {
                let bits = match tr.ctx.as_scalar(tr.ctx.value_type(vals[0])) {
                    Some(Scalar::F32) => convert(tr, "bitcast", vals[0], Scalar::I32),
                    _ => vals[0],
                };
                let bits = if tr.ctx.as_scalar(tr.ctx.value_type(bits)) == Some(Scalar::I64) {
                    bits
                } else {
                    let wide = convert(tr, "zext", bits, Scalar::I64);
                    let mask = tr.i64c(0xffff_ffff);
                    tr.bin("and", wide, mask)
                };
                let f = tr.i64c(flag << shift);
                tr.bin("or", f, bits)
            }
            None => {
                let arrs = if flag == FLAG_PREFIX {
                    &self.prefixes
                } else {
                    &self.totals
                };
                for (a, &v) in arrs.iter().zip(vals) {
                    tr.store(a, &[tile], v);
                }
                tr.emit("imp.fence", &[], &[], &[], vec![]);
                tr.int(flag, Scalar::I32)
            }
        };
        let off = tr.element_offset(&self.status, &[tile]);
        let vol = tr.ctx.intern_attr(AttrKind::Unit);
        tr.emit(
            "imp.store",
            &[self.status.mem, off, word],
            &[],
            &[("volatile", vol)],
            vec![],
        );
    }

    /// The values published for `tile`, whose status `st` has a flag;
    /// `prefix`: whether the flag is [`FLAG_PREFIX`].
    fn values(&self, tr: &mut Tr, op: &Op, tile: Value, st: Value, prefix: Value) -> R<Vec<Value>> {
        match self.packed {
            Some(shift) => {
                let mask = tr.i64c((1 << shift) - 1);
                let bits = tr.bin("and", st, mask);
                Ok(vec![match op.elems[0] {
                    Scalar::I64 => bits,
                    Scalar::F32 => {
                        let b = convert(tr, "trunc", bits, Scalar::I32);
                        convert(tr, "bitcast", b, Scalar::F32)
                    }
                    e => convert(tr, "trunc", bits, e),
                }])
            }
            None => {
                // The values were written before the flag (and a fence).
                tr.emit("imp.fence", &[], &[], &[], vec![]);
                tr.if_(
                    prefix,
                    &mut |tr| Ok(self.prefixes.iter().map(|a| load_volatile(tr, a, tile)).collect()),
                    &mut |tr| Ok(self.totals.iter().map(|a| load_volatile(tr, a, tile)).collect()),
                )
            }
        }
    }
}

/// A volatile read of `a` at `i`.
fn load_volatile(tr: &mut Tr, a: &Arr, i: Value) -> Value {
    let off = tr.element_offset(a, &[i]);
    let t = tr.ty(a.elem);
    let vol = tr.ctx.intern_attr(AttrKind::Unit);
    tr.emit1("imp.load", &[a.mem, off], t, &[("volatile", vol)])
}

/// The largest of the i32 `x` of the lanes of the warp, for every lane
/// (shuffles across: lane `l` and `l ^ s` swap in round `s` = 16, 8, ...).
fn warp_max(tr: &mut Tr, x: Value) -> Value {
    let mut x = x;
    let mut s = WARP / 2;
    while s >= 1 {
        let off = tr.i64c(s);
        let kind = tr.ctx.string_attr("xor");
        let t = tr.ctx.value_type(x);
        let other = tr.emit1("imp.shuffle", &[x, off], t, &[("kind", kind)]);
        x = tr.bin("max", x, other);
        s /= 2;
    }
    x
}

/// Warp 0's part of the single-pass scan for tile `tile` of total
/// `total` (all its lanes run it; `lane` is the thread's): publishes the
/// total, walks back to the exclusive prefix, publishes the inclusive
/// one; the exclusive prefix is right in lane 0. The walk reads the
/// statuses of [`WARP`] tiles at a time, lane `l` that of tile
/// `j - 31 + l` (so lane order is tile order), waits until none is
/// empty, and combines (by [`warp_reduce`], in order) the values from
/// the last tile with a prefix on, or all the totals when none has one.
fn look_back(tr: &mut Tr, op: &Op, lb: &LookBack, tile: Value, lane: Value, total: &[Value]) -> R<Vec<Value>> {
    let zero = tr.i64c(0);
    let first = tr.cmp("eq", tile, zero);
    let lane0 = tr.cmp("eq", lane, zero);
    let nes = op.nes.to_vec();
    let publish_at_lane0 = |tr: &mut Tr, vals: &[Value], flag: i64| -> R<()> {
        when(tr, lane0, &mut |tr| {
            lb.publish(tr, tile, vals, flag);
            Ok(())
        })?;
        Ok(())
    };
    tr.if_(
        first,
        &mut |tr| {
            publish_at_lane0(tr, total, FLAG_PREFIX)?;
            Ok(nes.clone())
        },
        &mut |tr| {
            publish_at_lane0(tr, total, FLAG_TOTAL)?;
            // Carried: the last tile of the window, whether a prefix was
            // found, and the combination of the values after the window.
            let one = tr.i64c(1);
            let start = tr.bin("sub", tile, one);
            let no = tr.int(0, Scalar::I32);
            let mut inits = vec![start, no];
            inits.extend_from_slice(&nes);
            let out = tr.while_loop(
                &inits,
                &mut |tr, c| {
                    let no = tr.int(0, Scalar::I32);
                    Ok(vec![tr.cmp("eq", c[1], no)])
                },
                &mut |tr, c| {
                    let (j, acc) = (c[0], c[2..].to_vec());
                    let back = tr.i64c(WARP - 1);
                    let idx = tr.bin("sub", j, back);
                    let idx = tr.add(idx, lane);
                    let zero = tr.i64c(0);
                    let inside = tr.cmp("ge", idx, zero);
                    // Before tile 0: a prefix (never the last one: tile 0
                    // has one by the time no status is empty).
                    let read = |tr: &mut Tr| -> R<Value> {
                        Ok(tr.if_(
                            inside,
                            &mut |tr| Ok(vec![load_volatile(tr, &lb.status, idx)]),
                            &mut |tr| Ok(vec![lb.flag_only(tr, FLAG_PREFIX)]),
                        )?[0])
                    };
                    let st0 = read(tr)?;
                    let st = tr.while_loop(
                        &[st0],
                        &mut |tr, c| {
                            let empty = lb.empty(tr);
                            let waiting = tr.cmp("eq", c[0], empty);
                            let w = convert(tr, "btoi", waiting, Scalar::I32);
                            let any = warp_max(tr, w);
                            let none = tr.int(0, Scalar::I32);
                            Ok(vec![tr.cmp("ne", any, none)])
                        },
                        &mut |tr, _| Ok(vec![read(tr)?]),
                    )?[0];
                    // The last lane whose tile has a prefix, or -1.
                    let flag = lb.flag(tr, st);
                    let p = tr.int(FLAG_PREFIX, Scalar::I32);
                    let has = tr.cmp("eq", flag, p);
                    let lane32 = convert(tr, "trunc", lane, Scalar::I32);
                    let minus = tr.int(-1, Scalar::I32);
                    let mark = tr.if_(has, &mut |_| Ok(vec![lane32]), &mut |_| Ok(vec![minus]))?[0];
                    let last = warp_max(tr, mark);
                    let counts = tr.cmp("ge", lane32, last);
                    let counts = tr.bin("and", counts, inside);
                    let nes = op.nes.to_vec();
                    let v = tr.if_(counts, &mut |tr| lb.values(tr, op, idx, st, has), &mut |_| {
                        Ok(nes.clone())
                    })?;
                    let window = warp_reduce(tr, op, lane, &v, WARP)?;
                    let acc = apply(tr, op, &window, &acc)?;
                    let width = tr.i64c(WARP);
                    let next = tr.bin("sub", j, width);
                    let none = tr.int(0, Scalar::I32);
                    let found = tr.cmp("ge", last, none);
                    let found = convert(tr, "btoi", found, Scalar::I32);
                    let mut out = vec![next, found];
                    out.extend(acc);
                    Ok(out)
                },
            )?;
            let exclusive = out[2..].to_vec();
            let inclusive = apply(tr, op, &exclusive, total)?;
            publish_at_lane0(tr, &inclusive, FLAG_PREFIX)?;
            Ok(exclusive)
        },
    )
}
