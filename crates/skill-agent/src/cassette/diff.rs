//! Where a request differs from its recording: the JSON path of the first difference, and a
//! unified diff of the two as YAML (long strings become block scalars, so lines stay readable).

use serde_json::Value;

/// The JSON path (`$.messages[3].content`) of the first place `recorded` and `actual` differ.
pub fn first_difference(recorded: &Value, actual: &Value) -> String {
    let mut path = String::from("$");
    walk(recorded, actual, &mut path);
    path
}

/// Appends to `path` until the values differ here; returns whether they differ at all.
fn walk(recorded: &Value, actual: &Value, path: &mut String) -> bool {
    match (recorded, actual) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            for key in keys {
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                let before = path.len();
                path.push('.');
                path.push_str(key);
                if walk(x, y, path) {
                    return true;
                }
                path.truncate(before);
            }
            false
        }
        (Value::Array(a), Value::Array(b)) => {
            for i in 0..a.len().max(b.len()) {
                let before = path.len();
                path.push_str(&format!("[{i}]"));
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) if !walk(x, y, path) => path.truncate(before),
                    _ => return true,
                }
            }
            false
        }
        (a, b) => a != b,
    }
}

/// A unified diff of `recorded` against `actual`, three lines of context.
pub fn unified(recorded: &str, actual: &str) -> String {
    similar::TextDiff::from_lines(recorded, actual)
        .unified_diff()
        .context_radius(3)
        .header("recorded", "this run")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_the_first_differing_leaf() {
        let a = json!({"messages": [{"role": "user", "content": "a"}, {"content": "b"}]});
        let b = json!({"messages": [{"role": "user", "content": "a"}, {"content": "c"}]});
        assert_eq!(first_difference(&a, &b), "$.messages[1].content");
        let c = json!({"messages": [{"role": "user", "content": "a"}]});
        assert_eq!(first_difference(&a, &c), "$.messages[1]");
    }
}
