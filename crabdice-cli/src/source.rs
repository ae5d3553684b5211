//! Reading puzzle input from a file or standard input.

use std::io::Read;
use std::path::Path;

use miette::{NamedSource, miette};

/// A puzzle input and the name to show in messages.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    /// Reads `path`, or standard input for `-`.
    pub fn read(path: &Path) -> miette::Result<Self> {
        let (name, bytes) = if path.as_os_str() == "-" {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| miette!("cannot read standard input: {e}"))?;
            ("<stdin>".to_owned(), bytes)
        } else {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| miette!("cannot read {name}: {e}"))?;
            (name, bytes)
        };
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Self { name, text }),
            Err(error) => {
                let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
                let line = valid.split(|&b| b == b'\n').count();
                Err(miette!("{name}: line {line}: the input is not UTF-8 text"))
            }
        }
    }

    /// Attaches this source to a library error, so that the report shows the
    /// file name and the offending line.
    pub fn error(&self, error: impl miette::Diagnostic + Send + Sync + 'static) -> miette::Report {
        miette::Report::new(error).with_source_code(NamedSource::new(&self.name, self.text.clone()))
    }
}
