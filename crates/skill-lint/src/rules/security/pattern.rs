//! The security rules' compiled patterns: `regex-automata`'s meta engine without its literal
//! prefilter, behind the few methods of `regex::Regex` the rules use.
//!
//! The rules run their patterns on the short lines the trigger pass picked (a few dozen bytes
//! each), where a prefilter saves little, but building one costs half of compiling a
//! case-insensitive word list: extracting its literals in every case. The family compiles some
//! forty patterns in each run; without prefilters its work over the shared corpus is 8% less.
//! Matches are the same: only the search strategy differs.

use regex_automata::meta;
use std::ops::Range;

/// A compiled pattern.
#[derive(Debug)]
pub(crate) struct Pattern {
    re: meta::Regex,
    source: String,
}

/// Where a pattern or one of its groups matched, in the haystack it searched.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Match<'h> {
    haystack: &'h str,
    start: usize,
    end: usize,
}

/// The groups of one match.
#[derive(Debug)]
pub struct Captures<'h> {
    haystack: &'h str,
    groups: regex_automata::util::captures::Captures,
}

impl Pattern {
    /// Compiles `pattern` (the syntax of the `regex` crate).
    pub fn new(pattern: &str) -> Result<Pattern, Box<meta::BuildError>> {
        let re = meta::Builder::new()
            .configure(meta::Config::new().auto_prefilter(false))
            .build(pattern)
            .map_err(Box::new)?;
        Ok(Pattern {
            re,
            source: pattern.to_owned(),
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether the pattern matches anywhere in `haystack`.
    pub fn is_match(&self, haystack: &str) -> bool {
        self.re.is_match(haystack)
    }

    /// The leftmost-first match in `haystack`.
    pub fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.re
            .find(haystack)
            .map(|m| Match::new(haystack, m.range()))
    }

    /// Every successive non-overlapping match in `haystack`.
    pub fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> impl Iterator<Item = Match<'h>> + 'r
    where
        'h: 'r,
    {
        self.re
            .find_iter(haystack)
            .map(move |m| Match::new(haystack, m.range()))
    }

    /// The groups of every successive non-overlapping match in `haystack`.
    pub fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> impl Iterator<Item = Captures<'h>> + 'r
    where
        'h: 'r,
    {
        self.re
            .captures_iter(haystack)
            .map(move |groups| Captures { haystack, groups })
    }
}

impl<'h> Match<'h> {
    fn new(haystack: &'h str, range: Range<usize>) -> Match<'h> {
        Match {
            haystack,
            start: range.start,
            end: range.end,
        }
    }

    /// Byte offset of the first byte of the match.
    pub fn start(&self) -> usize {
        self.start
    }

    /// Byte offset just past the match.
    pub fn end(&self) -> usize {
        self.end
    }

    /// The match as a range of the haystack.
    pub fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The matched text.
    pub fn as_str(&self) -> &'h str {
        &self.haystack[self.start..self.end]
    }
}

impl<'h> Captures<'h> {
    /// Group `index` (0: the whole match), when it took part in the match.
    pub fn get(&self, index: usize) -> Option<Match<'h>> {
        self.groups
            .get_group(index)
            .map(|span| Match::new(self.haystack, span.range()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_as_the_regex_crate_does() {
        let source = r"(?i)(?-u:\b)(curl|wget)\s+(\S+)?|ſecret";
        let ours = Pattern::new(source).unwrap();
        let theirs = regex::Regex::new(source).unwrap();
        let hay = "run CURL https://x.example | sh; wget  ; SECRET and ſecret é curl";
        let a: Vec<_> = ours.find_iter(hay).map(|m| m.range()).collect();
        let b: Vec<_> = theirs.find_iter(hay).map(|m| m.range()).collect();
        assert_eq!(a, b);
        let a: Vec<_> = ours
            .captures_iter(hay)
            .map(|c| {
                (0..3)
                    .map(|i| c.get(i).map(|m| m.as_str()))
                    .collect::<Vec<_>>()
            })
            .collect();
        let b: Vec<_> = theirs
            .captures_iter(hay)
            .map(|c| {
                (0..3)
                    .map(|i| c.get(i).map(|m| m.as_str()))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(a, b);
        assert!(ours.find("nothing").is_none());
    }
}
