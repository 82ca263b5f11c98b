//! The rule book: the rule files of one compiler invocation, compiled once
//! and handed to the pass manager, which gives it to the passes it creates
//! (Note [Rule files at run time]).

use std::path::{Path, PathBuf};

use miette::Report;

use super::fold::ConstFold;
use super::ruleset::Rules;
use super::{compile_file, Compiled, BUILTIN_RULE_FILES};

// Note [Rule files at run time]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The rules are data (Note [Rule files]): a researcher edits
// `rewrite-rules/simplify.rules` and runs again, without rebuilding a
// 250 MB binary. So the built-in rule files are read when futmlir runs,
// every `*.rules` file of one folder in name order, the first of:
//
// 1. the folder `--rules-dir DIR` names;
// 2. the folder the environment variable `FUTMLIR_RULES_DIR` names;
// 3. `rewrite-rules/` of the source tree futmlir was built from, if it is
//    still there;
// 4. the copy compiled into the binary ([`BUILTIN_RULE_FILES`]), for a
//    binary that moved to another machine.
//
// A folder named in 1 or 2 must exist and hold rule files; a bad file is
// an error with its path, line and column. `--rules FILE` adds files on
// top. All of it is compiled once into a [`RuleBook`], which the driver
// hands to the pass manager: two invocations in one process (the tests,
// `futmlir test` building many programs) each have their own rules, and
// nothing is global.

/// The environment variable naming the folder of the built-in rule files.
pub const RULES_DIR_ENV: &str = "FUTMLIR_RULES_DIR";

/// `rewrite-rules/` of the source tree this crate was built from.
fn source_rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../rewrite-rules")
}

/// The compiled rule files of one invocation: rewrites of scalar code
/// (`soac-rewrite`, `soac-simplify`) and the fusion algebra (`soac-fuse`).
pub struct RuleBook {
    /// Where each file came from, in load order.
    files: Vec<String>,
    scalar: Rules<ConstFold>,
    fusion: Rules<()>,
}

impl RuleBook {
    fn empty() -> RuleBook {
        RuleBook {
            files: Vec::new(),
            scalar: Rules {
                sets: Vec::new(),
                schedule: Vec::new(),
            },
            fusion: Rules {
                sets: Vec::new(),
                schedule: Vec::new(),
            },
        }
    }

    /// The copy of the built-in rule files compiled into the binary.
    pub fn embedded() -> RuleBook {
        let mut book = RuleBook::empty();
        for (path, text) in BUILTIN_RULE_FILES {
            // Invariant: the embedded files compile together (the egraph
            // tests compile them).
            book.add_file(&format!("{path} (embedded)"), text)
                .unwrap_or_else(|e| panic!("the embedded rule files do not compile: {e:?}"));
        }
        book
    }

    /// Every `*.rules` file of `dir`, in name order.
    pub fn from_dir(dir: &Path) -> Result<RuleBook, Report> {
        let cannot = |e: std::io::Error| miette::miette!("cannot read the rule folder {}: {e}", dir.display());
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(cannot)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(cannot)?;
        paths.retain(|p| p.extension().is_some_and(|e| e == "rules") && p.is_file());
        paths.sort();
        if paths.is_empty() {
            return Err(miette::miette!(
                "the rule folder {} holds no .rules files",
                dir.display()
            ));
        }
        let mut book = RuleBook::empty();
        for p in paths {
            let text = std::fs::read_to_string(&p)
                .map_err(|e| miette::miette!("cannot read rule file {}: {e}", p.display()))?;
            book.add_file(&p.display().to_string(), &text)?;
        }
        Ok(book)
    }

    /// The built-in rule files of this invocation, from the first place
    /// of Note [Rule files at run time]: `dir` (`--rules-dir`), the
    /// environment's `FUTMLIR_RULES_DIR`, the source tree, the embedded copy.
    pub fn load(dir: Option<&Path>) -> Result<RuleBook, Report> {
        if let Some(d) = dir {
            return RuleBook::from_dir(d);
        }
        if let Some(d) = std::env::var_os(RULES_DIR_ENV).filter(|d| !d.is_empty()) {
            return RuleBook::from_dir(Path::new(&d)).map_err(|e| miette::miette!("{e} (named by {RULES_DIR_ENV})"));
        }
        let source = source_rules_dir();
        if source.is_dir() {
            return RuleBook::from_dir(&source);
        }
        Ok(RuleBook::embedded())
    }

    /// Adds a rule file (`--rules FILE`, or one of the folder's): it must
    /// compile on its own, and its rule sets must not clash with those of
    /// its language already in the book. Its schedule runs after theirs.
    pub fn add_file(&mut self, path: &str, text: &str) -> Result<(), Report> {
        let compiled = compile_file(text).map_err(|e| e.to_report(path, text))?;
        let clash = |e: String| miette::miette!("{path}: {e}");
        match compiled {
            Compiled::Scalar(r) => self.scalar.extend(r).map_err(clash)?,
            Compiled::Fusion(r) => self.fusion.extend(r).map_err(clash)?,
        }
        self.files.push(path.to_string());
        Ok(())
    }

    /// Where the files came from, in load order.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The rewrites of scalar code, with their schedule.
    pub fn scalar(&self) -> &Rules<ConstFold> {
        &self.scalar
    }

    /// The fusion rules, with their schedule.
    pub fn fusion(&self) -> &Rules<()> {
        &self.fusion
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test.
    fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("futmlir-rulebook-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (f, text) in files {
            std::fs::write(dir.join(f), text).unwrap();
        }
        dir
    }

    fn set_names<N: egg::Analysis<egg::SymbolLang>>(r: &Rules<N>) -> Vec<&str> {
        r.sets.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn the_source_folder_holds_what_is_embedded() {
        let disk = RuleBook::from_dir(&source_rules_dir()).unwrap();
        let embedded = RuleBook::embedded();
        assert_eq!(set_names(disk.scalar()), set_names(embedded.scalar()));
        assert_eq!(set_names(disk.fusion()), set_names(embedded.fusion()));
        assert!(set_names(disk.scalar()).contains(&"arith"));
        assert!(set_names(disk.fusion()).contains(&"vertical"));
        assert_eq!(disk.files().len(), BUILTIN_RULE_FILES.len());
        // With no flag and no environment variable, the source folder.
        if std::env::var_os(RULES_DIR_ENV).is_none() {
            let loaded = RuleBook::load(None).unwrap();
            assert!(loaded.files()[0].contains("rewrite-rules"), "{:?}", loaded.files());
            assert!(!loaded.files()[0].ends_with("(embedded)"));
        }
    }

    #[test]
    fn a_folder_is_every_rules_file_in_name_order() {
        let dir = folder(
            "order",
            &[
                ("b.rules", "ruleset second\nrule b1 (neg (neg ?x)) => ?x\n"),
                ("a.rules", "ruleset first\nrule a1 (add ?x ?y) => (add ?y ?x)\n"),
                ("notes.txt", "not a rule file"),
            ],
        );
        let book = RuleBook::load(Some(&dir)).unwrap();
        assert_eq!(set_names(book.scalar()), vec!["first", "second"]);
        assert!(set_names(book.fusion()).is_empty());
        assert_eq!(book.files().len(), 2);
    }

    #[test]
    fn bad_folders_and_files_are_errors() {
        let e = RuleBook::load(Some(Path::new("/nonexistent/rules"))).err().unwrap();
        assert!(
            format!("{e}").contains("cannot read the rule folder /nonexistent/rules"),
            "{e}"
        );
        let empty = folder("empty", &[]);
        let e = RuleBook::load(Some(&empty)).err().unwrap();
        assert!(format!("{e}").contains("holds no .rules files"), "{e}");
        let bad = folder("bad", &[("x.rules", "ruleset s\nrule r (add ?x) => ?x\n")]);
        let e = RuleBook::load(Some(&bad)).err().unwrap();
        let shown = format!("{e:?}");
        assert!(shown.contains("x.rules"), "{shown}");
        let clash = folder(
            "clash",
            &[
                ("a.rules", "ruleset s\nrule a (add ?x ?y) => (add ?y ?x)\n"),
                ("b.rules", "ruleset s\nrule b (neg (neg ?x)) => ?x\n"),
            ],
        );
        let e = RuleBook::load(Some(&clash)).err().unwrap();
        assert!(format!("{e}").contains("rule set `s` is already defined"), "{e}");
    }
}
