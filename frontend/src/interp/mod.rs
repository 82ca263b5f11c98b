//! The reference interpreter (stub until the real one lands).
use crate::check::Checked;
use crate::span::{SourceMap, Span};

pub struct RunOptions {
    pub cost: bool,
}
pub struct Cost {
    pub work: u64,
    pub span: u64,
}
pub struct RunResult {
    pub values: Vec<crate::values::Value>,
    pub cost: Option<Cost>,
}
pub struct RuntimeError {
    pub span: Option<Span>,
    pub message: String,
}
impl RuntimeError {
    pub fn render(&self, sm: &SourceMap) -> String {
        match self.span {
            Some(s) => format!("{}: error: {}", sm.describe(s), self.message),
            None => format!("error: {}", self.message),
        }
    }
}
pub fn run_entry(
    _checked: &Checked,
    _entry: &str,
    _args: Vec<crate::values::Value>,
    _opts: &RunOptions,
) -> Result<RunResult, RuntimeError> {
    Err(RuntimeError {
        span: None,
        message: "interpreter missing".into(),
    })
}
