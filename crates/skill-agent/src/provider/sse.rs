//! Server-sent events, read line by line from a streamed response body.

use std::io::BufRead;

/// One event: its `event:` name (empty when none) and its `data:` lines joined by `\n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event name.
    pub name: String,
    /// The data.
    pub data: String,
}

/// Reads events from `reader` until it ends.
pub(crate) struct Events<R> {
    reader: R,
}

impl<R: BufRead> Events<R> {
    /// Events of `reader`.
    pub fn new(reader: R) -> Events<R> {
        Events { reader }
    }
}

impl<R: BufRead> Iterator for Events<R> {
    type Item = std::io::Result<Event>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut name = String::new();
        let mut data: Option<String> = None;
        let mut line = String::new();
        loop {
            line.clear();
            match self.reader.read_line(&mut line) {
                Err(e) => return Some(Err(e)),
                // An event without its closing blank line still counts.
                Ok(0) => return data.map(|data| Ok(Event { name, data })),
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if let Some(data) = data.take() {
                    return Some(Ok(Event { name, data }));
                }
                name.clear();
                continue;
            }
            let (field, value) = line.split_once(':').unwrap_or((line, ""));
            let value = value.strip_prefix(' ').unwrap_or(value);
            match field {
                "event" => name = value.to_owned(),
                "data" => match &mut data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => data = Some(value.to_owned()),
                },
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_named_events_comments_and_multiline_data() {
        let text = ": keep-alive\nevent: a\ndata: 1\ndata: 2\n\ndata: {\"x\":1}\r\n\r\ndata: tail";
        let events: Vec<Event> = Events::new(text.as_bytes()).map(|e| e.unwrap()).collect();
        assert_eq!(
            events,
            vec![
                Event {
                    name: "a".into(),
                    data: "1\n2".into()
                },
                Event {
                    name: String::new(),
                    data: "{\"x\":1}".into()
                },
                Event {
                    name: String::new(),
                    data: "tail".into()
                },
            ]
        );
    }
}
