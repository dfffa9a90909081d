//! docs/command-line.md, written from the command line's own help so that
//! the page cannot drift from the program: every command's `--help`, in
//! the order `yorimichi --help` lists them. A test compares the page with
//! the file; `make command-line-doc` writes it.

use clap::CommandFactory;

use super::Cli;

/// The page's opening, before the generated part.
const INTRO: &str = "\
# The command line

[Handbook](README.md) · the 中将棋 engine commands in detail: [chushogi-engine.md](chushogi-engine.md)

<!-- Written by `make command-line-doc` from the program's own help; a test
in tests/cli fails when it differs. Edit the doc comments in src/cli/, not
this page. -->

Every command below is shown with its whole `--help`, as `yorimichi help
<command>` prints it. Levels are `easy`, `normal`, `strong`. Bad arguments
print the message and the command's usage and exit with status 2;
whole-number options refuse anything else (`--games 0.5`). A command whose
output pipe closes (`yorimichi perft … | head`) stops quietly. `serve` and
`bench-rooms` need the room server, built with `--features server` (as `make
install`, `make serve` and `make test` build it). The commands that only the
native build needs are compiled out of the web version.
";

/// Where each command is explained at length.
const MORE: &[(&str, &str)] = &[
    (
        "`yorimichi`, `--game`, `--position`, `--review`, `--join`, `--server`",
        "[playing.md](playing.md#starting-from-the-command-line)",
    ),
    ("`solve musashi`", "[musashi-solver.md](musashi-solver.md)"),
    (
        "`solve chushogi`, `perft`, `moves`, `convert`, `engine`, `usi`, `match`",
        "[chushogi-engine.md](chushogi-engine.md)",
    ),
    (
        "`problems`",
        "[architecture.md](architecture.md#中将棋s-problems)",
    ),
    (
        "`selfplay`, `bench`",
        "[strength.md](strength.md), [performance.md](performance.md)",
    ),
    (
        "`selfplay mawari`, `dice`",
        "[mawari-dice.md](mawari-dice.md)",
    ),
    ("`check`", "[architecture.md](architecture.md#level-files)"),
    ("`serve`, `bench-rooms`", "[rooms.md](rooms.md)"),
    (
        "`screenshot`, `frames`",
        "[screenshots.md](screenshots.md), [performance.md](performance.md#frame-times-native)",
    ),
];

/// The whole of docs/command-line.md.
pub fn command_line_page() -> String {
    let mut cli = Cli::command();
    // Gives every command its full name (`yorimichi solve`) in its usage.
    cli.build();
    let mut page = String::from(INTRO);
    let names: Vec<String> = cli
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|name| name != "help")
        .collect();
    page.push_str("\n| command | what it does |\n|---|---|\n");
    page.push_str("| [`yorimichi`](#yorimichi) | the game itself |\n");
    for command in cli.get_subcommands().filter(|c| c.get_name() != "help") {
        let about = command
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let name = command.get_name();
        page.push_str(&format!(
            "| [`{name}`](#yorimichi-{name}) | {} |\n",
            about.trim_end_matches('.').replace('|', "\\|")
        ));
    }
    section(&mut page, "yorimichi", &mut cli);
    for name in names {
        if let Some(command) = cli.find_subcommand_mut(&name) {
            section(&mut page, &format!("yorimichi {name}"), command);
        }
    }
    page.push_str("\n## Where each command is explained\n\n| command | more |\n|---|---|\n");
    for (commands, more) in MORE {
        page.push_str(&format!("| {commands} | {more} |\n"));
    }
    page
}

fn section(page: &mut String, title: &str, command: &mut clap::Command) {
    let help = command.render_long_help().to_string();
    let help: Vec<&str> = help.lines().map(str::trim_end).collect();
    page.push_str(&format!(
        "\n## `{title}`\n\n```text\n{}\n```\n",
        help.join("\n").trim_end()
    ));
}
