//! The rule-file language (Note [Rule files]): parsing into [`RuleFile`],
//! with every error located at a line and column of the file.

use std::fmt;

use miette::{LabeledSpan, MietteDiagnostic, NamedSource, Report};

/// An s-expression of a rule's pattern: `?x`, `0i32`, `(add ?x ?y)`.
#[derive(Clone, Debug, PartialEq)]
pub enum Sexp {
    Atom { text: String, at: usize },
    List { items: Vec<Sexp>, at: usize },
}

impl Sexp {
    /// Byte offset of the expression in the rule file.
    pub fn offset(&self) -> usize {
        match self {
            Sexp::Atom { at, .. } | Sexp::List { at, .. } => *at,
        }
    }

    /// The pattern variables (`?x`) in order of first appearance.
    pub fn vars(&self) -> Vec<(&str, usize)> {
        fn go<'s>(e: &'s Sexp, out: &mut Vec<(&'s str, usize)>) {
            match e {
                Sexp::Atom { text, at } if text.starts_with('?') => {
                    if !out.iter().any(|(v, _)| *v == text) {
                        out.push((text, *at));
                    }
                }
                Sexp::Atom { .. } => {}
                Sexp::List { items, .. } => items.iter().for_each(|i| go(i, out)),
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom { text, .. } => f.write_str(text),
            Sexp::List { items, .. } => {
                f.write_str("(")?;
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// `if (pred ?x ?y)` after a rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub predicate: String,
    pub args: Vec<String>,
    pub at: usize,
}

/// One named rule: `rule name lhs => rhs` (or `<=>`) with conditions.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleDef {
    pub name: String,
    pub lhs: Sexp,
    pub rhs: Sexp,
    pub bidirectional: bool,
    pub conditions: Vec<Condition>,
    pub at: usize,
}

/// `ruleset name` and the rules under it.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSet {
    pub name: String,
    pub rules: Vec<RuleDef>,
    pub at: usize,
}

/// A line of the `schedule`: run `set` for at most `iters` iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub set: String,
    pub iters: usize,
    pub at: usize,
}

/// A parsed rule file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RuleFile {
    /// The term language the rules are written in: `scalar` (the
    /// default) or `fusion`, from a `language NAME` line before the first
    /// rule set, with its offset.
    pub language: Option<(String, usize)>,
    pub sets: Vec<RuleSet>,
    pub schedule: Vec<Step>,
}

/// The term languages a rule file may name in a `language` line.
pub const LANGUAGES: &[&str] = &["scalar", "fusion"];

impl RuleFile {
    /// The file's term language (`scalar` when it names none).
    pub fn language(&self) -> &str {
        self.language.as_ref().map_or("scalar", |(l, _)| l.as_str())
    }
}

/// An error in a rule file, at a byte offset.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleError {
    pub message: String,
    pub at: usize,
    pub len: usize,
}

impl RuleError {
    pub fn new(message: impl Into<String>, at: usize, len: usize) -> RuleError {
        RuleError {
            message: message.into(),
            at,
            len,
        }
    }

    /// 1-based line and column of the error in `text`.
    pub fn line_col(&self, text: &str) -> (usize, usize) {
        let before = &text[..self.at.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// `path:line:col: message`, for logs and tests.
    pub fn to_plain(&self, path: &str, text: &str) -> String {
        let (l, c) = self.line_col(text);
        format!("{path}:{l}:{c}: {}", self.message)
    }

    /// A report with the file's text and a caret under the error.
    pub fn to_report(&self, path: &str, text: &str) -> Report {
        let (l, c) = self.line_col(text);
        let d = MietteDiagnostic::new(format!("{path}:{l}:{c}: {}", self.message)).with_labels(vec![
            LabeledSpan::new_primary_with_span(Some("here".into()), (self.at, self.len.max(1))),
        ]);
        Report::new(d).with_source_code(NamedSource::new(path, text.to_string()))
    }
}

/// Parse the text of a rule file. Only the syntax is checked here;
/// [`super::ruleset::compile`] checks operators, predicates and variables.
pub fn parse(text: &str) -> Result<RuleFile, RuleError> {
    let mut file = RuleFile::default();
    let mut in_schedule = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_at = offset;
        offset += raw.len();
        let line = raw.split('#').next().unwrap_or("");
        let trimmed = line.trim_start();
        if trimmed.trim().is_empty() {
            continue;
        }
        let at = line_at + (line.len() - trimmed.len());
        let mut lx = Lexer {
            s: line.as_bytes(),
            pos: line.len() - trimmed.len(),
            base: line_at,
        };
        let (kw, kw_at) = lx
            .word()
            .ok_or_else(|| RuleError::new("expected `ruleset`, `rule`, `schedule` or a schedule step", at, 1))?;
        match kw.as_str() {
            "language" => {
                let (name, name_at) = lx.name("a term language")?;
                lx.end()?;
                if !file.sets.is_empty() || file.language.is_some() || in_schedule {
                    return Err(RuleError::new(
                        "`language` must come once, before the first rule set",
                        kw_at,
                        kw.len(),
                    ));
                }
                if !LANGUAGES.contains(&name.as_str()) {
                    return Err(RuleError::new(
                        format!("unknown term language `{name}` (known: {})", LANGUAGES.join(", ")),
                        name_at,
                        name.len(),
                    ));
                }
                file.language = Some((name, name_at));
            }
            "ruleset" => {
                let (name, name_at) = lx.name("a rule set name")?;
                lx.end()?;
                if file.sets.iter().any(|s| s.name == name) {
                    return Err(RuleError::new(
                        format!("rule set `{name}` is defined twice"),
                        name_at,
                        name.len(),
                    ));
                }
                file.sets.push(RuleSet {
                    name,
                    rules: Vec::new(),
                    at: name_at,
                });
                in_schedule = false;
            }
            "schedule" => {
                lx.end()?;
                in_schedule = true;
            }
            "rule" if !in_schedule => {
                let Some(set) = file.sets.last_mut() else {
                    return Err(RuleError::new(
                        "a rule must come after a `ruleset NAME` line",
                        kw_at,
                        kw.len(),
                    ));
                };
                let (name, name_at) = lx.name("a rule name")?;
                if set.rules.iter().any(|r| r.name == name) {
                    return Err(RuleError::new(
                        format!("rule `{name}` is defined twice in rule set `{}`", set.name),
                        name_at,
                        name.len(),
                    ));
                }
                let lhs = lx.sexp()?;
                let bidirectional = match lx.word() {
                    Some((w, _)) if w == "=>" => false,
                    Some((w, _)) if w == "<=>" => true,
                    other => {
                        let (found, fat) = other.unwrap_or_else(|| ("end of line".into(), lx.here()));
                        return Err(RuleError::new(
                            format!("expected `=>` or `<=>`, found `{found}`"),
                            fat,
                            found.len(),
                        ));
                    }
                };
                let rhs = lx.sexp()?;
                let mut conditions = Vec::new();
                while let Some((w, wat)) = lx.word() {
                    if w != "if" {
                        return Err(RuleError::new(
                            format!("expected `if` or the end of the line, found `{w}`"),
                            wat,
                            w.len(),
                        ));
                    }
                    conditions.push(lx.condition()?);
                }
                set.rules.push(RuleDef {
                    name,
                    lhs,
                    rhs,
                    bidirectional,
                    conditions,
                    at: kw_at,
                });
            }
            _ if in_schedule => {
                let (n, n_at) = lx.word().ok_or_else(|| {
                    RuleError::new("expected an iteration count after the rule set name", lx.here(), 1)
                })?;
                let iters = n
                    .parse::<usize>()
                    .map_err(|_| RuleError::new(format!("expected an iteration count, found `{n}`"), n_at, n.len()))?;
                lx.end()?;
                file.schedule.push(Step {
                    set: kw,
                    iters,
                    at: kw_at,
                });
            }
            _ => {
                return Err(RuleError::new(
                    format!("expected `ruleset`, `rule` or `schedule`, found `{kw}`"),
                    kw_at,
                    kw.len(),
                ))
            }
        }
    }
    Ok(file)
}

/// A cursor over one line; offsets it reports are in the whole file.
struct Lexer<'s> {
    s: &'s [u8],
    pos: usize,
    base: usize,
}

impl Lexer<'_> {
    fn here(&self) -> usize {
        self.base + self.pos
    }

    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// The next whitespace- or parenthesis-delimited word.
    fn word(&mut self) -> Option<(String, usize)> {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.s.len() && !self.s[self.pos].is_ascii_whitespace() && !b"()".contains(&self.s[self.pos]) {
            self.pos += 1;
        }
        (self.pos > start).then(|| {
            (
                String::from_utf8_lossy(&self.s[start..self.pos]).into_owned(),
                self.base + start,
            )
        })
    }

    fn name(&mut self, what: &str) -> Result<(String, usize), RuleError> {
        match self.word() {
            Some((w, at)) if w.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) => Ok((w, at)),
            Some((w, at)) => Err(RuleError::new(format!("expected {what}, found `{w}`"), at, w.len())),
            None => Err(RuleError::new(
                format!("expected {what}, found the end of the line"),
                self.here(),
                1,
            )),
        }
    }

    fn end(&mut self) -> Result<(), RuleError> {
        self.skip_ws();
        if self.pos < self.s.len() {
            let rest = String::from_utf8_lossy(&self.s[self.pos..]).trim_end().to_string();
            return Err(RuleError::new(
                format!("unexpected `{rest}` at the end of the line"),
                self.here(),
                rest.len(),
            ));
        }
        Ok(())
    }

    fn sexp(&mut self) -> Result<Sexp, RuleError> {
        self.skip_ws();
        match self.s.get(self.pos) {
            None => Err(RuleError::new(
                "expected a pattern, found the end of the line",
                self.here(),
                1,
            )),
            Some(b')') => Err(RuleError::new("unbalanced `)`", self.here(), 1)),
            Some(b'(') => {
                let at = self.here();
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match self.s.get(self.pos) {
                        None => return Err(RuleError::new("this `(` is not closed on its line", at, 1)),
                        Some(b')') => {
                            self.pos += 1;
                            break;
                        }
                        Some(_) => items.push(self.sexp()?),
                    }
                }
                match items.first() {
                    None => Err(RuleError::new("expected an operator after `(`", at, 2)),
                    Some(Sexp::List { at, .. }) => {
                        Err(RuleError::new("expected an operator name, found a list", *at, 1))
                    }
                    Some(Sexp::Atom { text, at }) if text.starts_with('?') => Err(RuleError::new(
                        format!("expected an operator name, found the variable `{text}`"),
                        *at,
                        text.len(),
                    )),
                    Some(_) => Ok(Sexp::List { items, at }),
                }
            }
            Some(_) => {
                let (text, at) = self.word().expect("a non-space, non-parenthesis byte starts a word");
                if text == "?" {
                    return Err(RuleError::new("a pattern variable needs a name: `?x`", at, 1));
                }
                Ok(Sexp::Atom { text, at })
            }
        }
    }

    /// `(pred ?x ?y)` after `if`.
    fn condition(&mut self) -> Result<Condition, RuleError> {
        let e = self.sexp()?;
        let Sexp::List { items, at } = e else {
            return Err(RuleError::new(
                "expected a condition `(predicate ?x ...)`",
                e.offset(),
                1,
            ));
        };
        let mut it = items.into_iter();
        let Some(Sexp::Atom { text: predicate, .. }) = it.next() else {
            unreachable!("sexp() rejects lists without an operator name")
        };
        let mut args = Vec::new();
        for a in it {
            match a {
                Sexp::Atom { text, .. } if text.starts_with('?') => args.push(text),
                other => {
                    return Err(RuleError::new(
                        format!("a condition's arguments are pattern variables, found `{other}`"),
                        other.offset(),
                        other.to_string().len(),
                    ))
                }
            }
        }
        Ok(Condition { predicate, args, at })
    }
}
