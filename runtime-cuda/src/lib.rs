//! runtime-cuda
