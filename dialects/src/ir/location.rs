//! Locations: where an operation came from.
//!
//! A span points into a source registered with the context (the `.fut`
//! file or the IR text being parsed), so diagnostics can show it with a
//! caret; a file:line:col location comes from a `loc(...)` in IR text whose
//! file is not loaded. MLIR counterpart: `FileLineColLoc`.

use super::Symbol;

/// A source registered in the context.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SourceId(pub(crate) u32);

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum Location {
    #[default]
    Unknown,
    Span {
        source: SourceId,
        start: u32,
        end: u32,
    },
    FileLineCol {
        file: Symbol,
        line: u32,
        col: u32,
    },
}

/// The text of a source file, with its line starts for line/column lookup.
pub struct SourceFile {
    pub name: String,
    pub text: std::sync::Arc<str>,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: String, text: std::sync::Arc<str>) -> SourceFile {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        SourceFile {
            name,
            text,
            line_starts,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }
}
