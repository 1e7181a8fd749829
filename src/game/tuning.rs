//! What the tuner (`steere tune`, `src/tools/tune.rs`) knows of a board game's evaluation: a
//! list of named features and the weights the engine gives them.
//!
//! Every board game's static evaluation is *linear*: `Game::evaluate(pos)` is exactly
//! `sum(weights[i] * features(pos)[i])`, in integers, from the side to move's point of view.
//! That is what makes the evaluation tunable by logistic regression on the results of games
//! (Texel's method): the tuner computes the features of each position once and fits the weights
//! without running the engine. Each game keeps its weights in a generated file of its own room
//! (`src/impasse/weights.rs`, ...), written by `steere tune --write`: a tuned evaluation is an
//! ordinary, reviewed change of that file.

use super::BoardRules;

/// A board game whose evaluation is a weighted sum of features (see the module docs).
pub trait LinearEval: BoardRules {
    /// The names of the features of a variant, in the order of [`LinearEval::features`] and of
    /// the weights (the generated file's comments and the tuner's report use them).
    fn feature_names(params: Self::Params) -> Vec<String>;
    /// The weights the engine uses for a variant, one per feature.
    fn weights(params: Self::Params) -> &'static [i32];
    /// The path, from the repository's root, of the generated file that holds a variant's
    /// weights (what `steere tune --write` rewrites), and the name of its constant.
    fn weights_file(params: Self::Params) -> (&'static str, &'static str);
    /// The features of this unfinished position from the side to move's point of view, one per
    /// name, such that `evaluate()` is their dot product with [`LinearEval::weights`].
    fn features(&self, out: &mut Vec<i32>);
}

/// The dot product of weights and features: what [`LinearEval`] promises `evaluate` equals.
pub fn dot(weights: &[i32], features: &[i32]) -> i32 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}
