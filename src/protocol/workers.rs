//! The engine's long-lived threads: the search thread and the answering threads
//! ([`AnswerDesk`]), started at the first `go` and kept for the session.
//!
//! Why not a thread per `go`, which is simpler: starting and ending a thread maps and unmaps its
//! stack (32 MiB for a search), and a thread that changes the process's memory map holds a lock
//! that every other thread of the process needs to fault a page in or to start a thread. On a
//! busy machine that thread can be preempted while it holds the lock, and the real-time answerer
//! then waits behind it. Stockfish keeps its threads for the same reason of cost.

use super::answer::AnswerDesk;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Sender, channel};

/// The search thread's stack: the main search thread recurses one frame (with a move list) per
/// ply, like the helper threads, which get 16 MiB.
const SEARCH_STACK: usize = 32 << 20;

/// A piece of work for the search thread.
pub type Work = Box<dyn FnOnce() + Send + 'static>;

/// The thread that runs every search of the session, one after the other.
pub struct SearchThread {
    works: Sender<Work>,
}

impl SearchThread {
    /// Starts the thread. It always runs at the ordinary priority: a search computes, and at
    /// a real-time priority it would keep a processor from every other program.
    pub fn start() -> std::io::Result<SearchThread> {
        let (works, queue) = channel::<Work>();
        std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK).spawn(move || {
            // A thread inherits its creator's policy (the loop may wait at a real-time one).
            crate::realtime::release();
            for work in queue {
                // A failed search (a bug; release builds abort instead) must not end the
                // thread: its job drops its reporter and the answerer gives its offer.
                let _ = catch_unwind(AssertUnwindSafe(work));
            }
        })?;
        Ok(SearchThread { works })
    }

    /// Runs `work` on the thread, after the work given before; gives it back if the thread has
    /// ended.
    pub fn run(&self, work: Work) -> Result<(), Work> {
        self.works.send(work).map_err(|refused| refused.0)
    }
}

/// The threads of a session, each started when first needed (so that `uci` starts nothing)
/// and started again if it has ended.
#[derive(Default)]
pub struct Workers {
    desk: Option<AnswerDesk>,
    search: Option<SearchThread>,
}

impl Workers {
    /// The answering threads.
    pub fn desk(&mut self) -> std::io::Result<&AnswerDesk> {
        if self.desk.is_none() {
            self.desk = Some(AnswerDesk::start()?);
        }
        Ok(self.desk.as_ref().expect("just set"))
    }

    /// Forgets the answering threads (their first thread has ended): the next `go` starts new ones.
    pub fn drop_desk(&mut self) {
        self.desk = None;
    }

    /// Runs `work` on the search thread; gives it back, with the error, if no thread can run it.
    pub fn run_search(&mut self, work: Work) -> Result<(), (Work, std::io::Error)> {
        let work = match &self.search {
            Some(thread) => match thread.run(work) {
                Ok(()) => return Ok(()),
                Err(work) => work,
            },
            None => work,
        };
        match SearchThread::start() {
            Ok(thread) => {
                let ran = thread
                    .run(work)
                    .map_err(|work| (work, std::io::Error::other("the search thread has ended")));
                self.search = Some(thread);
                ran
            }
            Err(e) => Err((work, e)),
        }
    }
}
