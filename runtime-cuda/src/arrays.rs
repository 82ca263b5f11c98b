//! Elements of arrays held by the runtime, for the server's `index`,
//! `set`, `new_array` and `shape` (`server-protocol.rst`, "Array
//! Commands"): of an array of a primitive type, and of an array of an
//! opaque type, which is its element type's components, each with the
//! array's dimensions in front (`array` in `ABI.md`'s entry point
//! interfaces).
//!
//! Element `k` (row-major) of a component whose first `rank` dimensions
//! are the array's is the contiguous run of its inner elements at `k`
//! times their size: a scalar where the component has no more
//! dimensions, else an array of the inner shape.

use crate::context::Ctx;
use crate::marshal::{elem_size, from_bytes, to_bytes};
use crate::program::Type;
use crate::var::{free_all, Var};

/// The array's shape: that of a primitive array, or the first `rank`
/// dimensions of an opaque array's components (which all have them).
pub fn shape(v: &Var, rank: usize) -> Result<Vec<usize>, String> {
    let first = v
        .components()
        .first()
        .ok_or("an array of a type with no components has no shape here")?;
    match first {
        Var::Array { shape, .. } if shape.len() >= rank => Ok(shape[..rank].to_vec()),
        _ => Err("not an array of that rank".into()),
    }
}

/// The row-major position of `index` in `shape`, checked.
pub fn flat_index(shape: &[usize], index: &[i64]) -> Result<usize, String> {
    if index.len() != shape.len() {
        return Err(format!(
            "an array of rank {} needs {} indices, {} given",
            shape.len(),
            shape.len(),
            index.len()
        ));
    }
    let mut k = 0usize;
    for (&i, &d) in index.iter().zip(shape) {
        let i = usize::try_from(i).ok().filter(|&i| i < d).ok_or_else(|| {
            let shown: Vec<String> = index.iter().map(|i| format!("[{i}]")).collect();
            let dims: Vec<String> = shape.iter().map(|d| format!("[{d}]")).collect();
            format!(
                "Index {} out of bounds for array of shape {}.",
                shown.concat(),
                dims.concat()
            )
        })?;
        k = k * d + i;
    }
    Ok(k)
}

/// Element `k` of a component whose first `rank` dimensions are the
/// array's: a scalar, or a fresh array.
fn element_of(c: &mut Ctx, part: &Var, rank: usize, k: usize) -> Result<Var, String> {
    let (elem, inner, mem) = inner(part, rank)?;
    let len = inner.iter().product::<usize>() * elem_size(elem);
    let at = mem + k * len;
    if inner.is_empty() {
        let mut buf = vec![0u8; len];
        // SAFETY: `k` is in bounds, so `at..at+len` lies in the block.
        unsafe { c.read(buf.as_mut_ptr(), at, len) }?;
        return Ok(Var::Scalar(from_bytes(elem, Vec::new(), &buf)?));
    }
    let new = if len == 0 { 0 } else { c.alloc(len)? };
    if len > 0 {
        // SAFETY: both blocks hold `len` bytes from these addresses.
        if let Err(e) = unsafe { c.copy(new, at, len) } {
            let _ = c.free(new);
            return Err(e);
        }
    }
    Ok(Var::Array {
        elem,
        shape: inner.to_vec(),
        mem: new,
        bytes: len,
    })
}

/// A component's element type and the shape of its elements, for a
/// component whose first `rank` dimensions are the array's.
fn inner(part: &Var, rank: usize) -> Result<(futmlir_values::PrimType, &[usize], usize), String> {
    match part {
        &Var::Array {
            elem, ref shape, mem, ..
        } if shape.len() >= rank => Ok((elem, &shape[rank..], mem)),
        _ => Err("a component of an array is an array".into()),
    }
}

/// Whether `value` fits as an element of a component whose first `rank`
/// dimensions are the array's: a scalar of its type, or an array of its
/// inner shape.
fn check_element(part: &Var, rank: usize, value: &Var) -> Result<(), String> {
    let (elem, inner, _) = inner(part, rank)?;
    let fits = match value {
        Var::Scalar(v) => inner.is_empty() && v.elem_type() == elem,
        Var::Array { elem: e, shape, .. } => *e == elem && shape.as_slice() == inner,
        Var::Opaque { .. } => false,
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "a value of type {} does not fit where the array holds {}{elem} values of shape {inner:?}",
            value.type_name(),
            "[]".repeat(inner.len())
        ))
    }
}

/// Writes `value`, which [`check_element`] accepted, as element `k`.
fn write_element(c: &mut Ctx, part: &Var, rank: usize, k: usize, value: &Var) -> Result<(), String> {
    let (elem, inner, mem) = inner(part, rank)?;
    let len = inner.iter().product::<usize>() * elem_size(elem);
    let at = mem + k * len;
    match value {
        Var::Scalar(v) => {
            let bytes = to_bytes(v);
            // SAFETY: `k` is in bounds, so `at..at+len` lies in the block,
            // and `bytes` holds one element, `len` bytes.
            unsafe { c.write(at, bytes.as_ptr(), len) }
        }
        Var::Array { mem: from, .. } if len > 0 => {
            // SAFETY: both blocks hold `len` bytes from these addresses.
            unsafe { c.copy(at, *from, len) }
        }
        _ => Ok(()),
    }
}

/// Element `index` of array `v` of rank `rank`: a scalar of a primitive
/// array, or a value of the opaque element type `elem_type`.
pub fn index(c: &mut Ctx, v: &Var, rank: usize, elem_type: Option<&str>, index: &[i64]) -> Result<Var, String> {
    let k = flat_index(&shape(v, rank)?, index)?;
    let mut parts = Vec::new();
    for part in v.components() {
        match element_of(c, part, rank, k) {
            Ok(p) => parts.push(p),
            Err(e) => {
                free_all(c, parts);
                return Err(e);
            }
        }
    }
    Ok(match elem_type {
        Some(ty) => Var::Opaque {
            ty: ty.to_string(),
            parts,
        },
        None => parts.pop().ok_or("an array with no components")?,
    })
}

/// Writes `value` (of the element type) at `index` of array `v` of rank
/// `rank`, in place. Every component is checked before any is written,
/// so a mismatch leaves the array as it was.
pub fn set(c: &mut Ctx, v: &Var, rank: usize, value: &Var, index: &[i64]) -> Result<(), String> {
    let k = flat_index(&shape(v, rank)?, index)?;
    let (parts, values) = (v.components(), value.components());
    if parts.len() != values.len() {
        return Err(format!(
            "the value has type {}, not the array's element type",
            value.type_name()
        ));
    }
    for (p, x) in parts.iter().zip(values) {
        check_element(p, rank, x)?;
    }
    for (p, x) in parts.iter().zip(values) {
        write_element(c, p, rank, k, x)?;
    }
    Ok(())
}

/// The components, fresh, of an array of shape `shape` made of `elems`
/// (row-major, as many as the shape's product), values of one type
/// whose components have the types `elem_parts`. With no elements, the
/// elements' own dimensions are zero (as `c-api.rst` says of
/// `futhark_new_opaque_*`).
pub fn new_array(c: &mut Ctx, shape: &[usize], elem_parts: &[Type], elems: &[&Var]) -> Result<Vec<Var>, String> {
    let n: usize = shape.iter().product();
    if elems.len() != n {
        return Err(format!(
            "an array of shape {shape:?} has {n} element(s), but {} were given",
            elems.len()
        ));
    }
    let mut made: Vec<Var> = Vec::new();
    for (j, t) in elem_parts.iter().enumerate() {
        // The elements' own shape: the first one's (each is checked).
        let inner = match elems.first().and_then(|e| e.components().get(j)) {
            Some(Var::Array { shape, .. }) => shape.clone(),
            _ => vec![0; t.rank],
        };
        let mut full = shape.to_vec();
        full.extend(&inner);
        let bytes = full.iter().product::<usize>() * elem_size(t.elem);
        let mem = match if bytes == 0 { Ok(0) } else { c.alloc(bytes) } {
            Ok(m) => m,
            Err(e) => {
                free_all(c, made);
                return Err(e);
            }
        };
        let part = Var::Array {
            elem: t.elem,
            shape: full,
            mem,
            bytes,
        };
        for (k, e) in elems.iter().enumerate() {
            let r = match e.components().get(j) {
                Some(x) if e.components().len() == elem_parts.len() => {
                    check_element(&part, shape.len(), x).and_then(|()| write_element(c, &part, shape.len(), k, x))
                }
                _ => Err(format!("it has type {}", e.type_name())),
            };
            if let Err(e) = r {
                made.push(part);
                free_all(c, made);
                return Err(format!("element {k}: {e}"));
            }
        }
        made.push(part);
    }
    Ok(made)
}
