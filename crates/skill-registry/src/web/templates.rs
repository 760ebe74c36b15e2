//! The page templates (minijinja, HTML auto-escaping on) and the stylesheet, embedded in the
//! binary so a server needs no files beside it.

use minijinja::{Environment, UndefinedBehavior, Value};

/// The stylesheet every page links to, served at `/static/style.css`.
pub(crate) const STYLESHEET: &str = include_str!("style.css");

/// The stylesheet's address with its content's hash in the query, so a browser may keep it a
/// long time and still fetches a new one after an upgrade.
pub(crate) fn stylesheet_url() -> &'static str {
    static URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    URL.get_or_init(|| {
        let hash = skill_model::fingerprint::sha256_hex(STYLESHEET.as_bytes());
        format!("/static/style.css?{}", &hash[..12])
    })
}

/// Every template, by name; `.html` names turn HTML escaping on for everything they print.
const TEMPLATES: [(&str, &str); 12] = [
    ("base.html", include_str!("templates/base.html")),
    ("macros.html", include_str!("templates/macros.html")),
    ("review.html", include_str!("templates/review.html")),
    ("index.html", include_str!("templates/index.html")),
    ("search.html", include_str!("templates/search.html")),
    ("skill.html", include_str!("templates/skill.html")),
    ("versions.html", include_str!("templates/versions.html")),
    ("files.html", include_str!("templates/files.html")),
    ("file.html", include_str!("templates/file.html")),
    ("user.html", include_str!("templates/user.html")),
    ("login.html", include_str!("templates/login.html")),
    ("error.html", include_str!("templates/error.html")),
];

/// The templates, parsed once.
#[derive(Debug)]
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// Parses the embedded templates.
    pub fn new() -> Result<Templates, minijinja::Error> {
        let mut env = Environment::new();
        // Printing a value the page does not have is a bug to hear about, not an empty string;
        // `{% if %}` on a missing one stays allowed.
        env.set_undefined_behavior(UndefinedBehavior::SemiStrict);
        for (name, source) in TEMPLATES {
            env.add_template(name, source)?;
        }
        Ok(Templates { env })
    }

    /// The templates every page renders with, parsed on first use.
    pub fn shared() -> &'static Templates {
        static TEMPLATES: std::sync::OnceLock<Templates> = std::sync::OnceLock::new();
        TEMPLATES.get_or_init(|| {
            Templates::new().expect("the embedded templates parse (a unit test checks)")
        })
    }

    /// Renders template `name` with `context`.
    pub fn render(&self, name: &str, context: Value) -> Result<String, minijinja::Error> {
        self.env.get_template(name)?.render(context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_templates_parse_and_escape() {
        let templates = Templates::new().unwrap();
        let html = templates
            .render(
                "error.html",
                minijinja::context! {
                    site => "Registry", stylesheet => stylesheet_url(), query => "<q>", viewer => Value::from(()),
                    page => minijinja::context! { title => "Not found", message => "<script>x</script>" },
                },
            )
            .unwrap();
        assert!(
            html.contains("&lt;script&gt;x") && !html.contains("<script"),
            "{html}"
        );
        assert!(html.contains(r#"value="&lt;q&gt;""#), "{html}");
    }
}
