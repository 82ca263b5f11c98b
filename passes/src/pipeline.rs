//! Pipeline text in MLIR's style:
//!
//! ```text
//! ir-cse,ir-dce{max-iters=8},builtin.module(ir-op-stats{json=true})
//! ```
//!
//! An element is a pass with optional `{key=value ...}` options (separated
//! by spaces or commas), or an op name with a nested pipeline in
//! parentheses that runs on every op of that name directly inside the
//! current one (or on the current op itself when it has that name).
//! [`Pipeline`]'s `Display` prints every option, so printing and parsing
//! again gives the same pipeline.

use std::fmt;

use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};

use crate::pass::{Level, OptionValue, Options, PassInfo};
use crate::registry::{all_passes, lookup};

#[derive(Clone)]
pub enum Element {
    Pass {
        info: &'static PassInfo,
        options: Options,
        /// Where its name is in the pipeline text (offset, length): for
        /// a caret under a misplaced pass.
        span: (usize, usize),
    },
    Nested {
        anchor: String,
        pipeline: Pipeline,
    },
}

impl PartialEq for Element {
    fn eq(&self, o: &Element) -> bool {
        match (self, o) {
            (
                Element::Pass {
                    info: a, options: x, ..
                },
                Element::Pass {
                    info: b, options: y, ..
                },
            ) => a.name == b.name && x == y,
            (Element::Nested { anchor: a, pipeline: p }, Element::Nested { anchor: b, pipeline: q }) => {
                a == b && p == q
            }
            _ => false,
        }
    }
}

#[derive(Clone, PartialEq, Default)]
pub struct Pipeline {
    pub elements: Vec<Element>,
}

impl fmt::Display for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.elements.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match e {
                Element::Pass { info, options, .. } => {
                    f.write_str(info.name)?;
                    if !options.values.is_empty() {
                        f.write_str("{")?;
                        for (j, (k, v)) in options.values.iter().enumerate() {
                            if j > 0 {
                                f.write_str(" ")?;
                            }
                            write!(f, "{k}={v}")?;
                        }
                        f.write_str("}")?;
                    }
                }
                Element::Nested { anchor, pipeline } => write!(f, "{anchor}({pipeline})")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pipeline({self})")
    }
}

/// A malformed pipeline: the message and the byte range to put a caret under.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineError {
    pub message: String,
    pub start: usize,
    pub len: usize,
    pub help: Option<String>,
}

impl PipelineError {
    /// A report showing the pipeline text with a caret under the error.
    pub fn to_report(&self, text: &str) -> Report {
        let mut d = MietteDiagnostic::new(self.message.clone()).with_labels(vec![LabeledSpan::new_primary_with_span(
            Some("here".into()),
            (self.start, self.len.max(1)),
        )]);
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        Report::new(d).with_source_code(NamedSource::new("pass pipeline", text.to_string()))
    }
}

impl Pipeline {
    pub fn parse(text: &str) -> Result<Pipeline, PipelineError> {
        let mut p = PipelineParser {
            s: text.as_bytes(),
            text,
            pos: 0,
        };
        let pl = p.pipeline()?;
        p.skip_ws();
        if p.pos < p.s.len() {
            return Err(p.err(
                p.pos,
                1,
                format!("expected ',' or end of pipeline, found '{}'", p.rest_char()),
            ));
        }
        Ok(pl)
    }

    /// Checks that each pass gets IR of a level it reads, starting from
    /// the levels the input may be at (`start`; Note [Pass levels]);
    /// returns the levels the IR may be at after the pipeline. The
    /// error's span is the misplaced pass's name.
    pub fn check_levels(&self, start: &[Level]) -> Result<Vec<Level>, PipelineError> {
        let mut levels = start.to_vec();
        let mut last: Option<&'static str> = None;
        for e in &self.elements {
            match e {
                Element::Pass { info, span, .. } => {
                    let ok: Vec<Level> = levels.iter().copied().filter(|l| info.reads.contains(l)).collect();
                    if ok.is_empty() {
                        let names = |ls: &[Level]| ls.iter().map(|l| l.name()).collect::<Vec<_>>().join(" or ");
                        let now = match last {
                            Some(p) => format!("after '{p}'"),
                            None => "at the start".to_string(),
                        };
                        return Err(PipelineError {
                            message: format!(
                                "pass '{}' works on {} IR, but the IR is at the {} level here ({now})",
                                info.name,
                                names(info.reads),
                                names(&levels)
                            ),
                            start: span.0,
                            len: span.1,
                            help: Some(level_help(&levels, info.reads)),
                        });
                    }
                    levels = match info.writes {
                        Some(w) => vec![w],
                        None => ok,
                    };
                    last = Some(info.name);
                }
                Element::Nested { pipeline, .. } => {
                    levels = pipeline.check_levels(&levels)?;
                }
            }
        }
        Ok(levels)
    }

    /// The pipeline up to the IR of `level`: its elements up to the last
    /// one after which the IR is at `level` (from `start`; Note [Pass
    /// levels]), which is what `--emit=LEVEL` prints. `None` when the IR
    /// is never at that level.
    pub fn up_to_level(&self, start: &[Level], level: Level) -> Option<Pipeline> {
        let mut levels = start.to_vec();
        let mut keep = (levels == [level]).then_some(0);
        for (i, e) in self.elements.iter().enumerate() {
            let one = Pipeline {
                elements: vec![e.clone()],
            };
            levels = one.check_levels(&levels).ok()?;
            if levels == [level] {
                keep = Some(i + 1);
            }
        }
        keep.map(|k| Pipeline {
            elements: self.elements[..k].to_vec(),
        })
    }

    /// The pipeline up to its last pass (at the top) that converts the
    /// program to `level`: `--emit` of a level below imp stops there
    /// (Note [Passes below imp]).
    pub fn up_to_writer(&self, level: Level) -> Option<Pipeline> {
        self.up_to_last(|info| info.writes == Some(level))
    }

    /// The pipeline up to its last pass named `name` (at the top).
    pub fn up_to_pass(&self, name: &str) -> Option<Pipeline> {
        self.up_to_last(|info| info.name == name)
    }

    fn up_to_last(&self, keep: impl Fn(&PassInfo) -> bool) -> Option<Pipeline> {
        let k = self
            .elements
            .iter()
            .rposition(|e| matches!(e, Element::Pass { info, .. } if keep(info)))?;
        Some(Pipeline {
            elements: self.elements[..=k].to_vec(),
        })
    }

    /// The rest of the pipeline after [`Pipeline::up_to_level`]: what
    /// continues from IR that `--emit=LEVEL` printed.
    pub fn after_level(&self, start: &[Level], level: Level) -> Option<Pipeline> {
        let k = self.up_to_level(start, level)?.elements.len();
        Some(Pipeline {
            elements: self.elements[k..].to_vec(),
        })
    }

    /// Whether any pass is in the pipeline (nested ones included).
    pub fn is_empty(&self) -> bool {
        self.elements.iter().all(|e| match e {
            Element::Pass { .. } => false,
            Element::Nested { pipeline, .. } => pipeline.is_empty(),
        })
    }
}

// Note [Pass levels]
// ~~~~~~~~~~~~~~~~~~~
// The compile goes through levels (source, soac, segop, mem, imp), each
// a set of dialects. A pass says which levels it reads and, if it is a
// conversion, which it writes ([`PassInfo::reads`], `writes`). A pass run
// on IR of a level it does not read used to do nothing, silently
// (`imp-carried-memory` on soac IR finds no imp loops), or fail deep
// inside (`segop-to-imp` before `soac-to-segop`). So a pipeline is
// checked before it runs: from the input's level (a `.fut` program is at
// the soac level once internalised; IR says by its ops which levels it
// may be at, [`crate::manager::ir_levels`]), each pass must read one of
// the levels the passes before it leave, and the error has a caret under
// the first that does not. The ops do not always tell: segop IR without
// allocations looks like mem IR, and IR with only `soac` ops (scalars,
// or SOACs that `soac-to-segop` leaves on the host) may be soac, segop or
// mem IR; a pass is refused only when no possible level fits.

/// The help of a level mismatch: the conversions between the levels.
fn level_help(now: &[Level], wants: &[Level]) -> String {
    let conversions: Vec<String> = all_passes()
        .into_iter()
        .filter_map(|p| {
            let w = p.writes?;
            let from: Vec<&str> = p.reads.iter().map(|r| r.name()).collect();
            Some(format!("{} ({} -> {})", p.name, from.join("|"), w.name()))
        })
        .collect();
    let later = wants.iter().all(|w| now.iter().all(|n| w < n));
    format!(
        "{}; the conversions: {}",
        if later {
            "the pass belongs earlier in the pipeline"
        } else {
            "a conversion must come first"
        },
        conversions.join(", ")
    )
}

struct PipelineParser<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')
}

impl PipelineParser<'_> {
    fn err(&self, start: usize, len: usize, message: String) -> PipelineError {
        PipelineError {
            message,
            start,
            len,
            help: None,
        }
    }
    fn rest_char(&self) -> String {
        self.text[self.pos..]
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_default()
    }
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }
    fn name(&mut self) -> Result<(usize, &str), PipelineError> {
        self.skip_ws();
        let start = self.pos;
        while self.peek().is_some_and(is_name_char) {
            self.pos += 1;
        }
        if start == self.pos {
            let found = if self.pos >= self.s.len() {
                "end of pipeline".to_string()
            } else {
                format!("'{}'", self.rest_char())
            };
            return Err(self.err(start, 1, format!("expected a pass name, found {found}")));
        }
        Ok((start, &self.text[start..self.pos]))
    }

    fn pipeline(&mut self) -> Result<Pipeline, PipelineError> {
        let mut elements = Vec::new();
        self.skip_ws();
        if self.pos >= self.s.len() || self.peek() == Some(b')') {
            return Ok(Pipeline { elements });
        }
        loop {
            elements.push(self.element()?);
            self.skip_ws();
            if self.peek() == Some(b',') {
                self.pos += 1;
            } else {
                break;
            }
        }
        Ok(Pipeline { elements })
    }

    fn element(&mut self) -> Result<Element, PipelineError> {
        let (start, name) = self.name()?;
        let name = name.to_string();
        self.skip_ws();
        if self.peek() == Some(b'(') {
            if lookup(&name).is_some() {
                return Err(self.err(
                    start,
                    name.len(),
                    format!("pass '{name}' cannot take a nested pipeline"),
                ));
            }
            if !name.contains('.') {
                return Err(self.err(
                    start,
                    name.len(),
                    format!("'{name}' is not an op name ('dialect.op') to anchor a nested pipeline on"),
                ));
            }
            let open = self.pos;
            self.pos += 1;
            let pipeline = self.pipeline()?;
            self.skip_ws();
            if self.peek() != Some(b')') {
                let mut e = self.err(self.pos, 1, "expected ')' to close the nested pipeline".into());
                e.help = Some(format!("the '(' at offset {open} is not closed"));
                return Err(e);
            }
            self.pos += 1;
            return Ok(Element::Nested { anchor: name, pipeline });
        }
        let Some(info) = lookup(&name) else {
            let mut e = self.err(start, name.len(), format!("unknown pass '{name}'"));
            let close = close_names(&name);
            e.help = Some(if close.is_empty() {
                "run `futmlir opt --list-passes` to see every pass".to_string()
            } else {
                format!(
                    "did you mean {}?",
                    close.iter().map(|c| format!("'{c}'")).collect::<Vec<_>>().join(", ")
                )
            });
            return Err(e);
        };
        let mut options = Options::defaults(info.options);
        if self.peek() == Some(b'{') {
            self.pos += 1;
            loop {
                self.skip_ws();
                match self.peek() {
                    Some(b'}') => {
                        self.pos += 1;
                        break;
                    }
                    Some(b',') => {
                        self.pos += 1;
                        continue;
                    }
                    None => return Err(self.err(self.pos, 1, "expected '}' to close the options".into())),
                    _ => {}
                }
                let (kstart, key) = self.name()?;
                let key = key.to_string();
                let Some(spec) = info.options.iter().find(|o| o.name == key) else {
                    let mut e = self.err(kstart, key.len(), format!("pass '{}' has no option '{key}'", info.name));
                    e.help = Some(if info.options.is_empty() {
                        "it takes no options".to_string()
                    } else {
                        format!(
                            "its options: {}",
                            info.options.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
                        )
                    });
                    return Err(e);
                };
                self.skip_ws();
                let (vstart, value) = if self.peek() == Some(b'=') {
                    self.pos += 1;
                    self.skip_ws();
                    self.option_value()?
                } else {
                    (kstart, "true".to_string())
                };
                let v = OptionValue::parse(spec.kind, &value).map_err(|m| {
                    self.err(
                        vstart,
                        value.len().max(1),
                        format!("bad value for option '{key}' of '{}': {m}", info.name),
                    )
                })?;
                if let Some(slot) = options.values.iter_mut().find(|(n, _)| *n == spec.name) {
                    slot.1 = v;
                }
            }
        }
        Ok(Element::Pass {
            info,
            options,
            span: (start, info.name.len()),
        })
    }

    fn option_value(&mut self) -> Result<(usize, String), PipelineError> {
        let start = self.pos;
        if self.peek() == Some(b'"') {
            self.pos += 1;
            let mut out = String::new();
            loop {
                match self.peek() {
                    None => return Err(self.err(start, 1, "unterminated string in option value".into())),
                    Some(b'"') => {
                        self.pos += 1;
                        return Ok((start, out));
                    }
                    Some(b'\\') if self.pos + 1 < self.s.len() => {
                        out.push(self.s[self.pos + 1] as char);
                        self.pos += 2;
                    }
                    Some(_) => {
                        let c = self.text[self.pos..].chars().next().unwrap_or('\u{fffd}');
                        out.push(c);
                        self.pos += c.len_utf8();
                    }
                }
            }
        }
        while self
            .peek()
            .is_some_and(|c| !matches!(c, b',' | b'}' | b' ' | b'\t' | b'\n'))
        {
            self.pos += 1;
        }
        Ok((start, self.text[start..self.pos].to_string()))
    }
}

/// Registered pass names close to `name`, closest first.
pub fn close_names(name: &str) -> Vec<&'static str> {
    let mut v: Vec<(usize, &'static str)> = all_passes()
        .iter()
        .map(|p| (futmlir_dialects::ir::parse::edit_distance(name, p.name), p.name))
        .filter(|&(d, n)| d <= name.len().max(4) / 3 + 1 || n.contains(name))
        .collect();
    v.sort();
    v.into_iter().take(3).map(|(_, n)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_parse_roundtrip() {
        for text in [
            "ir-cse",
            "ir-cse,ir-dce{max-iters=3}",
            "builtin.module(ir-dce,ir-op-stats{json=true})",
            "ir-dce{max-iters=2},builtin.module(ir-cse,builtin.module(ir-dce))",
            "",
        ] {
            let p = Pipeline::parse(text).unwrap();
            let printed = p.to_string();
            let q = Pipeline::parse(&printed).unwrap();
            assert_eq!(p, q, "{text} -> {printed}");
            assert_eq!(printed, q.to_string());
        }
    }

    #[test]
    fn levels_follow_the_pipeline() {
        use crate::pass::Level;
        let p = Pipeline::parse("ir-dce,soac-fuse,builtin.module(soac-simplify)").unwrap();
        assert_eq!(p.check_levels(&[Level::Soac]).unwrap(), vec![Level::Soac]);
        // soac-simplify also reads segop IR; soac-fuse does not.
        let e = p.check_levels(&[Level::Segop, Level::Mem]).unwrap_err();
        assert_eq!((e.start, e.len), (7, 9));
        assert!(
            e.message.contains("at the segop or mem level here (after 'ir-dce')"),
            "{}",
            e.message
        );
        let e = p.check_levels(&[Level::Imp]).unwrap_err();
        assert!(e.help.unwrap().starts_with("the pass belongs earlier"));
        // Of the levels the IR may be at, those the passes read remain.
        let q = Pipeline::parse("soac-simplify").unwrap();
        assert_eq!(
            q.check_levels(Level::ALL).unwrap(),
            vec![Level::Soac, Level::Segop, Level::Mem]
        );
    }

    #[test]
    fn comma_and_space_separated_options() {
        let a = Pipeline::parse("ir-op-stats{json=true}").unwrap();
        let b = Pipeline::parse("ir-op-stats{json}").unwrap();
        assert_eq!(a, b);
        let c = Pipeline::parse("ir-dce{max-iters=4,}").unwrap();
        assert_eq!(c.to_string(), "ir-dce{max-iters=4}");
    }

    #[test]
    fn errors_point_at_the_bad_part() {
        let e = Pipeline::parse("ir-cse,ir-dse").unwrap_err();
        assert_eq!((e.start, e.len), (7, 6));
        assert_eq!(e.message, "unknown pass 'ir-dse'");
        assert!(e.help.unwrap().contains("'ir-dce'"));

        let e = Pipeline::parse("ir-dce{max-iters=x}").unwrap_err();
        assert_eq!(e.start, 17);
        assert!(
            e.message.contains("expected unsigned integer, found 'x'"),
            "{}",
            e.message
        );

        let e = Pipeline::parse("ir-dce{nope=1}").unwrap_err();
        assert_eq!((e.start, e.len), (7, 4));

        let e = Pipeline::parse("builtin.module(ir-cse").unwrap_err();
        assert_eq!(e.start, 21);

        let e = Pipeline::parse("ir-cse(ir-dce)").unwrap_err();
        assert!(e.message.contains("cannot take a nested pipeline"));

        let e = Pipeline::parse("ir-cse,,").unwrap_err();
        assert_eq!(e.start, 7);
    }
}
