//! Profiling events (`-P`, `futhark_context_config_set_profiling`) and
//! the two ways they are shown: the table on stderr at the end of a run
//! ([`Profiler::summary`]) and the JSON of the server's `report` and
//! `futhark_context_report` ([`Profiler::report`]). See Note [Logging
//! and profiling].
//!
//! **Note [Logging and profiling].**
//! `-L` writes one line to stderr for each thing that happens rarely
//! or is cheap to describe: the context and the CUDA module (with the
//! device, and whether the module came from the cache file), every
//! entry point call, every block the memory pool takes from the back
//! end (reuse of a freed block is not logged: it is the common case),
//! and every kernel launch with its grid and block. Each line starts
//! with `[futmlir]` so it stands out among the program's own output on
//! stderr. Nothing is formatted when logging is off.
//!
//! `-P` records an [`Event`] per entry point call, kernel launch and
//! copy between the host and the target, or within the target. On
//! CUDA a kernel launch and a copy are timed by a pair of CUDA events
//! recorded around it in the stream, so the time is the device's and
//! the host does not wait; the pairs are read when the runtime waits
//! for the device anyway (`futrt_sync`, the end of a call) and at a
//! report. On the CPU there are no kernels: futmlir turns segops into
//! loops inside the generated host code (Note [Segops on the CPU] in
//! the lowering crate), which runs without calling the runtime, so the
//! units the CPU runtime can time are the entry point calls and the
//! copies. Events carry microseconds since the context started. When
//! profiling is paused (`pause_profiling`) or off nothing is recorded
//! and no CUDA event is made.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Instant;

/// Something that took time: a kernel, a copy, an entry point call.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub name: String,
    /// Microseconds since the context started.
    pub start: f64,
    pub end: f64,
    /// What it worked on (a grid and block, a byte count).
    pub details: String,
}

#[derive(Debug)]
pub struct Profiler {
    /// `-P`: profiling is on at all.
    enabled: bool,
    paused: bool,
    epoch: Instant,
    events: Vec<Event>,
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Profiler {
    pub fn new(enabled: bool) -> Profiler {
        Profiler {
            enabled,
            paused: false,
            epoch: Instant::now(),
            events: Vec::new(),
        }
    }

    /// Events are being recorded: profiling is on and not paused.
    pub fn recording(&self) -> bool {
        self.enabled && !self.paused
    }

    /// `pause_profiling` (true) and `unpause_profiling` (false); no
    /// effect when profiling is off.
    pub fn set_paused(&mut self, paused: bool) {
        self.paused = paused;
    }

    /// The instant the context started, which event times count from.
    pub fn epoch(&self) -> Instant {
        self.epoch
    }

    /// Microseconds from the context's start to `t`.
    pub fn micros(&self, t: Instant) -> f64 {
        t.saturating_duration_since(self.epoch).as_secs_f64() * 1e6
    }

    /// Records an event timed while recording (one timed on the device
    /// is read later, perhaps after a pause: it is kept); nothing when
    /// profiling is off.
    pub fn push(&mut self, event: Event) {
        if self.enabled {
            self.events.push(event);
        }
    }

    /// Records an event of the host's clock that began at `start` and
    /// ends now.
    pub fn host_event(&mut self, name: &str, details: String, start: Instant) {
        if self.recording() {
            let (start, end) = (self.micros(start), self.micros(Instant::now()));
            self.events.push(Event {
                name: name.to_string(),
                start,
                end,
                details,
            });
        }
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The JSON of `futhark_context_report`: the peak memory, then the
    /// events, as Futhark's (`{"memory":{...},"events":[{"name":...,
    /// "start":...,"end":...,"details":...}]}`).
    pub fn report(&self, peak_memory: usize) -> String {
        let events: Vec<String> = self
            .events
            .iter()
            .map(|e| {
                format!(
                    "{{\"name\":{},\"start\":{:.3},\"end\":{:.3},\"details\":{}}}",
                    json_string(&e.name),
                    e.start,
                    e.end,
                    json_string(&e.details)
                )
            })
            .collect();
        format!(
            "{{\"memory\":{{\"default\":{peak_memory}}},\"events\":[{}]}}",
            events.join(",")
        )
    }

    /// The table that `-P` prints at the end: per event name, how many,
    /// the total and the mean time in microseconds, the biggest total
    /// first, as Futhark's profiling summary.
    pub fn summary(&self) -> String {
        let mut by_name: BTreeMap<&str, (usize, f64)> = BTreeMap::new();
        for e in &self.events {
            let entry = by_name.entry(&e.name).or_default();
            entry.0 += 1;
            entry.1 += e.end - e.start;
        }
        let mut rows: Vec<(&str, usize, f64)> = by_name.into_iter().map(|(n, (c, t))| (n, c, t)).collect();
        rows.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(b.0)));
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(5);
        let mut out = format!(
            "{:<width$} {:>8} {:>14} {:>14}\n",
            "Event", "Count", "Total (us)", "Mean (us)"
        );
        let (mut count, mut total) = (0, 0.0);
        for (name, c, t) in &rows {
            let _ = writeln!(out, "{name:<width$} {c:>8} {t:>14.1} {:>14.1}", t / *c as f64);
            count += c;
            total += t;
        }
        let _ = writeln!(
            out,
            "{:<width$} {count:>8} {total:>14.1}",
            format!("{} events", rows.len())
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str, start: f64, end: f64) -> Event {
        Event {
            name: name.into(),
            start,
            end,
            details: format!("d \"{name}\""),
        }
    }

    #[test]
    fn records_only_while_on_and_not_paused() {
        let mut off = Profiler::new(false);
        off.push(event("k0", 0.0, 1.0));
        off.host_event("main", String::new(), Instant::now());
        assert!(off.events().is_empty());
        let mut p = Profiler::new(true);
        p.push(event("k0", 0.0, 1.0));
        p.set_paused(true);
        assert!(!p.recording());
        p.host_event("paused", String::new(), Instant::now());
        p.set_paused(false);
        p.host_event("main", "x".into(), p.epoch());
        let names: Vec<&str> = p.events().iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["k0", "main"]);
        assert!(p.events()[1].end >= p.events()[1].start);
    }

    #[test]
    fn report_and_summary() {
        let mut p = Profiler::new(true);
        assert_eq!(p.report(512), "{\"memory\":{\"default\":512},\"events\":[]}");
        p.push(event("k0", 1.0, 3.0));
        p.push(event("copy_host_to_dev", 3.0, 4.0));
        p.push(event("k0", 10.0, 14.0));
        assert_eq!(
            p.report(0),
            "{\"memory\":{\"default\":0},\"events\":[\
             {\"name\":\"k0\",\"start\":1.000,\"end\":3.000,\"details\":\"d \\\"k0\\\"\"},\
             {\"name\":\"copy_host_to_dev\",\"start\":3.000,\"end\":4.000,\"details\":\"d \\\"copy_host_to_dev\\\"\"},\
             {\"name\":\"k0\",\"start\":10.000,\"end\":14.000,\"details\":\"d \\\"k0\\\"\"}]}"
        );
        let s = p.summary();
        let lines: Vec<Vec<&str>> = s.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(lines[0], ["Event", "Count", "Total", "(us)", "Mean", "(us)"]);
        assert_eq!(lines[1], ["k0", "2", "6.0", "3.0"]);
        assert_eq!(lines[2], ["copy_host_to_dev", "1", "1.0", "1.0"]);
        assert_eq!(lines[3], ["2", "events", "3", "7.0"]);
        assert_eq!(json_string("a\u{1}\n"), "\"a\\u0001\\n\"");
    }
}
