//! What the games of the GUI share: their ids and one signal of change that wakes the event
//! streams (`/api/events`) when any game changes.
//!
//! The signal is one count for all games: a stream woken by another game's change sends its
//! own game's state again, unchanged, and the page redraws only when a game's own version
//! (`Game::changed`) moved, never on a wake-up alone. The page also drops any state of a
//! game other than the one its tab shows (`accept` in `assets/app.js`): a stream, poll or
//! move answered after the tab moved on must not take it back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Counts every change of every game, with a condition variable that wakes the event streams
/// when one happens.
static CHANGES: (Mutex<u64>, Condvar) = (Mutex::new(0), Condvar::new());

/// The next game id: never reused, so that a tab's stored id can only find its own game.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh game id.
pub fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// Waits until some game has changed since `seen` (a count of all changes) or `timeout` has
/// passed; returns the current count.
pub fn wait_for_change(seen: u64, timeout: Duration) -> u64 {
    let (count, signal) = &CHANGES;
    let guard = lock(count);
    let (guard, _) =
        signal.wait_timeout_while(guard, timeout, |now| *now == seen).unwrap_or_else(|p| p.into_inner());
    *guard
}

/// The count of all changes so far.
pub fn changes() -> u64 {
    *lock(&CHANGES.0)
}

/// Tells the event streams that a game has changed.
pub fn notify() {
    let (count, signal) = &CHANGES;
    *lock(count) += 1;
    signal.notify_all();
}

/// Locks a mutex, recovering it if a thread panicked while holding it: a game's state is
/// always whole between two statements, and one failed request must not stop the server.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
