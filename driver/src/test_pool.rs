//! `futmlir test`'s workers and status line: programs compiled and run on
//! `--concurrency` threads (Note [Concurrent tests]), each program's
//! report printed whole when it is done, and the progress on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::test::Summary;

// Note [Concurrent tests]
// ~~~~~~~~~~~~~~~~~~~~~~~
// A directory of programs is tested by `--concurrency` worker threads
// (default: the machine's cores), each taking the next program from a
// shared counter. Each worker makes its own backend: a compiled program
// (an interpreter's checked program holds `Rc`s) never crosses threads,
// and the compiles of different threads share nothing but the pass
// registry. A worker sends each program's report (all of its lines) and
// summary to the main thread, which prints reports whole as they come,
// so one program's lines never interleave with another's. The order of
// the reports depends on timing when there are several workers; the
// final summary does not, it is the sum of the programs' summaries. A
// panic while testing a program fails that program (one counted case)
// instead of ending the run. Workers get the main thread's big stack
// (driver/src/main.rs): the frontend and the passes recurse.

/// The stack of a worker thread (as the main thread's, reserved and not
/// committed).
const WORKER_STACK: usize = 1 << 30;

/// One program's report and summary.
type Done = (Summary, Vec<u8>);

/// Tests `programs` on `concurrency` threads, each running the worker that
/// `make_worker` makes on its programs; reports go to `out` as programs
/// finish, the progress to `status`. `Err`: a thread could not start.
pub fn run_concurrently<W>(
    programs: &[PathBuf],
    concurrency: usize,
    make_worker: &(dyn Fn() -> W + Sync),
    status: &mut Status,
    out: &mut dyn Write,
) -> Result<Summary, String>
where
    W: FnMut(&Path) -> Done,
{
    let next = AtomicUsize::new(0);
    let mut total = Summary::default();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Done>();
        for _ in 0..concurrency.clamp(1, programs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            std::thread::Builder::new()
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let mut worker = make_worker();
                    while let Some(path) = programs.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker(path)))
                            .unwrap_or_else(|panic| panicked(path, &*panic));
                        if tx.send(done).is_err() {
                            return;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a test thread: {e}"))?;
        }
        drop(tx);
        loop {
            match rx.recv_timeout(Duration::from_secs(1)) {
                Ok((summary, report)) => {
                    status.clear();
                    let _ = out.write_all(&report);
                    let _ = out.flush();
                    total += summary;
                    status.program_done(summary);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => status.tick(),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        status.finish();
        Ok(total)
    })
}

/// The report of a program whose test panicked.
fn panicked(path: &Path, panic: &(dyn std::any::Any + Send)) -> Done {
    let msg = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    let report = format!("{}: futmlir panicked while testing it: {msg}\n", path.display());
    (
        Summary {
            failed: 1,
            ..Summary::default()
        },
        report.into_bytes(),
    )
}

/// The progress of a run on stderr: on a terminal a live line rewritten
/// in place; otherwise (or with `--no-terminal`) a plain line about once
/// every `interval`.
pub struct Status {
    live: bool,
    interval: Duration,
    start: Instant,
    last_plain: Instant,
    total: usize,
    done: usize,
    summary: Summary,
    /// A live line is on the screen.
    shown: bool,
}

impl Status {
    /// The status of a run of `total` programs.
    pub fn new(total: usize, live: bool, interval: Duration) -> Status {
        let now = Instant::now();
        Status {
            live,
            interval,
            start: now,
            last_plain: now,
            total,
            done: 0,
            summary: Summary::default(),
            shown: false,
        }
    }

    /// The status line (without a newline).
    pub fn line(&self) -> String {
        format!(
            "{}/{} files done, {} passed, {} failed so far ({} s)",
            self.done,
            self.total,
            self.summary.passed,
            self.summary.failed,
            self.start.elapsed().as_secs()
        )
    }

    /// Takes the live line off the screen (before a report is printed).
    fn clear(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }

    fn program_done(&mut self, s: Summary) {
        self.done += 1;
        self.summary += s;
        self.tick();
    }

    /// Shows the live line, or the plain one if it is time.
    fn tick(&mut self) {
        if self.live {
            eprint!("\r\x1b[K{}", self.line());
            let _ = std::io::stderr().flush();
            self.shown = true;
        } else if self.last_plain.elapsed() >= self.interval {
            eprintln!("futmlir test: {}", self.line());
            self.last_plain = Instant::now();
        }
    }

    fn finish(&mut self) {
        self.clear();
    }
}
