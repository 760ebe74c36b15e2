//! Closed sets of named choices (lint targets, output formats, providers, cassette modes): each
//! variant's name and one-line meaning written once, in the layer that owns the set, so parsers
//! of flags, env vars and config files in other layers read them without the model knowing how.

/// A closed set of named choices.
pub trait Choice: Copy + Sized + 'static {
    /// Every choice, in the order help lists them.
    const ALL: &'static [Self];

    /// Its name, as flags, env vars and files spell it.
    fn name(self) -> &'static str;

    /// What it means, in one line.
    fn help(self) -> &'static str;

    /// The choice `name` names, ASCII case ignored.
    fn parse(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Every name, comma-separated, for messages.
    fn names() -> String {
        Self::ALL
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Declares an enum whose variants each carry a name and a one-line meaning (its doc comment
/// too), with [`Choice`], an inherent `name()`, `Display` and `FromStr`.
///
/// Not strum: its derives give the names and parsing, but a variant's help would be written a
/// second time (`#[strum(message)]` beside the doc comment), and `EnumString`'s error does not
/// list the names a user may choose from, which every message here does (`"x" is not one of
/// …`); this is one short macro, with no proc-macro crate in the build.
#[macro_export]
macro_rules! choices {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($variant:ident = $text:literal: $help:literal,)* }) => {
        $(#[$meta])*
        $vis enum $name {
            $(#[doc = $help] $variant,)*
        }

        impl $name {
            /// Its name, as flags, env vars and files spell it.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl $crate::choice::Choice for $name {
            const ALL: &'static [Self] = &[$($name::$variant),*];

            fn name(self) -> &'static str {
                $name::name(self)
            }

            fn help(self) -> &'static str {
                match self {
                    $($name::$variant => $help,)*
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;

            fn from_str(text: &str) -> Result<Self, String> {
                <Self as $crate::choice::Choice>::parse(text).ok_or_else(|| {
                    format!(
                        "\"{text}\" is not one of {}",
                        <Self as $crate::choice::Choice>::names()
                    )
                })
            }
        }
    };
}
