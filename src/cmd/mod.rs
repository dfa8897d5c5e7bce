//! One module per command: its arguments and its `run`, which answers how it ended
//! ([`Status`](crate::error::Status)) or why it could not ([`Error`](crate::error::Error)).

pub mod arena;
pub mod bot;
pub mod contribution;
pub mod convert;
pub mod demo;
pub mod digest;
pub mod export;
pub mod import;
pub mod ingest;
pub mod jobs;
pub mod keygen;
pub mod plot;
pub mod report;
pub mod score;
pub mod serve;
pub mod show;
pub mod sign;
pub mod simulate;
pub mod stats;
pub mod token;
pub mod tournament;
pub mod validate;
pub mod verify;
pub mod verify_tournament;
pub mod worker;
