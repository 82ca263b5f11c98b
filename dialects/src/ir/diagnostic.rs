//! Diagnostics: an error with a location, rendered through miette with the
//! source text and a caret under the span.

use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};

use super::{Context, Location};

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub location: Location,
    pub message: String,
    /// Secondary locations ("the earlier definition is here").
    pub notes: Vec<(Location, String)>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(location: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            location,
            message: message.into(),
            notes: Vec::new(),
            help: None,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn with_note(mut self, location: Location, note: impl Into<String>) -> Diagnostic {
        self.notes.push((location, note.into()));
        self
    }

    /// 1-based line of the primary location, when it has one.
    pub fn line(&self, ctx: &Context) -> Option<u32> {
        match self.location {
            Location::Span { source, start, .. } => Some(ctx.source(source).line_col(start).0),
            Location::FileLineCol { line, .. } => Some(line),
            Location::Unknown => None,
        }
    }

    /// A miette report showing the source with the span underlined.
    pub fn to_report(&self, ctx: &Context) -> Report {
        let mut d = MietteDiagnostic::new(self.message.clone());
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        let mut text = None;
        if let Location::Span { source, start, end } = self.location {
            let src = ctx.source(source);
            let mut labels = vec![LabeledSpan::new_primary_with_span(
                Some("here".into()),
                (start as usize, end.saturating_sub(start) as usize),
            )];
            for (loc, note) in &self.notes {
                if let Location::Span { source: s2, start, end } = *loc {
                    if s2 == source {
                        labels.push(LabeledSpan::new_with_span(
                            Some(note.clone()),
                            (start as usize, end.saturating_sub(start) as usize),
                        ));
                    }
                }
            }
            d = d.with_labels(labels);
            text = Some(NamedSource::new(src.name.clone(), src.text.to_string()));
        } else if let Location::FileLineCol { file, line, col } = self.location {
            d.message = format!("{}:{line}:{col}: {}", ctx.str(file), d.message);
        }
        let report = Report::new(d);
        match text {
            Some(t) => report.with_source_code(t),
            None => report,
        }
    }

    /// Plain one-line form `file:line:col: error: message`, for tests and logs.
    pub fn to_plain(&self, ctx: &Context) -> String {
        match self.location {
            Location::Span { source, start, .. } => {
                let src = ctx.source(source);
                let (l, c) = src.line_col(start);
                format!("{}:{l}:{c}: error: {}", src.name, self.message)
            }
            Location::FileLineCol { file, line, col } => {
                format!("{}:{line}:{col}: error: {}", ctx.str(file), self.message)
            }
            Location::Unknown => format!("error: {}", self.message),
        }
    }
}
