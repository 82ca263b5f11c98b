//! Values held by the runtime between calls, shared by the server's
//! variables and the C library's `futhark_*` values: a scalar on the host,
//! an array in the target's memory, or a value of an opaque type as its
//! components (Note [Values in the server]); and one call of an entry
//! point on such values.

use futmlir_values::{PrimType, Value};

use crate::context::Ctx;
use crate::invoke::{invoke, Arg, CtxBox, Returned};
use crate::marshal::{elem_size, from_bytes, to_bytes};
use crate::program::{Entry, OpaqueType, Program, Type, Variant};

/// A variable's value.
pub enum Var {
    /// A scalar, on the host.
    Scalar(Value),
    /// An array in the target's memory, owned by the store (`mem` is 0
    /// only when it has no elements).
    Array {
        elem: PrimType,
        shape: Vec<usize>,
        mem: usize,
        bytes: usize,
    },
    /// A value of opaque type `ty`: its components, each a scalar or an
    /// array.
    Opaque { ty: String, parts: Vec<Var> },
}

impl Var {
    /// The name of the variable's type, as `type` prints it.
    pub fn type_name(&self) -> String {
        match self {
            Var::Scalar(v) => v.type_name(),
            Var::Array { elem, shape, .. } => Type {
                elem: *elem,
                rank: shape.len(),
            }
            .name(),
            Var::Opaque { ty, .. } => ty.clone(),
        }
    }

    /// The tag of a value of a sum type: its first component, an `i8`.
    pub fn tag(&self) -> Option<usize> {
        match self.components().first() {
            Some(Var::Scalar(v)) => to_bytes(v).first().map(|&t| usize::from(t)),
            _ => None,
        }
    }

    /// The components: an opaque value's parts, or the value itself.
    pub fn components(&self) -> &[Var] {
        match self {
            Var::Opaque { parts, .. } => parts,
            v => std::slice::from_ref(v),
        }
    }
}

/// Frees the target's memory that `var` owns.
pub fn free_in(c: &mut Ctx, var: Var) -> Result<(), String> {
    match var {
        Var::Scalar(_) => Ok(()),
        Var::Array { mem, .. } => c.free(mem),
        Var::Opaque { parts, .. } => parts.into_iter().try_for_each(|p| free_in(c, p)),
    }
}

/// Frees `vars` (what an operation made before it failed); a second
/// error would hide the first, so the freeing's own errors are dropped.
pub fn free_all(c: &mut Ctx, vars: Vec<Var>) {
    for v in vars {
        let _ = free_in(c, v);
    }
}

/// Copies of the components `parts`, arrays copied within the target's
/// memory; on an error, the copies made so far are freed.
/// Copies of the values `parts` refers to ([`copy_parts`]); on an error
/// the copies made so far are freed.
pub fn copy_each(c: &mut Ctx, parts: &[&Var]) -> Result<Vec<Var>, String> {
    let mut copies = Vec::with_capacity(parts.len());
    for &part in parts {
        match copy_parts(c, std::slice::from_ref(part)) {
            Ok(mut one) => copies.append(&mut one),
            Err(e) => {
                free_all(c, copies);
                return Err(e);
            }
        }
    }
    Ok(copies)
}

/// The value of a component (a scalar, or an array read back from the
/// target's memory); `what` names it in errors.
pub fn component_value(c: &mut Ctx, part: &Var, what: &str) -> Result<Value, String> {
    match part {
        Var::Scalar(v) => Ok(v.clone()),
        &Var::Array {
            elem,
            ref shape,
            mem,
            bytes,
        } => from_bytes(elem, shape.clone(), &crate::invoke::read_array(c, mem, bytes, what)?),
        Var::Opaque { .. } => Err(format!("{what}: a component is a scalar or an array")),
    }
}

pub fn copy_parts(c: &mut Ctx, parts: &[Var]) -> Result<Vec<Var>, String> {
    let mut copies = Vec::with_capacity(parts.len());
    for part in parts {
        let copy = match part {
            Var::Scalar(v) => Ok(Var::Scalar(v.clone())),
            Var::Array {
                elem,
                shape,
                mem,
                bytes,
            } => c.alloc(*bytes).and_then(|new| {
                // SAFETY: both blocks hold at least `bytes` bytes.
                match *bytes == 0 || unsafe { c.copy(new, *mem, *bytes) }.is_ok() {
                    true => Ok(Var::Array {
                        elem: *elem,
                        shape: shape.clone(),
                        mem: new,
                        bytes: *bytes,
                    }),
                    false => {
                        let _ = c.free(new);
                        Err(format!("cannot copy an array of {bytes} bytes"))
                    }
                }
            }),
            Var::Opaque { ty, parts } => copy_parts(c, parts).map(|parts| Var::Opaque { ty: ty.clone(), parts }),
        };
        match copy {
            Ok(v) => copies.push(v),
            Err(e) => {
                free_all(c, copies);
                return Err(e);
            }
        }
    }
    Ok(copies)
}

/// Calls `entry` on `inputs` (values of its parameters' types, which the
/// caller has checked) and waits for the device: each array passed as a
/// fresh copy, since the entry may write into it (Note [Values in the
/// server]). Returns the time of the call in microseconds and the results,
/// grouped into values of the results' types; they own their memory.
pub fn call(ctx: &mut CtxBox, program: &Program, entry: &Entry, inputs: &[&Var]) -> Result<(u128, Vec<Var>), String> {
    let mut call_args = Vec::with_capacity(entry.ins.len());
    let mut copies = Vec::new();
    let mut failed = None;
    for part in inputs.iter().flat_map(|v| v.components()) {
        let arg = match part {
            Var::Scalar(value) => Arg::Scalar(to_bytes(value)),
            Var::Array { shape, mem, bytes, .. } => {
                let (src, bytes, shape) = (*mem, *bytes, shape.iter().map(|&d| d as i64).collect());
                let c = ctx.get();
                let copy = match c.alloc(bytes) {
                    Ok(m) => m,
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                };
                copies.push(copy);
                if bytes > 0 {
                    // SAFETY: both blocks hold at least `bytes` bytes.
                    if let Err(e) = unsafe { c.copy(copy, src, bytes) } {
                        failed = Some(e);
                        break;
                    }
                }
                Arg::Array { mem: copy, shape }
            }
            Var::Opaque { .. } => unreachable!("a component is a scalar or an array"),
        };
        call_args.push(arg);
    }
    let called = match failed {
        Some(e) => Err(e),
        None => invoke(ctx, entry, &call_args),
    };
    for copy in copies {
        ctx.get().free(copy)?;
    }
    let (micros, results) = called?;
    let mut parts = Vec::with_capacity(results.len());
    for (t, result) in entry.outs.iter().zip(results) {
        parts.push(match result {
            Returned::Scalar(bytes) => Var::Scalar(from_bytes(t.elem, Vec::new(), &bytes)?),
            Returned::Array { mem, shape, bytes } => Var::Array {
                elem: t.elem,
                shape,
                mem,
                bytes,
            },
        });
    }
    // The results' components in order, grouped into values.
    let mut parts = parts.into_iter();
    let mut values = Vec::with_capacity(entry.results.len());
    for r in &entry.results {
        let mut group: Vec<Var> = parts.by_ref().take(r.parts.len()).collect();
        values.push(match program.opaque(&r.ty) {
            Some(t) => Var::Opaque {
                ty: t.name.clone(),
                parts: group,
            },
            None => group.pop().expect("a transparent result is one component"),
        });
    }
    Ok((micros, values))
}

/// A scalar as it is, an array copied to the target's memory.
pub fn upload(c: &mut Ctx, v: Value) -> Result<Var, String> {
    Ok(match v {
        Value::Prim(_) => Var::Scalar(v),
        Value::Array(ref a) => {
            let bytes = to_bytes(&v);
            let mem = c.alloc(bytes.len())?;
            // SAFETY: the block holds at least `bytes.len()` bytes.
            if let Err(e) = unsafe { c.write(mem, bytes.as_ptr(), bytes.len()) } {
                let _ = c.free(mem);
                return Err(e);
            }
            Var::Array {
                elem: a.elem_type(),
                shape: a.shape.clone(),
                mem,
                bytes: bytes.len(),
            }
        }
    })
}

/// A value of sum type `sum` made with constructor number `tag` from
/// `payload` (values of its payload's types, which the caller has
/// checked): the payload's arrays copied, the other constructors'
/// components blank (zeros, empty arrays; Note [Values in the server]).
pub fn construct(c: &mut Ctx, sum: &OpaqueType, tag: usize, payload: &[&Var]) -> Result<Var, String> {
    let variant = &sum.variants[tag];
    let given: Vec<&Var> = payload.iter().flat_map(|v| v.components()).collect();
    let mut parts: Vec<Var> = Vec::with_capacity(sum.parts.len());
    for (j, t) in sum.parts.iter().enumerate() {
        let part = if j == 0 {
            from_bytes(t.elem, Vec::new(), &[tag as u8]).map(Var::Scalar)
        } else if let Some(k) = variant.parts.iter().position(|&p| p == j) {
            copy_parts(c, std::slice::from_ref(given[k])).map(|mut one| one.remove(0))
        } else if t.rank == 0 {
            from_bytes(t.elem, Vec::new(), &vec![0; elem_size(t.elem)]).map(Var::Scalar)
        } else {
            c.alloc(0).map(|mem| Var::Array {
                elem: t.elem,
                shape: vec![0; t.rank],
                mem,
                bytes: 0,
            })
        };
        match part {
            Ok(p) => parts.push(p),
            Err(e) => {
                free_all(c, parts);
                return Err(e);
            }
        }
    }
    Ok(Var::Opaque {
        ty: sum.name.clone(),
        parts,
    })
}

/// Copies of the payload of `value`, a value of a sum type built with
/// constructor `variant`, as values of the payload's types.
pub fn destruct(c: &mut Ctx, program: &Program, value: &Var, variant: &Variant) -> Result<Vec<Var>, String> {
    let components = value.components();
    let parts: Vec<&Var> = variant.parts.iter().map(|&j| &components[j]).collect();
    let copies = copy_each(c, &parts)?;
    let mut copies = copies.into_iter();
    let mut values = Vec::with_capacity(variant.payload.len());
    for t in &variant.payload {
        let n = program.parts(t).map_or(1, |ps| ps.len());
        let mut group: Vec<Var> = copies.by_ref().take(n).collect();
        values.push(match program.opaque(t) {
            Some(o) => Var::Opaque {
                ty: o.name.clone(),
                parts: group,
            },
            None => group.pop().expect("a transparent payload value is one component"),
        });
    }
    Ok(values)
}
