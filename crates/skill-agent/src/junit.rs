//! JUnit XML, the test report CI systems read: one writer for every command that writes one
//! (`skill test`, `skill eval`). What a suite and a case are is the command's choice; this
//! module only counts, times and escapes.

/// A document: named testsuites.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    /// The `testsuites` name.
    pub name: &'a str,
    /// The suites, in order.
    pub suites: Vec<Suite<'a>>,
}

/// One testsuite.
#[derive(Debug, Clone, PartialEq)]
pub struct Suite<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its cases, in order.
    pub cases: Vec<Case<'a>>,
}

/// One testcase.
#[derive(Debug, Clone, PartialEq)]
pub struct Case<'a> {
    /// Its class name (the skill).
    pub classname: &'a str,
    /// Its name.
    pub name: &'a str,
    /// The file it comes from.
    pub file: String,
    /// The line in that file, where a case is one entry of a longer file.
    pub line: Option<u64>,
    /// How long it took, in seconds, where it is timed; a suite and the document are timed
    /// (the sum of their cases) when they have cases and every one is.
    pub time: Option<f64>,
    /// How it went.
    pub verdict: Verdict,
}

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

/// The XML of `document`.
pub fn render(document: &Document) -> String {
    let cases = || document.suites.iter().flat_map(|s| &s.cases);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"{}\"{}>\n",
        escape(document.name),
        counts(cases())
    ));
    for suite in &document.suites {
        xml.push_str(&format!(
            "  <testsuite name=\"{}\"{}>\n",
            escape(suite.name),
            counts(suite.cases.iter())
        ));
        for case in &suite.cases {
            render_case(&mut xml, case);
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// The `tests`, `failures`, `errors` (and `time`) attributes of a group of cases.
fn counts<'a>(cases: impl Iterator<Item = &'a Case<'a>> + Clone) -> String {
    let tests = cases.clone().count();
    let failures = cases
        .clone()
        .filter(|c| matches!(c.verdict, Verdict::Failure { .. }))
        .count();
    let errors = cases
        .clone()
        .filter(|c| matches!(c.verdict, Verdict::Error { .. }))
        .count();
    let times: Option<Vec<f64>> = cases.map(|c| c.time).collect();
    let time = match times {
        Some(times) if !times.is_empty() => format!(" time=\"{:.3}\"", times.iter().sum::<f64>()),
        _ => String::new(),
    };
    format!(" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\"{time}")
}

/// One `testcase` element, with its failure or error.
fn render_case(xml: &mut String, case: &Case) {
    xml.push_str(&format!(
        "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\"",
        escape(case.classname),
        escape(case.name),
        escape(&case.file)
    ));
    if let Some(line) = case.line {
        xml.push_str(&format!(" line=\"{line}\""));
    }
    if let Some(time) = case.time {
        xml.push_str(&format!(" time=\"{time:.3}\""));
    }
    let (element, message, text) = match &case.verdict {
        Verdict::Passed => {
            xml.push_str("/>\n");
            return;
        }
        Verdict::Failure { message, text } => ("failure", message, text),
        Verdict::Error { message, text } => ("error", message, text),
    };
    xml.push_str(&format!(
        ">\n      <{element} message=\"{}\">{}</{element}>\n    </testcase>\n",
        escape(message),
        escape(text)
    ));
}

/// XML text and attribute escaping; control characters XML cannot carry are dropped.
fn escape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
            time,
            verdict,
        }
    }

    #[test]
    fn counts_times_and_escapes() {
        let failure = Verdict::Failure {
            message: "said <no>".into(),
            text: "a & b\u{7}".into(),
        };
        let error = Verdict::Error {
            message: "boom".into(),
            text: "boom\nmore".into(),
        };
        let timed = Document {
            name: "skill test",
            suites: vec![Suite {
                name: "skill test",
                cases: vec![
                    case("ok", Some(0.5), Verdict::Passed),
                    case("\"quoted\"", Some(0.25), failure.clone()),
                    case("err", Some(1.0), error),
                ],
            }],
        };
        assert_eq!(
            render(&timed),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<testsuites name=\"skill test\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"1.750\">
  <testsuite name=\"skill test\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"1.750\">
    <testcase classname=\"pdf-tools\" name=\"ok\" file=\"evals/a.yaml\" time=\"0.500\"/>
    <testcase classname=\"pdf-tools\" name=\"&quot;quoted&quot;\" file=\"evals/a.yaml\" time=\"0.250\">
      <failure message=\"said &lt;no&gt;\">a &amp; b</failure>
    </testcase>
    <testcase classname=\"pdf-tools\" name=\"err\" file=\"evals/a.yaml\" time=\"1.000\">
      <error message=\"boom\">boom
more</error>
    </testcase>
  </testsuite>
</testsuites>
"
        );
        let untimed = Document {
            name: "skill eval",
            suites: vec![
                Suite {
                    name: "pdf-tools",
                    cases: vec![case("q", None, failure)],
                },
                Suite {
                    name: "empty",
                    cases: vec![],
                },
            ],
        };
        assert_eq!(
            render(&untimed),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<testsuites name=\"skill eval\" tests=\"1\" failures=\"1\" errors=\"0\">
  <testsuite name=\"pdf-tools\" tests=\"1\" failures=\"1\" errors=\"0\">
    <testcase classname=\"pdf-tools\" name=\"q\" file=\"evals/a.yaml\" line=\"3\">
      <failure message=\"said &lt;no&gt;\">a &amp; b</failure>
    </testcase>
  </testsuite>
  <testsuite name=\"empty\" tests=\"0\" failures=\"0\" errors=\"0\">
  </testsuite>
</testsuites>
"
        );
    }
}
