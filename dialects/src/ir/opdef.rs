//! Op definitions and the dialect registry.
//!
//! Each op kind has a definition: its name, a one-line summary, a
//! description with a textual IR example, its traits and its verifier.
//! A dialect is a named list of op definitions; the registry holds every
//! dialect the compiler knows. MLIR counterpart: ODS `Op<...>` records and
//! `DialectRegistry`.

use std::collections::HashMap;

use super::OpView;

/// Properties of an op kind that generic passes and the verifier rely on.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Traits(u8);

impl Traits {
    pub const NONE: Traits = Traits(0);
    /// No side effects: may be removed when unused, merged with an equal op.
    pub const PURE: Traits = Traits(1);
    /// Must be the last op of its block.
    pub const TERMINATOR: Traits = Traits(2);
    /// Its regions do not see values defined outside it.
    pub const ISOLATED_FROM_ABOVE: Traits = Traits(4);
    /// Holds a symbol table (its region's ops may have `sym_name`s).
    pub const SYMBOL_TABLE: Traits = Traits(8);

    pub const fn union(self, o: Traits) -> Traits {
        Traits(self.0 | o.0)
    }
    pub const fn contains(self, o: Traits) -> bool {
        self.0 & o.0 == o.0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, o: Traits) -> Traits {
        self.union(o)
    }
}

/// The op-specific verifier: returns a message on failure.
pub type VerifyFn = fn(&OpView) -> Result<(), String>;

pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    pub summary: &'static str,
    /// A longer description with a textual example.
    pub description: &'static str,
    pub traits: Traits,
    pub verify: VerifyFn,
}

pub struct Dialect {
    pub name: &'static str,
    pub summary: &'static str,
    pub ops: Vec<OpDef>,
}

#[derive(Default)]
pub struct Registry {
    dialects: Vec<Dialect>,
    ops: HashMap<&'static str, (usize, usize)>,
}

impl Registry {
    pub fn register(&mut self, d: Dialect) {
        let di = self.dialects.len();
        for (oi, op) in d.ops.iter().enumerate() {
            debug_assert!(op.name.starts_with(d.name), "{} not in dialect {}", op.name, d.name);
            self.ops.insert(op.name, (di, oi));
        }
        self.dialects.push(d);
    }
    pub fn op(&self, name: &str) -> Option<&OpDef> {
        let &(d, o) = self.ops.get(name)?;
        Some(&self.dialects[d].ops[o])
    }
    pub fn dialect(&self, name: &str) -> Option<&Dialect> {
        self.dialects.iter().find(|d| d.name == name)
    }
    pub fn dialects(&self) -> &[Dialect] {
        &self.dialects
    }
    pub fn op_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.dialects.iter().flat_map(|d| d.ops.iter().map(|o| o.name))
    }
}
