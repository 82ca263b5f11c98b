//! The parser (to be written).
