//! `yorimichi`: starts the game, or (natively) runs one of the headless
//! commands ([`yorimichi::cli`]).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    yorimichi::cli::main()
}

/// The web page says which game to open; the shell reads it.
#[cfg(target_arch = "wasm32")]
fn main() {
    yorimichi::run(yorimichi::shell::StartOptions::default());
}
