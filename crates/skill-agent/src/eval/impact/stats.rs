//! Means, standard deviations and a bootstrap interval for the difference of pass rates, so a
//! gate on the delta is not decided by the noise of a few runs.

/// Resamples of the bootstrap.
const RESAMPLES: usize = 2000;
/// The interval's coverage.
pub(crate) const CONFIDENCE: f64 = 0.95;
/// The bootstrap's seed: the same runs give the same interval.
const SEED: u64 = 0x5EED_F1A7;

/// A mean and a sample standard deviation (0 for fewer than two values).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Spread {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation.
    pub stddev: f64,
}

/// The spread of `values` (`None` when there are none).
pub fn spread(values: &[f64]) -> Option<Spread> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let stddev = if values.len() < 2 {
        0.0
    } else {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    };
    Some(Spread { mean, stddev })
}

/// A confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Interval {
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Coverage (0.95).
    pub confidence: f64,
}

/// The bootstrap interval of `mean(with) - mean(baseline)` where each pair is one eval's runs
/// (pass rates). Each resample draws evals with replacement, then runs within each drawn eval,
/// so both the spread between tasks and the noise between runs widen it. `None` when either
/// side has fewer than two runs: one run says nothing about noise.
pub fn delta_interval(per_eval: &[(Vec<f64>, Vec<f64>)]) -> Option<Interval> {
    let with_runs: usize = per_eval.iter().map(|(with, _)| with.len()).sum();
    let base_runs: usize = per_eval.iter().map(|(_, base)| base.len()).sum();
    if with_runs < 2 || base_runs < 2 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut deltas: Vec<f64> = Vec::with_capacity(RESAMPLES);
    while deltas.len() < RESAMPLES {
        let mut with = (0.0, 0usize);
        let mut base = (0.0, 0usize);
        for _ in 0..per_eval.len() {
            let (w, b) = &per_eval[rng.usize(..per_eval.len())];
            resample_into(&mut rng, w, &mut with);
            resample_into(&mut rng, b, &mut base);
        }
        // A draw of only evals without runs on one side has no delta; draw again.
        if with.1 > 0 && base.1 > 0 {
            deltas.push(with.0 / with.1 as f64 - base.0 / base.1 as f64);
        }
    }
    Some(quantiles(deltas))
}

/// The bootstrap interval of the mean of one configuration's pass rates, drawn the same way
/// (evals, then runs within them). `None` from fewer than two runs.
pub(crate) fn mean_interval(per_eval: &[Vec<f64>]) -> Option<Interval> {
    if per_eval.iter().map(Vec::len).sum::<usize>() < 2 {
        return None;
    }
    let mut rng = fastrand::Rng::with_seed(SEED);
    let mut means: Vec<f64> = Vec::with_capacity(RESAMPLES);
    while means.len() < RESAMPLES {
        let mut sum = (0.0, 0usize);
        for _ in 0..per_eval.len() {
            let drawn = &per_eval[rng.usize(..per_eval.len())];
            resample_into(&mut rng, drawn, &mut sum);
        }
        if sum.1 > 0 {
            means.push(sum.0 / sum.1 as f64);
        }
    }
    Some(quantiles(means))
}

/// The central [`CONFIDENCE`] interval of `values`.
fn quantiles(mut values: Vec<f64>) -> Interval {
    values.sort_by(f64::total_cmp);
    let tail = (1.0 - CONFIDENCE) / 2.0;
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Interval {
        low: at(tail),
        high: at(1.0 - tail),
        confidence: CONFIDENCE,
    }
}

fn resample_into(rng: &mut fastrand::Rng, values: &[f64], sum: &mut (f64, usize)) {
    for _ in 0..values.len() {
        sum.0 += values[rng.usize(..values.len())];
        sum.1 += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_of_one_value_has_no_deviation() {
        assert_eq!(
            spread(&[0.5]),
            Some(Spread {
                mean: 0.5,
                stddev: 0.0
            })
        );
        let two = spread(&[0.0, 1.0]).unwrap();
        assert!((two.stddev - 0.5f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn identical_runs_give_a_point_interval_and_noise_a_wide_one() {
        let sure = delta_interval(&[(vec![1.0, 1.0], vec![0.0, 0.0])]).unwrap();
        assert_eq!((sure.low, sure.high), (1.0, 1.0));
        let noisy = delta_interval(&[(vec![1.0, 0.0, 1.0], vec![0.0, 1.0, 0.0])]).unwrap();
        assert!(noisy.low < 0.0 && noisy.high > 0.5, "{noisy:?}");
        assert_eq!(delta_interval(&[(vec![1.0], vec![0.0])]), None);
        let tasks = delta_interval(&[
            (vec![1.0, 1.0], vec![0.0, 0.0]),
            (vec![0.5, 0.5], vec![0.5, 0.5]),
        ])
        .unwrap();
        assert!(
            tasks.low < tasks.high,
            "tasks that differ widen it: {tasks:?}"
        );
    }
}
