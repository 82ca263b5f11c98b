//! Source files and byte spans into them.

use std::sync::Arc;

pub use futmlir_dialects::ir::SourceFile;

/// Index of a file in a [`SourceMap`].
pub type FileId = u32;

/// A byte range `lo..hi` in one file of the [`SourceMap`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span { file, lo, hi }
    }
    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// All source files of a compilation: the prelude, the program, imports.
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile::new(name.into(), text.into()));
        (self.files.len() - 1) as FileId
    }
    /// Every file, in `FileId` order.
    /// Register every file with an IR context, so that op locations
    /// render; the ids in the order of [`SourceMap::files`].
    pub fn register_with(&self, ctx: &mut futmlir_dialects::ir::Context) -> Vec<futmlir_dialects::ir::SourceId> {
        self.files()
            .iter()
            .map(|f| ctx.add_source(f.name.clone(), f.text.clone()))
            .collect()
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }
    pub fn text(&self, id: FileId) -> &str {
        &self.files[id as usize].text
    }
    /// The text under a span.
    pub fn snippet(&self, span: Span) -> &str {
        &self.text(span.file)[span.lo as usize..span.hi as usize]
    }
    /// `file:line:col` of the start of a span.
    pub fn describe(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (l, c) = f.line_col(span.lo);
        format!("{}:{l}:{c}", f.name)
    }
    /// `file:line:col-col` of a span (`file:line:col-line:col` across
    /// lines) as Futhark writes locations: the end is the column just past
    /// the span (`(2 + 3i32)` at column 26 is `26-36`, issue514).
    pub fn describe_range(&self, span: Span) -> String {
        let f = self.file(span.file);
        let (l1, c1) = f.line_col(span.lo);
        let (l2, c2) = f.line_col(span.hi.max(span.lo));
        if l1 == l2 {
            format!("{}:{l1}:{c1}-{c2}", f.name)
        } else {
            format!("{}:{l1}:{c1}-{l2}:{c2}", f.name)
        }
    }
}
