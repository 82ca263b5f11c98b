//! SSA values and their use lists.
//!
//! A value is an op result or a block argument. Each value keeps the list
//! of operand slots that use it, so replacing all uses is proportional to
//! the number of uses. MLIR counterpart: `mlir::Value`, `OpOperand`.

use smallvec::SmallVec;

use super::{BlockId, OpId, Type};

/// An SSA value handle.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Value(pub(crate) u32);

/// Where a value is defined.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    Result {
        op: OpId,
        index: u32,
    },
    BlockArg {
        block: BlockId,
        index: u32,
    },
    /// A forward reference the parser has not resolved yet.
    Placeholder,
}

/// One use: operand slot `index` of `op`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Use {
    pub op: OpId,
    pub index: u32,
}

/// Most values have one use; keep that case inline. The box keeps the
/// enum at 16 bytes (a bare `Vec` would make it 32); a value with a few
/// uses costs one allocation, where a boxed `Vec` took two and then grew.
#[derive(Clone, Debug, Default)]
pub(crate) enum UseList {
    #[default]
    Empty,
    One(Use),
    Many(Box<SmallVec<[Use; 4]>>),
}

impl UseList {
    pub(crate) fn push(&mut self, u: Use) {
        match self {
            UseList::Empty => *self = UseList::One(u),
            UseList::One(a) => *self = UseList::Many(Box::new(SmallVec::from_slice(&[*a, u]))),
            UseList::Many(v) => v.push(u),
        }
    }

    pub(crate) fn remove(&mut self, u: Use) {
        match self {
            UseList::Empty => {}
            UseList::One(a) => {
                if *a == u {
                    *self = UseList::Empty
                }
            }
            UseList::Many(v) => {
                if let Some(i) = v.iter().position(|x| *x == u) {
                    v.swap_remove(i);
                }
                if v.len() == 1 {
                    *self = UseList::One(v[0]);
                }
            }
        }
    }

    pub(crate) fn as_slice(&self) -> &[Use] {
        match self {
            UseList::Empty => &[],
            UseList::One(a) => std::slice::from_ref(a),
            UseList::Many(v) => v,
        }
    }
}

pub(crate) struct ValueData {
    pub(crate) ty: Type,
    pub(crate) def: ValueDef,
    pub(crate) uses: UseList,
}
