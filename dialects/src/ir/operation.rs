//! Operations, blocks and regions: the arena records behind the handles.
//!
//! An operation has a name `dialect.op`, operands, results, attributes,
//! regions and a location. A region holds blocks; a block holds block
//! arguments and a doubly linked list of operations. Handles are indices
//! into the context's arenas; erased entities stay in the arena, marked dead.
//! MLIR counterpart: `Operation`, `Block`, `Region`.

use std::marker::PhantomData;

use smallvec::SmallVec;

use super::{Location, Symbol, Value};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct OpId(pub(crate) u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BlockId(pub(crate) u32);
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct RegionId(pub(crate) u32);

/// A handle that fits a [`Link`].
pub(crate) trait Handle: Copy {
    fn raw(self) -> u32;
    fn from_raw(i: u32) -> Self;
}

macro_rules! handle {
    ($($t:ident),*) => {$(
        impl Handle for $t {
            fn raw(self) -> u32 {
                self.0
            }
            fn from_raw(i: u32) -> Self {
                $t(i)
            }
        }
    )*};
}
handle!(OpId, BlockId, RegionId);

/// An optional handle in 4 bytes (an `Option` of one takes 8): `u32::MAX`,
/// never an arena index, is none. Keeps the records behind handles small.
pub(crate) struct Link<T>(u32, PhantomData<T>);

impl<T> Clone for Link<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Link<T> {}

impl<T: Handle> Link<T> {
    pub(crate) const NONE: Link<T> = Link(u32::MAX, PhantomData);
    pub(crate) fn some(t: T) -> Link<T> {
        Link(t.raw(), PhantomData)
    }
    pub(crate) fn get(self) -> Option<T> {
        (self.0 != u32::MAX).then(|| T::from_raw(self.0))
    }
}

impl<T: Handle> From<Option<T>> for Link<T> {
    fn from(t: Option<T>) -> Link<T> {
        t.map_or(Link::NONE, Link::some)
    }
}

pub(crate) struct OperationData {
    pub(crate) name: Symbol,
    pub(crate) location: Location,
    pub(crate) operands: SmallVec<[Value; 2]>,
    /// Results are allocated contiguously in the value arena.
    pub(crate) first_result: u32,
    pub(crate) num_results: u32,
    /// The op's attribute dictionary, interned in the context.
    pub(crate) attrs: u32,
    pub(crate) regions: Box<[RegionId]>,
    pub(crate) parent: Link<BlockId>,
    pub(crate) prev: Link<OpId>,
    pub(crate) next: Link<OpId>,
    pub(crate) alive: bool,
}

pub(crate) struct BlockData {
    pub(crate) args: Vec<Value>,
    pub(crate) first: Link<OpId>,
    pub(crate) last: Link<OpId>,
    pub(crate) parent: Link<RegionId>,
}

pub(crate) struct RegionData {
    pub(crate) blocks: Vec<BlockId>,
    pub(crate) parent: Link<OpId>,
}
