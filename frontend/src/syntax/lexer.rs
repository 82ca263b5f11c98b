//! The lexer (to be written).
