//! The `crabdice` command line: a thin layer over the `crabdice` library.
//! It reads files, picks the engine, and prints answers as text or JSON.
//!
//! `main` installs miette's report handler, parses the arguments with clap
//! and hands them to [`cli::run`]; [`failure`] turns what went wrong into a
//! message on standard error and the exit status (1 for an error, 2 for a
//! usage error, 0 when the reader closed standard output). Modules by
//! concern: [`cli`] (flags and the run), [`source`] (reading input),
//! [`combat`] and [`dice`] (each game's parts), [`compare`] (`--engine
//! all`), [`output`] (text and JSON), [`timing`] (`--time`) and
//! [`progress`] (a status line on a terminal).

mod cli;
mod combat;
mod compare;
mod dice;
mod failure;
mod output;
mod progress;
mod source;
mod timing;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Long messages stay on one line, so they can be searched for, and
    // that line is the first (no code above it).
    let _ = miette::set_hook(Box::new(|_| {
        Box::new(failure::Uncoded(Box::new(
            miette::MietteHandlerOpts::new().wrap_lines(false).build(),
        )))
    }));
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // `--help` and `--version` go to standard output: a failed
            // write is reported as any other (a full disk is an error, a
            // closed pipe is not). Usage errors go to standard error, and
            // keep their status (2) whatever becomes of the message.
            let code = ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
            return match error.print() {
                Err(write) if !error.use_stderr() => failure::Failure::from(write).report(),
                _ => code,
            };
        }
    };
    match cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
