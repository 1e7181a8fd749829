//! How large a transposition table may be: the one rule of every place that takes a size from
//! the user (`setoption name Hash`, `--hash` of `analyse`, `bench`, `solve` and `codingame`).
//!
//! A size is accepted when it is at most [`MAX_HASH_MIB`] and fits the memory the system has
//! available (Linux `/proc/meminfo`'s `MemAvailable`, counting the memory a table being
//! replaced gives back; elsewhere no check). The allocation itself is then fallible as well
//! ([`super::tt::TranspositionTable::try_new`]): a refused size is a one-line error, never an
//! abort ("memory allocation of N bytes failed") or the out-of-memory killer, since a table is
//! filled at once (every page touched) and so must really be there.

/// The largest table accepted, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;

/// Checks a table of `mib` MiB, with `freed_mib` MiB given back first (the table it replaces):
/// the reason it is refused, in one line, naming the size.
pub fn check(mib: usize, freed_mib: usize) -> Result<(), String> {
    check_against(mib, freed_mib, available_memory_mib())
}

/// [`check`] with `available` MiB of memory (`None`: unknown, not checked).
fn check_against(mib: usize, freed_mib: usize, available: Option<usize>) -> Result<(), String> {
    if !(1..=MAX_HASH_MIB).contains(&mib) {
        return Err(format!("{mib} MiB is out of range 1..{MAX_HASH_MIB}"));
    }
    match available.map(|a| a.saturating_add(freed_mib)) {
        Some(available) if mib > available => Err(format!(
            "cannot allocate {mib} MiB: only {available} MiB of memory is available; choose a smaller table"
        )),
        _ => Ok(()),
    }
}

/// `MemAvailable` of `/proc/meminfo` in MiB, if the system has it.
fn available_memory_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_out_of_range_or_beyond_the_memory_are_refused() {
        assert_eq!(check(0, 0), Err("0 MiB is out of range 1..65536".to_string()));
        assert!(check(MAX_HASH_MIB + 1, 0).unwrap_err().contains("out of range"));
        assert_eq!(check(1, 0), Ok(()));
        assert_eq!(
            check_against(4096, 0, Some(1000)),
            Err("cannot allocate 4096 MiB: only 1000 MiB of memory is available; choose a smaller table"
                .into())
        );
        assert_eq!(check_against(4096, 3096, Some(1000)), Ok(()), "the table replaced gives its memory back");
        assert_eq!(check_against(MAX_HASH_MIB, 0, None), Ok(()), "unknown memory is not checked");
    }
}
