//! The flag parser for the model's closed sets of choices: possible values, with their meanings,
//! in help and completions.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use skill_model::choice::Choice;

/// Parses a flag into one of `T`'s choices.
pub(crate) fn parser<T: Choice + Send + Sync + Clone>() -> impl TypedValueParser<Value = T> {
    let values = T::ALL
        .iter()
        .map(|c| PossibleValue::new(c.name()).help(c.help()));
    PossibleValuesParser::new(values)
        .map(|name| T::parse(&name).expect("a possible value names a choice"))
}
