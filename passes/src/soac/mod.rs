//! Passes on the `soac` dialect.

pub mod fuse;
pub mod inline;
pub mod rewrite;
