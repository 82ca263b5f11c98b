//! CHECK lines as LLVM FileCheck reads them, the parts this harness uses.
//!
//! A pattern is literal text with two kinds of holes (See Note [FileCheck
//! patterns]): `{{regex}}` and `[[NAME:regex]]` / `[[NAME]]`. Both the
//! output lines and the literal parts are compared with runs of blanks
//! collapsed to one space, so indentation never matters.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;

use regex::Regex;

// Note [FileCheck patterns]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// What is implemented, and where it parts from LLVM FileCheck:
// - `{{re}}` matches the regex `re` (Rust `regex` syntax; the first `}}`
//   ends it).
// - `[[NAME:re]]` matches `re` and binds NAME to the text it matched;
//   `[[NAME]]` matches exactly that text. NAME is `[$]?[A-Za-z_][A-Za-z0-9_]*`.
//   A `]]` inside brackets of `re` does not end it (`[[N:%[0-9]]]`).
// - A variable is usable on the CHECK lines after the one that defines it,
//   not on the same line: FileCheck implements same-line uses with regex
//   back-references, which the `regex` crate lacks. Continue the line with
//   `CHECK-SAME:` instead (it matches after the previous match, on the same
//   output line). A later definition of the same name rebinds it.
// - Variables live for all the CHECK lines of one file, and start unbound
//   for each RUN line's output. CHECK-LABEL does not reset them (FileCheck
//   resets only with `--enable-var-scope`, which we do not have; a `$` on a
//   name is accepted and means nothing more).
// - A CHECK-NOT may use variables but not define them (it never matches).
//   It covers whole lines: those after the previous match's line and
//   before the next CHECK or CHECK-LABEL's (none before a CHECK-NEXT; the
//   rest of a line before a CHECK-SAME is not searched).
// - In a run of three or more `[`, the last two open the variable, so a
//   size in a type reads naturally: `[[[N]]]f32` is `[`, N's value, `]f32`.
//   FileCheck rejects such runs; to match a literal `[[` or `{{`, write
//   `{{\[\[}}` or `{{\{\{}}`.
// - FileCheck's numeric variables (`[[#N]]`) and `[[@LINE]]` are not
//   supported and are reported as pattern errors.

/// The CHECK directives, named as in FileCheck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `CHECK:` — on a later line than the previous match.
    Plain,
    /// `CHECK-NEXT:` — on the line right after the previous match.
    Next,
    /// `CHECK-SAME:` — on the previous match's line, after it.
    Same,
    /// `CHECK-NOT:` — on no line between the previous and the next match.
    Not,
    /// `CHECK-LABEL:` — as `CHECK:` (FileCheck also splits the output at
    /// labels; we do not).
    Label,
}

impl Kind {
    pub fn directive(self) -> &'static str {
        match self {
            Kind::Plain => "CHECK",
            Kind::Next => "CHECK-NEXT",
            Kind::Same => "CHECK-SAME",
            Kind::Not => "CHECK-NOT",
            Kind::Label => "CHECK-LABEL",
        }
    }
}

/// Recognises a CHECK directive in the text of a comment (after `//` or
/// `--`, trimmed): its kind and its pattern.
pub fn parse_directive(comment: &str) -> Option<(Kind, &str)> {
    let kinds = [Kind::Next, Kind::Same, Kind::Not, Kind::Label, Kind::Plain];
    kinds.into_iter().find_map(|k| {
        let rest = comment.strip_prefix(k.directive())?.strip_prefix(':')?;
        Some((k, rest.trim()))
    })
}

/// Runs of blanks become one space; leading and trailing blanks go.
pub fn norm(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Regex(String),
    Define { name: String, regex: String },
    Use(String),
}

/// One CHECK line, parsed and checked against the lines before it.
#[derive(Debug, Clone)]
pub struct Check {
    pub kind: Kind,
    /// The pattern as written, blanks collapsed.
    pub text: String,
    /// The line of the test file it is on (1-based).
    pub line: usize,
    pieces: Vec<Piece>,
}

fn valid_name(name: &str) -> bool {
    let name = name.strip_prefix('$').unwrap_or(name);
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn checked_regex(re: &str) -> Result<String, String> {
    if re.is_empty() {
        return Err("empty regex".into());
    }
    Regex::new(re).map_err(|e| format!("bad regex `{re}`: {e}"))?;
    Ok(re.to_string())
}

/// Where the `]]` closing a `[[` that starts at `open` is: brackets inside
/// the regex nest, and a backslash escapes the next character.
fn variable_end(s: &str, open: usize) -> Option<usize> {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut k = open + 2;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 1,
            b'[' => depth += 1,
            b']' if depth == 0 && b.get(k + 1) == Some(&b']') => return Some(k),
            b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        k += 1;
    }
    None
}

fn parse_pieces(s: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut lit = String::new();
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if let Some(after) = rest.strip_prefix("{{") {
            let Some(len) = after.find("}}") else {
                return Err(format!(
                    "unbalanced `{{{{` (column {} of the pattern): no `}}}}` closes it",
                    i + 1
                ));
            };
            if !lit.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(&mut lit)));
            }
            pieces.push(Piece::Regex(checked_regex(&after[..len])?));
            i += len + 4;
        } else if rest.starts_with("[[[") {
            // See Note [FileCheck patterns]: the first `[` is literal.
            lit.push('[');
            i += 1;
        } else if rest.starts_with("[[") {
            let Some(end) = variable_end(s, i) else {
                return Err(format!(
                    "unbalanced `[[` (column {} of the pattern): no `]]` closes it",
                    i + 1
                ));
            };
            let body = &s[i + 2..end];
            if body.starts_with('#') || body.starts_with('@') {
                return Err(format!("`[[{body}]]`: numeric and pseudo variables are not supported"));
            }
            let piece = match body.split_once(':') {
                Some((name, regex)) => {
                    if !valid_name(name) {
                        return Err(format!("`{name}` is not a variable name (in `[[{body}]]`)"));
                    }
                    let regex = checked_regex(regex).map_err(|e| format!("in `[[{body}]]`: {e}"))?;
                    Piece::Define {
                        name: name.to_string(),
                        regex,
                    }
                }
                None if valid_name(body) => Piece::Use(body.to_string()),
                None => return Err(format!("`{body}` is not a variable name (in `[[{body}]]`)")),
            };
            if !lit.is_empty() {
                pieces.push(Piece::Literal(std::mem::take(&mut lit)));
            }
            pieces.push(piece);
            i = end + 2;
        } else {
            let c = rest.chars().next().expect("i < s.len() is a char boundary");
            lit.push(c);
            i += c.len_utf8();
        }
    }
    if !lit.is_empty() {
        pieces.push(Piece::Literal(lit));
    }
    Ok(pieces)
}

/// Parses the CHECK lines of one file, `(kind, pattern, line)` in file
/// order, and checks that every variable is defined before it is used.
/// An error names the test file's line.
pub fn compile(raw: &[(Kind, String, usize)]) -> Result<Vec<Check>, (usize, String)> {
    let mut defined: std::collections::HashSet<String> = Default::default();
    let mut out = Vec::new();
    for (kind, pattern, line) in raw {
        let at = |msg: String| (*line, format!("{}: {msg}", kind.directive()));
        let text = norm(pattern);
        let pieces = parse_pieces(&text).map_err(at)?;
        let mut here: Vec<&str> = Vec::new();
        for p in &pieces {
            match p {
                Piece::Use(name) if here.contains(&name.as_str()) => {
                    return Err(at(format!(
                        "`[[{name}]]` is used on the line that defines it; \
                         continue with a CHECK-SAME line to use it (See Note [FileCheck patterns])"
                    )))
                }
                Piece::Use(name) if !defined.contains(name) => {
                    return Err(at(format!(
                        "undefined variable `[[{name}]]`: no earlier CHECK line defines it"
                    )))
                }
                Piece::Define { .. } if *kind == Kind::Not => {
                    return Err(at("a CHECK-NOT cannot define a variable".into()))
                }
                Piece::Define { name, .. } if here.contains(&name.as_str()) => {
                    return Err(at(format!("`{name}` is defined twice on one line")))
                }
                Piece::Define { name, .. } => here.push(name),
                _ => {}
            }
        }
        defined.extend(here.into_iter().map(String::from));
        out.push(Check {
            kind: *kind,
            text,
            line: *line,
            pieces,
        });
    }
    Ok(out)
}

/// A check's pattern as one regex, with the variables' current values put
/// in; the names of the capture groups that define variables, in order.
fn to_regex(check: &Check, vars: &BTreeMap<String, String>) -> Result<(Regex, Vec<(String, String)>), String> {
    let mut re = String::new();
    let mut groups = Vec::new();
    for p in &check.pieces {
        match p {
            Piece::Literal(l) => re.push_str(&regex::escape(l)),
            Piece::Regex(r) => {
                let _ = write!(re, "(?:{r})");
            }
            Piece::Define { name, regex } => {
                // Generated names cannot clash with the user's, which are
                // plain identifiers without the double underscore prefix.
                let group = format!("__fc{}", groups.len());
                let _ = write!(re, "(?P<{group}>{regex})");
                groups.push((group, name.clone()));
            }
            Piece::Use(name) => {
                // `compile` saw a definition on an earlier positive CHECK,
                // which matched before this one runs; kept as an error
                // rather than a panic all the same.
                let value = vars
                    .get(name)
                    .ok_or_else(|| format!("variable `{name}` is not bound"))?;
                re.push_str(&regex::escape(value));
            }
        }
    }
    let re = Regex::new(&re).map_err(|e| format!("pattern does not compile: {e}"))?;
    Ok((re, groups))
}

/// Where a pattern matched: the output line, the byte span in its
/// normalised text, and the variables it defined.
struct Match {
    line: usize,
    end: usize,
    defs: Vec<(String, String)>,
}

fn match_line(re: &Regex, groups: &[(String, String)], lines: &[String], line: usize, from: usize) -> Option<Match> {
    let text = lines.get(line)?;
    let caps = re.captures_at(text, from)?;
    let defs = groups
        .iter()
        .map(|(g, name)| {
            (
                name.clone(),
                caps.name(g).map_or(String::new(), |m| m.as_str().to_string()),
            )
        })
        .collect();
    Some(Match {
        line,
        end: caps.get(0).map_or(from, |m| m.end()),
        defs,
    })
}

/// Why a file's CHECK lines do not hold for an output.
#[derive(Debug)]
pub struct Failure {
    /// The CHECK line that failed (1-based line of the test file).
    pub line: usize,
    pub message: String,
    /// The variables bound when it failed.
    pub vars: BTreeMap<String, String>,
    /// The output lines that were searched (0-based).
    pub searched: Range<usize>,
    /// An output line to point at (a CHECK-NOT's match).
    pub found: Option<usize>,
}

impl Failure {
    /// The message for a person: the file and line of the CHECK, the
    /// pattern, the variables, and the part of the output searched.
    pub fn render(&self, file: &str, output: &str) -> String {
        const SHOWN: usize = 30;
        let mut s = format!("{file}:{}: {}\n", self.line, self.message);
        if !self.vars.is_empty() {
            s.push_str("  variables:");
            for (k, v) in &self.vars {
                let _ = write!(s, " {k} = \"{v}\"");
            }
            s.push('\n');
        }
        let lines: Vec<&str> = output.lines().collect();
        let range = self.searched.start.min(lines.len())..self.searched.end.min(lines.len());
        if range.is_empty() {
            let _ = writeln!(s, "  searched: nothing (the output has {} lines)", lines.len());
            return s;
        }
        let _ = writeln!(s, "  searched output lines {}-{}:", range.start + 1, range.end);
        for i in range.clone().take(SHOWN) {
            let mark = if self.found == Some(i) { ">" } else { " " };
            let _ = writeln!(s, "  {mark}{:5} | {}", i + 1, lines[i]);
        }
        if range.len() > SHOWN {
            let _ = writeln!(s, "   ... {} more lines", range.len() - SHOWN);
        }
        s
    }
}

/// Applies the CHECK lines to `output`; the first mismatch is the error.
pub fn check(output: &str, checks: &[Check]) -> Result<(), Failure> {
    let lines: Vec<String> = output.lines().map(norm).collect();
    let mut vars: BTreeMap<String, String> = BTreeMap::new();
    let mut pos = 0usize; // first line not yet consumed
    let mut last: Option<(usize, usize)> = None; // line and end of the last match
    let mut nots: Vec<(&Check, Regex)> = Vec::new();
    let fail = |c: &Check, vars: &BTreeMap<String, String>, message: String, searched: Range<usize>| Failure {
        line: c.line,
        message: format!("{}: {}\n  {message}", c.kind.directive(), c.text),
        vars: vars.clone(),
        searched,
        found: None,
    };
    let check_nots = |nots: &mut Vec<(&Check, Regex)>, vars: &BTreeMap<String, String>, to: Range<usize>| {
        for (c, re) in nots.drain(..) {
            if let Some(i) = to.clone().find(|&i| re.is_match(&lines[i])) {
                let mut f = fail(c, vars, format!("found on output line {}", i + 1), to);
                f.found = Some(i);
                return Err(f);
            }
        }
        Ok(())
    };
    for c in checks {
        let (re, groups) = to_regex(c, &vars).map_err(|e| fail(c, &vars, e, pos..pos))?;
        let m = match c.kind {
            Kind::Not => {
                nots.push((c, re));
                continue;
            }
            Kind::Plain | Kind::Label => {
                let found = (pos..lines.len()).find_map(|i| match_line(&re, &groups, &lines, i, 0));
                let Some(m) = found else {
                    return Err(fail(c, &vars, "not found".into(), pos..lines.len()));
                };
                check_nots(&mut nots, &vars, pos..m.line)?;
                m
            }
            Kind::Next => {
                let Some(m) = match_line(&re, &groups, &lines, pos, 0) else {
                    let what = if pos < lines.len() {
                        format!("not on output line {}, the line after the previous match", pos + 1)
                    } else {
                        "not found: the output ended".into()
                    };
                    let shown = pos.saturating_sub(1)..(pos + 2).min(lines.len());
                    return Err(fail(c, &vars, what, shown));
                };
                // Nothing lies between the previous match and this one.
                nots.clear();
                m
            }
            Kind::Same => {
                let Some((line, end)) = last else {
                    return Err(fail(c, &vars, "nothing matched before it".into(), 0..0));
                };
                let Some(m) = match_line(&re, &groups, &lines, line, end) else {
                    return Err(fail(
                        c,
                        &vars,
                        format!("not on output line {} after the previous match", line + 1),
                        line..line + 1,
                    ));
                };
                // Only part of a line lies between the two matches; the
                // CHECK-NOTs before a CHECK-SAME are not checked there.
                nots.clear();
                m
            }
        };
        vars.extend(m.defs);
        last = Some((m.line, m.end));
        pos = m.line + 1;
    }
    check_nots(&mut nots, &vars, pos..lines.len())
}

/// Parses CHECK lines from text (a directive on each line, no comment
/// marker) — for tests.
#[cfg(test)]
pub fn checks_from(text: &str) -> Result<Vec<Check>, (usize, String)> {
    let raw: Vec<(Kind, String, usize)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| parse_directive(l.trim()).map(|(k, p)| (k, p.to_string(), i + 1)))
        .collect();
    compile(&raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(output: &str, checks: &str) -> bool {
        check(output, &checks_from(checks).expect("the test's patterns parse")).is_ok()
    }

    #[test]
    fn literal_directives() {
        let out = "a b\nc   d\ne\nf\n";
        assert!(ok(out, "CHECK: a\nCHECK-NEXT: c d"));
        assert!(!ok(out, "CHECK: a\nCHECK-NEXT: e"));
        assert!(ok(out, "CHECK: a\nCHECK-SAME: b"));
        assert!(!ok(out, "CHECK: c\nCHECK-SAME: b"));
        // CHECK-SAME looks after the previous match only.
        assert!(!ok(out, "CHECK: b\nCHECK-SAME: a"));
        assert!(!ok(out, "CHECK: a\nCHECK-NOT: e\nCHECK: f"));
        assert!(ok(out, "CHECK: e\nCHECK-NOT: c\nCHECK: f"));
        assert!(!ok(out, "CHECK: e\nCHECK: a"));
        assert!(ok(out, "CHECK-NOT: zzz"));
        assert!(!ok(out, "CHECK-LABEL: e\nCHECK-NOT: f"));
        // A CHECK-NOT covers the lines between the matches around it
        // only: before a CHECK-NEXT, none.
        assert!(ok(out, "CHECK: a\nCHECK-NOT: e\nCHECK-NEXT: c d\nCHECK: f"));
    }

    #[test]
    fn captures_follow_renumbering() {
        let checks = "CHECK: [[X:%[0-9]+]] = soac.map([[N:%[0-9]+]],\n\
                      CHECK-NEXT: ^bb0([[A:%[0-9]+]]: f32):\n\
                      CHECK: soac.return([[X]])";
        assert!(ok("%3 = soac.map(%0, %1)\n^bb0(%4: f32):\nsoac.return(%3)", checks));
        assert!(ok("%13 = soac.map(%0, %1)\n^bb0(%14: f32):\nsoac.return(%13)", checks));
        // The capture must be the same value, not any number.
        assert!(!ok("%3 = soac.map(%0, %1)\n^bb0(%4: f32):\nsoac.return(%4)", checks));
        // `%1` is a prefix of `%13`: the whole capture must match, and
        // the use must not match a longer number either.
        assert!(!ok("%1 = a\nb(%13)", "CHECK: [[V:%[0-9]+]] = a\nCHECK: b([[V]])"));
    }

    #[test]
    fn regex_holes_and_brackets() {
        assert!(ok("x = 42 : i64", "CHECK: x = {{[0-9]+}} : i{{32|64}}"));
        assert!(!ok("x = a : i64", "CHECK: x = {{[0-9]+}} : i64"));
        // `[[[N]]]` is a literal bracket around N's value.
        assert!(ok(
            "%0: i64\nsoac.iota(%0) -> [%0]i64",
            "CHECK: [[N:%[0-9]+]]: i64\nCHECK: -> [[[N]]]i64"
        ));
        // Brackets inside a definition's regex nest.
        assert!(ok("v7", "CHECK: [[D:v[0-9]]]"));
        // Regex metacharacters in literal text are literal.
        assert!(ok("a.b(c)", "CHECK: a.b(c)"));
        assert!(!ok("axb(c)", "CHECK: a.b(c)"));
    }

    #[test]
    fn same_line_use_goes_through_check_same() {
        let out = "^bb0(%2: i64, %3: [%2]f32):";
        let checks = "CHECK: ^bb0([[N:%[0-9]+]]: i64, [[X:%[0-9]+]]: [\nCHECK-SAME: [[N]]]f32):";
        assert!(ok(out, checks));
        assert!(!ok("^bb0(%2: i64, %3: [%5]f32):", checks));
    }

    #[test]
    fn variables_are_bound_per_output_and_rebound() {
        let checks =
            checks_from("CHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]\nCHECK: def [[V:[a-z]+]]\nCHECK: use [[V]]")
                .expect("parses");
        assert!(check("def a\nuse a\ndef b\nuse b", &checks).is_ok());
        assert!(check("def a\nuse a\ndef b\nuse a", &checks).is_err());
    }

    #[test]
    fn pattern_errors_name_the_line() {
        let err = |text: &str| checks_from(text).expect_err("a pattern error");
        assert_eq!(err("CHECK: a\nCHECK: b {{x").0, 2);
        assert!(err("CHECK: [[X:%[0-9]+").1.contains("unbalanced `[[`"));
        assert!(err("CHECK: {{(}}").1.contains("bad regex"));
        assert!(err("CHECK: [[Y]]").1.contains("undefined variable"));
        assert!(err("CHECK: [[X:a]] [[X]]").1.contains("CHECK-SAME"));
        assert!(err("CHECK-NOT: [[X:a]]").1.contains("CHECK-NOT"));
        assert!(err("CHECK: [[#N]]").1.contains("not supported"));
        assert!(err("CHECK: [[1x:a]]").1.contains("not a variable name"));
        // A use on the next line is fine, CHECK-SAME included.
        assert!(checks_from("CHECK: [[X:a]]\nCHECK-SAME: [[X]]").is_ok());
    }

    #[test]
    fn failure_shows_pattern_variables_and_searched_output() {
        let checks = checks_from("CHECK: [[X:%[0-9]+]] = a\nCHECK: b([[X]])").expect("parses");
        let out = "%1 = a\nb(%2)\nc";
        let f = check(out, &checks).expect_err("b(%1) is not there");
        assert_eq!(f.line, 2);
        let text = f.render("t.mlir", out);
        assert!(text.contains("t.mlir:2: CHECK: b([[X]])"), "{text}");
        assert!(text.contains("X = \"%1\""), "{text}");
        assert!(text.contains("searched output lines 2-3"), "{text}");
        assert!(text.contains("b(%2)"), "{text}");
        assert!(!text.contains("%1 = a"), "{text}");
    }
}
