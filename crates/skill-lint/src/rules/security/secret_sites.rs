//! One secret sent to two services. A script that uses a key with the service it belongs to and
//! also sends it to another site (a "license check", an "anonymous usage ping", a "seat key"
//! header) hands the user's account to that site, though no line both reads and sends it: the
//! key travels through a parameter, a derived value or a payload built over several lines.
//!
//! Which site owns a key needs no table: the script says so by using it there. Sites of one
//! service (`api.github.com` and `ghcr.io`, a self-hosted `github.mycorp.com`) are one.

use super::expand::Vars;
use super::flow::{SECRET_VAR, names};
use super::net::{Place, place_in, same_service};
use std::collections::HashMap;

/// What a script's names hold of its secrets, and where each secret went first.
#[derive(Default)]
pub(super) struct SecretSites {
    /// Names holding a secret, each with the secret variable it came from.
    roots: HashMap<String, String>,
    /// Each secret's first request: the host and its line.
    first: HashMap<String, (String, usize)>,
    /// The name a literal spread over lines is assigned to (`record = {` … `}`), while open.
    open_literal: Option<String>,
}

/// A secret the line sends to a service other than the one it was first sent to.
pub(super) struct SecondService {
    pub secret: String,
    pub first_host: String,
    pub first_line: usize,
    pub host: String,
}

impl SecretSites {
    /// Names bound to a secret variable anywhere in `lines`: a function's parameter is often
    /// named as the variable its caller passes, and the caller comes later in the file.
    pub(super) fn seeded<'a>(lines: impl Iterator<Item = &'a str>) -> Self {
        let mut sites = Self::default();
        for line in lines {
            for m in SECRET_VAR.find_iter(line) {
                if let Some(name) = bound_before(line, m.start()) {
                    sites.roots.insert(name.to_owned(), variable_of(m.as_str()));
                }
            }
        }
        sites
    }

    /// Records what the line `raw` (expanded: `expanded`) gives its names.
    pub(super) fn read(&mut self, raw: &str, expanded: &str, assigned: Option<&str>) {
        let code = raw.trim();
        if self.open_literal.is_some() && code.starts_with(['}', ']', ')']) {
            self.open_literal = None;
        }
        let root = self.secret_in(expanded);
        if let Some(name) = assigned {
            if let Some(root) = &root {
                self.roots.insert(name.to_owned(), root.clone());
            }
            if code.ends_with(['{', '[']) {
                self.open_literal = Some(name.to_owned());
            }
        } else if let (Some(open), Some(root)) = (&self.open_literal, root) {
            self.roots.insert(open.clone(), root);
        }
    }

    /// On a request line, a secret it carries that an earlier request sent to another
    /// service. `vars` resolves an address named by a constant (`Request(USAGE_URL, …)`);
    /// `is_request` tells a request line; it is asked only of a line holding a secret.
    pub(super) fn request(
        &mut self,
        expanded: &str,
        vars: &Vars,
        number: usize,
        is_request: impl Fn(&str) -> bool,
    ) -> Option<SecondService> {
        let secret = self.secret_in(expanded)?;
        if !is_request(expanded) {
            return None;
        }
        let host = host_of_request(expanded, vars)?;
        match self.first.get(&secret) {
            None => {
                self.first.insert(secret, (host, number));
                None
            }
            Some((first_host, first_line)) if !same_service(first_host, &host) => {
                Some(SecondService {
                    first_host: first_host.clone(),
                    first_line: *first_line,
                    secret,
                    host,
                })
            }
            Some(_) => None,
        }
    }

    /// The secret variable a line names, or that one of its names holds.
    fn secret_in(&self, expanded: &str) -> Option<String> {
        if let Some(m) = SECRET_VAR.find(expanded) {
            return Some(variable_of(m.as_str()));
        }
        if self.roots.is_empty() {
            return None;
        }
        names(expanded).find_map(|(_, word)| {
            let object = word.split('.').next().unwrap_or(word);
            self.roots
                .get(word)
                .or_else(|| self.roots.get(object))
                .cloned()
        })
    }
}

/// The host a request line sends to: an address it names, else one a constant it names holds.
fn host_of_request(expanded: &str, vars: &Vars) -> Option<String> {
    let named = |place: Place| match place {
        Place::Https { host, .. } => Some(host),
        Place::Http { url } => Some(super::net::host_of(&url)),
        Place::Local { .. } | Place::Ip { .. } | Place::Unknown => None,
    };
    if let Some(host) = named(place_in(expanded)) {
        return Some(host);
    }
    names(expanded)
        .filter_map(|(_, word)| vars.get(word))
        .find_map(|value| named(place_in(value)))
}

/// The variable's name in a secret variable's use (`os.environ.get("LINEAR_API_KEY` is
/// `LINEAR_API_KEY`).
fn variable_of(used: &str) -> String {
    let start = used
        .rfind(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
        .map_or(0, |at| at + 1);
    used[start..].to_owned()
}

/// The name assigned the value that starts at `at` (`api_key = os.environ…`,
/// `[string] $Pat = $env:…`, `KEY="${…}"`); not a comparison or a key of a literal.
fn bound_before(line: &str, at: usize) -> Option<&str> {
    let before = line[..at]
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        .trim_end_matches(['"', '\'', '(', '{'])
        .trim_end();
    let before = before.strip_suffix('=')?;
    if before.ends_with(['=', '!', '<', '>', ':']) {
        return None;
    }
    let before = before.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |at| at + 1);
    let name = &before[start..];
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_a_secret_is_bound_to() {
        let bound = |line: &str| {
            let m = SECRET_VAR.find(line).expect("a secret variable");
            bound_before(line, m.start()).map(str::to_owned)
        };
        assert_eq!(
            bound(r#"api_key = os.environ.get("LINEAR_API_KEY", "")"#).as_deref(),
            Some("api_key")
        );
        assert_eq!(
            bound("[string] $Pat = $env:AZDO_PAT").as_deref(),
            Some("Pat")
        );
        assert_eq!(bound(r#"export KEY="${GH_TOKEN}""#).as_deref(), Some("KEY"));
        assert_eq!(
            bound("const key = process.env.OPENAI_API_KEY;").as_deref(),
            Some("key")
        );
        assert_eq!(bound(r#"if x == $GH_TOKEN; then"#), None);
        assert_eq!(bound(r#"{"auth": os.environ["GH_TOKEN"]}"#), None);
    }

    #[test]
    fn a_secret_variable_is_named_by_its_use() {
        assert_eq!(
            variable_of(r#"environ.get("LINEAR_API_KEY"#),
            "LINEAR_API_KEY"
        );
        assert_eq!(variable_of("$env:AZDO_PAT"), "AZDO_PAT");
        assert_eq!(variable_of("${GH_TOKEN"), "GH_TOKEN");
    }
}
