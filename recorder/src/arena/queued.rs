//! Arena matches as the workers' jobs (issue 29; docs/archive.md, "Arena matches as jobs"):
//! `paifu arena --queue` splits a match into [`MatchJob`]s (one per game, or one per deal of a
//! duplicate match holding all its rotations), and `paifu worker` plays each one it takes with
//! the arena's host ([`Setup::play`]), then stores its games in one transaction.
//!
//! A job names its bots by **name** only. The worker runs the command it was given itself for
//! that name (`paifu worker --bot NAME=CMD`), in the sandbox its own flags make: nothing a job
//! holds is ever run or decides how the bots are confined ([`MatchJob::plan`]). A job is read
//! with unknown fields refused, so a row that carries a command or a sandbox setting is not a
//! job any worker plays.

use super::matches::{Folder, MatchError, Plan, ProtocolMaker, Setup, Watch};
use super::sandbox::Sandbox;
use paifu_core::games::Registered;
use paifu_core::log::Options;
use paifu_core::{Digest, Seed};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One job of a queued match: the match's plan without its commands or sandbox, and the games
/// this job plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchJob {
    /// The match's name: its games are stored as `LABEL/game-0003.paifu.jsonl`.
    pub label: String,
    pub game: String,
    pub ruleset: String,
    #[serde(default)]
    pub options: Options,
    /// The bots by name, in the plan's order (bot `b` sits at seat `(b + k - 1) mod seats` in
    /// game `k`): each the name of a bot a worker was given, never a command.
    pub bots: Vec<String>,
    /// The players' names in the logs, one per bot.
    pub names: Vec<String>,
    pub protocol: String,
    /// The match's games (a duplicate match's: its deals times its seats).
    pub games: u32,
    pub decision_ms: u64,
    pub game_ms: u64,
    pub policy: String,
    #[serde(default)]
    pub commitments: Option<Digest>,
    #[serde(default)]
    pub duplicate: bool,
    /// The games this job plays, by number (1-based): one, or every rotation of one deal.
    pub numbers: Vec<u32>,
}

/// What a bot's name may hold: letters, digits, `-`, `_`, `.`, at most 64 (so that a name is
/// never mistaken for a command, and reads plainly in `paifu jobs`).
pub fn check_bot_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{name:?} is not a bot's name: a name is 1 to 64 letters, digits, '-', '_' or '.' (the command is the \
             worker's own: paifu worker --bot NAME=CMD)"
        ))
    }
}

/// The worker's own side of a match: how its bots are confined.
#[derive(Clone, Debug)]
pub struct Confinement {
    pub sandbox: bool,
    pub allow: Vec<PathBuf>,
    pub bot_memory_mb: u64,
}

impl MatchJob {
    /// The jobs of a match whose `plan.bots` are bot names: one per game, or with
    /// `plan.duplicate` one per deal holding its `seats` rotations.
    pub fn split(plan: &Plan, label: &str) -> Result<Vec<MatchJob>, MatchError> {
        for b in &plan.bots {
            check_bot_name(b).map_err(MatchError::Plan)?;
        }
        let per = if plan.duplicate { plan.bots.len().max(1) as u32 } else { 1 };
        let job = |numbers: Vec<u32>| MatchJob {
            label: label.to_owned(),
            game: plan.game.clone(),
            ruleset: plan.ruleset.clone(),
            options: plan.options.clone(),
            bots: plan.bots.clone(),
            names: plan.names.clone(),
            protocol: plan.protocol.clone(),
            games: plan.games,
            decision_ms: plan.decision_ms,
            game_ms: plan.game_ms,
            policy: plan.policy.clone(),
            commitments: plan.commitments,
            duplicate: plan.duplicate,
            numbers,
        };
        Ok((0..plan.games.div_ceil(per))
            .map(|i| job((i * per + 1..=((i + 1) * per).min(plan.games)).collect()))
            .collect())
    }

    /// The bots the job needs, each once, sorted.
    pub fn needs(&self) -> Vec<String> {
        let mut b = self.bots.clone();
        b.sort();
        b.dedup();
        b
    }

    /// What this job is, for a line: `cup: game 3 of 4` or `cup: deal 2 of 3 (games 5-8)`.
    pub fn title(&self) -> String {
        match (self.duplicate, self.numbers.first(), self.numbers.last()) {
            (true, Some(first), Some(last)) => {
                let seats = self.bots.len().max(1) as u32;
                format!(
                    "{}: deal {} of {} (games {first}-{last})",
                    self.label,
                    super::matches::duplicate_deal(*first, seats as usize),
                    self.games / seats
                )
            }
            (_, Some(n), _) => format!("{}: game {n} of {}", self.label, self.games),
            _ => format!("{}: no game", self.label),
        }
    }

    /// The plan a worker plays the job with: each bot's command the worker's own (`commands`,
    /// by name), the sandbox its own (`confined`); `Err` names the bots it lacks.
    pub fn plan(&self, commands: &BTreeMap<String, String>, confined: &Confinement) -> Result<Plan, Vec<String>> {
        let missing: Vec<String> = self.needs().into_iter().filter(|b| !commands.contains_key(b)).collect();
        if !missing.is_empty() {
            return Err(missing);
        }
        Ok(Plan {
            game: self.game.clone(),
            ruleset: self.ruleset.clone(),
            options: self.options.clone(),
            bots: self.bots.iter().map(|b| commands[b].clone()).collect(),
            names: self.names.clone(),
            protocol: self.protocol.clone(),
            games: self.games,
            decision_ms: self.decision_ms,
            game_ms: self.game_ms,
            policy: self.policy.clone(),
            commitments: self.commitments,
            // The worker's folder is its own, deleted after the job: a game is played again
            // from its start when its job is taken again, so the journal need not be synced.
            sync: false,
            sandbox: confined.sandbox,
            allow: confined.allow.clone(),
            bot_memory_mb: confined.bot_memory_mb,
            db: None,
            tournament: None,
            key: None,
            seed_from: None,
            label: Some(self.label.clone()),
            duplicate: self.duplicate,
        })
    }

    /// Checks what a worker can check before playing: the numbers within the match, the names
    /// one per bot.
    pub fn check(&self) -> Result<(), String> {
        for b in &self.bots {
            check_bot_name(b)?;
        }
        if self.names.len() != self.bots.len() {
            return Err(format!("{} names for {} bots", self.names.len(), self.bots.len()));
        }
        if self.numbers.is_empty() || self.numbers.iter().any(|n| *n == 0 || *n > self.games) {
            return Err(format!("games {:?} are not games of a match of {}", self.numbers, self.games));
        }
        Ok(())
    }
}

/// Plays the games `numbers` of the match (`plan`, `seed`) into `folder`, each from its start
/// (a folder of the worker's own: no journal there), its bots in `sandbox`; answers the finished
/// logs' files, in order.
pub fn play_games<G: Registered>(
    folder: &Folder,
    plan: &Plan,
    seed: &Seed,
    numbers: &[u32],
    make: ProtocolMaker<G>,
    watch: &mut dyn Watch<G::Action>,
    sandbox: Option<&Sandbox>,
) -> Result<Vec<PathBuf>, MatchError> {
    let setup = Setup::<G>::of(plan, make, sandbox)?;
    let mut paths = Vec::with_capacity(numbers.len());
    for &number in numbers {
        let (played, _) = setup.play(folder, plan, seed, number, watch, sandbox)?;
        paths.push(played.path);
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::matches::DEFAULT_BOT_MEMORY_MB;

    fn plan(bots: &[&str], games: u32, duplicate: bool) -> Plan {
        Plan {
            game: "tzq".into(),
            ruleset: "standard".into(),
            options: Options::new(),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            names: bots.iter().map(|b| format!("{b} player")).collect(),
            protocol: "paifu".into(),
            games,
            decision_ms: 100,
            game_ms: 1000,
            policy: "safe".into(),
            commitments: None,
            sync: true,
            sandbox: true,
            allow: Vec::new(),
            bot_memory_mb: DEFAULT_BOT_MEMORY_MB,
            db: None,
            tournament: None,
            key: None,
            seed_from: None,
            label: None,
            duplicate,
        }
    }

    #[test]
    fn a_match_splits_into_a_job_per_game_and_a_duplicate_match_into_a_job_per_deal() {
        let jobs = MatchJob::split(&plan(&["a", "b"], 3, false), "m").unwrap();
        assert_eq!(jobs.iter().map(|j| j.numbers.clone()).collect::<Vec<_>>(), vec![vec![1], vec![2], vec![3]]);
        assert_eq!(jobs[2].title(), "m: game 3 of 3");
        let jobs = MatchJob::split(&plan(&["a", "b"], 6, true), "m").unwrap();
        assert_eq!(
            jobs.iter().map(|j| j.numbers.clone()).collect::<Vec<_>>(),
            vec![vec![1, 2], vec![3, 4], vec![5, 6]],
            "every rotation of a deal in one job"
        );
        assert_eq!(jobs[1].title(), "m: deal 2 of 3 (games 3-4)");
    }

    #[test]
    fn a_job_is_played_only_with_the_workers_own_commands_and_sandbox() {
        let job = MatchJob::split(&plan(&["a", "b", "a"], 3, false), "m").unwrap().remove(0);
        let confined = Confinement { sandbox: true, allow: vec![PathBuf::from("/opt/model")], bot_memory_mb: 512 };
        let mine = BTreeMap::from([("a".to_owned(), "./a {seat}".to_owned())]);
        assert_eq!(job.plan(&mine, &confined).unwrap_err(), vec!["b".to_owned()], "the bot it lacks, named");
        let mine = BTreeMap::from([("a".to_owned(), "./a".to_owned()), ("b".to_owned(), "./b".to_owned())]);
        let p = job.plan(&mine, &confined).unwrap();
        assert_eq!(p.bots, vec!["./a", "./b", "./a"]);
        assert_eq!((p.sandbox, p.allow.clone(), p.bot_memory_mb), (true, vec![PathBuf::from("/opt/model")], 512));
        // A job carrying a command or a sandbox setting is not a job.
        let mut text = serde_json::to_value(&job).unwrap();
        text["commands"] = serde_json::json!(["touch /tmp/x"]);
        assert!(serde_json::from_value::<MatchJob>(text).is_err());
        let mut text = serde_json::to_value(&job).unwrap();
        text["sandbox"] = serde_json::json!(false);
        assert!(serde_json::from_value::<MatchJob>(text).is_err());
        // A name that is a command is refused when queued and when read.
        assert!(MatchJob::split(&plan(&["sh -c 'touch /tmp/x'"], 1, false), "m").is_err());
        let mut bad = job.clone();
        bad.bots[0] = "touch /tmp/x".into();
        assert!(bad.check().unwrap_err().contains("not a bot's name"));
        let mut bad = job;
        bad.numbers = vec![4];
        assert!(bad.check().is_err(), "a game past the match");
    }
}
