//! Rule files: parsing, checking, and "this term rewrites to that term"
//! with the rule files in `rewrite-rules/`. Limits come from the
//! environment (`FUTMLIR_EGG_NODES`, `FUTMLIR_EGG_SECS`).

use std::time::Duration;

use egg::{AstSize, EGraph, Extractor, RecExpr, SymbolLang};

use super::fold::ConstFold;
use super::rules::{parse, RuleError};
use super::ruleset::{compile, Limits, Rules};
use super::terms::{language, literal, predicates, Literal};

const SIMPLIFY: &str = super::BUILTIN_RULE_FILES[0].1;

fn limits() -> Limits {
    let env = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d);
    Limits {
        nodes: env("FUTMLIR_EGG_NODES", 10_000) as usize,
        time: Duration::from_secs(env("FUTMLIR_EGG_SECS", 5)),
    }
}

fn load(text: &str) -> Result<Rules<ConstFold>, RuleError> {
    compile(&parse(text)?, &language(), &predicates())
}

/// The smallest term equal to `term` after running the file's schedule.
fn simplify_with(rules: &Rules<ConstFold>, term: &str) -> String {
    let expr: RecExpr<SymbolLang> = term.parse().expect("test terms parse");
    let mut g: EGraph<SymbolLang, ConstFold> = EGraph::default();
    let root = g.add_expr(&expr);
    let (g, reports) = rules.run(g, limits());
    assert!(!reports.is_empty());
    let (_, best) = Extractor::new(&g, AstSize).find_best(root);
    best.to_string()
}

fn error_of(text: &str) -> String {
    let e = load(text).err().expect("the rule file is rejected");
    e.to_plain("t.rules", text)
}

#[test]
fn simplify_rules_rewrite_terms() {
    let rules = load(SIMPLIFY).unwrap_or_else(|e| panic!("{}", e.to_plain("simplify.rules", SIMPLIFY)));
    for (from, to) in [
        ("(add v32 0i32)", "v32"),
        ("(add 0i64 (mul v58 1i64))", "v58"),
        ("(mul v93 1.0f32)", "v93"),
        ("(neg (neg (sub v32 0u8)))", "v32"),
        ("(select v62 (add v32 0i32) v32)", "v32"),
        ("(and (or v79 false) true)", "v79"),
        ("(select true v93 v15)", "v93"),
        ("(mul v32 0i32)", "0i32"),
        ("(div v58 1i64)", "v58"),
        ("(div v93 1.0f32)", "v93"),
        ("(add (add (sub v32 2i32) 1i32) 1i32)", "v32"),
        ("(sub (add 3i64 v58) 5i64)", "(add v58 -2i64)"),
        ("(mul 2u8 (mul v58 128u8))", "0u8"),
        ("(sub (add 1i64 v58) v58)", "1i64"),
        ("(add (add v93 1.0f32) 1.0f32)", "(add (add v93 1.0f32) 1.0f32)"),
    ] {
        assert_eq!(simplify_with(&rules, from), to, "{from}");
    }
    // Not identities for floats: left alone.
    for t in [
        "(add v32 0.0f32)",
        "(mul v32 0.0f64)",
        "(add v32 1i32)",
        "(div 1i32 v32)",
    ] {
        assert_eq!(simplify_with(&rules, t), t);
    }
}

#[test]
fn constants_fold_with_the_interpreters_semantics() {
    let rules = load(SIMPLIFY).expect("simplify.rules compiles");
    for (from, to) in [
        ("(add 2i32 3i32)", "5i32"),
        ("(add 127i8 1i8)", "-128i8"),
        ("(sub 0u8 1u8)", "255u8"),
        ("(div -7i32 2i32)", "-4i32"),
        ("(mul (add v1 (sub 3i64 3i64)) (div 10i64 10i64))", "v1"),
        ("(mul 0.5f32 4.0f32)", "2.0f32"),
        ("(lt 1i32 2i32)", "true"),
        ("(select (lt 2i32 1i32) v1 v2)", "v2"),
        ("(neg 5i16)", "-5i16"),
    ] {
        assert_eq!(simplify_with(&rules, from), to, "{from}");
    }
    // Division by zero and NaN results stay as they are.
    for t in ["(div 1i32 0i32)", "(div 0.0f64 0.0f64)"] {
        assert_eq!(simplify_with(&rules, t), t);
    }
}

#[test]
fn a_user_rule_file_adds_a_set() {
    let mut rules = load(SIMPLIFY).expect("simplify.rules compiles");
    let user = "ruleset mine\nrule sub-self (sub ?x ?x) => 0i32\nschedule\nmine 4\n";
    rules
        .extend(load(user).expect("the user file compiles"))
        .expect("no clash");
    assert_eq!(simplify_with(&rules, "(sub (add v58 0i32) v58)"), "0i32");
    let clash = load("ruleset arith\nrule r (neg ?x) => ?x\n").expect("compiles alone");
    assert!(rules.extend(clash).unwrap_err().contains("`arith` is already defined"));
}

#[test]
fn bidirectional_rules_and_limits_stop_with_a_reason() {
    let rules = load("ruleset c\nrule comm (add ?x ?y) <=> (add ?y ?x)\nrule assoc (add ?x (add ?y ?z)) <=> (add (add ?x ?y) ?z)\nschedule\nc 100\n")
        .expect("compiles");
    let mut g: EGraph<SymbolLang, ConstFold> = EGraph::default();
    let mut t = "v0".to_string();
    for i in 1..12 {
        t = format!("(add {t} v{i})");
    }
    g.add_expr(&t.parse().unwrap());
    let (_, reports) = rules.run_steps(
        g,
        &rules.schedule,
        Limits {
            nodes: 2_000,
            time: Duration::from_secs(5),
        },
    );
    assert_eq!(reports.len(), 1);
    assert!(reports[0].stop.starts_with("node limit"), "{:?}", reports[0]);
}

#[test]
fn errors_name_the_line_and_column() {
    for (text, want) in [
        (
            "rule r (neg ?x) => ?x\n",
            "t.rules:1:1: a rule must come after a `ruleset NAME` line",
        ),
        (
            "ruleset s\nrule r (neg ?x) -> ?x\n",
            "t.rules:2:17: expected `=>` or `<=>`, found `->`",
        ),
        (
            "ruleset s\nrule r (neg ?x => ?x\n",
            "t.rules:2:8: this `(` is not closed on its line",
        ),
        (
            "ruleset s\nrule r (ngg ?x) => ?x\n",
            "t.rules:2:9: unknown operator `ngg`",
        ),
        (
            "ruleset s\nrule r (neg ?x ?y) => ?x\n",
            "t.rules:2:8: operator `neg` takes 1 operand(s), found 2",
        ),
        (
            "ruleset s\nrule r (neg ?x) => ?y\n",
            "t.rules:2:20: the variable `?y` is not bound by the left side of rule `r`",
        ),
        (
            "ruleset s\n  rule r (neg ?x) => ?x if (pure ?x)\n",
            "t.rules:2:29: unknown predicate `pure`",
        ),
        (
            "ruleset s\nrule r (neg ?x) => ?x if (int-zero ?x ?x)\n",
            "predicate `int-zero` takes 1 argument(s), found 2",
        ),
        (
            "ruleset s\nrule r (neg ?x) => ?x if (int-zero ?q)\n",
            "the condition uses `?q`",
        ),
        (
            "ruleset s\nrule r (neg ?x) <=> 0i32\n",
            "its right side must bind `?x` too",
        ),
        (
            "ruleset s\nrule r ?x => (neg (neg ?x))\n",
            "cannot match a bare variable",
        ),
        (
            "ruleset s\nrule r (neg ?x) => foo\n",
            "`foo` is neither a pattern variable, a literal nor a nullary operator",
        ),
        (
            "ruleset s\nrule r (neg ?x) => ?x\nrule r (not ?x) => ?x\n",
            "t.rules:3:6: rule `r` is defined twice",
        ),
        (
            "ruleset s\nschedule\nt 3\n",
            "t.rules:3:1: the schedule names an unknown rule set `t`",
        ),
        (
            "ruleset s\nschedule\ns many\n",
            "t.rules:3:3: expected an iteration count, found `many`",
        ),
        (
            "ruleset s\nrule r (neg ?x) => ?x extra\n",
            "expected `if` or the end of the line, found `extra`",
        ),
        (
            "rules s\n",
            "t.rules:1:1: expected `ruleset`, `rule` or `schedule`, found `rules`",
        ),
        (
            "ruleset s\nrule r ((neg) ?x) => ?x\n",
            "expected an operator name, found a list",
        ),
    ] {
        let got = error_of(text);
        assert!(got.contains(want), "for {text:?}:\n  got  {got}\n  want {want}");
    }
}

#[test]
fn literals_carry_their_type() {
    assert_eq!(literal("-3i32"), Some(Literal::Int(-3, "i32")));
    assert_eq!(literal("255u8"), Some(Literal::Int(255, "u8")));
    assert_eq!(literal("1.5f32"), Some(Literal::Float(1.5, "f32")));
    assert_eq!(literal("1f64"), Some(Literal::Float(1.0, "f64")));
    assert_eq!(literal("true"), Some(Literal::Bool(true)));
    assert_eq!(literal("v3"), None);
    assert_eq!(literal("x"), None);
}

#[test]
fn a_mutated_rule_file_never_panics() {
    // Delete, duplicate or swap characters of the real rule file: every
    // result is either accepted or an error with a position in the text.
    let bytes = SIMPLIFY.as_bytes();
    let mut rng = 0x2545f4914f6cdd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for _ in 0..2_000 {
        let mut m = bytes.to_vec();
        for _ in 0..3 {
            let i = (next() % m.len() as u64) as usize;
            match next() % 3 {
                0 => {
                    m.remove(i);
                }
                1 => m.insert(i, b"()?=><# \n"[(next() % 9) as usize]),
                _ => {
                    let j = (next() % m.len() as u64) as usize;
                    m.swap(i, j)
                }
            }
        }
        let text = String::from_utf8_lossy(&m).into_owned();
        if let Err(e) = load(&text) {
            assert!(e.at <= text.len(), "error offset past the text");
            let _ = e.to_plain("m.rules", &text);
        }
    }
}

/// The answer of `fusion.rules` to a fusion question (Note [Fusion
/// terms]): the cheapest form, or the question itself when no rule fuses.
fn fuse_answer(question: &str) -> String {
    let text = super::BUILTIN_RULE_FILES[1].1;
    let file = parse(text).unwrap_or_else(|e| panic!("{}", e.to_plain("fusion.rules", text)));
    assert_eq!(file.language(), "fusion");
    let rules: Rules<()> = compile(&file, &super::fusion::language(), &super::fusion::predicates())
        .unwrap_or_else(|e| panic!("{}", e.to_plain("fusion.rules", text)));
    let expr: RecExpr<SymbolLang> = question.parse().expect("test terms parse");
    let mut g: EGraph<SymbolLang, ()> = EGraph::default();
    let root = g.add_expr(&expr);
    let (g, _) = rules.run(g, limits());
    let (_, best) = Extractor::new(&g, super::fusion::FusionCost).find_best(root);
    best.to_string()
}

#[test]
fn fusion_rules_answer_questions() {
    for (q, a) in [
        ("(after (map lb) (map la) exclusive)", "(map (compose lb la))"),
        (
            "(after (redomap ob id) (map la) exclusive)",
            "(redomap ob (compose id la))",
        ),
        (
            "(after (scanomap ob id) (map la) shared)",
            "(scanomap ob (compose id la))",
        ),
        ("(after (hist ob lb) (map la) exclusive)", "(hist ob (compose lb la))"),
        ("(after (scatter lb) (map la) exclusive)", "(scatter (compose lb la))"),
        (
            "(after (map lb) (redomap oa la) shared)",
            "(redomap oa (compose lb la))",
        ),
        (
            "(after (redomap ob lb) (redomap oa la) exclusive)",
            "(redomap (pair oa ob) (compose lb la))",
        ),
        ("(beside (map la) (map lb))", "(map (pair la lb))"),
        (
            "(beside (redomap oa id) (redomap ob id))",
            "(redomap (pair oa ob) (pair id id))",
        ),
        ("(beside (map la) (scanomap ob id))", "(scanomap ob (pair la id))"),
        ("(beside (scatter la) (scatter lb))", "(scatter (pair la lb))"),
        // A map after a scan is its post-lambda (a screma costs less than
        // a stream); a map and a reduction join a screma.
        ("(after-scan (map lb) (scanomap oa id) exclusive)", "(screma oa id lb)"),
        ("(after (map lb) (scanomap oa la) shared)", "(screma oa la lb)"),
        (
            "(after (map lb) (screma oa la pa) exclusive)",
            "(screma oa la (compose lb pa))",
        ),
        (
            "(after (screma ob lb pb) (map la) exclusive)",
            "(screma ob (compose lb la) pb)",
        ),
        (
            "(beside (screma oa la pa) (redomap ob id))",
            "(screma (pair oa ob) (pair la id) pa)",
        ),
        (
            "(after-scan (redomap ob lb) (scanomap oa la) shared)",
            "(stream_seq (pair oa ob) (compose lb la))",
        ),
        (
            "(after-scan (scanomap ob id) (scanomap oa id) exclusive)",
            "(stream_seq (pair oa ob) (compose id id))",
        ),
        (
            "(after-scan (stream_seq ob lb) (scanomap oa id) shared)",
            "(stream_seq (pair oa ob) (compose lb id))",
        ),
        (
            "(after (map lb) (stream_seq oa la) exclusive)",
            "(stream_seq oa (compose lb la))",
        ),
        (
            "(after (stream_seq ob lb) (stream_seq oa la) exclusive)",
            "(stream_seq (pair oa ob) (compose lb la))",
        ),
    ] {
        assert_eq!(fuse_answer(q), a, "{q}");
    }
    // No answer: a histogram or scatter cannot also map out the
    // producer's arrays, a histogram does not stream, a map others read
    // too stays out of a screma's pre-lambda, and a histogram and a map
    // side by side do not fuse.
    for q in [
        "(after-scan (hist ob lb) (scanomap oa id) exclusive)",
        "(after (hist ob lb) (map la) shared)",
        "(after (scatter lb) (map la) shared)",
        "(after (screma ob lb pb) (map la) shared)",
        "(beside (hist oa la) (map lb))",
    ] {
        assert_eq!(fuse_answer(q), q);
    }
}

#[test]
fn rule_files_name_their_language() {
    assert!(error_of("language nonsense\n").contains("t.rules:1:10: unknown term language `nonsense`"));
    assert!(error_of("ruleset a\nrule r (neg ?x) => ?x\nlanguage fusion\n")
        .contains("t.rules:3:1: `language` must come once"));
    // A fusion rule in the scalar language is an unknown operator.
    assert!(
        error_of("ruleset f\nrule r (after (map ?g) (map ?f) ?s) => (map ?g)\n").contains("unknown operator `after`")
    );
}
