//! Counts by fault category as a shard's tally stores them, read back leniently.
//!
//! A shard's JSON holds its tally whole (src/tools/matches/runner/shards.rs), counts by category among
//! them, one array per engine in the order of [`crate::tools::matches::record::Category::ALL`]. New categories
//! are added at the end (`protocol` came after `crash`), so the shards of a match played by an
//! older build hold shorter arrays: they are read with the missing counts zero, and still merge.
//! A longer array (a newer build's) is an error, not a silent loss of counts.

use serde::de::{Deserialize, Deserializer, Error};

/// Reads `[[u64; N]; 2]` (a board match's losses by reason) from arrays of at most `N` counts.
pub fn pair<'de, D: Deserializer<'de>, const N: usize>(deserializer: D) -> Result<[[u64; N]; 2], D::Error> {
    let rows = Vec::<Vec<u64>>::deserialize(deserializer)?;
    let [first, second]: [Vec<u64>; 2] =
        rows.try_into().map_err(|rows: Vec<_>| D::Error::invalid_length(rows.len(), &"two engines"))?;
    Ok([padded::<D, N>(first)?, padded::<D, N>(second)?])
}

/// Reads `Vec<[u64; N]>` (a dice match's forfeits by fault) from arrays of at most `N` counts.
pub fn each<'de, D: Deserializer<'de>, const N: usize>(deserializer: D) -> Result<Vec<[u64; N]>, D::Error> {
    Vec::<Vec<u64>>::deserialize(deserializer)?.into_iter().map(padded::<D, N>).collect()
}

/// The counts with zeros for the categories they lack.
fn padded<'de, D: Deserializer<'de>, const N: usize>(counts: Vec<u64>) -> Result<[u64; N], D::Error> {
    if counts.len() > N {
        return Err(D::Error::invalid_length(counts.len(), &"no more counts than categories"));
    }
    let mut out = [0; N];
    out[..counts.len()].copy_from_slice(&counts);
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    struct Counts {
        #[serde(deserialize_with = "super::pair")]
        pair: [[u64; 3]; 2],
        #[serde(deserialize_with = "super::each")]
        each: Vec<[u64; 3]>,
    }

    #[test]
    fn shorter_arrays_are_padded_and_longer_ones_refused() {
        let counts: Counts = serde_json::from_str(r#"{"pair":[[1,2],[3,4,5]],"each":[[6],[]]}"#).unwrap();
        assert_eq!(counts.pair, [[1, 2, 0], [3, 4, 5]]);
        assert_eq!(counts.each, vec![[6, 0, 0], [0, 0, 0]]);
        assert!(serde_json::from_str::<Counts>(r#"{"pair":[[1,2,3,4],[]],"each":[]}"#).is_err());
        assert!(serde_json::from_str::<Counts>(r#"{"pair":[[1]],"each":[]}"#).is_err());
    }
}
