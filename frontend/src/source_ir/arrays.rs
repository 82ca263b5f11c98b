//! Array expressions: literals, ranges, indexing and slicing, in-place
//! updates, size coercions.
//!
//! `source.index` fixes leading dimensions and `source.slice` slices
//! leading dimensions by (offset, length, stride) triples, so an index
//! `a[i, j:k, l]` is an index, then a slice, then a `map` of the rest over
//! the sliced dimension; an update of a slice `a with [i:j] = v` is a
//! `source.loop` of element updates. The bounds are computed before any of
//! these ops, so that the types of their results name only values outside
//! the `map`s and loops.

use futmlir_dialects::ir::{Dim, Scalar, Type as IrType, TypeKind, Value};

use super::{internal, unsupported, DResult, Emitter, Scope};
use crate::internalise::values::prim;
use crate::syntax::ast::{DimIndex, Exp, RangeEnd};

/// One index of an indexing or update, evaluated.
#[derive(Copy, Clone)]
enum Ix {
    Fix(Value),
    /// Offset, length and stride.
    Slice {
        start: Value,
        len: Value,
        stride: Value,
    },
    /// `:`, the whole dimension, where no triple is needed for it.
    Whole,
}

impl<'a, 'c> Emitter<'a, 'c> {
    /// `[e1, e2, ...]`.
    pub fn array_lit(&mut self, sc: &Scope<'a>, e: &'a Exp, es: &'a [Exp]) -> DResult<Value> {
        let mut vs = Vec::new();
        for x in es {
            vs.push(self.exp(sc, x)?);
        }
        let t = self.ty(sc, e)?;
        Ok(self.op1("source.array_lit", &vs, t, &[]))
    }

    /// `a..b`, `a..<b`, `a..>b` and the forms with a second element.
    pub fn range(
        &mut self,
        sc: &Scope<'a>,
        e: &'a Exp,
        start: &'a Exp,
        second: Option<&'a Exp>,
        end: &'a Exp,
        kind: RangeEnd,
    ) -> DResult<Value> {
        let mut vs = vec![self.exp(sc, start)?];
        if let Some(s) = second {
            vs.push(self.exp(sc, s)?);
        }
        vs.push(self.exp(sc, end)?);
        let t = self.ty(sc, e)?;
        let k = self.ctx.string_attr(match kind {
            RangeEnd::Inclusive => "inclusive",
            RangeEnd::UpToExclusive => "up_to_exclusive",
            RangeEnd::DownToExclusive => "down_to_exclusive",
        });
        Ok(self.op1("source.range", &vs, t, &[("kind", k)]))
    }

    /// `v` with type `t`, which differs in sizes only: `source.coerce`
    /// unless the types are the same.
    pub fn coerce(&mut self, v: Value, t: IrType) -> Value {
        if self.value_type(v) == t {
            return v;
        }
        self.op1("source.coerce", &[v], t, &[])
    }

    /// `a[i, j:k:s, ...]`.
    pub fn index(&mut self, sc: &Scope<'a>, arr: Value, idx: &'a [DimIndex]) -> DResult<Value> {
        let ixs = self.indices(sc, arr, idx, false)?;
        self.index_with(arr, &ixs)
    }

    /// An index of any integer type as the `i64` the index ops take.
    fn index_i64(&mut self, i: Value) -> DResult<Value> {
        let i64t = self.ctx.scalar(Scalar::I64);
        match self.ctx.as_scalar(self.value_type(i)) {
            Some(Scalar::I64) | None => Ok(i),
            Some(t) => self.builtin(&format!("i64.{}", prim(t).name()), vec![i], i64t),
        }
    }

    /// Evaluate the indices into `arr`. A `:` gets a triple where a slice
    /// op needs one: in an update (`every`), or before a slice with no
    /// fixed index after it.
    fn indices(&mut self, sc: &Scope<'a>, arr: Value, idx: &'a [DimIndex], every: bool) -> DResult<Vec<Ix>> {
        let rank = self.dims(self.value_type(arr)).len();
        if idx.len() > rank {
            return Err(internal(self.span, "more indices than dimensions"));
        }
        let mut out = Vec::new();
        for (j, ix) in idx.iter().enumerate() {
            out.push(match ix {
                DimIndex::Fix(e) => {
                    let i = self.exp(sc, e)?;
                    Ix::Fix(self.index_i64(i)?)
                }
                DimIndex::Slice { start, end, stride } => {
                    let whole_needs_triple = every || {
                        let later = &idx[j + 1..];
                        !later.iter().any(|x| matches!(x, DimIndex::Fix(_))) && later.iter().any(|x| !is_whole(x))
                    };
                    self.slice_bounds(
                        sc,
                        arr,
                        j,
                        start.as_ref(),
                        end.as_ref(),
                        stride.as_ref(),
                        whole_needs_triple,
                    )?
                }
            });
        }
        Ok(out)
    }

    /// The offset, length and stride of `start:end:stride` in dimension
    /// `j` of `arr` (Futhark's defaults: `0` and the size, or from the last
    /// element down for a negative stride).
    #[allow(clippy::too_many_arguments)]
    fn slice_bounds(
        &mut self,
        sc: &Scope<'a>,
        arr: Value,
        j: usize,
        start: Option<&'a Exp>,
        end: Option<&'a Exp>,
        stride: Option<&'a Exp>,
        whole_needs_triple: bool,
    ) -> DResult<Ix> {
        let s: i64 = match stride {
            None => 1,
            Some(e) => match e.as_const_int() {
                Some(s) if s != 0 => s,
                Some(_) => return Err(unsupported(e.span, "slices with stride 0")),
                None => return self.slice_bounds_strided(sc, arr, j, start, end, e),
            },
        };
        if start.is_none() && end.is_none() && s == 1 && !whole_needs_triple {
            return Ok(Ix::Whole);
        }
        let st = match start {
            Some(e) => Some(self.exp(sc, e)?),
            None => None,
        };
        let en = match end {
            Some(e) => Some(self.exp(sc, e)?),
            None => None,
        };
        let stride = self.const_i64(s);
        let (start, len) = if s > 0 {
            let start = match st {
                Some(v) => v,
                None => self.const_i64(0),
            };
            let end = match en {
                Some(v) => v,
                None => self.size_of(arr, j)?,
            };
            let d = match st {
                None => end,
                Some(_) => self.binop("sub", end, start),
            };
            let len = if s == 1 { d } else { self.ceil_div(d, s) };
            (start, len)
        } else {
            let start = match st {
                Some(v) => v,
                None => {
                    let n = self.size_of(arr, j)?;
                    let one = self.const_i64(1);
                    self.binop("sub", n, one)
                }
            };
            let end = match en {
                Some(v) => v,
                None => self.const_i64(-1),
            };
            let d = self.binop("sub", start, end);
            (start, self.ceil_div(d, -s))
        };
        Ok(Ix::Slice { start, len, stride })
    }

    /// `start:end:stride` with a stride that is not a constant: the
    /// defaults depend on its sign, and the length is
    /// `(end - start + stride - signum stride) / stride`.
    fn slice_bounds_strided(
        &mut self,
        sc: &Scope<'a>,
        arr: Value,
        j: usize,
        start: Option<&'a Exp>,
        end: Option<&'a Exp>,
        stride: &'a Exp,
    ) -> DResult<Ix> {
        let st = match start {
            Some(e) => Some(self.exp(sc, e)?),
            None => None,
        };
        let en = match end {
            Some(e) => Some(self.exp(sc, e)?),
            None => None,
        };
        let sv = self.exp(sc, stride)?;
        let zero = self.const_i64(0);
        let up = self.cmpop("gt", sv, zero);
        let n = match (st, en) {
            (Some(_), Some(_)) => zero,
            _ => self.size_of(arr, j)?,
        };
        let start = match st {
            Some(v) => v,
            None => {
                let one = self.const_i64(1);
                let last = self.binop("sub", n, one);
                self.select(up, zero, last)?
            }
        };
        let end = match en {
            Some(v) => v,
            None => {
                let before = self.const_i64(-1);
                self.select(up, n, before)?
            }
        };
        let d = self.binop("sub", end, start);
        let sg = self.unop("signum", sv);
        let ds = self.binop("add", d, sv);
        let num = self.binop("sub", ds, sg);
        let len = self.binop("div", num, sv);
        Ok(Ix::Slice { start, len, stride: sv })
    }

    /// `if c then a else b` of two values.
    fn select(&mut self, c: Value, a: Value, b: Value) -> DResult<Value> {
        let t = self.value_type(a);
        let r1 = self.region(&[], |_, _| Ok(vec![a]))?;
        let r2 = self.region(&[], |_, _| Ok(vec![b]))?;
        let op = self.op("source.if", &[c], &[t], &[], vec![r1, r2]);
        Ok(self.ctx.result(op, 0))
    }

    /// `(d + k - 1) / k` for a constant `k > 1`.
    fn ceil_div(&mut self, d: Value, k: i64) -> Value {
        if k == 1 {
            return d;
        }
        let km1 = self.const_i64(k - 1);
        let num = self.binop("add", d, km1);
        let kv = self.const_i64(k);
        self.binop("div", num, kv)
    }

    /// Index `arr` with evaluated indices: fixed leading dimensions with
    /// `source.index`, sliced ones with `source.slice`, and a fixed index
    /// after a slice by a `map` over the sliced dimension.
    fn index_with(&mut self, arr: Value, ixs: &[Ix]) -> DResult<Value> {
        let fixes: Vec<Value> = ixs
            .iter()
            .map_while(|i| match i {
                Ix::Fix(v) => Some(*v),
                _ => None,
            })
            .collect();
        let mut arr = arr;
        if !fixes.is_empty() {
            let t = self.value_type(arr);
            let rt = self.drop_dims(t, fixes.len());
            let mut ops = vec![arr];
            ops.extend(&fixes);
            arr = self.op1("source.index", &ops, rt, &[]);
        }
        let rest = &ixs[fixes.len()..];
        if !rest.iter().any(|i| matches!(i, Ix::Fix(_))) {
            let k = rest.iter().rposition(|i| !matches!(i, Ix::Whole)).map_or(0, |p| p + 1);
            return self.slice(arr, &rest[..k]);
        }
        // A slice (or `:`) then a fixed index: slice the outer dimension
        // and index each of its rows.
        let sliced = self.slice(arr, &rest[..1])?;
        let st = self.value_type(sliced);
        let row = self.drop_dims(st, 1);
        let mut inner = None;
        let r = self.region(&[row], |s, args| {
            let v = s.index_with(args[0], &rest[1..])?;
            inner = Some(s.value_type(v));
            Ok(vec![v])
        })?;
        let it = inner.ok_or_else(|| internal(self.span, "a map without a result"))?;
        let ft = self.ctx.intern_type(TypeKind::Function {
            inputs: vec![row],
            results: vec![it],
        });
        let f = self.op("source.lambda", &[], &[ft], &[], vec![r]);
        let f = self.ctx.result(f, 0);
        let n = self.dims(st).first().copied().unwrap_or(Dim::Unknown);
        let rt = self.array_of(it, vec![n]);
        let m = self.ctx.string_attr("map");
        Ok(self.op1("source.soac_call", &[f, sliced], rt, &[("soac", m)]))
    }

    /// `source.slice` of the leading dimensions by the triples of `ixs`
    /// (slices, or `:` with a triple); `arr` itself when there are none.
    fn slice(&mut self, arr: Value, ixs: &[Ix]) -> DResult<Value> {
        let mut ops = vec![arr];
        let mut dims = Vec::new();
        for ix in ixs {
            match *ix {
                Ix::Slice { start, len, stride } => {
                    ops.extend([start, len, stride]);
                    dims.push(Dim::Value(len));
                }
                Ix::Whole if ixs.len() == 1 => return Ok(arr),
                _ => return Err(internal(self.span, "a slice without bounds")),
            }
        }
        if dims.is_empty() {
            return Ok(arr);
        }
        let t = self.value_type(arr);
        let TypeKind::Array { elem, shape } = self.ctx.type_kind(t).clone() else {
            return Err(internal(self.span, "a slice of a value that is not an array"));
        };
        dims.extend(shape.get(ixs.len()..).unwrap_or_default());
        let rt = self.array_of(elem, dims);
        Ok(self.op1("source.slice", &ops, rt, &[]))
    }

    /// `arr with [idx] = value`: `source.update`, in a loop over each
    /// sliced dimension.
    pub fn update(&mut self, sc: &Scope<'a>, arr: Value, idx: &'a [DimIndex], value: &'a Exp) -> DResult<Value> {
        let ixs = self.indices(sc, arr, idx, true)?;
        let v = self.exp(sc, value)?;
        self.update_at(arr, &ixs, v, Vec::new(), Vec::new())
    }

    /// Update `arr` at `ixs` with `val`; `done` are the array indices
    /// chosen so far, `vdone` the indices into `val` (one per slice)
    /// chosen by the enclosing loops.
    fn update_at(&mut self, arr: Value, ixs: &[Ix], val: Value, done: Vec<Value>, vdone: Vec<Value>) -> DResult<Value> {
        let Some(ix) = ixs.get(done.len()) else {
            let x = if vdone.is_empty() {
                val
            } else {
                let vt = self.value_type(val);
                let rt = self.drop_dims(vt, vdone.len());
                let mut ops = vec![val];
                ops.extend(&vdone);
                self.op1("source.index", &ops, rt, &[])
            };
            let t = self.value_type(arr);
            let mut ops = vec![arr];
            ops.extend(&done);
            ops.push(x);
            return Ok(self.op1("source.update", &ops, t, &[]));
        };
        match *ix {
            Ix::Fix(i) => {
                let mut d = done;
                d.push(i);
                self.update_at(arr, ixs, val, d, vdone)
            }
            Ix::Slice { start, len, stride } => {
                let t = self.value_type(arr);
                let i64t = self.ctx.scalar(Scalar::I64);
                let r = self.region(&[i64t, t], |s, args| {
                    let (k, a) = (args[0], args[1]);
                    let off = s.binop("mul", k, stride);
                    let i = s.binop("add", start, off);
                    let mut d = done;
                    d.push(i);
                    let mut vd = vdone;
                    vd.push(k);
                    Ok(vec![s.update_at(a, ixs, val, d, vd)?])
                })?;
                let form = self.ctx.string_attr("for");
                let op = self.op("source.loop", &[len, arr], &[t], &[("form", form)], vec![r]);
                Ok(self.ctx.result(op, 0))
            }
            Ix::Whole => Err(internal(self.span, "an update of a slice without bounds")),
        }
    }
}

/// Whether an index is `:` (the whole dimension).
fn is_whole(ix: &DimIndex) -> bool {
    matches!(
        ix,
        DimIndex::Slice {
            start: None,
            end: None,
            stride: None
        }
    )
}
