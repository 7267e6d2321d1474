#!/usr/bin/env node
// Checks the Jocly <-> designer-notation mapping of margo-core.mjs.
//   node verify-mapping.mjs      (exit status 0 when every check passes)

import assert from 'node:assert/strict';
import { MargoGame, SIZES, LETTERS } from './margo-core.mjs';

let checks = 0;
const ok = (cond, msg) => {
  assert.ok(cond, msg);
  checks++;
};
const parse = (v) => [LETTERS.indexOf(v[0]), Number(v.slice(1)) - 1];

for (const n of SIZES) {
  const g = await MargoGame.create(n);
  g.reset();
  const gj = g.game.g;
  ok(g.npos === (n * (n + 1) * (2 * n + 1)) / 6, `size ${n}: point count`);
  // Structure: every Jocly neighbour relation matches the designer's grid.
  // dirs 0-3 below, 4-7 same level, 8-11 above (margo-model.js).
  for (let pos = 0; pos < g.npos; pos++) {
    const [x, y] = parse(g.vertexOfPos[pos]);
    const h = gj.Coord[pos][2];
    ok((x - h) % 2 === 0 && (y - h) % 2 === 0, `parity ${g.vertexOfPos[pos]}`);
    for (let d = 0; d < 12; d++) {
      const q = gj.Graph[pos][d];
      if (q === null) continue;
      const [qx, qy] = parse(g.vertexOfPos[q]);
      const qh = gj.Coord[q][2];
      const dx = Math.abs(qx - x), dy = Math.abs(qy - y);
      if (d < 4) ok(qh === h - 1 && dx === 1 && dy === 1, `below ${pos} ${d}`);
      else if (d < 8) ok(qh === h && dx + dy === 2 && dx * dy === 0, `flat ${pos} ${d}`);
      else ok(qh === h + 1 && dx === 1 && dy === 1, `above ${pos} ${d}`);
    }
    // Jocly's "Over" (the point straight above, two levels up) shares the vertex.
    if (gj.Over[pos] !== null) ok(g.vertexOfPos[gj.Over[pos]] === g.vertexOfPos[pos], `over ${pos}`);
    // Jocly's "north" is up: dir 6 (north) raises the designer number.
    const north = gj.Graph[pos][6];
    if (north !== null) ok(parse(g.vertexOfPos[north])[1] === y + 2, `north ${pos}`);
  }
  // Distinct points in a column all differ in level.
  const seen = new Map();
  for (let pos = 0; pos < g.npos; pos++) {
    const k = `${g.vertexOfPos[pos]}/${gj.Coord[pos][2]}`;
    ok(!seen.has(k), `unique ${k}`);
    seen.set(k, pos);
  }
  // Empty board: exactly the n*n holes A1, C1, ... (odd letters/numbers).
  const holes = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) holes.push(LETTERS[2 * c] + (2 * r + 1));
  assert.deepEqual(g.legalVertices().sort(), holes.sort(), `size ${n}: empty board holes`);
  checks++;
  // Bottom-left hole A1 is Jocly row n-1 (south), col 0.
  const a1 = Number(g.findMove('A1').pos);
  assert.deepEqual(gj.Coord[a1], [n - 1, 0, 0], 'A1 is the south-west hole');
  checks++;
}

// 6x6: a 2x2 block of holes makes the level-1 point above it playable.
{
  const g = await MargoGame.create(6);
  g.reset();
  for (const v of ['I9', 'A1', 'K9', 'C1', 'I11', 'A3', 'K11']) ok(g.play(v), `play ${v}`);
  // Black to move: J10 would sit on four White balls with no Black contact,
  // i.e. without freedom (suicide); B2 needs C3 first.
  let lv = g.legalVertices();
  ok(!lv.includes('J10'), 'J10 is suicide for Black');
  ok(!lv.includes('B2'), 'B2 not yet playable');
  ok(g.play('C3'), 'C3');
  lv = g.legalVertices();
  ok(lv.includes('J10'), 'J10 playable for White over I9 K9 I11 K11');
  ok(!lv.includes('B2'), 'B2 is suicide for White');
  ok(g.play('J10'), 'J10');
  ok(g.legalVertices().includes('B2'), 'B2 playable for Black over A1 C1 A3 C3');
  const m = g.findMove('B2');
  assert.deepEqual(g.game.g.Coord[Number(m.pos)], [4, 0, 1], 'B2 is level 1, Jocly row 4 col 0');
  checks++;
  ok(g.play('B2'), 'B2');
  const occ = Object.fromEntries(g.occupied().map((o) => [o.v + '/' + o.h, o.clr]));
  ok(occ['J10/1'] === 1 && occ['B2/1'] === 2, 'level-1 balls where expected');
}

// 6x6: level 2. White fills the 3x3 block A1..E5 and then the four level-1
// points over it, Black builds the same in the opposite corner; then C3
// names the level-2 point (the hole C3 is taken) and I9 likewise for Black.
{
  const g = await MargoGame.create(6);
  g.reset();
  const w = ['A1', 'C1', 'E1', 'A3', 'C3', 'E3', 'A5', 'C5', 'E5', 'B2', 'D2', 'B4', 'D4'];
  const b = ['K11', 'K9', 'K7', 'I11', 'I9', 'I7', 'G11', 'G9', 'G7', 'J10', 'H10', 'J8', 'H8'];
  for (let i = 0; i < w.length; i++) {
    ok(g.play(w[i]), `W ${w[i]}`);
    ok(g.play(b[i]), `B ${b[i]}`);
  }
  ok(g.legalVertices().includes('C3'), 'C3 (level 2) legal');
  const m = g.findMove('C3');
  assert.deepEqual(g.game.g.Coord[Number(m.pos)], [3, 0, 2], 'C3 is level 2, Jocly row 3 col 0');
  checks++;
  ok(g.play('C3'), 'play C3 level 2');
  const m2 = g.findMove('I9');
  assert.deepEqual(g.game.g.Coord[Number(m2.pos)], [0, 3, 2], 'I9 is level 2, Jocly row 0 col 3');
  checks++;
  ok(g.play('I9'), 'play I9 level 2');
  const occ = g.occupied();
  ok(occ.filter((o) => o.v === 'C3').length === 2, 'column C3 holds hole + level-2 ball');
  ok(occ.some((o) => o.v === 'C3' && o.h === 2 && o.clr === 1), 'white level-2 ball at C3');
  ok(occ.some((o) => o.v === 'I9' && o.h === 2 && o.clr === 2), 'black level-2 ball at I9');
  const [a, bb] = g.ballCounts();
  ok(a === 14 && bb === 14, `ball counts ${a} ${bb}`);
}

console.log(`verify-mapping: ${checks} checks passed`);
