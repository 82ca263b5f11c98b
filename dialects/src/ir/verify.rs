//! The verifier: structural checks every op must pass (operands defined
//! before use and visible, terminators last, known op names) followed by
//! each op's own verifier from its definition.
//!
//! MLIR counterpart: `mlir::verify` and `Op::verify`.

use super::{Attr, AttrKind, Context, Diagnostic, OpId, RegionId, Scalar, Traits, Type, TypeKind, Value};

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
