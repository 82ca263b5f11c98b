//! `ir-cse`: common-subexpression elimination of pure, region-free ops.
//!
//! An op equal to one that dominates it (same name, operands, attributes
//! and result types) is replaced by it. The operands of a commutative
//! `soac.binop` or `soac.cmpop` (`x + y`, `y + x`) count in either order.
//! Scopes follow region nesting; an op isolated from above starts an
//! empty scope.
//!
//! An op whose result is consumed (updated in place, scattered into,
//! passed to a loop or call: `soac::analysis::consumed`), directly or
//! through a view, is left alone: merged with an equal op, the one array
//! would be overwritten while the other's uses still read it (two
//! `replicate 2 0` destinations of two histograms, say).

use std::collections::{HashMap, HashSet};

use futmlir_dialects::ir::{Attr, AttrKind, Context, Diagnostic, OpId, Symbol, Traits, Type, Value};

use crate::pass::{Level, Options, Pass, PassInfo};

pub const INFO: PassInfo = PassInfo {
    name: "ir-cse",
    description: "Common-subexpression elimination of pure ops without regions",
    options: &[],
    reads: Level::ALL,
    writes: None,
    create: &|_: &Options, _| Box::new(Cse),
};

struct Cse;

impl Pass for Cse {
    fn run(&mut self, ctx: &mut Context, op: OpId) -> Result<(), Diagnostic> {
        let mut table = Table {
            consumed: crate::soac::analysis::consumed(ctx, op),
            ..Table::default()
        };
        table.op_regions(ctx, op);
        Ok(())
    }
}

/// The identity of an op for CSE.
type Key = (Symbol, Vec<Value>, Vec<(Symbol, Attr)>, Vec<Type>);

#[derive(Default)]
struct Table {
    map: HashMap<Key, OpId>,
    undo: Vec<(Key, Option<OpId>)>,
    /// The values some op may consume, and what they are views of.
    consumed: HashSet<Value>,
}

impl Table {
    fn key(ctx: &Context, op: OpId) -> Key {
        let mut operands = ctx.operands(op).to_vec();
        if commutative(ctx, op) {
            operands.sort();
        }
        (
            ctx.op_name_sym(op),
            operands,
            ctx.attrs(op).to_vec(),
            ctx.results(op).map(|r| ctx.value_type(r)).collect(),
        )
    }

    fn op_regions(&mut self, ctx: &mut Context, op: OpId) {
        let isolated = ctx
            .op_def(op)
            .is_some_and(|d| d.traits.contains(Traits::ISOLATED_FROM_ABOVE));
        let saved = if isolated {
            Some((std::mem::take(&mut self.map), std::mem::take(&mut self.undo)))
        } else {
            None
        };
        for r in ctx.regions(op).to_vec() {
            for b in ctx.blocks(r).to_vec() {
                let mark = self.undo.len();
                let mut cur = ctx.first_op(b);
                while let Some(o) = cur {
                    cur = ctx.next_op(o);
                    if !ctx.regions(o).is_empty() {
                        self.op_regions(ctx, o);
                        continue;
                    }
                    if !super::is_pure(ctx, o)
                        || ctx.num_results(o) == 0
                        || ctx.results(o).any(|r| self.consumed.contains(&r))
                    {
                        continue;
                    }
                    let k = Self::key(ctx, o);
                    match self.map.get(&k) {
                        Some(&prev) => {
                            let new: Vec<_> = ctx.results(prev).collect();
                            ctx.replace_op(o, &new);
                        }
                        None => {
                            let old = self.map.insert(k.clone(), o);
                            self.undo.push((k, old));
                        }
                    }
                }
                while self.undo.len() > mark {
                    let (k, old) = self.undo.pop().expect("undo log is longer than mark");
                    match old {
                        Some(o) => self.map.insert(k, o),
                        None => self.map.remove(&k),
                    };
                }
            }
        }
        if let Some((m, u)) = saved {
            self.map = m;
            self.undo = u;
        }
    }
}

/// Whether `op` is a scalar operator whose operands may swap.
fn commutative(ctx: &Context, op: OpId) -> bool {
    if !matches!(ctx.op_name(op), "soac.binop" | "soac.cmpop") {
        return false;
    }
    let Some(AttrKind::String(kind)) = ctx.attr(op, "kind").map(|a| ctx.attr_kind(a)) else {
        return false;
    };
    let Some(&x) = ctx.operands(op).first() else {
        return false;
    };
    ctx.as_scalar(ctx.value_type(x))
        .is_some_and(|t| futmlir_dialects::soac::verify::commutative(ctx.str(*kind), t))
}
