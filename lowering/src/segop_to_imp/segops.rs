//! Segops and the SOACs left inside their bodies, as loops (Note [Segops
//! on the CPU]); at host level on the GPU, which of `gpu/`'s algorithms
//! each segop gets (Note [Segops on the GPU]).

use futmlir_dialects::ir::{BlockId, Context, Dim, OpId, Type, TypeKind, Value};

use super::{array_dims, array_elem, Arr, Rep, Tr, R};
/// Note [Virtual arrays] (in `futmlir_passes::mem`, which `mem-expand` shares).
pub(crate) use futmlir_passes::mem::{only_read, virtual_array};
use futmlir_passes::segop::tile::{self as tile, tile_sizes, tiling, Tiling};

/// What one point of a loop nest computes: the values of the point.
type Body<'b> = dyn FnMut(&mut Tr, &[Value]) -> R<Vec<Rep>> + 'b;

/// Writes a point's mapped values (those after the `k` combined ones).
type WriteMapped<'b> = dyn FnMut(&mut Tr, &[Value], &[Rep]) + 'b;

/// A reduction or scan over the innermost dimension of a space.
struct Combine {
    /// The operator's block (`2k` arguments).
    op: BlockId,
    nes: Vec<Value>,
    scan: bool,
    commutative: bool,
    /// Which of the combined values are the point's (innermost) index
    /// itself (Note [Index parts]).
    index_parts: Vec<bool>,
}

impl Combine {
    /// The operator as the GPU algorithms take it.
    fn gpu_op(&self, tr: &Tr) -> super::gpu::Op<'_> {
        super::gpu::Op {
            block: self.op,
            nes: &self.nes,
            elems: self.nes.iter().map(|&v| tr.scalar_type_of(v)).collect(),
            commutative: self.commutative,
            index_parts: self.index_parts.clone(),
        }
    }
}

/// Which of the first `k` values segop body `body` yields are its last
/// argument, the innermost index (Note [Index parts]).
fn index_parts(tr: &Tr, body: BlockId, k: usize) -> Vec<bool> {
    let index = tr.ctx.block_args(body).last().copied();
    let yielded = tr
        .ctx
        .last_op(body)
        .map(|y| tr.ctx.operands(y).to_vec())
        .unwrap_or_default();
    (0..k)
        .map(|j| index.is_some() && yielded.get(j).copied() == index)
        .collect()
}

pub(crate) fn segop(tr: &mut Tr, o: OpId, name: &str, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
    let body = tr.ctx.blocks(tr.ctx.regions(o)[0])[0];
    let d = tr.ctx.block_args(body).len();
    let sizes = scalars(tr, &operands[..d])?;
    if !tr.gpu_host() {
        return segop_at(tr, o, name, operands, results, body, sizes);
    }
    hoist_invariant_arrays(tr, o, body)?;
    tr.segop_spaces.push(super::bounds::SegopSpace {
        body,
        sizes: sizes.clone(),
    });
    let r = segop_at(tr, o, name, operands, results, body, sizes);
    tr.segop_spaces.pop();
    r
}

/// [`segop`] with body `body` over the space `sizes`.
fn segop_at(
    tr: &mut Tr,
    o: OpId,
    name: &str,
    operands: &[Value],
    results: &[Value],
    body: BlockId,
    sizes: Vec<Value>,
) -> R<Vec<Rep>> {
    let regions = tr.ctx.regions(o).to_vec();
    let d = sizes.len();
    let yields = tr
        .ctx
        .last_op(body)
        .map(|t| tr.ctx.operands(t).to_vec())
        .unwrap_or_default();
    let result_types: Vec<Type> = results
        .iter()
        .enumerate()
        .map(|(k, &r)| {
            let t = tr.ctx.value_type(r);
            match yields.get(k) {
                Some(&y) => with_row_sizes(tr, t, tr.ctx.value_type(y)),
                None => t,
            }
        })
        .collect();
    let mut point = |tr: &mut Tr, idx: &[Value]| -> R<Vec<Rep>> {
        let args: Vec<Rep> = idx.iter().map(|&i| Rep::Scalar(i)).collect();
        tr.block(body, &args)
    };
    match name {
        "segop.segmap" if tr.ctx.attr(o, "writes").is_some() => {
            let dests = operands[d..].iter().map(|&v| tr.array(v)).collect::<R<Vec<_>>>()?;
            let k = dests.len();
            super::gpu::par_for(tr, &sizes, &mut |tr, idx| {
                let ys = point(tr, idx)?;
                for j in 0..k {
                    let Rep::Scalar(i) = ys[j] else {
                        return Err(tr.fail("internal error: a scatter index that is not a scalar"));
                    };
                    let ok = in_range(tr, i, dests[j].dims[0].0);
                    let (dest, y) = (dests[j].clone(), ys[k + j].clone());
                    tr.if_(
                        ok,
                        &mut |tr| {
                            tr.write(&dest, &[i], &y);
                            Ok(vec![])
                        },
                        &mut |_| Ok(vec![]),
                    )?;
                }
                Ok(())
            })?;
            Ok(dests.into_iter().map(Rep::Array).collect())
        }
        "segop.segmap" => {
            let reads = point_reads(tr, o, body, d)?;
            combine(
                tr,
                &sizes,
                None,
                &result_types,
                &mut point,
                reads.as_deref(),
                strategy(tr, o, &tiled(tr, o)),
            )
        }
        "segop.segred" | "segop.segscan" => {
            let c = Combine {
                op: tr.ctx.blocks(regions[1])[0],
                nes: scalars(tr, &operands[d..])?,
                scan: name == "segop.segscan",
                commutative: tr.ctx.attr(o, "commutative").is_some()
                    || commutative_op(tr, tr.ctx.blocks(regions[1])[0]),
                index_parts: index_parts(tr, body, operands.len() - d),
            };
            combine(
                tr,
                &sizes,
                Some(c),
                &result_types,
                &mut point,
                None,
                strategy(tr, o, &tiled(tr, o)),
            )
        }
        "segop.filter" => {
            let outs = result_types[1..]
                .iter()
                .enumerate()
                .map(|(j, &t)| result_array(tr, 1 + j, t, 1, &sizes))
                .collect::<R<Vec<Arr>>>()?;
            let count = if tr.gpu_host() {
                super::gpu::filter(tr, sizes[0], &mut point, &outs)?
            } else {
                // In order, one point after another.
                let zero = tr.i64c(0);
                tr.for_loop(sizes[0], &[zero], &mut |tr, i, count| {
                    let ys = point(tr, &[i])?;
                    let Rep::Scalar(keep) = ys[0] else {
                        return Err(tr.fail("internal error: a filter's test that is not a scalar"));
                    };
                    let c = count[0];
                    tr.if_(
                        keep,
                        &mut |tr| {
                            for (o, y) in outs.iter().zip(&ys[1..]) {
                                tr.write(o, &[c], y);
                            }
                            let one = tr.i64c(1);
                            Ok(vec![tr.add(c, one)])
                        },
                        &mut |_| Ok(vec![c]),
                    )
                })?[0]
            };
            let mut reps = vec![Rep::Scalar(count)];
            reps.extend(outs.into_iter().map(Rep::Array));
            Ok(reps)
        }
        "segop.seghist" => {
            let k = results.len();
            let w = tr.scalar(operands[d])?;
            let dests = operands[d + 1..d + 1 + k]
                .iter()
                .map(|&v| tr.array(v))
                .collect::<R<Vec<_>>>()?;
            if dests.iter().any(|a| a.dims.len() != 1) {
                return Err(tr.unsupported("histograms of arrays"));
            }
            let op = tr.ctx.blocks(regions[1])[0];
            let atomic = if tr.gpu_host() && k == 1 {
                super::gpu::atomic_kind(tr, op, dests[0].elem)
            } else {
                None
            };
            let mut update = |tr: &mut Tr, idx: &[Value]| -> R<()> {
                let ys = point(tr, idx)?;
                let Rep::Scalar(b) = ys[0] else {
                    return Err(tr.fail("internal error: a bucket that is not a scalar"));
                };
                let ok = in_range(tr, b, w);
                let (dests, ys) = (dests.clone(), ys.clone());
                tr.if_(
                    ok,
                    &mut |tr| {
                        if let (Some(kind), Rep::Scalar(v)) = (atomic, &ys[1]) {
                            let off = tr.element_offset(&dests[0], &[b]);
                            let t = tr.ctx.value_type(*v);
                            let kind = tr.ctx.string_attr(kind);
                            tr.emit1("imp.atomic", &[dests[0].mem, off, *v], t, &[("kind", kind)]);
                            return Ok(vec![]);
                        }
                        let mut args: Vec<Rep> = dests.iter().map(|a| Rep::Scalar(tr.load(a, &[b]))).collect();
                        args.extend(ys[1..].iter().cloned());
                        let new = tr.block(op, &args)?;
                        for (a, v) in dests.iter().zip(new) {
                            tr.write(a, &[b], &v);
                        }
                        Ok(vec![])
                    },
                    &mut |_| Ok(vec![]),
                )?;
                Ok(())
            };
            let buckets = constant_int(tr, operands[d]).filter(|&b| (1..=super::gpu::SHARED_BUCKETS).contains(&b));
            if let (Some(kind), Some(buckets)) = (atomic, buckets) {
                // Few buckets: sub-histograms in shared memory.
                let ne = tr.scalar(operands[d + 1 + k])?;
                super::gpu::shared_hist(tr, &sizes, buckets, &dests[0], kind, ne, &mut |tr, idx| {
                    let ys = point(tr, idx)?;
                    match (&ys[0], &ys[1]) {
                        (Rep::Scalar(b), Rep::Scalar(v)) => Ok((*b, *v)),
                        _ => Err(tr.fail("internal error: a histogram point that is not two scalars")),
                    }
                })?;
            } else if atomic.is_some() {
                super::gpu::par_for(tr, &sizes, &mut update)?;
            } else if tr.gpu_host() {
                // No atomic for this operator: one thread does it all.
                let one = tr.i64c(1);
                super::gpu::launch(tr, one, 1, &mut |tr| try_nest(tr, &sizes, &mut update))?;
            } else {
                try_nest(tr, &sizes, &mut update)?;
            }
            Ok(dests.into_iter().map(Rep::Array).collect())
        }
        other => Err(tr.unsupported(&format!("`{other}`"))),
    }
}

/// Arrays a kernel's body makes from values of the host alone (`iota`,
/// `replicate`, array constants) and only reads are made once, on the
/// host, before the kernel: one array serves all threads. [`Tr::block`]
/// then skips them. (An array a thread consumes, e.g. updates in place,
/// is its own: memory expansion.)
fn hoist_invariant_arrays(tr: &mut Tr, o: OpId, body: BlockId) -> R<()> {
    let ops: Vec<OpId> = tr.ctx.block_ops(body).collect();
    for op in ops {
        let name = tr.ctx.op_name(op);
        let array_constant = name == "soac.constant"
            && tr
                .ctx
                .results(op)
                .any(|r| array_elem(tr.ctx, tr.ctx.value_type(r)).is_some());
        if !(matches!(name, "soac.iota" | "soac.replicate") || array_constant)
            || !only_read(tr.ctx, tr.ctx.result(op, 0), true)
        {
            continue;
        }
        let outside = tr
            .ctx
            .operands(op)
            .iter()
            .all(|&v| !futmlir_passes::soac::analysis::defined_inside(tr.ctx, v, o) && tr.map.contains_key(&v));
        if outside {
            tr.op(op)?;
            tr.hoisted.insert(op);
        }
    }
    Ok(())
}

/// The SOACs that stay inside kernel bodies, run sequentially.
pub(crate) fn soac(tr: &mut Tr, o: OpId, name: &str, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
    let regions = tr.ctx.regions(o).to_vec();
    let n = tr.scalar(operands[0])?;
    let result_types: Vec<Type> = results.iter().map(|&r| tr.ctx.value_type(r)).collect();
    let (k, lambda, op) = match name {
        "soac.map" => (0, Some(tr.ctx.blocks(regions[0])[0]), None),
        "soac.reduce" | "soac.scan" => {
            let k = results.len();
            (k, None, Some(tr.ctx.blocks(regions[0])[0]))
        }
        _ => {
            let lambda = tr.ctx.blocks(regions[1])[0];
            let op = tr.ctx.blocks(regions[0])[0];
            let k = tr.ctx.block_args(op).len() / 2;
            (k, Some(lambda), Some(op))
        }
    };
    let inputs = operands[1 + k..]
        .iter()
        .map(|&v| match tr.virtual_arrays.get(&v) {
            Some(&d) => Ok(Input::Virtual(d)),
            None => tr.array(v).map(Input::Array),
        })
        .collect::<R<Vec<_>>>()?;
    let c = match op {
        Some(op) => Some(Combine {
            op,
            nes: scalars(tr, &operands[1..1 + k])?,
            scan: matches!(name, "soac.scan" | "soac.scanomap"),
            commutative: tr.ctx.attr(o, "commutative").is_some() || commutative_op(tr, op),
            index_parts: vec![false; k],
        }),
        None => None,
    };
    let mut point = |tr: &mut Tr, idx: &[Value]| -> R<Vec<Rep>> {
        let rows = inputs
            .iter()
            .map(|a| match a {
                Input::Array(a) => Ok(row(tr, a, idx[0])),
                Input::Virtual(d) => virtual_row(tr, *d, idx[0]),
            })
            .collect::<R<Vec<Rep>>>()?;
        match lambda {
            Some(b) => tr.block(b, &rows),
            None => Ok(rows),
        }
    };
    combine(tr, &[n], c, &result_types, &mut point, None, Strategy::Plain)
}

/// **Note [Filters in kernels].**
/// A `soac.filter` left in a segop's body (`map (\xs -> filter p xs)
/// xss`) runs sequentially in the thread, as Futhark does: a buffer of
/// the input's length `n` (the most rows the filter can keep) per input,
/// a loop over the rows carrying the count of the kept ones, each kept
/// row written at the count; the results are views of the buffers' first
/// `count` rows. On the CPU the buffers are allocations of the loop's
/// iteration, freed at its end unless it yields them. In a GPU kernel
/// they are expanded ([`Tr::expand`]), so `n` needs a host bound: `n`
/// itself when the host knows it, else the bound of Note [Size bounds].
/// The count is noted as bounded by that same bound, so that arrays
/// sized by it (a filter of the filter's result, a `map` over it) are
/// expanded too. A filter whose input's length has no host bound is
/// refused with the diagnostic of memory expansion.
pub(crate) fn filter(tr: &mut Tr, o: OpId, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
    let n = tr.scalar(operands[0])?;
    let pred = tr.ctx.blocks(tr.ctx.regions(o)[0])[0];
    let inputs = operands[1..]
        .iter()
        .map(|&v| match tr.virtual_arrays.get(&v) {
            Some(&d) => Ok(Input::Virtual(d)),
            None => tr.array(v).map(Input::Array),
        })
        .collect::<R<Vec<_>>>()?;
    let mut bufs = Vec::new();
    for (j, (input, &r)) in inputs.iter().zip(results).enumerate() {
        let (elem, _) = array_elem(tr.ctx, tr.ctx.value_type(r))
            .ok_or_else(|| tr.fail("internal error: a filter result that is not an array"))?;
        let mut sizes = vec![n];
        match input {
            Input::Array(a) => sizes.extend(a.sizes().into_iter().skip(1)),
            // A replicate's row may be an array; an iota's is a scalar.
            Input::Virtual(d) if tr.ctx.op_name(*d) == "soac.replicate" => {
                if let Rep::Array(x) = tr.rep(tr.ctx.operands(*d)[1])? {
                    sizes.extend(x.sizes());
                }
            }
            Input::Virtual(_) => {}
        }
        bufs.push(tr.alloc_result(j, elem, &sizes)?);
    }
    let zero = tr.i64c(0);
    let count = tr.for_loop(n, &[zero], &mut |tr, i, count| {
        let rows = inputs
            .iter()
            .map(|a| match a {
                Input::Array(a) => Ok(row(tr, a, i)),
                Input::Virtual(d) => virtual_row(tr, *d, i),
            })
            .collect::<R<Vec<Rep>>>()?;
        let keep = match tr.block(pred, &rows)?.first() {
            Some(Rep::Scalar(b)) => *b,
            _ => return Err(tr.fail("internal error: a filter's predicate that is not a scalar")),
        };
        let c = count[0];
        tr.if_(
            keep,
            &mut |tr| {
                for (b, x) in bufs.iter().zip(&rows) {
                    tr.write(b, &[c], x);
                }
                let one = tr.i64c(1);
                Ok(vec![tr.add(c, one)])
            },
            &mut |_| Ok(vec![c]),
        )
    })?[0];
    if tr.in_kernel {
        // See Note [Filters in kernels].
        if let Some(bound) = tr.host_bound(n)? {
            tr.note_bound(count, bound);
        }
    }
    Ok(bufs
        .into_iter()
        .map(|mut b| {
            b.dims[0].0 = count;
            Rep::Array(Arr { fresh: false, ..b })
        })
        .collect())
}

/// An input of a SOAC in a kernel: an array in memory or a virtual one.
enum Input {
    Array(Arr),
    Virtual(OpId),
}

/// Row `i` of the virtual array that `d` (an iota or a replicate) defines.
fn virtual_row(tr: &mut Tr, d: OpId, i: Value) -> R<Rep> {
    let ops = tr.ctx.operands(d).to_vec();
    if tr.ctx.op_name(d) == "soac.replicate" {
        return tr.rep(ops[1]);
    }
    if ops.len() == 1 {
        return Ok(Rep::Scalar(i));
    }
    let (start, step) = (tr.scalar(ops[1])?, tr.scalar(ops[2])?);
    Ok(Rep::Scalar(iota_element(tr, i, start, step)))
}

/// Element `i` (an i64) of an iota from `start` by `step`, in their type.
pub(crate) fn iota_element(tr: &mut Tr, i: Value, start: Value, step: Value) -> Value {
    let t = tr.ctx.value_type(start);
    let iv = if t == tr.ctx.value_type(i) {
        i
    } else {
        let k = tr.ctx.string_attr("trunc");
        tr.emit1("soac.convop", &[i], t, &[("kind", k)])
    };
    let x = tr.mul(iv, step);
    tr.add(start, x)
}

/// The reads of segmap `o`'s body (its block `body`, over `d`
/// dimensions) at the point itself, for vector reads on the GPU (Note
/// [Vector accesses] in `gpu/segmap.rs`): each top-level
/// `soac.index(xs, i...)` whose indices are the body's own, in order, of
/// an array from outside whose shape is the segmap's space (so the read
/// is in bounds), with its array. `None` when the body is too large to
/// have two versions, or off the GPU.
fn point_reads(tr: &mut Tr, o: OpId, body: BlockId, d: usize) -> R<Option<Vec<(Value, Arr)>>> {
    if !tr.gpu_host() || !tr.wide {
        return Ok(None);
    }
    let mut count = 0;
    tr.ctx.walk(o, &mut |_| count += 1);
    if count > super::gpu::WIDE_BODY_OPS {
        return Ok(None);
    }
    let space = tr.ctx.operands(o)[..d].to_vec();
    let args = tr.ctx.block_args(body).to_vec();
    let mut found = Vec::new();
    for op in tr.ctx.block_ops(body).collect::<Vec<_>>() {
        if tr.ctx.op_name(op) != "soac.index" {
            continue;
        }
        let operands = tr.ctx.operands(op).to_vec();
        let (xs, idx) = (operands[0], &operands[1..]);
        let r = tr.ctx.result(op, 0);
        if idx != &args[..] || array_elem(tr.ctx, tr.ctx.value_type(r)).is_some() {
            continue;
        }
        let inside = tr.ctx.value_block(xs).is_some_and(|b| {
            let mut cur = tr.ctx.block_parent(b).and_then(|r| tr.ctx.region_parent(r));
            while let Some(p) = cur {
                if p == o {
                    return true;
                }
                cur = tr.ctx.parent_op(p);
            }
            false
        });
        let shape = array_dims(tr.ctx, tr.ctx.value_type(xs));
        let same_space = shape.len() == d
            && shape.iter().zip(&space).all(|(dim, &s)| match *dim {
                Dim::Value(v) => v == s,
                Dim::Const(c) => constant_int(tr, s) == Some(c as i64),
                Dim::Unknown => false,
            });
        if inside || !same_space {
            continue;
        }
        if let Rep::Array(a) = tr.rep(xs)? {
            found.push((r, a));
        }
    }
    Ok(Some(found))
}

/// Row `i` of `a`: an element or a sub-array.
fn row(tr: &mut Tr, a: &Arr, i: Value) -> Rep {
    if a.dims.len() == 1 {
        Rep::Scalar(tr.load(a, &[i]))
    } else {
        Rep::Array(tr.subarray(a, &[i]))
    }
}

/// Loops over the space `sizes`; each point's first `k` values are
/// combined over the innermost dimension (when `c` is given), the rest
/// are written to fresh arrays over the whole space. Results as the
/// segops have them: the `k` combined (scalars for a one-dimensional
/// reduction, arrays over the outer dimensions for a segmented one, over
/// the whole space for a scan), then the mapped arrays.
/// `reads`: for a map on the GPU, the body's reads at the point itself
/// that may be vector reads (Note [Vector accesses] in `gpu/segmap.rs`).
fn combine(
    tr: &mut Tr,
    sizes: &[Value],
    c: Option<Combine>,
    result_types: &[Type],
    point: &mut Body,
    reads: Option<&[(Value, Arr)]>,
    strategy: Strategy,
) -> R<Vec<Rep>> {
    let k = c.as_ref().map_or(0, |c| c.nes.len());
    let d = sizes.len();
    let mut outs = Vec::new();
    for (j, &t) in result_types.iter().enumerate() {
        if j < k {
            if !c.as_ref().is_some_and(|c| c.scan) && d == 1 {
                if array_elem(tr.ctx, t).is_some() {
                    return Err(tr.unsupported("reductions of arrays"));
                }
                outs.push(None);
                continue;
            }
            let space = if c.as_ref().is_some_and(|c| c.scan) {
                sizes
            } else {
                &sizes[..d - 1]
            };
            let a = result_array(tr, j, t, space.len(), space)?;
            if a.dims.len() != space.len() {
                return Err(tr.unsupported("reductions and scans of arrays"));
            }
            outs.push(Some(a));
        } else {
            outs.push(Some(result_array(tr, j, t, d, sizes)?));
        }
    }
    let mut write_mapped = |tr: &mut Tr, at: &[Value], ys: &[Rep]| {
        for (j, y) in ys.iter().enumerate().skip(k) {
            let a = outs[j].clone().expect("a mapped result's array");
            tr.write(&a, at, y);
        }
    };
    let reduced = match strategy {
        Strategy::Columns => {
            columns(tr, sizes, c.as_ref(), &outs, point)?;
            Vec::new()
        }
        Strategy::Tiled(t, by_columns) => {
            // Tiled where there is enough to tile (Note [Block
            // tiling]); the untiled versions otherwise.
            let big = super::gpu::tiled_enough(tr, sizes, c.is_some(), t.1);
            let (r1, _) = tr.region(&[], &mut |tr, _| {
                let outs: Vec<Arr> = outs.iter().map(|o| o.clone().expect("a tiled segop's array")).collect();
                tiled_version(tr, sizes, c.as_ref(), t, &outs, point)?;
                Ok(vec![])
            })?;
            let (r2, _) = tr.region(&[], &mut |tr, _| {
                if by_columns {
                    columns(tr, sizes, c.as_ref(), &outs, point)?;
                } else {
                    untiled(tr, sizes, c.as_ref(), k, &outs, reads, point, &mut write_mapped)?;
                }
                Ok(vec![])
            })?;
            tr.emit("imp.if", &[big], &[], &[], vec![r1, r2]);
            Vec::new()
        }
        Strategy::Plain => untiled(tr, sizes, c.as_ref(), k, &outs, reads, point, &mut write_mapped)?,
    };
    let mut red = reduced.into_iter();
    Ok(outs
        .into_iter()
        .map(|o| match o {
            Some(a) => Rep::Array(a),
            None => Rep::Scalar(red.next().expect("a reduced value")),
        })
        .collect())
}

/// [`combine`] without tiling: on the GPU a map, or a reduction or
/// scan over one dimension ([`gpu_combine`]); else a loop per point of
/// the outer dimensions over the innermost one (a thread each on the
/// GPU), or on the GPU, for long segments of a reduction, a group per
/// segment chosen at run time (Note [Segops on the GPU]). Returns the
/// reduced values of a one-dimensional reduction.
#[allow(clippy::too_many_arguments)]
fn untiled(
    tr: &mut Tr,
    sizes: &[Value],
    c: Option<&Combine>,
    k: usize,
    outs: &[Option<Arr>],
    reads: Option<&[(Value, Arr)]>,
    point: &mut Body,
    write_mapped: &mut WriteMapped,
) -> R<Vec<Value>> {
    let d = sizes.len();
    if tr.gpu_host() && (c.is_none() || d == 1) {
        return gpu_combine(tr, sizes, c, k, outs, reads, point, write_mapped);
    }
    let (outer, inner) = sizes.split_at(d - 1);
    // A segmented reduction on the GPU: a group per segment when the
    // segments are long (Note [Segops on the GPU]), decided at run time.
    let groups = match c {
        Some(c) if tr.gpu_host() && d >= 2 && !c.scan => {
            let op = c.gpu_op(tr);
            let version = super::gpu::long_segments(tr, outer, inner[0], &op, outs, point, write_mapped)?;
            Some(version)
        }
        _ => None,
    };
    let mut reduced: Vec<Value> = Vec::new();
    let mut per_thread = |tr: &mut Tr| {
        super::gpu::par_for(tr, outer, &mut |tr, idx| {
            let nes = c.map(|c| c.nes.clone()).unwrap_or_default();
            let final_accs = tr.for_loop(inner[0], &nes, &mut |tr, i, accs| {
                let mut at = idx.to_vec();
                at.push(i);
                let ys = point(tr, &at)?;
                write_mapped(tr, &at, &ys);
                let Some(c) = c else { return Ok(vec![]) };
                let mut args: Vec<Rep> = accs.iter().map(|&a| Rep::Scalar(a)).collect();
                args.extend(ys[..k].iter().cloned());
                let new = tr.block(c.op, &args)?;
                let new = new
                    .into_iter()
                    .map(|r| match r {
                        Rep::Scalar(v) => Ok(v),
                        Rep::Array(_) => Err(tr.unsupported("reductions and scans of arrays")),
                    })
                    .collect::<R<Vec<_>>>()?;
                if c.scan {
                    for (j, &v) in new.iter().enumerate() {
                        let a = outs[j].clone().expect("a scan's array");
                        tr.store(&a, &at, v);
                    }
                }
                Ok(new)
            })?;
            if c.is_some_and(|c| !c.scan) {
                if d == 1 {
                    reduced = final_accs;
                } else {
                    for (j, &v) in final_accs.iter().enumerate() {
                        let a = outs[j].clone().expect("a segmented reduction's array");
                        tr.store(&a, idx, v);
                    }
                }
            }
            Ok(())
        })
    };
    match groups {
        Some((long, r1)) => {
            let (r2, _) = tr.region(&[], &mut |tr, _| {
                per_thread(tr)?;
                Ok(vec![])
            })?;
            tr.emit("imp.if", &[long], &[], &[], vec![r1, r2]);
        }
        None => per_thread(tr)?,
    }
    Ok(reduced)
}

/// How a segop runs on the GPU, when a segop pass chose (Notes [Block
/// tiling] and [Column reductions]).
enum Strategy<'a> {
    Plain,
    /// Tiled, with a column reduction as the other version when the
    /// flag says so.
    Tiled(&'a (Tiling, [i64; 3], usize), bool),
    Columns,
}

/// The column reduction of a segred over `sizes` with `c` into `outs`
/// (Note [Column reductions]).
fn columns(tr: &mut Tr, sizes: &[Value], c: Option<&Combine>, outs: &[Option<Arr>], point: &mut Body) -> R<()> {
    let c = c.ok_or_else(|| tr.fail("internal error: a column reduction without its operator"))?;
    let op = c.gpu_op(tr);
    let outs: Vec<Arr> = outs
        .iter()
        .map(|o| o.clone().expect("a segmented reduction's array"))
        .collect();
    super::gpu::column_reduce(tr, sizes, &op, &outs, point)
}

/// The strategy of segop `o`, given its tiling.
fn strategy<'a>(tr: &Tr, o: OpId, tiled: &'a Option<(Tiling, [i64; 3], usize)>) -> Strategy<'a> {
    let columns =
        tr.ctx.attr(o, "coalesce").is_some() && tr.gpu_host() && futmlir_passes::segop::coalesce::by_columns(tr.ctx, o);
    match tiled {
        Some(t) => Strategy::Tiled(t, columns),
        None if columns => Strategy::Columns,
        None => Strategy::Plain,
    }
}

/// How segop `o` is tiled on the GPU, when `segop-tile` tiled it (Note
/// [Block tiling]): the tiling, its sizes, and the ops of the code each
/// point of the reduction runs.
fn tiled(tr: &Tr, o: OpId) -> Option<(Tiling, [i64; 3], usize)> {
    let sizes = tile_sizes(tr.ctx, o)?;
    if !tr.gpu_host() {
        return None;
    }
    let t = tiling(tr.ctx, o, usize::MAX)?;
    let mut ops = 0;
    tr.ctx.walk(t.reduction.as_ref().map_or(o, |r| r.0), &mut |_| ops += 1);
    Some((t, sizes, ops))
}

/// The tiled kernel of a segop over `sizes` into `outs` (Note [Block
/// tiling]): a segred (`c`), whose body's tiled reads come from the
/// shared tiles; or a segmap, whose body's reduction runs tiled, the
/// rest of the body then once per point with the reduction's values.
fn tiled_version(
    tr: &mut Tr,
    sizes: &[Value],
    c: Option<&Combine>,
    (t, tile, body_ops): &(Tiling, [i64; 3], usize),
    outs: &[Arr],
    point: &mut Body,
) -> R<()> {
    let d = sizes.len();
    let read_results: Vec<Value> = t.reads.iter().map(|r| r.result).collect();

    let preset = |tr: &mut Tr, values: &[Value], xs: &[Value]| {
        for (&r, &x) in values.iter().zip(xs) {
            tr.preset.insert(r, x);
        }
        tr.preset_kernel = Some(tr.top);
    };
    let unset = |tr: &mut Tr, values: &[Value]| {
        for r in values {
            tr.preset.remove(r);
        }
        tr.preset_kernel = None;
    };
    match (c, &t.reduction) {
        (Some(c), _) => {
            let op = c.gpu_op(tr);
            let k = c.nes.len();
            let mut element = |tr: &mut Tr, idx: &[Value], xs: &[Value]| -> R<Vec<Value>> {
                preset(tr, &read_results, xs);
                let ys = point(tr, idx);
                unset(tr, &read_results);
                rep_scalars(tr, &ys?[..k])
            };
            let mut finish = |tr: &mut Tr, idx: &[Value], accs: &[Value]| -> R<()> {
                for (o, &v) in outs.iter().zip(accs) {
                    tr.store(o, idx, v);
                }
                Ok(())
            };
            let m = sizes[d - 1];
            super::gpu::tiled_kernel(
                tr,
                &sizes[..d - 1],
                m,
                &op,
                (&t.reads, *tile, *body_ops),
                &mut element,
                &mut finish,
            )
        }
        (None, Some((r, inputs))) => {
            let r = *r;
            let regions = tr.ctx.regions(r).to_vec();
            let op_block = tr.ctx.blocks(regions[0])[0];
            let lambda = regions.get(1).map(|&l| tr.ctx.blocks(l)[0]);
            let operands = tr.ctx.operands(r).to_vec();
            let k = tr.ctx.block_args(op_block).len() / 2;
            let m = tr.scalar(operands[0])?;
            let nes = scalars(tr, &operands[1..1 + k])?;
            let op = super::gpu::Op {
                block: op_block,
                nes: &nes,
                elems: nes.iter().map(|&v| tr.scalar_type_of(v)).collect(),
                commutative: false,
                index_parts: vec![false; k],
            };
            let wholes: Vec<Option<Arr>> = inputs
                .iter()
                .map(|i| match i {
                    tile::Input::Whole(x) => tr.array(*x).map(Some),
                    tile::Input::Tile(_) | tile::Input::Replicated(_) => Ok(None),
                })
                .collect::<R<_>>()?;
            let mut element = |tr: &mut Tr, idx: &[Value], xs: &[Value]| -> R<Vec<Value>> {
                let q = *idx.last().expect("the reduction's index");
                let args = inputs
                    .iter()
                    .zip(&wholes)
                    .map(|(i, w)| {
                        Ok(Rep::Scalar(match (i, w) {
                            (tile::Input::Tile(t), _) => xs[*t],
                            (tile::Input::Whole(_), Some(a)) => tr.load(a, &[q]),
                            (tile::Input::Replicated(x), _) => tr.scalar(*x)?,
                            (tile::Input::Whole(_), None) => unreachable!("an array for each whole input"),
                        }))
                    })
                    .collect::<R<Vec<Rep>>>()?;
                match lambda {
                    Some(l) => {
                        let ys = tr.block(l, &args)?;
                        rep_scalars(tr, &ys[..k])
                    }
                    None => rep_scalars(tr, &args),
                }
            };
            let results: Vec<Value> = tr.ctx.results(r).collect();
            let mut finish = |tr: &mut Tr, idx: &[Value], accs: &[Value]| -> R<()> {
                preset(tr, &results, accs);
                let ys = point(tr, idx);
                unset(tr, &results);
                for (o, y) in outs.iter().zip(ys?) {
                    tr.write(o, idx, &y);
                }
                Ok(())
            };
            super::gpu::tiled_kernel(
                tr,
                sizes,
                m,
                &op,
                (&t.reads, *tile, *body_ops),
                &mut element,
                &mut finish,
            )
        }
        (None, None) => Err(tr.fail("internal error: a tiled segmap without its reduction")),
    }
}

/// The value of soac value `v` when a `soac.constant` defines it.
pub(crate) fn constant_int(tr: &Tr, v: Value) -> Option<i64> {
    let d = tr.ctx.defining_op(v)?;
    if tr.ctx.op_name(d) != "soac.constant" {
        return None;
    }
    futmlir_dialects::ir::OpView { ctx: tr.ctx, op: d }
        .int_attr("value")
        .ok()
}

/// Whether operator `op` is a lone commutative `binop` of its two
/// arguments (add, mul, min, max, and, or, xor): then a reduction may
/// combine its operands in any order (and read memory coalesced).
fn commutative_op(tr: &Tr, op: BlockId) -> bool {
    lone_binop(tr, op).is_some_and(|k| matches!(k, "add" | "mul" | "min" | "max" | "and" | "or" | "xor"))
}

/// The kind of the lone `binop` of the two arguments that operator `op`
/// is, if it is one.
pub(crate) fn lone_binop<'t>(tr: &'t Tr, op: BlockId) -> Option<&'t str> {
    let args = tr.ctx.block_args(op);
    if args.len() != 2 {
        return None;
    }
    let ops: Vec<OpId> = tr.ctx.block_ops(op).collect();
    let [bin, ret] = ops[..] else { return None };
    if tr.ctx.op_name(bin) != "soac.binop" || tr.ctx.operands(ret) != [tr.ctx.result(bin, 0)] {
        return None;
    }
    let xs = tr.ctx.operands(bin);
    if !(xs == [args[0], args[1]] || xs == [args[1], args[0]]) {
        return None;
    }
    match tr.ctx.attr(bin, "kind").map(|a| tr.ctx.attr_kind(a)) {
        Some(futmlir_dialects::ir::AttrKind::String(s)) => Some(tr.ctx.str(*s)),
        _ => None,
    }
}

/// [`combine`] at host level on the GPU: a map in one kernel, or a
/// reduction or scan over one dimension (Note [Segops on the GPU]);
/// returns a reduction's values.
#[allow(clippy::too_many_arguments)]
fn gpu_combine(
    tr: &mut Tr,
    sizes: &[Value],
    c: Option<&Combine>,
    k: usize,
    outs: &[Option<Arr>],
    reads: Option<&[(Value, Arr)]>,
    point: &mut Body,
    write_mapped: &mut WriteMapped,
) -> R<Vec<Value>> {
    let Some(c) = c else {
        super::gpu::segmap(tr, sizes, outs, reads, point, write_mapped)?;
        return Ok(Vec::new());
    };
    let op = c.gpu_op(tr);
    let mut combined = |tr: &mut Tr, i: Value, write: bool| -> R<Vec<Value>> {
        let ys = point(tr, &[i])?;
        if write {
            write_mapped(tr, &[i], &ys);
        }
        ys[..k]
            .iter()
            .map(|y| match y {
                Rep::Scalar(v) => Ok(*v),
                Rep::Array(_) => Err(tr.unsupported("reductions and scans of arrays")),
            })
            .collect()
    };
    if c.scan {
        let scanned: Vec<Arr> = outs[..k].iter().map(|o| o.clone().expect("a scan's array")).collect();
        super::gpu::scan(tr, sizes[0], &op, &mut combined, &scanned)?;
        Ok(Vec::new())
    } else {
        super::gpu::reduce(tr, sizes[0], &op, &mut |tr, i| combined(tr, i, true))
    }
}

/// A segop's result type `t` with the row sizes it does not know taken
/// from the type `row` of the value its body yields for it, where those
/// are sizes of the host (a coercion may leave the result's `[n][?]t`
/// while the body yields `[m]t`, `m` a parameter).
fn with_row_sizes(tr: &mut Tr, t: Type, row: Type) -> Type {
    let (dims, row_dims) = (array_dims(tr.ctx, t), array_dims(tr.ctx, row));
    let Some(d) = dims.len().checked_sub(row_dims.len()) else {
        return t;
    };
    if !dims[d..].contains(&Dim::Unknown) {
        return t;
    }
    let known = |x: &Dim| match x {
        Dim::Const(_) => true,
        Dim::Value(v) => matches!(tr.map.get(v), Some(Rep::Scalar(_))),
        Dim::Unknown => false,
    };
    let mut shape = dims.clone();
    for (s, r) in shape[d..].iter_mut().zip(&row_dims) {
        if *s == Dim::Unknown && known(r) {
            *s = *r;
        }
    }
    let TypeKind::Array { elem, .. } = tr.ctx.type_kind(t).clone() else {
        return t;
    };
    tr.ctx.intern_type(TypeKind::Array { elem, shape })
}

/// A fresh array (or the block the mem level bound) for result `k`, of soac type `t`, whose first `d`
/// dimensions are `space`; the others come from the type.
fn result_array(tr: &mut Tr, k: usize, t: Type, d: usize, space: &[Value]) -> R<Arr> {
    let (elem, _) =
        array_elem(tr.ctx, t).ok_or_else(|| tr.fail("internal error: a segop result that is not an array"))?;
    let mut sizes = space.to_vec();
    for dim in array_dims(tr.ctx, t).into_iter().skip(d) {
        sizes.push(match dim {
            Dim::Const(c) => tr.i64c(c as i64),
            Dim::Value(v) => match tr.map.get(&v) {
                Some(Rep::Scalar(s)) => *s,
                _ => return Err(tr.unsupported("kernels whose results' row sizes are computed inside them")),
            },
            Dim::Unknown => return Err(tr.unsupported("kernels whose results' row sizes are unknown")),
        });
    }
    tr.alloc_result(k, elem, &sizes)
}

fn scalars(tr: &Tr, vs: &[Value]) -> R<Vec<Value>> {
    vs.iter().map(|&v| tr.scalar(v)).collect()
}

/// The scalars of `ys`.
pub(crate) fn rep_scalars(tr: &Tr, ys: &[Rep]) -> R<Vec<Value>> {
    ys.iter()
        .map(|y| match y {
            Rep::Scalar(v) => Ok(*v),
            Rep::Array(_) => Err(tr.unsupported("reductions and scans of arrays")),
        })
        .collect()
}

/// `0 <= i < n`.
fn in_range(tr: &mut Tr, i: Value, n: Value) -> Value {
    let zero = tr.i64c(0);
    let lo = tr.cmp("ge", i, zero);
    let hi = tr.cmp("lt", i, n);
    tr.bin("and", lo, hi)
}

/// Runs `body` for every index of `sizes` (none: once, here), in loops.
pub(crate) fn try_nest(tr: &mut Tr, sizes: &[Value], body: &mut dyn FnMut(&mut Tr, &[Value]) -> R<()>) -> R<()> {
    fn go(
        tr: &mut Tr,
        sizes: &[Value],
        idx: &mut Vec<Value>,
        body: &mut dyn FnMut(&mut Tr, &[Value]) -> R<()>,
    ) -> R<()> {
        if idx.len() == sizes.len() {
            return body(tr, idx);
        }
        let n = sizes[idx.len()];
        tr.for_loop(n, &[], &mut |tr, i, _| {
            idx.push(i);
            let r = go(tr, sizes, idx, body);
            idx.pop();
            r.map(|_| vec![])
        })?;
        Ok(())
    }
    go(tr, sizes, &mut Vec::new(), body)
}

/// The lambda of a SOAC left in a kernel body that runs once per row of
/// its inputs (a map's, a redomap's or scanomap's map part, a filter's
/// predicate), and those inputs; `None` for other ops (Note [Size
/// bounds]).
pub(crate) fn row_lambda(ctx: &Context, o: OpId) -> Option<(BlockId, Vec<Value>)> {
    let regions = ctx.regions(o);
    let operands = ctx.operands(o);
    let (lambda, first) = match ctx.op_name(o) {
        "soac.map" | "soac.filter" => (ctx.blocks(*regions.first()?)[0], 1),
        "soac.redomap" | "soac.scanomap" => {
            let op = ctx.blocks(*regions.first()?)[0];
            (ctx.blocks(*regions.get(1)?)[0], 1 + ctx.block_args(op).len() / 2)
        }
        _ => return None,
    };
    Some((lambda, operands.get(first..)?.to_vec()))
}

/// Row `i` of `v`, an input of a SOAC left in a kernel body (a virtual
/// array's row computed, Note [Virtual arrays]).
pub(crate) fn input_row(tr: &mut Tr, v: Value, i: Value) -> R<Rep> {
    match tr.virtual_arrays.get(&v) {
        Some(&d) => virtual_row(tr, d, i),
        None => {
            let a = tr.array(v)?;
            Ok(row(tr, &a, i))
        }
    }
}
