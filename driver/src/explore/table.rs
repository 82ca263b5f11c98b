//! The results of `futmlir explore`: one row per ordering, printed as a
//! table as the rows finish, and written as JSON.

use crate::bench::{json_string, statistics};

/// What became of one dataset of one ordering.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The results match the reference's.
    Ok,
    /// It ran, and there was no reference to compare with.
    Ran,
    /// The results differ from the reference's (the first difference).
    Wrong(String),
    /// It did not run to the end (the error).
    Failed(String),
    /// Not run yet: built into a bundle, to run on another machine.
    NotRun,
}

/// One dataset's runs of one ordering.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Each counted run's time in microseconds (empty when it failed).
    pub runtimes: Vec<f64>,
    pub outcome: Outcome,
}

impl Cell {
    pub fn failed(why: String) -> Cell {
        Cell {
            runtimes: Vec::new(),
            outcome: Outcome::Failed(why),
        }
    }

    /// The mean and the minimum runtime, if it ran.
    fn mean_min(&self) -> Option<(f64, f64)> {
        if self.runtimes.is_empty() {
            return None;
        }
        let (mean, ..) = statistics(&self.runtimes);
        Some((mean, self.runtimes.iter().copied().fold(f64::INFINITY, f64::min)))
    }
}

/// Whether an ordering could be built.
#[derive(Clone, Debug, PartialEq)]
pub enum Build {
    /// Built, in this many seconds.
    Built(f64),
    /// Refused by the level check (the message).
    InvalidLevel(String),
    /// The compile failed (its first line).
    Failed(String),
}

/// One ordering's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// `default`, or the ordering's number (from 1).
    pub label: String,
    /// The moved passes in the order this row runs them.
    pub ordering: Vec<String>,
    /// The whole pipeline it ran.
    pub pipeline: String,
    pub build: Build,
    /// Kernels and SOACs after kernel extraction (Note [What explore
    /// counts]); `None` when that part of the pipeline did not run.
    pub counts: Option<(usize, usize)>,
    /// One cell per dataset, in the table's order (empty when not built).
    pub cells: Vec<Cell>,
}

impl Row {
    /// The ordering as text (`(none)` for the empty subset).
    pub fn ordering_text(&self) -> String {
        if self.label == "default" {
            "(the default pipeline)".to_string()
        } else if self.ordering.is_empty() {
            "(none)".to_string()
        } else {
            self.ordering.join(",")
        }
    }

    /// The row's result: `ok` when every dataset's results match the
    /// reference's, else the worst of its datasets' outcomes.
    pub fn result(&self) -> String {
        match &self.build {
            Build::InvalidLevel(_) => return "invalid (level)".to_string(),
            Build::Failed(_) => return "compile failed".to_string(),
            Build::Built(_) => {}
        }
        let any = |f: fn(&Outcome) -> bool| self.cells.iter().any(|c| f(&c.outcome));
        if any(|o| matches!(o, Outcome::NotRun)) {
            "built".to_string()
        } else if any(|o| matches!(o, Outcome::Failed(_))) {
            "failed".to_string()
        } else if any(|o| matches!(o, Outcome::Wrong(_))) {
            "wrong".to_string()
        } else if any(|o| matches!(o, Outcome::Ran)) {
            "ran".to_string()
        } else {
            "ok".to_string()
        }
    }

    /// Why the row is not `ok`, if there is one thing to say.
    pub fn message(&self) -> Option<String> {
        match &self.build {
            Build::InvalidLevel(m) | Build::Failed(m) => Some(m.clone()),
            Build::Built(_) => self.cells.iter().find_map(|c| match &c.outcome {
                Outcome::Wrong(m) | Outcome::Failed(m) => Some(m.clone()),
                Outcome::Ok | Outcome::Ran | Outcome::NotRun => None,
            }),
        }
    }
}

// Note [What explore counts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The `kernels` and `soacs` columns count ops in the IR at the segop
// level, where `futmlir build --emit=segop` prints it (the ordering's
// pipeline cut after its last pass that leaves segop IR): kernels are
// the segops (`segmap`, `segred`, `segscan`, `seghist`, nested ones
// included), SOACs the ones kernel extraction left (run sequentially,
// inside a kernel or on the host). Fusion shows as fewer kernels; a
// missing simplification often as SOACs left over.

/// The column widths of the table.
const NUM: usize = 8;
const COMPILE: usize = 9;
const DATASET: usize = 12;
const RESULT: usize = 16;
const COUNT: usize = 7;

/// The table's header: a legend naming the datasets (`d0`, `d1`, ...),
/// then the column names.
pub fn header(datasets: &[String]) -> String {
    let mut h = String::new();
    for (i, d) in datasets.iter().enumerate() {
        h.push_str(&format!("d{i}: {d}\n"));
    }
    h.push_str(&format!("{:<NUM$} {:>COMPILE$}", "#", "compile s"));
    for i in 0..datasets.len() {
        h.push_str(&format!(" {:>DATASET$}", format!("d{i} mean µs")));
    }
    h.push_str(&format!(
        " {:<RESULT$} {:>COUNT$} {:>COUNT$}  ordering",
        "result", "kernels", "soacs"
    ));
    h
}

/// A row of the table (the same columns as [`header`], for `datasets`
/// datasets).
pub fn line(row: &Row, datasets: usize) -> String {
    let compile = match row.build {
        Build::Built(s) => format!("{s:.2}"),
        _ => "-".to_string(),
    };
    let mut l = format!("{:<NUM$} {compile:>COMPILE$}", row.label);
    for i in 0..datasets {
        let t = match row.cells.get(i).and_then(Cell::mean_min) {
            Some((mean, _)) => format!("{mean:.0}"),
            None => "-".to_string(),
        };
        l.push_str(&format!(" {t:>DATASET$}"));
    }
    let (k, s) = match row.counts {
        Some((k, s)) => (k.to_string(), s.to_string()),
        None => ("-".to_string(), "-".to_string()),
    };
    l.push_str(&format!(
        " {:<RESULT$} {k:>COUNT$} {s:>COUNT$}  {}",
        row.result(),
        row.ordering_text()
    ));
    l
}

/// The JSON document of an exploration: `meta` (the `"futmlir"` object's
/// fields, already JSON values), the datasets' names, and per ordering
/// its text, pipeline, result, compile time, counts and per dataset the
/// mean and minimum runtime (µs), the runtimes and the outcome.
pub fn json(meta: &[(&str, String)], datasets: &[String], rows: &[Row]) -> String {
    let opt = |x: Option<String>| x.unwrap_or_else(|| "null".to_string());
    let strings = |xs: &[String]| xs.iter().map(|x| json_string(x)).collect::<Vec<_>>().join(", ");
    let fields: Vec<String> = meta.iter().map(|(k, v)| format!("{}: {v}", json_string(k))).collect();
    let mut doc = format!(
        "{{\n  \"futmlir\": {{{}}},\n  \"datasets\": [{}],\n  \"orderings\": [",
        fields.join(", "),
        strings(datasets)
    );
    for (i, row) in rows.iter().enumerate() {
        let cells: Vec<String> = row
            .cells
            .iter()
            .zip(datasets)
            .map(|(c, name)| {
                let (mean, min) = match c.mean_min() {
                    Some((mean, min)) => (Some(mean.to_string()), Some(min.to_string())),
                    None => (None, None),
                };
                let (outcome, why) = match &c.outcome {
                    Outcome::Ok => ("ok", None),
                    Outcome::Ran => ("ran", None),
                    Outcome::NotRun => ("not run", None),
                    Outcome::Wrong(m) => ("wrong", Some(json_string(m))),
                    Outcome::Failed(m) => ("failed", Some(json_string(m))),
                };
                let runtimes: Vec<String> = c.runtimes.iter().map(|t| t.to_string()).collect();
                format!(
                    "{{\"dataset\": {}, \"mean_us\": {}, \"min_us\": {}, \"runtimes\": [{}], \"result\": {}, \"message\": {}}}",
                    json_string(name),
                    opt(mean),
                    opt(min),
                    runtimes.join(", "),
                    json_string(outcome),
                    opt(why)
                )
            })
            .collect();
        let compile = match row.build {
            Build::Built(s) => Some(s.to_string()),
            _ => None,
        };
        doc.push_str(&format!(
            "{}\n    {{\"label\": {}, \"ordering\": [{}], \"pipeline\": {}, \"result\": {}, \"message\": {}, \"compile_s\": {}, \"kernels\": {}, \"soacs\": {}, \"datasets\": [{}]}}",
            if i > 0 { "," } else { "" },
            json_string(&row.label),
            strings(&row.ordering),
            json_string(&row.pipeline),
            json_string(&row.result()),
            opt(row.message().map(|m| json_string(&m))),
            opt(compile),
            opt(row.counts.map(|c| c.0.to_string())),
            opt(row.counts.map(|c| c.1.to_string())),
            cells.join(", ")
        ));
    }
    doc.push_str("\n  ]\n}\n");
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: &str, build: Build, cells: Vec<Cell>) -> Row {
        Row {
            label: label.into(),
            ordering: vec!["soac-fuse".into(), "soac-simplify".into()],
            pipeline: "soac-fuse,soac-simplify".into(),
            build,
            counts: Some((1, 0)),
            cells,
        }
    }

    fn cell(runtimes: &[f64], outcome: Outcome) -> Cell {
        Cell {
            runtimes: runtimes.to_vec(),
            outcome,
        }
    }

    #[test]
    fn results_take_the_worst_outcome() {
        let ok = cell(&[10.0, 20.0], Outcome::Ok);
        assert_eq!(row("1", Build::Built(1.0), vec![ok.clone()]).result(), "ok");
        let wrong = cell(&[1.0], Outcome::Wrong("value 0: expected 1i32, got 2i32".into()));
        let r = row(
            "1",
            Build::Built(1.0),
            vec![ok.clone(), wrong, Cell::failed("boom".into())],
        );
        assert_eq!(
            (r.result().as_str(), r.message()),
            ("failed", Some("value 0: expected 1i32, got 2i32".into()))
        );
        let r = row("2", Build::InvalidLevel("pass 'x' works on soac IR".into()), vec![]);
        assert_eq!(r.result(), "invalid (level)");
        assert_eq!(row("3", Build::Failed("e".into()), vec![]).result(), "compile failed");
        assert_eq!(
            row("4", Build::Built(1.0), vec![cell(&[1.0], Outcome::Ran)]).result(),
            "ran"
        );
    }

    #[test]
    fn table_lines_line_up_with_the_header() {
        let h = header(&["main #0 ([3]f32)".into()]);
        let mut lines = h.lines();
        assert_eq!(lines.next(), Some("d0: main #0 ([3]f32)"));
        let head = lines.next().unwrap();
        let r = row("default", Build::Built(1.234), vec![cell(&[10.0, 20.0], Outcome::Ok)]);
        let l = line(&r, 1);
        assert_eq!(
            l,
            "default       1.23           15 ok                     1       0  (the default pipeline)"
        );
        // In characters: `µ` is two bytes.
        let column = |s: &str, word: &str| s.find(word).map(|i| s[..i].chars().count());
        assert_eq!(column(head, "ordering"), column(&l, "(the"), "{head}\n{l}");
        let invalid = row("2", Build::InvalidLevel("x".into()), vec![]);
        assert_eq!(column(&line(&invalid, 1), "soac-fuse"), column(&l, "(the"));
    }

    #[test]
    fn json_has_every_field() {
        let r = row("1", Build::Built(0.5), vec![cell(&[10.0, 20.0], Outcome::Ok)]);
        let bad = row("2", Build::InvalidLevel("a \"b\"".into()), vec![]);
        let doc = json(&[("runs", "2".into())], &["d".into()], &[r, bad]);
        assert!(
            doc.contains("\"mean_us\": 15, \"min_us\": 10, \"runtimes\": [10, 20], \"result\": \"ok\""),
            "{doc}"
        );
        assert!(
            doc.contains("\"result\": \"invalid (level)\", \"message\": \"a \\\"b\\\"\", \"compile_s\": null"),
            "{doc}"
        );
    }
}
