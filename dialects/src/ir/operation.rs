//! Operations, blocks and regions: the arena records behind the handles.
//!
//! An operation has a name `dialect.op`, operands, results, attributes,
//! regions and a location. A region holds blocks; a block holds block
//! arguments and a doubly linked list of operations. Handles are indices
//! into the context's arenas; erased entities stay in the arena, marked dead.
//! MLIR counterpart: `Operation`, `Block`, `Region`.

use smallvec::SmallVec;

use super::{Attr, Location, Symbol, Value};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct OpId(pub(crate) u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BlockId(pub(crate) u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct RegionId(pub(crate) u32);

pub(crate) struct OperationData {
    pub(crate) name: Symbol,
    pub(crate) location: Location,
    pub(crate) operands: SmallVec<[Value; 2]>,
    /// Results are allocated contiguously in the value arena.
    pub(crate) first_result: u32,
    pub(crate) num_results: u32,
    pub(crate) attrs: Vec<(Symbol, Attr)>,
    pub(crate) regions: Vec<RegionId>,
    pub(crate) parent: Option<BlockId>,
    pub(crate) prev: Option<OpId>,
    pub(crate) next: Option<OpId>,
    pub(crate) alive: bool,
}

pub(crate) struct BlockData {
    pub(crate) args: Vec<Value>,
    pub(crate) first: Option<OpId>,
    pub(crate) last: Option<OpId>,
    pub(crate) parent: Option<RegionId>,
}

pub(crate) struct RegionData {
    pub(crate) blocks: Vec<BlockId>,
    pub(crate) parent: Option<OpId>,
}
