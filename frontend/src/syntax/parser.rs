//! The parser (stub until the real one lands).
use super::ast::*;
use crate::diag::Diag;
use crate::span::{FileId, Span};

pub fn parse_program(file: FileId, _text: &str) -> Result<Program, Diag> {
    Err(Diag::new(Span::new(file, 0, 0), "parser missing"))
}
pub fn parse_type_scheme(file: FileId, _text: &str) -> Result<(Vec<TypeParam>, TypeExp), Diag> {
    Err(Diag::new(Span::new(file, 0, 0), "parser missing"))
}
