//! CHECK lines generated from an output, for `// AUTOCHECK` tests
//! (See Note [AUTOCHECK]).

use std::collections::HashMap;

use regex::Regex;

// Note [AUTOCHECK]
// ~~~~~~~~~~~~~~~~
// A test with a line `// AUTOCHECK` (`-- AUTOCHECK` in a `.fut` file) has
// its CHECK lines written by the harness: `FUTMLIR_BLESS=1 cargo test -p
// futmlir --test lit` replaces the CHECK lines right after the marker (the
// contiguous run of CHECK comments; none on the first bless) with lines
// generated from the output of the file's first RUN line, like MLIR's
// `generate-test-checks.py`. Without the variable, the test checks those
// lines as any others, and a failure says that bless regenerates them.
//
// The generated lines:
// - a line that starts a function (`soac.func`, `imp.func`, `func.func`,
//   `llvm.func`, ...) is a CHECK-LABEL; every other line is a CHECK-NEXT,
//   except the first and the first after a blank line (CHECK);
// - SSA names ending in a number (`%12`, `%v12`, `%t12`) become captures:
//   the first occurrence defines `[[V<k>:%[0-9]+]]` (with its letters:
//   `%v[0-9]+`), later ones use `[[V<k>]]`, so renumbering does not break
//   the test but a changed data flow does. A label starts a fresh set of
//   names (numbering restarts per function) and the V<k> counter goes on;
// - a name used again on the line that defined it (a block argument in the
//   type of the next one: `^bb0(%0: i64, %1: [%0]f32)`) cannot be matched
//   in one pattern (See Note [FileCheck patterns]), so the line is cut
//   before that use and goes on in a CHECK-SAME;
// - a literal `[[` or `{{` in the output is written as a regex.
//
// Bless rewrites the lines; read the diff before committing it: the
// generated lines pin everything that is not an SSA number.

/// Whether an output line starts a function: its first word is an op named
/// `func` of some dialect.
fn starts_function(line: &str) -> bool {
    let op = line.split(|c: char| c.is_whitespace() || c == '(').next().unwrap_or("");
    op.ends_with(".func")
}

/// Literal output text as pattern text: the two-character openers of
/// holes become regexes.
fn escape_literal(text: &str) -> String {
    text.replace("{{", "{{\\{\\{}}").replace("[[", "{{\\[\\[}}")
}

/// The CHECK lines (directive and pattern, no comment marker) that match
/// `output` line by line with its SSA numbers captured.
pub fn generate_checks(output: &str) -> Vec<String> {
    let ssa = Regex::new(r"%([A-Za-z_]*)([0-9]+)\b").expect("a constant regex");
    let mut names: HashMap<String, String> = HashMap::new();
    let mut counter = 0usize;
    let mut out = Vec::new();
    let mut after_blank = true;
    for raw in output.lines() {
        let line = raw.trim();
        if line.is_empty() {
            after_blank = true;
            continue;
        }
        let directive = if starts_function(line) {
            names.clear();
            "CHECK-LABEL"
        } else if after_blank {
            "CHECK"
        } else {
            "CHECK-NEXT"
        };
        after_blank = false;
        let mut segment = format!("{directive}: ");
        let mut defined_here: Vec<&str> = Vec::new();
        let mut at = 0;
        for m in ssa.find_iter(line) {
            segment.push_str(&escape_literal(&line[at..m.start()]));
            at = m.end();
            let token = m.as_str();
            if let Some(var) = names.get(token) {
                if defined_here.contains(&token) {
                    out.push(segment.trim_end().to_string());
                    segment = "CHECK-SAME: ".into();
                    defined_here.clear();
                }
                segment.push_str(&format!("[[{var}]]"));
            } else {
                let var = format!("V{counter}");
                counter += 1;
                let caps = ssa.captures(token).expect("the token matched this regex");
                let letters = caps.get(1).map_or("", |g| g.as_str());
                segment.push_str(&format!("[[{var}:%{letters}[0-9]+]]"));
                names.insert(token.to_string(), var);
                defined_here.push(token);
            }
        }
        segment.push_str(&escape_literal(&line[at..]));
        out.push(segment.trim_end().to_string());
    }
    out
}

/// The test file with the CHECK lines after its AUTOCHECK marker replaced
/// by `checks`, each behind `comment` and the marker's indentation; `None`
/// when the file has no marker.
pub fn splice(text: &str, comment: &str, checks: &[String]) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let is_marker = |l: &str| {
        l.trim_start()
            .strip_prefix(comment)
            .is_some_and(|c| c.trim() == "AUTOCHECK")
    };
    let marker = lines.iter().position(|l| is_marker(l))?;
    let indent: String = lines[marker].chars().take_while(|c| c.is_whitespace()).collect();
    let old_end = lines[marker + 1..]
        .iter()
        .position(|l| {
            let directive = l.trim_start().strip_prefix(comment).map(str::trim);
            directive.and_then(super::filecheck::parse_directive).is_none()
        })
        .map_or(lines.len(), |n| marker + 1 + n);
    let mut out: Vec<String> = lines[..=marker].iter().map(|l| l.to_string()).collect();
    out.extend(checks.iter().map(|c| format!("{indent}{comment} {c}")));
    out.extend(lines[old_end..].iter().map(|l| l.to_string()));
    let mut s = out.join("\n");
    if text.ends_with('\n') {
        s.push('\n');
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::super::filecheck;
    use super::*;

    const SOAC: &str = "builtin.module() ({
  soac.func() {sym_name = \"main\"} ({
  ^bb0(%0: i64, %1: [%0]f32):
    %2 = soac.constant() {value = 2.0 : f32} : () -> f32
    %3 = soac.map(%0, %1) ({
    ^bb0(%4: f32):
      %5 = soac.binop(%4, %2) {kind = \"mul\"} : (f32, f32) -> f32
      soac.yield(%5) : (f32) -> ()
    }) : (i64, [%0]f32) -> [%0]f32
    soac.return(%3) : ([%0]f32) -> ()
  }) : () -> ()
}) : () -> ()
";

    #[test]
    fn generates_captures_labels_and_same_lines() {
        let checks = generate_checks(SOAC);
        assert_eq!(checks[0], "CHECK: builtin.module() ({");
        assert_eq!(checks[1], "CHECK-LABEL: soac.func() {sym_name = \"main\"} ({");
        assert_eq!(checks[2], "CHECK-NEXT: ^bb0([[V0:%[0-9]+]]: i64, [[V1:%[0-9]+]]: [");
        assert_eq!(checks[3], "CHECK-SAME: [[V0]]]f32):");
        assert_eq!(checks[6], "CHECK-NEXT: ^bb0([[V4:%[0-9]+]]: f32):");
        assert_eq!(
            checks[7],
            "CHECK-NEXT: [[V5:%[0-9]+]] = soac.binop([[V4]], [[V2]]) {kind = \"mul\"} : (f32, f32) -> f32"
        );
        assert_eq!(checks.len(), 13);
    }

    #[test]
    fn generated_checks_survive_renumbering_but_not_rewiring() {
        let checks = filecheck::checks_from(&generate_checks(SOAC).join("\n")).expect("generated lines parse");
        assert!(filecheck::check(SOAC, &checks).is_ok());
        let ssa = Regex::new(r"%([0-9]+)").expect("a constant regex");
        let shifted = ssa.replace_all(SOAC, |c: &regex::Captures| {
            format!("%{}", c[1].parse::<u32>().unwrap_or(0) + 10)
        });
        assert!(filecheck::check(&shifted, &checks).is_ok(), "{shifted}");
        // The map's result returned no more: the data flow changed.
        let rewired = SOAC.replace("soac.return(%3)", "soac.return(%1)");
        assert!(filecheck::check(&rewired, &checks).is_err());
    }

    #[test]
    fn names_with_letters_blanks_and_literal_brackets() {
        let out = "func.func @f(%ctx: !llvm.ptr, %v1: i64) {\n  %t2 = arith.addi %v1, %v1 : i64\n\n  x = [[1]]\n";
        let checks = generate_checks(out);
        assert_eq!(
            checks,
            vec![
                "CHECK-LABEL: func.func @f(%ctx: !llvm.ptr, [[V0:%v[0-9]+]]: i64) {",
                "CHECK-NEXT: [[V1:%t[0-9]+]] = arith.addi [[V0]], [[V0]] : i64",
                "CHECK: x = {{\\[\\[}}1]]",
            ]
        );
        let parsed = filecheck::checks_from(&checks.join("\n")).expect("generated lines parse");
        assert!(filecheck::check(out, &parsed).is_ok());
    }

    #[test]
    fn splice_replaces_the_block_after_the_marker() {
        let text = "// RUN: x\n  // AUTOCHECK\n  // CHECK: old\n  // CHECK-NEXT: old2\n\nbody\n";
        let new = splice(text, "//", &["CHECK: a".into(), "CHECK-NEXT: b".into()]).expect("has a marker");
        assert_eq!(
            new,
            "// RUN: x\n  // AUTOCHECK\n  // CHECK: a\n  // CHECK-NEXT: b\n\nbody\n"
        );
        // Blessing twice changes nothing more.
        assert_eq!(
            splice(&new, "//", &["CHECK: a".into(), "CHECK-NEXT: b".into()]),
            Some(new.clone())
        );
        assert_eq!(splice("-- RUN: x\n", "--", &[]), None);
    }
}
