#!/usr/bin/env node
// GTP engine wrapping Jocly's Margo AI (npm jocly 0.9.13).
//
//   node jocly-margo-gtp.mjs [--level confirmed] [--size 6] [--seed N]
//                            [--deterministic] [--gameover error|resign]
//
// Vertices are the designer's notation (games-protocol.md). Colours: the
// colour of the first move played or generated in a game becomes Jocly's
// player A (Jocly's first mover, its "white" balls); after that colours
// alternate strictly. See NOTES.md.

import readline from 'node:readline';
import { MargoGame, SIZES, levelsFor, seedMathRandom, installVirtualClock } from './margo-core.mjs';

const JOCLY_VERSION = '0.9.13';

function usage(msg) {
  if (msg) process.stderr.write(`jocly-margo-gtp: ${msg}\n`);
  process.stderr.write(
    'usage: jocly-margo-gtp.mjs [--level fast|beginner|easy|medium|confirmed|slow] [--size 4..8]\n' +
      '                           [--seed N] [--deterministic] [--gameover error|resign]\n',
  );
  process.exit(2);
}

const opts = { level: 'confirmed', size: 6, seed: null, deterministic: false, gameover: 'error' };
{
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i++) {
    const take = () => {
      if (i + 1 >= a.length) usage(`${a[i]} needs a value`);
      return a[++i];
    };
    let [k, v] = a[i].split('=', 2);
    const val = () => (v !== undefined ? v : take());
    switch (k) {
      case '--level': opts.level = val().toLowerCase(); break;
      case '--size': opts.size = Number(val()); break;
      case '--seed': opts.seed = val(); break;
      case '--deterministic': opts.deterministic = true; break;
      case '--gameover': opts.gameover = val(); break;
      case '-h': case '--help': usage(); break;
      default: usage(`unknown argument ${a[i]}`);
    }
  }
  if (!SIZES.includes(opts.size)) usage(`size must be one of ${SIZES.join(',')}`);
  if (!['error', 'resign'].includes(opts.gameover)) usage('--gameover must be error or resign');
}
if (opts.seed !== null) {
  if (!/^[0-9]+$/.test(opts.seed)) usage('--seed takes a non-negative integer');
  seedMathRandom(Number(opts.seed));
}
if (opts.deterministic) installVirtualClock(1000);

const levelNames = Object.keys(await levelsFor(6));
if (!levelNames.includes(opts.level)) usage(`level must be one of ${levelNames.join(',')}`);

// ---- game state ---------------------------------------------------------

let game = null;
let levels = null;
let firstColor = null; // 'B' | 'W': the colour that moved first (Jocly player A)

async function newGame(size) {
  game = await MargoGame.create(size);
  game.reset();
  levels = await levelsFor(size);
  firstColor = null;
}

function searchLevel() {
  const lv = { ...levels[opts.level] };
  if (opts.deterministic) {
    if (lv.maxNodes || lv.maxLoops) lv.maxDuration = 0; // budget = nodes/loops only
    else process.stderr.write(`jocly-margo-gtp: level ${opts.level} is time-only; --deterministic cannot make it exact\n`);
  }
  return lv;
}

const other = (c) => (c === 'B' ? 'W' : 'B');
function toMove() {
  if (firstColor === null) return null; // either colour may start
  return game.plies() % 2 === 0 ? firstColor : other(firstColor);
}
function parseColor(s) {
  const c = String(s || '').toLowerCase();
  if (c === 'b' || c === 'black') return 'B';
  if (c === 'w' || c === 'white') return 'W';
  return null;
}
function colorOk(c) {
  const t = toMove();
  return t === null || t === c;
}
// GTP colour of Jocly's player A / B.
function colorOfJocly(clr) {
  const a = firstColor || 'B';
  return clr === 1 ? a : other(a);
}

// ---- commands -----------------------------------------------------------

class GtpError extends Error {}
const fail = (m) => {
  throw new GtpError(m);
};

const commands = {
  protocol_version: () => '2',
  name: () => 'Jocly',
  version: () => JOCLY_VERSION,
  list_commands: () => Object.keys(commands).join('\n'),
  known_command: (args) => (Object.hasOwn(commands, args[0] || '') ? 'true' : 'false'),
  quit: () => '',
  boardsize: async (args) => {
    const n = Number(args[0]);
    if (!/^[0-9]+$/.test(args[0] || '') || !SIZES.includes(n)) fail('unacceptable size');
    await newGame(n);
    return '';
  },
  clear_board: async () => {
    await newGame(game.size);
    return '';
  },
  play: (args) => {
    const c = parseColor(args[0]);
    if (!c || args.length < 2) fail('syntax error');
    if (!colorOk(c)) fail('illegal move');
    const v = args[1];
    if (!game.findMove(v)) fail('illegal move'); // includes swap, pass, game over
    game.play(v);
    if (firstColor === null) firstColor = c;
    return '';
  },
  genmove: async (args) => genmove(args, true),
  reg_genmove: async (args) => genmove(args, false),
  undo: () => {
    if (!game.undo()) fail('cannot undo');
    if (game.plies() === 0) firstColor = null;
    return '';
  },
  final_score: () => {
    const [a, b] = game.ballCounts();
    const byColor = { [colorOfJocly(1)]: a, [colorOfJocly(2)]: b };
    const d = byColor.W - byColor.B;
    return d > 0 ? `W+${d}` : d < 0 ? `B+${-d}` : '0';
  },
  showboard: () => {
    const a = colorOfJocly(1);
    const [na, nb] = game.ballCounts();
    const sym = (c) => (c === 'B' ? 'X' : 'O');
    const t = toMove();
    return (
      '\n' +
      game.diagram(sym(a), sym(other(a))) +
      `\nX = black, O = white (lower case: buried); balls ${a}=${na} ${other(a)}=${nb}; ` +
      `move ${game.plies() + 1}, ${t ? (t === 'B' ? 'black' : 'white') : 'either colour'} to play`
    );
  },
  all_legal_moves: (args) => {
    const c = parseColor(args[0]);
    if (!c) fail('syntax error');
    if (!colorOk(c)) return '';
    return game.legalVertices().sort().join(' ');
  },
  is_legal: (args) => {
    const c = parseColor(args[0]);
    if (!c || args.length < 2) fail('syntax error');
    return colorOk(c) && game.findMove(args[1]) ? '1' : '0';
  },
  // Accepted and ignored: the AI's budget is its level.
  time_settings: () => '',
  time_left: () => '',
  'kgs-time_settings': () => '',
};

async function genmove(args, play) {
  const c = parseColor(args[0]);
  if (!c) fail('syntax error');
  if (!colorOk(c)) fail(`not ${c === 'B' ? 'black' : 'white'}'s turn`);
  if (game.moves().length === 0) {
    if (opts.gameover === 'resign') return 'resign';
    fail('game over');
  }
  const v = await game.search(searchLevel());
  if (!v || !game.findMove(v)) fail(`Jocly returned no legal move (${v})`);
  if (play) {
    game.play(v);
    if (firstColor === null) firstColor = c;
  }
  return v;
}

// ---- GTP loop -------------------------------------------------------------

function respond(ok, id, text) {
  const body = text === '' ? '' : ' ' + text;
  process.stdout.write(`${ok ? '=' : '?'}${id}${body}\n\n`);
}

async function handle(raw) {
  let line = raw.replace(/\r/g, '');
  const hash = line.indexOf('#');
  if (hash >= 0) line = line.slice(0, hash);
  line = line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').replace(/\t/g, ' ').trim();
  if (!line) return true;
  const words = line.split(/ +/);
  let id = '';
  if (/^[0-9]+$/.test(words[0])) id = words.shift();
  const cmd = (words.shift() || '').toLowerCase();
  if (!cmd) return true;
  if (!Object.hasOwn(commands, cmd)) {
    respond(false, id, 'unknown command');
    return true;
  }
  try {
    const out = await commands[cmd](words);
    respond(true, id, out);
  } catch (e) {
    if (e instanceof GtpError) respond(false, id, e.message);
    else {
      process.stderr.write(`jocly-margo-gtp: ${e && e.stack}\n`);
      respond(false, id, `internal error: ${e && e.message}`);
    }
  }
  return cmd !== 'quit';
}

await newGame(opts.size);
const rl = readline.createInterface({ input: process.stdin, terminal: false });
let chain = Promise.resolve(true);
let quitting = false;
rl.on('line', (l) => {
  chain = chain.then(async (alive) => {
    if (!alive || quitting) return false;
    const keep = await handle(l);
    if (!keep) {
      quitting = true;
      rl.close();
      process.exit(0);
    }
    return keep;
  });
});
rl.on('close', () => {
  chain.then(() => process.exit(0));
});
