// TEMPORARY: compile-only stand-ins until the Dipole and HexDame rooms implement LinearEval.
use crate::game::{Game, LinearEval};
impl LinearEval for crate::dipole::Position {
    fn feature_names(_: crate::dipole::Variant) -> Vec<String> {
        vec!["all".into()]
    }
    fn weights(_: crate::dipole::Variant) -> &'static [i32] {
        &[1]
    }
    fn weights_file(_: crate::dipole::Variant) -> (&'static str, &'static str) {
        ("x", "X")
    }
    fn features(&self, out: &mut Vec<i32>) {
        out.clear();
        out.push(self.evaluate());
    }
}
