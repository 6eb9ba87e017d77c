//! Covering what no test runs, shared by `jreach fill` and the language server's "Generate tests
//! for the N uncovered statements":
//!
//! - [`coverage`]: JaCoCo's XML report, read into the lines no test ran, and where reports
//!   usually are;
//! - [`answer`]: one statement's answer, through jreach's model first and then the JVM (the run
//!   before a test is offered, concolic rounds, a search), on a JVM kept for the next statement;
//! - [`statements`]: the statement a report's line belongs to, and the lines jreach's earlier
//!   tests already cover (read back from their comments);
//! - [`file`]: one file's statements answered from the last up, each new test's covered lines
//!   taken off the list, the tests gathered per test file as one edit to write or to offer.
//!
//! Nothing here writes to disk: the caller writes the tests [`file::fill_file`] gathered (the
//! CLI) or offers them as one workspace edit (the server).

pub mod answer;
pub mod coverage;
pub mod file;
pub mod statements;

pub use answer::{answer, options_for_file, Answer, Jvm};
pub use coverage::Coverage;
pub use file::{counts, fill_file, test_name, Counts, FillOptions, Filled, LineResult, Verdict};
pub use statements::{covered_by_earlier_tests, statement_line, statement_text, target_of_marker};
