//! The IR core: an arena-based, MLIR-shaped intermediate representation.
//!
//! | concept | here | MLIR |
//! |---|---|---|
//! | context, interning | [`context`] | `MLIRContext` |
//! | arenas, interner storage | `arena` | `StorageUniquer`, `BumpPtrAllocator` |
//! | types | [`types`] | `Type` |
//! | attributes | [`attributes`] | `Attribute` |
//! | operations, blocks, regions | [`operation`] | `Operation`, `Block`, `Region` |
//! | SSA values and uses | [`value`] | `Value`, `OpOperand` |
//! | locations | [`location`] | `Location` |
//! | op definitions, dialects | [`opdef`] | ODS, `DialectRegistry` |
//! | builder | [`builder`] | `OpBuilder` |
//! | rewriter, cloning | [`rewriter`] | `RewriterBase`, `IRMapping` |
//! | verifier | [`verify`] | `mlir::verify` |
//! | text | [`print`], [`parse`], [`lexer`] | `AsmPrinter`, `AsmParser` |
//! | diagnostics | [`diagnostic`] | `Diagnostic` |
//!
//! Handles (`OpId`, `BlockId`, `RegionId`, `Value`, `Type`, `Attr`,
//! `Symbol`) are 4-byte indices into arenas owned by the [`Context`].

pub(crate) mod arena;
pub mod attributes;
pub mod builder;
pub mod builtin;
pub mod context;
pub mod diagnostic;
pub mod lexer;
pub mod location;
pub mod opdef;
pub mod operation;
pub mod parse;
pub mod print;
pub mod rewriter;
pub mod types;
pub mod value;
pub mod verify;

/// The context's fast hasher, for other tables keyed by handles and names.
pub use arena::{FastBuild, FastMap};
pub use attributes::{Attr, AttrKind};
pub use builder::{Builder, InsertPoint};
pub use context::{BlockOps, Context, Symbol};
pub use diagnostic::Diagnostic;
pub use location::{Location, SourceFile, SourceId};
pub use opdef::{Dialect, OpDef, Registry, Traits, VerifyFn};
pub use operation::{BlockId, OpId, RegionId};
pub use print::PrintOptions;
pub use rewriter::ValueMap;
pub use types::{Dim, MemSpace, Scalar, Type, TypeKind};
pub use value::{Use, Value, ValueDef};
pub use verify::OpView;
