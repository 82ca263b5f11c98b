//! Frontend diagnostics: a message at a span, secondary notes, a help line.
//! Rendered through miette with the source text and carets.

use std::cell::RefCell;

use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report, Severity};

/// Lines longer than this get no snippet in a report.
const MAX_SNIPPET_LINE: usize = 4096;

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
        self.report_as(sm, Severity::Error)
    }

    /// [`Diag::to_report`] for a warning (Note [Warnings]).
    pub fn to_warning_report(&self, sm: &SourceMap) -> Report {
        self.report_as(sm, Severity::Warning)
    }

    fn report_as(&self, sm: &SourceMap, severity: Severity) -> Report {
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
        // miette's renderer panics on columns past 65,535, and a snippet of
        // such a line helps nobody: those get the location in the message
        // and no snippet.
        let text = file.text.as_bytes();
        let long_line = std::iter::once(self.span)
            .chain(self.notes.iter().map(|(s, _)| *s).filter(|s| s.file == self.span.file))
            .any(|s| {
                let at = (s.lo as usize).min(text.len());
                let start = text[..at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                let end = text[at..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(text.len(), |i| at + i);
                end - start > MAX_SNIPPET_LINE
            });
        if long_line {
            let mut d =
                MietteDiagnostic::new(format!("{}: {msg}", sm.describe_range(self.span))).with_severity(severity);
            if let Some(h) = &self.help {
                d = d.with_help(h.clone());
            }
            return Report::new(d);
        }
        let mut d = MietteDiagnostic::new(msg).with_labels(labels).with_severity(severity);
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        Report::new(d).with_source_code(NamedSource::new(file.name.clone(), file.text.to_string()))
    }

    /// Plain form `file:line:col-col: error: message` (the location as
    /// Futhark writes it, end column included), then the notes and the
    /// help on lines of their own, for tests and logs.
    pub fn to_plain(&self, sm: &SourceMap) -> String {
        self.plain_as(sm, "error")
    }

    /// [`Diag::to_plain`] for a warning: `file:line:col-col: warning: ...`.
    pub fn to_plain_warning(&self, sm: &SourceMap) -> String {
        self.plain_as(sm, "warning")
    }

    fn plain_as(&self, sm: &SourceMap, what: &str) -> String {
        let mut s = format!("{}: {what}: {}", sm.describe_range(self.span), self.message);
        for (span, note) in &self.notes {
            s.push_str(&format!("\n  {}: note: {note}", sm.describe_range(*span)));
        }
        if let Some(h) = self.help.as_ref().filter(|h| !h.is_empty()) {
            s.push_str(&format!("\n  help: {h}"));
        }
        s
    }
}

// Note [Warnings]
// ~~~~~~~~~~~~~~~
// Warnings are Futhark's (its test programs match them with `warning:`
// regexes): an inclusion shadowing a type, a uniqueness annotation on a
// non-array type, an overloaded top-level function defaulted, arrays
// compared with `==`, a size expression with a binding, a typed hole,
// `#[unroll]` on a loop of no constant count, a safety check under
// `#[warn(safety_checks)]`, and a `let` of a name that nothing after it
// mentions (issue 26 asks for unused bindings; `_x` silences it). Module elaboration, the checker and the lints
// after it (`check::warnings`) all find some, deep in code that returns
// errors but has nowhere to put anything else, so a warning is reported
// with [`warn`] to the collector that [`collect_warnings`] installs for
// the duration of a check (none: it is dropped). `check::check_file`
// keeps those in the user's files, once each, in source order, in
// `Checked::warnings`; `futmlir build` prints them (`-W` silences them,
// `--Werror` fails on them) and `futmlir test` matches them.

thread_local! {
    static WARNINGS: RefCell<Option<Vec<Diag>>> = const { RefCell::new(None) };
}

/// Reports a warning to the collector installed by [`collect_warnings`]
/// on this thread, if any (Note [Warnings]).
pub fn warn(d: Diag) {
    WARNINGS.with(|w| {
        if let Some(ws) = w.borrow_mut().as_mut() {
            ws.push(d);
        }
    });
}

/// Runs `f` with a fresh warning collector and returns what it reported,
/// restoring the collector that was installed before (Note [Warnings]).
pub fn collect_warnings<R>(f: impl FnOnce() -> R) -> (R, Vec<Diag>) {
    let outer = WARNINGS.with(|w| w.replace(Some(Vec::new())));
    let r = f();
    let ws = WARNINGS.with(|w| w.replace(outer)).unwrap_or_default();
    (r, ws)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceMap;

    /// A diagnostic on a line past miette's column limit (65,535) renders,
    /// with its location in the message and no snippet; a short line keeps
    /// its snippet.
    #[test]
    fn long_lines_render_without_a_snippet() {
        let mut sm = SourceMap::default();
        let text = format!("def main : i32 = {}1 +", " ".repeat(70_000));
        let n = text.len() as u32;
        let f = sm.add("long.fut", text);
        let out = format!(
            "{:?}",
            Diag::new(Span::new(f, n, n), "Unexpected end of file").to_report(&sm)
        );
        assert!(out.contains("long.fut:1:"), "{out}");
        assert!(out.contains("Unexpected end of file"), "{out}");
        assert!(out.len() < 1000, "no snippet of the long line");
        let g = sm.add("short.fut", "def main : i32 = 1 +");
        let out = format!(
            "{:?}",
            Diag::new(Span::new(g, 20, 20), "Unexpected end of file").to_report(&sm)
        );
        assert!(out.contains("def main : i32 = 1 +"), "{out}");
    }
}
