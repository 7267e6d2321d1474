#!/usr/bin/env node
// Seconds per Jocly AI move by level, on positions of one recorded game.
//   node bench.mjs [--size 6] [--levels medium,confirmed] [--plies 0,10,20,40,60]
//                  [--deterministic]
// Also counts ExtendMove calls (one per tree node created) to show how far
// the search overshoots the level's node budget.

import { MargoGame, levelsFor, installVirtualClock, seedMathRandom } from './margo-core.mjs';

const opt = { size: '6', levels: 'fast,beginner,easy,medium,confirmed,slow', plies: '0,10,20,40,60', deterministic: false };
const av = process.argv.slice(2);
for (let i = 0; i < av.length; i++) {
  const k = av[i].replace(/^--/, '');
  if (k === 'deterministic') opt.deterministic = true;
  else opt[k] = av[++i];
}
seedMathRandom(7);
const realNow = Date.now.bind(Date);
if (opt.deterministic) installVirtualClock(1000);

// The selfcheck game (seed 1, medium, 6x6), used as a source of positions.
const record = 'E7 G5 E5 G7 E9 G9 E3 G3 C3 I3 E11 G11 A3 K3 F4 F6 F8 F10 E1 G1 F2 I7 C7 K7 C9 K5 D8 I5 H4 I9 H6 J6 H8 C11 A11 A5 A9 A1 C1 K11 J4 C5 A7 I5 B8 A5 C5 K9 I1 K1 J8 I7 D2 I11 D6 J10 F6 G5 H10 G9 G7 H6 D4 I9 I1 K1 G5 J6 I7 F10 I5 G9 E7 I1 J2 H2 G3 I3 H4'.split(' ');
const size = Number(opt.size);
const levels = await levelsFor(size);
const g = await MargoGame.create(size);
const proto = Object.getPrototypeOf(g.game.mBoard);
const ext = proto.ExtendMove;
let nodes = 0;
proto.ExtendMove = function (...a) {
  nodes++;
  return ext.apply(this, a);
};
for (const name of opt.levels.split(',')) {
  let lv = { ...levels[name] };
  if (opt.deterministic && (lv.maxNodes || lv.maxLoops)) lv.maxDuration = 0;
  const row = [];
  for (const ply of opt.plies.split(',').map(Number)) {
    g.reset();
    for (let k = 0; k < ply && k < record.length; k++) if (!g.play(record[k])) throw new Error(`replay ${k}`);
    nodes = 0;
    const t0 = realNow();
    const v = await g.search(lv);
    row.push({ ply, v, s: (realNow() - t0) / 1000, nodes });
  }
  const avg = row.reduce((a, r) => a + r.s, 0) / row.length;
  process.stdout.write(`${name.padEnd(10)} maxDuration=${lv.maxDuration} maxNodes=${lv.maxNodes ?? '-'} maxLoops=${lv.maxLoops ?? '-'}  avg ${avg.toFixed(2)} s  ` +
    row.map((r) => `[ply ${r.ply}: ${r.v} ${r.s.toFixed(2)}s ${r.nodes}n]`).join(' ') + '\n');
}
