//! Module elaboration: the flat declarations it gives, and its errors
//! with both spans.

use crate::check::check_file;
use crate::diag::Diag;
use crate::span::SourceMap;
use crate::syntax::ast::Dec;

fn check(src: &str) -> Result<crate::check::Checked, Vec<Diag>> {
    let mut sm = SourceMap::default();
    let f = sm.add("t.fut", src);
    check_file(&mut sm, f)
}

/// The names of the user's flat value declarations (check-only ones in
/// brackets).
fn flat_names(src: &str) -> Vec<String> {
    let c = check(src).unwrap_or_else(|d| panic!("{src}\nrejected: {}", d[0].message));
    let user = c.programs.last().expect("a user program");
    user.decs
        .iter()
        .filter_map(|d| match d {
            Dec::Val(v) => Some(v.name.to_string()),
            Dec::CheckOnly(d) => match &**d {
                Dec::Val(v) => Some(format!("[{}]", v.name)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn rejected(src: &str) -> Diag {
    match check(src) {
        Ok(_) => panic!("{src}\nwas accepted"),
        Err(mut ds) => ds.remove(0),
    }
}

#[test]
fn structures_and_functors_become_flat_declarations() {
    assert_eq!(
        flat_names(
            "module M = { def f (x: i32) = x module N = { def g = 1 } }\n\
             module F (P: { val v: i32 }) = { def w = P.v }\n\
             module A = F { def v = 2 }\n\
             def main (x: i32) = M.f x + M.N.g + A.w"
        ),
        ["M.f", "M.N.g", "[F(check).w]", "A.arg.v", "A.w", "main"]
    );
    // A second definition of a name (here from an opened structure) gets
    // a suffix; entry points keep theirs.
    assert_eq!(
        flat_names("def f = 1\nopen { def f = 2 }\nentry main (x: i32) = x + f"),
        ["f", "f#1", "main"]
    );
}

#[test]
fn one_declaration_list_defines_a_name_once() {
    let d = rejected("def f = 1\ndef f = 2\nentry main (x: i32) = x + f");
    assert!(d.message.contains("Duplicate definition of value `f`"), "{}", d.message);
    let d = rejected("module type s = { type t 'a 'a }");
    assert!(d.message.contains("previously defined"), "{}", d.message);
}

#[test]
fn sealing_hides_and_makes_types_abstract() {
    let ok = "module type S = { type t val mk: i32 -> t val get: t -> i32 }\n\
              module M : S = { type t = i32 def mk (x: i32) = x def get (x: t) = x }\n\
              def main (x: i32) = M.get (M.mk x)";
    assert!(check(ok).is_ok());
    let d = rejected(&ok.replace("M.get (M.mk x)", "M.mk x + 1"));
    assert!(d.message.contains("M.t"), "{}", d.message);
}

#[test]
fn mismatches_name_the_spec() {
    let src = "module type S = { val f: i32 -> i32 }\nmodule M : S = { def f (x: bool) = x }";
    let d = rejected(src);
    assert_eq!(
        d.message,
        "Module type specifies val f : i32 -> i32, but module provides val f : (x: bool) -> bool"
    );
    assert_eq!(d.help.as_deref(), Some("the value does not match its specification"));
    assert_eq!(&src[d.span.lo as usize..d.span.hi as usize], "f");
    assert_eq!(d.notes.len(), 1);
    let (s, _) = &d.notes[0];
    assert_eq!(&src[s.lo as usize..s.hi as usize], "val f: i32 -> i32");

    let src = "module type S = { val f: i32 -> i32 }\nmodule M : S = { def g = 1 }";
    let d = rejected(src);
    assert!(d.message.contains("missing value `f`"), "{}", d.message);
    assert_eq!(&src[d.span.lo as usize..d.span.hi as usize], "{ def g = 1 }");
    assert_eq!(d.notes.len(), 2);
}

/// Types: Futhark's "Module defines ..., but module type requires ...";
/// a type may be no more lifted than its specification, a `with` may not
/// narrow a type parameter, and a module type's names must be in scope.
#[test]
fn type_specs_in_futhark_words() {
    for (src, want) in [
        (
            "module M : { type s } = { type s 'a = a }",
            "Module defines type s 'a, but module type requires type s",
        ),
        (
            "module M : { type s = f32 } = { type s = i32 }",
            "Module defines type s = i32, but module type requires type s = f32",
        ),
        (
            "module M : { type t 'a } = { type^ t '^a = a }",
            "Module defines type^ t '^a, but module type requires the non-lifted type t 'a",
        ),
        (
            "module M : { type~ t } = { type^ t = i32 -> i32 }",
            "requires the size-lifted type~ t",
        ),
        (
            "module type A = { type t '^a }\nmodule type B = A with t 'a = a",
            "Cannot refine a type `t '^a` with a type `t 'a`",
        ),
        ("module type A = { val y : nope }", "Unknown type \"nope\""),
        ("module type A = { module R : { type t = t } }", "Unknown type \"t\""),
    ] {
        let d = rejected(src);
        assert!(d.message.contains(want), "{src}\nwant: {want}\ngot:  {}", d.message);
    }
    // Less lifted than the specification is fine, and so is a module
    // type naming its own types and those in scope.
    assert!(check("module M : { type^ t } = { type t = i32 }\ndef main (x: i32) = x").is_ok());
    assert!(check("type u = i32\nmodule type A = { type t val f : t -> u }\ndef main (x: i32) = x").is_ok());
}

#[test]
fn imports_report_missing_files_at_the_import() {
    let src = "import \"does/not/exist\"\ndef main (x: i32) = x";
    let d = rejected(src);
    assert!(d.message.starts_with("unknown file"), "{}", d.message);
    assert_eq!(
        &src[d.span.lo as usize..d.span.hi as usize],
        "import \"does/not/exist\""
    );
}
