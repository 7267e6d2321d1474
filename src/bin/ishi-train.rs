//! `ishi-train`: fits ishi's Go move model to teacher games and writes the weight file the
//! engine ships (`models/go-moves.bin`). Holds out every k-th game of each file, reports the
//! prediction figures of the model and of the hand-made priors on the held-out games, and
//! can measure an existing weight file instead of fitting (`--evaluate`). `--value-network`
//! trains the network (`--evaluate-value-network` measures one). A development
//! tool, not the engine: its report goes to stdout. See `models/README.md`.

use clap::Parser;
use flate2::write::GzEncoder;
use flate2::Compression;
use ishi::go::learn::fit::{
    build_samples, candidate_total, count_patterns, evaluate, evaluate_ranking, fit,
    rank_with_model, FeatureIndex, FitOptions, Prediction,
};
use ishi::go::learn::local::ShapeIndex;
use ishi::go::learn::teacher::{read_games, replay_all, TeacherGame, TeacherPosition};
use ishi::go::learn::value_fit::{
    self, evaluate_value, value_sample, AuxiliaryWeights, ValueFigures, ValueSample,
};
use ishi::go::learn::{export, packed};
use ishi::go::search::features::{group_name, GROUP_COUNT};
use ishi::go::search::move_model::{GroupWeights, MoveModel};
use ishi::go::search::patterns;
use ishi::go::search::planes::{self, INPUT_PLANES};
use ishi::go::search::priors::{compute_priors, PriorScratch};
use ishi::go::search::value::{ValueNetwork, ValueScratch, KOMI_SCALE, SCORE_SCALE};
use ishi::nn::file::WeightFile;
use ishi::nn::train::{NetworkOptions, SizeGroup, TrainingState, STATE_KIND};
use ishi::search::SearchParams;
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Fits the move model to teacher games.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Arguments {
    /// Teacher files (JSON lines, gzip'd when the name ends in .gz); repeatable.
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// Every k-th game of each file (from the first) is held out for measurement.
    #[arg(long, default_value_t = 10)]
    holdout_every: usize,
    /// Patterns seen fewer times among the training candidates share one weight.
    #[arg(long, default_value_t = 20)]
    min_count: u32,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 12)]
    epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Adam's initial step size.
    #[arg(long, default_value_t = 0.02)]
    learning_rate: f32,
    /// L2 penalty per weight.
    #[arg(long, default_value_t = 1e-5)]
    l2: f32,
    /// Seed of the order of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights.
    #[arg(long, default_value = "models/go-moves.bin")]
    out: PathBuf,
    /// Where to write the playouts' answer shapes (fitted after the move model).
    #[arg(long, default_value = "models/go-playout.bin")]
    playout_out: PathBuf,
    /// Measure this weight file on the held-out games instead of fitting.
    #[arg(long)]
    evaluate: Option<PathBuf>,
    /// Also measure the hand-made priors alone (`prior_model=0`) and the engine's default
    /// priors (the shipped model with the hand-made tactics) on the held-out games.
    #[arg(long)]
    hand_priors: bool,
    /// Print the weights of the small groups and the dictionary sizes of the model written
    /// (or evaluated).
    #[arg(long)]
    describe: bool,
    /// The network's board sizes, comma-separated (games of other sizes are left out; each
    /// batch holds one size).
    #[arg(long, value_delimiter = ',', default_value = "9")]
    network_size: Vec<usize>,
    /// The network's hidden channels.
    #[arg(long, default_value_t = 32)]
    network_channels: usize,
    /// The network's residual blocks.
    #[arg(long, default_value_t = 4)]
    network_blocks: usize,
    /// Every residual block biases its second convolution by the pooled board (KataGo's
    /// global pooling; `src/nn/pool.rs`). A starting network without it grows into one
    /// with it, judging as before.
    #[arg(long)]
    network_pooling: bool,
    /// Passes over the training positions for the network.
    #[arg(long, default_value_t = 8)]
    network_epochs: usize,
    /// Positions per step for the network.
    #[arg(long, default_value_t = 128)]
    network_batch: usize,
    /// The network's initial step size (AdamW, decaying linearly to a tenth).
    #[arg(long, default_value_t = 0.002)]
    network_learning_rate: f32,
    /// The network's decoupled weight decay.
    #[arg(long, default_value_t = 1e-4)]
    network_weight_decay: f32,
    /// Shards of each mini-batch, computed in parallel: part of what makes a run repeat
    /// (the shipped network was trained with 2).
    #[arg(long, default_value_t = 2)]
    network_shards: usize,
    /// Train the value network instead (the same --network-* dimensions and schedule),
    /// writing it here.
    #[arg(long)]
    value_network: Option<PathBuf>,
    /// Measure this value network on the held-out positions instead of training.
    #[arg(long)]
    evaluate_value_network: Option<PathBuf>,
    /// Start the value network's training from this network's weights instead of random
    /// ones: the same hidden units, and no more channels or blocks than asked for (a
    /// smaller network grows into the shape asked for, judging as it did).
    #[arg(long)]
    start_from: Option<PathBuf>,
    /// After every epoch of the value network's training, write that epoch's network here
    /// and the optimiser's state beside it (FILE.adamw); when FILE exists at the start, go
    /// on from there instead, exactly as if the run had not stopped (the same command
    /// resumes an interrupted run).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Units of the value head's hidden layer.
    #[arg(long, default_value_t = 32)]
    value_hidden: usize,
    /// Weight of the value network's ownership loss (cross-entropy averaged over the points;
    /// the win probability's weighs 1), where the teacher gives ownership.
    #[arg(long, default_value_t = 1.0)]
    ownership_weight: f32,
    /// Weight of the value network's score-lead loss (Huber, in units of 20 points), where
    /// the teacher gives the lead.
    #[arg(long, default_value_t = 0.5)]
    score_weight: f32,
    /// Weight of the value network's move-distribution loss (cross-entropy over the
    /// candidates against the teacher's policy).
    #[arg(long, default_value_t = 1.0)]
    policy_weight: f32,
    /// Write the games of the one --data file packed (the binary form that reads without
    /// parsing text; gzip'd when the name ends in .gz) to this file, and do nothing else.
    #[arg(long)]
    pack: Option<PathBuf>,
    /// Write the value network's samples of the --network-size boards (training and
    /// held-out, split as training splits them) into this folder as NumPy arrays, with a
    /// manifest.json, for a trainer outside ishi (scripts/train/torch_value.py), and do
    /// nothing else.
    #[arg(long)]
    export_samples: Option<PathBuf>,
}

fn describe(model: &MoveModel) {
    for (group, weights) in model.groups().iter().enumerate() {
        let text = match weights {
            GroupWeights::Small(values) => {
                let values: Vec<String> =
                    values.iter().map(|value| format!("{value:.2}")).collect();
                values.join(" ")
            }
            GroupWeights::Patterns { unknown, table } => {
                format!("{} patterns, unseen {unknown:.2}", table.len())
            }
        };
        say(&format!("  {}: {text}", group_name(group)));
    }
}

fn say(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
    let _ = stdout.flush();
}

/// The held-out and training games of every file, with their board sizes.
fn split(arguments: &Arguments) -> Result<(Vec<TeacherGame>, Vec<TeacherGame>), String> {
    let mut training = Vec::new();
    let mut held_out = Vec::new();
    for path in &arguments.data {
        let games = read_games(path)?;
        say(&format!("{}: {} games", path.display(), games.len()));
        for (number, game) in games.into_iter().enumerate() {
            if arguments.holdout_every > 0 && number % arguments.holdout_every == 0 {
                held_out.push(game);
            } else {
                training.push(game);
            }
        }
    }
    Ok((training, held_out))
}

/// Held-out measurements per board size, by a ranking of the candidates.
fn measure_by_size(
    label: &str,
    held_out: &[TeacherGame],
    rank: impl Fn(&TeacherPosition, &mut Vec<f32>) + Sync,
) {
    let mut sizes: Vec<usize> = held_out.iter().map(|game| game.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        let games: Vec<TeacherGame> = held_out
            .iter()
            .filter(|game| game.size == size)
            .cloned()
            .collect();
        let prediction: Prediction = evaluate_ranking(&games, &rank);
        say(&format!("{label} {size}x{size}: {}", prediction.summary()));
    }
}

fn model_ranking(model: &MoveModel) -> impl Fn(&TeacherPosition, &mut Vec<f32>) + Sync + '_ {
    move |position, scores| rank_with_model(model, position, scores)
}

/// The ranking of the search's priors under `params`: the prior values, normalised.
fn prior_ranking(params: SearchParams) -> impl Fn(&TeacherPosition, &mut Vec<f32>) + Sync {
    move |position, scores| search_priors(&params, position, scores)
}

fn search_priors(params: &SearchParams, position: &TeacherPosition, scores: &mut Vec<f32>) {
    let mut priors = Vec::new();
    compute_priors(
        &position.board,
        position.color,
        params,
        patterns::table(),
        &mut PriorScratch::default(),
        &position.candidates,
        &mut priors,
    );
    scores.clear();
    scores.extend(priors.iter().map(|prior| prior.value() as f32));
    // A distribution for the cross-entropy: the values, normalised.
    let total: f32 = scores.iter().sum();
    if total > 0.0 {
        for score in scores.iter_mut() {
            *score /= total;
        }
    }
}

fn run(arguments: &Arguments) -> Result<(), String> {
    let started = Instant::now();
    if let Some(out) = &arguments.pack {
        return pack(arguments, out, started);
    }
    let (training, held_out) = split(arguments)?;
    say(&format!(
        "{} training games, {} held out",
        training.len(),
        held_out.len()
    ));
    if let Some(directory) = &arguments.export_samples {
        return export_samples(arguments, directory, &training, &held_out, started);
    }
    if arguments.value_network.is_some() || arguments.evaluate_value_network.is_some() {
        return run_value_network(arguments, &training, &held_out, started);
    }
    if arguments.hand_priors {
        let hand = SearchParams {
            prior_model: 0,
            ..SearchParams::default()
        };
        measure_by_size("hand priors", &held_out, prior_ranking(hand));
        measure_by_size(
            "engine priors",
            &held_out,
            prior_ranking(SearchParams::default()),
        );
    }
    if let Some(path) = &arguments.evaluate {
        let bytes = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
        let model = MoveModel::from_bytes(&bytes)?;
        if arguments.describe {
            describe(&model);
        }
        measure_by_size("model", &held_out, model_ranking(&model));
        return Ok(());
    }
    let counts = count_patterns(&training);
    let index = FeatureIndex::new(&counts, arguments.min_count);
    let known = index.pattern_counts();
    let dictionary: Vec<String> = (0..GROUP_COUNT)
        .filter(|&group| known[group] > 0)
        .map(|group| format!("{} {}", group_name(group), known[group]))
        .collect();
    say(&format!(
        "patterns seen {} times or more: {}; {} weights ({:.0} s)",
        arguments.min_count,
        dictionary.join(", "),
        index.weight_count,
        started.elapsed().as_secs_f64()
    ));
    let samples = build_samples(&training, &index);
    let test = build_samples(&held_out, &index);
    say(&format!(
        "{} training positions ({} candidates), {} held out ({:.0} s)",
        samples.len(),
        candidate_total(&samples),
        test.len(),
        started.elapsed().as_secs_f64()
    ));
    let options = FitOptions {
        epochs: arguments.epochs,
        batch: arguments.batch,
        learning_rate: arguments.learning_rate,
        l2: arguments.l2,
        seed: arguments.seed,
    };
    let weights = fit(&samples, index.weight_count, &options, |epoch, loss| {
        say(&format!(
            "epoch {}: training cross-entropy {loss:.4} ({:.0} s)",
            epoch + 1,
            started.elapsed().as_secs_f64()
        ));
    });
    say(&format!(
        "training: {}",
        evaluate(&samples, &weights).summary()
    ));
    say(&format!(
        "held out: {}",
        evaluate(&test, &weights).summary()
    ));
    let model = index.model(&weights);
    if arguments.describe {
        describe(&model);
    }
    measure_by_size("model", &held_out, model_ranking(&model));
    let bytes = model.to_bytes();
    std::fs::write(&arguments.out, &bytes)
        .map_err(|error| format!("{}: {error}", arguments.out.display()))?;
    say(&format!(
        "wrote {} ({} weights, {} bytes) in {:.0} s",
        arguments.out.display(),
        model.weight_count(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    ));
    fit_playout_shapes(arguments, &training, &held_out, &options)?;
    say(&format!("done in {:.0} s", started.elapsed().as_secs_f64()));
    Ok(())
}

/// The network's training options from the `--network-*` arguments.
fn network_options(arguments: &Arguments) -> NetworkOptions {
    NetworkOptions {
        channels: arguments.network_channels,
        blocks: arguments.network_blocks,
        pooled: arguments.network_pooling,
        epochs: arguments.network_epochs,
        batch: arguments.network_batch,
        learning_rate: arguments.network_learning_rate,
        weight_decay: arguments.network_weight_decay,
        seed: arguments.seed,
        shards: arguments.network_shards,
    }
}

/// The value samples of every position of `games` of `size` that has the teacher's win
/// probability.
fn value_samples(games: &[TeacherGame], size: usize) -> Vec<ValueSample> {
    games
        .par_iter()
        .filter(|game| game.size == size)
        .flat_map_iter(|game| {
            let mut samples = Vec::new();
            replay_all(game, |position, _| {
                if let Some(sample) = value_sample(&position) {
                    samples.push(sample);
                }
            });
            samples
        })
        .collect()
}

/// The mean time of one [`ValueNetwork::win`] call, as the engine makes it, over the first
/// 2,000 positions of `games` of board `size`.
fn value_evaluation_cost(network: &ValueNetwork, games: &[TeacherGame], size: usize) -> f64 {
    let mut positions = Vec::new();
    for game in games.iter().filter(|game| game.size == size) {
        replay_all(game, |position, _| positions.push(position));
        if positions.len() >= 2000 {
            break;
        }
    }
    let mut scratch = ValueScratch::default();
    let started = Instant::now();
    let mut total = 0.0;
    for position in &positions {
        total += network.win(&position.board, position.color, position.komi, &mut scratch);
    }
    std::hint::black_box(total);
    started.elapsed().as_secs_f64() * 1e6 / positions.len().max(1) as f64
}

fn report_value(label: &str, figures: &ValueFigures) {
    say(&format!("{label}: {}", figures.summary()));
    for line in figures.calibration_lines() {
        say(&line);
    }
}

/// The optimiser state's file beside a checkpoint's network.
fn state_path(checkpoint: &Path) -> PathBuf {
    let mut name = checkpoint.as_os_str().to_owned();
    name.push(".adamw");
    PathBuf::from(name)
}

/// Writes `bytes` to a temporary file beside `path`, then renames it there: a run killed
/// while writing leaves the last whole file.
fn write_whole(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    std::fs::write(&temporary, bytes)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|error| format!("{}: {error}", path.display()))
}

/// FNV-1a over the parameters' bytes: ties a checkpoint's state to its network.
fn checksum(parameters: &[f32]) -> u32 {
    parameters
        .iter()
        .flat_map(|parameter| parameter.to_le_bytes())
        .fold(0x811c_9dc5u32, |hash, byte| {
            (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
        })
}

/// Writes a checkpoint: the network (whose presence says there is one) and the state, each
/// whole; the state names its network's checksum, so a run stopped between the two writes
/// leaves a pair that refuses to resume rather than one that resumes wrong.
fn write_checkpoint(
    checkpoint: &Path,
    network: &ValueNetwork,
    state: &TrainingState,
    best_epoch: usize,
) -> Result<(), String> {
    let mut file = state.to_weight_file();
    file.dimensions
        .push(("network_checksum".into(), checksum(&network.parameters)));
    file.dimensions
        .push(("best_epoch".into(), best_epoch as u32));
    write_whole(checkpoint, &network.to_bytes())?;
    write_whole(&state_path(checkpoint), &file.to_bytes())
}

/// Reads a checkpoint written by [`write_checkpoint`]: the network, the state and the epoch
/// whose network was the best held out.
fn read_checkpoint(checkpoint: &Path) -> Result<(ValueNetwork, TrainingState, usize), String> {
    let network = read_value_network(checkpoint)?;
    let path = state_path(checkpoint);
    let bytes = std::fs::read(&path).map_err(|error| format!("{}: {error}", path.display()))?;
    let file = WeightFile::from_bytes(&bytes, STATE_KIND)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    if file.dimension("network_checksum")? != checksum(&network.parameters) as usize {
        return Err(format!(
            "{} is not the state of {} (a run stopped between writing them): train again \
             from the network with --start-from, or remove both",
            path.display(),
            checkpoint.display()
        ));
    }
    let state = TrainingState::from_weight_file(&file)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    Ok((network, state, file.dimension("best_epoch")?))
}

/// Reads a value network file.
fn read_value_network(path: &std::path::Path) -> Result<ValueNetwork, String> {
    let bytes = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
    ValueNetwork::from_bytes(&bytes).map_err(|error| format!("{}: {error}", path.display()))
}

/// Held-out figures of `network` on each size's test samples (`tests`: size and samples),
/// reported with `label` (with the calibration table when `calibration`); returns the
/// cross-entropy over all of them.
fn measure_value(
    label: &str,
    network: &ValueNetwork,
    tests: &[(usize, Vec<ValueSample>)],
    calibration: bool,
) -> f64 {
    let (mut summed, mut positions) = (0.0, 0usize);
    for (size, test) in tests {
        let figures = evaluate_value(&value_fit::predict(network, test, *size), test);
        summed += figures.cross_entropy * figures.positions as f64;
        positions += figures.positions;
        if calibration {
            report_value(&format!("{label} {size}x{size}"), &figures);
        } else {
            say(&format!("{label} {size}x{size}: {}", figures.summary()));
        }
    }
    summed / positions.max(1) as f64
}

/// Trains (or measures) the value network.
fn run_value_network(
    arguments: &Arguments,
    training: &[TeacherGame],
    held_out: &[TeacherGame],
    started: Instant,
) -> Result<(), String> {
    let mut sizes = arguments.network_size.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let tests: Vec<(usize, Vec<ValueSample>)> = sizes
        .iter()
        .map(|&size| (size, value_samples(held_out, size)))
        .collect();
    if let Some(path) = &arguments.evaluate_value_network {
        let network = read_value_network(path)?;
        measure_value(
            &format!(
                "held out, value network {:?} (learned {:?}),",
                network.shape,
                network.sizes.list()
            ),
            &network,
            &tests,
            true,
        );
        for &size in &sizes {
            say(&format!(
                "one {size}x{size} evaluation as the engine runs it: {:.1} microseconds (one thread)",
                value_evaluation_cost(&network, held_out, size)
            ));
        }
        return Ok(());
    }
    let resume = match &arguments.checkpoint {
        Some(path) if path.exists() => Some(read_checkpoint(path)?),
        _ => None,
    };
    let start = match (&resume, &arguments.start_from) {
        (Some((network, _, _)), _) => Some(network.clone()),
        (None, Some(path)) => Some(read_value_network(path)?),
        (None, None) => None,
    };
    if let (None, Some(start)) = (&resume, &start) {
        let trunk = start.shape.trunk;
        let asked = (
            arguments.network_blocks,
            arguments.network_channels,
            arguments.network_pooling,
        );
        if (trunk.blocks, trunk.channels, trunk.pooled) != asked {
            let pooling = |pooled: bool| if pooled { ", pooled" } else { "" };
            say(&format!(
                "growing the starting network from {} blocks of {} channels{} to {} of {}{} (it \
                 judges as before; the new channels, blocks and pooling start silent)",
                trunk.blocks,
                trunk.channels,
                pooling(trunk.pooled),
                arguments.network_blocks,
                arguments.network_channels,
                pooling(arguments.network_pooling)
            ));
        }
    }
    let samples: Vec<(usize, Vec<ValueSample>)> = sizes
        .iter()
        .map(|&size| (size, value_samples(training, size)))
        .collect();
    for ((size, train), (_, test)) in samples.iter().zip(&tests) {
        say(&format!(
            "{size}x{size}: {} training positions, {} held out ({:.0} s)",
            train.len(),
            test.len(),
            started.elapsed().as_secs_f64()
        ));
    }
    let symmetries: Vec<Vec<Vec<u16>>> =
        sizes.iter().map(|&size| planes::symmetries(size)).collect();
    let groups: Vec<SizeGroup<'_, ValueSample>> = samples
        .iter()
        .zip(&symmetries)
        .map(|((size, samples), symmetries)| SizeGroup {
            size: *size,
            samples,
            symmetries,
        })
        .collect();
    let options = network_options(arguments);
    let path = arguments.value_network.clone().unwrap_or_default();
    // A value network overfits its games' correlated positions within a few epochs: the
    // epoch with the best held-out cross-entropy (over every size) is the one kept (and
    // written at once, so a long run can be stopped). A resumed run starts from the best
    // the stopped one wrote.
    let mut best: Option<(f64, usize, ValueNetwork)> = None;
    if let (Some((_, state, best_epoch)), Some(checkpoint)) = (&resume, &arguments.checkpoint) {
        say(&format!(
            "resuming from {} after epoch {}",
            checkpoint.display(),
            state.epochs_done
        ));
        if let Ok(network) = read_value_network(&path) {
            let cross_entropy = measure_value("  the best so far", &network, &tests, false);
            best = Some((cross_entropy, *best_epoch, network));
        }
    }
    value_fit::train(
        &groups,
        arguments.value_hidden,
        AuxiliaryWeights {
            ownership: arguments.ownership_weight,
            score: arguments.score_weight,
            policy: arguments.policy_weight,
        },
        &options,
        start.as_ref(),
        resume.map(|(_, state, _)| state),
        |epoch, loss, network, state| {
            say(&format!(
                "epoch {}: training cross-entropy {loss:.4} ({:.0} s)",
                epoch + 1,
                started.elapsed().as_secs_f64()
            ));
            let cross_entropy = measure_value("  held out", network, &tests, false);
            if best
                .as_ref()
                .is_none_or(|(best_entropy, _, _)| cross_entropy < *best_entropy)
            {
                let _ = std::fs::write(&path, network.to_bytes());
                best = Some((cross_entropy, epoch + 1, network.clone()));
            }
            if let Some(checkpoint) = &arguments.checkpoint {
                let best_epoch = best.as_ref().map_or(0, |(_, epoch, _)| *epoch);
                if let Err(error) = write_checkpoint(checkpoint, network, state, best_epoch) {
                    say(&format!("  checkpoint not written: {error}"));
                }
            }
        },
    )?;
    let Some((_, epoch, network)) = best else {
        return Err("no epoch ran (--network-epochs 0)".to_string());
    };
    measure_value(
        &format!("held out, epoch {epoch} (the best),"),
        &network,
        &tests,
        true,
    );
    let bytes = network.to_bytes();
    std::fs::write(&path, &bytes).map_err(|error| format!("{}: {error}", path.display()))?;
    say(&format!(
        "wrote {} (epoch {epoch}, {} parameters, {} bytes) in {:.0} s",
        path.display(),
        network.parameters.len(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Fits and writes the playouts' answer shapes.
fn fit_playout_shapes(
    arguments: &Arguments,
    training: &[TeacherGame],
    held_out: &[TeacherGame],
    options: &FitOptions,
) -> Result<(), String> {
    let index = ShapeIndex::new(training, arguments.min_count);
    let samples = index.samples(training);
    let test = index.samples(held_out);
    let weights = fit(&samples, index.weight_count, options, |_, _| {});
    say(&format!(
        "playout shapes: {} known; held out: {}",
        index.weight_count - 2,
        evaluate(&test, &weights).summary()
    ));
    let patterns = index.patterns(&weights);
    say(&format!(
        "  answering elsewhere {:.2}, unseen shape {:.2}",
        patterns.elsewhere, patterns.unknown
    ));
    let bytes = patterns.to_bytes();
    std::fs::write(&arguments.playout_out, &bytes)
        .map_err(|error| format!("{}: {error}", arguments.playout_out.display()))?;
    say(&format!(
        "wrote {} ({} bytes)",
        arguments.playout_out.display(),
        bytes.len()
    ));
    Ok(())
}

/// Writes the value samples of every `--network-size` board, training and held out, into
/// `directory` (see [`export`]) with a manifest that names them.
fn export_samples(
    arguments: &Arguments,
    directory: &Path,
    training: &[TeacherGame],
    held_out: &[TeacherGame],
    started: Instant,
) -> Result<(), String> {
    std::fs::create_dir_all(directory)
        .map_err(|error| format!("{}: {error}", directory.display()))?;
    let mut sizes = arguments.network_size.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let mut counts = Vec::new();
    for &size in &sizes {
        for (split, games) in [("training", training), ("held-out", held_out)] {
            let samples = value_samples(games, size);
            export::write_samples(directory, split, size, &samples)?;
            say(&format!(
                "{split} {size}x{size}: {} positions ({:.0} s)",
                samples.len(),
                started.elapsed().as_secs_f64()
            ));
            counts.push(
                serde_json::json!({"split": split, "size": size, "positions": samples.len()}),
            );
        }
    }
    let manifest = serde_json::json!({
        "format": "ishi value samples 1",
        "input_planes": INPUT_PLANES,
        "komi_scale": KOMI_SCALE,
        "score_scale": SCORE_SCALE,
        "holdout_every": arguments.holdout_every,
        "data": arguments.data.iter().map(|path| path.display().to_string()).collect::<Vec<_>>(),
        "arrays": counts,
    });
    let path = directory.join("manifest.json");
    std::fs::write(&path, format!("{manifest:#}\n"))
        .map_err(|error| format!("{}: {error}", path.display()))?;
    say(&format!("wrote {}", path.display()));
    Ok(())
}

/// Writes the games of the one `--data` file to `out` in the packed form, then reads them back
/// and checks that they are the same games.
fn pack(arguments: &Arguments, out: &Path, started: Instant) -> Result<(), String> {
    let [path] = &arguments.data[..] else {
        return Err("--pack takes one --data file (each file keeps its own held-out games)".into());
    };
    let games = read_games(path)?;
    let read = started.elapsed().as_secs_f64();
    let file = std::fs::File::create(out).map_err(|error| format!("{}: {error}", out.display()))?;
    let mut writer: Box<dyn Write> = if out.extension().is_some_and(|extension| extension == "gz") {
        Box::new(GzEncoder::new(file, Compression::default()))
    } else {
        Box::new(file)
    };
    let mut buffered = std::io::BufWriter::new(&mut writer);
    packed::write_games(&mut buffered, &games)?;
    buffered
        .into_inner()
        .map_err(|error| error.to_string())?
        .flush()
        .map_err(|error| format!("{}: {error}", out.display()))?;
    drop(writer);
    let again = Instant::now();
    let check = read_games(out)?;
    let reread = again.elapsed().as_secs_f64();
    if check != games {
        return Err(format!(
            "{}: the packed games differ from the source",
            out.display()
        ));
    }
    let positions: usize = games.iter().map(|game| game.policy.len()).sum();
    say(&format!(
        "packed {} games ({positions} positions) of {} into {}: read in {read:.2} s as text, {reread:.2} s packed",
        games.len(),
        path.display(),
        out.display()
    ));
    Ok(())
}

fn main() -> ExitCode {
    let arguments = Arguments::parse();
    match run(&arguments) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "ishi-train: {error}");
            ExitCode::FAILURE
        }
    }
}
