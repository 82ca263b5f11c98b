//! Frontend diagnostics: a message at a span, secondary notes, a help line.
//! Rendered through miette with the source text and carets.

use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};

use crate::span::{SourceMap, Span};

#[derive(Clone, Debug)]
pub struct Diag {
    pub span: Span,
    pub message: String,
    /// Secondary spans ("consumed here").
    pub notes: Vec<(Span, String)>,
    pub help: Option<String>,
}

pub type DResult<T> = Result<T, Diag>;

impl Diag {
    pub fn new(span: Span, message: impl Into<String>) -> Diag {
        Diag {
            span,
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }
    pub fn note(mut self, span: Span, note: impl Into<String>) -> Diag {
        self.notes.push((span, note.into()));
        self
    }
    pub fn help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(help.into());
        self
    }

    /// A miette report showing the source with the spans underlined. Notes in
    /// other files are appended to the message as `file:line:col: note`.
    pub fn to_report(&self, sm: &SourceMap) -> Report {
        let mut msg = self.message.clone();
        let file = sm.file(self.span.file);
        let mut labels = vec![LabeledSpan::new_primary_with_span(
            Some("here".into()),
            (self.span.lo as usize, (self.span.hi - self.span.lo) as usize),
        )];
        for (span, note) in &self.notes {
            if span.file == self.span.file {
                labels.push(LabeledSpan::new_with_span(
                    Some(note.clone()),
                    (span.lo as usize, (span.hi - span.lo) as usize),
                ));
            } else {
                msg.push_str(&format!("\n{}: {note}", sm.describe(*span)));
            }
        }
        let mut d = MietteDiagnostic::new(msg).with_labels(labels);
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        Report::new(d).with_source_code(NamedSource::new(file.name.clone(), file.text.to_string()))
    }

    /// Plain form `file:line:col-col: error: message` (the location as
    /// Futhark writes it, end column included), then the notes and the
    /// help on lines of their own, for tests and logs.
    pub fn to_plain(&self, sm: &SourceMap) -> String {
        let mut s = format!("{}: error: {}", sm.describe_range(self.span), self.message);
        for (span, note) in &self.notes {
            s.push_str(&format!("\n  {}: note: {note}", sm.describe_range(*span)));
        }
        if let Some(h) = self.help.as_ref().filter(|h| !h.is_empty()) {
            s.push_str(&format!("\n  help: {h}"));
        }
        s
    }
}
