//! Unit and property tests of the line parser.

use super::*;
use proptest::prelude::*;

fn command(line: &str) -> Command {
    parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}")).command
}

fn ms(n: u64) -> Option<Duration> {
    Some(Duration::from_millis(n))
}

#[test]
fn handshake_and_simple_commands() {
    assert_eq!(command("uci"), Command::Hello(Dialect::Uci));
    assert_eq!(command("  ugi  "), Command::Hello(Dialect::Ugi));
    assert_eq!(command("isready"), Command::IsReady);
    assert_eq!(command("ucinewgame"), Command::NewGame);
    assert_eq!(command("uginewgame"), Command::NewGame);
    assert_eq!(command("stop"), Command::Stop);
    assert_eq!(command("ponderhit"), Command::PonderHit);
    assert_eq!(command("quit"), Command::Quit);
    assert_eq!(command("d"), Command::Display);
    assert_eq!(command("debug on"), Command::Debug(true));
    assert_eq!(command("debug off"), Command::Debug(false));
    assert_eq!(command("perft 3"), Command::Perft(3));
    assert_eq!(command("bench"), Command::Bench(None));
    assert_eq!(command("bench 4"), Command::Bench(Some(4)));
}

#[test]
fn line_ends_and_invalid_utf8() {
    assert_eq!(parse_bytes(b"isready\r\n").unwrap().command, Command::IsReady);
    assert_eq!(parse_bytes(b"isready\n").unwrap().command, Command::IsReady);
    assert_eq!(parse_bytes(b"\xff\xfe isready").unwrap().command, Command::IsReady);
    assert!(matches!(parse_bytes(b"\xff\xfe"), Err(ParseError::UnknownCommand(_))));
    assert_eq!(parse_bytes(b"\r\n"), Err(ParseError::Empty));
    assert_eq!(parse_bytes(b""), Err(ParseError::Empty));
}

#[test]
fn unknown_tokens_are_skipped_and_reported() {
    let parsed = parse_line("joho debug on").unwrap();
    assert_eq!(parsed.command, Command::Debug(true));
    assert_eq!(parsed.warnings, ["unknown token 'joho' ignored"]);
    let parsed = parse_line("isready now").unwrap();
    assert_eq!((parsed.command, parsed.warnings.len()), (Command::IsReady, 1));
    assert_eq!(parse_line("hello world"), Err(ParseError::UnknownCommand("hello".into())));
    let parsed = parse_line("go depth 3 fast").unwrap();
    assert_eq!(parsed.command, Command::Go(GoParams { depth: Some(3), ..GoParams::default() }));
    assert_eq!(parsed.warnings, ["go: unknown token 'fast' ignored"]);
}

#[test]
fn setoption_names_and_values_may_have_spaces() {
    assert_eq!(
        command("setoption name Hash value 128"),
        Command::SetOption { name: "Hash".into(), value: Some("128".into()) }
    );
    assert_eq!(
        command("setoption name Clear Hash"),
        Command::SetOption { name: "Clear Hash".into(), value: None }
    );
    assert_eq!(
        command("setoption name Some  Name value a  b"),
        Command::SetOption { name: "Some Name".into(), value: Some("a b".into()) }
    );
    assert_eq!(
        command("setoption name Hash value"),
        Command::SetOption { name: "Hash".into(), value: Some(String::new()) }
    );
    assert!(parse_line("setoption").is_err());
    assert!(parse_line("setoption Hash 3").is_err());
    assert!(parse_line("setoption name value 3").is_err());
}

#[test]
fn position_forms() {
    assert_eq!(
        command("position startpos"),
        Command::Position { start: StartPosition::StartPos, moves: vec![] }
    );
    assert_eq!(
        command("position startpos moves d2f4 g7f6"),
        Command::Position { start: StartPosition::StartPos, moves: vec!["d2f4".into(), "g7f6".into()] }
    );
    assert_eq!(
        command("position fen 8/8/8/8/8/8/8/w7  w moves a1b2"),
        Command::Position {
            start: StartPosition::Fen("8/8/8/8/8/8/8/w7 w".into()),
            moves: vec!["a1b2".into()]
        }
    );
    assert_eq!(
        command("position startpos moves"),
        Command::Position { start: StartPosition::StartPos, moves: vec![] }
    );
    assert!(parse_line("position").is_err());
    assert!(parse_line("position fen").is_err());
    assert!(parse_line("position fen moves a1").is_err());
    assert!(parse_line("position somewhere").is_err());
}

#[test]
fn go_forms_in_both_dialects() {
    let uci = command("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
    let ugi = command("go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 5");
    let expected = GoParams {
        wtime: ms(1000),
        btime: ms(2000),
        winc: ms(10),
        binc: ms(20),
        movestogo: Some(5),
        ..GoParams::default()
    };
    assert_eq!(uci, Command::Go(expected.clone()));
    assert_eq!(ugi, Command::Go(expected));
    assert_eq!(command("go movetime 50"), Command::Go(GoParams { movetime: ms(50), ..GoParams::default() }));
    assert_eq!(command("go nodes 5000"), Command::Go(GoParams { nodes: Some(5000), ..GoParams::default() }));
    assert_eq!(
        command("go ponder infinite"),
        Command::Go(GoParams { ponder: true, infinite: true, ..GoParams::default() })
    );
    assert_eq!(command("go wtime -50"), Command::Go(GoParams { wtime: ms(0), ..GoParams::default() }));
    assert_eq!(command("go"), Command::Go(GoParams::default()));
}

#[test]
fn go_reads_mate_and_searchmoves_up_to_the_next_keyword() {
    let parsed = parse_line("go searchmoves d2f4 e1f2 depth 4 mate 3").unwrap();
    let searchmoves = vec!["d2f4".to_string(), "e1f2".to_string()];
    assert_eq!(
        parsed.command,
        Command::Go(GoParams { depth: Some(4), mate: Some(3), searchmoves, ..GoParams::default() })
    );
    assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
    let bare = parse_line("go searchmoves infinite").unwrap();
    assert_eq!(bare.command, Command::Go(GoParams { infinite: true, ..GoParams::default() }));
    assert_eq!(bare.warnings, ["go: 'searchmoves' without moves is ignored"]);
    for bad in ["go mate", "go mate 0", "go mate -1", "go mate x"] {
        assert!(parse_line(bad).is_err(), "{bad}");
    }
}

#[test]
fn malformed_values_reject_the_line() {
    for line in ["go depth", "go depth x", "go depth -1", "go nodes 1e6", "go movetime", "perft", "perft x"] {
        assert!(parse_line(line).is_err(), "{line}");
    }
    assert!(parse_line("go wtime 99999999999999999999").is_err());
    assert!(parse_line("perft 3 4").is_err());
    assert!(parse_line("debug maybe").is_err());
    assert!(parse_line("debug").is_err());
}

#[test]
fn queries() {
    assert_eq!(command("query gameover"), Command::Query(Query::GameOver));
    assert_eq!(command("query p1turn"), Command::Query(Query::P1Turn));
    assert_eq!(command("query result"), Command::Query(Query::Result));
    assert_eq!(command("query fen"), Command::Query(Query::Fen));
    assert_eq!(command("query islegal d2f4"), Command::Query(Query::IsLegal("d2f4".into())));
    assert!(parse_line("query").is_err());
    assert!(parse_line("query islegal").is_err());
    assert!(parse_line("query weather").is_err());
}

#[test]
fn messages_are_one_short_line() {
    let long = "x".repeat(1 << 20);
    let error = parse_line(&format!("go depth {long}")).unwrap_err().to_string();
    assert!(error.len() < 200, "{error}");
    let error = parse_line("go depth \u{7}\r").unwrap_err().to_string();
    assert!(!error.chars().any(char::is_control), "{error:?}");
}

/// Tokens that make interesting lines: command words, keywords, numbers and junk.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "uci",
            "ugi",
            "isready",
            "debug",
            "on",
            "off",
            "setoption",
            "name",
            "value",
            "Hash",
            "ucinewgame",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "wtime",
            "p2inc",
            "movetime",
            "depth",
            "nodes",
            "infinite",
            "ponder",
            "searchmoves",
            "mate",
            "stop",
            "ponderhit",
            "query",
            "islegal",
            "gameover",
            "result",
            "d",
            "perft",
            "bench",
            "quit",
            "d2f4",
            "-1",
            "0",
            "18446744073709551616",
        ])
        .prop_map(str::to_string),
        "[0-9]{1,12}",
        "\\PC{0,8}",
    ]
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        if let Err(e) = parse_bytes(&bytes) {
            let message = e.to_string();
            prop_assert!(!message.contains('\n'));
        }
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(token(), 0..12)) {
        let line = tokens.join(" ");
        match parse_line(&line) {
            Ok(parsed) => prop_assert!(parsed.warnings.iter().all(|w| !w.contains('\n'))),
            Err(e) => prop_assert!(!e.to_string().contains('\n')),
        }
    }

    #[test]
    fn go_numbers_round_trip(depth in any::<u32>(), nodes in any::<u64>(), t in any::<i64>()) {
        let line = format!("go depth {depth} nodes {nodes} p1time {t}");
        let expected = GoParams {
            depth: Some(depth),
            nodes: Some(nodes),
            wtime: Some(Duration::from_millis(t.max(0) as u64)),
            ..GoParams::default()
        };
        prop_assert_eq!(parse_line(&line).unwrap().command, Command::Go(expected));
    }
}
