//! The verifier: structural checks every op must pass (operands defined
//! before use and visible, terminators last, known op names) followed by
//! each op's own verifier from its definition.
//!
//! MLIR counterpart: `mlir::verify` and `Op::verify`.

use super::{Attr, AttrKind, Context, Diagnostic, Dim, OpId, RegionId, Scalar, Traits, Type, TypeKind, Value};

/// A read-only view of one op, handed to op verifiers, with helpers that
/// produce messages in one style ("expects 2 operands, found 3").
pub struct OpView<'a> {
    pub ctx: &'a Context,
    pub op: OpId,
}

impl OpView<'_> {
    pub fn operands(&self) -> &[Value] {
        self.ctx.operands(self.op)
    }
    pub fn num_operands(&self) -> usize {
        self.operands().len()
    }
    pub fn num_results(&self) -> usize {
        self.ctx.num_results(self.op)
    }
    pub fn operand_type(&self, i: usize) -> Type {
        self.ctx.value_type(self.ctx.operand(self.op, i))
    }
    pub fn operand_types(&self) -> Vec<Type> {
        self.operands().iter().map(|&v| self.ctx.value_type(v)).collect()
    }
    pub fn result_type(&self, i: usize) -> Type {
        self.ctx.value_type(self.ctx.result(self.op, i))
    }
    pub fn result_types(&self) -> Vec<Type> {
        self.ctx.results(self.op).map(|v| self.ctx.value_type(v)).collect()
    }
    pub fn regions(&self) -> &[RegionId] {
        self.ctx.regions(self.op)
    }
    pub fn show(&self, t: Type) -> String {
        self.ctx.type_to_string(t)
    }

    pub fn expect_operands(&self, n: usize) -> Result<(), String> {
        count("operand", n, self.num_operands())
    }
    pub fn expect_operands_at_least(&self, n: usize) -> Result<(), String> {
        if self.num_operands() < n {
            return Err(format!("expects at least {n} operands, found {}", self.num_operands()));
        }
        Ok(())
    }
    pub fn expect_results(&self, n: usize) -> Result<(), String> {
        count("result", n, self.num_results())
    }
    pub fn expect_regions(&self, n: usize) -> Result<(), String> {
        count("region", n, self.regions().len())
    }

    pub fn attr(&self, name: &str) -> Option<Attr> {
        self.ctx.attr(self.op, name)
    }
    pub fn expect_attr(&self, name: &str) -> Result<&AttrKind, String> {
        self.attr(name)
            .map(|a| self.ctx.attr_kind(a))
            .ok_or_else(|| format!("expects attribute '{name}'"))
    }
    pub fn int_attr(&self, name: &str) -> Result<i64, String> {
        match self.expect_attr(name)? {
            AttrKind::Int { bits, .. } => Ok(*bits),
            _ => Err(format!("attribute '{name}' must be an integer")),
        }
    }
    pub fn string_attr(&self, name: &str) -> Result<&str, String> {
        match self.expect_attr(name)? {
            AttrKind::String(s) => Ok(self.ctx.str(*s)),
            _ => Err(format!("attribute '{name}' must be a string")),
        }
    }
    pub fn type_attr(&self, name: &str) -> Result<Type, String> {
        match self.expect_attr(name)? {
            AttrKind::Type(t) => Ok(*t),
            _ => Err(format!("attribute '{name}' must be a type")),
        }
    }

    /// The argument types of the single block of region `r`, checking the
    /// region has exactly one block.
    pub fn single_block_args(&self, r: usize) -> Result<Vec<Type>, String> {
        let region = *self.regions().get(r).ok_or_else(|| format!("expects region #{r}"))?;
        let blocks = self.ctx.blocks(region);
        if blocks.len() != 1 {
            return Err(format!(
                "region #{r} must have exactly one block, found {}",
                blocks.len()
            ));
        }
        Ok(self
            .ctx
            .block_args(blocks[0])
            .iter()
            .map(|&v| self.ctx.value_type(v))
            .collect())
    }

    /// The operand types of the terminator of region `r`'s last block.
    pub fn yielded_types(&self, r: usize) -> Result<Vec<Type>, String> {
        let region = *self.regions().get(r).ok_or_else(|| format!("expects region #{r}"))?;
        let block = *self
            .ctx
            .blocks(region)
            .last()
            .ok_or_else(|| format!("region #{r} is empty"))?;
        let term = self
            .ctx
            .last_op(block)
            .ok_or_else(|| format!("region #{r} has no terminator"))?;
        if !self
            .ctx
            .op_def(term)
            .is_some_and(|d| d.traits.contains(Traits::TERMINATOR))
        {
            return Err(format!(
                "region #{r} must end with a terminator, found '{}'",
                self.ctx.op_name(term)
            ));
        }
        Ok(self
            .ctx
            .operands(term)
            .iter()
            .map(|&v| self.ctx.value_type(v))
            .collect())
    }

    pub fn is_scalar(&self, t: Type) -> bool {
        matches!(self.ctx.type_kind(t), TypeKind::Scalar(_))
    }
    pub fn scalar(&self, t: Type) -> Option<Scalar> {
        self.ctx.as_scalar(t)
    }
    pub fn is_array(&self, t: Type) -> bool {
        matches!(self.ctx.type_kind(t), TypeKind::Array { .. })
    }
    pub fn is_int(&self, t: Type) -> bool {
        self.scalar(t).is_some_and(|s| s.is_int())
    }
    pub fn is_i64(&self, t: Type) -> bool {
        self.scalar(t) == Some(Scalar::I64)
    }
    pub fn is_bool(&self, t: Type) -> bool {
        self.scalar(t) == Some(Scalar::Bool)
    }

    /// The ops of region `r`, all blocks, in order.
    pub fn region_ops(&self, r: usize) -> Vec<OpId> {
        self.ctx
            .blocks(self.regions()[r])
            .iter()
            .flat_map(|&b| self.ctx.block_ops(b))
            .collect()
    }
}

/// Type and size helpers shared by the dialect verifiers.
///
/// See Note [Size agreement].
impl OpView<'_> {
    pub fn operand(&self, i: usize) -> Value {
        self.ctx.operand(self.op, i)
    }
    pub fn result(&self, i: usize) -> Value {
        self.ctx.result(self.op, i)
    }
    pub fn expect_results_at_least(&self, n: usize) -> Result<(), String> {
        if self.num_results() < n {
            return Err(format!("expects at least {n} results, found {}", self.num_results()));
        }
        Ok(())
    }

    /// The integer value of `v` when a constant op (`*.constant` with an
    /// integer `value`) defines it.
    pub fn const_int(&self, v: Value) -> Option<i64> {
        let op = self.ctx.defining_op(v)?;
        if !self.ctx.op_name(op).ends_with(".constant") {
            return None;
        }
        match self.ctx.attr_kind(self.ctx.attr(op, "value")?) {
            AttrKind::Int { bits, .. } => Some(*bits),
            _ => None,
        }
    }

    // Note [Size agreement]
    // ~~~~~~~~~~~~~~~~~~~~~
    // Two sizes agree unless they are known to differ: an unknown size `?`
    // agrees with anything; two constants (literal dims or values defined by
    // a constant op) agree when equal; two SSA sizes agree only when they are
    // the same value, as in Futhark's core language, where sizes are names.
    // A literal against a non-constant value cannot be decided and agrees.

    /// Whether two dimensions agree (Note [Size agreement]).
    pub fn dims_agree(&self, a: Dim, b: Dim) -> bool {
        let known = |d: Dim| match d {
            Dim::Const(c) => Some(c as i64),
            Dim::Value(v) => self.const_int(v),
            Dim::Unknown => None,
        };
        match (a, b) {
            (Dim::Unknown, _) | (_, Dim::Unknown) => true,
            _ if a == b => true,
            _ => match (known(a), known(b)) {
                (Some(x), Some(y)) => x == y,
                (None, None) => false,
                _ => matches!((a, b), (Dim::Const(_), _) | (_, Dim::Const(_))),
            },
        }
    }

    /// Whether `d` agrees with the size held by the i64 value `n`.
    pub fn dim_is(&self, d: Dim, n: Value) -> bool {
        self.dims_agree(d, Dim::Value(n))
    }

    /// Whether two types are equal up to agreeing sizes.
    pub fn compatible(&self, a: Type, b: Type) -> bool {
        if a == b {
            return true;
        }
        match (self.ctx.type_kind(a), self.ctx.type_kind(b)) {
            (TypeKind::Array { elem: e1, shape: s1 }, TypeKind::Array { elem: e2, shape: s2 }) => {
                s1.len() == s2.len()
                    && self.compatible(*e1, *e2)
                    && s1.iter().zip(s2).all(|(x, y)| self.dims_agree(*x, *y))
            }
            (TypeKind::Tuple(x), TypeKind::Tuple(y)) => self.all_compatible(x, y),
            (
                TypeKind::Function {
                    inputs: i1,
                    results: r1,
                },
                TypeKind::Function {
                    inputs: i2,
                    results: r2,
                },
            ) => self.all_compatible(i1, i2) && self.all_compatible(r1, r2),
            (TypeKind::Record(x), TypeKind::Record(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((k1, t1), (k2, t2))| k1 == k2 && self.compatible(*t1, *t2))
            }
            _ => false,
        }
    }

    pub fn all_compatible(&self, a: &[Type], b: &[Type]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.compatible(*x, *y))
    }

    /// Checks `found` is compatible with `expected`; the message names `what`.
    pub fn expect_type(&self, what: &str, expected: Type, found: Type) -> Result<(), String> {
        if self.compatible(expected, found) {
            return Ok(());
        }
        Err(format!(
            "{what} has type {}, expected {}",
            self.show(found),
            self.show(expected)
        ))
    }

    /// Checks a list of types against the expected list, count first.
    pub fn expect_types(&self, what: &str, expected: &[Type], found: &[Type]) -> Result<(), String> {
        if expected.len() != found.len() {
            return Err(format!(
                "{what}: expects {} values, found {}",
                expected.len(),
                found.len()
            ));
        }
        for (i, (&e, &f)) in expected.iter().zip(found).enumerate() {
            self.expect_type(&format!("{what} #{i}"), e, f)?;
        }
        Ok(())
    }

    /// Checks that region `r` has one block whose arguments have the
    /// `expected` types.
    pub fn expect_block_args(&self, r: usize, expected: &[Type]) -> Result<(), String> {
        let args = self.single_block_args(r)?;
        self.expect_types(&format!("region #{r} argument"), expected, &args)
    }

    /// Checks that region `r`'s terminator yields the `expected` types.
    pub fn expect_yield(&self, r: usize, expected: &[Type]) -> Result<(), String> {
        let ys = self.yielded_types(r)?;
        self.expect_types(&format!("region #{r} yield"), expected, &ys)
    }

    pub fn expect_i64_operands(&self, range: std::ops::Range<usize>, what: &str) -> Result<(), String> {
        for i in range {
            let t = self.operand_type(i);
            if !self.is_i64(t) {
                return Err(format!(
                    "{what} (operand #{i}) must have type i64, found {}",
                    self.show(t)
                ));
            }
        }
        Ok(())
    }

    /// The element type and shape of an array type.
    pub fn array_parts(&self, t: Type) -> Option<(Type, &[Dim])> {
        match self.ctx.type_kind(t) {
            TypeKind::Array { elem, shape } => Some((*elem, shape.as_slice())),
            _ => None,
        }
    }
    pub fn rank(&self, t: Type) -> usize {
        self.array_parts(t).map_or(0, |(_, s)| s.len())
    }
    pub fn outer_dim(&self, t: Type) -> Option<Dim> {
        self.array_parts(t).map(|(_, s)| s[0])
    }

    /// Whether `arr` is an array of shape `dims` followed by the shape of
    /// `elem` (which may itself be an array), with element type `elem`'s.
    pub fn is_array_of(&self, arr: Type, dims: &[Dim], elem: Type) -> bool {
        let Some((e, shape)) = self.array_parts(arr) else {
            return dims.is_empty() && self.compatible(arr, elem);
        };
        let (inner_elem, inner_shape) = self.array_parts(elem).unwrap_or((elem, &[]));
        shape.len() == dims.len() + inner_shape.len()
            && self.compatible(e, inner_elem)
            && shape
                .iter()
                .zip(dims.iter().chain(inner_shape))
                .all(|(a, b)| self.dims_agree(*a, *b))
    }

    /// Whether `row` is the type of one row (outer index) of array `arr`.
    pub fn is_row_of(&self, arr: Type, row: Type) -> bool {
        match self.outer_dim(arr) {
            Some(d) => self.is_array_of(arr, &[d], row),
            None => false,
        }
    }

    /// Checks `arr` is an array whose outer size agrees with `n`; the
    /// message names `what`.
    pub fn expect_outer_size(&self, what: &str, arr: Type, n: Value) -> Result<(), String> {
        match self.outer_dim(arr) {
            None => Err(format!("{what} must be an array, found {}", self.show(arr))),
            Some(d) if !self.dim_is(d, n) => Err(format!(
                "{what} has outer size {}, but the size operand is {}",
                self.show_dim(d),
                self.show_size(n)
            )),
            Some(_) => Ok(()),
        }
    }

    pub fn show_dim(&self, d: Dim) -> String {
        match d {
            Dim::Const(c) => c.to_string(),
            Dim::Value(v) => self.show_size(v),
            Dim::Unknown => "?".into(),
        }
    }
    /// A size value as its constant when known, else as a value.
    pub fn show_size(&self, v: Value) -> String {
        match self.const_int(v) {
            Some(c) => c.to_string(),
            None => "a different value".into(),
        }
    }

    /// The nearest enclosing op named `name`.
    pub fn enclosing(&self, name: &str) -> Option<OpId> {
        let mut cur = self.ctx.parent_op(self.op);
        while let Some(p) = cur {
            if self.ctx.op_name(p) == name {
                return Some(p);
            }
            cur = self.ctx.parent_op(p);
        }
        None
    }

    /// The op with `sym_name` equal to `name` in the nearest enclosing
    /// symbol table.
    pub fn lookup_symbol(&self, name: &str) -> Option<OpId> {
        let mut cur = self.ctx.parent_op(self.op);
        while let Some(p) = cur {
            if self
                .ctx
                .op_def(p)
                .is_some_and(|d| d.traits.contains(Traits::SYMBOL_TABLE))
            {
                let region = *self.ctx.regions(p).first()?;
                return self.ctx.blocks(region).iter().find_map(|&b| {
                    self.ctx.block_ops(b).find(|&o| {
                        self.ctx.attr(o, "sym_name").is_some_and(
                            |a| matches!(self.ctx.attr_kind(a), AttrKind::String(s) if self.ctx.str(*s) == name),
                        )
                    })
                });
            }
            cur = self.ctx.parent_op(p);
        }
        None
    }

    pub fn symbol_attr(&self, name: &str) -> Result<&str, String> {
        match self.expect_attr(name)? {
            AttrKind::SymbolRef(s) => Ok(self.ctx.str(*s)),
            _ => Err(format!("attribute '{name}' must be a symbol reference")),
        }
    }

    /// An attribute that must be an array of integers.
    pub fn int_array_attr(&self, name: &str) -> Result<Vec<i64>, String> {
        let err = || format!("attribute '{name}' must be an array of integers");
        match self.expect_attr(name)? {
            AttrKind::Array(xs) => xs
                .iter()
                .map(|&x| match self.ctx.attr_kind(x) {
                    AttrKind::Int { bits, .. } => Ok(*bits),
                    _ => Err(err()),
                })
                .collect(),
            _ => Err(err()),
        }
    }

    /// A string attribute that must be one of `allowed`.
    pub fn enum_attr(&self, name: &str, allowed: &[&str]) -> Result<&str, String> {
        let s = self.string_attr(name)?;
        if allowed.contains(&s) {
            return Ok(s);
        }
        Err(format!(
            "attribute '{name}' must be one of {}, found \"{s}\"",
            allowed
                .iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

fn count(what: &str, expected: usize, found: usize) -> Result<(), String> {
    if expected != found {
        let s = if expected == 1 { "" } else { "s" };
        return Err(format!("expects {expected} {what}{s}, found {found}"));
    }
    Ok(())
}

impl Context {
    /// Verifies `root` and everything nested in it; returns every failure.
    pub fn verify(&self, root: OpId) -> Result<(), Vec<Diagnostic>> {
        let mut v = Verifier {
            ctx: self,
            level: vec![0; self.values.len()],
            stack: Vec::new(),
            depth: 1,
            errors: Vec::new(),
        };
        v.op(root);
        if v.errors.is_empty() {
            Ok(())
        } else {
            Err(v.errors)
        }
    }
}

struct Verifier<'a> {
    ctx: &'a Context,
    /// For each value: the isolation depth it was defined at while it is in
    /// scope, 0 when not in scope.
    level: Vec<u32>,
    stack: Vec<Value>,
    depth: u32,
    errors: Vec<Diagnostic>,
}

impl Verifier<'_> {
    fn error(&mut self, op: OpId, msg: String) {
        let name = self.ctx.op_name(op).to_string();
        self.errors
            .push(Diagnostic::error(self.ctx.location(op), format!("'{name}' op {msg}")));
    }

    fn define(&mut self, v: Value) {
        self.level[v.0 as usize] = self.depth;
        self.stack.push(v);
    }

    fn op(&mut self, op: OpId) {
        let ctx = self.ctx;
        for (i, &v) in ctx.operands(op).iter().enumerate() {
            if self.level[v.0 as usize] != self.depth {
                let why = if matches!(ctx.value_def(v), super::ValueDef::Placeholder) {
                    "is never defined"
                } else if self.level[v.0 as usize] != 0 {
                    "is defined outside an op that is isolated from above"
                } else {
                    "does not dominate this use"
                };
                self.error(op, format!("operand #{i} {why}"));
            }
        }
        let def = ctx.op_def(op);
        match def {
            None if !ctx.allow_unregistered => {
                let name = ctx.op_name(op);
                let dialect = name.split('.').next().unwrap_or(name);
                let msg = if ctx.registry().dialect(dialect).is_some() {
                    format!("is not an op of dialect '{dialect}'")
                } else {
                    format!("belongs to unknown dialect '{dialect}' (pass --allow-unregistered-dialect to accept it)")
                };
                self.error(op, msg);
            }
            None => {}
            Some(d) => {
                if d.traits.contains(Traits::TERMINATOR) && ctx.next_op(op).is_some() {
                    self.error(op, "must be the last operation of its block".into());
                }
                if let Err(m) = (d.verify)(&OpView { ctx, op }) {
                    self.error(op, m);
                }
                if d.traits.contains(Traits::SYMBOL_TABLE) {
                    self.unique_symbols(op);
                }
            }
        }
        let isolated = def.is_some_and(|d| d.traits.contains(Traits::ISOLATED_FROM_ABOVE));
        if !ctx.regions(op).is_empty() {
            let saved = self.stack.len();
            if isolated {
                self.depth += 1;
            }
            for &r in ctx.regions(op) {
                let region_saved = self.stack.len();
                for &b in ctx.blocks(r) {
                    for &a in ctx.block_args(b) {
                        self.define(a);
                    }
                    for (i, &a) in ctx.block_args(b).iter().enumerate() {
                        self.check_sizes(op, a, &format!("block argument #{i}"));
                    }
                    for o in ctx.block_ops(b) {
                        self.op(o);
                    }
                }
                self.pop_to(region_saved);
            }
            self.pop_to(saved);
            if isolated {
                self.depth -= 1;
            }
        }
        for r in ctx.results(op) {
            self.define(r);
        }
        for (i, r) in ctx.results(op).enumerate() {
            self.check_sizes(op, r, &format!("result #{i}"));
        }
    }

    /// A symbol table's ops name distinct symbols (as MLIR's `SymbolTable`
    /// requires: a reference finds one op). The error is on the second.
    fn unique_symbols(&mut self, table: OpId) {
        let ctx = self.ctx;
        let mut seen = std::collections::HashSet::new();
        for &r in ctx.regions(table) {
            for &b in ctx.blocks(r) {
                for o in ctx.block_ops(b) {
                    let name = match ctx.attr(o, "sym_name").map(|a| ctx.attr_kind(a)) {
                        Some(AttrKind::String(s)) => ctx.str(*s),
                        _ => continue,
                    };
                    if !seen.insert(name) {
                        self.error(o, format!("redefinition of symbol named '{name}'"));
                    }
                }
            }
        }
    }

    /// The sizes a value's type names must be in scope where it is defined
    /// (Note [Sizes in types]).
    fn check_sizes(&mut self, op: OpId, v: Value, what: &str) {
        let t = self.ctx.value_type(v);
        if matches!(self.ctx.type_kind(t), TypeKind::Scalar(_)) {
            return;
        }
        for s in self.ctx.type_size_values(t) {
            if self.level[s.0 as usize] != self.depth {
                self.error(op, format!("{what} has a type whose size is not in scope"));
                return;
            }
        }
    }

    fn pop_to(&mut self, len: usize) {
        for v in self.stack.drain(len..) {
            self.level[v.0 as usize] = 0;
        }
    }
}
