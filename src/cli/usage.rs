//! The command line's usage errors in one line, as the README promises for every error:
//! `error: invalid value '-1' for '--depth <DEPTH>': ... (see 'steere perft --help')`.
//!
//! clap prints a usage error as a paragraph, a blank line, the usage and a pointer to `--help`
//! (four lines or more). Here the first paragraph (the error itself, with the arguments it
//! lists) is joined into one line and the pointer names the subcommand's help; help and version
//! requests still print in full. Numbers may be negative where a value is expected, so that
//! `--depth -1` is an invalid value rather than an unknown flag.

use clap::error::ErrorKind;
use clap::{ArgMatches, Command};

/// Parses the process's arguments with `command`, or ends the process: help and version as
/// clap prints them, a usage error in one line on stderr with clap's status (2).
pub fn parse(command: Command) -> ArgMatches {
    let command = negative_numbers_are_values(command);
    match command.clone().try_get_matches() {
        Ok(matches) => matches,
        Err(error) => {
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                error.exit();
            }
            let args: Vec<String> = std::env::args().skip(1).collect();
            eprintln!("{}", one_line(&error.render().to_string(), &help_command(&command, &args)));
            std::process::exit(error.exit_code());
        }
    }
}

/// Lets every argument that takes a value accept a negative number as one (then refused by its
/// parser with the value named), in `command` and all its subcommands.
fn negative_numbers_are_values(command: Command) -> Command {
    command
        .mut_args(|arg| if arg.get_action().takes_values() { arg.allow_negative_numbers(true) } else { arg })
        .mut_subcommands(negative_numbers_are_values)
}

/// The command whose help explains the error: `steere` and the subcommands that lead the
/// arguments (`steere match merge`).
fn help_command(command: &Command, args: &[String]) -> String {
    let mut path = vec![command.get_name().to_string()];
    let mut current = command;
    for arg in args {
        match current.find_subcommand(arg) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                current = sub;
            }
            None => break,
        }
    }
    path.join(" ")
}

/// clap's rendered error as one line: its first paragraph, the lines joined by spaces, and a
/// pointer to `help_command --help`.
fn one_line(rendered: &str, help_command: &str) -> String {
    let paragraph: Vec<&str> = rendered.lines().map(str::trim).take_while(|line| !line.is_empty()).collect();
    let text = paragraph.join(" ");
    let text = if text.is_empty() { "error: invalid arguments".to_string() } else { text };
    format!("{text} (see '{help_command} --help')")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_paragraph_makes_the_line() {
        let rendered = "error: the following required arguments were not provided:\n  --depth <DEPTH>\n\nUsage: steere perft --depth <DEPTH>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line(rendered, "steere perft"),
            "error: the following required arguments were not provided: --depth <DEPTH> (see 'steere perft --help')"
        );
    }
}
