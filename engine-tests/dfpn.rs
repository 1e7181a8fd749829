//! `steere solve --prover dfpn` against the endgame suites, whose values come from independent
//! exhaustive solvers: df-pn's outcome, and the exact length found after it, must equal the
//! suite's value; on a HexDame draw line df-pn must never prove a win or a loss. A fast sample
//! of each suite runs by default, every line behind `#[ignore]`.

use steere::game::BoardRules;
use steere::search::dfpn::{Dfpn, DfpnLimits, Verdict};
use steere::search::{Limits, Searcher};
use steere::tools::epd::{Expectation, parse_text};
use steere::tools::solve::{Settings, solve_position_dfpn};
use steere::variants::Variant;

/// What a run over a suite found: lines checked, and those df-pn decided.
#[derive(Debug, Default)]
struct Tally {
    checked: usize,
    decided: usize,
    exact: usize,
}

/// Checks every `step`-th line of `text` with df-pn capped at `nodes` nodes.
fn check<G: BoardRules>(variant: Variant<G>, text: &str, step: usize, nodes: u64) -> Tally {
    let mut dfpn = Dfpn::<G>::new(16);
    let mut searcher = Searcher::<G>::new(16, 1);
    let mut tally = Tally::default();
    for (line, entry) in parse_text(variant, text).into_iter().step_by(step) {
        let entry = entry.unwrap_or_else(|e| panic!("line {line}: {e}"));
        let Some(expected) = entry.value else { continue };
        tally.checked += 1;
        let verdict = dfpn.solve(&entry.position, DfpnLimits { nodes: Some(nodes), deadline: None });
        match (expected, verdict) {
            (_, Verdict::Unknown) => continue,
            (Expectation::Win(_), Verdict::Win)
            | (Expectation::Loss(_), Verdict::Loss)
            | (Expectation::Draw, Verdict::NoWin) => {}
            (expected, found) => panic!("line {line}: {expected} expected, df-pn found {found:?}"),
        }
        tally.decided += 1;
        if expected == Expectation::Draw {
            continue;
        }
        let settings =
            Settings { limits: Limits { nodes: Some(50 * nodes), ..Limits::default() }, prove: true };
        let solution = solve_position_dfpn(&mut searcher, &mut dfpn, &entry.position, &settings);
        if solution.exact {
            tally.exact += 1;
            assert_eq!(Expectation::from_score(solution.score), Some(expected), "line {line}");
        }
    }
    tally
}

fn suite(name: &str) -> String {
    let path = format!("{}/positions/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn variant<G: BoardRules>(name: &str, params: G::Params) -> Variant<G> {
    Variant { info: steere::variants::find(name).unwrap(), params }
}

#[test]
fn dfpn_agrees_with_a_sample_of_the_impasse_suite() {
    let t = check(
        variant::<steere::impasse::Position>("impasse", ()),
        &suite("endgames-impasse.epd"),
        12,
        200_000,
    );
    assert!(t.decided * 2 >= t.checked && t.exact > 0, "{t:?}");
}

#[test]
fn dfpn_agrees_with_a_sample_of_the_dipole_suite() {
    let v = variant::<steere::dipole::Position>("dipole", steere::dipole::Variant::Dipole);
    let t = check(v, &suite("endgames-dipole.epd"), 8, 200_000);
    assert!(t.decided * 2 >= t.checked && t.exact > 0, "{t:?}");
}

#[test]
fn dfpn_agrees_with_a_sample_of_the_hexdame_suite_and_proves_nothing_on_draws() {
    let v = variant::<steere::hexdame::Position>("hexdame", ());
    let t = check(v, &suite("endgames-hexdame.epd"), 8, 100_000);
    assert!(t.checked > 0, "{t:?}");
}

#[test]
#[ignore = "every line of the suites: minutes"]
fn dfpn_agrees_with_the_whole_suites() {
    check(variant::<steere::impasse::Position>("impasse", ()), &suite("endgames-impasse.epd"), 1, 2_000_000);
    check(
        variant::<steere::impasse::Position>("impasse", ()),
        &suite("endgames-impasse-deep.epd"),
        1,
        2_000_000,
    );
    let v = variant::<steere::dipole::Position>("dipole", steere::dipole::Variant::Dipole);
    check(v, &suite("endgames-dipole.epd"), 1, 2_000_000);
    check(variant::<steere::hexdame::Position>("hexdame", ()), &suite("endgames-hexdame.epd"), 1, 2_000_000);
}
