//! Array expressions: literals, ranges, indexing and slicing with bounds
//! checks, in-place updates.

use futmlir_dialects::ir::{AttrKind, Dim, Scalar, Value};

use super::values::{leaf_types, structure, Scope, V};
use super::{internal, unsupported, DResult, Internaliser};
use crate::syntax::ast::{DimIndex, Exp, RangeEnd};
use crate::types::Type;

/// One index of an indexing or update, evaluated.
#[derive(Copy, Clone)]
pub(crate) enum Ix {
    Fix(Value),
    /// Offset, length, stride; `whole` when it is `:` (the whole dimension).
    Slice {
        start: Value,
        len: Value,
        stride: Value,
        whole: bool,
    },
}

impl<'a, 'c> Internaliser<'a, 'c> {
    /// `[e1, e2, ...]`.
    pub fn array_lit(&mut self, sc: &Scope<'a>, es: &'a [Exp], t: &Type) -> DResult<V<'a>> {
        if es.is_empty() {
            return self.empty_array(sc, t);
        }
        let mut rows = Vec::new();
        for e in es {
            let v = self.exp(sc, e)?;
            let ls = v.leaves().ok_or_else(|| internal(e.span, "an array of functions"))?;
            rows.push((v, ls));
        }
        let k = rows[0].1.len();
        let n = rows.len();
        let mut out = Vec::new();
        for j in 0..k {
            let col: Vec<Value> = rows.iter().map(|(_, ls)| ls[j]).collect();
            if let Some(v) = self.constant_column(&col) {
                out.push(v);
                continue;
            }
            let row0 = col[0];
            let want = self.dims(row0);
            let mut arr = {
                let nv = self.const_i64(n as i64);
                let t = self.ctx.value_type(row0);
                let mut d = vec![Dim::Const(n as u64)];
                d.extend(self.dims(row0));
                let rt = self.with_dims(t, d);
                self.op1("soac.replicate", &[nv, row0], rt, &[])
            };
            for (i, &r) in col.iter().enumerate().skip(1) {
                let r = self.coerce(r, &want, "the rows of an array literal have different sizes")?;
                let iv = self.const_i64(i as i64);
                let t = self.ctx.value_type(arr);
                arr = self.op1("soac.update", &[arr, iv, r], t, &[]);
            }
            out.push(arr);
        }
        Ok(rows[0].0.with_leaves(out))
    }

    /// A `soac.constant` array when every value of `col` is a scalar
    /// constant.
    fn constant_column(&mut self, col: &[Value]) -> Option<Value> {
        let mut attrs = Vec::new();
        let mut scalar = None;
        for &v in col {
            let op = self.ctx.defining_op(v)?;
            if self.ctx.op_name(op) != "soac.constant" {
                return None;
            }
            let s = self.ctx.as_scalar(self.ctx.value_type(v))?;
            scalar = Some(s);
            attrs.push(self.ctx.attr(op, "value")?);
        }
        Some(self.const_array(attrs, scalar?))
    }

    /// `[]` of type `t`: empty arrays with the inner sizes of the type.
    fn empty_array(&mut self, sc: &Scope<'a>, t: &Type) -> DResult<V<'a>> {
        let lts = leaf_types(t).map_err(|w| unsupported(self.span, &format!("empty arrays of {w}")))?;
        let mut leaves = Vec::new();
        for lt in lts {
            let mut dims = vec![Dim::Const(0)];
            dims.extend(self.dims_of_sizes(sc, lt.shape.get(1..).unwrap_or_default()));
            leaves.push(self.zeros(lt.scalar, dims)?);
        }
        let elem = match t {
            Type::Array { elem, .. } => (**elem).clone(),
            t => t.clone(),
        };
        Ok(structure(&elem, &mut leaves.into_iter()))
    }

    /// `a..b`, `a..<b`, `a..>b` and the forms with a second element.
    pub fn range(
        &mut self,
        sc: &Scope<'a>,
        start: &'a Exp,
        second: Option<&'a Exp>,
        end: &'a Exp,
        kind: RangeEnd,
    ) -> DResult<V<'a>> {
        let a = self.leaf(sc, start)?;
        let t = self
            .ctx
            .as_scalar(self.ctx.value_type(a))
            .ok_or_else(|| internal(start.span, "a range of non-scalars"))?;
        let sec = match second {
            Some(s) => Some(self.leaf(sc, s)?),
            None => None,
        };
        let b = self.leaf(sc, end)?;
        let a64 = self.convert(a, Scalar::I64);
        let b64 = self.convert(b, Scalar::I64);
        let zero = self.const_i64(0);
        let one = self.const_i64(1);
        let d = self.binop("sub", b64, a64);
        let (s64, valid, n) = match sec {
            None => {
                let s = self.const_i64(if kind == RangeEnd::DownToExclusive { -1 } else { 1 });
                let (valid, n) = match kind {
                    RangeEnd::Inclusive => (self.cmpop("le", a64, b64), self.binop("add", d, one)),
                    RangeEnd::UpToExclusive => (self.cmpop("le", a64, b64), d),
                    RangeEnd::DownToExclusive => (self.cmpop("ge", a64, b64), self.binop("sub", zero, d)),
                };
                (s, valid, n)
            }
            Some(sv) => {
                let s2 = self.convert(sv, Scalar::I64);
                let s = self.binop("sub", s2, a64);
                let (valid, n) = match kind {
                    RangeEnd::Inclusive => {
                        // Stride not zero, and pointing from start to end.
                        let nz = self.cmpop("ne", s, zero);
                        let d0 = self.cmpop("eq", d, zero);
                        let dpos = self.cmpop("gt", d, zero);
                        let spos = self.cmpop("gt", s, zero);
                        let same = self.cmpop("eq", dpos, spos);
                        let dir = self.binop("or", d0, same);
                        let valid = self.binop("and", nz, dir);
                        // The quotient of two numbers of one sign (or of 0).
                        let safe_s = self.select(nz, s, one);
                        let q = self.binop("div", d, safe_s);
                        (valid, self.binop("add", q, one))
                    }
                    RangeEnd::UpToExclusive => {
                        let spos = self.cmpop("gt", s, zero);
                        let dnn = self.cmpop("ge", d, zero);
                        let valid = self.binop("and", spos, dnn);
                        let safe_s = self.select(spos, s, one);
                        let sm1 = self.binop("sub", safe_s, one);
                        let num = self.binop("add", d, sm1);
                        (valid, self.binop("div", num, safe_s))
                    }
                    RangeEnd::DownToExclusive => {
                        let sneg = self.cmpop("lt", s, zero);
                        let dnp = self.cmpop("le", d, zero);
                        let valid = self.binop("and", sneg, dnp);
                        let ns = self.binop("sub", zero, s);
                        let safe_s = self.select(sneg, ns, one);
                        let nd = self.binop("sub", zero, d);
                        let sm1 = self.binop("sub", safe_s, one);
                        let num = self.binop("add", nd, sm1);
                        (valid, self.binop("div", num, safe_s))
                    }
                };
                (s, valid, n)
            }
        };
        let op = match kind {
            RangeEnd::Inclusive => "...",
            RangeEnd::UpToExclusive => "..<",
            RangeEnd::DownToExclusive => "..>",
        };
        let mut args = vec![a64];
        let mid = match sec {
            Some(x) => {
                args.push(self.convert(x, Scalar::I64));
                "..{1}"
            }
            None => "",
        };
        let end = format!("{{{}}}", args.len());
        args.push(b64);
        self.assert_with(valid, &format!("Range {{0}}{mid}{op}{end} is invalid."), &args);
        // An invalid range never gets here; keep the size non-negative
        // for the verifier-free reader.
        let is = if t == Scalar::I64 && self.int_value(a) == Some(0) && self.int_value(s64) == Some(1) {
            let rt = self.array_type(Scalar::I64, vec![Dim::Value(n)]);
            self.op1("soac.iota", &[n], rt, &[])
        } else {
            let st = self.convert(s64, t);
            let rt = self.array_type(t, vec![Dim::Value(n)]);
            self.op1("soac.iota", &[n, a, st], rt, &[])
        };
        Ok(V::Leaf(is))
    }

    /// Evaluate indices against the sizes of `l0` (the first leaf of the
    /// indexed array), with bounds checks.
    fn indices(&mut self, sc: &Scope<'a>, l0: Value, idx: &'a [DimIndex]) -> DResult<Vec<Ix>> {
        if idx.len() > self.rank(l0) {
            return Err(internal(self.span, "too many indices"));
        }
        let mut out = Vec::new();
        let mut conds = Vec::new();
        // The index as the message shows it (`{0}:{1}` over `shown`).
        let mut pieces: Vec<String> = Vec::new();
        let mut shown: Vec<Value> = Vec::new();
        for (d, ix) in idx.iter().enumerate() {
            let n = self.size(l0, d)?;
            match ix {
                DimIndex::Fix(e) => {
                    // An index of any integer type (see `check_index`).
                    let i = self.leaf(sc, e)?;
                    let i = self.convert(i, Scalar::I64);
                    if !self.unsafe_ && !self.known_in_bounds(i, n) {
                        let hi = self.cmpop("lt", i, n);
                        if matches!(self.int_value(i), Some(c) if c >= 0) {
                            conds.push(hi);
                        } else {
                            let zero = self.const_i64(0);
                            let lo = self.cmpop("ge", i, zero);
                            conds.push(self.binop("and", lo, hi));
                        }
                    }
                    pieces.push(format!("{{{}}}", shown.len()));
                    shown.push(i);
                    out.push(Ix::Fix(i));
                }
                DimIndex::Slice { start, end, stride } => {
                    let parts = (start.as_ref(), end.as_ref(), stride.as_ref());
                    let (ix, piece) = self.slice_bounds(sc, n, parts, &mut conds, &mut shown)?;
                    pieces.push(piece);
                    out.push(ix);
                }
            }
        }
        if !self.unsafe_ {
            if let Some(c) = self.and_all(conds) {
                // Futhark's message (the interpreter's), with the index as
                // written and the shape (at most 15 values fit).
                let rank = self.rank(l0);
                if shown.len() + rank <= futmlir_dialects::imp::verify::MAX_ASSERT_ARGS {
                    let mut args = shown.clone();
                    for d in 0..rank {
                        args.push(self.size(l0, d)?);
                    }
                    let shape: String = (0..rank).map(|d| format!("[{{{}}}]", shown.len() + d)).collect();
                    let msg = format!(
                        "Index [{}] out of bounds for array of shape {shape}.",
                        pieces.join(", ")
                    );
                    self.assert_with(c, &msg, &args);
                } else {
                    self.assert(c, "index out of bounds");
                }
            }
        }
        Ok(out)
    }

    /// The condition `a <= b`, or `None` when it holds statically.
    fn le(&mut self, a: Value, b: Value) -> Option<Value> {
        if a == b || matches!((self.int_value(a), self.int_value(b)), (Some(x), Some(y)) if x <= y) {
            return None;
        }
        Some(self.cmpop("le", a, b))
    }

    /// Whether `0 <= i < n` is known statically.
    fn known_in_bounds(&self, i: Value, n: Value) -> bool {
        if self.facts.contains(&(i, n)) {
            return true;
        }
        matches!((self.int_value(i), self.int_value(n)), (Some(a), Some(b)) if 0 <= a && a < b)
    }

    /// The offset, length and stride of `start:end:stride` in a dimension
    /// of size `n`; the bounds conditions go to `conds`.
    /// `start:end:stride` of a dimension of size `n`: the slice, and the
    /// template piece showing it in an out-of-bounds message (its values
    /// pushed to `shown`).
    fn slice_bounds(
        &mut self,
        sc: &Scope<'a>,
        n: Value,
        (start, end, stride): (Option<&'a Exp>, Option<&'a Exp>, Option<&'a Exp>),
        conds: &mut Vec<Value>,
        shown: &mut Vec<Value>,
    ) -> DResult<(Ix, String)> {
        let s: i64 = match stride {
            None => 1,
            Some(e) => match e.as_const_int() {
                Some(s) if s != 0 => s,
                _ => return self.slice_bounds_dynamic(sc, n, (start, end, e), conds, shown),
            },
        };
        let sv = self.const_i64(s);
        let abs = self.const_i64(s.abs());
        let one = self.const_i64(1);
        let zero = self.const_i64(0);
        let (st, en, mut piece) = self.slice_ends(sc, start, end, shown)?;
        if stride.is_some() {
            piece.push_str(&format!(":{s}"));
        }
        let whole = st.is_none() && en.is_none() && s == 1;
        let (st, en) = if s > 0 {
            (st.unwrap_or(zero), en.unwrap_or(n))
        } else {
            let last = self.binop("sub", n, one);
            let before = self.const_i64(-1);
            let checked = st.is_some() || en.is_some();
            let r = (st.unwrap_or(last), en.unwrap_or(before));
            if !checked {
                let am1 = self.binop("sub", abs, one);
                let num = self.binop("add", n, am1);
                let len = self.binop("div", num, abs);
                let ix = Ix::Slice {
                    start: r.0,
                    len,
                    stride: sv,
                    whole: false,
                };
                return Ok((ix, piece));
            }
            r
        };
        let len = if whole {
            n
        } else if s > 0 {
            let d = self.binop("sub", en, st);
            if s == 1 {
                d
            } else {
                let am1 = self.binop("sub", abs, one);
                let num = self.binop("add", d, am1);
                self.binop("div", num, abs)
            }
        } else {
            let d = self.binop("sub", st, en);
            let am1 = self.binop("sub", abs, one);
            let num = self.binop("add", d, am1);
            self.binop("div", num, abs)
        };
        if (start.is_some() || end.is_some()) && !self.unsafe_ {
            // See Note [Slice bounds] in interp.
            let cs = if s == 1 {
                vec![self.le(zero, st), self.le(st, en), self.le(en, n)]
            } else if s > 0 {
                let k1 = self.binop("sub", len, one);
                let step = self.binop("mul", k1, sv);
                let last = self.binop("add", st, step);
                let nm1 = self.binop("sub", n, one);
                vec![self.le(zero, st), self.le(st, en), self.le(st, n), self.le(last, nm1)]
            } else {
                // Nonempty: the elements are in bounds; empty: `-1 <= i
                // == j <= n`.
                let k1 = self.binop("sub", len, one);
                let step = self.binop("mul", k1, sv);
                let last = self.binop("add", st, step);
                let nm1 = self.binop("sub", n, one);
                let m1 = self.const_i64(-1);
                let nonempty = [self.le(zero, last), self.le(en, st), self.le(st, nm1)];
                let nonempty = self.and_all(nonempty.into_iter().flatten().collect());
                let eq = self.cmpop("eq", st, en);
                let empty = [Some(eq), self.le(m1, st), self.le(st, n)];
                let empty = self.and_all(empty.into_iter().flatten().collect());
                match (nonempty, empty) {
                    (Some(a), Some(b)) => vec![Some(self.binop("or", a, b))],
                    _ => Vec::new(),
                }
            };
            if let Some(c) = self.and_all(cs.into_iter().flatten().collect()) {
                conds.push(c);
            }
        }
        let ix = Ix::Slice {
            start: st,
            len,
            stride: sv,
            whole,
        };
        Ok((ix, piece))
    }

    /// The start and end of a slice, if written, and the template piece
    /// showing them in an out-of-bounds message (`{0}:{1}`, their values
    /// pushed to `shown`).
    fn slice_ends(
        &mut self,
        sc: &Scope<'a>,
        start: Option<&'a Exp>,
        end: Option<&'a Exp>,
        shown: &mut Vec<Value>,
    ) -> DResult<(Option<Value>, Option<Value>, String)> {
        let mut ends = [None, None];
        let mut piece = String::new();
        for (k, e) in [start, end].into_iter().enumerate() {
            if k == 1 {
                piece.push(':');
            }
            if let Some(e) = e {
                let v = self.leaf(sc, e)?;
                piece.push_str(&format!("{{{}}}", shown.len()));
                shown.push(v);
                ends[k] = Some(v);
            }
        }
        Ok((ends[0], ends[1], piece))
    }

    /// [`Self::slice_bounds`] with a stride known only at run time (or
    /// zero): both signs' formulas, selected by the stride's sign. A zero
    /// stride is out of bounds (Note [Slice bounds] in interp).
    fn slice_bounds_dynamic(
        &mut self,
        sc: &Scope<'a>,
        n: Value,
        (start, end, stride): (Option<&'a Exp>, Option<&'a Exp>, &'a Exp),
        conds: &mut Vec<Value>,
        shown: &mut Vec<Value>,
    ) -> DResult<(Ix, String)> {
        let sv = self.leaf(sc, stride)?;
        let zero = self.const_i64(0);
        let one = self.const_i64(1);
        let m1 = self.const_i64(-1);
        let pos = self.cmpop("gt", sv, zero);
        let nm1 = self.binop("sub", n, one);
        let (st, en, mut piece) = self.slice_ends(sc, start, end, shown)?;
        piece.push_str(&format!(":{{{}}}", shown.len()));
        shown.push(sv);
        let st = match st {
            Some(v) => v,
            None => self.select(pos, zero, nm1),
        };
        let en = match en {
            Some(v) => v,
            None => self.select(pos, n, m1),
        };
        // len = (en - st + s - sign s) / s, rounding the count up; the
        // division by a zero stride divides by 1 instead (the bounds
        // check fails then).
        let is_zero = self.cmpop("eq", sv, zero);
        let safe = self.select(is_zero, one, sv);
        let sign = self.select(pos, one, m1);
        let d = self.binop("sub", en, st);
        let d = self.binop("add", d, safe);
        let num = self.binop("sub", d, sign);
        let len = self.binop("div", num, safe);
        if !self.unsafe_ {
            let k1 = self.binop("sub", len, one);
            let step = self.binop("mul", k1, sv);
            let last = self.binop("add", st, step);
            let up = [self.le(zero, st), self.le(st, en), self.le(st, n), self.le(last, nm1)];
            let up = self.and_all(up.into_iter().flatten().collect());
            let down_nonempty = [self.le(zero, last), self.le(en, st), self.le(st, nm1)];
            let down_nonempty = self.and_all(down_nonempty.into_iter().flatten().collect());
            let eq = self.cmpop("eq", st, en);
            let down_empty = [Some(eq), self.le(m1, st), self.le(st, n)];
            let down_empty = self.and_all(down_empty.into_iter().flatten().collect());
            let yes = self.const_bool(true);
            let up = up.unwrap_or(yes);
            let down = match (down_nonempty, down_empty) {
                (Some(a), Some(b)) => self.binop("or", a, b),
                _ => yes,
            };
            let ok = self.select(pos, up, down);
            let nonzero = self.cmpop("ne", sv, zero);
            conds.push(self.binop("and", nonzero, ok));
        }
        let ix = Ix::Slice {
            start: st,
            len,
            stride: sv,
            whole: false,
        };
        Ok((ix, piece))
    }

    /// `a[i, j:k, ...]`.
    pub fn index(&mut self, sc: &Scope<'a>, v: &V<'a>, idx: &'a [DimIndex]) -> DResult<V<'a>> {
        let leaves = self.array_leaves(v, self.span)?;
        let ixs = self.indices(sc, leaves[0], idx)?;
        let mut out = Vec::new();
        for l in leaves {
            out.push(self.index_leaf(l, &ixs)?);
        }
        Ok(v.with_leaves(out))
    }

    fn index_leaf(&mut self, l: Value, ixs: &[Ix]) -> DResult<Value> {
        let first_slice = ixs.iter().position(|i| matches!(i, Ix::Slice { .. }));
        let fix_after = first_slice.is_some_and(|p| ixs[p..].iter().any(|i| matches!(i, Ix::Fix(_))));
        let mut arr = l;
        let mut order: Vec<Ix> = ixs.to_vec();
        if fix_after {
            // Bring the fixed dimensions to the front.
            let rank = self.rank(l);
            let mut perm: Vec<usize> = (0..ixs.len()).filter(|&k| matches!(ixs[k], Ix::Fix(_))).collect();
            perm.extend((0..ixs.len()).filter(|&k| matches!(ixs[k], Ix::Slice { .. })));
            perm.extend(ixs.len()..rank);
            order = perm.iter().take(ixs.len()).map(|&k| ixs[k]).collect();
            arr = self.rearrange(arr, &perm);
        }
        let fixes: Vec<Value> = order
            .iter()
            .take_while(|i| matches!(i, Ix::Fix(_)))
            .map(|i| match i {
                Ix::Fix(v) => *v,
                Ix::Slice { .. } => unreachable!(),
            })
            .collect();
        if !fixes.is_empty() {
            let t = self.ctx.value_type(arr);
            let dims = self.dims(arr)[fixes.len()..].to_vec();
            let rt = self.with_dims(t, dims);
            let mut ops = vec![arr];
            ops.extend(fixes.iter().copied());
            arr = self.op1("soac.index", &ops, rt, &[]);
        }
        let slices = &order[fixes.len()..];
        if slices.iter().any(|i| matches!(i, Ix::Slice { whole: false, .. })) {
            arr = self.slice(arr, slices);
        }
        Ok(arr)
    }

    /// `soac.slice` of the leading dimensions.
    fn slice(&mut self, arr: Value, slices: &[Ix]) -> Value {
        let mut ops = vec![arr];
        let mut dims = Vec::new();
        for s in slices {
            if let Ix::Slice { start, len, stride, .. } = *s {
                ops.extend([start, len, stride]);
                dims.push(Dim::Value(len));
            }
        }
        dims.extend(self.dims(arr)[slices.len()..].iter().copied());
        let t = self.ctx.value_type(arr);
        let rt = self.with_dims(t, dims);
        self.op1("soac.slice", &ops, rt, &[])
    }

    /// `soac.slice` of the outer dimension.
    pub fn slice1(&mut self, arr: Value, start: Value, len: Value, stride: Value) -> Value {
        self.slice(
            arr,
            &[Ix::Slice {
                start,
                len,
                stride,
                whole: false,
            }],
        )
    }

    /// `soac.rearrange` with permutation `perm`.
    pub fn rearrange(&mut self, arr: Value, perm: &[usize]) -> Value {
        let dims = self.dims(arr);
        let new: Vec<Dim> = perm.iter().map(|&p| dims[p]).collect();
        let t = self.ctx.value_type(arr);
        let rt = self.with_dims(t, new);
        let elems = perm.iter().map(|&p| self.ctx.int_attr(p as i64, Scalar::I64)).collect();
        let a = self.ctx.intern_attr(AttrKind::Array(elems));
        self.op1("soac.rearrange", &[arr], rt, &[("perm", a)])
    }

    /// `a with [i, j:k] = v`: `soac.update` for each leaf (a loop of them
    /// for slices).
    pub fn update(&mut self, sc: &Scope<'a>, arr: &V<'a>, idx: &'a [DimIndex], val: V<'a>) -> DResult<V<'a>> {
        let leaves = self.array_leaves(arr, self.span)?;
        let vals = val
            .leaves()
            .ok_or_else(|| internal(self.span, "an update with a function"))?;
        if vals.len() != leaves.len() {
            return Err(internal(self.span, "an update with a value of another type"));
        }
        let ixs = self.indices(sc, leaves[0], idx)?;
        // The value has the shape of the indexed part.
        let mut shaped = Vec::new();
        for (&l, &v) in leaves.iter().zip(&vals) {
            let mut want: Vec<Dim> = ixs
                .iter()
                .filter_map(|i| match i {
                    Ix::Slice { len, .. } => Some(Dim::Value(*len)),
                    Ix::Fix(_) => None,
                })
                .collect();
            want.extend(self.dims(l)[ixs.len()..].iter().copied());
            shaped.push(self.coerce(
                v,
                &want,
                "the value does not have the size of the updated part of the array",
            )?);
        }
        let out = self.update_at(leaves, &ixs, &shaped, Vec::new(), Vec::new())?;
        Ok(arr.with_leaves(out))
    }

    /// Update `arrs` at the indices `ixs`; `done` are the array indices
    /// chosen so far, `vdone` the corresponding indices into `vals` (one
    /// per slice), chosen by loops over the slices.
    fn update_at(
        &mut self,
        arrs: Vec<Value>,
        ixs: &[Ix],
        vals: &[Value],
        done: Vec<Value>,
        vdone: Vec<Value>,
    ) -> DResult<Vec<Value>> {
        if done.len() == ixs.len() {
            let mut out = Vec::new();
            for (a, &v) in arrs.into_iter().zip(vals) {
                let x = if vdone.is_empty() {
                    v
                } else {
                    let t = self.ctx.value_type(v);
                    let rt = self.with_dims(t, self.dims(v)[vdone.len()..].to_vec());
                    let mut ops = vec![v];
                    ops.extend(vdone.iter().copied());
                    self.op1("soac.index", &ops, rt, &[])
                };
                let t = self.ctx.value_type(a);
                let mut ops = vec![a];
                ops.extend(done.iter().copied());
                ops.push(x);
                out.push(self.op1("soac.update", &ops, t, &[]));
            }
            return Ok(out);
        }
        match ixs[done.len()] {
            Ix::Fix(i) => {
                let mut d = done;
                d.push(i);
                self.update_at(arrs, ixs, vals, d, vdone)
            }
            Ix::Slice { start, len, stride, .. } => {
                let i64t = self.ctx.scalar(Scalar::I64);
                let mut args = vec![i64t];
                args.extend(arrs.iter().map(|&a| self.ctx.value_type(a)));
                let (r, _, ()) = self.region(&args, |s, bargs| {
                    let k = bargs[0];
                    let off = s.binop("mul", k, stride);
                    let i = s.binop("add", start, off);
                    let mut d = done.clone();
                    d.push(i);
                    let mut vd = vdone.clone();
                    vd.push(k);
                    let ys = s.update_at(bargs[1..].to_vec(), ixs, vals, d, vd)?;
                    Ok((ys, ()))
                })?;
                let mut ops = vec![len];
                ops.extend(arrs.iter().copied());
                let rtys: Vec<_> = arrs.iter().map(|&a| self.ctx.value_type(a)).collect();
                let form = self.ctx.string_attr("for");
                let op = self.op("soac.loop", &ops, &rtys, &[("form", form)], vec![r]);
                Ok(self.results(op))
            }
        }
    }
}
