//! What a context is started with: the tuning parameters and the
//! run-time options that Futhark's executables take on the command line
//! and its C library through `futhark_context_config_*` (`-L`, `-D`,
//! `-P`, `--cache-file`, `-d`, `--load-ptx`). One struct for the three
//! ways in (the executable, the server, the C library), so each option
//! means the same everywhere.

use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The tuning parameters' values (`crate::params`).
    pub params: Vec<i64>,
    /// `-L`: log lines on stderr (See Note [Logging and profiling]).
    pub log: bool,
    /// `-D`: expensive checks; implies `log` and `profile` (set by
    /// [`Settings::debugging`]).
    pub debug: bool,
    /// `-P`: record profiling events.
    pub profile: bool,
    /// `--cache-file`: where the CUDA back end keeps the compiled module
    /// (Note [The module cache] in `cuda`); the CPU has nothing to cache.
    pub cache_file: Option<PathBuf>,
    /// `-d`: the CUDA device whose name contains this, or `#K` for
    /// number K. The CPU target has one device, the host, and ignores it.
    pub device: Option<String>,
    /// `--load-ptx`: PTX used instead of the program's own.
    pub load_ptx: Option<PathBuf>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            params: crate::params::defaults(),
            log: false,
            debug: false,
            profile: false,
            cache_file: None,
            device: None,
            load_ptx: None,
        }
    }
}

impl Settings {
    /// Turns `-D` on, and with it `-L` and `-P`, as in Futhark.
    pub fn debugging(&mut self) {
        self.debug = true;
        self.log = true;
        self.profile = true;
    }
}
