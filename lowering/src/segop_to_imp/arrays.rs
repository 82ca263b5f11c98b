//! Array ops: views change an LMAD, the others fill fresh memory
//! (Note [Arrays as LMADs]).

use futmlir_dialects::ir::{AttrKind, OpId, OpView, Scalar, Value};

use super::{array_elem, Arr, Rep, Tr, R};

pub(crate) fn array_op(tr: &mut Tr, o: OpId, name: &str, operands: &[Value], results: &[Value]) -> R<Vec<Rep>> {
    let view_attr_ints = |tr: &Tr, key: &str| OpView { ctx: tr.ctx, op: o }.int_array_attr(key).ok();
    let dim_attr = |tr: &Tr| OpView { ctx: tr.ctx, op: o }.int_attr("dim").unwrap_or(0) as usize;
    Ok(vec![match name {
        "soac.index" => {
            let a = tr.array(operands[0])?;
            let idx = scalars(tr, &operands[1..])?;
            if idx.len() == a.dims.len() {
                Rep::Scalar(tr.load(&a, &idx))
            } else {
                Rep::Array(tr.subarray(&a, &idx))
            }
        }
        "soac.slice" => {
            let a = tr.array(operands[0])?;
            let triples = scalars(tr, &operands[1..])?;
            let mut offset = a.offset;
            let mut dims = a.dims.clone();
            for (k, t) in triples.chunks(3).enumerate() {
                let (o, l, s) = (t[0], t[1], t[2]);
                let shift = tr.mul(o, a.dims[k].1);
                offset = tr.add(offset, shift);
                let stride = tr.mul(a.dims[k].1, s);
                dims[k] = (l, stride);
            }
            Rep::Array(Arr {
                offset,
                dims,
                row_major: false,
                fresh: false,
                ..a
            })
        }
        "soac.size" => {
            let a = tr.array(operands[0])?;
            let d = dim_attr(tr);
            Rep::Scalar(
                a.dims
                    .get(d)
                    .ok_or_else(|| tr.fail("soac.size of a dimension the array lacks"))?
                    .0,
            )
        }
        "soac.reshape" => {
            let mut a = tr.array(operands[0])?;
            let sizes = scalars(tr, &operands[1..])?;
            if sizes == a.sizes() {
                // The same shape (a coercion of an existential size, as
                // after a filter): the array itself.
                return Ok(vec![Rep::Array(a)]);
            }
            if !a.row_major {
                a = fresh_copy(tr, &a)?;
            }
            let mut dims = tr.row_major_dims(&sizes);
            if !a.row_major {
                // An expanded copy in a kernel: row-major with every
                // stride times the threads (Tr::expand), as its innermost
                // stride says.
                let scale = a.dims.last().map_or(tr.i64c(1), |d| d.1);
                for d in &mut dims {
                    d.1 = tr.mul(d.1, scale);
                }
            }
            let row_major = a.row_major;
            Rep::Array(Arr { dims, row_major, ..a })
        }
        "soac.rearrange" => {
            let a = tr.array(operands[0])?;
            let perm = view_attr_ints(tr, "perm").ok_or_else(|| tr.fail("soac.rearrange without `perm`"))?;
            let identity = perm.iter().enumerate().all(|(i, &p)| i as i64 == p);
            let dims = perm.iter().map(|&p| a.dims[p as usize]).collect();
            Rep::Array(Arr {
                dims,
                row_major: a.row_major && identity,
                fresh: a.fresh && identity,
                ..a
            })
        }
        "soac.copy" | "segop.manifest" => {
            let a = tr.array(operands[0])?;
            Rep::Array(fresh_copy(tr, &a)?)
        }
        "soac.iota" => {
            let n = tr.scalar(operands[0])?;
            let t = tr.ctx.value_type(results[0]);
            let (elem, _) = array_elem(tr.ctx, t).unwrap_or((Scalar::I64, 1));
            let (start, step) = if operands.len() == 3 {
                (tr.scalar(operands[1])?, tr.scalar(operands[2])?)
            } else {
                (tr.int(0, elem), tr.int(1, elem))
            };
            let out = tr.alloc_result(0, elem, &[n])?;
            super::gpu::par_for(tr, &[n], &mut |tr, idx| {
                let x = super::segops::iota_element(tr, idx[0], start, step);
                tr.store(&out, idx, x);
                Ok(())
            })?;
            Rep::Array(out)
        }
        "soac.replicate" => {
            let n = tr.scalar(operands[0])?;
            let x = tr.rep(operands[1])?;
            let t = tr.ctx.value_type(results[0]);
            let (elem, _) = array_elem(tr.ctx, t).unwrap_or((Scalar::I64, 1));
            let mut sizes = vec![n];
            if let Rep::Array(a) = &x {
                sizes.extend(a.sizes());
            }
            let out = tr.alloc_result(0, elem, &sizes)?;
            super::gpu::par_for(tr, &[n], &mut |tr, idx| {
                tr.write(&out, idx, &x);
                Ok(())
            })?;
            Rep::Array(out)
        }
        "soac.update" => {
            let a = tr.array(operands[0])?;
            let (idx, x) = operands[1..].split_at(operands.len() - 2);
            let idx = scalars(tr, idx)?;
            let x = tr.rep(x[0])?;
            // A row `mem-short-circuit` placed was made in `a` already.
            let placed = tr.ctx.attr(o, "short_circuit").is_some() && matches!(&x, Rep::Array(r) if r.mem == a.mem);
            if !placed {
                tr.write(&a, &idx, &x);
            }
            Rep::Array(a)
        }
        "soac.concat" => {
            let w = tr.scalar(operands[0])?;
            let d = dim_attr(tr);
            let parts = operands[1..].iter().map(|&v| tr.array(v)).collect::<R<Vec<_>>>()?;
            let first = parts.first().ok_or_else(|| tr.fail("soac.concat of no arrays"))?;
            let mut sizes = first.sizes();
            sizes[d] = w;
            let out = tr.alloc_result(0, first.elem, &sizes)?;
            // A part `mem-short-circuit` placed in the result's block was
            // written at its place by the op that made it.
            let in_place = tr.ctx.attr(o, "short_circuit").is_some();
            let mut at = tr.i64c(0);
            for p in &parts {
                if in_place && p.mem == out.mem {
                    at = tr.add(at, p.dims[d].0);
                    continue;
                }
                // The destination: `out` shifted by `at` in dimension `d`.
                let shift = tr.mul(at, out.dims[d].1);
                let offset = tr.add(out.offset, shift);
                let mut dims = out.dims.clone();
                dims[d].0 = p.dims[d].0;
                let dst = Arr {
                    offset,
                    dims,
                    row_major: false,
                    fresh: false,
                    ..out.clone()
                };
                tr.copy_into(&dst, p);
                at = tr.add(at, p.dims[d].0);
            }
            Rep::Array(out)
        }
        "soac.rotate" => {
            let a = tr.array(operands[0])?;
            let ks = scalars(tr, &operands[1..])?;
            let sizes = a.sizes();
            let out = tr.alloc_result(0, a.elem, &sizes)?;
            let mut shifts = Vec::new();
            for (k, &s) in ks.iter().enumerate() {
                // result[i] = a[(i + k) mod n], with the mod taken non-negative.
                shifts.push((s, sizes[k]));
            }
            tr.nest(&sizes, &mut |tr, idx| {
                let mut src_idx = idx.to_vec();
                for (j, &(s, n)) in shifts.iter().enumerate() {
                    let sum = tr.add(idx[j], s);
                    src_idx[j] = tr.bin("mod", sum, n);
                }
                let x = tr.load(&a, &src_idx);
                tr.store(&out, idx, x);
            });
            Rep::Array(out)
        }
        "soac.apply" => return super::call::apply(tr, o, operands, results),
        other => return Err(tr.unsupported(&format!("`{other}` here"))),
    }])
}

fn scalars(tr: &Tr, vs: &[Value]) -> R<Vec<Value>> {
    vs.iter().map(|&v| tr.scalar(v)).collect()
}

/// An array constant: a fresh array with its elements stored one by one.
pub(crate) fn array_constant(tr: &mut Tr, o: OpId, result: Value) -> R<Arr> {
    let t = tr.ctx.value_type(result);
    let (elem, _) = array_elem(tr.ctx, t).unwrap_or((Scalar::I64, 1));
    let mut sizes = Vec::new();
    for d in super::array_dims(tr.ctx, t) {
        match d {
            futmlir_dialects::ir::Dim::Const(c) => sizes.push(tr.i64c(c as i64)),
            _ => return Err(tr.fail("internal error: an array constant of a size that is not constant")),
        }
    }
    let mut leaves = Vec::new();
    fn flatten(
        ctx: &futmlir_dialects::ir::Context,
        a: futmlir_dialects::ir::Attr,
        out: &mut Vec<futmlir_dialects::ir::Attr>,
    ) {
        match ctx.attr_kind(a) {
            AttrKind::Array(xs) => xs.iter().for_each(|&x| flatten(ctx, x, out)),
            _ => out.push(a),
        }
    }
    let value = tr
        .ctx
        .attr(o, "value")
        .ok_or_else(|| tr.fail("soac.constant without a value"))?;
    flatten(tr.ctx, value, &mut leaves);
    let out = tr.alloc_result(0, elem, &sizes)?;
    let flat = Arr {
        dims: vec![(tr.i64c(leaves.len() as i64), tr.i64c(1))],
        ..out.clone()
    };
    let et = tr.ty(elem);
    for (k, a) in leaves.into_iter().enumerate() {
        let x = tr.emit1("soac.constant", &[], et, &[("value", a)]);
        let i = tr.i64c(k as i64);
        tr.store(&flat, &[i], x);
    }
    Ok(out)
}

/// A fresh row-major copy of `a`: in the block of the op's result if the
/// mem level bound it (`soac.copy`), otherwise a new one.
pub(crate) fn fresh_copy(tr: &mut Tr, a: &Arr) -> R<Arr> {
    let sizes = a.sizes();
    let out = tr.alloc_result(0, a.elem, &sizes)?;
    tr.copy_into(&out, a);
    Ok(out)
}
