//! The host runtime linked into every futmlir executable.
//!
//! It will talk to the CUDA driver through `cudarc` with dynamic loading
//! (so nothing needs CUDA at build time), own the context, the module loaded
//! from embedded PTX, a free-list memory pool, launches and copies, and the
//! executable's command line (Futhark's conventions). It arrives with the
//! backend issue; nothing links it yet.
