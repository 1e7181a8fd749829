//! Match statistics: Elo difference with a 95% interval, likelihood of superiority, and the
//! sequential probability ratio test (SPRT), all on game pairs.
//!
//! **Pairs.** Every opening is played twice with the colours swapped, and the two games are
//! correlated (a lopsided opening tends to win both games for the side that has it). So, as
//! fishtest and fastchess do, the statistics treat a **pair** as one observation: its score for
//! engine 1 is 0, 1/4, 1/2, 3/4 or 1 (the points of the two games divided by 2). The counts of
//! the five outcomes are the **pentanomial** `[LL, LD, LW+DD, WD, WW]`. Impasse and Dipole have
//! no draws, so only `LL`, `LW` and `WW` occur there; HexDame's draws fill the other two, and the
//! formulas are the general ones.
//!
//! **Elo** (fishtest `stat_util.get_elo`): with `N` pairs, mean pair score `mu` and variance
//! `var = sum p_i (x_i - mu)^2` of the pair scores, the standard error of `mu` is
//! `sqrt(var / N)`, the 95% interval of the score is `mu +- 1.959964 * sqrt(var / N)`, and each
//! score converts to logistic Elo by `elo(s) = -400 log10(1/s - 1)` (scores are clamped to
//! [0.001, 0.999], so a clean sweep reads +1200 rather than infinity). The interval printed is
//! half the width between `elo(mu_max)` and `elo(mu_min)`. The **LOS** (likelihood of
//! superiority) is `Phi((mu - 1/2) / sqrt(var / N))`, `Phi` the standard normal distribution.
//!
//! **SPRT** (fishtest `LLRcalc.LLR_logistic`, the generalised SPRT of Michel Van den Bergh;
//! fastchess computes the same): H0 "the Elo difference is elo0" against H1 "it is elo1", in
//! logistic Elo, so the expected pair scores are `s_j = 1 / (1 + 10^(-elo_j / 400))`. The
//! log-likelihood ratio is
//!
//! ```text
//! LLR = N * sum_i p_i * ln(P1_i / P0_i)
//! ```
//!
//! where `p_i` is the observed frequency of pair score `x_i` (zero counts replaced by 0.001,
//! fishtest's regularisation, so that no log is infinite) and `Pj` is the maximum-likelihood
//! distribution on the same five scores whose mean is `s_j`: `Pj_i = p_i / (1 + theta (x_i -
//! s_j))`, with `theta` the root of the secular equation `sum_i p_i (x_i - s_j) / (1 + theta
//! (x_i - s_j)) = 0` (Van den Bergh, "Maximum likelihood estimation for multinomial
//! distributions", <https://www.cantate.be/Fishtest/support_MLE_multinomial.pdf>, Proposition
//! 1.1). The function is strictly decreasing in `theta` between its poles, so bisection finds the
//! root. The test stops when `LLR >= ln((1 - beta) / alpha)` (H1 accepted: engine 1 is better by
//! about elo1) or `LLR <= ln(beta / (1 - alpha))` (H0 accepted: it is not better by elo1):
//! Wald's bounds, +-2.944 for alpha = beta = 0.05.

/// The 97.5% quantile of the standard normal distribution.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// Pair counts by engine 1's pair score: index `k` is a pair score of `k/4`, i.e. `k` half
/// points out of 2 games (`[LL, LD, LW+DD, WD, WW]`).
pub type Pentanomial = [u64; 5];

/// The pentanomial index of a pair in which engine 1 scored `half_points` half points over its
/// 2 games (2 a win, 1 a draw): 0 (LL) to 4 (WW).
pub fn pair_index(half_points: u32) -> usize {
    half_points.min(4) as usize
}

/// The expected score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo difference of an expected score, clamped to [0.001, 0.999].
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The standard normal cumulative distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function, to about 1e-15 (a continued fraction for large
/// arguments, the power series of erf for small ones).
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum_n (-1)^n x^(2n+1) / (n! (2n+1))
        let (mut term, mut sum, mut n) = (x, x, 0.0);
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        return 1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum;
    }
    // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + ...))))), evaluated
    // from the tail (60 levels are plenty for x >= 2.5).
    let mut f = x;
    for k in (1..=60).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// Elo difference with its 95% interval and the likelihood of superiority.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Logistic Elo difference, engine 1 minus engine 2.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub error95: f64,
    /// Likelihood of superiority of engine 1, 0..1.
    pub los: f64,
    /// Mean pair score (engine 1's score fraction).
    pub score: f64,
}

/// The pair scores and observed frequencies of a pentanomial.
fn distribution(penta: &Pentanomial, regularise: bool) -> (f64, [(f64, f64); 5]) {
    let counts = penta.map(|n| if regularise && n == 0 { 1e-3 } else { n as f64 });
    let total: f64 = counts.iter().sum();
    let mut pdf = [(0.0, 0.0); 5];
    for (k, slot) in pdf.iter_mut().enumerate() {
        *slot = (k as f64 / 4.0, counts[k] / total);
    }
    (total, pdf)
}

/// The mean and variance of a distribution given as (value, probability) pairs.
pub fn mean_variance(pdf: &[(f64, f64)]) -> (f64, f64) {
    let mean: f64 = pdf.iter().map(|(x, p)| x * p).sum();
    let var = pdf.iter().map(|(x, p)| p * (x - mean) * (x - mean)).sum();
    (mean, var)
}

/// Elo, interval and LOS from pair counts (see the module docs); `None` without pairs.
pub fn elo_estimate(penta: &Pentanomial) -> Option<EloEstimate> {
    let pairs: u64 = penta.iter().sum();
    if pairs == 0 {
        return None;
    }
    let (_, pdf) = distribution(penta, false);
    let (mu, var) = mean_variance(&pdf);
    let se = (var / pairs as f64).sqrt();
    let los = if se > 0.0 {
        phi((mu - 0.5) / se)
    } else {
        // Every pair scored the same: no spread, so certainty either way (or none at 1/2).
        match mu.partial_cmp(&0.5) {
            Some(std::cmp::Ordering::Greater) => 1.0,
            Some(std::cmp::Ordering::Less) => 0.0,
            _ => 0.5,
        }
    };
    let (low, high) = (mu - Z_975 * se, mu + Z_975 * se);
    Some(EloEstimate {
        elo: elo_of_score(mu),
        error95: (elo_of_score(high) - elo_of_score(low)) / 2.0,
        los,
        score: mu,
    })
}

/// The one-sided 95% bound of a match in which every complete unit (pair, dice stream) went
/// the same way: then the sample has no spread, the normal interval of [`elo_estimate`] has
/// width zero, and only a bound means anything.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneSided {
    /// True when engine 1 won every game (the bound is a lower one), false when it lost every
    /// game (an upper one).
    pub won: bool,
    /// The bound, in logistic Elo (engine 1 minus engine 2).
    pub elo: f64,
    /// The units it rests on.
    pub units: u64,
}

/// The one-sided 95% bound when engine 1 scored 100% or 0% over the complete units of
/// `penta`, else `None`. With `N` independent units all won (`WW`), the chance `q` of a unit
/// being won satisfies `q^N >= 0.05` at 95% confidence, so `q >= 0.05^(1/N)` (the exact,
/// Clopper-Pearson, one-sided bound for N successes in N trials); the expected score is at
/// least `q`, whatever the correlation of the games within a unit, so the Elo is at least
/// `elo(0.05^(1/N))`. A clean loss mirrors it.
pub fn one_sided_bound(penta: &Pentanomial) -> Option<OneSided> {
    let units: u64 = penta.iter().sum();
    let won = units > 0 && penta[4] == units;
    let lost = units > 0 && penta[0] == units;
    if !(won || lost) {
        return None;
    }
    let bound = elo_of_score(0.05f64.powf(1.0 / units as f64));
    Some(OneSided { won, elo: if won { bound } else { -bound }, units })
}

/// The generalised log-likelihood ratio, divided by the number of observations, of "the mean
/// is `s1`" against "the mean is `s0`" for the empirical distribution `pdf` (value,
/// probability pairs with positive probabilities and values on both sides of `s0` and `s1`).
pub fn llr_per_observation(pdf: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let p0 = mle_with_mean(pdf, s0);
    let p1 = mle_with_mean(pdf, s1);
    pdf.iter().zip(p0.iter().zip(&p1)).map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln())).sum()
}

/// The maximum-likelihood distribution on the values of `pdf` with mean `s` (see the module
/// docs): `p_i / (1 + theta (x_i - s))` with `theta` the root of the secular equation.
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let secular = |theta: f64| pdf.iter().map(|&(x, p)| p * (x - s) / (1.0 + theta * (x - s))).sum::<f64>();
    let lowest = pdf.iter().map(|&(x, _)| x - s).fold(f64::INFINITY, f64::min);
    let highest = pdf.iter().map(|&(x, _)| x - s).fold(f64::NEG_INFINITY, f64::max);
    // Poles at -1/highest (secular -> +inf) and -1/lowest (-> -inf); the root lies between.
    let (mut lo, mut hi) = (-1.0 / highest, -1.0 / lowest);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if secular(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    pdf.iter().map(|&(x, p)| p / (1.0 + theta * (x - s))).collect()
}

/// The SPRT's parameters: H0 elo = `elo0` against H1 elo = `elo1` (logistic Elo), with error
/// rates `alpha` (accepting H1 when H0 holds) and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
}

/// The SPRT's state after some pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound was reached: H0 accepted (engine 1 is not better by elo1).
    H0,
    /// The upper bound was reached: H1 accepted (engine 1 is better by about elo1 or more).
    H1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any order; alpha and beta default to
    /// 0.05, elo0 to 0, elo1 to 10).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        for word in words {
            let (key, value) =
                word.split_once('=').ok_or_else(|| format!("--sprt: '{word}' is not KEY=VALUE"))?;
            let value: f64 = value.parse().map_err(|_| format!("--sprt: {key}='{value}' is not a number"))?;
            if !value.is_finite() {
                return Err(format!("--sprt: {key} must be finite"));
            }
            match key {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                _ => return Err(format!("--sprt: unknown key '{key}' (expected elo0, elo1, alpha, beta)")),
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err("--sprt: elo0 must be below elo1".to_string());
        }
        if !(sprt.alpha > 0.0 && sprt.beta > 0.0 && sprt.alpha + sprt.beta < 1.0) {
            return Err("--sprt: alpha and beta must be positive with alpha + beta < 1".to_string());
        }
        if sprt.elo0.abs() >= 1000.0 || sprt.elo1.abs() >= 1000.0 {
            return Err("--sprt: elo0 and elo1 must lie within +-1000".to_string());
        }
        Ok(sprt)
    }

    /// Wald's bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pairs so far (0 without pairs).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let (total, pdf) = distribution(penta, true);
        total * llr_per_observation(&pdf, score_of_elo(self.elo0), score_of_elo(self.elo1))
    }

    /// The verdict for a log-likelihood ratio.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The SPRT's state for reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The test.
    pub sprt: Sprt,
    /// The log-likelihood ratio of the pairs so far.
    pub llr: f64,
    /// Its verdict.
    pub verdict: Verdict,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_has_a_one_sided_bound() {
        // 10 pairs all won: q >= 0.05^(1/10) = 0.741134, Elo >= -400 log10(1/0.741134 - 1)
        // = +182.729 (computed by hand with a calculator, not by this code).
        let won = one_sided_bound(&[0, 0, 0, 0, 10]).unwrap();
        assert!(won.won && won.units == 10 && (won.elo - 182.729).abs() < 1e-3, "{won:?}");
        let lost = one_sided_bound(&[3, 0, 0, 0, 0]).unwrap();
        // 3 pairs all lost: engine 2 wins a pair with q >= 0.05^(1/3) = 0.368403, so engine 1's
        // Elo is at most 400 log10(1/0.368403 - 1) = +93.647: three pairs do not even prove it
        // weaker.
        assert!(!lost.won && (lost.elo - 93.647).abs() < 1e-3, "{lost:?}");
        // Anything but a clean sweep, or nothing at all, has no one-sided bound.
        assert_eq!(one_sided_bound(&[0, 0, 1, 0, 9]), None);
        assert_eq!(one_sided_bound(&[0, 0, 0, 0, 0]), None);
    }
}
