//! `-- ==` test blocks: the `futhark test` format of test specifications
//! written in a program's comments.
//!
//! A comment line `-- ==` starts a block; the comment lines right after it
//! (up to the first line that is not a `--` comment) hold the spec:
//!
//! ```text
//! -- ==
//! -- entry: main other
//! -- tags { disable no_interp }
//! -- input { 1i32 [1, 2, 3] } output { 6i32 }
//! -- compiled input @ data/big.in output @ data/big.out
//! -- input { 0i64 } error: Index \[0\] out of bounds
//! -- random input { [100]f32 [10][2]i32 } auto output
//! -- structure { Screma 1 }
//! -- property: reverse_involution
//! ```
//!
//! A block with `error: REGEX` and no input expects compilation to fail.
//! Values inside braces stay raw text (read later by [`crate::values`]);
//! every case and block records its 1-based source line.

use std::fmt;
use std::path::PathBuf;

/// The `.fut` files under `dir`, searched recursively, sorted by path: the
/// programs of a test folder, for `futmlir test` and the test harnesses.
pub fn fut_files(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    fn walk(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(&path, found)?;
            } else if path.extension().is_some_and(|e| e == "fut") {
                found.push(path);
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    found.sort();
    Ok(found)
}

/// One `-- ==` block.
#[derive(Clone, Debug, PartialEq)]
pub struct TestBlock {
    /// The entry points the cases apply to (`entry:`; default `main`).
    pub entries: Vec<String>,
    /// `tags { ... }` (e.g. `disable`, `no_interp`).
    pub tags: Vec<String>,
    pub cases: Vec<TestCase>,
    /// `error: REGEX` without an input: compilation must fail with a message
    /// the regex matches.
    pub compile_error: Option<String>,
    /// `warning: REGEX` lines (kept, not checked yet).
    pub warnings: Vec<String>,
    /// `structure { ... }` blocks (checked by `futmlir test` after the
    /// default soac pipeline).
    pub structure: Vec<Structure>,
    /// `property: names...`: the `#[prop]` entry points to test with
    /// random candidates, each with the line that names it.
    pub properties: Vec<(String, usize)>,
    /// The line of the `-- ==`.
    pub line: usize,
}

/// One input with its expectation.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    pub input: InputSpec,
    pub expected: Expected,
    /// `compiled input`: compiled backends only (not the interpreter).
    pub compiled: bool,
    /// `nobench input`: not for benchmarking.
    pub nobench: bool,
    /// `notest input`: benchmarking only; the test runner skips it.
    pub notest: bool,
    /// `"name"` before the case: the dataset's name.
    pub name: Option<String>,
    /// Other words before `input` (`no_python`, `no_cpu`): the case's
    /// tags; `no_BACKEND` skips it on that backend.
    pub tags: Vec<String>,
    /// The line where the case starts (its first modifier or `input`).
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InputSpec {
    /// `input { ... }`: the raw value text between the braces.
    Inline(String),
    /// `input @ file`: relative to the program's directory; text or binary.
    File(PathBuf),
    /// `random input { [100]f32 i64 }`: one value spec per argument.
    Random(Vec<String>),
    /// `script input { ... }`: a FutharkScript expression (kept raw; the
    /// runner does not evaluate these yet).
    Script(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// `output { ... }` or `output @ file`.
    Output(OutputSpec),
    /// `error: REGEX`: a run-time error whose message the regex matches.
    Error(String),
    /// `auto output`: compare with the reference interpreter's result.
    Auto,
    /// No expectation: the run must only succeed.
    None,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OutputSpec {
    Inline(String),
    File(PathBuf),
}

/// `structure [backend] { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Structure {
    /// The word between `structure` and `{` (e.g. `gpu`), if any.
    pub backend: Option<String>,
    /// The raw text between the braces.
    pub text: String,
    pub line: usize,
}

/// A malformed spec, at a 1-based line of the program.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SpecError {}

/// All `-- ==` blocks of a program, in order. No block: an empty vector.
pub fn parse_test_spec(text: &str) -> Result<Vec<TestBlock>, SpecError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_block_start(lines[i]) {
            i += 1;
            continue;
        }
        let start = i + 1; // 1-based line of the `-- ==`
        i += 1;
        let mut body = Body::default();
        while i < lines.len() && !is_block_start(lines[i]) {
            match comment_text(lines[i]) {
                Some(t) => body.push(t, i + 1),
                None => break,
            }
            i += 1;
        }
        blocks.push(BlockParser::new(&body, start).parse()?);
    }
    Ok(blocks)
}

fn comment_text(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("--")
}

fn is_block_start(line: &str) -> bool {
    comment_text(line).is_some_and(|t| t.trim() == "==")
}

/// The comment text of a block, joined by newlines, with the source line of
/// each byte offset.
#[derive(Default)]
struct Body {
    text: String,
    /// (offset where the line starts in `text`, source line)
    starts: Vec<(usize, usize)>,
}

impl Body {
    fn push(&mut self, line: &str, lineno: usize) {
        self.starts.push((self.text.len(), lineno));
        self.text.push_str(line);
        self.text.push('\n');
    }
    fn line_at(&self, pos: usize) -> usize {
        let i = self.starts.partition_point(|&(off, _)| off <= pos);
        self.starts[i.saturating_sub(1)].1
    }
}

struct BlockParser<'a> {
    body: &'a Body,
    src: &'a str,
    pos: usize,
    block_line: usize,
}

const CASE_MODIFIERS: [&str; 5] = ["compiled", "nobench", "notest", "random", "script"];

impl<'a> BlockParser<'a> {
    fn new(body: &'a Body, block_line: usize) -> Self {
        BlockParser {
            body,
            src: &body.text,
            pos: 0,
            block_line,
        }
    }

    fn line(&self) -> usize {
        if self.body.starts.is_empty() {
            self.block_line
        } else {
            self.body.line_at(self.pos.min(self.src.len().saturating_sub(1)))
        }
    }

    fn err<T>(&self, line: usize, message: impl Into<String>) -> Result<T, SpecError> {
        Err(SpecError {
            line,
            message: message.into(),
        })
    }

    fn skip_ws(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.src.len()
    }

    /// The next word (up to whitespace or a brace), without consuming it.
    fn peek_word(&mut self) -> &'a str {
        self.skip_ws();
        let rest = &self.src[self.pos..];
        let n = rest
            .find(|c: char| c.is_whitespace() || c == '{' || c == '}')
            .unwrap_or(rest.len());
        &rest[..n]
    }

    fn word(&mut self) -> (&'a str, usize) {
        let w = self.peek_word();
        let line = self.line();
        self.pos += w.len();
        (w, line)
    }

    /// The rest of the current line, trimmed.
    fn rest_of_line(&mut self) -> &'a str {
        let rest = &self.src[self.pos..];
        let n = rest.find('\n').unwrap_or(rest.len());
        self.pos += n;
        rest[..n].trim()
    }

    /// After reading the word `w` that starts with `prefix` (`error:`): the
    /// rest of the line after the prefix, trimmed.
    fn after_prefix(&mut self, w: &str, prefix: &str) -> &'a str {
        self.pos = self.pos - w.len() + prefix.len();
        self.rest_of_line()
    }

    /// `{ ... }` (nested braces allowed): the text between the braces.
    fn braced(&mut self, what: &str) -> Result<String, SpecError> {
        self.skip_ws();
        let open_line = self.line();
        if !self.src[self.pos..].starts_with('{') {
            let found = self.peek_word();
            let found = if found.is_empty() {
                "end of the block".to_string()
            } else {
                format!("`{found}`")
            };
            return self.err(open_line, format!("expected `{{` after {what}, found {found}"));
        }
        let start = self.pos + 1;
        let mut depth = 0usize;
        for (i, c) in self.src[self.pos..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.pos + i;
                        self.pos = end + 1;
                        return Ok(self.src[start..end].to_string());
                    }
                }
                _ => {}
            }
        }
        self.err(open_line, format!("unclosed `{{` after {what}"))
    }

    /// `@ path`.
    fn at_file(&mut self, what: &str) -> Result<Option<PathBuf>, SpecError> {
        self.skip_ws();
        if !self.src[self.pos..].starts_with('@') {
            return Ok(None);
        }
        self.pos += 1;
        let line = self.line();
        let (path, _) = self.word();
        if path.is_empty() {
            return self.err(line, format!("expected a file name after `{what} @`"));
        }
        Ok(Some(PathBuf::from(path)))
    }

    fn parse(mut self) -> Result<TestBlock, SpecError> {
        let mut block = TestBlock {
            entries: Vec::new(),
            tags: Vec::new(),
            cases: Vec::new(),
            compile_error: None,
            warnings: Vec::new(),
            structure: Vec::new(),
            properties: Vec::new(),
            line: self.block_line,
        };
        while !self.at_end() {
            let (w, line) = self.word();
            if w.is_empty() {
                // A stray brace.
                let c = &self.src[self.pos..self.pos + 1];
                return self.err(line, format!("unexpected `{c}`"));
            }
            if w.starts_with("entry:") {
                let names: Vec<String> = self
                    .after_prefix(w, "entry:")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                if names.is_empty() {
                    return self.err(line, "`entry:` names no entry point");
                }
                block.entries.extend(names);
            } else if w.starts_with("property:") {
                let names: Vec<(String, usize)> = self
                    .after_prefix(w, "property:")
                    .split_whitespace()
                    .map(|n| (n.to_string(), line))
                    .collect();
                if names.is_empty() {
                    return self.err(line, "`property:` names no property");
                }
                block.properties.extend(names);
            } else if w.starts_with("error:") {
                // An empty regex matches any error.
                let regex = self.after_prefix(w, "error:").to_string();
                if !block.cases.is_empty() {
                    return self.err(
                        line,
                        "`error:` must follow its `input` (a block with inputs cannot expect a compile error)",
                    );
                }
                if block.compile_error.is_some() {
                    return self.err(line, "a second compile `error:` in one block");
                }
                block.compile_error = Some(regex);
            } else if w.starts_with("warning:") {
                let regex = self.after_prefix(w, "warning:").to_string();
                if regex.is_empty() {
                    return self.err(line, "`warning:` without a regular expression");
                }
                block.warnings.push(regex);
            } else if w == "tags" {
                let text = self.braced("`tags`")?;
                block.tags.extend(text.split_whitespace().map(str::to_string));
            } else if w == "structure" {
                let mut backend = None;
                if !self.peek_word().is_empty() {
                    backend = Some(self.word().0.to_string());
                }
                let text = self.braced("`structure`")?;
                block.structure.push(Structure { backend, text, line });
            } else if w == "input" || CASE_MODIFIERS.contains(&w) || self.starts_case_prefix(w) {
                if block.compile_error.is_some() {
                    return self.err(line, "a block that expects a compile error cannot have inputs");
                }
                self.pos -= w.len();
                let case = self.case()?;
                block.cases.push(case);
            } else if w == "output" || w == "auto" {
                return self.err(line, format!("`{w}` without a preceding `input`"));
            } else {
                return self.err(line, format!("unknown test directive `{w}`"));
            }
        }
        if block.entries.is_empty() {
            block.entries.push("main".to_string());
        }
        Ok(block)
    }

    /// Whether `w` (just read) starts a case by its name (`"name"`) or a
    /// tag (a word of letters, digits, `-` and `_` not followed by `{`).
    fn starts_case_prefix(&mut self, w: &str) -> bool {
        if w.starts_with('"') {
            return true;
        }
        let tag_like = w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let rest = &self.src[self.pos..];
        tag_like && !rest.trim_start().starts_with('{')
    }

    /// `"name"` at the current position (it may contain spaces).
    fn case_name(&mut self) -> Result<Option<String>, SpecError> {
        self.skip_ws();
        let rest = &self.src[self.pos..];
        if !rest.starts_with('"') {
            return Ok(None);
        }
        let line = self.line();
        match rest[1..].find('"') {
            Some(n) => {
                self.pos += n + 2;
                Ok(Some(rest[1..n + 1].to_string()))
            }
            None => self.err(line, "unclosed `\"` in a case name"),
        }
    }

    fn case(&mut self) -> Result<TestCase, SpecError> {
        let (mut compiled, mut nobench, mut notest, mut random, mut script) = (false, false, false, false, false);
        let line = self.line();
        let name = self.case_name()?;
        let mut tags = Vec::new();
        loop {
            let (w, wline) = self.word();
            let flag = match w {
                "compiled" => &mut compiled,
                "nobench" => &mut nobench,
                "notest" => &mut notest,
                "random" => &mut random,
                "script" => &mut script,
                "input" => break,
                "" if self.at_end() => return self.err(wline, "expected `input` at the end of the block"),
                "" => {
                    let c = &self.src[self.pos..self.pos + 1];
                    return self.err(wline, format!("expected `input`, found `{c}`"));
                }
                _ if w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') => {
                    tags.push(w.to_string());
                    continue;
                }
                _ => return self.err(wline, format!("expected `input`, found `{w}`")),
            };
            if *flag {
                return self.err(wline, format!("`{w}` given twice"));
            }
            *flag = true;
        }
        if random && script {
            return self.err(line, "an input cannot be both `random` and `script`");
        }
        let input = if random {
            let text = self.braced("`random input`")?;
            InputSpec::Random(split_value_specs(&text))
        } else if script {
            InputSpec::Script(self.braced("`script input`")?)
        } else if let Some(path) = self.at_file("input")? {
            InputSpec::File(path)
        } else {
            InputSpec::Inline(self.braced("`input`")?)
        };
        let w = self.peek_word();
        let expected = if w == "output" {
            self.word();
            match self.at_file("output")? {
                Some(path) => Expected::Output(OutputSpec::File(path)),
                None => Expected::Output(OutputSpec::Inline(self.braced("`output`")?)),
            }
        } else if w == "auto" {
            self.word();
            let (o, oline) = self.word();
            if o != "output" {
                return self.err(oline, "expected `output` after `auto`");
            }
            Expected::Auto
        } else if w.starts_with("error:") {
            self.word();
            Expected::Error(self.after_prefix(w, "error:").to_string())
        } else {
            Expected::None
        };
        Ok(TestCase {
            input,
            expected,
            compiled,
            nobench,
            notest,
            name,
            tags,
            line,
        })
    }
}

/// `[100]f32 [10] [2]i32 i64` → `["[100]f32", "[10][2]i32", "i64"]`: a spec
/// is any number of `[...]` dimensions followed by one word.
fn split_value_specs(text: &str) -> Vec<String> {
    let mut specs = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '[' {
            for c in chars.by_ref() {
                if !c.is_whitespace() {
                    cur.push(c);
                }
                if c == ']' {
                    break;
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '[' {
                    break;
                }
                cur.push(c);
                chars.next();
            }
            specs.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        specs.push(cur);
    }
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<TestBlock> {
        parse_test_spec(text).unwrap_or_else(|e| panic!("{e}"))
    }

    fn one(text: &str) -> TestBlock {
        let mut b = parse(text);
        assert_eq!(b.len(), 1, "{b:?}");
        b.remove(0)
    }

    fn error(text: &str) -> SpecError {
        match parse_test_spec(text) {
            Ok(b) => panic!("expected an error, got {b:?}"),
            Err(e) => e,
        }
    }

    fn inline(s: &str) -> InputSpec {
        InputSpec::Inline(s.to_string())
    }

    fn out(s: &str) -> Expected {
        Expected::Output(OutputSpec::Inline(s.to_string()))
    }

    #[test]
    fn no_block_is_empty() {
        assert_eq!(parse("-- just a comment\nlet main (x: i32) = x\n"), vec![]);
        assert_eq!(parse(""), vec![]);
    }

    #[test]
    fn simple_block() {
        let b = one("-- Adds one.\n-- ==\n-- input { 1 } output { 2 }\n-- input { 5i32 }\n-- output { 6i32 }\nlet main (x: i32) = x + 1\n");
        assert_eq!(b.line, 2);
        assert_eq!(b.entries, vec!["main"]);
        assert!(b.tags.is_empty());
        assert_eq!(b.compile_error, None);
        assert_eq!(b.cases.len(), 2);
        assert_eq!(b.cases[0].input, inline(" 1 "));
        assert_eq!(b.cases[0].expected, out(" 2 "));
        assert_eq!(b.cases[0].line, 3);
        assert_eq!(b.cases[1].input, inline(" 5i32 "));
        assert_eq!(b.cases[1].expected, out(" 6i32 "));
        assert_eq!(b.cases[1].line, 4);
    }

    #[test]
    fn block_ends_at_first_non_comment_line() {
        let b = parse("-- ==\n-- input { 1 }\n\n-- output { 2 }\n");
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].cases[0].expected, Expected::None);
        // The stray `output` is outside the block: not part of the spec.
        let b = parse("-- ==\n-- input { 1 }\nlet x = 1\n-- unknown words here\n");
        assert_eq!(b[0].cases.len(), 1);
    }

    #[test]
    fn entries_and_tags() {
        let b = one("-- ==\n-- entry: foo bar\n-- tags { disable no_interp }\n-- input { 1 } output { 1 }\n");
        assert_eq!(b.entries, vec!["foo", "bar"]);
        assert_eq!(b.tags, vec!["disable", "no_interp"]);
        let b = one("-- ==\n-- entry:baz\n-- tags {\n--   a\n--   b }\n");
        assert_eq!(b.entries, vec!["baz"]);
        assert_eq!(b.tags, vec!["a", "b"]);
    }

    #[test]
    fn multi_line_values_keep_their_text() {
        let b = one("-- ==\n-- input {\n--   [1, 2,\n--    3]\n-- }\n-- output {\n-- 6\n-- }\n");
        assert_eq!(b.cases[0].line, 2);
        let InputSpec::Inline(t) = &b.cases[0].input else {
            panic!()
        };
        assert_eq!(t.split_whitespace().collect::<Vec<_>>(), vec!["[1,", "2,", "3]"]);
        let Expected::Output(OutputSpec::Inline(t)) = &b.cases[0].expected else {
            panic!()
        };
        assert_eq!(t.trim(), "6");
    }

    #[test]
    fn runtime_and_compile_errors() {
        let b = one("-- ==\n-- input { 0i64 } error: Index \\[0\\] out of bounds\n-- input { 1i64 }\n-- error: division by zero\n");
        assert_eq!(
            b.cases[0].expected,
            Expected::Error("Index \\[0\\] out of bounds".into())
        );
        assert_eq!(b.cases[1].expected, Expected::Error("division by zero".into()));
        assert_eq!(b.compile_error, None);
        let b = one("-- ==\n-- error: Cannot unify\nlet main = 1 + true\n");
        assert!(b.cases.is_empty());
        assert_eq!(b.compile_error.as_deref(), Some("Cannot unify"));
        let b = one("-- ==\n-- error:Type error.*i32{2}\n");
        assert_eq!(b.compile_error.as_deref(), Some("Type error.*i32{2}"));
        let b = one("-- ==\n-- input { 1 } error:a{2} b\n");
        assert_eq!(b.cases[0].expected, Expected::Error("a{2} b".into()));
    }

    #[test]
    fn files() {
        let b = one("-- ==\n-- input @ data/a.in output @ data/a.out\n-- compiled input @b.in\n-- auto output\n");
        assert_eq!(b.cases[0].input, InputSpec::File("data/a.in".into()));
        assert_eq!(
            b.cases[0].expected,
            Expected::Output(OutputSpec::File("data/a.out".into()))
        );
        assert!(b.cases[1].compiled);
        assert_eq!(b.cases[1].input, InputSpec::File("b.in".into()));
        assert_eq!(b.cases[1].expected, Expected::Auto);
    }

    #[test]
    fn random_input() {
        let b = one("-- ==\n-- random input { [100]f32 [10][2]i32 i64 [ 3 ] [4]u8 } auto output\n");
        assert_eq!(
            b.cases[0].input,
            InputSpec::Random(vec![
                "[100]f32".into(),
                "[10][2]i32".into(),
                "i64".into(),
                "[3][4]u8".into()
            ])
        );
        assert_eq!(b.cases[0].expected, Expected::Auto);
    }

    #[test]
    fn modifiers() {
        let b = one(
            "-- ==\n-- compiled input { 1 } output { 1 }\n-- nobench input { 2 }\n-- notest compiled random input { i32 }\n-- script input { f (iota 3) } output { 3 }\n",
        );
        let flags: Vec<_> = b.cases.iter().map(|c| (c.compiled, c.nobench, c.notest)).collect();
        assert_eq!(
            flags,
            vec![
                (true, false, false),
                (false, true, false),
                (true, false, true),
                (false, false, false)
            ]
        );
        assert_eq!(b.cases[2].input, InputSpec::Random(vec!["i32".into()]));
        assert_eq!(b.cases[3].input, InputSpec::Script(" f (iota 3) ".into()));
    }

    #[test]
    fn structure_is_kept() {
        let b = one("-- ==\n-- structure { Screma 1 Map 2 }\n-- structure gpu { SegMap 1 }\n");
        assert_eq!(b.structure.len(), 2);
        assert_eq!(b.structure[0].backend, None);
        assert_eq!(b.structure[0].text, " Screma 1 Map 2 ");
        assert_eq!(b.structure[1].backend.as_deref(), Some("gpu"));
        assert_eq!(b.structure[1].line, 3);
        assert!(b.cases.is_empty());
    }

    #[test]
    fn several_blocks() {
        let src = "-- ==\n-- input { 1 } output { 1 }\nlet main (x: i32) = x\n\n-- ==\n-- entry: g\n-- input { 2 } output { 4 }\n-- ==\n-- tags { disable }\nentry g (x: i32) = x * 2\n";
        let b = parse(src);
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].line, 1);
        assert_eq!(b[1].line, 5);
        assert_eq!(b[1].entries, vec!["g"]);
        assert_eq!(b[1].cases[0].line, 7);
        assert_eq!(b[2].line, 8);
        assert_eq!(b[2].tags, vec!["disable"]);
    }

    #[test]
    fn indented_comments_and_empty_comment_lines() {
        let b = one("  -- ==\n  --\n  --input { 1 }\n--\n-- output { 1 }\n");
        assert_eq!(b.cases[0].line, 3);
        assert_eq!(b.cases[0].expected, out(" 1 "));
    }

    #[test]
    fn case_names_tags_and_empty_error_regexes() {
        let b =
            one("-- ==\n-- \"two words\" no_python compiled input { 1 } output { 1 }\n-- no_cpu input { 2 } error:\n");
        assert_eq!(b.cases.len(), 2);
        assert_eq!(b.cases[0].name.as_deref(), Some("two words"));
        assert_eq!(b.cases[0].tags, vec!["no_python"]);
        assert!(b.cases[0].compiled);
        assert_eq!(b.cases[1].tags, vec!["no_cpu"]);
        assert_eq!(b.cases[1].expected, Expected::Error(String::new()));
        let b = one("-- ==\n-- error:\n");
        assert_eq!(b.compile_error.as_deref(), Some(""));
    }

    #[test]
    fn errors_name_the_line() {
        let e = error("let x = 1\n-- ==\n-- input { 1\n-- output { 2 }\nlet main = 1\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unclosed"), "{e}");
        let e = error("-- ==\n-- input { 1 }\n-- frobnicate { 2 }\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("unknown test directive `frobnicate`"), "{e}");
        assert_eq!(e.to_string(), "line 3: unknown test directive `frobnicate`");
        let e = error("-- ==\n-- output { 2 }\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("without a preceding `input`"), "{e}");
        let e = error("-- ==\n-- input { 1 } auto\n");
        assert!(e.message.contains("`output` after `auto`"), "{e}");
        let e = error("-- ==\n-- input\n-- 1 2\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("expected `{`"), "{e}");
        let e = error("-- ==\n-- input @\n");
        assert!(e.message.contains("file name"), "{e}");
        let e = error("-- ==\n-- compiled\n");
        assert!(e.message.contains("expected `input`"), "{e}");
        let e = error("-- ==\n-- entry:\n");
        assert!(e.message.contains("no entry point"), "{e}");
        let e = error("-- ==\n-- error: foo\n-- input { 1 }\n");
        assert_eq!(e.line, 3);
        let e = error("-- ==\n-- input { 1 } output { 1 }\n-- error: foo\n");
        assert_eq!(e.line, 3);
        let e = error("-- ==\n-- input { 1 } }\n");
        assert!(e.message.contains("unexpected `}`"), "{e}");
        let e = error("-- ==\n-- compiled {\n");
        assert!(e.message.contains("expected `input`, found `{`"), "{e}");
        let e = error("-- ==\n-- tags disable\n");
        assert!(e.message.contains("expected `{` after `tags`, found `disable`"), "{e}");
    }
}
