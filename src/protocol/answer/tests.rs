//! The answerers' tests: deadlines, stops, the second waker, exactly one bestmove.

use super::*;
use std::io::Write;
use std::sync::Mutex;

/// A writer into a shared buffer (for the protocol's tests).
#[derive(Clone, Default)]
pub(in crate::protocol) struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// What was written.
    pub(in crate::protocol) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

fn start(hard: Option<u64>, control: &Arc<SearchControl>) -> (Answerer, Buffer) {
    let desk = AnswerDesk::start().unwrap();
    let (answerer, buffer) = start_at(&desk, hard, control, false);
    (answerer, buffer)
}

fn start_at(
    desk: &AnswerDesk,
    hard: Option<u64>,
    control: &Arc<SearchControl>,
    debug: bool,
) -> (Answerer, Buffer) {
    let buffer = Buffer::default();
    let deadline = Deadline { start: Instant::now(), hard: hard.map(Duration::from_millis) };
    let answerer = desk
        .answer(control.clone(), Output::new(buffer.clone()), deadline, "bestmove a".into(), debug)
        .unwrap();
    (answerer, buffer)
}

fn wait_answered(answerer: &Answerer) {
    let until = Instant::now() + Duration::from_secs(10);
    while !answerer.is_answered() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn the_search_answers_itself_and_nothing_follows() {
    let control = Arc::new(SearchControl::new());
    let (mut answerer, buffer) = start(None, &control);
    let reporter = answerer.take_reporter().unwrap();
    reporter.info("info depth 1".into());
    reporter.offer("bestmove b".into());
    reporter.done("bestmove c".into(), vec!["info string after".into()]);
    reporter.info("info depth 2".into());
    answerer.join();
    assert_eq!(buffer.text(), "info depth 1\nbestmove c\ninfo string after\n");
    assert!(!control.stop.load(SeqCst), "a search that answered itself is not stopped");
}

#[test]
fn the_deadline_gives_the_offer_and_stops_the_search() {
    let control = Arc::new(SearchControl::new());
    let started = Instant::now();
    let (mut answerer, buffer) = start(Some(30), &control);
    let reporter = answerer.take_reporter().unwrap();
    reporter.info("info depth 1".into());
    reporter.offer("bestmove b".into());
    wait_answered(&answerer);
    assert!(started.elapsed() >= Duration::from_millis(30));
    assert!(control.stop.load(SeqCst));
    // The search's late answer and lines are not written.
    reporter.info("info depth 9".into());
    reporter.done("bestmove z".into(), Vec::new());
    answerer.join();
    assert_eq!(buffer.text(), "info depth 1\nbestmove b\n");
}

#[test]
fn stop_gives_the_offer_at_once_and_the_fallback_before_any_offer() {
    let control = Arc::new(SearchControl::new());
    let (answerer, buffer) = start(None, &control);
    control.request_stop();
    wait_answered(&answerer);
    answerer.join();
    assert_eq!(buffer.text(), "bestmove a\n");
}

#[test]
fn a_search_that_ends_without_answering_gets_the_offer() {
    let control = Arc::new(SearchControl::new());
    let (mut answerer, buffer) = start(None, &control);
    let reporter = answerer.take_reporter().unwrap();
    reporter.offer("bestmove b".into());
    drop(reporter);
    answerer.join();
    assert_eq!(buffer.text(), "bestmove b\n");
}

#[test]
fn pondering_has_no_deadline_until_the_ponder_hit() {
    let control = Arc::new(SearchControl::new());
    control.pondering.store(true, SeqCst);
    let (answerer, buffer) = start(Some(0), &control);
    std::thread::sleep(Duration::from_millis(50));
    assert!(!answerer.is_answered(), "a deadline while pondering");
    control.ponderhit();
    wait_answered(&answerer);
    answerer.join();
    assert_eq!(buffer.text(), "bestmove a\n");
}

/// When the first answerer's thread does not run (its processor is held by the host), the
/// second waker gives the answer shortly after the deadline; the first, running again,
/// writes nothing more of that search, and takes the next one.
#[test]
fn the_second_waker_answers_when_the_first_answerer_is_held() {
    let desk = AnswerDesk::start().unwrap();
    if !desk.has_second_waker() {
        eprintln!("one processor only: no second waker to test");
        return;
    }
    let (hold, held) = channel::<()>();
    desk.first
        .send(Box::new(move || {
            let _ = held.recv();
        }))
        .unwrap();
    let control = Arc::new(SearchControl::new());
    let started = Instant::now();
    let (mut answerer, buffer) = start_at(&desk, Some(30), &control, true);
    let reporter = answerer.take_reporter().unwrap();
    // Sent to the held thread: not seen by the second waker, which gives the fallback.
    reporter.info("info depth 1".into());
    reporter.offer("bestmove b".into());
    wait_answered(&answerer);
    assert!(started.elapsed() >= Duration::from_millis(30) + SECOND_WAKER_DELAY);
    assert!(control.stop.load(SeqCst), "the second waker stops the search");
    assert!(!answerer.is_finished(), "the first answerer has not seen the search yet");
    hold.send(()).unwrap();
    reporter.done("bestmove c".into(), Vec::new());
    drop(reporter);
    answerer.join();
    let text = buffer.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "bestmove a", "{text}");
    assert!(
        lines[1].starts_with("info string debug: the second waker answered for the search at the deadline")
    );
    assert_eq!(lines.len(), 2, "{text}");
    // The next search is the first answerer's again.
    let control = Arc::new(SearchControl::new());
    let (mut answerer, buffer) = start_at(&desk, None, &control, false);
    answerer.take_reporter().unwrap().done("bestmove d".into(), Vec::new());
    answerer.join();
    assert_eq!(buffer.text(), "bestmove d\n");
}

/// However the search's own answer, the deadline and `stop` race (deadlines of 0 to 2 ms,
/// answers and stops at once), each search gets exactly one `bestmove`, and it is its last
/// line but for the lines of its own answer.
#[test]
fn one_bestmove_whatever_the_race() {
    let desk = AnswerDesk::start().unwrap();
    for round in 0..300u64 {
        let control = Arc::new(SearchControl::new());
        let (mut answerer, buffer) = start_at(&desk, Some(round % 3), &control, false);
        let reporter = answerer.take_reporter().unwrap();
        let stopper = control.clone();
        let search = std::thread::spawn(move || {
            for depth in 0..(round % 5) {
                reporter.info(format!("info depth {depth}"));
                reporter.offer(format!("bestmove m{depth}"));
            }
            if round % 2 == 0 {
                reporter.done("bestmove own".into(), vec!["info string after".into()]);
            }
        });
        if round % 7 == 0 {
            stopper.request_stop();
        }
        search.join().unwrap();
        answerer.join();
        let text = buffer.text();
        let lines: Vec<&str> = text.lines().collect();
        let answers: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 1, "round {round}: {text}");
        let rest = &lines[answers[0] + 1..];
        assert!(rest.is_empty() || rest == ["info string after"], "round {round}: {text}");
        if rest == ["info string after"] {
            assert_eq!(lines[answers[0]], "bestmove own");
        }
    }
}
