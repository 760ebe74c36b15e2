//! How alike two skills look to a model choosing between them: a TF-IDF cosine over each
//! skill's name and description (the only text the model sees before it reads a SKILL.md),
//! with sublinear term frequency and IDF over the skills compared together. Used by lint's
//! `description-overlap` and by `doctor`; knows nothing of either.

use rayon::prelude::*;
use std::collections::HashMap;

/// The similarity at and above which two skills are reported: tuned on the shared corpus of
/// 3,184 ClawHub skills (see the README, "Evaluating triggers"), where pairs above it are
/// forks, renamed copies and skills that do one job under two names.
pub const OVERLAP_THRESHOLD: f64 = 0.70;

/// Words that say nothing about what a skill does (English function words and the phrases
/// every description uses).
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "asks", "at", "be",
    "by", "can", "do", "does", "for", "from", "get", "has", "have", "help", "helps", "how", "if",
    "in", "into", "is", "it", "its", "like", "me", "more", "my", "need", "needs", "not", "of",
    "on", "one", "or", "other", "out", "over", "skill", "skills", "so", "such", "than", "that",
    "the", "their", "them", "then", "these", "this", "to", "too", "up", "use", "used", "user",
    "users", "using", "via", "want", "wants", "was", "what", "when", "whenever", "where", "which",
    "while", "who", "will", "with", "without", "you", "your",
];

/// The name (frontmatter `name`, else the folder name) and the trimmed description a skill
/// shows the model; `None` without a description.
pub fn described(skill: &super::Skill) -> Option<(String, String)> {
    let manifest = skill.manifest()?;
    let text = &skill.document.as_ref().ok()?.source.text;
    let description = manifest.get("description")?.value.scalar_text(text)?.trim();
    if description.is_empty() {
        return None;
    }
    let name = manifest
        .value("name")
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| skill.dir_name.clone(), str::to_owned);
    Some((name, description.to_owned()))
}

/// [`described`] for every skill below `roots` (folders of skills; missing ones skipped).
pub fn described_in(roots: &[std::path::PathBuf]) -> Vec<(String, String)> {
    let catalog =
        super::catalog::Catalog::load(roots.iter().map(super::catalog::Root::plain).collect());
    catalog
        .skills
        .iter()
        .filter_map(|entry| described(&entry.skill))
        .collect()
}

/// A pair of skills (indices into the compared list) at or above the threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The first skill's index (the lower).
    pub a: usize,
    /// The second skill's index.
    pub b: usize,
    /// The cosine, from 0 to 1.
    pub score: f64,
    /// The shared terms that weigh most, heaviest first (at most eight).
    pub shared: Vec<String>,
}

/// The terms of `text`: lower-case words of two characters or more, stop words dropped, a
/// plural `s` taken off.
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_lowercase)
        .filter(|w| !STOP_WORDS.contains(&w.as_str()))
        .map(|w| {
            let plural = w.len() > 4
                && w.ends_with('s')
                && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is"));
            if plural {
                w[..w.len() - 1].to_owned()
            } else {
                w
            }
        })
        .collect()
}

struct Vector {
    /// (term id, weight), sorted by term id.
    weights: Vec<(u32, f64)>,
    norm: f64,
}

/// Each skill's term counts, by term id, and the terms in id order.
fn counted(skills: &[(&str, &str)]) -> (Vec<String>, Vec<HashMap<u32, u32>>) {
    // Cutting descriptions into terms is most of the work before the sums and needs no shared
    // state, so it runs on every core; only numbering the terms is left in order.
    let term_lists: Vec<Vec<String>> = skills
        .par_iter()
        .map(|(name, description)| {
            terms(&format!("{} {description}", name.replace(['-', '_'], " ")))
        })
        .collect();
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut vocabulary: Vec<String> = Vec::new();
    let counts = term_lists
        .into_iter()
        .map(|terms| {
            let mut counts: HashMap<u32, u32> = HashMap::new();
            for term in terms {
                let id = *ids.entry(term.clone()).or_insert_with(|| {
                    vocabulary.push(term);
                    (vocabulary.len() - 1) as u32
                });
                *counts.entry(id).or_default() += 1;
            }
            counts
        })
        .collect();
    (vocabulary, counts)
}

/// Each skill's tf-idf vector, from its term counts over `terms` distinct terms.
fn weighted(counts: &[HashMap<u32, u32>], terms: usize) -> Vec<Vector> {
    let mut df = vec![0u32; terms];
    for c in counts {
        for id in c.keys() {
            df[*id as usize] += 1;
        }
    }
    let n = counts.len() as f64;
    counts
        .iter()
        .map(|c| {
            let mut weights: Vec<(u32, f64)> = c
                .iter()
                .map(|(id, tf)| {
                    let idf = (1.0 + n / f64::from(df[*id as usize])).ln();
                    (*id, (1.0 + f64::from(*tf).ln()) * idf)
                })
                .collect();
            weights.sort_by_key(|(id, _)| *id);
            let norm = weights.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
            Vector { weights, norm }
        })
        .collect()
}

/// For each term, the skills that have it, with its weight in each.
fn postings(vectors: &[Vector], terms: usize) -> Vec<Vec<(u32, f64)>> {
    let mut postings: Vec<Vec<(u32, f64)>> = vec![Vec::new(); terms];
    for (i, v) in vectors.iter().enumerate() {
        for (id, w) in &v.weights {
            postings[*id as usize].push((i as u32, *w));
        }
    }
    postings
}

/// Every pair among `skills` (name, description) whose similarity is at least `threshold`,
/// sorted by index. Copies (same name and description) are not pairs.
pub fn similar_pairs(skills: &[(&str, &str)], threshold: f64) -> Vec<Pair> {
    let (vocabulary, counts) = counted(skills);
    let vectors = weighted(&counts, vocabulary.len());
    let postings = postings(&vectors, vocabulary.len());
    // Each thread sums dot products into a dense row, one slot per skill, and lists the slots
    // it touched: a hash map per skill spent more on hashing and growing than on the sums.
    let pairs_of = |(dots, touched): &mut (Vec<f64>, Vec<u32>), i: usize| -> Vec<Pair> {
        let v = &vectors[i];
        if v.norm > 0.0 {
            for (id, w) in &v.weights {
                for (j, wj) in &postings[*id as usize] {
                    if *j as usize > i {
                        // Weights are positive, so a slot is zero until it is touched.
                        if dots[*j as usize] == 0.0 {
                            touched.push(*j);
                        }
                        dots[*j as usize] += w * wj;
                    }
                }
            }
        }
        touched.sort_unstable();
        touched.dedup();
        touched
            .drain(..)
            .filter_map(|j| {
                let j = j as usize;
                let dot = std::mem::take(&mut dots[j]);
                let score = dot / (v.norm * vectors[j].norm);
                (score >= threshold && skills[i] != skills[j]).then(|| Pair {
                    a: i,
                    b: j,
                    score,
                    shared: shared_terms(v, &vectors[j], &vocabulary),
                })
            })
            .collect()
    };
    let mut pairs: Vec<Pair> = (0..vectors.len())
        .into_par_iter()
        .map_init(|| (vec![0.0; vectors.len()], Vec::new()), pairs_of)
        .flatten_iter()
        .collect();
    pairs.sort_by_key(|p| (p.a, p.b));
    pairs
}

fn shared_terms(a: &Vector, b: &Vector, vocabulary: &[String]) -> Vec<String> {
    let mut shared: Vec<(f64, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.weights.len() && j < b.weights.len() {
        let (ta, wa) = a.weights[i];
        let (tb, wb) = b.weights[j];
        match ta.cmp(&tb) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared.push((wa * wb, &vocabulary[ta as usize]));
                i += 1;
                j += 1;
            }
        }
    }
    shared.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(y.1)));
    shared
        .into_iter()
        .take(8)
        .map(|(_, t)| t.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_pair_and_strangers_do_not() {
        let skills = [
            (
                "pdf-forms",
                "Fill PDF forms and extract form fields from PDF files.",
            ),
            (
                "pdf-filler",
                "Fill in PDF forms and extract the fields of PDF files.",
            ),
            (
                "weather",
                "Get the current weather and forecasts for a city.",
            ),
        ];
        let pairs = similar_pairs(&skills, 0.5);
        assert_eq!(pairs.len(), 1, "{pairs:?}");
        assert_eq!((pairs[0].a, pairs[0].b), (0, 1));
        assert_eq!(pairs[0].shared[..2], ["pdf", "form"]);
        assert!(similar_pairs(&[skills[0], skills[0]], 0.1).is_empty());
    }
}
