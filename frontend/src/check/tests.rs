//! Static size checking (Note [Static size checking]): what is inferred,
//! what is rejected, and where the checker stays lenient. Sum types:
//! constructor types from their context, and the pattern checks of
//! Note [Pattern matching].

use super::zonk::{walk_exp, walk_pat};
use super::{check_file, Checked};
use crate::diag::Diag;
use crate::span::SourceMap;
use crate::syntax::ast::Dec;
use crate::types::{Size, Type};

fn check(src: &str) -> Result<Checked, Vec<Diag>> {
    let mut sm = SourceMap::default();
    let f = sm.add("t.fut", src);
    check_file(&mut sm, f)
}

/// The return type of entry point `main`.
fn main_ret(src: &str) -> String {
    match check(src) {
        Ok(c) => c.entries.iter().find(|e| &*e.name == "main").unwrap().ret.to_string(),
        Err(ds) => panic!("{src}\nrejected: {}", ds[0].message),
    }
}

fn rejected(src: &str) -> Diag {
    match check(src) {
        Ok(_) => panic!("{src}\nwas accepted"),
        Err(mut ds) => ds.remove(0),
    }
}

#[test]
fn sizes_are_inferred() {
    assert_eq!(main_ret("def main [n] (xs: [n]i32) = map (+1) xs"), "*[n]i32");
    assert_eq!(main_ret("def main [n][m] (a: [n][m]i32) = transpose a"), "[m][n]i32");
    assert_eq!(main_ret("def main (x: i32) = iota 5"), "*[5]i64");
    assert_eq!(
        main_ret("def main (n: i64) = zip (iota n) (replicate n 1i32)"),
        "*[n](i64, i32)"
    );
    assert_eq!(main_ret("def main (x: i32) = [[x, x], [x, x], [x, x]]"), "[3][2]i32");
    assert_eq!(
        main_ret("def main [n][m] (a: [n][m]i32) = map (map (+1)) a"),
        "*[n][m]i32"
    );
    // A local size-polymorphic function, inferred.
    assert_eq!(
        main_ret("def main [n][m] (xs: [n]i32) (ys: [m]i32) = let f zs = map (+1) zs in (f xs, f ys)"),
        "(*[n]i32, *[m]i32)"
    );
    // Existential: filter, and the branches of an `if` that differ.
    assert_eq!(main_ret("def main (xs: []i32) = filter (>0) xs"), "*[]i32");
    assert_eq!(
        main_ret("def main (n: i64) (m: i64) (b: bool) = if b then iota n else iota m"),
        "*[]i64"
    );
    assert_eq!(
        main_ret("def main (n: i64) (b: bool) = if b then iota n else iota n"),
        "*[n]i64"
    );
    // `++` and `flatten`: size expressions.
    assert_eq!(main_ret("def main [n] (xs: [n]i32) = xs ++ xs"), "*[n+n]i32");
    assert_eq!(main_ret("def main [n][m] (a: [n][m]i32) = flatten a"), "[n*m]i32");
    assert_eq!(main_ret("def main (x: i32) = [x, x] ++ [x]"), "*[3]i32");
    assert_eq!(main_ret("def main [n] (xs: [n]i32) = xs ++ []"), "*[n]i32");
    // A size named after a local of the body is unknown outside.
    assert_eq!(main_ret("def main (x: i32) = let k = 3 in replicate k x"), "*[]i32");
}

#[test]
fn size_mismatches_are_errors() {
    for (src, want) in [
        (
            "def main [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs ys",
            "[n]i32`, found `[m]i32`",
        ),
        (
            "def f [n][m] (xs: [n]i32) (_: [m]i32): [m]i32 = xs",
            "expected type `[m]i32`, found `[n]i32`",
        ),
        ("def main (n: i64) = zip (iota n) (iota 3)", "[n]i64`, found `*[3]i64`"),
        ("def main (x: i32) = zip [x, x] [x]", "[2]i32`, found `[1]i32`"),
        (
            "def f [n] (xs: [n]i32): [n]i32 = xs ++ xs",
            "expected type `[n]i32`, found `*[n+n]i32`",
        ),
        ("def f [n][m] (a: [n][m]i32): [n]i32 = flatten a", "found `[n*m]i32`"),
        (
            "def f [n][m] (a: [n][m]i32): [n][m]i32 = transpose a",
            "found `[m][n]i32`",
        ),
        ("def main (n: i64) (m: i64) = [iota n, iota m]", "found `*[m]i64`"),
        (
            "def dot [n] (xs: [n]i32) (ys: [n]i32) = map2 (*) xs ys\ndef main (x: i32) = dot [x, x] [x]",
            "[2]i32`, found `[1]i32`",
        ),
        (
            "def add xs ys = map2 (\\(x: i32) y -> x + y) xs ys\ndef main [n][m] (xs: [n]i32) (ys: [m]i32) = add xs ys",
            "[n]i32`, found `[m]i32`",
        ),
        (
            "def main [n] (xs: [n]i32) = loop (a: [n]i32) = xs for i < 2 do a ++ a",
            "found `*[n+n]i32`",
        ),
    ] {
        let d = rejected(src);
        assert!(d.message.contains(want), "{src}\n{}", d.message);
        assert!(
            d.help.as_deref().unwrap_or("").contains("sizes") || d.message.contains("Sizes"),
            "{src}\n{:?}",
            d.help
        );
    }
}

#[test]
fn unknown_sizes_are_lenient() {
    for src in [
        // Existentials agree with anything.
        "def main [n] (xs: [n]i32) = zip xs (filter (>0) xs)",
        "def main [n] (xs: [n]i32): [n]i32 = filter (>0) xs",
        "def main [n] (xs: [n]i32) = zip (xs[1:]) (xs[:n-1])",
        "def main [n] (xs: [n]i32): [n + n]i32 = xs ++ xs",
        "def main [n] (xs: [n]i32) = zip (xs ++ xs) (xs ++ xs)",
        // Coercions compare no sizes; loops may change them.
        "def main [n][m] (xs: [n]i32) (ys: [m]i32) = zip xs (ys :> [n]i32)",
        "def main [n] (xs: [n]i32): [n]i32 = loop acc = xs for i < 3 do map (+1) acc",
        "def main (xs: []i32) = loop acc = xs for i < 3 do acc ++ acc",
        // A record field may change its size.
        "def main [n] (xs: [n]i32) = let r = {a = xs} let r = r with a = xs ++ xs in zip r.a (xs ++ xs)",
        // A function value bound by `let` is not fixed by its first use.
        "def main [n][m] (xs: [n]i32) (ys: [m]i32) = let f = map (+1) in (f xs, f ys)",
        // A function value with a size named after its parameter.
        "def main (x: i32) = map (\\(k: i64) -> i64.sum (iota k)) (iota 3)",
        "def main (n: i64) = n |> iota",
    ] {
        if let Err(ds) = check(src) {
            panic!("{src}\nrejected: {}", ds[0].message);
        }
    }
}

#[test]
fn checked_types_keep_no_size_variables() {
    let src = "def f [n] (xs: [n]i32) = let ys = xs ++ xs in (zip ys ys, flatten [xs, xs])
def g xs = map (+1) xs
def main [n] (xs: [n]i32) = let h zs = reverse zs in (g (h xs), loop a = xs for i < 2 do a ++ a)";
    let c = check(src).unwrap_or_else(|ds| panic!("{}", ds[0].message));
    fn ok(t: &Type) -> bool {
        match t {
            Type::Array { elem, shape, .. } => {
                shape.iter().all(|d| !d.any_leaf(&mut |l| matches!(l, Size::Infer(_)))) && ok(elem)
            }
            Type::Tuple(ts) => ts.iter().all(ok),
            Type::Record(fs) => fs.iter().all(|(_, t)| ok(t)),
            Type::Arrow { param, ret, .. } => ok(param) && ok(ret),
            _ => true,
        }
    }
    let mut prog = c.programs.into_iter().last().unwrap();
    for dec in prog.decs.iter_mut() {
        let Dec::Val(vb) = dec else { continue };
        let bad = std::cell::RefCell::new(Vec::new());
        let mut in_pat =
            |p: &mut crate::syntax::ast::Pat| bad.borrow_mut().extend(p.ty.iter().filter(|t| !ok(t)).cloned());
        for p in vb.params.iter_mut() {
            walk_pat(p, &mut in_pat);
        }
        let mut in_exp = |e: &mut crate::syntax::ast::Exp| {
            bad.borrow_mut().extend(e.ty.iter().filter(|t| !ok(t)).cloned());
            Ok(())
        };
        walk_exp(&mut vb.body, &mut in_exp, &mut in_pat).unwrap();
        assert!(bad.borrow().is_empty(), "{}: {:?}", vb.name, bad.borrow());
    }
}

#[test]
fn sizes_of_unflatten_and_split_come_from_the_argument() {
    assert_eq!(
        main_ret("def main [k] (xs: [k]i32) (n: i64) (m: i64) = unflatten (xs :> [n*m]i32)"),
        "[n][m]i32"
    );
    assert_eq!(
        main_ret("def main [n][m] (a: [n][m]i32) = unflatten (flatten a)"),
        "[n][m]i32"
    );
    assert_eq!(
        main_ret("def main [k] (xs: [k]i32) (n: i64) = split (xs :> [n+(k-n)]i32)"),
        "([n]i32, [k-n]i32)"
    );
    assert_eq!(
        main_ret("def main (xs: [6]i32) = unflatten_3d (xs :> [1*2*3]i32)"),
        "[1][2][3]i32"
    );
    // Constants are not folded in the argument: `[2+4]` splits into 2 and 4.
    assert_eq!(
        main_ret("def main (xs: [6]i32) = split (xs :> [2+4]i32)"),
        "([2]i32, [4]i32)"
    );
    // A size given for a named parameter may be an expression too.
    assert_eq!(
        main_ret("def main (n: i64) (m: i64) = unflatten (iota (n*m))"),
        "[n][m]i64"
    );
    // A size expression compares with its constants folded.
    assert_eq!(main_ret("def main (xs: [6]i32): [6]i32 = xs :> [2*3]i32"), "[6]i32");
    for (src, want) in [
        (
            "def main [k] (xs: [k]i32) = unflatten xs",
            "expected an array of size `n*m`, found `[k]i32`",
        ),
        (
            "def main [k] (xs: [k]i32) = split xs",
            "expected an array of size `n+m`, found `[k]i32`",
        ),
        (
            "def main (xs: []i32) = unflatten (filter (>0) xs)",
            "whose size is not known statically",
        ),
        ("def main (xs: [6]i32) = unflatten xs", "found `[6]i32`"),
        (
            "def main (xs: [6]i32) = unflatten (xs :> [2+4]i32)",
            "expected an array of size `n*m`, found `[2+4]i32`",
        ),
    ] {
        let d = rejected(src);
        assert!(d.message.contains(want), "{src}\n{}", d.message);
        assert!(d.help.as_deref().unwrap_or("").contains(":>"), "{src}\n{:?}", d.help);
    }
    // Through a higher-order function the message is unification's.
    let d = rejected("def main [k] (xs: [k]i32) = xs |> unflatten");
    assert!(
        d.help.as_deref().unwrap_or("").contains("does not have the form [n*m]"),
        "{:?}",
        d.help
    );
    // Sizes generalised away cannot be recovered in the body.
    let d = rejected("def f xs = unflatten (flatten xs)\ndef main (xs: [2][3]i32) = f xs");
    assert!(d.message.contains("cannot determine the sizes"), "{}", d.message);
}

#[test]
fn names_out_of_scope_become_unknown() {
    assert_eq!(
        main_ret("def main (x: i32) = let f (k, y) = replicate k y in zip (f (3, x)) (iota 3)"),
        "*[3](i32, i64)"
    );
    assert_eq!(
        main_ret("def main (x: i32) = map (\\(k, y) -> replicate k y) [(2, x)]"),
        "*[1][]i32"
    );
    // A named parameter's size is the argument's: as `map`'s function the
    // lambda would build an irregular array (Note [Dependent function
    // types]).
    let d = rejected("def main (x: i32) = map (\\(k: i64) -> replicate k x) [2]");
    assert!(
        d.message
            .contains("cannot be instantiated with type containing anonymous sizes"),
        "{}",
        d.message
    );
}

#[test]
fn constructor_types_come_from_the_context() {
    // From a return annotation, through `if`.
    assert_eq!(
        main_ret("def main (b: bool): #a i32 | #b = if b then #a 1 else #b"),
        "#a i32 | #b"
    );
    // From a parameter of a function it is passed to; literal payloads
    // take the payload type.
    assert_eq!(
        main_ret("def f (x: #b | #a i64): i64 = match x case #a n -> n case #b -> 0\ndef main (x: i32) = f (#a 2)"),
        "i64"
    );
    // Constructor order does not matter; abbreviations with parameters.
    assert_eq!(
        main_ret("type opt 'a = #some a | #none\ndef main (x: i32): #none | #some i32 = (#some x : opt i32)"),
        "#none | #some i32"
    );
    // Arrays of sums, and sums as payloads.
    assert_eq!(
        main_ret("def main (x: i32): [2](#l | #r (#x | #y f32)) = [#l, #r (#y 1)]"),
        "[2](#l | #r (#x | #y f32))"
    );
}

#[test]
fn sum_type_errors() {
    for (src, want) in [
        (
            "def main (x: i32) = let o = #some x in 0",
            "Type is ambiguous: a sum type with at least the constructors `#some i32`",
        ),
        (
            "def main (x: i32): #a i32 | #b = #a true",
            "expected type `#a i32 | #b`, found `#a bool`",
        ),
        ("def main (x: i32): #a | #b = #c", "expected type `#a | #b`, found `#c`"),
        ("def main (x: i32): #a i32 | #b = #b x", "found `#b i32`"),
        (
            "type t = #a | #a i32\ndef main (x: t) = 0",
            "the constructor `#a` appears twice",
        ),
        ("def main (x: i32) = x + #a", "found `#a`"),
        (
            "def main (x: #a | #b) = match x case #a -> 1 case #b -> true",
            "the cases of `match` have different types: expected `i32`, found `bool`",
        ),
        (
            "def main (x: i32) = match x case \"ab\" -> 1 case _ -> 2",
            "string literals are not allowed in patterns",
        ),
        (
            "def main (x: bool) = match x case 1 -> 1 case _ -> 2",
            "expected a pattern of type `bool`, found a literal of type `i32`",
        ),
        // Futhark's reasons, on the message's line.
        (
            "def f (v: #a i32 | #c i32) : #a i32 | #d i32 = v",
            "Unshared constructors: #c, #d.",
        ),
        (
            "def f b : #foo | #bar = if b then #foo else #baar",
            "Unshared constructors: #baar.",
        ),
        (
            "def f (c: bool) = if c then #a else 0",
            "Cannot unify a sum type with a numeric type",
        ),
        (
            "def main (x: #foo f64) = match x case #foo a b -> a",
            "payloads of constructor `#foo` differ in arity",
        ),
        (
            "def f '^a (_: a) (y: a) = y\ndef main = f (\\s -> s.x < 0) (\\s -> s > 0)",
            "with type that must be a record (with field `x`)",
        ),
        (
            "def main = let (x, y) = (1, 2, 3) in x",
            "a tuple of 2 elements cannot match one of 3",
        ),
    ] {
        let d = rejected(src);
        assert!(d.message.contains(want), "{src}\nwant: {want}\ngot:  {}", d.message);
    }
}

#[test]
fn match_must_be_exhaustive() {
    for (src, missing) in [
        ("def main (x: #a | #b | #c) = match x case #a -> 1 case #c -> 2", "#b"),
        (
            "def main (x: #a i32 | #b) = match x case #a 0 -> 1 case #b -> 2",
            "#a 1",
        ),
        (
            "def main (x: (bool, bool)) = match x case (true, _) -> 1 case (_, true) -> 2",
            "(false, false)",
        ),
        (
            "def main (x: {p: #u | #v, q: bool}) = match x case {p = #u, q} -> 1 case {p, q = true} -> 2",
            "{p = #v, q = false}",
        ),
        ("def main (x: #s (#t | #w)) = match x case #s #t -> 1", "#s #w"),
        ("def main (x: #s (#t i32 | #w)) = match x case #s #w -> 1", "#s (#t _)"),
        ("def main (x: f64) = match x case 0 -> 1 case 1.5 -> 2", "1.0"),
        ("def main (x: i8) = match x case -1 -> 1 case 0 -> 2 case 1 -> 3", "2"),
    ] {
        let d = rejected(src);
        assert_eq!(
            d.message,
            format!("Unmatched cases in match expression: `{missing}`"),
            "{src}"
        );
    }
    // Exhaustive without a default case.
    for src in [
        "def main (x: #a | #b) = match x case #b -> 1 case #a -> 2",
        "def main (x: (bool, #l | #r)) = match x case (true, _) -> 1 case (false, #l) -> 2 case (_, #r) -> 3",
        "def main (x: #a i32 | #b) = match x case #a 0 -> 1 case #a n -> n case #b -> 2",
        "def main (x: ()) = match x case () -> 1",
    ] {
        if let Err(ds) = check(src) {
            panic!("{src}\nrejected: {}", ds[0].message);
        }
    }
}

#[test]
fn unreachable_cases_are_errors() {
    for (src, note) in [
        (
            "def main (x: #a | #b) = match x case _ -> 1 case #a -> 2",
            "this earlier case matches every value it matches",
        ),
        (
            "def main (x: #a | #b) = match x case #a -> 1 case #b -> 2 case _ -> 3",
            "this earlier case, with the ones before it, matches every value it matches",
        ),
        (
            "def main (x: i32) = match x case 1 -> 1 case -1 -> 2 case 1 -> 3 case _ -> 4",
            "this earlier case matches every value it matches",
        ),
        (
            // (`-1` is no `u8`: a literal out of bounds, not a case.)
            "def main (x: u8) = match x case 255 -> 1 case 255 -> 2 case _ -> 3",
            "this earlier case matches every value it matches",
        ),
    ] {
        let d = rejected(src);
        assert_eq!(
            d.message, "this case is unreachable: earlier cases match every value it matches",
            "{src}"
        );
        assert_eq!(d.notes.first().map(|(_, m)| m.as_str()), Some(note), "{src}");
    }
}

#[test]
fn refutable_patterns_outside_match() {
    for (src, missing) in [
        ("def main (x: i32) = let 1 = x in x", "0"),
        ("def main (x: #a i32 | #b) = let (#a y) = x in y", "#b"),
        ("def f (true: bool) = 1\ndef main (x: bool) = f x", "false"),
        ("def main (xs: []i32) = map (\\(1, y) -> y) (zip xs xs)", "(0, _)"),
        ("def (-) a 1 = 2\ndef main (x: i32) = x - 1", "0"),
        (
            "def main (x: i32) = loop (0, y) = (0, x) for i < 3 do (0, y + 1)",
            "(1, _)",
        ),
    ] {
        let d = rejected(src);
        assert_eq!(
            d.message,
            format!("Refutable pattern not allowed here: it does not match `{missing}`"),
            "{src}"
        );
    }
    // A constructor pattern of a one-constructor type cannot fail.
    assert_eq!(
        main_ret("def main (x: #w i32 bool) = let (#w n b) = x in if b then n else 0"),
        "i32"
    );
}

/// Note [Lazy prelude]: programs get only the prelude declarations they
/// reach, so the whole prelude (its sealings and check-only functor
/// bodies included) is checked here.
#[test]
fn the_whole_prelude_checks() {
    let mut sm = SourceMap::default();
    let f = sm.add("t.fut", "def main (x: i32) = x");
    let prelude_file = sm.add("<prelude>", super::PRELUDE);
    let prelude = crate::syntax::parser::parse_program(prelude_file, super::PRELUDE).unwrap();
    let program = crate::syntax::parser::parse_program(f, sm.text(f)).unwrap();
    let programs = crate::modules::elaborate(&mut sm, prelude, f, program).unwrap_or_else(|d| panic!("{}", d.message));
    let all = programs[0].decs.len();
    assert!(all > 200, "the prelude has {all} flat declarations");
    if let Err(ds) = super::check_programs(programs) {
        panic!("the prelude does not check: {}", ds[0].message);
    }
}

/// Note [Lazy prelude]: what a program reaches is kept, transitively
/// (`f32.maximum` needs `f32.lowest`), and nothing else.
#[test]
fn the_prelude_is_pruned_to_what_is_reached() {
    let c = check("def main (xs: []f32) = f32.maximum xs").unwrap();
    let names: Vec<String> = c.programs[0]
        .decs
        .iter()
        .filter_map(|d| match d {
            Dec::Val(vb) => Some(vb.name.to_string()),
            _ => None,
        })
        .collect();
    // The numeric modules are sealed (`module f32: float with ...`): their
    // definitions are under `f32.impl`, and the sealing binds `f32.maximum`.
    assert!(names.iter().any(|n| n.ends_with("maximum")), "{names:?}");
    assert!(names.iter().any(|n| n.ends_with("lowest")), "{names:?}");
    assert!(
        !names.iter().any(|n| n.ends_with("minimum") || n.ends_with("sum")),
        "{names:?}"
    );
}

/// Errors at generalisation and on redefinitions, in Futhark's words.
#[test]
fn ambiguous_and_forbidden_definitions() {
    for (src, want) in [
        (
            "def f x = x.l",
            "Type is ambiguous: a record with at least the field `l`",
        ),
        ("def add x y = x == y", "does not support equality"),
        ("def eq 'a (x: a) (y: a) = x == y", "Type a does not support equality."),
        (
            "def (||) (x: bool) (y: bool) = x",
            "The || operator may not be redefined.",
        ),
        (
            "def main (x: bool) = let (&&) a b = a in x && x",
            "The && operator may not be redefined.",
        ),
    ] {
        let d = rejected(src);
        assert!(d.message.contains(want), "{src}\nwant: {want}\ngot:  {}", d.message);
    }
    // A use at another type of a definition whose type was defaulted
    // says where the default came from (Note [Defaulting]).
    let d = rejected("def add a b = a + b\ndef main (x: f64) = add x 1.0");
    assert!(d.message.starts_with("Cannot apply \"add\" to \"x\""), "{}", d.message);
    assert_eq!(d.notes.len(), 1);
    assert!(d.notes[0]
        .1
        .starts_with("Default: the type of `add` was ambiguous here, so it defaulted to `i32`"));
    // Equality on known types, and on records and sums of them, is fine.
    assert_eq!(
        main_ret("def main (x: i32) = (x, [x]) == (1, [2]) && (#a x : #a i32 | #b) != #b"),
        "bool"
    );
    // A sum type of more than 256 constructors is rejected.
    let cs: Vec<String> = (0..257).map(|i| format!("#c{i}")).collect();
    let d = rejected(&format!("type t = {}\ndef main (x: t) = 0", cs.join(" | ")));
    assert!(d.message.contains("at most 256 constructors"), "{}", d.message);
}

/// Note [Size terms] in `types`: size expressions that are not `+ - *`
/// are kept as written, unify hole by hole, and agree with sizes of
/// other forms.
#[test]
fn size_terms() {
    assert_eq!(main_ret("def main (n: i64) = iota (n / 2)"), "*[n / 2]i64");
    assert_eq!(
        main_ret("def plus a b : i64 = a + b\ndef main (a: i64) (b: i64) = tabulate (plus a b) id"),
        "*[plus a b]i64"
    );
    // A size parameter only inside a term is bound by the argument's
    // term, and the result has the caller's names.
    assert_eq!(
        main_ret(
            "def k = 8i64\ndef f [n] (xs: [(n - 1) / k + 1]u8) : [(n - 1) / k + 1]u8 = xs\n\
             def main (c: i64) = f (replicate ((c - 1) / k + 1) 0u8)"
        ),
        "[((c - 1) / k)+1]u8"
    );
    // A term agrees with sizes of other forms (checked at run time).
    assert_eq!(main_ret("def main (n: i64) = iota (n / 2) :> [3]i64"), "[3]i64");
    // A size parameter used nowhere is still an error.
    let d = rejected("def k = 8i64\ndef f [n] (xs: [k]u8) = xs");
    assert!(d.message.starts_with("Size [n] unused in pattern"), "{}", d.message);
}
