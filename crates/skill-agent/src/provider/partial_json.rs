//! The object a cut-off JSON text was on its way to: what Anthropic's SDK makes of a `tool_use`
//! block whose `input_json_delta`s stopped early (jiter's partial mode, trailing strings kept).
//! Anthropic's history needs an object where the model's text is not one; this keeps as much
//! of what the model sent as parses, rather than `{}`.

use serde_json::{Map, Value};

/// Characters given up from the end, at most, looking for a prefix that closes: a cut falls
/// inside a key, a number or a literal, all short; a cut inside a string value closes at once.
const MAX_BACKOFF: usize = 256;

/// The longest prefix of `text` that, with its open string and containers closed, is a JSON
/// object; `None` when there is none.
pub(crate) fn close_object(text: &str) -> Option<Map<String, Value>> {
    let text = text.trim_end();
    let mut end = text.len();
    for _ in 0..MAX_BACKOFF {
        if end == 0 {
            return None;
        }
        let prefix = &text[..end];
        if let Some(closed) = closed(prefix)
            && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(&closed)
        {
            return Some(object);
        }
        end = prefix.char_indices().next_back().map_or(0, |(i, _)| i);
    }
    None
}

/// `prefix` with its open string closed and its open containers closed in order; `None` when a
/// container closes that never opened.
fn closed(prefix: &str) -> Option<String> {
    let mut closers = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in prefix.chars() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' => closers.push('}'),
            '[' => closers.push(']'),
            '}' | ']' if closers.pop() != Some(c) => return None,
            _ => {}
        }
    }
    let mut out = prefix.to_owned();
    if in_string {
        // A dangling backslash would escape the closing quote; a shorter prefix drops it.
        if escaped {
            return None;
        }
        out.push('"');
    }
    out.extend(closers.iter().rev());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn close(text: &str) -> Value {
        Value::Object(close_object(text).unwrap_or_default())
    }

    #[test]
    fn keeps_what_parses_of_a_cut_off_object() {
        assert_eq!(
            close(r#"{"path": "a.txt", "content": "hel"#),
            json!({"path": "a.txt", "content": "hel"})
        );
        assert_eq!(close(r#"{"path": "a.txt", "con"#), json!({"path": "a.txt"}));
        assert_eq!(close(r#"{"path": "a.txt", "#), json!({"path": "a.txt"}));
        assert_eq!(close(r#"{"path": "#), json!({}));
        assert_eq!(close(r#"{"n": 12"#), json!({"n": 12}));
        assert_eq!(close(r#"{"ok": tr"#), json!({}));
        assert_eq!(
            close(r#"{"argv": ["ls", "-l"#),
            json!({"argv": ["ls", "-l"]})
        );
        assert_eq!(close(r#"{"a": "x\"#), json!({"a": "x"}));
        assert_eq!(close(r#"{"a": "x\u00"#), json!({"a": "x"}));
        assert_eq!(
            close(r#"{"a": {"b": [1, {"c": "d"#),
            json!({"a": {"b": [1, {"c": "d"}]}})
        );
    }

    #[test]
    fn is_none_without_an_object() {
        assert_eq!(close_object(""), None);
        assert_eq!(close_object("[1, 2"), None);
        assert_eq!(close_object("not json"), None);
        assert_eq!(close_object("}{"), None);
    }
}
