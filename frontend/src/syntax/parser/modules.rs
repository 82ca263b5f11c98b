//! The module language: `module` bindings, module expressions, module
//! types (signatures) and their specs, `open`, `import`.

use std::rc::Rc;

use super::{PResult, Parser};
use crate::syntax::ast::*;
use crate::syntax::lexer::{Kw, Tok};

impl<'a> Parser<'a> {
    /// `module name (p: s)... [: s] = e` or `module type name = s`.
    pub(super) fn parse_module_dec(&mut self) -> PResult<Box<Dec>> {
        let kw = self.bump();
        if self.at_kw(Kw::Type) {
            self.bump();
            let (name, name_span) = self.expect_name("module type name")?;
            self.expect(Tok::Equals, "`=`")?;
            let sig = self.parse_sig_exp()?;
            let span = self.sp(kw.lo, sig.span.hi);
            return Ok(Box::new(Dec::ModType(SigBind {
                name,
                name_span,
                sig,
                span,
            })));
        }
        let (name, name_span) = self.expect_name("module name")?;
        let mut params = Vec::new();
        while self.at(&Tok::LParen) {
            params.push(self.parse_mod_param()?);
        }
        let sig = if self.at(&Tok::Colon) {
            self.bump();
            Some(self.parse_sig_exp()?)
        } else {
            None
        };
        self.expect(Tok::Equals, "`=`")?;
        let body = self.parse_mod_exp()?;
        let span = self.sp(kw.lo, body.span.hi);
        Ok(Box::new(Dec::Module(ModBind {
            name,
            name_span,
            params,
            sig,
            body,
            span,
        })))
    }

    /// `(p: s)`
    fn parse_mod_param(&mut self) -> PResult<ModParam> {
        let lp = self.expect(Tok::LParen, "`(`")?;
        let (name, _) = self.expect_name("parameter name")?;
        self.expect(Tok::Colon, "`:`")?;
        let sig = self.parse_sig_exp()?;
        let rp = self.expect(Tok::RParen, "`)`")?;
        Ok(ModParam {
            name,
            sig,
            span: self.sp(lp.lo, rp.hi),
        })
    }

    /// `open e`
    pub(super) fn parse_open_dec(&mut self) -> PResult<Box<Dec>> {
        let kw = self.bump();
        let e = self.parse_mod_exp()?;
        let span = self.sp(kw.lo, e.span.hi);
        Ok(Box::new(Dec::Open(e, span)))
    }

    /// `import "path"`
    pub(super) fn parse_import_dec(&mut self) -> PResult<Box<Dec>> {
        let kw = self.bump();
        let (path, hi) = self.parse_import_path()?;
        Ok(Box::new(Dec::Import(path, self.sp(kw.lo, hi))))
    }

    fn parse_import_path(&mut self) -> PResult<(Rc<str>, u32)> {
        match self.peek().clone() {
            Tok::Str(bytes) => {
                let t = self.bump();
                match String::from_utf8(bytes) {
                    Ok(s) => Ok((Rc::from(s), t.hi)),
                    Err(_) => Err(Box::new(crate::diag::Diag::new(
                        self.span_of(&t),
                        "expected an import path in UTF-8",
                    ))),
                }
            }
            _ => Err(self.expected("an import path in quotes")),
        }
    }

    /// A module expression: applications of atoms, then an optional
    /// ascription `: s`.
    pub(super) fn parse_mod_exp(&mut self) -> PResult<ModExp> {
        self.enter()?;
        let mut e = self.parse_mod_atom()?;
        while matches!(self.peek(), Tok::LParen | Tok::LBrace | Tok::Ident) {
            let a = self.parse_mod_atom()?;
            let span = e.span.to(a.span);
            e = ModExp {
                kind: ModExpKind::Apply(Box::new(e), Box::new(a)),
                span,
            };
        }
        if self.at(&Tok::Colon) {
            self.bump();
            let sig = self.parse_sig_exp()?;
            let span = e.span.to(sig.span);
            e = ModExp {
                kind: ModExpKind::Ascript(Box::new(e), sig),
                span,
            };
        }
        self.leave();
        Ok(e)
    }

    fn parse_mod_atom(&mut self) -> PResult<ModExp> {
        match self.peek() {
            Tok::LBrace => {
                let lb = self.bump();
                let mut decs = Vec::new();
                while !self.at(&Tok::RBrace) {
                    if self.at(&Tok::Eof) {
                        return Err(self.expected("declaration or `}`"));
                    }
                    decs.push(*self.parse_dec()?);
                }
                let rb = self.bump();
                Ok(ModExp {
                    kind: ModExpKind::Struct(decs),
                    span: self.sp(lb.lo, rb.hi),
                })
            }
            Tok::LParen => {
                let lp = self.bump();
                let mut e = self.parse_mod_exp()?;
                let rp = self.expect(Tok::RParen, "`)`")?;
                e.span = self.sp(lp.lo, rp.hi);
                Ok(e)
            }
            Tok::Backslash => {
                let bs = self.bump();
                let mut params = Vec::new();
                while self.at(&Tok::LParen) {
                    params.push(self.parse_mod_param()?);
                }
                if params.is_empty() {
                    return Err(self.expected("a parameter `(p: s)`"));
                }
                let sig = if self.at(&Tok::Colon) {
                    self.bump();
                    Some(self.parse_sig_exp_arrow(false)?)
                } else {
                    None
                };
                self.expect(Tok::Arrow, "`->`")?;
                let body = self.parse_mod_exp()?;
                let span = self.sp(bs.lo, body.span.hi);
                Ok(ModExp {
                    kind: ModExpKind::Lambda(params, sig, Box::new(body)),
                    span,
                })
            }
            Tok::Kw(Kw::Import) => {
                let kw = self.bump();
                let (path, hi) = self.parse_import_path()?;
                Ok(ModExp {
                    kind: ModExpKind::Import(path),
                    span: self.sp(kw.lo, hi),
                })
            }
            Tok::Ident if self.text(self.tok()) != "_" => {
                let (qn, span) = self.parse_qual_name();
                Ok(ModExp {
                    kind: ModExpKind::Var(qn),
                    span,
                })
            }
            _ => Err(self.expected("module expression")),
        }
    }

    /// A module type: `{ specs }`, a name, `(s)`, each followed by any
    /// number of `with t = ty` refinements.
    pub(super) fn parse_sig_exp(&mut self) -> PResult<SigExp> {
        self.parse_sig_exp_arrow(true)
    }

    /// A module type; `arrow`: also `s -> t` (not where `->` ends it, as
    /// in a module lambda's result type).
    fn parse_sig_exp_arrow(&mut self, arrow: bool) -> PResult<SigExp> {
        self.enter()?;
        // `(p: s) -> t`
        if self.at(&Tok::LParen) && *self.peek_at(1) == Tok::Ident && *self.peek_at(2) == Tok::Colon {
            let lp = self.bump();
            let (name, _) = self.expect_name("parameter name")?;
            self.bump();
            let a = self.parse_sig_exp()?;
            self.expect(Tok::RParen, "`)`")?;
            self.expect(Tok::Arrow, "`->`")?;
            let b = self.parse_sig_exp()?;
            let span = self.sp(lp.lo, b.span.hi);
            self.leave();
            return Ok(SigExp {
                kind: SigExpKind::Arrow(Some(name), Box::new(a), Box::new(b)),
                span,
            });
        }
        let mut s = match self.peek() {
            Tok::LBrace => {
                let lb = self.bump();
                let mut specs = Vec::new();
                while !self.at(&Tok::RBrace) {
                    specs.push(self.parse_spec()?);
                }
                let rb = self.bump();
                SigExp {
                    kind: SigExpKind::Specs(specs),
                    span: self.sp(lb.lo, rb.hi),
                }
            }
            Tok::LParen => {
                let lp = self.bump();
                let mut s = self.parse_sig_exp()?;
                let rp = self.expect(Tok::RParen, "`)`")?;
                s.span = self.sp(lp.lo, rp.hi);
                s
            }
            Tok::Ident if self.text(self.tok()) != "_" => {
                let (qn, span) = self.parse_qual_name();
                SigExp {
                    kind: SigExpKind::Var(qn),
                    span,
                }
            }
            _ => return Err(self.expected("module type")),
        };
        while self.at_kw(Kw::With) {
            self.bump();
            if !self.at(&Tok::Ident) {
                return Err(self.expected("type name"));
            }
            let (qn, _) = self.parse_qual_name();
            let params = self.parse_type_params(false)?;
            self.expect(Tok::Equals, "`=`")?;
            let t = *self.parse_type()?;
            let span = s.span.to(t.span);
            s = SigExp {
                kind: SigExpKind::With(Box::new(s), qn, params, t),
                span,
            };
        }
        if arrow && self.at(&Tok::Arrow) {
            self.bump();
            let b = self.parse_sig_exp()?;
            let span = s.span.to(b.span);
            s = SigExp {
                kind: SigExpKind::Arrow(None, Box::new(s), Box::new(b)),
                span,
            };
        }
        self.leave();
        Ok(s)
    }

    fn parse_spec(&mut self) -> PResult<Spec> {
        self.enter()?;
        let spec = match self.peek() {
            Tok::Kw(Kw::Val) => {
                let kw = self.bump();
                // `val + : t -> t -> t` as well as `val (+) : ...`.
                let (name, name_span) = if self.at(&Tok::Op) {
                    let op = self.bump();
                    (self.name_of(&op), self.span_of(&op))
                } else {
                    self.parse_binding_name()?
                };
                let type_params = self.parse_type_params(false)?;
                self.expect(Tok::Colon, "`:`")?;
                let ty = *self.parse_type()?;
                let span = self.sp(kw.lo, ty.span.hi);
                Spec::Val {
                    name,
                    name_span,
                    type_params,
                    ty,
                    span,
                }
            }
            Tok::Kw(Kw::Type) => {
                let kw = self.bump();
                let liftedness = self.parse_liftedness();
                let (name, name_span) = self.expect_name("type name")?;
                let params = self.parse_type_params(false)?;
                let mut hi = params.last().map_or(name_span.hi, |p| p.span().hi);
                let def = if self.at(&Tok::Equals) {
                    self.bump();
                    let t = *self.parse_type()?;
                    hi = t.span.hi;
                    Some(t)
                } else {
                    None
                };
                Spec::Type {
                    name,
                    name_span,
                    params,
                    liftedness,
                    def,
                    span: self.sp(kw.lo, hi),
                }
            }
            Tok::Kw(Kw::Module) => {
                let kw = self.bump();
                let (name, name_span) = self.expect_name("module name")?;
                self.expect(Tok::Colon, "`:`")?;
                let sig = self.parse_sig_exp()?;
                let span = self.sp(kw.lo, sig.span.hi);
                Spec::Module {
                    name,
                    name_span,
                    sig,
                    span,
                }
            }
            Tok::Kw(Kw::Include) => {
                let kw = self.bump();
                let sig = self.parse_sig_exp()?;
                let span = self.sp(kw.lo, sig.span.hi);
                Spec::Include(sig, span)
            }
            _ => return Err(self.expected("specification (`val`, `type`, `module` or `include`) or `}`")),
        };
        self.leave();
        Ok(spec)
    }
}
