//! Futhark source text to [`ast`]: the [`lexer`] and the [`parser`].

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod visit;

#[cfg(test)]
mod tests;
