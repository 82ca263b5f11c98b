//! Passes on the `soac` dialect.

pub mod analysis;
pub mod fuse;
pub mod inline;
pub mod jvp;
pub mod partition;
pub mod rewrite;
pub mod simplify;
pub mod unstream;
