mod cli_archive;
mod web_e2e;

// The archive commands, compiled into the tests too so that they are tested directly.
#[path = "../../src/cmd_archive.rs"]
#[allow(dead_code)]
mod cmd_archive;
