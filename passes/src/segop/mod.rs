//! Passes on the `segop` dialect (kernels, after `soac-to-segop`).

pub mod locality;
pub mod tile;
