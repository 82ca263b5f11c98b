//! Passes on the `soac` dialect.

pub mod rewrite;
