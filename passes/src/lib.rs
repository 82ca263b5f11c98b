//! passes
