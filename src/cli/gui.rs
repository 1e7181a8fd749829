//! `steere gui`'s arguments: where it listens, which engines the page offers, and the limits
//! on the games it keeps.

/// `steere gui`: the arguments.
#[derive(clap::Args, Clone, Debug)]
pub struct GuiArgs {
    /// Port to listen on (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 7380)]
    pub port: u16,
    /// Address to listen on. The default, 127.0.0.1, is reachable from this machine only;
    /// anything else lets other machines play with your engines (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// An engine the page may choose, as NAME=COMMAND (the command is split like a shell splits
    /// words). Repeat for several. Default: this steere, as `steere`.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    pub engines: Vec<String>,
    /// Open the page in the default browser (xdg-open, open or start).
    #[arg(long)]
    pub open: bool,
    /// Seconds after which a game no page shows (no open page following it, no request for it)
    /// is left: its engine processes stop. The game is kept: opened again, it plays on, its
    /// engines starting again. A finished game's engines stop at once.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::gui::limits::IDLE_TIMEOUT.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout: u64,
    /// The most games in progress at once (neither over nor left). When that many are, a new
    /// game first counts as left the games no page has shown for 5 s, and is refused ("too
    /// many games in progress") if they are still that many.
    #[arg(long, value_name = "N", default_value_t = crate::gui::limits::MAX_GAMES as u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_games: u64,
    /// The directory of endgame tables (built by `steere tb build`): the analysis panel shows
    /// their verdict on the position and each move, and the engines that are this steere
    /// analyse with them (exact results at once). Games are played without them, so the
    /// levels keep their measured strength.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<std::path::PathBuf>,
}
