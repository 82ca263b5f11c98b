//! Building IR: ops at the current insertion point, constants, scalar
//! operations, run-time checks, sizes, coercions and regions.

use futmlir_dialects::ir::{Attr, AttrKind, Builder, Dim, OpId, RegionId, Scalar, Type, TypeKind, Value};

use super::{internal, DResult, Internaliser};

impl<'a, 'c> Internaliser<'a, 'c> {
    /// Create an op at the end of the current block, at the current
    /// location.
    pub fn op(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(&str, Attr)],
        regions: Vec<RegionId>,
    ) -> OpId {
        let mut b = Builder::at_end(self.ctx, self.block);
        b.location = self.loc;
        b.op(name, operands, results, attrs, regions)
    }

    /// An op with one result; returns it.
    pub fn op1(&mut self, name: &str, operands: &[Value], result: Type, attrs: &[(&str, Attr)]) -> Value {
        let op = self.op(name, operands, &[result], attrs, Vec::new());
        self.ctx.result(op, 0)
    }

    pub fn results(&self, op: OpId) -> Vec<Value> {
        self.ctx.results(op).collect()
    }

    // ----- types -------------------------------------------------------------

    /// `[dims]s`, or the scalar `s` without dimensions.
    pub fn array_type(&mut self, s: Scalar, dims: Vec<Dim>) -> Type {
        let elem = self.ctx.scalar(s);
        self.array_of(elem, dims)
    }

    /// `[dims]elem` for a scalar type `elem`.
    pub fn array_of(&mut self, elem: Type, dims: Vec<Dim>) -> Type {
        if dims.is_empty() {
            return elem;
        }
        self.ctx.intern_type(TypeKind::Array { elem, shape: dims })
    }

    pub fn dims_of_type(&self, t: Type) -> Vec<Dim> {
        self.shape_of_type(t).to_vec()
    }

    /// The dimensions of `t`, borrowed from the context (for reading
    /// them without a copy).
    fn shape_of_type(&self, t: Type) -> &[Dim] {
        match self.ctx.type_kind(t) {
            TypeKind::Array { shape, .. } => shape,
            _ => &[],
        }
    }

    pub fn dims(&self, v: Value) -> Vec<Dim> {
        self.dims_of_type(self.ctx.value_type(v))
    }

    pub fn rank(&self, v: Value) -> usize {
        self.shape_of_type(self.ctx.value_type(v)).len()
    }

    /// The scalar element type of an array type (a scalar type is its own).
    pub fn elem_of(&self, t: Type) -> Type {
        match self.ctx.type_kind(t) {
            TypeKind::Array { elem, .. } => *elem,
            _ => t,
        }
    }

    /// The same element type with other dimensions.
    pub fn with_dims(&mut self, t: Type, dims: Vec<Dim>) -> Type {
        let e = self.elem_of(t);
        self.array_of(e, dims)
    }

    /// The type of one row of an array type.
    pub fn row_type(&mut self, t: Type) -> Type {
        let d = self.dims_of_type(t);
        self.with_dims(t, d.get(1..).unwrap_or_default().to_vec())
    }

    /// The type with every SSA size made existential (function signatures).
    pub fn existential(&mut self, t: Type) -> Type {
        let d: Vec<Dim> = self
            .dims_of_type(t)
            .into_iter()
            .map(|d| if let Dim::Value(_) = d { Dim::Unknown } else { d })
            .collect();
        self.with_dims(t, d)
    }

    // ----- constants ---------------------------------------------------------

    /// An integer constant of type `s`, wrapped to its width.
    pub fn const_int(&mut self, v: i64, s: Scalar) -> Value {
        if s == Scalar::Bool {
            return self.const_bool(v != 0);
        }
        if s.is_float() {
            return self.const_float(v as f64, s);
        }
        let a = self.ctx.int_attr(int_bits(v, s), s);
        let t = self.ctx.scalar(s);
        self.constant(a, t)
    }

    /// `soac.constant` with value `a`, made once per block (Note on
    /// `literals`).
    fn constant(&mut self, a: Attr, t: Type) -> Value {
        if let Some(v) = self.literals.get(&(self.block, a)) {
            return *v;
        }
        let v = self.op1("soac.constant", &[], t, &[("value", a)]);
        self.literals.insert((self.block, a), v);
        v
    }

    pub fn const_i64(&mut self, v: i64) -> Value {
        self.const_int(v, Scalar::I64)
    }

    pub fn const_float(&mut self, x: f64, s: Scalar) -> Value {
        if !s.is_float() {
            return self.const_int(x as i64, s);
        }
        let x = if s == Scalar::F32 { x as f32 as f64 } else { x };
        let ty = self.ctx.scalar(s);
        let a = self.ctx.intern_attr(AttrKind::Float { bits: x.to_bits(), ty });
        self.constant(a, ty)
    }

    pub fn const_bool(&mut self, b: bool) -> Value {
        let a = self.ctx.intern_attr(AttrKind::Bool(b));
        let t = self.ctx.scalar(Scalar::Bool);
        self.constant(a, t)
    }

    pub fn zero(&mut self, s: Scalar) -> Value {
        self.const_int(0, s)
    }

    /// The integer value of `v` when it is a constant.
    pub fn int_value(&self, v: Value) -> Option<i64> {
        let op = self.ctx.defining_op(v)?;
        if self.ctx.op_name(op) != "soac.constant" {
            return None;
        }
        match self.ctx.attr_kind(self.ctx.attr(op, "value")?) {
            AttrKind::Int { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    pub fn dim_const(&self, d: Dim) -> Option<i64> {
        match d {
            Dim::Const(c) => Some(c as i64),
            Dim::Value(v) => self.int_value(v),
            Dim::Unknown => None,
        }
    }

    /// Whether two dimensions are known to be equal.
    pub fn same_dim(&self, a: Dim, b: Dim) -> bool {
        if a == b && a != Dim::Unknown {
            return true;
        }
        matches!((self.dim_const(a), self.dim_const(b)), (Some(x), Some(y)) if x == y)
    }

    /// Whether array value `v`, not of type `t`, has the same sizes as `t`
    /// (the same element type and rank, each size [`Self::same_dim`]).
    pub fn same_sizes(&self, v: Value, t: Type) -> bool {
        let vt = self.ctx.value_type(v);
        if vt == t {
            return false;
        }
        let (a, b) = (self.ctx.type_kind(vt), self.ctx.type_kind(t));
        match (a, b) {
            (TypeKind::Array { elem: e1, shape: s1 }, TypeKind::Array { elem: e2, shape: s2 }) => {
                e1 == e2 && s1.len() == s2.len() && s1.iter().zip(s2).all(|(&x, &y)| self.same_dim(x, y))
            }
            _ => false,
        }
    }

    /// A dimension as an `i64` value.
    pub fn dim_value(&mut self, d: Dim) -> DResult<Value> {
        match d {
            Dim::Value(v) => Ok(v),
            Dim::Const(c) => Ok(self.const_i64(c as i64)),
            Dim::Unknown => Err(internal(self.span, "an unnamed size")),
        }
    }

    /// Dimension `j` of array `v` as an `i64` value.
    pub fn size(&mut self, v: Value, j: usize) -> DResult<Value> {
        match self.shape_of_type(self.ctx.value_type(v)).get(j).copied() {
            Some(Dim::Unknown) => {
                let i64t = self.ctx.scalar(Scalar::I64);
                let a = self.ctx.int_attr(j as i64, Scalar::I64);
                Ok(self.op1("soac.size", &[v], i64t, &[("dim", a)]))
            }
            Some(d) => self.dim_value(d),
            None => Err(internal(self.span, "the size of a missing dimension")),
        }
    }

    // ----- scalar operations -------------------------------------------------

    pub fn binop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.ctx.value_type(a);
        // Sizes and indices computed from constants stay constants (so that
        // bounds and size checks on them disappear).
        if self.ctx.as_scalar(t) == Some(Scalar::I64) {
            if let (Some(x), Some(y)) = (self.int_value(a), self.int_value(b)) {
                let r = match kind {
                    "add" => Some(x.wrapping_add(y)),
                    "sub" => Some(x.wrapping_sub(y)),
                    "mul" => Some(x.wrapping_mul(y)),
                    _ => None,
                };
                if let Some(r) = r {
                    return self.const_i64(r);
                }
            }
        }
        let k = self.ctx.string_attr(kind);
        self.op1("soac.binop", &[a, b], t, &[("kind", k)])
    }

    pub fn cmpop(&mut self, kind: &str, a: Value, b: Value) -> Value {
        let t = self.ctx.scalar(Scalar::Bool);
        let k = self.ctx.string_attr(kind);
        self.op1("soac.cmpop", &[a, b], t, &[("kind", k)])
    }

    pub fn unop(&mut self, kind: &str, a: Value) -> Value {
        let t = self.ctx.value_type(a);
        let k = self.ctx.string_attr(kind);
        self.op1("soac.unop", &[a], t, &[("kind", k)])
    }

    /// `soac.ternop {kind}` (`fma`, `mad`) on three floats of one type.
    pub fn ternop(&mut self, kind: &str, a: Value, b: Value, c: Value) -> Value {
        let t = self.ctx.value_type(a);
        let k = self.ctx.string_attr(kind);
        self.op1("soac.ternop", &[a, b, c], t, &[("kind", k)])
    }

    pub fn convop(&mut self, kind: &str, a: Value, to: Scalar) -> Value {
        let t = self.ctx.scalar(to);
        let k = self.ctx.string_attr(kind);
        self.op1("soac.convop", &[a], t, &[("kind", k)])
    }

    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let t = self.ctx.value_type(a);
        self.op1("soac.select", &[c, a, b], t, &[])
    }

    /// The conjunction of `cs` (`None` when empty).
    pub fn and_all(&mut self, cs: Vec<Value>) -> Option<Value> {
        let mut it = cs.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |acc, c| self.binop("and", acc, c)))
    }

    /// `soac.assert` with the message and the current source location.
    pub fn assert(&mut self, c: Value, msg: &str) {
        self.assert_with(c, msg, &[]);
    }

    /// An assertion whose message is a template over `args` (i64 values:
    /// `{0}`, `{1}`, ...; see `soac.assert`).
    pub fn assert_with(&mut self, c: Value, msg: &str, args: &[Value]) {
        let m = format!("{msg} ({})", self.where_());
        let a = self.ctx.string_attr(&m);
        let mut operands = vec![c];
        operands.extend_from_slice(args);
        self.op("soac.assert", &operands, &[], &[("message", a)], Vec::new());
    }

    /// A check that a size the program computes (`iota n`, `replicate n
    /// x`) is not negative (Note [Run-time checks]); none for a constant.
    /// The message is the interpreter's: `iota` is `0..1..<n` in Futhark,
    /// so its error is the range's.
    pub fn assert_size(&mut self, n: Value, what: &str) {
        if matches!(self.int_value(n), Some(c) if c >= 0) {
            return;
        }
        let zero = self.const_i64(0);
        let c = self.cmpop("ge", n, zero);
        let msg = match what {
            "iota" => "Range 0..1..<{0} is invalid.".to_string(),
            _ => format!("{what}: negative size {{0}}"),
        };
        self.assert_with(c, &msg, &[n]);
    }

    /// A conversion between scalar types, as Futhark's `T.from` does it.
    pub fn convert(&mut self, v: Value, to: Scalar) -> Value {
        let Some(from) = self.ctx.as_scalar(self.ctx.value_type(v)) else {
            return v;
        };
        if from == to {
            return v;
        }
        // A small constant converts here (the prelude's `T.i32 0`, the
        // neutral element of `f32.sum`), so no op is left for it.
        if let Some(c) = self
            .int_value(v)
            .filter(|c| from.is_signed_int() && (0..=127).contains(c))
        {
            if to.is_float() {
                return self.const_float(c as f64, to);
            }
            if to.is_int() {
                return self.const_int(c, to);
            }
        }
        match (from, to) {
            (Scalar::Bool, t) if t.is_int() => self.convop("btoi", v, t),
            (Scalar::Bool, t) => {
                let i = self.convop("btoi", v, Scalar::I32);
                self.convop("sitofp", i, t)
            }
            (f, Scalar::Bool) => {
                let z = self.zero(f);
                self.cmpop("ne", v, z)
            }
            (f, t) if f.is_int() && t.is_int() => {
                let kind = if t.bits() > f.bits() {
                    if f.is_signed_int() {
                        "sext"
                    } else {
                        "zext"
                    }
                } else if t.bits() < f.bits() {
                    "trunc"
                } else {
                    "bitcast"
                };
                self.convop(kind, v, t)
            }
            (f, t) if f.is_int() => self.convop(if f.is_signed_int() { "sitofp" } else { "uitofp" }, v, t),
            (_, t) if t.is_int() => self.convop(if t.is_signed_int() { "fptosi" } else { "fptoui" }, v, t),
            (_, t) => self.convop("fpconv", v, t),
        }
    }

    // ----- sizes -------------------------------------------------------------

    /// A reshape of `v` to the given sizes (also used to name sizes: the
    /// result has the same elements).
    pub fn reshape(&mut self, v: Value, dims: &[Dim]) -> DResult<Value> {
        let have = self.dims(v);
        if have.len() == dims.len() && have.iter().zip(dims).all(|(&a, &b)| a == b && a != Dim::Unknown) {
            return Ok(v);
        }
        let mut ops = vec![v];
        for &d in dims {
            ops.push(self.dim_value(d)?);
        }
        let t = self.ctx.value_type(v);
        let rt = self.with_dims(t, dims.to_vec());
        Ok(self.op1("soac.reshape", &ops, rt, &[]))
    }

    /// Name the existential sizes of an array (Note [Flattened values]).
    pub fn refine(&mut self, v: Value) -> DResult<Value> {
        if !self.shape_of_type(self.ctx.value_type(v)).contains(&Dim::Unknown) {
            return Ok(v);
        }
        let dims = self.dims(v);
        let mut new = Vec::new();
        for (j, &d) in dims.iter().enumerate() {
            new.push(match d {
                Dim::Unknown => Dim::Value(self.size(v, j)?),
                d => d,
            });
        }
        self.reshape(v, &new)
    }

    /// Check at run time that the leading sizes of `v` are `want` (an
    /// unknown one matches anything) and give `v` those sizes.
    pub fn coerce(&mut self, v: Value, want: &[Dim], msg: &str) -> DResult<Value> {
        self.coerce_reporting(v, want, |_, _| Ok((msg.to_string(), Vec::new())))
    }

    /// `coerce` for a size coercion `e :> t` whose leaf has element type
    /// `elem`, with Futhark's message (the interpreter's too): `Value of
    /// shape [2][2] cannot match shape of type "[1][4]i32".`
    pub fn coerce_shape(&mut self, v: Value, want: &[Dim], elem: &str) -> DResult<Value> {
        self.coerce_reporting(v, want, |s, v| {
            let rank = s.dims(v).len();
            let mut args = Vec::new();
            for j in 0..rank {
                args.push(s.size(v, j)?);
            }
            let have: String = (0..rank).map(|j| format!("[{{{j}}}]")).collect();
            let mut wanted = String::new();
            for j in 0..rank {
                match want.get(j).copied().unwrap_or(Dim::Unknown) {
                    Dim::Unknown => wanted.push_str("[]"),
                    w => {
                        wanted.push_str(&format!("[{{{}}}]", args.len()));
                        args.push(s.dim_value(w)?);
                    }
                }
            }
            let msg = format!("Value of shape {have} cannot match shape of type \"{wanted}{elem}\".");
            Ok((msg, args))
        })
    }

    /// `coerce`, with the failure's message template and its operands made
    /// by `report` (only when a check is needed).
    fn coerce_reporting(
        &mut self,
        v: Value,
        want: &[Dim],
        report: impl FnOnce(&mut Self, Value) -> DResult<(String, Vec<Value>)>,
    ) -> DResult<Value> {
        let have = self.dims(v);
        // The new sizes, made when the first one changes (most coercions
        // change nothing).
        let mut new: Option<Vec<Dim>> = None;
        let mut conds = Vec::new();
        for (j, &w) in want.iter().enumerate().take(have.len()) {
            if w == Dim::Unknown || self.same_dim(have[j], w) {
                continue;
            }
            let a = self.size(v, j)?;
            let b = self.dim_value(w)?;
            conds.push(self.cmpop("eq", a, b));
            new.get_or_insert_with(|| have.clone())[j] = w;
        }
        let (Some(c), Some(new)) = (self.and_all(conds), new) else {
            return Ok(v);
        };
        let (msg, args) = report(self, v)?;
        self.assert_with(c, &msg, &args);
        self.reshape(v, &new)
    }

    // ----- regions -----------------------------------------------------------

    /// A region with one block of the given argument types; `f` fills it
    /// and returns the values to yield. Returns the region, the yielded
    /// values and `f`'s extra result.
    pub fn region<R>(
        &mut self,
        args: &[Type],
        f: impl FnOnce(&mut Self, Vec<Value>) -> DResult<(Vec<Value>, R)>,
    ) -> DResult<(RegionId, Vec<Value>, R)> {
        let r = self.ctx.create_region();
        let b = self.ctx.append_block(r, args);
        let saved = self.block;
        self.block = b;
        let bargs = self.ctx.block_args(b).to_vec();
        let res = f(self, bargs);
        if let Ok((ys, _)) = &res {
            let ys = ys.clone();
            self.op("soac.yield", &ys, &[], &[], Vec::new());
        }
        self.block = saved;
        let (ys, x) = res?;
        Ok((r, ys, x))
    }

    /// Whether `v` is defined inside one of `regions` (at any depth).
    pub fn defined_inside(&self, v: Value, regions: &[RegionId]) -> bool {
        let mut block = self.ctx.value_block(v);
        while let Some(b) = block {
            let Some(r) = self.ctx.block_parent(b) else {
                return false;
            };
            if regions.contains(&r) {
                return true;
            }
            let Some(op) = self.ctx.region_parent(r) else {
                return false;
            };
            block = self.ctx.parent_block(op);
        }
        false
    }

    /// `t` with the sizes defined inside `regions` made existential: the
    /// type a structured op's result gets for a value its regions yield.
    pub fn hoist(&mut self, t: Type, regions: &[RegionId]) -> Type {
        let dims: Vec<Dim> = self
            .dims_of_type(t)
            .into_iter()
            .map(|d| match d {
                Dim::Value(v) if self.defined_inside(v, regions) => match self.int_value(v) {
                    Some(c) if c >= 0 => Dim::Const(c as u64),
                    _ => Dim::Unknown,
                },
                d => d,
            })
            .collect();
        if dims.is_empty() {
            return t;
        }
        self.with_dims(t, dims)
    }
}

/// The bits of integer `v` wrapped to the width of integer type `s`, as an
/// integer attribute of that type holds them.
pub(crate) fn int_bits(v: i64, s: Scalar) -> i64 {
    let w = s.bits();
    if w >= 64 {
        v
    } else if s.is_signed_int() {
        (v << (64 - w)) >> (64 - w)
    } else {
        v & ((1i64 << w) - 1)
    }
}
