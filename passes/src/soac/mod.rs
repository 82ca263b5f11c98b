//! Passes on the `soac` dialect: [`inline`] (`soac-inline`), [`jvp`]
//! (`soac-jvp`, forward-mode AD: Note [Forward-mode AD]), [`vjp`]
//! (`soac-vjp`, reverse-mode AD: Note [Reverse-mode AD]; [`ad`] holds
//! what the two share), [`rewrite`], [`simplify`], [`fuse`], [`unstream`]
//! and [`partition`]; [`analysis`] holds what they share.

pub mod ad;
pub mod analysis;
pub mod fuse;
pub mod inline;
pub mod jvp;
pub mod partition;
pub mod rewrite;
pub mod simplify;
pub mod unstream;
pub mod vjp;
