//! JUnit XML, the test report CI systems read, written by quick-junit for every command that
//! writes one (`skill test`, `skill eval`). What a suite and a case are is the command's choice;
//! this module adds what both want on top of the crate: a case's file and line as attributes
//! (GitLab and others link them), and times summed upwards only when every case is timed.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

pub use quick_junit::SerializeError;

/// How a testcase went.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// It passed.
    Passed,
    /// It ran and failed: a one-line message and the whole text.
    Failure {
        /// The headline.
        message: String,
        /// Everything said.
        text: String,
    },
    /// It could not run: a one-line message and the whole text.
    Error {
        /// The headline.
        message: String,
        /// Everything said.
        text: String,
    },
}

/// Where a testcase comes from and how it went.
pub struct Case<'a> {
    /// Its class name (the skill).
    pub classname: &'a str,
    /// Its name.
    pub name: &'a str,
    /// The file it comes from.
    pub file: String,
    /// The line in that file, where a case is one entry of a longer file.
    pub line: Option<u64>,
    /// How long it took, where it is timed.
    pub time: Option<Duration>,
    /// How it went.
    pub verdict: Verdict,
}

/// The XML of a report named `name` holding `suites`, each a name and its cases.
pub fn render<'a>(
    name: &str,
    suites: impl IntoIterator<Item = (&'a str, Vec<Case<'a>>)>,
) -> Result<String, SerializeError> {
    let suites: Vec<TestSuite> = suites
        .into_iter()
        .map(|(name, cases)| suite(name, cases))
        .collect();
    let mut report = Report::new(name);
    if let Some(time) = total(suites.iter().map(|s| s.time)) {
        report.set_time(time);
    }
    report.add_test_suites(suites);
    report.to_string()
}

fn suite(name: &str, cases: Vec<Case>) -> TestSuite {
    let mut suite = TestSuite::new(name);
    if let Some(time) = total(cases.iter().map(|c| c.time)) {
        suite.set_time(time);
    }
    suite.add_test_cases(cases.into_iter().map(test_case));
    suite
}

/// The sum of `times` when there is at least one and every one is known.
fn total(times: impl Iterator<Item = Option<Duration>>) -> Option<Duration> {
    let times: Option<Vec<Duration>> = times.collect();
    times.filter(|t| !t.is_empty()).map(|t| t.iter().sum())
}

fn test_case(case: Case) -> TestCase {
    let status = match case.verdict {
        Verdict::Passed => TestCaseStatus::success(),
        Verdict::Failure { message, text } => failed(NonSuccessKind::Failure, message, text),
        Verdict::Error { message, text } => failed(NonSuccessKind::Error, message, text),
    };
    let mut test_case = TestCase::new(case.name, status);
    test_case.set_classname(case.classname);
    if let Some(time) = case.time {
        test_case.set_time(time);
    }
    test_case.extra.insert("file".into(), case.file.into());
    if let Some(line) = case.line {
        test_case
            .extra
            .insert("line".into(), line.to_string().into());
    }
    test_case
}

fn failed(kind: NonSuccessKind, message: String, text: String) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(kind);
    status.set_message(message).set_description(text);
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &'static str, time: Option<f64>, verdict: Verdict) -> Case<'static> {
        Case {
            classname: "pdf-tools",
            name,
            file: "evals/a.yaml".into(),
            line: time.is_none().then_some(3),
            time: time.map(Duration::from_secs_f64),
            verdict,
        }
    }

    fn failure() -> Verdict {
        Verdict::Failure {
            message: "said <no>".into(),
            text: "a & b\u{7}".into(),
        }
    }

    #[test]
    fn counts_times_and_escapes() {
        let error = Verdict::Error {
            message: "boom".into(),
            text: "boom\nmore".into(),
        };
        let cases = vec![
            case("ok", Some(0.5), Verdict::Passed),
            case("\"quoted\"", Some(0.25), failure()),
            case("err", Some(1.0), error),
        ];
        insta::assert_snapshot!(render("skill test", [("skill test", cases)]).unwrap());
    }

    #[test]
    fn untimed_cases_leave_the_totals_untimed() {
        let suites = [
            ("pdf-tools", vec![case("q", None, failure())]),
            ("empty", vec![]),
        ];
        insta::assert_snapshot!(render("skill eval", suites).unwrap());
    }
}
