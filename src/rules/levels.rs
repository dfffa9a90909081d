//! Errors for level data (`levels/**/*.ron`): every message names the file,
//! the place inside it, and the problem.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub file: String,
    /// Where in the file: a line/column for syntax errors, or a path such as
    /// `lines[3][1]` for errors found while validating.
    pub place: String,
    pub problem: String,
}

impl LevelError {
    pub fn new(file: &str, place: &str, problem: impl Into<String>) -> Self {
        LevelError {
            file: file.to_string(),
            place: place.to_string(),
            problem: problem.into(),
        }
    }

    /// A RON syntax or shape error, with the position RON reports.
    pub fn parse(file: &str, err: &ron::error::SpannedError) -> Self {
        LevelError {
            file: file.to_string(),
            place: format!(
                "line {}, column {}",
                err.span.start.line, err.span.start.col
            ),
            problem: err.code.to_string(),
        }
    }
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.place, self.problem)
    }
}

impl std::error::Error for LevelError {}
