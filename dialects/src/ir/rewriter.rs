//! The rewriter: in-place changes that keep use lists consistent —
//! replace all uses, erase, move, and clone with a value mapping.
//! MLIR counterpart: `RewriterBase`, `IRMapping`.

use std::collections::HashMap;

use super::{BlockId, Builder, Context, Dim, InsertPoint, OpId, RegionId, Type, TypeKind, Value};

/// A mapping from old values to new ones, used when cloning.
#[derive(Default, Debug, Clone)]
pub struct ValueMap {
    map: HashMap<Value, Value>,
}

impl ValueMap {
    pub fn insert(&mut self, from: Value, to: Value) {
        self.map.insert(from, to);
    }
    pub fn get(&self, v: Value) -> Value {
        self.map.get(&v).copied().unwrap_or(v)
    }
    pub fn contains(&self, v: Value) -> bool {
        self.map.contains_key(&v)
    }
}

impl Context {
    /// Makes every use of `from` a use of `to`.
    pub fn replace_all_uses(&mut self, from: Value, to: Value) {
        if from == to {
            return;
        }
        let uses = self.uses(from).to_vec();
        for u in uses {
            self.set_operand(u.op, u.index as usize, to);
        }
        // Note [Sizes in types]
        let typed = self.type_users(from).to_vec();
        if !typed.is_empty() {
            let mut map = ValueMap::default();
            map.insert(from, to);
            for v in typed {
                let t = self.value_type(v);
                let t = self.map_type(t, &map);
                self.set_value_type(v, t);
            }
        }
    }

    /// Replaces the results of `op` by `new` and erases `op`.
    pub fn replace_op(&mut self, op: OpId, new: &[Value]) {
        let results: Vec<Value> = self.results(op).collect();
        assert_eq!(results.len(), new.len(), "replace_op: result count mismatch");
        for (r, n) in results.into_iter().zip(new) {
            self.replace_all_uses(r, *n);
        }
        self.erase_op(op);
    }

    /// Erases `op` and everything nested in it. Its results must be unused
    /// (outside of `op` itself).
    pub fn erase_op(&mut self, op: OpId) {
        for r in self.regions(op).to_vec() {
            self.erase_region_contents(r);
        }
        self.drop_operand_uses(op);
        for r in self.results(op).collect::<Vec<_>>() {
            let t = self.value_type(r);
            self.unlink_type_users(r, t);
        }
        debug_assert!(
            self.results(op).all(|r| !self.has_uses(r)),
            "erase_op: '{}' still has uses",
            self.op_name(op)
        );
        self.detach_op(op);
        self.mark_dead(op);
    }

    /// Erases the ops of `r`'s blocks and unlinks their arguments from
    /// the sizes their types name (for a region no op holds any more).
    pub fn erase_region_contents(&mut self, r: RegionId) {
        for b in self.blocks(r).to_vec() {
            // Erase back to front so uses inside the block go first.
            while let Some(o) = self.last_op(b) {
                self.erase_op(o);
            }
            for a in self.block_args(b).to_vec() {
                let t = self.value_type(a);
                self.unlink_type_users(a, t);
            }
        }
    }

    /// Moves `op` to just before `before` (possibly in another block).
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.detach_op(op);
        let b = self.parent_block(before).expect("move target is linked in a block");
        self.insert_op(b, Some(before), op);
    }

    /// Moves `op` to the end of `block`.
    pub fn move_op_to_end(&mut self, op: OpId, block: BlockId) {
        self.detach_op(op);
        self.insert_op(block, None, op);
    }

    /// Rewrites a type whose sizes mention mapped values.
    pub fn map_type(&mut self, t: Type, map: &ValueMap) -> Type {
        match self.type_kind(t).clone() {
            TypeKind::Array { elem, shape } => {
                let shape = shape
                    .into_iter()
                    .map(|d| match d {
                        Dim::Value(v) => Dim::Value(map.get(v)),
                        d => d,
                    })
                    .collect();
                self.intern_type(TypeKind::Array { elem, shape })
            }
            TypeKind::Tuple(ts) => {
                let ts = ts.into_iter().map(|t| self.map_type(t, map)).collect();
                self.intern_type(TypeKind::Tuple(ts))
            }
            TypeKind::Record(fields) => {
                let fields = fields.into_iter().map(|(k, t)| (k, self.map_type(t, map))).collect();
                self.intern_type(TypeKind::Record(fields))
            }
            TypeKind::Function { inputs, results } => {
                let inputs = inputs.into_iter().map(|t| self.map_type(t, map)).collect();
                let results = results.into_iter().map(|t| self.map_type(t, map)).collect();
                self.intern_type(TypeKind::Function { inputs, results })
            }
            _ => t,
        }
    }

    /// Deep-clones `op` (detached). Operands are looked up in `map`; the
    /// clone's results and nested values are added to it.
    pub fn clone_op(&mut self, op: OpId, map: &mut ValueMap) -> OpId {
        let operands: Vec<Value> = self.operands(op).iter().map(|&v| map.get(v)).collect();
        let mut regions = Vec::new();
        for r in self.regions(op).to_vec() {
            let nr = self.create_region();
            self.clone_region_into(r, nr, map);
            regions.push(nr);
        }
        let result_types: Vec<Type> = self
            .results(op)
            .collect::<Vec<_>>()
            .into_iter()
            .map(|v| {
                let t = self.value_type(v);
                self.map_type(t, map)
            })
            .collect();
        let name = self.op_name_sym(op);
        let attrs = self.attrs(op).to_vec();
        let loc = self.location(op);
        let new = self.create_op(name, &operands, &result_types, &attrs, regions, loc);
        let new_results: Vec<Value> = self.results(new).collect();
        for (a, &b) in self.results(op).zip(&new_results).collect::<Vec<_>>() {
            map.insert(a, b);
        }
        // A result's type may name another result of the same op as a
        // size (the verifier allows it): map again, as for block
        // arguments in `clone_region_into`.
        for r in new_results {
            self.remap_value_type(r, map);
        }
        new
    }

    /// Rewrites `v`'s type through `map` (Note [Sizes in types]).
    fn remap_value_type(&mut self, v: Value, map: &ValueMap) {
        let t = self.value_type(v);
        let mapped = self.map_type(t, map);
        if mapped != t {
            self.set_value_type(v, mapped);
        }
    }

    /// Clones the ops of block `from`, all but its terminator, to `at`,
    /// with `from`'s arguments bound to `args`; returns the terminator's
    /// operands, mapped (the values the block yields). MLIR counterpart:
    /// inlining a block (here by cloning, so `from` stays as it is).
    pub fn inline_block(&mut self, from: BlockId, args: &[Value], at: InsertPoint) -> Vec<Value> {
        let mut map = ValueMap::default();
        for (&p, &a) in self.block_args(from).to_vec().iter().zip(args) {
            map.insert(p, a);
        }
        self.inline_block_mapped(from, &mut map, at)
    }

    /// [`Context::inline_block`] with the values of `from` (its arguments
    /// among them) looked up in `map`, which gets the clones' values.
    pub fn inline_block_mapped(&mut self, from: BlockId, map: &mut ValueMap, at: InsertPoint) -> Vec<Value> {
        let ops: Vec<OpId> = self.block_ops(from).collect();
        let Some((term, rest)) = ops.split_last() else {
            return Vec::new();
        };
        for &o in rest {
            let c = self.clone_op(o, map);
            let mut b = Builder::new(self);
            b.set_insert_point(at);
            b.insert(c);
        }
        self.operands(*term).iter().map(|&v| map.get(v)).collect()
    }

    /// Clones the blocks of `from` to the end of `to`.
    pub fn clone_region_into(&mut self, from: RegionId, to: RegionId, map: &mut ValueMap) {
        let blocks = self.blocks(from).to_vec();
        let mut new_blocks = Vec::new();
        for &b in &blocks {
            let args = self.block_args(b).to_vec();
            let tys: Vec<Type> = args.iter().map(|&a| self.value_type(a)).collect();
            let tys: Vec<Type> = tys.into_iter().map(|t| self.map_type(t, map)).collect();
            let nb = self.append_block(to, &tys);
            let new_args = self.block_args(nb).to_vec();
            for (&a, &n) in args.iter().zip(&new_args) {
                map.insert(a, n);
            }
            // An argument's type may name an earlier argument of the same
            // block as a size (a stream's chunk `[%c]t`, Note [Sizes in
            // types]): map the types again now that the block's own
            // arguments are in `map`, or the clone's chunks would keep the
            // original's chunk size.
            for n in new_args {
                self.remap_value_type(n, map);
            }
            new_blocks.push(nb);
        }
        for (b, nb) in blocks.into_iter().zip(new_blocks) {
            let ops: Vec<OpId> = self.block_ops(b).collect();
            for o in ops {
                let c = self.clone_op(o, map);
                self.insert_op(nb, None, c);
            }
        }
    }
}
