//! Passes on the `imp` level (imperative code over memory blocks, after
//! `segop-to-imp`).

pub mod carried;
pub mod free_early;
