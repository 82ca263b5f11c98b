//! Passes on the `soac` dialect.

pub mod inline;
pub mod rewrite;
