//! The warnings that need a whole checked program (Note [Warnings] in
//! `diag`): arrays compared with `==`, typed holes, `#[unroll]` on a
//! loop of no constant count, safety checks under
//! `#[warn(safety_checks)]`, and unused `let` bindings. The others are reported where the checker
//! and module elaboration find them.

use std::collections::HashMap;

use super::Checked;
use crate::diag::{warn, Diag};
use crate::span::{SourceMap, Span};
use crate::syntax::ast::{Dec, Exp, ExpKind, GlobalId, LoopForm, PatKind, Resolved};
use crate::syntax::visit::children;
use crate::types::{Size, Type};

/// Reports the warnings of the user's program (the last of
/// `checked.programs`; the prelude's are not the user's business).
pub fn lint(checked: &Checked, sm: &SourceMap) {
    let mut lint = Lint {
        checked,
        sm,
        checks: HashMap::new(),
    };
    if let Some(user) = checked.programs.last() {
        for dec in &user.decs {
            if let Dec::Val(vb) = dec {
                lint.exp(&vb.body, false);
            }
        }
    }
}

struct Lint<'a> {
    checked: &'a Checked,
    sm: &'a SourceMap,
    /// Per top-level function, where its body (or a function it calls)
    /// has a safety check, if it has one; `None` while it is being
    /// looked at (a recursive call adds nothing).
    checks: HashMap<GlobalId, Option<Span>>,
}

impl Lint<'_> {
    /// Lints `e`; `safety` says whether it is under
    /// `#[warn(safety_checks)]`.
    fn exp(&mut self, e: &Exp, safety: bool) {
        let mut stack = vec![(e, safety)];
        while let Some((e, safety)) = stack.pop() {
            let mut inner = safety;
            match &e.kind {
                ExpKind::BinOp { op, lhs, .. }
                    if matches!(&*op.name.name, "==" | "!=")
                        && matches!(op.res, Some(Resolved::Builtin(_)))
                        && matches!(lhs.ty, Some(Type::Array { .. })) =>
                {
                    warn(Diag::new(
                        e.span,
                        format!(
                            "Comparing arrays with \"{}\" is deprecated and will stop working in a future revision of the language.",
                            op.name.name
                        ),
                    ));
                }
                ExpKind::Let { pat, body, .. } => {
                    if let PatKind::Id(name) = &pat.kind {
                        if !name.starts_with('_') && !self.mentions(body.span, name) {
                            warn(
                                Diag::new(pat.span, format!("Unused variable \"{name}\"."))
                                    .help("name it with a leading `_` (`_x`) or `_` if it is unused on purpose"),
                            );
                        }
                    }
                }
                ExpKind::Hole => {
                    let ty = e.ty.as_ref().map_or_else(|| "?".to_string(), |t| t.to_string());
                    warn(Diag::new(e.span, format!("Hole of type: {ty}")));
                }
                ExpKind::Attr(a, x) if &*a.name == "unroll" => {
                    if let ExpKind::Loop { form, .. } = &x.kind {
                        if !self.constant_count(form) {
                            warn(Diag::new(
                                a.span,
                                "#[unroll] has no effect: the loop's number of iterations is not a constant.",
                            ));
                        }
                    }
                }
                ExpKind::Attr(a, _) if &*a.name == "warn" && a.args.iter().any(|x| &*x.name == "safety_checks") => {
                    inner = true;
                }
                ExpKind::Attr(a, _) if &*a.name == "unsafe" => inner = false,
                _ => {}
            }
            if safety {
                if let Some(at) = self.check_here(e) {
                    let mut d = Diag::new(e.span, "Safety check required at run time.");
                    if at != e.span {
                        d = d.note(at, "the check");
                    }
                    warn(d);
                }
            }
            let mut kids = Vec::new();
            children(e, &mut |x| kids.push((x, inner)));
            stack.extend(kids.into_iter().rev());
        }
    }

    /// Whether the source text at `span` has `name` as a word (in an
    /// expression, a type or a size: conservatively, a use).
    fn mentions(&self, span: Span, name: &str) -> bool {
        let text = self.sm.text(span.file);
        let Some(body) = text.get(span.lo as usize..span.hi as usize) else {
            return true;
        };
        let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
        body.match_indices(name).any(|(at, _)| {
            let before = body[..at].chars().next_back();
            let after = body[at + name.len()..].chars().next();
            !before.is_some_and(ident) && !after.is_some_and(ident)
        })
    }

    /// Where `e` itself checks something at run time: an index, a slice,
    /// an in-place update, a size coercion or an assertion, or a call of
    /// a function with a check in it (where that check is).
    fn check_here(&mut self, e: &Exp) -> Option<Span> {
        match &e.kind {
            ExpKind::Index(..)
            | ExpKind::Update { .. }
            | ExpKind::LetWith { .. }
            | ExpKind::Coerce(..)
            | ExpKind::Assert(..) => Some(e.span),
            ExpKind::Var(v) => match v.res {
                Some(Resolved::Global(id)) => self.function_check(id),
                _ => None,
            },
            _ => None,
        }
    }

    /// Where the top-level function `id` (or one it calls) has a safety
    /// check, if anywhere.
    fn function_check(&mut self, id: GlobalId) -> Option<Span> {
        if let Some(known) = self.checks.get(&id) {
            return *known;
        }
        self.checks.insert(id, None);
        let body = match self
            .checked
            .programs
            .get(id.program as usize)?
            .decs
            .get(id.dec as usize)?
        {
            Dec::Val(vb) if !vb.params.is_empty() || matches!(vb.body.kind, ExpKind::Lambda { .. }) => &vb.body,
            _ => return None,
        };
        let mut found = None;
        let mut stack = vec![body];
        while let Some(e) = stack.pop() {
            if matches!(&e.kind, ExpKind::Attr(a, _) if &*a.name == "unsafe") {
                continue;
            }
            if let Some(at) = self.check_here(e) {
                found = Some(at);
                break;
            }
            children(e, &mut |x| stack.push(x));
        }
        self.checks.insert(id, found);
        found
    }
}

impl Lint<'_> {
    /// Whether a loop runs a number of times known before it runs: `for i
    /// < 3`, `for i < k * 2` with `def k = 4`, or `for x in xs` with `xs`
    /// of a constant size.
    fn constant_count(&self, form: &LoopForm) -> bool {
        match form {
            LoopForm::For(_, _, bound) => self.constant(bound, 8),
            LoopForm::ForIn(_, xs) => {
                matches!(&xs.ty, Some(Type::Array { shape, .. }) if matches!(shape.first(), Some(Size::Const(_))))
            }
            LoopForm::While(_) => false,
        }
    }

    /// Whether `e` is an integer known without running the program:
    /// literals, arithmetic on them, and top-level constants defined so
    /// (`depth` bounds how many definitions are followed).
    fn constant(&self, e: &Exp, depth: usize) -> bool {
        match &e.kind {
            ExpKind::Lit(crate::syntax::ast::Literal::Int { .. }) => true,
            ExpKind::Neg(x) => self.constant(x, depth),
            ExpKind::Tuple(es) if es.len() == 1 => self.constant(&es[0], depth),
            ExpKind::BinOp { op, lhs, rhs, .. } => {
                matches!(op.res, Some(Resolved::Builtin(_)))
                    && matches!(&*op.name.name, "+" | "-" | "*" | "/" | "%" | "//" | "%%" | "**")
                    && self.constant(lhs, depth)
                    && self.constant(rhs, depth)
            }
            ExpKind::Var(v) if depth > 0 => match v.res {
                Some(Resolved::Global(id)) => matches!(
                    self.checked.programs.get(id.program as usize).and_then(|p| p.decs.get(id.dec as usize)),
                    Some(Dec::Val(vb)) if vb.params.is_empty() && self.constant(&vb.body, depth - 1)
                ),
                _ => false,
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::span::SourceMap;

    /// The warnings' plain texts for `src`.
    fn warnings(src: &str) -> Vec<String> {
        let mut sm = SourceMap::default();
        let f = sm.add("w.fut", src.to_string());
        let checked = crate::check::check_file(&mut sm, f).unwrap_or_else(|ds| panic!("{}", ds[0].message));
        checked.warnings.iter().map(|d| d.to_plain_warning(&sm)).collect()
    }

    #[test]
    fn array_equality_is_deprecated() {
        let w = warnings("def main (xs: []i32) (ys: []i32) = xs == ys");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("w.fut:1:") && w[0].contains(": warning: Comparing arrays with \"==\" is deprecated"),
            "{w:?}"
        );
        assert!(warnings("def main (x: i32) (y: i32) = x == y").is_empty());
    }

    #[test]
    fn holes_unroll_and_safety_checks() {
        let w = warnings("def main (x: i32) : i32 = x + ???");
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("warning: Hole of type: i32"), "{w:?}");
        let w = warnings("def main (n: i32) (xs: *[]i32) = #[unroll] loop xs for i < n do xs");
        assert!(w.len() == 1 && w[0].contains("#[unroll] has no effect"), "{w:?}");
        assert!(warnings("def main (xs: *[]i32) = #[unroll] loop xs for i < 3 do xs").is_empty());
        assert!(warnings("def k = 4i32\ndef main (xs: *[]i32) = #[unroll] loop xs for i < k * 2 do xs").is_empty());
        // Directly, through a function, and not under `#[unsafe]`.
        let w = warnings("def main (xs: []f32) (i: i64) = #[warn(safety_checks)] xs[i]");
        assert!(w.len() == 1 && w[0].contains("Safety check required"), "{w:?}");
        let w = warnings(
            "def f (xs: []f32) (i: i64) = xs[i]\ndef main (xs: []f32) (is: []i64) = #[warn(safety_checks)] map (f xs) is",
        );
        assert!(w.len() == 1 && w[0].contains("Safety check required"), "{w:?}");
        assert!(warnings("def main (xs: []f32) (i: i64) = #[warn(safety_checks)] #[unsafe] xs[i]").is_empty());
        assert!(warnings("def main (xs: []f32) (i: i64) = xs[i]").is_empty());
    }

    #[test]
    fn unused_let_bindings() {
        let w = warnings("def main (x: i32) = let y = x + 1 in x");
        assert!(w.len() == 1 && w[0].contains("Unused variable \"y\""), "{w:?}");
        // Used in the body, in a size, by a later shadowing binding; or
        // named `_y`: no warning.
        for used in [
            "def main (x: i32) = let y = x + 1 in y",
            "def main (xs: []i32) = let n = length xs in xs :> [n]i32",
            "def main (x: i32) = let y = x in let y = y + 1 in y",
            "def main (x: i32) = let _y = x + 1 in x",
        ] {
            assert!(warnings(used).is_empty(), "{used}: {:?}", warnings(used));
        }
    }
}
