//! Logistic regression of game results on evaluation features: the arithmetic of `steere tune`,
//! with no game in it.
//!
//! A position with features `f` and evaluation `e = w . f` is predicted to be won by the side
//! to move with probability `p = 1 / (1 + exp(-e / s))`, where the *scale* `s` (evaluation
//! units per unit of the logistic) says how sure a given lead is. The loss of a set of
//! positions is the mean cross-entropy of the predictions against the targets `y` (the results:
//! 1, 0.5, 0): `-mean(y ln p + (1 - y) ln(1 - p))`. Texel's method: fit `s` first, to the
//! current weights (a one-dimensional golden-section search on `ln s`), then, with `s` fixed,
//! the weights by gradient descent (Adam, full batch). Fixing `s` fixes the unit of the
//! evaluation: the tuned weights stay in the game's unit, and what the search's margins assume
//! of it still holds. The gradient is summed over fixed chunks in parallel and the chunks' sums
//! added in order, so a fit is reproducible to the bit.

use rayon::prelude::*;

/// Positions per chunk of the parallel sums.
const CHUNK: usize = 4096;

/// Training positions: a dense matrix of features, one row per position, and the targets.
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// The number of features per position.
    pub width: usize,
    /// `rows * width` features, row after row.
    pub features: Vec<f64>,
    /// One target (the probability that the side to move wins) per row.
    pub targets: Vec<f64>,
}

impl Samples {
    /// An empty set of positions with `width` features each.
    pub fn new(width: usize) -> Samples {
        Samples { width, ..Samples::default() }
    }

    /// Adds a position.
    pub fn push(&mut self, features: &[i32], target: f64) {
        debug_assert_eq!(features.len(), self.width);
        self.features.extend(features.iter().map(|&f| f as f64));
        self.targets.push(target);
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.targets.len()
    }

    /// True when there are no positions.
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// The features of position `i`.
    fn row(&self, i: usize) -> &[f64] {
        &self.features[i * self.width..(i + 1) * self.width]
    }

    /// The evaluation of position `i` under `weights`.
    fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        self.row(i).iter().zip(weights).map(|(f, w)| f * w).sum()
    }

    /// Sums `term(i)` over the positions, in parallel chunks added in order.
    fn sum_in_chunks<T: Send>(&self, term: impl Fn(std::ops::Range<usize>) -> T + Sync + Send) -> Vec<T> {
        let chunks: Vec<_> = (0..self.len()).step_by(CHUNK).map(|a| a..(a + CHUNK).min(self.len())).collect();
        chunks.into_par_iter().map(term).collect()
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of predicting `p` when the target is `y`, with `p` kept off 0 and 1.
fn cross_entropy(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The mean loss of `weights` at `scale` over `samples` (0 for no samples).
pub fn loss(samples: &Samples, weights: &[f64], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let parts = samples.sum_in_chunks(|range| {
        range
            .map(|i| cross_entropy(sigmoid(samples.eval(i, weights) / scale), samples.targets[i]))
            .sum::<f64>()
    });
    parts.iter().sum::<f64>() / samples.len() as f64
}

/// The scale that minimises the loss of `weights`: a golden-section search on `ln s` over
/// `[1, 100000]` evaluation units, to a relative precision of about 1e-6.
pub fn fit_scale(samples: &Samples, weights: &[f64]) -> f64 {
    let f = |ln_s: f64| loss(samples, weights, ln_s.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.0f64, 100_000f64.ln());
    let (mut c, mut d) = (b - ratio * (b - a), a + ratio * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-6 {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The gradient of the mean loss with respect to the weights.
fn gradient(samples: &Samples, weights: &[f64], scale: f64) -> Vec<f64> {
    let width = samples.width;
    let parts = samples.sum_in_chunks(|range| {
        let mut g = vec![0.0; width];
        for i in range {
            // d/dw of the cross-entropy of sigmoid(w.f / s): (p - y) f / s.
            let error = sigmoid(samples.eval(i, weights) / scale) - samples.targets[i];
            for (gj, fj) in g.iter_mut().zip(samples.row(i)) {
                *gj += error * fj;
            }
        }
        g
    });
    let mut total = vec![0.0; width];
    for part in parts {
        for (t, p) in total.iter_mut().zip(part) {
            *t += p;
        }
    }
    let n = samples.len().max(1) as f64 * scale;
    total.iter_mut().for_each(|t| *t /= n);
    total
}

/// How a fit proceeds.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Full-batch steps.
    pub epochs: u32,
    /// Adam's step size at the start, in evaluation units; it decays linearly to a tenth.
    pub rate: f64,
}

/// The weights that minimise the loss at `scale`, by Adam from `start`; weights marked in
/// `frozen` keep their start values. `on_epoch(epoch, weights)` is called every 10% of the way.
pub fn fit_weights(
    samples: &Samples,
    start: &[f64],
    frozen: &[bool],
    scale: f64,
    schedule: Schedule,
    on_epoch: &mut dyn FnMut(u32, &[f64]),
) -> Vec<f64> {
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-12);
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let epochs = schedule.epochs.max(1);
    for t in 1..=epochs {
        let g = gradient(samples, &w, scale);
        let rate = schedule.rate * (1.0 - 0.9 * (t - 1) as f64 / epochs as f64);
        let (c1, c2) = (1.0 - beta1.powi(t as i32), 1.0 - beta2.powi(t as i32));
        for j in 0..w.len() {
            if frozen.get(j).copied().unwrap_or(false) {
                continue;
            }
            m[j] = beta1 * m[j] + (1.0 - beta1) * g[j];
            v[j] = beta2 * v[j] + (1.0 - beta2) * g[j] * g[j];
            w[j] -= rate * (m[j] / c1) / ((v[j] / c2).sqrt() + epsilon);
        }
        if t % (epochs / 10).max(1) == 0 {
            on_epoch(t, &w);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::rng::SplitMix64;

    /// Positions with small random integer features, their results drawn from the logistic
    /// model of `weights` at `scale`: the tuner must find that model again.
    fn labelled(weights: &[f64], scale: f64, n: usize, seed: u64) -> Samples {
        let mut rng = SplitMix64(seed);
        let mut samples = Samples::new(weights.len());
        for _ in 0..n {
            let f: Vec<i32> = (0..weights.len()).map(|_| rng.below(9) as i32 - 4).collect();
            let e: f64 = f.iter().zip(weights).map(|(&f, w)| f as f64 * w).sum();
            let p = sigmoid(e / scale);
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            samples.push(&f, if u < p { 1.0 } else { 0.0 });
        }
        samples
    }

    #[test]
    fn the_scale_of_the_true_weights_is_found() {
        let truth = [100.0, -40.0, 25.0, 0.0];
        let samples = labelled(&truth, 150.0, 40_000, 7);
        let scale = fit_scale(&samples, &truth);
        assert!((scale / 150.0 - 1.0).abs() < 0.05, "scale {scale}");
    }

    #[test]
    fn the_weights_of_the_labelling_model_are_recovered() {
        let truth = [100.0, -40.0, 25.0, 0.0, 60.0];
        let samples = labelled(&truth, 150.0, 40_000, 11);
        let start = [100.0, 0.0, 0.0, 30.0, 0.0];
        let frozen = [true, false, false, false, false];
        let schedule = Schedule { epochs: 1500, rate: 2.0 };
        let fitted = fit_weights(&samples, &start, &frozen, 150.0, schedule, &mut |_, _| {});
        assert_eq!(fitted[0], 100.0, "a frozen weight does not move");
        for (f, t) in fitted.iter().zip(truth) {
            assert!((f - t).abs() < 8.0, "fitted {fitted:?}, truth {truth:?}");
        }
        assert!(loss(&samples, &fitted, 150.0) < loss(&samples, &start, 150.0));
        // Reproducible to the bit.
        let again = fit_weights(&samples, &start, &frozen, 150.0, schedule, &mut |_, _| {});
        assert_eq!(fitted, again);
    }

    #[test]
    fn the_loss_is_the_mean_cross_entropy() {
        let mut samples = Samples::new(1);
        samples.push(&[0], 1.0);
        samples.push(&[2], 0.0);
        // e = 0 gives p = 1/2; e = 2 * 50 = 100 at scale 100 gives p = sigmoid(1).
        let expected = (2f64.ln() + -(1.0 - sigmoid(1.0)).ln()) / 2.0;
        assert!((loss(&samples, &[50.0], 100.0) - expected).abs() < 1e-12);
    }
}
