//! The `crabdice` command line: a thin layer over the `crabdice` library.
//! It reads files, picks the engine, and prints answers as text or JSON.

mod cli;
mod combat;
mod dice;
mod failure;
mod output;
mod progress;
mod source;
mod timing;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Long messages stay on one line, so they can be searched for.
    let _ = miette::set_hook(Box::new(|_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(false).build())
    }));
    let cli = cli::Cli::parse();
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
